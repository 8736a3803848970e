"""The first zero of a piecewise-linear walk, for all scenarios at once: the step both
break-even searches (:mod:`planner.engine.breakeven`, :mod:`planner.engine.linear`) end in."""

from __future__ import annotations

import numpy as np

from planner.cards.model import Array


def first_crossing(xs: Array, vs: Array, tols: Array):
    """First point of a walk (S, n) where the value is zero or changes sign, linear in
    between; the walk ends at its first NaN (a level where an option is infeasible).
    Returns the level (S,) and the bracket (S, 2) of a crossing inside a segment."""
    rows, n = xs.shape
    r = np.arange(rows)
    missing = np.isnan(vs)
    end = np.where(missing.any(axis=1), np.argmax(missing, axis=1), n)
    zero = np.abs(vs) <= tols
    a, b = vs[:, :-1], vs[:, 1:]
    change = ((a > 0) & (b < 0)) | ((a < 0) & (b > 0))
    change &= ~zero[:, :-1] & ~zero[:, 1:]
    first_zero = np.where(zero.any(axis=1), np.argmax(zero, axis=1), n)
    first_change = np.where(change.any(axis=1), np.argmax(change, axis=1), n)
    # A zero at point j comes before a sign change on segment j (from j to j + 1).
    use_zero = (first_zero <= first_change) & (first_zero < end)
    use_change = ~use_zero & (first_change + 1 < end)
    level = np.full(rows, np.nan)
    bracket = np.full((rows, 2), np.nan)
    level[use_zero] = xs[r[use_zero], first_zero[use_zero]]
    s = first_change[use_change]
    x0, x1 = xs[r[use_change], s], xs[r[use_change], s + 1]
    v0, v1 = vs[r[use_change], s], vs[r[use_change], s + 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.where(x1 > x0, x0 + v0 * (x1 - x0) / (v0 - v1), x0)
    level[use_change] = root
    bracket[use_change] = np.stack([x0, x1], axis=1)
    return level, bracket
