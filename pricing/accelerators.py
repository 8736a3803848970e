"""Accelerator names of price lists -> catalog GPU ids: SkyPilot's names, a few provider- and
instance-specific corrections, and the names a caller maps itself.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from pricing.suggest import close_matches

__all__ = ["ACCELERATORS", "GpuMapper", "suggest_gpu"]

# SkyPilot accelerator name (lowercase) -> catalog GPU id. The names are those of
# skypilot-catalog's catalogs/v8/common/accelerators.csv; names without a catalog GPU (A30,
# A800, P4, T4g, Radeon, Gaudi, TPUs, ...) are absent on purpose.
ACCELERATORS = {
    "t4": "t4",
    "l4": "l4",
    "a10": "a10",
    "a10g": "a10g",
    "l40": "l40",
    "l40s": "l40s",
    "a40": "a40",
    "v100": "v100-16gb",
    "v100-32gb": "v100-32gb",
    "p100": "p100",
    "k80": "k80",
    "m60": "m60",
    "a100": "a100-40gb",
    "a100-80gb": "a100-80gb",
    "a100-80gb-sxm": "a100-80gb",
    "h100": "h100-80gb",
    "h100-sxm": "h100-80gb",
    "h100-mega": "h100-80gb",
    "h100-nvlink": "h100-80gb",
    "h100-nvl": "h100-nvl",
    "h200": "h200",
    "h200-sxm": "h200",
    "gh200": "gh200",
    "b200": "b200",
    "gb200": "gb200",
    "mi300x": "mi300x",
    "a6000": "rtx-a6000",
    "rtxa6000": "rtx-a6000",
    "rtxa5000": "rtx-a5000",
    "rtxa4500": "rtx-a4500",
    "rtxa4000": "rtx-a4000",
    "a4000": "rtx-a4000",
    "rtx6000": "quadro-rtx-6000",
    "rtx6000-ada": "rtx-6000-ada",
    "rtx6000ada": "rtx-6000-ada",
    "rtx4000-ada": "rtx-4000-ada",
    "rtx3080": "rtx-3080",
    "rtx3090": "rtx-3090",
    "rtx4090": "rtx-4090",
    "rtx5090": "rtx-5090",
    "rtxpro6000s": "rtx-pro-6000-blackwell",
    "rtxpro6000ws": "rtx-pro-6000-blackwell",
    "m4000": "quadro-m4000",
    # Hyperstack's names (skypilot-catalog catalogs/v8/hyperstack/vms.csv): "-NVLink" is a PCIe
    # card with NVLink bridges, 80 GB, not the 94 GB H100 NVL.
    "a100-80g-pcie": "a100-80gb-pcie",
    "a100-80g-pcie-nvlink": "a100-80gb-pcie",
    "h100-80g-pcie": "h100-80gb-pcie",
    "h100-80g-pcie-nvlink": "h100-80gb-pcie",
    "h100-80g-sxm5": "h100-80gb",
    "rtx-a4000": "rtx-a4000",
    "rtx-a6000": "rtx-a6000",
    # Jarvislabs' name (catalogs/v8/jarvislabs/vms.csv, 96 GB: the Blackwell card)
    "rtxpro6000": "rtx-pro-6000-blackwell",
}

# Where one SkyPilot name covers two GPUs: (provider, accelerator, instance pattern) -> GPU id.
# RunPod's plain "A100-80GB" and "H100" are the PCIe cards (its SXM ones carry "-SXM"); Azure's
# NC A100 v4 has A100 PCIe 80 GB cards and the NCads H100 v5 sizes (NC40ads, NC80adis) have
# H100 NVL, 94 GB (Microsoft Learn, "NCads_H100_v5 size series": "powered by NVIDIA H100 NVL
# GPU", "Nvidia PCIe H100 GPU (94GB)" in MicrosoftDocs/azure-compute-docs
# articles/virtual-machines/sizes/gpu-accelerated/includes/ncadsh100v5-series-specs.md); Lambda's gpu_Nx_h100_pcie and Vast's
# H100_PCIE/H100_NVL offers name the card in the instance, SkyPilot calls all of them "H100".
_SPECIFIC = (
    ("runpod", "a100-80gb", r".*", "a100-80gb-pcie"),
    ("runpod", "h100", r".*", "h100-80gb-pcie"),
    ("azure", "a100-80gb", r"(?i)standard_nc\d+ads_a100_v4", "a100-80gb-pcie"),
    ("azure", "h100", r"(?i)standard_nc\d+adi?s_h100_v5", "h100-nvl"),
    ("lambda", "h100", r"(?i)gpu_\d+x_h100_pcie", "h100-80gb-pcie"),
    ("vast", "h100", r"(?i).*h100_nvl.*", "h100-nvl"),
    ("vast", "h100", r"(?i).*h100_pcie.*", "h100-80gb-pcie"),
    ("vast", "a100", r"(?i).*a100_pcie.*", "a100-80gb-pcie"),
)


class GpuMapper:
    """Accelerator names -> catalog GPU ids; remembers the unknown ones and where they were."""

    def __init__(self, gpus: Mapping[str, Any], mapping: Mapping[str, str], skip_unknown: bool):
        self.known = {g.lower(): g for g in gpus}
        self.mapping = {k.strip().lower(): v.strip().lower() for k, v in mapping.items()}
        self.skip_unknown = skip_unknown
        self.unknown: dict[str, list[int]] = {}
        self.skipped: dict[str, list[int]] = {}

    def gpu(self, accelerator: str, provider: str, instance: str, line: int) -> str | None:
        name = accelerator.strip().lower()
        gpu = self.mapping.get(name)
        if gpu is None:
            gpu = next((g for p, a, pattern, g in _SPECIFIC
                        if p == provider and a == name and re.fullmatch(pattern, instance)), None)
        if gpu is None:
            gpu = ACCELERATORS.get(name, name)
        if gpu in self.known:
            return self.known[gpu]
        (self.skipped if self.skip_unknown else self.unknown).setdefault(
            accelerator.strip(), []).append(line)
        return None

    def note(self, accelerator: str, gpu: str) -> str | None:
        """A row note when the caller's mapping chose ``gpu`` for ``accelerator``."""
        if accelerator.strip().lower() in self.mapping:
            return f"accelerator {accelerator.strip()} counted as {gpu} (mapping given on import)"
        return None

    def problems(self) -> list[tuple[int | None, str]]:
        problems: list[tuple[int | None, str]] = []
        for name, lines in self.unknown.items():
            target = self.mapping.get(name.lower())
            if target is not None:
                message = f"{name} is mapped to {target!r}, which is not a GPU id of the catalog"
                problems.append((lines[0], message))
                continue
            near = suggest_gpu(name, self.known.values())
            hint = f" (closest GPU id: {near})" if near else ""
            rows = f"{len(lines)} rows" if len(lines) > 1 else "1 row"
            message = f"unknown accelerator {name!r} on {rows}: no GPU id of the catalog{hint}"
            problems.append((lines[0], message))
        return problems



