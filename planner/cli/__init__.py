"""The command line (SPEC §3): report, validate, schema, diff, catalog (and catalog import),
calibrate (SPEC §9), init and sweep (issue 16).

One module per command family: :mod:`planner.cli.report` (report, validate, schema),
:mod:`planner.cli.diff`, :mod:`planner.cli.catalog` (the listing, laid out by
:mod:`planner.render.catalog_tables`) and :mod:`planner.cli.catalog_import`;
:mod:`planner.cli.common` holds what they share (a user error printed, the ``--catalog``
option, NO_COLOR, ``-`` for standard input, ``--date`` as YYYY-MM-DD, the help's examples).
:mod:`planner.cli.what_if` reads ``--set`` and ``--axis`` and locates their problems at the
flag; :mod:`planner.cli.sweep` is ``planner sweep``; :mod:`planner.cli.init` asks the
questions of ``planner init`` and :mod:`planner.cli.init_file` writes the file.

Exit status: 0 success; 1 a problem with the user's input or files (printed without a
traceback); 2 wrong command-line usage (click's own). A bug keeps its traceback. Heavy
libraries are imported inside the commands so that ``planner --help`` stays fast.
"""

from __future__ import annotations

import click

from planner.cli import calibrate, catalog, diff, export, gpus, init, measure, report, sweep

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]},
             epilog="\b\nStart with:  planner init   (then planner report usage.yaml)\n"
                    "Exit status: 0 success; 1 a problem with the input or files (no "
                    "traceback);\n2 wrong command-line usage.\nNO_COLOR=1 turns colour off. "
                    "Shell completion (bash):\n  eval \"$(_PLANNER_COMPLETE=bash_source "
                    "planner)\"")
@click.version_option(package_name="gpu-planner", prog_name="planner")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Rent GPUs, live on free notebook tiers, or buy your own: costs and break-even."""
    from planner.cli.common import no_color

    if no_color():  # every click.echo/secho of this run leaves its colours out
        ctx.color = False


main.add_command(report.report)
main.add_command(report.validate)
main.add_command(diff.diff)
main.add_command(catalog.catalog)
main.add_command(report.schema)
main.add_command(calibrate.calibrate)
main.add_command(export.export)  # SPEC §10 (issue 15)
main.add_command(gpus.gpus)  # planner gpus (issue 15)
# issue 16: what-ifs and a first usage file
main.add_command(sweep.sweep)
main.add_command(init.init)
main.add_command(measure.measure)  # planner measure (issue 14)
# the best mix (SPEC §6): planner optimize (planner/cli/optimize.py)
from planner.cli import optimize

main.add_command(optimize.optimize)
