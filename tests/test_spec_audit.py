"""An audit of the engine against the rules of the model (SPEC §5), one test per rule.

Every expected figure below is worked out by hand from the wording of SPEC §5 (and the keys and
defaults of §1), not from the engine: the arithmetic is written next to each assertion. The
usage documents are small dicts that go through the public API,
``planner.load(dict).evaluate()``, so resolution, cost engine, break-even and the JSON of §2 are
all on the path. (Written as an independent audit; the two discrepancies it found, the
break-even level against reserved pricing and the search bound with an overflow, are fixed.)
"""

from __future__ import annotations

import pytest

import planner
from planner.errors import UserError

H = 730.0  # default hours_per_month


def evaluate(doc: dict):
    """The Result of a usage document (version 1, free electricity unless the test says)."""
    data = {"version": 1, "site": {"electricity_per_kwh": 0}}
    data.update(doc)
    return planner.load(data).evaluate()


def option(result, name: str) -> dict:
    return next(o for o in result.to_dict()["options"] if o["name"] == name)


def pair(result, own: str, versus: str) -> dict:
    return next(p for p in result.to_dict()["break_even"]
                if p["own"] == own and p["versus"] == versus)


def component(result, name: str, what: str) -> list[float]:
    """Monthly cost of one component of one option, months 0..T (0 where absent)."""
    frame = result.monthly
    rows = frame[(frame.option == name) & (frame.component == what)]
    T = result.to_dict()["horizon_months"]
    out = [0.0] * (T + 1)
    for month, cost in zip(rows.month, rows.cost):
        out[int(month)] += float(cost)
    return out


def approx(value, rel=1e-9, abs=1e-9):
    return pytest.approx(value, rel=rel, abs=abs)


# -- Conventions: month 0 and discounting (§1 discount_rate, §2 present_value) ---------


def test_discounting_leaves_month_0_alone():
    # 10 % a year. PV = month 0 + Σ_m flow_m × 1.1^(−m/12) − residual × 1.1^(−T/12).
    # Box: 1,000 now, $20 a month fixed, 24 months, lifetime 4 y: residual 1,000 × (1 − 24/48)
    #   = 500. PV = 1,000 + 20 Σ_{m=1..24} 1.1^(−m/12) − 500 × 1.1^(−2).
    d = [1.1 ** (-m / 12) for m in range(25)]
    r = evaluate({"horizon_months": 24, "discount_rate": 0.1,
                  "demand": {"gpu_hours_per_month": 0},
                  "options": [{"name": "box", "own": {"purchase_price": 1000, "power_watts": 0,
                                                      "fixed_cost_per_month": 20}}]})
    box = option(r, "box")
    assert box["residual_value"] == approx(500.0)
    assert box["total_cost"] == approx(1000 + 24 * 20 - 500)
    assert box["present_value"] == approx(1000 + 20 * sum(d[1:]) - 500 * d[24])


# -- 5.1 Demand on an option ----------------------------------------------------------------


def test_5_1_utilization_growth_and_relative_speed():
    # utilization 0.25 of 2 GPUs, H = 720: D_1 = 0.25 × 720 × 2 = 360 reference GPU-hours.
    # Growth 0.44 a year: D_m = 360 × 1.44^((m−1)/12): D_7 = 360 × 1.2 = 432, D_13 = 518.4.
    # The cloud is 1.5 × as fast: G_1 = 360 / 1.5 = 240 own GPU-hours. A 2-GPU job on 2-GPU
    # instances: n = 1; job-hours = 240 / 2 = 120 = instance-hours; at $3 → $360 in month 1,
    # $432 in month 7 (× 1.2), $518.40 in month 13 (× 1.44).
    # "Growth can take it above 1": utilization 0.75 doubling in a year is 1.5 in month 13.
    r = evaluate({
        "horizon_months": 13, "hours_per_month": 720,
        "demand": {"utilization": 0.25, "gpus": 2, "growth_per_year": 0.44},
        "options": [
            {"name": "fast", "cloud": {"price_per_hour": 3.0, "gpus": 2}, "relative_speed": 1.5},
        ]})
    fast = option(r, "fast")
    assert fast["gpu_hours_per_month"] == approx(240.0)
    assert fast["monthly_cost"][1] == approx(360.0)
    assert fast["monthly_cost"][7] == approx(432.0)
    assert fast["monthly_cost"][13] == approx(518.4)
    # $3 per instance-hour = $3 per 2 own GPU-hours = $1.50 per own GPU-hour = $1 per reference
    # GPU-hour (1.5 × as fast): cost_per_gpu_hour = 1.
    assert fast["cost_per_gpu_hour"] == approx(1.0)

    r = evaluate({
        "horizon_months": 13, "hours_per_month": 720,
        "demand": {"utilization": 0.75, "gpus": 1, "growth_per_year": 1.0},
        "options": [{"name": "c", "cloud": {"price_per_hour": 1.0}}]})
    # Month 13: 0.75 × 720 × 2^(12/12) = 1,080 GPU-hours: $1,080, more than a month of one GPU.
    assert option(r, "c")["monthly_cost"][13] == approx(1080.0)


