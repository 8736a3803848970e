"""Which uncertain inputs drive the spread of a figure (SPEC §7, global sensitivity).

First-order Sobol' indices estimated from the draws already made, with no further
evaluation: S_i = Var(E[Y | X_i]) / Var(Y), the share of the figure's variance that input i
explains alone. E[Y | X_i] is estimated by sorting the draws by X_i into bins of equal count
and taking each bin's mean (the "given data" estimator of Plischke, Borgonovo and Smith, 2013);
the bias of the bin means, the mean within-bin variance over the bin size, is subtracted.
Unlike ``scipy.stats.sobol_indices``, which needs its own design of n (d + 2) evaluations and
independent inputs, this reads the draws of the uncertainty run, correlated or not (with
correlated inputs an index also carries what its partners explain).
"""

from __future__ import annotations

import numpy as np


def first_order_indices(x: np.ndarray, y: np.ndarray, bins: int | None = None) -> np.ndarray:
    """First-order indices of the inputs ``x`` (samples, inputs) for the figure ``y``
    (samples,), each in [0, 1]; zeros when ``y`` does not vary. ``bins`` defaults to
    √samples (at least 2)."""
    n, d = x.shape
    if n < 4 or d == 0:
        return np.zeros(d)
    total = float(np.var(y))
    if not np.isfinite(total) or total <= 1e-24 * max(float(np.mean(y * y)), 1e-300):
        return np.zeros(d)
    bins = max(2, int(np.sqrt(n))) if bins is None else bins
    indices = np.empty(d)
    for i in range(d):
        groups = np.array_split(y[np.argsort(x[:, i], kind="stable")], bins)
        means = np.array([g.mean() for g in groups])
        sizes = np.array([g.size for g in groups], dtype=float)
        within = np.array([g.var() for g in groups])
        weights = sizes / n
        between = float(np.sum(weights * (means - y.mean()) ** 2))
        bias = float(np.sum(weights * within / np.maximum(sizes - 1, 1)))
        indices[i] = (between - bias) / total
    return np.clip(indices, 0.0, 1.0)
