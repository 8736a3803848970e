"""SPEC §6, fleets and purchase timing: ``own.machines`` (a count or ``auto``), ``own.purchase_month``
and the option fields ``machines`` and ``cost_per_owned_gpu_hour``. Every expected figure is
worked out by hand in the comments."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest
from builders import calendar, cloud, demand, model, own
from hypothesis import given, settings
from hypothesis import strategies as st

import planner
from planner.engine.figures import compute
from planner.engine.fleet import best_machines, covering_machines
from planner.errors import UserError


def by_name(figures, name):
    return next(o for o in figures.options if o.name == name)


def plan_data(**own_keys):
    """1,000 GPU-hours a month for 12 months (730-hour months, no discounting); a machine of
    one GPU for 5,000 drawing 300 W at 0.20 a kWh, kept 4 years without resale; rent at 2 an
    hour."""
    return {
        "version": 1, "horizon_months": 12,
        "demand": {"gpu_hours_per_month": 1000},
        "site": {"electricity_per_kwh": 0.2},
        "options": [
            {"name": "box", "own": {"purchase_price": 5000, "power_watts": 300, **own_keys},
             "overflow": "rent"},
            {"name": "rent", "cloud": {"price_per_hour": 2}},
        ],
    }


def row(result, name):
    return next(o for o in result.to_dict()["options"] if o["name"] == name)


# -- n machines: every per-machine cost times n -------------------------------------------------


def test_n_machines_multiply_purchase_energy_maintenance_fixed_and_residual():
    # Three machines of 2 GPUs, 100-hour months, 8 months; 300 GPU-hours a month.
    # Capacity 3 × 2 × 100 = 600 ≥ 300: all served; busy system-hours S = 300 / 2 = 150.
    # Energy: (0.5 kW × 150 + 0.1 kW × (3 × 100 − 150)) × PUE 1.5 = (75 + 15) × 1.5 = 135 kWh,
    #   at 0.2: 27.0 a month. Maintenance 120/12 × 3 = 30; fixed 10 × 3 = 30; operating 1 × 150.
    # Purchase 3 × 1,000 in month 0; lifetime 6: replaced in month 6 (6 < 8): 3,000 bought,
    #   3 × 0.5 × 1,000 = 1,500 back. Residual: age 8 − 6 = 2, 3 × (1,000 − 500 × 2/6) = 2,500.
    # Total: 3,000 + 8 × (27 + 30 + 30 + 150) + 3,000 − 1,500 − 2,500 = 3,896.
    box = own(price=1000, gpu_count=2, lifetime_months=6, resale=0.5, power_w=500, idle_w=100,
              always_on=True, maintenance_per_year=120, fixed=10, operating=1,
              electricity=0.2, pue=1.5, machines=3)
    m = model(box, cal=calendar(T=8, H=100), dem=demand(level=300))
    o = by_name(compute(m), "box")
    c = o.flows.components
    assert c["energy"][0, 1:] == pytest.approx([27.0] * 8)
    assert o.energy_kwh[0] == pytest.approx(8 * 135)
    assert c["maintenance"][0, 1:] == pytest.approx([30.0] * 8)
    assert c["fixed"][0, 1:] == pytest.approx([30.0] * 8)
    assert c["operating"][0, 1:] == pytest.approx([150.0] * 8)
    assert c["purchase"][0].tolist() == [3000, 0, 0, 0, 0, 0, 3000, 0, 0]
    assert c["resale"][0, 6] == -1500
    assert o.residual_value[0] == pytest.approx(2500)
    assert o.total_cost[0] == pytest.approx(3896)
    assert o.capacity_gpu_hours_per_month[0] == 600
    assert o.machines[0] == 3
    # Own costs over the horizon less residual, per GPU-hour of 3 × 2 GPUs × 100 h × 8 months:
    # 3,896 / 4,800.
    assert o.cost_per_owned_gpu_hour[0] == pytest.approx(3896 / 4800)


def test_n_machines_multiply_financing_and_the_payoff():
    # Two machines of 1,200, 200 down each, the rest over 4 payments at 0 %: 250 a month per
    # machine. Horizon 3: payments in months 1..3 (2 × 250 = 500 each), and in month 3 the
    # balance of one payment per machine is paid off: 2 × 250 = 500.
    box = own(price=1200, financing=(0.0, 4, 200), machines=2)
    o = by_name(compute(model(box, cal=calendar(T=3), dem=demand(level=10))), "box")
    c = o.flows.components
    assert c["purchase"][0].tolist() == [400, 0, 0, 0]
    assert c["financing"][0].tolist() == [0, 500, 500, 500]
    assert c["loan_payoff"][0].tolist() == [0, 0, 0, 500]


def test_scaling_every_price_by_k_scales_every_cost_of_a_fleet():
    # Every money input times 7 (the machine, electricity, maintenance, rent): every cost times
    # 7, and ``auto`` picks the same count (each candidate's present value scales alike).
    def scaled(k):
        data = plan_data(machines="auto", maintenance_per_year=600 * k, purchase_month=2)
        data["options"][0]["own"]["purchase_price"] *= k
        data["site"]["electricity_per_kwh"] *= k
        data["options"][1]["cloud"]["price_per_hour"] *= k
        return planner.load(data).evaluate()

    a, b = row(scaled(1), "box"), row(scaled(7), "box")
    assert b["machines"] == a["machines"]
    for key in ("total_cost", "present_value", "residual_value", "cost_per_owned_gpu_hour"):
        assert b[key] == pytest.approx(7 * a[key], rel=1e-12)


# -- 0 machines -----------------------------------------------------------------------------------


def test_zero_machines_send_all_demand_to_the_overflow():
    # No machine: 1,000 GPU-hours a month rented at 2: 2,000 a month, 24,000 over 12 months,
    # exactly the rental's own cost; nothing owned, so no cost per owned GPU-hour. Tied with
    # the rental it passes everything to, the box is not the cheapest: the rental is (§6).
    result = planner.load(plan_data(machines=0)).evaluate()
    box = row(result, "box")
    assert box["machines"] == 0
    assert box["present_value"] == 24_000 == row(result, "rent")["present_value"]
    assert box["monthly_cost"] == [0.0] + [2000.0] * 12
    assert box["capacity_gpu_hours_per_month"] == 0
    assert box["gpu_hours_per_month"] == 0
    # SPEC §2: energy_kwh is "null if no owned machine" (and so is the carbon made of it).
    assert box["energy_kwh"] is None and box["residual_value"] == 0
    assert box["cost_per_owned_gpu_hour"] is None
    assert row(result, "rent")["machines"] is None
    assert row(result, "rent")["cost_per_owned_gpu_hour"] is None
    assert result.to_dict()["cheapest"] == "rent"
    own_costs = result.monthly[(result.monthly.option == "box")
                               & (result.monthly.component != "overflow")]
    assert (own_costs.cost == 0).all()


# -- auto ------------------------------------------------------------------------------------------


def test_auto_stops_where_one_more_machine_costs_more_than_its_overflow():
    # Machines of 7,000 kept one year (12 months = T: no replacement, residual 7,000 − 7,000 ×
    # 12/12 = 0), no power; 1,000 GPU-hours a month, 730 per machine; rent at 2 an hour:
    #   0 machines: 1,000 × 2 × 12 = 24,000
    #   1 machine:  7,000 + 270 × 2 × 12 = 7,000 + 6,480 = 13,480
    #   2 machines: 14,000 (N = ceil(1,000 / 730) = 2 covers the demand)
    # The second machine costs 7,000 and saves only the 6,480 of overflow: auto picks 1.
    def box(**keys):
        data = plan_data(purchase_price=7000, power_watts=0, lifetime_years=1, **keys)
        return row(planner.load(data).evaluate(), "box")

    pvs = [box(machines=n)["present_value"] for n in (0, 1, 2)]
    assert pvs == pytest.approx([24_000, 13_480, 14_000])
    auto = box(machines="auto")
    assert auto["machines"] == 1 and auto["present_value"] == pytest.approx(13_480)
    assert auto["capacity_gpu_hours_per_month"] == 730
    # At 6,480 a machine, one and two machines tie at 12,960: the fewer win the tie.
    data = plan_data(purchase_price=6480, power_watts=0, lifetime_years=1, machines="auto")
    assert row(planner.load(data).evaluate(), "box")["machines"] == 1


def test_auto_covers_the_largest_month_of_service_only():
    # 1,000 GPU-hours a month, 730 per machine. Growing 100 % a year, month 12 has
    # 1,000 × 2^(11/12) = 1,887.7: N = ceil(1,887.7 / 730) = 3. Shrinking 50 % a year, month 1
    # is the largest: N = ceil(1,000 / 730) = 2; bought in month 6, the largest month of
    # service is month 7, 1,000 × 0.5^(6/12) = 707.1: N = 1.
    def cover(growth, month):
        data = plan_data(machines="auto", purchase_month=month)
        data["demand"]["growth_per_year"] = growth
        return covering_machines(planner.load(data).model, "box")[0]

    assert cover(1.0, 0) == 3
    assert cover(-0.5, 0) == 2
    assert cover(-0.5, 6) == 1


def test_auto_says_when_it_stops_short_of_the_demand():
    # 10^8 GPU-hours a month take 136,987 machines of 730; auto looks at 0..10,000 only, and
    # says so (10,000 is then the cheapest it looked at: each machine saves its overflow).
    data = plan_data(machines="auto")
    data["demand"]["gpu_hours_per_month"] = 1e8
    box = row(planner.load(data).evaluate(), "box")
    assert box["machines"] == 10_000
    assert any("up to 10000 only" in w for w in box["warnings"]), box["warnings"]
    # Also as an overflow target's warning (a tier passing its work on to the box).
    data["options"].append({"name": "tier", "free_tier": {"weekly_quota_hours": 1},
                            "fallback": "box"})
    tier = row(planner.load(data).evaluate(), "tier")
    assert any("box: machines: auto looked at counts up to 10000" in w
               for w in tier["warnings"]), tier["warnings"]
    # A count that covers the demand says nothing of the kind; nor does 0 machines say that
    # the machines are too few.
    assert not row(planner.load(plan_data(machines="auto")).evaluate(), "box")["warnings"]
    assert not row(planner.load(plan_data(machines=0)).evaluate(), "box")["warnings"]


def test_auto_break_even_rows_use_the_count_chosen_for_the_plan():
    # Auto picks 2 machines here (2 × 5,000 less 2 × 3,750 residual + 720 of energy = 3,220,
    # against 1 machine's 8,255.6 and 0 machines' 24,000). The break-even demand is then that
    # of two machines: 2,500 + 0.06 × 12 × x = 2 × 12 × x, x = 2,500 / 23.28 = 107.388.
    result = planner.load(plan_data(machines="auto")).evaluate()
    assert row(result, "box")["machines"] == 2
    assert row(result, "box")["present_value"] == pytest.approx(3220)
    pair = result.to_dict()["break_even"][0]
    assert pair["gpu_hours_per_month"] == pytest.approx(2500 / 23.28)
    # The cost-against-usage curve is drawn for those two machines too.
    curve = result.cost_vs_usage[result.cost_vs_usage.option == "box"]
    assert curve.present_value.iloc[0] == pytest.approx(2500)


auto_plans = st.fixed_dictionaries({
    "price": st.floats(100, 20_000), "power": st.floats(0, 2000),
    "level": st.floats(0, 4000), "growth": st.floats(-0.5, 2), "rent": st.floats(0.1, 5),
    "gpu_count": st.integers(1, 3), "month": st.integers(0, 11), "rate": st.floats(0, 0.2),
    "resale": st.floats(0, 0.9)})


def _auto_data(p, machines):
    data = plan_data(machines=machines, purchase_price=p["price"], power_watts=p["power"],
                     gpu_count=p["gpu_count"], purchase_month=p["month"],
                     resale_fraction=p["resale"], lifetime_years=0.5)
    data["demand"] = {"gpu_hours_per_month": p["level"], "growth_per_year": p["growth"]}
    data["discount_rate"] = p["rate"]
    data["options"][1]["cloud"]["price_per_hour"] = p["rent"]
    return data


@settings(max_examples=12, deadline=None)
@given(p=auto_plans)
def test_auto_is_the_cheapest_count_of_a_brute_force_search(p):
    auto = row(planner.load(_auto_data(p, "auto")).evaluate(), "box")
    n_max = int(covering_machines(planner.load(_auto_data(p, "auto")).model, "box")[0])
    pvs = [row(planner.load(_auto_data(p, n)).evaluate(), "box")["present_value"]
           for n in range(n_max + 1)]
    best = min(pvs)
    assert auto["present_value"] == pytest.approx(best, rel=1e-12)
    ties = [n for n, v in enumerate(pvs) if v <= best + 1e-9 * max(abs(best), 1)]
    assert auto["machines"] == ties[0]


def test_auto_is_chosen_for_every_scenario_of_a_sweep():
    # At 100 GPU-hours a month one 7,000 machine costs more than renting (2,400): 0 machines;
    # at 1,000, 1 machine (above); at 3,000: 3 machines cost 21,000 and 5 would cover the
    # demand (ceil(3,000 / 730) = 5); every count 0..5 is looked at.
    plan = planner.load(plan_data(purchase_price=7000, power_watts=0, lifetime_years=1,
                                  machines="auto"))
    frame = plan.sweep({"demand.gpu_hours_per_month": [100, 1000, 3000]})
    boxes = frame[frame.option == "box"]
    for level, machines in zip((100, 1000, 3000), boxes.machines):
        single = row(plan.replace({"demand.gpu_hours_per_month": level}).evaluate(), "box")
        assert machines == single["machines"]
    assert boxes.machines.tolist()[:2] == [0, 1]
    m = plan.replace({"demand.gpu_hours_per_month": 3000}).model
    assert best_machines(m, "box")[0] == boxes.machines.tolist()[2]


# -- the purchase month ------------------------------------------------------------------------


def test_purchase_month_moves_replacements_and_the_residual_value():
    # A machine of 1,200 kept 6 months, sold for a quarter (300), 12-month horizon.
    # Bought in month 0: replaced in month 6; the one kept is 12 − 6 = 6 months old at T:
    #   residual 1,200 − 900 × 6/6 = 300.
    # Bought in month 3: replaced in month 9; 3 months old: 1,200 − 900 × 3/6 = 750.
    # Bought in month 5: replaced in month 11; 1 month old: 1,200 − 900 × 1/6 = 1,050.
    def figures(month):
        box = own(price=1200, lifetime_months=6, resale=0.25, purchase_month=month,
                  overflow="rent")
        m = model(box, cloud(name="rent", price=2.0), cal=calendar(T=12),
                  dem=demand(level=100))
        return by_name(compute(m), "box")

    for month, replaced, residual in ((0, 6, 300), (3, 9, 750), (5, 11, 1050)):
        o = figures(month)
        purchase = o.flows.components["purchase"][0]
        assert np.flatnonzero(purchase).tolist() == [month, replaced]
        assert np.flatnonzero(o.flows.components["resale"][0]).tolist() == [replaced]
        assert o.residual_value[0] == pytest.approx(residual)


def test_machines_bought_later_serve_from_the_month_after():
    # Bought in month 3: months 1..3 are rented, 1,000 × 2 = 2,000 each; month 3 also pays the
    # 5,000 machine. From month 4 the machine serves 730 (energy 730 × 0.3 × 0.2 = 43.8) and
    # 270 are rented (540): 583.8 a month. Residual: 9 months old of 48: 5,000 × (1 − 9/48)
    # = 4,062.5. Per owned GPU-hour: (5,000 + 9 × 43.8 − 4,062.5) / (1 × 1 × 730 × 9)
    # = 1,331.7 / 6,570.
    result = planner.load(plan_data()).replace({"options.box.own.purchase_month": 3}).evaluate()
    box = row(result, "box")
    assert box["monthly_cost"] == pytest.approx([0, 2000, 2000, 7000] + [583.8] * 9)
    assert box["residual_value"] == pytest.approx(4062.5)
    assert box["capacity_gpu_hours_per_month"] == 730  # of the first month of service
    assert box["gpu_hours_per_month"] == 0 and box["unmet_gpu_hours_per_month"] == 1000
    assert box["first_unmet_month"] == 1
    assert box["cost_per_owned_gpu_hour"] == pytest.approx(1331.7 / 6570)
    maintenance = planner.load(plan_data(purchase_month=3, maintenance_per_year=120,
                                         fixed_cost_per_month=5)).evaluate().monthly
    for component, value in (("maintenance", 10.0), ("fixed", 5.0)):
        costs = maintenance[(maintenance.option == "box") & (maintenance.component == component)]
        assert costs.cost.tolist() == [0.0] * 4 + [value] * 9


def test_idle_power_is_drawn_from_the_first_month_of_service():
    # Always on, 100 W idle, no busy power, no demand: 0.1 kW × 730 h = 73 kWh a month in
    # months 3..12 after a purchase in month 2: 10 × 73 = 730 kWh.
    data = plan_data(power_watts=0, idle_power_watts=100, always_on=True, purchase_month=2)
    data["demand"]["gpu_hours_per_month"] = 0
    assert row(planner.load(data).evaluate(), "box")["energy_kwh"] == pytest.approx(730)


def test_financing_starts_in_the_purchase_month():
    # 1,200 with 200 down, 4 payments of 250 at 0 %: bought in month 2 of 5, the down payment
    # falls in month 2, payments in months 3..5, and the last payment's balance (250) is paid
    # off in month 5 with the machine kept.
    box = own(price=1200, financing=(0.0, 4, 200), purchase_month=2, overflow="rent")
    m = model(box, cloud(name="rent"), cal=calendar(T=5), dem=demand(level=0))
    c = by_name(compute(m), "box").flows.components
    assert c["purchase"][0].tolist() == [0, 0, 200, 0, 0, 0]
    assert c["financing"][0].tolist() == [0, 0, 0, 250, 250, 250]
    assert c["loan_payoff"][0].tolist() == [0, 0, 0, 0, 0, 250]


def test_break_even_months_count_the_purchase_as_a_step_at_its_month():
    # The box of test_machines_bought_later_serve_from_the_month_after against renting all
    # 1,000 GPU-hours (2,000 a month): equal up to t = 3, where the 5,000 machine is a step;
    # then the box adds 583.8 a month and the rental 2,000, closing 1,416.2 a month:
    # 3 + 5,000 / 1,416.2 = 6.5306 months. Busy system-hours by then: 730 × 3.5306.
    # Break-even demand: the box costs 5,000 − 4,062.5 = 937.5 more, and saves (2 − 0.06) an
    # hour of its work in its 9 months of service: x = 937.5 / (9 × 1.94) = 53.694.
    result = planner.load(plan_data(purchase_month=3)).evaluate()
    pair = result.to_dict()["break_even"][0]
    assert pair["months"] == pytest.approx(3 + 5000 / 1416.2)
    assert pair["system_hours"] == pytest.approx(730 * 5000 / 1416.2)
    assert pair["gpu_hours_per_month"] == pytest.approx(937.5 / (9 * 1.94))
    # The report's worked line: the last month end above is 6, where the box is 5,000 −
    # 3 × 1,416.2 = 751.4 above, and 664.8 below at the end of month 7.
    crossing = result.break_even_crossings[("box", "rent")]
    assert crossing.last_month_above == 6
    assert crossing.cost_gap_at_last_month == pytest.approx(751.4)
    assert crossing.cost_gap_after_last_month == pytest.approx(-664.8)


def test_a_step_of_the_other_option_can_be_the_break_even():
    # Box A, 1,000 in month 0, serves all 100 GPU-hours; box B, 3,000 bought in month 2,
    # rents at 2 (200 a month) before. A − B: 1,000 at t = 0, 800 at t = 1, 600 just before
    # t = 2, and −2,400 after B's step: A is at or below B from t = 2 on. Months = 2 exactly,
    # and A was busy 2 × 100 system-hours.
    a = own(name="a", price=1000)
    b = own(name="b", price=3000, purchase_month=2, overflow="rent")
    m = model(a, b, cloud(name="rent"), cal=calendar(T=6), dem=demand(level=100))
    pair = next(p for p in compute(m).pairs if (p.own, p.versus) == ("a", "b"))
    assert pair.months[0] == 2.0
    assert pair.system_hours[0] == pytest.approx(200)


def test_replace_the_purchase_month_equals_the_file_that_says_it():
    plan = planner.load(plan_data())
    replaced = plan.replace({"options.box.own.purchase_month": 3}).evaluate().to_dict()
    written = planner.load(plan_data(purchase_month=3)).evaluate().to_dict()
    assert replaced["options"] == written["options"]
    shorter = plan.replace({"options.box.machines": 2}).evaluate()  # kind level left out
    assert row(shorter, "box")["machines"] == 2


# -- sweeps ----------------------------------------------------------------------------------


@settings(max_examples=6, deadline=None)
@given(machines=st.lists(st.integers(0, 3), min_size=1, max_size=3),
       months=st.lists(st.integers(0, 11), min_size=1, max_size=2),
       level=st.floats(0, 3000))
def test_a_sweep_over_machines_and_purchase_month_equals_its_evaluations(machines, months,
                                                                        level):
    data = plan_data()
    data["demand"]["gpu_hours_per_month"] = level
    data["demand"]["growth_per_year"] = 0.5
    plan = planner.load(data)
    frame = plan.sweep({"options.box.own.machines": machines,
                        "options.box.own.purchase_month": months})
    assert len(frame) == 2 * len(machines) * len(months)
    for (n, p), rows in frame.groupby(["options.box.own.machines",
                                       "options.box.own.purchase_month"], sort=False):
        single = plan.replace({"options.box.own.machines": int(n),
                               "options.box.own.purchase_month": int(p)}).evaluate()
        box = rows[rows.option == "box"].iloc[0]
        expected = row(single, "box")
        for key in ("machines", "present_value", "total_cost", "residual_value",
                    "capacity_gpu_hours_per_month", "cost_per_owned_gpu_hour"):
            _same(box[key], expected[key])
        pair = single.to_dict()["break_even"][0]
        for key in ("months", "system_hours", "gpu_hours_per_month"):
            _same(box[f"break_even.rent.{key}"], pair[key])


def _same(got, expected):
    if expected is None:
        assert math.isnan(got)
    else:
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-9)


def test_a_sweep_over_machines_with_auto_among_the_counts():
    plan = planner.load(plan_data())
    frame = plan.sweep({"options.box.own.machines": [1, "auto"]})
    assert frame[frame.option == "box"].machines.tolist() == [1, 2]
    assert frame[frame.option == "rent"].machines.isna().all()


# -- validation -----------------------------------------------------------------------------


def _problems(text, tmp_path):
    path = tmp_path / "plan.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as err:
        planner.load(path)
    return err.value.problems


BASE_YAML = """\
version: 1
horizon_months: 12
demand: {{gpu_hours_per_month: 100}}
site: {{electricity_per_kwh: 0.2}}
options:
  - name: box
    own:
      purchase_price: 1000
      power_watts: 300
      {key}: {value}
{overflow}  - name: rent
    cloud: {{price_per_hour: 2}}
