"""Tests of pricing.catalog and of the shipped catalog files in pricing/data."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from datetime import date
from importlib.resources import files
from pathlib import Path

import pytest

from pricing.catalog import (
    TABLES,
    CatalogFileError,
    CatalogLookupError,
    load_catalog,
    parse_as_of,
)

SHIPPED = {"gpus": "gpus.csv", "clouds": "clouds.csv", "free-tiers": "free_tiers.csv"}


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def shipped_rows(table: str) -> list[dict[str, str]]:
    text = files("pricing.data").joinpath(SHIPPED[table]).read_text(encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text.strip() + "\n", encoding="utf-8")
    return path


# Tiny tables, built inline -------------------------------------------------------------------

GPUS = """
id,name,memory_gb,throughput_generic,throughput_cv,currency,as_of,source
fast,Fast GPU,80,2.0,3.0,USD,2025-01,https://example.com/fast
slow,Slow GPU,16,0.5,,USD,2025-01,https://example.com/slow
blank,Unbenchmarked GPU,24,,,USD,2025-01,https://example.com/blank
"""
CLOUDS = """
id,provider,instance,region,gpu,gpus,price_per_hour,spot_price_per_hour,reserved_1y_price_per_hour,currency,as_of,source
test/box,test,box,b-region,fast,1,2.0,0.9,,USD,2025-01-15,https://example.com/box
test/box,test,box,a-region,fast,1,2.0,,1.5,USD,2025-01-15,https://example.com/box
test/box,test,box,c-region,fast,1,3.0,0.7,,USD,2025-01-15,https://example.com/box
test/anywhere,test,anywhere,*,slow,4,1.0,,,USD,2025-01-15,https://example.com/anywhere
"""


@pytest.fixture
def tiny(tmp_path):
    paths = [write(tmp_path, "g.csv", GPUS), write(tmp_path, "c.csv", CLOUDS)]
    return load_catalog(paths, builtin=False)


# The shipped files --------------------------------------------------------------------------


@pytest.mark.parametrize("table", list(SHIPPED))
def test_shipped_file_has_the_schema_columns_in_order(table):
    text = files("pricing.data").joinpath(SHIPPED[table]).read_text(encoding="utf-8")
    header = next(csv.reader(text.splitlines()))
    assert header == [c.name for c in TABLES[table]]


def test_shipped_files_parse_and_have_rows(catalog):
    assert len(catalog.rows("gpus")) >= 38
    assert len(catalog.rows("clouds")) > 1000
    assert {r["id"] for r in catalog.rows("free-tiers")} >= {
        "kaggle",
        "colab-free",
        "sagemaker-studio-lab",
        "paperspace-free",
    }


def test_every_spec_gpu_and_the_brief_ids_are_present(catalog):
    ids = set(catalog.ids("gpus"))
    assert {
        "t4",
        "l4",
        "a10",
        "a10g",
        "l40",
        "l40s",
        "v100-16gb",
        "v100-32gb",
        "a100-40gb",
        "a100-80gb",
        "a100-80gb-pcie",
        "h100-80gb",
        "h100-80gb-pcie",
        "h100-nvl",
        "h200",
        "b200",
        "mi300x",
        "rtx-4090",
        "rtx-3090",
        "rtx-a6000",
        "rtx-6000-ada",
        "p100",
    } <= ids
    assert all(i == i.lower() for i in ids)


def test_no_duplicate_rows():
    for table in SHIPPED:
        keys = [(r["id"].lower(), r.get("region", "")) for r in shipped_rows(table)]
        assert len(keys) == len(set(keys)), table


def test_dates_parse_and_are_plausible(catalog):
    for table in SHIPPED:
        for row in catalog.rows(table):
            for key in ("as_of", "price_as_of"):
                if row.get(key):
                    assert date(2014, 1, 1) <= parse_as_of(row[key]) <= date(2027, 12, 31), row


def test_every_row_carries_currency_and_an_original_source(catalog):
    for table in SHIPPED:
        for row in catalog.rows(table):
            assert re.fullmatch(r"[A-Z]{3}", row["currency"]), row["id"]
            assert all(s.startswith("https://") for s in row["source"].split("; ")), row["id"]
            assert "reference" not in row["source"]


def test_every_gpu_an_instance_or_tier_names_exists(catalog):
    ids = set(catalog.ids("gpus"))
    for table in ("clouds", "free-tiers"):
        for row in catalog.rows(table):
            assert row["gpu"] in ids, row["id"]


def test_gpu_specs_are_plausible(catalog):
    for row in catalog.rows("gpus"):
        checks = {
            "memory_gb": (4, 300),
            "memory_bandwidth_gb_per_s": (100, 10000),
            "tdp_watts": (50, 1500),
            "peak_fp16_tflops": (10, 5000),
            "peak_fp32_tflops": (1, 200),
            "street_price": (300, 100000),
        }
        for key, (low, high) in checks.items():
            if row[key] is not None:
                assert low <= row[key] <= high, (row["id"], key, row[key])
        if row["street_price"] is not None:
            assert row["price_as_of"] and "estimate" in row["notes"]
        for key in ("throughput_generic", "throughput_cv", "throughput_nlp", "throughput_llm"):
            if row[key] is not None:
                assert 0.05 <= row[key] <= 5, (row["id"], key)


#: Rough USD value of one unit of each catalog currency, only to check plausible ranges.
ROUGH_USD = {"USD": 1.0, "CNY": 0.14, "EUR": 1.08}


def test_cloud_prices_are_plausible(catalog):
    gpu_memory = {r["id"]: r["memory_gb"] for r in catalog.rows("gpus")}
    for row in catalog.rows("clouds"):
        usd = ROUGH_USD[row["currency"]]
        per_gpu = row["price_per_hour"] * usd / row["gpus"]
        assert 0.05 <= per_gpu <= 20, (row["id"], row["region"])
        for key in (
            "spot_price_per_hour",
            "reserved_1y_price_per_hour",
            "reserved_3y_price_per_hour",
        ):
            if row[key] is not None:
                assert 0 < row[key] <= row["price_per_hour"], (row["id"], row["region"], key)
        if row["reserved_1y_price_per_hour"] and row["reserved_3y_price_per_hour"]:
            assert row["reserved_3y_price_per_hour"] <= row["reserved_1y_price_per_hour"]
        assert row["gpus"] in (1, 2, 4, 8, 16)
        assert row["gpu_memory_gb"] == gpu_memory[row["gpu"]], row["id"]
        assert row["billing_increment_minutes"] in (0, 1)
        if row["storage_per_gb_month"] is not None:  # some marketplaces publish none
            assert 0.01 <= row["storage_per_gb_month"] * usd <= 0.5, row["id"]
        has_spot = row["spot_price_per_hour"] is not None
        assert (row["interruptions_per_hour"] is not None) == has_spot
        assert row["id"] == f"{row['provider']}/{row['instance']}"
        assert re.fullmatch(r"[a-z]+", row["provider"]), row["id"]


def test_free_tiers_are_plausible(catalog):
    for row in catalog.rows("free-tiers"):
        assert 0 < row["availability"] <= 1
        assert 0 < row["session_hours"] <= 24
        assert 0 <= row["fee_per_month"] <= 100  # free tiers and cheap subscriptions
        assert isinstance(row["files_persist"], bool)
        for key in ("weekly_quota_hours", "daily_quota_hours", "monthly_quota_hours"):
            assert row[key] is None or 0 < row[key] <= 744
        assert "estimate" in row["notes"]


# Hand spot-checks against the original sources (listed in pricing/CATALOG.md) ---------------


@pytest.mark.parametrize(
    ("cloud_id", "region", "on_demand", "spot", "reserved_1y"),
    [
        ("aws/p4d.24xlarge", "us-east-1", 21.95764, None, 13.92109),
        ("aws/p5.48xlarge", "us-east-1", 55.04, None, None),
        ("gcp/a2-highgpu-1g", "us-central1", 3.67339, 1.92802, 2.31421),
        ("azure/Standard_NC96ads_A100_v4", "westus3", 14.692, 1.61612, None),
        # runpod.io/pricing secure A100 PCIe 1.79/GPU-h, as transcribed on 2026-11-09 (and by
        # RunPod's API on 2026-10-19); no dated spot price, so none
        ("runpod/1x_A100-80GB_SECURE", "*", 1.79, None, None),
        ("lambda/gpu_1x_h100_sxm5", "*", 4.29, None, None),
    ],
)
def test_spot_checked_cloud_rows(catalog, cloud_id, region, on_demand, spot, reserved_1y):
    row = catalog.cloud(cloud_id, region)
    assert row.region == region
    assert row.price_per_hour == pytest.approx(on_demand)
    assert row.spot_price_per_hour == (pytest.approx(spot) if spot else None)
    assert row.reserved_1y_price_per_hour == (pytest.approx(reserved_1y) if reserved_1y else None)


def test_spot_checked_gpu_and_tier_rows(catalog):
    p4d = catalog.cloud("aws/p4d.24xlarge", "us-east-1")
    assert (p4d.gpu, p4d.gpus, p4d.gpu_memory_gb) == ("a100-40gb", 8, 40)
    h100 = catalog.gpu("h100-80gb")
    assert h100.throughput["generic"] == pytest.approx(1.674)
    # aiinframap's "mid-2026 typical" H100 price, newer than Lambda's 2024-07-24 $36,718.75
    assert (h100.street_price, h100.price_as_of) == (pytest.approx(30000), "2026-06")
    # a new PNY RTX A6000 at $5,790 on Newegg, checked 2026-07-14; Lambda's 2024 figure was $4,437.50
    a6000 = catalog.gpu("rtx-a6000")
    assert (a6000.street_price, a6000.price_as_of) == (pytest.approx(5790), "2026-07-14")
    mixed = {k: v for k, v in catalog.gpu("a100-80gb").throughput.items() if "_" not in k}
    assert mixed == {"generic": 1, "cv": 1, "nlp": 1, "llm": 1}
    kaggle = catalog.free_tier("kaggle")
    assert (kaggle.gpu, kaggle.gpus, kaggle.session_hours, kaggle.weekly_quota_hours) == (
        "t4",
        2,
        12,
        30,
    )


# GPUs users rent and buy most: street price and throughput ----------------------------------

# Plausible ranges, wide enough for any honest estimate, narrow enough to catch a unit or
# column slip (a price in thousands, a throughput relative to the wrong GPU).
STREET_PRICE_RANGES = {
    "t4": (500, 4000),
    "l4": (1000, 5000),
    "l40s": (5000, 15000),
    "h100-nvl": (15000, 50000),
    "h200": (20000, 60000),
}
GENERIC_THROUGHPUT_RANGES = {  # x a100-80gb
    "t4": (0.05, 0.3),
    "l4": (0.08, 0.45),
    "a10g": (0.2, 0.5),
    "l40s": (0.35, 1.0),
    "h200": (1.6, 2.5),
    "mi300x": (0.9, 2.5),
}


@pytest.mark.parametrize("gpu_id", sorted(STREET_PRICE_RANGES))
def test_popular_gpus_have_a_dated_sourced_street_price(catalog, gpu_id):
    gpu = catalog.gpu(gpu_id)
    low, high = STREET_PRICE_RANGES[gpu_id]
    assert gpu.street_price is not None and low <= gpu.street_price <= high
    row = next(r for r in catalog.rows("gpus") if r["id"] == gpu_id)
    assert row["price_as_of"] and parse_as_of(row["price_as_of"]) <= date(2027, 12, 31)
    assert "street_price:" in row["notes"] and "estimate" in row["notes"]


@pytest.mark.parametrize("gpu_id", sorted(GENERIC_THROUGHPUT_RANGES))
def test_popular_gpus_have_a_generic_throughput(catalog, gpu_id):
    gpu = catalog.gpu(gpu_id)
    low, high = GENERIC_THROUGHPUT_RANGES[gpu_id]
    assert low <= gpu.throughput["generic"] <= high
    for workload, value in gpu.throughput.items():
        assert 0.3 <= value / gpu.throughput["generic"] <= 3, (gpu_id, workload)
    row = next(r for r in catalog.rows("gpus") if r["id"] == gpu_id)
    # None of them has a Lambda row: every figure is a derived estimate that says how.
    assert "throughput: estimate" in row["notes"]
    assert "https://github.com/lambdal/deeplearning-benchmark" in row["source"].split("; ")


def test_popular_gpu_throughputs_keep_their_known_order(catalog):
    generic = {g: catalog.gpu(g).throughput["generic"] for g in GENERIC_THROUGHPUT_RANGES}
    generic |= {g: catalog.gpu(g).throughput["generic"] for g in ("a10", "h100-80gb")}
    # T4 < L4 < A10 ~ A10G < L40S < H100 < H200: newer, bigger or better-fed parts are faster.
    assert generic["t4"] < generic["l4"] < generic["a10"] < generic["l40s"]
    assert generic["a10g"] == pytest.approx(generic["a10"], rel=0.05)
    assert generic["l40s"] < generic["h100-80gb"] < generic["h200"]
    # MLPerf: MI300X a little behind H100 on Llama 2 70B LoRA, well behind H200.
    assert 0.8 * generic["h100-80gb"] < generic["mi300x"] < generic["h200"]
    # The MI300X figure comes from an LLM benchmark only: no vision column.
    assert "cv" not in catalog.gpu("mi300x").throughput


def test_mlperf_derived_rows_cite_the_result_logs(catalog):
    rows = {r["id"]: r for r in catalog.rows("gpus")}
    v40 = "https://github.com/mlcommons/training_results_v4.0"
    v50 = "https://github.com/mlcommons/training_results_v5.0"
    assert v40 in rows["h200"]["source"].split("; ")
    assert {v40, v50} <= set(rows["mi300x"]["source"].split("; "))
    # as_of is never newer than the oldest data a row uses (MLPerf v4.0: 2024-06-12).
    assert parse_as_of(rows["h200"]["as_of"]) <= date(2024, 6, 12)


# Lookups ------------------------------------------------------------------------------------


def test_lookups_are_case_insensitive(catalog):
    assert catalog.gpu("A100-80GB").id == "a100-80gb"
    assert catalog.cloud("AWS/P4D.24XLARGE", "US-EAST-1").region == "us-east-1"
    assert catalog.cloud("azure/standard_nc24ads_a100_v4").id == "azure/Standard_NC24ads_A100_v4"
    assert catalog.free_tier("Kaggle").id == "kaggle"


def test_unknown_ids_suggest_close_matches(catalog):
    with pytest.raises(CatalogLookupError) as info:
        catalog.cloud("aws/p4d.24xlarg")
    assert info.value.kind == "cloud"
    assert info.value.key == "aws/p4d.24xlarg"
    assert "aws/p4d.24xlarge" in info.value.suggestions
    assert "did you mean" in str(info.value)
    with pytest.raises(CatalogLookupError) as info:
        catalog.gpu("a100-80g")
    assert info.value.kind == "gpu" and "a100-80gb" in info.value.suggestions
    with pytest.raises(CatalogLookupError) as info:
        catalog.free_tier("colab")
    assert info.value.kind == "free_tier" and "colab-free" in info.value.suggestions
    assert len(info.value.suggestions) <= 3
    with pytest.raises(LookupError):
        catalog.cloud_regions("nosuch/cloud")


def test_unknown_region_lists_close_regions(catalog):
    with pytest.raises(CatalogLookupError) as info:
        catalog.cloud("aws/p4d.24xlarge", region="us-est-1")
    assert info.value.kind == "region"
    assert "us-east-1" in info.value.suggestions


def test_cheapest_region_per_pricing(tiny):
    assert [r.region for r in tiny.cloud_regions("test/box")] == [
        "a-region",
        "b-region",
        "c-region",
    ]
    assert tiny.cloud("test/box").region == "a-region"  # tie at 2.0 -> alphabetical
    assert tiny.cloud("test/box", pricing="spot").region == "c-region"
    assert tiny.cloud("test/box", pricing="reserved_1y").region == "a-region"
    # No region has a 3-year price: the cheapest on-demand row, for the caller to report.
    row = tiny.cloud("test/box", pricing="reserved_3y")
    assert row.region == "a-region" and row.reserved_3y_price_per_hour is None
    assert row.price("on_demand") == 2.0
    with pytest.raises(ValueError):
        tiny.cloud("test/box", pricing="preemptible")


def test_explicit_region_and_any_region_rows(tiny):
    assert tiny.cloud("test/box", region="c-region").price_per_hour == 3.0
    assert tiny.cloud("test/anywhere", region="eu-north-1").region == "*"
    assert tiny.cloud("test/anywhere").gpus == 4


def test_relative_speed_falls_back_to_generic(tiny, catalog):
    assert tiny.relative_speed("fast", "slow", "generic") == pytest.approx(4.0)
    # "slow" has no cv number: both fall back to generic.
    assert tiny.relative_speed("fast", "slow", "cv") == pytest.approx(4.0)
    assert tiny.relative_speed("fast", "fast", "cv") == pytest.approx(1.0)
    assert tiny.relative_speed("fast", "slow", "no-such-workload") == pytest.approx(4.0)
    assert tiny.relative_speed("blank", "fast", "generic") is None
    assert tiny.relative_speed("fast", "blank", "cv") is None
    assert catalog.relative_speed("h100-80gb", "a100-80gb", "cv") == pytest.approx(1.68)
    assert catalog.relative_speed("p100", "a100-80gb", "generic") is None


def test_rows_are_plain_json_ready_dicts(catalog):
    for table in ("gpus", "clouds", "free-tiers", "free_tiers"):
        rows = catalog.rows(table)
        json.dumps(rows)
        assert all(r["id"] and r["as_of"] and r["source"] for r in rows)
    assert all(r["provider"] and r["region"] for r in catalog.rows("clouds"))
    with pytest.raises(ValueError):
        catalog.rows("instances")


# User files ---------------------------------------------------------------------------------


def test_user_file_overrides_builtin_rows_by_id(tmp_path):
    clouds = write(
        tmp_path,
        "my_clouds.csv",
        """
