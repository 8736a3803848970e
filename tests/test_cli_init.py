"""``planner init`` (issue 16): a first usage.yaml from flags or answers, that validates and
reports."""

import json

import pytest
import yaml
from click.testing import CliRunner

from planner.cli import main


def invoke(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input,
                              catch_exceptions=False)


def test_non_interactive_then_validate_then_report(tmp_path):
    usage = tmp_path / "usage.yaml"
    done = invoke("init", "--non-interactive", "-o", usage)
    assert done.exit_code == 0, done.output
    assert f"next: planner report {usage}" in done.stdout
    text = usage.read_text()
    assert text.startswith("# Written by planner init")
    assert sum("#" in line for line in text.splitlines()) > 20  # commented, key by key
    assert invoke("validate", usage).exit_code == 0
    report = tmp_path / "usage.md"
    done = invoke("report", usage, "-o", report)
    assert done.exit_code == 0, done.output
    assert report.read_text().startswith("# My GPU plan")
    data = json.loads(invoke("report", usage, "-o", "-").stdout)
    assert [o["kind"] for o in data["options"]] == ["free_tier", "cloud", "own"]


def test_flags_become_the_file(tmp_path):
    usage = tmp_path / "lab.yaml"
    done = invoke("init", "--non-interactive", "-o", usage, "--title", "Lab: 2 GPUs",
                  "--gpus", 2, "--hours-per-week", 15, "--region", "BR", "--fx", "USD=5.5",
                  "--option", "runpod/2x_RTX4090_SECURE", "--option", "rtx-4090",
                  "--reference-gpu", "none")
    assert done.exit_code == 0, done.output
    data = yaml.safe_load(usage.read_text())
    # The file's first comments name it as written (lab.yaml, not usage.yaml).
    assert usage.read_text().startswith(
        "# Written by planner init. Check it with:  planner validate lab.yaml\n"
        "# Then:  planner report lab.yaml ")
    assert data["title"] == "Lab: 2 GPUs"
    assert data["currency"] == "BRL"  # the region's, by default
    assert data["fx"] == {"USD": 5.5}
    # 15 hours a week × 2 GPUs = 30 GPU-hours a week.
    assert data["demand"] == {"gpu_hours_per_week": 30, "gpus": 2}
    assert data["site"] == {"region": "br", "tariff": "household"}  # br: household price only
    cloud, own = data["options"]
    assert cloud == {"name": "runpod-2x_RTX4090_SECURE", "cloud": "runpod/2x_RTX4090_SECURE"}
    assert own["own"] == {"gpu": "rtx-4090", "gpu_count": 2, "system": "workstation-4gpu",
                          "lifetime_years": 4}
    assert invoke("report", usage, "-o", tmp_path / "lab.json").exit_code == 0


def test_refuses_to_overwrite_without_force(tmp_path):
    usage = tmp_path / "usage.yaml"
    usage.write_text("mine\n")
    done = invoke("init", "--non-interactive", "-o", usage)
    assert done.exit_code == 1
    assert "--force" in done.stderr
    assert usage.read_text() == "mine\n"
    assert invoke("init", "--non-interactive", "-o", usage, "--force").exit_code == 0
    assert usage.read_text().startswith("# Written by planner init")


def test_bad_catalog_ids_get_a_did_you_mean(tmp_path):
    usage = tmp_path / "usage.yaml"
    done = invoke("init", "--non-interactive", "-o", usage, "--option", "kagle",
                  "--option", "aws/p4d.24xlarg", "--option", "rtx-4090")
    assert done.exit_code == 1
    assert "--option kagle: 'kagle' is not a catalog id" in done.stderr
    assert "did you mean kaggle" in done.stderr
    assert "did you mean aws/p4d.24xlarge" in done.stderr
    assert not usage.exists()
    done = invoke("init", "--non-interactive", "-o", usage, "--region", "dee")
    assert done.exit_code == 1 and "did you mean de" in done.stderr
    assert not usage.exists()


