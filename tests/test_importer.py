"""planner catalog: browsing with ages, filters and sorting; importing price lists
(planner catalog import, pricing.importer)."""

import csv
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

import pricing.files
from planner.cli import main
from pricing import importer
from pricing.catalog import CatalogFileError, load_catalog

SAMPLES = Path(__file__).resolve().parent / "samples"
SKYPILOT = SAMPLES / "skypilot_aws_vms.csv"
GPUS = {r["id"]: r for r in load_catalog().rows("gpus")}

# Rows of skypilot-catalog catalogs/v7/aws/vms.csv (commit 27f67dd, GpuInfo shortened):
# Graviton g5g instances carry T4g, an accelerator without a catalog GPU.
T4G = (
    "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,"
    "Region,AvailabilityZone\n"
    "g5g.xlarge,T4g,1.0,4.0,8.0,\"{'Gpus': [{'Name': 'T4g'}]}\",0.42,0.148500,us-east-1,use1-az1\n"
    "g5g.xlarge,T4g,1.0,4.0,8.0,\"{'Gpus': [{'Name': 'T4g'}]}\",0.42,0.146900,us-east-1,use1-az2\n"
    "p3.2xlarge,V100,1.0,8.0,61.0,\"{'Gpus': []}\",3.06,0.613500,us-east-1,use1-az1\n"
)

QUOTES = """\
Provider,Instance Type,region,gpu,gpu_count,price,spot_price,currency,notes
CoreWeave,gd-8xh100ib-i128,us-east-04,H100,8,49.24,,USD,list price
coreweave,cpu-only-box,us-east-04,,,0.5,,USD,
coreweave,gd-1xa100-pcie,,a100-80gb-pcie,1,2.21,,USD,
"""


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args, env=None):
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False, env=env)

    return invoke


def _rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _import_sample(run, tmp_path, name="imported.csv", *extra):
    out = tmp_path / name
    result = run("catalog", "import", SKYPILOT, "--provider", "aws", "--as-of", "2025-06-01",
                 "-o", out, *extra)
    assert result.exit_code == 0, result.output
    return out, result


# --------------------------------------------------------------------------------------------
# Importing the SkyPilot layout


def test_skypilot_sample_folds_zones_into_regions(run, tmp_path):
    out, result = _import_sample(run, tmp_path)
    assert "4 rows, 3 instance types" in result.output
    assert "CPU-only rows (2)" in result.output
    assert "regions without an on-demand price (1)" in result.output  # p5e.48xlarge
    rows = _rows(out)
    assert [(r["id"], r["region"]) for r in rows] == [
        ("aws/g6.12xlarge", "us-east-1"), ("aws/g6.12xlarge", "us-west-2"),
        ("aws/p3.2xlarge", "us-east-1"), ("aws/p5.48xlarge", "us-west-2")]
    cat = load_catalog([out])
    g6 = cat.cloud("aws/g6.12xlarge", region="us-east-1")
    assert (g6.gpu, g6.gpus, g6.price_per_hour) == ("l4", 4, 4.6016)
    # The region's median zone: spot 1.886, 1.907, 2.0183, 2.43 -> lower median 1.907.
    assert g6.spot_price_per_hour == 1.907
    # us-west-2: 1.6908, 1.6942, 1.7719 (one zone without spot) -> 1.6942
    assert cat.cloud("aws/g6.12xlarge", region="us-west-2").spot_price_per_hour == 1.6942
    p3 = cat.cloud("aws/p3.2xlarge", region="us-east-1")
    # spot 0.6135, 0.6868, 0.7354, 0.7504 -> lower median 0.6868
    assert (p3.gpu, p3.spot_price_per_hour, p3.gpu_memory_gb) == ("v100-16gb", 0.6868, 16)
    # Merging is per (id, region): the built-in p5 regions the sample lacks stay.
    p5 = cat.cloud("aws/p5.48xlarge", region="us-west-2")
    assert (p5.gpu, p5.gpus, p5.price_per_hour, p5.region) == ("h100-80gb", 8, 98.32,
                                                                 "us-west-2")
    assert len(cat.cloud_regions("aws/p5.48xlarge")) > 1
    assert all(r.as_of == "2025-06-01" and r.currency == "USD" for r in (g6, p3, p5))
    assert p5.source == importer.SKYPILOT_CATALOG
    # Cells a SkyPilot file lacks come from the built-in catalog's AWS rows, and say so.
    assert (p3.billing_increment_minutes, p3.storage_per_gb_month) == (0, 0.08)
    assert p3.interruptions_per_hour == 0.05
    assert "imported from skypilot_aws_vms.csv" in p3.notes and "estimate" in p3.notes
    assert str(SAMPLES) not in out.read_text()  # no machine paths in the file


