"""From a validated usage document to the arrays of the cost model.

Reads the usage data as plain Python (numbers may be numpy arrays: a sweep), asks the pricing
module for rate cards, and builds :class:`planner.cards.model.Model`. Every problem found is collected
with its key path; the caller turns them into located :class:`~planner.errors.Problem` objects.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from planner.cards.assumptions import Assumption, from_provenance
from planner.cards.model import (
    Calendar,
    CloudCard,
    Demand,
    Financing,
    FreeTierCard,
    Model,
    OwnCard,
    col,
)
from planner.cards.option_rates import option_rates, site_rates_of
from planner.cards.scaling import auto_efficiency
from planner.errors import Problem, suggestion_text
from planner.messages import Message, Number, Share
from planner.usage.units import gpu_hours_per_month, growth_per_year
from pricing.catalog import Catalog
from pricing.pricings import PRICE_COLUMN, TERM_MONTHS
from pricing.rates import (
    PricingError,
    given,
    gpu_facts,
)

#: A lifetime this long is forever: the machine is never replaced and is worth its price at
#: the horizon (longer lifetimes are capped here, so that their months stay finite). [years]
FOREVER_YEARS = 1e300


def _is_auto(machines: Any) -> bool:
    """``machines: auto`` (SPEC §6): the count is chosen by the engine."""
    return isinstance(machines, str)


@dataclass
class Resolved:
    model: Model
    provenance: list[Assumption]  # what the figures rest on, in order, each once
    warnings: dict[str, list[Message]]  # option name -> warnings found while resolving
    issues: list[Problem]  # by key path; the caller locates them
    site: dict[str, Any] = field(default_factory=dict)  # site keys, catalog defaults filled


def demand_level(demand: Mapping[str, Any], hours_per_month) -> tuple[str, Any]:
    """Month-1 work in reference units and its form (SPEC §1.1)."""
    if demand.get("flops_per_month") is not None:
        return "flops", demand["flops_per_month"]
    if demand.get("utilization") is not None:
        return "gpu_hours", demand["utilization"] * hours_per_month * demand["gpus"]
    return "gpu_hours", gpu_hours_per_month(demand, hours_per_month)


def resolve(usage: Mapping[str, Any], catalog: Catalog) -> Resolved:
    """Build the model of a usage document given as plain data (SPEC §1 keys)."""
    issues: list[Problem] = []
    provenance: list[Assumption] = []
    warnings: dict[str, list[Message]] = {}
    d = usage["demand"]
    H = usage["hours_per_month"]
    form, level = demand_level(d, H)
    demand = Demand(
        form=form, level=col(level), growth_per_year=col(growth_per_year(d)),
        gpus=col(d["gpus"]),
        job_hours=None if d.get("job_hours") is None else col(d["job_hours"]),
        checkpoint_minutes=col(d["checkpoint_minutes"]), data_gb=col(d["data_gb"]),
        min_gpu_memory_gb=col(d["min_gpu_memory_gb"]),
    )
    calendar = Calendar(horizon_months=int(usage["horizon_months"]), hours_per_month=col(H),
                        discount_rate=col(usage["discount_rate"]))
    site = _site(usage, catalog, issues, provenance)
    reference = d.get("reference_gpu")
    if reference is not None:
        try:
            row = catalog.gpu(reference)
            provenance.append(Assumption(Message("assumption.reference_gpu", gpu=row.name),
                                         Message("assumption.throughput_reference"),
                                         row.as_of, row.source))
        except LookupError as err:
            issues.append(Problem(f"unknown GPU {reference!r} in the catalog",
                                  path="demand.reference_gpu",
                                  suggestion=suggestion_text(getattr(err, "suggestions", []))))
            reference = None
    cards = {}
    target_of = {}
    for i, option in enumerate(usage["options"]):
        name = option["name"]
        path = f"options[{i}]"
        notes: list[Message] = []
        try:
            card, prov = _card(usage, site, option, catalog, demand, reference, notes)
        except PricingError as err:
            issues.append(Problem(err.message, path=f"{path}.{err.key}",
                                  suggestion=suggestion_text(err.suggestions)))
            continue
        provenance.extend(p if isinstance(p, Assumption) else from_provenance(p) for p in prov)
        warnings[name] = notes
        cards[name] = card
        target = option.get("overflow") or option.get("fallback")
        if target is not None:
            target_of[name] = target
    model = Model(calendar=calendar, demand=demand, cards=cards, target_of=target_of)
    return Resolved(model=model, provenance=_unique(provenance), warnings=warnings,
                    issues=issues, site=site)


def _unique(items: list[Assumption]) -> list[Assumption]:
    seen, out = set(), []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out


def _peak_key(option) -> str:
    """Where an option without a GPU's peak lacks it, relative to the option: its inline map's
    ``gpu`` where it names one, else the map (or the catalog id) itself."""
    section = next(k for k in ("cloud", "own", "free_tier") if k in option)
    spec = option[section]
    return f"{section}.gpu" if isinstance(spec, Mapping) and spec.get("gpu") else section


def _gpu_hours_per_unit(usage, option, demand: Demand, gpu: str | None, peak_tflops,
                        reference, catalog: Catalog, notes: list[Message], efficiency=1.0):
    """Own GPU-hours per reference unit, and the job length on this option [h]: both divided
    by ``efficiency``, the option's scaling efficiency (SPEC §8). [h/unit], [h]"""
    d = usage["demand"]
    speed = option.get("relative_speed")
    if demand.form == "flops":
        if speed is not None:
            notes.append(Message("warning.flops_speed"))
        peak = np.asarray(peak_tflops, dtype=float)
        if np.isnan(peak).any():
            raise PricingError(_peak_key(option),
                               "FLOPs demand needs the GPU's peak_tflops: name a catalog gpu "
                               "or give peak_tflops")
        per_unit = 1.0 / (peak * 1e12 * d["flops_efficiency"] * 3600.0)
        job = None if demand.job_hours is None else demand.job_hours / efficiency
        return col(per_unit) / efficiency, job
    if speed is None:
        speed = 1.0
        if gpu is not None and reference is not None:
            ratio = catalog.relative_speed(gpu, reference, d["workload"],
                                           precision=d["precision"])
            if ratio is not None:
                speed = ratio
            else:
                notes.append(Message("warning.no_throughput", gpu=gpu, reference=reference))
    speed = col(speed) * efficiency
    job = None if demand.job_hours is None else demand.job_hours / speed
    return 1.0 / speed, job


