"""The options of usage.yaml (SPEC §1.3): what each kind key describes (a cloud instance, an
owned machine, a free tier: a catalog id or an inline map) and the option entries around them.
"""


from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    Discriminator,
    Field,
    Tag,
)

from planner.usage.model_base import Map, key
from planner.usage.values import (
    Count,
    CountOrZero,
    Flag,
    Fraction,
    NonNegative,
    OptionName,
    Positive,
    PositiveFraction,
    Text,
)
from planner.usage.vocabulary import (
    option_kind,
)
from pricing.pricings import PRICINGS

# ---------------------------------------------------------------------------------------------
# §1.3 options: what the kind key describes


_NAME_DESCRIPTION = "Unique name of the option: any text without a '.'."
_RELATIVE_SPEED_DESCRIPTION = (
    "Throughput relative to the demand's reference GPU; applies with gpu_hours_per_month or "
    "utilization demand. [ratio]")
_RELATIVE_SPEED_DEFAULT = "catalog throughput against reference_gpu, else 1"
_CATALOG_FROM_GPU = "catalog (from gpu)"
_SCALING_DESCRIPTION = (
    "Share of linear speed-up a job of demand.gpus GPUs reaches on this option, relative to "
    "how the demand was measured: the option needs D / (relative_speed × scaling_efficiency) "
    "of its own GPU-hours and a job lasts job_hours / (relative_speed × scaling_efficiency). "
    "A fraction in (0, 1], or auto: the demand was measured on one GPU, and the efficiency "
    "of demand.gpus GPUs comes from how the option's GPUs are connected (the catalog's "
    "interconnects table; pricing/CATALOG.md); 1 when demand.gpus is 1. Not with "
    "demand.parallelism: independent. [fraction]")


class CloudSpec(Map):
    """An inline cloud instance: its properties and prices."""

    price_per_hour: NonNegative = key("On-demand price per instance-hour. [currency/hour]")
    spot_price_per_hour: NonNegative | None = key(
        "Spot price per instance-hour. [currency/hour]", None,
        default_text="required with pricing: spot")
    reserved_1y_price_per_hour: NonNegative | None = key(
        "1-year reserved price per instance-hour. [currency/hour]", None,
        default_text="required with pricing: reserved_1y")
    reserved_3y_price_per_hour: NonNegative | None = key(
        "3-year reserved price per instance-hour. [currency/hour]", None,
        default_text="required with pricing: reserved_3y")
    gpus: Count = key("GPUs per instance. [GPUs]", 1)
    gpu: Text | None = key("Catalog GPU id of the instance's GPUs.", None, default_text="none")
    gpu_memory_gb: Positive | None = key(
        "Memory per GPU. [GB]", None, default_text=_CATALOG_FROM_GPU)
    peak_tflops: Positive | None = key(
        "Peak throughput per GPU. [TFLOP/s]", None, default_text=_CATALOG_FROM_GPU)
    provider: Text | None = key("Provider name, for the report.", None, default_text="none")
    instance: Text | None = key("Instance name, for the report.", None, default_text="none")


class Financing(Map):
    """How the purchase of an owned machine is paid (every purchase, replacements too)."""

    annual_rate: NonNegative = key(
        "Nominal annual interest rate; the monthly rate is annual_rate / 12. "
        "[fraction per year]")
    months: Count = key("Number of equal monthly payments after the purchase. [months]")
    down_payment: NonNegative = key(
        "Paid in the month of purchase (at most the price). [currency]", 0.0)


#: ``machines: auto``: the count with the lowest present value (SPEC §6).
AUTO = "auto"
MACHINE_FORMS = ("count", "word")


def _machines_form(value: Any) -> str:
    return "word" if isinstance(value, str) else "count"


#: ``scaling_efficiency``: a fraction, or ``auto`` (SPEC §8). The tags name the forms in
#: pydantic's locations.
SCALING_FORMS = ("fraction", "word")


def _scaling_form(value: Any) -> str:
    return "word" if isinstance(value, str) else "fraction"


ScalingEfficiency = Annotated[
    Annotated[PositiveFraction, Tag("fraction")] | Annotated[Literal["auto"], Tag("word")],
    Discriminator(_scaling_form)]


