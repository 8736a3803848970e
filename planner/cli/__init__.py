"""The command line (SPEC §3); being split into one module per command family."""

from planner.cli.catalog import main

__all__ = ["main"]
