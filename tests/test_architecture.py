"""The stages import only the stages before them (docs/architecture.md), as import-linter reads
the contracts of pyproject.toml; and the package runs as ``python -m planner``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_are_kept(monkeypatch):
    pytest.importorskip("importlinter")
    from importlinter.cli import lint_imports

    # lint_imports reads pyproject.toml from the working directory; 0: every contract kept.
    monkeypatch.chdir(ROOT)
    assert lint_imports(no_cache=True) == 0


def test_a_broken_layer_is_caught(tmp_path, monkeypatch):
    """The check can fail: a copy of the layers contract with the engine above evaluate (an
    order the tree does not keep) is broken."""
    pytest.importorskip("importlinter")
    from importlinter.cli import lint_imports

    config = tmp_path / "contracts.ini"
    config.write_text("[importlinter]\nroot_package = planner\n\n"
                      "[importlinter:contract:upside-down]\nname = upside down\ntype = layers\n"
                      "layers =\n    planner.engine\n    planner.evaluate\n")
    monkeypatch.chdir(ROOT)
    assert lint_imports(config_filename=str(config), no_cache=True) == 1


def test_python_m_planner_runs_the_command_line():
    run = subprocess.run([sys.executable, "-m", "planner", "--help"], capture_output=True,
                         text=True, check=False, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert "report" in run.stdout and "catalog" in run.stdout


_IMPORT_EVERYTHING = """
import importlib, os, pkgutil, sys
import planner, pricing
read = []
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, os.PathLike)):
        path = os.fspath(args[0])
        if not path.endswith((".py", ".pyc", ".pth", ".so")) and "__pycache__" not in path:
            read.append(path)
modules = [m.name for pkg in (planner, pricing)
           for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")
           if not m.name.endswith("__main__")]
sys.addaudithook(hook)
for name in modules:
    importlib.import_module(name)
ours = [p for p in read if any(os.path.abspath(p).startswith(os.path.join(sys.argv[1], d) + os.sep)
                          for d in ("planner", "pricing", "templates"))]
print(len(modules), ours)
"""


def test_importing_any_module_reads_no_file_of_the_project():
    """No I/O at import time: the catalog and the templates are read on first use."""
    run = subprocess.run([sys.executable, "-c", _IMPORT_EVERYTHING, str(ROOT)],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    count, files = run.stdout.split(" ", 1)
    assert int(count) > 40
    assert files.strip() == "[]"
