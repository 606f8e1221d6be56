"""Fixtures for the web app's tests: see tests.support.fixtures (a fixed deal secret,
every cache emptied around each test, two anonymous players)."""

from __future__ import annotations

from tests.support.fixtures import *  # noqa: F403
