"""``nvidia-smi dmon`` output: whitespace-separated columns under ``#`` header lines.

The first header names the columns (``gpu``, ``pwr``, ``sm``, …; with ``-o DT`` also ``Date``
and ``Time``), the second their units; dmon repeats both now and then, and every ``#`` line is
skipped. Utilization is the ``sm`` column [%], power ``pwr`` [W]; ``-`` is no value. Times come
from ``Date`` (YYYYMMDD) and ``Time`` (HH:MM:SS); with ``Time`` alone, a time earlier than the
one before is the next day; without either, samples are one second apart, dmon's default
interval (record with ``-o DT`` to be exact). GPUs are told apart by file and ``gpu`` index.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Iterator

from planner.errors import Problem, UserError
from planner.logs.samples import Sample


def is_dmon(first_line: str) -> bool:
    """Whether a file whose first line is ``first_line`` is ``nvidia-smi dmon`` output."""
    names = first_line.lstrip("#").split()
    return first_line.startswith("#") and "gpu" in names and "sm" in names


def dmon_samples(lines: Iterable[str], file: str) -> Iterator[Sample]:
    """The readings of a dmon log's ``lines`` (its first header first), one at a time; once
    all are read, a user error naming every line that could not be."""
    lines = iter(lines)
    names = next(lines).lstrip("#").split()
    at = {name.lower(): i for i, name in enumerate(names)}
    width, sm, pwr, index = len(names), at["sm"], at.get("pwr"), at["gpu"]
    clock_only = "date" not in at and "time" in at
    timed = "time" in at
    keys: dict[str, str] = {}
    counts: dict[str, int] = {}
    problems = []
    day_offset, last_clock = 0.0, None
    # Without time columns a line's text alone decides its reading (the n-th of its GPU is at
    # n seconds), and dmon repeats the same few lines: each distinct one is read once.
    read_before: dict[str, tuple[str, float, float | None]] = {}
    for number, line in enumerate(lines, start=2):
        if not timed:
            known = read_before.get(line)
            if known is not None:
                key = known[0]
                nth = counts[key]
                counts[key] = nth + 1
                yield key, float(nth), known[1], known[2]
                continue
        cells = line.split()
        if not cells or line.startswith("#"):
            continue
        if len(cells) != width:
            problems.append(Problem(f"expected {width} columns as in the header, got "
                                    f"{len(cells)}", file=file, line=number))
            continue
        try:
            busy = _value(cells[sm])
            power = None if pwr is None else _value(cells[pwr])
            when = _when(cells, at) if timed else None
        except ValueError:
            problems.append(Problem("cannot read this line's date, time, sm or pwr", file=file,
                                    line=number))
            continue
        if clock_only:  # a clock alone: past midnight is the next day
            if last_clock is not None and when + day_offset < last_clock:
                day_offset += 86_400.0
            when += day_offset
            last_clock = when
        if busy is None:
            continue
        key = keys.get(cells[index])
        if key is None:
            key = keys[cells[index]] = f"{file}#{cells[index]}"
        if when is None:  # no time columns: the GPU's n-th line is at n seconds
            nth = counts.get(key, 0)
            counts[key] = nth + 1
            when = float(nth)
            if len(read_before) < _LINES_REMEMBERED:
                read_before[line] = (key, busy, power)
        yield key, when, busy, power
    if problems:
        raise UserError(problems)


#: The most distinct lines of an untimed log remembered as read (a bound on memory: some
#: 200 bytes each).
_LINES_REMEMBERED = 4096


def _value(text: str) -> float | None:
    return None if text == "-" else float(text)


def _when(cells: list[str], at: dict[str, int]) -> float | None:
    """Seconds since the epoch (UTC) of a line, since midnight with a clock alone, or None
    without either (see the module)."""
    if "date" in at and "time" in at:
        moment = _dt.datetime.strptime(cells[at["date"]] + cells[at["time"]], "%Y%m%d%H:%M:%S")
        return moment.replace(tzinfo=_dt.timezone.utc).timestamp()
    if "time" in at:
        clock = _dt.datetime.strptime(cells[at["time"]], "%H:%M:%S")
        return clock.hour * 3600.0 + clock.minute * 60.0 + clock.second
    return None
