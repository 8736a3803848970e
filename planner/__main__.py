"""``python -m planner``: the command line, as the ``planner`` command."""

from planner.cli import main

main()
