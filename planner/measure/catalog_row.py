"""A ``gpus`` catalog file with one row: a built-in GPU whose throughput was measured.

The row is the built-in row of that GPU, cell for cell, with the measured ``throughput_*``
columns replaced (three decimals, as the catalog writes them) and ``source`` and ``notes``
saying what was measured, when, on what and against which reference. Columns not measured keep
the built-in figures, and ``as_of`` keeps the built-in row's date: the row's other cells are as
old as they were. Named in a usage file's ``catalogs:`` (or ``--catalog``), the row replaces the
built-in one (``pricing/CATALOG.md``, "User catalog files"), so ``relative_speed`` uses the
measured speed.
"""

from __future__ import annotations

import csv
import io
from importlib.resources import files

from planner.measure.reference import MODELS, REFERENCE_GPU
from planner.measure.results import Measurement

__all__ = ["SOURCE", "measured_row_csv"]

SOURCE = "planner measure; https://github.com/lambdal/deeplearning-benchmark"
"""The row's ``source``: the measurement, and the benchmark its reference figures come from."""


def _builtin_gpus() -> tuple[list[str], dict[str, list[str]]]:
    """The built-in gpus.csv: its header and its rows by lowercase id, as the file has them."""
    text = files("pricing.data").joinpath("gpus.csv").read_text(encoding="utf-8")
    header, *rows = list(csv.reader(io.StringIO(text)))
    return header, {row[0].lower(): row for row in rows if row}


def measured_row_csv(measurement: Measurement, gpu_id: str) -> str:
    """The CSV text (header and one row) of the built-in GPU ``gpu_id`` with the throughput
    columns that ``measurement``'s one-GPU runs give. ``gpu_id`` must be a built-in GPU."""
    header, rows = _builtin_gpus()
    row = dict(zip(header, rows[gpu_id.lower()]))
    columns = measurement.columns()
    for key, value in columns.items():
        row[f"throughput_{key}"] = f"{value:.3f}"
    row["source"] = SOURCE
    row["notes"] = _notes(measurement, sorted(columns), row.get("notes", ""))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerow([row[name] for name in header])
    return out.getvalue()


def _notes(measurement: Measurement, measured: list[str], builtin_notes: str) -> str:
    d = measurement.device
    runs = ", ".join(
        f"{r.model} {r.precision} ({r.dtype}, batch {r.batch}): {r.per_second:.0f} {r.unit}/s"
        for r in measurement.single())
    refs = ", ".join(
        f"{m.lambda_model} {m.per_second_mixed:g} {m.unit}/s" for m in MODELS.values())
    return (f"throughput_{', throughput_'.join(measured)}: measured by planner measure on "
            f"{measurement.date} on 1x {d.name} (torch {d.torch_version}): {runs}; over the "
            f"{REFERENCE_GPU} mixed-precision reference of Lambda's benchmark ({refs}); other "
            f"columns as built in: {builtin_notes}")
