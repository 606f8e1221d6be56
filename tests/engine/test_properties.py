"""Property tests: random legal play through every game and its main option sets, checking
the promises the whole product stands on (OpenSpiel-style conformance over the registry).

Each example deals a game from a random seed and plays random legal moves, checking at
every step that cards are conserved, ``apply`` leaves its receiver alone, positions
round-trip, views hide what must stay hidden, legal moves are accepted and other moves
are refused. Settings stay modest so the suite runs quickly on a shared 2-core machine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import solitaire
from tests.engine.conftest import (
    DECKS,
    ONE_DECK,
    PILE_IDS,
    assert_view_hides,
    card_counts,
    seat_cards,
)

OPTION_SETS: list[tuple[str, dict[str, Any]]] = [
    ("klondike", {"draw": 1}),
    ("klondike", {"draw": 3}),
    ("klondike", {"draw": 1, "passes": 3}),
    ("klondike", {"draw": 3, "passes": 3}),
    ("klondike", {"draw": 1, "passes": 1}),
    ("klondike", {"draw": 3, "passes": 1}),
    ("klondike", {"whole_sequences": True}),
    ("klondike", {"any_card_in_space": True}),
    ("klondike", {"foundation_to_tableau": False}),
    ("klondike", {"face_up": True}),
    ("klondike", {"scoring": "vegas"}),
    ("klondike", {"scoring": None}),
    ("josephine", {}),
    ("josephine", {"whole_sequences": True}),
    ("casket", {}),
    ("casket", {"hard": True}),
    ("double", {}),
    ("double", {"same_deal": True}),
]

# Games whose stock can only be gone through a limited number of times.
# Klondike runs here without moving cards back off the foundations: with that allowed,
# a random walk can circle for ever in a position that is still winnable (is_over is
# then rightly false), so "random play always ends" would not be a property of the rules.
PASS_LIMITED: list[tuple[str, dict[str, Any]]] = [
    ("klondike", {"draw": 1, "passes": 1, "foundation_to_tableau": False}),
    ("klondike", {"draw": 3, "passes": 1, "foundation_to_tableau": False}),
    ("klondike", {"draw": 1, "passes": 3, "foundation_to_tableau": False}),
    ("klondike", {"draw": 3, "passes": 3, "foundation_to_tableau": False}),
    ("josephine", {}),
    ("casket", {}),
    ("casket", {"hard": True}),
]


def label(case: tuple[str, dict[str, Any]]) -> str:
    game, options = case
    return game + "".join(f"-{key}={value}" for key, value in options.items())


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
# Seeds are opaque, so shrinking a failure teaches nothing and only costs time: skip it.
# A failure prints its two seeds, which is all it takes to replay it, so no example
# database is kept either.
MODEST = settings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
STEPS = 100


def walk(
    game: str, options: dict[str, Any], deal_seed: int, play_seed: int, steps: int = STEPS
) -> Iterator[Any]:
    """Yield each state of a random legal game, the dealt one first."""
    chooser = random.Random(play_seed)
    state = solitaire.new_game(game, seed=deal_seed, **options)
    yield state
    for _ in range(steps):
        moves = state.legal_moves()
        if not moves:
            return
        state = state.apply(chooser.choice(moves))
        yield state


def move_dicts(state: Any) -> list[dict[str, Any]]:
    return [move.to_dict() for move in state.legal_moves()]


@pytest.mark.parametrize("case", OPTION_SETS, ids=label)
@MODEST
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_every_card_is_present_exactly_once_per_deck_whatever_is_played(
    case: tuple[str, dict[str, Any]], deal_seed: int, play_seed: int
) -> None:
    game, options = case
    for state in walk(game, options, deal_seed, play_seed):
        position = state.to_position()
        if game == "double":
            for seat in (1, 2):
                assert seat_cards(position, seat) == dict.fromkeys(ONE_DECK, 1), f"seat {seat}"
        else:
            assert card_counts(position, game) == dict.fromkeys(ONE_DECK, DECKS[game])


@pytest.mark.parametrize("case", OPTION_SETS, ids=label)
@MODEST
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_apply_never_changes_its_receiver(
    case: tuple[str, dict[str, Any]], deal_seed: int, play_seed: int
) -> None:
    game, options = case
    chooser = random.Random(play_seed ^ 0x5F)
    for state in walk(game, options, deal_seed, play_seed):
        before = state.to_position()
        moves = state.legal_moves()
        for move in chooser.sample(moves, min(3, len(moves))):
            state.apply(move)
            assert state.to_position() == before, f"{move} changed the state it was applied to"


@pytest.mark.parametrize("case", OPTION_SETS, ids=label)
@MODEST
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_to_position_and_load_round_trip(
    case: tuple[str, dict[str, Any]], deal_seed: int, play_seed: int
) -> None:
    game, options = case
    for state in walk(game, options, deal_seed, play_seed):
        position = state.to_position()
        again = solitaire.load(game, position, **options)
        assert again.to_position() == position
        assert move_dicts(again) == move_dicts(state)
        assert again.score == state.score


@pytest.mark.parametrize("case", OPTION_SETS, ids=label)
@MODEST
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_view_never_shows_a_face_down_or_stock_card(
    case: tuple[str, dict[str, Any]], deal_seed: int, play_seed: int
) -> None:
    game, options = case
    players: tuple[int | None, ...] = (None, 1, 2) if game == "double" else (None,)
    for step, state in enumerate(walk(game, options, deal_seed, play_seed)):
        if step % 3:
            continue  # a view asks whether the game is over, which is a search: sample
        for player in players:
            assert_view_hides(state, game, player)


@pytest.mark.parametrize("case", OPTION_SETS, ids=label)
@MODEST
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_every_move_from_legal_moves_is_accepted(
    case: tuple[str, dict[str, Any]], deal_seed: int, play_seed: int
) -> None:
    game, options = case
    for state in walk(game, options, deal_seed, play_seed):
        moves = state.legal_moves()
        assert len(set(moves)) == len(moves), "legal_moves lists a move twice"
        for move in moves:
            state.apply(move)
            state.apply(move.to_dict())


@pytest.mark.parametrize("case", OPTION_SETS, ids=label)
@MODEST
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_random_moves_outside_legal_moves_are_refused(
    case: tuple[str, dict[str, Any]], deal_seed: int, play_seed: int
) -> None:
    game, options = case
    chooser = random.Random(play_seed ^ 0xA5)
    piles = PILE_IDS[game]
    for state in walk(game, options, deal_seed, play_seed):
        legal = move_dicts(state)
        for _ in range(12):
            move = {
                "from": chooser.choice(piles),
                "to": chooser.choice(piles),
                "count": chooser.choice((1, 1, 1, 2, 3, 4, 13)),
            }
            if move in legal:
                continue
            try:
                state.apply(move)
            except ValueError as error:
                assert str(error).strip(), f"{move} refused without a reason"
            else:
                pytest.fail(f"{move} is not in legal_moves but apply accepted it")


END_WITHIN = 2000


@pytest.mark.parametrize("case", PASS_LIMITED, ids=label)
@settings(MODEST, max_examples=20)
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_random_play_with_a_pass_limit_always_reaches_the_end(
    case: tuple[str, dict[str, Any]], deal_seed: int, play_seed: int
) -> None:
    game, options = case
    chooser = random.Random(play_seed)
    state = solitaire.new_game(game, seed=deal_seed, **options)
    for step in range(END_WITHIN):
        moves = state.legal_moves()
        if not moves:
            assert state.is_over, "no legal move left, yet the game is not over"
            return
        # is_over is a search, so ask now and then rather than at every step.
        if step % 50 == 0 and state.is_over:
            return
        state = state.apply(chooser.choice(moves))
    assert state.is_over, f"{END_WITHIN} random moves and the game is still not over: {state.to_position()}"
