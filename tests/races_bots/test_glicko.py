"""Glicko-2 arithmetic against the worked example of Glickman's paper."""

from __future__ import annotations

import pytest

from games.races.glicko import Rating, expected_score, rate


def test_the_papers_worked_example() -> None:
    # "Example of the Glicko-2 system", section "Example calculation": a 1500 (RD 200,
    # volatility 0.06) player beats a 1400 (RD 30), loses to a 1550 (RD 100) and to a
    # 1700 (RD 300), with tau 0.5: 1464.06, RD 151.52, volatility 0.05999.
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = rate(player, games, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_widens_the_deviation() -> None:
    after = rate(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500
    assert after.deviation > 200


def test_wins_raise_losses_lower_and_draws_sit_between() -> None:
    me, them = Rating(1500, 350), Rating(1500, 60)
    win, draw, loss = rate(me, [(them, 1.0)]), rate(me, [(them, 0.5)]), rate(me, [(them, 0.0)])
    assert win.rating > draw.rating > loss.rating
    assert draw.rating == pytest.approx(1500, abs=0.5)
    assert win.deviation < 350
    assert me.provisional and not Rating(1500, 60).provisional


def test_a_stronger_opponent_is_expected_to_win() -> None:
    assert expected_score(Rating(1750, 60), Rating(1000, 60)) > 0.9
    assert expected_score(Rating(1500, 60), Rating(1500, 60)) == pytest.approx(0.5)


def test_a_score_must_be_a_game_result() -> None:
    with pytest.raises(ValueError):
        rate(Rating(), [(Rating(), 2.0)])
