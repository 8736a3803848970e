"""The sweep frame's float columns (planner/evaluate/frame_memory.py): NaN, writable, each
column contiguous, in a mapping of their own where the platform has anonymous mappings."""

from __future__ import annotations

import mmap
import pickle

import numpy as np
import pytest

from planner.evaluate.frame_memory import nan_columns


def test_columns_of_nan_each_contiguous_and_writable():
    block = nan_columns(3, 1000)
    assert block.shape == (3, 1000) and block.dtype == np.float64
    assert np.isnan(block).all()
    column = block[1]
    assert column.flags.c_contiguous and column.flags.writeable
    column[:10] = 2.5
    assert np.isnan(block[0]).all() and np.isnan(block[2]).all()  # the others untouched
    assert pickle.loads(pickle.dumps(column))[:10].tolist() == [2.5] * 10


@pytest.mark.skipif(not hasattr(mmap, "MAP_ANONYMOUS"), reason="no anonymous mappings here")
def test_the_columns_are_a_mapping_of_their_own():
    owner = nan_columns(2, 10)
    while isinstance(owner, np.ndarray):
        owner = owner.base
    assert isinstance(owner, memoryview) and isinstance(owner.obj, mmap.mmap)


def test_no_columns_or_no_rows():
    assert nan_columns(0, 100).shape == (0, 100)
    assert nan_columns(4, 0).shape == (4, 0)
