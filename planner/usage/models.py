"""The models of usage.yaml (SPEC §1): the top level, the demand and the site; the options are
:mod:`planner.usage.options`. One pydantic model per map of the format.

Each field carries its description, unit and default, from which :mod:`planner.usage.schema`
generates the JSON Schema and the reference page. The value types are in
:mod:`planner.usage.values`; the rules between keys in :mod:`planner.usage.rules`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    model_validator,
)
from pydantic_core import PydanticCustomError

from planner.usage.model_base import Map, key
from planner.usage.options import Option, OptionEntry
from planner.usage.rules import rule_problems
from planner.usage.uncertainty import Uncertainty
from planner.usage.units import HOURS_PER_WEEK, monthly_gpu_hours, yearly_growth
from planner.usage.values import (
    AtLeastOne,
    Count,
    CurrencyCode,
    Fraction,
    Growth,
    NonNegative,
    Positive,
    PositiveFraction,
    Text,
    describe,
    to_integer,
)
from planner.usage.vocabulary import (
    DEMAND_FORMS,
    DEMAND_UNITS,
    MAX_HORIZON_MONTHS,
    MAX_OPTIONS,
)

# ---------------------------------------------------------------------------------------------
# §1.1 demand, §1.2 site


class Demand(Map):
    """The work to be done (SPEC §1.1). Exactly one of the three demand forms is given
    (gpu_hours_per_week in place of gpu_hours_per_month, growth_per_month in place of
    growth_per_year: the validated document fills the SPEC key from its alternative)."""

    model_config = ConfigDict(
        json_schema_extra={
            "oneOf": [{"required": [form]} for form in (*DEMAND_FORMS, "gpu_hours_per_week")],
            "not": {"required": ["growth_per_year", "growth_per_month"]},
        }
    )

    gpu_hours_per_month: NonNegative | None = key(
        "Reference GPU-hours of work in month 1: hours of one reference GPU busy. One of "
        "gpu_hours_per_month (or gpu_hours_per_week), utilization, flops_per_month. "
        "[GPU-hours/month]", None, default_text="— (from gpu_hours_per_week when that is given)")
    gpu_hours_per_week: NonNegative | None = key(
        f"The same work per week, in place of gpu_hours_per_month (not with it): "
        f"gpu_hours_per_month = gpu_hours_per_week × hours_per_month / {HOURS_PER_WEEK}, a month "
        f"being hours_per_month / {HOURS_PER_WEEK} weeks. [GPU-hours/week]", None,
        default_text="—")
    utilization: Fraction | None = key(
        "Busy fraction of wall-clock time of `gpus` GPUs: gpu_hours_per_month = utilization × "
        "hours_per_month × gpus. [fraction]", None, default_text="—")
    flops_per_month: NonNegative | None = key(
        "Floating-point operations of training in month 1; on an option they take flops / "
        "(peak_tflops × 10^12 × flops_efficiency × 3600) of its GPU-hours. [FLOP/month]",
        None, default_text="—")
    flops_efficiency: PositiveFraction = key(
        "Achieved share of the GPU's peak (model FLOPs utilization). [fraction]", 0.4)
    gpus: Count = key("GPUs one job uses at once. [GPUs]", 1)
    reference_gpu: Text | None = key(
        "Catalog GPU id on which gpu_hours_per_month was measured.", None, default_text="none")
    workload: Text = key(
        "Which throughput column of the catalog to use (cv, nlp, llm, generic, …).", "generic")
    min_gpu_memory_gb: NonNegative = key(
        "Options whose GPU has less memory are infeasible; an option whose memory is unknown "
        "passes, with a warning. [GB]", 0.0)
    growth_per_year: Growth = key(
        "Demand of month m = demand × (1+g)^((m−1)/12). [fraction per year]", 0.0)
    growth_per_month: Growth | None = key(
        "Growth per month, compounding, in place of growth_per_year (not with it): demand of "
        "month m = demand × (1+g)^(m−1), that is growth_per_year = (1+g)^12 − 1. "
        "[fraction per month]", None, default_text="none (growth_per_year applies)")
    parallelism: Literal["data", "independent"] = key(
        "How a job uses its `gpus` GPUs: data (one job spread over them; an option's "
        "scaling_efficiency applies) or independent (`gpus` separate one-GPU runs side by "
        "side: scaling_efficiency is 1 and giving one is an error).", "data")
    job_hours: Positive | None = key(
        "Wall-clock length of one job of `gpus` GPUs on the reference GPU (with FLOPs demand: "
        "on every option). [hours]", None, default_text="none")
    checkpoint_minutes: Positive = key(
        "Interval between checkpoints: work lost at an interruption is redone. [minutes]", 30.0)
    data_gb: NonNegative = key(
        "Data kept in cloud storage; a free tier whose files do not persist fetches it again "
        "at the start of every session. [GB]", 0.0)
    precision: Literal["mixed", "fp32"] = key(
        "Training precision: picks the catalog's throughput column (mixed precision gains far "
        "more on tensor-core GPUs) and, with FLOPs demand, the peak (FP16/BF16 tensor or "
        "FP32).", "mixed")
    framework: Text = key(
        "Deep-learning framework of the work (lowercase, e.g. pytorch, jax, tensorflow, "
        "paddlepaddle); a free tier restricted to other frameworks sends all work to its "
        "fallback, or is infeasible without one.", "pytorch")

    @property
    def form(self) -> str | None:
        """Which demand form is written (``gpu_hours_per_month``, ``gpu_hours_per_week``,
        ``utilization``, ``flops_per_month``)."""
        if self.gpu_hours_per_week is not None:
            return "gpu_hours_per_week"
        given = [name for name in DEMAND_FORMS if getattr(self, name) is not None]
        return given[0] if len(given) == 1 else None

    @property
    def demand_unit(self) -> str | None:
        """The unit the demand was written in (``GPU-hours/week``, ``GPU-hours/month``,
        ``fraction of wall-clock time``, ``FLOP/month``), for the report."""
        return DEMAND_UNITS.get(self.form or "")

    @property
    def growth_unit(self) -> str:
        """The unit the growth was written in: ``per month`` or ``per year``."""
        return "per month" if self.growth_per_month is not None else "per year"

    def fill_alternatives(self, hours_per_month: float) -> None:
        """Fill the SPEC keys from their alternatives (gpu_hours_per_month from
        gpu_hours_per_week in months of ``hours_per_month`` hours, growth_per_year from
        growth_per_month), so that every later stage reads the SPEC's keys."""
        if self.gpu_hours_per_week is not None and self.gpu_hours_per_month is None:
            self.gpu_hours_per_month = float(
                monthly_gpu_hours(self.gpu_hours_per_week, hours_per_month))
        if self.growth_per_month is not None:
            self.growth_per_year = float(yearly_growth(self.growth_per_month))


