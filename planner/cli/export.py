"""``planner export USAGE --to opencost|skypilot``: an own option's cost per owned GPU-hour
written where OpenCost or SkyPilot reads a price (SPEC §10)."""

from __future__ import annotations

import sys

import click

from planner.cli.common import catalog_option, epilog, fail, load_plan

__all__ = ["export"]


@click.command(epilog=epilog(
    'planner export usage.yaml --to opencost -o pricing.json',
    'planner export usage.yaml --to skypilot --option box -o sky-pricing.yaml',
))
@click.argument("usage", type=click.Path())
@click.option("--to", "target", type=click.Choice(["opencost", "skypilot"]), required=True,
              help="opencost: custom pricing JSON; skypilot: kubernetes.pricing for "
                   "~/.sky/config.yaml.")
@click.option("--option", "option", metavar="NAME",
              help="The own option to export (default: the own option with the lowest "
                   "present value).")
@click.option("-o", "--output", help="Output file (default: standard output; '-' too).")
@catalog_option
def export(usage: str, target: str, option: str | None, output: str | None,
           catalogs: tuple[str, ...]) -> None:
    """Write an own option's cost per owned GPU-hour for OpenCost or SkyPilot.

    The price is the option's own nominal costs over the horizon less its residual value,
    per GPU-hour of its machines in service (cost_per_owned_gpu_hour of the JSON report), in
    the plan's currency. CPU and memory are priced at 0: the GPU price carries the whole
    machine.
    """
    from planner.errors import UserError
    from planner.render.export import export as render_export
    from pricing.files import write_atomic

    plan = load_plan(usage, catalogs)
    try:
        content = render_export(plan.evaluate(), target, option)
    except UserError as err:
        fail(UserError([plan.document.locate(p) for p in err.problems]))
    if output is None or output == "-":
        sys.stdout.buffer.write(content)
        sys.stdout.flush()
        return
    try:
        written = write_atomic(output, content)
    except OSError as err:
        fail(UserError.single(f"cannot write {output}: {err.strerror or err}"))
    click.echo(f"wrote {written}")  # a path as it is: never wrapped, never markup
