"""Client input that is stored as text: ids (the sender's name for a change, so a
resent message is applied once) and versions, and the check every stored string passes.

Ids are stored with the log entry they made, under a unique constraint per game (per
seat in a race). Knows nothing of games.
"""

from __future__ import annotations

from games.core.errors import BadRequest

MAX_CLIENT_ID_LENGTH = 64


def storable(text: str) -> bool:
    """Can ``text`` be stored and sent back as it is? Not with a NUL (PostgreSQL refuses
    it) or a lone surrogate (not UTF-8 at all)."""
    return "\x00" not in text and not any("\ud800" <= char <= "\udfff" for char in text)


def clean_client_id(client_id: object) -> str | None:
    """A client's id for a change, as stored: a short string (numbers are accepted).

    :raises BadRequest: for anything else.
    """
    if client_id is None:
        return None
    if isinstance(client_id, int) and not isinstance(client_id, bool):
        client_id = str(client_id)
    if not isinstance(client_id, str) or not 0 < len(client_id) <= MAX_CLIENT_ID_LENGTH:
        raise BadRequest(f"an id must be a string of 1 to {MAX_CLIENT_ID_LENGTH} characters")
    if not storable(client_id):
        raise BadRequest("an id may not hold a NUL or a lone surrogate")
    return client_id


def clean_version(version: object) -> int | None:
    """The version a client says it saw, when it says one.

    :raises BadRequest: for anything but a whole number.
    """
    if version is None:
        return None
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise BadRequest("the version must be a whole number")
    return version
