"""The words of usage.yaml (SPEC §1): option kinds, demand forms, pricings, patterns and size
limits, shared by the models, the rules between keys and the messages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from pricing.pricings import PRICE_COLUMN, TERM_MONTHS

KINDS = ("cloud", "own", "free_tier")
KIND_LABELS = {"cloud": "cloud", "own": "own", "free_tier": "free-tier"}
DEMAND_FORMS = ("gpu_hours_per_month", "utilization", "flops_per_month")
#: Keys that say what another key says, in the unit people think in: alternative -> the key
#: it stands for. One of the two is given, never both; the validated document fills the key
#: from its alternative (:mod:`planner.usage.units`).
ALTERNATIVE_KEYS = {"gpu_hours_per_week": "gpu_hours_per_month",
                    "growth_per_month": "growth_per_year"}
#: Demand keys that exclude each other: the forms with their alternatives, and the growths.
#: Setting one (a replacement, a sweep) removes the others of its group.
EXCLUSIVE_DEMAND_KEYS = (
    ("gpu_hours_per_month", "gpu_hours_per_week", "utilization", "flops_per_month"),
    ("growth_per_year", "growth_per_month"),
)
#: The unit a demand key is written in (``Demand.demand_unit``).
DEMAND_UNITS = {"gpu_hours_per_month": "GPU-hours/month", "gpu_hours_per_week": "GPU-hours/week",
                "utilization": "fraction of wall-clock time", "flops_per_month": "FLOP/month"}
#: The inline cloud map's price key each pricing needs (on-demand's is always required).
PRICE_KEY_FOR_PRICING = {p: key for p, key in PRICE_COLUMN.items() if p != "on_demand"}
#: Months of one commitment of each reserved pricing (a ladder has one count per term).
RESERVED_TERM_MONTHS = dict(TERM_MONTHS)
CURRENCY_PATTERN = r"^[A-Z]{3}$"
NAME_PATTERN = r"^[^.]+$"

#: Limits on the size of a plan (SPEC is silent): beyond them a plan is refused as a user error
#: at the key's position, before anything is allocated. A horizon of 100 years; 100 options
#: (every own option is compared with every other one, and the report lists them all).
MAX_HORIZON_MONTHS = 1200
MAX_OPTIONS = 100
MAX_INTEGER = 2**53


def option_kind(entry: Any) -> str | None:
    """The kind of an option entry (``cloud``, ``own``, ``free_tier``); ``None`` unless one."""
    if isinstance(entry, BaseModel):
        return getattr(entry, "KIND", None)
    if isinstance(entry, Mapping):
        kinds = [kind for kind in KINDS if kind in entry]
        return kinds[0] if len(kinds) == 1 else None
    return None

