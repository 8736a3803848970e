"""Azure GPU virtual machine prices from the Azure Retail Prices API (public, no key).

    python -m pricing.fetch.azure [-o azure.csv] [--region eastus --region westus3 ...]

The API (https://learn.microsoft.com/rest/api/cost-management/retail-prices/azure-retail-prices)
answers an OData ``$filter`` with pages of price items (``Items``, ``NextPageLink``). One item is
one meter: ``armSkuName`` (the VM size), ``armRegionName``, ``type`` (``Consumption`` or
``Reservation``), ``skuName``/``meterName`` (``... Spot``, ``... Low Priority``),
``productName`` (``... Windows`` for Windows), ``retailPrice`` per ``unitOfMeasure``, and for a
reservation its ``reservationTerm`` with the price of the whole term.

Rows: Linux pay-as-you-go (``price_per_hour``), Spot (``spot_price_per_hour``, left empty when
not below pay-as-you-go), 1- and 3-year reservations spread over the term's hours (730 a
month). Windows, Low Priority and Cloud Services meters are ignored. The API names no GPU, so
the GPU sizes are listed in :data:`SIZES`.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
import urllib.parse
from collections.abc import Callable, Iterable
from typing import Any

from pricing.fetch import arguments, get_json, run

API = "https://prices.azure.com/api/retail/prices"
HOURS_PER_MONTH = 730
TERM_HOURS = {"1 year": 12 * HOURS_PER_MONTH, "3 years": 36 * HOURS_PER_MONTH}
MAX_PAGES = 1000

# VM size -> (catalog GPU id, GPUs per VM), from Azure's GPU-accelerated size pages
# (https://learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/). Sizes with a
# fraction of a GPU (NVads A10 v5 below 36 vCPUs) are left out.
SIZES = {
    "Standard_NC4as_T4_v3": ("t4", 1),
    "Standard_NC8as_T4_v3": ("t4", 1),
    "Standard_NC16as_T4_v3": ("t4", 1),
    "Standard_NC64as_T4_v3": ("t4", 4),
    "Standard_NC6s_v3": ("v100-16gb", 1),
    "Standard_NC12s_v3": ("v100-16gb", 2),
    "Standard_NC24s_v3": ("v100-16gb", 4),
    "Standard_NC24rs_v3": ("v100-16gb", 4),
    "Standard_ND40rs_v2": ("v100-32gb", 8),
    "Standard_NV36ads_A10_v5": ("a10", 1),
    "Standard_NV36adms_A10_v5": ("a10", 1),
    "Standard_NV72ads_A10_v5": ("a10", 2),
    "Standard_NC24ads_A100_v4": ("a100-80gb-pcie", 1),
    "Standard_NC48ads_A100_v4": ("a100-80gb-pcie", 2),
    "Standard_NC96ads_A100_v4": ("a100-80gb-pcie", 4),
    "Standard_ND96asr_v4": ("a100-40gb", 8),
    "Standard_ND96amsr_A100_v4": ("a100-80gb", 8),
    "Standard_NC40ads_H100_v5": ("h100-nvl", 1),
    "Standard_NC80adis_H100_v5": ("h100-nvl", 2),
    "Standard_ND96isr_H100_v5": ("h100-80gb", 8),
    "Standard_ND96isr_H200_v5": ("h200", 8),
    "Standard_ND96isr_MI300X_v5": ("mi300x", 8),
    "Standard_ND96is_MI300X_v5": ("mi300x", 8),
}

_NOT_LINUX = re.compile(r"\bWin(dows)?\b|Cloud ?Services", re.IGNORECASE)
_NOTES = ("Azure Retail Prices API: Linux pay-as-you-go; spot = Spot meter; reserved = "
          "reservation price / hours in the term (730 h a month)")


def price_filter(regions: Iterable[str] = ()) -> str:
    """The OData ``$filter`` for the GPU sizes (in ``regions``, or every region)."""
    sizes = " or ".join(f"armSkuName eq '{size}'" for size in SIZES)
    expression = f"serviceName eq 'Virtual Machines' and ({sizes})"
    regions = list(regions)
    if regions:
        expression += " and (" + " or ".join(f"armRegionName eq '{r}'" for r in regions) + ")"
    return expression


def url(regions: Iterable[str] = ()) -> str:
    """The first page's URL."""
    return f"{API}?$filter={urllib.parse.quote(price_filter(regions))}"


