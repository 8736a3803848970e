"""Draw the tutorial's pictures (docs/tutorial.md) from the notebook's own outputs.

Executes examples/planner.ipynb in a temporary folder (nbclient, a kernel of this interpreter,
as tests/test_notebook.py does), then writes into this folder:

- the HTML views a notebook shows (the plan, the result, the sweep's summary, the diff),
  printed by WeasyPrint as a browser would lay them out and cropped to their content;
- the charts the notebook drew (``result.plot…`` and the sweep's pandas plot), scaled down.

Run from anywhere, with the test extra installed:  python docs/tutorial/make_pictures.py
"""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nbclient
import nbformat
from PIL import Image

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
#: Pictures wider than this are scaled down [pixels]; each stays well under 150 KB.
WIDTH_PX = 900
#: The first line of each notebook cell whose output becomes a picture, and its file.
HTML_CELLS = {
    "import planner": "plan.png",
    "result = plan.evaluate()": "result.png",
    "frame = plan.sweep({": "sweep.png",
    'dearer = plan.replace({"site.electricity_per_kwh": 0.32})': "diff.png",
}
PNG_CELLS = {
    "result.plot.cumulative()": "cumulative.png",
    "result.plot.cost_vs_usage()": "cost-vs-usage.png",
    "result.plot.breakdown()": "breakdown.png",
    'ax = months.plot(marker="o", figsize=(6, 3),': "sweep-break-even.png",
}
PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>
@page {{ size: 250mm 600mm; margin: 3mm }} body {{ margin: 0; background: white }}
</style></head><body>{body}</body></html>"""


def executed_notebook(work: Path) -> nbformat.NotebookNode:
    spec = work / "jupyter" / "kernels" / "planner-pictures"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "planner", "language": "python"}))
    os.environ["JUPYTER_PATH"] = str(work / "jupyter")
    shutil.copy(ROOT / "examples" / "usage.yaml", work / "usage.yaml")
    nb = nbformat.read(ROOT / "examples" / "planner.ipynb", as_version=4)
    nbclient.NotebookClient(nb, kernel_name="planner-pictures", timeout=300,
                            resources={"metadata": {"path": str(work)}}).execute()
    return nb


def outputs(nb: nbformat.NotebookNode) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        data: dict[str, str] = {}
        for output in cell.outputs:
            for mime, value in output.get("data", {}).items():
                data[mime] = value if isinstance(value, str) else "".join(value)
        out[cell.source.splitlines()[0]] = data
    return out


def cropped(image: Image.Image, pad: int = 12) -> Image.Image:
    """``image`` cut to its non-white content and a white margin of ``pad`` pixels."""
    gray = image.convert("L").point(lambda v: 255 if v < 250 else 0)
    left, top, right, bottom = gray.getbbox()
    return image.crop((max(left - pad, 0), max(top - pad, 0), min(right + pad, image.width),
                       min(bottom + pad, image.height)))


def save(image: Image.Image, name: str) -> None:
    if image.width > WIDTH_PX:
        image = image.resize((WIDTH_PX, round(image.height * WIDTH_PX / image.width)),
                             Image.LANCZOS)
    path = HERE / name
    image.convert("RGB").quantize(colors=128).save(path, optimize=True)
    print(f"{path.relative_to(ROOT)}: {image.width}×{image.height}, "
          f"{path.stat().st_size // 1024} KB")


def html_picture(fragment: str, work: Path, name: str) -> Image.Image:
    from weasyprint import HTML

    pdf = work / f"{name}.pdf"
    HTML(string=PAGE.format(body=fragment)).write_pdf(pdf)
    subprocess.run(["pdftoppm", "-r", "130", "-png", "-singlefile", "-f", "1", "-l", "1",
                    str(pdf), str(work / name)], check=True)
    with Image.open(work / f"{name}.png") as image:
        return cropped(image.copy())


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        shown = outputs(executed_notebook(work))
        for cell, name in HTML_CELLS.items():
            save(html_picture(shown[cell]["text/html"], work, name.removesuffix(".png")), name)
        for cell, name in PNG_CELLS.items():
            with Image.open(io.BytesIO(base64.b64decode(shown[cell]["image/png"]))) as image:
                save(image.copy(), name)


if __name__ == "__main__":
    main()
