"""The end of a race reaches every socket: both seats get the final ``state`` and
``finished``, whichever seat made the last change and however it was made.

The bench once saw a seat that never heard of the end although the race had finished
in the database (its last state was its own offer to stop; the other seat's offer,
which ended the race, reached it only as a group message). These tests drive races to
their end over Channels' WebsocketCommunicator, through config.asgi, the real database
and the rules engine, with the last change from either seat; one replays the
interleaving where that group message's read comes back a version behind.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from test_race_socket import move, new_race, ready_and_start, start_from

from games.models import Race
from games.races import consumer as race_consumer
from games.races import records as race_records
from tests.support.positions import near_the_end
from tests.support.sockets import Player, Socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


@pytest.fixture(autouse=True)
def quick_countdown(settings: Any) -> None:
    settings.RACE_TICK_SECONDS = 0.25
    race_records.states.clear()


def finishing_line(seat: int) -> list[tuple[str, str]]:
    """The eight moves that take ``seat`` home from near_the_end() (the race ends on the last)."""
    clubs, diamonds, hearts, spades = (f"f{n + seat - 1}" for n in (1, 3, 5, 7))
    p = f"p{seat}"
    return [
        (f"{p}.t3", clubs),
        (f"{p}.t2", clubs),
        (f"{p}.t1", diamonds),
        (f"{p}.t1", clubs),
        (f"{p}.stock", f"{p}.waste"),
        (f"{p}.waste", diamonds),
        (f"{p}.waste", hearts),
        (f"{p}.waste", spades),
    ]


async def started_race() -> tuple[int, Socket, Socket]:
    ana, ben, race = await new_race()
    race_id = race["id"]
    await start_from(race_id, near_the_end())
    one, two = await ana.connect(race_id), await ben.connect(race_id)
    await ready_and_start(one, two, players=(one, two))
    return race_id, one, two


async def assert_both_saw_the_end(race_id: int, *sockets: Socket) -> None:
    """Each socket got ``finished`` and a final ``state`` at the race's last version."""
    race = await sync_to_async(Race.objects.get)(pk=race_id)
    assert race.status == Race.Status.FINISHED
    for socket in sockets:
        finished = await socket.expect("finished")
        assert finished["version"] == race.version, socket.who
        assert finished["result"] == race.result, socket.who
        final = await socket.state_at(race.version)
        assert final["status"] == "finished", socket.who
        assert socket.latest is not None and socket.latest["version"] == race.version, socket.who


async def offer(socket: Socket, message_id: str) -> dict[str, Any]:
    await socket.send({"type": "offer_end", "id": message_id})
    return await socket.first(lambda m: m["type"] in ("ack", "error") and m.get("id") == message_id)


async def close_all(*sockets: Socket) -> None:
    for socket in sockets:
        await socket.close()


@pytest.mark.parametrize("last", [1, 2])
async def test_when_either_seat_ends_the_race_by_a_move_both_seats_see_the_end(last: int) -> None:
    race_id, one, two = await started_race()
    mover = (one, two)[last - 1]
    for n, (source, target) in enumerate(finishing_line(last)):
        answer = await move(mover, f"m{n}", source, target)
        assert answer["type"] == "ack", answer
    await assert_both_saw_the_end(race_id, one, two)
    result = (await sync_to_async(Race.objects.get)(pk=race_id)).result
    assert result["winner"] == last and result["reason"] == "finished"
    await close_all(one, two)


@pytest.mark.parametrize("last", [1, 2])
async def test_when_either_seat_agrees_last_to_stop_both_seats_see_the_end(last: int) -> None:
    """The seat that offered first has its own offer's state as its latest; only the group
    message of the other's offer tells it of the end."""
    race_id, one, two = await started_race()
    first, second = (two, one) if last == 1 else (one, two)
    assert (await offer(first, "stop"))["type"] == "ack"
    assert (await offer(second, "stop"))["type"] == "ack"
    await assert_both_saw_the_end(race_id, one, two)
    await close_all(one, two)


@pytest.mark.slow
async def test_when_both_seats_agree_to_stop_at_once_both_see_the_end() -> None:
    for _ in range(3):
        race_id, one, two = await started_race()
        answers = await asyncio.gather(offer(one, "stop"), offer(two, "stop"))
        assert [a["type"] for a in answers] == ["ack", "ack"], answers
        await assert_both_saw_the_end(race_id, one, two)
        await close_all(one, two)


async def test_a_read_a_version_behind_the_group_message_does_not_lose_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ana offers first; Ben's offer ends the race. The first read Ana's socket makes for
    that group message comes back at the version before it (a reader behind the writer):
    her socket must read again rather than take the end as already sent."""
    race_id, one, two = await started_race()
    assert (await offer(one, "stop"))["type"] == "ack"
    await one.settle()

    real = race_consumer._read
    behind: list[int] = []

    def one_read_behind(actor: Any, race: int, token: str | None) -> dict[str, Any]:
        state = real(actor, race, token)
        if not behind and state["status"] == "finished":
            behind.append(state["version"])
            return {**state, "version": state["version"] - 1, "status": "playing", "result": None}
        return state

    monkeypatch.setattr(race_consumer, "_read", one_read_behind)
    assert (await offer(two, "stop"))["type"] == "ack"
    await assert_both_saw_the_end(race_id, one, two)
    assert behind, "the group message was never read: the interleaving did not happen"
    await close_all(one, two)


@pytest.mark.slow
async def test_a_spectator_sees_the_end_too() -> None:
    ana, ben, race = await new_race()
    race_id = race["id"]
    await start_from(race_id, near_the_end())
    one, two = await ana.connect(race_id), await ben.connect(race_id)
    watcher = await Player("Cy").connect(race_id, token=race["watch_url"].split("/")[-2])
    await ready_and_start(one, two, watcher, players=(one, two))
    for n, (source, target) in enumerate(finishing_line(2)):
        assert (await move(two, f"m{n}", source, target))["type"] == "ack"
    await assert_both_saw_the_end(race_id, one, two, watcher)
    await close_all(one, two, watcher)
