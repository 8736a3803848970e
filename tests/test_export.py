"""SPEC §10, ``planner export``: an own option's cost per owned GPU-hour as OpenCost's custom
pricing JSON and SkyPilot's Kubernetes pricing config, checked against the formats those tools
read (tests/fixtures/export: OpenCost's configs/default.json at opencost/opencost
5f6533303e3850c8635796a74bb22802d16e9090, SkyPilot's _PRICING_SCHEMA of sky/utils/schemas.py
at skypilot-org/skypilot 00052dfe0d132c5ad6aa9a175572b0695f747c80). Every expected price is
worked out by hand in the comments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import planner
from planner.render.export import export

FORMATS = Path(__file__).resolve().parent / "fixtures" / "export"

# The fields of OpenCost's CustomPricing (pkg/cloud/models/models.go, same commit) that
# ``planner export`` writes beyond those of configs/default.json.
OPENCOST_EXTRA_FIELDS = {"spotGPU", "currencyCode"}

# 12 months of 100 hours, no discounting, machines drawing nothing (so no energy cost), no
# resale: an owned machine loses purchase × 12 / 48 over the horizon (4-year lifetime, straight
# line) and is worth the rest at the end.
LAB = """\
version: 1
title: Export lab
horizon_months: 12
hours_per_month: 100
discount_rate: 0
demand:
  gpu_hours_per_month: 100
site:
  electricity_per_kwh: 0.3
options:
  - name: box
    own:
      gpu: h100-80gb-pcie
      gpu_count: 2
      purchase_price: 2400
      power_watts: 0
  - name: big
    own:
      gpu: l4
      gpu_count: 4
      purchase_price: 9600
      power_watts: 0
  - name: rent
    cloud:
      price_per_hour: 5
