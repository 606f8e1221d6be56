"""A whole game won through the service: a known winning line is played move by move,
auto-finish completes it, and the won game is settled in the log and the statistics.

The winning line comes from the engine's solver, run on deals of this test's fixed
deal secret; its node budget (not a clock) keeps the search the same on every machine.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.core import errors
from games.core.actors import Actor
from games.models import Game, Move
from games.solo import history, payloads, verdicts
from games.solo import play as solo_play
from games.solo import stats as solo_stats
from solitaire.solver import solve
from tests.support.solo import apply_action, klondike

pytestmark = pytest.mark.django_db

NODE_BUDGET = 5000


def a_won_deal(actor: Actor) -> tuple[payloads.Snapshot, list[dict[str, Any]]]:
    """A draw-one Klondike deal with its winning line, whose end auto-finish can play."""
    for number in range(1, 40):
        snapshot = klondike(actor, deal=number)
        result = solve(snapshot.state, timeout=600, max_nodes=NODE_BUDGET)
        if not result.solved:
            continue
        line = [move.to_dict() for move in result.moves]
        state = snapshot.state
        for played, move in enumerate(line):
            if state.view()["can_auto_finish"]:
                if len(line) - played >= 2:
                    return snapshot, line[:played]
                break
            state = state.apply(move)
    raise AssertionError("no deal in range has a winning line that ends in an auto-finish")


@pytest.mark.slow
def test_a_known_winning_line_wins_and_settles_the_game(ana: Actor) -> None:
    snapshot, line = a_won_deal(ana)
    game_id = snapshot.game.pk
    for number, move in enumerate(line):
        apply_action(game_id, ana, {"type": "move", "move": move}, client_id=f"w{number}")
    before = solo_play.get_game_for(ana, game_id)
    assert before.game.status == Game.Status.PLAYING
    assert before.state.view()["can_auto_finish"]

    won = apply_action(game_id, ana, {"type": "autofinish"}, client_id="finish")
    assert won.game.status == Game.Status.WON
    assert won.game.finished is not None
    assert won.state.is_won
    finishing = won.game.version - len(line)
    assert finishing >= 2
    assert Move.objects.filter(game_id=game_id).count() == won.game.version
    assert Move.objects.filter(game_id=game_id, client_id="finish").count() == 1

    # Settled: no more moves, no undo, no hint; a repeat of the finish is only acknowledged.
    with pytest.raises(errors.Refused) as refused:
        apply_action(game_id, ana, {"type": "undo"})
    assert refused.value.code == "game_over"
    assert verdicts.hint_for(ana, game_id) is None
    repeat = apply_action(game_id, ana, {"type": "autofinish"}, client_id="finish")
    assert not repeat.applied and repeat.game.version == won.game.version

    history.positions.clear()
    assert solo_play.get_game_for(ana, game_id).state.is_won
    stats = solo_stats.statistics_for(ana)["overall"]
    assert (stats["played"], stats["won"], stats["current_streak"]) == (1, 1, 1)
    assert stats["best_time"] == int(won.game.elapsed.total_seconds())
