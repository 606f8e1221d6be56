"""Fixtures for the security suite (issue 11): limits on, counts empty for each test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import caches


@pytest.fixture
def limits_on(settings: Any) -> Iterator[None]:
    """Rate limits as in production (test runs start with them off), counted afresh."""
    settings.RATE_LIMITS_ON = True
    settings.RATELIMIT_ENABLE = True
    caches["default"].clear()
    yield
    caches["default"].clear()


from tests.support.fixtures import fixed_deal_secret, fresh_caches  # noqa: E402, F401
