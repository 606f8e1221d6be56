"""Fixtures every web-facing suite uses: a fixed deal secret, empty caches, two players.

Import them into a conftest: ``from tests.support.fixtures import *  # noqa: F403``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games.core.actors import Actor
from games.core.cache import clear_all

DEAL_SECRET = "deal-secret-for-tests"

__all__ = ["ana", "ben", "fixed_deal_secret", "fresh_caches"]


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    """Every versioned cache of the process (solo positions, race states) starts empty,
    so no test sees another's positions (databases reuse ids)."""
    clear_all()
    yield
    clear_all()


@pytest.fixture(autouse=True)
def fixed_deal_secret(settings: Any) -> None:
    """Deal seeds depend on DEAL_SECRET: fixed, the same deal number deals the same cards
    in every run."""
    settings.DEAL_SECRET = DEAL_SECRET


@pytest.fixture
def ana() -> Actor:
    return Actor(token="ana-anonymous-token")


@pytest.fixture
def ben() -> Actor:
    return Actor(token="ben-anonymous-token")
