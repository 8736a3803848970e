"""The models of usage.yaml (SPEC §1): one pydantic model per map of the format.

Each field carries its description, unit and default, from which :mod:`planner.usage.schema`
generates the JSON Schema and the reference page. The value types are in
:mod:`planner.usage.values`; the rules between keys in :mod:`planner.usage.rules`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    model_validator,
)
from pydantic_core import PydanticCustomError

from planner.usage.rules import rule_problems
from planner.usage.units import HOURS_PER_WEEK, monthly_gpu_hours, yearly_growth
from planner.usage.values import (
    AtLeastOne,
    Count,
    CountOrZero,
    CurrencyCode,
    Flag,
    Fraction,
    Growth,
    NonNegative,
    OptionName,
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
    option_kind,
)


def _key(description: str, default: Any = ..., *, default_text: str | None = None) -> Any:
    """A field with its description; ``default_text`` says what a ``None`` default means."""
    extra = {"x-default": default_text} if default_text else None
    return Field(default, description=description, json_schema_extra=extra)


class _Map(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------------------------------------
# §1.1 demand, §1.2 site


class Demand(_Map):
    """The work to be done (SPEC §1.1). Exactly one of the three demand forms is given
    (gpu_hours_per_week in place of gpu_hours_per_month, growth_per_month in place of
    growth_per_year: the validated document fills the SPEC key from its alternative)."""

    model_config = ConfigDict(
        json_schema_extra={
            "oneOf": [{"required": [form]} for form in (*DEMAND_FORMS, "gpu_hours_per_week")],
            "not": {"required": ["growth_per_year", "growth_per_month"]},
        }
    )

    gpu_hours_per_month: NonNegative | None = _key(
        "Reference GPU-hours of work in month 1: hours of one reference GPU busy. One of "
        "gpu_hours_per_month (or gpu_hours_per_week), utilization, flops_per_month. "
        "[GPU-hours/month]", None, default_text="— (from gpu_hours_per_week when that is given)")
    gpu_hours_per_week: NonNegative | None = _key(
        f"The same work per week, in place of gpu_hours_per_month (not with it): "
        f"gpu_hours_per_month = gpu_hours_per_week × hours_per_month / {HOURS_PER_WEEK}, a month "
        f"being hours_per_month / {HOURS_PER_WEEK} weeks. [GPU-hours/week]", None,
        default_text="—")
    utilization: Fraction | None = _key(
        "Busy fraction of wall-clock time of `gpus` GPUs: gpu_hours_per_month = utilization × "
        "hours_per_month × gpus. [fraction]", None, default_text="—")
    flops_per_month: NonNegative | None = _key(
        "Floating-point operations of training in month 1; on an option they take flops / "
        "(peak_tflops × 10^12 × flops_efficiency × 3600) of its GPU-hours. [FLOP/month]",
        None, default_text="—")
    flops_efficiency: PositiveFraction = _key(
        "Achieved share of the GPU's peak (model FLOPs utilization). [fraction]", 0.4)
    gpus: Count = _key("GPUs one job uses at once. [GPUs]", 1)
    reference_gpu: Text | None = _key(
        "Catalog GPU id on which gpu_hours_per_month was measured.", None, default_text="none")
    workload: Text = _key(
        "Which throughput column of the catalog to use (cv, nlp, llm, generic, …).", "generic")
    min_gpu_memory_gb: NonNegative = _key(
        "Options whose GPU has less memory are infeasible; an option whose memory is unknown "
        "passes, with a warning. [GB]", 0.0)
    growth_per_year: Growth = _key(
        "Demand of month m = demand × (1+g)^((m−1)/12). [fraction per year]", 0.0)
    growth_per_month: Growth | None = _key(
        "Growth per month, compounding, in place of growth_per_year (not with it): demand of "
        "month m = demand × (1+g)^(m−1), that is growth_per_year = (1+g)^12 − 1. "
        "[fraction per month]", None, default_text="none (growth_per_year applies)")
    job_hours: Positive | None = _key(
        "Wall-clock length of one job of `gpus` GPUs on the reference GPU (with FLOPs demand: "
        "on every option). [hours]", None, default_text="none")
    checkpoint_minutes: Positive = _key(
        "Interval between checkpoints: work lost at an interruption is redone. [minutes]", 30.0)
    data_gb: NonNegative = _key(
        "Data kept in cloud storage; a free tier whose files do not persist fetches it again "
        "at the start of every session. [GB]", 0.0)
    precision: Literal["mixed", "fp32"] = _key(
        "Training precision: picks the catalog's throughput column (mixed precision gains far "
        "more on tensor-core GPUs) and, with FLOPs demand, the peak (FP16/BF16 tensor or "
        "FP32).", "mixed")
    framework: Text = _key(
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


class Site(_Map):
    """Where owned hardware runs (SPEC §1.2)."""

    electricity_per_kwh: NonNegative | None = _key(
        "Price of energy at the site. [currency/kWh]", None,
        default_text="the catalog price of `region` (converted with fx); required when an "
        "own option exists and no region is given")
    pue: AtLeastOne | None = _key(
        "Power usage effectiveness: facility energy / IT energy (cooling). [ratio]", None,
        default_text="the catalog PUE of `kind`, else 1.0")
    carbon_kg_per_kwh: NonNegative | None = _key(
        "Grid carbon intensity; when given, results carry kg CO2e. [kg CO2e/kWh]", None,
        default_text="the catalog intensity of `region`, else none")
    region: Text | None = _key(
        "Catalog region id (us, us-ca, de, cn, jp, in, …) whose electricity price and grid "
        "carbon intensity fill the keys above that are not given.", None, default_text="none")
    tariff: Literal["business", "household"] = _key(
        "Which of the region's electricity prices applies.", "business")
    kind: Text | None = _key(
        "Catalog site kind (home-office, server-closet, colocation, hyperscale, or one of "
        "your own catalog files) whose typical PUE fills `pue` when it is not given.", None,
        default_text="none")


# ---------------------------------------------------------------------------------------------
# §1.3 options: what the kind key describes


_NAME_DESCRIPTION = "Unique name of the option: any text without a '.'."
_RELATIVE_SPEED_DESCRIPTION = (
    "Throughput relative to the demand's reference GPU; applies with gpu_hours_per_month or "
    "utilization demand. [ratio]")
_RELATIVE_SPEED_DEFAULT = "catalog throughput against reference_gpu, else 1"
_CATALOG_FROM_GPU = "catalog (from gpu)"


class CloudSpec(_Map):
    """An inline cloud instance: its properties and prices."""

    price_per_hour: NonNegative = _key("On-demand price per instance-hour. [currency/hour]")
    spot_price_per_hour: NonNegative | None = _key(
        "Spot price per instance-hour. [currency/hour]", None,
        default_text="required with pricing: spot")
    reserved_1y_price_per_hour: NonNegative | None = _key(
        "1-year reserved price per instance-hour. [currency/hour]", None,
        default_text="required with pricing: reserved_1y")
    reserved_3y_price_per_hour: NonNegative | None = _key(
        "3-year reserved price per instance-hour. [currency/hour]", None,
        default_text="required with pricing: reserved_3y")
    gpus: Count = _key("GPUs per instance. [GPUs]", 1)
    gpu: Text | None = _key("Catalog GPU id of the instance's GPUs.", None, default_text="none")
    gpu_memory_gb: Positive | None = _key(
        "Memory per GPU. [GB]", None, default_text=_CATALOG_FROM_GPU)
    peak_tflops: Positive | None = _key(
        "Peak throughput per GPU. [TFLOP/s]", None, default_text=_CATALOG_FROM_GPU)
    provider: Text | None = _key("Provider name, for the report.", None, default_text="none")
    instance: Text | None = _key("Instance name, for the report.", None, default_text="none")


class Financing(_Map):
    """How the purchase of an owned machine is paid (every purchase, replacements too)."""

    annual_rate: NonNegative = _key(
        "Nominal annual interest rate; the monthly rate is annual_rate / 12. "
        "[fraction per year]")
    months: Count = _key("Number of equal monthly payments after the purchase. [months]")
    down_payment: NonNegative = _key(
        "Paid in the month of purchase (at most the price). [currency]", 0.0)


class OwnSpec(_Map):
    """An owned machine."""

    gpu: Text | None = _key(
        "Catalog GPU id (memory, TDP, throughput, street price).", None, default_text="none")
    gpu_count: Count = _key("GPUs in the machine. [GPUs]", 1)
    gpu_memory_gb: Positive | None = _key(
        "Memory per GPU. [GB]", None, default_text=_CATALOG_FROM_GPU)
    peak_tflops: Positive | None = _key(
        "Peak throughput per GPU. [TFLOP/s]", None, default_text=_CATALOG_FROM_GPU)
    purchase_price: NonNegative | None = _key(
        "Price of the whole machine. [currency]", None,
        default_text="gpu_count × catalog street price + system_price; required without gpu")
    system: Text | None = _key(
        "Catalog system id (workstation-4gpu, server-8gpu-sxm, …): the price and power of the "
        "machine's non-GPU parts, used where system_price, power_watts and idle_power_watts "
        "are not given.", None, default_text="none")
    system_price: NonNegative | None = _key(
        "Non-GPU parts, when purchase_price is not given. [currency]", None,
        default_text="the catalog system's price, else 0")
    lifetime_years: Positive = _key(
        "Replaced at the end of each lifetime that falls before the horizon's end. [years]", 4.0)
    resale_fraction: Fraction = _key(
        "Share of the purchase price recovered when sold at the end of its lifetime. "
        "[fraction]", 0.0)
    power_watts: NonNegative | None = _key(
        "Whole machine at full load. [W]", None,
        default_text="gpu_count × catalog TDP + the catalog system's non-GPU power (150 "
        "without system); required without gpu")
    idle_power_watts: NonNegative | None = _key(
        "Whole machine when not busy; drawn only when always_on. [W]", None,
        default_text="the catalog system's idle power, else 0")
    always_on: Flag = _key("Idle power is drawn in every non-busy hour.", False)
    maintenance_per_year: NonNegative = _key(
        "Repairs, support contracts. [currency/year]", 0.0)
    fixed_cost_per_month: NonNegative = _key(
        "Rack space, colocation, admin time. [currency/month]", 0.0)
    operating_cost_per_hour: NonNegative = _key(
        "Any flat cost per busy system-hour. [currency/system-hour]", 0.0)
    availability: Fraction = _key("Share of hours the machine can work. [fraction]", 1.0)
    financing: Financing | None = _key(
        "Pay the machine over time instead of at once.", None, default_text="none (paid at once)")


class FreeTierSpec(_Map):
    """An inline free notebook tier."""

    gpu: Text | None = _key("Catalog GPU id of the tier's GPU.", None, default_text="none")
    gpus: Count = _key("GPUs one session gets. [GPUs]", 1)
    gpu_memory_gb: Positive | None = _key(
        "Memory per GPU. [GB]", None, default_text=_CATALOG_FROM_GPU)
    peak_tflops: Positive | None = _key(
        "Peak throughput per GPU. [TFLOP/s]", None, default_text=_CATALOG_FROM_GPU)
    session_hours: Positive | None = _key(
        "Longest session. [hours]", None, default_text="none (sessions do not end)")
    weekly_quota_hours: NonNegative | None = _key(
        "Wall-clock hours of GPU sessions allowed per week. [hours/week]", None,
        default_text="none (no limit)")
    daily_quota_hours: NonNegative | None = _key(
        "Wall-clock hours of GPU sessions allowed per day. [hours/day]", None,
        default_text="none (no limit)")
    monthly_quota_hours: NonNegative | None = _key(
        "Wall-clock hours of GPU sessions allowed per month. [hours/month]", None,
        default_text="none (no limit)")
    fee_per_month: NonNegative = _key("Paid every month. [currency/month]", 0.0)
    setup_minutes: NonNegative = _key("Lost at the start of each session. [minutes]", 0.0)
    availability: Fraction = _key("Share of requests that get a GPU. [fraction]", 1.0)
    files_persist: Flag = _key(
        "Whether files survive between sessions; when they do not, every session first "
        "fetches demand.data_gb again.", True)
    download_mb_per_s: Positive | None = _key(
        "How fast a session fetches data that did not persist. [MB/s]", None,
        default_text="none (fetching is not counted)")
    frameworks: list[Text] = _key(
        "Frameworks the tier runs (lowercase); empty: any. Work in another framework "
        "(demand.framework) goes to the fallback.", [])


def _id_or_map(value: Any) -> str | None:
    if isinstance(value, str):
        return "id"
    if isinstance(value, (Mapping, BaseModel)):
        return "map"
    return None


def _catalog_id_or(model: type[BaseModel], description: str) -> Any:
    """``str | model``, chosen by the value's shape so errors name one branch only."""
    return Annotated[
        Annotated[Text, Tag("id")] | Annotated[model, Tag("map")],
        Discriminator(
            _id_or_map,
            custom_error_type="id_or_map",
            custom_error_message="expected a catalog id (text) or a map",
        ),
        Field(description=description),
    ]


