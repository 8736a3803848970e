"""The usage.yaml boundary (SPEC §1): models and validation with positions.

:func:`load_usage` reads a file (or takes a dict), checks everything at once and returns a
:class:`UsageDocument`: the validated :class:`Usage` plus the position of every key and value,
so later stages can still point at the line a problem comes from.

Fields whose default comes from the catalog stay ``None`` here; the stage that reads the
catalog fills them in. Catalog ids are checked by the ``checks`` the caller passes in (the plan
passes one that looks them up), so their problems are reported with the schema's. The JSON
Schema and the reference page are generated in :mod:`planner.usage.schema`.
"""

from __future__ import annotations

import copy
import difflib
import math
import numbers
import os
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    model_validator,
)
from pydantic_core import PydanticCustomError

from planner.errors import Problem, UserError
from planner.usage.yaml12 import (
    MAX_BYTES,
    LoadedYaml,
    Position,
    child_path,
    load_yaml,
    parent_path,
)
from pricing.pricings import PRICE_COLUMN, PRICINGS

KINDS = ("cloud", "own", "free_tier")
KIND_LABELS = {"cloud": "cloud", "own": "own", "free_tier": "free-tier"}
DEMAND_FORMS = ("gpu_hours_per_month", "utilization", "flops_per_month")
PRICE_KEY_FOR_PRICING = {p: key for p, key in PRICE_COLUMN.items() if p != "on_demand"}
CURRENCY_PATTERN = r"^[A-Z]{3}$"
NAME_PATTERN = r"^[^.]+$"

#: Limits on the size of a plan (SPEC is silent): beyond them a plan is refused as a user error
#: at the key's position, before anything is allocated. A horizon of 100 years; 100 options
#: (every own option is compared with every other one, and the report lists them all).
MAX_HORIZON_MONTHS = 1200
MAX_OPTIONS = 100
MAX_INTEGER = 2**53

_NUMBER_HINT = " (numbers are plain: no quotes, units, percent signs or thousands separators)"


# ---------------------------------------------------------------------------------------------
# Value types: numbers are real numbers (never text, never true/false); integers are whole
# numbers, written 12 or 12.0.


