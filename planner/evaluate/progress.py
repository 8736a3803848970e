"""A sweep's progress bar: rich's, in a terminal and in a Jupyter notebook.

``progress=None`` (the default) shows the bar only where someone is watching (standard error
is a terminal, or the code runs in a notebook's kernel) and only once the sweep has run
:data:`DELAY_SECONDS`, so quick sweeps stay silent; ``True`` shows it from the start wherever
standard error goes (a file or a pipe gets the finished bar once, at the end); ``False`` never.

In a terminal the bar is rich's ``Progress`` on standard error. In a notebook, rich's own
live display needs ipywidgets; the bar is drawn instead by rich into HTML and updated in
place through IPython's display handle, which every notebook front end supports, so no
widget library is needed.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator

#: An unasked-for bar appears once a sweep has run this long. [s]
DELAY_SECONDS = 2.0
#: A notebook's bar is redrawn at most this often. [s]
NOTEBOOK_REDRAW_SECONDS = 0.2


def sweep_progress(show: bool | None):
    """``progress(total)`` for :func:`planner.evaluate.sweep.run_sweep`: a context manager
    that yields ``advance(scenarios)``."""

    def progress(total: int) -> contextlib.AbstractContextManager[Callable[[int], None]]:
        return _bar(total, show)

    return progress


def interactive() -> bool:
    """Whether someone is watching: standard error is a terminal, or this is a notebook."""
    stream = sys.stderr
    try:
        tty = stream is not None and stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        tty = False
    return tty or in_notebook()


def in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (not in a terminal IPython)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


@contextlib.contextmanager
def _bar(total: int, show: bool | None) -> Iterator[Callable[[int], None]]:
    if show is False or (show is None and not interactive()):
        yield lambda done: None
        return
    bar = _NotebookBar(total) if in_notebook() else _TerminalBar(total)
    bar.start_after(0.0 if show else DELAY_SECONDS)
    try:
        yield bar.advance
    finally:
        bar.close()


def _columns():
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return (TextColumn("sweep"), BarColumn(), MofNCompleteColumn(), TextColumn("scenarios"),
            TimeElapsedColumn(), TimeRemainingColumn())


class _TerminalBar:
    """rich's Progress on standard error, started by a timer (a long first chunk still shows
    the bar on time)."""

    def __init__(self, total: int):
        from rich.console import Console
        from rich.progress import Progress

        # NO_COLOR (set and not empty, https://no-color.org) leaves the bar's colours out.
        self._progress = Progress(*_columns(), console=Console(
            stderr=True, no_color=bool(os.environ.get("NO_COLOR"))))
        self._task = self._progress.add_task("sweep", total=total)
        self._lock = threading.Lock()
        self._state = "waiting"
        self._timer: threading.Timer | None = None

    def start_after(self, seconds: float) -> None:
        if seconds <= 0:
            self._start()
            return
        self._timer = threading.Timer(seconds, self._start)
        self._timer.daemon = True
        self._timer.start()

    def _start(self) -> None:
        with self._lock:
            if self._state == "waiting":
                self._progress.start()
                self._state = "shown"

    def advance(self, done: int) -> None:
        self._progress.advance(self._task, done)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        with self._lock:
            if self._state == "shown":
                self._progress.stop()
            self._state = "closed"


class _NotebookBar:
    """The same bar drawn to HTML and shown through an updated display handle."""

    def __init__(self, total: int):
        from rich.progress import Progress

        self._progress = Progress(*_columns(), auto_refresh=False, disable=True)
        self._task = self._progress.add_task("sweep", total=total)
        self._handle = None
        self._shown_at = 0.0
        self._start = time.monotonic()
        self._delay = 0.0

    def start_after(self, seconds: float) -> None:
        self._delay = seconds
        if seconds <= 0:
            self._draw()

    def advance(self, done: int) -> None:
        self._progress.advance(self._task, done)
        now = time.monotonic()
        if now - self._start >= self._delay and now - self._shown_at >= NOTEBOOK_REDRAW_SECONDS:
            self._draw()

    def close(self) -> None:
        if self._handle is not None:
            self._draw()

    def _draw(self) -> None:
        bundle = render_bundle(self._progress)
        if self._handle is None:
            self._handle = open_display(bundle)
        else:
            self._handle.update(bundle, raw=True)
        self._shown_at = time.monotonic()


def render_bundle(progress) -> dict[str, str]:
    """The bar as a notebook output: HTML (rich's colours) and plain text."""
    from rich.console import Console

    console = Console(file=io.StringIO(), record=True, width=100, force_terminal=True,
                      force_jupyter=False, color_system="truecolor")
    console.print(progress.make_tasks_table(progress.tasks))
    text = console.export_text(clear=False)
    html = console.export_html(inline_styles=True, code_format=_HTML)
    return {"text/plain": text, "text/html": html}


_HTML = ('<pre style="white-space:pre;overflow-x:auto;line-height:normal;'
         'font-family:Menlo,\'DejaVu Sans Mono\',consolas,\'Courier New\',monospace">'
         '<code>{code}</code></pre>')


def open_display(bundle: dict[str, str]):
    """A notebook output showing ``bundle``, which ``update(bundle, raw=True)`` redraws."""
    from IPython.display import display

    return display(bundle, raw=True, display_id=True)
