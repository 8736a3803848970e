"""SPEC §6, the best mix: ``Plan.optimize()`` and ``planner optimize``. Every expected figure
is worked out by hand in the comments; the property test checks the search against a
brute-force evaluation of every candidate (``plan.replace(...).evaluate()``)."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import event, given, settings
from hypothesis import strategies as st

import planner
from planner.cli import main
from planner.engine.mix import rent_then_buy_month
from planner.errors import UserError


def plan_data(**changes):
    """800 GPU-hours a month for 12 months (730-hour months, no discounting); a machine of one
    GPU for 5,000 drawing 300 W at 0.20 a kWh, kept one year without resale (worth nothing at
    the end of its year); rent at 2 an hour."""
    data = {
        "version": 1, "horizon_months": 12,
        "demand": {"gpu_hours_per_month": 800},
        "site": {"electricity_per_kwh": 0.2},
        "options": [
            {"name": "box", "own": {"purchase_price": 5000, "power_watts": 300,
                                    "lifetime_years": 1}},
            {"name": "rent", "cloud": {"price_per_hour": 2}},
        ],
        "mix": ["box", "rent"],
    }
    data.update(changes)
    return data


def candidate(result, **setting):
    frame = result.candidates
    mask = np.ones(len(frame), bool)
    for key, value in setting.items():
        mask &= frame[key.replace("__", ".")] == value
    (row,) = frame[mask].itertuples()
    return row


# -- hand-computed cases ------------------------------------------------------------------------


def test_one_machine_more_costs_more_than_the_overflow_it_saves():
    # 0 machines: 800 h × 2 × 12 = 19,200.
    # 1 machine from month 0: serves 730 h (energy 730 × 0.3 kW × 0.2 = 43.80 a month), 70 h
    #   overflow at 2 = 140 a month; 5,000 bought, worth 5,000 − 5,000 × 12/12 = 0 at T.
    #   5,000 + 12 × (43.80 + 140) = 7,205.60.
    # 2 machines: all 800 h served (energy 800 × 0.06 = 48 a month): 10,000 + 576 = 10,576:
    #   the second machine (5,000) costs more than the overflow it saves (1,680).
    result = planner.load(plan_data()).optimize()
    assert result.present_value == pytest.approx(7205.6)
    assert (result.best["box.machines"], result.best["box.purchase_month"]) == (1, 0)
    assert result.description() == "own 1 box machine from month 0, the rest on rent"
    alt = dict(zip(result.alternatives["change"], result.alternatives["present_value"]))
    assert alt["one box machine more"] == pytest.approx(10_576.0)
    assert alt["one box machine fewer"] == pytest.approx(19_200.0)
    # The best single option is renting (the box alone cannot serve 800 h): 19,200.
    assert result.single == "rent"
    assert result.saving == pytest.approx(19_200.0 - 7205.6)


def test_a_later_purchase_moves_the_residual_value():
    # Bought in month 6: 6 months rented in full (6 × 1,600 = 9,600), 6 months of service
    # (6 × 183.80 = 1,102.80), 5,000 bought; the machine is 6 months old at T: worth
    # 5,000 − 5,000 × 6/12 = 2,500. 9,600 + 1,102.80 + 5,000 − 2,500 = 13,202.80.
    result = planner.load(plan_data()).optimize()
    row = candidate(result, box__machines=1, box__purchase_month=6)
    assert row.present_value == pytest.approx(13_202.8)
    # Each month later adds 1,600 − 183.80 − 5,000/12 = 999.53 (rent less running costs less
    # the residual value gained): month 0 stays the best.
    later = candidate(result, box__machines=1, box__purchase_month=7)
    assert later.present_value - row.present_value == pytest.approx(1600 - 183.8 - 5000 / 12)


def test_commitment_ladder_under_growth():
    # Demand doubling a year: month m's instance-hours I_m = 730 × 2^((m − 1)/12), 24 months,
    # 1-year terms at 1.20 committed, 2 on demand; the box (1,000,000) is never worth buying.
    # Σ_{k=0..11} 2^(k/12) = 1/(2^(1/12) − 1) = 16.8172.
    # Term 1 (I/H from 1 to 1.89): 1 instance: 12 × 730 × 1.2 = 10,512 + on demand
    #   2 × 730 × (16.8172 − 12) = 7,033.1: 17,545.1 (0 instances: 24,553; 2: 21,024).
    # Term 2 (I/H from 2 to 3.78): 3 instances: 31,536 + 2 × 730 × Σ max(0, 2·2^(k/12) − 3)
    #   (k = 8..11: 0.1748 + 0.3636 + 0.5636 + 0.7754 = 1.8774): 2,741.0, 34,277.0
    #   (2 instances: 21,024 + 1,460 × (2 × 16.8172 − 24) = 35,090.2; 4: 42,048).
    data = plan_data(horizon_months=24,
                     demand={"gpu_hours_per_month": 730, "growth_per_year": 1.0})
    data["options"][0]["own"]["purchase_price"] = 1_000_000
    data["options"][1] = {"name": "rent", "pricing": "reserved_1y",
                          "cloud": {"price_per_hour": 2, "reserved_1y_price_per_hour": 1.2}}
    result = planner.load(data).optimize()
    assert result.best["box.machines"] == 0
    assert [result.best["rent.term_1"], result.best["rent.term_2"]] == [1, 3]
    s = 1 / (2 ** (1 / 12) - 1)
    tail = sum(2 * 2 ** (k / 12) - 3 for k in range(8, 12))
    expected = 10_512 + 1460 * (s - 12) + 31_536 + 1460 * tail
    assert result.present_value == pytest.approx(expected)
    assert result.present_value == pytest.approx(51_822.1, abs=0.1)
    assert result.description() == ("own no box machine, commit rent instances: 1 for year 1 "
                                    "and 3 for year 2, the rest on demand (rent)")
    alt = dict(zip(result.alternatives["change"], result.alternatives["versus_best"]))
    # One more in term 1: 21,024 instead of 17,545.1.
    assert alt["one rent instance more committed in term 1"] == pytest.approx(
        21_024 - (10_512 + 1460 * (s - 12)))


def test_rent_then_buy_rule_beside_the_optimum():
    # The rule for 1 machine: renting instead costs 1,600 − 183.80 = 1,416.20 a month more
    # than running the machine; owning costs 5,000 net (worth 0 at T). Cumulative rent:
    # 1,416.2, 2,832.4, 4,248.6, 5,664.8 ≥ 5,000 in month 4: buy in month 4.
    # That mix: 4 × 1,600 + 8 × 183.80 + 5,000 − 5,000 × 4/12 = 11,203.73, against 7,205.60.
    result = planner.load(plan_data()).optimize()
    (rule,) = result.buy_later.itertuples()
    assert (rule.option, rule.machines, rule.rule_month) == ("box", 1, 4)
    assert rule.rent_paid == pytest.approx(4 * 1416.2)
    assert rule.net_cost_of_owning == pytest.approx(5000.0)
    assert rule.rule_present_value == pytest.approx(6400 + 1470.4 + 5000 - 5000 * 4 / 12)
    assert rule.rule_present_value <= 2 * rule.best_present_value  # the ski-rental bound
    (sentence,) = result.buy_later_sentences()
    assert "rent until month 4" in sentence and "twice" in sentence


def test_rent_then_buy_month():
    assert rent_then_buy_month(np.array([100.0, 100.0, 100.0]), 250.0) == 3
    assert rent_then_buy_month(np.array([100.0, 100.0]), 250.0) is None
    assert rent_then_buy_month(np.array([100.0]), 0.0) == 0
    assert rent_then_buy_month(np.array([300.0, 0.0]), 300.0) == 1


def test_ties_go_to_fewer_machines_then_the_later_purchase():
    # Demand 0: every candidate with machines costs its purchase; none costs 0 → no machine.
    result = planner.load(plan_data(demand={"gpu_hours_per_month": 0})).optimize()
    assert result.best["box.machines"] == 0
    assert result.present_value == 0.0


def test_json_of_a_plan_with_a_mix_has_the_mix():
    data = planner.load(plan_data()).evaluate().to_dict()
    mix = data["mix"]
    assert mix["members"] == ["box", "rent"]
    assert mix["machines"] == {"box": 1} and mix["purchase_month"] == {"box": 0}
    assert mix["present_value"] == pytest.approx(7205.6)
    assert mix["best_single_option"] == "rent"
    assert mix["buy_later"][0]["rule_month"] == 4
    json.dumps(data)
    assert planner.load({k: v for k, v in plan_data().items() if k != "mix"}
                        ).evaluate().to_dict().get("mix") is None


# -- validation -----------------------------------------------------------------------------------


def problems(data):
    with pytest.raises(UserError) as err:
        planner.load(data)
    return err.value.problems


def test_unknown_member_is_located_with_a_suggestion():
    (p,) = problems(plan_data(mix=["bx", "rent"]))
    assert p.path == "mix[0]" and "no option is named 'bx'" in p.message
    assert p.suggestion and "box" in p.suggestion


def test_member_order_kinds_and_duplicates():
    first, last = problems(plan_data(mix=["rent", "box"]))
    assert first.path == "mix[0]" and "'rent' is a cloud option" in first.message
    assert last.path == "mix[1]" and "must be a cloud option" in last.message
    found = problems(plan_data(mix=["box", "box", "rent"]))
    assert any("twice" in p.message and p.path == "mix[1]" for p in found)
    (short,) = problems(plan_data(mix=["box"]))
    assert short.path.startswith("mix") and "at least 2" in short.message


def test_an_own_members_overflow_must_be_the_next_member():
    data = plan_data()
    data["options"].append({"name": "other", "cloud": {"price_per_hour": 3}})
    data["options"][0]["overflow"] = "other"
    (p,) = problems(data)
    assert p.path == "mix[0]" and "overflows to 'other'" in p.message


def test_mix_problem_has_file_line_and_column(tmp_path):
    path = tmp_path / "plan.yaml"
    path.write_text("version: 1\nhorizon_months: 12\ndemand: {gpu_hours_per_month: 800}\n"
                    "site: {electricity_per_kwh: 0.2}\noptions:\n"
                    "  - {name: box, own: {purchase_price: 5000, power_watts: 300}}\n"
                    "  - {name: rent, cloud: {price_per_hour: 2}}\nmix: [box, rnt]\n")
    result = CliRunner().invoke(main, ["optimize", str(path)])
    assert result.exit_code == 1
    assert "plan.yaml:8:" in result.output and "mix[1]" in result.output
    assert "rent" in result.output and "Traceback" not in result.output


def test_optimize_without_a_mix_searches_the_chains_the_file_wires(tmp_path):
    """SPEC §6 defines planner optimize on any usage file: without mix, the chain the file's
    overflow wires (box → rent) is searched as its mix, with the same answer."""
    with_mix = plan_data()
    data = {k: v for k, v in with_mix.items() if k != "mix"}
    data["options"][0]["overflow"] = "rent"
    path = tmp_path / "plan.yaml"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["optimize", str(path)])
    assert result.exit_code == 0, result.output
    assert "own 1 box machine from month 0" in result.output
    found, expected = planner.load(data).optimize(), planner.load(with_mix).optimize()
    assert found.members == expected.members == ["box", "rent"]
    assert found.best.present_value == expected.best.present_value
    assert found.to_dict() == expected.to_dict()


def test_the_chains_a_file_wires():
    from planner.evaluate.optimize import file_chains

    def option(name, kind, overflow=None):
        entry = {"name": name, kind: {}}
        return entry | ({"overflow": overflow} if overflow else {})

    usage = {"options": [option("a", "own", "b"), option("b", "own", "c"),
                         option("c", "cloud"), option("d", "own", "tier"),
                         option("tier", "free_tier"), option("e", "own"),
                         option("f", "own", "c")]}
    # a → b → c (b is a's target, so not a head); d ends at a free tier, e nowhere.
    assert file_chains(usage) == [["a", "b", "c"], ["f", "c"]]


def test_optimize_with_nothing_to_search_is_a_user_error(tmp_path):
    # plan_data() without its mix: box has no overflow, so no chain ends at the rental.
    path = tmp_path / "plan.yaml"
    path.write_text(json.dumps({k: v for k, v in plan_data().items() if k != "mix"}))
    result = CliRunner().invoke(main, ["optimize", str(path)])
    assert result.exit_code == 1 and "nothing to search" in result.output
    assert "Traceback" not in result.output


def test_optimize_cli_prints_the_mix_and_json(tmp_path):
    path = tmp_path / "plan.yaml"
    path.write_text(json.dumps(plan_data()))
    result = CliRunner().invoke(main, ["optimize", str(path)])
    assert result.exit_code == 0, result.output
    assert "own 1 box machine from month 0" in result.output
    assert "Rent-then-buy rule" in result.output
    out = CliRunner().invoke(main, ["optimize", str(path), "--format", "json"])
    assert out.exit_code == 0
    assert json.loads(out.output)["machines"] == {"box": 1}
    assert CliRunner().invoke(main, ["optimize", str(tmp_path / "none.yaml")]).exit_code == 1
    assert CliRunner().invoke(main, ["optimize", str(path), "--format", "x"]).exit_code == 2


# -- the search equals brute force --------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(level=st.floats(0, 1800), growth=st.floats(-0.5, 1.5), T=st.integers(2, 6),
       price=st.floats(300, 6000), resale=st.floats(0, 0.6), rate=st.floats(0, 0.3),
       reserved=st.booleans(), premium=st.floats(1.05, 2.5), fixed=st.floats(0, 200))
def test_optimum_equals_brute_force(level, growth, T, price, resale, rate, reserved, premium,
                                    fixed):
    """Every candidate's present value is its own evaluation's, and the best is the brute-force
    minimum with its tie rules; with reserved pricing, brute force also tries every ladder."""
    cloud = {"name": "rent", "cloud": {"price_per_hour": 2.0 * premium}}
    if reserved:
        cloud = {"name": "rent", "pricing": "reserved_1y",
                 "cloud": {"price_per_hour": 2.0 * premium, "reserved_1y_price_per_hour": 2.0}}
    data = {
        "version": 1, "horizon_months": T, "discount_rate": rate,
        "demand": {"gpu_hours_per_month": level, "growth_per_year": growth},
        "site": {"electricity_per_kwh": 0.2},
        "options": [{"name": "box", "own": {"purchase_price": price, "power_watts": 400,
                                            "lifetime_years": 0.25, "resale_fraction": resale,
                                            "fixed_cost_per_month": fixed}}, cloud],
        "mix": ["box", "rent"],
    }
    plan = planner.load(data)
    result = plan.optimize()
    top = int(result.candidates["box.machines"].max())
    peak = level * max(1.0, (1 + growth) ** ((T - 1) / 12))
    ladders = [None]
    if reserved:
        ladders = [[r] for r in range(int(np.ceil(peak / 730)) + 2)]
    brute = []
    for m, p in itertools.chain([(0, 0)], itertools.product(range(1, top + 1), range(T))):
        base = {"mix": None, "options.box.overflow": "rent", "options.box.own.machines": m,
                "options.box.own.purchase_month": p}
        pvs = []
        for ladder in ladders:
            changes = dict(base)
            if ladder is not None:
                changes["options.rent.reserved_instances"] = ladder
            row = plan.replace(changes).evaluate().options.set_index("name").loc["box"]
            pvs.append(row["present_value"])
        brute.append((min(pvs), m, p))
        mine = candidate(result, box__machines=m, box__purchase_month=p).present_value
        assert mine == pytest.approx(min(pvs), rel=1e-9, abs=1e-6)
    low = min(pv for pv, _, _ in brute)
    tied = [(m, -p) for pv, m, p in brute if pv <= low + 1e-9 * max(abs(low), 1.0)]
    m, neg_p = min(tied)
    assert result.present_value == pytest.approx(low, rel=1e-9, abs=1e-6)
    assert (result.best["box.machines"], result.best["box.purchase_month"]) == (m, -neg_p)


# -- the commitments against an integer program (scipy.optimize.milp) ---------------------------


def milp_ladder(hours, term, reserved_price, on_demand_price, monthly_discount, H=730.0):
    """The best commitments of instance-hours ``hours`` (months 1..T) by integer programming:
    min Σ_j R_j·p_r·H·w_j + Σ_m p_od·v_m·s_m, s_m + R_{term of m}·H ≥ I_m, s ≥ 0, R whole;
    w_j: the term's discount factors, its months past the horizon charged at v_T."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    T = len(hours)
    terms = -(-T // term)
    v = np.asarray(monthly_discount)  # months 1..T
    w = np.array([v[j * term:(j + 1) * term].sum() for j in range(terms)])
    w[-1] += ((-T) % term) * v[-1]
    c = np.concatenate([reserved_price * H * w, on_demand_price * v])
    a = np.zeros((T, terms + T))
    for m in range(T):
        a[m, m // term] = H
        a[m, terms + m] = 1.0
    res = milp(c, constraints=LinearConstraint(a, lb=hours, ub=np.inf),
               integrality=np.r_[np.ones(terms), np.zeros(T)], bounds=Bounds(0, np.inf))
    assert res.success
    return np.round(res.x[:terms]), res.fun


def test_ladder_under_growth_is_the_integer_programs():
    # The case of test_commitment_ladder_under_growth, solved by HiGHS's branch and bound.
    hours = 730 * 2 ** (np.arange(24) / 12)
    ladder, cost = milp_ladder(hours, 12, 1.2, 2.0, np.ones(24))
    assert ladder.tolist() == [1, 3]
    assert cost == pytest.approx(51_822.1, abs=0.1)


@settings(max_examples=25, deadline=None)
@given(level=st.floats(0, 4000), growth=st.floats(-0.5, 2.0), T=st.integers(1, 30),
       rate=st.floats(0, 0.3), premium=st.floats(1.05, 3.0), machines=st.integers(0, 3),
       month=st.integers(0, 29))
def test_commitments_equal_the_integer_program(level, growth, T, rate, premium, machines,
                                               month):
    """For a candidate of the search (machines bought in a month), the cloud's commitments
    cost what the integer program's optimum costs on the work the machines pass on."""
    month = min(month, T - 1)
    data = plan_data(horizon_months=T, discount_rate=rate,
                     demand={"gpu_hours_per_month": level, "growth_per_year": growth})
    data["options"][1] = {"name": "rent", "pricing": "reserved_1y",
                          "cloud": {"price_per_hour": 2.0 * premium,
                                    "reserved_1y_price_per_hour": 2.0}}
    result = planner.load(data).optimize()
    machines = min(machines, int(result.candidates["box.machines"].max()))  # those searched
    row = candidate(result, box__machines=machines,
                    box__purchase_month=month if machines else 0)
    m = np.arange(1, T + 1)
    demand = level * (1 + growth) ** ((m - 1) / 12)
    served = np.where(m > (month if machines else 0), np.minimum(demand, machines * 730.0), 0)
    v = (1 + rate) ** (-m / 12)
    _, cloud_cost = milp_ladder(demand - served, 12, 2.0, 2.0 * premium, v)
    # The box's own costs: purchase in its month, energy 0.3 kW × 0.2 on the hours it serves,
    # its residual value (one-year lifetime, no resale) at T.
    p = month if machines else 0
    life_left = 1 - ((T - p) - 12 * np.floor((T - p - 1) / 12)) / 12
    own = machines * 5000 * ((1 + rate) ** (-p / 12)) + (served * 0.06 * v).sum()
    replaced = [p + 12 * k for k in range(1, 4) if p + 12 * k < T]
    own += sum(machines * 5000 * (1 + rate) ** (-r / 12) for r in replaced)
    own -= machines * 5000 * life_left * (1 + rate) ** (-T / 12)
    assert row.present_value == pytest.approx(own + cloud_cost, rel=1e-7, abs=1e-4)


# -- the report -----------------------------------------------------------------------------------


def test_late_purchase_is_a_step_in_the_cumulative_curve():
    from planner.render.charts.lines import _cumulative

    # Months 0..3 cost 100, 10, 510 (500 of it the purchase of month 2), 10: the curve rises
    # by 10 over month 2, then steps by 500 at t = 2.
    t_grid, y = _cumulative([100, 10, 510, 10], (2, 500.0))
    assert t_grid.tolist() == [0, 0, 1, 2, 2, 3]
    assert y.tolist() == [0, 100, 110, 120, 620, 630]
    assert _cumulative([100, 10], None)[1].tolist() == [0, 100, 110]


def test_report_has_the_best_mix_page_and_the_purchase_month(tmp_path):
    from planner.render import render

    data = plan_data()
    data["options"].insert(1, {"name": "later", "own": {"purchase_price": 5000,
                                                        "power_watts": 300,
                                                        "purchase_month": 3},
                               "overflow": "rent"})
    result = planner.load(data).evaluate()
    html = render(result, "html").decode()
    assert '<section class="mix">' in html and "<svg" in html.split('<section class="mix">')[1]
    assert "own 1 box machine from month 0" in html
    assert "Rent-then-buy rule" in html
    assert "bought in month 3 (serving from month 4)" in html
    md = render(result, "md").decode()
    assert "## The best mix" in md
    without = planner.load({k: v for k, v in plan_data().items() if k != "mix"}).evaluate()
    assert '<section class="mix">' not in render(without, "html").decode()


def test_workbook_has_the_mix_sheets(tmp_path):
    import io

    import openpyxl

    from planner.render import render

    book = openpyxl.load_workbook(io.BytesIO(render(planner.load(plan_data()).evaluate(),
                                                    "xlsx")))
    assert {"Best mix", "Mix candidates"} <= set(book.sheetnames)
    rows = list(book["Best mix"].iter_rows(values_only=True))
    assert rows[1][0] == "best mix" and rows[1][2] == pytest.approx(7205.6)
    # A header, no machine, then 1..3 machines (2 cover 800 h; one more) × 12 months.
    assert book["Mix candidates"].max_row == 1 + 1 + 3 * 12


def test_a_member_that_cannot_run_the_work_is_refused_without_a_search(monkeypatch):
    """Jobs of 2 GPUs on one-GPU machines (SPEC §5.3: machines do not pool for one job), the
    cloud renting 2-GPU instances: the machines are infeasible at every count, 0 included, so
    every candidate is, and the mix is refused at ``mix`` without evaluating one; the search
    over all 1 + 3 × 12 = 37 candidates (N = ⌈800 / 730⌉ = 2, searched to N + 1; the shortcut
    turned off) refuses it the same way."""
    import planner.evaluate.optimize as optimize_module

    data = plan_data(demand={"gpu_hours_per_month": 800, "gpus": 2})
    data["options"][1]["cloud"]["gpus"] = 2
    assert planner.load({**data, "mix": None}).evaluate().to_dict()["options"][1]["feasible"]
    with monkeypatch.context() as patched:
        patched.setattr(optimize_module, "grid_values",
                        lambda *a, **k: pytest.fail("the candidates were evaluated"))
        with pytest.raises(UserError) as err:
            planner.load(data).optimize()
    assert err.value.problems[0].path == "mix" and "no mix" in err.value.problems[0].message
    evaluated = []
    searched = optimize_module.grid_values
    monkeypatch.setattr(optimize_module, "cannot_run_the_work",
                        lambda model, card: np.zeros(1, bool))
    monkeypatch.setattr(optimize_module, "grid_values",
                        lambda *a, **k: evaluated.append(searched(*a, **k)) or evaluated[-1])
    with pytest.raises(UserError) as full:
        planner.load(data).optimize()
    assert str(full.value) == str(err.value)
    assert evaluated[0].feasible.size == 37 and not evaluated[0].feasible.any()


def test_a_later_member_that_cannot_run_the_work_leaves_the_search_to_the_others():
    """Jobs of 2 GPUs; the first member's machines have 2 GPUs, the second's one: the second
    cannot run the work, but its reasons count only where work reaches it. One 2-GPU machine
    of 5,000 serves all 800 GPU-hours a month, 400 machine-hours: 5,000 + 400 × 12 × 0.3 kW ×
    0.20 = 5,288, against 400 two-GPU instance-hours × 2 × 12 = 9,600 of renting, so the best
    mix owns one of the first and none of the second (the search is run, not refused)."""
    data = plan_data(demand={"gpu_hours_per_month": 800, "gpus": 2})
    data["options"][0]["own"]["gpu_count"] = 2
    data["options"].insert(1, {"name": "small", "own": {"purchase_price": 5000,
                                                        "power_watts": 300,
                                                        "lifetime_years": 1}})
    data["options"][2]["cloud"]["gpus"] = 2
    data["mix"] = ["box", "small", "rent"]
    result = planner.load(data).optimize()
    assert (result.best["box.machines"], result.best["small.machines"]) == (1, 0)
    assert result.present_value == pytest.approx(5000 + 400 * 12 * 0.3 * 0.2)


def test_no_feasible_candidate_and_too_many_candidates(tmp_path, monkeypatch):
    import planner.evaluate.optimize as optimize_module

    # Every GPU has 16 GB; the work needs 80: no candidate serves it.
    data = plan_data(demand={"gpu_hours_per_month": 800, "min_gpu_memory_gb": 80})
    data["options"][0]["own"]["gpu_memory_gb"] = 16
    data["options"][1]["cloud"]["gpu_memory_gb"] = 16
    with pytest.raises(UserError) as err:
        planner.load(data).optimize()
    assert err.value.problems[0].path == "mix" and "no mix" in err.value.problems[0].message
    assert planner.load(data).evaluate().to_dict()["mix"] is None
    path = tmp_path / "plan.yaml"
    path.write_text(json.dumps(data))
    assert CliRunner().invoke(main, ["optimize", str(path)]).exit_code == 1
    # 1 + 3 × 12 = 37 candidates over a limit of 36: refused at mix.
    monkeypatch.setattr(optimize_module, "MAX_CANDIDATES", 36)
    with pytest.raises(UserError) as err:
        planner.load(plan_data()).optimize()
    assert err.value.problems[0].path == "mix" and "37 candidates" in err.value.problems[0].message


# -- one member before an hourly cloud: the grid evaluated on its pieces --------------------------


@settings(max_examples=80, deadline=None)
@given(level=st.floats(2_000, 30_000), growth=st.floats(-0.9, 1.5), T=st.integers(2, 18),
       price=st.floats(0, 20_000), resale=st.floats(0, 0.6), lifetime=st.floats(0.1, 5),
       availability=st.floats(0.3, 1), always_on=st.booleans(), fixed=st.floats(0, 300),
       loan=st.booleans(), spot=st.booleans(), storage=st.floats(0, 0.2),
       data_gb=st.floats(0, 5_000), interruptions=st.floats(0, 0.5),
       increment=st.sampled_from([0, 1, 60]), gpus=st.sampled_from([1, 2]),
       cloud_memory=st.sampled_from([None, 8]), rate=st.floats(0, 0.3))
def test_the_grid_on_its_pieces_equals_every_candidate(
        level, growth, T, price, resale, lifetime, availability, always_on, fixed, loan, spot,
        storage, data_gb, interruptions, increment, gpus, cloud_memory, rate):
    """One own member before a cloud paid by the hour (up to some 500 counts × 18 months, so
    that every candidate can be evaluated beside it): the grid evaluated only at the counts
    where the value can turn (and either side) and interpolated between gives every candidate's
    feasibility, present value and nominal cost as evaluating every candidate does (to 10⁻⁹),
    and the same best candidate. A cloud GPU of 8 GB against jobs of 16 GB makes every count
    that passes work to it infeasible, so feasibility changes along the counts."""
    from planner.engine import mix
    from planner.engine.fleet import covering_machines
    from planner.evaluate.optimize import mix_plan

    own = {"purchase_price": price, "power_watts": 700, "gpu_count": 2,
           "gpu_memory_gb": 80, "lifetime_years": lifetime, "resale_fraction": resale,
           "availability": availability, "always_on": always_on,
           "fixed_cost_per_month": fixed}
    if loan:
        own["financing"] = {"annual_rate": 0.07, "months": 24, "down_payment": price / 5}
    cloud = {"price_per_hour": 3.0, "spot_price_per_hour": 1.2, "gpus": 2}
    if cloud_memory:
        cloud["gpu_memory_gb"] = cloud_memory
    data = {
        "version": 1, "horizon_months": T, "discount_rate": rate,
        "demand": {"gpu_hours_per_month": level, "growth_per_year": growth, "gpus": gpus,
                   "data_gb": data_gb, "min_gpu_memory_gb": 16 if cloud_memory else 0},
        "site": {"electricity_per_kwh": 0.25},
        "options": [{"name": "box", "own": own},
                    {"name": "rent", "cloud": cloud, "pricing": "spot" if spot else "on_demand",
                     "storage_per_gb_month": storage, "billing_increment_minutes": increment,
                     "interruptions_per_hour": interruptions if spot else 0}],
        "mix": ["box", "rent"],
    }
    model = mix_plan(planner.load(data)).model
    counts = int(covering_machines(model, "box")[0]) + 1
    evaluated = mix._counts_to_evaluate(model, "box", counts)
    machines, months = mix.member_grid(counts, T)
    fast = mix.grid_values(model, "box", counts)
    every = mix.candidate_values(model, "box", {"box": machines}, {"box": months})
    assert np.array_equal(fast.feasible, every.feasible)
    ok = every.feasible
    for mine, theirs in ((fast.present_value, every.present_value),
                         (fast.total_cost, every.total_cost)):
        np.testing.assert_allclose(mine[ok], theirs[ok], rtol=1e-9, atol=1e-6)
    month_matrix = months[:, None]
    assert mix.best_candidate(fast, machines, month_matrix) == mix.best_candidate(
        every, machines, month_matrix)
    event("on pieces" if evaluated is not None else "every candidate")
    if evaluated is not None:  # the pieces were taken: at most half the counts evaluated
        assert 2 * evaluated.size <= counts


def test_a_count_between_the_pieces_is_priced_by_hand():
    """7,300 GPU-hours a month: 10 one-GPU machines of 730 hours cover it, so the counts
    searched are 1..11 and the value turns only at 10 (and 0, 11): the counts evaluated are
    those and their neighbours, 1, 9, 10 and 11, and 5 machines bought in month 0 are
    interpolated: 5 × 5,000 + 5 × 730 h × 0.3 kW × 0.20 × 12 = 25,000 + 2,628, and
    (7,300 − 5 × 730) h × 2 × 12 = 87,600 of renting: 115,228."""
    from planner.engine import mix
    from planner.evaluate.optimize import mix_plan

    plan = planner.load(plan_data(demand={"gpu_hours_per_month": 7300}))
    model = mix_plan(plan).model
    assert mix._counts_to_evaluate(model, "box", 11).tolist() == [1.0, 9.0, 10.0, 11.0]
    result = plan.optimize()
    assert len(result.candidates) == 1 + 11 * 12
    row = candidate(result, box__machines=5, box__purchase_month=0)
    assert row.present_value == pytest.approx(115_228, rel=1e-12)
    assert row.feasible
