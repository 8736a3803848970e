"""``planner measure``: a short training benchmark on this machine's GPUs, and its throughput
as a catalog row (issue 14; ``pricing/CATALOG.md``, "Measured on your own GPU")."""

from __future__ import annotations

from pathlib import Path

import click

from planner.cli.common import epilog, fail

__all__ = ["measure"]

MODELS = ("resnet50", "transformer")
PRECISIONS = ("mixed", "fp32")


@click.command(epilog=epilog("planner measure -o mine.csv   (then catalogs: [mine.csv] in usage.yaml)",
                             "planner measure --model resnet50 --precision mixed --seconds 30",
                             "planner measure --gpus 4 --format json > scaling.json"))
@click.option("--model", "models", multiple=True, type=click.Choice(MODELS),
              help="A model to train (default: both); may be given more than once.")
@click.option("--precision", "precisions", multiple=True, type=click.Choice(PRECISIONS),
              help="mixed (bf16 autocast, fp16 where bf16 is missing) or fp32 (TF32 where "
                   "the GPU has it); default: both.")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=10.0,
              show_default=True, help="Timed training per run, after the warm-up.")
@click.option("--warmup", type=click.IntRange(min=0), default=10, show_default=True,
              help="Untimed steps before each run's clock starts.")
@click.option("--gpus", "max_gpus", type=click.IntRange(min=1), default=None,
              help="Use at most N GPUs (scaling is measured on 2, 4, … and N of them).")
@click.option("--gpu", "gpu_id", default=None,
              help="The catalog GPU id of this GPU (default: found from its name).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write a gpus catalog file whose row replaces the built-in GPU's "
                   "throughput; name it in usage.yaml's catalogs: list.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="A table, or the figures as JSON.")
def measure(models: tuple[str, ...], precisions: tuple[str, ...], seconds: float, warmup: int,
            max_gpus: int | None, gpu_id: str | None, output: str | None, fmt: str) -> None:
    """Train a ResNet-50 and a GPT-style transformer on synthetic data on this machine's
    GPUs and print their throughput, power and speed relative to the catalog's reference GPU.

    Needs PyTorch (pip install 'gpu-planner[measure]') and a CUDA GPU.
    """
    from planner.errors import Problem, UserError, closest
    from planner.measure import bench
    from planner.measure.names import catalog_gpu
    from pricing.catalog import load_catalog

    catalog = load_catalog()
    ids = catalog.ids("gpus")
    if gpu_id is not None and gpu_id.lower() not in {i.lower() for i in ids}:
        near = closest(gpu_id, ids)
        fail(click.ClickException(f"--gpu {gpu_id!r} is not a GPU of the catalog"
                                  + (f" (did you mean {near}?)" if near else "")))
    if output is not None and output != "-" and not Path(output).parent.is_dir():
        fail(UserError([Problem("the folder to write -o into does not exist", file=output)]))
    try:
        device = bench.probe()
    except bench.MeasureUnavailable as err:
        fail(err)
    found = gpu_id.lower() if gpu_id else catalog_gpu(device.name, device.memory_gib, ids)
    if output is not None and found is None:
        fail(click.ClickException(
            f"cannot tell which catalog GPU {device.name!r} is, so -o has no row to replace: "
            "give --gpu ID (planner catalog gpus lists them)"))
    measurement = bench.measure(
        models or MODELS, precisions or PRECISIONS, seconds=seconds, warmup=warmup,
        max_gpus=max_gpus, catalog_id=found,
        progress=lambda text: click.echo(f"measuring {text} …", err=True))
    builtin = _builtin_figures(catalog, found, measurement)
    from planner.render.measurement import measurement_json, measurement_text

    render = measurement_json if fmt == "json" else measurement_text
    click.echo(render(measurement, builtin), nl=False)
    if output is not None:
        _write(output, measurement, found)


def _builtin_figures(catalog, gpu_id: str | None, measurement) -> dict:
    """The catalog's relative speed of ``gpu_id`` for each measured model and precision, per
    workload column the model stands for."""
    from planner.measure.reference import MODELS as REFERENCES
    from planner.measure.reference import REFERENCE_GPU

    if gpu_id is None:
        return {}
    figures = {}
    for run in measurement.single():
        workloads = {}
        for workload in REFERENCES[run.model].workloads:
            key = workload + ("" if run.precision == "mixed" else f"_{run.precision}")
            reference = catalog.gpu(REFERENCE_GPU).throughput.get(workload)
            value = catalog.gpu(gpu_id).throughput.get(key)
            if value is not None and reference:
                workloads[workload] = value / reference
        figures[(run.model, run.precision)] = workloads
    return figures


def _write(output: str, measurement, gpu_id: str) -> None:
    """The catalog file, written whole or not at all and read back as a catalog first."""
    from planner.errors import Problem, UserError
    from planner.measure.catalog_row import measured_row_csv
    from pricing.catalog import CatalogFileError, load_catalog
    from pricing.files import write_atomic

    text = measured_row_csv(measurement, gpu_id)
    if output == "-":
        click.echo(text, nl=False)
        return
    try:
        write_atomic(output, text.encode("utf-8"), check=lambda path: load_catalog([path]))
    except (OSError, CatalogFileError) as err:
        fail(UserError([Problem(f"cannot write the catalog file: {err}", file=output)]))
    measured = ", ".join(f"throughput_{k}" for k in sorted(measurement.columns()))
    click.echo(f"Wrote {output}: the gpus row {gpu_id} with {measured} measured; "
               f"use it with catalogs: [{output}] in usage.yaml.", err=True)