class Site(Map):
    """Where owned hardware runs (SPEC §1.2)."""

    electricity_per_kwh: NonNegative | None = key(
        "Price of energy at the site. [currency/kWh]", None,
        default_text="the catalog price of `region` (converted with fx); required when an "
        "own option exists and no region is given")
    pue: AtLeastOne | None = key(
        "Power usage effectiveness: facility energy / IT energy (cooling). [ratio]", None,
        default_text="the catalog PUE of `kind`, else 1.0")
    carbon_kg_per_kwh: NonNegative | None = key(
        "Grid carbon intensity; when given, results carry kg CO2e. [kg CO2e/kWh]", None,
        default_text="the catalog intensity of `region`, else none")
    region: Text | None = key(
        "Catalog region id (us, us-ca, de, cn, jp, in, …) whose electricity price and grid "
        "carbon intensity fill the keys above that are not given.", None, default_text="none")
    tariff: Literal["business", "household"] = key(
        "Which of the region's electricity prices applies.", "business")
    kind: Text | None = key(
        "Catalog site kind (home-office, server-closet, colocation, hyperscale, or one of "
        "your own catalog files) whose typical PUE fills `pue` when it is not given.", None,
        default_text="none")


# ---------------------------------------------------------------------------------------------
# Top level


def _format_version(value: Any) -> int:
    number = to_integer(value)
    if number != 1:
        raise PydanticCustomError(
            "version", "this planner reads format version 1, got {got}",
            {"got": describe(value)})
    return number


class Usage(Map):
    """A usage.yaml file, format version 1 (SPEC §1)."""

    model_config = ConfigDict(title="usage.yaml")

    version: Annotated[Literal[1], BeforeValidator(_format_version)] = key(
        "Format version of this file.")
    title: Text = key(
        "Report title.", "plan", default_text="file name without suffix (plan for a dict)")
    currency: CurrencyCode = key(
        "ISO 4217 code of every money value in the file and in all output.", "USD")
    fx: dict[CurrencyCode, Positive] = key(
        "Units of `currency` that one unit of another currency buys (CNY: 0.14); catalog prices "
        "in other currencies are converted with it; a needed rate that is missing is an error. "
        "[currency per unit]", {})
    horizon_months: Annotated[int, Field(ge=1, le=MAX_HORIZON_MONTHS),
                              BeforeValidator(to_integer)] = key(
        f"Planning horizon T: purchases in month 0, then months 1..T; at most "
        f"{MAX_HORIZON_MONTHS} (100 years). [months]", 36)
    hours_per_month: Positive = key(
        "Calendar convention: 730 = 8760/12, 720 = 30-day months. [hours]", 730.0)
    discount_rate: NonNegative = key(
        "Effective annual rate: the flow of month m is multiplied by (1+r)^(−m/12); month 0 is "
        "not discounted. [fraction per year]", 0.0)
    demand: Demand = key("The work to be done.")
    site: Site = Field(
        default_factory=Site, description="Where owned hardware runs.",
        json_schema_extra={"default": {}})
    options: list[OptionEntry] = Field(
        min_length=1, max_length=MAX_OPTIONS,
        description=f"The ways of getting GPU time to weigh (at most {MAX_OPTIONS}).")
    catalogs: list[Text] = key(
        "Extra catalog files merged over the built-in catalog (paths relative to the usage "
        "file).", [])
    uncertainty: Uncertainty | None = key(
        "Inputs drawn from distributions (SPEC §7): the plan is also evaluated on every draw.",
        None, default_text="none (the plan's own figures only)")
    mix: Annotated[list[Text], Field(min_length=2)] | None = key(
        "The options planner optimize combines (SPEC §6): one or more own options, then the "
        "cloud option that takes the rest. Each member overflows to the next in the search; "
        "it searches the own options' machines and purchase_month and, where the cloud's "
        "pricing is reserved, its commitments term by term.", None,
        default_text="none (no best-mix search, no best-mix page)")

    @model_validator(mode="wrap")
    @classmethod
    def _rules_between_keys(
        cls, data: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> Usage:
        usage = handler(data)
        usage.demand.fill_alternatives(usage.hours_per_month)
        # load_usage checks the rules itself, to give each its own position.
        if isinstance(data, Mapping) and not (info.context or {}).get("skip_rules"):
            problems = rule_problems(data)
            if problems:
                raise ValueError("; ".join(f"{p.path}: {p.message}" for p in problems))
        return usage

    def option(self, name: str) -> Option:
        """The option called ``name`` (``KeyError`` if there is none)."""
        for option in self.options:
            if option.name == name:
                return option
        raise KeyError(name)
