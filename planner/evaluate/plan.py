"""The Python API of SPEC §4: a loaded plan, its evaluation, replacements and sweeps."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from planner.errors import Problem, UserError
from planner.figures import Figures, compute
from planner.model import Model, has_infinity
from planner.paths import set_path
from planner.resolve import Resolved, resolve
from planner.usage import Issue, UsageDocument, load_usage

#: Scenarios evaluated at once in a sweep; bounds memory (a few hundred MB at most).
DEFAULT_CHUNK_SCENARIOS = 16_384


class Plan:
    """A validated usage document with its catalog, ready to evaluate.

    Build one with :func:`planner.load`.
    """

    def __init__(self, document: UsageDocument, data: dict[str, Any], catalog, base_dir: Path,
                 extra_catalogs: tuple[Path, ...] = ()):
        self.document = document
        self.data = data
        self.catalog = catalog
        self.base_dir = base_dir
        self.extra_catalogs = extra_catalogs
        self._resolved: Resolved | None = None

    # -- building -------------------------------------------------------------------------

    @classmethod
    def load(cls, source: str | os.PathLike | Mapping[str, Any],
             catalogs: Iterable[str | os.PathLike] = ()) -> Plan:
        base_dir = Path(source).parent if not isinstance(source, Mapping) else Path.cwd()
        extra = _existing(catalogs)
        document = load_usage(source if not isinstance(source, Mapping) else dict(source),
                              checks=catalog_checks(base_dir, extra))
        return cls._from(document, document.data, base_dir, extra)

    @classmethod
    def _from(cls, document: UsageDocument, data: dict[str, Any], base_dir: Path,
              extra_catalogs: tuple[Path, ...] = ()) -> Plan:
        catalog = _catalog(document, base_dir, extra_catalogs)
        plan = cls(document, data, catalog, base_dir, extra_catalogs)
        plan.resolved  # noqa: B018 — report catalog problems now, not at evaluation
        return plan

    @property
    def usage(self) -> dict[str, Any]:
        """The validated usage document as plain data, defaults filled in."""
        return self.document.usage.model_dump()

    @property
    def resolved(self) -> Resolved:
        if self._resolved is None:
            with np.errstate(over="ignore"):  # an input that overflows is refused below
                resolved = resolve(self.usage, self.catalog)
            if resolved.issues:
                raise UserError([self.document.problem(i.path, i.message,
                                                       _suggest(i.suggestions))
                                 for i in resolved.issues])
            infinite = self._infinite_inputs(resolved)
            if infinite:
                raise UserError(infinite)
            self._resolved = resolved
        return self._resolved

    def _infinite_inputs(self, resolved: Resolved) -> list[Problem]:
        """Inputs that became infinite once converted (a catalog price times fx: 1e308, a
        utilization times hours_per_month times gpus): refused where they come from, before
        an infinity turns into a NaN (0 × inf) in the costs."""
        model = resolved.model
        names = [o["name"] for o in self.usage["options"]]
        message = ("a figure of this {} is beyond 10^308 once converted (catalog prices times "
                   "fx rates, utilization times hours): check its values and the fx rates")
        problems = [self.document.problem(f"options[{names.index(name)}]",
                                          message.format("option"))
                    for name, card in model.cards.items() if has_infinity(card)]
        if has_infinity(model.demand):
            problems.append(self.document.problem("demand", message.format("demand")))
        if has_infinity(model.calendar):
            problems.append(self.document.problem("", message.format("plan")))
        return problems

    @property
    def model(self) -> Model:
        return self.resolved.model

    def replace(self, changes: Mapping[str, Any]) -> Plan:
        """A new plan with the values at dotted paths replaced (SPEC §4)."""
        data = self.data
        for path, value in changes.items():
            data = set_path(data, path, value)
        document = load_usage(data, name=self.document.file,
                              checks=catalog_checks(self.base_dir, self.extra_catalogs))
        return Plan._from(document, data, self.base_dir, self.extra_catalogs)

    # -- evaluating -----------------------------------------------------------------------

    def evaluate(self, *, sensitivity_range: float = 0.25):
        """Costs, break-even and the cheapest option: a :class:`planner.result.Result`.

        ``sensitivity_range`` is how far (relative, down and up) the sensitivity analysis
        moves each key input.
        """
        from planner.evaluation import build_result

        if not 0 < sensitivity_range < 1:
            raise UserError([Problem(f"the sensitivity range must lie between 0 and 1 "
                                     f"(exclusive), got {sensitivity_range}")])
        with _overflow_is_a_user_error(self):
            figures = compute(self.model)
            return build_result(self, figures, sensitivity_range)

    def figures(self, *, break_even: bool = True) -> Figures:
        with _overflow_is_a_user_error(self):
            return compute(self.model, break_even=break_even)

    def overflow_problems(self) -> list[Problem]:
        """Where the figures leave the float range (inputs near 1e308, a growth compounded
        over a century): the options whose cash flows are not finite, else the whole file."""
        from planner.tco import evaluate as option_flows

        with np.errstate(all="ignore"):
            flows = option_flows(self.model)
            bad = [name for name, f in flows.items()
                   if not (np.isfinite(f.monthly_cost).all()
                           and np.isfinite(f.residual_value).all())]
        names = [o["name"] for o in self.usage["options"]]
        message = ("the costs are too large to compute (beyond 10^308): check the prices, "
                   "the demand and its growth for values far out of range")
        problems = [self.document.problem(f"options[{names.index(n)}]", message) for n in bad]
        return problems or [self.document.problem("", message)]

    def sweep(self, axes: Mapping[str, Iterable[Any]], *, mode: str = "product",
              chunk_size: int = DEFAULT_CHUNK_SCENARIOS, break_even: bool = True):
        """Evaluate every scenario of ``axes`` (dotted path → values); a tidy DataFrame."""
        from planner.sweep import run_sweep

        return run_sweep(self, axes, mode=mode, chunk_size=chunk_size, break_even=break_even)


@contextlib.contextmanager
def _overflow_is_a_user_error(plan: Plan):
    """Numbers that overflow the float range come from absurd inputs: the computation stops
    at the first overflow and the plan is refused as a user error, located at the options
    whose costs overflow; never a warning, an infinity or a NaN in a report."""
    try:
        with np.errstate(over="raise"):
            yield
    except FloatingPointError:
        raise UserError(plan.overflow_problems()) from None


def load(source: str | os.PathLike | Mapping[str, Any],
         catalogs: Iterable[str | os.PathLike] = ()) -> Plan:
    """Load and validate a usage file (or a dict of the same content).

    ``catalogs`` are more catalog files, merged over the built-in catalog and the usage file's
    own ``catalogs:`` (a later file's row replaces an earlier one with the same id).
    """
    return Plan.load(source, catalogs)


def _existing(paths: Iterable[str | os.PathLike]) -> tuple[Path, ...]:
    """The given catalog files; a missing one is a user error."""
    out = tuple(Path(p) for p in paths)
    missing = [Problem("catalog file not found", file=str(p)) for p in out if not _is_file(p)]
    if missing:
        raise UserError(missing)
    return out


def _suggest(suggestions: list[str]) -> str | None:
    if not suggestions:
        return None
    return " or ".join(repr(s) for s in suggestions[:3])


def _is_file(path: Path) -> bool:
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
    from pricing.catalog import CatalogFileError, CatalogLookupError, load_catalog

    def check(data: Mapping[str, Any]) -> list[Issue]:
        files = data.get("catalogs")
        try:
            own = [base_dir / f for f in files] if isinstance(files, list) and all(
                isinstance(f, str) for f in files) else []
            catalog = load_catalog([f for f in own if _is_file(f)] + list(extra))
        except CatalogFileError:
            catalog = load_catalog()
        issues: list[Issue] = []

        def look(path: str, fn, key) -> None:
            if not isinstance(key, str):
                return
            try:
                fn(key)
            except CatalogLookupError as err:
                what = {"free_tier": "free tier", "cloud": "cloud instance",
                        "gpu": "GPU", "region": "region",
                        "system": "system"}.get(err.kind, err.kind)
                issues.append(Issue(path, f"unknown {what} {key!r} in the catalog",
                                    suggestion=_suggest(err.suggestions)))

        if isinstance(files, list):
            for i, name in enumerate(files):
                if isinstance(name, str) and not _is_file(base_dir / name):
                    issues.append(Issue(f"catalogs[{i}]", f"catalog file {name!r} not found "
                                                          "(relative to the usage file)"))
        demand = data.get("demand")
        if isinstance(demand, Mapping):
            look("demand.reference_gpu", catalog.gpu, demand.get("reference_gpu"))
        site = data.get("site")
        if isinstance(site, Mapping):
            known = len(issues)
            look("site.region", catalog.region, site.get("region"))
            if len(issues) == known:  # the region exists: what it lacks
                issues += _site_issues(catalog, data, site)
        options = data.get("options")
        for i, entry in enumerate(options if isinstance(options, list) else []):
            if not isinstance(entry, Mapping):
                continue
            known = len(issues)
            for kind, fn in (("cloud", catalog.cloud_regions), ("free_tier", catalog.free_tier),
                             ("own", None)):
                value = entry.get(kind)
                if isinstance(value, str) and fn is not None:
                    look(f"options[{i}].{kind}", fn, value)
                elif isinstance(value, Mapping):
                    look(f"options[{i}].{kind}.gpu", catalog.gpu, value.get("gpu"))
                    if kind == "own":
                        look(f"options[{i}].own.system", catalog.system, value.get("system"))
            if len(issues) == known:  # its ids exist: what the catalog rows lack
                issues += _rate_issues(catalog, data, entry, f"options[{i}]")
        return issues

    return check


def _money_context(data: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]] | None:
    """The raw document's currency and fx rates, None when either is malformed."""
    currency, fx = data.get("currency", "USD"), data.get("fx", {})
    return (currency, fx) if isinstance(currency, str) and isinstance(fx, Mapping) else None


def _pricing_issues(prefix: str, build) -> list[Issue]:
    """The problem ``build()`` (a rate card made from the raw document) raises, at its key
    below ``prefix``; none when it succeeds or meets a malformed value (a text for a number),
    which the schema's checks report."""
    from pricing.rates import PricingError

    try:
        build()
    except PricingError as err:
        key = "kind" if err.key == "site_kind" else err.key
        return [Issue(f"{prefix}.{key}", err.message, suggestion=_suggest(err.suggestions))]
    except (TypeError, ValueError, KeyError, AttributeError, ArithmeticError):
        return []
    return []


def _site_issues(catalog, data: Mapping[str, Any], site: Mapping[str, Any]) -> list[Issue]:
    """What the site's catalog region lacks (the tariff's price, an exchange rate), from the
    raw document, so that it comes with the schema's problems (SPEC §1: all at once)."""
    from pricing.rates import site_rates

    money, options = _money_context(data), data.get("options")
    if money is None or not isinstance(options, list):
        return []
    owns = any(isinstance(o, Mapping) and o.get("own") is not None for o in options)
    return _pricing_issues("site", lambda: site_rates(
        catalog, region=site.get("region"), tariff=site.get("tariff") or "business",
        kind=site.get("kind"), currency=money[0], fx=money[1],
        needs_electricity=owns and site.get("electricity_per_kwh") is None))


def _rate_issues(catalog, data: Mapping[str, Any], entry: Mapping[str, Any],
                 path: str) -> list[Issue]:
    """What the catalog rows an option uses lack (a region, a price for its pricing, a street
    price, an exchange rate), found by building its rate card from the raw document, so that
    these problems come with the schema's (SPEC §1: all problems at once)."""
    from pricing.rates import cloud_rates, free_tier_rates, own_rates

    money = _money_context(data)
    if money is None:
        return []
    currency, fx = money
    if isinstance(entry.get("cloud"), str):
        return _pricing_issues(path, lambda: cloud_rates(
            catalog, entry["cloud"], pricing=entry.get("pricing") or "on_demand",
            region=entry.get("region"), currency=currency, fx=fx))
    if isinstance(entry.get("own"), Mapping):
        return _pricing_issues(path, lambda: own_rates(catalog, entry["own"],
                                                       currency=currency, fx=fx))
    if isinstance(entry.get("free_tier"), (str, Mapping)):
        return _pricing_issues(path, lambda: free_tier_rates(catalog, entry["free_tier"],
                                                             currency=currency, fx=fx))
    return []


def _catalog(document: UsageDocument, base_dir: Path, extra: tuple[Path, ...] = ()):
    from pricing.catalog import CatalogFileError, load_catalog

    files = [base_dir / p for p in (document.usage.catalogs or [])]
    problems = []
    for i, path in enumerate(files):
        if not _is_file(path):
            problems.append(document.problem(f"catalogs[{i}]",
                                             f"catalog file {str(document.usage.catalogs[i])!r} "
                                             "not found (paths are relative to the usage file)"))
    if problems:
        raise UserError(problems)
    try:
        return load_catalog([*files, *extra])
    except CatalogFileError as err:
        raise UserError([Problem(message, file=err.file, line=line)
                         for line, message in err.problems]) from None