def test_a_missing_rate_is_asked_for_or_refused(tmp_path):
    usage = tmp_path / "usage.yaml"
    done = invoke("init", "--non-interactive", "-o", usage, "--currency", "EUR")
    assert done.exit_code == 1
    assert "--fx USD=RATE" in done.stderr
    assert not usage.exists()


def test_interactive_answers(tmp_path):
    usage = tmp_path / "usage.yaml"
    # title, GPUs, hours, options (a typo first: asked again), region, currency, fx rate.
    answers = "Thesis\n1\n24\nkagle\nkaggle, rtx-4090\njp\n\n150\n"
    done = invoke("init", "-o", usage, input=answers)
    assert done.exit_code == 0, done.output
    assert "did you mean kaggle" in done.output
    data = yaml.safe_load(usage.read_text())
    assert data["title"] == "Thesis" and data["currency"] == "JPY"
    assert data["fx"] == {"USD": 150}
    assert data["demand"]["gpu_hours_per_week"] == 24
    assert invoke("validate", usage).exit_code == 0


def test_flags_skip_their_questions(tmp_path):
    usage = tmp_path / "usage.yaml"
    done = invoke("init", "-o", usage, "--title", "T", "--gpus", 1, "--hours-per-week", 5,
                  "--option", "kaggle", "--currency", "USD", input="")
    assert done.exit_code == 0, done.output
    assert "?" not in done.stdout and ":" not in done.stdout.split("wrote")[0]


def test_standard_output(tmp_path):
    done = invoke("init", "--non-interactive", "-o", "-")
    assert done.exit_code == 0
    assert yaml.safe_load(done.stdout)["version"] == 1
    assert invoke("validate", "-", input=done.stdout).exit_code == 0


@pytest.mark.parametrize("bad", [["--gpus", "0"], ["--hours-per-week", "-1"],
                                 ["--fx", "USD=-1"], ["--fx", "USD"]])
def test_bad_flags_are_usage_errors(tmp_path, bad):
    done = invoke("init", "--non-interactive", "-o", tmp_path / "u.yaml", *bad)
    assert done.exit_code == 2
    assert not (tmp_path / "u.yaml").exists()


def test_own_electricity_price_in_place_of_a_region(tmp_path):
    usage = tmp_path / "usage.yaml"
    done = invoke("init", "--non-interactive", "-o", usage, "--electricity-per-kwh", 0.25,
                  "--option", "rtx-4090", "--option", "kaggle")
    assert done.exit_code == 0, done.output
    data = yaml.safe_load(usage.read_text())
    assert data["site"] == {"electricity_per_kwh": 0.25}
    assert data["currency"] == "USD"
    result = json.loads(invoke("report", usage, "-o", "-").stdout)
    assert {o["name"] for o in result["options"]} == {"buy-rtx-4090", "kaggle"}


def test_catalog_files_are_written_into_the_file(tmp_path, monkeypatch):
    quotes = tmp_path / "prices" / "quotes.csv"
    quotes.parent.mkdir()
    quotes.write_text("id,provider,instance,region,gpu,gpus,price_per_hour,currency,as_of,"
                      "source\nacme/box,acme,box,eu,a100-80gb,1,0.5,USD,2026-11-01,a quote\n")
    (tmp_path / "plans").mkdir()
    monkeypatch.chdir(tmp_path)
    usage = tmp_path / "plans" / "usage.yaml"
    done = invoke("init", "--non-interactive", "-o", "plans/usage.yaml", "--catalog",
                  "prices/quotes.csv", "--option", "acme/box", "--hours-per-week", 10)
    assert done.exit_code == 0, done.output
    assert yaml.safe_load(usage.read_text())["catalogs"] == ["../prices/quotes.csv"]
    monkeypatch.chdir(tmp_path / "plans")  # the file stands on its own, from anywhere
    result = json.loads(invoke("report", "usage.yaml", "-o", "-").stdout)
    assert result["options"][0]["name"] == "acme-box"
    assert invoke("init", "--non-interactive", "-o", "x.yaml", "--option", "acme/box"
                  ).exit_code == 1  # without the catalog, the id is unknown
