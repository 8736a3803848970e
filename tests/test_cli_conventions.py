"""Command-line conventions (issue 16): NO_COLOR, help with examples and exit status,
--date as YYYY-MM-DD, shell completion, --open, no PDF on a terminal."""

import datetime
import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from planner.cli import main

USAGE = Path(__file__).resolve().parent.parent / "examples" / "usage.yaml"

#: An SGR escape and its parameters.
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def colours(text: str) -> list[str]:
    """The colour parameters (foreground, background, 256/true colour) in ``text``'s escapes;
    bold, italic, underline and resets are not colours."""
    found = []
    for params in SGR.findall(text):
        for p in params.split(";"):
            if p.isdigit() and (30 <= int(p) <= 49 or 90 <= int(p) <= 107):
                found.append(p)
    return found


def invoke(*args, env=None, color=False, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], env=env, color=color, input=input,
                              catch_exceptions=False)


@pytest.mark.parametrize("args", [
    ("validate", "nope.yaml"),  # click.secho: the error line
    ("report", USAGE, "-o", "{tmp}/r.md"),  # rich's summary table, click's warnings
    ("diff", USAGE, "--set", "site.electricity_per_kwh=0.5"),  # rich's diff tables
    ("sweep", USAGE, "--axis", "demand.gpu=1,2", "-o", "{tmp}/s.csv"),  # a located error
    ("init", "--non-interactive", "--option", "kagle", "-o", "{tmp}/u.yaml"),
])
def test_no_color_leaves_every_colour_out(args, tmp_path):
    args = [str(a).replace("{tmp}", str(tmp_path)) for a in args]
    env = {"FORCE_COLOR": "1", "COLUMNS": "120"}  # colours where a terminal would get them
    coloured = invoke(*args, env=env, color=True)
    assert colours(coloured.stdout + coloured.stderr), "the check must see colours first"
    plain = invoke(*args, env={**env, "NO_COLOR": "1"}, color=True)
    assert plain.exit_code == coloured.exit_code
    assert colours(plain.stdout + plain.stderr) == []


def all_commands():
    out = []

    def walk(group, path):
        for name, command in group.commands.items():
            if command.hidden:
                continue
            out.append((*path, name))
            if isinstance(command, click.Group):
                walk(command, (*path, name))

    walk(main, ())
    return out


@pytest.mark.parametrize("path", all_commands(), ids=" ".join)
def test_every_help_has_an_example_and_the_exit_status(path):
    done = invoke(*path, "--help")
    assert done.exit_code == 0
    assert "Examples:" in done.stdout and f"planner {' '.join(path[:1])}" in done.stdout
    assert "Exit status: 0 success; 1 a problem" in done.stdout


def test_main_help_says_how_to_complete_and_no_color():
    text = invoke("--help").stdout
    assert "_PLANNER_COMPLETE=bash_source planner" in text and "NO_COLOR" in text


@pytest.mark.parametrize("path", [("report",), ("diff",), ("catalog",), ("gpus",)])
def test_date_is_shown_and_read_as_yyyy_mm_dd(path):
    assert "--date YYYY-MM-DD" in invoke(*path, "--help").stdout
    args = {"report": [USAGE, "-o", "-"], "diff": [USAGE, USAGE, "-o", "-"],
            "catalog": ["gpus"], "gpus": []}[path[0]]
    done = invoke(*path, *args, "--date", "30/11/2026")
    assert done.exit_code == 2
    assert "written YYYY-MM-DD" in done.stderr


def test_date_is_printed_as_given(tmp_path):
    out = tmp_path / "r.md"
    assert invoke("report", USAGE, "-o", out, "--date", "2026-11-30").exit_code == 0
    assert "2026-11-30" in out.read_text()
    change = invoke("diff", USAGE, USAGE, "--date", "2026-11-30", "-o", tmp_path / "d.md")
    assert change.exit_code == 0 and "2026-11-30" in (tmp_path / "d.md").read_text()


def complete(words: str) -> list[str]:
    """What bash completion offers for ``words`` (the last word being completed)."""
    parts = words.split(" ")
    done = CliRunner().invoke(main, [], prog_name="planner", env={
        "_PLANNER_COMPLETE": "bash_complete", "COMP_WORDS": words,
        "COMP_CWORD": str(len(parts) - 1)})
    return [line.split(",", 1)[1] for line in done.stdout.splitlines()]


def test_shell_completion_of_choices_and_catalog_ids():
    assert complete("planner rep") == ["report"]
    assert set(complete("planner report usage.yaml --format ")) >= {"pdf", "json", "xlsx"}
    assert complete("planner sweep u --mode ") == ["product", "zip"]
    assert "de" in complete("planner init --region d")
    assert "kaggle" in complete("planner init --option kag")
    assert "free-tiers" in complete("planner catalog fr")


def test_open_opens_the_written_report(tmp_path, monkeypatch):
    opened = []
    monkeypatch.setattr(click, "launch", lambda target, **kw: opened.append(target) or 0)
    out = tmp_path / "r.html"
    done = invoke("report", USAGE, "-o", out, "--open")
    assert done.exit_code == 0, done.output
    assert opened == [str(out)] and out.is_file()
    assert invoke("report", USAGE, "-o", "-", "--open").exit_code == 2
    assert opened == [str(out)]


def test_open_is_not_called_when_the_report_fails(tmp_path, monkeypatch):
    opened = []
    monkeypatch.setattr(click, "launch", lambda target, **kw: opened.append(target) or 0)
    done = invoke("report", USAGE, "-o", tmp_path / "r.md", "--open",
                  "--set", "demand.gpus=0")
    assert done.exit_code == 1 and opened == []


@pytest.mark.parametrize("fmt", ["pdf", "xlsx", "zip"])
def test_no_binary_report_on_a_terminal(fmt, monkeypatch):
    from planner.cli import report

    monkeypatch.setattr(report, "stdout_is_terminal", lambda: True)
    done = invoke("report", USAGE, "--format", fmt, "-o", "-")
    assert done.exit_code == 1
    assert f"refusing to write a {fmt.upper()} to the terminal" in done.stderr
    assert done.stdout == ""
    # Text formats still go to a terminal.
    assert json.loads(invoke("report", USAGE, "-o", "-").stdout)["format_version"] == 1


def test_binary_report_to_a_pipe_is_written(monkeypatch):
    from planner.cli import report

    monkeypatch.setattr(report, "stdout_is_terminal", lambda: False)
    done = invoke("report", USAGE, "--format", "zip", "-o", "-",
                  "--date", datetime.date(2026, 11, 30).isoformat())
    assert done.exit_code == 0
    assert done.stdout_bytes[:2] == b"PK"  # a ZIP archive


@pytest.mark.parametrize("value, plain", [("1", True), ("", False)])
def test_no_color_reaches_the_sweep_progress_bar(monkeypatch, value, plain):
    from planner.evaluate import progress

    monkeypatch.setenv("NO_COLOR", value)
    bar = progress._TerminalBar(10)
    assert bar._progress.console.no_color is plain
    bar.close()
