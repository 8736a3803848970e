"""The short summary the command line prints after writing a report."""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.report import content

if TYPE_CHECKING:
    import rich.table

    from planner.result import Result


def summary_table(result: Result) -> rich.table.Table:
    """Option, feasible, total, present value and cost per GPU-hour; the cheapest marked."""
    from rich.table import Table
    from rich.text import Text

    data = result.data
    table = Table(title=data["title"], caption=content.recommendation(result),
                  caption_justify="left")
    table.add_column("Option (★ cheapest)")
    table.add_column("Feasible")
    table.add_column(f"Total ({data['currency']})", justify="right")
    table.add_column("Present value", justify="right")
    table.add_column("Per GPU-hour", justify="right")
    for row in content.option_rows(result):
        name = Text(row.name)
        if row.cheapest:
            name = Text.assemble((row.name, "bold green"), (" ★", "green"))
        feasible = "yes" if row.feasible else Text("no: " + "; ".join(row.reasons), "red")
        table.add_row(name, feasible, row.total_cost, row.present_value, row.cost_per_gpu_hour)
    return table
