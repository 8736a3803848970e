"""Limits and safety by construction (issue 5).

- Limits: absurd horizons and option counts, numbers beyond the float range, sweeps too large
  for memory, alias bombs, very large files: each refused quickly, as a user error at its
  position, with a message that names the limit.
- Safety: YAML tags never run code, HTML escapes user text and templates fail on undefined
  values, nothing goes to the network, catalog files are read relative to the usage file and
  only read, and every output is written completely or not at all.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import sys
import textwrap
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
import reports
from builders import usage_plan
from click.testing import CliRunner

import planner
import planner.render
from planner.cli import main
from planner.errors import UserError
from planner.evaluate import sweep as sweep_module
from planner.usage import yaml12
from planner.usage.load import load_usage_text
from planner.usage.vocabulary import MAX_HORIZON_MONTHS, MAX_OPTIONS
from planner.usage.yaml12 import MAX_BYTES, MAX_VALUES

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
DAY = "2025-01-01"

SMALL = usage_plan()


def problems_of(text: str) -> list:
    with pytest.raises(UserError) as caught:
        load_usage_text(textwrap.dedent(text), name="usage.yaml")
    return caught.value.problems


def refused(fn, *args, **kwargs) -> UserError:
    """The user error ``fn(*args, **kwargs)`` raises (how long it takes is bench/limits_bench.py's
    business: timed assertions fail on a busy machine)."""
    with pytest.raises(UserError) as caught:
        fn(*args, **kwargs)
    return caught.value


# -- limits of a plan -------------------------------------------------------------------------


def test_a_horizon_above_the_limit_is_refused_at_its_position():
    found = problems_of(f"""\
        version: 1
        horizon_months: {MAX_HORIZON_MONTHS + 1}
        demand: {{gpu_hours_per_month: 1}}
        options: [{{name: rent, cloud: {{price_per_hour: 1}}}}]
        """)
    assert [(p.path, p.line, p.column) for p in found] == [("horizon_months", 2, 17)]
    assert f"at most {MAX_HORIZON_MONTHS}" in found[0].message
    load_usage_text(f"version: 1\nhorizon_months: {MAX_HORIZON_MONTHS}\ndemand: "
                    "{gpu_hours_per_month: 1}\noptions: [{name: r, cloud: {price_per_hour: 1}}]\n")


def test_more_options_than_the_limit_are_refused_at_the_list():
    entries = "".join(f"  - {{name: o{i}, cloud: {{price_per_hour: 1}}}}\n"
                      for i in range(MAX_OPTIONS + 1))
    found = problems_of("version: 1\ndemand: {gpu_hours_per_month: 1}\noptions:\n" + entries)
    assert [(p.path, p.line) for p in found] == [("options", 4)]
    assert found[0].message == f"at most {MAX_OPTIONS} options are allowed, got {MAX_OPTIONS + 1}"


@pytest.mark.parametrize("key, written", [
    (key, written) for key in ("discount_rate", "horizon_months", "demand.gpus")
    for written in ("1" + "0" * 400, "-1" + "0" * 400, "1e400")
] + [("demand.gpus", "9007199254740993")])  # 2^53 + 1: not exact as a float
def test_numbers_beyond_the_float_range_are_user_errors(written, key):
    """10^400 written as a whole number used to escape as an OverflowError."""
    text = {"discount_rate": f"discount_rate: {written}\ndemand: {{gpu_hours_per_month: 1}}\n",
            "horizon_months": f"horizon_months: {written}\ndemand: {{gpu_hours_per_month: 1}}\n",
            "demand.gpus": f"demand: {{gpu_hours_per_month: 1, gpus: {written}}}\n"}[key]
    found = problems_of("version: 1\n" + text
                        + "options: [{name: r, cloud: {price_per_hour: 1}}]\n")
    assert [p.path for p in found] == [key], found
    assert found[0].line is not None and len(found[0].message) < 200


def test_costs_beyond_the_float_range_are_a_user_error_at_the_option():
    """1e308 is a valid number, but the costs it gives are not: refused at the option, with no
    warning and no infinity in a report."""
    data = json.loads(json.dumps(SMALL))
    data["options"][0]["own"]["purchase_price"] = 1e308
    data["options"][0]["own"]["financing"] = {"annual_rate": 1.0, "months": 18}
    with _no_warnings(), pytest.raises(UserError) as caught:
        planner.load(data).evaluate()
    assert [p.path for p in caught.value.problems] == ["options[0]"]
    assert "too large" in caught.value.problems[0].message


def test_a_sweep_to_costs_beyond_the_float_range_names_its_scenarios():
    plan = planner.load(SMALL)
    with _no_warnings(), pytest.raises(UserError) as caught:
        plan.sweep({"options.box.purchase_price": [1000, 1e308]})
    assert "options.box.purchase_price = 1e+308" in str(caught.value)
    assert "options.box.purchase_price = 1000" not in str(caught.value)


class _no_warnings:
    """Every warning is an error inside (``-W error`` for one block)."""

    def __enter__(self):
        import warnings

        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        warnings.simplefilter("error")

    def __exit__(self, *exc):
        return self._catch.__exit__(*exc)


# -- limits of a sweep ------------------------------------------------------------------------


def test_a_sweep_too_large_is_refused_before_it_allocates():
    plan = planner.load(SMALL)
    tracemalloc.start()
    try:
        err = refused(plan.sweep, {"demand.gpu_hours_per_month": range(10**12),
                                   "site.electricity_per_kwh": range(10)})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 10e6
    assert f"the limit is {sweep_module.MAX_SCENARIOS:,}" in str(err)


def test_a_sweep_whose_result_would_not_fit_in_memory_is_refused():
    plan = planner.load(SMALL)
    side = 4_000  # 16 million scenarios of two options: the frame alone would be 6 GB
    tracemalloc.start()
    try:
        err = refused(plan.sweep, {"demand.gpu_hours_per_month": np.arange(side),
                                   "site.electricity_per_kwh": np.arange(side) / side})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 10e6  # refused before any scenario is evaluated
    message = str(err)
    assert "16,000,000 scenarios × 2 options" in message
    assert f"the limit is {sweep_module.MAX_RESULT_BYTES / 1e9:.0f} GB" in message


@pytest.mark.parametrize("axis", [5, "0.1, 0.2", {"a": 1}])
def test_an_axis_that_is_not_a_list_is_a_user_error(axis):
    with pytest.raises(UserError, match="an axis is a list of values"):
        planner.load(SMALL).sweep({"site.electricity_per_kwh": axis})


def test_sweep_chunks_shrink_with_the_horizon_and_bound_memory(monkeypatch):
    """16,384 scenarios at a time over 1,200 months took 10 GB; chunks are now sized in
    option-months, so the working memory stays a few hundred MB whatever the horizon."""
    data = json.loads(json.dumps(SMALL))
    data["horizon_months"] = MAX_HORIZON_MONTHS
    plan = planner.load(data)
    seen = []
    sweep_columns = sweep_module.sweep_columns

    def spy(spec, start, stop, **kwargs):
        seen.append(stop - start)
        return sweep_columns(spec, start, stop, **kwargs)

    monkeypatch.setattr(sweep_module, "sweep_columns", spy)
    tracemalloc.start()
    try:
        frame = plan.sweep({"demand.gpu_hours_per_month": np.linspace(0, 500, 1500)},
                           break_even=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    largest = sweep_module.CHUNK_CELLS // ((MAX_HORIZON_MONTHS + 1) * 2)
    assert max(seen) == largest and sum(seen) == 1500
    assert len(frame) == 3000
    assert peak < 600e6, f"{peak / 1e6:.0f} MB"


# -- YAML bombs and large files ---------------------------------------------------------------


def _laughs(levels: int = 9) -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join(lines) + f"\nversion: *a{levels - 1}\n"


def _merge_bomb(levels: int = 20) -> str:
    """Each map merges the previous one and holds it twice: 3^20 values from 1 kB."""
    lines = ["m0: &m0 {k: 1}"]
    lines += [f"m{i}: &m{i} {{<<: [*m{i - 1}], x{i}: *m{i - 1}, y{i}: *m{i - 1}}}"
              for i in range(1, levels)]
    return "\n".join(lines) + f"\nversion: *m{levels - 1}\n"


#: Positions looked at per value built, at most, while merged maps take over their keys'
#: positions (about 4.4 for the merge bomb). Copying the whole document's positions per merge,
#: as before, looked at millions per value: the merge bomb took more than ten minutes.
POSITIONS_PER_VALUE = 10


@pytest.mark.parametrize("text", [_laughs(), _merge_bomb()], ids=["billion-laughs", "merges"])
def test_alias_bombs_are_refused_after_bounded_work(text, monkeypatch):
    """Refused once MAX_VALUES values are built, having done work proportional to them: the
    values built and the positions looked at are counted, not timed (bench/limits_bench.py
    times it)."""
    counted = {"values": 0, "positions": 0}
    build, below = yaml12._Builder.build, yaml12._below

    def counting_build(self, *args):
        counted["values"] += 1
        return build(self, *args)

    def counting_below(*args):
        counted["positions"] += 1
        return below(*args)

    monkeypatch.setattr(yaml12._Builder, "build", counting_build)
    monkeypatch.setattr(yaml12, "_below", counting_below)
    with pytest.raises(UserError) as caught:
        load_usage_text(text, name="bomb.yaml")
    assert f"more than {MAX_VALUES} values" in str(caught.value)
    assert "alias" in str(caught.value)
    assert counted["values"] == MAX_VALUES + 1
    assert counted["positions"] <= POSITIONS_PER_VALUE * MAX_VALUES, counted


def test_a_document_of_too_many_values_is_refused_before_it_is_built(monkeypatch):
    text = "version: 1\nx: [" + ",".join(["1"] * 1_000_000) + "]\n"  # 2 MB, under MAX_BYTES
    assert len(text) < MAX_BYTES
    # Building it first took 3 s: the parser's events are counted and nothing is built.
    monkeypatch.setattr(yaml12._Builder, "build",
                        lambda *args: pytest.fail("the document was built"))
    monkeypatch.setattr(yaml12._Loader, "get_single_node",
                        lambda *args: pytest.fail("the document was composed"))
    with pytest.raises(UserError) as caught:
        load_usage_text(text, name="big.yaml")
    assert f"more than {MAX_VALUES} values" in str(caught.value)


def test_a_file_too_large_is_refused_without_being_read(tmp_path, monkeypatch):
    path = tmp_path / "huge.yaml"
    with path.open("wb") as handle:
        handle.truncate(MAX_BYTES * 20)  # 100 MB, sparse
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("the file was read"))
    with pytest.raises(UserError) as caught:
        planner.load(path)
    assert "too large" in str(caught.value) and str(path) in str(caught.value)


@pytest.mark.parametrize("text", ["version: " + "[" * 10_000 + "]" * 10_000,
                                  "version: " + "{a: " * 5_000 + "1" + "}" * 5_000],
                         ids=["lists", "maps"])
def test_deep_nesting_is_a_user_error_with_a_position(text):
    err = refused(load_usage_text, text, name="deep.yaml")
    assert all(p.line is not None for p in err.problems)


# -- safe by construction ---------------------------------------------------------------------


@pytest.mark.parametrize("tag", [
    "!!python/object/apply:os.system [{command!r}]",
    "!!python/object/new:subprocess.check_output [[sh, -c, {command!r}]]",
    "!!python/name:os.system",
    "!!python/object:__main__.Exploit {{cmd: {command!r}}}",
])
def test_python_tags_never_run_code(tmp_path, tag):
    marker = tmp_path / "pwned"
    value = tag.format(command=f"touch {marker}")
    text = (f"version: 1\ntitle: {value}\ndemand: {{gpu_hours_per_month: 1}}\n"
            f"options:\n  - name: r\n    cloud:\n      price_per_hour: {value}\n")
    path = tmp_path / "usage.yaml"
    path.write_text(text)
    with pytest.raises(UserError) as caught:
        planner.load(path)
    assert not marker.exists()
    found = [(p.path, p.line) for p in caught.value.problems]
    assert found == [("title", 2), ("options[0].cloud.price_per_hour", 7)]
    assert all("is not supported" in p.message for p in caught.value.problems)


def test_html_escapes_user_text():
    data = json.loads(json.dumps(SMALL))
    data["title"] = "<b>Lab</b> & <i>co</i>"
    data["options"][1]["name"] = "<script>alert('x')</script>"
    html = planner.render.render(planner.load(data).evaluate(), "html").decode("utf-8")
    assert "<script" not in html.lower() and "<b>Lab</b>" not in html
    assert "&lt;script&gt;" in html and "&lt;b&gt;Lab&lt;/b&gt; &amp;" in html


def test_templates_fail_on_undefined_values():
    import jinja2

    from planner.render.html import environment

    env = environment()
    assert env.undefined is jinja2.StrictUndefined and env.autoescape
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ a_value_nobody_set }}").render()


@pytest.fixture
def no_network(monkeypatch):
    """Any attempt to open a socket or resolve a name fails the test."""
    calls = []

    def refuse(*args, **kwargs):
        calls.append(args)
        raise OSError("network access during a test of the offline contract")

    class Refused(socket.socket):  # a class: ssl subclasses socket.socket when imported
        def __init__(self, *args, **kwargs):
            refuse(*args)

    monkeypatch.setattr(socket, "socket", Refused)
    for name in ("create_connection", "getaddrinfo", "gethostbyname"):
        monkeypatch.setattr(socket, name, refuse)
    return calls


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_reports_need_no_network(no_network, tmp_path, example):
    """Every format through the command line with the network refused; the PDF's layout and
    printing (the seconds of it) are tests/reports.py's shared PDF, made with the network
    refused too."""
    assert reports.pdf(example.stem).startswith(b"%PDF")
    assert [name for name, _ in reports.NETWORK_ATTEMPTS] == []
    runner = CliRunner()
    for fmt in planner.render.FORMATS:
        if fmt == "pdf":
            continue
        out = tmp_path / f"{example.stem}.{fmt}"
        result = runner.invoke(main, ["report", str(example), "-o", str(out), "--format", fmt,
                                      "--date", DAY], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        assert out.stat().st_size > 0
    assert no_network == []


CATALOG = """\
id,provider,instance,region,gpu,gpus,price_per_hour,currency,as_of,source
quote/box,quote,box,here,a100-80gb,1,1.25,USD,2025-01-15,https://example.com/quote
"""


def test_catalog_files_are_read_relative_to_the_usage_file_and_only_read(tmp_path,
                                                                          monkeypatch):
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir()
    elsewhere.mkdir()
    quotes = project / "quotes.csv"
    quotes.write_text(CATALOG)
    (elsewhere / "quotes.csv").write_text("not a catalog\n")  # must not be the one read
    usage = project / "usage.yaml"
    usage.write_text("version: 1\ncatalogs: [quotes.csv]\ndemand: {gpu_hours_per_month: 100}\n"
                     "options:\n  - name: quoted\n    cloud: quote/box\n")
    before = (quotes.read_bytes(), quotes.stat().st_mtime_ns)
    opened = []

    def audit(event, args):
        if event == "open" and args and str(args[0]).endswith("quotes.csv"):
            opened.append((str(args[0]), args[1], args[2]))

    sys.addaudithook(audit)  # stays installed; it only records while `opened` is this list
    monkeypatch.chdir(elsewhere)
    result = CliRunner().invoke(main, ["report", str(usage), "-o", "out.json", "--date", DAY],
                                catch_exceptions=False)
    hooked, opened[:] = list(opened), []
    assert result.exit_code == 0, result.output
    row = json.loads((elsewhere / "out.json").read_text())["options"][0]
    assert row["total_cost"] == pytest.approx(1.25 * 100 * 36)
    assert hooked and {path for path, _, _ in hooked} == {str(quotes)}
    writing = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
    for _, mode, flags in hooked:
        assert mode in (None, "r", "rb", "rt") and not (flags or 0) & writing
    assert (quotes.read_bytes(), quotes.stat().st_mtime_ns) == before


# -- outputs are written completely or not at all ---------------------------------------------

OLD = b"the report of last week\n"


@pytest.fixture
def old_report(tmp_path):
    path = tmp_path / "plan.json"
    path.write_bytes(OLD)
    return path


def _untouched(path: Path) -> None:
    assert path.read_bytes() == OLD
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name], "a temporary file stayed"


def test_a_failed_rendering_leaves_the_existing_report(monkeypatch, old_report):
    result = planner.load(SMALL).evaluate()

    def broken(*args, **kwargs):
        raise RuntimeError("rendering failed")

    monkeypatch.setattr(planner.render, "render", broken)
    with pytest.raises(RuntimeError):
        planner.render.write_report(result, old_report)
    _untouched(old_report)


@pytest.mark.parametrize("where", ["fsync", "replace"])
def test_a_failed_write_leaves_the_existing_report(monkeypatch, old_report, where):
    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    result = planner.load(SMALL).evaluate()
    monkeypatch.setattr(os, where, full)
    with pytest.raises(OSError):
        planner.render.write_report(result, old_report)
    monkeypatch.undo()
    _untouched(old_report)


def test_the_command_line_leaves_the_existing_report_when_it_fails(monkeypatch, tmp_path,
                                                                   old_report):
    usage = tmp_path / "usage.yaml"
    usage.write_text(json.dumps(SMALL))  # JSON is YAML

    def refuse(*args, **kwargs):
        raise UserError.single("refused while rendering")

    monkeypatch.setattr(planner.render, "render", refuse)
    result = CliRunner().invoke(main, ["report", str(usage), "-o", str(old_report)])
    assert result.exit_code == 1 and "refused while rendering" in result.output
    assert "Traceback" not in result.output
    usage.unlink()
    _untouched(old_report)
    # An input error stops the run before anything is written, too.
    usage.write_text("version: 1\nhorizon_months: 0\n")
    result = CliRunner().invoke(main, ["report", str(usage), "-o", str(old_report)])
    assert result.exit_code == 1
    usage.unlink()
    _untouched(old_report)



# -- findings of the coverage-guided fuzzer (fuzz/README.md), each a regression test -----------


def test_an_fx_rate_that_overflows_catalog_prices_is_refused_at_the_options(tmp_path):
    """atheris: fx USD 1e308 turned catalog prices into inf, and 0 × inf into NaN costs."""
    path = tmp_path / "usage.yaml"
    path.write_text(textwrap.dedent("""\
        version: 1
        currency: EUR
        fx: {USD: 1.0e+308}
        demand: {gpu_hours_per_month: 100}
        site: {electricity_per_kwh: 0.2}
        options:
          - name: box
            own: {gpu: h100-80gb}
          - name: inline
            cloud: {price_per_hour: 2}
          - name: catalog
            cloud: gcp/a3-highgpu-8g
        """))
    with _no_warnings(), pytest.raises(UserError) as caught:
        planner.load(path)
    assert [(p.path, p.line) for p in caught.value.problems] == [("options[0]", 7),
                                                                 ("options[2]", 11)]
    assert "fx" in caught.value.problems[0].message


def test_a_lifetime_of_1e308_years_is_forever():
    """atheris: lifetime_years 1e308 overflowed to an infinite number of months."""
    data = json.loads(json.dumps(SMALL))
    data["options"][0]["own"]["lifetime_years"] = 1e308
    with _no_warnings():
        d = planner.load(data).evaluate().to_dict()
    box = d["options"][0]
    assert box["residual_value"] == 1200 and box["total_cost"] == pytest.approx(12 * 10)


def test_a_catalogs_entry_no_file_can_have_is_a_missing_file(tmp_path):
    """atheris: a catalogs: entry longer than a file name may be (or holding a NUL) made
    Path.is_file raise OSError in the checks run with the schema's."""
    path = tmp_path / "usage.yaml"
    path.write_text("version: 1\ncatalogs: [" + "9" * 300 + ", \"a\\0b\"]\n"
                    "demand: {gpu_hours_per_month: 1}\n"
                    "options: [{name: r, cloud: {price_per_hour: 1}}]\n")
    with _no_warnings(), pytest.raises(UserError) as caught:
        planner.load(path)
    assert [p.path for p in caught.value.problems] == ["catalogs[0]", "catalogs[1]"]
    assert all(p.line == 2 for p in caught.value.problems)
