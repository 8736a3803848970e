"""The Python API of SPEC §4: a loaded plan, its evaluation, replacements and sweeps."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from planner import display
from planner.cards.checks import catalog_checks, is_file
from planner.cards.model import Model, has_infinity
from planner.cards.resolve import Resolved, resolve
from planner.engine.figures import Figures, compute
from planner.engine.sensitivity import DEFAULT_RANGE
from planner.errors import Problem, UserError
from planner.evaluate.overflow import overflowed, too_large_message
from planner.usage.load import UsageDocument, load_usage
from planner.usage.paths import set_path


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

    def __repr__(self) -> str:
        usage = self.usage
        names = [o["name"] for o in usage["options"]]
        shown = ", ".join(names[:4]) + (", …" if len(names) > 4 else "")
        return (f"<Plan {usage['title']!r}: {len(names)} options ({shown}), "
                f"{usage['horizon_months']} months, {usage['currency']}>")

    def _repr_html_(self) -> str:
        """Jupyter's view: the title, the demand and the options."""
        return display.show("plan_html", self)

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
                raise UserError([self.document.locate(p) for p in resolved.issues])
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
        message = too_large_message()
        problems = [self.document.problem(f"options[{names.index(name)}]", message)
                    for name, card in model.cards.items() if has_infinity(card)]
        if has_infinity(model.demand):
            problems.append(self.document.problem("demand", message))
        if has_infinity(model.calendar):
            problems.append(self.document.problem("", message))
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

    def evaluate(self, *, sensitivity_range: float = DEFAULT_RANGE):
        """Costs, break-even and the cheapest option: a :class:`planner.result.Result`.

        ``sensitivity_range`` is how far (relative, down and up) the sensitivity analysis
        moves each key input.
        """
        from planner.evaluate.assemble import build_result

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
        bad = [name for name, rows in overflowed(self.model).items() if rows.any()]
        names = [o["name"] for o in self.usage["options"]]
        message = too_large_message()
        problems = [self.document.problem(f"options[{names.index(n)}]", message) for n in bad]
        return problems or [self.document.problem("", message)]

    def optimize(self):
        """The best mix of the file's ``mix``, or of the chains its overflows wire where it has
        none (SPEC §6): a
        :class:`planner.evaluate.optimize.MixResult` with the best machine counts, purchase
        months and commitments, the nearest alternatives and the rent-then-buy rule."""
        from planner.evaluate.optimize import optimize

        with _overflow_is_a_user_error(self):
            return optimize(self)

    def sweep(self, axes: Mapping[str, Iterable[Any]], *, mode: str = "product",
              chunk_size: int | None = None, break_even: bool = True, client=None,
              dask_dataframe: bool = False, progress: bool | None = None):
        """Evaluate every scenario of ``axes`` (dotted path → values); a tidy DataFrame.

        ``chunk_size`` is the most scenarios computed at once (by default 16,384 here, fewer
        for long horizons, so that memory stays bounded; on Dask, measured: see
        :mod:`planner.evaluate.distributed`). ``client`` (a ``dask.distributed.Client`` or a
        scheduler's address, with ``planner[dask]`` installed) computes the chunks on a Dask
        cluster and returns the same frame. ``dask_dataframe=True`` returns a dask DataFrame
        instead, for results larger than memory, computed when asked by Dask's default
        scheduler (the latest client), which shows its progress. ``progress`` shows a
        progress bar: ``None`` when a sweep of more than a few seconds runs in a terminal or
        a notebook, ``True`` always, ``False`` never.
        """
        from planner.evaluate.progress import sweep_progress
        from planner.evaluate.sweep import run_sweep

        uncertain = bool(self.usage.get("uncertainty")) and not dask_dataframe
        if uncertain:  # the axes are read twice: without and with the draws
            axes = {name: list(values) for name, values in axes.items()}
        executor = None
        if client is not None or dask_dataframe:
            from planner.evaluate.distributed import dask_executor

            executor = dask_executor(client, dask_dataframe=dask_dataframe)
        frame = run_sweep(self, axes, mode=mode, chunk_size=chunk_size,
                          break_even=break_even, executor=executor,
                          progress=sweep_progress(False if dask_dataframe else progress))
        if uncertain:
            from planner.evaluate.uncertainty import scenario_shares

            shares = scenario_shares(self, axes, mode, executor=executor,
                                     progress=sweep_progress(progress))
            frame = frame.merge(shares, on=["scenario", "option"], how="left", sort=False)
        if isinstance(frame, pd.DataFrame):
            frame.attrs.update(self.sweep_attrs(axes, mode))
        return frame

    def sweep_attrs(self, axes: Iterable[str], mode: str = "product") -> dict[str, Any]:
        """What a sweep's frame says of itself in ``attrs``: ``currency`` (the ISO 4217 code
        of its money), ``title``, ``axes`` (the swept paths, in order), ``mode`` and
        ``horizon_months`` (the plan's; a swept horizon is in its column)."""
        return {"currency": self.usage["currency"], "title": self.usage["title"],
                "axes": tuple(axes), "mode": mode,
                "horizon_months": int(self.usage["horizon_months"])}


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


def load_text(text: str | bytes, catalogs: Iterable[str | os.PathLike] = (), *,
              name: str | None = None, base_dir: str | os.PathLike | None = None) -> Plan:
    """Load and validate usage YAML given as text (standard input on the command line).

    ``name`` is what problems call it (default ``<stdin>``; the title then defaults to
    ``plan``). Relative ``catalogs:`` paths in it resolve against ``base_dir`` (default: the
    current folder).
    """
    from planner.usage.load import STDIN, load_usage_text

    base_dir = Path(base_dir) if base_dir is not None else Path.cwd()
    extra = _existing(catalogs)
    document = load_usage_text(text, name=name or STDIN, checks=catalog_checks(base_dir, extra))
    return Plan._from(document, document.data, base_dir, extra)


def _existing(paths: Iterable[str | os.PathLike]) -> tuple[Path, ...]:
    """The given catalog files; a missing one is a user error."""
    out = tuple(Path(p) for p in paths)
    missing = [Problem("catalog file not found", file=str(p)) for p in out if not is_file(p)]
    if missing:
        raise UserError(missing)
    return out


def _catalog(document: UsageDocument, base_dir: Path, extra: tuple[Path, ...] = ()):
    from pricing.catalog import CatalogFileError, load_catalog

    files = [base_dir / p for p in (document.usage.catalogs or [])]
    problems = []
    for i, path in enumerate(files):
        if not is_file(path):
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

