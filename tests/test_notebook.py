"""examples/planner.ipynb runs from top to bottom, so that it never rots.

The notebook is executed by nbclient in a temporary folder (with a copy of examples/usage.yaml
beside it, as in examples/) on a kernel of the interpreter running the tests, declared in a
kernelspec of its own so that no other Python installed on the machine is picked up. Any
cell's error fails the test; then the outputs a reader relies on are checked.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "examples" / "planner.ipynb"
KERNEL = "planner-tests"


@pytest.fixture
def kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A kernelspec that starts ipykernel with this interpreter."""
    spec = tmp_path / "jupyter" / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "planner tests", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764547200")  # reports dated 2025-12-01
    return KERNEL


def _outputs(cell) -> dict[str, str]:
    """A code cell's outputs by MIME type (text joined; the last one of a type wins)."""
    out = {}
    for output in cell.get("outputs", []):
        for mime, data in output.get("data", {}).items():
            out[mime] = data if isinstance(data, str) else "".join(data)
        if output.get("output_type") == "stream":
            out["stream"] = out.get("stream", "") + output["text"]
    return out


def test_the_notebook_runs_and_shows_the_answer_charts_and_sweep(tmp_path: Path, kernel: str):
    work = tmp_path / "run"
    work.mkdir()
    shutil.copy(ROOT / "examples" / "usage.yaml", work / "usage.yaml")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, kernel_name=kernel, timeout=300, startup_timeout=120,
                                     resources={"metadata": {"path": str(work)}})
    client.execute()  # raises CellExecutionError on the first cell that fails

    cells = [c for c in nb.cells if c.cell_type == "code"]
    by_source = {c.source.splitlines()[0]: _outputs(c) for c in cells}
    assert "planner-plan" in by_source['import planner']["text/html"]
    shown = by_source["result = plan.evaluate()"]
    assert "Buy workstation:" in shown["text/html"] and "<svg" in shown["text/html"]
    for chart in ("cumulative", "cost_vs_usage", "breakdown", "tornado"):
        assert "image/png" in by_source[f"result.plot.{chart}()"], chart
    assert "planner-sweep" in by_source["frame = plan.sweep({"]["text/html"]
    assert "image/png" in by_source['ax = months.plot(marker="o", figsize=(6, 3),']
    assert "planner-diff" in by_source['dearer = plan.replace({"site.electricity_per_kwh": 0.32})'][
        "text/html"]
    assert (work / "usage.html").stat().st_size > 10_000
    # Nothing was written beside the notebook in the repository.
    assert not (ROOT / "examples" / "usage.html").exists()
