"""What the commands share: a user error printed (exit 1), a plan or the catalog loaded, the
``--catalog`` option, the day a report is dated, and a choice read from a heavy module; the
conventions of every command (NO_COLOR, ``-`` for standard input, ``--date`` as YYYY-MM-DD,
the help's examples and exit status).

Heavy libraries are imported inside the functions, so that ``planner --help`` stays fast.
"""

from __future__ import annotations

import datetime as _dt
import os
import sys
from pathlib import Path

import click

from planner.messages import Message, Text

__all__ = ["DAY", "STDIN_PATH", "catalog_option", "console", "date_option", "epilog", "fail",
           "lang_option", "load_plan", "load_what_if", "no_color", "open_catalog",
           "paper_option", "plan_or_error",
           "print_table", "read_stdin", "report_date", "side_name", "stdout_is_terminal",
           "what_if_or_error"]

#: The USAGE argument that means standard input.
STDIN_PATH = "-"


def side_name(path: str) -> Text:
    """How a comparison names the side read from ``path``: the file's name, or "standard
    input" (a message, written in the reader's language) for ``-``."""
    return Message("diff.side_stdin") if path == STDIN_PATH else Path(path).name


#: What every command's help ends with (click keeps lines after ``\b`` as written).
EXIT_STATUS = ("Exit status: 0 success; 1 a problem with the input or files (no traceback); "
               "2 wrong command-line usage (click's).")


def epilog(*examples: str) -> str:
    """A command's help epilog: its examples, one a line, then the exit status."""
    lines = "\n".join(f"  {e}" for e in examples)
    return f"\b\nExamples:\n{lines}\n\n{EXIT_STATUS}"


def no_color() -> bool:
    """Whether NO_COLOR asks for no colour (set and not empty, https://no-color.org)."""
    return bool(os.environ.get("NO_COLOR"))


def console(*, stderr: bool = False, **options):
    """A rich Console for a command's output, without colour when NO_COLOR is set."""
    from rich.console import Console

    return Console(stderr=stderr, no_color=no_color(), **options)


class Day(click.ParamType):
    """A date written YYYY-MM-DD (the ISO form, shown so in help and errors); a ``date``."""

    name = "YYYY-MM-DD"

    def convert(self, value, param, ctx):
        if isinstance(value, _dt.date):
            return value
        try:
            return _dt.date.fromisoformat(str(value).strip())
        except ValueError:
            self.fail(f"{value!r} is not a date written YYYY-MM-DD (for example 2026-11-30)",
                      param, ctx)


DAY = Day()


def fail(err) -> None:
    """Print a user error's problems to standard error and exit with status 1."""
    problems = getattr(err, "problems", None) or [err]
    count = len(problems)
    click.secho(f"error: {count} problem{'s' if count != 1 else ''} found", fg="red", err=True)
    for problem in problems:
        click.echo(f"  {problem}", err=True)
    sys.exit(1)


def read_stdin() -> bytes:
    """Standard input's bytes, at most one more than a usage file may have (the reader then
    says it is too large)."""
    from planner.usage.yaml12 import MAX_BYTES

    return sys.stdin.buffer.read(MAX_BYTES + 1)


def plan_or_error(path: str, catalogs: tuple[str, ...] = ()):
    """The plan of the usage file ``path`` (``-``: standard input, whose relative
    ``catalogs:`` resolve against the current folder), with ``catalogs`` merged; raises
    :class:`planner.errors.UserError`."""
    from planner.evaluate.plan import load, load_text

    if path == STDIN_PATH:
        return load_text(read_stdin(), catalogs)
    return load(path, catalogs)


def load_plan(path: str, catalogs: tuple[str, ...] = ()):
    """:func:`plan_or_error`; a user error exits 1."""
    from planner.errors import UserError

    try:
        return plan_or_error(path, catalogs)
    except UserError as err:
        fail(err)


