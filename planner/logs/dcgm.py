"""DCGM exporter metrics scraped to a file: Prometheus text lines of ``DCGM_FI_DEV_GPU_UTIL``
(utilization [%]) and ``DCGM_FI_DEV_POWER_USAGE`` (power [W]), one block per scrape.

NVIDIA's dcgm-exporter (https://github.com/NVIDIA/dcgm-exporter,
``internal/pkg/rendermetrics/render_metrics.go``) writes each GPU's sample as
``FIELD{gpu="0",UUID="GPU-…",pci_bus_id="…",device="nvidia0",modelName="…",Hostname="…",…}
VALUE`` under ``# HELP`` and ``# TYPE`` lines; ``curl -s localhost:9400/metrics >> dcgm.prom``
in a loop appends one such block per scrape. ``#`` lines and other metrics are skipped. A
sample may end with a Prometheus timestamp (milliseconds since the epoch, as a federated or
re-exported scrape has it); without one, a GPU's n-th sample is n × 30 s after its first
(the exporter's default collection interval, ``-c 30000``: utilization and GPU-hours a month do
not depend on it, the span and busy hours scale with it). Values at or above DCGM's blank
sentinels (2^47 for floats, about 9.2 × 10^18 for integers) and NaN mean no value. GPUs are told
apart by ``UUID`` (a MIG instance by its ``GPU_I_ID`` too), else by file and ``gpu`` index; the
power of a sample is the reading of the same GPU in the same scrape (same timestamp, or the
same count of readings).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator

from planner.errors import Problem, UserError
from planner.logs.samples import Sample

__all__ = ["SCRAPE_SECONDS", "dcgm_samples", "is_dcgm"]

UTILIZATION, POWER = "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_POWER_USAGE"
#: Seconds between scrapes without timestamps: dcgm-exporter's default collection interval.
SCRAPE_SECONDS = 30.0
#: DCGM's blank values start here (DCGM_FT_FP64_BLANK = 2^47; the integer blanks are larger).
BLANK = 2.0**47

_SAMPLE = re.compile(r"(?P<name>[A-Za-z_:][A-Za-z0-9_:]*)(?:\{(?P<labels>.*)\})?\s+"
                     r"(?P<value>\S+)(?:\s+(?P<ms>-?\d+))?")
_LABEL = re.compile(r'([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*"((?:[^"\\]|\\.)*)"')
_FIRST = re.compile(r"(#\s*(HELP|TYPE)\s+)?DCGM_")


def is_dcgm(first_line: str) -> bool:
    """Whether a file whose first line is ``first_line`` is scraped dcgm-exporter output."""
    return _FIRST.match(first_line.strip()) is not None


def dcgm_samples(lines: Iterable[str], file: str) -> Iterator[Sample]:
    """The readings of a scraped file's ``lines``, one at a time, each with the power of its
    scrape; once all are read, a user error naming every line that could not be.

    A GPU's utilization waits for the power of the same scrape until that GPU's next
    utilization (its next scrape) or the end of the file; a GPU or two a scrape are held,
    never the whole file."""
    held: dict[str, tuple[object, float, float | None, float | None]] = {}
    seen: dict[tuple[str, str], int] = {}
    problems = []
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = _SAMPLE.fullmatch(stripped)
        if match is None:
            problems.append(Problem("not a Prometheus sample (NAME{LABELS} VALUE [TIMESTAMP])",
                                    file=file, line=number))
            continue
        name = match["name"]
        if name not in (UTILIZATION, POWER):
            continue
        try:
            value: float | None = float(match["value"])
        except ValueError:
            problems.append(Problem(f"{name}: the value {match['value']!r} is not a number",
                                    file=file, line=number))
            continue
        if math.isnan(value) or abs(value) >= BLANK:
            value = None
        gpu = _gpu(dict(_LABEL.findall(match["labels"] or "")), file)
        count = seen.get((name, gpu), 0)
        seen[(name, gpu)] = count + 1
        scrape = int(match["ms"]) if match["ms"] else count
        waiting = held.get(gpu)
        if name == UTILIZATION:
            if waiting is not None and waiting[0] != scrape:
                yield from _ready(gpu, held.pop(gpu))
                waiting = None
            when = int(match["ms"]) / 1000.0 if match["ms"] else count * SCRAPE_SECONDS
            power = waiting[3] if waiting is not None else None
            held[gpu] = (scrape, when, value, power)
        elif waiting is not None and waiting[0] == scrape:
            held[gpu] = (*waiting[:3], value)
        elif waiting is None or waiting[0] != scrape:
            if waiting is not None:
                yield from _ready(gpu, held.pop(gpu))
            held[gpu] = (scrape, math.nan, None, value)  # power before its utilization
    for gpu, waiting in held.items():
        yield from _ready(gpu, waiting)
    if problems:
        raise UserError(problems)


def _ready(gpu: str, waiting: tuple) -> Iterator[Sample]:
    """A held reading, once its scrape is over (none without a utilization)."""
    _, when, busy, power = waiting
    if busy is not None and not math.isnan(when):
        yield gpu, when, busy, power


def _gpu(labels: dict[str, str], file: str) -> str:
    """A GPU's key: its UUID (and MIG instance), else the file and its index."""
    uuid = labels.get("UUID") or labels.get("uuid") or labels.get("gpu_uuid")
    if uuid:
        return uuid + (f"/{labels['GPU_I_ID']}" if labels.get("GPU_I_ID") else "")
    return f"{file}#{labels.get('gpu', '')}"
