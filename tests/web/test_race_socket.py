"""Double Solitaire races over the real socket stack: two players (and a spectator) on
Channels' WebsocketCommunicator, through config.asgi's router with its Origin check and
sessions, against the real database and the rules engine.

Races that must end quickly start from small positions set with
race_lobby.use_start_position before anyone is ready; every move still goes through
the consumer.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

import solitaire
from config.asgi import application
from games.models import Race, RaceMove
from games.races import lobby as race_lobby
from games.races import records as race_records
from tests.support.positions import almost_blocked, near_the_end
from tests.support.sockets import TIMEOUT, Player, Socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


@pytest.fixture(autouse=True)
def quick_countdown(settings: Any) -> None:
    """Keep the 3-2-1 but make its ticks short, so the tests do not wait seconds."""
    settings.RACE_TICK_SECONDS = 0.25
    race_records.states.clear()


async def new_race(options: dict[str, Any] | None = None) -> tuple[Player, Player, dict[str, Any]]:
    """Ana creates a race and Ben joins it with the invite token."""
    ana, ben = Player("Ana"), Player("Ben")
    created = await ana.post("/api/races", {"name": "Ana", "options": options or {}})
    assert created.status_code == 201, created.content
    race = created.json()
    joined = await ben.post(f"/api/races/{race['id']}/join", {"token": race["token"], "name": "Ben"})
    assert joined.status_code == 200, joined.content
    return ana, ben, race


async def start_from(race_id: int, position: dict[str, Any]) -> None:
    await sync_to_async(race_lobby.use_start_position)(race_id, position)


async def ready_and_start(*sockets: Socket, players: tuple[Socket, Socket]) -> None:
    """Both players press Ready; every socket sees 3, 2, 1 and then the start."""
    for socket in players:
        await socket.send({"type": "ready", "id": "ready"})
        await socket.expect("ack", id="ready")
    for socket in sockets:
        counted = [(await socket.expect("countdown"))["seconds"] for _ in range(3)]
        assert counted == [3, 2, 1], socket.who
        await socket.expect("start")


async def move(socket: Socket, move_id: str, source: str, target: str, count: int = 1) -> dict[str, Any]:
    """Send a move and return the answer to it (ack or error)."""
    await socket.send({"type": "move", "id": move_id, "move": {"from": source, "to": target, "count": count}})
    return await socket.first(lambda m: m["type"] in ("ack", "error") and m.get("id") == move_id)


def true_state(race_id: int, version: int) -> Any:
    """The race's full position at ``version``, replayed from the database's log."""
    race = Race.objects.get(pk=race_id)
    moves = RaceMove.objects.filter(race=race, version__lte=version).order_by("seq")
    return race_records.replay(race, (m.move for m in moves))


# ---------------------------------------------------------------- the tests


async def test_a_whole_race_is_played_to_a_finish_and_both_players_see_every_move() -> None:
    ana, ben, race = await new_race()
    race_id = race["id"]
    await start_from(race_id, near_the_end())
    ana_socket = await ana.connect(race_id)
    ben_socket = await ben.connect(race_id)
    watcher = await Player("Cy").connect(race_id, token=race["watch_url"].split("/")[-2])
    first = await ana_socket.expect("state")
    assert first["seat"] == 1 and first["status"] == "waiting"
    assert [p["name"] for p in first["players"]] == ["Ana", "Ben"]
    assert (await ben_socket.expect("state"))["seat"] == 2
    assert (await watcher.expect("state"))["seat"] is None

    await ready_and_start(ana_socket, ben_socket, watcher, players=(ana_socket, ben_socket))

    ana_line = [
        ("p1.t3", "f1"),
        ("p1.t2", "f1"),
        ("p1.t1", "f3"),
        ("p1.t1", "f1"),
        ("p1.stock", "p1.waste"),
        ("p1.waste", "f3"),
        ("p1.waste", "f5"),
    ]
    ben_line = [("p2.t3", "f2"), ("p2.t2", "f2"), ("p2.t1", "f4")]
    for n, (source, target) in enumerate(ana_line):
        answer = await move(ana_socket, f"a{n}", source, target)
        assert answer["type"] == "ack", answer
        if n < len(ben_line):
            answer = await move(ben_socket, f"b{n}", *ben_line[n])
            assert answer["type"] == "ack", answer
    # Ben sees Ana's latest move live: her waste is empty and her KH is up.
    seen_by_ben = await ben_socket.state_at(answer["version"])
    assert seen_by_ben["state"]["piles"]["f5"][-1] == "KH:1"
    assert seen_by_ben["players"][0]["contribution"] == 51

    last = await move(ana_socket, "a-last", "p1.waste", "f7")
    assert last["type"] == "ack"
    for socket in (ana_socket, ben_socket, watcher):
        finished = await socket.expect("finished")
        assert finished["result"]["winner"] == 1
        assert finished["result"]["reason"] == "finished"
        assert finished["result"]["contributions"] == {"1": 52, "2": 48}
        assert isinstance(finished["seed"], int)
    late = await move(ben_socket, "b-late", "p2.stock", "p2.waste")
    assert late["type"] == "error" and late["code"] == "race_over"

    # The log replays to the final state, and both players saw the same order of moves.
    final = await sync_to_async(true_state)(race_id, last["version"])
    assert final.rules.result(final)["winner"] == 1
    ana_versions = [m["version"] for m in ana_socket.seen if m["type"] == "state"]
    assert ana_versions == sorted(ana_versions)
    for player in (ana, ben):
        for socket in player.sockets:
            await socket.close()
    await watcher.close()


async def test_two_cards_for_the_same_foundation_spot_at_once_only_the_first_lands() -> None:
    ana, ben, race = await new_race()
    race_id = race["id"]
    await start_from(race_id, near_the_end())
    ana_socket, ben_socket = await ana.connect(race_id), await ben.connect(race_id)
    await ready_and_start(ana_socket, ben_socket, players=(ana_socket, ben_socket))

    # Both JCs go for f1 (10C) in the same instant.
    answers = await asyncio.gather(
        move(ana_socket, "jc", "p1.t3", "f1"),
        move(ben_socket, "jc", "p2.t3", "f1"),
    )
    kinds = sorted(answer["type"] for answer in answers)
    assert kinds == ["ack", "error"], answers
    winner, loser = (0, 1) if answers[0]["type"] == "ack" else (1, 0)
    refusal = answers[loser]
    assert refusal["code"] == "foundation_taken"
    assert refusal["error"] == f"the JC foundation was just taken by {['Ana', 'Ben'][winner]}"
    assert refusal["data"]["by_seat"] == winner + 1

    # Exactly one JC went up, and it is the winner's; the loser's JC is still at home.
    socket = (ana_socket, ben_socket)[loser]
    state = await socket.state_at(answers[winner]["version"])
    assert state["state"]["piles"]["f1"][-1] == f"JC:{winner + 1}"
    assert state["state"]["piles"][f"p{loser + 1}.t3"] == ["JC"]
    # The other clubs foundation is still free for the loser.
    retry = await move(socket, "jc-again", f"p{loser + 1}.t3", "f2")
    assert retry["type"] == "ack"
    await ana_socket.close()
    await ben_socket.close()


async def test_moves_on_the_other_seats_piles_or_by_a_spectator_are_refused() -> None:
    ana, ben, race = await new_race()
    race_id = race["id"]
    await start_from(race_id, near_the_end())
    ana_socket, ben_socket = await ana.connect(race_id), await ben.connect(race_id)
    watcher = await Player("Cy").connect(race_id, token=race["watch_url"].split("/")[-2])

    early = await move(ana_socket, "early", "p1.t3", "f1")
    assert early["type"] == "error" and early["code"] == "not_started"
    await ready_and_start(ana_socket, ben_socket, players=(ana_socket, ben_socket))

    theirs = await move(ana_socket, "steal", "p2.t3", "f1")
    assert theirs["type"] == "error" and theirs["code"] == "not_your_pile"
    assert "Ben" in theirs["error"]
    both = await move(ben_socket, "mix", "p2.t3", "p1.t1")
    assert both["type"] == "error" and both["code"] == "not_your_pile"
    spectator = await move(watcher, "peek", "p1.t3", "f1")
    assert spectator["type"] == "error" and spectator["code"] == "not_a_player"

    # Nothing moved: Ana's own JC is still hers to play.
    mine = await move(ana_socket, "mine", "p1.t3", "f1")
    assert mine["type"] == "ack"
    state = await ben_socket.state_at(mine["version"])
    assert state["moves_made"] == 1 and state["state"]["piles"]["f1"][-1] == "JC:1"
    for socket in (ana_socket, ben_socket, watcher):
        await socket.close()


async def test_a_player_who_drops_out_and_comes_back_finds_the_race_went_on() -> None:
    ana, ben, race = await new_race()
    race_id = race["id"]
    await start_from(race_id, near_the_end())
    ana_socket, ben_socket = await ana.connect(race_id), await ben.connect(race_id)
    await ready_and_start(ana_socket, ben_socket, players=(ana_socket, ben_socket))
    await ana_socket.settle()

    await ben_socket.close()
    gone = await ana_socket.expect("presence", seat=2)
    assert gone["connected"] is False
    played = await move(ana_socket, "a1", "p1.t3", "f1")
    assert played["type"] == "ack"

    back = await ben.connect(race_id)
    state = await back.expect("state")
    assert state["seat"] == 2 and state["status"] == "playing"
    assert state["version"] == played["version"]
    assert state["state"]["piles"]["f1"][-1] == "JC:1"
    assert state["players"][1]["connected"] is True
    returned = await ana_socket.expect("presence", seat=2)
    assert returned["connected"] is True

    # A move whose ack was lost is resent after the reconnect and applied once.
    first = await move(back, "b1", "p2.t3", "f2")
    again = await move(back, "b1", "p2.t3", "f2")
    assert first["type"] == again["type"] == "ack"
    assert again["version"] == first["version"]
    log = await sync_to_async(lambda: list(RaceMove.objects.filter(race_id=race_id, seat=2)))()
    assert len(log) == 1
    await back.close()
    await ana_socket.close()


async def test_mutual_blockage_is_detected_and_scored_by_contributions() -> None:
    ana, ben, race = await new_race()
    race_id = race["id"]
    await start_from(race_id, almost_blocked())
    ana_socket, ben_socket = await ana.connect(race_id), await ben.connect(race_id)
    await ready_and_start(ana_socket, ben_socket, players=(ana_socket, ben_socket))

    # Cycling a stock and shuffling a 7 between two 8s are not progress...
    for n, (source, target) in enumerate(
        [("p1.stock", "p1.waste"), ("p1.stock", "p1.waste"), ("p1.waste", "p1.stock")]
    ):
        assert (await move(ana_socket, f"cycle{n}", source, target))["type"] == "ack"
    assert (await move(ben_socket, "shuffle", "p2.t4", "p2.t2"))["type"] == "ack"
    state = await ben_socket.state_at((await move(ben_socket, "back", "p2.t2", "p2.t3"))["version"])
    assert state["status"] == "playing"
    # ...but Ben's last real move leaves neither player anything to do.
    assert (await move(ben_socket, "last", "p2.t1", "f2"))["type"] == "ack"
    for socket in (ana_socket, ben_socket):
        finished = await socket.expect("finished")
        assert finished["result"]["reason"] == "blocked"
        assert finished["result"]["contributions"] == {"1": 3, "2": 2}
        assert finished["result"]["winner"] == 1
    await ana_socket.close()
    await ben_socket.close()


@pytest.mark.slow
async def test_resigning_and_agreeing_to_stop_end_the_race() -> None:
    ana, ben, race = await new_race()
    race_id = race["id"]
    await start_from(race_id, near_the_end())
    ana_socket, ben_socket = await ana.connect(race_id), await ben.connect(race_id)
    await ready_and_start(ana_socket, ben_socket, players=(ana_socket, ben_socket))
    assert (await move(ben_socket, "b1", "p2.t3", "f1"))["type"] == "ack"
    await ben_socket.send({"type": "offer_end", "id": "stop"})
    await ben_socket.expect("ack", id="stop")
    await ana_socket.first(lambda m: m["type"] == "state" and m["players"][1]["offered_end"])
    await ana_socket.send({"type": "offer_end", "id": "stop"})
    await ana_socket.expect("ack", id="stop")
    finished = await ben_socket.expect("finished")
    assert finished["result"] == {"winner": 2, "reason": "agreed", "contributions": {"1": 45, "2": 46}}
    await ana_socket.close()
    await ben_socket.close()

    # A rematch gives both the same new race; resigning it hands the win to the other.
    rematch = (await ana.post(f"/api/races/{race_id}/rematch", {})).json()
    assert (await ben.post(f"/api/races/{race_id}/rematch", {})).json()["id"] == rematch["id"]
    assert [p["name"] for p in rematch["players"]] == ["Ana", "Ben"]
    ana_socket, ben_socket = await ana.connect(rematch["id"]), await ben.connect(rematch["id"])
    await ready_and_start(ana_socket, ben_socket, players=(ana_socket, ben_socket))
    await ana_socket.send({"type": "resign", "id": "bye"})
    await ana_socket.expect("ack", id="bye")
    finished = await ben_socket.expect("finished")
    assert finished["result"]["winner"] == 2 and finished["result"]["reason"] == "resigned"
    await ana_socket.close()
    await ben_socket.close()


@pytest.mark.slow
async def test_no_message_to_either_seat_or_a_spectator_holds_a_hidden_card_or_the_seed() -> None:
    ana, ben, race = await new_race()
    race_id = race["id"]
    ana_socket, ben_socket = await ana.connect(race_id), await ben.connect(race_id)
    watcher = await Player("Cy").connect(race_id, token=race["watch_url"].split("/")[-2])
    await ready_and_start(ana_socket, ben_socket, watcher, players=(ana_socket, ben_socket))

    # Each player plays the first legal move it is shown, a dozen times; some are
    # refused because the other player got there first, which is fine.
    for n in range(12):
        for seat, socket in ((1, ana_socket), (2, ben_socket)):
            await socket.settle()
            assert socket.latest is not None
            view = socket.latest["state"]
            if view["moves"]:
                chosen = view["moves"][n % len(view["moves"])]
                await move(socket, f"{seat}-{n}", chosen["from"], chosen["to"], chosen["count"])
    for socket in (ana_socket, ben_socket, watcher):
        await socket.settle()
    seed = (await sync_to_async(Race.objects.get)(pk=race_id)).seed

    for socket, seat in ((ana_socket, 1), (ben_socket, 2), (watcher, None)):
        assert socket.seen
        for message in socket.seen:
            text = json.dumps(message)
            assert str(seed) not in text and "start_position" not in text and "seed" not in message
            if message["type"] != "state":
                continue
            assert message["seat"] == seat
            truth = (await sync_to_async(true_state)(race_id, message["version"])).to_position()
            for pile, shown in message["state"]["piles"].items():
                cards = truth[pile]
                if pile.endswith("stock"):
                    assert shown == len(cards), (socket.who, pile)
                    continue
                assert len(shown) == len(cards)
                for card, seen in zip(cards, shown, strict=True):
                    face_down = card.split(":")[0][-1].islower()
                    assert seen == (None if face_down else card), (socket.who, pile, card, seen)
            own = {m["from"].split(".")[0] for m in message["state"]["moves"]}
            assert own <= ({f"p{seat}"} if seat else set())
    for socket in (ana_socket, ben_socket, watcher):
        await socket.close()


async def test_strangers_cannot_open_a_race_socket_and_bad_messages_are_refused() -> None:
    ana, _, race = await new_race()
    path = f"/ws/races/{race['id']}/?token=not-the-token"
    communicator = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://localhost")])
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    closed = await communicator.receive_output(timeout=TIMEOUT)
    assert closed == {"type": "websocket.close", "code": 4404}
    await communicator.wait()

    socket = await ana.connect(race["id"])
    await socket.expect("state")
    await socket.communicator.send_to(text_data="not json")
    assert (await socket.expect("error"))["code"] == "bad_request"
    await socket.send({"type": "move", "move": {"from": "p1.t1", "to": "f1"}})
    assert (await socket.expect("error"))["error"] == "a move needs an id"
    await socket.send({"type": "teleport", "id": 1})
    assert (await socket.expect("error"))["code"] == "bad_request"
    await socket.communicator.send_to(text_data=json.dumps({"type": "sync", "pad": "x" * 5000}))
    assert (await socket.expect("error"))["code"] == "too_large"
    await socket.send({"type": "sync"})
    assert (await socket.expect("state"))["seat"] == 1
    await socket.close()


def test_the_engine_refuses_what_the_race_says_it_refuses() -> None:
    """A guard on the test positions themselves: they mean what the docstrings say."""
    state = solitaire.load("double", near_the_end())
    assert {"from": "p1.t3", "to": "f1", "count": 1} in [m.to_dict() for m in state.legal_moves()]
    blocked = solitaire.load("double", almost_blocked()).apply({"from": "p2.t1", "to": "f2"})
    assert blocked.rules.result(blocked)["reason"] == "blocked"
