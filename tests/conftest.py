"""Shared pytest set-up: the ``--update-golden`` option of the golden-file tests."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden", action="store_true", default=False,
        help="rewrite tests/golden/*.json from the current output instead of comparing with it")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """Whether golden files are rewritten (``pytest --update-golden``) rather than compared."""
    return bool(request.config.getoption("--update-golden"))
