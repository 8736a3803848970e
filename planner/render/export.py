"""SPEC §10: an own option's ``cost_per_owned_gpu_hour`` written where other tools read a
price: OpenCost's custom pricing JSON and SkyPilot's Kubernetes pricing config.

The formats followed (kept in docs/export.md and tests/test_export.py):

- OpenCost: ``configs/default.json`` and ``pkg/cloud/models/models.go`` (``CustomPricing``) of
  opencost/opencost at commit 5f6533303e3850c8635796a74bb22802d16e9090. Every price is a
  string-encoded float per hour (``GPU`` per GPU-hour, ``CPU`` per core-hour, ``RAM`` per
  GiB-hour, ``storage`` per GB-hour); ``currencyCode`` names the currency.
- SkyPilot: ``_PRICING_SCHEMA`` of sky/utils/schemas.py in skypilot-org/skypilot at commit
  00052dfe0d132c5ad6aa9a175572b0695f747c80, used as ``kubernetes.pricing`` (``cpu`` per
  vCPU-hour, ``memory`` per GB-hour, ``accelerators``: name -> price per accelerator-hour,
  numbers ≥ 0), keyed by the names SkyPilot gives the GPU
  (:func:`pricing.accelerators.skypilot_names`).

The GPU price carries the whole machine (its purchase, energy, maintenance and fixed costs,
less its residual value, spread over its GPU-hours), so CPU, memory, storage and network are
priced at 0: the tools add nothing on top of it.
"""

from __future__ import annotations

import json
from typing import Any

from planner.errors import Problem, UserError, closest
from planner.result import Result
from pricing.accelerators import skypilot_names

__all__ = ["TARGETS", "chosen_option", "export", "opencost_pricing", "skypilot_pricing"]

TARGETS = ("opencost", "skypilot")
"""The tools an export writes for (``planner export --to``)."""


def chosen_option(plan: dict[str, Any], name: str | None) -> tuple[int, dict[str, Any]]:
    """The own option ``name`` of ``plan`` (a result's JSON, SPEC §2) and its index in the
    file; without a name, the own option with the lowest present value (the first in file
    order on a tie; infeasible options have none).

    Raises :class:`UserError` (its problems located by key path, ``options[i]``, not yet in
    the file) when the name is not an option, is not an own option, or the option has no
    ``cost_per_owned_gpu_hour`` (infeasible, or 0 machines).
    """
    rows = plan["options"]
    if name is not None:
        index = next((i for i, o in enumerate(rows) if o["name"] == name), None)
        if index is None:
            raise UserError([Problem(f"--option: no option named {name!r}", path="options",
                                     suggestion=closest(name, [o["name"] for o in rows]))])
        row = rows[index]
        if row["kind"] != "own":
            raise UserError([Problem(
                f"option {name!r} is a {row['kind'].replace('_', ' ')} option; only an own "
                f"option has a cost per owned GPU-hour to export",
                path=f"options[{index}]",
                suggestion=closest(name, [o["name"] for o in rows if o["kind"] == "own"]))])
        _check_priced(index, row)
        return index, row
    owned = [(i, o) for i, o in enumerate(rows) if o["kind"] == "own"]
    if not owned:
        raise UserError([Problem("no own option to export: the cost per owned GPU-hour is "
                                 "that of a machine you buy (an option with own:)",
                                 path="options", at="key")])
    feasible = [(i, o) for i, o in owned if o["present_value"] is not None]
    index, row = min(feasible, key=lambda item: (item[1]["present_value"], item[0]),
                     default=owned[0])
    _check_priced(index, row)
    return index, row


def _check_priced(index: int, row: dict[str, Any]) -> None:
    """A problem when the own option ``row`` has no cost per owned GPU-hour, saying why."""
    if row["cost_per_owned_gpu_hour"] is not None:
        return
    if not row["feasible"]:
        why = "it is infeasible (" + "; ".join(row["reasons"]) + ")"
    elif row["machines"] == 0:
        why = "it buys 0 machines"
    else:
        why = "it has no owned GPU-hours"
    raise UserError([Problem(f"option {row['name']!r} has no cost per owned GPU-hour to "
                             f"export: {why}", path=f"options[{index}]")])


