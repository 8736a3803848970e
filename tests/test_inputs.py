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
    assert load_problems(tmp_path, words(region="atlantis")) == [
        ("8:11: site.region: unknown region 'atlantis' in the catalog (planner catalog regions "
        "lists them)")]


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
