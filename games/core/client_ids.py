"""Client ids: the sender's name for a change, so a resent message is applied once.

Stored with the log entry it made, under a unique constraint per game (per seat in a
race). Knows nothing of games.
"""

from __future__ import annotations

from games.core.errors import BadRequest

MAX_CLIENT_ID_LENGTH = 64


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
