"""A sweep's progress bar (issue 11, point 5): silent unless someone watches a sweep of more
than a few seconds, shown when asked for, drawn in place in a notebook."""

from __future__ import annotations

import io

import numpy as np
import pytest
from builders import usage_plan

import planner
from planner.evaluate import progress

AXES = {"demand.gpu_hours_per_month": np.linspace(0, 900, 30),
        "site.electricity_per_kwh": [0.1, 0.3]}


@pytest.fixture(scope="module")
def plan():
    return planner.load(usage_plan())


def test_silent_when_nobody_watches(plan, capfd, monkeypatch):
    monkeypatch.setattr(progress, "DELAY_SECONDS", 0.0)  # even a long sweep
    stream = io.StringIO()  # not a terminal
    monkeypatch.setattr("sys.stderr", stream)
    assert not progress.interactive()
    plan.sweep(AXES)
    assert stream.getvalue() == ""
    assert capfd.readouterr() == ("", "")


def test_shown_when_asked_for(plan, capsys):
    plan.sweep(AXES, chunk_size=7, progress=True)
    out, err = capsys.readouterr()
    assert out == "" and "sweep" in err and "60/60 scenarios" in err


def test_never_when_refused(plan, capsys, monkeypatch):
    monkeypatch.setattr(progress, "interactive", lambda: True)
    monkeypatch.setattr(progress, "DELAY_SECONDS", 0.0)
    plan.sweep(AXES, progress=False)
    assert capsys.readouterr() == ("", "")


def test_watched_sweeps_show_it_after_a_delay(plan, capsys, monkeypatch):
    monkeypatch.setattr(progress, "interactive", lambda: True)
    monkeypatch.setattr(progress, "DELAY_SECONDS", 3600.0)  # a quick sweep: no bar
    plan.sweep(AXES)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(progress, "DELAY_SECONDS", 0.0)  # a sweep past the delay
    plan.sweep(AXES)
    assert "60/60 scenarios" in capsys.readouterr().err


class Display:
    """IPython's display handle, as the notebook bar uses it."""

    def __init__(self, bundle):
        self.bundles = [bundle]

    def update(self, bundle, raw):
        assert raw
        self.bundles.append(bundle)


def test_in_a_notebook_the_bar_is_redrawn_in_place(plan, capsys, monkeypatch):
    shown = []

    def open_display(bundle):
        shown.append(Display(bundle))
        return shown[-1]

    monkeypatch.setattr(progress, "in_notebook", lambda: True)
    monkeypatch.setattr(progress, "open_display", open_display)
    plan.sweep(AXES, chunk_size=7, progress=True)
    assert len(shown) == 1  # one output, updated
    first, last = shown[0].bundles[0], shown[0].bundles[-1]
    assert "0/60 scenarios" in first["text/plain"]
    assert "60/60 scenarios" in last["text/plain"]
    assert last["text/html"].startswith("<pre") and "60/60" in last["text/html"]
    assert capsys.readouterr() == ("", "")  # nothing on the streams


def test_a_notebook_is_told_from_a_terminal_ipython(monkeypatch):
    class ZMQInteractiveShell:
        pass

    class TerminalInteractiveShell:
        pass

    class IPython:
        shell = None

        @classmethod
        def get_ipython(cls):
            return cls.shell

    monkeypatch.setitem(__import__("sys").modules, "IPython", IPython)
    assert not progress.in_notebook()
    IPython.shell = TerminalInteractiveShell()
    assert not progress.in_notebook()
    IPython.shell = ZMQInteractiveShell()
    assert progress.in_notebook()
