"""The computer's policy (solitaire.racer): it reads only its seat's view and memory,
remembers its stock after one pass, plays the shared foundations sensibly, and each
level gives a move for every position it can play."""

from __future__ import annotations

import dataclasses
import random

import solitaire
from solitaire import racer
from solitaire.cards import FACE_DOWN


def draw_through(state: solitaire.State, seat: int) -> tuple[solitaire.State, racer.RacerMemory]:
    """Draw the seat's whole stock, then turn the waste over, looking after each move."""
    memory = racer.RacerMemory.start(state.view(seat), seat)
    stock, waste = f"p{seat}.stock", f"p{seat}.waste"
    while state.view(seat)["piles"][stock]:
        state = state.apply(solitaire.Move(stock, waste))
        memory = memory.after(state.view(seat))
    state = state.apply(solitaire.Move(waste, stock))
    memory = memory.after(state.view(seat))
    return state, memory


def test_after_one_pass_the_racer_knows_its_stock_in_order() -> None:
    state = solitaire.new_game("double", seed=11)
    state, memory = draw_through(state, 2)
    rules = state.rules
    stock = state.piles[rules.index["p2.stock"]]
    truth = tuple(solitaire.card_text(c & ~FACE_DOWN) for c in reversed(stock))
    assert memory.draw_order == truth
    # Its guesses put the stock exactly where it is; the hidden tableau cards vary.
    guess = racer.guess_state(state.view(2), memory, random.Random(1))
    assert guess.piles[rules.index["p2.stock"]] == stock
    # One draw later it still knows what is left.
    state = state.apply(solitaire.Move("p2.stock", "p2.waste"))
    memory = memory.after(state.view(2))
    assert memory.draw_order == truth[3:]


def test_the_decision_depends_on_the_view_alone() -> None:
    # Two states that differ only in seat 2's face-down cards look the same to seat 2,
    # and the racer, given only views, decides the same in both.
    state = solitaire.new_game("double", seed=5)
    position = state.to_position()
    swapped = dict(position)
    t7 = list(position["p2.t7"])
    t6 = list(position["p2.t6"])
    t7[0], t6[0] = t6[0], t7[0]  # two face-down cards change places
    swapped["p2.t7"], swapped["p2.t6"] = t7, t6
    other = solitaire.load("double", swapped)
    assert other != state and other.view(2) == state.view(2)
    for level in racer.LEVELS:
        memory = racer.RacerMemory.start(state.view(2), 2)
        first = racer.decide(state.view(2), memory, level, random.Random(3))
        second = racer.decide(other.view(2), memory, level, random.Random(3))
        assert first == second


def test_sharp_races_for_a_contested_spot_and_holds_back_a_gift() -> None:
    # Both seats have the 5H ready and one hearts foundation stands at 4H: Sharp plays
    # its 5H at once, before anything else.
    contested = {
        "f1": ["AH:1", "2H:1", "3H:2", "4H:1"],
        "p1.t1": ["5H"],
        "p1.t2": ["9C"],
        "p2.t1": ["5H"],
        "p2.t2": ["9C"],
        "p2.t3": ["10D"],
        "p2.stock": ["kc", "kd", "qs"],
    }
    state = solitaire.load("double", contested)
    view = state.view(2)
    decision = racer.decide(view, racer.RacerMemory.start(view, 2), "sharp", random.Random(0))
    assert decision is not None and decision.move.to_dict()["from"] == "p2.t1"
    assert decision.move.target == "f1" and decision.cards == ("5H",)


