"""Who is asking: a logged-in user, or an anonymous player known by a session token.

Anonymous players get a random token stored in the session data (not the session
key), because Django gives the session a new key on login while keeping its data;
the token is how a login finds the games to move to the account. This module knows
sessions and users, nothing of games' rules.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest

PLAYER_TOKEN_KEY = "player_token"


@dataclass(frozen=True, slots=True)
class Actor:
    """The one asking. ``user_id`` wins when set; ``token`` identifies an anonymous player."""

    user_id: int | None = None
    token: str | None = None

    @property
    def is_nobody(self) -> bool:
        """Neither logged in nor holding a token: owns nothing and can create nothing."""
        return self.user_id is None and not self.token


def actor_from(user: Any, session: SessionBase | None, *, create: bool = False) -> Actor:
    """The actor for a user and session; ``create`` gives an anonymous session a token.

    Reading the session may touch the database, so call this from sync code.
    """
    if user is not None and user.is_authenticated:
        return Actor(user_id=user.pk, token=session.get(PLAYER_TOKEN_KEY) if session else None)
    if session is None:
        return Actor()
    token = session.get(PLAYER_TOKEN_KEY)
    if not token and create:
        token = secrets.token_urlsafe(24)
        session[PLAYER_TOKEN_KEY] = token  # SessionMiddleware saves it and sets the cookie
    return Actor(token=token or None)


def actor_for_request(request: HttpRequest, *, create: bool = False) -> Actor:
    return actor_from(request.user, request.session, create=create)


def actor_for_scope(scope: dict[str, Any]) -> Actor:
    """The actor of a Channels connection (its scope carries the session and user)."""
    return actor_from(scope.get("user"), scope.get("session"))
