"""Fetchers: standalone scripts that download a provider's public price list and write it as a
catalog file of the ``clouds`` table, from the repository root::

    python -m pricing.fetch.azure -o azure.csv
    python -m pricing.fetch.aws --region us-east-1 -o aws.csv

Each fetcher is a pure ``parse(payload) -> list[dict]`` (rows in the clouds schema, tested on
recorded samples in ``tests/samples``) and a thin ``download()``, the only code that touches the
network. Rows carry ``as_of`` = the day of the download and ``source`` = the API's URL; the cells
an API does not give are filled from the built-in catalog (:func:`pricing.importer.complete`).
The planner never imports this package: it needs the network only when run by a maintainer.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

USER_AGENT = "gpu-planner-price-fetcher/0.1 (python-urllib)"
TIMEOUT_SECONDS = 120


def get_json(url: str, timeout: float = TIMEOUT_SECONDS, **json_options: Any) -> Any:
    """The JSON document at ``url`` (GET, with a User-Agent and a timeout [s])."""
    request = urllib.request.Request(
        url, headers={"User-Agent": USER_AGENT, "Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.load(response, **json_options)


def arguments(description: str, default_output: str) -> argparse.ArgumentParser:
    """The options every fetcher shares: -o, --save and --from."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("-o", "--output", default=default_output,
                        help=f"catalog CSV file to write ('-': standard output; default "
                             f"{default_output})")
    parser.add_argument("--save", metavar="RAW.json", type=Path,
                        help="also save the downloaded payload (to record a test sample)")
    parser.add_argument("--from", dest="source_file", metavar="RAW.json", type=Path,
                        help="parse a payload saved with --save instead of downloading")
    return parser


def run(args: argparse.Namespace, download: Callable[[], Any],
        parse: Callable[[Any], list[dict[str, Any]]]) -> int:
    """Download (or read ``--from``), parse, complete from the catalog and write; the exit
    status (1 with a message, no traceback, when the network or the payload fails)."""
    try:
        if args.source_file is not None:
            payload = json.loads(args.source_file.read_text(encoding="utf-8"))
        else:
            payload = download()
        if args.save is not None:
            args.save.write_text(json.dumps(payload), encoding="utf-8")
        rows = parse(payload)
    except (OSError, ValueError) as err:  # the network, a file, JSON (URLError is an OSError)
        print(f"error: {err}", file=sys.stderr)
        return 1
    if not rows:
        print("error: the price list has no GPU instance with an on-demand price",
              file=sys.stderr)
        return 1
    try:
        write(rows, args.output)
    except OSError as err:
        print(f"error: cannot write {args.output}: {err}", file=sys.stderr)
        return 1
    if args.output != "-":
        print(f"wrote {args.output}: {len(rows)} rows, "
              f"{len({r['id'] for r in rows})} instance types")
    return 0


def write(rows: list[dict[str, Any]], output: str) -> None:
    """Fill ``rows`` from the built-in catalog and write them, atomically, checking that the
    written file loads as a catalog file."""
    from pricing import importer
    from pricing.catalog import load_catalog

    text = importer.to_csv(importer.complete(rows, load_catalog()))
    if output == "-":
        sys.stdout.write(text)
        return
    importer.write_catalog(output, text, check=lambda path: load_catalog([path]))