"""


OVERFLOW = "    overflow: rent\n"


@pytest.mark.parametrize("key, value, overflow, message, suggestion", [
    ("machines", "0", "", "0 machines serve nothing: give the option an overflow", None),
    ("purchase_month", "2", "", "machines bought in month 2 serve from month 3: give", None),
    ("purchase_month", "12", OVERFLOW, "the purchase month is one of 0..11 (the horizon", None),
    ("machines", "Auto", OVERFLOW, "expected a whole number of machines (0 or more) or", "auto"),
    ("machines", "automatic", OVERFLOW, "expected a whole number of machines", "auto"),
    ("machines", "1.5", OVERFLOW, "expected a whole number of machines", None),
    ("machines", "-1", OVERFLOW, "must be at least 0, got -1", None),
    ("purchase_month", "-1", OVERFLOW, "must be at least 0, got -1", None),
])
def test_fleet_problems_are_located(tmp_path, key, value, overflow, message, suggestion):
    text = BASE_YAML.format(key=key, value=value, overflow=overflow)
    problems = _problems(text, tmp_path)
    assert len(problems) == 1, problems
    problem = problems[0]
    assert problem.path == f"options[0].own.{key}"
    assert problem.message.startswith(message), problem.message
    assert value in problem.message
    assert problem.suggestion == suggestion
    assert problem.file.endswith("plan.yaml")
    lines = text.splitlines()
    if message.startswith(("0 machines", "machines bought")):  # a rule: at the own map
        assert (problem.line, problem.column) == (8, 7)
    else:  # a bad value: at the value
        assert problem.line == 10 and lines[9][problem.column - 1:].startswith(value)


def test_validate_exits_1_with_the_located_problem(tmp_path, run):
    path = tmp_path / "plan.yaml"
    path.write_text(BASE_YAML.format(key="machines", value="0", overflow=""), encoding="utf-8")
    result = run("validate", path)
    assert result.exit_code == 1
    assert "plan.yaml:8:7: options[0].own.machines: 0 machines serve nothing" in result.output
    assert "Traceback" not in result.output


def test_a_sweep_with_zero_machines_and_no_overflow_is_refused():
    data = plan_data()
    del data["options"][0]["overflow"]
    with pytest.raises(UserError) as err:
        planner.load(data).sweep({"options.box.own.machines": [0, 1]})
    assert "0 machines serve nothing" in str(err.value)


def test_more_than_a_thousand_machines_is_questioned():
    result = planner.load(plan_data(machines=1500)).evaluate()
    texts = [str(w) for w in result.plan_warnings]
    assert any("1500 identical machines is more than 1000" in t for t in texts), texts


def test_files_without_the_new_keys_read_as_one_machine_bought_today():
    a = planner.load(plan_data()).evaluate().to_dict()
    b = planner.load(plan_data(machines=1, purchase_month=0)).evaluate().to_dict()
    assert a == b
    assert row(planner.load(plan_data()).evaluate(), "box")["machines"] == 1


def test_documents_are_not_changed_by_auto():
    data = plan_data(machines="auto")
    kept = copy.deepcopy(data)
    planner.load(data).evaluate()
    assert data == kept


# -- break-even demand with a late purchase: the closed form against a scan --------------------


@settings(max_examples=15, deadline=None)
@given(month=st.integers(1, 10), machines=st.integers(0, 3), growth=st.floats(-0.6, 2),
       price=st.floats(500, 20_000), rent=st.floats(0.2, 4), reserved=st.booleans(),
       rate=st.floats(0, 0.2))
def test_break_even_level_after_a_late_purchase_is_the_first_crossing(month, machines, growth,
                                                                      price, rent, reserved,
                                                                      rate):
    """Closed form (on-demand overflow) and piecewise evaluation (reserved overflow) both give
    the lowest level where the present values meet, with capacity 0 before the purchase."""
    from builders import assert_first_break_even_level

    from planner.engine.breakeven import break_even_level

    target = (cloud(name="rent", price=rent, pricing="reserved_1y", reserved_price=0.6 * rent,
                    term=12) if reserved else cloud(name="rent", price=rent))
    box = own(price=price, gpu_count=2, power_w=400, electricity=0.3, purchase_month=month,
              machines=machines, overflow="rent", lifetime_months=9, resale=0.2)
    m = model(box, target, cal=calendar(T=12, H=730.0, r=rate), dem=demand(level=500,
                                                                           growth=growth))
    figures = compute(m)
    level = next(p for p in figures.pairs if p.versus == "rent").gpu_hours_per_month[0]
    bound = 10 * 2 * 730.0 * machines
    assert_first_break_even_level(m, "box", "rent", bound)
    same = break_even_level(m, "box", "rent")[0]
    if np.isnan(level):
        assert np.isnan(same)
    else:
        assert level == pytest.approx(same, rel=1e-7, abs=1e-7)


def test_two_servers_as_a_fleet_equal_one_machine_of_both():
    # examples/startup-growth.yaml counts its two 8-GPU servers as one machine of 16 GPUs; its
    # jobs take 8 GPUs, so machines: 2 of 8 GPUs with every per-machine key halved is the same
    # plan, to the last figure.
    from pathlib import Path

    plan = planner.load(Path(__file__).resolve().parents[1] / "examples" / "startup-growth.yaml")
    data = copy.deepcopy(plan.data)
    own_entry = next(o for o in data["options"] if "own" in o)["own"]
    for key in ("purchase_price", "power_watts", "idle_power_watts", "maintenance_per_year",
                "fixed_cost_per_month"):
        own_entry[key] /= 2
    down = own_entry["financing"].get("down_payment")
    if down:
        own_entry["financing"]["down_payment"] = down / 2
    own_entry.update(gpu_count=8, machines=2)
    a, b = plan.evaluate().to_dict(), planner.load(data).evaluate().to_dict()
    for x, y in zip(a["options"], b["options"]):
        for key in ("present_value", "total_cost", "residual_value", "energy_kwh",
                    "capacity_gpu_hours_per_month"):
            if x[key] is None:
                assert y[key] is None
            else:
                assert y[key] == pytest.approx(x[key], rel=1e-12), (x["name"], key)
    assert b["break_even"][0]["months"] == pytest.approx(a["break_even"][0]["months"])
    assert next(o for o in b["options"] if o["kind"] == "own")["machines"] == 2


# -- the search on the pieces (machines: auto with many candidate counts) -------------------------

def _assert_the_pieces_choose_what_every_count_chooses(m) -> None:
    """The count the search on the pieces chooses for "box" is the one the search over every
    count 0..N chooses, in every scenario of ``m`` (whose chain must be piecewise linear)."""
    from planner.engine.fleet import (
        _best_of,
        _best_on_pieces,
        breakpoint_counts,
        candidate_values,
        piecewise_linear,
    )
    assert piecewise_linear(m, "box")
    cover = covering_machines(m, "box")
    counts = np.arange(int(cover.max(initial=0.0)) + 1, dtype=float)
    every = _best_of(counts, cover, *candidate_values(m, "box", counts))
    pieces = _best_on_pieces(m, "box", cover, breakpoint_counts(m, "box", cover))
    np.testing.assert_array_equal(pieces, every)


pieces_cases = st.fixed_dictionaries({
    "levels": st.lists(st.one_of(st.just(0.0), st.floats(500, 40_000)), min_size=1,
                       max_size=3),
    "growth": st.sampled_from([0.0, 0.5, -0.3, 2.0, 4.0]),
    "price": st.one_of(st.sampled_from([0.0, 7300.0]), st.floats(0, 20_000)),
    "power_w": st.sampled_from([0.0, 300.0]), "idle_w": st.sampled_from([0.0, 100.0]),
    "always_on": st.booleans(), "fixed": st.one_of(st.sampled_from([0.0, 730.0]),
                                                   st.floats(0, 2000)),
    "rent": st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0, 3)),
    "pricing": st.sampled_from(["on_demand", "spot"]),
    "billing": st.sampled_from([0.0, 60.0]), "storage": st.sampled_from([0.0, 0.5]),
    "month": st.integers(0, 5), "lifetime": st.sampled_from([3, 48]),
    "rate": st.sampled_from([0.0, 0.07]), "overflow": st.booleans()})


@settings(max_examples=150, deadline=None)
@given(p=pieces_cases)
def test_the_search_on_the_pieces_finds_what_every_count_finds(p):
    """Evaluated only at the counts where a month's demand is just covered (and 0 and N), the
    count chosen is the one the search over every count 0..N chooses, in every scenario: flat
    pieces (rent at 0, a free machine, a fixed cost equal to the rent it saves) and ties
    included. [machines]"""
    levels = np.array(p["levels"])
    box = own(price=p["price"], power_w=p["power_w"], idle_w=p["idle_w"],
              always_on=p["always_on"], fixed=p["fixed"], electricity=0.2,
              lifetime_months=p["lifetime"], purchase_month=p["month"], machines="auto",
              overflow="rent" if p["overflow"] or p["month"] else None)
    rent = cloud(name="rent", price=p["rent"], pricing=p["pricing"],
                 billing_minutes=p["billing"], storage=p["storage"], job_hours=3.0)
    m = model(box, rent, cal=calendar(T=12, H=730.0, r=p["rate"]),
              dem=demand(level=levels, growth=p["growth"], data_gb=100.0))
    _assert_the_pieces_choose_what_every_count_chooses(m)


spare_cases = st.fixed_dictionaries({
    "levels": st.lists(st.one_of(st.just(0.0), st.floats(500, 40_000)), min_size=1,
                       max_size=3),
    "growth": st.sampled_from([0.0, 2.0, 4.0]),
    "price": st.one_of(st.sampled_from([0.0, 7300.0]), st.floats(0, 20_000)),
    "fixed": st.one_of(st.sampled_from([0.0, 730.0]), st.floats(0, 2000)),
    "power_w": st.sampled_from([0.0, 300.0]), "idle_w": st.sampled_from([0.0, 100.0]),
    "always_on": st.booleans(),
    "spares": st.lists(st.fixed_dictionaries({
        "machines": st.integers(0, 6), "gpu_count": st.sampled_from([1, 2]),
        "month": st.integers(0, 5), "operating": st.floats(0, 3),
        "speed": st.sampled_from([1.0, 0.5, 2.0]), "fixed": st.sampled_from([0.0, 300.0])}),
        min_size=1, max_size=2),
    "end": st.sampled_from(["rent", "spot", None]),
    "rent": st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0, 3)),
    "month": st.integers(0, 5), "rate": st.sampled_from([0.0, 0.07])})


@settings(max_examples=150, deadline=None)
@given(p=spare_cases)
def test_the_pieces_through_own_targets_find_what_every_count_finds(p):
    """An auto option passing its work to one or two own options of set counts (then to a
    cloud by the hour, or to nothing): its value is linear in its count between the counts at
    which it covers a month's work, or that work less its targets' capacity, so the search on
    those pieces chooses the count the search over every count chooses, in every scenario:
    targets that serve from a later month, at another speed, and unmet work included.
    [machines]"""
    names = [f"spare{k}" for k in range(len(p["spares"]))]
    ends = names[1:] + ([None] if p["end"] is None else ["rent"])
    # 0 machines and a later purchase need an overflow (SPEC §6): a last spare without one
    # has a machine at least, bought in month 0.
    spares = [own(name=n, price=1000.0, machines=q["machines"] if after else
                  max(q["machines"], 1), purchase_month=q["month"] if after else 0,
                  gpu_count=q["gpu_count"], operating=q["operating"], speed=q["speed"],
                  fixed=q["fixed"], overflow=after)
              for n, q, after in zip(names, p["spares"], ends, strict=True)]
    box = own(price=p["price"], power_w=p["power_w"], idle_w=p["idle_w"],
              always_on=p["always_on"], fixed=p["fixed"], electricity=0.2, machines="auto",
              purchase_month=p["month"], overflow=names[0])
    cards = [box, *spares]
    if p["end"] is not None:
        cards.append(cloud(name="rent", price=p["rent"],
                           pricing="spot" if p["end"] == "spot" else "on_demand"))
    m = model(*cards, cal=calendar(T=12, H=730.0, r=p["rate"]),
              dem=demand(level=np.array(p["levels"]), growth=p["growth"]))
    _assert_the_pieces_choose_what_every_count_chooses(m)


def test_the_kinks_of_an_own_target():
    """2,000 GPU-hours a month, one-GPU machines of 730 hours, passing to 1 spare machine of
    730 hours: the option covers the work at 2,000 / 730 = 2.74 machines and what the spare
    leaves at 1,270 / 730 = 1.74, so the candidates are 0, 1, 2 and 3 (N = 3); without the
    spare's kink, 1 would be missing. [machines]"""
    from planner.engine.fleet import breakpoint_counts, piecewise_linear

    box = own(machines="auto", overflow="spare")
    m = model(box, own(name="spare"), cal=calendar(T=3, H=730.0), dem=demand(level=2000.0))
    assert piecewise_linear(m, "box")
    cover = covering_machines(m, "box")
    assert cover.tolist() == [3.0]
    assert np.unique(breakpoint_counts(m, "box", cover)).tolist() == [0.0, 1.0, 2.0, 3.0]