def test_5_1_flops_demand_ignores_relative_speed_and_keeps_job_length():
    # 7.2e18 FLOPs a month at efficiency 0.5.
    # Cloud GPU of 200 TFLOP/s: 200e12 × 0.5 × 3600 = 3.6e17 FLOPs per GPU-hour → G = 20.
    #   relative_speed 3 is ignored (warning). $5 an instance-hour → $100 a month.
    # Own GPU of 100 TFLOP/s: 1.8e17 per GPU-hour → G = 40 own GPU-hours.
    # Same cloud with job_hours 1.2 and hourly billing: with FLOPs demand a job lasts job_hours
    #   on every option (L = 1.2, speed not applied): jobs = 20 / 1.2 = 16.67, each billed
    #   ceil(1.2 / 1) × 1 = 2 h → 33.33 instance-hours × $5 = $166.67. (Were speed applied:
    #   L = 0.4, billed 1 h, 50 jobs → $250.)
    doc = {
        "horizon_months": 12,
        "demand": {"flops_per_month": 7.2e18, "flops_efficiency": 0.5},
        "options": [
            {"name": "box", "own": {"purchase_price": 1200, "peak_tflops": 100,
                                    "power_watts": 0, "lifetime_years": 1}},
            {"name": "cloud", "cloud": {"price_per_hour": 5.0, "peak_tflops": 200},
             "relative_speed": 3},
        ]}
    r = evaluate(doc)
    cloud = option(r, "cloud")
    assert cloud["gpu_hours_per_month"] == approx(20.0)
    assert cloud["monthly_cost"][1] == approx(100.0)
    assert any("relative_speed" in w for w in cloud["warnings"])
    # cost_per_gpu_hour with FLOPs: per the option's own GPU-hours: 1,200 / 240 = 5.
    assert cloud["cost_per_gpu_hour"] == approx(5.0)
    assert option(r, "box")["gpu_hours_per_month"] == approx(40.0)
    # Break-even level (§5.6, in the own machine's GPU-hours with FLOPs demand): the box costs
    # 1,200 (bought, worth resale 0 at T = L = 12); the cloud 12 × 5 × F / 3.6e17.
    # Equal at F = 1,200 × 3.6e17 / 60 = 7.2e18 FLOPs = 7.2e18 / 1.8e17 = 40 own GPU-hours.
    # Months: 1,200 at t = 0 against 100 t: equal exactly at t = 12 = T (at or below there): 12.
    # System-hours: 40 a month × 12 = 480.
    p = pair(r, "box", "cloud")
    assert p["gpu_hours_per_month"] == approx(40.0, rel=1e-6)
    assert p["months"] == approx(12.0)
    assert p["system_hours"] == approx(480.0)

    doc["demand"]["job_hours"] = 1.2
    doc["options"][1]["billing_increment_minutes"] = 60
    r = evaluate(doc)
    assert option(r, "cloud")["monthly_cost"][1] == approx(5.0 * 20 / 1.2 * 2)


# -- 5.2 Cloud ------------------------------------------------------------------------------


def test_5_2_whole_instances_and_interruption_factor():
    # g = 3 GPUs per job on 2-GPU instances: n = ceil(3/2) = 2 instances, all 4 GPUs paid.
    # 300 GPU-hours → job-hours 300/3 = 100 → 100 × 2 = 200 instance-hours.
    # rho = 1 + 0.3 × (20/2 + 10)/60 = 1.1 → 220 instance-hours.
    # Spot at $1.50 → $330. The rate applies to any pricing that has one: on demand $4 → $880.
    # Without an interruption rate (on demand, inline: 0) rho = 1: 200 × $4 = $800.
    r = evaluate({
        "horizon_months": 1,
        "demand": {"gpu_hours_per_month": 300, "gpus": 3, "checkpoint_minutes": 20},
        "options": [
            {"name": "spot", "cloud": {"price_per_hour": 4.0, "spot_price_per_hour": 1.5,
                                       "gpus": 2},
             "pricing": "spot", "interruptions_per_hour": 0.3, "restart_minutes": 10},
            {"name": "od", "cloud": {"price_per_hour": 4.0, "gpus": 2},
             "interruptions_per_hour": 0.3, "restart_minutes": 10},
            {"name": "plain", "cloud": {"price_per_hour": 4.0, "gpus": 2}},
        ]})
    assert option(r, "spot")["monthly_cost"] == approx([0.0, 330.0])
    assert option(r, "od")["monthly_cost"] == approx([0.0, 880.0])
    assert option(r, "plain")["monthly_cost"] == approx([0.0, 800.0])
    # Useful GPU-hours, not rented ones.
    assert option(r, "spot")["gpu_hours_per_month"] == approx(300.0)


def test_5_2_job_hours_billing_increment_with_interruptions_and_speed():
    # job_hours 2.5 on the reference; the option is 1.25 × as fast: L = 2.5/1.25 = 2 h.
    # g = 3 on 2-GPU instances: n = 2. rho = 1 + 0.2 × (30/2 + 5)/60 = 1 + 1/15 = 16/15.
    # L × rho = 32/15 = 2.1333 h.
    # Demand 600 reference GPU-hours → G = 600/1.25 = 480 → jobs = 480/(3 × 2) = 80.
    # b = 60 min: ceil(2.1333/1) × 1 = 3 h per job, × 2 instances = 6 → 480 h × $4 = $1,920.
    # b = 45 min: ceil(2.1333/0.75) = ceil(2.844) = 3 → 2.25 h × 2 = 4.5 → 360 h → $1,440.
    # b = 0 (exact): 2.1333 × 2 × 80 = 341.33 h → $1,365.33.
    options = []
    for name, b in (("hourly", 60), ("quarters", 45), ("exact", 0)):
        options.append({"name": name, "cloud": {"price_per_hour": 4.0, "gpus": 2},
                        "relative_speed": 1.25, "interruptions_per_hour": 0.2,
                        "billing_increment_minutes": b})
    r = evaluate({"horizon_months": 1,
                  "demand": {"gpu_hours_per_month": 600, "gpus": 3, "job_hours": 2.5},
                  "options": options})
    assert option(r, "hourly")["monthly_cost"][1] == approx(1920.0)
    assert option(r, "quarters")["monthly_cost"][1] == approx(1440.0)
    assert option(r, "exact")["monthly_cost"][1] == approx(4.0 * 80 * 2 * 32 / 15)
    # Without demand.job_hours the increment does not apply: 480/3 × 2 × 16/15 h × $4.
    r = evaluate({"horizon_months": 1, "demand": {"gpu_hours_per_month": 600, "gpus": 3},
                  "options": options[:1]})
    assert option(r, "hourly")["monthly_cost"][1] == approx(4.0 * 160 * 2 * 16 / 15)


def test_5_2_reserved_terms_renew_and_run_past_the_horizon():
    # 3-year term, 12-month horizon, 1 instance committed at $0.50, on demand $2; 1,000
    # instance-hours a month: reservation 0.5 × 730 = $365 a month; month 12 also carries the
    # 24 months past the horizon: 365 × 25 = $9,125. Above 730 h: 270 h × $2 = $540 a month.
    # Total: 365 × 11 + 9,125 + 540 × 12 = 4,015 + 9,125 + 6,480 = 19,620.
    # 1-year term on an 18-month horizon (demand 0, 1 instance at $1): the second term runs 6
    # months past month 18: months 1..17 $730 each, month 18 $730 × 7 = $5,110; total 17,520.
    r = evaluate({
        "horizon_months": 12, "demand": {"gpu_hours_per_month": 1000},
        "options": [{"name": "r3", "pricing": "reserved_3y", "reserved_instances": 1,
                     "cloud": {"price_per_hour": 2.0, "reserved_3y_price_per_hour": 0.5}}]})
    r3 = option(r, "r3")
    assert component(r, "r3", "reservation")[1] == approx(365.0)
    assert component(r, "r3", "reservation")[12] == approx(9125.0)
    assert component(r, "r3", "rental")[1] == approx(540.0)
    assert r3["total_cost"] == approx(19_620.0)

    r = evaluate({
        "horizon_months": 18, "demand": {"gpu_hours_per_month": 0},
        "options": [{"name": "r1", "pricing": "reserved_1y", "reserved_instances": 1,
                     "cloud": {"price_per_hour": 2.0, "reserved_1y_price_per_hour": 1.0}}]})
    monthly = option(r, "r1")["monthly_cost"]
    assert monthly[1:18] == approx([730.0] * 17)
    assert monthly[18] == approx(5110.0)
    assert option(r, "r1")["total_cost"] == approx(17_520.0)

    # reserved_instances with other pricing is an error.
    with pytest.raises(UserError):
        evaluate({"demand": {"gpu_hours_per_month": 1},
                  "options": [{"name": "od", "reserved_instances": 1,
                               "cloud": {"price_per_hour": 1.0}}]})


