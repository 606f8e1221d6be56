"""What the engine thinks of a game: "was this winnable?" (the solver on the deal) and
hints (the hint engine on the player's view).

A verdict's moves show cards that were face down, so they are only told for a finished
game. Searches, replays of the winning line and hints are CPU work: they run in the
worker pool (games.core.workers), and the API views wait for them in threads of their
own (or await the pool), between the database steps here. Knows the engine, the solver
budgets and the models; nothing of HTTP.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import solitaire
from games.core import workers
from games.core.actors import Actor
from games.core.errors import Refused
from games.core.transactions import writing
from games.models import Deal, Game
from games.solo import play, winnable
from games.solo.deals import keep_verdict_now
from games.solo.history import Line, current_line, line_states, seen_states
from games.solo.owners import find_game
from solitaire import hints


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
    search within ``winnable.VERDICT_BUDGET``, in the worker pool. No database.

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


# The answer when the hint finds that no move can make progress.
LOST_REASON = "no useful move: the game is lost"


@dataclass(frozen=True, slots=True)
class HintJob:
    """What the hint worker gets for one game at one version, and nothing more: the
    player's view, the player's memory (``Memory.to_dict()``: cards the player saw
    face up, with the stock order seen) and the position keys of the earlier positions
    of the line in effect. No face-down card the player never saw is in it."""

    game_id: int
    version: int
    view: dict[str, Any]
    memory: dict[str, Any]
    seen: tuple[str, ...]

    def arguments(self) -> tuple[dict[str, Any], dict[str, Any], tuple[str, ...]]:
        """The worker's arguments: ``workers.advise(*job.arguments())``."""
        return self.view, self.memory, self.seen


def hint_line_for(actor: Actor, game_id: object) -> tuple[int, int, Line] | None:
    """The game's id, version and line to hint from (the cached line when it is there),
    or None when the game is over. The database step of a hint.

    :raises NotFound: when the game is not the actor's.
    """
    game = find_game(actor, game_id, lock=False)
    if game.status != Game.Status.PLAYING:
        return None
    return game.pk, game.version, current_line(game)


def hint_job(game_id: int, version: int, line: Line) -> HintJob:
    """The hint worker's arguments for the line: CPU work (the line's states are
    rebuilt from its moves, not from the log), no database. The memory also holds what
    the moves still to redo turned up (the player saw it before undoing them)."""
    states = line_states(line)
    memory = solitaire.Memory.from_states(seen_states(line))
    seen = tuple(dict.fromkeys(hints.position_key_of(state) for state in states[:-1]))
    return HintJob(game_id, version, states[-1].view(), memory.to_dict(), seen)


def hint_answer(actor: Actor, job: HintJob | None, advice: dict[str, Any] | None) -> dict[str, Any]:
    """The hint's answer, ``{"move", "lost", "reason"}``. When the worker found the game
    lost, the game ends as lost (``play.end_lost``) before the answer goes out."""
    if job is None or advice is None:
        return {"move": None, "lost": False, "reason": "the game is over"}
    if advice.get("lost"):
        play.end_lost(actor, job.game_id, job.version)
        return {"move": None, "lost": True, "reason": LOST_REASON}
    return {"move": advice.get("move"), "lost": False, "reason": str(advice.get("reason") or "")}


def hint_answer_for(actor: Actor, game_id: object) -> dict[str, Any]:
    """The hint's whole answer (see ``hint_answer``); run from a thread of its own (the
    API view awaits the pool instead).

    :raises NotFound: when the game is not the actor's.
    """
    found = hint_line_for(actor, game_id)
    if found is None:
        return hint_answer(actor, None, None)
    job = hint_job(*found)
    advice = workers.run_sync(workers.advise, *job.arguments(), cpu_seconds=workers.HINT_CPU_SECONDS)
    return hint_answer(actor, job, advice)


def hint_for(actor: Actor, game_id: object) -> dict[str, Any] | None:
    """A useful legal move for the player, or None (also when the game is over, or found
    lost: then it ends as lost).

    The hint engine sees only the player's view and memory, never the face-down cards
    the player has not seen. It runs in the worker pool; call this from a thread of its
    own.
    """
    move: dict[str, Any] | None = hint_answer_for(actor, game_id)["move"]
    return move
