"""The installed package carries its data: catalog files, templates, nothing from the tree."""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(out), str(ROOT)], check=False, capture_output=True, text=True)
    assert done.returncode == 0, f"building the wheel failed: {done.stderr.strip()[-500:]}"
    return zipfile.ZipFile(next(out.glob("*.whl")))


def test_the_wheel_contains_the_catalog_and_the_templates(wheel):
    names = set(wheel.namelist())
    for data in sorted((ROOT / "pricing" / "data").glob("*.csv")):
        assert f"pricing/data/{data.name}" in names
    for template in sorted((ROOT / "templates").glob("*.*")):
        if template.suffix in (".html", ".css"):
            assert f"planner/templates/{template.name}" in names
    assert not any(name.startswith("tests/") for name in names)


def test_the_wheel_contains_every_package_the_tree_has(wheel):
    """Every package of planner's stages and pricing's fetchers (the README runs
    `python -m pricing.fetch.azure`), the typing marker, and the license named by the metadata."""
    names = set(wheel.namelist())
    for init in sorted([*ROOT.glob("planner/**/__init__.py"), *ROOT.glob("pricing/**/__init__.py")]):
        assert init.relative_to(ROOT).as_posix() in names
    assert "pricing/fetch/azure.py" in names and "pricing/fetch/aws.py" in names
    assert "planner/py.typed" in names and "planner/__main__.py" in names
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = wheel.read(metadata).decode()
    assert "License-Expression: Apache-2.0" in text
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)


def test_templates_load_through_jinja2s_package_loader(wheel, tmp_path):
    """Installed, the templates are the package planner.templates' files, read by jinja2's own
    package loader (zip-safe, no path arithmetic). Checked on the wheel's own files, in a fresh
    interpreter that does not see the source tree (where templates/ is no package)."""
    wheel.extractall(tmp_path / "site")
    code = ("from planner.render.html import environment\n"
            "env = environment()\n"
            "print(type(env.loader).__name__, sorted(env.list_templates()))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(tmp_path / "site")})
    assert done.returncode == 0, done.stderr[-800:]
    loader, names = done.stdout.split(" ", 1)
    assert loader == "PackageLoader"
    for name in ("report.html", "diff.html", "page.html", "report.css"):
        assert repr(name) in names
