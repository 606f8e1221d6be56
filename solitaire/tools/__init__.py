"""Command-line tools around the engine, kept out of its core.

- ``python -m solitaire.tools.bot``: play seeded deals by the hint; win rate, CPU cost.
- ``python -m solitaire.tools.winnability``: solve seeded deals; solved/unsolvable/unknown.
- ``python -m solitaire.tools.bench``: engine speed per game.

Nothing in ``solitaire`` imports these; they import the engine.
"""
