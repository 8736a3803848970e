"""The best mix (SPEC §6): ``Plan.optimize()`` and ``planner optimize``.

The file's top-level ``mix`` names a chain: one or more own options, then the cloud option
that takes the rest. The search wires that chain (each member overflows to the next), then
prices every candidate at once through :mod:`planner.engine.mix` (one member before a cloud
paid by the hour: on the pieces of its value, :func:`~planner.engine.mix.grid_values`): for
each own member every machine count 0..N + 1 (N: the count that covers the largest month's
demand; more only cost more, and N + 1 prices "one machine more") and every purchase
month 0..T − 1 (with 0 machines the month does not matter: one candidate), combined across
members; where the cloud's pricing is reserved, each candidate's commitments are the best of
each term (``reserved_instances: per_term``, exact in closed form). The lowest present value
wins; ties: fewer machines, then the later purchase.

Beside the best mix: the best single option (the plan's options as written, SPEC §2's
``cheapest``), the nearest alternatives (one machine more or fewer, a year earlier or later,
one committed instance more or fewer in a term), and the rent-then-buy rule of
:func:`planner.engine.mix.rent_then_buy_month` for each own member.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, NoReturn

import numpy as np
import pandas as pd

from planner.engine.cloud import is_reserved
from planner.engine.fleet import covering_machines
from planner.engine.mix import (
    best_candidate,
    candidate_flows,
    candidate_values,
    grid_values,
    member_grid,
    rent_then_buy_month,
)
from planner.engine.own import cannot_run_the_work
from planner.errors import UserError
from planner.messages import Message, Money, render
from pricing.pricings import TERM_MONTHS

#: The most candidates one search evaluates; beyond, the file's mix is refused.
MAX_CANDIDATES = 2_000_000
#: Components of an own option that buying brings (the rest is the cost of running it).
CAPITAL = ("purchase", "resale", "financing", "loan_payoff")
#: Months between a purchase and the "a year earlier / later" alternatives.
YEAR = 12


@dataclass
class MixResult:
    """What :meth:`planner.Plan.optimize` returns.

    ``members``: the mix's options, own options first, the cloud that takes the rest last.
    ``candidates``: one row per candidate: ``<own>.machines`` and ``<own>.purchase_month`` for
    each own member, ``<cloud>.term_<j>`` (instances committed in term j, reserved clouds
    only), ``present_value`` and ``total_cost`` [currency] (NaN where infeasible),
    ``feasible``. ``best``: the winning row of it (a Series). ``alternatives``: ``change`` (in
    words), the members' settings, ``present_value``, ``total_cost`` and ``versus_best``
    [currency]. ``buy_later``: one row per own member: ``option``, ``machines``,
    ``rule_month`` (None: the rule never buys), ``rent_paid``, ``net_cost_of_owning``,
    ``rule_present_value``, ``best_month`` and ``best_present_value`` [currency].
    ``single``: the best single option's name and present value (None: none feasible).
    """

    currency: str
    members: list[str]
    candidates: pd.DataFrame
    best: pd.Series
    alternatives: pd.DataFrame
    buy_later: pd.DataFrame
    single: str | None
    single_present_value: float | None
    term_months: int = 0
    words: Message | None = field(default=None, repr=False)

    @property
    def present_value(self) -> float:
        return float(self.best["present_value"])

    @property
    def total_cost(self) -> float:
        return float(self.best["total_cost"])

    @property
    def saving(self) -> float | None:
        """What the best mix saves against the best single option, present value. [currency]"""
        if self.single_present_value is None:
            return None
        return self.single_present_value - self.present_value

    def description(self, lang: str = "en") -> str:
        """The best mix in words."""
        return render(self.words, lang)

    def rule_messages(self) -> list[Message]:
        """The rent-then-buy rule of each own member, a sentence each."""
        return buy_later_messages(self)

    def buy_later_sentences(self, lang: str = "en") -> list[str]:
        return [render(m, lang) for m in buy_later_messages(self)]

    def to_dict(self) -> dict[str, Any]:
        """The JSON's ``mix`` object (docs/usage-reference.md)."""
        owns = self.members[:-1]
        best = self.best
        return {
            "members": list(self.members),
            "description": self.description(),
            "present_value": self.present_value,
            "total_cost": self.total_cost,
            "machines": {o: int(best[f"{o}.machines"]) for o in owns},
            "purchase_month": {o: int(best[f"{o}.purchase_month"]) for o in owns},
            "reserved_instances_per_term": _ladder(best, self.members[-1]),
            "best_single_option": self.single,
            "best_single_present_value": self.single_present_value,
            "saving": self.saving,
            "candidates": len(self.candidates),
            "alternatives": [
                {"change": row.change, "present_value": _num(row.present_value),
                 "total_cost": _num(row.total_cost), "versus_best": _num(row.versus_best)}
                for row in self.alternatives.itertuples()],
            "buy_later": [
                {"option": row.option, "machines": int(row.machines),
                 "rule_month": None if pd.isna(row.rule_month) else int(row.rule_month),
                 "rent_paid": _num(row.rent_paid),
                 "net_cost_of_owning": _num(row.net_cost_of_owning),
                 "rule_present_value": _num(row.rule_present_value),
                 "best_month": None if row.best_month is None else int(row.best_month),
                 "best_present_value": _num(row.best_present_value),
                 "sentence": sentence}
                for row, sentence in zip(self.buy_later.itertuples(),
                                         self.buy_later_sentences())],
        }


