"""The ``uncertainty`` map of usage.yaml (SPEC §7): inputs drawn from distributions.

Only the shape of the map is read here; the rules that need the rest of the file (a path that
names a number of the file, parameters that agree with each other and with the key's valid
range) are in :mod:`planner.usage.uncertainty_rules`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field

from planner.usage.model_base import Map, key
from planner.usage.values import Number, Text, to_integer

#: The distributions of SPEC §7 and the parameters each one takes, in the order they are
#: written.
DISTRIBUTIONS: dict[str, tuple[str, ...]] = {
    "uniform": ("low", "high"),
    "triangular": ("low", "mode", "high"),
    "pert": ("low", "mode", "high"),
    "normal": ("mean", "sd"),
    "lognormal": ("median", "sigma"),
}
PARAMETERS = tuple(dict.fromkeys(p for names in DISTRIBUTIONS.values() for p in names))
#: Fewest and most draws; the most keeps the draws themselves (draws × inputs floats) and the
#: sweep of them within the sweep's own limit.
MIN_SAMPLES = 100
MAX_SAMPLES = 10_000_000

Samples = Annotated[int, Field(ge=MIN_SAMPLES, le=MAX_SAMPLES), BeforeValidator(to_integer)]
Seed = Annotated[int, Field(ge=0, le=2**63 - 1), BeforeValidator(to_integer)]
Rank = Annotated[float, Field(ge=-1, le=1)]


class Distribution(Map):
    """One uncertain input: a distribution and its parameters (SPEC §7)."""

    distribution: Literal["uniform", "triangular", "pert", "normal", "lognormal"] = key(
        "uniform (low, high), triangular and pert (low, mode, high), normal (mean, sd), "
        "lognormal (median, sigma of the logarithm).")
    low: Number | None = key("Smallest value (uniform, triangular, pert).", None,
                             default_text="—")
    mode: Number | None = key("Most likely value (triangular, pert).", None, default_text="—")
    high: Number | None = key("Largest value (uniform, triangular, pert).", None,
                              default_text="—")
    mean: Number | None = key("Mean (normal).", None, default_text="—")
    sd: Number | None = key("Standard deviation, ≥ 0 (normal).", None, default_text="—")
    median: Number | None = key("Median, > 0 (lognormal).", None, default_text="—")
    sigma: Number | None = key("Standard deviation of the logarithm, ≥ 0 (lognormal).", None,
                               default_text="—")


class Correlation(Map):
    """A rank correlation between two uncertain inputs."""

    inputs: Annotated[list[Text], Field(min_length=2, max_length=2)] = key(
        "The two inputs, as their paths under uncertainty.inputs.")
    rank: Rank = key(
        "Spearman rank correlation of their draws, in [−1, 1] (drawn through a Gaussian "
        "copula).")


class Uncertainty(Map):
    """Inputs drawn from distributions; the plan is evaluated on every draw (SPEC §7)."""

    samples: Samples = key(
        f"Draws (Latin hypercube), from {MIN_SAMPLES:,} to {MAX_SAMPLES:,}.", 10_000)
    seed: Seed = key("Seed of the draws: the same seed gives the same figures.", 0)
    inputs: dict[str, Distribution] = key(
        "Dotted paths as in Plan.replace (demand.gpu_hours_per_month, "
        "options.box.own.resale_fraction, …), each with its distribution.")
    correlations: list[Correlation] = key(
        "Rank correlations between pairs of inputs; inputs not named are independent.", [])