def test_sharp_holds_back_a_card_that_would_only_open_a_spot_for_the_opponent() -> None:
    # Seat 2's 5H could go up on the 4H, but it sits on a face-up 6S (moving it frees
    # nothing) and seat 1 holds the 6H ready: Sharp keeps it back and draws instead;
    # Steady, which does not hold back, plays it. Once Sharp has nothing else left to do,
    # it gives the card up rather than stall.
    gift = {
        "f1": ["AH:1", "2H:1", "3H:2", "4H:1"],
        "p1.t1": ["6H"],
        "p1.t2": ["9C"],
        "p2.t1": ["6S", "5H"],
        "p2.t2": ["9C"],
        "p2.stock": ["2c", "8d", "3s"],
    }
    state = solitaire.load("double", gift)
    view = state.view(2)
    memory = racer.RacerMemory.start(view, 2)
    sharp = racer.decide(view, memory, "sharp", random.Random(0))
    steady = racer.decide(view, memory, "steady", random.Random(0))
    assert sharp is not None and sharp.move == solitaire.Move("p2.stock", "p2.waste")
    assert steady is not None and steady.move.target == "f1"
    idle = dataclasses.replace(memory, idle_cycles=racer.IDLE_CYCLES)
    released = racer.decide(view, idle, "sharp", random.Random(0))
    assert released is not None and released.move.target == "f1"


def test_every_level_plays_a_legal_move_of_its_own_seat() -> None:
    for seed in range(3):
        state = solitaire.new_game("double", seed=seed)
        for level in racer.LEVELS:
            rng = random.Random(seed)
            memory = racer.RacerMemory.start(state.view(2), 2)
            current = state
            for _ in range(15):
                view = current.view(2)
                memory = memory.after(view)
                decision = racer.decide(view, memory, level, rng)
                if decision is None:
                    break
                assert decision.move.source.startswith("p2.")
                chosen = decision.move
                cards = decision.cards or None
                move = solitaire.Move(chosen.source, chosen.target, chosen.count, cards=cards)
                current = current.apply(move)  # legal, and not stale
                assert decision.think_seconds >= racer.LEVELS[level].reaction


def test_levels_get_slower_and_weaker_in_order() -> None:
    easy, steady, sharp = (racer.LEVELS[name] for name in ("easy", "steady", "sharp"))
    assert easy.think_median > steady.think_median > sharp.think_median
    assert easy.rating < steady.rating < sharp.rating
    assert (easy.depth, easy.samples) < (steady.depth, steady.samples) < (sharp.depth, sharp.samples)
    # Strength comes from play, not only pace: the weaker level errs and overlooks more.
    assert easy.mistake_rate > steady.mistake_rate > sharp.mistake_rate == 0
    assert easy.overlooks > steady.overlooks > sharp.overlooks == 0
    assert sharp.races and sharp.holds_back and not (steady.races or easy.races)


def test_a_level_that_overlooks_every_move_still_draws() -> None:
    # Overlooking never hides a draw: a level that missed every other move goes through
    # its stock, and one that sees everything sends its ace up first.
    state = solitaire.new_game("double", seed=4)
    view = state.view(2)
    memory = racer.RacerMemory.start(view, 2)
    seeing = racer.decide(view, memory, "sharp", random.Random(0))
    assert seeing is not None and seeing.move == solitaire.Move("p2.t4", "f1")
    blind = dataclasses.replace(racer.LEVELS["sharp"], overlooks=1.0)
    decision = racer.decide(view, memory, blind, random.Random(0))
    assert decision is not None and decision.move == solitaire.Move("p2.stock", "p2.waste")


def test_a_decision_job_is_repeatable_and_a_memory_can_be_rebuilt_from_views() -> None:
    # Two processes driving the same seat at the same version decide the same move.
    state = solitaire.new_game("double", seed=21)
    views = []
    for _ in range(10):
        state = (
            state.apply(solitaire.Move("p2.stock", "p2.waste"))
            if state.view(2)["piles"]["p2.stock"]
            else state
        )
        views.append(state.view(2))
    rebuilt = racer.memory_from_views(views[:-1], 2)
    first = racer.decide_job(views[-1], rebuilt, "sharp", 42, 2)
    second = racer.decide_job(views[-1], racer.memory_from_views(views[:-1], 2), "sharp", 42, 2)
    assert first == second
    assert racer.memory_from_views([], 2) is None