def test_5_2_default_reserved_count_counts_past_horizon_months():
    # 730 instance-hours a month for 12 months; on demand $1 → R = 0 costs 8,760.
    # A 3-year commitment of one instance costs p × 730 × 36 (12 months + 24 past the horizon):
    #   p = 0.35: 9,198 > 8,760 → R = 0, total 8,760 (a 12-month count would have said R = 1);
    #   p = 0.30: 7,884 < 8,760 → R = 1, total 7,884.
    # Tie, p = on-demand price = 1 on a 1-year term, 1,460 h a month: R = 0, 1, 2 all cost
    #   17,520 → the smaller, R = 0 (no reservation charge at all).
    def reserved(name, price, term="reserved_3y"):
        return {"name": name, "pricing": term,
                "cloud": {"price_per_hour": 1.0, f"{term}_price_per_hour": price}}

    r = evaluate({"horizon_months": 12, "demand": {"gpu_hours_per_month": 730},
                  "options": [reserved("p35", 0.35), reserved("p30", 0.30)]})
    assert option(r, "p35")["total_cost"] == approx(8760.0)
    assert sum(component(r, "p35", "reservation")) == 0.0
    assert option(r, "p30")["total_cost"] == approx(7884.0)
    assert component(r, "p30", "reservation")[1] == approx(0.30 * 730)

    r = evaluate({"horizon_months": 12, "demand": {"gpu_hours_per_month": 1460},
                  "options": [reserved("tie", 1.0, "reserved_1y")]})
    assert sum(component(r, "tie", "reservation")) == 0.0
    assert option(r, "tie")["total_cost"] == approx(17_520.0)


def test_5_2_default_reserved_count_is_the_lowest_present_value():
    # Growth 100 % a year and 10 % discounting over 24 months, 1-year terms (no month past the
    # horizon): the count R minimising, straight from the rule,
    #   PV(R) = Σ_m d_m (R × 1.2 × 730 + 2 × max(0, I_m − 730 R)),
    #   I_m = 1,000 × 2^((m−1)/12), d_m = 1.1^(−m/12):
    #   PV(0) = 89,564, PV(1) = 76,854, PV(2) = 67,738, PV(3) = 70,056 → R = 2.
    T, level, p_r, p_od = 24, 1000.0, 1.2, 2.0
    work = [level * 2 ** ((m - 1) / 12) for m in range(1, T + 1)]
    disc = [1.1 ** (-m / 12) for m in range(1, T + 1)]

    def pv(R):
        return sum(d * (R * p_r * H + p_od * max(0.0, w - R * H)) for d, w in zip(disc, work))

    best = min(range(10), key=lambda R: (round(pv(R), 6), R))
    assert best == 2
    r = evaluate({"horizon_months": T, "discount_rate": 0.1,
                  "demand": {"gpu_hours_per_month": level, "growth_per_year": 1.0},
                  "options": [{"name": "res", "pricing": "reserved_1y",
                               "cloud": {"price_per_hour": p_od,
                                         "reserved_1y_price_per_hour": p_r}}]})
    assert component(r, "res", "reservation")[1] == approx(best * p_r * H)
    assert option(r, "res")["present_value"] == approx(pv(best))


def test_5_2_storage_every_month_and_as_target_only_when_serving():
    # 100 GB at $0.10: $10 in every month 1..T for a cloud option of its own.
    # As an overflow target (price 0 an hour, so its cost is storage alone): the box serves
    # 730 GPU-hours; demand 700 × 1.5^((m−1)/12) passes 730 only when
    # (m−1)/12 > ln(730/700)/ln(1.5) = 0.1035, i.e. m ≥ 3 (m = 2: 700 × 1.0344 = 724.1).
    # So no storage in months 1 and 2, $10 in months 3..12.
    r = evaluate({
        "horizon_months": 12,
        "demand": {"gpu_hours_per_month": 700, "growth_per_year": 0.5, "data_gb": 100},
        "options": [
            {"name": "box", "own": {"purchase_price": 1000, "power_watts": 0},
             "overflow": "free"},
            {"name": "free", "cloud": {"price_per_hour": 0.0}, "storage_per_gb_month": 0.1},
        ]})
    assert option(r, "free")["monthly_cost"] == approx([0.0] + [10.0] * 12)
    assert component(r, "box", "overflow") == approx([0.0, 0.0, 0.0] + [10.0] * 10)


# -- 5.3 Own --------------------------------------------------------------------------------


