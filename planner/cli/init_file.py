"""The usage.yaml that ``planner init`` writes: a few answers turned into a commented file.

:func:`resolve_options` reads each catalog id the user gave (a cloud instance
``provider/instance``, a free tier, or a GPU to buy) and :func:`usage_text` writes the file:
every key with a comment giving its meaning and unit, and a few keys left commented out
where a user is likely to want them next.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

__all__ = ["Answers", "Choice", "default_options", "needed_currencies", "resolve_options",
           "system_for", "usage_text"]

#: A scalar written as it is; anything else is written as a JSON string (valid YAML).
_PLAIN = re.compile(r"^[A-Za-z][A-Za-z0-9_./-]*$")
#: Words YAML reads as something else than text.
_RESERVED = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"}


@dataclass(frozen=True)
class Choice:
    """One option to weigh: ``kind`` (cloud, free_tier, own), the catalog ``id``, the option's
    ``name`` in the file and what it is (``label``, for the comment)."""

    kind: str
    id: str
    name: str
    label: str


@dataclass
class Answers:
    """What ``planner init`` asked. ``hours_per_week``: wall-clock hours a week that one job
    runs on its ``gpus`` GPUs [h/week]; ``fx``: units of ``currency`` one unit of another
    currency buys."""

    title: str
    gpus: int
    hours_per_week: float
    currency: str
    options: list[Choice]
    region: str | None = None
    electricity_per_kwh: float | None = None
    reference_gpu: str | None = None
    fx: dict[str, float] = field(default_factory=dict)
    catalogs: list[str] = field(default_factory=list)  # relative to the file's folder


def default_options(gpus: int) -> list[str]:
    """Catalog ids weighed when none are given: Kaggle's free tier, RunPod A100s sized for
    one job of ``gpus`` GPUs (1, 2, 4 or 8 to an instance), and a machine with RTX 4090s."""
    size = next((n for n in (1, 2, 4, 8) if n >= gpus), 8)
    return ["kaggle", f"runpod/{size}x_A100-80GB_SECURE", "rtx-4090"]


def _name(text: str, taken: set[str]) -> str:
    """An option name from ``text``: no '.', no '/', unique among ``taken``."""
    base = re.sub(r"[./\s]+", "-", text).strip("-") or "option"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}-{n}", n + 1
    taken.add(name)
    return name


def resolve_options(ids: list[str], catalog) -> tuple[list[Choice], list[tuple[str, str]]]:
    """The choices ``ids`` name, and (id, problem text) for each id found nowhere in the
    catalog (with the closest ids of every table as a did-you-mean, pricing.suggest's
    order)."""
    from pricing.suggest import close_matches, did_you_mean

    gpus = {i.lower(): i for i in catalog.ids("gpus")}
    tiers = {i.lower(): i for i in catalog.ids("free-tiers")}
    clouds = {i.lower(): i for i in catalog.ids("clouds")}
    choices, problems, taken = [], [], set()
    for raw in ids:
        key = raw.strip().lower()
        if key in clouds:
            row = catalog.cloud(clouds[key])
            label = f"{row.gpus}× {row.gpu} rented by the hour" if row.gpu else "a cloud instance"
            choices.append(Choice("cloud", clouds[key], _name(clouds[key], taken), label))
        elif key in tiers:
            row = catalog.free_tier(tiers[key])
            choices.append(Choice("free_tier", tiers[key], _name(tiers[key], taken),
                                  f"{row.name} (free or flat-fee notebooks)"))
        elif key in gpus:
            row = catalog.gpu(gpus[key])
            choices.append(Choice("own", gpus[key], _name(f"buy-{gpus[key]}", taken),
                                  f"a machine with {row.name} GPUs, bought today"))
        else:
            near = close_matches(raw, [*clouds.values(), *tiers.values(), *gpus.values()])
            problems.append((raw, (f"{raw!r} is not a catalog id of a cloud instance, a free "
                                  f"tier or a GPU{did_you_mean(near)}; planner catalog lists "
                                  "them")))
    return choices, problems


def system_for(gpu_count: int, catalog) -> str | None:
    """The first catalog system (file order) with room for ``gpu_count`` GPUs, else None."""
    for row in catalog.rows("systems"):
        if (row.get("gpu_slots") or 0) >= gpu_count:
            return str(row["id"])
    return None


def needed_currencies(answers: Answers, catalog) -> list[str]:
    """Currencies of the catalog rows the file uses other than its own: each needs an fx
    rate."""
    found = []
    for choice in answers.options:
        if choice.kind == "cloud":
            found.append(catalog.cloud(choice.id).currency)
        elif choice.kind == "free_tier":
            found.append(catalog.free_tier(choice.id).currency)
        else:
            found.append(catalog.gpu(choice.id).currency)
            system = system_for(answers.gpus, catalog)
            if system:
                found.append(catalog.system(system).currency)
    if answers.region and any(c.kind == "own" for c in answers.options):
        found.append(catalog.region(answers.region).currency)
    return sorted({c.upper() for c in found} - {answers.currency.upper()})


def scalar(value) -> str:
    """``value`` as a YAML scalar: numbers and plain ids as written, other text quoted."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, float) and not value.is_integer() else \
            str(int(value))
    text = str(value)
    if _PLAIN.match(text) and text.lower() not in _RESERVED:
        return text
    return json.dumps(text, ensure_ascii=False)


