"""What-ifs on the command line (issue 16): --set, planner sweep, --compare-to,
validate --format json, and '-' as standard input."""

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

import planner
from planner.cli import main
from planner.cli.what_if import axis_values

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
USAGE = EXAMPLES / "usage.yaml"


@pytest.fixture
def cli():
    """``cli(*args, input=None, env=None)``: the command line in-process, stdout and stderr
    apart; bugs keep their traceback."""
    runner = CliRunner()

    def invoke(*args, input=None, env=None):
        return runner.invoke(main, [str(a) for a in args], input=input, env=env,
                             catch_exceptions=False)

    return invoke


def report_json(cli, *args, input=None):
    done = cli("report", *args, "-o", "-", input=input)
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


# -- --set -----------------------------------------------------------------------------------

def test_set_equals_plan_replace(cli):
    data = report_json(cli, USAGE, "--set", "site.electricity_per_kwh=0.3",
                       "--set", "options.workstation.purchase_price=20000")
    expected = planner.load(USAGE).replace({"site.electricity_per_kwh": 0.3,
                                            "options.workstation.purchase_price": 20000})
    assert data["options"] == expected.evaluate().to_dict()["options"]
    assert data != report_json(cli, USAGE)  # the change changed something


def test_set_reads_yaml_scalars(cli):
    # 'spot' is text, 1e3 a number (YAML 1.2), a flow map a map.
    data = report_json(cli, USAGE, "--set", "options.a100-on-demand.pricing=spot",
                       "--set", "demand.gpu_hours_per_month=1e3")
    same = report_json(cli, USAGE, "--set", "options.a100-on-demand.pricing=spot",
                       "--set", "demand.gpu_hours_per_month=1000")
    assert data["options"] == same["options"]
    row = {o["name"]: o for o in data["options"]}
    assert row["a100-on-demand"]["total_cost"] == pytest.approx(row["a100-spot"]["total_cost"],
                                                                rel=0.2)


def test_set_twice_takes_the_last_value(cli):
    assert report_json(cli, USAGE, "--set", "demand.gpus=2", "--set", "demand.gpus=1") == \
        report_json(cli, USAGE)


def test_set_unknown_path_is_located_at_the_flag_with_a_suggestion(cli, tmp_path):
    out = tmp_path / "out.json"
    done = cli("report", USAGE, "--set", "site.electricty_per_kwh=0.2", "-o", out)
    assert done.exit_code == 1
    assert "Traceback" not in done.output
    assert "--set site.electricty_per_kwh=0.2:" in done.stderr
    assert "did you mean electricity_per_kwh" in done.stderr
    assert not out.exists()


def test_set_bad_value_is_located_at_the_flag(cli):
    done = cli("validate", USAGE, "--set", "options.workstation.resale_fraction=2")
    assert done.exit_code == 1
    assert "--set options.workstation.resale_fraction=2: options[0].own.resale_fraction: " \
           "must be at most 1, got 2" in done.stderr


def test_set_without_equals_is_a_usage_error(cli):
    done = cli("report", USAGE, "--set", "demand.gpus", "-o", "-")
    assert done.exit_code == 2
    assert "KEY=VALUE" in done.stderr


def test_set_on_validate_and_diff(cli):
    assert cli("validate", USAGE, "--set", "demand.gpus=1").exit_code == 0
    done = cli("diff", USAGE, "--set", "site.electricity_per_kwh=0.5", "-o", "-")
    assert done.exit_code == 0, done.output
    change = json.loads(done.stdout)
    assert change["inputs"] == [{"path": "site.electricity_per_kwh", "old": 0.16, "new": 0.5}]
    # A --set changes NEW: the same file on both sides with the change equals the change alone.
    both = json.loads(cli("diff", USAGE, USAGE, "--set", "site.electricity_per_kwh=0.5",
                          "-o", "-").stdout)
    assert both["inputs"] == change["inputs"]
    assert cli("diff", USAGE).exit_code == 2  # neither NEW nor --set


