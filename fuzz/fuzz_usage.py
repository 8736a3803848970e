"""Coverage-guided fuzzing of the YAML-to-schema boundary with atheris (libFuzzer).

Every input is a usage file's bytes. It is parsed (planner.usage.yaml12), validated with the
catalog checks (planner.usage.load, planner.cards.checks.catalog_checks) and, when it is a valid plan,
resolved against the catalog and evaluated. The contract: a user error (planner.errors.
UserError) whose problems are located, or a result whose numbers are finite. Any other
exception, or a failed check below, is a finding: libFuzzer stops and writes the input to
``crash-<sha1>``.

    pip install atheris                      # not a project dependency; CI does not run this
    python fuzz/fuzz_usage.py -max_total_time=300 fuzz/corpus
    python fuzz/fuzz_usage.py crash-...      # replay one finding

``fuzz/corpus`` is seeded from ``examples/*.yaml`` and ``fuzz/seeds/*.yaml`` when the run
starts; libFuzzer adds the inputs that reach new code to it. ``fuzz/usage.dict`` (the keys and
the YAML tokens that matter) is used unless ``-dict=`` is given. Half of the mutations are
structure-aware (:func:`CustomMutator`): the input is parsed, a value set to an extreme, a key
dropped or copied, and written back. See fuzz/README.md.
"""

from __future__ import annotations

import copy
import importlib
import itertools
import json
import math
import random
import shutil
import sys
import warnings
from pathlib import Path

import atheris
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

with atheris.instrument_imports(include=["planner", "pricing"]):
    for module in ("planner.engine.breakeven", "planner.evaluate.assemble", "planner.engine.figures",
                   "planner.engine.linear", "planner.cards.resolve", "planner.engine.tco"):
        importlib.import_module(module)  # instrumented, for coverage beyond the boundary
    from planner.cards.checks import catalog_checks
    from planner.errors import UserError
    from planner.evaluate.plan import Plan
    from planner.usage.load import _check_loaded
    from planner.usage.yaml12 import load_yaml

FILE = "fuzz.yaml"
CHECKS = catalog_checks(ROOT)


def check_problems(err: UserError) -> None:
    assert err.problems, "a UserError without problems"
    for problem in err.problems:
        assert problem.message, problem
        if problem.path or problem.line is not None:
            assert problem.line is not None and problem.column is not None, problem
        str(problem)


def check_result(data: dict) -> None:
    json.dumps(data, allow_nan=False)  # ValueError on NaN or infinity
    for option in data["options"]:
        if option["feasible"]:
            monthly = option["monthly_cost"]
            total = sum(monthly) - option["residual_value"]
            scale = max(sum(abs(v) for v in monthly) + abs(option["residual_value"]), 1.0)
            assert math.isclose(option["total_cost"], total, rel_tol=0, abs_tol=1e-9 * scale)
        else:
            assert option["reasons"] and option["total_cost"] is None, option
    for pair in data["break_even"]:
        months = pair["months"]
        assert months is None or 0 <= months <= data["horizon_months"] * (1 + 1e-12), pair


def TestOneInput(raw: bytes) -> None:
    try:
        loaded = load_yaml(raw, FILE)
        document = _check_loaded(loaded, FILE, CHECKS)
        plan = Plan._from(document, document.data, ROOT)
        result = plan.evaluate()
    except UserError as err:
        check_problems(err)
        return
    check_result(result.to_dict())


# -- structure-aware mutations ------------------------------------------------------------
# Byte mutations of YAML mostly give syntax errors or one wrong type; half of the mutations
# instead parse the input, change its structure (a value to an extreme, a key dropped or
# copied, an option duplicated) and write it back, so that valid plans with extreme values
# reach the evaluation.

EXTREMES = [0, 0.0, -1, 1, 0.5, -0.5, 1e-17, 2.2e-16, 5e-324, 1e-300, 1e15, 1e308, -1e308,
            float("inf"), float("nan"), 10**400, -(10**400), 2**53 + 1, 1200, 1201, 100, 101,
            "", "x", "12", "1e6", None, True, [], {}, "<script>", "a.b", "\r", "\x01",
            "kaggle", "a100-80gb", "gcp/a2-highgpu-1g", "reserved_3y", "spot",
            "per_term", [1, 2, 3]]


def _paths(value, here=(), seen=None):
    """Paths to the values inside ``value``: shallow ones, each shared value once (YAML
    aliases share values and may contain themselves)."""
    seen = set() if seen is None else seen
    yield here
    if id(value) in seen or len(here) > 20:
        return
    seen.add(id(value))
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*here, key), seen)
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _paths(inner, (*here, i), seen)


def _parent(doc, path):
    for key in path[:-1]:
        doc = doc[key]
    return doc


def _mutate_structure(doc, rng):
    paths = [p for p in itertools.islice(_paths(doc), 5000) if p]
    if not paths:
        return doc
    path = rng.choice(paths)
    parent, key = _parent(doc, path), path[-1]
    how = rng.randrange(6)
    if how <= 2:  # an extreme value, numbers favoured where a number was
        parent[key] = rng.choice(EXTREMES)
    elif how == 3 and isinstance(parent, dict):
        del parent[key]
    elif how == 4:  # a value copied from elsewhere
        other = rng.choice(paths)
        parent[key] = copy.deepcopy(_parent(doc, other)[other[-1]])
    elif isinstance(parent, list) and parent:
        parent.append(copy.deepcopy(rng.choice(parent)))
        if isinstance(parent[-1], dict) and "name" in parent[-1]:
            parent[-1]["name"] = f"{parent[-1]['name']}-{rng.randrange(1000)}"
    return doc


def CustomMutator(data: bytes, max_size: int, seed: int) -> bytes:
    rng = random.Random(seed)
    if rng.random() < 0.5:
        try:
            doc = yaml.safe_load(data.decode("utf-8"))
            if isinstance(doc, dict):
                for _ in range(rng.randint(1, 3)):
                    doc = _mutate_structure(doc, rng)
                text = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False).encode()
                if len(text) <= max_size:
                    return text
        except Exception:  # noqa: BLE001, S110 - not YAML, or not writable back: bytes instead
            pass
    return atheris.Mutate(data, max_size)


def _seed(corpus: Path) -> None:
    corpus.mkdir(parents=True, exist_ok=True)
    for source in [*sorted((ROOT / "examples").glob("*.yaml")),
                   *sorted((HERE / "seeds").glob("*.yaml"))]:
        target = corpus / f"seed-{source.name}"
        if not target.exists():
            shutil.copyfile(source, target)


def main() -> None:
    warnings.simplefilter("error", RuntimeWarning)  # a numerical warning is a finding too
    args = list(sys.argv)
    paths = [Path(a) for a in args[1:] if not a.startswith("-")]
    if paths and not paths[0].is_file():  # a corpus folder (not a single input to replay)
        _seed(paths[0])
    if not any(a.startswith("-dict=") for a in args):
        args.append(f"-dict={HERE / 'usage.dict'}")
    atheris.Setup(args, TestOneInput, custom_mutator=CustomMutator)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