def _line(indent: int, key: str, value, comment: str, width: int = 34) -> str:
    text = " " * indent + f"{key}: {scalar(value)}"
    return f"{text:<{width - 1}} # {comment}"


def usage_text(answers: Answers, catalog, file_name: str = "usage.yaml") -> str:
    """The commented usage.yaml of ``answers`` (format version 1), to be written as
    ``file_name`` (named in its first comments)."""
    a = answers
    gpu_hours = a.hours_per_week * a.gpus
    owns = [c for c in a.options if c.kind == "own"]
    lines = [
        f"# Written by planner init. Check it with:  planner validate {file_name}",
        f"# Then:  planner report {file_name}   (every key: planner schema, docs/usage-reference.md)",
        "# Every number is plain (no units, no % signs); fractions are fractions (0.2 = 20 %).",
        "",
        _line(0, "version", 1, "format version of this file"),
        _line(0, "title", a.title, "report title"),
        _line(0, "currency", a.currency, "currency of every amount here and in the report"),
    ]
    if a.fx:
        lines.append(f"{'fx:':<33} # units of {a.currency} that one unit of another "
                     "currency buys")
        lines += [_line(2, code, rate, f"catalog prices in {code} are converted with it "
                                       f"[{a.currency}/{code}]")
                  for code, rate in sorted(a.fx.items())]
    if a.catalogs:
        lines.append(f"{'catalogs:':<33} # your catalog files, over the built-in one "
                     "(relative to this file)")
        lines += [f"  - {scalar(path)}" for path in a.catalogs]
    lines += [
        _line(0, "horizon_months", 36, "planning horizon [months]"),
        f"{'# discount_rate: 0.05':<33} # what money would earn elsewhere [fraction/year]",
        "",
        f"{'demand:':<33} # the work to be done",
        _line(2, "gpu_hours_per_week", gpu_hours,
              f"{scalar(a.hours_per_week)} h a week × {a.gpus} GPU{'s' if a.gpus != 1 else ''}"
              " [GPU-hours/week]"),
        _line(2, "gpus", a.gpus, "GPUs one job uses at once"),
    ]
    if a.reference_gpu:
        lines.append(_line(2, "reference_gpu", a.reference_gpu,
                           "the GPU the hours above were measured on"))
    else:
        lines.append(f"{'  # reference_gpu: rtx-4090':<33} # the GPU the hours were measured "
                     "on: other GPUs then need more or fewer hours")
    lines += [f"{'  # growth_per_year: 0.25':<33} # demand grows 25 % a year [fraction/year]",
              (f"{'  # min_gpu_memory_gb: 24':<33} # options with less GPU memory are "
              "infeasible [GB]")]
    if owns:
        lines += ["", f"{'site:':<33} # where a machine you buy would run"]
        if a.electricity_per_kwh is not None:
            lines.append(_line(2, "electricity_per_kwh", a.electricity_per_kwh,
                               f"price of electricity [{a.currency}/kWh]"))
        if a.region:
            row = catalog.region(a.region)
            lines.append(_line(2, "region", a.region,
                               f"{row.name}: electricity price and grid carbon"))
            if row.electricity_business_per_kwh is None and \
                    row.electricity_household_per_kwh is not None:
                lines.append(_line(2, "tariff", "household", "the catalog lists only a "
                                   "household price here"))
            else:
                lines.append(f"{'  # tariff: household':<33} # a home's electricity price, "
                             "not a business one")
        lines.append(f"{'  # kind: home-office':<33} # catalog site kind: its cooling "
                     "overhead (PUE)")
    lines += ["", "options:"]
    for c in a.options:
        lines.append(_line(2, "- name", c.name, c.label))
        if c.kind == "cloud":
            lines.append(_line(4, "cloud", c.id, "catalog instance: provider/instance"))
            lines.append(f"{'    # pricing: spot':<33} # on_demand, spot, reserved_1y or "
                         "reserved_3y")
        elif c.kind == "free_tier":
            lines.append(_line(4, "free_tier", c.id, "catalog free tier"))
            other = next((o for o in a.options if o.kind == "cloud"), None)
            if other is not None:
                lines.append(_line(4, "fallback", other.name,
                                   "what the tier cannot take goes here"))
        else:
            system = system_for(a.gpus, catalog)
            lines.append(f"{'    own:':<33} # the machine")
            lines.append(_line(6, "gpu", c.id, "catalog GPU: memory, power, price"))
            lines.append(_line(6, "gpu_count", a.gpus, "GPUs in the machine"))
            if system:
                lines.append(_line(6, "system", system,
                                   "catalog chassis, CPU, RAM, power supply"))
            else:
                lines.append(_line(6, "system_price", 0,
                                   f"the rest of the machine [{a.currency}]: fill it in"))
            lines.append(_line(6, "lifetime_years", 4, "replaced after this many years"))
            lines.append(f"{'      # resale_fraction: 0.2':<33} # share of the price "
                         "recovered when sold")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
