"""The planner in Jupyter: the HTML views of Plan, Result, PlanDiff and a sweep's summary, the
chart API ``result.plot``, and the frames' dtypes and ``attrs``.

The plan here is small enough to check by hand: over 12 months without discounting, a box
bought for 1,200 (no power, no resale, kept the whole horizon) against renting at 1.00 an hour.
At 50 GPU-hours a month renting costs 50 × 12 × 1.00 = 600 (cheaper); at 200 it costs
200 × 12 × 1.00 = 2,400 (the box is cheaper at 1,200). The box serves at most
730 h × 1 GPU = 730 GPU-hours a month: at 1,000 it cannot serve month 1.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from matplotlib.figure import Figure

import planner
from planner.render import charts, content
from planner.render.i18n import t

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "usage.yaml"


def small_plan(title: str = "Box or rent", box: str = "box", level: float = 50.0) -> dict:
    return {
        "version": 1, "title": title, "currency": "EUR", "horizon_months": 12,
        "demand": {"gpu_hours_per_month": level},
        "site": {"electricity_per_kwh": 0.0},
        "options": [
            {"name": box, "own": {"purchase_price": 1200, "lifetime_years": 1,
                                  "power_watts": 0}},
            {"name": "rent", "cloud": {"price_per_hour": 1.0}},
        ],
    }


@pytest.fixture(scope="module")
def example():
    plan = planner.load(EXAMPLE)
    return plan, plan.evaluate()


# -- reprs ----------------------------------------------------------------------------------

def test_a_plan_shows_its_title_demand_and_options(example):
    plan, _ = example
    text = repr(plan)
    assert text.startswith("<Plan 'Vision lab") and "4 options" in text and len(text) < 200
    html = plan._repr_html_()
    assert "Vision lab: workstation, cloud A100s or Kaggle" in html
    assert "1,200 GPU-hours/month" in html  # the demand, as the report writes it
    for name in ("workstation", "a100-on-demand", "a100-spot", "kaggle"):
        assert f"<td>{name}</td>" in html
    assert "gcp/a2-highgpu-1g, spot" in html and "4 × rtx-a6000" in html


def test_a_result_shows_the_answer_the_options_and_the_ranking_chart(example):
    _, result = example
    html = result._repr_html_()
    lead, rest = content.recommendation_parts(result)
    assert f"<strong>{lead}</strong>" in html
    assert rest.replace("'", "&#39;") in html
    for name in result.option_names:
        assert f"<td>{name}" in html
    assert html.count("<svg") == 1 and "Cost of every option over the horizon" in html
    text = repr(result)
    assert text == ("<Result 'Vision lab: workstation, cloud A100s or Kaggle': 4 options, "
                    "cheapest 'workstation', 36 months, USD>")


def test_a_result_without_a_feasible_option_says_why():
    # 5,000 GPU-hours a month is more than the box's 730, and it has no overflow.
    box_only = small_plan(level=5000)
    box_only["options"] = box_only["options"][:1]
    result = planner.load(box_only).evaluate()
    assert repr(result) == "<Result 'Box or rent': 1 option, none feasible, 12 months, EUR>"
    html = result._repr_html_()
    assert "The only option cannot serve the demand" in html
    assert "no overflow option is set" in html and "<svg" not in html


def test_two_results_shown_in_one_notebook_share_no_svg_id(example):
    _, result = example
    ids = [set(re.findall(r'\bid="([^"]+)"', result._repr_html_())) for _ in range(2)]
    assert ids[0] and ids[1] and not ids[0] & ids[1]


def test_user_text_is_escaped_in_every_view():
    title, box = "<script>alert('t')</script> & co", "<b>box</b>"
    plan = planner.load(small_plan(title=title, box=box, level=200))
    result = plan.evaluate()
    frame = plan.sweep({"demand.gpu_hours_per_month": [50, 200]})
    change = planner.diff(plan, plan.replace({"demand.gpu_hours_per_month": 50}))
    views = [plan._repr_html_(), result._repr_html_(), change._repr_html_(),
             planner.sweep_summary(frame)._repr_html_()]
    for html in views:
        assert "<script>" not in html and "<b>box" not in html
        assert "&lt;b&gt;box&lt;/b&gt;" in html
    for html in views[:2]:
        assert "&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt; &amp; co" in html


def test_a_diff_shows_the_decision_and_the_inputs_that_changed():
    before = planner.load(small_plan(level=50))
    change = planner.diff(before, before.replace({"demand.gpu_hours_per_month": 200}))
    html = change._repr_html_()
    assert "The cheapest option changes from rent to box." in html
    assert "<td>demand.gpu_hours_per_month</td><td>50</td><td>200</td>" in html
    assert repr(change) == ("<PlanDiff 'plan' → 'plan': cheapest 'rent' → 'box', "
                            "1 input changed>")


def test_a_sweep_summary_counts_the_cheapest_and_the_range_of_costs():
    plan = planner.load(small_plan())
    frame = plan.sweep({"demand.gpu_hours_per_month": [50, 200]})
    summary = planner.sweep_summary(frame)
    assert (summary.scenarios, summary.rows, summary.currency) == (2, 4, "EUR")
    assert summary.axes.to_dict("records") == [
        {"axis": "demand.gpu_hours_per_month", "values": 2, "low": 50.0, "high": 200.0}]
    options = summary.options.set_index("option")
    # rent is the cheapest at 50 (600 < 1,200), the box at 200 (1,200 < 2,400).
    assert options["cheapest_scenarios"].to_dict() == {"box": 1, "rent": 1}
    assert options["cheapest_share"].to_dict() == {"box": 0.5, "rent": 0.5}
    assert options.loc["box", ["present_value_min", "present_value_max"]].tolist() == [
        pytest.approx(1200), pytest.approx(1200)]
    assert options.loc["rent", ["present_value_min", "present_value_max"]].tolist() == [
        pytest.approx(600), pytest.approx(2400)]
    html = summary._repr_html_()
    assert "2 scenarios × 2 options = 4 rows" in html and "€600" in html and "€2,400" in html
    assert "rent: cheapest in 1 (50%), present value €600 to €2,400" in repr(summary)


def test_a_sweep_summary_lists_the_values_of_an_axis_that_is_not_a_number(example):
    plan, _ = example
    frame = plan.sweep({"options.a100-spot.pricing": ["spot", "on_demand"],
                        "demand.gpu_hours_per_month": [400, 800]})
    summary = planner.sweep_summary(frame)
    axes = summary.axes.set_index("axis")
    assert axes.loc["options.a100-spot.pricing", "low"] == "spot, on_demand"
    assert pd.isna(axes.loc["options.a100-spot.pricing", "high"])
    assert summary.scenarios == 4 and summary.options["cheapest_scenarios"].sum() == 4
    assert "axis options.a100-spot.pricing: 2 values, spot, on_demand" in repr(summary)


# -- the chart API ----------------------------------------------------------------------------

def test_the_plots_are_the_reports_charts(example):
    _, result = example
    drawn = {
        "cumulative": (result.plot.cumulative(), charts.cumulative_cost, "cumulative"),
        "cost_vs_usage": (result.plot.cost_vs_usage(), charts.cost_vs_usage, "usage"),
        "breakdown": (result.plot.breakdown(), charts.monthly_breakdown, "breakdown"),
        "tornado": (result.plot.tornado(), charts.sensitivity, "sensitivity"),
        "ranking": (result.plot.ranking(), charts.ranking, "ranking"),
    }
    for name, (fig, report_chart, salt) in drawn.items():
        assert isinstance(fig, Figure), name
        # The same figure the report inlines, byte for byte, once written out.
        assert charts.svg.svg_of(fig, salt) == report_chart(result), name


def test_the_plots_have_the_reports_axes_and_labels(example):
    _, result = example
    feasible = [r["name"] for r in result.data["options"] if r["feasible"]]
    cumulative = result.plot.cumulative()
    assert cumulative.get_label() == t("label.cumulative")
    (ax,) = cumulative.axes
    assert ax.get_xlabel() == t("chart.months_from_today")
    assert ax.get_ylabel() == t("chart.cumulative")
    assert ax.get_xlim() == (0.0, 36.0)
    labels = [line.get_label() for line in ax.get_lines() if not line.get_label().startswith("_")]
    assert labels == [name + (t("chart.cheapest") if name == "workstation" else "")
                      for name in feasible]
    usage = result.plot.cost_vs_usage()
    assert usage.axes[0].get_xlabel() == t("chart.demand_axis")
    assert usage.axes[0].get_ylabel() == t("chart.over", basis=t("basis.pv"), months=36)
    tornado = result.plot.tornado()
    assert tornado.get_label() == t("label.sensitivity")
    assert tornado.axes[0].get_xlabel() == t("chart.sens_axis", own="workstation",
                                             versus="kaggle")
    breakdown = result.plot.breakdown()
    assert breakdown.get_label() == t("label.breakdown")
    assert len(breakdown.axes) == len(feasible)  # one panel per feasible option


def test_a_chart_shows_itself_in_a_notebook_as_png(example):
    _, result = example
    png, size = result.plot.cumulative()._repr_png_()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert size == {"width": 690, "height": 295}  # 6.9 × 2.95 inches at 100 pixels an inch


def test_a_chart_with_nothing_to_draw_is_none(example):
    _, result = example
    no_own = planner.load({**small_plan(), "options": small_plan()["options"][1:]}).evaluate()
    assert result.plot.tornado() is not None
    assert no_own.plot.tornado() is None  # no break-even pair: the report has no tornado
    assert no_own.plot.cumulative() is not None
    assert "tornado" in repr(result.plot)


# -- dtypes and attrs -------------------------------------------------------------------------

def test_every_frame_says_its_currency(example):
    _, result = example
    frames = {"options": result.options, "break_even": result.break_even,
              "monthly": result.monthly, "cost_vs_usage": result.cost_vs_usage,
              "sensitivity": result.sensitivity, "breakdown": result.breakdown}
    for name, frame in frames.items():
        assert frame.attrs["currency"] == "USD", name
    lab = planner.load(ROOT / "examples" / "uncertain-lab.yaml").evaluate()
    assert lab.uncertainty.options.attrs["currency"] == lab.data["currency"]
    assert lab.uncertainty.break_even.attrs["currency"] == lab.data["currency"]


def test_the_frames_have_honest_dtypes(example):
    _, result = example
    names = ["workstation", "a100-on-demand", "a100-spot", "kaggle"]
    options = result.options
    assert list(options["name"].cat.categories) == names
    assert options["kind"].dtype == "category" and options["gpu"].dtype == "category"
    for column in ("gpus", "machines", "first_unmet_month"):
        assert options[column].dtype == "Int64", column
    assert options["gpus"].tolist() == [4, 1, 1, 2]
    monthly = result.monthly
    assert monthly["month"].dtype == "Int64"
    assert monthly["option"].dtype == "category" and monthly["component"].dtype == "category"
    assert monthly["month"].min() == 0 and monthly["month"].max() == 36
    for frame, columns in ((result.break_even, ("own", "versus")),
                           (result.cost_vs_usage, ("option",)),
                           (result.breakdown, ("option", "component"))):
        for column in columns:
            assert list(frame[column].cat.categories)[:1] == [names[0]] or column == "component"
            assert frame[column].dtype == "category"
    assert result.break_even["months"].dtype == float  # a time, in fractional months


def test_a_sweep_has_nullable_integers_and_attrs_and_matches_its_evaluations():
    plan = planner.load(small_plan())
    frame = plan.sweep({"demand.gpu_hours_per_month": [50, 1000]})
    assert frame.attrs == {"currency": "EUR", "title": "Box or rent",
                           "axes": ("demand.gpu_hours_per_month",), "mode": "product",
                           "horizon_months": 12}
    for column in ("gpus", "machines", "first_unmet_month"):
        assert frame[column].dtype == "Int64", column
    assert frame["option"].dtype == "category"
    box = frame[frame["option"] == "box"].set_index("demand.gpu_hours_per_month")
    # 1,000 GPU-hours a month is more than the box's 730: it cannot serve month 1.
    assert box.loc[1000.0, "first_unmet_month"] == 1
    assert box.loc[50.0, "first_unmet_month"] is pd.NA
    for level in (50, 1000):
        single = plan.replace({"demand.gpu_hours_per_month": level}).evaluate().options
        expected = single.set_index("name").loc["box", "first_unmet_month"]
        got = box.loc[float(level), "first_unmet_month"]
        assert (got is pd.NA and expected is pd.NA) or got == expected
        assert box.loc[float(level), "machines"] == single.set_index("name").loc[
            "box", "machines"] == 1
