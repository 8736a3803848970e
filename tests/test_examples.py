"""The bundled examples: golden JSON results, validation, PDF reports, the sweep script.

Golden files live in ``tests/golden/<example>.json``. After a deliberate change of the model or
of an example, rewrite them and review the diff:

    python -m pytest tests/test_examples.py --update-golden
"""

from __future__ import annotations

import io
import json
import math
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
import reports
from click.testing import CliRunner

import planner
from planner.cli import main
from planner.render import fmt, fonts, render

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
GOLDEN = Path(__file__).resolve().parent / "golden"
SWEEP_SCRIPT = ROOT / "examples" / "sweep.py"
DATE = reports.EXAMPLE_DATE.isoformat()
#: Golden numbers must agree to this relative tolerance (and to this absolute one near zero).
REL_TOL = 1e-9
ABS_TOL = 1e-9

example_ids = [path.stem for path in EXAMPLES]


def _cli(*args) -> tuple[int, bytes]:
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.stdout_bytes


def _differences(actual, expected, path: str = "$") -> list[str]:
    """Where two parsed JSON values differ; numbers compared to REL_TOL."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = [f"{path}: key {key!r} {'missing' if key in expected else 'unexpected'}"
               for key in sorted(set(expected) ^ set(actual))]
        for key in expected:
            if key in actual:
                out += _differences(actual[key], expected[key], f"{path}.{key}")
        return out
    if isinstance(expected, list) and isinstance(actual, list):
        if len(actual) != len(expected):
            return [f"{path}: {len(actual)} items, golden has {len(expected)}"]
        out = []
        for i, (a, e) in enumerate(zip(actual, expected)):
            out += _differences(a, e, f"{path}[{i}]")
        return out
    numbers = (int, float)
    if (isinstance(actual, numbers) and isinstance(expected, numbers)
            and not isinstance(actual, bool) and not isinstance(expected, bool)):
        if math.isclose(actual, expected, rel_tol=REL_TOL, abs_tol=ABS_TOL):
            return []
    elif actual == expected and type(actual) is type(expected):
        return []
    return [f"{path}: {actual!r}, golden has {expected!r}"]


def test_differences_helper():
    assert _differences({"a": [1.0, None, "x"]}, {"a": [1.0 + 1e-12, None, "x"]}) == []
    assert _differences({"a": 1.0}, {"a": 1.001}) == ["$.a: 1.0, golden has 1.001"]
    assert _differences({"a": True}, {"a": 1}) == ["$.a: True, golden has 1"]
    assert _differences({"a": 1}, {"b": 1}) == ["$: key 'a' unexpected", "$: key 'b' missing"]


# -- golden JSON -----------------------------------------------------------------------------


@pytest.mark.parametrize("example", EXAMPLES, ids=example_ids)
def test_json_result_matches_golden(example, update_golden):
    # Dated like the reports: the JSON's warnings say how old the prices are on that day.
    code, output = _cli("report", example, "--format", "json", "-o", "-", "--date", DATE)
    assert code == 0
    actual = json.loads(output)
    golden = GOLDEN / f"{example.stem}.json"
    if update_golden:
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(json.dumps(actual, indent=2, ensure_ascii=False) + "\n",
                          encoding="utf-8")
        return
    if not golden.is_file():
        pytest.fail(f"no golden file {golden.name}: run "
                    "`python -m pytest tests/test_examples.py --update-golden` and review it")
    expected = json.loads(golden.read_text(encoding="utf-8"))
    differences = _differences(actual, expected)
    assert not differences, (
        f"{example.name} differs from {golden.name} in {len(differences)} place(s):\n  "
        + "\n  ".join(differences[:20])
        + "\nIf the change is intended, rerun with --update-golden and review the diff.")


def test_every_golden_file_has_an_example():
    stems = {path.stem for path in EXAMPLES}
    orphans = sorted(p.name for p in GOLDEN.glob("*.json") if p.stem not in stems)
    assert not orphans, f"golden files without an example: {orphans}"


# -- validation and reports ------------------------------------------------------------------


@pytest.mark.parametrize("example", EXAMPLES, ids=example_ids)
def test_example_validates(example):
    code, output = _cli("validate", example)
    assert code == 0, output.decode()


def test_the_command_line_writes_the_shared_pdf_report(tmp_path):
    """``planner report`` writes the bytes of tests/reports.py's PDF, which the other checks
    of the examples' PDFs read (the command line's path differs from an example to the next
    in nothing but the file)."""
    out = tmp_path / "usage.pdf"
    code, output = _cli("report", ROOT / "examples" / "usage.yaml", "-o", out, "--date", DATE)
    assert code == 0, output.decode()
    assert out.read_bytes() == reports.pdf("usage")


@pytest.mark.parametrize("example", EXAMPLES, ids=example_ids)
def test_pdf_report_states_the_answer(example):
    pypdf = pytest.importorskip("pypdf")
    reader = pypdf.PdfReader(io.BytesIO(reports.pdf(example.stem)))
    text = " ".join(" ".join(page.extract_text() for page in reader.pages).split())
    data = planner.load(example).evaluate().to_dict()
    if fonts.uncovered(data["title"]):  # cn-lab without a Chinese font: its title is boxes
        pytest.skip("no installed font has the title's characters (fc-list :lang=zh)")
    cheapest = next(o for o in data["options"] if o["name"] == data["cheapest"])
    assert len(reader.pages) >= 3
    assert data["title"] in text
    assert cheapest["name"] in text
    assert fmt.money(cheapest["total_cost"], data["currency"], decimals=0) in text


@pytest.mark.parametrize("example", EXAMPLES, ids=example_ids)
def test_html_report_is_reproducible(example):
    """A fresh evaluation and render gives the shared report's HTML (tests/reports.py)."""
    again = render(planner.load(example).evaluate(), "html", date=reports.EXAMPLE_DATE)
    assert again.decode("utf-8") == reports.html(example.stem)


