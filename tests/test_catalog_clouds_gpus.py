"""The catalog's clouds, GPUs and systems: breadth of providers, precision columns, system parts.

Issue 3 ("every source of GPU time"): at least eight cloud providers including one that prices
in CNY, every GPU generation users rent today rentable somewhere, throughput per precision, and
a systems table of the non-GPU parts of owned machines.
"""

from __future__ import annotations

import csv
import importlib.util
import re
import sys
from datetime import date
from importlib.resources import files
from pathlib import Path

import pytest

from pricing.catalog import TABLES, CatalogLookupError, SystemRow, load_catalog, parse_as_of

ROOT = Path(__file__).resolve().parents[1]
BUILD_SCRIPT = ROOT / "pricing" / "tools" / "build_from_reference.py"
CURATED = ROOT / "pricing" / "tools" / "curated"

# GPU generations users rent today; each must be rentable from at least one provider. A tuple
# lists catalog ids any of which will do.
RENTED_GENERATIONS = {
    "T4": ("t4",),
    "L4": ("l4",),
    "A10 / A10G": ("a10", "a10g"),
    "L40S": ("l40s",),
    "V100": ("v100-16gb", "v100-32gb"),
    "A100 40GB": ("a100-40gb",),
    "A100 80GB": ("a100-80gb", "a100-80gb-pcie"),
    "H100": ("h100-80gb", "h100-80gb-pcie", "h100-nvl"),
    "H200": ("h200",),
    "B200": ("b200",),
    "MI300X": ("mi300x",),
    "RTX 4090": ("rtx-4090",),
    "RTX A6000": ("rtx-a6000",),
}
WORKLOADS = ("generic", "cv", "nlp", "llm")
# Rough units of USD per unit of a row's currency, only to hold prices to plausible ranges.
ROUGH_USD = {"USD": 1.0, "CNY": 0.14}
CURRENCY = re.compile(r"^[A-Z]{3}$")


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def _load_build_script():
    spec = importlib.util.spec_from_file_location("build_from_reference", BUILD_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _shipped(filename: str) -> list[dict[str, str]]:
    text = files("pricing.data").joinpath(filename).read_text(encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


# Clouds -------------------------------------------------------------------------------------


def test_at_least_eight_providers(catalog):
    providers = {row["provider"] for row in catalog.rows("clouds")}
    assert len(providers) >= 8, sorted(providers)
    assert {"coreweave", "hyperstack", "nebius", "oci", "tencent", "vast"} <= providers


def test_a_provider_common_in_china_prices_in_cny(catalog):
    by_provider: dict[str, set[str]] = {}
    for row in catalog.rows("clouds"):
        by_provider.setdefault(row["provider"], set()).add(row["currency"])
    assert by_provider["tencent"] == {"CNY"}
    assert all(len(currencies) == 1 for currencies in by_provider.values()), by_provider


def test_a_cny_price_converts_with_the_usage_fx():
    import planner

    usage = {
        "version": 1,
        "fx": {"CNY": 0.14},
        "demand": {"gpu_hours_per_month": 100},
        "options": [{"name": "tencent", "cloud": "tencent/GT4.4XLARGE96"}],
    }
    option = planner.load(usage).evaluate().to_dict()["options"][0]
    assert option["feasible"]
    assert option["monthly_cost"][1] == pytest.approx(100 * 28.64 * 0.14)


@pytest.mark.parametrize("generation", list(RENTED_GENERATIONS))
def test_every_gpu_generation_is_rentable(catalog, generation):
    rented = {row["gpu"] for row in catalog.rows("clouds")}
    assert rented & set(RENTED_GENERATIONS[generation]), generation


def test_new_providers_offer_their_pricing_kinds(catalog):
    rows = catalog.rows("clouds")

    def kinds(provider):
        found = set()
        for row in rows:
            if row["provider"] == provider:
                for kind in ("spot", "reserved_1y", "reserved_3y"):
                    if row[f"{kind}_price_per_hour"] is not None:
                        found.add(kind)
        return found

    assert {"spot"} <= kinds("coreweave")
    assert {"spot"} <= kinds("hyperstack")
    # Nebius's 2026-09-25 price list gives no preemptible price: its refreshed rows have none
    # (a 2025-10 spot price is not carried into a row dated 2026-09-25)
    assert kinds("nebius") == set()
    assert {"spot"} <= kinds("oci")
    assert {"reserved_1y"} <= kinds("tencent")


def test_cloud_rows_are_plausible(catalog):
    gpu_memory = {r["id"]: r["memory_gb"] for r in catalog.rows("gpus")}
    for row in catalog.rows("clouds"):
        where = (row["id"], row["region"])
        usd = ROUGH_USD[row["currency"]]
        assert 0.05 <= row["price_per_hour"] * usd / row["gpus"] <= 25, where
        for key in (
            "spot_price_per_hour",
            "reserved_1y_price_per_hour",
            "reserved_3y_price_per_hour",
        ):
            if row[key] is not None:
                assert 0 < row[key] <= row["price_per_hour"], (where, key)
        assert row["gpus"] in (1, 2, 4, 5, 8, 16), where
        assert row["gpu_memory_gb"] == gpu_memory[row["gpu"]], where
        assert row["billing_increment_minutes"] in (0, 1), where
        if row["storage_per_gb_month"] is not None:
            assert 0.01 <= row["storage_per_gb_month"] * usd <= 0.5, where
        has_spot = row["spot_price_per_hour"] is not None
        assert (row["interruptions_per_hour"] is not None) == has_spot, where
        if has_spot:
            assert 0 < row["interruptions_per_hour"] <= 1, where
        assert row["id"] == f"{row['provider']}/{row['instance']}"


def test_spot_checked_new_cloud_rows(catalog):
    tencent = catalog.cloud("tencent/GT4.4XLARGE96")
    assert (tencent.currency, tencent.gpu, tencent.gpus) == ("CNY", "a100-40gb", 1)
    assert tencent.price_per_hour == pytest.approx(28.64)
    # monthly subscription 12948 CNY (Tencent price overview, scraped 2026-06-15) / 730 h
    assert tencent.reserved_1y_price_per_hour == pytest.approx(12948 / 730, abs=1e-4)
    h200 = catalog.cloud("nebius/gpu-h200-sxm_1gpu-16vcpu-200gb", region="eu-north1")
    # nebius.com/prices, HGX H200 4.50/GPU-hour, as transcribed on 2026-09-25
    assert (h200.price_per_hour, h200.spot_price_per_hour, h200.as_of) == (4.5, None, "2026-09-25")
    h100x8 = catalog.cloud("nebius/gpu-h100-sxm_8gpu-128vcpu-1600gb")
    assert h100x8.price_per_hour == pytest.approx(30.80)  # 3.85/GPU-hour x 8 GPUs = 30.80
    oci = catalog.cloud("oci/BM.GPU.H100.8", region="us-ashburn-1")
    assert (oci.region, oci.price_per_hour, oci.gpus) == ("*", 80, 8)
    coreweave = catalog.cloud("coreweave/HGX-H100-8x")
    assert (coreweave.price_per_hour, coreweave.spot_price_per_hour) == (49.24, 19.71)
    vast = catalog.cloud("vast/1x-RTX_4090-32-65536")
    assert vast.price_per_hour == 0.40 and vast.storage_per_gb_month is None


# GPUs ---------------------------------------------------------------------------------------


def test_gpu_table_keeps_its_rows_and_gains_the_new_columns(catalog):
    names = {c.name for c in TABLES["gpus"]}
    assert {"launch_price", "launch_date"} <= names
    assert {f"throughput_{w}_fp32" for w in WORKLOADS} <= names
    assert len(catalog.ids("gpus")) >= 35


def test_launch_prices_and_dates_are_plausible(catalog):
    dated = 0
    for row in catalog.rows("gpus"):
        if row["launch_price"] is not None:
            assert 300 <= row["launch_price"] <= 100_000, row["id"]
        if row["launch_date"] is not None:
            assert date(2014, 1, 1) <= parse_as_of(row["launch_date"]) <= date(2026, 12, 31)
            dated += 1
    assert dated >= 35
    assert catalog.gpu("rtx-4090").launch_price == 1599
    assert catalog.gpu("rtx-4090").launch_date == "2022-09-20"


def test_fp32_columns_share_the_mixed_precision_unit(catalog):
    a100 = catalog.gpu("a100-80gb").throughput
    assert all(a100[w] == 1 for w in WORKLOADS)
    # The A100's own FP32/TF32 runs, in units of its mixed-precision runs.
    assert all(0.5 <= a100[f"{w}_fp32"] <= 0.8 for w in WORKLOADS)


def test_fp32_is_never_faster_than_mixed_precision(catalog):
    checked = 0
    for gpu_id in catalog.ids("gpus"):
        speeds = catalog.gpu(gpu_id).throughput
        for workload in WORKLOADS:
            if workload in speeds and f"{workload}_fp32" in speeds:
                assert speeds[f"{workload}_fp32"] <= speeds[workload], (gpu_id, workload)
                checked += 1
    assert checked >= 100


def test_tensor_core_gpus_gain_more_from_mixed_precision(catalog):
    def gain(gpu_id):
        speeds = catalog.gpu(gpu_id).throughput
        return speeds["generic"] / speeds["generic_fp32"]

    pascal = gain("gtx-1080ti")  # no tensor cores
    assert 1 < pascal < 1.5
    for gpu_id in ("v100-16gb", "v100-32gb", "quadro-rtx-8000", "rtx-2080ti", "t4"):
        assert gain(gpu_id) >= 1.9, gpu_id  # FP32 on CUDA cores, FP16 on tensor cores
    for gpu_id in ("a100-80gb", "h100-80gb", "rtx-4090", "rtx-a6000", "l40s", "b200"):
        assert gain(gpu_id) > 1.25, gpu_id  # FP32 runs use TF32 tensor cores


def test_every_throughput_column_is_documented_in_the_notes(catalog):
    for row in catalog.rows("gpus"):
        if row["throughput_generic_fp32"] is not None:
            assert "fp32" in row["notes"], row["id"]


def test_relative_speed_in_fp32(catalog):
    mixed = catalog.relative_speed("v100-16gb", "a100-80gb", "generic")
    fp32 = catalog.relative_speed("v100-16gb", "a100-80gb", "generic", precision="fp32")
    assert fp32 == pytest.approx(0.146 / 0.676, rel=0.01)
    assert fp32 < mixed


# Systems ------------------------------------------------------------------------------------


def test_systems_table_loads(catalog):
    ids = catalog.ids("systems")
    assert {
        "workstation-1gpu",
        "workstation-4gpu",
        "server-4gpu",
        "server-8gpu-pcie",
        "server-8gpu-sxm",
    } <= set(ids)
    sxm = catalog.system("SERVER-8GPU-SXM")
    assert isinstance(sxm, SystemRow) and sxm.gpu_slots == 8
    with pytest.raises(CatalogLookupError) as info:
        catalog.system("server-8gpu")
    assert info.value.kind == "system" and "server-8gpu-sxm" in info.value.suggestions


def test_systems_are_plausible(catalog):
    for row in catalog.rows("systems"):
        assert row["gpu_slots"] in (1, 2, 4, 8), row["id"]
        assert 500 <= row["system_price"] <= 100_000, row["id"]
        assert 50 <= row["non_gpu_power_watts"] <= 6000, row["id"]
        assert 10 <= row["idle_power_watts"] < row["non_gpu_power_watts"], row["id"]
        assert "estimate" in row["notes"], row["id"]
    by_id = {row["id"]: row for row in catalog.rows("systems")}
    assert (
        by_id["server-8gpu-sxm"]["non_gpu_power_watts"]
        > by_id["workstation-4gpu"]["non_gpu_power_watts"]
        > by_id["workstation-1gpu"]["non_gpu_power_watts"]
    )


def test_user_systems_file_is_recognised_and_overrides(tmp_path):
    path = tmp_path / "my_systems.csv"
    path.write_text(
        "id,name,gpu_slots,system_price,currency,as_of,source\n"
        "server-8gpu-sxm,My HGX,8,25000,USD,2026-01,https://example.com/quote\n",
        encoding="utf-8",
    )
    catalog = load_catalog([path])
    assert catalog.system("server-8gpu-sxm").system_price == 25000
    assert catalog.system("server-8gpu-sxm").non_gpu_power_watts is None
    assert catalog.system("workstation-1gpu").gpu_slots == 1


# Provenance of every row ----------------------------------------------------------------------


@pytest.mark.parametrize("table", ["gpus", "clouds", "systems"])
def test_every_row_has_currency_date_and_original_source(catalog, table):
    for row in catalog.rows(table):
        assert CURRENCY.match(row["currency"]), row["id"]
        assert date(2014, 1, 1) <= parse_as_of(row["as_of"]) <= date(2027, 12, 31), row["id"]
        sources = row["source"].split("; ")
        assert all(s.startswith("https://") for s in sources), row["id"]
        assert "reference" not in row["source"] and not row["source"].startswith("/")


# The build script ----------------------------------------------------------------------------


def test_build_script_no_longer_generates_free_tiers():
    module = _load_build_script()
    assert not hasattr(module, "FREE_TIERS")
    assert "free_tiers.csv" in (module.__doc__ or "")  # says it is hand-maintained


def test_curated_parts_rebuild_the_shipped_rows():
    """The curated clouds and systems reproduce the shipped rows (no reference folder needed)."""
    module = _load_build_script()
    built = {(r["id"], r["region"]): r for r in module.curated_clouds(CURATED)}
    shipped = {
        (r["id"], r["region"]): r for r in _shipped("clouds.csv") if (r["id"], r["region"]) in built
    }
    assert shipped == built
    assert module.build_systems(CURATED) == _shipped("systems.csv")


def _aws_row(module, instance, region, on_demand, reserved):
    return {"id": f"aws/{instance}", "instance": instance, "region": region,
            "price_per_hour": on_demand, "reserved_1y_price_per_hour": reserved,
            "as_of": "2026-01-21", "notes": module.PROVIDERS["aws"].note + "; row note"}


def test_aws_recheck_dates_a_row_only_when_its_prices_match():
    module = _load_build_script()
    # p4d.24xlarge in us-east-1 on 2026-08-26: 21.957642/h on demand, 13.921094/h for 1 year;
    # the extract's 21.95764 and 13.92109 differ by 2e-6 and 4e-6, inside the 5e-5 tolerance
    same = module.aws_rechecked(_aws_row(module, "p4d.24xlarge", "us-east-1", "21.95764",
                                         "13.92109"))
    assert same["as_of"] == "2026-08-26" and same["price_per_hour"] == "21.95764"
    assert "estimate: not refreshed" not in same["notes"] and same["notes"].endswith("row note")
    # p5.48xlarge has no reserved price in either version
    p5 = module.aws_rechecked(_aws_row(module, "p5.48xlarge", "us-east-1", "55.04", ""))
    assert p5["as_of"] == "2026-08-26" and p5["reserved_1y_price_per_hour"] == ""
    with pytest.raises(SystemExit):  # 21.96 - 21.957642 = 0.002358 > 5e-5: a changed price
        module.aws_rechecked(_aws_row(module, "p4d.24xlarge", "us-east-1", "21.96", "13.92109"))
    with pytest.raises(SystemExit):  # a reserved price the re-check does not list
        module.aws_rechecked(_aws_row(module, "p5.48xlarge", "us-east-1", "55.04", "35.0"))
    unknown = _aws_row(module, "p5.48xlarge", "us-gov-west-1", "66.048", "")
    assert module.aws_rechecked(unknown) == unknown  # a region the re-check does not list


def test_every_shipped_aws_row_is_the_rechecked_price():
    module = _load_build_script()
    for row in _shipped("clouds.csv"):
        if row["provider"] == "aws":
            on_demand, reserved = module.aws_rechecked_prices()[row["instance"]][row["region"]]
            assert float(row["price_per_hour"]) == pytest.approx(on_demand, abs=5e-5)
            if reserved is None:
                assert row["reserved_1y_price_per_hour"] == ""
            else:
                assert float(row["reserved_1y_price_per_hour"]) == pytest.approx(reserved, abs=5e-5)
            assert row["as_of"] == module.AWS_RECHECK_DATE and not row["spot_price_per_hour"]


def test_gpu_labels_follow_the_providers_documentation(catalog):
    """Azure documents NC A100 v4 as A100 80GB PCIe and ND A100 v4 as SXM (NVLink) cards;
    the reference extract labelled NC A100 v4 A100-80GB (corrected in the build script)."""
    rows = _shipped("clouds.csv")
    nc = {r["gpu"] for r in rows if re.fullmatch(r"Standard_NC\d+ads_A100_v4", r["instance"])}
    nd = {r["gpu"] for r in rows if r["instance"] == "Standard_ND96amsr_A100_v4"}
    assert nc == {"a100-80gb-pcie"} and nd == {"a100-80gb"}
    assert catalog.gpu("a100-80gb-pcie").memory_gb == 80
