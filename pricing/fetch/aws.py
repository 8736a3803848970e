"""AWS EC2 GPU instance prices from the AWS Price List bulk offer file of one region (public,
no key).

    python -m pricing.fetch.aws --region us-east-1 [-o aws.csv]

The region index (:data:`REGION_INDEX`) names the current offer file of each region; that file
(https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/using-ppslong.html) holds
``products`` (SKU -> ``productFamily`` and ``attributes``: ``instanceType``,
``instanceFamily``, ``gpu``, ``operatingSystem``, ``tenancy``, ``preInstalledSw``,
``capacitystatus``, ``regionCode``, ...) and ``terms`` (``OnDemand`` and ``Reserved``, SKU ->
offer terms -> ``priceDimensions`` with ``unit`` and ``pricePerUnit``, and for a reservation its
``termAttributes``: ``LeaseContractLength``, ``OfferingClass``, ``PurchaseOption``).

Rows: Linux, shared tenancy, no pre-installed software, instances of the "GPU instance" family
whose type family is in :data:`FAMILIES`. ``price_per_hour`` is the on-demand price;
``reserved_1y/3y_price_per_hour`` the Standard Reserved Instance with no upfront payment (as in
the built-in catalog). The Price List has no spot prices. A region's offer file is large
(hundreds of MB); :func:`download` drops the products it does not need while it parses.
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable
from typing import Any

from pricing.fetch import arguments, get_json, run

HOST = "https://pricing.us-east-1.amazonaws.com"
REGION_INDEX = f"{HOST}/offers/v1.0/aws/AmazonEC2/current/region_index.json"
HOURS_PER_YEAR = 8760

# Instance type family -> catalog GPU id (AWS's accelerated-computing instance pages). Families
# without a catalog GPU (g4ad: Radeon Pro V520, g5g: T4g, inf/trn: not GPUs) are left out.
FAMILIES = {
    "g4dn": "t4",
    "g5": "a10g",
    "g6": "l4",
    "gr6": "l4",
    "g6e": "l40s",
    "p3": "v100-16gb",
    "p3dn": "v100-32gb",
    "p4d": "a100-40gb",
    "p4de": "a100-80gb",
    "p5": "h100-80gb",
    "p5e": "h200",
    "p5en": "h200",
    "p6-b200": "b200",
}
_LEASES = {"1yr": ("reserved_1y_price_per_hour", 1), "3yr": ("reserved_3y_price_per_hour", 3)}
_NOTES = ("AWS Price List bulk offer file: Linux, shared tenancy; reserved = Standard RI, no "
          "upfront (effective hourly); the Price List has no spot prices")


def offer_url(region: str) -> str:
    """The stable URL of ``region``'s current EC2 offer file."""
    return f"{HOST}/offers/v1.0/aws/AmazonEC2/current/{region}/index.json"


def download(region: str, *, get: Callable[..., Any] = get_json) -> dict[str, Any]:
    """The current EC2 offer file of ``region``, without the products :func:`parse` ignores."""
    index = get(REGION_INDEX)
    regions = index.get("regions") or {}
    if region not in regions:
        raise ValueError(f"no EC2 offer file for region {region!r}; the regions are "
                         f"{', '.join(sorted(regions))}")
    return get(HOST + regions[region]["currentVersionUrl"], object_pairs_hook=_Pruner())


def wanted(product: dict[str, Any]) -> bool:
    """Whether a product is a Linux, shared-tenancy GPU instance that parse reads."""
    a = product.get("attributes") or {}
    return (product.get("productFamily") == "Compute Instance"
            and a.get("instanceFamily") == "GPU instance"
            and a.get("operatingSystem") == "Linux"
            and a.get("tenancy") == "Shared"
            and a.get("preInstalledSw") == "NA"
            and a.get("capacitystatus") == "Used"
            and a.get("licenseModel", "No License required") == "No License required"
            and a.get("marketoption", "OnDemand") == "OnDemand")


