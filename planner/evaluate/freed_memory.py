"""Keep memory that numpy frees for its next arrays while a sweep runs, instead of giving it
back to the operating system and faulting it in again.

A sweep's chunk makes about a hundred fresh temporaries of a few MB each (scenarios × months
per option), and the next chunk makes them again. glibc's malloc serves blocks that large with
a fresh ``mmap`` (or trims its heap when they are freed), so every one of them is zeroed by the
kernel page by page when first written: 700,000 page faults in a sweep of 200,000 scenarios of
examples/usage.yaml, 40 % of its time (system time; measured on two cores). Raising malloc's
mmap and trim thresholds for the duration keeps freed blocks in the heap, where the next chunk's
arrays reuse them without a fault: the same arrays, the same numbers, less time. Afterwards the
thresholds go back to glibc's defaults and the free part of the heap is returned
(``malloc_trim``).

Only where the C library is glibc (Linux); elsewhere this does nothing.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import platform
import threading
from collections.abc import Iterator

#: mallopt's parameters (glibc's malloc.h).
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
#: glibc's defaults, restored afterwards. [bytes]
_DEFAULT_THRESHOLD_BYTES = 128 * 1024
#: While a sweep runs: blocks up to this size come from the heap (a chunk's arrays are a few
#: MB; a frame's column of 10^7 rows, 80 MB, is still mapped on its own). [bytes]
_SWEEP_MMAP_THRESHOLD_BYTES = 64 * 1024 * 1024
#: ... and the heap keeps up to this much free memory at its top. [bytes]
_SWEEP_TRIM_THRESHOLD_BYTES = 1024 * 1024 * 1024

_lock = threading.Lock()
_depth = 0


@functools.cache
def _libc():
    """glibc, or None (another C library, or none found)."""
    if platform.libc_ver()[0] != "glibc":
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


def _set(mmap_bytes: int, trim_bytes: int) -> None:
    libc = _libc()
    if libc is not None:
        libc.mallopt(_M_MMAP_THRESHOLD, mmap_bytes)
        libc.mallopt(_M_TRIM_THRESHOLD, trim_bytes)


@contextlib.contextmanager
def reuse_freed_memory() -> Iterator[None]:
    """Inside: freed blocks of up to 64 MB stay with the process for the next arrays. Nested
    and concurrent uses share one setting, restored when the last one ends."""
    global _depth
    with _lock:
        if _depth == 0:
            _set(_SWEEP_MMAP_THRESHOLD_BYTES, _SWEEP_TRIM_THRESHOLD_BYTES)
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                _set(_DEFAULT_THRESHOLD_BYTES, _DEFAULT_THRESHOLD_BYTES)
                libc = _libc()
                if libc is not None:
                    libc.malloc_trim(0)
