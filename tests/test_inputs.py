"""Issue 10, "Inputs, strictly": choice keys that list their own choices, words that name
something real in the catalog, demand in the units people think in, and YAML messages for the
commonest slips. Every expected message and position is written by hand."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import planner
from planner.errors import UserError


def plan_file(tmp_path: Path, text: str, name: str = "usage.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def load_problems(tmp_path: Path, text: str) -> list[str]:
    path = plan_file(tmp_path, text)
    with pytest.raises(UserError) as caught:
        planner.load(path)
    return [str(p).removeprefix(f"{path}:") for p in caught.value.problems]


# -- 6. a choice key lists its own choices -----------------------------------------------------

CHOICES = """\
    version: 1
    demand:
      gpu_hours_per_month: 100
      precision: bf16
    site:
      electricity_per_kwh: 0.2
      tariff: residential
      kind: home
    options:
      - name: rent
        cloud: aws/p4d.24xlarge
        pricing: spto
    """


def test_each_choice_key_names_its_own_choices(tmp_path):
    assert load_problems(tmp_path, CHOICES) == [
        "4:14: demand.precision: expected one of mixed, fp32, got the text 'bf16'",
        "7:11: site.tariff: expected one of business, household, got the text 'residential'",
        ("8:9: site.kind: unknown site kind 'home': one of home-office, server-closet, "
        "colocation, hyperscale"),
        ("12:14: options[0].pricing: expected one of on_demand, spot, reserved_1y, reserved_3y, "
        "got the text 'spto' (did you mean spot?)"),
    ]


def test_a_choice_close_to_one_suggests_it(tmp_path):
    text = CHOICES.replace("bf16", "fp23").replace("residential", "houshold").replace(
        "kind: home", "kind: colocaton").replace("pricing: spto\n", "")
    assert load_problems(tmp_path, text) == [
        ("4:14: demand.precision: expected one of mixed, fp32, got the text 'fp23' (did you "
        "mean fp32?)"),
        ("7:11: site.tariff: expected one of business, household, got the text 'houshold' (did "
        "you mean household?)"),
        ("8:9: site.kind: unknown site kind 'colocaton': one of home-office, server-closet, "
        "colocation, hyperscale (did you mean colocation?)"),
    ]


def test_a_site_kind_of_ones_own_catalog_is_a_choice(tmp_path):
    (tmp_path / "kinds.csv").write_text(
        "id,name,pue,as_of,source\ngarage,A garage,1.3,2024-01,https://example.org\n")
    path = plan_file(tmp_path, CHOICES.replace("bf16", "fp32").replace("residential",
                     "household").replace("kind: home", "kind: garage").replace(
                     "pricing: spto", "pricing: on_demand").replace(
                     "version: 1\n", "version: 1\n    catalogs: [kinds.csv]\n"))
    assert planner.load(path).resolved.site["pue"] == 1.3


# -- 7. text that names something names something real --------------------------------------

WORDS = """\
    version: 1
    demand:
      gpu_hours_per_month: 100
      workload: WORKLOAD
      framework: FRAMEWORK
    site:
      electricity_per_kwh: 0.2
      region: REGION
    options:
      - name: box
        own: {gpu: rtx-4090}
    """


def words(workload="llm", framework="pytorch", region="de") -> str:
    return (WORDS.replace("WORKLOAD", workload).replace("FRAMEWORK", framework)
            .replace("REGION", region))


def test_unknown_words_are_problems_with_a_did_you_mean_all_at_once(tmp_path):
    text = words("lmm", "pytroch", "germany").replace("version: 1\n",
                                                     "version: 1\n    horizon_month: 12\n")
    assert load_problems(tmp_path, text) == [
        "2:1: horizon_month: unknown key 'horizon_month' (did you mean horizon_months?)",
        ("5:13: demand.workload: unknown workload 'lmm': one of generic, cv, nlp, llm (did you "
        "mean llm?)"),
        "6:14: demand.framework: unknown framework 'pytroch' (did you mean pytorch?)",
        ("9:11: site.region: unknown region 'germany' in the catalog: regions are named by id "
        "(did you mean 'de'?)"),
    ]


def test_a_workload_far_from_all_lists_them(tmp_path):
    assert load_problems(tmp_path, words(workload="speech")) == [
        "4:13: demand.workload: unknown workload 'speech': one of generic, cv, nlp, llm"]
    assert load_problems(tmp_path, words(workload="LLM")) == [
        ("4:13: demand.workload: unknown workload 'LLM': one of generic, cv, nlp, llm (did you "
        "mean llm?)")]


def test_a_workload_of_ones_own_throughput_column_is_known(tmp_path):
    from planner.cards.words import workloads
    from pricing.catalog import load_catalog

    assert workloads(load_catalog()) == ["generic", "cv", "nlp", "llm"]
    for name in ("generic", "cv", "nlp", "llm"):
        planner.load(plan_file(tmp_path, words(workload=name)))


@pytest.mark.parametrize("region, suggestion", [
    ("Germany", "'de'"), ("GERMANY", "'de'"), ("california", "'us-ca'"),
    ("United States", "'us'"), ("Germny", "'de'")])
def test_a_region_by_its_name_suggests_its_id(tmp_path, region, suggestion):
    assert load_problems(tmp_path, words(region=region)) == [
        (f"8:11: site.region: unknown region {region!r} in the catalog: regions are named by id "
        f"(did you mean {suggestion}?)")]


def test_a_region_far_from_all_says_where_they_are_listed(tmp_path):
    # SPEC §1.3: an unknown id lists the closest ids, however far they are.
    assert load_problems(tmp_path, words(region="atlantis")) == [
        ("8:11: site.region: unknown region 'atlantis' in the catalog (planner catalog regions "
        "lists them) (did you mean 'au' or 'ca' or 'cn'?)")]


def test_regions_by_id_are_case_insensitive(tmp_path):
    text = words(region="DE").replace("version: 1\n", "version: 1\n    fx: {EUR: 1.1}\n")
    planner.load(plan_file(tmp_path, text))


@pytest.mark.parametrize("framework", ["pytorch", "PyTorch", "jax", "paddlepaddle", "tinygrad",
                                       "my-own-framework"])
def test_known_frameworks_and_ones_far_from_all_are_accepted(tmp_path, framework):
    planner.load(plan_file(tmp_path, words(framework=framework)))


@pytest.mark.parametrize("framework, suggestion", [
    ("pytroch", "pytorch"), ("tensorflw", "tensorflow"), ("paddle-paddle", "paddlepaddle")])
def test_a_framework_close_to_a_known_one_is_a_problem(tmp_path, framework, suggestion):
    assert load_problems(tmp_path, words(framework=framework)) == [
        (f"5:14: demand.framework: unknown framework {framework!r} (did you mean "
        f"{suggestion}?)")]


def test_an_inline_tiers_framework_close_to_a_known_one_is_a_problem(tmp_path):
    text = words().replace("own: {gpu: rtx-4090}",
                           "free_tier: {gpu: t4, frameworks: [jax, pytroch]}")
    assert load_problems(tmp_path, text) == [
        ("11:44: options[0].free_tier.frameworks[1]: unknown framework 'pytroch' (did you mean "
        "pytorch?)")]


# -- 10. YAML messages for the two commonest slips --------------------------------------------

TAB = "tabs are not allowed for indentation in YAML; use spaces"


def misindented(where: str, line: int, column: int, theirs: int) -> str:
    return (f"{where}: this line is indented differently from the keys above it (line {line}): "
            f"it starts in column {column}, they in column {theirs}; keys of one map line up")


SLIPS = {
    "a tab as the indentation": (
        "version: 1\ndemand:\n\tgpu_hours_per_month: 10\n", f"3:1: {TAB}"),
    "a tab after spaces": (
        "version: 1\ndemand:\n  \tgpus: 1\n", f"3:3: {TAB}"),
    "a tab in a list item": (
        "options:\n  - name: a\n  \t own: {}\n", f"3:3: {TAB}"),
    "a tab on an empty line": (
        "version: 1\ndemand:\n  gpus: 1\n\t\n", f"4:1: {TAB}"),
    "a key indented less than its siblings": (
        "options:\n  - name: a\n    own:\n      gpu: t4\n     gpu_count: 2\n",
        misindented("5:6", 4, 6, 7)),
    "a key indented more than its siblings": (
        "demand:\n  gpus: 1\n    data_gb: 2\n",
        misindented("3:5", 2, 5, 3)),
    "a key of a list item indented less than the item's first": (
        "options:\n  - name: a\n   own: {}\n",
        misindented("3:4", 2, 4, 5)),
    "a key of a list item indented more than the item's first": (
        "options:\n  - name: a\n      own: {}\n",
        misindented("3:7", 2, 7, 5)),
    "a top-level key indented": (
        "version: 1\n# a comment\n\n demand: {gpus: 1}\n",
        misindented("4:2", 1, 2, 1)),
    "a list item indented unlike the one above": (
        "options:\n  - name: a\n    cloud: x\n - name: b\n",
        ("4:2: this list item is indented differently from the item above it (line 2): it "
         "starts in column 2, that one in column 3; items of one list line up")),
}


@pytest.mark.parametrize("case", list(SLIPS))
def test_the_commonest_yaml_slips_say_what_is_wrong_at_their_line(case):
    from planner.usage.yaml12 import load_yaml

    text, expected = SLIPS[case]
    with pytest.raises(UserError) as caught:
        load_yaml(text, "usage.yaml")
    assert [str(p) for p in caught.value.problems] == [f"usage.yaml:{expected}"]


@pytest.mark.parametrize("case", list(SLIPS))
def test_pyyamls_own_parser_gets_the_same_messages(case):
    import yaml

    from planner.usage.yaml_slips import syntax_problem

    text, expected = SLIPS[case]
    with pytest.raises(yaml.MarkedYAMLError) as caught:
        yaml.compose(text, Loader=yaml.SafeLoader)  # the pure-Python parser
    assert str(syntax_problem(caught.value, text, "usage.yaml")) == f"usage.yaml:{expected}"


@pytest.mark.parametrize("text, expected", [
    ('version: 1\ndemand:\n  gpus: 1\nsite: "abc\n',
     "5:1: YAML syntax error: while scanning a quoted scalar found unexpected end of stream"),
    ("version: 1\ndemand:\n  gpus: 1: 2\n",
     "3:10: YAML syntax error: mapping values are not allowed in this context"),
])
def test_other_syntax_errors_keep_the_parsers_words(text, expected):
    from planner.usage.yaml12 import load_yaml

    with pytest.raises(UserError) as caught:
        load_yaml(text, "usage.yaml")
    assert [str(p) for p in caught.value.problems] == [f"usage.yaml:{expected}"]


def test_the_command_line_shows_a_tab_at_its_line(run, tmp_path):
    path = tmp_path / "usage.yaml"
    path.write_text("version: 1\ndemand:\n\tgpu_hours_per_month: 10\noptions: []\n")
    result = run("validate", path)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{path}:3:1: {TAB}" in result.output


# -- 9. units people think in: GPU-hours a week, growth a month --------------------------------


def weekly_plan(**demand) -> dict:
    return {"version": 1, "horizon_months": 24, "hours_per_month": 720,
            "demand": demand or {"gpu_hours_per_week": 42},
            "site": {"electricity_per_kwh": 0.2},
            "options": [{"name": "box", "own": {"purchase_price": 1200, "power_watts": 500}},
                        {"name": "rent", "cloud": {"price_per_hour": 1.0}}]}


def costs(data: dict) -> list[float]:
    return [o["present_value"] for o in planner.load(data).evaluate().data["options"]]


def test_gpu_hours_per_week_is_hours_per_month_over_168_of_a_month():
    result = planner.load(weekly_plan()).evaluate()
    assert result.data["demand_gpu_hours_per_month"] == 42 * 720 / 168 == 180
    assert costs(weekly_plan()) == costs(weekly_plan(gpu_hours_per_month=180))


def test_growth_per_month_compounds_month_by_month():
    import numpy as np

    from planner.engine.months import growth_factors
    from planner.usage.units import yearly_growth

    months = np.arange(121)
    for g in (0.02, -0.05, 0.5, 0.0, -1.0):
        expected = (1 + g) ** np.maximum(months - 1, 0)
        assert np.allclose(growth_factors(yearly_growth(g), months), expected, rtol=1e-12,
                           atol=0)
    result = planner.load(weekly_plan(gpu_hours_per_week=42, growth_per_month=0.03)).evaluate()
    monthly = result.monthly
    rent = monthly[monthly["option"] == "rent"].groupby("month")["cost"].sum()
    assert np.allclose(rent[1:].to_numpy(), 180 * 1.03 ** np.arange(24), rtol=1e-12)
    assert costs(weekly_plan(gpu_hours_per_week=42, growth_per_month=0.03)) == pytest.approx(
        costs(weekly_plan(gpu_hours_per_month=180, growth_per_year=1.03**12 - 1)), rel=1e-12)


def test_the_validated_document_records_the_unit_it_was_written_in():
    weekly = planner.load(weekly_plan(gpu_hours_per_week=42, growth_per_month=0.03))
    demand = weekly.document.usage.demand
    assert (demand.form, demand.demand_unit, demand.growth_unit) == (
        "gpu_hours_per_week", "GPU-hours/week", "per month")
    assert (demand.gpu_hours_per_month, demand.growth_per_year) == (180, 1.03**12 - 1)
    monthly = planner.load(weekly_plan(gpu_hours_per_month=180)).document.usage.demand
    assert (monthly.form, monthly.demand_unit, monthly.growth_unit) == (
        "gpu_hours_per_month", "GPU-hours/month", "per year")
    utilization = planner.load(weekly_plan(utilization=0.5)).document.usage.demand
    assert utilization.demand_unit == "fraction of wall-clock time"


def test_a_key_and_its_alternative_together_are_a_located_problem(tmp_path):
    assert load_problems(tmp_path, """\
        version: 1
        demand:
          gpu_hours_per_month: 100
          gpu_hours_per_week: 25
          growth_per_year: 0.2
          growth_per_month: 0.01
        options: [{name: rent, cloud: {price_per_hour: 1}}]
        """) == [
        ("4:3: demand.gpu_hours_per_week: gpu_hours_per_week says what gpu_hours_per_month "
         "says, in other units: give one of them, not both"),
        ("6:3: demand.growth_per_month: growth_per_month says what growth_per_year says, in "
         "other units: give one of them, not both"),
    ]


def test_weekly_demand_is_one_of_the_demand_forms(tmp_path):
    assert load_problems(tmp_path, """\
        version: 1
        demand: {gpu_hours_per_week: 25, utilization: 0.5}
        options: [{name: rent, cloud: {price_per_hour: 1}}]
        """) == [("2:9: demand: give only one of gpu_hours_per_month, utilization, "
                 "flops_per_month (found gpu_hours_per_week and utilization)")]
    assert load_problems(tmp_path, """\
        version: 1
        demand: {gpu_hours_per_week: -1, growth_per_month: -2}
        options: [{name: rent, cloud: {price_per_hour: 1}}]
        """) == ["2:30: demand.gpu_hours_per_week: must be at least 0, got -1",
                 "2:52: demand.growth_per_month: must be at least -1, got -2"]


def test_a_sweep_or_a_replacement_may_set_any_demand_form_or_growth():
    plan = planner.load(weekly_plan(gpu_hours_per_month=180, growth_per_year=0.1))
    weekly = plan.sweep({"demand.gpu_hours_per_week": [21, 42]})
    monthly = plan.sweep({"demand.gpu_hours_per_month": [90, 180]})
    assert weekly["present_value"].tolist() == pytest.approx(monthly["present_value"].tolist(),
                                                             rel=1e-12)
    hours = planner.load(weekly_plan()).sweep({"hours_per_month": [720, 730]})
    assert hours["gpu_hours_per_month"].iloc[[0, 2]].tolist() == pytest.approx(
        [180, 42 * 730 / 168])
    growth = plan.sweep({"demand.growth_per_month": [0.01]})
    replaced = plan.replace({"demand.growth_per_month": 0.01})
    assert "growth_per_year" not in replaced.data["demand"]
    assert growth["present_value"].tolist() == pytest.approx(
        [o["present_value"] for o in replaced.evaluate().data["options"]], rel=1e-12)
    with pytest.raises(UserError) as caught:
        plan.sweep({"demand.growth_per_year": [0.1], "demand.growth_per_month": [0.01]})
    assert str(caught.value) == (
        "<input>: demand.growth_per_month: a sweep can vary one growth, not "
        "demand.growth_per_year and demand.growth_per_month: each replaces the others")
    with pytest.raises(UserError) as caught:
        plan.sweep({"demand.utilization": [0.1], "demand.gpu_hours_per_week": [1]})
    assert "a sweep can vary one demand form" in str(caught.value)


def test_growth_beyond_the_float_range_is_refused_at_the_demand():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserError) as caught:
            planner.load(weekly_plan(gpu_hours_per_week=1e308, growth_per_month=1e300))
    assert [p.path for p in caught.value.problems] == ["demand"]


def test_the_schema_has_the_new_keys_with_their_units():
    from planner.usage.schema import usage_json_schema

    demand = usage_json_schema()["$defs"]["Demand"]
    assert "[GPU-hours/week]" in demand["properties"]["gpu_hours_per_week"]["description"]
    assert "[fraction per month]" in demand["properties"]["growth_per_month"]["description"]
    assert {"required": ["gpu_hours_per_week"]} in demand["oneOf"]
    assert demand["not"] == {"required": ["growth_per_year", "growth_per_month"]}


def test_the_report_shows_demand_and_growth_in_the_units_the_file_wrote():
    """20 GPU-hours a week is shown as written, not as the 86.9 a month the model uses; 8 % a
    month likewise (issue 10, point 9)."""
    from planner.render import content, i18n

    result = planner.load({
        "version": 1, "demand": {"gpu_hours_per_week": 20, "growth_per_month": 0.08},
        "options": [{"name": "rent", "cloud": {"price_per_hour": 2.0}}]}).evaluate()
    shown = dict(content.inputs(result))
    assert shown["Demand"] == "20 GPU-hours/week"
    assert shown["Demand growth"] == "8% a month"
    with i18n.language("zh"):
        shown = dict(content.inputs(result))
    assert shown["需求"] == "每周 20 GPU 小时" and shown["需求增长"] == "每月 8%"