def test_a_reserved_or_free_tier_target_searches_every_count():
    from planner.engine.fleet import piecewise_linear
    box = own(machines="auto", overflow="rent")
    reserved = cloud(name="rent", pricing="reserved_1y", reserved_price=1.0, term=12)
    assert not piecewise_linear(model(box, reserved), "box")
    assert piecewise_linear(model(box, cloud(name="rent", pricing="spot")), "box")


def test_the_fewest_count_within_the_tie_inside_a_piece():
    """10.5 machines' worth of demand a month (7,665 GPU-hours, 730-hour months, 12 months, no
    discounting), rent at 1 an hour, a machine costing only its fixed 730 − δ a month. For
    n ≤ 10: PV(n) = 12 × (n(730 − δ) + (10.5 − n) × 730) = 12 × (7,665 − nδ), falling by 12δ a
    machine; PV(11) = 12 × 11 × (730 − δ) is higher. Best PV(10) ≈ 91,980, tie tolerance
    10⁻⁹ × 91,980 = 9.198 × 10⁻⁵; with δ = tolerance / 36 each machine saves a third of it, so
    7, 8, 9 and 10 tie and the fewest, 7, is the answer: inside the piece 0..10, found by
    bisection. [machines]"""
    from planner.engine.fleet import (
        _best_of,
        _best_on_pieces,
        breakpoint_counts,
        candidate_values,
    )
    delta = 1e-9 * 12 * 7665 / 36
    box = own(price=0.0, fixed=730 - delta, lifetime_months=48, machines="auto",
              overflow="rent")
    m = model(box, cloud(name="rent", price=1.0), cal=calendar(T=12, H=730.0),
              dem=demand(level=7665.0))
    cover = covering_machines(m, "box")
    assert cover.tolist() == [11.0]
    assert np.unique(breakpoint_counts(m, "box", cover)).tolist() == [0.0, 10.0, 11.0]
    counts = np.arange(12, dtype=float)
    assert _best_of(counts, cover, *candidate_values(m, "box", counts)).tolist() == [7.0]
    assert _best_on_pieces(m, "box", cover, breakpoint_counts(m, "box", cover)).tolist() == [7.0]


