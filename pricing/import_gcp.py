"""SkyPilot's GCP layout: GPU prices on rows of their own, apart from the machine types.

In ``catalogs/v*/gcp/vms.csv`` a machine type's row (``a3-highgpu-8g``) carries the price of its
vCPUs and memory only, with no accelerator; the GPUs' price is on a row with an empty
``InstanceType`` and the accelerator and count (``,,,H100,8,...``), per zone. SkyPilot adds the
two when it prices a machine type that comes with GPUs (skypilot-catalog issue #31:
https://github.com/skypilot-org/skypilot-catalog/issues/31; the machine type for each
accelerator and count is the table ``_ACC_INSTANCE_TYPE_DICTS`` of SkyPilot's
``sky/catalog/gcp_catalog.py``). :func:`combine_gcp` does the same: each machine type of
:data:`GCP_HOSTS` is joined with the GPU row of its accelerator and count in the same zone,
price = machine price + GPU price, spot likewise. GPU rows for GPUs attached to an N1 machine
of one's choice (T4, V100, P100, P4, K80) and TPU rows have no machine type of their own and
are left out, counted.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["GCP_HOSTS", "combine_gcp", "gcp_host"]

# Machine type families with GPUs built in -> SkyPilot's accelerator name; the count is the
# machine type's "-<n>g" (a3-highgpu-8g: 8). G2's L4 counts are per size.
GCP_HOSTS = {
    "a2-highgpu": "A100",
    "a2-megagpu": "A100",
    "a2-ultragpu": "A100-80GB",
    "a3-highgpu": "H100",
    "a3-edgegpu": "H100",
    "a3-megagpu": "H100-MEGA",
    "a3-ultragpu": "H200",
    "a4-highgpu": "B200",
}
_G2_L4 = {"4": 1, "8": 1, "12": 1, "16": 1, "32": 1, "24": 2, "48": 4, "96": 8}
_HOST = re.compile(r"^(?P<family>[a-z0-9]+-[a-z]+gpu)-(?P<count>\d+)g(?:-[a-z0-9-]+)?$")


def gcp_host(instance: str) -> tuple[str, int] | None:
    """(SkyPilot accelerator name, count) of a GCP machine type with GPUs built in, else None."""
    name = instance.strip().lower()
    g2 = re.fullmatch(r"g2-standard-(\d+)", name)
    if g2:
        count = _G2_L4.get(g2.group(1))
        return ("L4", count) if count else None
    match = _HOST.match(name)
    if match and match.group("family") in GCP_HOSTS:
        return GCP_HOSTS[match.group("family")], int(match.group("count"))
    return None


def _price(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value > 0 else None


def combine_gcp(rows: list[tuple[int, dict[str, str]]],
                skip: Any) -> list[tuple[int, dict[str, str]]]:
    """``rows`` (line, cells by column name) with each GCP machine type joined to its GPU row.

    GPU rows and machine types without GPUs disappear; ``skip(reason)`` counts what is left out.
    A machine type with GPUs whose zone has no GPU row is left out too. Prices that cannot be
    added (empty, 0 or not a number on either side) leave the combined cell empty.
    """
    gpus: dict[tuple[str, int, str, str], dict[str, str]] = {}
    used: set[tuple[str, int, str, str]] = set()
    for _, cell in rows:
        if not cell["InstanceType"] and cell["AcceleratorName"]:
            try:
                count = int(float(cell["AcceleratorCount"] or "0"))
            except ValueError:
                continue
            key = (cell["AcceleratorName"].lower(), count, cell["Region"],
                   cell.get("AvailabilityZone", ""))
            gpus.setdefault(key, cell)
    combined = []
    for line, cell in rows:
        if not cell["InstanceType"]:
            if not cell["AcceleratorName"]:
                combined.append((line, cell))  # let the reader report it
            continue
        if cell["AcceleratorName"]:
            combined.append((line, cell))
            continue
        host = gcp_host(cell["InstanceType"])
        if host is None:
            skip("CPU-only rows")
            continue
        accelerator, count = host
        key = (accelerator.lower(), count, cell["Region"], cell.get("AvailabilityZone", ""))
        gpu = gpus.get(key)
        if gpu is None:
            skip("GCP machine types without a GPU row in their zone")
            continue
        used.add(key)
        merged = dict(cell, AcceleratorName=gpu["AcceleratorName"], AcceleratorCount=str(count))
        for column in ("Price", "SpotPrice"):
            vm, gp = _price(cell.get(column, "")), _price(gpu.get(column, ""))
            merged[column] = repr(round(vm + gp, 6)) if vm is not None and gp is not None else ""
        combined.append((line, merged))
    for key in gpus.keys() - used:
        reason = ("TPU rows" if key[0].startswith("tpu") else
                  "GCP GPU rows without a machine type of their own (N1 attachable GPUs)")
        skip(reason)
    return combined