def what_if_or_error(path: str, catalogs: tuple[str, ...] = (), sets=()):
    """:func:`plan_or_error` with the ``--set`` flags applied: a
    :class:`planner.cli.what_if.WhatIf`; raises :class:`planner.errors.UserError`."""
    from planner.cli.what_if import apply_sets

    return apply_sets(plan_or_error(path, catalogs), sets)


def load_what_if(path: str, catalogs: tuple[str, ...] = (), sets=()):
    """:func:`what_if_or_error`; a user error exits 1."""
    from planner.errors import UserError

    try:
        return what_if_or_error(path, catalogs, sets)
    except UserError as err:
        fail(err)


def open_catalog(files: tuple[str, ...]):
    """The built-in catalog merged with ``files``; a file that cannot be used exits 1."""
    from planner.errors import Problem, UserError
    from pricing.catalog import CatalogFileError
    from pricing.catalog import load_catalog as load

    missing = [f for f in files if not Path(f).is_file()]
    if missing:
        fail(UserError([Problem("catalog file not found", file=f) for f in missing]))
    try:
        return load(files)
    except CatalogFileError as err:
        fail(UserError(file_problems(err)))


def report_date() -> _dt.date:
    """The day a report, a difference or a listing is dated by default."""
    from planner.render import report_date as default_date

    return default_date()


def print_table(make_table) -> None:
    """A table laid out by :mod:`planner.render.catalog_tables` on standard output:
    ``make_table(width)`` fitted to the terminal's width, or ``make_table(None)`` for a pipe
    or a file, printed with every line whole, however wide."""
    from planner.render.catalog_tables import whole_width

    out = console()
    if out.is_terminal:
        out.print(make_table(out.width))
        return
    table = make_table(None)
    console(width=whole_width(table)).print(table)


def date_option(printed_in: str | None = None):
    """The ``--date`` option, read as YYYY-MM-DD into a ``datetime.date`` (None when not
    given: :func:`report_date` applies): the date printed in ``printed_in`` ("the report"),
    else the day the catalog rows' ages are counted to."""
    what = (f"Date printed in {printed_in}" if printed_in is not None
            else "Day the ages are counted to")
    return click.option("--date", "date", type=DAY,
                        help=f"{what} (default: SOURCE_DATE_EPOCH, else today).")


#: The ``--paper`` option of the commands that print a page.
paper_option = click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4",
                            show_default=True,
                            help="Paper size of the PDF (and of the HTML when printed).")


def lang_option(written: str):
    """The ``--lang`` option (en, zh) of a command whose ``written`` texts follow it; the PDF
    and HTML need a CJK font for Chinese."""
    return click.option(
        "--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True,
        help=f"Language of {written}; the PDF and HTML in zh need a font with Chinese glyphs "
             "(fc-list :lang=zh), else they are English and a warning says so.")


catalog_option = click.option(
    "--catalog", "catalogs", multiple=True, type=click.Path(dir_okay=False),
    help="A catalog CSV file merged over the built-in catalog (rows replace those with the "
         "same id); may be given more than once.")



def stdout_is_terminal() -> bool:
    """Whether standard output is a terminal (a PDF is not written there)."""
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


MAX_PROBLEMS = 10
"""Problems of one input file shown one by one; the rest are counted in one line."""


def file_problems(err) -> list:
    """The problems of a :class:`pricing.catalog.CatalogFileError` as Problems: the
    first :data:`MAX_PROBLEMS`, then one line counting the rest (a quoting error can make every
    later record a problem)."""
    from planner.errors import Problem

    problems = [Problem(message, file=err.file, line=line) for line, message in err.problems]
    if len(problems) <= MAX_PROBLEMS:
        return problems
    more = len(problems) - MAX_PROBLEMS
    return problems[:MAX_PROBLEMS] + [Problem(
        f"... and {more:,} more problem{'s' * (more != 1)} ({len(problems):,} in all; the "
        "first ones usually explain the rest)", file=err.file)]
