"""Slurm ``sacct --parsable2`` output: one job per line, fields separated by ``|``.

Job steps (``1001.batch``, ``1001.0``) and jobs without a start or an end (pending, running)
are skipped. GPUs come from ``AllocTRES`` (else ``ReqTRES``): ``gres/gpu=N``, counted once even
where ``gres/gpu:TYPE=N`` stands beside it (the typed counts are summed only when the plain one
is absent). ``Elapsed`` is ``[D-]HH:MM:SS`` (or ``MM:SS``); without it, end − start.
"""

from __future__ import annotations

import datetime as _dt
import re

from planner.errors import Problem, UserError
from planner.logs.samples import Job

_UNSET = {"", "unknown", "none", "n/a"}


def is_sacct(first_line: str) -> bool:
    """Whether a file whose first line is ``first_line`` is ``sacct --parsable2`` output."""
    names = [n.strip().lower() for n in first_line.split("|")]
    return "jobid" in names and ("alloctres" in names or "reqtres" in names)


def elapsed_hours(text: str) -> float:
    """``"1-02:03:04"`` → 26.05 h; ``"02:03:04"``, ``"03:04"`` too (a ValueError else)."""
    days, _, clock = text.strip().rpartition("-")
    parts = [float(p) for p in clock.split(":")]
    if not 2 <= len(parts) <= 3:
        raise ValueError(text)
    hours, minutes, seconds = ([0.0] * (3 - len(parts)) + parts)
    return (float(days) if days else 0.0) * 24 + hours + minutes / 60 + seconds / 3600


def tres_gpus(text: str) -> int:
    """GPUs in a TRES string (``billing=8,cpu=8,gres/gpu:a100=2,gres/gpu=2,mem=64G``)."""
    plain, typed = None, 0
    for item in text.split(","):
        name, _, value = item.strip().partition("=")
        if name == "gres/gpu":
            plain = int(value)
        elif name.startswith("gres/gpu:") and re.fullmatch(r"\d+", value):
            typed += int(value)
    return plain if plain is not None else typed


def _time(text: str) -> float | None:
    text = text.strip()
    if text.lower() in _UNSET:
        return None
    return _dt.datetime.fromisoformat(text).replace(tzinfo=_dt.timezone.utc).timestamp()


def read_sacct(text: str, file: str) -> list[Job]:
    """The finished GPU jobs of one file; a line that cannot be read is a user error naming
    the file and the line."""
    lines = text.splitlines()
    header = [n.strip().lower() for n in lines[0].split("|")]
    at = {name: i for i, name in enumerate(header)}
    tres = "alloctres" if "alloctres" in at else "reqtres"
    jobs, problems = [], []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        cells = line.split("|")
        if len(cells) < len(header):
            problems.append(Problem(f"expected {len(header)} fields separated by '|', got "
                                    f"{len(cells)}", file=file, line=number))
            continue
        if "." in cells[at["jobid"]]:
            continue  # a job step: its job's line counts its GPUs already
        try:
            gpus = tres_gpus(cells[at[tres]])
            start = _time(cells[at["start"]]) if "start" in at else None
            end = _time(cells[at["end"]]) if "end" in at else None
        except ValueError:
            problems.append(Problem(f"cannot read {tres}, Start or End", file=file,
                                    line=number))
            continue
        if gpus == 0 or start is None or end is None:
            continue
        try:
            hours = (elapsed_hours(cells[at["elapsed"]]) if "elapsed" in at
                     else (end - start) / 3600)
        except ValueError:
            problems.append(Problem(f"cannot read Elapsed {cells[at['elapsed']]!r} (expected "
                                    "[D-]HH:MM:SS)", file=file, line=number))
            continue
        jobs.append(Job(start, end, hours, gpus))
    if problems:
        raise UserError(problems)
    return jobs