def test_a_month_just_covered_rounded_up_is_a_candidate():
    """Two months of 2.5 and 10.5 machines' worth (1,825 and 7,665 GPU-hours; growth
    4.2^12 − 1 a year), machines at a fixed 500 a month, rent at 1 an hour. Up to 2.5 machines
    each saves 2 × 730 − 2 × 500 = 460; past it, 730 − 1,000 = −270. PV(2) = 2,000 + 730 ×
    (0.5 + 8.5) = 8,570; PV(3) = 3,000 + 730 × 7.5 = 8,475; PV(10) = 10,000 + 365 = 10,365:
    3 = ⌈2.5⌉ is the answer. [machines]"""
    from planner.engine.fleet import _best_on_pieces, breakpoint_counts, candidate_values
    box = own(price=0.0, fixed=500.0, machines="auto", overflow="rent")
    m = model(box, cloud(name="rent", price=1.0), cal=calendar(T=2, H=730.0),
              dem=demand(level=1825.0, growth=4.2**12 - 1))
    cover = covering_machines(m, "box")
    pieces = breakpoint_counts(m, "box", cover)
    assert np.unique(pieces).tolist() == [0.0, 2.0, 3.0, 10.0, 11.0]
    pv, _ = candidate_values(m, "box", np.unique(pieces))
    assert pv[0].tolist() == pytest.approx([730 * 13, 8570, 8475, 10365, 11000])
    assert _best_on_pieces(m, "box", cover, pieces).tolist() == [3.0]