def test_5_3_capacity_energy_and_monthly_costs():
    # 2 GPUs, availability 0.5: capacity 2 × 730 × 0.5 = 730 GPU-hours. Demand 1,000: 730
    # served, 270 overflow to the cloud at $2 → $540. S = 730/2 = 365 system-hours.
    # Energy, always on: (1.0 kW × 365 + 0.2 kW × (730 − 365)) × PUE 1.2 = 438 × 1.2
    #   = 525.6 kWh × $0.30 = $157.68. Not always on: 1.0 × 365 × 1.2 = 438 kWh → $131.40.
    # Maintenance 1,200/12 = 100; fixed 50; operating 0.4 × 365 = 146.
    # Month 1, always on: 157.68 + 100 + 50 + 146 + 540 = 993.68; month 0: the price, 5,000.
    # Carbon 0.5 kg/kWh: 525.6 × 0.5 × 3 = 788.4 kg over 3 months.
    own = {"purchase_price": 5000, "gpu_count": 2, "availability": 0.5, "power_watts": 1000,
           "idle_power_watts": 200, "maintenance_per_year": 1200, "fixed_cost_per_month": 50,
           "operating_cost_per_hour": 0.4}
    r = evaluate({
        "horizon_months": 3, "demand": {"gpu_hours_per_month": 1000},
        "site": {"electricity_per_kwh": 0.3, "pue": 1.2, "carbon_kg_per_kwh": 0.5},
        "options": [
            {"name": "on", "own": {**own, "always_on": True}, "overflow": "cloud"},
            {"name": "off", "own": own, "overflow": "cloud"},
            {"name": "cloud", "cloud": {"price_per_hour": 2.0}},
        ]})
    on, off = option(r, "on"), option(r, "off")
    assert on["capacity_gpu_hours_per_month"] == approx(730.0)
    assert on["gpu_hours_per_month"] == approx(730.0)
    assert on["unmet_gpu_hours_per_month"] == approx(270.0)
    assert on["monthly_cost"][0] == approx(5000.0)
    assert on["monthly_cost"][1] == approx(993.68)
    assert component(r, "on", "energy")[1] == approx(157.68)
    assert component(r, "off", "energy")[1] == approx(131.4)
    assert on["energy_kwh"] == approx(3 * 525.6)
    assert off["energy_kwh"] == approx(3 * 438.0)
    assert on["carbon_kg"] == approx(788.4)
    # Capacity is in the machine's own GPU-hours: twice as fast, 1 GPU, 730 own GPU-hours
    # serve 1,460 reference GPU-hours; of 2,000, 2,000/2 = 1,000 own are needed, 730 served,
    # 270 own = 540 reference GPU-hours overflow to a cloud of speed 1 at $1: $540.
    r2 = evaluate({"horizon_months": 1, "demand": {"gpu_hours_per_month": 2000},
                   "options": [{"name": "fast", "own": {"purchase_price": 1, "power_watts": 0},
                                "relative_speed": 2, "overflow": "c"},
                               {"name": "c", "cloud": {"price_per_hour": 1.0}}]})
    fast = option(r2, "fast")
    assert fast["capacity_gpu_hours_per_month"] == approx(730.0)
    assert fast["unmet_gpu_hours_per_month"] == approx(270.0)
    assert component(r2, "fast", "overflow")[1] == approx(540.0)
    # A job of 3 GPUs on this 2-GPU machine: infeasible.
    r = evaluate({"horizon_months": 3, "demand": {"gpu_hours_per_month": 10, "gpus": 3},
                  "options": [{"name": "off", "own": own}]})
    assert option(r, "off")["feasible"] is False


@pytest.mark.parametrize("years, months", [
    (2.5 / 12, 3),   # 2.5 months: a half rounds up
    (0.5 / 12, 1),   # 0.5 → 1
    (0.2, 2),        # 2.4 months → 2
    (0.01, 1),       # 0.12 → 0, but L ≥ 1
    (1.5 / 12, 2),   # 1.5 → 2
])
def test_5_3_lifetime_rounding_replacement_and_residual(years, months):
    # Price 900, resale 1/3 (300). T = 10. Replaced in every month k·L < 10; the machine kept
    # was bought at L × floor(9 / L), age a = 10 − that; residual 900 − 600 × a / L.
    # L = 3: bought 0, 3, 6, 9; sold 3, 6, 9; a = 1: residual 900 − 200 = 700;
    #   total = 4 × 900 − 3 × 300 − 700 = 2,000.
    L = months
    T = 10
    bought = [m for m in range(T) if m % L == 0]
    a = T - max(bought)
    residual = 900 - 600 * a / L
    r = evaluate({"horizon_months": T, "demand": {"gpu_hours_per_month": 0},
                  "options": [{"name": "box", "own": {
                      "purchase_price": 900, "power_watts": 0, "lifetime_years": years,
                      "resale_fraction": 1 / 3}}]})
    box = option(r, "box")
    purchase = component(r, "box", "purchase")
    resale = component(r, "box", "resale")
    assert [m for m in range(T + 1) if purchase[m]] == bought
    assert [m for m in range(T + 1) if resale[m]] == bought[1:]
    assert all(resale[m] == approx(-300.0) for m in bought[1:])
    assert box["residual_value"] == approx(residual)
    assert box["total_cost"] == approx(900 * len(bought) - 300 * (len(bought) - 1) - residual)
    if L == 3:
        assert box["total_cost"] == approx(2000.0)


def test_5_3_replacement_at_the_horizon_is_not_made():
    # L = 3, T = 9: replaced only in months 3 and 6 (9 is not < 9); the machine kept is 3
    # months old at T: residual = price − (price − resale) × 3/3 = resale = 300.
    r = evaluate({"horizon_months": 9, "demand": {"gpu_hours_per_month": 0},
                  "options": [{"name": "box", "own": {
                      "purchase_price": 900, "power_watts": 0, "lifetime_years": 0.25,
                      "resale_fraction": 1 / 3}}]})
    purchase = component(r, "box", "purchase")
    assert [m for m in range(10) if purchase[m]] == [0, 3, 6]
    assert option(r, "box")["residual_value"] == approx(300.0)


def test_5_3_financing_with_replacement_resale_and_payoffs_in_one_month():
    # Price 12,000, down 2,000, 24 payments at 12 % a year (1 % a month), lifetime 12 months,
    # resale 25 % (3,000), T = 18.
    # Payment: 10,000 × 0.01 / (1 − 1.01^−24) = 470.7347…
    # Month 0: down 2,000. Months 1..11: one payment.
    # Month 12 (replacement): payment of the old loan + its balance after 12 payments
    #   (payment × (1 − 1.01^−12)/0.01) + new down payment 2,000 − resale 3,000.
    # Months 13..17: one payment of the new loan. Month 18 (T): payment + balance after 6
    #   payments (payment × (1 − 1.01^−18)/0.01).
    # Residual at 18: 12,000 − 9,000 × 6/12 = 7,500.
    i, n = 0.01, 24
    pay = 10_000 * i / (1 - (1 + i) ** -n)

    def balance(made):
        return pay * (1 - (1 + i) ** -(n - made)) / i

    expected = ([2000.0] + [pay] * 11 + [pay + balance(12) + 2000 - 3000]
                + [pay] * 5 + [pay + balance(6)])
    r = evaluate({"horizon_months": 18, "demand": {"gpu_hours_per_month": 0},
                  "options": [{"name": "box", "own": {
                      "purchase_price": 12_000, "power_watts": 0, "lifetime_years": 1,
                      "resale_fraction": 0.25,
                      "financing": {"annual_rate": 0.12, "months": 24,
                                    "down_payment": 2000}}}]})
    box = option(r, "box")
    assert box["monthly_cost"] == approx(expected)
    assert component(r, "box", "loan_payoff")[12] == approx(balance(12))
    assert component(r, "box", "loan_payoff")[18] == approx(balance(6))
    assert box["residual_value"] == approx(7500.0)
    assert box["total_cost"] == approx(sum(expected) - 7500.0)


