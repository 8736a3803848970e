"""Refresh the provider rows of the built-in catalog from a skypilot-catalog checkout and the
fetchers' files, then rebuild pricing/data through build_from_reference.py.

Usage, from the repository root::

    python pricing/tools/refresh.py REFERENCE_DIR --skypilot CHECKOUT \\
        [--cloud aws --cloud gcp ...] [--as-of YYYY-MM-DD] [--fetched aws.csv ...] \\
        [--no-build] [--out DIR]

1. For each cloud (default :data:`REFRESHED_CLOUDS`, the built-in providers SkyPilot covers) it
   reads the newest ``catalogs/v<N>/<cloud>/vms.csv`` of CHECKOUT (a clone of
   https://github.com/skypilot-org/skypilot-catalog) with ``planner catalog import``'s reader
   (:mod:`pricing.importer`: median zone, AWS Local/Wavelength zones left out, GCP machine-type
   and GPU rows added; accelerators without a catalog GPU left out and counted). ``as_of`` is
   the checkout's last commit date (``git log -1 --format=%cs``) unless ``--as-of`` says; the
   notes name the commit.
   A SkyPilot on-demand price more than ``--max-change`` (default 40%) away from the shipped
   row's is held back and reported: such a jump is more often a wrong SKU than a price.
2. The files of ``--fetched`` (written by ``python -m pricing.fetch.aws`` / ``.azure``, rows
   in the clouds schema) are laid over those rows, later files winning.
3. The result is written to ``pricing/tools/curated/refreshed_clouds.csv``.
4. Unless ``--no-build``, ``build_from_reference.py REFERENCE_DIR`` rebuilds gpus, clouds and
   systems; it lays ``refreshed_clouds.csv`` over the rows it builds per (id, region), keeping
   a built row's spot and reserved prices where the refresh has none (its notes say so).

Then run ``python -m pytest tests/test_freshness.py``: it fails on every shipped row still older
than the planner's staleness threshold without an ``estimate: not refreshed`` note. This
script is run by maintainers only; the planner never imports it.
"""

from __future__ import annotations

import argparse
import csv
import re
import subprocess
import sys
from pathlib import Path

from pricing import importer
from pricing.catalog import load_catalog, parse_as_of
from pricing.cloud_merge import overlay_clouds

REFRESHED_CLOUDS = ("aws", "azure", "gcp", "hyperstack", "lambda", "nebius", "oci", "runpod",
                    "vast")
"""Providers of the built-in catalog that skypilot-catalog covers."""
CURATED = Path(__file__).resolve().parent / "curated"
REFRESHED = CURATED / "refreshed_clouds.csv"


def newest_catalog(checkout: Path, cloud: str) -> Path | None:
    """``catalogs/v<N>/<cloud>/vms.csv`` of the highest N in ``checkout``, else None."""
    found = []
    for path in (checkout / "catalogs").glob(f"v*/{cloud}/vms.csv"):
        match = re.fullmatch(r"v(\d+)", path.parent.parent.name)
        if match:
            found.append((int(match.group(1)), path))
    return max(found)[1] if found else None


