"""``nvidia-smi --query-gpu=timestamp,index,uuid,utilization.gpu,power.draw --format=csv``
logs, with or without units (``--format=csv,nounits``), looped with ``-l``.

The header names the fields (``utilization.gpu [%]``); a value may carry its unit (``45 %``,
``120.50 W``); ``[N/A]``, ``[Not Supported]`` and ``[Unknown Error]`` mean no value. A repeated
header line (a log appended to by several runs) is skipped. GPUs are told apart by ``uuid``,
else by ``index`` within the file, else the file is one GPU.
"""

from __future__ import annotations

import csv
import datetime as _dt
from collections.abc import Iterable, Iterator

from planner.errors import Problem, UserError
from planner.logs.samples import Sample

#: The timestamp layouts nvidia-smi prints (its default, and ISO 8601 as tools rewrite it).
TIMESTAMP_FORMATS = ("%Y/%m/%d %H:%M:%S.%f", "%Y/%m/%d %H:%M:%S", "%Y-%m-%d %H:%M:%S.%f",
                     "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S.%f", "%Y-%m-%dT%H:%M:%S",
                     "%a %b %d %H:%M:%S %Y")
MISSING = {"[n/a]", "[not supported]", "[unknown error]", "n/a", ""}


def is_nvidia_smi(first_line: str) -> bool:
    """Whether a file whose first line is ``first_line`` is an nvidia-smi CSV log."""
    names = [_field(n) for n in first_line.split(",")]
    return "timestamp" in names and "utilization.gpu" in names


def _field(name: str) -> str:
    """``" utilization.gpu [%]"`` → ``"utilization.gpu"``."""
    return name.strip().split(" [")[0].strip().lower()


def parse_timestamp(text: str) -> float | None:
    """Seconds since the epoch of an nvidia-smi timestamp (read as UTC), None if unreadable."""
    text = text.strip()
    for layout in TIMESTAMP_FORMATS:
        try:
            moment = _dt.datetime.strptime(text, layout)
        except ValueError:
            continue
        return moment.replace(tzinfo=_dt.timezone.utc).timestamp()
    return None


def _number(text: str) -> float | None:
    """``"45 %"``, ``"120.50 W"``, ``"45"`` → the number; a missing value → None; else a
    ValueError."""
    text = text.strip()
    if text.lower() in MISSING:
        return None
    return float(text.split()[0])


def nvidia_smi_samples(lines: Iterable[str], file: str) -> Iterator[Sample]:
    """The readings of a log's ``lines`` (its header first), one at a time; once all are
    read, a user error naming every line that could not be."""
    rows = csv.reader(lines)
    header = [_field(n) for n in next(rows)]
    at = {name: header.index(name) for name in header}
    problems = []
    for number, row in enumerate(rows, start=2):
        if not row or all(not cell.strip() for cell in row):
            continue
        if [_field(c) for c in row] == header:
            continue  # a header repeated by a later run appended to the file
        if len(row) != len(header):
            problems.append(Problem(f"expected {len(header)} values as in the header, got "
                                    f"{len(row)}", file=file, line=number))
            continue
        when = parse_timestamp(row[at["timestamp"]])
        if when is None:
            problems.append(Problem(f"cannot read the timestamp {row[at['timestamp']]!r} "
                                    "(expected like 2024/05/01 12:00:00.000)", file=file,
                                    line=number))
            continue
        try:
            busy = _number(row[at["utilization.gpu"]])
            power = _number(row[at["power.draw"]]) if "power.draw" in at else None
        except ValueError:
            problems.append(Problem("utilization.gpu and power.draw must be numbers (with "
                                    "or without their unit) or [N/A]", file=file, line=number))
            continue
        if busy is None:
            continue  # a sample without utilization says nothing of the work
        if "uuid" in at and row[at["uuid"]].strip():
            key = row[at["uuid"]].strip()
        elif "index" in at:
            key = f"{file}#{row[at['index']].strip()}"
        else:
            key = file
        yield key, when, busy, power
    if problems:
        raise UserError(problems)
