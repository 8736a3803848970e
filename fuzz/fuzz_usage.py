"""Coverage-guided fuzzing of the YAML-to-schema boundary with atheris (libFuzzer).

Every input is a usage file's bytes. It is parsed (planner.yaml_positions), validated with the
catalog checks (planner.usage, planner.plan.catalog_checks) and, when it is a valid plan,
resolved against the catalog and evaluated. The contract: a user error (planner.errors.
UserError) whose problems are located, or a result whose numbers are finite. Any other
exception, or a failed check below, is a finding: libFuzzer stops and writes the input to
``crash-<sha1>``.

    pip install atheris                      # not a project dependency; CI does not run this
    python fuzz/fuzz_usage.py -max_total_time=300 fuzz/corpus
    python fuzz/fuzz_usage.py crash-...      # replay one finding

``fuzz/corpus`` is seeded from ``examples/*.yaml`` and ``fuzz/seeds/*.yaml`` when the run
starts; libFuzzer adds the inputs that reach new code to it. ``fuzz/usage.dict`` (the keys and
the YAML tokens that matter) is used unless ``-dict=`` is given. See fuzz/README.md.
"""

from __future__ import annotations

import json
import math
import shutil
import sys
import warnings
from pathlib import Path

import atheris

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

with atheris.instrument_imports(include=["planner", "pricing"]):
    import planner.breakeven  # noqa: F401 - instrumented for coverage
    import planner.evaluation  # noqa: F401
    import planner.figures  # noqa: F401
    import planner.linear  # noqa: F401
    import planner.resolve  # noqa: F401
    import planner.tco  # noqa: F401
    from planner.errors import UserError
    from planner.plan import Plan, catalog_checks
    from planner.usage import _check_loaded
    from planner.yaml_positions import load_yaml

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
    atheris.Setup(args, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