def test_the_sides_are_named_in_the_readers_language(cli):
    """A --set side and standard input are named by messages: in English in the JSON, in the
    reader's language in the summary and the Markdown; a file's own name stays as it is."""
    edit = ("--set", "site.electricity_per_kwh=0.5")
    done = cli("diff", USAGE, *edit, "-o", "-")
    assert json.loads(done.stdout)["new"]["name"] == "usage.yaml with --set"
    summary = cli("diff", USAGE, *edit, "--lang", "zh").stdout
    assert "usage.yaml → usage.yaml（经 --set 修改）" in summary and "with --set" not in summary
    text = USAGE.read_text()
    markdown = cli("diff", "-", USAGE, *edit, "--format", "md", "-o", "-", "--lang", "zh",
                   input=text).stdout
    assert "标准输入 → usage.yaml（经 --set 修改）" in markdown
    english = cli("diff", "-", USAGE, "--format", "md", "-o", "-", input=text).stdout
    assert "standard input → usage.yaml" in english


def test_a_side_name_is_never_markup(cli, tmp_path):
    """A file called "[red]old.yaml" is printed as its name in the summary, not taken as rich
    markup (which would drop the brackets)."""
    odd = tmp_path / "[red]old.yaml"
    odd.write_text(USAGE.read_text())
    done = cli("diff", odd, USAGE)
    assert done.exit_code == 0, done.output
    assert "[red]old.yaml → usage.yaml" in done.stdout


# -- planner sweep -----------------------------------------------------------------------------

def test_range_is_inclusive_and_decimal():
    # 0.1, 0.15, …, 0.4: (0.4 − 0.1) / 0.05 + 1 = 7 values, each as written in decimal.
    assert axis_values("0.1:0.4:0.05") == [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4]
    assert axis_values("1:8:3") == [1, 4, 7]  # 10 > 8: stops at 7
    assert axis_values("200,400,800") == [200, 400, 800]
    assert axis_values("on_demand,spot") == ["on_demand", "spot"]
    assert axis_values("10:0:-5") == [10, 5, 0]
    assert axis_values("0.5") == [0.5]


@given(st.integers(-1000, 1000), st.integers(1, 50), st.integers(0, 200))
def test_range_reaches_stop_when_the_steps_do(start, step, count):
    values = axis_values(f"{start}:{start + count * step}:{step}")
    assert len(values) == count + 1
    assert values[0] == start and values[-1] == start + count * step


@pytest.mark.parametrize("spec", ["0.1:0.4:0", "0.4:0.1:0.05", "a:b:c", "0:1e9:1e-3"])
def test_bad_range_is_a_usage_error(cli, spec, tmp_path):
    done = cli("sweep", USAGE, "--axis", f"site.electricity_per_kwh={spec}", "-o",
               tmp_path / "s.csv")
    assert done.exit_code == 2
    assert not (tmp_path / "s.csv").exists()


def test_sweep_csv_equals_the_evaluations_it_replaces(cli, tmp_path):
    out = tmp_path / "sweep.csv"
    done = cli("sweep", USAGE, "--axis", "site.electricity_per_kwh=0.1:0.3:0.1",
               "--axis", "demand.gpu_hours_per_month=200,800", "-o", out)
    assert done.exit_code == 0, done.output
    assert f"wrote {out}" in done.stdout
    assert "6 scenarios × 4 options" in done.stdout  # 3 prices × 2 demands
    frame = pd.read_csv(out)
    assert len(frame) == 6 * 4
    for price in (0.1, 0.2, 0.3):
        for hours in (200, 800):
            single = report_json(cli, USAGE, "--set", f"site.electricity_per_kwh={price}",
                                 "--set", f"demand.gpu_hours_per_month={hours}")
            rows = frame[(frame["site.electricity_per_kwh"].round(9) == price)
                         & (frame["demand.gpu_hours_per_month"] == hours)]
            by_name = rows.set_index("option")
            for option in single["options"]:
                assert by_name.loc[option["name"], "present_value"] == pytest.approx(
                    option["present_value"], rel=1e-9)
            assert set(rows["cheapest"]) == {single["cheapest"]}


def test_sweep_xlsx_and_parquet(cli, tmp_path):
    for name in ("s.xlsx", "s.parquet"):
        done = cli("sweep", USAGE, "--axis", "demand.gpus=1,2", "-o", tmp_path / name)
        assert done.exit_code == 0, done.output
    xlsx = pd.read_excel(tmp_path / "s.xlsx", sheet_name="sweep")
    parquet = pd.read_parquet(tmp_path / "s.parquet")
    assert len(xlsx) == len(parquet) == 2 * 4
    assert list(xlsx["option"]) == list(parquet["option"].astype(str))