# -- the sweep script ------------------------------------------------------------------------


def test_sweep_script_prints_the_break_even_table(tmp_path):
    script = runpy.run_path(str(SWEEP_SCRIPT))  # its axes, without running main()
    prices, levels = script["ELECTRICITY"], script["DEMAND"]
    # From another folder: the script finds usage.yaml beside itself.
    done = subprocess.run([sys.executable, str(SWEEP_SCRIPT)], cwd=tmp_path,
                          capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Months until workstation pays off against a100-spot")
    header = lines[1].split()
    assert header[0] == "USD/kWh"
    assert [float(p) for p in header[1:]] == pytest.approx(prices)
    rows = [line.split() for line in lines[3:]]
    assert len(rows) == len(levels)
    horizon = planner.load(ROOT / "examples" / "usage.yaml").usage["horizon_months"]
    for row, level in zip(rows, levels):
        assert float(row[0].replace(",", "")) == level
        assert len(row) == 1 + len(prices)
        for cell in row[1:]:
            assert cell == "never" or 0 <= float(cell) <= horizon


# -- the examples of issue 10: the decision, stated truly -----------------------------------


def test_the_phd_example_names_the_option_that_does_the_work():
    assert {"phd-germany", "startup-growth"} <= set(example_ids)
    result = planner.load(ROOT / "examples" / "phd-germany.yaml").evaluate()
    assert result.cheapest == "runpod-4090"
    assert result.same_as_cheapest == ["kaggle"]
    assert result.headline_pair == ("desktop", "runpod-4090")
    kaggle = next(o for o in result.to_dict()["options"] if o["name"] == "kaggle")
    assert kaggle["served_share"] == 0 and kaggle["job_wait_days"] is None


def test_the_startup_example_says_its_servers_mostly_rent():
    from planner.render import content

    result = planner.load(ROOT / "examples" / "startup-growth.yaml").evaluate()
    servers = next(o for o in result.to_dict()["options"] if o["name"] == "two-h100-servers")
    assert servers["served_share"] < 0.5 and servers["first_unmet_month"] == 10
    assert any("too few for the demand" in w for w in servers["warnings"])
    assert result.headline_pair == ("two-h100-servers", "h100-reserved-1y")
    assert "from month 10, h100-on-demand serves the other 66%" in content.decision_notes(result)