def _describe(value: Any) -> str:
    """How a value reads in a message: ``the text '12'``, ``true``, ``a map``."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, Mapping):
        return "a map"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, numbers.Real):
        return _format_number(value)
    return repr(value)


def _format_number(value: float) -> str:
    """``12.0`` -> ``12``; other numbers as Python writes them."""
    if isinstance(value, numbers.Integral):
        if abs(int(value)) < 10**30:
            return str(int(value))
        try:  # a huge whole number: its size, not its hundreds of digits
            return f"{float(value):.6g}"
        except OverflowError:
            return "a whole number of more than 300 digits"
    value = float(value)
    if math.isfinite(value) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _is_boolean(value: Any) -> bool:
    return isinstance(value, bool) or type(value).__name__ == "bool_"  # numpy's too


def _to_number(value: Any) -> float:
    if _is_boolean(value) or not isinstance(value, numbers.Real):
        hint = _NUMBER_HINT if isinstance(value, str) and any(c.isdigit() for c in value) else ""
        raise PydanticCustomError(
            "number_type", "expected a number, got {got}" + hint, {"got": _describe(value)}
        )
    try:
        number = float(value)
    except OverflowError:  # a whole number beyond the float range (10^400 in YAML)
        number = math.inf
    if not math.isfinite(number):
        raise PydanticCustomError(
            "number_finite", "expected a finite number, got {got}", {"got": _describe(value)}
        )
    return number


def _to_integer(value: Any) -> int:
    if _is_boolean(value) or not isinstance(value, numbers.Real):
        hint = _NUMBER_HINT if isinstance(value, str) and any(c.isdigit() for c in value) else ""
        raise PydanticCustomError(
            "integer_type", "expected a whole number, got {got}" + hint, {"got": _describe(value)}
        )
    if isinstance(value, numbers.Integral):
        number = int(value)
    elif not (math.isfinite(float(value)) and float(value).is_integer()):
        raise PydanticCustomError(
            "integer_fraction", "expected a whole number, got {got}", {"got": _describe(value)}
        )
    else:
        number = int(value)
    if abs(number) > MAX_INTEGER:  # beyond it, whole numbers are not exact in the model's floats
        raise PydanticCustomError(
            "integer_size", "expected a whole number of at most 2^53 ({limit}), got {got}",
            {"got": _describe(value), "limit": MAX_INTEGER})
    return number


# Constraints go before the validator so they land in the JSON Schema as minimum/maximum.
Number = Annotated[float, BeforeValidator(_to_number)]
NonNegative = Annotated[float, Field(ge=0), BeforeValidator(_to_number)]
Positive = Annotated[float, Field(gt=0), BeforeValidator(_to_number)]
Fraction = Annotated[float, Field(ge=0, le=1), BeforeValidator(_to_number)]
PositiveFraction = Annotated[float, Field(gt=0, le=1), BeforeValidator(_to_number)]
AtLeastOne = Annotated[float, Field(ge=1), BeforeValidator(_to_number)]
Growth = Annotated[float, Field(ge=-1), BeforeValidator(_to_number)]
Count = Annotated[int, Field(ge=1), BeforeValidator(_to_integer)]
CountOrZero = Annotated[int, Field(ge=0), BeforeValidator(_to_integer)]
Text = Annotated[str, Field(strict=True, min_length=1)]
Flag = Annotated[bool, Field(strict=True)]
#: Suggested first for a mistyped code (historical codes such as XEU are suggested last).
COMMON_CURRENCIES = ("USD", "EUR", "CNY", "JPY", "GBP", "INR", "KRW", "CAD", "AUD", "CHF",
                     "SGD", "HKD", "TWD", "BRL", "SEK", "NOK", "DKK", "PLN", "CZK", "ILS",
                     "MXN", "NZD", "ZAR", "TRY", "AED", "SAR", "THB", "IDR", "MYR", "VND")


def _iso_currencies() -> list[str]:
    """The ISO 4217 codes Babel knows (current and historical), sorted."""
    from babel.numbers import list_currencies

    return sorted(list_currencies())


def _known_currency(code: str) -> str:
    if code not in _iso_currencies():
        raise PydanticCustomError("currency_unknown", "not an ISO 4217 currency code")
    return code


CurrencyCode = Annotated[str, Field(strict=True, pattern=CURRENCY_PATTERN),
                         AfterValidator(_known_currency)]
OptionName = Annotated[str, Field(strict=True, min_length=1, pattern=NAME_PATTERN)]


def _key(description: str, default: Any = ..., *, default_text: str | None = None) -> Any:
    """A field with its description; ``default_text`` says what a ``None`` default means."""
    extra = {"x-default": default_text} if default_text else None
    return Field(default, description=description, json_schema_extra=extra)


class _Map(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------------------------------------
# §1.1 demand, §1.2 site


class Demand(_Map):
    """The work to be done (SPEC §1.1). Exactly one of the three demand forms is given."""

    model_config = ConfigDict(
        json_schema_extra={"oneOf": [{"required": [form]} for form in DEMAND_FORMS]}
    )

    gpu_hours_per_month: NonNegative | None = _key(
        "Reference GPU-hours of work in month 1: hours of one reference GPU busy. One of "
        "gpu_hours_per_month, utilization, flops_per_month. [GPU-hours/month]",
        None, default_text="—")
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
        """Which demand form is given (``gpu_hours_per_month``, ``utilization``, …)."""
        given = [name for name in DEMAND_FORMS if getattr(self, name) is not None]
        return given[0] if len(given) == 1 else None


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
    kind: Literal["home-office", "server-closet", "colocation", "hyperscale"] | None = _key(
        "Kind of site whose typical PUE fills `pue` when it is not given.", None,
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
    reserved_instances: CountOrZero | None = _key(
        "Reserved pricing only: instances committed. [instances]", None,
        default_text="the count with the lowest present value")

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


def option_kind(entry: Any) -> str | None:
    """The kind of an option entry (``cloud``, ``own``, ``free_tier``); ``None`` unless one."""
    if isinstance(entry, BaseModel):
        return getattr(entry, "KIND", None)
    if isinstance(entry, Mapping):
        kinds = [kind for kind in KINDS if kind in entry]
        return kinds[0] if len(kinds) == 1 else None
    return None


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
    number = _to_integer(value)
    if number != 1:
        raise PydanticCustomError(
            "version", "this planner reads format version 1, got {got}",
            {"got": _describe(value)})
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
                              BeforeValidator(_to_integer)] = _key(
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
        # load_usage checks the rules itself, to give each its own position.
        if isinstance(data, Mapping) and not (info.context or {}).get("skip_rules"):
            issues = _rule_issues(data)
            if issues:
                raise ValueError("; ".join(f"{i.path}: {i.message}" for i in issues))
        return usage

    def option(self, name: str) -> Option:
        """The option called ``name`` (``KeyError`` if there is none)."""
        for option in self.options:
            if option.name == name:
                return option
        raise KeyError(name)


# ---------------------------------------------------------------------------------------------
# Rules between keys, checked on the plain data so that they are found even when other
# parts of the file have errors (pydantic skips a model's checks once a field fails).


@dataclass(frozen=True)
class Issue:
    """A problem before it has a position: ``at`` is ``value``, ``key`` or ``map``."""

    path: str
    message: str
    at: str = "value"
    suggestion: str | None = None


def suggest(word: Any, choices: Any) -> str | None:
    """The closest of ``choices`` to ``word``, if any is close."""
    if not isinstance(word, str):
        return None
    close = difflib.get_close_matches(word, [str(c) for c in choices], n=1, cutoff=0.6)
    return close[0] if close else None


def _rule_issues(data: Mapping[str, Any]) -> list[Issue]:
    """Every broken rule between keys of ``data`` (plain usage.yaml data)."""
    issues: list[Issue] = []
    demand = data.get("demand")
    if isinstance(demand, Mapping):
        given = [form for form in DEMAND_FORMS if demand.get(form) is not None]
        if not given:
            issues.append(Issue("demand", "give one of " + ", ".join(DEMAND_FORMS)))
        elif len(given) > 1:
            issues.append(Issue(
                "demand", f"give only one of {', '.join(DEMAND_FORMS)} (found "
                f"{' and '.join(given)})"))
    options = data.get("options")
    if not isinstance(options, list):
        return issues
    entries = [(i, e, option_kind(e)) for i, e in enumerate(options) if isinstance(e, Mapping)]
    names: dict[str, int] = {}
    for i, entry, _ in entries:
        name = entry.get("name")
        if not isinstance(name, str):
            continue
        if name in names:
            issues.append(Issue(
                f"options[{i}].name", f"the name '{name}' is already used by "
                f"options[{names[name]}]; option names are unique"))
        else:
            names[name] = i
    for i, entry, kind in entries:
        here = f"options[{i}]"
        if kind == "cloud":
            issues += _cloud_rules(entry, here)
        elif kind == "own":
            issues += _own_rules(entry, here)
        elif kind == "free_tier":
            issues += _free_tier_rules(entry, here)
    issues += _target_rules(entries, names)
    if any(kind == "own" for _, _, kind in entries):
        site = data.get("site", {})
        if (isinstance(site, Mapping) and site.get("electricity_per_kwh") is None
                and site.get("region") is None):
            owned = [e.get("name") for _, e, k in entries if k == "own"]
            issues.append(Issue(
                "site.electricity_per_kwh",
                f"required because an option owns hardware ({_names(owned)}); or give "
                "site.region to use the catalog's price"))
    return issues


def _names(names: list[Any]) -> str:
    return ", ".join(str(n) for n in names)


def _cloud_rules(entry: Mapping[str, Any], here: str) -> list[Issue]:
    issues = []
    pricing = entry.get("pricing", "on_demand")
    if entry.get("reserved_instances") is not None and pricing in ("on_demand", "spot"):
        issues.append(Issue(
            f"{here}.reserved_instances",
            f"reserved_instances applies only with pricing reserved_1y or reserved_3y, not "
            f"{pricing}", at="map"))
    cloud = entry.get("cloud")
    if isinstance(cloud, Mapping):
        needed = PRICE_KEY_FOR_PRICING.get(pricing) if isinstance(pricing, str) else None
        if needed and cloud.get(needed) is None:
            issues.append(Issue(
                f"{here}.cloud.{needed}", f"required with pricing: {pricing}", at="map"))
        if entry.get("region") is not None:
            issues.append(Issue(
                f"{here}.region", "region applies only to a catalog id; an inline cloud map "
                "carries its own prices", at="key"))
    return issues


def _own_rules(entry: Mapping[str, Any], here: str) -> list[Issue]:
    own = entry.get("own")
    if not isinstance(own, Mapping) or own.get("gpu") is not None:
        return []
    return [
        Issue(f"{here}.own.{key}", "required when own has no gpu", at="map")
        for key in ("purchase_price", "power_watts") if own.get(key) is None
    ]


def _free_tier_rules(entry: Mapping[str, Any], here: str) -> list[Issue]:
    tier = entry.get("free_tier")
    if not isinstance(tier, Mapping):
        return []
    session, setup = tier.get("session_hours"), tier.get("setup_minutes", 0)
    if _real(session) and _real(setup) and session > 0 and setup >= session * 60:
        return [Issue(
            f"{here}.free_tier.setup_minutes",
            f"setup takes the whole session ({_format_number(setup)} minutes of a "
            f"{_format_number(session)}-hour session)")]
    return []


def _real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not _is_boolean(value)


_TARGET_KEY = {"own": "overflow", "free_tier": "fallback"}


def _target_rules(entries: list[tuple[int, Any, str | None]], names: dict[str, int]) -> list[Issue]:
    issues = []
    target_of: dict[str, str] = {}  # option name -> the option it passes work on to
    for i, entry, kind in entries:
        key = _TARGET_KEY.get(kind or "")
        target = entry.get(key) if key else None
        if not isinstance(target, str):
            continue
        path = f"options[{i}].{key}"
        if target == entry.get("name"):
            issues.append(Issue(path, f"an option cannot name itself as its {key}"))
        elif target not in names:
            issues.append(Issue(
                path, f"no option is named '{target}'", suggestion=suggest(target, names)))
        elif isinstance(entry.get("name"), str) and names[entry["name"]] == i:
            target_of[entry["name"]] = target
    kind_of = {i: kind for i, _, kind in entries}
    reported: set[frozenset[str]] = set()
    for start in sorted(target_of, key=names.__getitem__):
        chain = [start]
        while chain[-1] in target_of and target_of[chain[-1]] not in chain:
            chain.append(target_of[chain[-1]])
        if chain[-1] not in target_of:
            continue  # the chain ends at an option that passes nothing on
        cycle = chain[chain.index(target_of[chain[-1]]):]
        if frozenset(cycle) in reported:
            continue
        reported.add(frozenset(cycle))
        first = min(cycle, key=names.__getitem__)
        order = cycle[cycle.index(first):] + cycle[:cycle.index(first)] + [first]
        index = names[first]
        issues.append(Issue(
            f"options[{index}].{_TARGET_KEY[kind_of[index] or 'own']}",
            "overflow/fallback goes round in a cycle: " + " -> ".join(order)))
    return issues


# ---------------------------------------------------------------------------------------------
# pydantic's errors, in the user's words


def _loc_path(loc: tuple[Any, ...]) -> str:
    path = ""
    for part in loc:
        path = child_path(path, part if isinstance(part, int) else str(part))
    return path


def _strip_tags(loc: tuple[Any, ...]) -> tuple[tuple[Any, ...], str | None]:
    """Drop the discriminator tags pydantic puts into locations; also return the entry's kind.

    ``('options', 2, 'cloud', 'cloud', 'map', 'price_per_hour')`` ->
    ``('options', 2, 'cloud', 'price_per_hour')``, ``'cloud'``.
    """
    if len(loc) >= 3 and loc[0] == "options" and isinstance(loc[1], int) and loc[2] in KINDS:
        kind = loc[2]
        rest = loc[3:]
        if len(rest) >= 2 and rest[0] in ("cloud", "free_tier") and rest[1] in ("id", "map"):
            rest = rest[:1] + rest[2:]
        return loc[:2] + rest, kind
    return loc, None


def _model_at(loc: tuple[Any, ...], kind: str | None) -> type[BaseModel] | None:
    """The model that reads the map at ``loc`` (a stripped location)."""
    fixed: dict[tuple[Any, ...], type[BaseModel]] = {
        (): Usage, ("demand",): Demand, ("site",): Site}
    if loc in fixed:
        return fixed[loc]
    if len(loc) >= 2 and loc[0] == "options" and isinstance(loc[1], int) and kind:
        rest = loc[2:]
        if rest == ():
            return OPTION_MODELS[kind]
        if rest == (kind,):
            return SPEC_MODELS[kind]
        if rest == ("own", "financing"):
            return Financing
    return None


def _other_kinds_keys(kind: str) -> dict[str, str]:
    """Keys of the other kinds (inside or beside their kind key) -> that kind."""
    owners: dict[str, str] = {}
    for other in KINDS:
        if other != kind:
            for key in (*OPTION_MODELS[other].model_fields, *SPEC_MODELS[other].model_fields):
                owners.setdefault(key, other)
    return owners


def _unknown_key(loc: tuple[Any, ...], kind: str | None) -> Issue:
    key = str(loc[-1])
    path = _loc_path(loc)
    parent = loc[:-1]
    model = _model_at(parent, kind)
    allowed = list(model.model_fields) if model else []
    if kind and len(parent) >= 2 and parent[0] == "options":
        label = KIND_LABELS[kind]
        beside, inside = OPTION_MODELS[kind].model_fields, SPEC_MODELS[kind].model_fields
        level = parent[2:]
        if level == () and key in inside:
            return Issue(path, f"'{key}' belongs inside {kind}:, not beside it", at="key")
        if level == (kind,) and key in beside:
            return Issue(path, f"'{key}' goes beside {kind}:, not inside it", at="key")
        if key not in allowed and key in _other_kinds_keys(kind):
            article = "an" if label[0] in "aeiou" else "a"
            return Issue(path, f"'{key}' does not apply to {article} {label} option", at="key")
    return Issue(path, f"unknown key '{key}'", at="key", suggestion=suggest(key, allowed))


def _unknown_option_keys(entry: Mapping[str, Any], here: str) -> list[Issue]:
    """For an entry without a kind: its keys that no kind of option has."""
    known = {k for kind in KINDS for k in (*OPTION_MODELS[kind].model_fields,
                                           *SPEC_MODELS[kind].model_fields)}
    beside = {k for model in OPTION_MODELS.values() for k in model.model_fields}
    return [
        Issue(child_path(here, str(key)), f"unknown key '{key}'", at="key",
              suggestion=suggest(key, sorted(beside)))
        for key in entry if key not in known
    ]


_BOUNDS = {
    "greater_than": ("gt", "greater than"),
    "greater_than_equal": ("ge", "at least"),
    "less_than": ("lt", "less than"),
    "less_than_equal": ("le", "at most"),
}


def _error_issues(error: Mapping[str, Any]) -> list[Issue]:
    """The issues one pydantic error stands for (a missing kind may hide unknown keys)."""
    loc, kind = _strip_tags(tuple(error["loc"]))
    path = _loc_path(loc)
    kind_of_error = error["type"]
    value = error.get("input")
    if kind_of_error == "extra_forbidden":
        return [_unknown_key(loc, kind)]
    if kind_of_error == "missing":
        return [Issue(path, "required key missing")]
    if kind_of_error == "option_kind":
        if not isinstance(value, Mapping):
            return [Issue(path, f"expected a map with name and one of cloud, own or free_tier, "
                                f"got {_describe(value)}")]
        given = [k for k in KINDS if k in value]
        if given:
            return [Issue(path, f"an option has exactly one of cloud, own or free_tier; this "
                                f"one has {' and '.join(given)}")]
        return [Issue(path, "an option needs one of cloud, own or free_tier"),
                *_unknown_option_keys(value, path)]
    if kind_of_error in ("model_type", "dict_type", "model_attributes_type"):
        return [Issue(path, f"expected a map, got {_describe(value)}")]
    if kind_of_error == "list_type":
        return [Issue(path, f"expected a list, got {_describe(value)}")]
    if kind_of_error == "too_long":
        count = (len(value) if isinstance(value, (list, tuple))
                 else error["ctx"].get("actual_length"))
        what = "options" if path == "options" else "entries"
        return [Issue(path, f"at most {error['ctx']['max_length']} {what} are allowed, got "
                            f"{count}")]
    if kind_of_error == "too_short":
        return [Issue(path, f"needs at least {error['ctx']['min_length']} entry")]
    if kind_of_error in ("string_type", "id_or_map"):
        expected = "text" if kind_of_error == "string_type" else error["msg"][len("expected "):]
        return [Issue(path, f"expected {expected}, got {_describe(value)}")]
    if kind_of_error == "string_too_short":
        return [Issue(path, "must not be empty")]
    if kind_of_error == "string_pattern_mismatch":
        if error["ctx"]["pattern"] == NAME_PATTERN:
            return [Issue(path, f"an option name cannot contain '.', got {value!r}")]
        at = "key" if loc and loc[-1] == "[key]" else "value"
        if at == "key":
            path = _loc_path(loc[:-1])
        upper = value.upper() if isinstance(value, str) else None
        return [Issue(path, f"expected a currency code of 3 capital letters (ISO 4217, like "
                            f"USD), got {value!r}", at=at,
                      suggestion=upper if upper and len(upper) == 3 and upper.isalpha() else None)]
    if kind_of_error == "currency_unknown":
        at = "key" if loc and loc[-1] == "[key]" else "value"
        if at == "key":
            path = _loc_path(loc[:-1])
        return [Issue(path, f"{value!r} is not an ISO 4217 currency code", at=at,
                      suggestion=suggest(value, COMMON_CURRENCIES)
                      or suggest(value, _iso_currencies()))]
    if kind_of_error == "bool_type":
        return [Issue(path, f"expected true or false, got {_describe(value)}")]
    if kind_of_error == "literal_error":
        return [Issue(path, f"expected one of {', '.join(PRICINGS)}, got {_describe(value)}",
                      suggestion=suggest(value, PRICINGS))]
    if kind_of_error in _BOUNDS:
        name, words = _BOUNDS[kind_of_error]
        bound = _format_number(error["ctx"][name])
        return [Issue(path, f"must be {words} {bound}, got {_describe(value)}")]
    return [Issue(path, error["msg"])]


# ---------------------------------------------------------------------------------------------
# Public API


@dataclass
class UsageDocument:
    """A validated usage file and where each of its keys and values was written.

    ``positions`` maps dotted key paths (``options[2].own.purchase_price``; ``""`` is the
    whole file) to the 1-based (line, column) of the value, ``key_positions`` to that of the
    key. Both are empty for a dict. ``data`` is the plain data as read (without the defaults).
    """

    usage: Usage
    file: str | None
    positions: dict[str, Position] = field(default_factory=dict)
    key_positions: dict[str, Position] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)

    def problem(
        self, path: str, message: str, suggestion: str | None = None, at: str = "value"
    ) -> Problem:
        """A :class:`Problem` located at ``path``.

        ``at`` is ``"value"`` (the value's position), ``"key"`` (the key's) or ``"map"`` (the
        map that holds the key). Without a recorded position the nearest enclosing path that
        has one is used.
        """
        return _locate(self.file, self.positions, self.key_positions, path, message,
                       suggestion, at)


def _locate(
    file: str | None,
    positions: Mapping[str, Position],
    key_positions: Mapping[str, Position],
    path: str,
    message: str,
    suggestion: str | None = None,
    at: str = "value",
) -> Problem:
    if at not in ("value", "key", "map"):
        raise ValueError(f"at must be 'value', 'key' or 'map', got {at!r}")
    where = key_positions.get(path) if at == "key" else None
    search: str | None = parent_path(path) if at == "map" else path
    while where is None and search is not None:
        where = positions.get(search)
        search = parent_path(search)
    line, column = where if where else (None, None)
    return Problem(message, path=path, file=file, line=line, column=column,
                   suggestion=suggestion)


#: Extra checks on the plain data (e.g. that catalog ids exist), run with the schema's own.
Checks = Callable[[Mapping[str, Any]], "list[Issue]"]


def load_usage(
    source: str | os.PathLike[str] | Mapping[str, Any], *, name: str | None = None,
    checks: Checks | None = None,
) -> UsageDocument:
    """Read and check a usage file (a path) or usage data (a dict).

    ``name`` is the file the data is known by: it is shown in problems and gives the default
    title (its stem), also for a dict (e.g. a changed copy of a file's data). ``checks`` finds
    more issues in the plain data; they are located and reported with the schema's. Raises
    :class:`UserError` with every problem found, each located as precisely as possible.
    """
    if isinstance(source, Mapping):
        return _check(copy.deepcopy(dict(source)), name, {}, {}, [], checks=checks)
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"load_usage takes a path or a dict, got {type(source).__name__}")
    file = name or os.fspath(source)
    return _check_loaded(load_yaml(_read(source, file), file), file, checks)


def load_usage_text(text: str, *, name: str | None = None) -> UsageDocument:
    """Like :func:`load_usage`, for YAML text (``name``: the file it came from, if any)."""
    return _check_loaded(load_yaml(text, name), name)


def raw_document(source: str | os.PathLike[str] | Mapping[str, Any]) -> dict[str, Any]:
    """The plain data of a usage file or dict (a deep copy; no defaults filled in).

    Raises :class:`UserError` if the file cannot be read as one YAML map.
    """
    if isinstance(source, Mapping):
        return copy.deepcopy(dict(source))
    file = os.fspath(source)
    loaded = load_yaml(_read(source, file), file)
    _require_map(loaded.data, file, loaded.positions)
    if loaded.problems:
        raise UserError(loaded.problems)
    return loaded.data


def _read(source: str | os.PathLike[str], file: str) -> bytes:
    path = Path(source)
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise UserError.single("this is a folder, not a usage file", file=file)
        if size > MAX_BYTES:
            raise UserError.single(
                f"the file is too large ({size / 1e6:.1f} MB); a usage file is at most "
                f"{MAX_BYTES // (1024 * 1024)} MB", file=file)
        return path.read_bytes()
    except FileNotFoundError:
        raise UserError.single("no such file", file=file) from None
    except OSError as exc:
        raise UserError.single(f"cannot read the file: {exc.strerror or exc}", file=file) from None


def _require_map(data: Any, file: str | None, positions: Mapping[str, Position]) -> None:
    if data is None:
        raise UserError.single(
            "the file is empty; a usage file is a map with version, demand and options",
            file=file)
    if not isinstance(data, dict):
        line, column = positions.get("", (None, None))
        raise UserError.single(
            f"the top level must be a map of keys (version, demand, options, …), got "
            f"{_describe(data)}", file=file, line=line, column=column)


def _check_loaded(loaded: LoadedYaml, file: str | None,
                  checks: Checks | None = None) -> UsageDocument:
    _require_map(loaded.data, file, loaded.positions)
    return _check(loaded.data, file, loaded.positions, loaded.key_positions, loaded.problems,
                  loaded.unreadable, checks)


def _check(
    data: dict[str, Any],
    file: str | None,
    positions: dict[str, Position],
    key_positions: dict[str, Position],
    problems: list[Problem],
    unreadable: AbstractSet[str] = frozenset(),
    checks: Checks | None = None,
) -> UsageDocument:
    given = dict(data)
    if "title" not in given:
        given["title"] = Path(file).stem if file else "plan"
    issues: list[Issue] = []
    usage = None
    try:
        usage = Usage.model_validate(given, context={"skip_rules": True})
    except ValidationError as exc:
        for error in exc.errors(include_url=False):
            issues += _error_issues(error)
    issues += _rule_issues(given)
    if checks is not None:
        issues += checks(given)
    found = list(problems)
    for issue in issues:
        if _within(issue.path, unreadable):
            continue  # its unsupported tag is reported already
        found.append(_locate(file, positions, key_positions, issue.path, issue.message,
                             issue.suggestion, issue.at))
    if found or usage is None:
        unique = list(dict.fromkeys(found))
        unique.sort(key=lambda p: (p.line is None, p.line or 0, p.column or 0))
        raise UserError(unique)
    return UsageDocument(usage, file, positions, key_positions, data)


def _within(path: str, roots: AbstractSet[str]) -> bool:
    """Whether ``path`` is one of ``roots`` or lies below one."""
    search: str | None = path
    while search is not None:
        if search in roots:
            return True
        search = parent_path(search)
    return False