CloudRef = _catalog_id_or(
    CloudSpec,
    "A catalog id `provider/instance` (e.g. aws/p4d.24xlarge) or an inline map of the "
    "instance's properties and prices.",
)
FreeTierRef = _catalog_id_or(
    FreeTierSpec, "A catalog id (kaggle, colab-free, …) or an inline map of the tier.")


# ---------------------------------------------------------------------------------------------
# §1.3 options: the entries


#: ``reserved_instances``: one count for the horizon, ``per_term`` (each term's own best
#: count), or a ladder (one count per term). The tags name the forms in pydantic's locations.
PER_TERM = "per_term"
RESERVED_FORMS = ("count", "word", "ladder")


def _reserved_form(value: Any) -> str:
    if isinstance(value, list):
        return "ladder"
    return "word" if isinstance(value, str) else "count"


ReservedInstances = Annotated[
    Annotated[CountOrZero, Tag("count")]
    | Annotated[Literal["per_term"], Tag("word")]
    | Annotated[list[CountOrZero], Tag("ladder")],
    Discriminator(_reserved_form)]


class CloudOption(_Map):
    """Renting cloud instances."""

    KIND: ClassVar[str] = "cloud"

    name: OptionName = _key(_NAME_DESCRIPTION)
    cloud: CloudRef
    pricing: Literal["on_demand", "spot", "reserved_1y", "reserved_3y"] = _key(
        "Which price is paid: on_demand, spot, reserved_1y, reserved_3y.", "on_demand")
    region: Text | None = _key(
        "Catalog region (catalog ids only).", None, default_text="cheapest listed")
    relative_speed: Positive | None = _key(
        _RELATIVE_SPEED_DESCRIPTION, None, default_text=_RELATIVE_SPEED_DEFAULT)
    billing_increment_minutes: NonNegative | None = _key(
        "Each job's rented time is rounded up to this (0 = exact); applies only when "
        "demand.job_hours is given. [minutes]", None, default_text="catalog, else 0")
    interruptions_per_hour: NonNegative | None = _key(
        "Expected interruptions per rented instance-hour. [1/hour]", None,
        default_text="spot: catalog, else 0")
    restart_minutes: NonNegative = _key(
        "Time lost per interruption besides redone work. [minutes]", 5.0)
    storage_per_gb_month: NonNegative | None = _key(
        "Price of keeping demand.data_gb. [currency/(GB·month)]", None,
        default_text="catalog, else 0")
    reserved_instances: ReservedInstances | None = _key(
        "Reserved pricing only: instances committed: one whole number for every term, "
        "per_term (each term's own count with the lowest present value), or a list of whole "
        "numbers, one per term the horizon starts. [instances]", None,
        default_text="the one count with the lowest present value")

    @property
    def kind(self) -> str:
        return self.KIND