def _scaling_key() -> Any:
    return key(_SCALING_DESCRIPTION, None, default_text="1")


Machines = Annotated[
    Annotated[CountOrZero, Tag("count")] | Annotated[Literal["auto"], Tag("word")],
    Discriminator(_machines_form)]


class OwnSpec(Map):
    """An owned machine (and how many of it)."""

    gpu: Text | None = key(
        "Catalog GPU id (memory, TDP, throughput, street price).", None, default_text="none")
    gpu_count: Count = key("GPUs in the machine. [GPUs]", 1)
    gpu_memory_gb: Positive | None = key(
        "Memory per GPU. [GB]", None, default_text=_CATALOG_FROM_GPU)
    peak_tflops: Positive | None = key(
        "Peak throughput per GPU. [TFLOP/s]", None, default_text=_CATALOG_FROM_GPU)
    purchase_price: NonNegative | None = key(
        "Price of the whole machine. [currency]", None,
        default_text="gpu_count × catalog street price + system_price; required without gpu")
    system: Text | None = key(
        "Catalog system id (workstation-4gpu, server-8gpu-sxm, …): the price and power of the "
        "machine's non-GPU parts, used where system_price, power_watts and idle_power_watts "
        "are not given.", None, default_text="none")
    system_price: NonNegative | None = key(
        "Non-GPU parts, when purchase_price is not given. [currency]", None,
        default_text="the catalog system's price, else 0")
    lifetime_years: Positive = key(
        "Replaced at the end of each lifetime that falls before the horizon's end. [years]", 4.0)
    resale_fraction: Fraction = key(
        "Share of the purchase price recovered when sold at the end of its lifetime. "
        "[fraction]", 0.0)
    power_watts: NonNegative | None = key(
        "Whole machine at full load. [W]", None,
        default_text="gpu_count × catalog TDP + the catalog system's non-GPU power (150 "
        "without system); required without gpu")
    idle_power_watts: NonNegative | None = key(
        "Whole machine when not busy; drawn only when always_on. [W]", None,
        default_text="the catalog system's idle power, else 0")
    always_on: Flag = key("Idle power is drawn in every non-busy hour.", False)
    maintenance_per_year: NonNegative = key(
        "Repairs, support contracts. [currency/year]", 0.0)
    fixed_cost_per_month: NonNegative = key(
        "Rack space, colocation, admin time. [currency/month]", 0.0)
    operating_cost_per_hour: NonNegative = key(
        "Any flat cost per busy system-hour. [currency/system-hour]", 0.0)
    availability: Fraction = key("Share of hours the machine can work. [fraction]", 1.0)
    financing: Financing | None = key(
        "Pay the machine over time instead of at once.", None, default_text="none (paid at once)")
    machines: Machines = key(
        "Identical machines bought: a whole number ≥ 0, or auto (the count in 0..N with the "
        "lowest present value, N the fewest that cover the largest month's demand; ties: "
        "fewer). Capacity, purchase, energy (idle power too), maintenance, fixed costs, "
        "financing and residual value are per machine × machines; a job does not span "
        "machines. 0 sends all demand to overflow (an error without one). [machines]", 1)
    purchase_month: CountOrZero = key(
        "Month p in 0..horizon_months − 1 in which the machines are bought; they serve from "
        "month p + 1, and their maintenance, fixed and per-hour costs start then. Before, all "
        "demand goes to overflow (an error without one). Lifetimes, replacements and the "
        "residual value's age count from p. [month]", 0)


