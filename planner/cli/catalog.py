"""The command line (SPEC §3): report, validate, diff, catalog, schema.

Exit status: 0 success; 1 a problem with the user's input or files (printed without a
traceback); 2 wrong command-line usage (click's own). A bug keeps its traceback. Heavy
libraries are imported inside the commands so that ``planner --help`` stays fast.
"""

from __future__ import annotations

import datetime as _dt
import sys
from pathlib import Path

import click

SUFFIX_FORMATS = {".pdf": "pdf", ".html": "html", ".htm": "html", ".json": "json",
                  ".csv": "csv", ".md": "md", ".xlsx": "xlsx", ".zip": "zip"}
FORMATS = ("pdf", "html", "json", "csv", "md", "xlsx", "zip")


def _fail(err) -> None:
    """Print a user error's problems to standard error and exit with status 1."""
    problems = getattr(err, "problems", None) or [err]
    count = len(problems)
    click.secho(f"error: {count} problem{'s' if count != 1 else ''} found", fg="red", err=True)
    for problem in problems:
        click.echo(f"  {problem}", err=True)
    sys.exit(1)


def _load(path: str, catalogs: tuple[str, ...] = ()):
    from planner.errors import UserError
    from planner.evaluate.plan import load

    try:
        return load(path, catalogs)
    except UserError as err:
        _fail(err)


_catalog_option = click.option(
    "--catalog", "catalogs", multiple=True, type=click.Path(dir_okay=False),
    help="A catalog CSV file merged over the built-in catalog (rows replace those with the "
         "same id); may be given more than once.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gpu-planner", prog_name="planner")
def main() -> None:
    """Rent GPUs, live on free notebook tiers, or buy your own: costs and break-even."""


def _output_format(usage: str, output: str | None, fmt: str | None) -> tuple[str, str]:
    if output is None:
        fmt = fmt or "pdf"
        return str(Path(Path(usage).stem + "." + fmt)), fmt
    if output == "-":
        return "-", fmt or "json"
    if fmt is None:
        suffix = Path(output).suffix.lower()
        if suffix not in SUFFIX_FORMATS:
            raise click.UsageError(
                f"cannot tell the format from {output!r}: use a suffix of "
                f"{', '.join(sorted(SUFFIX_FORMATS))} or --format")
        fmt = SUFFIX_FORMATS[suffix]
    return output, fmt


@main.command()
@click.argument("usage", type=click.Path())
@click.option("-o", "--output", help="Output file; '-' writes to standard output.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), help="Output format.")
@click.option("--date", "date", type=click.DateTime(["%Y-%m-%d"]),
              help="Date printed in the report (default: SOURCE_DATE_EPOCH, else today).")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="Paper size of the PDF (and of the HTML when printed).")
@click.option("--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True,
              help="Language of the PDF and HTML report; zh needs a font with Chinese glyphs "
                   "(fc-list :lang=zh), else the report is English and a warning says so.")
@_catalog_option
def report(usage: str, output: str | None, fmt: str | None, date, paper: str, lang: str,
           catalogs) -> None:
    """Evaluate USAGE and write the report."""
    import warnings

    target, fmt = _output_format(usage, output, fmt)
    plan = _load(usage, catalogs)
    from planner.errors import UserError
    from planner.render import LanguageFallbackWarning, render, summary_table, write_report

    day = date.date() if date else _report_date()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LanguageFallbackWarning)
        try:
            result = plan.evaluate()
            if target == "-":
                content = render(result, fmt, date=day, paper=paper, lang=lang)
            else:
                written = write_report(result, target, fmt, date=day, paper=paper, lang=lang)
        except UserError as err:
            _fail(err)
        except OSError as err:
            _fail(UserError.single(f"cannot write {target}: {err.strerror or err}"))
    fallback = [w for w in caught if issubclass(w.category, LanguageFallbackWarning)]
    for warning in fallback:
        click.secho(f"warning: {warning.message}", fg="yellow", err=True)
    for warning in caught:
        if warning not in fallback:
            warnings.showwarning(warning.message, warning.category, warning.filename,
                                 warning.lineno)
    if target == "-":
        sys.stdout.buffer.write(content)
        sys.stdout.flush()
        return
    from rich.console import Console

    console = Console()
    console.print(summary_table(result, "en" if fallback else lang))
    console.print(f"wrote {written}")


def _report_date() -> _dt.date:
    from planner.render import report_date

    return report_date()


