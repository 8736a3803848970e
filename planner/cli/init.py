"""``planner init``: a first usage.yaml from a few answers (asked, or given as flags)."""

from __future__ import annotations

from pathlib import Path

import click

from planner.cli.common import STDIN_PATH, catalog_option, epilog, fail, open_catalog

__all__ = ["init"]


def _complete_regions(ctx, param, incomplete: str):
    from click.shell_completion import CompletionItem

    from pricing.catalog import load_catalog

    cat = load_catalog()
    return [CompletionItem(r["id"], help=r["name"]) for r in cat.rows("regions")
            if str(r["id"]).startswith(incomplete)]


def _complete_options(ctx, param, incomplete: str):
    from pricing.catalog import load_catalog

    cat = load_catalog()
    ids = [*cat.ids("free-tiers"), *cat.ids("gpus"), *cat.ids("clouds")]
    return [i for i in ids if i.lower().startswith(incomplete.lower())]


def _fx(ctx, param, values: tuple[str, ...]) -> dict[str, float]:
    from planner.cli.what_if import parse_assignment

    out = {}
    for text in values:
        code, rate = parse_assignment(text, "--fx")
        try:
            number = float(rate)
        except ValueError:
            number = -1.0
        if not (number > 0 and number < float("inf")) or len(code) != 3 or not code.isalpha():
            raise click.BadParameter(f"{text!r} is not CODE=RATE with a rate above 0 (for "
                                     "example --fx USD=0.86)", param_hint="--fx")
        out[code.upper()] = number
    return out


@click.command(epilog=epilog(
    "planner init                                   # asks a few questions",
    "planner init --non-interactive --gpus 1 --hours-per-week 20 --region de \\",
    "    --fx USD=0.86 --option kaggle --option rtx-4090 --option runpod/1x_RTX4090_SECURE",
    "planner init -o lab.yaml --force               # replace an existing file"))
@click.option("-o", "--output", default="usage.yaml", show_default=True,
              type=click.Path(dir_okay=False), help="The file to write ('-': standard output).")
@click.option("--force", is_flag=True, help="Replace the file if it exists.")
@click.option("--non-interactive", is_flag=True,
              help="Ask nothing: flags, else the defaults (for scripts).")
@click.option("--title", help="Report title.  [default: My GPU plan]")
@click.option("--gpus", type=click.IntRange(min=1), help="GPUs one job uses at once.  "
                                                         "[default: 1]")
@click.option("--hours-per-week", type=click.FloatRange(min=0),
              help="Hours a week one job runs on those GPUs (GPU-hours a week = hours × "
                   "GPUs).  [default: 20]")
@click.option("--region", shell_complete=_complete_regions,
              help="Catalog country or region (us, de, gb, cn, jp, …; planner catalog regions)"
                   " whose electricity price and grid carbon apply to a machine you buy.  "
                   "[default: us]")
@click.option("--electricity-per-kwh", type=click.FloatRange(min=0),
              help="Your own electricity price, in the file's currency (instead of, or over, "
                   "the region's).")
@click.option("--currency", help="ISO 4217 code of every amount.  [default: the region's "
                                 "currency, else USD]")
@click.option("--option", "options", multiple=True, shell_complete=_complete_options,
              help="A catalog id to weigh: a cloud instance (runpod/1x_RTX4090_SECURE), a "
                   "free tier (kaggle) or a GPU to buy a machine with (rtx-4090); repeat it. "
                   "[default: kaggle, RunPod A100s, an RTX 4090 machine]")
@click.option("--reference-gpu",
              help="The GPU the hours were measured on ('none': the same hours on every GPU)."
                   "  [default: the GPU of the first machine to buy]")
@click.option("--fx", "fx", multiple=True, metavar="CODE=RATE", callback=_fx,
              help="Units of the file's currency one unit of CODE buys (--fx USD=0.86), for "
                   "the catalog prices in CODE; repeat it. Asked for when missing.")