def test_imported_file_loads_with_catalog_option_and_catalogs_key(run, tmp_path):
    out, _ = _import_sample(run, tmp_path)
    usage = tmp_path / "usage.yaml"
    usage.write_text("version: 1\nhorizon_months: 12\ncatalogs: [imported.csv]\n"
                     "demand: {gpu_hours_per_month: 100, reference_gpu: v100-16gb}\n"
                     "options:\n  - name: v100-spot\n    cloud: aws/p3.2xlarge\n"
                     "    region: us-east-1\n    pricing: spot\n")
    assert run("validate", usage).exit_code == 0
    report = run("report", usage, "-o", "-")
    assert report.exit_code == 0, report.output
    assert json.loads(report.output)["options"][0]["total_cost"] > 0
    # The built-in catalog has no spot price for this instance: the imported file was used.
    usage.write_text(usage.read_text().replace("catalogs: [imported.csv]\n", ""))
    assert "no spot price" in run("report", usage, "-o", "-").output
    listed = run("catalog", "clouds", "p3.2xlarge", "--catalog", out, "--where",
                 "region=us-east-1", "--format", "json")
    assert [r["spot_price_per_hour"] for r in json.loads(listed.output)] == [0.6868]


def test_provider_from_the_skypilot_folder_and_output_to_stdout(run, tmp_path):
    folder = tmp_path / "catalogs" / "v7" / "aws"
    folder.mkdir(parents=True)
    (folder / "vms.csv").write_text(SKYPILOT.read_text())
    result = run("catalog", "import", folder / "vms.csv", "--as-of", "2025-06", "-o", "-")
    assert result.exit_code == 0, result.output
    assert "4 rows" in result.stderr
    assert {r["provider"] for r in csv.DictReader(result.stdout.splitlines())} == {"aws"}


def test_skypilot_layout_needs_a_date_and_a_provider(run, tmp_path):
    no_date = run("catalog", "import", SKYPILOT, "--provider", "aws", "-o", tmp_path / "x.csv")
    assert no_date.exit_code == 2 and "--as-of" in no_date.output
    no_provider = run("catalog", "import", SKYPILOT, "--as-of", "2025-06", "-o",
                      tmp_path / "x.csv")
    assert no_provider.exit_code == 2 and "--provider" in no_provider.output
    bad_date = run("catalog", "import", SKYPILOT, "--provider", "aws", "--as-of", "June")
    assert bad_date.exit_code == 2
    assert not (tmp_path / "x.csv").exists()


def test_unknown_accelerator_is_an_error_naming_it(run, tmp_path):
    source, out = tmp_path / "t4g.csv", tmp_path / "out.csv"
    source.write_text(T4G)
    args = ("catalog", "import", source, "--provider", "aws", "--as-of", "2025-06", "-o", out)
    result = run(*args)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "t4g.csv:2: unknown accelerator 'T4g' on 2 rows" in result.output
    assert "closest GPU id: t4" in result.output and "--map" in result.output
    assert not out.exists()

    skipped = run(*args, "--skip-unknown")
    assert skipped.exit_code == 0 and "unknown accelerator T4g (2)" in skipped.output
    assert [r["id"] for r in _rows(out)] == ["aws/p3.2xlarge"]

    mapped = run(*args, "--map", "T4g=t4")
    assert mapped.exit_code == 0
    g5g = load_catalog([out]).cloud("aws/g5g.xlarge")
    assert g5g.gpu == "t4" and "T4g counted as t4" in g5g.notes
    wrong = run(*args, "--map", "T4g=t4x")
    assert wrong.exit_code == 1 and "not a GPU id" in wrong.output


def test_skypilot_columns_in_any_order_without_zones():
    # Rows of catalogs/v8/lambda/vms.csv (GpuInfo shortened): another column order, no
    # AvailabilityZone.
    text = ("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,"
            "GpuInfo,SpotPrice\n"
            "cpu_4x_general,,,4.0,16.0,0.2,us-east-1,,\n"
            "gpu_2x_a6000,A6000,2.0,28.0,200.0,2.18,us-east-1,\"{'Gpus': []}\",\n"
            "gpu_2x_a6000,A6000,2.0,28.0,200.0,2.18,us-west-1,\"{'Gpus': []}\",\n")
    result = importer.read_price_list(text, "vms.csv", gpus=GPUS, provider="lambda",
                                      as_of="2025-08")
    assert [(r["id"], r["region"], r["gpu"], r["gpus"], r["price_per_hour"])
            for r in result.rows] == [("lambda/gpu_2x_a6000", "us-east-1", "rtx-a6000", 2, 2.18),
                                      ("lambda/gpu_2x_a6000", "us-west-1", "rtx-a6000", 2, 2.18)]
    assert result.skipped == {"CPU-only rows": 1}