@main.command()
@click.argument("usage", type=click.Path())
@_catalog_option
def validate(usage: str, catalogs) -> None:
    """Check USAGE and print every problem (exit 1 if any).

    The plan is evaluated too, so that a file validate passes is one report accepts (a cost
    beyond the range of numbers, for instance, shows only when costs are computed).
    """
    from planner.errors import UserError

    plan = _load(usage, catalogs)
    try:
        plan.evaluate()
    except UserError as err:
        _fail(err)
    click.echo(f"{usage}: ok")


@main.command()
@click.argument("old", type=click.Path())
@click.argument("new", type=click.Path())
@click.option("-o", "--output", help="Also write the difference to this file (.md, .json, "
                                     ".html or .pdf); '-' writes it to standard output.")
@click.option("--format", "fmt", type=click.Choice(["md", "json", "html", "pdf"]),
              help="Format of the file (default: from -o's suffix; JSON on standard output).")
@click.option("--date", "date", type=click.DateTime(["%Y-%m-%d"]),
              help="Date printed in the file (default: SOURCE_DATE_EPOCH, else today).")
@_catalog_option
def diff(old: str, new: str, output: str | None, fmt: str | None, date, catalogs) -> None:
    """What changed from OLD to NEW (two usage files) and how the decision moved.

    Prints the input values that differ (by dotted key path, defaults filled in), the options
    added or removed, the cheapest option, each option's total cost and present value, and the
    break-even months before and after. With -o, also writes them as Markdown, JSON, or a page
    in the report's style (HTML, PDF).
    """
    from planner.errors import UserError
    from planner.evaluate.compare import compare
    from planner.render.diff import SUFFIXES, print_summary, render, write_diff

    if output is not None and output != "-" and fmt is None:
        suffix = Path(output).suffix.lower()
        if suffix not in SUFFIXES:
            raise click.UsageError(f"cannot tell the format from {output!r}: use a suffix of "
                                   f"{', '.join(SUFFIXES)} or --format")
        fmt = SUFFIXES[suffix]
    from planner.evaluate.plan import load

    plans, problems = [], []
    for path in (old, new):
        try:
            plans.append(load(path, catalogs))
        except UserError as err:
            problems += err.problems
    if problems:
        _fail(UserError(problems))
    results = []
    for plan in plans:
        try:
            results.append(plan.evaluate())
        except UserError as err:
            problems += err.problems
    if problems:
        _fail(UserError(problems))
    change = compare(results[0], results[1], old_name=Path(old).name, new_name=Path(new).name,
                     old_usage=plans[0].usage, new_usage=plans[1].usage)
    day = date.date() if date else _report_date()
    if output == "-":
        sys.stdout.buffer.write(render(change, fmt or "json", date=day))
        sys.stdout.flush()
        return
    written = None
    if output is not None:
        try:
            written = write_diff(change, output, fmt, date=day)
        except OSError as err:
            _fail(UserError.single(f"cannot write {output}: {err.strerror or err}"))
    from rich.console import Console

    console = Console()
    print_summary(change, console)
    if written is not None:
        console.print(f"wrote {written}")


_LIST = "list"


