"""Which catalog GPU a device is, from the name the driver gives it and its memory.

Drivers name GPUs their own way (``NVIDIA H100 80GB HBM3``, ``NVIDIA A100-SXM4-40GB``,
``Tesla T4``, ``NVIDIA GeForce RTX 4090``). A name that, stripped of the vendor words and of
everything but letters and digits, is a catalog id so stripped is that GPU; the data-centre
parts whose names carry their memory or form factor go by the rules of :data:`RULES`. Anything
else is unknown, and ``planner measure --gpu ID`` says which GPU it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["RULES", "catalog_gpu"]

_VENDOR_WORDS = re.compile(r"\b(nvidia|tesla|geforce|generation)\b")

RULES: tuple[tuple[str, float, str], ...] = (
    # (pattern on the lowercased name, least memory [GiB] or 0, catalog id), first match wins
    (r"\bgh200\b", 0, "gh200"),
    (r"\bgb200\b", 0, "gb200"),
    (r"\bb200\b", 0, "b200"),
    (r"\bh200\b(?!.*\bnvl\b)", 0, "h200"),
    (r"\bh100\b.*\bnvl\b", 0, "h100-nvl"),
    (r"\bh100\b.*\bpcie\b", 0, "h100-80gb-pcie"),
    (r"\bh100\b", 0, "h100-80gb"),
    (r"\ba100\b.*\bpcie\b", 60, "a100-80gb-pcie"),
    (r"\ba100\b(?!.*\bpcie\b)", 60, "a100-80gb"),
    (r"\ba100\b(?!.*\bpcie\b)", 0, "a100-40gb"),
    (r"\bv100\b", 24, "v100-32gb"),
    (r"\bv100\b", 0, "v100-16gb"),
    (r"\bmi300x\b", 0, "mi300x"),
)
"""Names a plain comparison cannot place: the first rule whose pattern the name matches and
whose least memory the device has gives the catalog id."""


def _compact(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", _VENDOR_WORDS.sub("", text.lower()))


def catalog_gpu(device_name: str, memory_gib: float, catalog_ids: Iterable[str]) -> str | None:
    """The catalog id of the device ``device_name`` with ``memory_gib`` GiB of memory, or
    None when no id fits."""
    ids = list(catalog_ids)
    by_compact = {_compact(gpu_id): gpu_id for gpu_id in ids}
    found = by_compact.get(_compact(device_name))
    if found is not None:
        return found
    name = device_name.lower()
    for pattern, least_gib, gpu_id in RULES:
        if re.search(pattern, name) and memory_gib >= least_gib and gpu_id in ids:
            return gpu_id
    return None
