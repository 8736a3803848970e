"""The command line (SPEC §3): report, validate, schema, diff, catalog (and catalog import),
calibrate (SPEC §9).

One module per command family: :mod:`planner.cli.report` (report, validate, schema),
:mod:`planner.cli.diff`, :mod:`planner.cli.catalog` (the listing) with
:mod:`planner.cli.catalog_view` (its terminal layout) and :mod:`planner.cli.catalog_import`;
:mod:`planner.cli.common` holds what they share (a user error printed, the ``--catalog``
option).

Exit status: 0 success; 1 a problem with the user's input or files (printed without a
traceback); 2 wrong command-line usage (click's own). A bug keeps its traceback. Heavy
libraries are imported inside the commands so that ``planner --help`` stays fast.
"""

from __future__ import annotations

import click

from planner.cli import calibrate, catalog, diff, measure, report

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gpu-planner", prog_name="planner")
def main() -> None:
    """Rent GPUs, live on free notebook tiers, or buy your own: costs and break-even."""


main.add_command(report.report)
main.add_command(report.validate)
main.add_command(diff.diff)
main.add_command(catalog.catalog)
main.add_command(report.schema)
main.add_command(calibrate.calibrate)
main.add_command(measure.measure)