@pytest.mark.parametrize("case", ["wide", "memory"])
def test_machines_that_cannot_run_the_work_take_n_without_a_search(case, monkeypatch):
    """A job of 8 GPUs on 4-GPU machines (SPEC §5.3: machines do not pool for one job), or 40 GB
    asked of a 24 GB GPU: every count is infeasible, 0 included, so the search over every count
    ends at N (its rule where none is feasible) and is not run. 7,300 GPU-hours a month of
    4-GPU machines of 730 hours: N = ⌈7,300 / 2,920⌉ = 3. The same count as the search over
    every count finds. [machines]"""
    from planner.engine import fleet

    box = own(gpu_count=4, memory=24.0, machines="auto", overflow="rent")
    dem = demand(level=7300.0, gpus=8 if case == "wide" else 1,
                 min_mem=40.0 if case == "memory" else 0.0)
    m = model(box, cloud(name="rent", pricing="reserved_1y", reserved_price=1.0, term=12),
              cal=calendar(T=12, H=730.0), dem=dem)
    assert fleet.cannot_run_the_work(m, m.cards["box"]).tolist() == [True]
    with monkeypatch.context() as patched:
        patched.setattr(fleet, "candidate_values", lambda *a, **k: pytest.fail("searched"))
        assert fleet.best_machines(m, "box").tolist() == [3.0]
    monkeypatch.setattr(fleet, "cannot_run_the_work", lambda model, card: np.zeros(1, bool))
    assert fleet.best_machines(m, "box").tolist() == [3.0]
