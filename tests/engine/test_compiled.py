"""The solver compiled by mypyc against the plain-Python solver it is built from.

``make install`` compiles the solver's modules (``solitaire/tools/compile.py``). The
``.py`` files stay the reference: here the same searches run in this process (compiled)
and in a child process that sees only the ``.py`` files, and must give the same answers
position for position. The searches are bounded by positions, not time, so the two must
agree exactly whatever their speed.
"""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys
from typing import Any

import pytest

import solitaire
from solitaire import bounds, solver, solver_casket, solver_klondike
from solitaire.tools import compile as compiled
from solitaire.tools.bot import play

# (game, options, seeds): every solver model, and both ways the stock is searched.
CASES: list[tuple[str, dict[str, Any], list[int]]] = [
    ("klondike", {"draw": 1}, [1, 2, 3, 4]),
    ("klondike", {"draw": 3}, [1, 3, 4, 7]),
    ("klondike", {"draw": 3, "passes": 3}, [5]),
    ("josephine", {}, [1, 2]),
    ("casket", {}, [1, 2]),
]
MAX_NODES = 6000

SCRIPT = """
import json, sys
import solitaire
from solitaire import solver
from solitaire.tools.bot import play
cases, max_nodes = json.loads(sys.argv[1]), int(sys.argv[2])
answers = []
for game, options, seeds in cases:
    for seed in seeds:
        state = solitaire.new_game(game, seed=seed, **options)
        result = solver.solve(state, timeout=600, max_nodes=max_nodes, hand_over=False)
        moves = [json.dumps(m.to_dict(), sort_keys=True) for m in result.moves]
        answers.append([game, seed, result.status, result.nodes, moves])
games = [play("klondike", {"draw": 3}, seed, 40, 0.05) for seed in (2, 6)]
games = [[g["seed"], g["ending"], g["steps"]] for g in games]
print(json.dumps({"file": solver.__file__, "answers": answers, "games": games}))
"""


def answers_here() -> list[list[Any]]:
    answers = []
    for game, options, seeds in CASES:
        for seed in seeds:
            # No hand-over: the plain-Python child has no C depth-first pass, whose
            # positions are not kept to hand over; each side's pass must match exactly.
            result = solver.solve(
                solitaire.new_game(game, seed=seed, **options),
                timeout=600,
                max_nodes=MAX_NODES,
                hand_over=False,
            )
            moves = [json.dumps(m.to_dict(), sort_keys=True) for m in result.moves]
            answers.append([game, seed, result.status, result.nodes, moves])
    return answers


def test_the_solver_runs_compiled() -> None:
    assert compiled.is_current(), "the compiled solver is missing or stale: run `make install`"
    for module in (bounds, solver, solver_klondike, solver_casket):
        assert module.__file__ is not None and module.__file__.endswith(".so"), module.__file__
    state = solitaire.new_game("klondike", seed=1, draw=3)
    assert solver_klondike.KlondikeModel(state).native is not None  # the C depth-first pass


def test_a_changed_source_makes_the_build_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "sources_hash", lambda: "0" * 64)
    assert not compiled.is_current()


@pytest.mark.slow
def test_the_compiled_solver_answers_as_the_python_reference_does(tmp_path: pathlib.Path) -> None:
    package = pathlib.Path(solitaire.__file__).parent
    shutil.copytree(
        package,
        tmp_path / "solitaire",
        ignore=shutil.ignore_patterns("*.so", "__pycache__", "compiled.stamp"),
    )
    child = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(CASES), str(MAX_NODES)],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert child.returncode == 0, child.stderr[-2000:]
    reference = json.loads(child.stdout)
    assert reference["file"].endswith("solver.py")  # the child really ran plain Python
    here = answers_here()
    assert [a[2] for a in here].count("solved") >= 5  # the searches reach real answers
    assert here == reference["answers"]
    games = [play("klondike", {"draw": 3}, seed, 40, 0.05) for seed in (2, 6)]
    assert [[g["seed"], g["ending"], g["steps"]] for g in games] == reference["games"]