def scaling_efficiency(usage, option, catalog: Catalog, gpu: str | None, gpus_per_machine,
                       notes: list | None = None):
    """The option's scaling efficiency (SPEC §8), an (S, 1) array: 1 for independent runs and
    by default; the number given; or ``auto``: from how the option's GPUs are connected (the
    interconnects row of its catalog instance, system or tier, else of its GPU), whose row is
    then added to ``notes`` as an assumption. [fraction]

    Raises :class:`PricingError` at ``scaling_efficiency`` when ``auto`` finds no row.
    """
    d = usage["demand"]
    given_value = option.get("scaling_efficiency")
    if d.get("parallelism") == "independent" or given_value is None:
        return col(1.0)
    if not isinstance(given_value, str):
        return col(given_value)
    gpus = col(d["gpus"])
    if (gpus <= 1).all():
        return col(1.0)
    own = option.get("own")
    ids = [option.get("cloud"), option.get("free_tier"),
           own.get("system") if isinstance(own, Mapping) else None]
    row = catalog.interconnect(*[i for i in ids if isinstance(i, str)], gpu)
    if row is None:
        raise PricingError("scaling_efficiency",
                           "scaling_efficiency: auto needs to know how the option's GPUs are "
                           "connected, and the catalog's interconnects table has no row for "
                           "its instance, system or GPU: give a number, or add a row")
    efficiency = col(auto_efficiency(row.interconnect, row.across_machines, gpus,
                                     col(gpus_per_machine)))
    if notes is not None:
        notes.append(Assumption(
            Message("assumption.interconnect", id=row.id),
            Message("assumption.interconnect_value", interconnect=row.interconnect,
                    across=row.across_machines, share=float(efficiency.ravel()[0]),
                    gpus=float(gpus.ravel()[0])),
            row.as_of, row.source))
    return efficiency


def _site(usage, catalog: Catalog, issues: list[Problem],
          provenance: list[Assumption]) -> dict[str, Any]:
    """The site's electricity price, PUE and carbon intensity: the user's values, else those of
    the catalog region and kind of site, else (PUE) 1."""
    site = dict(usage.get("site") or {})
    try:
        rates = site_rates_of(catalog, usage)
    except PricingError as err:
        issues.append(Problem(err.message,
                              path=f"site.{err.key if err.key != 'site_kind' else 'kind'}",
                              suggestion=suggestion_text(err.suggestions)))
        return site
    used = False
    for key in ("electricity_per_kwh", "pue", "carbon_kg_per_kwh"):
        if site.get(key) is None and getattr(rates, key) is not None:
            site[key] = getattr(rates, key)
            used = True
    if used:
        provenance.extend(from_provenance(p) for p in rates.provenance
                          if not (p.item_key == "pue" and usage.get("site", {}).get("pue")
                                  is not None))
    site["pue"] = given(site.get("pue"), 1.0)
    return site


