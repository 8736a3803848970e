"""Reserved capacity term by term: ``reserved_instances: per_term`` and ladders (SPEC §5.2's
renewal at the end of each term, with a count chosen or given per term)."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from builders import assert_first_break_even_level, calendar, cloud, demand, model, own
from hypothesis import given, settings
from hypothesis import strategies as st

import planner
from planner.engine.cloud import term_count, term_of_month
from planner.engine.flows import present_value
from planner.engine.tco import evaluate
from planner.errors import UserError

H = 730.0
#: Σ_{k=0}^{11} 2^(k/12): twelve months of a demand that doubles every year, in month-1 units.
S1 = 1.0 / (2.0 ** (1 / 12) - 1.0)


def _reserved(term=12, per_term=False, ladder=None, fixed=None, od=3.0, rp=2.0):
    card = cloud("res", price=rp, on_demand=od, pricing=f"reserved_{term // 12}y",
                 reserved_price=rp, term=term, reserved_instances=fixed)
    return dataclasses.replace(
        card, reserved_per_term=per_term,
        reserved_ladder=None if ladder is None else np.asarray([ladder], float))


def _pv(card, dem, cal):
    m = model(card, dem=dem, cal=cal)
    flows = evaluate(m)["res"]
    return float(present_value(m, flows)[0]), flows


def test_terms_the_horizon_starts():
    assert [term_count(T, 12) for T in (1, 12, 13, 24, 36)] == [1, 1, 2, 2, 3]
    assert term_count(12, 36) == 1
    assert term_of_month(24, 12)[[1, 12, 13, 24]].tolist() == [0, 0, 1, 1]


def test_per_term_counts_on_a_24_month_example_by_hand():
    # Demand doubling every year, 1 instance in month 1: I_m / H = 2^((m − 1)/12); on-demand
    # $3, reserved $2, 1-year terms, no discounting. In a term, R instances cost
    # 2·730·12·R + 3·730·Σ max(0, I_m/H − R).
    # With S1 = Σ_{k=0}^{11} 2^(k/12) = 1/(2^(1/12) − 1) = 16.81715:
    # Term 1 (1.00 … 1.89): R=0 3·730·S1 = 36,829.6; R=1 17,520 + 3·730·(S1 − 12) = 28,069.6;
    # R=2 35,040. Best 1.
    # Term 2 (2.00 … 3.78): R=2 35,040 + 3·730·(2·S1 − 24) = 56,139.1; R=3: months 8..11 of
    # the term above 3 (2·2^(7/12) = 2.9966 is not) by 1.87748, 52,560 + 4,111.7 = 56,671.7.
    # Best 2. per_term: 1, 2 and 730·(9·S1 − 36) = 84,208.7 in all. The single count
    # (SPEC §5.2) is 2: 70,080 + 3·730·(2·S1 − 24) = 730·(6·S1 + 24) = 91,179.1.
    dem, cal = demand(level=730, growth=1.0), calendar(T=24)
    pv, flows = _pv(_reserved(per_term=True), dem, cal)
    assert flows.reserved_per_term[0].tolist() == [1.0, 2.0]
    assert pv == pytest.approx(730 * (9 * S1 - 36), rel=1e-12)
    assert pv == pytest.approx(84_208.7, abs=0.05)
    assert flows.components["reservation"][0, 1:].tolist() == [1460.0] * 12 + [2920.0] * 12
    single, single_flows = _pv(_reserved(), dem, cal)
    assert single == pytest.approx(730 * (6 * S1 + 24), rel=1e-12)
    assert single_flows.reserved_per_term is None  # SPEC §5.2's default reads as before
    ladder, _ = _pv(_reserved(ladder=[1, 2]), dem, cal)
    assert ladder == pytest.approx(pv, rel=1e-12)
    term2_with_3, _ = _pv(_reserved(ladder=[1, 3]), dem, cal)
    assert term2_with_3 - pv == pytest.approx(56_671.68 - 56_139.13, abs=0.01)


def test_last_term_runs_past_the_horizon_at_its_own_count():
    # 30 months of 1-year terms: 3 terms, the last one 6 months inside and 6 past the
    # horizon, charged in month 30 at the last term's count (4 instances · 730 h · $2 · 7).
    _, flows = _pv(_reserved(ladder=[1, 2, 4]), demand(level=0), calendar(T=30))
    charge = flows.components["reservation"][0]
    assert charge[1] == 1460.0 and charge[13] == 2920.0 and charge[25] == 5840.0
    assert charge[30] == pytest.approx(5840.0 * 7)


def test_one_count_ladder_is_the_fixed_count():
    dem, cal = demand(level=2000, growth=0.4), calendar(T=36, r=0.08)
    fixed, _ = _pv(_reserved(fixed=3), dem, cal)
    ladder, _ = _pv(_reserved(ladder=[3, 3, 3]), dem, cal)
    assert ladder == pytest.approx(fixed, rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(level=st.floats(0, 3000), growth=st.floats(-0.5, 2.0), T=st.integers(1, 30),
       term=st.sampled_from([12, 36]), rate=st.floats(0, 0.3), rp=st.floats(0.1, 3.0),
       premium=st.floats(1.0, 3.0))
def test_per_term_is_the_brute_force_best_ladder(level, growth, T, term, rate, rp, premium):
    """per_term has the lowest present value of all ladders of counts 0..R_max, and in each
    term the fewest instances among the counts that reach it (ties to fewer)."""
    dem, cal = demand(level=level, growth=growth), calendar(T=T, r=rate)
    chosen, flows = _pv(_reserved(term=term, per_term=True, od=rp * premium, rp=rp), dem, cal)
    counts = flows.reserved_per_term[0]
    n = term_count(T, term)
    top = int(np.ceil(level * max(1.0, (1 + growth) ** ((T - 1) / 12)) / H)) + 1
    grid = range(top + 1)
    ladders = list(itertools.product(grid, repeat=n))
    cards = [_reserved(term=term, ladder=list(lad), od=rp * premium, rp=rp) for lad in ladders]
    pvs = np.array([_pv(c, dem, cal)[0] for c in cards])
    best = pvs.min()
    assert chosen <= best * (1 + 1e-9) + 1e-9
    # Per term, the fewest instances with the best present value: the ladders equal to the
    # chosen one elsewhere, varied in one term, cost more below its count, not less above.
    for j in range(n):
        for r in grid:
            ladder = counts.copy()
            ladder[j] = r
            pv = _pv(_reserved(term=term, ladder=ladder.tolist(), od=rp * premium, rp=rp),
                     dem, cal)[0]
            assert pv >= chosen - 1e-9 * max(abs(chosen), 1.0), (j, r, pv, chosen)
            if r < counts[j]:  # fewer instances than chosen: strictly dearer
                assert pv > chosen, (j, r, pv, chosen)


@settings(max_examples=150, deadline=None)
@given(price=st.floats(500, 60_000), run=st.floats(0, 2), gpu_count=st.integers(1, 8),
       reserved=st.floats(0.1, 3), premium=st.floats(1.0, 3.0), term=st.sampled_from([12, 36]),
       T=st.integers(6, 40), growth=st.floats(-0.5, 1.5), rate=st.floats(0, 0.2),
       overflow=st.booleans(), form=st.sampled_from(["per_term", "ladder"]),
       seed=st.integers(0, 2**16))
def test_break_even_level_against_per_term_counts_is_a_root(
        price, run, gpu_count, reserved, premium, term, T, growth, rate, overflow, form, seed):
    """Against per-term counts (chosen per level, or a ladder), the break-even level is where
    both present values are equal (or the difference changes sign at a jump), and a scan of
    1,500 levels finds no sign change below it."""
    od = reserved * premium
    n = term_count(T, term)
    ladder = np.random.default_rng(seed).integers(0, 2 * gpu_count + 1, n).tolist()
    res = _reserved(term=term, per_term=form == "per_term",
                    ladder=ladder if form == "ladder" else None, od=od, rp=reserved)
    cards = [own(price=price, gpu_count=gpu_count, operating=run, lifetime_months=T,
                 overflow="spare" if overflow else None), res]
    if overflow:
        cards.append(cloud("spare", price=od))
    m = model(*cards, dem=demand(level=100, growth=growth), cal=calendar(T=T, r=rate))
    g_max = max(1.0, (1 + growth) ** ((T - 1) / 12))
    bound = 10 * gpu_count * 730 if overflow else gpu_count * 730 / g_max
    assert_first_break_even_level(m, "box", "res", bound)


# -- usage.yaml, Plan.replace and sweeps --------------------------------------------------------


def _plan_data(reserved=None, T=24, pricing="reserved_1y"):
    option = {"name": "res", "cloud": {"price_per_hour": 3.0,
                                       "reserved_1y_price_per_hour": 2.0,
                                       "reserved_3y_price_per_hour": 1.5},
              "pricing": pricing}
    if reserved is not None:
        option["reserved_instances"] = reserved
    return {"version": 1, "horizon_months": T,
            "demand": {"gpu_hours_per_month": 730, "growth_per_year": 1.0},
            "site": {"electricity_per_kwh": 0.2},
            "options": [{"name": "box", "own": {"purchase_price": 30_000, "power_watts": 500,
                                                "gpu_count": 4}}, option]}


def _problems(data):
    with pytest.raises(UserError) as caught:
        planner.load(data)
    return [(p.path, p.message, p.suggestion) for p in caught.value.problems]


def test_per_term_in_a_file_reports_the_counts_used():
    row = planner.load(_plan_data("per_term")).evaluate().to_dict()["options"][1]
    assert row["reserved_instances_per_term"] == [1, 2]
    assert row["present_value"] == pytest.approx(730 * (9 * S1 - 36), rel=1e-12)
    default = planner.load(_plan_data()).evaluate().to_dict()["options"][1]
    assert "reserved_instances_per_term" not in default  # SPEC §5.2's single count as before


def test_the_counts_per_term_show_in_the_terminal_csv_and_workbook():
    import csv
    import io

    import openpyxl
    from rich.console import Console

    from planner.render import render
    from planner.render.terminal import summary_table

    result = planner.load(_plan_data("per_term")).evaluate()
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(summary_table(result))
    assert "res: reserved per term: 1, 2 instances" in console.file.getvalue()
    rows = list(csv.DictReader(io.StringIO(render(result, "csv").decode("utf-8"))))
    assert [r["reserved_instances_per_term"] for r in rows] == ["", "1; 2"]
    sheet = openpyxl.load_workbook(io.BytesIO(render(result, "xlsx")))["Options"]
    header = [c.value for c in sheet[1]]
    column = header.index("Reserved instances per term")
    assert [row[column].value for row in sheet.iter_rows(min_row=2)] == [None, "1; 2"]
    single = io.StringIO()
    Console(file=single, width=100).print(summary_table(planner.load(_plan_data()).evaluate()))
    assert "reserved per term" not in single.getvalue()


def test_a_ladder_of_the_wrong_length_is_located_with_the_length_expected():
    (path, message, _), = _problems(_plan_data([1, 2, 3]))
    assert path == "options[1].reserved_instances"
    assert "2 for a 12-month term over 24 months" in message and "got 3" in message
    (_, message, _), = _problems(_plan_data([1, 2], T=12, pricing="reserved_3y"))
    assert "1 for a 36-month term over 12 months" in message
    assert planner.load(_plan_data([4], T=12, pricing="reserved_3y"))


def test_bad_reserved_values_are_located_with_a_did_you_mean():
    (path, message, suggestion), = _problems(_plan_data("per-term"))
    assert path == "options[1].reserved_instances" and suggestion == "per_term"
    assert "a list of whole numbers (one per term)" in message
    found = _problems(_plan_data([1, -1]))
    assert found == [("options[1].reserved_instances[1]", "must be at least 0, got -1", None)]


def test_replace_and_sweeps_take_counts_per_term_and_numbers():
    plan = planner.load(_plan_data("per_term"))
    replaced = plan.replace({"options.res.reserved_instances": [1, 3]}).evaluate().to_dict()
    assert replaced["options"][1]["reserved_instances_per_term"] == [1, 3]
    numbers = plan.sweep({"options.res.reserved_instances": [0, 1, 2]})
    res = numbers[numbers["option"] == "res"]
    assert res["present_value"].iloc[2] == pytest.approx(730 * (6 * S1 + 24), rel=1e-12)
    words = plan.sweep({"options.res.reserved_instances": ["per_term", [1, 2], [2, 2]]})
    res = words[words["option"] == "res"]
    assert res["options.res.reserved_instances"].tolist() == ["per_term", [1, 2], [2, 2]]
    assert res["present_value"].tolist() == pytest.approx(
        [730 * (9 * S1 - 36), 730 * (9 * S1 - 36), 730 * (6 * S1 + 24)], rel=1e-12)


def test_a_sweep_of_the_discount_rate_alone_with_a_reserved_option():
    # Only the discount rate varies: the instance-hours are one row, the discount factors one
    # per scenario (this failed to broadcast; found by the uncertainty fuzz cases).
    plan = planner.load(_plan_data())
    frame = plan.sweep({"discount_rate": [0.0, 0.1]})
    res = frame[frame["option"] == "res"]["present_value"].tolist()
    expected = [next(o for o in plan.replace({"discount_rate": r}).evaluate().to_dict()
                     ["options"] if o["name"] == "res")["present_value"] for r in (0.0, 0.1)]
    assert res == pytest.approx(expected, rel=1e-12)
