"""A race against the computer over the real socket stack (Channels' communicator
through config.asgi), with the bot's thinking in the real worker pool: what reaches the
player never shows one of the bot's hidden cards, and the bot plays only after the start."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from games.models import Race, RaceMove
from games.races import bot, records
from solitaire.cards import FACE_DOWN, card_text
from tests.support.sockets import Player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


@pytest.fixture(autouse=True)
async def no_bot_left() -> AsyncIterator[None]:
    yield
    await bot.stop_all()


def true_piles(race_id: int, version: int) -> dict[str, Any]:
    """Every pile of the race at ``version``, from its log: (text, face down) per card."""
    race = Race.objects.get(pk=race_id)
    moves = RaceMove.objects.filter(race=race, version__lte=version).order_by("seq")
    state = records.replay(race, (m.move for m in moves))
    return {
        pile_id: [(card_text(c & ~FACE_DOWN & 0x7F), bool(c & FACE_DOWN)) for c in state.piles[i]]
        for i, pile_id in enumerate(state.rules.pile_ids)
    }


def check_nothing_hidden_shows(message: dict[str, Any], truth: dict[str, Any]) -> None:
    piles = message["state"]["piles"]
    for pile_id, cards in truth.items():
        shown = piles[pile_id]
        if pile_id.endswith("stock"):
            assert shown == len(cards), pile_id  # a stock is only a count
            continue
        assert len(shown) == len(cards), pile_id
        for seen, (text, face_down) in zip(shown, cards, strict=True):
            if face_down:
                assert seen is None, f"{pile_id} shows a face-down {text}"
            else:
                assert seen is not None and seen.split(":")[0] == text, pile_id


async def test_a_player_races_the_computer_and_never_sees_its_hidden_cards() -> None:
    ana = Player("Ana")
    created = await ana.post("/api/races", {"name": "Ana", "opponent": "computer", "level": "sharp"})
    assert created.status_code == 201, created.content
    race = created.json()
    assert [p["name"] for p in race["players"]] == ["Ana", "Computer (Sharp)"]
    assert race["players"][1]["ready"] and race["seat"] == 1
    socket = await ana.connect(race["id"])
    await socket.expect("state")
    # Before the start, the bot has nothing to play: no move in the log.
    assert await sync_to_async(RaceMove.objects.filter(race_id=race["id"]).count)() == 0
    await socket.send({"type": "ready", "id": "r"})
    await socket.expect("ack", id="r")
    start = await socket.expect("start")
    assert start["starts_at"]
    bot_moves = 0
    checked = 0
    while bot_moves < 6:
        message = await socket.first(lambda m: m["type"] == "state" and m["moves_made"] > 0)
        truth = await sync_to_async(true_piles)(race["id"], message["version"])
        check_nothing_hidden_shows(message, truth)
        assert all(m["from"].startswith("p1.") for m in message["state"]["moves"])
        checked += 1
        bot_moves = await sync_to_async(RaceMove.objects.filter(race_id=race["id"], seat=2).count)()
        if message["status"] == "finished":
            break
    assert bot_moves >= 6, "the bot stopped playing"
    # While it plays, the bot's seat shows as connected, as a person's with a socket.
    assert socket.latest is not None and socket.latest["players"][1]["connected"] is True
    # Every bot move named face-up cards only, and none was logged before the start.
    logged = await sync_to_async(list)(RaceMove.objects.filter(race_id=race["id"], seat=2).order_by("seq"))
    started = await sync_to_async(lambda: Race.objects.get(pk=race["id"]).starts_at)()
    assert all(m.created >= started for m in logged)
    assert all(m.client_id.startswith("bot-") for m in logged)
    await socket.send({"type": "resign", "id": "bye"})
    await socket.expect("finished")
    await ana.close_all()


async def test_the_bot_resumes_from_the_log_when_its_opponent_reconnects() -> None:
    ana = Player("Ana")
    created = await ana.post("/api/races", {"name": "Ana", "opponent": "computer", "level": "easy"})
    race_id = created.json()["id"]
    socket = await ana.connect(race_id)
    await socket.send({"type": "ready", "id": "r"})
    await socket.expect("start")

    def bot_moves() -> int:
        return RaceMove.objects.filter(race_id=race_id, seat=2).count()

    while await sync_to_async(bot_moves)() < 3:
        await socket.first(lambda m: m["type"] == "state")
    # The server goes away: the bot's task ends and the process forgets every state.
    await ana.close_all()
    await bot.stop_all()
    records.states.clear()
    before = await sync_to_async(bot_moves)()
    # The player comes back; the bot picks up where the log says it was.
    socket = await ana.connect(race_id)
    while await sync_to_async(bot_moves)() < before + 3:
        await socket.first(lambda m: m["type"] == "state")
    await socket.send({"type": "resign", "id": "bye"})
    await socket.expect("finished")
    await ana.close_all()