def _random_hardware(usage, option, demand: Demand, rates, reference, catalog: Catalog,
                     notes: list[Message], efficiency):
    """A tier that hands out GPUs at random: the expected own GPU-hours per unit of work over
    the GPUs with enough memory, the memory the work can count on, and the share of sessions
    that get such a GPU."""
    need = usage["demand"]["min_gpu_memory_gb"]
    per_unit = 0.0
    share_ok = 0.0
    memories = []
    for gpu_id, share in rates.gpu_options.items():
        facts, _ = gpu_facts(catalog, gpu_id, None, None,
                             precision=usage["demand"]["precision"])
        memory = facts.gpu_memory_gb
        if memory is not None and not np.isnan(memory) and memory < need:
            memories.append(memory)
            continue
        unit, _ = _gpu_hours_per_unit(usage, option, demand, gpu_id, facts.peak_tflops,
                                      reference, catalog, notes, efficiency)
        per_unit = per_unit + share * unit
        share_ok += share
        memories.append(memory)
    if share_ok == 0:
        # No GPU the tier hands out has enough memory: the memory check sends the work on.
        return col(1.0), col(min(memories) if memories else np.nan), 0.0
    usable = [m for m in memories if m is not None and not np.isnan(m) and m >= need]
    memory = min(usable) if usable else np.nan
    notes.append(Message("warning.random_gpus", handed_out=_handed_out(rates.gpu_options)))
    return per_unit / share_ok, col(memory), share_ok


def _handed_out(gpu_options: Mapping[str, float]) -> Message:
    """A tier's GPUs and the share of sessions each is handed out to, as one list message
    ("t4 70%, p100 30%"), the shares formatted by the renderer."""
    parts = [Message("warning.gpu_share", gpu=gpu, share=Share(share))
             for gpu, share in gpu_options.items()]
    listed = parts[-1]
    for part in reversed(parts[:-1]):
        listed = Message("warning.list", first=part, rest=listed)
    return listed


def _reserved_counts(given) -> dict[str, Any]:
    """The CloudCard fields of ``reserved_instances``: one count (a number, or a sweep's array
    of them), a ladder (a list, one count per term), or per_term."""
    if given is None:
        return {}
    if isinstance(given, str):  # per_term
        return {"reserved_per_term": True}
    if isinstance(given, list):
        return {"reserved_ladder": np.asarray(given, dtype=float).reshape(1, -1)}
    return {"reserved_instances": col(given)}


def _card(usage, site, option, catalog: Catalog, demand: Demand, reference, notes):
    """The option's rate card and the assumptions it rests on. The scaling efficiency (over
    the machine's GPUs for own hardware, the instance's or the tier's otherwise) and the own
    GPU-hours per unit of work are the same for every kind; the rest is the kind's own."""
    d = usage["demand"]
    rates = option_rates(catalog, option, currency=usage["currency"], fx=usage.get("fx") or {},
                         precision=d["precision"])
    scaling: list[Assumption] = []  # the interconnects row behind scaling_efficiency: auto
    own = option.get("own")
    gpus_per_machine = rates.gpu_count if own is not None else rates.gpus
    efficiency = scaling_efficiency(usage, option, catalog, rates.facts.gpu, gpus_per_machine,
                                    scaling)
    per_unit, job = _gpu_hours_per_unit(usage, option, demand, rates.facts.gpu,
                                        rates.facts.peak_tflops, reference, catalog, notes,
                                        efficiency)
    common = {"name": option["name"], "gpu": rates.facts.gpu,
              "gpu_memory_gb": col(rates.facts.gpu_memory_gb), "gpu_hours_per_unit": per_unit,
              "job_hours": job, "scaling_efficiency": efficiency}
    if option.get("cloud") is not None:
        card = _cloud_card(option, rates, common)
    elif own is not None:
        card = _own_card(option, own, site, rates, common)
    else:
        card = _free_tier_card(usage, option, demand, rates, reference, catalog, notes, common)
    return card, [*rates.provenance, *scaling]


