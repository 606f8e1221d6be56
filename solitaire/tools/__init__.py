"""Command-line tools around the engine, kept out of its core.

- ``python -m solitaire.bot``: play seeded deals by the hint; win rate, CPU cost.
- ``python -m solitaire.winnability``: solve seeded deals; solved/unsolvable/unknown.
- ``python -m solitaire.tools.bench``: engine speed per game.
- ``python -m solitaire.tools.endings``: the exact ending check against a plain search.
- ``python -m solitaire.tools.racebench``: the computer opponent's levels against each other.

Nothing in ``solitaire`` imports these; they import the engine.
"""
