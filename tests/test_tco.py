"""The cost engine against hand-computed values (SPEC §5)."""

import dataclasses

import numpy as np
import numpy_financial as npf
import pytest
from builders import calendar, cloud, demand, free_tier, model, own
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.cards.model import Financing
from planner.engine.cloud import best_reserved_instances
from planner.engine.figures import compute
from planner.engine.free_tier import free_tier_capacity
from planner.engine.own import purchase_flows
from planner.engine.tco import evaluate


def flows_of(m, name):
    return evaluate(m)[name]


def test_cloud_on_demand_pays_every_gpu_hour():
    # 100 GPU-hours a month at $2 per 1-GPU instance-hour, 36 months: 7,200.
    f = compute(model(cloud(price=2.0), dem=demand(level=100)))
    assert f.options[0].total_cost[0] == pytest.approx(7200.0)
    assert f.options[0].cost_per_gpu_hour[0] == pytest.approx(2.0)


def test_whole_instances_are_paid():
    # A 3-GPU job on 2-GPU instances takes 2 instances: 300 GPU-hours = 100 job-hours
    # = 200 instance-hours at $5 = $1,000 a month.
    m = model(cloud(price=5.0, gpus=2), dem=demand(level=300, gpus=3), cal=calendar(T=1))
    assert flows_of(m, "cloud").components["rental"][0, 1] == pytest.approx(1000.0)


def test_spot_interruptions_add_redone_work():
    # rho = 1 + 0.1 * (30/2 + 5) / 60 = 1.0333…; 600 h at $1 → 620.
    m = model(cloud(price=1.0, interruptions=0.1), dem=demand(level=600), cal=calendar(T=1))
    assert flows_of(m, "cloud").components["rental"][0, 1] == pytest.approx(620.0)


def test_billing_increment_rounds_each_job_up():
    # Jobs of 1.5 h billed by the hour: 2 h each. 150 GPU-hours = 100 jobs → 200 h at $1.
    m = model(cloud(price=1.0, billing_minutes=60, job_hours=1.5),
              dem=demand(level=150, job_hours=1.5), cal=calendar(T=1))
    assert flows_of(m, "cloud").components["rental"][0, 1] == pytest.approx(200.0)


def test_billing_increment_uses_speed_adjusted_job_length():
    # Twice as fast: a 3 h reference job takes 1.5 h, billed 2 h (per hour).
    # 300 reference GPU-hours = 150 own GPU-hours = 100 jobs → 200 h at $1.
    m = model(cloud(price=1.0, billing_minutes=60, job_hours=1.5, speed=2.0),
              dem=demand(level=300, job_hours=3.0), cal=calendar(T=1))
    assert flows_of(m, "cloud").components["rental"][0, 1] == pytest.approx(200.0)


def test_reserved_default_count_minimises_present_value():
    # 1,000 instance-hours a month; H = 730; on demand $3, reserved $2; 12 months, 1-year term.
    # R=0: 36,000; R=1: 2·730·12 + 270·3·12 = 27,240; R=2: 35,040. Best: 1.
    m = model(cloud(price=2.0, on_demand=3.0, pricing="reserved_1y", reserved_price=2.0,
                    term=12), dem=demand(level=1000), cal=calendar(T=12))
    f = flows_of(m, "cloud")
    assert f.components["reservation"][0, 1:].sum() == pytest.approx(17_520.0)
    assert f.components["rental"][0, 1:].sum() == pytest.approx(9_720.0)


def test_reserved_past_horizon_months_are_charged_in_the_last_month():
    # One instance on a 3-year term over 12 months: 24 more months charged in month 12.
    m = model(cloud(price=1.0, on_demand=3.0, pricing="reserved_3y", reserved_price=1.0,
                    term=36, reserved_instances=1), dem=demand(level=730), cal=calendar(T=12))
    charge = flows_of(m, "cloud").components["reservation"][0]
    assert charge[1] == pytest.approx(730.0)
    assert charge[12] == pytest.approx(730.0 * 25)


@pytest.mark.parametrize("hours", [[0.0, 500, 800, 1500], [0.0, 2000, 100, 100],
                                   [0.0, 730, 1460, 2190]])
def test_best_reserved_instances_matches_brute_force(hours):
    I = np.array([hours])
    disc = np.ones_like(I)
    H, pr, pod = np.array([[730.0]]), np.array([[1.0]]), np.array([[2.5]])
    weight = np.array([[3.0]])

    def cost(r):
        return r * pr[0, 0] * 730 * 3 + pod[0, 0] * np.maximum(I[0, 1:] - r * 730, 0).sum()

    brute = min(range(10), key=lambda r: (cost(r), r))
    assert best_reserved_instances(I, H, pr, pod, disc, weight)[0, 0] == brute