class OwnOption(_Map):
    """Buying a machine."""

    KIND: ClassVar[str] = "own"

    name: OptionName = _key(_NAME_DESCRIPTION)
    own: OwnSpec = _key("The machine.")
    relative_speed: Positive | None = _key(
        _RELATIVE_SPEED_DESCRIPTION, None, default_text=_RELATIVE_SPEED_DEFAULT)
    overflow: Text | None = _key(
        "Name of another option that serves the demand above the machine's capacity.", None,
        default_text="none (demand above capacity makes the option infeasible)")

    @property
    def kind(self) -> str:
        return self.KIND


class FreeTierOption(_Map):
    """Living on a free notebook tier."""

    KIND: ClassVar[str] = "free_tier"

    name: OptionName = _key(_NAME_DESCRIPTION)
    free_tier: FreeTierRef
    relative_speed: Positive | None = _key(
        _RELATIVE_SPEED_DESCRIPTION, None, default_text=_RELATIVE_SPEED_DEFAULT)
    fallback: Text | None = _key(
        "Name of another option that serves the demand the tier cannot.", None,
        default_text="none (demand the tier cannot serve makes the option infeasible)")

    @property
    def kind(self) -> str:
        return self.KIND


Option = CloudOption | OwnOption | FreeTierOption
OPTION_MODELS: dict[str, type[BaseModel]] = {
    "cloud": CloudOption, "own": OwnOption, "free_tier": FreeTierOption}