id,provider,instance,region,gpu,gpus,price_per_hour,currency,as_of,source
aws/p4d.24xlarge,aws,p4d.24xlarge,us-east-1,a100-40gb,8,10.0,USD,2026-10-01,my quote
mycloud/big,mycloud,big,,h100-80gb,8,16.0,USD,2026-10-01,my quote
""",
    )
    gpus = write(
        tmp_path,
        "my_gpus.csv",
        """
id,name,street_price,price_as_of,throughput_generic,currency,as_of,source
H100-80GB,NVIDIA H100 SXM5 80GB,25000,2026-10,1.7,USD,2026-10,my quote
""",
    )
    merged = load_catalog([clouds, gpus])
    # Merging is per (id, region): the user's row replaces us-east-1 only, keeps its reserved
    # prices (the user row leaves them empty), and the other regions stay (issue 15).
    regions = {r.region: r for r in merged.cloud_regions("aws/p4d.24xlarge")}
    builtin = {r.region: r for r in load_catalog().cloud_regions("aws/p4d.24xlarge")}
    assert set(regions) == set(builtin) and regions["us-east-1"].price_per_hour == 10.0
    assert regions["us-east-1"].reserved_1y_price_per_hour == \
        builtin["us-east-1"].reserved_1y_price_per_hour
    assert regions["ap-south-1"] == builtin["ap-south-1"]
    assert merged.cloud("mycloud/big").region == "*"
    assert len(merged.cloud_regions("aws/p5.48xlarge")) > 1
    h100 = merged.gpu("h100-80gb")
    assert h100.street_price == 25000 and h100.memory_gb is None
    assert h100.throughput == {"generic": 1.7}
    # The built-in catalog is untouched.
    assert len(load_catalog().cloud_regions("aws/p4d.24xlarge")) > 1


def test_later_user_files_win(tmp_path):
    header = "id,name,provider,gpu,gpus,weekly_quota_hours,currency,as_of,source\n"
    first = write(tmp_path, "a.csv", header + "kaggle,Kaggle,Kaggle,t4,2,20,USD,2026-01,x")
    second = write(tmp_path, "b.csv", header + "kaggle,Kaggle,Kaggle,t4,2,25,USD,2026-02,y")
    assert load_catalog([first, second]).free_tier("kaggle").weekly_quota_hours == 25


def test_bad_number_reports_file_and_line(tmp_path):
    path = write(
        tmp_path,
        "bad.csv",
        """
