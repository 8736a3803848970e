"""A result saved as JSON (``planner report usage.yaml -o old.json``), read back to be compared
with a new evaluation (``planner report --compare-to old.json``).

The file is the JSON object of SPEC §2. What the comparison reads of it is checked here, so a
file that is not such a result is a user error naming the file (and the line and column of a
JSON syntax error), never a traceback: ``format_version`` 1, ``title``, ``currency``,
``horizon_months``, ``cheapest``, ``options`` (each with ``name``, ``kind``, ``feasible``,
``total_cost``, ``present_value``, ``cost_per_gpu_hour``) and ``break_even`` (each with
``own``, ``versus``, ``months``, ``system_hours``, ``gpu_hours_per_month``). The saved
result has no monthly table or usage document: the comparison shows its figures, not its
inputs.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pandas as pd

from planner.errors import Problem, UserError
from planner.result import Result

__all__ = ["load_saved"]

_TOP = ("format_version", "title", "currency", "horizon_months", "options", "cheapest")
_OPTION = ("name", "kind", "feasible", "total_cost", "present_value", "cost_per_gpu_hour")
_PAIR = ("own", "versus", "months", "system_hours", "gpu_hours_per_month")


def load_saved(path: str | os.PathLike) -> Result:
    """The saved result at ``path`` as a :class:`planner.result.Result` holding its ``data``
    (empty tables); :class:`UserError` naming the file when it cannot be one."""
    file = os.fspath(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError.single("no such file", file=file) from None
    except (OSError, UnicodeDecodeError) as err:
        raise UserError.single(f"cannot read the file: {getattr(err, 'strerror', None) or err}",
                               file=file) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise UserError.single(f"not JSON: {err.msg}", file=file, line=err.lineno,
                               column=err.colno) from None
    problems = _problems(data, file)
    if problems:
        raise UserError(problems)
    data.setdefault("break_even", [])
    return Result(data=data, monthly=pd.DataFrame(), cost_vs_usage=pd.DataFrame())


def _problems(data: Any, file: str) -> list[Problem]:
    hint = ("a saved result is the JSON of planner report USAGE -o result.json")
    if not isinstance(data, dict):
        return [Problem(f"not a saved result ({hint})", file=file)]
    missing = [k for k in _TOP if k not in data]
    if missing:
        return [Problem(f"not a saved result: no {', '.join(missing)} ({hint})", file=file)]
    if data["format_version"] != 1:
        return [Problem(f"format_version {data['format_version']!r} is not 1", file=file,
                        path="format_version")]
    problems = []
    for name, rows, keys in (("options", data["options"], _OPTION),
                             ("break_even", data.get("break_even") or [], _PAIR)):
        if not isinstance(rows, list):
            problems.append(Problem("must be a list", file=file, path=name))
            continue
        for i, row in enumerate(rows):
            absent = [k for k in keys if not isinstance(row, dict) or k not in row]
            if absent:
                problems.append(Problem(f"missing {', '.join(absent)}", file=file,
                                        path=f"{name}[{i}]"))
    return problems