SPEC_MODELS: dict[str, type[BaseModel]] = {
    "cloud": CloudSpec, "own": OwnSpec, "free_tier": FreeTierSpec}


OptionEntry = Annotated[
    Annotated[CloudOption, Tag("cloud")]
    | Annotated[OwnOption, Tag("own")]
    | Annotated[FreeTierOption, Tag("free_tier")],
    Discriminator(
        option_kind,
        custom_error_type="option_kind",
        custom_error_message="an option needs exactly one of cloud, own or free_tier",
    ),
]


# ---------------------------------------------------------------------------------------------
# Top level


def _format_version(value: Any) -> int:
    number = to_integer(value)
    if number != 1:
        raise PydanticCustomError(
            "version", "this planner reads format version 1, got {got}",
            {"got": describe(value)})
    return number


class Usage(_Map):
    """A usage.yaml file, format version 1 (SPEC §1)."""

    model_config = ConfigDict(title="usage.yaml")

    version: Annotated[Literal[1], BeforeValidator(_format_version)] = _key(
        "Format version of this file.")
    title: Text = _key(
        "Report title.", "plan", default_text="file name without suffix (plan for a dict)")
    currency: CurrencyCode = _key(
        "ISO 4217 code of every money value in the file and in all output.", "USD")
    fx: dict[CurrencyCode, Positive] = _key(
        "Units of `currency` that one unit of another currency buys (CNY: 0.14); catalog prices "
        "in other currencies are converted with it; a needed rate that is missing is an error. "
        "[currency per unit]", {})
    horizon_months: Annotated[int, Field(ge=1, le=MAX_HORIZON_MONTHS),
                              BeforeValidator(to_integer)] = _key(
        f"Planning horizon T: purchases in month 0, then months 1..T; at most "
        f"{MAX_HORIZON_MONTHS} (100 years). [months]", 36)
    hours_per_month: Positive = _key(
        "Calendar convention: 730 = 8760/12, 720 = 30-day months. [hours]", 730.0)
    discount_rate: NonNegative = _key(
        "Effective annual rate: the flow of month m is multiplied by (1+r)^(−m/12); month 0 is "
        "not discounted. [fraction per year]", 0.0)
    demand: Demand = _key("The work to be done.")
    site: Site = Field(
        default_factory=Site, description="Where owned hardware runs.",
        json_schema_extra={"default": {}})
    options: list[OptionEntry] = Field(
        min_length=1, max_length=MAX_OPTIONS,
        description=f"The ways of getting GPU time to weigh (at most {MAX_OPTIONS}).")
    catalogs: list[Text] = _key(
        "Extra catalog files merged over the built-in catalog (paths relative to the usage "
        "file).", [])

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
