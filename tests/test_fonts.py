"""Text no installed font has warns, naming the characters (issue 10, point 13c)."""

from __future__ import annotations

import shutil
import warnings

import pytest

import planner
from planner.render import MissingGlyphWarning, fonts, render

AMHARIC = "\u1200"  # ETHIOPIC SYLLABLE HA
TAMIL = "\u0b86\u0baf\u0bcd"  # Tamil letters and a vowel sign


def no_font_for(char: str) -> bool:
    return shutil.which("fc-list") is not None and not fonts._installed_font_has(ord(char))


needs_missing_font = pytest.mark.skipif(
    not (no_font_for(AMHARIC) and no_font_for(TAMIL[0])),
    reason="needs fontconfig and no font for Amharic and Tamil")


def plan(title: str, name: str = "box"):
    return planner.load({
        "version": 1, "title": title, "demand": {"gpu_hours_per_month": 100},
        "site": {"electricity_per_kwh": 0.2},
        "options": [{"name": name, "own": {"gpu": "rtx-4090", "system_price": 1000}},
                    {"name": "pod", "cloud": "runpod/1x_RTX4090_SECURE"}]})


def test_uncovered_asks_fontconfig_only_beyond_latin_and_cjk(monkeypatch):
    asked = []

    def has(code):
        asked.append(code)
        return code != 0x1200

    monkeypatch.setattr(fonts, "_installed_font_has", has)
    monkeypatch.setattr(fonts, "cjk_font", lambda: "Noto Sans CJK SC")
    assert fonts.uncovered("Café lab 实验室：\u200d\t " + AMHARIC * 3 + "\u0b86") == [AMHARIC]
    assert asked == [0x1200, 0x0B86]  # each distinct character once; Latin and CJK never


def test_without_a_cjk_font_chinese_is_asked_about(monkeypatch):
    monkeypatch.setattr(fonts, "_installed_font_has", lambda code: False)
    monkeypatch.setattr(fonts, "cjk_font", lambda: None)
    assert fonts.uncovered("lab 实验") == ["实", "验"]


def test_the_message_names_the_characters_and_how_to_get_a_font():
    text = fonts.missing_glyph_message("the title", ["\u0b86", AMHARIC])
    assert "'ஆ' (U+0B86), 'ሀ' (U+1200) of the title" in text
    assert "boxes" in text and "fonts-noto-core" in text and "fc-list :charset=0B86" in text


@needs_missing_font
def test_a_title_and_an_option_name_in_a_script_without_a_font_warn():
    result = plan("ஆய்வகம் GPUs", name="box-" + AMHARIC).evaluate()
    with pytest.warns(MissingGlyphWarning) as caught:
        render(result, "html")
    messages = [str(w.message) for w in caught if w.category is MissingGlyphWarning]
    assert len(messages) == 2
    assert "U+0B86" in messages[0] and "of the title" in messages[0]
    assert "U+1200" in messages[1] and "option 'box-ሀ'" in messages[1]


def test_the_examples_print_without_a_warning():
    """No example warns of missing glyphs, but for cn-lab's Chinese title where no Chinese
    font is installed: there it must warn (README says which font to install)."""
    from pathlib import Path

    for example in sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.yaml")):
        result = planner.load(example).evaluate()
        if fonts.cjk_font() is None and example.stem == "cn-lab":
            with pytest.warns(MissingGlyphWarning, match="of the title"):
                render(result, "html")
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("error", MissingGlyphWarning)
            render(result, "html", lang="zh" if fonts.cjk_font() else "en")


@needs_missing_font
def test_the_cli_prints_the_warning(run, tmp_path):
    usage = tmp_path / "u.yaml"
    usage.write_text("version: 1\ntitle: \"lab \u1200\"\ndemand: {gpu_hours_per_month: 100}\n"
                     "options:\n  - name: pod\n    cloud: runpod/1x_RTX4090_SECURE\n",
                     encoding="utf-8")
    out = run("report", usage, "-o", tmp_path / "r.html")
    assert out.exit_code == 0
    assert "warning: no installed font has the characters 'ሀ' (U+1200) of the title" in \
        out.output
