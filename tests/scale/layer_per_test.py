"""A pytest plugin for running the web suites on PostgreSQL and the Redis channel layer.

Loaded with ``-p tests.scale.layer_per_test`` by ``make test-scale``; on SQLite and the
in-memory layer it changes nothing.

- Channels keeps one channel-layer object per process. RedisChannelLayer binds its
  receive lock to the event loop that first receives, while pytest-asyncio gives every
  test its own loop, so a socket one test leaves behind breaks the next. A Daphne
  process has a single loop and never meets this. Each test gets a fresh layer object
  here, and what its sockets left running is ended inside its own loop (Redis itself
  is never flushed: other runs may share it).
- Tests reach the database from worker threads whose connections outlive the tests,
  and PostgreSQL will not drop a database that has sessions. They are ended before
  pytest-django drops its test database, so the next run starts clean.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from channels.layers import channel_layers


@pytest.fixture(autouse=True)
async def fresh_channel_layer() -> AsyncIterator[None]:
    channel_layers.backends.clear()
    yield
    # Consumers a test left running (a socket refused for its Origin is never closed
    # by the test) are ended here, in the test's own loop and with a time limit,
    # rather than by pytest-asyncio closing the loop under them, which waits forever.
    await asyncio.sleep(0.2)
    left = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in left:
        task.cancel()
    if left:
        await asyncio.wait(left, timeout=10)
    channel_layers.backends.clear()


@pytest.fixture(scope="session", autouse=True)
def end_stray_database_sessions(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
        connection.close()