def _num(x) -> float | None:
    return None if x is None or pd.isna(x) else float(x)


def _ladder(row: pd.Series, cloud: str) -> list[int] | None:
    terms = [k for k in row.index if k.startswith(f"{cloud}.term_")]
    return [int(row[k]) for k in terms] if terms else None


# -- the search ---------------------------------------------------------------------------------


def mix_plan(plan):
    """The plan with the mix's chain wired: every member but the last overflows to the next,
    one machine bought in month 0 (the search sets both), a reserved cloud at the end commits
    term by term."""
    members = plan.usage["mix"]
    changes: dict[str, Any] = {}
    for name, after in itertools.pairwise(members):
        changes[f"options.{name}.overflow"] = after
        changes[f"options.{name}.own.machines"] = 1
        changes[f"options.{name}.own.purchase_month"] = 0
    last = plan.usage["options"][[o["name"] for o in plan.usage["options"]].index(members[-1])]
    if last.get("pricing") in TERM_MONTHS:
        changes[f"options.{members[-1]}.reserved_instances"] = "per_term"
    return plan.replace(changes)


def file_chains(usage) -> list[list[str]]:
    """The chains a file without ``mix`` wires itself: from each own option that no other own
    option overflows to, its ``overflow`` links through own options, ending at a cloud option
    (chains that end elsewhere, or nowhere, are left out), in file order."""
    entries = {o["name"]: o for o in usage["options"]}
    targets = {o.get("overflow") for o in usage["options"] if "own" in o}
    chains = []
    for entry in usage["options"]:
        if "own" not in entry or entry["name"] in targets:
            continue
        chain, current = [entry["name"]], entry
        while "own" in current and current.get("overflow") in entries:
            current = entries[current["overflow"]]
            chain.append(current["name"])
        if "cloud" in current and len(chain) >= 2:
            chains.append(chain)
    return chains


def optimize(plan) -> MixResult:
    """The best mix of the plan's ``mix`` (see the module's docstring). A file without one is
    searched along the chains it wires itself (:func:`file_chains`: SPEC §6 defines the
    search on any usage file): each is searched as a ``mix``, and the lowest present value
    wins (ties: file order)."""
    if not plan.usage.get("mix"):
        chains = file_chains(plan.usage)
        if not chains:
            raise UserError([plan.document.problem(
                "", "nothing to search: no own option overflows to a cloud option; give one an "
                    "overflow, or name the options to combine in a top-level mix list (own "
                    "options first, then the cloud that takes the rest)", at="map")])
        results = [_search(plan.replace({"mix": chain})) for chain in chains]
        return min(results, key=lambda r: float(r.best.present_value))  # first of equals
    return _search(plan)


