"""What usage logs say about the demand (SPEC §9): GPUs, span, busy GPU-hours, utilization,
GPU-hours a month, power when busy and idle, and a growth fitted on whole months.

For each GPU the samples are sorted by time; a sample stands for the time to the next one
(Δt), the last one for the median of its GPU's intervals, and no Δt exceeds 5 × that median (a
gap in the log is not counted as work).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from planner.errors import Problem, UserError
from planner.logs.dcgm import is_dcgm, read_dcgm
from planner.logs.dmon import is_dmon, read_dmon
from planner.logs.nvidia_smi import is_nvidia_smi, read_nvidia_smi
from planner.logs.sacct import is_sacct, read_sacct
from planner.logs.samples import GpuSamples, Job

#: A month of the growth fit [s]: 730 hours.
MONTH_SECONDS = 730 * 3600.0
#: Whole months of logs needed before a growth is fitted.
GROWTH_MONTHS = 3
#: The largest Δt, in medians of a GPU's intervals.
MAX_GAP = 5.0


@dataclass(frozen=True)
class Calibration:
    """SPEC §9's figures (``power_watts_*`` None without power readings;
    ``growth_per_year`` None unless fitted on :data:`GROWTH_MONTHS` whole months or more)."""

    gpus: int
    span_hours: float
    busy_gpu_hours: float
    utilization: float
    gpu_hours_per_month: float
    power_watts_busy: float | None
    power_watts_idle: float | None
    growth_per_year: float | None
    source: str  # "nvidia-smi", "dcgm-exporter" (or both, joined by " and "), or "sacct"

    def to_dict(self) -> dict:
        return {"gpus": self.gpus, "span_hours": self.span_hours,
                "busy_gpu_hours": self.busy_gpu_hours, "utilization": self.utilization,
                "gpu_hours_per_month": self.gpu_hours_per_month,
                "power_watts_busy": self.power_watts_busy,
                "power_watts_idle": self.power_watts_idle,
                "growth_per_year": self.growth_per_year, "source": self.source}


def read_logs(paths: list[str], hours_per_month: float = 730.0) -> Calibration:
    """The figures of the logs at ``paths`` read together (all nvidia-smi logs, or all sacct
    output); a file that is missing, empty, of another kind or unreadable is a user error."""
    gpus: list[GpuSamples] = []
    jobs: list[Job] = []
    kinds, problems = set(), []
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as err:
            problems.append(Problem(f"cannot read the file: {getattr(err, 'strerror', None) or err}",
                                    file=path))
            continue
        first = next((line for line in text.splitlines() if line.strip()), "")
        try:
            if is_nvidia_smi(first):
                kinds.add("nvidia-smi")
                gpus += read_nvidia_smi(text[text.index(first):], path)
            elif is_dcgm(first):
                kinds.add("dcgm-exporter")
                gpus += read_dcgm(text[text.index(first):], path)
            elif is_dmon(first):
                kinds.add("nvidia-smi")
                gpus += read_dmon(text[text.index(first):], path)
            elif is_sacct(first):
                kinds.add("sacct")
                jobs += read_sacct(text[text.index(first):], path)
            else:
                problems.append(Problem(
                    "not a log planner can read: expected nvidia-smi --query-gpu=timestamp,"
                    "utilization.gpu,… --format=csv, nvidia-smi dmon, dcgm-exporter metrics "
                    "(DCGM_FI_DEV_GPU_UTIL), or sacct --parsable2 with AllocTRES",
                    file=path, line=1))
        except UserError as err:
            problems += err.problems
    if "sacct" in kinds and len(kinds) > 1:
        problems.append(Problem("read nvidia-smi logs or sacct output, not both at once (they "
                                "would count the same work twice)", file=paths[0]))
    if problems:
        raise UserError(problems)
    if jobs:
        return _from_jobs(jobs, hours_per_month)
    return _from_samples(_one_per_gpu(gpus), hours_per_month, paths,
                         " and ".join(sorted(kinds)))


def _one_per_gpu(gpus: list[GpuSamples]) -> list[GpuSamples]:
    """The samples of a GPU found in several files (by its UUID) as one GPU's."""
    merged: dict[str, GpuSamples] = {}
    for samples in gpus:
        into = merged.get(samples.gpu)
        if into is None:
            merged[samples.gpu] = samples
            continue
        into.times += samples.times
        into.utilization += samples.utilization
        into.power += samples.power
    return list(merged.values())


