"""What-ifs on the command line: ``--set KEY=VALUE`` (report, validate, diff) and ``--axis
KEY=VALUES`` (sweep).

KEY is a dotted path exactly as :meth:`planner.Plan.replace` takes it
(``site.electricity_per_kwh``, ``options.box.purchase_price``). VALUE is read as a YAML 1.2
scalar (``0.2``, ``1e6``, ``spot``, ``true``; a flow map or list such as ``{price_per_hour: 2}``
also works). An axis's VALUES are a comma-separated list (``200,400,800``) or a range
``START:STOP:STEP`` that includes STOP when the steps reach it within rounding
(``0.1:0.4:0.05`` is 0.1, 0.15, …, 0.4, computed in decimal so that 0.15 is 0.15).

A flag written wrongly (no ``=``, a value YAML cannot read, a range whose step is zero or
points away from STOP) is a usage error (exit 2, click's). A path that names no key of
usage.yaml, or a value the plan refuses, is a problem of the input (exit 1), located at the
flag (``--set site.electricty_per_kwh=0.2: …``) with a did-you-mean where there is one.
Problems of the usage file that a change brings out (a rule between keys) keep their file,
line and column.
"""

from __future__ import annotations

import dataclasses
import decimal
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from planner.errors import Problem

__all__ = ["Assignment", "WhatIf", "apply_sets", "axis_values", "parse_assignment", "relabel",
           "set_option", "yaml_value"]

#: The most values one range may expand to (a typo such as 0:1000:0.0001 stops here).
MAX_RANGE_VALUES = 100_000


@dataclass(frozen=True)
class Assignment:
    """One ``--set``/``--axis`` flag: its dotted ``path``, its ``value`` (a value, or the list
    of an axis's values) and the ``flag`` as written, which problems are located at."""

    path: str
    value: Any
    flag: str


def parse_assignment(text: str, option: str) -> tuple[str, str]:
    """``KEY=VALUE`` split at its first ``=``; a usage error without one."""
    path, sep, value = text.partition("=")
    if not sep or not path.strip():
        raise click.BadParameter(f"{text!r} is not KEY=VALUE (for example "
                                 f"{option} site.electricity_per_kwh=0.2)", param_hint=option)
    return path.strip(), value.strip()


def yaml_value(text: str, option: str) -> Any:
    """``text`` read as one YAML 1.2 value (the planner's own YAML reader: ``1e6`` is a
    number); empty text is null."""
    from planner.errors import UserError
    from planner.usage.yaml12 import load_yaml

    try:
        loaded = load_yaml(text)
    except UserError as err:
        raise click.BadParameter(f"cannot read {text!r} as a YAML value: "
                                 f"{err.problems[0].message}", param_hint=option) from None
    if loaded.problems:
        raise click.BadParameter(f"cannot read {text!r} as a YAML value: "
                                 f"{loaded.problems[0].message}", param_hint=option)
    return loaded.data


def _sets(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]):
    out = []
    for text in values:
        path, value = parse_assignment(text, "--set")
        out.append(Assignment(path, yaml_value(value, "--set"), f"--set {text}"))
    return tuple(out)


set_option = click.option(
    "--set", "sets", multiple=True, metavar="KEY=VALUE", callback=_sets,
    help="What-if: replace the value at a dotted path of usage.yaml before evaluating, as "
         "Plan.replace does (options by name; the value read as YAML); may be given more "
         "than once. Example: --set site.electricity_per_kwh=0.3 "
         "--set options.box.purchase_price=9000.")


def axis_values(text: str, option: str = "--axis") -> list[Any]:
    """An axis's values: ``a,b,c`` (each a YAML value), ``start:stop:step`` (numbers; stop
    included within rounding) or a single value."""
    if "," in text:
        return [yaml_value(part, option) for part in text.split(",")]
    parts = text.split(":")
    if len(parts) == 3 and all(p.strip() for p in parts):
        return _range(parts, text, option)
    if ":" in text and not text.strip().startswith(("{", "[", "'", '"')):
        raise click.BadParameter(f"{text!r} is neither a range START:STOP:STEP nor a list "
                                 "a,b,c", param_hint=option)
    return [yaml_value(text, option)]


