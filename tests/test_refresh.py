"""pricing/tools/refresh.py: provider rows rebuilt from a skypilot-catalog checkout (a miniature
one made of the real excerpts in tests/samples) and the fetchers' files."""

import csv
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = Path(__file__).resolve().parent / "samples"


def _load(name):
    path = ROOT / "pricing" / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


refresh = _load("refresh")


@pytest.fixture
def checkout(tmp_path):
    root = tmp_path / "skypilot-catalog"
    for version, cloud, sample in [("v7", "aws", SAMPLES / "skypilot_aws_vms.csv"),
                                   ("v8", "aws", SAMPLES / "skypilot" / "aws" / "vms.csv"),
                                   ("v8", "nebius", SAMPLES / "skypilot" / "nebius" / "vms.csv"),
                                   ("v8", "gcp", SAMPLES / "skypilot" / "gcp" / "vms.csv")]:
        folder = root / "catalogs" / version / cloud
        folder.mkdir(parents=True)
        shutil.copy(sample, folder / "vms.csv")
    return root


def _rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_newest_catalog_version_is_read(checkout):
    assert refresh.newest_catalog(checkout, "aws").parent.parent.name == "v8"
    assert refresh.newest_catalog(checkout, "oci") is None


def test_refresh_writes_rows_of_the_newest_files_and_lays_fetched_rows_over(checkout, tmp_path,
                                                                            capsys):
    fetched = tmp_path / "aws.csv"
    fetched.write_text(
        "id,provider,instance,region,gpu,gpus,price_per_hour,reserved_1y_price_per_hour,"
        "currency,as_of,source\n"
        "aws/p5.48xlarge,aws,p5.48xlarge,us-east-1,h100-80gb,8,55.04,35.0,USD,2026-11-20,"
        "https://pricing.us-east-1.amazonaws.com\n")
    out = tmp_path / "refreshed.csv"
    code = refresh.main([str(tmp_path), "--skypilot", str(checkout), "--cloud", "aws",
                         "--cloud", "nebius", "--cloud", "gcp", "--cloud", "oci", "--as-of", "2026-11-15",
                         "--fetched", str(fetched), "--refreshed", str(out), "--no-build"])
    assert code == 0
    report = capsys.readouterr().out
    assert "aws: 17 rows from catalogs/v8/aws/vms.csv" in report
    assert "oci: no catalogs/v*/oci/vms.csv in the checkout" in report
    # SkyPilot's a3-highgpu-8g in us-central1 (9.46006 + 33.60609 = 43.06615) is held back
    # against the shipped 88.49 (-51%); us-east4 (87.83247 against 88.49) goes through.
    assert "held back gcp/a3-highgpu-8g us-central1: 88.49 -> 43.0662 (-51%)" in report
    rows = {(r["id"], r["region"]): r for r in _rows(out)}
    p5 = rows["aws/p5.48xlarge", "us-east-1"]
    # The fetched row (on-demand and 1-year reserved) replaces SkyPilot's, and keeps the spot
    # price it lacks (the median zone's, 19.2531) with a note.
    assert (p5["price_per_hour"], p5["reserved_1y_price_per_hour"]) == ("55.04", "35.0")
    assert p5["spot_price_per_hour"] == "19.2531" and p5["as_of"] == "2026-11-20"
    assert "kept from the earlier row (as_of 2026-11-15)" in p5["notes"]
    assert ("gcp/a3-highgpu-8g", "us-central1") not in rows
    assert float(rows["gcp/a3-highgpu-8g", "us-east4"]["price_per_hour"]) == 87.83247
    neb = rows["nebius/gpu-h100-sxm_8gpu-128vcpu-1600gb", "eu-north1"]
    assert neb["as_of"] == "2026-11-15" and neb["price_per_hour"] == "23.6"
    assert neb["notes"].startswith("skypilot-catalog catalogs/v8/nebius/vms.csv")
    assert str(tmp_path) not in out.read_text()


def test_the_date_is_the_checkouts_last_commit(checkout, tmp_path):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org",
               GIT_COMMITTER_DATE="2026-11-28T12:00:00Z", GIT_AUTHOR_DATE="2026-11-28T12:00:00Z")
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "snapshot"]):
        subprocess.run(["git", "-C", str(checkout), *args], check=True, env=env)
    commit, date = refresh.commit_of(checkout)
    assert date == "2026-11-28" and len(commit) >= 7
    out = tmp_path / "refreshed.csv"
    assert refresh.main([str(tmp_path), "--skypilot", str(checkout), "--cloud", "nebius",
                         "--refreshed", str(out), "--no-build"]) == 0
    row = _rows(out)[0]
    assert row["as_of"] == "2026-11-28" and f"at commit {commit}" in row["notes"]


def test_without_a_date_it_stops(checkout, tmp_path):
    with pytest.raises(SystemExit) as stop:
        refresh.main([str(tmp_path), "--skypilot", str(checkout), "--refreshed",
                      str(tmp_path / "x.csv"), "--no-build"])
    assert stop.value.code == 2 and not (tmp_path / "x.csv").exists()


def test_build_lays_refreshed_rows_over_the_built_ones(tmp_path):
    build = _load("build_from_reference")
    built = [{"id": "aws/p4d.24xlarge", "region": "us-east-1", "price_per_hour": "21.95764",
              "reserved_1y_price_per_hour": "13.92109", "as_of": "2026-01-21", "notes": "x"},
             {"id": "aws/p4d.24xlarge", "region": "us-west-2", "price_per_hour": "21.95764",
              "reserved_1y_price_per_hour": "13.92109", "as_of": "2026-01-21", "notes": "x"}]
    refreshed = tmp_path / "refreshed_clouds.csv"
    refreshed.write_text("id,region,price_per_hour,reserved_1y_price_per_hour,as_of,notes\n"
                         "aws/p4d.24xlarge,us-east-1,21.96,,2026-11-15,new\n")
    rows = {r["region"]: r for r in build.refreshed_clouds(built, refreshed)}
    assert rows["us-east-1"]["price_per_hour"] == "21.96"
    assert rows["us-east-1"]["reserved_1y_price_per_hour"] == "13.92109"
    assert rows["us-west-2"] == built[1]
    assert build.refreshed_clouds(built, tmp_path / "missing.csv") == built
