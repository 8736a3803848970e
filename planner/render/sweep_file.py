"""A sweep's frame as a file: CSV, Parquet (with pyarrow installed) or an Excel workbook.

One row per scenario and option, the columns of :meth:`planner.Plan.sweep` (SPEC §4), figures
unrounded in the plan's currency. Written completely or not at all (SPEC §3).
"""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path
from typing import TYPE_CHECKING

from pricing.files import write_atomic

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["SWEEP_FORMATS", "SWEEP_SUFFIXES", "XLSX_MAX_ROWS", "has_parquet", "render_sweep",
           "write_sweep"]

SWEEP_FORMATS = ("csv", "parquet", "xlsx")
SWEEP_SUFFIXES = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet", ".xlsx": "xlsx"}
#: Rows of one Excel sheet, the header included (Excel's own limit).
XLSX_MAX_ROWS = 1_048_576


def has_parquet() -> bool:
    """Whether pyarrow, which pandas writes Parquet with, is importable."""
    return importlib.util.find_spec("pyarrow") is not None


def render_sweep(frame: pd.DataFrame, fmt: str) -> bytes:
    """The frame's bytes in ``fmt`` (:data:`SWEEP_FORMATS`). ValueError for a workbook with
    more rows than a sheet holds; ImportError for Parquet without pyarrow."""
    if fmt == "csv":
        return frame.to_csv(index=False).encode("utf-8")
    buffer = io.BytesIO()
    if fmt == "parquet":
        if not has_parquet():
            raise ImportError("pyarrow")
        frame.to_parquet(buffer, index=False, engine="pyarrow")
    elif fmt == "xlsx":
        if len(frame) + 1 > XLSX_MAX_ROWS:
            raise ValueError(f"{len(frame):,} rows do not fit in one Excel sheet "
                             f"({XLSX_MAX_ROWS - 1:,} at most)")
        frame.to_excel(buffer, index=False, sheet_name="sweep", engine="openpyxl")
    else:
        raise ValueError(f"unknown sweep format {fmt!r}; use one of {', '.join(SWEEP_FORMATS)}")
    return buffer.getvalue()


def write_sweep(frame: pd.DataFrame, path: str | Path, fmt: str) -> Path:
    """Write the frame to ``path`` in ``fmt``, completely or not at all."""
    return write_atomic(path, render_sweep(frame, fmt))