def test_sweep_parquet_without_pyarrow_says_so(cli, tmp_path, monkeypatch):
    from planner.render import sweep_file

    monkeypatch.setattr(sweep_file, "has_parquet", lambda: False)
    done = cli("sweep", USAGE, "--axis", "demand.gpus=1,2", "-o", tmp_path / "s.parquet")
    assert done.exit_code == 1
    assert "needs pyarrow" in done.stderr
    assert not (tmp_path / "s.parquet").exists()


def test_sweep_unknown_axis_and_invalid_scenario_are_located(cli, tmp_path):
    done = cli("sweep", USAGE, "--axis", "site.electricty_per_kwh=0.1,0.2", "-o",
               tmp_path / "s.csv")
    assert done.exit_code == 1
    assert "--axis site.electricty_per_kwh=0.1,0.2:" in done.stderr
    assert "did you mean electricity_per_kwh" in done.stderr
    done = cli("sweep", USAGE, "--axis", "site.electricity_per_kwh=-1,0.2", "-o",
               tmp_path / "s.csv")
    assert done.exit_code == 1
    assert "--axis site.electricity_per_kwh=-1,0.2:" in done.stderr
    assert not (tmp_path / "s.csv").exists()


def test_sweep_needs_a_known_suffix_and_an_axis(cli, tmp_path):
    assert cli("sweep", USAGE, "--axis", "demand.gpus=1", "-o", tmp_path / "s.txt"
               ).exit_code == 2
    assert cli("sweep", USAGE, "-o", tmp_path / "s.csv").exit_code == 2


def test_sweep_zip_mode_and_stdout(cli):
    done = cli("sweep", USAGE, "--axis", "demand.gpus=1,2", "--axis",
               "site.electricity_per_kwh=0.1,0.2", "--mode", "zip", "-o", "-")
    assert done.exit_code == 0, done.output
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("scenario,demand.gpus,site.electricity_per_kwh,option")
    assert len(lines) == 1 + 2 * 4  # zip: two scenarios, not four
    mismatched = cli("sweep", USAGE, "--axis", "demand.gpus=1,2", "--axis",
                     "site.electricity_per_kwh=0.1", "--mode", "zip", "-o", "-")
    assert mismatched.exit_code == 2


# -- standard input ---------------------------------------------------------------------------

def test_usage_from_standard_input(cli, tmp_path, monkeypatch):
    text = USAGE.read_text()
    assert report_json(cli, "-", input=text) == report_json(cli, USAGE)
    done = cli("validate", "-", input=text)
    assert done.exit_code == 0 and done.stdout == "<stdin>: ok\n"
    assert json.loads(cli("validate", "-", "--format", "json", input=text).stdout)["file"] == \
        "<stdin>"
    done = cli("sweep", "-", "--axis", "demand.gpus=1,2", "-o", "-", input=text)
    assert done.exit_code == 0, done.output
    done = cli("diff", "-", USAGE, "-o", "-", input=text)
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["inputs"] == []
    assert cli("diff", "-", "-", input=text).exit_code == 2
    monkeypatch.chdir(tmp_path)  # without -o: plan.<format> here
    assert cli("report", "-", "--format", "md", input=text).exit_code == 0
    assert (tmp_path / "plan.md").is_file()


def test_standard_input_problems_name_stdin(cli):
    done = cli("validate", "-", input="version: 1\nhorizon_month: 12\n")
    assert done.exit_code == 1
    assert "<stdin>:2:1" in done.stderr


def test_standard_input_catalogs_resolve_against_the_current_folder(cli, tmp_path,
                                                                      monkeypatch):
    (tmp_path / "quotes.csv").write_text(
        "id,provider,instance,region,gpu,gpus,price_per_hour,currency,as_of,source\n"
        "acme/box,acme,box,eu,a100-80gb,1,0.5,USD,2026-11-01,a quote\n")
    text = ("version: 1\ncatalogs: [quotes.csv]\ndemand: {gpu_hours_per_month: 100}\n"
            "options:\n  - name: acme\n    cloud: acme/box\n")
    monkeypatch.chdir(tmp_path)
    data = report_json(cli, "-", input=text)
    # 100 GPU-hours a month × 36 months × 0.5 USD an hour = 1800 USD.
    assert data["options"][0]["total_cost"] == pytest.approx(1800)
    assert data["title"] == "plan"