def test_5_3_down_payment_is_capped_at_the_price_and_short_loans_end():
    # Down payment 5,000 on a 1,000 machine: 1,000 at month 0, nothing borrowed, no payments.
    # A 3-payment interest-free loan of 900 (no down payment) on a 6-month horizon: 300 in
    # months 1..3, nothing after, nothing left to pay off at T.
    r = evaluate({"horizon_months": 6, "demand": {"gpu_hours_per_month": 0},
                  "options": [
                      {"name": "cash", "own": {"purchase_price": 1000, "power_watts": 0,
                                               "financing": {"annual_rate": 0.1, "months": 12,
                                                             "down_payment": 5000}}},
                      {"name": "short", "own": {"purchase_price": 900, "power_watts": 0,
                                                "financing": {"annual_rate": 0.0,
                                                              "months": 3}}},
                  ]})
    assert option(r, "cash")["monthly_cost"] == approx([1000.0] + [0.0] * 6)
    assert option(r, "short")["monthly_cost"] == approx([0.0, 300, 300, 300, 0, 0, 0])


# -- 5.4 Free tier --------------------------------------------------------------------------


def test_5_4_quotas_sessions_setup_and_fallback():
    # Tier of 2 GPUs, job of 2 GPUs: g = 2. H = 730.
    # weekly 20 h → 20 × 730/168 = 86.905; daily 4 h → 4 × 730/24 = 121.67; monthly 100;
    # H = 730. Smallest: weekly, 86.905 h. Granted = 2 × 86.905 × availability 0.8 = 139.05.
    # Sessions of 6 h lose 30 min each: capacity = 139.05 × 5.5/6 = 127.46 GPU-hours.
    # Demand 100 reference GPU-hours at relative_speed 0.5 → 200 own GPU-hours; unmet 72.54 own
    # = 36.27 reference GPU-hours to the fallback: 2-GPU job on a 2-GPU instance, n = 1:
    # 36.27 / 2 = 18.13 instance-hours × $3 = $54.40; plus the fee $5: $59.40 a month.
    # With a daily quota of 2 h instead (60.83 h a month), daily binds: 2 × 60.83 × 0.8 × 5.5/6.
    weekly = 20 * H / 168
    capacity = 2 * weekly * 0.8 * 5.5 / 6
    passed = (200 - capacity) * 0.5
    tier = {"gpus": 2, "weekly_quota_hours": 20, "daily_quota_hours": 4,
            "monthly_quota_hours": 100, "session_hours": 6, "setup_minutes": 30,
            "availability": 0.8, "fee_per_month": 5}
    r = evaluate({
        "horizon_months": 2, "demand": {"gpu_hours_per_month": 100, "gpus": 2},
        "options": [
            {"name": "tier", "free_tier": tier, "relative_speed": 0.5, "fallback": "cloud"},
            {"name": "daily", "free_tier": {**tier, "daily_quota_hours": 2},
             "relative_speed": 0.5, "fallback": "cloud"},
            {"name": "cloud", "cloud": {"price_per_hour": 3.0, "gpus": 2}},
        ]})
    t = option(r, "tier")
    assert t["capacity_gpu_hours_per_month"] == approx(capacity)
    assert t["gpu_hours_per_month"] == approx(capacity)
    assert t["unmet_gpu_hours_per_month"] == approx(200 - capacity)
    assert t["monthly_cost"][1] == approx(5 + passed / 2 * 3.0)
    assert component(r, "tier", "fee") == approx([0.0, 5.0, 5.0])
    assert option(r, "daily")["capacity_gpu_hours_per_month"] == approx(
        2 * (2 * H / 24) * 0.8 * 5.5 / 6)
    # A 1-GPU job on a 4-GPU tier gets 1 GPU: a monthly quota of 100 h is 100 GPU-hours.
    r = evaluate({"horizon_months": 1, "demand": {"gpu_hours_per_month": 10},
                  "options": [{"name": "t", "free_tier": {"gpus": 4,
                                                          "monthly_quota_hours": 100}}]})
    assert option(r, "t")["capacity_gpu_hours_per_month"] == approx(100.0)


def test_5_4_wide_job_or_small_memory_sends_everything_to_the_fallback():
    # A 2-GPU job on a 1-GPU tier: all 50 GPU-hours to the cloud (2 GPUs on 1-GPU instances:
    # n = 2; 25 job-hours × 2 = 50 instance-hours × $1 = $50). A tier with 16 GB when the
    # work needs 40: the same. Without a fallback the tier is infeasible; above its capacity
    # without a fallback too.
    r = evaluate({
        "horizon_months": 1,
        "demand": {"gpu_hours_per_month": 50, "gpus": 2, "min_gpu_memory_gb": 40},
        "options": [
            {"name": "wide", "free_tier": {"gpus": 1, "gpu_memory_gb": 80}, "fallback": "c"},
            {"name": "small", "free_tier": {"gpus": 2, "gpu_memory_gb": 16}, "fallback": "c"},
            {"name": "alone", "free_tier": {"gpus": 2, "gpu_memory_gb": 16}},
            {"name": "c", "cloud": {"price_per_hour": 1.0, "gpu_memory_gb": 80}},
        ]})
    for name in ("wide", "small"):
        o = option(r, name)
        assert o["feasible"] is True
        assert o["gpu_hours_per_month"] == 0.0
        assert o["monthly_cost"] == approx([0.0, 50.0])
    assert option(r, "alone")["feasible"] is False
    r = evaluate({"horizon_months": 1, "demand": {"gpu_hours_per_month": 50},
                  "options": [{"name": "t", "free_tier": {"monthly_quota_hours": 40}}]})
    assert option(r, "t")["feasible"] is False


# -- 5.5 Overflow and fallback --------------------------------------------------------------


