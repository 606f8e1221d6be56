"""Fixtures for the web app's tests: see tests.support.fixtures (a fixed deal secret,
every cache emptied around each test, two anonymous players)."""

from __future__ import annotations

import pytest

from tests.support.fixtures import *  # noqa: F403


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: takes seconds; the quick loop leaves it out (-m 'not slow')")