class _CatalogGroup(click.Group):
    """``planner catalog [TABLE] [QUERY]`` lists a table, ``planner catalog import`` imports.

    A first argument that is not a subcommand is handed to the hidden ``list`` command, so
    that the listing keeps its short form.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ctx.help_option_names):
            args = [_LIST, *args]
        return super().parse_args(ctx, args)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_usage(ctx.command_path, "[TABLE] [QUERY] [OPTIONS]")
        formatter.write_usage(ctx.command_path, "import SOURCE [OPTIONS]", prefix="   or: ")

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self.commands[_LIST].format_options(ctx, formatter)
        self.format_commands(ctx, formatter)


class _ListCommand(click.Command):
    """The listing, whose usage line reads ``planner catalog [TABLE] ...``."""

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        path = ctx.parent.command_path if ctx.parent else ctx.command_path
        formatter.write_usage(path, " ".join(self.collect_usage_pieces(ctx)))


@main.group(cls=_CatalogGroup)
def catalog() -> None:
    """Browse and search the catalog, or import a price list into a catalog file.

    TABLE is a catalog table (gpus, clouds, free-tiers, ...); without it, every table and its
    row count, or with --format json or csv the rows of every table, each naming its table.
    QUERY keeps the rows that contain it (case-insensitive). Every row shows its as-of date,
    its age in days (age_days) and its source.
    """


@catalog.command(_LIST, cls=_ListCommand, hidden=True)
@click.argument("table", required=False)
@click.argument("query", required=False)
@click.option("--where", "wheres", multiple=True, metavar="COLUMN=VALUE",
              help="Keep rows whose COLUMN equals VALUE (case-insensitive; numbers compare as "
                   "numbers; an empty VALUE matches empty cells); may be given more than once.")
@click.option("--sort", "sort", metavar="COLUMN",
              help="Sort the rows by COLUMN (empty cells last); -COLUMN sorts descending.")
@click.option("--date", "date", type=click.DateTime(["%Y-%m-%d"]), metavar="YYYY-MM-DD",
              help="Day the ages are counted to (default: SOURCE_DATE_EPOCH, else today).")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table",
              show_default=True)
@_catalog_option
def catalog_list(table: str | None, query: str | None, wheres: tuple[str, ...],
                 sort: str | None, date, fmt: str, catalogs: tuple[str, ...]) -> None:
    """List the rows of TABLE that contain QUERY."""
    name = _catalog_table(table) if table is not None else None
    filters = [_catalog_where(text) for text in wheres]
    if name is None and (filters or sort):
        raise click.UsageError("--where and --sort need a TABLE")
    cat = _catalog_load(catalogs)
    day = date.date() if date else _report_date()
    if name is None:
        _print_catalog_everything(cat, fmt, day)
        return
    rows = cat.rows(name)
    if query:
        needle = query.lower()
        rows = [r for r in rows if any(needle in str(v).lower() for v in r.values()
                                       if v is not None)]
    rows = _catalog_aged(rows, day)
    columns = list(rows[0]) if rows else _catalog_columns(name)
    for column, value in filters:
        _catalog_check_column(column, columns, "--where")
        rows = [r for r in rows if _catalog_matches(r.get(column), value)]
    if sort:
        column = sort.removeprefix("-")
        _catalog_check_column(column, columns, "--sort")
        rows = _catalog_sorted(rows, column, descending=sort.startswith("-"))
    if fmt == "table":
        _print_catalog_table(name, rows)
    else:
        _print_catalog_rows(rows, columns, fmt)


def _print_catalog_rows(rows: list[dict], columns: list[str], fmt: str) -> None:
    """``rows`` as a JSON list of objects or as CSV with the header ``columns``."""
    if fmt == "json":
        import json

        click.echo(json.dumps(rows, indent=2, default=str))
    else:
        import csv

        writer = csv.DictWriter(sys.stdout, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def _catalog_table(table: str) -> str:
    """The catalog table TABLE names (``gpu``, ``free_tiers`` ... are accepted); exit 2 if none."""
    import difflib

    from pricing.catalog import TABLES

    key = table.strip().lower().replace("_", "-")
    for name in (key, key + "s"):
        if name in TABLES:
            return name
    near = difflib.get_close_matches(key, list(TABLES), n=1)
    hint = f" (did you mean {near[0]}?)" if near else ""
    raise click.BadParameter(f"{table!r} is not a catalog table{hint}; the tables are "
                             f"{', '.join(TABLES)}", param_hint="TABLE")


def _catalog_where(text: str) -> tuple[str, str]:
    column, sep, value = text.partition("=")
    if not sep or not column.strip():
        raise click.BadParameter(f"expected COLUMN=VALUE, got {text!r}", param_hint="--where")
    return column.strip().lower(), value.strip()


def _catalog_load(files: tuple[str, ...]):
    """The built-in catalog merged with ``files``; a file that cannot be used exits 1."""
    from planner.errors import Problem, UserError
    from pricing.catalog import CatalogFileError, load_catalog

    missing = [f for f in files if not Path(f).is_file()]
    if missing:
        _fail(UserError([Problem("catalog file not found", file=f) for f in missing]))
    try:
        return load_catalog(files)
    except CatalogFileError as err:
        _fail(UserError([Problem(message, file=err.file, line=line)
                         for line, message in err.problems]))


def _catalog_columns(table: str) -> list[str]:
    from pricing.catalog import TABLES

    columns = [c.name for c in TABLES[table]]
    if "as_of" in columns:
        columns.insert(columns.index("as_of") + 1, "age_days")
    return columns


def _catalog_aged(rows: list[dict], day: _dt.date) -> list[dict]:
    """``rows`` with ``age_days`` (days from ``as_of`` to ``day``) right after ``as_of``."""
    from pricing.catalog import parse_as_of

    aged = []
    for row in rows:
        out = {}
        for key, value in row.items():
            out[key] = value
            if key == "as_of":
                out["age_days"] = (day - parse_as_of(value)).days if value else None
        aged.append(out)
    return aged


def _catalog_check_column(column: str, columns: list[str], option: str) -> None:
    import difflib

    if column not in columns:
        near = difflib.get_close_matches(column, columns, n=1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        raise click.BadParameter(f"no column {column!r}{hint}", param_hint=option)


def _catalog_matches(value, wanted: str) -> bool:
    """Whether a cell equals ``wanted``: numbers as numbers, text case-insensitively."""
    if value is None or value == "":
        return wanted == ""
    if isinstance(value, bool):
        return wanted.lower() == str(value).lower()
    if isinstance(value, (int, float)):
        try:
            return float(wanted) == float(value)
        except ValueError:
            return False
    return str(value).strip().lower() == wanted.lower()


def _catalog_sorted(rows: list[dict], column: str, descending: bool) -> list[dict]:
    """Rows by ``column``: numbers before text, empty cells last in either direction."""
    def key(row: dict):
        value = row[column]
        if isinstance(value, (int, float)):
            return (0, float(value), "")
        return (1, 0.0, str(value).lower())

    present = [r for r in rows if r.get(column) not in (None, "")]
    empty = [r for r in rows if r.get(column) in (None, "")]
    return sorted(present, key=key, reverse=descending) + empty


def _print_catalog_everything(cat, fmt: str, day: _dt.date) -> None:
    """The catalog without a TABLE: every table and its row count (the table format), or the
    rows of every table, each with its ``table`` first (json, csv: SPEC §3's list of rows)."""
    from pricing.catalog import TABLES

    if fmt == "table":
        for name in TABLES:
            click.echo(f"{name:<12} {len(cat.rows(name)):>5} rows   planner catalog {name}")
        return
    rows, columns = [], ["table"]
    for name in TABLES:
        aged = _catalog_aged(cat.rows(name), day)
        rows += [{"table": name, **row} for row in aged]
        columns += [c for c in (list(aged[0]) if aged else _catalog_columns(name))
                    if c not in columns]
    _print_catalog_rows(rows, columns, fmt)


@catalog.command("import")
@click.argument("source", type=click.Path(dir_okay=False))
@click.option("-o", "--output", metavar="OUT.csv",
              help="Catalog file to write (default: clouds-PROVIDER.csv in the current folder); "
                   "'-' writes to standard output.")
@click.option("--layout", type=click.Choice(["skypilot", "csv"]),
              help="Layout of SOURCE (default: recognised from its header).")
@click.option("--provider", metavar="NAME",
              help="Provider of the rows (lowercase). SkyPilot layout: default the folder the "
                   "file is in when that is a SkyPilot cloud (catalogs/v7/aws/vms.csv: aws).")
@click.option("--currency", metavar="CODE",
              help="Currency of rows without one (SkyPilot layout: USD).")
@click.option("--as-of", "as_of", metavar="DATE",
              help="Date of the prices, YYYY-MM-DD or YYYY-MM, for rows without one; required "
                   "for the SkyPilot layout, whose files carry no date.")
@click.option("--source", "source_url", metavar="URL",
              help="Original public source of rows without one (SkyPilot layout: the "
                   "skypilot-catalog repository).")
@click.option("--map", "mapping", multiple=True, metavar="NAME=GPU",
              help="Map accelerator NAME to the catalog GPU id GPU; may be given more than once.")
@click.option("--skip-unknown", is_flag=True,
              help="Leave out rows whose accelerator has no GPU id instead of failing.")
@_catalog_option
def catalog_import(source: str, output: str | None, layout: str | None, provider: str | None,
                   currency: str | None, as_of: str | None, source_url: str | None,
                   mapping: tuple[str, ...], skip_unknown: bool,
                   catalogs: tuple[str, ...]) -> None:
    """Turn SOURCE, a SkyPilot catalog file (vms.csv) or a CSV of your own, into a catalog file
    of the clouds table, for --catalog or a usage file's catalogs: list.

    SkyPilot's availability zones fold into their region at the cheapest zone's price; CPU-only
    rows, fractional GPUs and regions without an on-demand price are left out. Accelerator
    names become catalog GPU ids (T4 -> t4, A100-80GB -> a100-80gb, ...); an accelerator
    without one is an error unless --map or --skip-unknown says what to do. The file is written
    completely or not at all.
    """
    from planner.errors import Problem, UserError
    from pricing import importer
    from pricing.catalog import CatalogFileError, load_catalog, parse_as_of

    maps = {}
    for text in mapping:
        name, sep, gpu = text.partition("=")
        if not sep or not name.strip() or not gpu.strip():
            raise click.BadParameter(f"expected NAME=GPU, got {text!r}", param_hint="--map")
        maps[name.strip()] = gpu.strip()
    if as_of is not None:
        try:
            parse_as_of(as_of)
        except ValueError as err:
            raise click.BadParameter(str(err), param_hint="--as-of") from None
    try:
        text = Path(source).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        _fail(UserError.single(f"cannot read the file: {getattr(err, 'strerror', None) or err}",
                               file=source))
    layout = layout or importer.detect_layout(text)
    if provider is None and layout == "skypilot":
        provider = importer.skypilot_provider(source)
        if provider is None:
            raise click.UsageError("give --provider: the SkyPilot file's folder names no cloud")
    if layout == "skypilot" and as_of is None:
        raise click.UsageError("give --as-of: SkyPilot catalog files carry no date (use the date "
                               "of the snapshot, for instance its commit date)")
    cat = _catalog_load(catalogs)
    try:
        result = importer.read_price_list(
            text, source, gpus={r["id"]: r for r in cat.rows("gpus")}, layout=layout,
            provider=provider.strip().lower() if provider else None, currency=currency,
            as_of=as_of, source=source_url, mapping=maps, skip_unknown=skip_unknown)
    except CatalogFileError as err:
        problems = [Problem(message, file=err.file, line=line) for line, message in err.problems]
        if any(p.message.startswith("unknown accelerator") for p in problems):
            problems.append(Problem("map an accelerator with --map NAME=GPU, or leave its rows "
                                    "out with --skip-unknown", file=err.file))
        _fail(UserError(problems))
    skipped = ", ".join(f"{reason} ({n})" for reason, n in result.skipped.items())
    if not result.rows:
        _fail(UserError.single("no GPU rows to import" + (f" (left out: {skipped})"
                                                           if skipped else ""), file=source))
    rows = importer.complete(result.rows, cat)
    csv_text = importer.to_csv(rows)
    providers = sorted({r["provider"] for r in rows})
    target = output or f"clouds-{providers[0] if len(providers) == 1 else 'imported'}.csv"
    types = len({r["id"] for r in rows})
    summary = (f"{len(rows)} row{'s' * (len(rows) != 1)}, {types} instance type{'s' * (types != 1)}"
               + (f"; left out: {skipped}" if skipped else ""))
    if target == "-":
        sys.stdout.write(csv_text)
        click.echo(summary, err=True)
        return
    if Path(target).resolve() == Path(source).resolve():
        raise click.UsageError("the output would overwrite SOURCE: give another -o")
    try:
        importer.write_catalog(target, csv_text,
                               check=lambda path: load_catalog([*catalogs, path]))
    except OSError as err:
        _fail(UserError.single(f"cannot write {target}: {err.strerror or err}"))
    click.echo(f"wrote {target}: {summary}")


_TABLE_COLUMNS = {
    "gpus": ("id", "memory_gb", "tdp_watts", "peak_fp16_tflops", "street_price",
             "throughput_generic", "as_of", "source"),
    "clouds": ("id", "region", "gpu", "gpus", "price_per_hour", "spot_price_per_hour",
               "reserved_1y_price_per_hour", "currency", "as_of", "source"),
    "free-tiers": ("id", "gpu", "gpus", "session_hours", "weekly_quota_hours",
                   "daily_quota_hours", "fee_per_month", "as_of", "source"),
    "regions": ("id", "electricity_household_per_kwh", "electricity_business_per_kwh",
                "carbon_kg_per_kwh", "currency", "as_of", "source"),
    "site-kinds": ("id", "pue", "as_of", "source"),
}


#: Columns a terminal view always keeps: the id, the price, and (SPEC §3) as-of date and source.
_KEPT_COLUMNS = ("id", "price_per_hour", "street_price", "as_of", "age_days", "source")


def _print_catalog_table(table: str, rows: list[dict]) -> None:
    """The rows as a table; every row shows its as-of date and source (SPEC §3).

    Not on a terminal (a pipe, a file), every cell is shown whole on one line, however wide
    the table. On a terminal the table fits its width: values keep their width, headers fold,
    a long source is cut with "…"; the columns that do not fit beside the id, the as-of date,
    the age and the source are left out, and the caption names them.
    """
    from rich.console import Console
    from rich.measure import Measurement
    from rich.table import Table

    wanted = list(_TABLE_COLUMNS.get(table) or _catalog_brief_columns(table))
    if "as_of" in wanted and "age_days" not in wanted:
        wanted.insert(wanted.index("as_of") + 1, "age_days")
    columns = [c for c in wanted if not rows or c in rows[0]]
    cells = {c: [_cell(c, row.get(c)) for row in rows] for c in columns}
    title = f"{table} ({len(rows)} rows)"
    console = Console()
    if not console.is_terminal:
        out = Table(title=title)
        for column in columns:
            out.add_column(column, no_wrap=True)
        for i in range(len(rows)):
            out.add_row(*(cells[c][i] for c in columns))
        wide = Console(width=100_000)
        Console(width=Measurement.get(wide, wide.options, out).maximum).print(out)
        return
    widths = _catalog_terminal_widths(columns, cells, console.width)
    shown = [c for c in columns if c in widths]
    left_out = [c for c in columns if c not in widths]
    caption = (f"left out to fit the terminal: {', '.join(left_out)} (a wider terminal, a pipe "
               f"or --format csv shows them)" if left_out else None)
    out = Table(title=title, caption=caption)
    for column in shown:
        header = _catalog_header(column, widths[column])
        if column == "source":
            out.add_column(header, overflow="ellipsis", no_wrap=True, width=widths[column])
        else:
            out.add_column(header, overflow="fold", width=widths[column])
    for i in range(len(rows)):
        out.add_row(*(cells[c][i] for c in shown))
    console.print(out)


def _catalog_header_parts(column: str) -> list[str]:
    """A column's name cut after each underscore: where its header may fold."""
    parts = column.split("_")
    return [p + "_" for p in parts[:-1]] + parts[-1:]


def _catalog_header(column: str, width: int) -> str:
    """The column's name folded at its underscores into lines of at most ``width``."""
    lines = [""]
    for part in _catalog_header_parts(column):
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return "\n".join(lines)


def _catalog_terminal_widths(columns: list[str], cells: dict[str, list[str]],
                             room: int) -> dict[str, int]:
    """The columns a terminal ``room`` characters wide shows, with their widths.

    A column is as wide as its widest value (a name at most 30, or down to 12 where room is
    short, longer names folding; a source at most 24, cut with "…"; any other column at most
    28) and as the longest piece of its header between underscores. The id, as_of, age_days
    and source are always shown; the other columns follow in their order while they fit, a
    source first giving up its width beyond 12 characters before any column is left out.
    """
    natural = {}
    for column in columns:
        widest = max((len(v) for v in cells[column]), default=0)
        cap = {"name": 30, "source": 24}.get(column, 28)
        natural[column] = max(min(widest, cap), *map(len, _catalog_header_parts(column)))

    def fit(source_width: int) -> dict[str, int]:
        widths = {c: natural[c] for c in columns if c in _KEPT_COLUMNS}
        if "source" in widths:
            widths["source"] = min(widths["source"], source_width)
        used = 1 + sum(w + 3 for w in widths.values())  # 3: padding and a border a column
        for column in columns:
            if column in widths:
                continue
            width = natural[column]
            if column == "name":  # a name folds: it may narrow to 12
                width = max(min(width, room - used - 3), min(width, 12))
            if used + width + 3 > room:
                break
            widths[column] = width
            used += width + 3
        return widths

    widths = fit(24)
    if len(widths) < len(columns):
        widths = fit(12)
    return widths


def _cell(column: str, value) -> str:
    """A catalog value as the table view shows it: the source's first site, numbers plain."""
    if value is None:
        return ""
    if column == "source":
        first = str(value).split("; ")[0]
        return first.split("://", 1)[-1]
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _catalog_brief_columns(table: str) -> list[str]:
    """Columns shown for a table without an entry in _TABLE_COLUMNS: a few, then provenance."""
    from pricing.catalog import TABLES

    provenance = ("currency", "as_of", "source", "notes")
    names = [c.name for c in TABLES[table] if c.name not in provenance]
    return names[:6] + [c for c in ("as_of", "source") if c in {c.name for c in TABLES[table]}]


@main.command()
def schema() -> None:
    """Print the JSON Schema of usage.yaml."""
    import json

    from planner.usage.schema import usage_json_schema

    click.echo(json.dumps(usage_json_schema(), indent=2))


if __name__ == "__main__":
    main()
