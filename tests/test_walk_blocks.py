"""The break-even walk evaluated block by block (planner/engine/linear.py): a block is skipped
for a scenario only where a lower bound rules a crossing out, so the first crossing found is
the one of evaluating every point."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.engine.linear import (
    BLOCK_POINTS,
    FIRST_BLOCK_POINTS,
    _block_floors,
    _first_at_or_below,
)


def first_crossing_everywhere(coef, basis, xs, tol):
    """The reference: every point of every scenario evaluated, the first at or below the
    tolerance taken (a zero there, else the linear root from the point before)."""
    values = coef @ basis
    out = np.full(coef.shape[0], np.nan)
    for r in range(coef.shape[0]):
        below = np.flatnonzero(values[r] <= tol[r])
        if below.size == 0:
            continue
        j = below[0]
        v1 = values[r, j]
        if abs(v1) <= tol[r]:
            out[r] = xs[j]
            continue
        prev = max(j - 1, 0)
        v0, x0, x1 = values[r, prev], xs[prev], xs[j]
        out[r] = x0 + v0 * (x1 - x0) / (v0 - v1) if x1 > x0 else x0
    return out


def test_crossings_in_the_first_block_a_later_block_and_none():
    xs = np.arange(61.0)  # more points than the first block and one block after it
    assert xs.size > FIRST_BLOCK_POINTS + BLOCK_POINTS
    basis = np.stack([np.ones_like(xs), xs])
    # 10 − 2x is zero at x = 5, a point; 61 − 2x is 1 at x = 30 and −1 at x = 31: the root
    # 30 + 1 × (31 − 30) / (1 − (−1)) = 30.5; 10 + x never reaches 0.
    coef = np.array([[10.0, -2.0], [61.0, -2.0], [10.0, 1.0]])
    tol = np.full(3, 1e-9)
    found = _first_at_or_below(coef, basis, xs, tol)
    assert found[0] == 5.0
    assert found[1] == 30.5
    assert np.isnan(found[2])


@st.composite
def walks(draw):
    """Integer walks, so that every product is exact: scenarios × terms coefficients, terms ×
    points basis, non-decreasing points."""
    rows = draw(st.integers(1, 6))
    terms = draw(st.integers(1, 4))
    points = draw(st.integers(1, 90))
    ints = st.integers(-20, 20)
    coef = np.array(draw(st.lists(st.lists(ints, min_size=terms, max_size=terms),
                                  min_size=rows, max_size=rows)), dtype=float)
    basis = np.array(draw(st.lists(st.lists(ints, min_size=points, max_size=points),
                                   min_size=terms, max_size=terms)), dtype=float)
    steps = draw(st.lists(st.integers(0, 3), min_size=points, max_size=points))
    xs = np.cumsum(np.array(steps, dtype=float))
    tol = np.array(draw(st.lists(st.sampled_from([0.5, 3.5]), min_size=rows,
                                 max_size=rows)))
    return coef, basis, xs, tol


@settings(max_examples=300, deadline=None)
@given(walks())
def test_the_blocks_find_the_crossing_of_evaluating_every_point(walk):
    coef, basis, xs, tol = walk
    found = _first_at_or_below(coef, basis, xs, tol)
    np.testing.assert_array_equal(found, first_crossing_everywhere(coef, basis, xs, tol))


@settings(max_examples=300, deadline=None)
@given(walks(), st.integers(1, 20))
def test_a_block_floor_is_never_above_the_walk_in_the_block(walk, size):
    coef, basis, _, _ = walk
    points = basis.shape[1]
    blocks = [(a, min(a + size, points)) for a in range(0, points, size)]
    floors = _block_floors(coef, basis, blocks)
    values = coef @ basis
    for b, (a, stop) in enumerate(blocks):
        assert (floors[:, b] <= values[:, a:stop].min(axis=1)).all()
