"""Catalog pre-checks: what the catalog rows a usage document names lack, found from the raw
document by building each option's rate card, so that these problems are reported together
with the schema's (SPEC §1: every problem at once)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from planner.cards.option_rates import option_rates, site_rates_of
from planner.cards.words import demand_problems, region_problem, site_kind_problem
from planner.errors import Problem, suggestion_text


def is_file(path: Path) -> bool:
    """Whether ``path`` is a file; False for a name no file can have (too long for the file
    system, or holding a NUL: found by the coverage-guided fuzzer), where Path.is_file raises."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def catalog_checks(base_dir: Path, extra: tuple[Path, ...] = ()):
    """Checks that the catalog ids a usage document names exist, run with the schema's checks
    so that every problem of a file is reported at once. The catalog is the built-in one plus
    the document's own catalog files where they load (their problems are reported later)."""
    return functools.partial(catalog_problems, base_dir=base_dir, extra=extra)


def catalog_problems(data: Mapping[str, Any], base_dir: Path,
                     extra: tuple[Path, ...] = ()) -> list[Problem]:
    """What :func:`catalog_checks` finds in the raw document ``data``: catalog files not found,
    ids the catalog does not hold, and what the rows named lack."""
    files = data.get("catalogs")
    catalog = _catalog_of(files, base_dir, extra)
    issues: list[Problem] = []
    if isinstance(files, list):
        for i, name in enumerate(files):
            if isinstance(name, str) and not is_file(base_dir / name):
                issues.append(Problem(f"catalog file {name!r} not found "
                                      "(relative to the usage file)", path=f"catalogs[{i}]"))
    demand = data.get("demand")
    if isinstance(demand, Mapping):
        issues += _unknown("demand.reference_gpu", catalog.gpu, demand.get("reference_gpu"))
    issues += demand_problems(catalog, data)
    site = data.get("site")
    if isinstance(site, Mapping):
        region = region_problem(catalog, site.get("region"))
        kind = site_kind_problem(catalog, site.get("kind"))
        issues += [p for p in (region, kind) if p is not None]
        if region is None:  # the region exists: what it lacks
            issues += _site_issues(catalog, data, kind_known=kind is None)
    options = data.get("options")
    for i, entry in enumerate(options if isinstance(options, list) else []):
        if isinstance(entry, Mapping):
            issues += _option_problems(catalog, data, entry, f"options[{i}]")
    return issues


def _catalog_of(files, base_dir: Path, extra: tuple[Path, ...]):
    """The built-in catalog with the document's catalog files that exist and load, and
    ``extra``; the built-in one alone when one of them does not load."""
    from pricing.catalog import CatalogFileError, load_catalog

    try:
        own = [base_dir / f for f in files] if isinstance(files, list) and all(
            isinstance(f, str) for f in files) else []
        return load_catalog([f for f in own if is_file(f)] + list(extra))
    except CatalogFileError:
        return load_catalog()


def _option_problems(catalog, data: Mapping[str, Any], entry: Mapping[str, Any],
                     path: str) -> list[Problem]:
    """The ids an option names that the catalog lacks; when they all exist, what its rows
    lack (:func:`_rate_issues`)."""
    issues: list[Problem] = []
    for kind, fn in (("cloud", catalog.cloud_regions), ("free_tier", catalog.free_tier),
                     ("own", None)):
        value = entry.get(kind)
        if isinstance(value, str) and fn is not None:
            issues += _unknown(f"{path}.{kind}", fn, value)
        elif isinstance(value, Mapping):
            issues += _unknown(f"{path}.{kind}.gpu", catalog.gpu, value.get("gpu"))
            if kind == "own":
                issues += _unknown(f"{path}.own.system", catalog.system, value.get("system"))
    if not issues:  # its ids exist: what the catalog rows lack
        issues += _rate_issues(catalog, data, entry, path)
    return issues


#: The words a lookup's kind is named by in a problem.
_KIND_WORDS = {"free_tier": "free tier", "cloud": "cloud instance", "gpu": "GPU",
               "region": "region", "system": "system"}


def _unknown(path: str, fn, key) -> list[Problem]:
    """The problem of looking ``key`` up with ``fn`` (a catalog lookup) when the catalog has
    no such id, with its did-you-mean; none when it has, or when ``key`` is not a text."""
    from pricing.catalog import CatalogLookupError

    if not isinstance(key, str):
        return []
    try:
        fn(key)
    except CatalogLookupError as err:
        what = _KIND_WORDS.get(err.kind, err.kind)
        return [Problem(f"unknown {what} {key!r} in the catalog", path=path,
                        suggestion=suggestion_text(err.suggestions))]
    return []


def _money_context(data: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]] | None:
    """The raw document's currency and fx rates, None when either is malformed."""
    currency, fx = data.get("currency", "USD"), data.get("fx", {})
    return (currency, fx) if isinstance(currency, str) and isinstance(fx, Mapping) else None


def _pricing_issues(prefix: str, build) -> list[Problem]:
    """The problem ``build()`` (a rate card made from the raw document) raises, at its key
    below ``prefix``; none when it succeeds or meets a malformed value (a text for a number),
    which the schema's checks report."""
    from pricing.rates import PricingError

    try:
        build()
    except PricingError as err:
        key = "kind" if err.key == "site_kind" else err.key
        return [Problem(err.message, path=f"{prefix}.{key}",
                        suggestion=suggestion_text(err.suggestions))]
    except (TypeError, ValueError, KeyError, AttributeError, ArithmeticError):
        return []
    return []


def _site_issues(catalog, data: Mapping[str, Any], kind_known: bool = True) -> list[Problem]:
    """What the site's catalog region lacks (the tariff's price, an exchange rate), from the
    raw document, so that it comes with the schema's problems (SPEC §1: all at once). An
    unknown kind of site is reported by itself (``kind_known`` False), not once more here."""
    if _money_context(data) is None or not isinstance(data.get("options"), list):
        return []
    return _pricing_issues("site", lambda: site_rates_of(catalog, data, kind_known=kind_known))


def _rate_issues(catalog, data: Mapping[str, Any], entry: Mapping[str, Any],
                 path: str) -> list[Problem]:
    """What the catalog rows an option uses lack (a region, a price for its pricing, a street
    price, an exchange rate), found by building its rate card from the raw document, so that
    these problems come with the schema's (SPEC §1: all problems at once)."""
    money = _money_context(data)
    # Only entries whose kind key is well formed: an inline cloud map has no catalog rows,
    # and a malformed entry is the schema's to report.
    checked = (isinstance(entry.get("cloud"), str) or isinstance(entry.get("own"), Mapping)
               or isinstance(entry.get("free_tier"), (str, Mapping)))
    if money is None or not checked:
        return []
    currency, fx = money
    return _pricing_issues(path, lambda: option_rates(catalog, entry, currency=currency, fx=fx))