def test_5_5_chain_into_a_reserved_cloud_with_fixed_costs_and_residuals():
    # box (1 GPU, $1,000, lifetime 4 y) → box2 (1 GPU, $2,000, lifetime 2 y) → reserved cloud
    # (1-year term at $1, on demand $2). T = 12. Residuals: box 1,000 × (1 − 12/48) = 750;
    # box2 2,000 × (1 − 12/24) = 1,000: 1,750 credited to box.
    # Demand 2,000 a month: box 730, box2 730, the cloud 540 a month. Its count on that work:
    #   R = 0: 540 × 2 × 12 = 12,960; R = 1: 730 × 12 = 8,760 → R = 1, $730 a month.
    #   Total = 1,000 + 2,000 + 8,760 − 1,750 = 10,010.
    # Demand 1,500: the cloud gets 40 a month: R = 0 (960 < 8,760) → $80 a month;
    #   total = 3,000 + 960 − 1,750 = 2,210.
    # Demand 500: box2 and the cloud get nothing, yet box2's purchase and residual count:
    #   total = 3,000 − 1,750 = 1,250; the cloud charges nothing (R = 0, no work).
    def doc(level):
        return {"horizon_months": 12, "demand": {"gpu_hours_per_month": level},
                "options": [
                    {"name": "box", "own": {"purchase_price": 1000, "power_watts": 0},
                     "overflow": "box2"},
                    {"name": "box2", "own": {"purchase_price": 2000, "power_watts": 0,
                                             "lifetime_years": 2},
                     "overflow": "res"},
                    {"name": "res", "pricing": "reserved_1y",
                     "cloud": {"price_per_hour": 2.0, "reserved_1y_price_per_hour": 1.0}},
                ]}

    for level, total, month_1 in ((2000, 10_010.0, 730.0), (1500, 2210.0, 80.0),
                                  (500, 1250.0, 0.0)):
        r = evaluate(doc(level))
        box = option(r, "box")
        assert box["feasible"] is True
        assert box["residual_value"] == approx(1750.0)
        assert box["total_cost"] == approx(total)
        assert box["monthly_cost"][0] == approx(3000.0)
        assert box["monthly_cost"][1] == approx(month_1)
        assert box["gpu_hours_per_month"] == approx(min(level, 730.0))


def test_5_5_overflow_into_a_reserved_3y_cloud_with_growth_and_discounting():
    # Box: 1 GPU (730 GPU-hours), $3,000, lifetime 4 y: residual 3,000 × (1 − 12/48) = 2,250.
    # Demand 600 × 2.5^((m−1)/12); the box passes P_m = max(0, D_m − 730) to a reserved 3-year
    # cloud ($0.15 committed, $2 on demand), storage 50 GB × $0.20 = $10 in months it serves.
    # T = 12, 8 % a year: d_m = 1.08^(−m/12). The count minimising the target's present value
    #   PV(R) = Σ_m d_m (0.15 × 730 R + 2 max(0, P_m − 730 R) + 10 [P_m > 0])
    #           + 24 × d_12 × 0.15 × 730 R        (the 24 months past the horizon)
    # is R = 1 (by the sums below: R = 0 → 5,397; R = 1 → 3,780; R = 2 → 7,473).
    # Month 1: 0.15 × 730 = 109.50 (no work passed yet: no storage, nothing on demand).
    # Month 12: 109.50 × 25 + 10 = 2,747.50.
    T = 12
    passed = [max(0.0, 600 * 2.5 ** ((m - 1) / 12) - 730) for m in range(1, T + 1)]
    d = [1.08 ** (-m / 12) for m in range(T + 1)]

    def pv(R):
        return (sum(d[m] * (0.15 * 730 * R + 2 * max(0.0, passed[m - 1] - 730 * R)
                            + (10 if passed[m - 1] > 0 else 0)) for m in range(1, T + 1))
                + 24 * d[T] * 0.15 * 730 * R)

    best = min(range(5), key=lambda R: (round(pv(R), 6), R))
    assert best == 1
    r = evaluate({
        "horizon_months": T, "discount_rate": 0.08,
        "demand": {"gpu_hours_per_month": 600, "growth_per_year": 1.5, "data_gb": 50},
        "options": [
            {"name": "box", "own": {"purchase_price": 3000, "power_watts": 0},
             "overflow": "res"},
            {"name": "res", "pricing": "reserved_3y", "storage_per_gb_month": 0.2,
             "cloud": {"price_per_hour": 2.0, "reserved_3y_price_per_hour": 0.15}},
        ]})
    box = option(r, "box")
    overflow = component(r, "box", "overflow")
    assert overflow[1] == approx(109.5)
    assert overflow[12] == approx(109.5 * 25 + 10)
    assert box["present_value"] == approx(3000 + pv(1) - 2250 * d[T])


def test_5_5_free_tier_falls_back_to_a_machine_that_overflows():
    # Tier: 100 GPU-hours a month. Then a box (1 GPU, 730 h, $1,000, lifetime 4 y: residual
    # 750 at T = 12; 500 W at $0.20), then a cloud at $2. Demand 1,000: tier 100, box 730,
    # cloud 170 → $340 a month. Box energy 0.5 kW × 730 h = 365 kWh → $73 a month.
    # The tier's figures include everything its chain adds: month 0 $1,000, months $413,
    # total 1,000 + 12 × 413 − 750 = 5,206; energy 12 × 365 = 4,380 kWh; residual 750.
    r = evaluate({
        "horizon_months": 12, "site": {"electricity_per_kwh": 0.2},
        "demand": {"gpu_hours_per_month": 1000},
        "options": [
            {"name": "tier", "free_tier": {"monthly_quota_hours": 100}, "fallback": "box"},
            {"name": "box", "own": {"purchase_price": 1000, "power_watts": 500},
             "overflow": "cloud"},
            {"name": "cloud", "cloud": {"price_per_hour": 2.0}},
        ]})
    tier = option(r, "tier")
    assert tier["gpu_hours_per_month"] == approx(100.0)
    assert tier["monthly_cost"] == approx([1000.0] + [413.0] * 12)
    assert tier["residual_value"] == approx(750.0)
    assert tier["total_cost"] == approx(5206.0)
    assert tier["energy_kwh"] == approx(4380.0)