@catalog_option
def init(output: str, force: bool, non_interactive: bool, title, gpus, hours_per_week,
         region, electricity_per_kwh, currency, options, reference_gpu, fx, catalogs) -> None:
    """Write a first usage.yaml from a few answers; it validates and reports as it is.

    Asks for what no flag gives (with --non-interactive, the defaults apply); a catalog id
    that does not exist is refused with the closest ids. An existing file is left alone
    unless --force.
    """
    from planner.cli import init_file
    from planner.errors import Problem, UserError

    ask = not non_interactive
    if output != STDIN_PATH and Path(output).exists() and not force:
        fail(UserError.single("the file exists; give --force to replace it, or -o another "
                              "file", file=output))
    cat = open_catalog(catalogs)
    region_ids = {r.lower(): r for r in cat.ids("regions")}

    def region_id(text: str | None) -> str | None:
        if text is None or text.strip().lower() in ("", "none"):
            return None
        key = text.strip().lower()
        if key not in region_ids:
            from pricing.suggest import close_matches, did_you_mean

            near = did_you_mean(close_matches(text, region_ids.values()))
            raise click.UsageError(f"{text!r} is not a catalog region{near}; planner catalog "
                                   "regions lists them")
        return region_ids[key]

    def option_ids(texts: list[str]):
        choices, problems = init_file.resolve_options(texts, cat)
        if problems:
            raise click.UsageError("\n".join(text for _, text in problems))
        if not choices:
            raise click.UsageError("give at least one option")
        return choices

    title = title or (click.prompt("Title of the plan", default="My GPU plan") if ask
                      else "My GPU plan")
    gpus = gpus or (click.prompt("GPUs one job uses at once", default=1,
                                 type=click.IntRange(min=1)) if ask else 1)
    if hours_per_week is None:
        hours_per_week = (click.prompt("Hours a week a job runs on them", default=20.0,
                                       type=click.FloatRange(min=0)) if ask else 20.0)
    defaults = init_file.default_options(gpus)
    try:
        if options:
            choices, problems = init_file.resolve_options(list(options), cat)
            if problems:
                fail(UserError([Problem(text, file=f"--option {raw}")
                                for raw, text in problems]))
        elif ask:
            choices = click.prompt(
                "Options to weigh (catalog ids, comma-separated: a cloud instance, a free "
                "tier, a GPU to buy)", default=", ".join(defaults),
                value_proc=lambda t: option_ids([p for p in t.split(",") if p.strip()]))
        else:
            choices = option_ids(defaults)
        owns = [c for c in choices if c.kind == "own"]
        if region is not None:
            region = region_id(region)
        elif owns and electricity_per_kwh is None:
            region = (click.prompt("Country or region for electricity prices (planner "
                                   "catalog regions)", default="us", value_proc=region_id)
                      if ask else "us")
    except click.UsageError as err:
        fail(UserError.single(err.message, file="planner init"))
    if currency is None:
        default = cat.region(region).currency if region else "USD"
        currency = click.prompt("Currency (ISO 4217)", default=default) if ask else default
    currency = currency.strip().upper()
    if reference_gpu is None:
        reference_gpu = owns[0].id if owns else None
    elif reference_gpu.strip().lower() == "none":
        reference_gpu = None
    answers = init_file.Answers(title=title, gpus=gpus, hours_per_week=hours_per_week,
                                currency=currency, options=choices, region=region,
                                electricity_per_kwh=electricity_per_kwh,
                                reference_gpu=reference_gpu, fx=dict(fx),
                                catalogs=_relative(catalogs, output))
    missing = [c for c in init_file.needed_currencies(answers, cat) if c not in answers.fx]
    for code in missing:
        if not ask:
            fail(UserError.single(
                f"catalog prices in {code} need a rate: give --fx {code}=RATE (the units of "
                f"{currency} that one {code} buys)", file="planner init"))
        answers.fx[code] = click.prompt(f"{currency} for one {code}",
                                        type=click.FloatRange(min=0, min_open=True))
    text = init_file.usage_text(
        answers, cat, "usage.yaml" if output == STDIN_PATH else Path(output).name)
    _check(text, output)
    if output == STDIN_PATH:
        click.echo(text, nl=False)
        return
    from pricing.files import write_atomic

    try:
        write_atomic(output, text.encode("utf-8"))
    except OSError as err:
        fail(UserError.single(f"cannot write {output}: {err.strerror or err}"))
    click.echo(f"wrote {output}; next: planner report {output}")


def _folder(output: str) -> Path:
    """The folder the file's relative paths start from: its own (standard output: here)."""
    return Path.cwd() if output == STDIN_PATH else Path(output).absolute().parent


def _relative(catalogs, output: str) -> list[str]:
    """The --catalog files as the written file names them: relative to its folder."""
    import os

    return [Path(os.path.relpath(Path(c).absolute(), _folder(output))).as_posix()
            for c in catalogs]


def _check(text: str, output: str) -> None:
    """The file validates and evaluates, as written where it is written, before it is;
    else its problems (exit 1)."""
    from planner.errors import UserError
    from planner.evaluate.plan import load_text

    try:
        load_text(text, name=output, base_dir=_folder(output)).evaluate()
    except UserError as err:
        fail(err)
