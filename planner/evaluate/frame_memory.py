"""Memory for a sweep frame's float columns, mapped on its own and faulted in small pages.

numpy advises the kernel to back every array of 4 MB or more with transparent huge pages
(``madvise(MADV_HUGEPAGE)``). Where the kernel's THP defrag setting is ``madvise`` (a common
default), a page fault in such memory may first compact memory to find a free 2 MB page,
synchronously, in the process's own time. A sweep's frame is a few hundred MB written once:
a profile of a 200,000-scenario sweep of examples/usage.yaml on two cores put 0.53 s of its
1.95 s CPU in filling its float columns with NaN, and five such sweeps in turns took 1.93–2.20 s
with the advice and 1.42–1.56 s without. :func:`nan_columns` maps them as
one anonymous, private region of the process, not advised, so the kernel serves plain pages
(or huge ones where THP is ``always``); the numbers are the same.

Where ``mmap`` cannot map anonymous memory (Windows), the columns are numpy's own.
"""

from __future__ import annotations

import mmap

import numpy as np

#: The flags of a private anonymous mapping, where the platform has them.
_FLAGS = (getattr(mmap, "MAP_PRIVATE", None), getattr(mmap, "MAP_ANONYMOUS", None))


def nan_columns(columns: int, rows: int) -> np.ndarray:
    """A (columns, rows) float64 array of NaN, each row of it contiguous: ``columns`` columns
    of ``rows`` values, in memory of their own (see the module's docstring). Freed when the
    last view of it is."""
    private, anonymous = _FLAGS
    size = columns * rows * np.dtype(np.float64).itemsize
    if size == 0 or private is None or anonymous is None:
        return np.full((columns, rows), np.nan)
    region = mmap.mmap(-1, size, flags=private | anonymous)
    block = np.frombuffer(region, dtype=np.float64).reshape(columns, rows)
    block.fill(np.nan)
    return block