def test_5_5_target_that_cannot_take_work_only_matters_when_given_work():
    # The cloud's 24 GB is less than the 40 GB asked for: the box stays feasible while it
    # passes nothing (500 ≤ 730), and is infeasible once it passes work (1,000 > 730).
    def doc(level):
        return {"horizon_months": 2,
                "demand": {"gpu_hours_per_month": level, "min_gpu_memory_gb": 40},
                "options": [
                    {"name": "box", "own": {"purchase_price": 1000, "power_watts": 0,
                                            "gpu_memory_gb": 80}, "overflow": "small"},
                    {"name": "small", "cloud": {"price_per_hour": 1.0, "gpu_memory_gb": 24}},
                ]}

    assert option(evaluate(doc(500)), "box")["feasible"] is True
    assert option(evaluate(doc(1000)), "box")["feasible"] is False


def test_5_5_a_cycle_is_an_error():
    with pytest.raises(UserError, match="cycle"):
        evaluate({"demand": {"gpu_hours_per_month": 10}, "options": [
            {"name": "a", "own": {"purchase_price": 1, "power_watts": 0}, "overflow": "b"},
            {"name": "b", "free_tier": {"monthly_quota_hours": 1}, "fallback": "a"}]})


# -- 5.6 Break-even -------------------------------------------------------------------------


def test_5_6_months_step_at_0_and_even_accrual_with_replacements():
    # Box: $900 now, replaced after L = 4 months (another $900 in month 4, accrued evenly over
    # (3, 4]); 100 GPU-hours a month on 1 GPU = 100 system-hours. T = 8.
    # Cloud at $2.50: $250 a month. Cumulative: box 900 on [0, 3], 900 + 900 (t − 3) on (3, 4],
    # 1,800 after; cloud 250 t. At t = 3.6 the cloud reaches 900 but the box is already at
    # 1,440; the box stays above until 250 t = 1,800: t = 7.2 → months 7.2, system-hours 720.
    # Discounting (10 % a year) does not change it: the curve is nominal.
    # At $3 (300 a month) the cloud reaches 900 at t = 3 exactly, but the box is above it again
    # on (3, 4] and until 300 t = 1,800: t = 6, a month boundary → 6, 600 system-hours.
    # The residual value (bought at 4, age 4 = L: resale 0) is not counted either way.
    r = evaluate({
        "horizon_months": 8, "discount_rate": 0.1, "demand": {"gpu_hours_per_month": 100},
        "options": [
            {"name": "box", "own": {"purchase_price": 900, "power_watts": 0,
                                    "lifetime_years": 4 / 12}},
            {"name": "c250", "cloud": {"price_per_hour": 2.5}},
            {"name": "c300", "cloud": {"price_per_hour": 3.0}},
        ]})
    p = pair(r, "box", "c250")
    assert p["months"] == approx(7.2)
    assert p["system_hours"] == approx(720.0)
    p = pair(r, "box", "c300")
    assert p["months"] == approx(6.0)
    assert p["system_hours"] == approx(600.0)


def test_5_6_months_own_against_own_both_ways_and_residual_ignored():
    # Two boxes with the same running costs ($10 a month fixed), $900 and $1,200, lifetime 8 y,
    # T = 12. Cheap against dear: never above → 0 months, 0 system-hours. Dear against cheap:
    # 300 above all the way to T (the dear box's larger residual value is not counted) → null.
    # Cheap box against a cloud at $10 for 100 GPU-hours = $1,000 a month: the box is above
    # only from the step at t = 0: 900 + 10 t against 1,000 t on (0, 1]: equal at
    # t = 900/990 = 0.90909; 100 system-hours a month → 90.909 system-hours.
    own = {"power_watts": 0, "fixed_cost_per_month": 10, "lifetime_years": 8}
    r = evaluate({
        "horizon_months": 12, "demand": {"gpu_hours_per_month": 100},
        "options": [
            {"name": "cheap", "own": {**own, "purchase_price": 900}},
            {"name": "dear", "own": {**own, "purchase_price": 1200}},
            {"name": "cloud", "cloud": {"price_per_hour": 10.0}},
        ]})
    assert pair(r, "cheap", "dear")["months"] == 0.0
    assert pair(r, "cheap", "dear")["system_hours"] == 0.0
    assert pair(r, "dear", "cheap")["months"] is None
    assert pair(r, "dear", "cheap")["system_hours"] is None
    p = pair(r, "cheap", "cloud")
    assert p["months"] == approx(900 / 990)
    assert p["system_hours"] == approx(100 * 900 / 990)


def test_5_6_break_even_level_closed_form_with_growth_discount_and_speed():
    # Box: $1,000, lifetime 1 y = T = 12 (residual = resale = 0), $0.20 per busy system-hour,
    # 1 GPU, twice as fast as the reference: $0.10 per reference GPU-hour. Cloud: $1.20 per
    # reference GPU-hour. Growth 20 %, discount 5 %: with g_m = 1.2^((m−1)/12),
    # d_m = 1.05^(−m/12), PV(box) − PV(cloud) = 1,000 − (1.2 − 0.1) x Σ d_m g_m = 0 at
    # x = 1,000 / (1.1 Σ d_m g_m) reference GPU-hours a month (within the box's capacity,
    # 1,460 reference GPU-hours / 1.2^(11/12)).
    s = sum(1.05 ** (-m / 12) * 1.2 ** ((m - 1) / 12) for m in range(1, 13))
    r = evaluate({
        "horizon_months": 12, "discount_rate": 0.05,
        "demand": {"gpu_hours_per_month": 100, "growth_per_year": 0.2},
        "options": [
            {"name": "box", "own": {"purchase_price": 1000, "power_watts": 0,
                                    "lifetime_years": 1, "operating_cost_per_hour": 0.2},
             "relative_speed": 2},
            {"name": "cloud", "cloud": {"price_per_hour": 1.2}},
        ]})
    assert pair(r, "box", "cloud")["gpu_hours_per_month"] == approx(1000 / (1.1 * s), rel=1e-7)


def test_5_6_break_even_level_at_the_ends_of_the_search():
    # Box: $8,760, lifetime 1 y = T = 12 (residual 0), nothing else; 1 GPU: the search ends at
    # its capacity, 730. Cloud at $1: PV 12 x; zero at x = 8,760/12 = 730, the bound itself:
    # 730. At $0.999 the zero (730.73) lies past the capacity: null. Two identical boxes: the
    # difference is zero from level 0 on: 0; and the dear one is never above: 0 months.
    box = {"purchase_price": 8760, "power_watts": 0, "lifetime_years": 1}
    r = evaluate({
        "horizon_months": 12, "demand": {"gpu_hours_per_month": 100},
        "options": [
            {"name": "box", "own": box}, {"name": "twin", "own": box},
            {"name": "c", "cloud": {"price_per_hour": 1.0}},
            {"name": "c2", "cloud": {"price_per_hour": 0.999}},
        ]})
    assert pair(r, "box", "c")["gpu_hours_per_month"] == approx(730.0, rel=1e-9)
    assert pair(r, "box", "c2")["gpu_hours_per_month"] is None
    assert pair(r, "box", "twin")["gpu_hours_per_month"] == 0.0
    assert pair(r, "box", "twin")["months"] == 0.0


