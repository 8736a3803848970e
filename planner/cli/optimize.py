"""``planner optimize USAGE``: the best mix of the file's ``mix`` (SPEC §6): how many machines
to own, when to buy them and what to commit in the cloud, with the nearest alternatives and
the rent-then-buy rule."""

from __future__ import annotations

import json

import click

from planner.cli.common import catalog_option, console, epilog, fail, load_plan

__all__ = ["optimize"]


@click.command(epilog=epilog(
    "planner optimize examples/startup-mix.yaml",
    "planner optimize usage.yaml --format json > mix.json",
))
@click.argument("usage", type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="A table for people, or the mix as JSON on standard "
                                      "output (the report's mix object).")
@click.option("--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True,
              help="Language of the table.")
@catalog_option
def optimize(usage: str, fmt: str, lang: str, catalogs) -> None:
    """Search USAGE's mix: own machines, purchase month and cloud commitments."""
    from planner.errors import UserError

    plan = load_plan(usage, catalogs)
    try:
        mix = plan.optimize()
    except UserError as err:
        fail(err)
    if fmt == "json":
        click.echo(json.dumps(mix.to_dict(), indent=2, allow_nan=False))
        return
    from planner.render.terminal import mix_table

    console().print(mix_table(mix, plan.usage["title"], lang))