def _from_samples(gpus: list[GpuSamples], hours_per_month: float,
                  paths: list[str], source: str) -> Calibration:
    times, dts, busy_share, power = [], [], [], []
    last_end = -math.inf
    for gpu in gpus:
        t = np.asarray(gpu.times)
        order = np.argsort(t, kind="stable")
        t = t[order]
        intervals = np.diff(t)
        median = float(np.median(intervals)) if intervals.size else 0.0
        dt = np.minimum(np.append(intervals, median), MAX_GAP * median)
        times.append(t)
        dts.append(dt)
        busy_share.append(np.asarray(gpu.utilization, float)[order] / 100.0)
        power.append(np.asarray([np.nan if p is None else p for p in gpu.power], float)[order])
        last_end = max(last_end, float(t[-1] + dt[-1]))
    if not gpus:
        raise UserError([Problem("the logs hold no sample with utilization.gpu", file=paths[0])])
    t, dt = np.concatenate(times), np.concatenate(dts)
    share, watts = np.concatenate(busy_share), np.concatenate(power)
    span_hours = (last_end - float(t.min())) / 3600.0
    if span_hours <= 0:
        raise UserError([Problem("the logs span no time: they need two samples of a GPU at "
                                 "least", file=paths[0])])
    busy = dt * share / 3600.0
    total = float(busy.sum())
    return Calibration(
        gpus=len(gpus), span_hours=span_hours, busy_gpu_hours=total,
        utilization=total / (len(gpus) * span_hours),
        gpu_hours_per_month=total / span_hours * hours_per_month,
        power_watts_busy=_mean(watts[share >= 0.5]), power_watts_idle=_mean(watts[share == 0]),
        growth_per_year=fitted_growth(t, busy), source=source)


def _from_jobs(jobs: list[Job], hours_per_month: float) -> Calibration:
    starts = np.array([j.start for j in jobs])
    ends = np.array([j.end for j in jobs])
    busy = np.array([j.elapsed_hours * j.gpus for j in jobs])
    span_hours = (ends.max() - starts.min()) / 3600.0
    if span_hours <= 0:
        raise UserError([Problem("the jobs span no time")])
    total = float(busy.sum())
    gpus = most_at_once(starts, ends, np.array([j.gpus for j in jobs]))
    return Calibration(
        gpus=gpus, span_hours=span_hours, busy_gpu_hours=total,
        utilization=total / (gpus * span_hours),
        gpu_hours_per_month=total / span_hours * hours_per_month,
        power_watts_busy=None, power_watts_idle=None,
        growth_per_year=fitted_growth(starts, busy), source="sacct")


def most_at_once(starts: np.ndarray, ends: np.ndarray, gpus: np.ndarray) -> int:
    """The most GPUs allocated at one time (a job ending as another starts does not
    overlap it)."""
    events = sorted([(float(e), -int(g)) for e, g in zip(ends, gpus)]
                    + [(float(s), int(g)) for s, g in zip(starts, gpus)])
    now = peak = 0
    for _, change in events:
        now += change
        peak = max(peak, now)
    return peak


def fitted_growth(times: np.ndarray, busy_hours: np.ndarray) -> float | None:
    """Growth a year of the busy GPU-hours, from a least-squares line through the logarithm
    of each whole month's (730 h) busy GPU-hours; None with fewer than
    :data:`GROWTH_MONTHS` whole months or a month without work."""
    start = float(times.min())
    month = np.floor((times - start) / MONTH_SECONDS).astype(int)
    whole = int((times.max() - start) // MONTH_SECONDS)
    if whole < GROWTH_MONTHS:
        return None
    totals = np.bincount(month[month < whole], weights=busy_hours[month < whole],
                         minlength=whole)
    if (totals <= 0).any():
        return None
    slope = np.polyfit(np.arange(whole), np.log(totals), 1)[0]
    return float(math.expm1(12.0 * slope))


def _mean(values: np.ndarray) -> float | None:
    values = values[~np.isnan(values)]
    return float(values.mean()) if values.size else None