def test_5_6_break_even_level_at_a_jump():
    # The other option is a free tier of 100 GPU-hours a month falling back to a cloud whose
    # storage (100 GB × $1 = $100 a month) starts with its first hour of work. T = 12.
    # Box: $1,000, lifetime 1 y, nothing else: PV 1,000 at every level.
    # Tier chain: 0 up to 100; just above 100: 12 × (100 + (x − 100) × $1) ≥ 1,200.
    # PV(box) − PV(tier) = +1,000 up to x = 100 and ≤ −200 just above: the sign changes at
    # x = 100 exactly.
    r = evaluate({
        "horizon_months": 12, "demand": {"gpu_hours_per_month": 50, "data_gb": 100},
        "options": [
            {"name": "box", "own": {"purchase_price": 1000, "power_watts": 0,
                                    "lifetime_years": 1}},
            {"name": "tier", "free_tier": {"monthly_quota_hours": 100}, "fallback": "cloud"},
            {"name": "cloud", "cloud": {"price_per_hour": 1.0}, "storage_per_gb_month": 1.0},
        ]})
    assert pair(r, "box", "tier")["gpu_hours_per_month"] == approx(100.0, rel=1e-7)


def test_5_6_break_even_level_is_the_smallest_against_reserved_pricing():
    # Box: 10 GPUs at availability 0.96 (capacity 7,008 GPU-hours), $2,528, lifetime 1 y = T
    # (residual 0), $5 per busy system-hour = $0.50 per GPU-hour: PV(box) = 2,528 + 6 x.
    # Reserved cloud, 1-year term, $0.60 reserved / $1 on demand, T = 12: for x ≤ 730 the
    # best count gives min(12 x, 0.6 × 730 × 12 = 5,256) (R = 0 up to x = 438, R = 1 after).
    # PV(box) − PV(cloud) = 2,528 − 6 x on [0, 438]: zero at x = 421.33 (then −100 at 438,
    # back above zero from 454.67 on, and zero again only at 1,005.33).
    # The smallest level with a zero: 2,528 / 6 = 421.33.
    r = evaluate({
        "horizon_months": 12, "demand": {"gpu_hours_per_month": 100},
        "options": [
            {"name": "box", "own": {"purchase_price": 2528, "gpu_count": 10,
                                    "availability": 0.96, "power_watts": 0,
                                    "lifetime_years": 1, "operating_cost_per_hour": 5.0}},
            {"name": "res", "pricing": "reserved_1y",
             "cloud": {"price_per_hour": 1.0, "reserved_1y_price_per_hour": 0.6}},
        ]})
    assert pair(r, "box", "res")["gpu_hours_per_month"] == approx(2528 / 6, rel=1e-6)


def test_5_6_break_even_level_is_none_when_the_difference_never_reaches_zero():
    # H = 720, T = 12. Box: 9 GPUs at availability 71/72 (capacity 6,390 GPU-hours), $2,170,
    # lifetime 1 y = T (residual 0), $4.50 per busy system-hour = $0.50 per GPU-hour:
    # PV(box) = 2,170 + 6 x. Reserved cloud, 1-year term, $0.50 / $1 on demand: per tooth k,
    # PV = 4,320 k + min(12 (x − 720 k), 4,320) on [720 k, 720 (k + 1)].
    # PV(box) − PV(cloud) falls with slope −6 on each ramp and rises with slope +6 on each flat;
    # its minima, at x = 720 k + 360, are 2,170 + 6 (720 k + 360) − 4,320 (k + 1) = 10 for
    # every k. It never reaches zero below the capacity: no break-even level (null).
    r = evaluate({
        "horizon_months": 12, "hours_per_month": 720, "demand": {"gpu_hours_per_month": 100},
        "options": [
            {"name": "box", "own": {"purchase_price": 2170, "gpu_count": 9,
                                    "availability": 71 / 72, "power_watts": 0,
                                    "lifetime_years": 1, "operating_cost_per_hour": 4.5}},
            {"name": "res", "pricing": "reserved_1y",
             "cloud": {"price_per_hour": 1.0, "reserved_1y_price_per_hour": 0.5}},
        ]})
    assert pair(r, "box", "res")["gpu_hours_per_month"] is None


def test_5_6_overflow_search_bound_is_ten_times_the_capacity():
    # SPEC §5.6 bounds the search, with an overflow, by "at most ten times that capacity": the
    # month-1 level is at most 10 × capacity, whatever the growth (the project first divided
    # that by the largest growth factor; README, Decisions).
    # Box: 1 GPU (730), $56,540, lifetime 13 months = T (residual 0), overflow to a cloud at $1;
    # other: a cloud at $1.50. Growth 100 %: g_m = 2^((m−1)/12), g_13 = 2, Σ g_m = S.
    # For x ≥ 730 every month overflows: PV(box) − PV(other) = 56,540 − 730 × 13 − 0.5 x S,
    # strictly falling: zero at x* = (56,540 − 9,490) / (0.5 S) ≈ 5,000.8, below 10 × 730.
    S = sum(2 ** ((m - 1) / 12) for m in range(1, 14))
    x_star = (56_540 - 730 * 13) / (0.5 * S)
    assert 3650 < x_star < 7300  # beyond 10 × 730 / g_13, within 10 × 730

    def doc(level):
        return {"horizon_months": 13,
                "demand": {"gpu_hours_per_month": level, "growth_per_year": 1.0},
                "options": [
                    {"name": "box", "own": {"purchase_price": 56_540, "power_watts": 0,
                                            "lifetime_years": 13 / 12}, "overflow": "a"},
                    {"name": "a", "cloud": {"price_per_hour": 1.0}},
                    {"name": "b", "cloud": {"price_per_hour": 1.5}},
                ]}

    at_root = evaluate(doc(x_star))
    assert option(at_root, "box")["present_value"] == approx(
        option(at_root, "b")["present_value"], rel=1e-9)
    assert pair(evaluate(doc(100)), "box", "b")["gpu_hours_per_month"] == approx(x_star,
                                                                                rel=1e-9)
