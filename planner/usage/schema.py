"""The JSON Schema of usage.yaml (for editors) and the reference page, both generated from the
models of :mod:`planner.usage.models`. ``python -m planner.usage.schema`` rewrites the committed
``schema/usage.schema.json`` and ``docs/usage-reference.md`` (run from the repository root).
"""

from __future__ import annotations

import json
import numbers
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from planner.usage.models import Demand, Site, Usage
from planner.usage.options import (
    CloudOption,
    CloudSpec,
    Financing,
    FreeTierOption,
    FreeTierSpec,
    OwnOption,
    OwnSpec,
)
from planner.usage.uncertainty import Correlation, Distribution, Uncertainty
from planner.usage.values import format_number
from planner.usage.vocabulary import CURRENCY_PATTERN, NAME_PATTERN


def _raw_schema() -> dict[str, Any]:
    return Usage.model_json_schema()


def usage_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of usage.yaml, for editors."""
    schema = _raw_schema()

    def tidy(node: Any) -> None:
        if isinstance(node, dict):
            for prop in node.get("properties", {}).values():
                prop.pop("title", None)
                text = prop.pop("x-default", None)
                if text:
                    prop.pop("default", None)
                    if text != "—":
                        prop["description"] = f"{prop.get('description', '')} Default: {text}."
            for value in node.values():
                tidy(value)
        elif isinstance(node, list):
            for value in node:
                tidy(value)

    tidy(schema)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "usage.yaml",
        "description": "What GPU work you have and the ways of getting it done, format version "
        "1. Money is in `currency`; fractions are fractions (0.15, never 15).",
        **{k: v for k, v in schema.items() if k not in ("title", "description")},
    }


def schema_text() -> str:
    """:func:`usage_json_schema` as the committed ``schema/usage.schema.json`` holds it."""
    return json.dumps(usage_json_schema(), indent=2, ensure_ascii=False) + "\n"


SCHEMA_FILE = "schema/usage.schema.json"
REFERENCE_FILE = "docs/usage-reference.md"


def _type_text(prop: Mapping[str, Any]) -> str:
    """A property's JSON Schema in words: ``integer ≥ 1``, ``number in [0, 1]``."""
    if "anyOf" in prop:
        parts = [p for p in prop["anyOf"] if p.get("type") != "null"]
        return " or ".join(_type_text(p) for p in parts)
    if "oneOf" in prop:
        if all("$ref" in p for p in prop["oneOf"]):
            return "option map"
        return " or ".join(_type_text(p) for p in prop["oneOf"])
    if "$ref" in prop:
        return "map"
    if "const" in prop:
        return f"`{prop['const']}`"
    if "enum" in prop:
        return "one of " + ", ".join(f"`{v}`" for v in prop["enum"])
    kind = prop.get("type")
    if kind in ("integer", "number"):
        return kind + _bounds_text(prop)
    if kind == "string":
        pattern = prop.get("pattern")
        if pattern == CURRENCY_PATTERN:
            return "currency code (ISO 4217)"
        return "text without `.`" if pattern == NAME_PATTERN else "text"
    if kind == "boolean":
        return "`true` or `false`"
    if kind == "array":
        text = f"list of {_type_text(prop['items'])}"
        if prop.get("minItems") is not None and prop.get("minItems") == prop.get("maxItems"):
            return text + f", {prop['minItems']} of them"
        return text + (f", ≥ {prop['minItems']}" if "minItems" in prop else "")
    if kind == "object":
        if "additionalProperties" in prop:  # uncertainty.inputs
            return f"map of dotted path → {_type_text(prop['additionalProperties'])}"
        values = [*prop.get("patternProperties", {}).values()] or [{}]
        return f"map of currency code → {_type_text(values[0])}"
    return "value"


def _bounds_text(prop: Mapping[str, Any]) -> str:
    low = ("[", prop["minimum"]) if "minimum" in prop else (
        ("(", prop["exclusiveMinimum"]) if "exclusiveMinimum" in prop else None)
    high = ("]", prop["maximum"]) if "maximum" in prop else (
        (")", prop["exclusiveMaximum"]) if "exclusiveMaximum" in prop else None)
    if low and high:
        return f" in {low[0]}{format_number(low[1])}, {format_number(high[1])}{high[0]}"
    if low:
        return f" {'≥' if low[0] == '[' else '>'} {format_number(low[1])}"
    if high:
        return f" {'≤' if high[0] == ']' else '<'} {format_number(high[1])}"
    return ""


def _default_text(prop: Mapping[str, Any], required: bool) -> str:
    if required:
        return "required"
    if "x-default" in prop:
        return str(prop["x-default"])
    value = prop.get("default")
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, numbers.Real):
        return f"`{format_number(value)}`"
    if isinstance(value, str):
        return f"`{value}`"
    return f"`{json.dumps(value)}`"