class FreeTierSpec(Map):
    """An inline free notebook tier."""

    gpu: Text | None = key("Catalog GPU id of the tier's GPU.", None, default_text="none")
    gpus: Count = key("GPUs one session gets. [GPUs]", 1)
    gpu_memory_gb: Positive | None = key(
        "Memory per GPU. [GB]", None, default_text=_CATALOG_FROM_GPU)
    peak_tflops: Positive | None = key(
        "Peak throughput per GPU. [TFLOP/s]", None, default_text=_CATALOG_FROM_GPU)
    session_hours: Positive | None = key(
        "Longest session. [hours]", None, default_text="none (sessions do not end)")
    weekly_quota_hours: NonNegative | None = key(
        "Wall-clock hours of GPU sessions allowed per week. [hours/week]", None,
        default_text="none (no limit)")
    daily_quota_hours: NonNegative | None = key(
        "Wall-clock hours of GPU sessions allowed per day. [hours/day]", None,
        default_text="none (no limit)")
    monthly_quota_hours: NonNegative | None = key(
        "Wall-clock hours of GPU sessions allowed per month. [hours/month]", None,
        default_text="none (no limit)")
    fee_per_month: NonNegative = key("Paid every month. [currency/month]", 0.0)
    setup_minutes: NonNegative = key("Lost at the start of each session. [minutes]", 0.0)
    availability: Fraction = key("Share of requests that get a GPU. [fraction]", 1.0)
    files_persist: Flag = key(
        "Whether files survive between sessions; when they do not, every session first "
        "fetches demand.data_gb again.", True)
    download_mb_per_s: Positive | None = key(
        "How fast a session fetches data that did not persist: the option warns how long each "
        "session spends on it (SPEC §5.4 does not subtract it from the capacity). [MB/s]", None,
        default_text="none (no warning)")
    frameworks: list[Text] = key(
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


class CloudOption(Map):
    """Renting cloud instances."""

    KIND: ClassVar[str] = "cloud"

    name: OptionName = key(_NAME_DESCRIPTION)
    cloud: CloudRef
    pricing: Literal[PRICINGS] = key(
        f"Which price is paid: {', '.join(PRICINGS)}.", "on_demand")
    region: Text | None = key(
        "Catalog region (catalog ids only).", None, default_text="cheapest listed")
    relative_speed: Positive | None = key(
        _RELATIVE_SPEED_DESCRIPTION, None, default_text=_RELATIVE_SPEED_DEFAULT)
    scaling_efficiency: ScalingEfficiency | None = _scaling_key()
    billing_increment_minutes: NonNegative | None = key(
        "Each job's rented time is rounded up to this (0 = exact); applies only when "
        "demand.job_hours is given. [minutes]", None, default_text="catalog, else 0")
    interruptions_per_hour: NonNegative | None = key(
        "Expected interruptions per rented instance-hour. [1/hour]", None,
        default_text="spot: catalog, else 0")
    restart_minutes: NonNegative = key(
        "Time lost per interruption besides redone work. [minutes]", 5.0)
    storage_per_gb_month: NonNegative | None = key(
        "Price of keeping demand.data_gb. [currency/(GB·month)]", None,
        default_text="catalog, else 0")
    reserved_instances: ReservedInstances | None = key(
        "Reserved pricing only: instances committed: one whole number for every term, "
        "per_term (each term's own count with the lowest present value), or a list of whole "
        "numbers, one per term the horizon starts. [instances]", None,
        default_text="the one count with the lowest present value")

    @property
    def kind(self) -> str:
        return self.KIND


class OwnOption(Map):
    """Buying a machine."""

    KIND: ClassVar[str] = "own"

    name: OptionName = key(_NAME_DESCRIPTION)
    own: OwnSpec = key("The machine.")
    relative_speed: Positive | None = key(
        _RELATIVE_SPEED_DESCRIPTION, None, default_text=_RELATIVE_SPEED_DEFAULT)
    scaling_efficiency: ScalingEfficiency | None = _scaling_key()
    overflow: Text | None = key(
        "Name of another option that serves the demand above the machine's capacity.", None,
        default_text="none (demand above capacity makes the option infeasible)")

    @property
    def kind(self) -> str:
        return self.KIND


class FreeTierOption(Map):
    """Living on a free notebook tier."""

    KIND: ClassVar[str] = "free_tier"

    name: OptionName = key(_NAME_DESCRIPTION)
    free_tier: FreeTierRef
    relative_speed: Positive | None = key(
        _RELATIVE_SPEED_DESCRIPTION, None, default_text=_RELATIVE_SPEED_DEFAULT)
    scaling_efficiency: ScalingEfficiency | None = _scaling_key()
    fallback: Text | None = key(
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
