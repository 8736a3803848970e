"""Uncertainty (SPEC §7): the draws, their summary, and the checks of the ``uncertainty`` map.

The closed forms: a rented option at a uniform price p ~ U(a, b) costs D × T × p, so its
percentiles are those of the uniform and the share of draws in which it beats a machine of
fixed cost C is P(p < C / (D T)) = (C / (D T) − a) / (b − a). A one-dimensional Latin
hypercube puts exactly one draw in each 1/n of the probability, so these hold to 1/n.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import planner
from planner.engine.draws import Input, draw, values
from planner.errors import UserError
from planner.evaluate.uncertainty import draw_frame, make_draws, summary

D, T = 100.0, 12  # GPU-hours a month, months
C = 1_500.0  # the machine's purchase price: its only cost (no power; a one-year life ends at T)


def _plan(uncertainty=None, **changes) -> dict:
    data = {
        "version": 1, "title": "u", "horizon_months": T,
        "demand": {"gpu_hours_per_month": D},
        "site": {"electricity_per_kwh": 0.2},
        "options": [
            {"name": "box", "own": {"purchase_price": C, "power_watts": 0, "lifetime_years": 1}},
            {"name": "rent", "cloud": {"price_per_hour": 1.0, "gpus": 1}},
        ],
    }
    if uncertainty is not None:
        data["uncertainty"] = uncertainty
    data.update(changes)
    return data


def _uniform_price(low, high, samples=10_000, seed=0):
    return {"samples": samples, "seed": seed, "inputs": {
        "options.rent.cloud.price_per_hour": {"distribution": "uniform", "low": low,
                                              "high": high}}}


def test_without_an_uncertainty_map_the_field_is_null():
    result = planner.load(_plan()).evaluate()
    assert result.to_dict()["uncertainty"] is None
    assert result.uncertainty is None


def test_a_rented_price_drawn_uniformly_gives_the_closed_forms():
    a, b = 0.5, 2.5
    block = planner.load(_plan(_uniform_price(a, b))).evaluate().to_dict()["uncertainty"]
    n = 10_000
    # Renting costs D × T × p = 1,200 p; it beats the machine's 1,500 when p < 1.25, in
    # (1.25 − 0.5) / 2 = 37.5 % of the draws.
    assert block["cheapest_share"]["rent"] == pytest.approx(0.375, abs=1 / n)
    assert block["cheapest_share"]["box"] == pytest.approx(0.625, abs=1 / n)
    rent = block["options"][1]
    assert rent["feasible_share"] == 1.0
    per_price = D * T
    for key, q in (("p5", 0.05), ("p50", 0.5), ("p95", 0.95)):
        assert rent["present_value"][key] == pytest.approx(per_price * (a + q * (b - a)),
                                                           abs=per_price * (b - a) / n * 2)
    assert rent["present_value"]["mean"] == pytest.approx(per_price * 1.5, rel=1e-3)
    box = block["options"][0]
    assert box["present_value"] == {"mean": C, "p5": C, "p50": C, "p95": C}
    # Buying pays off against renting in the draws where renting costs more by the horizon:
    # the machine's step at t = 0 is caught up at month C / (D p) when p > C / (D T).
    pair, = block["break_even"]
    assert pair["pays_off_share"] == pytest.approx(0.625, abs=1 / n)
    # Months = 15 / p over p ~ U(1.25, 2.5): its p50 is at p = 1.875, 8 months.
    assert pair["months"]["p50"] == pytest.approx(C / (D * 1.875), rel=1e-3)


def test_a_degenerate_distribution_gives_the_plans_own_figures():
    # Renting at 2.0 costs 2,400 over the year: buying pays off at month 1,500 / 200 = 7.5.
    uncertainty = _uniform_price(2.0, 2.0, samples=100)
    uncertainty["inputs"]["site.electricity_per_kwh"] = {"distribution": "normal",
                                                         "mean": 0.2, "sd": 0}
    data = _plan(uncertainty)
    data["options"][1]["cloud"]["price_per_hour"] = 2.0
    result = planner.load(data).evaluate().to_dict()
    assert result["break_even"][0]["months"] == pytest.approx(7.5)
    block = result["uncertainty"]
    for row, stats_row in zip(result["options"], block["options"]):
        for figure in ("present_value", "total_cost"):
            assert stats_row[figure] == {k: row[figure] for k in ("mean", "p5", "p50", "p95")}
    assert block["cheapest_share"][result["cheapest"]] == 1.0
    pair, = block["break_even"]
    months = result["break_even"][0]["months"]
    assert pair["pays_off_share"] == 1.0
    assert pair["months"] == {"p5": months, "p50": months, "p95": months}
    for row in result["options"]:
        own_curve = np.cumsum(row["monthly_cost"]).tolist()
        band = block["cumulative_cost"][row["name"]]
        assert band["p5"] == band["p50"] == band["p95"] == pytest.approx(own_curve, rel=1e-12)



def test_degenerate_draws_of_every_kind_give_the_plans_own_figures_exactly():
    """All five distributions with no spread, a discount rate that makes the present values
    long fractions (the mean of 100 equal draws summed plainly misses such a value by a unit
    in the last place), and a horizon drawn at its own value (which the cumulative bands once
    failed on: it must stay one number there)."""
    data = {
        "version": 1, "horizon_months": 12, "discount_rate": 0.1,
        "demand": {"gpu_hours_per_month": 300}, "site": {"electricity_per_kwh": 0.2},
        "options": [
            {"name": "box", "own": {"gpu_count": 1, "purchase_price": 2000, "power_watts": 500,
                                    "resale_fraction": 0.2, "lifetime_years": 2}},
            {"name": "rent", "cloud": {"price_per_hour": 1.0}}],
        "uncertainty": {"samples": 100, "seed": 3, "inputs": {
            "demand.gpu_hours_per_month": {"distribution": "uniform", "low": 300, "high": 300},
            "site.electricity_per_kwh": {"distribution": "triangular", "low": 0.2,
                                         "mode": 0.2, "high": 0.2},
            "options.box.own.resale_fraction": {"distribution": "pert", "low": 0.2,
                                                "mode": 0.2, "high": 0.2},
            "options.rent.cloud.price_per_hour": {"distribution": "normal", "mean": 1.0,
                                                  "sd": 0},
            "options.box.own.purchase_price": {"distribution": "lognormal", "median": 2000,
                                               "sigma": 0},
            "horizon_months": {"distribution": "uniform", "low": 12, "high": 12}}}}
    result = planner.load(data).evaluate().to_dict()
    block = result["uncertainty"]
    for row, drawn in zip(result["options"], block["options"], strict=True):
        for figure in ("present_value", "total_cost"):
            assert drawn[figure] == dict.fromkeys(("mean", "p5", "p50", "p95"), row[figure])
        curve = np.cumsum(row["monthly_cost"]).tolist()
        band = block["cumulative_cost"][row["name"]]
        assert band["p50"] == pytest.approx(curve, rel=1e-12) and len(band["p50"]) == 13


def test_a_drawn_horizon_gives_each_draw_its_months_and_the_bands_the_plans():
    # Renting 100 h at 1.0 costs 100 a month: the draws' totals are 100 × T for T in 6..30.
    uncertainty = {"samples": 200, "inputs": {
        "horizon_months": {"distribution": "uniform", "low": 6, "high": 30}}}
    result = planner.load(_plan(uncertainty)).evaluate().to_dict()
    rent = next(o for o in result["uncertainty"]["options"] if o["name"] == "rent")
    assert 600 <= rent["total_cost"]["p5"] < rent["total_cost"]["p95"] <= 3000
    assert rent["total_cost"]["p50"] == pytest.approx(1800, abs=100)  # T ≈ 18
    band = result["uncertainty"]["cumulative_cost"]["rent"]
    assert band["p50"] == pytest.approx([100.0 * m for m in range(T + 1)])


def test_the_bands_follow_a_drawn_demand_form_that_replaces_the_files_other_one():
    """The file gives utilization; the draws give gpu_hours_per_month, which replaces it as in
    Plan.replace. Renting at 1.0 costs the month's hours, so the bands' month-12 percentiles
    are 12 × the drawn hours' percentiles: spread, not the file's one figure (they were)."""
    data = _plan({"samples": 400, "inputs": {"demand.gpu_hours_per_month": {
        "distribution": "uniform", "low": 50, "high": 150}}})
    data["demand"] = {"utilization": 0.5, "gpus": 1}
    block = planner.load(data).evaluate().to_dict()["uncertainty"]
    band = block["cumulative_cost"]["rent"]
    assert band["p5"][T] == pytest.approx(12 * 55, rel=0.02)
    assert band["p50"][T] == pytest.approx(12 * 100, rel=0.02)
    assert band["p95"][T] == pytest.approx(12 * 145, rel=0.02)
    rent = next(o for o in block["options"] if o["name"] == "rent")
    assert rent["total_cost"]["p50"] == pytest.approx(band["p50"][T], rel=0.02)

def test_the_same_seed_reproduces_and_chunking_does_not_matter():
    data = _plan(_uniform_price(0.5, 2.5, samples=2_000, seed=7))
    first = json.dumps(planner.load(data).evaluate().to_dict()["uncertainty"])
    again = json.dumps(planner.load(data).evaluate().to_dict()["uncertainty"])
    assert first == again
    other = json.dumps(planner.load(_plan(_uniform_price(0.5, 2.5, 2_000, seed=8)))
                       .evaluate().to_dict()["uncertainty"])
    assert other != first
    plan = planner.load(data)
    draws = make_draws(plan.usage)
    pairs = [("box", "rent")]
    whole = summary(draw_frame(plan, draws), draws, ["box", "rent"], pairs, pairs[0])
    pieces = summary(draw_frame(plan, draws, chunk_size=128), draws, ["box", "rent"], pairs,
                     pairs[0])
    evaluated = json.loads(first)
    del evaluated["cumulative_cost"]  # drawn through the engine apart from the sweep
    assert json.dumps(whole) == json.dumps(pieces) == json.dumps(evaluated)


def test_the_drawn_ranks_correlate_as_asked():
    items = [Input("uniform", {"low": 0, "high": 1}), Input("normal", {"mean": 5, "sd": 2}),
             Input("lognormal", {"median": 3, "sigma": 0.5})]
    matrix = np.eye(3)
    r = 2 * np.sin(np.pi * 0.6 / 6)  # the copula correlation of a rank correlation of 0.6
    matrix[0, 1] = matrix[1, 0] = r
    drawn = draw(items, 20_000, seed=3, correlation=matrix)
    rho = stats.spearmanr(drawn).statistic
    assert rho[0, 1] == pytest.approx(0.6, abs=0.02)
    assert abs(rho[0, 2]) < 0.03 and abs(rho[1, 2]) < 0.03
    # Each input keeps its distribution: the uniform's deciles, the normal's mean.
    assert np.quantile(drawn[:, 0], [0.1, 0.9]) == pytest.approx([0.1, 0.9], abs=0.01)
    assert drawn[:, 1].mean() == pytest.approx(5, abs=0.05)


def test_correlations_in_a_file_reach_the_draws():
    uncertainty = {"samples": 5_000, "inputs": {
        "demand.gpu_hours_per_month": {"distribution": "uniform", "low": 50, "high": 150},
        "site.electricity_per_kwh": {"distribution": "uniform", "low": 0.1, "high": 0.3}},
        "correlations": [{"inputs": ["demand.gpu_hours_per_month",
                                     "site.electricity_per_kwh"], "rank": -0.8}]}
    draws = make_draws(planner.load(_plan(uncertainty)).usage)
    assert stats.spearmanr(draws.values).statistic == pytest.approx(-0.8, abs=0.02)


def test_draws_stay_in_the_keys_valid_range():
    fraction = Input("normal", {"mean": 0.9, "sd": 0.5}, low=0.0, high=1.0)
    drawn = values(fraction, np.linspace(0.0005, 0.9995, 1000))
    assert drawn.min() >= 0 and drawn.max() <= 1
    # Truncated at 1, the normal's upper tail is folded into the interval, not piled on 1.
    assert (drawn == 1.0).sum() <= 1
    count = Input("uniform", {"low": 0.6, "high": 4.4}, low=1.0, high=np.inf, integer=True)
    whole = values(count, np.linspace(0.001, 0.999, 999))
    assert set(whole) <= {1.0, 2.0, 3.0, 4.0} and whole.min() == 1.0
    positive = Input("normal", {"mean": 0.0, "sd": 1.0}, low=0.0, low_open=True)
    assert values(positive, np.array([1e-12, 0.5])).min() > 0




def test_a_range_far_in_a_tail_is_drawn_where_its_mass_is():
    """Truncated far out, the draws sit where the truncated distribution's mass is: N(μ, 1)
    with μ = −100 on [0, ∞) has mean ≈ σ²/|μ| = 0.01 (the exponential limit, mean 1/|μ|);
    N(50, 1) on [0, 1] lies against 1, N(−50, 1) against 0 (mean ≈ 1/50); a lognormal of median
    1,000 on [0, 1] against 1. (Through F⁻¹(F(lo) + u (F(hi) − F(lo))) all four came out at
    the wrong end, or infinite.)"""
    u = (np.arange(1000) + 0.5) / 1000
    price = values(Input("normal", {"mean": -100, "sd": 1}, low=0.0), u)
    assert np.isfinite(price).all() and price.mean() == pytest.approx(0.01, rel=0.02)
    up = values(Input("normal", {"mean": 50, "sd": 1}, low=0.0, high=1.0), u)
    assert up.min() > 0.5 and 0.97 < np.median(up) < 1.0
    down = values(Input("normal", {"mean": -50, "sd": 1}, low=0.0, high=1.0), u)
    assert down.mean() == pytest.approx(1 / 50, rel=0.02)
    big = values(Input("lognormal", {"median": 1000, "sigma": 0.1}, low=0.0, high=1.0), u)
    assert big.min() > 0.9 and big.max() <= 1.0

def _drawn(data: dict, name: str) -> np.ndarray:
    draws = make_draws(planner.load(data).usage)
    return draws.values[:, draws.names.index(name)]


def test_draws_keep_the_rules_between_keys():
    """SPEC §7: "truncated to its key's valid range ... so no draw is invalid": a range that
    other keys set too (SPEC §6's purchase month 0..T − 1, and 0 without an overflow; at
    least one machine without an overflow; a free tier's setup shorter than its session, and
    its session longer than its setup)."""
    later = _plan({"samples": 400, "inputs": {"options.box.own.purchase_month": {
        "distribution": "normal", "mean": 8, "sd": 3}}})
    later["options"][0]["overflow"] = "rent"
    months = _drawn(later, "options.box.own.purchase_month")
    assert months.min() >= 0 and months.max() == T - 1  # N(8, 3) reaches past 11 often
    assert set(np.unique(months)) <= set(range(T))
    planner.load(later).evaluate()  # every draw is a valid plan
    alone = _plan({"samples": 100, "inputs": {"options.box.own.purchase_month": {
        "distribution": "uniform", "low": 0, "high": 6}}})
    assert set(_drawn(alone, "options.box.own.purchase_month")) == {0.0}
    few = _plan({"samples": 200, "inputs": {"options.box.own.machines": {
        "distribution": "normal", "mean": 1, "sd": 1}}})
    machines = _drawn(few, "options.box.own.machines")
    assert machines.min() == 1 and machines.max() >= 2
    planner.load(few).evaluate()
    tier = _plan({"samples": 200, "inputs": {"options.tier.free_tier.setup_minutes": {
        "distribution": "uniform", "low": 0, "high": 200}}})
    tier["options"].append({"name": "tier", "fallback": "rent", "free_tier": {
        "gpus": 1, "session_hours": 2, "setup_minutes": 30, "weekly_quota_hours": 10}})
    setup = _drawn(tier, "options.tier.free_tier.setup_minutes")
    assert setup.max() < 120 and setup.max() > 110 and setup.min() >= 0
    planner.load(tier).evaluate()
    # The same rule from the session's side: 30 minutes of setup, sessions drawn from 0.1 to
    # 2 hours are kept above half an hour (a 0.32-hour session was drawn, and the plan refused).
    session = _plan({"samples": 200, "inputs": {"options.tier.free_tier.session_hours": {
        "distribution": "uniform", "low": 0.1, "high": 2}}})
    session["options"].append({"name": "tier", "fallback": "rent", "free_tier": {
        "gpus": 1, "session_hours": 1, "setup_minutes": 30, "weekly_quota_hours": 10}})
    hours = _drawn(session, "options.tier.free_tier.session_hours")
    assert hours.min() > 0.5 and hours.min() < 0.55 and hours.max() <= 2
    planner.load(session).evaluate()
    session["uncertainty"]["inputs"]["options.tier.free_tier.session_hours"]["high"] = 0.3
    with pytest.raises(UserError, match="no value from 0.1 to 0.3 is valid here: the key must "
                                        "be greater than 0.5"):
        planner.load(session).evaluate()

@settings(max_examples=25, deadline=None)
@given(st.floats(0.05, 1.0), st.floats(0.0, 1.0))
def test_the_mean_of_a_linear_cost_is_the_cost_at_the_mean(low, width):
    high = low + width
    block = planner.load(_plan(_uniform_price(low, high, samples=400))).evaluate() \
        .to_dict()["uncertainty"]
    rent = block["options"][1]["present_value"]
    assert rent["mean"] == pytest.approx(D * T * (low + high) / 2, rel=1e-3)
    assert rent["p5"] <= rent["p50"] <= rent["p95"]


def test_result_frames():
    frames = planner.load(_plan(_uniform_price(0.5, 2.5, samples=500))).evaluate().uncertainty
    assert frames.samples == 500 and frames.seed == 0
    assert list(frames.options["name"]) == ["box", "rent"]
    assert frames.options["cheapest_share"].sum() == pytest.approx(1.0)
    assert list(frames.break_even.columns) == ["own", "versus", "pays_off_share", "months_p5",
                                               "months_p50", "months_p95"]


def test_a_plans_own_usage_loads_again():
    # plan.usage holds every key, those not given as null: the parameters of other
    # distributions are null, not given.
    plan = planner.load(_plan(_uniform_price(0.5, 2.5, samples=500)))
    again = planner.load(plan.usage).evaluate().to_dict()["uncertainty"]
    assert again == plan.evaluate().to_dict()["uncertainty"]


def test_replace_sets_the_uncertainty_map():
    plan = planner.load(_plan(_uniform_price(0.5, 2.5, samples=500)))
    smaller = plan.replace({"uncertainty.samples": 200}).evaluate().to_dict()["uncertainty"]
    assert smaller["samples"] == 200


def _problems(uncertainty):
    with pytest.raises(UserError) as caught:
        planner.load(_plan(uncertainty))
    return [(p.path, p.message, p.suggestion) for p in caught.value.problems]


@pytest.mark.parametrize(("spec", "path", "words", "suggestion"), [
    ({"distribution": "unifrm", "low": 1, "high": 2}, ".distribution", "expected one of",
     "uniform"),
    ({"distribution": "uniform", "low": 3, "high": 2}, ".low", "low (3) is above high (2)",
     None),
    ({"distribution": "pert", "low": 1, "mode": 5, "high": 2}, ".mode", "outside low..high",
     None),
    ({"distribution": "normal", "mean": 1, "sd": -1}, ".sd", "at least 0", None),
    ({"distribution": "normal", "mean": 1}, "", "needs sd", None),
    ({"distribution": "normal", "mean": 1, "sd": 1, "low": 0}, ".low", "takes mean and sd",
     None),
    ({"distribution": "lognormal", "median": 0, "sigma": 1}, ".median", "greater than 0",
     None),
    ({"distribution": "uniform", "low": -3, "high": -1}, "", "must be at least 0", None),
    ({"distribution": "uniform", "lo": 1, "high": 2}, ".lo", "unknown key", "low"),
])
def test_bad_distributions_are_located(spec, path, words, suggestion):
    found = _problems({"inputs": {"options.rent.cloud.price_per_hour": spec}})
    here = "uncertainty.inputs.options.rent.cloud.price_per_hour" + path
    assert any(p == here and words in m and s == suggestion for p, m, s in found), found


def test_bad_paths_and_correlations_are_located():
    uniform = {"distribution": "uniform", "low": 1, "high": 2}
    found = _problems({"inputs": {"options.rnt.cloud.price_per_hour": uniform,
                                  "options.rent.cloud": uniform,
                                  "demand.gpu_hours_per_month": uniform,
                                  "demand.gpu_hours_per_week": uniform},
                       "correlations": [{"inputs": ["demand.gpu_hours_per_month",
                                                    "site.electricity"], "rank": 0.5}]})
    paths = {p: (m, s) for p, m, s in found}
    assert paths["uncertainty.inputs.options.rnt.cloud.price_per_hour"][1] == "rent"
    assert "holds no number" in paths["uncertainty.inputs.options.rent.cloud"][0]
    assert "two forms of one input" in paths["uncertainty.inputs.demand.gpu_hours_per_week"][0]
    message, suggestion = paths["uncertainty.correlations[0].inputs[1]"]
    assert "not one of uncertainty.inputs" in message and suggestion is None
    three = {k: uniform for k in ("demand.gpu_hours_per_month", "site.electricity_per_kwh",
                                   "options.rent.cloud.price_per_hour")}
    names = list(three)
    contradictory = [{"inputs": [names[0], names[1]], "rank": 0.9},
                     {"inputs": [names[1], names[2]], "rank": 0.9},
                     {"inputs": [names[0], names[2]], "rank": -0.9}]
    (path, message, _), = _problems({"inputs": three, "correlations": contradictory})
    assert path == "uncertainty.correlations" and "contradict" in message


def test_samples_and_seed_are_checked():
    uniform = {"distribution": "uniform", "low": 1, "high": 2}
    found = _problems({"samples": 10, "seed": -1, "inputs": {"site.electricity_per_kwh":
                                                             uniform}})
    assert ("uncertainty.samples", "must be at least 100, got 10", None) in found
    assert ("uncertainty.seed", "must be at least 0, got -1", None) in found


def test_located_in_the_file(tmp_path):
    path = tmp_path / "u.yaml"
    path.write_text(
        "version: 1\ndemand: {gpu_hours_per_month: 100}\nsite: {electricity_per_kwh: 0.2}\n"
        "options:\n  - name: rent\n    cloud: {price_per_hour: 1, gpus: 1}\n"
        "uncertainty:\n  inputs:\n    site.electricity_per_kwh:\n"
        "      distribution: triangular\n      low: 0.1\n      mode: 0.5\n      high: 0.3\n")
    with pytest.raises(UserError) as caught:
        planner.load(path)
    problem, = caught.value.problems
    assert (problem.line, problem.column) == (12, 13)
    assert problem.path == "uncertainty.inputs.site.electricity_per_kwh.mode"


def test_page_one_says_how_sure_the_answer_is():
    from planner.render import content, render
    from planner.render.i18n import language

    data = _plan(_uniform_price(0.5, 2.5, samples=1_000))
    result = planner.load(data).evaluate()
    # Buying is the cheapest where p > 1.25: 62.5 % of the draws; it pays off at 15 / p months,
    # and the middle 90 % of p over (1.25, 2.5) gives 15 / 2.4375 = 6.2 to 15 / 1.3125 = 11.4.
    sentence = content.uncertainty_sentence(result)
    assert sentence == ("Buying wins in 62.5% of 1,000 draws of the uncertain inputs; box pays "
                        "off against rent in 62.5% of them, within 6–12 months in 90% of "
                        "those.")
    assert sentence in content.recommendation(result)
    html = render(result, "html").decode("utf-8")
    assert "Buying wins in 62.5% of 1,000 draws" in html
    with language("zh"):
        assert "1,000 次抽样" in content.uncertainty_sentence(result)
    assert content.uncertainty_sentence(planner.load(_plan()).evaluate()) == ""


def test_first_order_indices_of_a_linear_figure():
    from planner.engine.drivers import first_order_indices

    # Y = 3 X1 + X2 + 0 X3 with independent uniforms: Var = (9 + 1) / 12, so X1 explains
    # 9/10 of it, X2 1/10 and X3 none.
    x = np.random.default_rng(1).random((20_000, 3))
    indices = first_order_indices(x, 3 * x[:, 0] + x[:, 1])
    assert indices == pytest.approx([0.9, 0.1, 0.0], abs=0.01)
    assert first_order_indices(x, np.full(20_000, 5.0)).tolist() == [0.0, 0.0, 0.0]


def test_the_drivers_rank_the_inputs_of_the_headline_pair():
    uncertainty = _uniform_price(0.5, 2.5, samples=2_000)
    uncertainty["inputs"]["options.box.own.purchase_price"] = {
        "distribution": "uniform", "low": 1_400, "high": 1_600}
    block = planner.load(_plan(uncertainty)).evaluate().to_dict()["uncertainty"]
    drivers = block["drivers"]
    assert (drivers["own"], drivers["versus"]) == ("box", "rent")
    # box − rent = C − 1,200 p: Var from p is 1,200² × 2² / 12 = 480,000, from C 200² / 12
    # = 3,333: the rented price explains 99.3 %, the purchase price 0.7 %.
    (first, s1), (second, s2) = [(d["input"], d["first_order"]) for d in drivers["inputs"]]
    assert first == "options.rent.cloud.price_per_hour" and s1 == pytest.approx(0.993, abs=0.01)
    assert second == "options.box.own.purchase_price" and s2 == pytest.approx(0.007, abs=0.01)


def test_markdown_workbook_and_zip_carry_the_figures():
    import io
    import zipfile

    import openpyxl

    from planner.render import render

    result = planner.load(_plan(_uniform_price(0.5, 2.5, samples=1_000))).evaluate()
    markdown = render(result, "md").decode("utf-8")
    assert "## Uncertainty" in markdown and "| box    |       62.5% |" in markdown
    sheets = openpyxl.load_workbook(io.BytesIO(render(result, "xlsx")))
    assert sheets.sheetnames[-3:] == ["Uncertainty", "Uncertain break-even",
                                      "Uncertainty drivers"]
    rent = [c.value for c in sheets["Uncertainty"][3]]
    assert rent[:3] == ["rent", pytest.approx(0.375, abs=1e-3), 1]
    names = zipfile.ZipFile(io.BytesIO(render(result, "zip"))).namelist()
    assert "uncertainty_break_even.csv" in names
    plain = planner.load(_plan()).evaluate()
    assert "Uncertainty" not in openpyxl.load_workbook(io.BytesIO(render(plain, "xlsx"))) \
        .sheetnames


def test_the_report_has_a_section_and_a_drivers_chart_only_with_draws():
    import re

    from planner.render import render

    uncertainty = _uniform_price(0.5, 2.5, samples=1_000)
    uncertainty["inputs"]["options.box.own.purchase_price"] = {
        "distribution": "uniform", "low": 1_400, "high": 1_600}
    result = planner.load(_plan(uncertainty)).evaluate()
    html = render(result, "html").decode("utf-8")
    section = re.search(r'<section class="uncertainty">.*?</section>', html, re.DOTALL).group(0)
    assert "How sure is the answer" in section and "10,000" not in section
    share = result.to_dict()["uncertainty"]["cheapest_share"]["rent"]
    assert "1,000 draws" in section and f"{share * 100:.1f}%" in section
    assert '<svg class="chart chart-drivers"' in section
    # The bands are on the first page, in place of the ranking (which the options table
    # repeats), and not again in the section.
    glance = re.search(r'<section class="glance">.*?</section>', html, re.DOTALL).group(0)
    assert '<svg class="chart chart-glance-bands"' in glance and "chart-ranking" not in html
    assert "chart-bands" not in section
    assert "options.rent.cloud.price_per_hour" in section
    plain = render(planner.load(_plan()).evaluate(), "html").decode("utf-8")
    assert "How sure is the answer" not in plain and "chart-drivers" not in plain
    assert "chart-glance-bands" not in plain and "chart-ranking" in plain


def test_a_sweep_of_an_uncertain_plan_gives_the_shares_per_scenario():
    # The machine's price swept; the rented price drawn in each scenario from U(0.5, 2.5):
    # renting beats a machine of price C when p < C / 1,200, in (C / 1,200 − 0.5) / 2 of draws.
    plan = planner.load(_plan(_uniform_price(0.5, 2.5, samples=2_000)))
    frame = plan.sweep({"options.box.own.purchase_price": [900, 1_500, 2_400]})
    rent = frame[frame.option == "rent"]
    assert rent["uncertainty.cheapest_share"].tolist() == pytest.approx(
        [(900 / 1200 - 0.5) / 2, (1500 / 1200 - 0.5) / 2, (2400 / 1200 - 0.5) / 2], abs=1e-3)
    box = frame[frame.option == "box"]
    assert (box["uncertainty.cheapest_share"] + rent["uncertainty.cheapest_share"].to_numpy()
            ).tolist() == pytest.approx([1, 1, 1])
    assert box["uncertainty.pays_off_share.rent"].tolist() == pytest.approx(
        [1 - (900 / 1200 - 0.5) / 2, 1 - (1500 / 1200 - 0.5) / 2, 1 - (2400 / 1200 - 0.5) / 2],
        abs=1e-3)
    assert rent["uncertainty.pays_off_share.rent"].isna().all()
    # The undrawn figures are those of the plain sweep; a swept key is not drawn.
    plain = planner.load(_plan()).sweep({"options.box.own.purchase_price": [900, 1_500, 2_400]})
    assert frame["present_value"].tolist() == plain["present_value"].tolist()
    swept = plan.sweep({"options.rent.cloud.price_per_hour": [1.0, 2.0]})
    assert swept[swept.option == "rent"]["uncertainty.cheapest_share"].tolist() == [1.0, 0.0]


def test_a_plan_without_draws_never_imports_scipy(tmp_path):
    import subprocess
    import sys

    code = ("import json, sys, planner\n"
            "plan = planner.load(json.loads(sys.argv[1]))\n"
            "planner.report(plan.evaluate(), sys.argv[2])\n"
            "print('scipy.stats' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code, json.dumps(_plan()),
                           str(tmp_path / "out.json")], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip().splitlines()[-1] == "False"
