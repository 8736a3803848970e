"""What ``planner measure`` prints: each run's throughput, power and relative speed beside the
catalog's figure, the data-parallel scaling efficiencies, or all of it as JSON."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from planner.measure.reference import H200_CHECK
from planner.render import fmt

if TYPE_CHECKING:
    from planner.measure.results import Measurement

__all__ = ["measurement_json", "measurement_text"]

_HEADER = ("model", "precision", "dtype", "GPUs", "batch", "throughput per GPU", "power",
           "J/sample", "× a100-80gb", "catalog")


def measurement_json(measurement: Measurement, builtin: dict[tuple[str, str], dict[str, float]],
                     ) -> str:
    """The measurement as JSON (:meth:`Measurement.to_dict`) with the catalog's figures of the
    GPU under ``catalog`` (workload column → relative speed, per model and precision)."""
    data = measurement.to_dict()
    data["catalog"] = [{"model": m, "precision": p, **figures}
                       for (m, p), figures in builtin.items()]
    return json.dumps(data, indent=2) + "\n"


def measurement_text(measurement: Measurement,
                     builtin: dict[tuple[str, str], dict[str, float]]) -> str:
    """A table of the one-GPU runs, then one of the scaling efficiencies (several GPUs)."""
    d = measurement.device
    known = f"catalog GPU {d.catalog_id}" if d.catalog_id else "not a catalog GPU"
    lines = [(f"{d.name} ({fmt.figure(d.memory_gib, 1)} GiB; {known}), {d.count} "
              f"GPU{'s' if d.count != 1 else ''}, PyTorch {d.torch_version}, CUDA "
              f"{d.cuda_version or '—'}, {measurement.date}"),
             ("Relative speed: throughput per GPU over the a100-80gb's in mixed precision "
              "(Lambda's benchmark, the catalog's unit); catalog: the built-in figure."), ""]
    rows = [_HEADER]
    for run in measurement.single():
        figures = builtin.get((run.model, run.precision), {})
        rows.append((run.model, run.precision, run.dtype, str(run.gpus), str(run.batch),
                     f"{fmt.number(run.per_second_per_gpu)} {run.unit}/s",
                     fmt.MISSING if run.watts is None else f"{fmt.number(run.watts)} W",
                     fmt.figure(run.joules_per_sample, 4), fmt.number(run.relative, 3),
                     ", ".join(f"{fmt.number(v, 3)} {k}" for k, v in figures.items())
                     or fmt.MISSING))
    lines += _table(rows)
    lines += ["", ("Note: plain PyTorch on synthetic data. On an NVIDIA H200 this read "
                   + " and ".join(f"{fmt.number(v, 2)}× ({m})" for m, v in H200_CHECK.items())
                   + " the catalog's own figures for the same models, so a measured row "
                   "overstates against built-in rows (pricing/CATALOG.md, \"Measured on your "
                   "own GPU\").")]
    scaling = measurement.scaling()
    if scaling:
        lines += ["", ("Data-parallel scaling (DDP over NCCL): efficiency = throughput of N "
                       "GPUs / (N × one GPU's)"), ""]
        rows = [("model", "precision", "GPUs", "throughput", "power per GPU", "efficiency")]
        rows += [(r.model, r.precision, str(r.gpus), f"{fmt.number(r.per_second)} {r.unit}/s",
                  fmt.MISSING if r.watts is None else f"{fmt.number(r.watts)} W",
                  fmt.number(e, 3)) for r, e in scaling]
        lines += _table(rows)
    return "\n".join(lines) + "\n"


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