def commit_of(checkout: Path) -> tuple[str, str] | None:
    """(short hash, commit date YYYY-MM-DD) of ``checkout``'s HEAD, None if it is no git clone."""
    try:
        out = subprocess.run(["git", "-C", str(checkout), "log", "-1", "--format=%h %cs"],
                             capture_output=True, text=True, check=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    parts = out.split()
    return (parts[0], parts[1]) if len(parts) == 2 else None


def skypilot_rows(checkout: Path, clouds: list[str], as_of: str, commit: str | None,
                  catalog) -> tuple[list[dict], list[str]]:
    """Completed clouds rows of the clouds' newest SkyPilot files, and a report line per cloud."""
    gpus = {r["id"]: r for r in catalog.rows("gpus")}
    rows, report = [], []
    for cloud in clouds:
        path = newest_catalog(checkout, cloud)
        if path is None:
            report.append(f"{cloud}: no catalogs/v*/{cloud}/vms.csv in the checkout")
            continue
        relative = path.relative_to(checkout).as_posix()
        result = importer.read_price_list(path.read_text(encoding="utf-8"), relative,
                                          gpus=gpus, provider=cloud, as_of=as_of,
                                          skip_unknown=True)
        origin = f"skypilot-catalog {relative}" + (f" at commit {commit}" if commit else "")
        for row in result.rows:
            row["notes"] = "; ".join(n for n in (origin, row["notes"]) if n)
        rows += importer.complete(result.rows, catalog)
        left = ", ".join(f"{k} ({n})" for k, n in result.skipped.items())
        report.append(f"{cloud}: {len(result.rows)} rows from {relative}"
                      + (f"; left out: {left}" if left else ""))
    return rows, report


MAX_CHANGE = 0.4
"""A refreshed on-demand price further than this share from the shipped row's is held back."""


def held_back(rows: list[dict], catalog, max_change: float) -> tuple[list[dict], list[str]]:
    """``rows`` without those whose on-demand price moved more than ``max_change`` (a share)
    from the shipped row of the same id and region, and a line for each one held back.

    A jump that large is more often a wrong SKU in the source than a price change (SkyPilot's
    GCP H100 x8 GPU row in us-central1 gives a3-highgpu-8g 43.07/h against Google's 88.49;
    pricing/CATALOG.md): the shipped row stays until a maintainer checks it.
    """
    shipped = {(r["id"].lower(), str(r.get("region") or "*").lower()): r
               for r in catalog.rows("clouds")}
    kept, report = [], []
    for row in rows:
        old = shipped.get((row["id"].lower(), str(row.get("region") or "*").lower()))
        new, before = row.get("price_per_hour"), (old or {}).get("price_per_hour")
        if old is not None and old.get("currency") == row.get("currency") and new and before:
            change = float(new) / float(before) - 1
            if abs(change) > max_change:
                report.append(f"held back {row['id']} {row['region']}: {float(before):g} -> "
                              f"{float(new):g} ({change:+.0%}); check it, or pass a larger "
                              "--max-change")
                continue
        kept.append(row)
    return kept, report


def fetched_rows(files: list[Path]) -> list[dict]:
    """Rows of the fetchers' clouds files, as text cells (empty = none)."""
    rows: list[dict] = []
    for file in files:
        load_catalog([file])  # rejects a malformed file before anything is written
        with file.open(newline="", encoding="utf-8") as handle:
            rows = overlay_clouds(rows, list(csv.DictReader(handle)))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference", type=Path, help="folder of the reference extract")
    parser.add_argument("--skypilot", type=Path, required=True,
                        help="a checkout of github.com/skypilot-org/skypilot-catalog")
    parser.add_argument("--cloud", action="append", choices=sorted(importer.SKYPILOT_CLOUDS),
                        help=f"cloud to refresh (default: {', '.join(REFRESHED_CLOUDS)})")
    parser.add_argument("--as-of", help="date of the snapshot (default: its last commit's)")
    parser.add_argument("--fetched", type=Path, action="append", default=[],
                        help="a clouds file written by pricing/fetch (laid over, in order)")
    parser.add_argument("--refreshed", type=Path, default=REFRESHED, help=argparse.SUPPRESS)
    parser.add_argument("--max-change", type=float, default=MAX_CHANGE,
                        help="hold back a SkyPilot on-demand price that moved more than this "
                        f"share from the shipped one (default {MAX_CHANGE})")
    parser.add_argument("--no-build", action="store_true",
                        help="write refreshed_clouds.csv only, do not rebuild pricing/data")
    parser.add_argument("--out", type=Path, help="data folder of the rebuild (default: "
                        "pricing/data)")
    args = parser.parse_args(argv)
    commit = commit_of(args.skypilot)
    as_of = args.as_of or (commit[1] if commit else None)
    if as_of is None:
        parser.error("give --as-of: the checkout is no git clone, so its date is unknown")
    parse_as_of(as_of)
    catalog = load_catalog()
    rows, report = skypilot_rows(args.skypilot, args.cloud or list(REFRESHED_CLOUDS), as_of,
                                 commit[0] if commit else None, catalog)
    rows, held = held_back(rows, catalog, args.max_change)
    report += held
    rows = overlay_clouds(rows, fetched_rows(args.fetched))
    importer.write_catalog(args.refreshed, importer.to_csv(rows),
                           check=lambda path: load_catalog([path]))
    print("\n".join(report))
    print(f"{args.refreshed.name}: {len(rows)} rows")
    if args.no_build:
        return 0
    build = [sys.executable, str(Path(__file__).with_name("build_from_reference.py")),
             str(args.reference)] + (["--out", str(args.out)] if args.out else [])
    return subprocess.run(build, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