def parse(payload: dict[str, Any], *, today: dt.date | None = None,
          skipped: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """Rows of the clouds table from an offer file; ``skipped`` (if given) counts the GPU
    instance types left out, by reason."""
    as_of = (today or dt.date.today()).isoformat()
    terms = payload.get("terms") or {}
    on_demand_terms = terms.get("OnDemand") or {}
    reserved_terms = terms.get("Reserved") or {}
    rows = []
    for sku, product in (payload.get("products") or {}).items():
        if not product or not wanted(product):
            continue
        a = product["attributes"]
        instance, region = a.get("instanceType", ""), a.get("regionCode", "")
        gpu = FAMILIES.get(instance.split(".")[0])
        gpus = _number(a.get("gpu"))
        reason = None
        if gpu is None:
            reason = f"family without a catalog GPU ({instance.split('.')[0]})"
        elif gpus is None or gpus < 1 or gpus != int(gpus):
            reason = "fractional or unknown GPU count"
        elif not region:
            reason = "no regionCode"
        price, currency = _on_demand(on_demand_terms.get(sku))
        if reason is None and price is None:
            reason = "no on-demand price"
        if reason is not None:
            if skipped is not None:
                skipped[reason] = skipped.get(reason, 0) + 1
            continue
        row = {"id": f"aws/{instance}", "provider": "aws", "instance": instance,
               "region": region, "gpu": gpu, "gpus": int(gpus), "price_per_hour": price,
               "currency": currency, "as_of": as_of, "source": offer_url(region),
               "notes": _NOTES}
        row.update(_reserved(reserved_terms.get(sku), currency))
        rows.append(row)
    rows.sort(key=lambda r: (r["instance"], r["region"]))
    return rows


def _number(text: Any) -> float | None:
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def _dimensions(term: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [d for d in ((term or {}).get("priceDimensions") or {}).values() if d]


def _price(dimension: dict[str, Any], currency: str | None = None) -> tuple[float, str] | None:
    per_unit = dimension.get("pricePerUnit") or {}
    code = currency or ("USD" if "USD" in per_unit else next(iter(per_unit), None))
    value = _number(per_unit.get(code)) if code else None
    return (value, code) if value is not None else None


def _on_demand(terms: dict[str, Any] | None) -> tuple[float | None, str]:
    """The lowest positive hourly on-demand price among an SKU's terms, and its currency."""
    best: tuple[float, str] | None = None
    for term in (terms or {}).values():
        for dimension in _dimensions(term):
            found = _price(dimension) if dimension.get("unit") == "Hrs" else None
            if found and found[0] > 0 and (best is None or found[0] < best[0]):
                best = found
    return (best[0], best[1]) if best else (None, "USD")


def _reserved(terms: dict[str, Any] | None, currency: str) -> dict[str, float]:
    """Effective hourly prices of the Standard, no-upfront reservations of an SKU."""
    prices: dict[str, float] = {}
    for term in (terms or {}).values():
        attributes = (term or {}).get("termAttributes") or {}
        lease = _LEASES.get(str(attributes.get("LeaseContractLength", "")).replace(" ", ""))
        if (lease is None or attributes.get("OfferingClass") != "standard"
                or attributes.get("PurchaseOption") != "No Upfront"):
            continue
        column, years = lease
        hourly = upfront = 0.0
        for dimension in _dimensions(term):
            found = _price(dimension, currency)
            if found is None:
                continue
            if dimension.get("unit") == "Hrs":
                hourly += found[0]
            elif dimension.get("unit") == "Quantity":
                upfront += found[0]
        effective = round(hourly + upfront / (HOURS_PER_YEAR * years), 6)
        if effective > 0:
            prices[column] = min(effective, prices.get(column, effective))
    return prices


class _Pruner:
    """``object_pairs_hook`` for ``json.load`` that drops, while parsing, the products that
    :func:`wanted` rejects and (once products have been seen) the terms of other SKUs, so that
    a region's offer file fits in memory. :func:`parse` gives the same rows either way."""

    def __init__(self) -> None:
        self.kept: set[str] = set()
        self.products_seen = False

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any] | None:
        obj = dict(pairs)
        if "productFamily" in obj and "sku" in obj:
            self.products_seen = True
            if not wanted(obj):
                return None
            self.kept.add(obj["sku"])
        elif ("offerTermCode" in obj and "sku" in obj and self.products_seen
              and obj["sku"] not in self.kept):
            return None
        return obj


def main(argv: list[str] | None = None) -> int:
    parser = arguments("AWS EC2 GPU instance prices from the AWS Price List bulk offer file.",
                       "clouds-aws.csv")
    parser.add_argument("--region", default="us-east-1",
                        help="AWS region code (default us-east-1)")
    args = parser.parse_args(argv)
    return run(args, lambda: download(args.region), parse)


if __name__ == "__main__":
    sys.exit(main())
