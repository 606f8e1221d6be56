"""Fixtures of the computer-opponent, seek and rating tests: those of every web suite
(tests.support.fixtures), short countdown ticks and think times, no rate limits."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.fixtures import *  # noqa: F403


@pytest.fixture(autouse=True)
def quick_races(settings: Any) -> None:
    settings.RACE_TICK_SECONDS = 0.2
    settings.BOT_THINK_SCALE = 0.01
    settings.RATE_LIMITS_ON = False


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: takes seconds; the quick loop leaves it out (-m 'not slow')")