def _title(plan: dict[str, Any]) -> str:
    """The plan's title on one line (a comment of the YAML must not run onto the next)."""
    return " ".join(str(plan.get("title") or "plan").split())


def price_text(value: float) -> str:
    """A price as OpenCost's files write one: the full-precision number as a string (the
    shortest text that reads back as the same float).

    >>> price_text(0.1 + 0.2), price_text(2.0)
    ('0.30000000000000004', '2.0')
    """
    return repr(float(value))


def opencost_pricing(plan: dict[str, Any], row: dict[str, Any]) -> bytes:
    """OpenCost's custom pricing JSON for the own option ``row`` of ``plan`` (SPEC §2's JSON): ``GPU`` (and ``spotGPU``:
    an owned GPU costs the same on a node labelled spot) at its cost per owned GPU-hour in
    the plan's currency, every other price "0"."""
    gpu = price_text(row["cost_per_owned_gpu_hour"])
    document = {
        "provider": "custom",
        "description": (f"{_title(plan)}: option {row['name']}, {row['machines']} owned "
                         f"machine(s) of {row['gpus']:g} GPU(s), cost per owned GPU-hour over "
                         f"{plan['horizon_months']:g} months (planner export)"),
        "CPU": "0",
        "spotCPU": "0",
        "RAM": "0",
        "spotRAM": "0",
        "GPU": gpu,
        "spotGPU": gpu,
        "storage": "0",
        "zoneNetworkEgress": "0",
        "regionNetworkEgress": "0",
        "internetNetworkEgress": "0",
        "currencyCode": plan["currency"],
    }
    return (json.dumps(document, indent=4, ensure_ascii=False) + "\n").encode("utf-8")


def skypilot_pricing(plan: dict[str, Any], index: int, row: dict[str, Any]) -> bytes:
    """SkyPilot's ``~/.sky/config.yaml`` block ``kubernetes.pricing`` for the own option
    ``row`` (the ``index``-th of ``plan``, SPEC §2's JSON): each name SkyPilot gives its GPU
    at its cost per owned GPU-hour, cpu and memory at 0.

    Raises :class:`UserError` (located at ``options[index].own.gpu``) when the option names
    no catalog GPU or one SkyPilot has no name for.
    """
    import yaml

    gpu = row["gpu"]
    names = () if gpu is None else skypilot_names(gpu)
    if not names:
        what = ("the machine names no catalog GPU" if gpu is None
                else f"SkyPilot has no accelerator name for GPU {gpu!r}")
        raise UserError([Problem(f"{what}; SkyPilot's pricing config is keyed by accelerator "
                                 f"name (export --to opencost needs none)",
                                 path=f"options[{index}].own.gpu",
                                 at="map" if gpu is None else "value")])
    price = float(row["cost_per_owned_gpu_hour"])
    config = {"kubernetes": {"pricing": {
        "cpu": 0, "memory": 0, "accelerators": dict.fromkeys(names, price)}}}
    header = (f"# {_title(plan)}: option {row['name']} ({gpu}), cost per owned GPU-hour in "
              f"{plan['currency']} (planner export)\n"
              "# Merge into ~/.sky/config.yaml. cpu and memory are 0: the GPU price carries "
              "the whole machine.\n")
    if plan["currency"] != "USD":
        header += (f"# SkyPilot shows prices with a $ sign; these are {plan['currency']}.\n")
    body = yaml.safe_dump(config, sort_keys=False, allow_unicode=True)
    return (header + body).encode("utf-8")


def export(result: Result, target: str, option: str | None = None) -> bytes:
    """The file ``planner export --to target`` writes for ``option`` (see
    :func:`chosen_option`); problems raise :class:`UserError` located by key path only."""
    if target not in TARGETS:
        raise ValueError(f"target must be one of {', '.join(TARGETS)}, got {target!r}")
    plan = result.to_dict()
    index, row = chosen_option(plan, option)
    if target == "opencost":
        return opencost_pricing(plan, row)
    return skypilot_pricing(plan, index, row)
