"""What usage logs say about the demand (SPEC §9): GPUs, span, busy GPU-hours, utilization,
GPU-hours a month, power when busy and idle, and a growth fitted on whole months.

For each GPU the samples are sorted by time; a sample stands for the time to the next one
(Δt), the last one for the median of its GPU's intervals, and no Δt exceeds 5 × that median (a
gap in the log is not counted as work).

The readers yield one reading at a time and the logs are read twice (each GPU's intervals,
then the sums), so a year of 1 s samples of 8 GPUs takes no more memory than a minute of them;
only a GPU whose readings are out of time order is sorted in memory.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from planner.errors import Problem, UserError
from planner.logs.dcgm import dcgm_samples, is_dcgm
from planner.logs.dmon import dmon_samples, is_dmon
from planner.logs.nvidia_smi import is_nvidia_smi, nvidia_smi_samples
from planner.logs.sacct import is_sacct, read_sacct
from planner.logs.samples import GpuSamples, Job, Sample, collect

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


LineSource = tuple[str, Callable[[], Iterable[str]]]
"""A log to read: its name (a file's path) and a function that gives its lines afresh each
time it is called (the readings are read twice, never held; see :func:`read_log_lines`)."""

_READERS = {"nvidia-smi": nvidia_smi_samples, "dmon": dmon_samples,
            "dcgm-exporter": dcgm_samples}
_SOURCE = {"nvidia-smi": "nvidia-smi", "dmon": "nvidia-smi", "dcgm-exporter": "dcgm-exporter"}


def read_logs(paths: list[str], hours_per_month: float = 730.0) -> Calibration:
    """The figures of the logs at ``paths`` read together (all nvidia-smi logs, or all sacct
    output); a file that is missing, empty, of another kind or unreadable is a user error."""
    return read_log_lines([(path, _file_lines(path)) for path in paths], hours_per_month)


def _file_lines(path: str) -> Callable[[], Iterator[str]]:
    def lines() -> Iterator[str]:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            yield from handle
    return lines


def read_log_lines(sources: Sequence[LineSource],
                   hours_per_month: float = 730.0) -> Calibration:
    """:func:`read_logs` of logs given as lines. GPU readings stream: a first pass finds each
    GPU's span and intervals (a count of each distinct interval), a second sums
    the figures, so memory stays bounded however long the logs are, as long as each GPU's
    readings come in time order (as nvidia-smi, dmon and a scrape loop write them); a GPU
    whose readings do not is sorted in memory (every reading held). sacct jobs are held."""
    readers: list[tuple[str, str, Callable[[], Iterable[str]]]] = []
    jobs: list[Job] = []
    kinds, problems = set(), []
    for file, lines in sources:
        try:
            first = next(_from_first(lines()), "")
        except (OSError, UnicodeDecodeError) as err:
            problems.append(_unreadable(err, file))
            continue
        kind = _kind(first)
        if kind is None:
            problems.append(Problem(
                "not a log planner can read: expected nvidia-smi --query-gpu=timestamp,"
                "utilization.gpu,… --format=csv, nvidia-smi dmon, dcgm-exporter metrics "
                "(DCGM_FI_DEV_GPU_UTIL), or sacct --parsable2 with AllocTRES",
                file=file, line=1))
        elif kind == "sacct":
            kinds.add(kind)
            try:
                jobs += read_sacct("".join(_from_first(lines())), file)
            except UserError as err:
                problems += err.problems
        else:
            kinds.add(_SOURCE[kind])
            readers.append((file, kind, lines))
    if "sacct" in kinds and len(kinds) > 1:
        problems.append(Problem("read nvidia-smi logs or sacct output, not both at once (they "
                                "would count the same work twice)", file=sources[0][0]))
    spans = _spans(readers, problems) if readers and not jobs else {}
    if problems:
        raise UserError(problems)
    if jobs:
        return _from_jobs(jobs, hours_per_month)
    if not spans:
        raise UserError([Problem("the logs hold no sample with utilization.gpu",
                                 file=sources[0][0])])
    source = " and ".join(sorted(kinds))
    if not all(span.ordered for span in spans.values()):
        return _from_samples(collect(_readings(readers)), hours_per_month,
                             [file for file, _, _ in readers], source)
    return _streamed(readers, spans, hours_per_month, source)


def _kind(first_line: str) -> str | None:
    for kind, test in (("nvidia-smi", is_nvidia_smi), ("dcgm-exporter", is_dcgm),
                       ("dmon", is_dmon), ("sacct", is_sacct)):
        if test(first_line):
            return kind
    return None


def _unreadable(err: Exception, file: str) -> Problem:
    return Problem(f"cannot read the file: {getattr(err, 'strerror', None) or err}", file=file)


def _from_first(lines: Iterable[str]) -> Iterator[str]:
    """``lines`` from the first that is not blank (the one a log's kind is told by); the
    blank ones before it are read at once, the rest as they are wanted (chained, not passed
    through a generator: a long log's lines are many)."""
    rest = iter(lines)
    for line in rest:
        if line.strip():
            return itertools.chain((line,), rest)
    return iter(())


def _readings(readers, problems: list[Problem] | None = None) -> Iterator[Sample]:
    """Every reading of every log, log by log; a log's user error goes to ``problems``
    (raised without it)."""
    for file, kind, lines in readers:
        try:
            yield from _READERS[kind](_from_first(lines()), file)
        except UserError as err:
            if problems is None:
                raise
            problems += err.problems
        except (OSError, UnicodeDecodeError) as err:
            if problems is None:
                raise UserError([_unreadable(err, file)]) from None
            problems.append(_unreadable(err, file))


class _Span:
    """What the first pass learns of a GPU: its first and latest reading [s], whether they
    came in time order, and how often each interval [s] occurred."""

    __slots__ = ("first", "intervals", "last", "ordered")

    def __init__(self, when: float):
        self.first = self.last = when
        self.ordered = True
        self.intervals: Counter[float] = Counter()

    def median(self) -> float:
        """The median interval (numpy's: the mean of the middle two of an even count); 0
        without one."""
        total = sum(self.intervals.values())
        if not total:
            return 0.0
        wanted = [(total - 1) // 2, total // 2]
        found, seen = [], 0
        for value in sorted(self.intervals):
            seen += self.intervals[value]
            while wanted and wanted[0] < seen:
                found.append(value)
                wanted.pop(0)
        return (found[0] + found[1]) / 2.0


def _spans(readers, problems: list[Problem]) -> dict[str, _Span]:
    """The first pass: each GPU's span and intervals; every log's problems go to
    ``problems``."""
    spans: dict[str, _Span] = {}
    for gpu, when, _, _ in _readings(readers, problems):
        span = spans.get(gpu)
        if span is None:
            spans[gpu] = _Span(when)
            continue
        last = span.last
        if when < last:
            span.ordered = False
        else:
            intervals = span.intervals
            intervals[when - last] = intervals.get(when - last, 0) + 1
        span.last = when
    return spans


def _streamed(readers, spans: dict[str, _Span], hours_per_month: float,
              source: str) -> Calibration:
    """The second pass: each reading stands for the time to its GPU's next one (at most
    :data:`MAX_GAP` medians), its GPU's last for the median; the figures summed as they go."""
    start = min(span.first for span in spans.values())
    whole = int((max(span.last for span in spans.values()) - start) // MONTH_SECONDS)
    median = {gpu: span.median() for gpu, span in spans.items()}
    longest = {gpu: MAX_GAP * m for gpu, m in median.items()}
    held: dict[str, tuple[float, float, float | None]] = {}
    busy_seconds = 0.0
    months: dict[int, float] = {}  # busy GPU-hours a month
    watts = {"busy": [0.0, 0], "idle": [0.0, 0]}
    busy_watts, idle_watts = watts["busy"], watts["idle"]

    def count(when: float, busy: float, power: float | None, dt: float) -> None:
        nonlocal busy_seconds
        work = dt * busy / 100.0
        busy_seconds += work
        month = int((when - start) // MONTH_SECONDS)
        months[month] = months.get(month, 0.0) + work / 3600.0
        if power is not None and (busy >= 50 or busy == 0):
            total = busy_watts if busy >= 50 else idle_watts
            total[0] += power
            total[1] += 1

    # The loop is count() written out: it runs once a reading, 10^7 times for a long log.
    for gpu, when, busy, power in _readings(readers):
        before = held.get(gpu)
        held[gpu] = (when, busy, power)
        if before is None:
            continue
        was, percent, watt = before
        dt = min(when - was, longest[gpu])
        work = dt * percent / 100.0
        busy_seconds += work
        month = int((was - start) // MONTH_SECONDS)
        months[month] = months.get(month, 0.0) + work / 3600.0
        if watt is not None:
            if percent >= 50:
                busy_watts[0] += watt
                busy_watts[1] += 1
            elif percent == 0:
                idle_watts[0] += watt
                idle_watts[1] += 1
    for gpu, before in held.items():
        count(*before, median[gpu])
    span_hours = (span_end([(before[0], median[gpu]) for gpu, before in held.items()])
                  - start) / 3600.0
    if span_hours <= 0:
        raise UserError([Problem("the logs span no time: they need two samples of a GPU at "
                                 "least", file=readers[0][0])])
    total = busy_seconds / 3600.0
    mean = {k: (v[0] / v[1] if v[1] else None) for k, v in watts.items()}
    return Calibration(
        gpus=len(spans), span_hours=span_hours, busy_gpu_hours=total,
        utilization=total / (len(spans) * span_hours),
        gpu_hours_per_month=total / span_hours * hours_per_month,
        power_watts_busy=mean["busy"], power_watts_idle=mean["idle"],
        growth_per_year=growth_of_months(months, whole), source=source)


def span_end(lasts: list[tuple[float, float]]) -> float:
    """Where the logs' span ends (SPEC §9: "from the first sample to the last, plus that last
    sample's Δt"): the latest sample of all, plus its Δt, from each GPU's (last sample, its
    Δt) [s]; where several GPUs' last samples share that time, the longest of their Δt.

    GPU a's last sample at 3,600 s (Δt 600), GPU b's at 3,900 s (Δt 60): 3,960, not a's
    4,200.

    >>> span_end([(3600.0, 600.0), (3900.0, 60.0)])
    3960.0
    """
    latest = max(when for when, _ in lasts)
    return latest + max(dt for when, dt in lasts if when == latest)


def _from_samples(gpus: list[GpuSamples], hours_per_month: float,
                  paths: list[str], source: str) -> Calibration:
    times, dts, busy_share, power = [], [], [], []
    lasts = []
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
        lasts.append((float(t[-1]), float(dt[-1])))
    if not gpus:
        raise UserError([Problem("the logs hold no sample with utilization.gpu", file=paths[0])])
    t, dt = np.concatenate(times), np.concatenate(dts)
    share, watts = np.concatenate(busy_share), np.concatenate(power)
    span_hours = (span_end(lasts) - float(t.min())) / 3600.0
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
    return growth_of_months(dict(enumerate(totals)), whole)


def growth_of_months(busy_hours: Mapping[int, float], whole: int) -> float | None:
    """Growth a year from the busy GPU-hours of months 0, 1, … (the first ``whole`` of them,
    the whole months): a least-squares line through their logarithms; None with fewer than
    :data:`GROWTH_MONTHS` or a month without work."""
    if whole < GROWTH_MONTHS:
        return None
    totals = np.array([busy_hours.get(m, 0.0) for m in range(whole)])
    if (totals <= 0).any():
        return None
    slope = np.polyfit(np.arange(whole), np.log(totals), 1)[0]
    return float(math.expm1(12.0 * slope))


def _mean(values: np.ndarray) -> float | None:
    values = values[~np.isnan(values)]
    return float(values.mean()) if values.size else None