def test_own_energy_with_pue_and_idle_power():
    # 100 system-hours at 1 kW, PUE 1.5: 150 kWh; idle 100 W for 630 h: 94.5 kWh; at $0.20.
    m = model(own(power_w=1000, idle_w=100, always_on=True, pue=1.5, electricity=0.2),
              dem=demand(level=100), cal=calendar(T=1, H=730))
    f = flows_of(m, "box")
    assert f.energy_kwh[0, 1] == pytest.approx(150 + 94.5)
    assert f.components["energy"][0, 1] == pytest.approx((150 + 94.5) * 0.2)


def test_own_monthly_running_costs():
    # 200 GPU-hours on 2 GPUs = 100 system-hours; $1.5/h operating, $1,200/yr maintenance, $50.
    m = model(own(gpu_count=2, operating=1.5, maintenance_per_year=1200, fixed=50),
              dem=demand(level=200), cal=calendar(T=2))
    c = flows_of(m, "box").components
    assert [c["operating"][0, 1], c["maintenance"][0, 1], c["fixed"][0, 1]] == \
        pytest.approx([150.0, 100.0, 50.0])
    assert c["operating"][0, 0] == 0 and c["maintenance"][0, 0] == 0


def test_replacement_resale_and_residual_value():
    # Lifetime 12 months, 30-month horizon, $1,000, resale 20%: bought in 0, 12, 24; sold for
    # 200 in 12 and 24; kept machine 6 months old: 1000 − 800·6/12 = 600.
    m = model(own(price=1000, lifetime_months=12, resale=0.2), cal=calendar(T=30))
    f = flows_of(m, "box")
    assert np.flatnonzero(f.components["purchase"][0]).tolist() == [0, 12, 24]
    assert f.components["resale"][0, 12] == pytest.approx(-200.0)
    assert f.residual_value[0] == pytest.approx(600.0)


def test_lifetime_ending_exactly_at_horizon_is_not_replaced():
    m = model(own(price=1000, lifetime_months=36, resale=0.1), cal=calendar(T=36))
    f = flows_of(m, "box")
    assert np.flatnonzero(f.components["purchase"][0]).tolist() == [0]
    assert f.residual_value[0] == pytest.approx(100.0)


def test_financing_matches_numpy_financial():
    # $200,000 over 15 years at 7.5%: numpy_financial.pmt gives −1,854.0247…
    m = model(own(price=200_000, financing=(0.075, 180, 0.0), lifetime_months=240),
              cal=calendar(T=24))
    c = flows_of(m, "box").components
    assert c["financing"][0, 1] == pytest.approx(-npf.pmt(0.075 / 12, 180, 200_000))
    assert c["purchase"][0, 0] == 0.0
    # Paid off in month T: the balance after 24 payments.
    balance = npf.fv(0.075 / 12, 24, npf.pmt(0.075 / 12, 180, 200_000), 200_000)
    assert c["loan_payoff"][0, 24] == pytest.approx(-balance)


def test_financing_down_payment_and_payoff_at_replacement():
    # $12,000, $2,000 down, 0% over 20 months; replaced every 10 months on a 15-month horizon.
    m = model(own(price=12_000, financing=(0.0, 20, 2000.0), lifetime_months=10),
              cal=calendar(T=15))
    c = flows_of(m, "box").components
    assert c["purchase"][0, 0] == 2000 and c["purchase"][0, 10] == 2000
    assert c["financing"][0, 1] == pytest.approx(500.0)
    assert c["loan_payoff"][0, 10] == pytest.approx(5000.0)  # 10 of 20 payments made
    assert c["loan_payoff"][0, 15] == pytest.approx(7500.0)  # 5 of 20 on the second machine
    total = sum(v.sum() for v in c.values())
    assert total == pytest.approx(24_000.0)  # two machines, no interest


def _row(card, i):
    """Row i of an own card's per-row arrays, as a card of one row."""
    def one(a):
        return a[[i]] if a.shape[0] > 1 else a
    f = card.financing
    return dataclasses.replace(
        card, purchase_month=one(card.purchase_month), machines=one(card.machines),
        purchase_price=one(card.purchase_price),
        financing=None if f is None else Financing(*(one(v) for v in (
            f.annual_rate, f.months, f.down_payment))))


@settings(max_examples=25, deadline=None)
@given(months=st.lists(st.integers(0, 30), min_size=1, max_size=4),
       prices=st.lists(st.sampled_from([5_000.0, 12_345.67]), min_size=1, max_size=2),
       rates=st.lists(st.sampled_from([0.0, 0.06, 0.3]), min_size=1, max_size=2),
       financed=st.booleans(), lifetime=st.integers(1, 40), resale=st.sampled_from([0.0, 0.3]))
