"""What the engine thinks of a game: "was this winnable?" (the solver on the deal) and
hints (the hint engine on the player's view).

A verdict's moves show cards that were face down, so they are only told for a finished
game, and seeing them ends the game for good (the API abandons it). Searches, replays
and hints are CPU work: they run in the worker pool (games.core.workers), and the API
views wait for them in threads of their own, between the database steps here. Knows
the engine, the solver budgets and the models; nothing of HTTP.
"""

from __future__ import annotations

from typing import Any

from games.core import workers
from games.core.actors import Actor
from games.core.errors import Refused
from games.core.transactions import writing
from games.models import Deal, Game
from games.solo import play, winnable
from games.solo.deals import keep_verdict_now
from games.solo.history import current_line
from games.solo.owners import find_game


def finished_deal_for(actor: Actor, game_id: object) -> Deal:
    """The deal of the actor's finished game, for "was this winnable?".

    :raises NotFound: when there is no such game or it belongs to someone else.
    :raises Refused: ``not_finished`` while the game is in play: the answer shows
        the hidden cards.

    A lost game could be undone back into play, and then won with the line the answer
    shows; so asking settles it first: it is abandoned (still lost in the statistics)
    and can no longer change.
    """
    game = find_game(actor, game_id, lock=False)
    if game.status == Game.Status.PLAYING:
        raise Refused(
            "the game is still in play; the answer would show its hidden cards, so it comes "
            "once the game is over",
            "not_finished",
        )
    if game.status == Game.Status.LOST:
        game = play.abandon(actor, game_id).game
    deal: Deal = game.deal
    return deal


def judge_deal(deal: Deal) -> winnable.Verdict:
    """Whether the deal can be won from its start: a proof kept with the deal, or a
    search within ``winnable.VERDICT_BUDGET``. Pure CPU work, no database.

    :raises Unavailable: ``solver_busy`` when the process's solver slots are all taken.
    """
    if deal.verdict:
        kept = winnable.Verdict.from_dict(deal.verdict)
        # A kept win is checked again, in case the engine's rules changed since.
        if kept.status != "solved" or winning_views(deal, kept.moves, keep=()) is not None:
            return kept
    budget = winnable.VERDICT_BUDGET
    with winnable.solver_slot():
        return workers.run_sync(
            winnable.judge_seed,
            deal.game,
            deal.options,
            deal.seed,
            budget,
            cpu_seconds=winnable.cpu_seconds_for(budget.timeout),
        )


def keep_verdict(deal: Deal, verdict: winnable.Verdict) -> None:
    """Keep a proof with the deal (an unknown answer is not kept)."""
    if verdict.proved and deal.verdict != verdict.to_dict():
        with writing():
            keep_verdict_now(deal, verdict)


def verdict_payload(deal: Deal, verdict: winnable.Verdict, views: bool = False) -> dict[str, Any]:
    """The answer to "was this winnable?"; with ``views``, the engine's view after each
    move of the winning line (the deal first), each without its list of legal moves.

    Only for a finished game: the moves and views show cards that were face down.
    """
    payload = verdict.to_dict()
    if views:
        shown = winning_views(deal, verdict.moves) if verdict.status == "solved" else None
        payload["views"] = shown or []
    return payload


def winning_views(
    deal: Deal, moves: list[dict[str, Any]], keep: tuple[str, ...] | None = None
) -> list[dict[str, Any]] | None:
    """The view of the deal and after each move, each without its legal moves (or only
    the ``keep`` keys), if the moves are legal and win; else None. Replayed in the worker
    pool (games.core.workers), never on the event loop or the shared thread."""
    return workers.run_sync(
        workers.line_views,
        deal.game,
        deal.options,
        moves,
        seed=deal.seed,
        keep=keep,
        drop_moves=True,
        must_win=True,
        cpu_seconds=workers.REPLAY_CPU_SECONDS,
    )


def hint_for(actor: Actor, game_id: object) -> dict[str, Any] | None:
    """A useful legal move for the player, or None (also when the game is over).

    The hint engine sees only the player's view, never the face-down cards. It runs in
    the worker pool; call this from a thread of its own (the API view awaits the pool
    instead).
    """
    view = hint_view_for(actor, game_id)
    if view is None:
        return None
    return workers.run_sync(workers.hint, view, cpu_seconds=workers.HINT_CPU_SECONDS)


def hint_view_for(actor: Actor, game_id: object) -> dict[str, Any] | None:
    """The player's view to hint from, or None when the game is over.

    :raises NotFound: when the game is not the actor's.
    """
    game = find_game(actor, game_id, lock=False)
    if game.status != Game.Status.PLAYING:
        return None
    return current_line(game).state.view()