def _search(plan) -> MixResult:
    """The best mix of the plan's own ``mix``."""
    members = plan.usage["mix"]
    wired = mix_plan(plan)
    model = wired.model
    owns, cloud, head = members[:-1], members[-1], members[0]
    T = model.calendar.horizon_months
    if cannot_run_the_work(model, model.cards[head]).all():
        # The head's reasons count whatever its count (0 included), so every candidate is
        # infeasible. (Not so for a later member: its reasons count only where work reaches
        # it, and the members before it may serve all of the work.)
        _no_mix(plan)
    grids, counts = [], {}
    for name in owns:
        # N covers the demand; N + 1 is searched too, so that "one machine more" is priced.
        counts[name] = int(covering_machines(model, name)[0]) + 1
        grids.append(member_grid(counts[name], T))
    sizes = [g[0].size for g in grids]
    total = int(np.prod(sizes, dtype=object))
    if total > MAX_CANDIDATES:
        raise UserError([plan.document.problem(
            "mix", f"the mix has {total:,} candidates (machine counts × purchase months of "
                   f"{', '.join(owns)}); the limit is {MAX_CANDIDATES:,}: split the demand or "
                   "use larger machines", at="key")])
    index = np.unravel_index(np.arange(total), sizes)
    machines = {o: g[0][i] for o, g, i in zip(owns, grids, index)}
    months = {o: g[1][i] for o, g, i in zip(owns, grids, index)}
    if len(owns) == 1:  # evaluated on the pieces where the chain allows
        values = grid_values(model, head, counts[head])
    else:
        values = candidate_values(model, head, machines, months)
    frame = pd.DataFrame({f"{o}.{k}": v[o] for o in owns
                          for k, v in (("machines", machines), ("purchase_month", months))})
    card = model.cards[cloud]
    reserved = is_reserved(card)
    if reserved and values.ladder is not None:
        for j in range(values.ladder.shape[1]):
            frame[f"{cloud}.term_{j + 1}"] = values.ladder[:, j]
    frame["present_value"] = np.where(values.feasible, values.present_value, np.nan)
    frame["total_cost"] = np.where(values.feasible, values.total_cost, np.nan)
    frame["feasible"] = values.feasible
    month_matrix = np.stack([months[o] for o in owns], axis=1)
    machine_total = sum(machines[o] for o in owns)
    best = best_candidate(values, machine_total, month_matrix)
    if best < 0:
        _no_mix(plan)

    def find(setting: dict[str, tuple[int, int]]) -> int | None:
        """The candidate of ``setting`` (member → (machines, month)); None beyond the grid."""
        position = []
        for o, (m, p) in setting.items():
            if not 0 <= m <= counts[o] or not 0 <= p < T:
                return None
            position.append(0 if m == 0 else 1 + (m - 1) * T + p)  # as member_grid lists
        return int(np.ravel_multi_index(position, sizes))

    best_setting = {o: (int(machines[o][best]), int(months[o][best])) for o in owns}
    alternatives = _alternatives(plan, model, frame, best, best_setting, find, wired)
    single, single_pv = _best_single(plan)
    term = card.term_months if reserved else 0
    result = MixResult(plan.usage["currency"], list(members), frame, frame.iloc[best],
                       alternatives, _buy_later(model, head, owns, frame, best_setting, find),
                       single, single_pv, term)
    result.words = mix_words(result)
    return result


def _no_mix(plan) -> NoReturn:
    raise UserError([plan.document.problem(
        "mix", "no mix of these options serves the demand: see the options' reasons in "
               "planner report", at="key")])


def _best_single(plan) -> tuple[str | None, float | None]:
    figures = plan.figures(break_even=False)
    k = int(figures.cheapest[0])
    if k < 0:
        return None, None
    o = figures.options[k]
    return o.name, float(o.present_value[0])


