"""games.core on its own: the versioned cache, client ids and versions, engine errors."""

from __future__ import annotations

import pytest

import solitaire
from games.core import cache, errors
from games.core.client_ids import clean_version


def test_a_cached_value_is_only_given_for_its_own_version() -> None:
    kept: cache.VersionedCache[int, str] = cache.VersionedCache("test", 2)
    kept.put(1, 5, "five")
    assert kept.get(1, 5) == "five"
    assert kept.get(1, 4) is None and kept.get(1, 6) is None
    kept.put(1, 4, "four")  # older than what is kept: ignored
    assert kept.latest(1) == (5, "five")
    kept.put(2, 1, "a")
    kept.put(3, 1, "b")  # over the size: the least recently used goes
    assert kept.get(1, 5) is None and kept.get(3, 1) == "b"
    cache.clear_all()
    assert len(kept) == 0


@pytest.mark.parametrize("version", [None, 0, 7])
def test_a_version_is_none_or_a_whole_number(version: int | None) -> None:
    assert clean_version(version) == version


def test_engine_refusals_become_service_errors_with_their_code_and_data() -> None:
    state = solitaire.new_game("klondike", seed=1, draw=1)
    caught = []
    for move in ({"from": "t9", "to": "f1"}, {"from": "stock", "to": "t1"}):
        try:
            state.apply(move)
        except ValueError as error:
            caught.append(errors.from_engine(error))
    unknown, illegal = caught
    assert (type(unknown), unknown.code, unknown.data) == (errors.BadRequest, "unknown_pile", {"pile": "t9"})
    assert type(illegal) is errors.Refused and illegal.code == "no_such_move"
    assert illegal.as_dict() == {"error": illegal.message, "code": "no_such_move", "data": illegal.data}
