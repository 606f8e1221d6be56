"""Fixtures for the web app's tests: players, deals and games through the real services.

Deal seeds depend on DEAL_SECRET, so it is fixed here: the same deal number deals the
same cards in every run. The replay cache is emptied so no test sees another's lines.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games import services
from games.actors import Actor


@pytest.fixture(autouse=True)
def fixed_deal_secret(settings: Any) -> Iterator[None]:
    settings.DEAL_SECRET = "deal-secret-for-tests"
    services.line_cache.clear()
    yield
    services.line_cache.clear()


@pytest.fixture
def ana() -> Actor:
    return Actor(token="ana-anonymous-token")


@pytest.fixture
def ben() -> Actor:
    return Actor(token="ben-anonymous-token")