def _table(schema: Mapping[str, Any], model: type[BaseModel], skip: tuple[str, ...] = ()) -> str:
    definition = schema if model is Usage else schema["$defs"][model.__name__]
    required = set(definition.get("required", ()))
    rows = ["| key | type | default | unit | meaning |", "|---|---|---|---|---|"]
    for key, prop in definition["properties"].items():
        if key in skip:
            continue
        meaning = prop.get("description", "")
        unit = ""
        if meaning.endswith("]") and " [" in meaning:
            meaning, unit = meaning[:-1].rsplit(" [", 1)
        cells = [f"`{key}`", _type_text(prop), _default_text(prop, key in required), unit,
                 meaning]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows)


_REFERENCE = """\
# usage.yaml reference

<!-- Generated from the models in planner/usage/models.py and options.py by `python -m planner.usage.schema`; do not edit by hand. -->

A usage file says what GPU work you have and which ways of getting it done to weigh. This page
lists every key, its type, default, unit and meaning. `planner schema` prints the same
information as a JSON Schema that editors use for completion and checks.

```yaml
version: 1
currency: USD
demand:
  gpu_hours_per_month: 300
site:
  electricity_per_kwh: 0.15
options:
  - name: rent
    cloud: aws/p4d.24xlarge
    pricing: spot
  - name: box
    own: {{gpu: rtx-4090, gpu_count: 2}}
    overflow: rent
```

## Conventions

- The file is YAML 1.2: `1e6` and `2.7e19` are numbers; `yes`, `no`, `on` and `off` are text.
- Numbers are plain: no quotes, units, percent signs or thousands separators. Fractions are
  fractions (`0.15`, never `15`). A whole-number key accepts `12` and `12.0`, not `"12"`;
  `true` and `false` are never numbers.
- Money is in the file's `currency`. A month is `hours_per_month` hours.
- A key whose default is "none", "catalog …" or "required …" may also be written with an empty
  value (`null`, `~`), which means the same as leaving it out. Keys with a plain default do not
  accept an empty value.
- Unknown keys, keys that do not apply to an option's kind, and duplicate keys are errors.
- Anchors and aliases (`&box`, `*box`) and merge keys (`<<: *box`) work; keys written in a map
  win over merged ones.
- Every problem in a file is reported at once, as `file:line:column: key.path: message`: at
  the key for an unknown or duplicate key, at the value for a bad value, at the enclosing map
  for a missing key or a rule between keys. Option entries are counted from 0
  (`options[2].own.purchase_price`).
- A file is at most 5 MB.

## Top level

{top}

## `demand`

Exactly one of `gpu_hours_per_month` (or `gpu_hours_per_week`), `utilization` and
`flops_per_month` is given.

{demand}

## `site`

{site}

## `options`

Each entry has a unique `name` (any text without a `.`) and exactly one kind key: `cloud`,
`own` or `free_tier`. The kind key's value describes the resource; the other keys of the entry,
beside it, say how it is used. Catalog ids are text; an unknown id is an error that lists the
closest ids.

### Cloud

`cloud:` is a catalog id `provider/instance` (e.g. `aws/p4d.24xlarge`) or an inline map:

{cloud_map}

Beside `cloud:`:

{cloud_beside}

### Own

`own:` is a map describing the machine:

{own_map}

`financing:` (inside `own:`):

{financing}

Beside `own:`:

{own_beside}

### Free tier

`free_tier:` is a catalog id (`kaggle`, `colab-free`, …) or an inline map:

{free_map}

Beside `free_tier:`:

{free_beside}

## `uncertainty`

Inputs drawn from distributions (SPEC §7): the plan is evaluated as written and also on
`samples` draws, as one sweep; the result's `uncertainty` object holds the shares and
percentiles. Draws form a Latin hypercube from `seed`; each is truncated to its key's valid
range (whole-number keys take the nearest valid whole number).

{uncertainty}

Each entry of `inputs` (a dotted path, as in `Plan.replace`) is a map:

{distribution}

`uniform` takes `low` and `high`; `triangular` and `pert` take `low`, `mode` and `high` (PERT:
a beta distribution on [low, high] with α = 1 + 4(mode − low)/(high − low), β = 1 + 4(high −
mode)/(high − low)); `normal` takes `mean` and `sd`; `lognormal` takes `median` and `sigma`.
`low = high` or a zero spread gives that value in every draw.

Each entry of `correlations`:

{correlation}

## `mix`

The options `planner optimize` (and `Plan.optimize()`) combine, in order: one or more own
options, then the cloud option that takes the rest (SPEC §6). The search wires the chain (each
member's `overflow` is the next member; the file's own `overflow`, where given, must already be
it), then evaluates every candidate as one array computation: for each own member every
`machines` count from 0 to one more than the count that covers the largest month's demand,
and every `purchase_month` 0..`horizon_months` − 1 (with 0 machines the month does not matter:
one candidate), all combinations across members. Where the cloud's `pricing` is reserved, each
candidate's commitments are the best of each term (`reserved_instances: per_term`; exact); with
other pricing, the cloud is priced as written. The lowest present value wins; ties: fewer
machines in all, then the later purchase (the last own member's first). The options as
written in the file are evaluated as before; the JSON result gains a `mix` object and the
report a page "The best mix" (docs/model.md, "The best mix"). Without `mix`, `planner optimize`
searches the chains the file's `overflow` keys wire (own options ending at a cloud option) and
prints the best of them; the report is unchanged.

```yaml
mix: [h100-server, later-servers, h100-reserved-1y]
```

At most 2,000,000 candidates (machine counts × purchase months, multiplied across own
members); beyond, the file is refused at `mix`.

### The JSON's `mix` object (only with a `mix`)

Null where no candidate serves the demand or the grid is too large (`planner optimize` says
why, exit status 1).

| field | meaning |
|---|---|
| `members` | the mix's options, in order |
| `description` | the best mix in words ("own 1 h100-server machine from month 0, buy 1 later-servers machine in month 23, commit …, the rest on demand") |
| `present_value`, `total_cost` | the best mix's, as an option's of §2 (the whole chain) |
| `machines`, `purchase_month` | own member → its count and purchase month in the best mix |
| `reserved_instances_per_term` | instances committed in each term (reserved clouds), else null |
| `best_single_option`, `best_single_present_value` | the plan's `cheapest` as written and its present value |
| `saving` | best single option's present value − the best mix's |
| `candidates` | how many candidates were evaluated |
| `alternatives` | `{{change, present_value, total_cost, versus_best}}`: one machine more or fewer, a year earlier or later, one instance more or fewer committed in a term |
| `buy_later` | per own member, the rent-then-buy rule: `{{option, machines, rule_month (null: never), rent_paid, net_cost_of_owning, rule_present_value, best_month, best_present_value, sentence}}` |

## Rules between keys

- `demand` has exactly one of its three forms; `gpu_hours_per_week` stands for
  `gpu_hours_per_month` and `growth_per_month` for `growth_per_year`, never both of a pair.
- Option names are unique and contain no `.`.
- `overflow` and `fallback` name another option of the file; following them never leads back
  to where it started.
- `reserved_instances` only with `pricing: reserved_1y` or `reserved_3y`; as a list, it has
  one count per term the horizon starts: ceil(`horizon_months` / 12 or 36).
- An inline `cloud:` map has `spot_price_per_hour` with `pricing: spot`, and
  `reserved_1y_price_per_hour` / `reserved_3y_price_per_hour` with the reserved pricings.
  `region` applies only to a catalog id.
- `own:` without `gpu` has `purchase_price` and `power_watts`.
- `machines: 0`, and a `purchase_month` after 0, need the option's `overflow` (it serves the
  demand the machines do not); `purchase_month` is at most `horizon_months` − 1.
- `site.electricity_per_kwh` is given when an `own` option exists.
- `mix` has at least two members, each an option of the file, once; all but the last are own
  options, the last a cloud option; an own member's `overflow`, where given, is the next
  member.
- `financing` has `annual_rate` and `months`.
- An inline `free_tier:` map's `setup_minutes` is shorter than its `session_hours`.

## The file on the command line

- `planner init` writes a first, commented file from a few answers (or flags, with
  `--non-interactive`); it validates and reports as written. It never replaces a file
  without `--force`.
- `--set KEY=VALUE` (on `report`, `validate`, `diff` and `sweep`) replaces a value before the
  plan is evaluated: KEY is a dotted path as `Plan.replace` takes it (`site.region`,
  `options.box.purchase_price`, options by `name`, the kind level optional), VALUE is read as
  YAML 1.2 (`0.3`, `1e6`, `spot`, `{{price_per_hour: 2}}`). Setting one demand form replaces
  the others. A path that names no key, or a value the file would refuse, is reported at the
  flag: `--set site.electricty_per_kwh=0.3: site.electricty_per_kwh: unknown key …`.
- `planner sweep USAGE --axis KEY=VALUES …` evaluates every combination of the axes' values:
  `a,b,c`, or `START:STOP:STEP` (STOP included when the steps reach it within a millionth of a
  step; computed in decimal, so `0.1:0.4:0.05` is 0.1, 0.15, …, 0.4).
- USAGE `-` reads the file from standard input; its relative `catalogs:` paths then resolve
  against the current folder, problems name it `<stdin>`, and its title defaults to `plan`.
"""


def reference_markdown() -> str:
    """The usage.yaml reference page (``docs/usage-reference.md``), built from the models."""
    schema = _raw_schema()
    return _REFERENCE.format(
        top=_table(schema, Usage),
        demand=_table(schema, Demand),
        site=_table(schema, Site),
        cloud_map=_table(schema, CloudSpec),
        cloud_beside=_table(schema, CloudOption, skip=("name", "cloud")),
        own_map=_table(schema, OwnSpec),
        financing=_table(schema, Financing),
        own_beside=_table(schema, OwnOption, skip=("name", "own")),
        free_map=_table(schema, FreeTierSpec),
        free_beside=_table(schema, FreeTierOption, skip=("name", "free_tier")),
        uncertainty=_table(schema, Uncertainty),
        distribution=_table(schema, Distribution),
        correlation=_table(schema, Correlation),
    )


def main() -> None:
    """Write the committed schema and reference page (run from the repository root)."""
    for name, text in ((SCHEMA_FILE, schema_text()), (REFERENCE_FILE, reference_markdown())):
        target = Path(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        print(f"wrote {name}")


if __name__ == "__main__":  # pragma: no cover
    main()
