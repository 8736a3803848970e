"""The catalog's tables on the terminal (``planner catalog``, ``planner gpus``): a table's rows
laid out for a terminal of a given width (which columns fit, how wide each is, headers folded
at their underscores) or whole for a pipe or a file, and the prices per GPU-hour with money
through :mod:`planner.render.fmt`. Which columns a catalog view wants is
:func:`pricing.query.view_columns`'s choice; the command line prints what is built here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pricing import query

if TYPE_CHECKING:
    import rich.table

__all__ = ["catalog_table", "gpu_prices_table", "whole_width"]


def catalog_table(table: str, rows: list[dict], terminal_width: int | None) -> rich.table.Table:
    """The rows of catalog ``table``; every row shows its as-of date and source (SPEC §3).

    For a pipe or a file (``terminal_width`` None), every cell is shown whole on one line,
    however wide the table (print it :func:`whole_width` wide). On a terminal the table fits
    ``terminal_width`` characters: values keep their width, headers fold, a long source is cut
    with "…"; the columns that do not fit beside the id, the as-of date, the age and the source
    are left out, and the caption names them.
    """
    from rich.table import Table

    from pricing.catalog import TABLES

    columns = query.view_columns(table, [c.name for c in TABLES[table]], rows)
    cells = {c: [_cell(c, row.get(c)) for row in rows] for c in columns}
    title = f"{table} ({len(rows)} rows)"
    if terminal_width is None:
        out = Table(title=title)
        for column in columns:
            out.add_column(column, no_wrap=True)
        for i in range(len(rows)):
            out.add_row(*(cells[c][i] for c in columns))
        return out
    widths = _terminal_widths(columns, cells, terminal_width)
    shown = [c for c in columns if c in widths]
    left_out = [c for c in columns if c not in widths]
    caption = (f"left out to fit the terminal: {', '.join(left_out)} (a wider terminal, a pipe "
               f"or --format csv shows them)" if left_out else None)
    out = Table(title=title, caption=caption)
    for column in shown:
        header = _header(column, widths[column])
        if column == "source":
            out.add_column(header, overflow="ellipsis", no_wrap=True, width=widths[column])
        else:
            out.add_column(header, overflow="fold", width=widths[column])
    for i in range(len(rows)):
        out.add_row(*(cells[c][i] for c in shown))
    return out


def gpu_prices_table(lines: list[dict], currency: str) -> rich.table.Table:
    """``planner gpus``'s lines (:func:`pricing.gpu_prices.price_lines`) as a table: the
    prices per GPU-hour in ``currency`` through :mod:`planner.render.fmt`, ages in days."""
    from rich.table import Table

    from planner.render.fmt import price

    table = Table(title=f"price per GPU-hour in {currency} ({len(lines)} instances)")
    for header, right in (("GPU", False), ("QTY", True), ("INSTANCE", False),
                          ("ON-DEMAND", True), ("SPOT", True), ("1-YEAR", True),
                          ("REGION", False), ("AS OF", False), ("AGE (DAYS)", True)):
        table.add_column(header, justify="right" if right else "left", no_wrap=True)
    for line in lines:
        table.add_row(line["gpu"], f"{line['gpus']:g}", line["id"],
                      *(price(line[p], currency) for p in
                        ("on_demand_per_gpu_hour", "spot_per_gpu_hour",
                         "reserved_1y_per_gpu_hour")),
                      line["region"], line["as_of"] or "",
                      "" if line["age_days"] is None else str(line["age_days"]))
    return table


def whole_width(table: rich.table.Table) -> int:
    """The characters ``table`` needs to show every line whole. [characters]"""
    from rich.console import Console
    from rich.measure import Measurement

    wide = Console(width=100_000)
    return Measurement.get(wide, wide.options, table).maximum


def _header_parts(column: str) -> list[str]:
    """A column's name cut after each underscore: where its header may fold."""
    parts = column.split("_")
    return [p + "_" for p in parts[:-1]] + parts[-1:]


def _header(column: str, width: int) -> str:
    """The column's name folded at its underscores into lines of at most ``width``."""
    lines = [""]
    for part in _header_parts(column):
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return "\n".join(lines)


def _terminal_widths(columns: list[str], cells: dict[str, list[str]],
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
        natural[column] = max(min(widest, cap), *map(len, _header_parts(column)))

    def fit(source_width: int) -> dict[str, int]:
        widths = {c: natural[c] for c in columns if c in query.KEPT_COLUMNS}
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
