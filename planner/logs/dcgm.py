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

from planner.errors import Problem, UserError
from planner.logs.samples import GpuSamples

__all__ = ["SCRAPE_SECONDS", "is_dcgm", "read_dcgm"]

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


def read_dcgm(text: str, file: str) -> list[GpuSamples]:
    """The GPUs of one scraped file and their samples; a line that is not a Prometheus
    sample is a user error naming the file and the line."""
    utilization: dict[str, list[tuple[object, float, float | None]]] = {}
    power: dict[tuple[str, object], float | None] = {}
    seen: dict[tuple[str, str], int] = {}
    problems = []
    for number, line in enumerate(text.splitlines(), start=1):
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
        if name == UTILIZATION:
            when = int(match["ms"]) / 1000.0 if match["ms"] else count * SCRAPE_SECONDS
            utilization.setdefault(gpu, []).append((scrape, when, value))
        else:
            power[(gpu, scrape)] = value
    if problems:
        raise UserError(problems)
    gpus = []
    for gpu, rows in utilization.items():
        samples = GpuSamples(gpu)
        for scrape, when, busy in rows:
            if busy is not None:  # a sample without utilization says nothing of the work
                samples.add(when, busy, power.get((gpu, scrape)))
        if samples.times:
            gpus.append(samples)
    return gpus


def _gpu(labels: dict[str, str], file: str) -> str:
    """A GPU's key: its UUID (and MIG instance), else the file and its index."""
    uuid = labels.get("UUID") or labels.get("uuid") or labels.get("gpu_uuid")
    if uuid:
        return uuid + (f"/{labels['GPU_I_ID']}" if labels.get("GPU_I_ID") else "")
    return f"{file}#{labels.get('gpu', '')}"