"""
# box: 2,400 − residual 2,400 × (1 − 12/48) = 2,400 − 1,800 = 600 over 1 × 2 GPUs × 100 h × 12
#   months = 2,400 GPU-hours: 0.25 per owned GPU-hour; present value 600 (no discounting).
# big: 9,600 − 7,200 = 2,400 over 4 × 100 × 12 = 4,800 GPU-hours: 0.5; present value 2,400.
BOX_PRICE = 0.25
BIG_PRICE = 0.5


@pytest.fixture
def lab(tmp_path):
    path = tmp_path / "lab.yaml"
    path.write_text(LAB)
    return path


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def _matches(schema: dict, value, where: str = "pricing") -> list[str]:
    """What ``value`` breaks of the JSON Schema ``schema``, for the keywords SkyPilot's pricing
    schema uses (type object/number, properties, additionalProperties, required, minimum);
    jsonschema is not a dependency of the planner."""
    problems = []
    kind = schema.get("type")
    if kind == "object":
        if not isinstance(value, dict):
            return [f"{where}: not an object"]
        problems += [f"{where}: {k} missing" for k in schema.get("required", []) if k not in value]
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                problems += _matches(properties[key], item, f"{where}.{key}")
            elif extra is False:
                problems.append(f"{where}: unexpected key {key}")
            elif isinstance(extra, dict):
                problems += _matches(extra, item, f"{where}.{key}")
    elif kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return [f"{where}: not a number"]
        if "minimum" in schema and value < schema["minimum"]:
            problems.append(f"{where}: below {schema['minimum']}")
    return problems


SKYPILOT_SCHEMA = json.loads((FORMATS / "skypilot_pricing_schema.json").read_text())
OPENCOST_DEFAULT = json.loads((FORMATS / "opencost_default.json").read_text())


# -- OpenCost ---------------------------------------------------------------------------------


def test_opencost_file_has_every_key_of_opencosts_own_file_as_strings(run, lab):
    result = run("export", lab, "--to", "opencost")
    assert result.exit_code == 0, result.output
    pricing = json.loads(result.output)
    assert set(OPENCOST_DEFAULT) <= set(pricing)
    assert set(pricing) - set(OPENCOST_DEFAULT) == OPENCOST_EXTRA_FIELDS
    assert all(isinstance(v, str) for v in pricing.values())
    assert pricing["provider"] == "custom"
    # The cheapest own option by present value: box (600 < 2,400), at 0.25 per GPU-hour.
    assert pricing["GPU"] == "0.25" and float(pricing["GPU"]) == BOX_PRICE
    assert pricing["spotGPU"] == pricing["GPU"]
    for key in ("CPU", "spotCPU", "RAM", "spotRAM", "storage", "zoneNetworkEgress",
                "regionNetworkEgress", "internetNetworkEgress"):
        assert pricing[key] == "0"
    assert pricing["currencyCode"] == "USD"
    for key, value in pricing.items():  # every price reads as OpenCost parses it (a float)
        if key not in ("provider", "description", "currencyCode"):
            float(value)


def test_opencost_price_keeps_every_digit(lab):
    # 3 GPUs for 1,000: 1,000 − 750 = 250 over 3 × 100 × 12 = 3,600 GPU-hours = 0.069444…,
    # written as the shortest text that reads back as the same float.
    plan = planner.load(lab).replace({"options.box.own.gpu_count": 3,
                                      "options.box.own.purchase_price": 1000})
    result = plan.evaluate()
    pricing = json.loads(export(result, "opencost", "box"))
    assert float(pricing["GPU"]) == 250 / 3600
    assert pricing["GPU"] == repr(250 / 3600) == "0.06944444444444445"
    config = yaml.safe_load(export(result, "skypilot", "box"))  # SkyPilot's number, exactly
    assert config["kubernetes"]["pricing"]["accelerators"] == {"H100": 250 / 3600}


def test_the_named_option_is_exported(run, lab):
    result = run("export", lab, "--to", "opencost", "--option", "big")
    assert json.loads(result.output)["GPU"] == "0.5"


def test_the_exported_price_scales_with_every_price():
    # Every money input times k: the cost per owned GPU-hour, and so the export, times k.
    @settings(max_examples=25, deadline=None)
    @given(st.floats(min_value=0.01, max_value=1000))
    def scaled(k):
        data = yaml.safe_load(LAB)
        for option in data["options"][:2]:
            option["own"]["purchase_price"] *= k
        data["site"]["electricity_per_kwh"] *= k
        data["options"][2]["cloud"]["price_per_hour"] *= k
        pricing = json.loads(export(planner.load(data).evaluate(), "opencost", "box"))
        assert float(pricing["GPU"]) == pytest.approx(k * BOX_PRICE, rel=1e-12)

    scaled()


# -- SkyPilot ---------------------------------------------------------------------------------


def test_skypilot_config_validates_against_skypilots_pricing_schema(run, lab):
    result = run("export", lab, "--to", "skypilot")
    assert result.exit_code == 0, result.output
    config = yaml.safe_load(result.output)
    assert list(config) == ["kubernetes"] and list(config["kubernetes"]) == ["pricing"]
    pricing = config["kubernetes"]["pricing"]
    assert _matches(SKYPILOT_SCHEMA, pricing) == []
    # h100-80gb-pcie is "H100" to SkyPilot; 0.25 per GPU-hour; the machine's CPU and memory
    # are in it, so they are 0.
    assert pricing == {"cpu": 0, "memory": 0, "accelerators": {"H100": BOX_PRICE}}


def test_skypilot_config_names_the_option_gpu(run, lab):
    result = run("export", lab, "--to", "skypilot", "--option", "big")
    pricing = yaml.safe_load(result.output)["kubernetes"]["pricing"]
    assert pricing["accelerators"] == {"L4": BIG_PRICE}


@pytest.mark.parametrize(("gpu", "names"), [
    ("h100-80gb", ["H100", "H100-80GB"]),  # SkyPilot's catalog; its Kubernetes name of an SXM
    ("h100-nvl", ["H100-NVL", "H100"]),
    ("a100-80gb-pcie", ["A100-80GB"]),
    ("rtx-4090", ["RTX4090"]),
    ("rtx-a6000", ["A6000"]),
])
def test_skypilot_config_prices_every_name_skypilot_gives_the_gpu(lab, gpu, names):
    result = planner.load(lab).replace({"options.box.own.gpu": gpu}).evaluate()
    pricing = yaml.safe_load(export(result, "skypilot", "box"))["kubernetes"]["pricing"]
    assert _matches(SKYPILOT_SCHEMA, pricing) == []
    assert list(pricing["accelerators"]) == names
    assert set(pricing["accelerators"].values()) == {BOX_PRICE}


def test_the_schema_check_can_fail():
    # The hand check rejects what SkyPilot's schema rejects: a price as text, a negative price,
    # a key the schema does not have.
    good = {"cpu": 0, "memory": 0, "accelerators": {"H100": 0.25}}
    assert _matches(SKYPILOT_SCHEMA, good) == []
    assert _matches(SKYPILOT_SCHEMA, {**good, "accelerators": {"H100": "0.25"}})
    assert _matches(SKYPILOT_SCHEMA, {**good, "accelerators": {"H100": -1}})
    assert _matches(SKYPILOT_SCHEMA, {**good, "gpu": 1})


def test_a_plan_in_another_currency_says_so(lab):
    plan = planner.load(lab).replace({"currency": "EUR"})
    text = export(plan.evaluate(), "skypilot").decode()
    assert "these are EUR" in text
    assert json.loads(export(plan.evaluate(), "opencost"))["currencyCode"] == "EUR"


def test_a_title_on_two_lines_stays_a_comment(lab):
    plan = planner.load(lab).replace({"title": "Lab\naccelerators: oops"})
    config = yaml.safe_load(export(plan.evaluate(), "skypilot"))
    assert list(config) == ["kubernetes"]


# -- output -----------------------------------------------------------------------------------


def test_output_file_is_written_whole(run, lab, tmp_path):
    out = tmp_path / "pricing.json"
    result = run("export", lab, "--to", "opencost", "-o", out)
    assert result.exit_code == 0
    assert json.loads(out.read_text())["GPU"] == "0.25"
    assert run("export", lab, "--to", "opencost", "-o", "-").output == out.read_text()


def test_a_failed_export_leaves_an_existing_file_as_it_was(run, lab, tmp_path):
    out = tmp_path / "pricing.json"
    out.write_text("before")
    result = run("export", lab, "--to", "opencost", "--option", "rent", "-o", out)
    assert result.exit_code == 1
    assert out.read_text() == "before"
    assert set(tmp_path.iterdir()) == {lab, out}  # no temporary file left behind


def test_an_unwritable_output_is_a_user_error(run, lab, tmp_path):
    result = run("export", lab, "--to", "opencost", "-o", tmp_path / "no" / "such" / "x.json")
    assert result.exit_code == 1
    assert "cannot write" in result.output and "Traceback" not in result.output


# -- problems: located, exit 1 ------------------------------------------------------------------


def test_a_cloud_option_is_refused_where_it_is_written(run, lab):
    result = run("export", lab, "--to", "opencost", "--option", "rent")
    assert result.exit_code == 1
    line = _line_of(LAB, "- name: rent")
    assert f"lab.yaml:{line}:" in result.output
    assert "cloud option" in result.output and "Traceback" not in result.output


def test_an_unknown_option_gets_a_suggestion(run, lab):
    result = run("export", lab, "--to", "skypilot", "--option", "bx")
    assert result.exit_code == 1
    assert "no option named 'bx'" in result.output and "did you mean box" in result.output


def test_no_own_option_is_a_user_error(run, tmp_path):
    path = tmp_path / "rent.yaml"
    path.write_text(LAB.split("  - name: box")[0] + "  - name: rent\n    cloud:\n"
                    "      price_per_hour: 5\n")
    result = run("export", path, "--to", "opencost")
    assert result.exit_code == 1
    assert "no own option" in result.output and "rent.yaml:" in result.output


def test_an_infeasible_own_option_is_a_user_error(run, lab):
    # 10,000 GPU-hours a month against 2 × 100 of the box, with no overflow: infeasible.
    plan_text = LAB.replace("gpu_hours_per_month: 100", "gpu_hours_per_month: 10000")
    lab.write_text(plan_text)
    result = run("export", lab, "--to", "opencost", "--option", "box")
    assert result.exit_code == 1
    assert f"lab.yaml:{_line_of(plan_text, '- name: box')}:" in result.output
    assert "infeasible" in result.output
    # Without --option: both own options are infeasible (big: 4 × 100 < 10,000 too); the
    # first is named.
    result = run("export", lab, "--to", "opencost")
    assert result.exit_code == 1 and "'box'" in result.output


def test_zero_machines_is_a_user_error(run, lab):
    # box buys no machine and rents all 100 GPU-hours at 5: present value 12 × 500 = 6,000.
    plan_text = LAB.replace("      power_watts: 0\n  - name: big",
                            "      power_watts: 0\n      machines: 0\n    overflow: rent\n"
                            "  - name: big")
    lab.write_text(plan_text)
    result = run("export", lab, "--to", "opencost", "--option", "box")
    assert result.exit_code == 1
    assert "0 machines" in result.output
    assert f"lab.yaml:{_line_of(plan_text, '- name: box')}:" in result.output
    # Without --option: big (2,400) is the own option with the lowest present value.
    assert json.loads(run("export", lab, "--to", "opencost").output)["GPU"] == "0.5"
    # With big at 96,000 (present value 96,000 − 72,000 = 24,000 > 6,000), box is the own
    # option with the lowest present value, and it has nothing owned to price.
    lab.write_text(plan_text.replace("purchase_price: 9600", "purchase_price: 96000"))
    result = run("export", lab, "--to", "skypilot")
    assert result.exit_code == 1 and "'box'" in result.output and "0 machines" in result.output


@pytest.mark.parametrize(("gpu_line", "said"), [
    ("      gpu: gtx-1080ti\n", "no accelerator name for GPU 'gtx-1080ti'"),
    ("      gpu_memory_gb: 80\n", "names no catalog GPU"),
])
def test_skypilot_needs_a_gpu_it_has_a_name_for(run, lab, gpu_line, said):
    plan_text = LAB.replace("      gpu: h100-80gb-pcie\n", gpu_line)
    lab.write_text(plan_text)
    result = run("export", lab, "--to", "skypilot", "--option", "box")
    assert result.exit_code == 1
    assert said in result.output
    # At own.gpu, or where it is missing: the first key of own:.
    assert f"lab.yaml:{_line_of(plan_text, '- name: box') + 2}:" in result.output
    # OpenCost needs no GPU name.
    assert run("export", lab, "--to", "opencost", "--option", "box").exit_code == 0


def test_wrong_command_line_is_exit_2(run, lab):
    assert run("export", lab).exit_code == 2
    assert run("export", lab, "--to", "kubecost").exit_code == 2