def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def suggest_gpu(name: str, gpu_ids: Iterable[str]) -> str | None:
    """The GPU id closest to accelerator ``name``: one whose letters and digits begin with the
    name's (RTXPRO6000 -> rtx-pro-6000-blackwell), else the closest spelling with the same
    model number (T4g -> t4; RTX4070 gets none, rtx-4090 is another card)."""
    ids = list(gpu_ids)
    key = _squash(name)
    starts = sorted((g for g in ids if key and _squash(g).startswith(key)), key=len)
    if starts:
        return starts[0]
    number = "".join(re.findall(r"\d+", name))
    near = [g for g in close_matches(name, ids, n=5)
            if not number or "".join(re.findall(r"\d+", g)).startswith(number)]
    return near[0] if near else None


# --------------------------------------------------------------------------------------------
# Export and `planner gpus`: catalog GPU id -> the accelerator names SkyPilot gives it.
#
# SKYPILOT_NAMES: the GPU's AcceleratorName in SkyPilot's catalog (skypilot-org/
# skypilot-catalog catalogs/v8/common/accelerators.csv, commit
# d4d53f0e1e9df6bcab64b96fe032ebbe43a4f0ce), the name `sky launch --gpus` takes: the names of
# ACCELERATORS above in SkyPilot's spelling (H100, A100-80GB, L4, RTX4090, RTXA4500). Where the
# catalog has two names for a card, the one SkyPilot's Kubernetes GPU names share
# (CANONICAL_GPU_NAMES of skypilot-org/skypilot sky/utils/gpu_names.py, commit
# 4e419473d532290b3837fe09c6cb2dc6d9f79f82: A6000, not RTXA6000). GB200 is only in that list;
# RTX3080 is an earlier catalog's name, also what SkyPilot's Kubernetes label rule makes of
# NVIDIA-GeForce-RTX-3080. GPUs SkyPilot names nowhere (GTX 1080 Ti, RTX 2080 Ti, Quadro RTX
# 8000) are absent: they cannot be exported to SkyPilot.
SKYPILOT_NAMES = {
    "t4": "T4",
    "a10": "A10",
    "a10g": "A10G",
    "l4": "L4",
    "l40": "L40",
    "l40s": "L40S",
    "a40": "A40",
    "v100-16gb": "V100",
    "v100-32gb": "V100-32GB",
    "p100": "P100",
    "k80": "K80",
    "m60": "M60",
    "a100-40gb": "A100",
    "a100-80gb": "A100-80GB",
    "a100-80gb-pcie": "A100-80GB",
    "h100-80gb": "H100",
    "h100-80gb-pcie": "H100",
    "h100-nvl": "H100-NVL",
    "h200": "H200",
    "gh200": "GH200",
    "b200": "B200",
    "gb200": "GB200",
    "mi300x": "MI300X",
    "rtx-a6000": "A6000",
    "rtx-a5000": "A5000",
    "rtx-a4500": "RTXA4500",
    "rtx-a4000": "A4000",
    "rtx-6000-ada": "RTX6000-Ada",
    "rtx-4000-ada": "RTX4000-Ada",
    "quadro-rtx-6000": "RTX6000",
    "rtx-3080": "RTX3080",
    "rtx-3090": "RTX3090",
    "rtx-4090": "RTX4090",
    "rtx-5090": "RTX5090",
    "rtx-pro-6000-blackwell": "RTXPRO6000",
    "quadro-m4000": "M4000",
}