# -- --compare-to ----------------------------------------------------------------------------

def test_compare_to_a_saved_result(cli, tmp_path):
    saved = tmp_path / "old.json"
    assert cli("report", USAGE, "-o", saved).exit_code == 0
    done = cli("report", USAGE, "--set", "options.workstation.system_price=17000",
               "--compare-to", saved, "-o", tmp_path / "new.md")
    assert done.exit_code == 0, done.output
    out = done.stdout
    assert "old.json → usage.yaml" in out
    # The system price rose by 10,000 USD; the workstation's total rises by as much and more
    # (replacements and resale follow the price); the cloud options do not move.
    old = json.loads(saved.read_text())
    new = report_json(cli, USAGE, "--set", "options.workstation.system_price=17000")
    moved = {o["name"]: n["total_cost"] - o["total_cost"]
             for o, n in zip(old["options"], new["options"])}
    assert moved["a100-on-demand"] == 0 and moved["workstation"] > 0
    assert f"+${moved['workstation']:,.0f}" in out


def test_compare_to_with_standard_output_prints_the_change_on_stderr(cli, tmp_path):
    saved = tmp_path / "old.json"
    assert cli("report", USAGE, "-o", saved).exit_code == 0
    done = cli("report", USAGE, "--compare-to", saved, "-o", "-")
    assert done.exit_code == 0
    json.loads(done.stdout)  # the report alone
    assert "The cheapest option stays" in done.stderr


@pytest.mark.parametrize("content, says", [
    ("{not json", "not JSON"), ("[1, 2]", "not a saved result"),
    (('{"format_version": 2, "title": "t", "currency": "USD", "horizon_months": 1, '
     '"options": [], "cheapest": null}'), "format_version 2 is not 1")])
def test_compare_to_a_bad_file_is_a_user_error(cli, tmp_path, content, says):
    saved = tmp_path / "old.json"
    saved.write_text(content)
    out = tmp_path / "new.md"
    done = cli("report", USAGE, "--compare-to", saved, "-o", out)
    assert done.exit_code == 1
    assert says in done.stderr and "old.json" in done.stderr
    assert not out.exists()
    assert cli("report", USAGE, "--compare-to", tmp_path / "nope.json", "-o", out
               ).exit_code == 1


# -- validate --format json ------------------------------------------------------------------

def test_validate_json_ok(cli):
    done = cli("validate", USAGE, "--format", "json")
    assert done.exit_code == 0
    data = json.loads(done.stdout)
    assert data["ok"] is True and data["problems"] == [] and data["file"] == str(USAGE)
    assert isinstance(data["warnings"], list)


def test_validate_json_problems_are_located(cli, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\nhorizon_month: 12\ndemand:\n  gpu_hours_per_month: -5\n"
                   "options:\n  - name: box\n    own: {purchase_price: 1000, power_watts: 100}\n")
    done = cli("validate", bad, "--format", "json")
    assert done.exit_code == 1
    data = json.loads(done.stdout)
    assert data["ok"] is False
    assert all(set(p) == {"file", "line", "column", "key", "message", "suggestion"}
               for p in data["problems"])
    unknown = next(p for p in data["problems"] if p["key"] == "horizon_month")
    assert (unknown["file"], unknown["line"], unknown["column"]) == (str(bad), 2, 1)
    assert unknown["suggestion"] == "horizon_months"
    assert any(p["key"] == "demand.gpu_hours_per_month" and p["line"] == 4
               for p in data["problems"])


def test_validate_json_with_a_bad_set(cli):
    done = cli("validate", USAGE, "--format", "json", "--set", "demand.gpu=2")
    assert done.exit_code == 1
    problem = json.loads(done.stdout)["problems"][0]
    assert problem["file"] == "--set demand.gpu=2" and problem["suggestion"] == "gpus"


def test_sweep_progress_bar_on_request(cli, tmp_path):
    shown = cli("sweep", USAGE, "--axis", "demand.gpus=1,2", "-o", tmp_path / "s.csv",
                "--progress")
    assert shown.exit_code == 0
    assert "sweep" in shown.stderr and "2/2 scenarios" in shown.stderr
    quiet = cli("sweep", USAGE, "--axis", "demand.gpus=1,2", "-o", tmp_path / "s.csv",
                "--no-progress")
    assert quiet.exit_code == 0 and "scenarios" not in quiet.stderr
