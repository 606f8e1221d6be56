"""The Casket solver model's move order: where the stock's top card is laid.

A stock card laid on a waste top that is needed no sooner than itself blocks nothing,
so those wastes come first, the closest fit first (as in patience sorting), an empty
waste after them, and the wastes whose tops are needed sooner last, the latest first.
"Needed" is how many ranks a card stands above the higher foundation of its suit.
"""

from __future__ import annotations

import solitaire
from solitaire.solver_casket import STOCK, WASTES, CasketModel


def draws(position: dict[str, list[str]]) -> list[int]:
    state = solitaire.load("casket", position, hard=True)
    model = CasketModel(state)
    steps = model.moves(model.start(state))
    return [step[0][1] for step in steps if step[0][0] == STOCK and step[0][1] in WASTES]


def test_the_stock_card_goes_first_where_it_covers_a_card_needed_later() -> None:
    # 5H is three ranks above the hearts (2H up). 9S is nine above the spades, 4C four
    # above the clubs: both are needed later, 4C the closer fit. 2D is needed sooner.
    base = {"f1": ["AH", "2H"], "f2": ["AD"], "t1": ["KD"], "stock": ["5H"]}
    order = draws({**base, "w1": ["9S"], "w2": ["4C"], "w3": ["2D"]})
    assert order == [WASTES[1], WASTES[0], WASTES[2]]


def test_an_empty_waste_comes_after_the_fits_and_before_the_tops_needed_sooner() -> None:
    base = {"f1": ["AH", "2H"], "f2": ["AD"], "t1": ["KD"], "stock": ["5H"]}
    order = draws({**base, "w1": ["2D"], "w2": [], "w3": ["QS"]})
    assert order == [WASTES[2], WASTES[1], WASTES[0]]
    # Among tops needed sooner, the one needed latest first; like wastes count once.
    # (AC is one rank above the clubs, 2C two: 2C first.)
    order = draws({**base, "w1": ["AC"], "w2": ["2C"], "w3": ["AC"]})
    assert order == [WASTES[1], WASTES[0]]
