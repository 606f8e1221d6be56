"""The server-side part of a cold resume, measured in-process (run by bench.run).

For each saved game: empty the replay cache, then do what the game socket does on
connect after the handshake (``games.solo.play.get_game_for`` and rendering the ``state``
message as JSON), and time it; then the same again warm. Runs in its own process with
the server's environment, against the server's database, while no server is running.
Prints JSON. Knows the services' public functions, nothing of sockets.
"""

from __future__ import annotations

import json
import os
import sys
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from games.core.actors import Actor  # noqa: E402
from games.models import Game  # noqa: E402
from games.solo import history, play  # noqa: E402
from games.solo.payloads import state_message  # noqa: E402


def _load(actor: Actor, game_id: int) -> int:
    text = json.dumps(state_message(play.get_game_for(actor, game_id)))
    return len(text)


def main(argv: list[str]) -> int:
    ids = [int(word) for word in argv]
    owners = dict(Game.objects.filter(pk__in=ids).values_list("pk", "owner_key"))
    # One untimed load first, so the first figure does not carry connection set-up.
    _load(Actor(token=owners[ids[0]]), ids[0])
    rows = []
    for game_id in ids:
        actor = Actor(token=owners[game_id])
        history.positions.clear()
        began = time.perf_counter()
        size = _load(actor, game_id)
        cold = time.perf_counter() - began
        game = Game.objects.select_related("deal").get(pk=game_id)
        began = time.perf_counter()
        line = history.replayed_line(game)
        replay = time.perf_counter() - began
        # The final position's is_over, on a fresh state: the view shows it, so a cold
        # load pays for it, and it is the part that varies most from game to game.
        began = time.perf_counter()
        if line.state.is_over:
            pass  # only the time matters here
        over = time.perf_counter() - began
        began = time.perf_counter()
        _load(actor, game_id)
        warm = time.perf_counter() - began
        rows.append(
            {
                "game": game_id,
                "version": game.version,
                "cold_ms": cold * 1000,
                "replay_ms": replay * 1000,
                "is_over_ms": over * 1000,
                "warm_ms": warm * 1000,
                "bytes": size,
            }
        )
    json.dump(rows, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