# The other name SkyPilot gives a card on Kubernetes, where it names a node's GPU by the first
# of CANONICAL_GPU_NAMES (same file) found as a word in NVIDIA's product label
# (nvidia.com/gpu.product; "H100-80GB" stands for H100...-80GB): an H100 SXM
# (NVIDIA-H100-80GB-HBM3) is "H100-80GB" there, an H100 NVL (NVIDIA-H100-NVL) "H100"
# (GFDLabelFormatter in sky/provision/kubernetes/utils.py; tests/test_skypilot_gpu_labels.py
# restates the rule and checks these names). An export prices these names too, so that the
# price applies on either side.
SKYPILOT_KUBERNETES_NAMES = {
    "h100-80gb": ("H100-80GB",),
    "h100-nvl": ("H100",),
}


def skypilot_names(gpu_id: str) -> tuple[str, ...]:
    """The accelerator names SkyPilot gives the catalog GPU ``gpu_id``: its catalog name first,
    then its other Kubernetes name; empty where SkyPilot has none.

    >>> skypilot_names("H100-80GB-PCIe"), skypilot_names("h100-80gb"), skypilot_names("k1")
    (('H100',), ('H100', 'H100-80GB'), ())
    """
    key = gpu_id.strip().lower()
    if key not in SKYPILOT_NAMES:
        return ()
    return (SKYPILOT_NAMES[key], *SKYPILOT_KUBERNETES_NAMES.get(key, ()))
