"""What every C search must do beside finding the same answers as its Python reference
(``test_native_dfs.py``, ``test_native_casket_depth_first.py``,
``test_native_casket_best_first.py``): stop by the clock it is given, and let a Python
signal handler stop it.

Each deal here is one that no pass decides in millions of positions, so only the clock
or the signal can end the search early: Klondike draw 3 seed 1, Casket hard seed 23
(seed 1 was that deal until the Casket order of f958299 won it in 117 positions).
"""

from __future__ import annotations

import itertools
import signal
from typing import Any

import pytest

import solitaire
from solitaire import solver_casket, solver_klondike
from solitaire.solver_casket import CasketModel
from solitaire.solver_klondike import KlondikeModel

SEARCHES = [
    pytest.param(
        "klondike",
        {"draw": 3},
        KlondikeModel,
        "native_depth_first",
        marks=pytest.mark.skipif(solver_klondike._NATIVE is None, reason="not built (make install)"),
        id="klondike-draw3-depth-first",
    ),
    pytest.param(
        "casket",
        {"hard": True},
        CasketModel,
        "native_depth_first",
        marks=pytest.mark.skipif(solver_casket._NATIVE is None, reason="not built (make install)"),
        id="casket-hard-depth-first",
    ),
    pytest.param(
        "casket",
        {"hard": True},
        CasketModel,
        "native_best_first",
        marks=pytest.mark.skipif(solver_casket._NATIVE is None, reason="not built (make install)"),
        id="casket-hard-best-first",
    ),
]
PARAMETERS = ("game", "options", "model_class", "search")
# A deal of each game that neither search decides within 3,000,000 positions.
UNDECIDED = {"klondike": 1, "casket": 23}


@pytest.mark.parametrize(PARAMETERS, SEARCHES)
def test_the_c_search_stops_at_the_deadline_by_the_clock_it_is_given(
    game: str, options: dict[str, Any], model_class: Any, search: str
) -> None:
    """A fake clock that jumps past the deadline on its fourth reading stops the search
    at that reading: one every 512 positions."""
    state = solitaire.new_game(game, seed=UNDECIDED[game], **options)
    model = model_class(state)
    assert model.native is not None
    readings = iter([0.0, 0.0, 0.0] + [100.0] * 100)
    answer = getattr(model, search)(model.start(state), None, 10.0, lambda: next(readings))
    assert answer is not None
    assert answer[:3] == ("unknown", 4 * 512, [])


class Interrupted(Exception):
    pass


@pytest.mark.parametrize(PARAMETERS, SEARCHES)
def test_a_signal_handler_stops_the_c_search(
    game: str, options: dict[str, Any], model_class: Any, search: str
) -> None:
    """The worker pool stops a job at its CPU limit by a Python signal handler that
    raises (SIGXCPU, ``games.core.workers``), and Ctrl-C works the same way. A C loop
    must give such handlers their turn. Here SIGPROF fires after 0.2 CPU s; the clock is
    a builtin counter that never reaches the deadline and never runs Python code itself,
    so only the C loop's own signal check can end the search early."""
    state = solitaire.new_game(game, seed=UNDECIDED[game], **options)
    model = model_class(state)
    readings = itertools.count()
    cap = 3_000_000

    def interrupt(signum: int, frame: object) -> None:
        raise Interrupted

    previous = signal.signal(signal.SIGPROF, interrupt)
    try:
        signal.setitimer(signal.ITIMER_PROF, 0.2)
        with pytest.raises(Interrupted):
            getattr(model, search)(model.start(state), cap, float("inf"), readings.__next__)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
    # One reading per 512 positions: far fewer than the cap's, so the search was stopped.
    assert next(readings) < cap // 512 // 2