def _range(parts: list[str], text: str, option: str) -> list[Any]:
    """START:STOP:STEP in decimal arithmetic: START + i × STEP for i = 0, 1, … while it does
    not pass STOP by more than a millionth of a step; integers when all three are."""
    try:
        start, stop, step = (decimal.Decimal(p.strip()) for p in parts)
    except decimal.InvalidOperation:
        raise click.BadParameter(f"{text!r}: a range's START, STOP and STEP are numbers",
                                 param_hint=option) from None
    if not all(x.is_finite() for x in (start, stop, step)):
        raise click.BadParameter(f"{text!r}: a range's bounds and step are finite",
                                 param_hint=option)
    if step == 0 or (stop - start) * step < 0:
        raise click.BadParameter(f"{text!r}: the step must be non-zero and lead from START "
                                 "to STOP", param_hint=option)
    count = int((stop - start) / step + decimal.Decimal("1e-6")) + 1
    if count > MAX_RANGE_VALUES:
        raise click.BadParameter(f"{text!r} expands to {count:,} values; at most "
                                 f"{MAX_RANGE_VALUES:,} per axis", param_hint=option)
    integral = all(x == x.to_integral_value() and "." not in p and "e" not in p.lower()
                   for x, p in zip((start, stop, step), parts))
    values = [start + i * step for i in range(count)]
    return [int(v) if integral else float(v) for v in values]


def _canonical_text(keys: tuple) -> str:
    """('options', 0, 'own', 'purchase_price') as problems name it: options[0].own.purchase_price."""
    text = ""
    for key in keys:
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else str(key))
    return text


def flag_paths(data: dict[str, Any], assignments) -> dict[str, str]:
    """Each assignment's path, as given and as problems name it, → the flag as written (a
    path that names no key is left out)."""
    from planner.errors import UserError
    from planner.usage.paths import canonical_path

    out: dict[str, str] = {}
    for a in assignments:
        out[a.path] = a.flag
        try:
            out[_canonical_text(canonical_path(data, a.path))] = a.flag
        except UserError:
            pass
    return out


def relabel(problems: list[Problem], flags: dict[str, str], document) -> list[Problem]:
    """Problems of a changed plan located: at the flag whose path they lie at or below, else
    at their place in the usage ``document`` (the rest of the file is as written)."""
    from planner.usage.locate import within

    out = []
    for p in problems:
        flag = next((f for path, f in flags.items() if within(p.path, {path})), None)
        if flag is not None:
            out.append(dataclasses.replace(p, file=flag, line=None, column=None))
        elif p.line is None and document is not None:
            out.append(document.locate(dataclasses.replace(p, file=None)))
        else:
            out.append(p)
    return out


@dataclass
class WhatIf:
    """A plan with its ``--set`` flags applied (``plan``), the plan as written (``base``) and
    where problems of the change are located (``flags``: path → flag)."""

    base: Any
    plan: Any
    flags: dict[str, str]

    def located(self, err):
        """``err``'s problems located at the flags or in the usage file."""
        from planner.errors import UserError

        if not self.flags:
            return err
        return UserError(relabel(err.problems, self.flags, self.base.document))

    def evaluate(self):
        """The changed plan's Result; its problems located (a UserError)."""
        from planner.errors import UserError

        try:
            return self.plan.evaluate()
        except UserError as err:
            raise self.located(err) from None


def apply_sets(plan, assignments) -> WhatIf:
    """``plan`` with every ``--set`` applied, in order (a path set twice takes its last
    value); :class:`planner.errors.UserError` with every problem, located, otherwise."""
    from planner.errors import UserError
    from planner.usage.paths import set_path

    if not assignments:
        return WhatIf(plan, plan, {})
    data, problems, changes = plan.data, [], {}
    for a in assignments:
        try:
            data = set_path(data, a.path, a.value)
        except UserError as err:
            problems += [dataclasses.replace(p, file=a.flag) for p in err.problems]
            continue
        changes.pop(a.path, None)
        changes[a.path] = a.value
    if problems:
        raise UserError(problems)
    what_if = WhatIf(plan, plan, flag_paths(data, assignments))
    try:
        what_if.plan = plan.replace(changes)
    except UserError as err:
        raise what_if.located(err) from None
    return what_if
