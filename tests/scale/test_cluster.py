"""Two Daphne processes on one PostgreSQL and one Redis, as docker-compose runs them.

Players talk to different processes, as a proxy spreading connections would send them,
and every push must still reach every socket: the processes share nothing but the
database and the channel layer.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from scale_support import (
    Deployment,
    Player,
    Socket,
    WebProcess,
    finishing_line,
    near_the_end,
    ready_and_start,
    replay,
)

pytestmark = pytest.mark.timeout(180)
# Longer than two of channels_redis's blocking waits on Redis (BZPOPMIN, five seconds).
QUIET_SECONDS = 12


async def test_the_health_check_passes_on_each_process_while_sockets_are_open(
    scale: Deployment, cluster: list[WebProcess]
) -> None:
    """docker-compose's health check command, against both processes, while each holds
    open sockets (whose waits on Redis must not hold the check up)."""
    ana = Player("Ana")
    ana.get(f"{cluster[0].url}/api/games")
    game = ana.post(f"{cluster[0].url}/api/games", {"game": "klondike", "deal": 7}, expect=201)
    sockets = [
        await ana.connect(process, f"/ws/games/{game['id']}/") for process in cluster for _ in range(2)
    ]
    for socket in sockets:
        await socket.expect("state")
    for _ in range(3):
        for process in cluster:
            checked = process.run_healthcheck()
            assert checked.returncode == 0, (process.name, checked.stdout, checked.stderr)
            assert '"database": "ok"' in checked.stdout and '"channel_layer": "ok"' in checked.stdout
    for socket in sockets:
        await socket.close()


async def test_a_game_socket_on_one_process_hears_moves_made_on_the_other(
    scale: Deployment, cluster: list[WebProcess]
) -> None:
    a, b = cluster
    ana = Player("Ana")
    ana.get(f"{a.url}/api/games")
    game = ana.post(f"{a.url}/api/games", {"game": "klondike", "deal": 7}, expect=201)
    game_id = game["id"]
    on_a = await ana.connect(a, f"/ws/games/{game_id}/")
    assert (await on_a.expect("state"))["version"] == 0

    # A move over HTTP on B reaches the socket on A.
    first = game["state"]["moves"][0]
    after_http = ana.post(f"{b.url}/api/games/{game_id}/moves", {"move": first, "id": "h1"})
    assert after_http["version"] == 1
    pushed = await on_a.state_at(1)
    assert pushed["version"] == 1 and pushed["state"] == after_http["state"]

    # A move over a socket on B reaches the socket on A too.
    on_b = await ana.connect(b, f"/ws/games/{game_id}/")
    current = await on_b.expect("state")
    second = current["state"]["moves"][0]
    answer = await on_b.move("w2", second["from"], second["to"], second.get("count", 1))
    assert answer == {"type": "ack", "id": "w2", "version": 2}
    assert (await on_a.state_at(2))["state"] == (await on_b.state_at(2))["state"]

    # Its ack "lost", the client resends it on the other process: applied once.
    again = await on_a.move("w2", second["from"], second["to"], second.get("count", 1))
    assert again == {"type": "ack", "id": "w2", "version": 2}
    assert scale.database.rows("SELECT count(*) FROM games_move WHERE game_id = %s", game_id) == [(2,)]
    assert ana.get(f"{a.url}/api/games/{game_id}")["version"] == 2
    await on_a.close()
    await on_b.close()


async def test_a_socket_left_quiet_for_a_while_still_hears_the_next_move(
    scale: Deployment, cluster: list[WebProcess]
) -> None:
    """A player thinking: nothing on the socket for longer than the channel layer's
    blocking wait on Redis (five seconds). The socket must stay up and hear the next
    move, whichever process makes it."""
    a, b = cluster
    ana = Player("Ana")
    ana.get(f"{a.url}/api/games")
    game = ana.post(f"{a.url}/api/games", {"game": "klondike", "deal": 7}, expect=201)
    on_a = await ana.connect(a, f"/ws/games/{game['id']}/")
    await on_a.expect("state")
    await asyncio.sleep(QUIET_SECONDS)
    ana.post(f"{b.url}/api/games/{game['id']}/moves", {"move": game["state"]["moves"][0], "id": "m1"})
    assert (await on_a.state_at(1))["version"] == 1
    answer = await on_a.move("m2", "stock", "waste")
    assert answer["type"] in ("ack", "error") and answer.get("code") != "bad_request", answer
    await on_a.close()


async def test_a_race_across_two_processes_with_a_collision_is_played_to_its_end(
    scale: Deployment, cluster: list[WebProcess]
) -> None:
    a, b = cluster
    ana, ben = Player("Ana"), Player("Ben")
    ana.get(f"{a.url}/api/races")
    race = ana.post(f"{a.url}/api/races", {"name": "Ana"}, expect=201)
    race_id = race["id"]
    ben.get(f"{b.url}/api/races")
    joined = ben.post(f"{b.url}/api/races/{race_id}/join", {"token": race["token"], "name": "Ben"})
    assert joined["seat"] == 2
    position = near_the_end()
    scale.set_start_position(race_id, position)

    ana_socket = await ana.connect(a, f"/ws/races/{race_id}/")
    ben_socket = await ben.connect(b, f"/ws/races/{race_id}/")
    assert (await ana_socket.expect("state"))["seat"] == 1
    assert (await ben_socket.expect("state"))["seat"] == 2
    await ready_and_start(ana_socket, ben_socket)
    sockets = (ana_socket, ben_socket)

    # The collision: both JCs go for f1 at the same moment, from two processes.
    answers = await asyncio.gather(
        ana_socket.move("jc", "p1.t3", "f1"),
        ben_socket.move("jc", "p2.t3", "f1"),
    )
    assert sorted(answer["type"] for answer in answers) == ["ack", "error"], answers
    winner = 0 if answers[0]["type"] == "ack" else 1
    loser = 1 - winner
    refusal = answers[loser]
    assert refusal["code"] == "foundation_taken", refusal
    assert refusal["error"] == f"the JC foundation was just taken by {['Ana', 'Ben'][winner]}"
    for socket in sockets:
        seen = await socket.state_at(answers[winner]["version"])
        assert seen["state"]["piles"]["f1"][-1] == f"JC:{winner + 1}"
    # The loser's JC is still at home, and the other 10C is free for it.
    retry = await sockets[loser].move("jc-f2", f"p{loser + 1}.t3", "f2")
    assert retry["type"] == "ack", retry
    for socket in sockets:
        await socket.state_at(retry["version"])

    # Then they take turns, each move seen by both before the next: Ana to the finish.
    clubs = {winner + 1: "f1", loser + 1: "f2"}
    ana_line = finishing_line(1, clubs[1], "f3")
    ben_line = finishing_line(2, clubs[2], "f4")[:3]
    turns: list[tuple[Socket, str, tuple[str, str]]] = []
    for n, step in enumerate(ana_line):
        turns.append((ana_socket, f"a{n}", step))
        if n < len(ben_line):
            turns.append((ben_socket, f"b{n}", ben_line[n]))
    for socket, move_id, (source, target) in turns:
        answer = await socket.move(move_id, source, target)
        assert answer["type"] == "ack", answer
        for each in sockets:
            await each.state_at(answer["version"])
    results = [await socket.expect("finished") for socket in sockets]
    for finished in results:
        assert finished["result"]["winner"] == 1 and finished["result"]["reason"] == "finished"
    late = await ben_socket.move("late", "p2.stock", "p2.waste")
    assert late["type"] == "error" and late["code"] == "race_over"

    # The database's log: one entry per acknowledged move, numbered without a gap.
    log = scale.race_log(race_id)
    assert [entry["seq"] for entry in log] == list(range(1, len(log) + 1))
    assert len(log) == 2 + len(ana_line) + len(ben_line)
    assert [entry["version"] for entry in log] == sorted({entry["version"] for entry in log})

    # Both players saw every move, in the log's order, each at its version.
    for socket in sockets:
        states = socket.states()
        versions = [state["version"] for state in states]
        assert versions == sorted(set(versions)), (socket.who, versions)
        by_version = {state["version"]: state for state in states}
        for entry in log:
            state = by_version.get(entry["version"])
            assert state is not None, (socket.who, "missed", entry)
            assert state["moves_made"] == entry["seq"]
    for entry in log:
        ana_saw = next(s for s in ana_socket.states() if s["version"] == entry["version"])
        ben_saw = next(s for s in ben_socket.states() if s["version"] == entry["version"])
        assert public_part(ana_saw) == public_part(ben_saw), entry

    # The log replays, in the engine alone, to the final state each player was shown.
    final = replay(position, [entry["move"] for entry in log])
    assert final.rules.result(final) == results[0]["result"]
    assert ana_socket.states()[-1]["state"] == final.view(1)
    assert ben_socket.states()[-1]["state"] == final.view(2)
    for socket in sockets:
        await socket.close()


def public_part(state: dict[str, Any]) -> dict[str, Any]:
    """What both seats see alike: the foundations, the contributions, the move count."""
    piles = state["state"]["piles"]
    return {
        "foundations": {f"f{n}": piles[f"f{n}"] for n in range(1, 9)},
        "contributions": state["state"]["contributions"],
        "moves_made": state["moves_made"],
        "status": state["status"],
    }