id,provider,instance,region,gpus,price_per_hour,currency,as_of,source
x/one,x,one,r1,1,1.5,USD,2026-01,s
x/two,x,two,r1,1,cheap,USD,2026-01,s
x/three,x,three,r1,0,1.0,USD,2026-13,s
""",
    )
    with pytest.raises(CatalogFileError) as info:
        load_catalog([path])
    err = info.value
    assert err.file == str(path) and err.line == 3
    assert "price_per_hour must be a number" in err.message
    assert [line for line, _ in err.problems] == [3, 4, 4]
    assert f"{path}:4:" in str(err)
    assert isinstance(err, ValueError)


CLOUD_HEADER = "id,provider,instance,gpus,price_per_hour,currency,as_of,source\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "id,provider,instance,gpus,price_per_hr,currency,as_of,source\nx/y,x,y,1,1,USD,2026-01,s",
            "did you mean price_per_hour?",
        ),
        (
            "id,provider,instance,gpus,currency,as_of,source\nx/y,x,y,1,USD,2026-01,s",
            "missing required column 'price_per_hour'",
        ),
        (
            "id,provider,instance,gpus,price_per_hour,currency,as_of,source\nx/y,x,z,1,1,USD,2026-01,s",
            "id must be provider/instance",
        ),
        (
            CLOUD_HEADER.replace("gpus", "gpu,gpus") + "x/y,x,y,a100-80gbb,1,1,USD,2026-01,s",
            "did you mean a100-80gb?",
        ),
        (
            CLOUD_HEADER + "x/y,x,y,1,1,USD,2026-01,s\nx/y,x,y,1,2,USD,2026-01,s",
            "duplicate id and region",
        ),
        ("id,currency,as_of,source\nx,USD,2026-01,s", "cannot tell whether"),
        (
            "id,name,availability,currency,as_of,source\nt,T,1.5,USD,2026-01,s",
            "availability must be in (0, 1]",
        ),
        ("", "empty"),
    ],
)
def test_bad_user_files_are_user_errors(tmp_path, text, expected):
    path = tmp_path / "user.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CatalogFileError) as info:
        load_catalog([path])
    assert expected in str(info.value)


def test_missing_user_file(tmp_path):
    with pytest.raises(CatalogFileError) as info:
        load_catalog([tmp_path / "nope.csv"])
    assert info.value.line is None and "cannot read" in info.value.message


def test_catalog_is_not_read_at_import_time_and_is_cached():
    code = (
        "import pricing.catalog as c; before = c._builtin_tables.cache_info().currsize; "
        "c.load_catalog(); c.load_catalog(); info = c._builtin_tables.cache_info(); "
        "print(before, info.currsize, info.misses)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "1", "1"]
    assert load_catalog() is load_catalog()


def test_catalog_md_documents_every_column():
    text = (Path(__file__).parents[1] / "pricing" / "CATALOG.md").read_text(encoding="utf-8")
    for columns in TABLES.values():
        for column in columns:
            assert f"`{column.name}`" in text, column.name


def test_pricing_does_not_import_planner():
    code = "import sys, pricing.catalog; print('planner' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_regions_tariff_dates_are_checked(tmp_path):
    """household_as_of / business_as_of date a price the row has and are not older than the
    row's as_of (the older of the two prices' dates); a valid one dates that tariff only."""
    path = write(
        tmp_path,
        "regions.csv",
        """
id,name,electricity_household_per_kwh,electricity_business_per_kwh,currency,as_of,source,household_as_of,business_as_of
xa,Older,0.3,0.2,EUR,2026-05,s,2026-01,
xb,Priceless,0.3,,EUR,2026-05,s,,2026-09
xc,Fine,0.3,0.2,EUR,2026-05,s,2026-10,
""",
    )
    with pytest.raises(CatalogFileError) as info:
        load_catalog([path])
    assert [line for line, _ in info.value.problems] == [2, 3]
    messages = [message for _, message in info.value.problems]
    assert "household_as_of 2026-01 is older than as_of 2026-05" in messages[0]
    assert "business_as_of 2026-09 dates no price" in messages[1]
    fine = write(tmp_path, "fine.csv", "\n".join(
        path.read_text().splitlines()[:1] + path.read_text().splitlines()[3:]))
    row = load_catalog([fine]).region("xc")
    assert (row.as_of, row.price_as_of("household"), row.price_as_of("business")) == (
        "2026-05", "2026-10", "2026-05")
