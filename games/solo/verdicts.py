"""What the engine thinks of a game: "was this winnable?" (the solver on the deal) and
hints (the hint engine on the player's view).

A verdict's moves show cards that were face down, so they are only told for a finished
game. Searches are pure CPU work: the async API views run them in threads of their
own, between the database steps here. Knows the engine, the solver budgets and the
models; nothing of HTTP.
"""

from __future__ import annotations

from typing import Any

import solitaire
from games.core.actors import Actor
from games.core.errors import Refused
from games.core.transactions import writing
from games.models import Deal, Game
from games.solo import winnable
from games.solo.deals import dealt_state
from games.solo.history import current_line
from games.solo.owners import find_game


def finished_deal_for(actor: Actor, game_id: object) -> Deal:
    """The deal of the actor's finished game, for "was this winnable?".

    :raises NotFound: when there is no such game or it belongs to someone else.
    :raises Refused: ``not_finished`` while the game is in play: the answer shows
        the hidden cards.
    """
    game = find_game(actor, game_id, lock=False)
    if game.status == Game.Status.PLAYING:
        raise Refused(
            "the game is still in play; the answer would show its hidden cards, so it comes "
            "once the game is over",
            "not_finished",
        )
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
        if kept.status != "solved" or winning_states(deal, kept.moves) is not None:
            return kept
    with winnable.solver_slot():
        return winnable.judge(dealt_state(deal), winnable.VERDICT_BUDGET)


def keep_verdict(deal: Deal, verdict: winnable.Verdict) -> None:
    """Keep a proof with the deal (an unknown answer is not kept)."""
    if verdict.proved and deal.verdict != verdict.to_dict():
        with writing():
            keep_verdict_now(deal, verdict)


def keep_verdict_now(deal: Deal, verdict: winnable.Verdict) -> None:
    """``keep_verdict`` inside the caller's transaction."""
    deal.winnable = verdict.status == "solved"
    deal.verdict = verdict.to_dict()
    deal.save(update_fields=["winnable", "verdict"])


def verdict_payload(deal: Deal, verdict: winnable.Verdict, views: bool = False) -> dict[str, Any]:
    """The answer to "was this winnable?"; with ``views``, the engine's view after each
    move of the winning line (the deal first), each without its list of legal moves.

    Only for a finished game: the moves and views show cards that were face down.
    """
    payload = verdict.to_dict()
    if views:
        states = winning_states(deal, verdict.moves) if verdict.status == "solved" else None
        payload["views"] = [{**state.view(), "moves": []} for state in states or []]
    return payload


def winning_states(deal: Deal, moves: list[dict[str, Any]]) -> list[solitaire.State] | None:
    """The deal and the state after each move, if the moves are legal and win; else None."""
    states = [dealt_state(deal)]
    try:
        for move in moves:
            states.append(states[-1].apply(solitaire.Move.from_dict(move)))
    except ValueError:  # IllegalMove is a ValueError too
        return None
    return states if states[-1].is_won else None


def hint_for(actor: Actor, game_id: object) -> dict[str, Any] | None:
    """A useful legal move for the player, or None (also when the game is over).

    The hint engine sees only the player's view, never the face-down cards.
    """
    game = find_game(actor, game_id, lock=False)
    if game.status != Game.Status.PLAYING:
        return None
    return solitaire.hint(current_line(game).state.view())
