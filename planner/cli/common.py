"""What the commands share: a user error printed (exit 1), a plan or the catalog loaded, the
``--catalog`` option, the day a report is dated, and a choice read from a heavy module.

Heavy libraries are imported inside the functions, so that ``planner --help`` stays fast.
"""

from __future__ import annotations

import datetime as _dt
import sys
from pathlib import Path

import click

__all__ = ["catalog_option", "fail", "load_plan", "open_catalog", "report_date"]


def fail(err) -> None:
    """Print a user error's problems to standard error and exit with status 1."""
    problems = getattr(err, "problems", None) or [err]
    count = len(problems)
    click.secho(f"error: {count} problem{'s' if count != 1 else ''} found", fg="red", err=True)
    for problem in problems:
        click.echo(f"  {problem}", err=True)
    sys.exit(1)


def load_plan(path: str, catalogs: tuple[str, ...] = ()):
    """The plan of the usage file ``path``, with ``catalogs`` merged; a user error exits 1."""
    from planner.errors import UserError
    from planner.evaluate.plan import load

    try:
        return load(path, catalogs)
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


catalog_option = click.option(
    "--catalog", "catalogs", multiple=True, type=click.Path(dir_okay=False),
    help="A catalog CSV file merged over the built-in catalog (rows replace those with the "
         "same id); may be given more than once.")


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