def _alternatives(plan, model, frame, best, setting, find, wired) -> pd.DataFrame:
    """The nearest alternatives: per own member one machine more or fewer (same month), a
    year earlier or later (same count); per term one committed instance more or fewer."""
    T = model.calendar.horizon_months
    rows = []
    best_pv, best_total = frame.at[best, "present_value"], frame.at[best, "total_cost"]
    for name, (m, p) in setting.items():
        moves = [(Message("mix.alt_more", option=name), (m + 1, p if m else 0)),
                 (Message("mix.alt_fewer", option=name), (m - 1, p)),
                 (Message("mix.alt_earlier", option=name, month=max(p - YEAR, 0)),
                  (m, max(p - YEAR, 0)) if m and p > 0 else None),
                 (Message("mix.alt_later", option=name, month=p + YEAR),
                  (m, p + YEAR) if m and p + YEAR < T else None)]
        for change, moved in moves:
            if moved is None or moved[0] < 0:
                continue
            k = find({**setting, name: moved})
            if k is None:  # beyond the counts searched: they cover the demand already
                continue
            rows.append((change, k))
    out = [{"change": render(change, "en"), "message": change,
            "present_value": frame.at[k, "present_value"], "total_cost": frame.at[k, "total_cost"]}
           for change, k in rows]
    cloud = plan.usage["mix"][-1]
    terms = [c for c in frame.columns if c.startswith(f"{cloud}.term_")]
    if terms:
        ladder = frame.loc[best, terms].to_numpy(float)
        moved, changes = [], []
        for j in range(ladder.size):
            for step, key in ((1, "mix.alt_commit_more"), (-1, "mix.alt_commit_less")):
                if ladder[j] + step < 0:
                    continue
                new = ladder.copy()
                new[j] += step
                moved.append(new)
                changes.append(Message(key, option=cloud, term=j + 1))
        owns = list(setting)
        k = len(moved)
        values = candidate_values(
            wired.model, owns[0], {o: np.full(k, float(setting[o][0])) for o in owns},
            {o: np.full(k, float(setting[o][1])) for o in owns}, np.array(moved))
        for change, pv, total, ok in zip(changes, values.present_value, values.total_cost,
                                         values.feasible):
            out.append({"change": render(change, "en"), "message": change,
                        "present_value": pv if ok else np.nan,
                        "total_cost": total if ok else np.nan})
    alt = pd.DataFrame(out, columns=["change", "message", "present_value", "total_cost"])
    alt["versus_best"] = alt["present_value"] - best_pv
    alt["total_versus_best"] = alt["total_cost"] - best_total
    return alt


def _buy_later(model, head, owns, frame, setting, find) -> pd.DataFrame:
    """The rent-then-buy rule for each own member, its count that of the best mix (or, where
    the best mix owns none of it, the best count bought in month 0)."""
    rows = []
    T = model.calendar.horizon_months
    for name in owns:
        m, best_p = setting[name]
        if m == 0:
            at_zero = frame[(frame[f"{name}.purchase_month"] == 0)
                            & (frame[f"{name}.machines"] > 0)]
            if at_zero["present_value"].notna().any():
                m = int(at_zero.loc[at_zero["present_value"].idxmin(), f"{name}.machines"])
            else:
                m = 1
        others = {o: setting[o] for o in owns if o != name}
        renting = {**others, name: (0, 0)}
        owning = {**others, name: (m, 0)}
        flows, _ = candidate_flows(
            model, head, {o: np.array([float(renting[o][0]), float(owning[o][0])]) for o in owns},
            {o: np.array([float(renting[o][1]), float(owning[o][1])]) for o in owns})
        monthly = np.broadcast_to(flows.monthly_cost, (2, T + 1))
        own_flows = _member_flows(flows, owns.index(name))
        capital = sum(np.broadcast_to(own_flows.components[c], (2, T + 1))[1]
                      for c in CAPITAL if c in own_flows.components)
        residual = float(np.broadcast_to(_own_residual(own_flows), (2,))[1])
        net_owning = float(capital.sum()) - residual
        rent = monthly[0] - (monthly[1] - capital)
        month = rent_then_buy_month(rent[1:], net_owning)
        if month is not None and month >= T:
            month = None
        k = find({**setting, name: (m, month) if month is not None else (0, 0)})
        rows.append({
            "option": name, "machines": m, "rule_month": month,
            "rent_paid": float(rent[1:month + 1].sum()) if month else 0.0,
            "net_cost_of_owning": net_owning,
            "rule_present_value": frame.at[k, "present_value"] if k is not None else np.nan,
            "best_month": best_p if setting[name][0] else None,
            "best_present_value": frame["present_value"].min()})
    out = pd.DataFrame(rows, columns=["option", "machines", "rule_month", "rent_paid",
                                      "net_cost_of_owning", "rule_present_value", "best_month",
                                      "best_present_value"])
    return out.astype({"rule_month": "object", "best_month": "object"})