def test_provider_specific_accelerator_names():
    # RunPod's plain A100-80GB is the PCIe card: the first row is from skypilot-catalog
    # catalogs/v8/runpod/vms.csv (GpuInfo left out), the SXM row's prices are made up.
    text = ("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Region,SpotPrice,"
            "Price,AvailabilityZone,GpuInfo\n"
            "1x_A100-80GB_SECURE,A100-80GB,1.0,8.0,117.0,US,1.39,1.39,US-CA-1,\n"
            "1x_A100-80GB-SXM_SECURE,A100-80GB-SXM,1.0,8.0,117.0,US,1.2,1.49,US-CA-1,\n")
    rows = importer.read_price_list(text, "vms.csv", gpus=GPUS, provider="runpod",
                                    as_of="2025-09").rows
    assert {r["id"]: r["gpu"] for r in rows} == {
        "runpod/1x_A100-80GB_SECURE": "a100-80gb-pcie",
        "runpod/1x_A100-80GB-SXM_SECURE": "a100-80gb"}
    plain = next(r for r in rows if r["id"] == "runpod/1x_A100-80GB_SECURE")
    assert plain["spot_price_per_hour"] is None  # not below on-demand
    assert "no spot price below on-demand" in plain["notes"]


def test_a_zero_price_is_no_price_and_conflicting_zones_are_errors():
    header = "InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region\n"
    zero = header + "Standard_NC40ads_H100_v5,H100,1,0,0,eastus\n"
    result = importer.read_price_list(zero, "vms.csv", gpus=GPUS, provider="azure",
                                      as_of="2024-08")
    assert result.rows == [] and result.skipped == {"regions without an on-demand price": 1}
    clash = header + "p3.8xlarge,V100,4,12.24,,us-east-1\np3.8xlarge,V100,8,12.24,,us-east-1\n"
    with pytest.raises(CatalogFileError) as err:
        importer.read_price_list(clash, "vms.csv", gpus=GPUS, provider="aws", as_of="2025-06")
    assert err.value.line == 3 and "on line 2" in err.value.message


# --------------------------------------------------------------------------------------------
# Importing a user's own CSV


def test_user_csv_with_our_columns_and_aliases(run, tmp_path):
    source, out = tmp_path / "quotes.csv", tmp_path / "quotes-catalog.csv"
    source.write_text(QUOTES)
    result = run("catalog", "import", source, "--as-of", "2025-10-01", "--source",
                 "https://www.coreweave.com/pricing", "-o", out)
    assert result.exit_code == 0, result.output
    assert "rows without a GPU (1)" in result.output
    cat = load_catalog([out])
    h100 = cat.cloud("coreweave/gd-8xh100ib-i128")
    assert (h100.provider, h100.gpu, h100.gpus, h100.price_per_hour) == (
        "coreweave", "h100-80gb", 8, 49.24)
    assert h100.as_of == "2025-10-01" and h100.notes.startswith("list price")
    assert cat.cloud("coreweave/gd-1xa100-pcie").region == "*"


def test_user_csv_misspelled_header_suggests_the_column(run, tmp_path):
    source, out = tmp_path / "quotes.csv", tmp_path / "out.csv"
    source.write_text(QUOTES.replace("price,spot_price", "prise_per_hour,spot_price"))
    result = run("catalog", "import", source, "--as-of", "2025-10-01", "--source", "x", "-o",
                 out)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert ("quotes.csv:1: column 'prise_per_hour' is not a clouds column "
            "(did you mean price_per_hour?)") in result.output
    assert "missing required column 'price_per_hour'" not in result.output  # said once
    assert not out.exists()


def test_user_csv_bad_cells_are_reported_with_their_lines(tmp_path):
    text = QUOTES.replace("49.24", "abc").replace("gd-1xa100-pcie,,a100-80gb-pcie,1",
                                                   "gd-1xa100-pcie,,a100-80gb-pcie,0.5")
    with pytest.raises(CatalogFileError) as err:
        importer.read_price_list(text, "quotes.csv", gpus=GPUS, as_of="2025-10", source="x")
    assert err.value.problems == [(2, "price_per_hour must be a number, got 'abc'"),
                                  (4, "gpus must be a whole number, got '0.5'")]
    missing = "provider,instance,gpus,price_per_hour\naws,p3.2xlarge,1,3.06\n"
    with pytest.raises(CatalogFileError) as err:
        importer.read_price_list(missing, "mine.csv", gpus=GPUS)
    messages = " ".join(m for _, m in err.value.problems)
    assert "no currency column" in messages and "--as-of" in messages


# --------------------------------------------------------------------------------------------
# Writing atomically


