"""Draws of uncertain inputs (SPEC §7): a Latin hypercube of uniforms, an optional Gaussian
copula for rank correlations, and each input's truncated distribution.

All draws are made at once, before any chunking, from one seed: the same seed gives the same
draws whatever the chunk size or the number of workers.

Why a Latin hypercube (``scipy.stats.qmc.LatinHypercube``) and not scrambled Sobol' points: it
takes any number of draws (Sobol' points keep their balance only in powers of two), each
input's draws are spread over all of its strata, and its error is never worse than plain Monte
Carlo's, which bounds the error of a share p from n draws by √(p(1 − p)/n): at most ±0.5 % for
10,000 draws (one standard deviation).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

import numpy as np
from scipy import stats
from scipy.stats import qmc


@dataclass(frozen=True)
class Input:
    """One uncertain input: its distribution, parameters and the key's valid range.

    ``low``/``high`` bound the values drawn (the key's valid range); ``low_open`` excludes
    ``low`` itself; ``integer`` rounds each draw to the nearest valid whole number.
    """

    distribution: str
    parameters: dict[str, float]
    low: float = -np.inf
    high: float = np.inf
    low_open: bool = False
    integer: bool = False


def uniforms(samples: int, inputs: int, seed: int) -> np.ndarray:
    """A Latin hypercube of ``samples`` points in [0, 1)^inputs, (samples, inputs)."""
    if inputs == 0:
        return np.empty((samples, 0))
    rng = np.random.default_rng(seed)
    # SciPy 1.15 renamed the engine's ``seed`` to ``rng``; the draws are the same.
    name = "rng" if "rng" in inspect.signature(qmc.LatinHypercube).parameters else "seed"
    return qmc.LatinHypercube(d=inputs, **{name: rng}).random(samples)


def correlated(u: np.ndarray, correlation: np.ndarray) -> np.ndarray:
    """The uniforms ``u`` (samples, inputs) made to have the copula ``correlation`` (a
    positive semidefinite correlation matrix, inputs × inputs): through normal scores, the
    matrix's symmetric square root, and back. Each column stays uniform; the symmetric root
    mixes only inputs correlated with each other, and independent columns (identity rows) are
    returned as they were."""
    if np.array_equal(correlation, np.eye(len(correlation))):
        return u
    values, vectors = np.linalg.eigh(correlation)
    root = (vectors * np.sqrt(np.clip(values, 0.0, None))) @ vectors.T
    # Rows of the root have norm 1 only up to rounding: rescale so each score stays N(0, 1).
    root /= np.linalg.norm(root, axis=1, keepdims=True)
    scores = stats.norm.ppf(np.clip(u, 1e-16, 1 - 1e-16))
    mixed = stats.norm.cdf(scores @ root.T)
    touched = ~np.all(correlation == np.eye(len(correlation)), axis=1)
    return np.where(touched, mixed, u)


def frozen(item: Input):
    """The scipy distribution of ``item`` (None when it has no spread: one value)."""
    p = item.parameters
    kind = item.distribution
    if kind in ("uniform", "triangular", "pert"):
        low, high = p["low"], p["high"]
        if high == low:
            return None
        if kind == "uniform":
            return stats.uniform(loc=low, scale=high - low)
        c = (p["mode"] - low) / (high - low)
        if kind == "triangular":
            return stats.triang(c, loc=low, scale=high - low)
        return stats.beta(1 + 4 * c, 1 + 4 * (1 - c), loc=low, scale=high - low)
    if kind == "normal":
        return None if p["sd"] == 0 else stats.norm(loc=p["mean"], scale=p["sd"])
    if kind == "lognormal":
        return None if p["sigma"] == 0 else stats.lognorm(p["sigma"], scale=p["median"])
    raise ValueError(f"unknown distribution {kind!r}")


def centre(item: Input) -> float:
    """The single value of a distribution without spread."""
    p = item.parameters
    return {"normal": p.get("mean"), "lognormal": p.get("median")}.get(item.distribution,
                                                                       p.get("low"))


def values(item: Input, u: np.ndarray) -> np.ndarray:
    """The input's values at the uniforms ``u`` (samples,): the distribution's quantiles,
    truncated to the key's valid range, whole numbers rounded to the nearest valid one."""
    dist = frozen(item)
    if dist is None:
        drawn = np.full(u.shape, float(centre(item)))
    else:
        a, b = dist.cdf(item.low), dist.cdf(item.high)
        if b - a >= FAR_TAIL or item.distribution not in ("normal", "lognormal"):
            drawn = dist.ppf(a + u * (b - a))
        else:
            drawn = _far_tail(item, u)
    low = np.nextafter(item.low, np.inf) if item.low_open else item.low
    drawn = np.clip(drawn, low, item.high)
    if item.integer:
        smallest = np.ceil(low)
        largest = np.floor(item.high)
        drawn = np.clip(np.floor(drawn + 0.5), smallest, largest)
    return drawn


#: Probability of the valid range below which a normal or lognormal input is drawn through
#: scipy's truncated normal: F⁻¹(F(lo) + u (F(hi) − F(lo))) resolves a range of probability p
#: to about 1e-16 / p (none at all once F(lo) and F(hi) round to the same float), where
#: ``truncnorm`` keeps its precision however far in a tail the range lies.
FAR_TAIL = 1e-3


def _far_tail(item: Input, u: np.ndarray) -> np.ndarray:
    """A normal or lognormal input whose valid range lies far in a tail, drawn through
    ``scipy.stats.truncnorm`` (a lognormal as exp of a normal truncated to the logs of the
    range)."""
    p = item.parameters
    if item.distribution == "normal":
        centre_, spread, low, high = p["mean"], p["sd"], item.low, item.high
    else:
        with np.errstate(divide="ignore"):  # log(0) = −inf: no lower bound
            low, high = np.log(item.low), np.log(item.high)
        centre_, spread = np.log(p["median"]), p["sigma"]
    standard = stats.truncnorm((low - centre_) / spread, (high - centre_) / spread)
    drawn = centre_ + spread * standard.ppf(u)
    return drawn if item.distribution == "normal" else np.exp(drawn)


def draw(items: list[Input], samples: int, seed: int,
         correlation: np.ndarray | None = None) -> np.ndarray:
    """Every input's draws, (samples, inputs): one Latin hypercube from ``seed``, correlated
    as asked, through each input's truncated distribution."""
    u = uniforms(samples, len(items), seed)
    if correlation is not None:
        u = correlated(u, correlation)
    return np.column_stack([values(item, u[:, k]) for k, item in enumerate(items)]) \
        if items else u
