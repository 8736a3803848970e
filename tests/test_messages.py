"""The message catalogue: every key once, in both languages; messages render as data."""

from __future__ import annotations

import ast
from pathlib import Path

from planner.messages import CATALOGUE, Message, Money, model_texts, render, report_texts


def _literal_keys(module) -> list[str]:
    """The keys of the module's one dict literal as written (a repeated key would be lost in
    the dict itself)."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    literal = next(node for node in ast.walk(tree) if isinstance(node, ast.Dict))
    return [key.value for key in literal.keys]


def test_every_key_is_written_once_in_one_table():
    model, report = _literal_keys(model_texts), _literal_keys(report_texts)
    assert len(model) == len(set(model)) and len(report) == len(set(report))
    assert not set(model) & set(report)
    assert len(CATALOGUE) == len(model) + len(report)


def test_a_nested_message_renders_in_the_same_language():
    reason = Message("reason.memory", have=16.0, need=24.0)
    passed = Message("warning.redirected", reason=reason, target="runpod")
    assert str(passed) == ("GPU memory 16 GB is less than the 24 GB the work needs "
                           "(min_gpu_memory_gb); all work goes to 'runpod'")
    chinese = render(passed, "zh")
    assert chinese.startswith("GPU 显存 16 GB 少于工作所需的 24 GB") and "runpod" in chinese


def test_typed_values_go_through_the_renderers_formatter():
    seen = []
    message = Message("input.price", price=Money(0.18, "USD", "kWh"))
    render(message, "en", lambda value: seen.append(value) or "$0.18/kWh")
    assert seen == [Money(0.18, "USD", "kWh")]
