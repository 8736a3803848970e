"""planner.evaluate.freed_memory: malloc keeps freed blocks during a sweep, then gives them back."""

from __future__ import annotations

import resource
import threading

import numpy as np

from planner.evaluate import freed_memory


def test_nested_and_concurrent_uses_share_one_setting():
    assert freed_memory._depth == 0
    with freed_memory.reuse_freed_memory():
        with freed_memory.reuse_freed_memory():
            assert freed_memory._depth == 2
        assert freed_memory._depth == 1
        seen = []
        worker = threading.Thread(target=lambda: _use(seen))
        worker.start()
        worker.join()
        assert seen == [2]
    assert freed_memory._depth == 0


def _use(seen):
    with freed_memory.reuse_freed_memory():
        seen.append(freed_memory._depth)


def test_restored_after_an_error():
    try:
        with freed_memory.reuse_freed_memory():
            raise ValueError("inside")
    except ValueError:
        pass
    assert freed_memory._depth == 0


def test_freed_arrays_are_reused_without_page_faults():
    """Inside, 50 rounds of ten fresh 3 MB arrays fault their pages in once, not 50 times
    (glibc only; elsewhere the setting does nothing and there is nothing to check)."""
    if freed_memory._libc() is None:
        return
    def rounds():
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        for _ in range(50):
            arrays = [np.full(400_000, float(k)) for k in range(10)]  # 3.2 MB each
            del arrays
        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    with freed_memory.reuse_freed_memory():
        inside = rounds()
    # 10 arrays × 782 pages of 4 KiB: about 8,000 faults for the first round alone.
    assert inside < 20_000