def test_purchase_flows_of_a_grid_equal_each_row_alone(months, prices, rates, financed,
                                                       lifetime, resale):
    # A search's grid repeats a few purchase terms over many counts: purchase_flows computes one
    # machine per distinct row there. Each row must get the very floats it gets alone,
    # whichever terms vary (a flow may depend on none of them, and stays one row).
    counts = np.arange(0.0, 70.0)  # more rows than purchase_flows computes as they are
    grid = [(c, p, q, r) for c in counts for p in months for q in prices for r in rates]
    # A term that does not vary is one number, as a plan's card has it.
    c, p, q, r = (np.array(v) if len(set(v)) > 1 else v[0] for v in zip(*grid))
    card = own(price=q, lifetime_months=lifetime, resale=resale, machines=c, purchase_month=p,
               financing=(r, 24, 1_000.0) if financed else None)
    T = 36
    components, residual, quantities = purchase_flows(card, T)
    rows = (len(grid), T + 1)
    for i in range(len(grid)):
        alone, alone_residual, alone_quantities = purchase_flows(_row(card, i), T)
        assert alone_residual[0] == residual[i]
        for label, flow in alone.items():
            assert np.array_equal(np.broadcast_to(components[label], rows)[i], flow[0]), label
        for label, (count, _, _) in alone_quantities.items():
            grid_count = np.broadcast_to(quantities[label][0](), rows)
            assert np.array_equal(grid_count[i], count()[0]), label


def test_own_capacity_and_overflow():
    # 1 GPU, 730 h capacity; 1,000 GPU-hours: 270 go to the cloud at $2 → $540 a month.
    m = model(own(overflow="cloud"), cloud(price=2.0), dem=demand(level=1000),
              cal=calendar(T=1))
    f = compute(m)
    box = f.options[0]
    assert box.feasible[0]
    assert box.flows.components["overflow"][0, 1] == pytest.approx(540.0)
    assert box.unmet_gpu_hours_per_month[0] == pytest.approx(270.0)
    assert box.gpu_hours_per_month[0] == pytest.approx(730.0)


def test_own_without_overflow_is_infeasible_above_capacity():
    f = compute(model(own(), dem=demand(level=1000, growth=0.0)))
    assert not f.options[0].feasible[0]
    assert np.isnan(f.options[0].total_cost[0])
    assert f.options[0].first_unmet_month[0] == 1


def test_free_tier_capacity_from_quotas_and_sessions():
    # 30 h a week → 30·730/168 h a month; 12 h sessions lose 30 min each: × 11.5/12.
    m = model(free_tier(weekly=30, session=12, setup=30), dem=demand(level=10))
    expected = 30 * 730 / 168 * 11.5 / 12
    assert free_tier_capacity(m, m.cards["tier"])[0, 0] == pytest.approx(expected)


def test_free_tier_daily_quota_and_gpus():
    # 2 GPUs per job, tier gives 2; 4 h a day → 4·730/24 h, × 2 GPUs, availability 0.5.
    m = model(free_tier(gpus=2, daily=4, availability=0.5), dem=demand(level=10, gpus=2))
    assert free_tier_capacity(m, m.cards["tier"])[0, 0] == pytest.approx(4 * 730 / 24 * 2 * 0.5)


def test_free_tier_fallback_carries_the_rest():
    m = model(free_tier(monthly=30, fallback="cloud"), cloud(price=1.0),
              dem=demand(level=100), cal=calendar(T=2))
    tier = compute(m).options[0]
    assert tier.feasible[0]
    assert tier.flows.components["fallback"][0, 1] == pytest.approx(70.0)
    assert tier.total_cost[0] == pytest.approx(140.0)


def test_free_tier_too_little_memory_without_fallback_is_infeasible():
    m = model(free_tier(memory=16), dem=demand(level=1, min_mem=40))
    tier = compute(m).options[0]
    assert not tier.feasible[0]
    assert any("memory" in str(reason) for _, reason in tier.flows.infeasible)


def test_target_storage_only_in_months_it_serves():
    # Demand grows past the machine's capacity only in month 13+.
    m = model(own(overflow="cloud"), cloud(price=1.0, storage=0.1),
              dem=demand(level=700, growth=0.5, data_gb=100), cal=calendar(T=24))
    c = compute(m).options[0].flows.components["overflow"][0]
    assert c[1] == 0.0
    assert c[24] > 10.0  # storage 100 GB × 0.1 plus rent


def test_discounting_present_value():
    # $100 a month for 12 months at 10% a year: Σ 100·1.1^(−m/12).
    m = model(cloud(price=1.0), dem=demand(level=100), cal=calendar(T=12, r=0.1))
    pv = compute(m).options[0].present_value[0]
    assert pv == pytest.approx(sum(100 * 1.1 ** (-k / 12) for k in range(1, 13)))


def test_lenovo_lp2225_break_even():
    # Published: 833,806 / (98.32 − 0.87) = 8,556.2 h = 11.88 months of 720 h.
    m = model(own("server", price=833_806, gpu_count=8, operating=0.87),
              cloud("aws", price=98.32, gpus=8), cal=calendar(T=36, H=720),
              dem=demand(level=720 * 8, gpus=8))
    pair = compute(m).pairs[0]
    assert pair.months[0] == pytest.approx(833_806 / (98.32 - 0.87) / 720)
    assert pair.system_hours[0] == pytest.approx(8556.24, abs=0.01)