def download(regions: Iterable[str] = (), *,
             get: Callable[[str], Any] = get_json) -> dict[str, Any]:
    """Every page of price items for the GPU sizes, merged into one payload ``{"Items": [...]}``."""
    items: list[dict[str, Any]] = []
    next_url: str | None = url(regions)
    pages = 0
    while next_url:
        pages += 1
        if pages > MAX_PAGES:
            raise ValueError(f"more than {MAX_PAGES} pages of prices: stopped")
        page = get(next_url)
        items.extend(page.get("Items") or [])
        next_url = page.get("NextPageLink")
    return {"Items": items}


def parse(payload: dict[str, Any], *, today: dt.date | None = None) -> list[dict[str, Any]]:
    """Rows of the clouds table from a payload of price items (one page or merged pages)."""
    as_of = (today or dt.date.today()).isoformat()
    sizes = {size.lower(): size for size in SIZES}
    prices: dict[tuple[str, str, str], dict[str, float]] = {}
    for item in payload.get("Items") or []:
        size = sizes.get(str(item.get("armSkuName", "")).lower())
        kind = _price_kind(item)
        price = item.get("retailPrice", item.get("unitPrice"))
        if size is None or kind is None or not isinstance(price, (int, float)) or price <= 0:
            continue
        if kind.startswith("reserved"):
            price = round(price / TERM_HOURS[str(item.get("reservationTerm")).lower()], 6)
        key = (size, str(item.get("armRegionName") or ""), item.get("currencyCode") or "USD")
        if not key[1]:
            continue
        known = prices.setdefault(key, {})
        known[kind] = min(price, known.get(kind, price))
    rows = []
    for (size, region, currency), known in sorted(prices.items()):
        on_demand = known.get("price_per_hour")
        if on_demand is None:
            continue
        spot = known.get("spot_price_per_hour")
        gpu, gpus = SIZES[size]
        rows.append({
            "id": f"azure/{size}", "provider": "azure", "instance": size, "region": region,
            "gpu": gpu, "gpus": gpus, "price_per_hour": on_demand,
            "spot_price_per_hour": spot if spot is not None and spot < on_demand else None,
            "reserved_1y_price_per_hour": known.get("reserved_1y_price_per_hour"),
            "reserved_3y_price_per_hour": known.get("reserved_3y_price_per_hour"),
            "currency": currency, "as_of": as_of, "source": API, "notes": _NOTES,
        })
    return rows


def _price_kind(item: dict[str, Any]) -> str | None:
    """Which clouds column an item prices, or None for an item to ignore."""
    names = f"{item.get('skuName', '')} {item.get('meterName', '')}"
    if (item.get("serviceName") != "Virtual Machines"
            or _NOT_LINUX.search(str(item.get("productName", "")))
            or "low priority" in names.lower()):
        return None
    if item.get("type") == "Consumption":
        return "spot_price_per_hour" if "spot" in names.lower() else "price_per_hour"
    if item.get("type") == "Reservation":
        return {"1 year": "reserved_1y_price_per_hour",
                "3 years": "reserved_3y_price_per_hour"}.get(
                    str(item.get("reservationTerm")).lower())
    return None


def main(argv: list[str] | None = None) -> int:
    parser = arguments("Azure GPU VM prices from the Azure Retail Prices API.",
                       "clouds-azure.csv")
    parser.add_argument("--region", action="append", default=[],
                        help="Azure region (armRegionName); may be repeated (default: all)")
    args = parser.parse_args(argv)
    return run(args, lambda: download(args.region), parse)


if __name__ == "__main__":
    sys.exit(main())
