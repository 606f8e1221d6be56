"""A race socket told of a change this process committed renders its own seat's view
from the committed snapshot, on the loop, without reading the race; what it shows is
what a read would show."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from test_race_finish import close_all, started_race
from test_race_socket import move, true_state

from games.core import fastpath
from games.models import RaceMove
from games.races import consumer as race_consumer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


@pytest.fixture(autouse=True)
def quick_countdown(settings: Any) -> None:
    settings.RACE_TICK_SECONDS = 0.25


async def test_the_other_seat_sees_a_move_without_reading_the_race(monkeypatch: pytest.MonkeyPatch) -> None:
    race_id, one, two = await started_race()
    await two.settle()
    reads: list[int] = []
    real = race_consumer._read

    def counted(actor: Any, race: int, token: str | None) -> dict[str, Any]:
        reads.append(race)
        return real(actor, race, token)

    monkeypatch.setattr(race_consumer, "_read", counted)
    answer = await move(one, "m0", "p1.t3", "f1")
    assert answer["type"] == "ack", answer
    seen = await two.state_at(answer["version"])
    assert reads == []
    assert seen["seat"] == 2
    truth = await sync_to_async(true_state)(race_id, answer["version"])
    assert seen["state"] == truth.view(2)
    assert [(p["seat"], p["connected"]) for p in seen["players"]] == [(1, True), (2, True)]
    # A read of the race by that seat's socket gives the same message.
    await two.send({"type": "sync"})
    assert await two.state_at(answer["version"]) == seen
    assert reads == [race_id]
    await close_all(one, two)


@sync_to_async
def race_log(race_id: int) -> list[tuple[int, int, str | None, int]]:
    return [
        (row.seq, row.seat, row.client_id, row.version)
        for row in RaceMove.objects.filter(race_id=race_id).order_by("seq")
    ]


async def test_a_race_move_goes_the_fast_way_once_and_is_in_the_log() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("race moves are written fast on SQLite only")
    race_id, one, two = await started_race()
    # Play is open once a socket has committed it (each asks after its countdown).
    while one.latest is None or one.latest["status"] != "playing":
        await one.state_at((one.latest or {"version": -1})["version"] + 1)
    made = fastpath.store()
    assert made is not None
    before = made.commits  # type: ignore[attr-defined]
    answer = await move(one, "m0", "p1.t3", "f1")
    assert answer["type"] == "ack", answer
    version = answer["version"]
    assert made.commits == before + 1  # type: ignore[attr-defined]
    assert (await race_log(race_id))[-1] == (1, 1, "m0", version)
    # The same id again: applied once, acknowledged with the same version.
    again = await move(one, "m0", "p1.t3", "f1")
    assert (again["type"], again["version"]) == ("ack", version)
    assert made.commits == before + 1  # type: ignore[attr-defined]
    assert len(await race_log(race_id)) == 1
    # The other seat's piles are refused the locked way, with its exact error.
    refused = await move(one, "m1", "p2.t3", "f2")
    assert (refused["type"], refused["code"]) == ("error", "not_your_pile")
    assert (await two.state_at(version))["version"] == version
    await close_all(one, two)