def test_a_failed_import_leaves_an_existing_file_alone(run, tmp_path, monkeypatch):
    out = tmp_path / "out.csv"
    out.write_text("previous")
    source = tmp_path / "t4g.csv"
    source.write_text(T4G)
    failed = run("catalog", "import", source, "--provider", "aws", "--as-of", "2025-06", "-o",
                 out)
    assert failed.exit_code == 1 and out.read_text() == "previous"

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pricing.files.os, "replace", broken_replace)
    result = run("catalog", "import", SKYPILOT, "--provider", "aws", "--as-of", "2025-06-01",
                 "-o", out)
    assert result.exit_code == 1 and "cannot write" in result.output
    assert "Traceback" not in result.output
    assert out.read_text() == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv", "t4g.csv"]


def test_write_catalog_removes_its_temporary_file_when_the_check_fails(tmp_path):
    out = tmp_path / "out.csv"

    def reject(path):
        assert path.parent == tmp_path and path.read_text() == "new"
        raise ValueError("rejected")

    with pytest.raises(ValueError):
        importer.write_catalog(out, "new", check=reject)
    assert list(tmp_path.iterdir()) == []
    importer.write_catalog(out, "new", check=lambda path: None)
    assert out.read_text() == "new" and list(tmp_path.iterdir()) == [out]


# --------------------------------------------------------------------------------------------
# Browsing


def test_old_catalog_invocations_still_work(run):
    result = run("catalog", "clouds", "a100", "--format", "json")
    assert result.exit_code == 0
    rows = json.loads(result.output)
    assert rows and all(r["id"] and r["as_of"] and r["source"] and r["provider"] for r in rows)
    assert all("a100" in json.dumps(r).lower() for r in rows)
    assert run("catalog", "free_tiers", "--format", "csv").exit_code == 0
    assert run("catalog", "gpus").exit_code == 0
    listing = run("catalog")
    assert listing.exit_code == 0 and "clouds" in listing.output and "gpus" in listing.output
    wrong = run("catalog", "cloudz")
    assert wrong.exit_code == 2 and "did you mean clouds?" in wrong.output


def test_every_row_shows_its_age(run, tmp_path):
    out, _ = _import_sample(run, tmp_path)
    args = ("catalog", "clouds", "p3.2xlarge", "--catalog", out, "--where", "region=us-east-1")
    rows = json.loads(run(*args, "--date", "2025-07-01", "--format", "json").output)
    assert [(r["as_of"], r["age_days"]) for r in rows] == [("2025-06-01", 30)]
    assert list(rows[0])[list(rows[0]).index("as_of") + 1] == "age_days"
    table = run(*args, "--date", "2025-07-01", env={"COLUMNS": "400"})
    assert "age_days" in table.output and " 30 " in table.output
    as_csv = run(*args, "--format", "csv", env={"SOURCE_DATE_EPOCH": str(int(
        datetime(2025, 6, 11, tzinfo=timezone.utc).timestamp()))})
    assert [r["age_days"] for r in csv.DictReader(as_csv.output.splitlines())] == ["10"]
    months = json.loads(run("catalog", "gpus", "--where", "as_of=2025-12", "--date",
                            "2025-12-31", "--format", "json").output)
    assert months and all(r["age_days"] == 30 for r in months)  # YYYY-MM: its first day


def test_where_filters_and_sort(run):
    rows = json.loads(run("catalog", "clouds", "--where", "gpu=H100-80GB", "--where", "gpus=8",
                          "--sort", "-price_per_hour", "--format", "json").output)
    assert rows and all(r["gpu"] == "h100-80gb" and r["gpus"] == 8 for r in rows)
    prices = [r["price_per_hour"] for r in rows]
    assert prices == sorted(prices, reverse=True)
    no_spot = json.loads(run("catalog", "clouds", "--where", "provider=aws", "--where",
                             "spot_price_per_hour=", "--format", "json").output)
    assert no_spot and all(r["spot_price_per_hour"] is None for r in no_spot)
    by_spot = json.loads(run("catalog", "clouds", "--where", "provider=gcp", "--sort",
                             "spot_price_per_hour", "--format", "json").output)
    spots = [r["spot_price_per_hour"] for r in by_spot]
    present = [s for s in spots if s is not None]
    assert present == sorted(present) and spots[:len(present)] == present  # empty last
    unknown = run("catalog", "clouds", "--where", "gpu_typ=t4")
    assert unknown.exit_code == 2 and "did you mean gpu?" in unknown.output
    assert run("catalog", "clouds", "--where", "gpu").exit_code == 2
    assert run("catalog", "clouds", "--sort", "prize").exit_code == 2
    assert run("catalog", "--where", "gpu=t4").exit_code == 2
