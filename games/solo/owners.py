"""Whose game it is: the games an actor owns, found by id, and moving anonymous games
to an account. An outsider's game and a missing one look alike (NotFound).
Knows the models and actors; nothing of the engine.
"""

from __future__ import annotations

from django.db.models import QuerySet

from games.core.actors import Actor
from games.core.errors import NotFound
from games.core.transactions import send_after_commit, writing
from games.models import Game, game_group


def owned_games(actor: Actor) -> QuerySet[Game]:
    """The games ``actor`` owns: a user's own, or an anonymous token's unclaimed ones."""
    if actor.user_id is not None:
        return Game.objects.filter(owner_id=actor.user_id)
    if actor.token:
        return Game.objects.filter(owner__isnull=True, owner_key=actor.token)
    return Game.objects.none()


def find_game(actor: Actor, game_id: object, *, lock: bool) -> Game:
    """The actor's game ``game_id`` with its deal; ``lock`` locks its row until commit.

    :raises NotFound: when there is no such game or it belongs to someone else.
    """
    if isinstance(game_id, bool) or not isinstance(game_id, int) or not 0 < game_id < 2**63:
        raise NotFound("there is no such game")
    games = owned_games(actor).select_related("deal")
    if lock:
        games = games.select_for_update(of=("self",))
    try:
        game: Game = games.get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound("there is no such game") from None
    return game


def moved_to_account(actor: Actor, game_id: object) -> bool:
    """Did ``game_id`` belong to this anonymous actor until it moved to an account?

    A tab of a browser that signed up in another tab keeps the old session's token:
    its game is no longer found, and this tells it why.
    """
    if actor.user_id is not None or not actor.token or not isinstance(game_id, int):
        return False
    moved: bool = Game.objects.filter(pk=game_id, owner__isnull=False, owner_key=actor.token).exists()
    return moved


def give_anonymous_games(token: str | None, user_id: int) -> int:
    """Give the games of an anonymous token to a user (on login); returns how many.

    ``owner_key`` is kept, so a stale tab of that session can be told where its game went.
    """
    if not token:
        return 0
    with writing():
        moved = list(Game.objects.filter(owner__isnull=True, owner_key=token).values_list("pk", flat=True))
        Game.objects.filter(pk__in=moved).update(owner_id=user_id)
        for game_id in moved:
            # Each socket of the game reads it again: an anonymous tab is told it moved.
            send_after_commit(game_group(game_id), {"type": "game.moved", "game": game_id})
    return len(moved)
