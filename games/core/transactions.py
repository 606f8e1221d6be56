"""Writing and announcing: one write transaction at a time per SQLite process, and
channel-layer messages sent only once the transaction that made them has committed.

Every change of a game or race goes ``with writing(): ...`` and calls ``after_commit``
for its announcement, so no socket hears of a version the database does not hold yet.
Knows the database connection and the channel layer, nothing of games.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import connection, transaction

logger = logging.getLogger(__name__)

_sqlite_writers = threading.Lock()


@contextmanager
def writing() -> Iterator[None]:
    """A write transaction (``transaction.atomic``); on SQLite, one writer at a time per process.

    SQLite has a single write lock. A thread that finds it taken waits in SQLite's busy
    handler, which sleeps 1, 2, 5, 10 ... up to 100 ms between tries, so under load a
    move could wait many times longer than the write before it took. Queued on a lock
    here instead, the next writer starts the moment the last one commits. Other
    databases lock rows, so there writers go ahead side by side.
    """
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        with transaction.atomic():
            yield
        return
    with _sqlite_writers, transaction.atomic():
        yield


def after_commit(action: Callable[[], None]) -> None:
    """Run ``action`` once the current transaction commits (never if it rolls back).

    A failing action is logged, not raised: the change is committed either way.
    """
    transaction.on_commit(action, robust=True)


def send_after_commit(group: str, message: dict[str, Any]) -> None:
    """``send_to_group(group, message)`` once the current transaction commits."""
    after_commit(lambda: send_to_group(group, message))


def send_to_group(group: str, message: dict[str, Any]) -> None:
    """``group_send`` on the channel layer, without holding up the caller.

    From a worker thread of the server's event loop (a socket's or a view's), the send
    is scheduled on that loop and the thread goes on at once: it is free for the next
    change, and the message leaves as soon as the loop turns. Anywhere else (the shell,
    a command, a sync test) it is sent and waited for.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop()
    if loop is None:
        async_to_sync(layer.group_send)(group, message)
        return
    sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
    sent.add_done_callback(_log_failed_send)


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop whose worker thread this is, if any (asgiref records it)."""
    local = SyncToAsync.threadlocal
    if getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    loop: asyncio.AbstractEventLoop | None = getattr(local, "main_event_loop", None)
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return loop
    return None  # called on the loop itself: not a worker thread


def _log_failed_send(sent: Future[None]) -> None:
    if not sent.cancelled() and sent.exception() is not None:
        logger.error("a group message was not sent", exc_info=sent.exception())
