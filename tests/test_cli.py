"""The command line: exit codes, messages, outputs (SPEC §3)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

BAD = """version: 1
horizon_month: 12
demand:
  gpu_hours_per_month: -5
options:
  - name: box
    own: {purchase_price: 1000, power_watts: 100}
"""


def test_help_and_version(run):
    assert run("--help").exit_code == 0
    assert "planner" in run("--version").output


def test_validate_ok(run):
    result = run("validate", EXAMPLES / "usage.yaml")
    assert result.exit_code == 0
    assert "ok" in result.output


def test_validate_reports_every_problem_with_its_place(run, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(BAD)
    result = run("validate", path)
    assert result.exit_code == 1
    out = result.output
    assert "Traceback" not in out
    assert "bad.yaml:2:1" in out and "horizon_months" in out  # unknown key, with suggestion
    assert "bad.yaml:4:" in out and "gpu_hours_per_month" in out  # bad value
    assert "electricity_per_kwh" in out  # rule between keys


def test_missing_file_is_a_user_error(run, tmp_path):
    result = run("validate", tmp_path / "nope.yaml")
    assert result.exit_code == 1
    assert "Traceback" not in result.output


def test_report_json_to_stdout(run):
    result = run("report", EXAMPLES / "usage.yaml", "-o", "-")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["format_version"] == 1
    assert data["cheapest"] in {o["name"] for o in data["options"]}


def test_report_unknown_suffix_is_a_usage_error(run, tmp_path):
    result = run("report", EXAMPLES / "usage.yaml", "-o", tmp_path / "out.docx")
    assert result.exit_code == 2
    assert not (tmp_path / "out.docx").exists()


def test_report_default_name_in_the_current_folder(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("report", EXAMPLES / "usage.yaml", "--format", "md")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "usage.md").read_text().startswith("#")


def test_report_on_bad_input_writes_nothing(run, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(BAD)
    out = tmp_path / "out.json"
    out.write_text("previous")
    result = run("report", path, "-o", out)
    assert result.exit_code == 1
    assert out.read_text() == "previous"


def test_catalog_json_rows_have_dates_and_sources(run):
    result = run("catalog", "clouds", "a100", "--format", "json")
    assert result.exit_code == 0
    rows = json.loads(result.output)
    assert rows and all(r["as_of"] and r["source"] and r["provider"] for r in rows)
    assert all("a100" in json.dumps(r).lower() for r in rows)


def test_catalog_tables(run):
    for table in ("gpus", "clouds", "free-tiers"):
        assert run("catalog", table, "--format", "csv").exit_code == 0
    assert run("catalog", "nonsense").exit_code == 2


def test_schema_is_json(run):
    result = run("schema")
    schema = json.loads(result.output)
    assert "demand" in schema["properties"]


def test_unknown_catalog_ids_are_reported_with_the_schema_problems(run, tmp_path):
    path = tmp_path / "ids.yaml"
    path.write_text("version: 1\nhorizon_month: 12\n"
                    "demand: {gpu_hours_per_month: 5, reference_gpu: a100-80g}\n"
                    "options:\n  - name: c\n    cloud: aws/p4d.24xlarg\n"
                    "  - name: k\n    free_tier: kagle\n")
    result = run("validate", path)
    assert result.exit_code == 1
    out = result.output
    assert "4 problems" in out
    assert "ids.yaml:6:12: options[0].cloud" in out and "'aws/p4d.24xlarge'" in out
    assert "ids.yaml:8:16: options[1].free_tier" in out and "'kaggle'" in out
    assert "'a100-80gb'" in out


def test_catalog_option_overrides_built_in_rows(run, tmp_path):
    # A negotiated price for the example's cloud instance, in a user catalog file.
    import csv

    from pricing.catalog import load_catalog

    row = dict(load_catalog().rows("clouds")[0])
    header = list(row)
    quote = {**{k: row[k] for k in header}, "id": "gcp/a2-highgpu-1g", "provider": "gcp",
             "instance": "a2-highgpu-1g", "region": "us-central1", "gpu": "a100-40gb",
             "gpus": 1, "price_per_hour": 1.0, "spot_price_per_hour": 0.5, "currency": "USD"}
    path = tmp_path / "quotes.csv"
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=header)
        writer.writeheader()
        writer.writerow({k: "" if v is None else v for k, v in quote.items()})
    base = json.loads(run("report", EXAMPLES / "usage.yaml", "-o", "-").output)
    quoted = json.loads(run("report", EXAMPLES / "usage.yaml", "-o", "-",
                            "--catalog", path).output)

    def total(d, name):
        return next(o["total_cost"] for o in d["options"] if o["name"] == name)

    assert total(quoted, "a100-on-demand") < total(base, "a100-on-demand") / 2
    missing = run("validate", EXAMPLES / "usage.yaml", "--catalog", tmp_path / "none.csv")
    assert missing.exit_code == 1 and "catalog file not found" in missing.output


@pytest.mark.parametrize("command", [[], ["report"], ["diff"], ["catalog"]])
def test_help_does_not_import_the_heavy_libraries(command):
    """DESIGN.md: `planner --help` must be quick, so it imports none of the libraries that
    only the work needs (checked in a fresh interpreter); nor does a command's --help."""
    heavy = ("numpy", "pandas", "scipy", "matplotlib", "weasyprint", "pydantic", "jinja2",
             "openpyxl", "babel", "yaml", "dask", "distributed", "rich")
    code = ("import sys\nfrom planner.cli import main\n"
            f"try:\n    main({command + ['--help']!r})\nexcept SystemExit:\n    pass\n"
            f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({heavy!r})))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert "Usage:" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"
