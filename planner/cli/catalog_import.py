"""``planner catalog import``: a SkyPilot catalog file or a CSV of one's own turned into a
catalog file of the clouds table (the work is :mod:`pricing.importer`'s)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from planner.cli.common import catalog_option, epilog, fail, file_problems, open_catalog

__all__ = ["catalog_import"]


@click.command("import", epilog=epilog(
    "planner catalog import vms.csv --as-of 2026-11-01 -o clouds-aws.csv",
    "planner catalog import quotes.csv --provider acme --currency EUR -o -"))
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
@catalog_option
def catalog_import(source: str, output: str | None, layout: str | None, provider: str | None,
                   currency: str | None, as_of: str | None, source_url: str | None,
                   mapping: tuple[str, ...], skip_unknown: bool,
                   catalogs: tuple[str, ...]) -> None:
    """Turn SOURCE, a SkyPilot catalog file (vms.csv) or a CSV of your own, into a catalog file
    of the clouds table, for --catalog or a usage file's catalogs: list.

    SkyPilot's availability zones fold into their region at the median zone's price (AWS Local
    and Wavelength zones left out); GCP's GPU rows are added to their machine types; CPU-only
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
        fail(UserError.single(f"cannot read the file: {getattr(err, 'strerror', None) or err}",
                               file=source))
    layout = layout or importer.detect_layout(text)
    if provider is None and layout == "skypilot":
        provider = importer.skypilot_provider(source)
        if provider is None:
            raise click.UsageError("give --provider: the SkyPilot file's folder names no cloud")
    if layout == "skypilot" and as_of is None:
        raise click.UsageError("give --as-of: SkyPilot catalog files carry no date (use the date "
                               "of the snapshot, for instance its commit date)")
    cat = open_catalog(catalogs)
    try:
        result = importer.read_price_list(
            text, source, gpus={r["id"]: r for r in cat.rows("gpus")}, layout=layout,
            provider=provider.strip().lower() if provider else None, currency=currency,
            as_of=as_of, source=source_url, mapping=maps, skip_unknown=skip_unknown)
    except CatalogFileError as err:
        problems = file_problems(err)
        if any(p.message.startswith("unknown accelerator") for p in problems):
            problems.append(Problem("map an accelerator with --map NAME=GPU, or leave its rows "
                                    "out with --skip-unknown", file=err.file))
        fail(UserError(problems))
    skipped = ", ".join(f"{reason} ({n})" for reason, n in result.skipped.items())
    if not result.rows:
        fail(UserError.single("no GPU rows to import" + (f" (left out: {skipped})"
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
        fail(UserError.single(f"cannot write {target}: {err.strerror or err}"))
    click.echo(f"wrote {target}: {summary}")