def _member_flows(flows, position: int):
    for _ in range(position):
        flows = flows.target
    return flows


def _own_residual(flows) -> np.ndarray:
    """An own member's own residual value: its flows' residual less its target's."""
    inner = flows.target
    return flows.residual_value - (inner.residual_value if inner is not None else 0.0)


# -- in words -----------------------------------------------------------------------------------


def mix_words(result: MixResult) -> Message:
    """"own 2 machines of box from month 0, commit 3 p5 instances for year 1 and 5 for years
    2–3, the rest on demand"."""
    parts: list[Message] = []
    best = result.best
    owned = []
    for name in result.members[:-1]:
        m, p = int(best[f"{name}.machines"]), int(best[f"{name}.purchase_month"])
        if m == 0:
            owned.append((-1, Message("mix.own_none", option=name)))
        else:
            one = "_one" if m == 1 else ""
            key = f"mix.own_now{one}" if p == 0 else f"mix.own_later{one}"
            owned.append((p, Message(key, machines=m, option=name, month=p)))
    parts += [message for _, message in sorted(owned, key=lambda pair: pair[0])]
    cloud = result.members[-1]
    ladder = _ladder(best, cloud)
    if ladder is not None:
        groups = _runs(ladder)
        committed = [Message("mix.commit_run", count=c, span=_span(a, b, result.term_months))
                     for a, b, c in groups if c > 0]
        if committed:
            joined = committed[0]
            for nxt in committed[1:]:
                joined = Message("mix.and", first=joined, second=nxt)
            parts.append(Message("mix.commit", option=cloud, runs=joined))
        else:
            parts.append(Message("mix.commit_none", option=cloud))
        parts.append(Message("mix.rest_on_demand", option=cloud))
    else:
        parts.append(Message("mix.rest", option=cloud))
    joined = parts[0]
    for nxt in parts[1:]:
        joined = Message("mix.list", first=joined, rest=nxt)
    return joined


def _runs(ladder: list[int]) -> list[tuple[int, int, int]]:
    """Consecutive terms with the same count: (first term, last term, count), 1-based."""
    runs: list[tuple[int, int, int]] = []
    for j, c in enumerate(ladder, start=1):
        if runs and runs[-1][2] == c:
            runs[-1] = (runs[-1][0], j, c)
        else:
            runs.append((j, j, c))
    return runs


def _span(first: int, last: int, term_months: int) -> Message:
    """Terms first..last as years (1-year terms) or as terms (longer ones)."""
    if term_months == YEAR:
        if first == last:
            return Message("mix.year", year=first)
        return Message("mix.years", first=first, last=last)
    if first == last:
        return Message("mix.term", term=first, years=term_months // YEAR)
    return Message("mix.terms", first=first, last=last, years=term_months // YEAR)


def buy_later_messages(result: MixResult) -> list[Message]:
    out = []
    for row in result.buy_later.itertuples():
        owning = Money(float(row.net_cost_of_owning), result.currency)
        if row.rule_month is None or pd.isna(row.rule_month):
            out.append(Message("mix.rule_never", option=row.option, machines=int(row.machines),
                               owning=owning))
            continue
        extra = float(row.rule_present_value) - float(row.best_present_value)
        out.append(Message(
            "mix.rule_buy", option=row.option, machines=int(row.machines),
            month=int(row.rule_month), rent=Money(float(row.rent_paid), result.currency),
            owning=owning, pv=Money(float(row.rule_present_value), result.currency),
            extra=Money(extra, result.currency)))
    return out