def _cloud_card(option, rates, common: dict[str, Any]) -> CloudCard:
    """A cloud option's card: the price of its pricing, and the on-demand price above a
    reservation (SPEC §5.2)."""
    pricing = option["pricing"]
    price = getattr(rates, PRICE_COLUMN[pricing])
    if price is None:
        raise PricingError("cloud", f"{PRICE_COLUMN[pricing]} is required for "
                                    f"{pricing} pricing")
    reserved = pricing in TERM_MONTHS
    return CloudCard(
        **common, pricing=pricing, gpus=col(rates.gpus),
        price_per_hour=col(price), on_demand_price_per_hour=col(rates.price_per_hour),
        reserved_price_per_hour=col(price) if reserved else None,
        term_months=TERM_MONTHS.get(pricing, 0),
        **_reserved_counts(option.get("reserved_instances")),
        billing_increment_hours=col(rates.billing_increment_minutes) / 60.0,
        interruptions_per_hour=col(rates.interruptions_per_hour),
        restart_minutes=col(option["restart_minutes"]),
        storage_per_gb_month=col(rates.storage_per_gb_month),
    )


def _own_card(option, own, site, rates, common: dict[str, Any]) -> OwnCard:
    """An own-hardware option's card (SPEC §5.3): the machine's price, power and running costs,
    the site's electricity, the financing, and how many machines are bought when."""
    financing = own.get("financing")
    carbon = site.get("carbon_kg_per_kwh")
    # A lifetime beyond 10^300 years is forever (never replaced, worth its price at T):
    # capped there, so that its months stay a finite number.
    years = np.minimum(np.asarray(own["lifetime_years"], float), FOREVER_YEARS)
    lifetime = np.maximum(np.floor(years * 12 + 0.5), 1)
    machines = own["machines"]
    return OwnCard(
        **common, gpu_count=col(rates.gpu_count),
        purchase_price=col(rates.purchase_price), lifetime_months=col(lifetime),
        resale_fraction=col(own["resale_fraction"]),
        power_kw=col(rates.power_watts) / 1000.0,
        idle_power_kw=col(rates.idle_power_watts) / 1000.0,
        always_on=bool(own["always_on"]),
        maintenance_per_year=col(own["maintenance_per_year"]),
        fixed_cost_per_month=col(own["fixed_cost_per_month"]),
        operating_cost_per_hour=col(own["operating_cost_per_hour"]),
        availability=col(own["availability"]),
        electricity_per_kwh=col(given(site.get("electricity_per_kwh"), 0.0)),
        pue=col(site["pue"]),
        carbon_kg_per_kwh=None if carbon is None else col(carbon),
        financing=None if financing is None else Financing(
            annual_rate=col(financing["annual_rate"]), months=col(financing["months"]),
            down_payment=col(financing["down_payment"])),
        overflow=option.get("overflow"),
        machines=None if _is_auto(machines) else col(machines),
        machines_auto=_is_auto(machines),
        purchase_month=col(own["purchase_month"]),
    )


def _free_tier_card(usage, option, demand: Demand, rates, reference, catalog: Catalog,
                    notes: list[Message], common: dict[str, Any]) -> FreeTierCard:
    """A free tier's card (SPEC §5.4): its quotas and sessions, the setup time, the frameworks
    it allows (a warning says how long each session fetches the data again where files do not
    persist); a tier that hands out GPUs at random takes the expected figures of
    :func:`_random_hardware`."""
    d = usage["demand"]
    availability = col(rates.availability)
    if rates.gpu_options and option.get("relative_speed") is None:
        per_unit, memory, share = _random_hardware(usage, option, demand, rates, reference,
                                                   catalog, notes, common["scaling_efficiency"])
        common = {**common, "gpu_hours_per_unit": per_unit, "gpu_memory_gb": memory}
        availability = availability * share
    setup = col(rates.setup_minutes)
    data_gb = np.asarray(d["data_gb"], dtype=float)
    if not rates.files_persist and rates.download_mb_per_s and (data_gb > 0).any():
        # Files do not survive the session: the data is fetched again every time. SPEC §5.4
        # counts setup_minutes only, so this is said, not subtracted from the capacity.
        minutes = data_gb * 1000.0 / rates.download_mb_per_s / 60.0
        notes.append(Message("warning.refetch", data_gb=Number(float(data_gb.max()), 0),
                             minutes=Number(float(minutes.max()), 0),
                             rate=Number(float(rates.download_mb_per_s), 0)))
    framework = d["framework"].lower()
    return FreeTierCard(
        **common, gpus=col(rates.gpus), session_hours=col(rates.session_hours),
        weekly_quota_hours=col(rates.weekly_quota_hours),
        daily_quota_hours=col(rates.daily_quota_hours),
        monthly_quota_hours=col(rates.monthly_quota_hours),
        fee_per_month=col(rates.fee_per_month), setup_minutes=setup,
        availability=availability, fallback=option.get("fallback"),
        framework_reason=(None if not rates.frameworks or framework in rates.frameworks else
                          Message("reason.framework", frameworks=", ".join(rates.frameworks),
                                  framework=framework)),
    )
