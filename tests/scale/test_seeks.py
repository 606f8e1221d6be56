"""The seek pool across two Daphne processes on one PostgreSQL and one Redis: two
strangers who seek at the same instant, one on each process, are paired exactly once,
in 100 tries out of 100. (Owned by the races-against-anyone work, issue 13.)"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from scale_support import Deployment, Player, WebProcess

pytestmark = pytest.mark.timeout(600)
TRIES = 100
POLLS = 20


@pytest.fixture(scope="module")
def seek_cluster(scale: Deployment) -> list[WebProcess]:
    """Two more processes like A and B, with rate limits off: one address seeks 200 times."""
    env = {**scale.env, "RATE_LIMITS": "off"}
    started = []
    for name in ("SA", "SB"):
        process = WebProcess(name, env, scale.home / f"{name}.log")
        scale.processes.append(process)
        process.start()
        started.append(process)
    for process in started:
        process.wait_until_healthy()
    return started


def seek_together(players: list[Player], servers: list[WebProcess]) -> list[Any]:
    """Both players POST /api/seeks at the same instant, each to its own process."""
    barrier = threading.Barrier(len(players))
    answers: list[Any] = [None] * len(players)

    def seek(k: int) -> None:
        players[k].get(f"{servers[k].url}/api/races")  # a CSRF cookie, as the page has
        barrier.wait()
        answers[k] = players[k].post(
            f"{servers[k].url}/api/seeks", {"name": players[k].name, "options": {}}, expect=201
        )

    threads = [threading.Thread(target=seek, args=(k,)) for k in range(len(players))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_two_seekers_on_two_processes_are_paired_exactly_once(
    scale: Deployment, seek_cluster: list[WebProcess]
) -> None:
    races: set[int] = set()
    for attempt in range(TRIES):
        players = [Player(f"Ana{attempt}"), Player(f"Ben{attempt}")]
        answers = seek_together(players, seek_cluster)
        found: list[dict[str, Any]] = []
        for player, server, answer in zip(players, seek_cluster, answers, strict=True):
            status = answer
            for _ in range(POLLS):
                if status["status"] == "matched":
                    break
                status = player.get(f"{server.url}/api/seeks/{answer['id']}")
            assert status["status"] == "matched", (attempt, status)
            found.append(status["race"])
        assert found[0]["id"] == found[1]["id"], attempt
        assert sorted(race["seat"] for race in found) == [1, 2]
        races.add(found[0]["id"])
    assert len(races) == TRIES
    # In the database: every seek matched, two per race, and no race without its pair.
    rows = scale.database.rows("SELECT race_id, count(*) FROM games_seek GROUP BY race_id")
    assert all(race_id is not None and count == 2 for race_id, count in rows), rows
    assert len(rows) == TRIES
    waiting = scale.database.rows("SELECT count(*) FROM games_seek WHERE status = 'waiting'")
    assert waiting == [(0,)]
    seated = scale.database.rows(
        "SELECT count(*) FROM games_raceseat WHERE race_id IN (SELECT race_id FROM games_seek)"
    )
    assert seated == [(2 * TRIES,)]
