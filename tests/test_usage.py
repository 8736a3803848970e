"""usage.yaml: models, positions of problems, the YAML loader, the JSON Schema."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

import planner
from planner.errors import Problem, UserError
from planner.usage.load import UsageDocument, load_usage, load_usage_text, raw_document
from planner.usage.models import Usage
from planner.usage.options import (
    OPTION_MODELS,
    CloudOption,
    CloudSpec,
    FreeTierOption,
    FreeTierSpec,
    OwnOption,
)
from planner.usage.schema import reference_markdown, schema_text, usage_json_schema
from planner.usage.vocabulary import KINDS
from planner.usage.yaml12 import MAX_BYTES, MAX_VALUES, load_yaml

ROOT = Path(__file__).resolve().parents[1]

# Every key of the format with a valid value, one scalar per line, so that a test can replace
# any value in place and know its line and column.
FULL = """\
version: 1
title: Everything
currency: EUR
fx:
  USD: 0.92
  CNY: 0.13
horizon_months: 24
hours_per_month: 720
discount_rate: 0.05
catalogs:
  - extra.yaml
demand:
  gpu_hours_per_month: 400
  flops_efficiency: 0.35
  gpus: 2
  reference_gpu: a100-80gb
  workload: llm
  min_gpu_memory_gb: 40
  growth_per_year: 0.2
  job_hours: 8
  checkpoint_minutes: 20
  data_gb: 500
site:
  electricity_per_kwh: 0.25
  pue: 1.3
  carbon_kg_per_kwh: 0.4
options:
  - name: inline cloud
    cloud:
      price_per_hour: 4.1
      spot_price_per_hour: 1.5
      reserved_1y_price_per_hour: 2.9
      reserved_3y_price_per_hour: 2.1
      gpus: 8
      gpu: h100-80gb
      gpu_memory_gb: 80
      peak_tflops: 989
      provider: acme
      instance: big.8x
    pricing: reserved_1y
    relative_speed: 2.5
    billing_increment_minutes: 60
    interruptions_per_hour: 0.01
    restart_minutes: 3
    storage_per_gb_month: 0.02
    reserved_instances: 1
  - name: catalog cloud
    cloud: aws/p4d.24xlarge
    pricing: spot
    region: us-east-1
  - name: box
    own:
      gpu: rtx-4090
      gpu_count: 2
      gpu_memory_gb: 24
      peak_tflops: 165
      purchase_price: 6000
      system_price: 1500
      lifetime_years: 3.5
      resale_fraction: 0.3
      power_watts: 1100
      idle_power_watts: 90
      always_on: true
      maintenance_per_year: 200
      fixed_cost_per_month: 50
      operating_cost_per_hour: 0.1
      availability: 0.95
      financing:
        annual_rate: 0.07
        months: 24
        down_payment: 1000
    relative_speed: 0.8
    overflow: catalog cloud
  - name: notebook
    free_tier:
      gpu: t4
      gpus: 2
      gpu_memory_gb: 16
      peak_tflops: 65
      session_hours: 9
      weekly_quota_hours: 30
      daily_quota_hours: 12
      monthly_quota_hours: 100
      fee_per_month: 10
      setup_minutes: 5
      availability: 0.9
    relative_speed: 0.3
    fallback: box
  - name: kaggle
    free_tier: kaggle
"""

MINIMAL = """\
version: 1
demand:
  gpu_hours_per_month: 100
options:
  - name: rent
    cloud: aws/p4d.24xlarge
"""


def load(text: str, name: str | None = "usage.yaml") -> UsageDocument:
    return load_usage_text(textwrap.dedent(text), name=name)


def problems(text: str) -> list[Problem]:
    with pytest.raises(UserError) as caught:
        load(text)
    return caught.value.problems


def only(text: str) -> Problem:
    found = problems(text)
    assert len(found) == 1, "\n".join(map(str, found))
    return found[0]


def where(problem: Problem) -> tuple[str, int | None, int | None]:
    return problem.path, problem.line, problem.column


# -- accepted input ---------------------------------------------------------------------------


def test_every_key_is_accepted():
    usage = load(FULL).usage
    assert usage.title == "Everything" and usage.currency == "EUR"
    assert usage.fx == {"USD": 0.92, "CNY": 0.13}
    assert (usage.horizon_months, usage.hours_per_month, usage.discount_rate) == (24, 720, 0.05)
    assert usage.catalogs == ["extra.yaml"]
    demand = usage.demand
    assert demand.form == "gpu_hours_per_month" and demand.gpu_hours_per_month == 400
    assert (demand.gpus, demand.reference_gpu, demand.workload) == (2, "a100-80gb", "llm")
    assert (demand.job_hours, demand.checkpoint_minutes, demand.data_gb) == (8, 20, 500)
    assert (usage.site.electricity_per_kwh, usage.site.pue) == (0.25, 1.3)
    inline, catalog, box, notebook, kaggle = usage.options
    assert isinstance(inline, CloudOption) and isinstance(inline.cloud, CloudSpec)
    assert inline.cloud.gpus == 8 and inline.reserved_instances == 1
    assert inline.pricing == "reserved_1y" and inline.kind == "cloud"
    assert isinstance(catalog, CloudOption) and catalog.cloud == "aws/p4d.24xlarge"
    assert catalog.region == "us-east-1"
    assert isinstance(box, OwnOption) and box.kind == "own"
    assert box.own.always_on is True and box.own.financing.months == 24
    assert box.overflow == "catalog cloud"
    assert isinstance(notebook, FreeTierOption) and isinstance(notebook.free_tier, FreeTierSpec)
    assert notebook.free_tier.session_hours == 9 and notebook.fallback == "box"
    assert kaggle.free_tier == "kaggle" and kaggle.kind == "free_tier"
    assert usage.option("box") is box


def test_defaults():
    usage = load(MINIMAL).usage
    assert usage.title == "usage"
    assert (usage.currency, usage.fx, usage.catalogs) == ("USD", {}, [])
    assert (usage.horizon_months, usage.hours_per_month, usage.discount_rate) == (36, 730, 0)
    d = usage.demand
    assert (d.flops_efficiency, d.gpus, d.workload, d.checkpoint_minutes) == (0.4, 1, "generic", 30)
    assert (d.min_gpu_memory_gb, d.growth_per_year, d.data_gb, d.job_hours) == (0, 0, 0, None)
    assert (d.precision, d.framework) == ("mixed", "pytorch")
    # pue, electricity and carbon are filled later, from site.kind / site.region or 1.0
    assert (usage.site.pue, usage.site.electricity_per_kwh) == (None, None)
    assert (usage.site.region, usage.site.kind, usage.site.tariff) == (None, None, "business")
    rent = usage.options[0]
    assert (rent.pricing, rent.restart_minutes) == ("on_demand", 5)
    assert rent.relative_speed is rent.billing_increment_minutes is rent.reserved_instances is None
    own = load("""\
        version: 1
        demand: {utilization: 0.5}
        site: {electricity_per_kwh: 0.2}
        options:
          - name: box
            own: {gpu: rtx-4090}
          - name: tier
            free_tier: {gpu: t4}
        """).usage
    box, tier = own.options
    assert (box.own.gpu_count, box.own.lifetime_years, box.own.resale_fraction) == (1, 4, 0)
    # system_price and idle_power_watts are filled later: from own.system, else 0
    assert (box.own.always_on, box.own.availability, box.own.system_price) == (False, 1.0, None)
    assert (box.own.system, box.own.idle_power_watts) == (None, None)
    assert box.own.purchase_price is box.own.power_watts is box.own.financing is None
    assert (tier.free_tier.gpus, tier.free_tier.fee_per_month) == (1, 0)
    assert (tier.free_tier.setup_minutes, tier.free_tier.availability) == (0, 1)


@pytest.mark.parametrize("form, value", [
    ("gpu_hours_per_month", 0), ("utilization", 1), ("flops_per_month", 2.7e19)])
def test_each_demand_form(form, value):
    doc = load(MINIMAL.replace("gpu_hours_per_month: 100", f"{form}: {value}"))
    assert doc.usage.demand.form == form


def test_yaml_12_numbers():
    text = MINIMAL.replace("gpu_hours_per_month: 100", "flops_per_month: 1e6")
    half = load(text.replace("version: 1", "version: 1\nhours_per_month: .5"))
    assert half.usage.hours_per_month == 0.5
    assert load(text).usage.demand.flops_per_month == 1e6
    assert load(MINIMAL.replace("100", "2.7e19")).usage.demand.gpu_hours_per_month == 2.7e19


@given(st.floats(min_value=1e-300, max_value=1e300, allow_nan=False, allow_infinity=False))
def test_any_python_float_reads_back(value):
    assert load_yaml(f"x: {value!r}\n").data["x"] == value


def test_integers_accept_whole_floats_but_not_text():
    whole = load(MINIMAL.replace("version: 1", "version: 1\nhorizon_months: 12.0"))
    assert whole.usage.horizon_months == 12
    assert isinstance(whole.usage.horizon_months, int)
    problem = only(MINIMAL.replace("version: 1", 'version: 1\nhorizon_months: "12"'))
    assert where(problem) == ("horizon_months", 2, 17)
    assert "expected a whole number" in problem.message and "quotes" in problem.message
    fraction = only(MINIMAL.replace("version: 1", "version: 1\nhorizon_months: 12.5"))
    assert fraction.message == "expected a whole number, got 12.5"


def test_booleans_are_not_numbers_and_yes_is_text():
    assert "got true" in only(MINIMAL.replace("100", "true")).message
    problem = only("""\
        version: 1
        demand: {utilization: 0.5}
        site: {electricity_per_kwh: 0.2}
        options:
          - name: box
            own: {gpu: x, always_on: yes}
        """)
    assert where(problem) == ("options[0].own.always_on", 6, 30)
    assert problem.message == "expected true or false, got the text 'yes'"


def test_thousands_separators_are_text():
    problem = only(MINIMAL.replace("100", "1_000"))
    assert "no quotes, units, percent signs or thousands separators" in problem.message


def test_numpy_numbers_from_python():
    np = pytest.importorskip("numpy")
    data = {"version": np.int64(1), "horizon_months": np.float64(12.0),
            "demand": {"gpu_hours_per_month": np.float32(5)},
            "options": [{"name": "x", "cloud": "a/b"}]}
    assert load_usage(data).usage.horizon_months == 12
    data["demand"]["gpus"] = np.bool_(True)
    with pytest.raises(UserError):
        load_usage(data)


# -- each constraint, located at the bad value ------------------------------------------------


def _bad_values(prop: dict) -> list[str]:
    """YAML texts that break a property of the JSON Schema."""
    parts = [p for p in prop.get("anyOf", [prop]) if p.get("type") != "null"]
    prop = parts[0]
    if "oneOf" in prop and any(b.get("type") == "integer" for b in prop["oneOf"]):
        return ['"12"', "true", "-1", "2.5", "per-term", "{a: 1}"]  # a count, a word, a list
    if "oneOf" in prop:  # catalog id or map
        return ["12", "[1, 2]"]
    if "const" in prop:
        return ["2", '"1"']
    if "enum" in prop:
        return ["spott", "12"]
    kind = prop.get("type")
    if kind in ("number", "integer"):
        bad = ['"12"', "true", "[1]"]
        if "minimum" in prop:
            bad.append(str(prop["minimum"] - 1))
        if "exclusiveMinimum" in prop:
            bad.append(str(prop["exclusiveMinimum"]))
        if "maximum" in prop:
            bad.append(str(prop["maximum"] + 1))
        if kind == "integer":
            bad.append("2.5")
        return bad
    if kind == "string":
        bad = ["12", "{a: 1}"]
        if "pattern" in prop:
            bad.append("usd" if "A-Z" in prop["pattern"] else "a.b")
        return bad
    if kind == "boolean":
        return ["yes", "1"]
    return []


def _scalar_paths() -> list[tuple[str, str]]:
    doc = load(FULL)
    schema = usage_json_schema()
    found = []
    for path in doc.positions:
        prop = _schema_at(schema, doc.data, path)
        if prop is None:
            continue
        for bad in _bad_values(prop):
            found.append((path, bad))
    return found


def _schema_at(schema: dict, data: object, path: str) -> dict | None:
    """The schema of the scalar at ``path`` in ``data`` (None for the root, maps and lists)."""
    node = schema
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        node = _resolve(schema, node, data)
        if part.startswith("["):
            data = data[int(part[1:-1])]  # type: ignore[index]
            node = node["items"]
            if "oneOf" in node:  # an option entry: its kind key picks the schema
                kind = next(k for k in KINDS if k in data)  # type: ignore[operator]
                node = {"$ref": f"#/$defs/{OPTION_MODELS[kind].__name__}"}
        else:
            data = data[part]  # type: ignore[index]
            if "properties" in node:
                node = node["properties"][part]
            else:
                node = next(iter(node["patternProperties"].values()))
    if not path or isinstance(data, (dict, list)):
        return None
    return node


def _resolve(schema: dict, node: dict, data: object) -> dict:
    """The map schema that describes the map ``data``."""
    for union in ("anyOf", "oneOf"):
        node = next((b for b in node.get(union, []) if "$ref" in b), node)
    if "$ref" in node:
        return schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


SCALARS = _scalar_paths()


def test_the_constraint_table_covers_every_key():
    paths = {p for p, _ in SCALARS}
    assert len(paths) > 75
    assert {"version", "fx.USD", "options[2].own.financing.months", "catalogs[0]"} <= paths


@pytest.mark.parametrize("path, bad", SCALARS, ids=[f"{p}={b}" for p, b in SCALARS])
def test_each_bad_value_is_one_problem_at_its_value(path, bad):
    doc = load(FULL)
    line, column = doc.positions[path]
    lines = FULL.splitlines()
    lines[line - 1] = lines[line - 1][: column - 1] + bad
    text = "\n".join(lines) + "\n"
    found = problems(text)
    # Renaming an option also breaks the overflow or fallback that names it.
    others = [p for p in found if where(p) != (path, line, column)]
    assert len(found) - len(others) == 1, "\n".join(map(str, found))
    assert all(p.message.startswith("no option is named") for p in others), others


@pytest.mark.parametrize("path, text, message", [
    ("horizon_months", "horizon_months: 0", "must be at least 1, got 0"),
    ("hours_per_month", "hours_per_month: 0", "must be greater than 0, got 0"),
    ("discount_rate", "discount_rate: -0.1", "must be at least 0, got -0.1"),
    ("currency", "currency: usd", "expected a currency code of 3 capital letters"),
    ("version", "version: 2", "this planner reads format version 1, got 2"),
    ("title", "title: 2024", "expected text, got 2024"),
])
def test_messages(path, text, message):
    body = MINIMAL.replace("version: 1\n", "") if path == "version" else MINIMAL
    problem = only(text + "\n" + body)
    assert where(problem) == (path, 1, len(path) + 3)
    assert message in problem.message


def test_currency_suggestion():
    assert only("currency: usd\n" + MINIMAL).suggestion == "USD"


# -- keys ------------------------------------------------------------------------------------


def test_unknown_key_with_suggestion_at_the_key():
    problem = only(MINIMAL + "horizon_month: 12\n")
    assert where(problem) == ("horizon_month", 7, 1)
    assert problem.message == "unknown key 'horizon_month'"
    assert problem.suggestion == "horizon_months"
    assert str(problem) == (
        "usage.yaml:7:1: horizon_month: unknown key 'horizon_month' "
        "(did you mean horizon_months?)")


def test_unknown_keys_at_every_level():
    found = problems("""\
        version: 1
        demand:
          gpu_hour_per_month: 1
        site: {electricty_per_kwh: 1}
        options:
          - name: a
            cloud: {price_per_hour: 1, gpuz: 1}
            pricng: spot
          - name: b
            own: {gpu: x, finacing: {}}
        """)
    assert [(p.path, p.line, p.column, p.suggestion) for p in found] == [
        ("demand.gpu_hour_per_month", 3, 3, "gpu_hours_per_month"),
        ("demand", 3, 3, None),  # and so no demand form is given
        ("site.electricity_per_kwh", 4, 7, None),
        ("site.electricty_per_kwh", 4, 8, "electricity_per_kwh"),
        ("options[0].cloud.gpuz", 7, 32, "gpu"),
        ("options[0].pricng", 8, 5, "pricing"),
        ("options[1].own.finacing", 10, 19, "financing"),
    ]


def test_duplicate_key_at_the_second_key():
    problem = only(MINIMAL.replace("demand:", "horizon_months: 12\nhorizon_months: 24\ndemand:"))
    assert where(problem) == ("horizon_months", 3, 1)
    assert problem.message == "duplicate key 'horizon_months' (first given at line 2)"


def test_keys_of_another_kind_do_not_apply():
    found = problems("""\
        version: 1
        demand: {utilization: 0.5}
        site: {electricity_per_kwh: 0.2}
        options:
          - name: rent
            cloud: aws/x
            overflow: box
          - name: box
            own: {gpu: x, pricing: spot, relative_speed: 2}
            purchase_price: 10
            fallback: rent
          - name: tier
            free_tier: kaggle
            always_on: true
        """)
    assert [(p.path, p.line, p.column, p.message) for p in found] == [
        ("options[0].overflow", 7, 5, "'overflow' does not apply to a cloud option"),
        ("options[1].own.pricing", 9, 19, "'pricing' does not apply to an own option"),
        ("options[1].own.relative_speed", 9, 34,
         "'relative_speed' goes beside own:, not inside it"),
        ("options[1].purchase_price", 10, 5, "'purchase_price' belongs inside own:, not beside it"),
        ("options[1].fallback", 11, 5, "'fallback' does not apply to an own option"),
        ("options[2].always_on", 14, 5, "'always_on' does not apply to a free-tier option"),
    ]


def test_option_needs_exactly_one_kind():
    found = problems("""\
        version: 1
        demand: {utilization: 0.5}
        options:
          - name: none
            owm: {gpu: x}
          - name: two
            cloud: aws/x
            free_tier: kaggle
          - just text
        """)
    assert [(p.path, p.line, p.column, p.suggestion) for p in found] == [
        ("options[0]", 4, 5, None), ("options[0].owm", 5, 5, "own"),
        ("options[1]", 6, 5, None), ("options[2]", 9, 5, None)]
    assert found[0].message == "an option needs one of cloud, own or free_tier"
    assert found[2].message.endswith("this one has cloud and free_tier")
    assert "expected a map" in found[3].message


@pytest.mark.parametrize("key, line", [("version", 1), ("demand", 2), ("options", 4)])
def test_missing_top_level_key_at_the_top_map(key, line):
    lines = MINIMAL.splitlines(keepends=True)
    block = {"version": [0], "demand": [1, 2], "options": [3, 4, 5]}[key]
    text = "".join(line for i, line in enumerate(lines) if i not in block)
    problem = only("# a comment\n" + text)
    assert where(problem) == (key, 2, 1)
    assert problem.message == "required key missing"


def test_all_problems_at_once():
    found = problems("""\
        version: 1
        horizon_months: 0
        demand:
          gpu_hours_per_month: -5
        options:
          - name: rent
            cloud: {price_per_hour: "4 USD"}
        """)
    assert [where(p) for p in found] == [
        ("horizon_months", 2, 17),
        ("demand.gpu_hours_per_month", 4, 24),
        ("options[0].cloud.price_per_hour", 7, 29),
    ]


def test_problems_of_the_model_and_rules_between_keys_together():
    found = problems("""\
        version: 1
        demand: {gpus: 0}
        options:
          - name: box
            own: {}
        """)
    assert [(p.path, p.line, p.column) for p in found] == [
        ("site.electricity_per_kwh", 1, 1),
        ("demand", 2, 9),
        ("demand.gpus", 2, 16),
        ("options[0].own.purchase_price", 5, 10),
        ("options[0].own.power_watts", 5, 10),
    ]


# -- rules between keys, at the enclosing map -------------------------------------------------


def test_demand_forms():
    none = only(MINIMAL.replace("gpu_hours_per_month: 100", "gpus: 2"))
    assert where(none) == ("demand", 3, 3)
    assert none.message == "give one of gpu_hours_per_month, utilization, flops_per_month"
    two = only(MINIMAL.replace("gpu_hours_per_month: 100", "utilization: 1\n  flops_per_month: 1"))
    assert where(two) == ("demand", 3, 3)
    assert "found utilization and flops_per_month" in two.message


OPTIONS = """\
version: 1
demand: {{utilization: 0.5}}
site: {{electricity_per_kwh: 0.2}}
options:
{}"""


def test_option_names_are_unique():
    problem = only(OPTIONS.format("  - {name: a, cloud: x/y}\n  - {name: a, cloud: x/z}\n"))
    assert where(problem) == ("options[1].name", 6, 12)
    assert "already used by options[0]" in problem.message


def test_overflow_names_an_existing_other_option():
    text = OPTIONS.format(
        "  - name: rent\n    cloud: x/y\n  - name: box\n    own: {gpu: g}\n    overflow: rnet\n")
    problem = only(text)
    assert where(problem) == ("options[1].overflow", 9, 15)
    assert problem.message == "no option is named 'rnet'" and problem.suggestion == "rent"
    itself = only(OPTIONS.format("  - name: box\n    own: {gpu: g}\n    overflow: box\n"))
    assert itself.message == "an option cannot name itself as its overflow"


def test_cycle_through_overflow_and_fallback():
    problem = only(OPTIONS.format(
        "  - name: rent\n    cloud: x/y\n"
        "  - name: box\n    own: {gpu: g}\n    overflow: tier\n"
        "  - name: tier\n    free_tier: kaggle\n    fallback: box\n"
        "  - name: other\n    own: {gpu: g}\n    overflow: box\n"))
    assert where(problem) == ("options[1].overflow", 9, 15)
    assert problem.message == "overflow/fallback goes round in a cycle: box -> tier -> box"


def test_chain_without_cycle_is_fine():
    load(OPTIONS.format(
        "  - name: rent\n    cloud: x/y\n"
        "  - name: box\n    own: {gpu: g}\n    overflow: tier\n"
        "  - name: tier\n    free_tier: kaggle\n    fallback: rent\n"))


def test_reserved_instances_only_with_reserved_pricing():
    problem = only(OPTIONS.format(
        "  - name: rent\n    cloud: x/y\n    pricing: spot\n    reserved_instances: 2\n"))
    assert where(problem) == ("options[0].reserved_instances", 5, 5)
    assert "only with pricing reserved_1y or reserved_3y, not spot" in problem.message
    load(OPTIONS.format("  - name: rent\n    cloud: x/y\n    pricing: reserved_3y\n"
                        "    reserved_instances: 2\n"))


@pytest.mark.parametrize("pricing, key", [
    ("spot", "spot_price_per_hour"),
    ("reserved_1y", "reserved_1y_price_per_hour"),
    ("reserved_3y", "reserved_3y_price_per_hour"),
])
def test_inline_cloud_needs_the_price_its_pricing_asks_for(pricing, key):
    problem = only(OPTIONS.format(
        f"  - name: rent\n    cloud:\n      price_per_hour: 2\n    pricing: {pricing}\n"))
    assert where(problem) == (f"options[0].cloud.{key}", 7, 7)
    assert problem.message == f"required with pricing: {pricing}"


def test_region_only_with_a_catalog_id():
    problem = only(OPTIONS.format(
        "  - name: rent\n    cloud: {price_per_hour: 2}\n    region: eu\n"))
    assert where(problem) == ("options[0].region", 7, 5)


def test_own_without_gpu_needs_price_and_power():
    found = problems(OPTIONS.format("  - name: box\n    own:\n      gpu_count: 2\n"))
    assert [where(p) for p in found] == [
        ("options[0].own.purchase_price", 7, 7), ("options[0].own.power_watts", 7, 7)]
    load(OPTIONS.format("  - name: box\n    own: {purchase_price: 1, power_watts: 300}\n"))


def test_electricity_required_with_an_own_option():
    text = OPTIONS.format("  - name: box\n    own: {gpu: g}\n")
    problem = only(text.replace("{electricity_per_kwh: 0.2}", "{pue: 1.2}"))
    assert where(problem) == ("site.electricity_per_kwh", 3, 7)
    assert problem.message == ("required because an option owns hardware (box); or give "
                               "site.region to use the catalog's price")
    load(text.replace("{electricity_per_kwh: 0.2}", "{region: us}"))  # the catalog's price
    without_site = only(text.replace("site: {electricity_per_kwh: 0.2}\n", ""))
    assert where(without_site) == ("site.electricity_per_kwh", 1, 1)


def test_financing_needs_rate_and_months():
    found = problems(OPTIONS.format(
        "  - name: box\n    own:\n      gpu: g\n      financing:\n        down_payment: 5\n"))
    assert [(p.path, p.line, p.column, p.message) for p in found] == [
        ("options[0].own.financing.annual_rate", 9, 9, "required key missing"),
        ("options[0].own.financing.months", 9, 9, "required key missing"),
    ]


def test_relative_speed_positive():
    problem = only(OPTIONS.format("  - name: rent\n    cloud: x/y\n    relative_speed: 0\n"))
    assert where(problem) == ("options[0].relative_speed", 7, 21)
    assert problem.message == "must be greater than 0, got 0"


def test_free_tier_setup_shorter_than_a_session():
    problem = only(OPTIONS.format(
        "  - name: t\n    free_tier: {session_hours: 1, setup_minutes: 90}\n"))
    assert where(problem) == ("options[0].free_tier.setup_minutes", 6, 50)


def test_rules_also_apply_to_models_built_from_python():
    data = {"version": 1, "demand": {"utilization": 0.5},
            "options": [{"name": "box", "own": {"gpu": "g"}, "overflow": "nobody"}]}
    with pytest.raises(ValidationError) as caught:
        Usage.model_validate(data)
    text = str(caught.value)
    assert "site.electricity_per_kwh" in text and "no option is named 'nobody'" in text


# -- the YAML loader --------------------------------------------------------------------------


def test_syntax_error_stops_with_its_position():
    with pytest.raises(UserError) as caught:
        load("version: 1\ndemand: [1, 2\nsite: {}\n")
    (problem,) = caught.value.problems
    assert problem.message.startswith("YAML syntax error")
    assert (problem.file, problem.line) == ("usage.yaml", 3)


@pytest.mark.parametrize("text, message", [
    ("- 1\n- 2\n", "the top level must be a map"),
    ("just text\n", "the top level must be a map"),
    ("", "the file is empty"),
    ("# only a comment\n", "the file is empty"),
    ("a: 1\n---\nb: 2\n", "expected a single document"),
])
def test_not_one_map(text, message):
    with pytest.raises(UserError) as caught:
        load(text)
    assert message in str(caught.value)


def test_tags_never_run_code():
    problem = only(MINIMAL + "title: !!python/object/apply:os.system [echo hi]\n")
    assert where(problem)[0] == "title"
    assert "the tag !!python/object/apply:os.system is not supported" in problem.message


def test_alias_bomb_is_refused():
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 9):
        previous, name = chr(96 + level), chr(97 + level)
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 10) + "]")
    with pytest.raises(UserError) as caught:
        load("\n".join(lines) + "\n")
    assert f"more than {MAX_VALUES} values" in str(caught.value)


def test_recursive_alias_is_refused():
    with pytest.raises(UserError) as caught:
        load("a: &a [1, *a]\n")
    assert "refers to the value that contains it" in str(caught.value)


def test_large_file_is_refused(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("# " + "x" * MAX_BYTES + "\n" + MINIMAL)
    with pytest.raises(UserError) as caught:
        load_usage(path)
    assert "too large" in str(caught.value)


def test_anchors_and_merge_keys():
    doc = load("""\
        version: 1
        demand: {utilization: 0.5}
        site: {electricity_per_kwh: 0.2}
        options:
          - name: small
            own: &box
              gpu: rtx-4090
              purchase_price: 3000
          - name: big
            own:
              <<: *box
              gpu_count: 2
              purchase_price: 5000
        """)
    small, big = doc.usage.options
    assert (big.own.gpu, big.own.gpu_count, big.own.purchase_price) == ("rtx-4090", 2, 5000)
    assert small.own.purchase_price == 3000
    # A merged key is located where the merged map wrote it.
    assert doc.positions["options[1].own.gpu"] == (7, 12)
    assert doc.positions["options[1].own.purchase_price"] == (13, 23)
    assert not any("<<" in path for path in doc.positions)


def test_aliased_value_is_an_independent_copy():
    doc = load("""\
        version: 1
        demand: {utilization: 0.5}
        site: {electricity_per_kwh: 0.2}
        options:
          - {name: a, own: &box {gpu: g}}
          - {name: b, own: *box}
        """)
    assert doc.data["options"][0]["own"] is not doc.data["options"][1]["own"]


def test_not_utf8(tmp_path):
    path = tmp_path / "u.yaml"
    path.write_bytes(b"version: 1\ntitle: \xff\n")
    with pytest.raises(UserError) as caught:
        load_usage(path)
    (problem,) = caught.value.problems
    assert (problem.line, problem.column, problem.message) == (2, 8, "the file is not UTF-8 text")


def test_positions_of_keys_and_values():
    doc = load(FULL)
    assert doc.positions[""] == (1, 1)
    assert doc.key_positions["options[2].own.purchase_price"] == (57, 7)
    assert doc.positions["options[2].own.purchase_price"] == (57, 23)
    assert doc.positions["options[2]"] == (51, 5)
    assert doc.positions["catalogs[0]"] == (11, 5)


# -- the public API ---------------------------------------------------------------------------


def test_file_source_and_title_from_its_stem(tmp_path):
    path = tmp_path / "my-plan.yaml"
    path.write_text(MINIMAL)
    doc = load_usage(path)
    assert (doc.usage.title, doc.file) == ("my-plan", str(path))
    assert load_usage(str(path)).usage.title == "my-plan"
    assert load_usage(path, name="shown.yaml").file == "shown.yaml"


def test_problems_name_the_file(tmp_path):
    path = tmp_path / "u.yaml"
    path.write_text(MINIMAL + "pue: 1\n")
    with pytest.raises(UserError) as caught:
        load_usage(path)
    assert str(caught.value).startswith(f"{path}:7:1: pue: unknown key 'pue'")


def test_dict_source():
    data = {"version": 1, "demand": {"gpu_hours_per_month": 10},
            "options": [{"name": "rent", "cloud": "aws/x"}]}
    doc = load_usage(data)
    assert (doc.usage.title, doc.file, doc.positions) == ("plan", None, {})
    assert doc.data == data and doc.data is not data
    assert load_usage(data, name="from/somewhere.yaml").usage.title == "somewhere"
    data["demand"]["gpus"] = "2"
    with pytest.raises(UserError) as caught:
        load_usage(data)
    (problem,) = caught.value.problems
    assert (problem.path, problem.line, problem.file) == ("demand.gpus", None, None)


def test_missing_and_unreadable_files(tmp_path):
    with pytest.raises(UserError) as caught:
        load_usage(tmp_path / "nope.yaml")
    assert "no such file" in str(caught.value)
    with pytest.raises(UserError) as caught:
        load_usage(tmp_path)
    assert "folder" in str(caught.value)


def test_problem_falls_back_to_the_enclosing_position():
    doc = load(FULL)
    assert doc.problem("options[2].own.purchase_price", "x").line == 57
    key = doc.problem("options[2].own.purchase_price", "x", at="key")
    assert (key.line, key.column) == (57, 7)
    enclosing = doc.problem("options[2].own.purchase_price", "x", at="map")
    assert (enclosing.line, enclosing.column) == (53, 7)
    unknown = doc.problem("options[2].own.financing.nothing", "x", suggestion="y")
    assert (unknown.path, unknown.line, unknown.column, unknown.suggestion) == (
        "options[2].own.financing.nothing", 69, 9, "y")
    assert doc.problem("nothing", "x").line == 1
    assert doc.problem("options[1]", "x", at="key").line == doc.positions["options[1]"][0]


def test_raw_document(tmp_path):
    path = tmp_path / "u.yaml"
    path.write_text(FULL)
    data = raw_document(path)
    assert data == load(FULL).data
    assert "title" in data and "pricing" not in data["options"][2]
    source = {"a": {"b": 1}}
    copied = raw_document(source)
    assert copied == source and copied["a"] is not source["a"]
    path.write_text("a: 1\na: 2\n")
    with pytest.raises(UserError):
        raw_document(path)


def test_json_schema_matches_the_committed_file():
    committed = (ROOT / "schema" / "usage.schema.json").read_text(encoding="utf-8")
    assert committed == schema_text(), (
        "schema/usage.schema.json is out of date: run `python -m planner.usage.schema` from the "
        "repository root")


def test_reference_page_matches_the_committed_file():
    committed = (ROOT / "docs" / "usage-reference.md").read_text(encoding="utf-8")
    assert committed == reference_markdown(), (
        "docs/usage-reference.md is out of date: run `python -m planner.usage.schema` from the "
        "repository root")


def test_json_schema_describes_every_key():
    schema = usage_json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    definitions = [schema, *schema["$defs"].values()]
    for definition in definitions:
        assert definition["additionalProperties"] is False
        for key, prop in definition["properties"].items():
            assert prop.get("description"), key
    demand = schema["$defs"]["Demand"]
    assert demand["oneOf"] == [{"required": [f]} for f in
                               ("gpu_hours_per_month", "utilization", "flops_per_month",
                                "gpu_hours_per_week")]
    site = schema["$defs"]["Site"]["properties"]
    assert "[currency/kWh]" in site["electricity_per_kwh"]["description"]
    json.dumps(schema)  # plain JSON


def test_reference_lists_every_key():
    page = reference_markdown()
    for model in (Usage, CloudOption, OwnOption, FreeTierOption, CloudSpec, FreeTierSpec):
        for key in model.model_fields:
            assert f"| `{key}` |" in page or key in ("name", "cloud", "own", "free_tier")


def test_empty_value_means_not_given_where_the_default_is_none():
    doc = load(MINIMAL.replace("100", "100\n  job_hours: ~\n  utilization:"))
    assert doc.usage.demand.job_hours is None and doc.usage.demand.form == "gpu_hours_per_month"
    problem = only(MINIMAL.replace("100", "100\n  gpus:"))
    assert where(problem) == ("demand.gpus", 4, 8)
    assert problem.message == "expected a whole number, got nothing (null)"


def test_currency_codes_as_fx_keys():
    problem = only("fx: {eur: 1.1}\n" + MINIMAL)
    assert where(problem) == ("fx.eur", 1, 6)
    assert problem.suggestion == "EUR"


def test_options_list_needs_an_entry():
    problem = only("version: 1\ndemand: {utilization: 1}\noptions: []\n")
    assert where(problem) == ("options", 3, 10)
    assert problem.message == "needs at least 1 entry"


def test_load_usage_takes_a_path_or_a_dict():
    with pytest.raises(TypeError):
        load_usage(12)  # type: ignore[arg-type]


def test_a_currency_code_must_exist():
    """SPEC §1: an ISO 4217 code; a typo is located and gets the nearest common code."""
    doc = {"version": 1, "currency": "EUO", "fx": {"USX": 1.1},
           "demand": {"gpu_hours_per_month": 1},
           "options": [{"name": "r", "cloud": {"price_per_hour": 1}}]}
    with pytest.raises(UserError) as caught:
        planner.load(doc)
    found = {p.path: p for p in caught.value.problems}
    assert set(found) == {"currency", "fx.USX"}
    assert found["currency"].suggestion == "EUR" and found["fx.USX"].suggestion == "USD"


def test_a_missing_exchange_rate_comes_with_the_schemas_problems():
    """SPEC §1: all problems at once; a catalog row in another currency without its fx rate is
    found from the raw document, together with an unknown key."""
    doc = {"version": 1, "horizon_month": 12, "demand": {"gpu_hours_per_month": 1},
           "options": [{"name": "qq", "cloud": "tencent/GN7.2XLARGE32"}]}
    with pytest.raises(UserError) as caught:
        planner.load(doc)
    paths = [p.path for p in caught.value.problems]
    assert "horizon_month" in paths and any(p.startswith("options[0]") for p in paths), paths
    assert any("CNY" in p.message for p in caught.value.problems)
