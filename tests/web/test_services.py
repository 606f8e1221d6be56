"""The service layer: deals, the append-only log, undo, idempotency, versions, replay,
ownership, elapsed time and statistics, with the real engine and database."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.core import errors
from games.core.actors import Actor
from games.models import Deal, Game, Move
from games.solo import deals, history, owners, payloads, verdicts
from games.solo import play as solo_play
from games.solo import stats as solo_stats
from tests.support.solo import an_illegal_move, apply_action, engine_state, klondike

pytestmark = pytest.mark.django_db


def first_move(snapshot: payloads.Snapshot) -> dict[str, Any]:
    return snapshot.state.view()["moves"][0]


def play(actor: Actor, game_id: int, move: dict[str, Any], **kwargs: Any) -> payloads.Snapshot:
    return apply_action(game_id, actor, {"type": "move", "move": move}, **kwargs)


def undo(actor: Actor, game_id: int, **kwargs: Any) -> payloads.Snapshot:
    return apply_action(game_id, actor, {"type": "undo"}, **kwargs)


# ------------------------------------------------------------------ deals


def test_a_deal_number_always_deals_the_same_cards(ana: Actor) -> None:
    one = klondike(ana, deal=42)
    two = klondike(ana, deal=42)
    assert one.game.deal_id == two.game.deal_id
    assert one.state.to_position() == two.state.to_position()
    assert one.state.to_position() == engine_state(one).to_position()


def test_the_seed_is_keyed_by_the_deal_secret_not_the_secret_key(settings: Any) -> None:
    key = deals.canonical_json({"draw": 1})
    seed = deals.deal_seed("klondike", key, 42)
    settings.SECRET_KEY = "another-secret-key"
    assert deals.deal_seed("klondike", key, 42) == seed
    settings.DEAL_SECRET = "another-deal-secret"
    assert deals.deal_seed("klondike", key, 42) != seed


def test_the_seed_depends_on_game_options_and_number() -> None:
    seeds = {
        deals.deal_seed("klondike", deals.canonical_json({"draw": 1}), 42),
        deals.deal_seed("klondike", deals.canonical_json({"draw": 3}), 42),
        deals.deal_seed("klondike", deals.canonical_json({"draw": 1}), 43),
        deals.deal_seed("josephine", deals.canonical_json({}), 42),
    }
    assert len(seeds) == 4
    assert all(0 <= seed < 2**63 for seed in seeds)


def test_a_stored_seed_survives_a_change_of_secret(ana: Actor, settings: Any) -> None:
    snapshot = klondike(ana, deal=42)
    play(ana, snapshot.game.pk, first_move(snapshot))
    before = solo_play.get_game_for(ana, snapshot.game.pk).state.to_position()
    settings.DEAL_SECRET = "rotated"
    history.positions.clear()
    assert solo_play.get_game_for(ana, snapshot.game.pk).state.to_position() == before


def test_options_are_stored_as_the_engine_reads_them(ana: Actor) -> None:
    snapshot = klondike(ana)
    assert snapshot.game.deal.options == snapshot.state.options
    assert snapshot.game.deal.options["draw"] == 1
    assert Deal.objects.count() == 1


@pytest.mark.parametrize(
    ("game", "options", "deal", "code"),
    [
        ("spider", {}, None, "unknown_game"),
        ("double", {}, None, "unknown_game"),
        ("klondike", {"draw": 2}, None, "bad_options"),
        ("klondike", {"colour": "red"}, None, "bad_options"),
        ("klondike", ["draw"], None, "bad_options"),
        ("klondike", {}, -1, "bad_deal"),
        ("klondike", {}, "12", "bad_deal"),
        ("klondike", {}, 2**53, "bad_deal"),
    ],
)
def test_bad_new_games_are_refused(ana: Actor, game: str, options: Any, deal: Any, code: str) -> None:
    with pytest.raises(errors.BadRequest) as refused:
        solo_play.create_game(ana, game, options, deal)
    assert refused.value.code == code
    assert not Game.objects.exists()


def test_every_single_player_game_can_be_dealt(ana: Actor) -> None:
    for name in deals.SINGLE_PLAYER_GAMES:
        snapshot = solo_play.create_game(ana, name, {}, 5)
        assert snapshot.game.deal.game == name
        assert snapshot.state.view()["game"] == name


# ------------------------------------------------------------------ moves and the log


def test_a_legal_move_appends_one_log_entry(ana: Actor) -> None:
    snapshot = klondike(ana)
    move = first_move(snapshot)
    after = play(ana, snapshot.game.pk, move)
    assert after.game.version == 1
    assert after.game.moves_made == 1
    assert list(Move.objects.values_list("seq", "move")) == [(1, move)]
    assert after.state == engine_state(snapshot).apply(move)


def test_an_illegal_move_is_refused_with_the_engines_reason(ana: Actor) -> None:
    snapshot = klondike(ana)
    move = an_illegal_move(snapshot.state)
    with pytest.raises(errors.Refused) as refused:
        play(ana, snapshot.game.pk, move)
    try:
        snapshot.state.apply(move)
    except ValueError as error:
        assert refused.value.message == str(error)
    assert not Move.objects.exists()
    assert Game.objects.get().version == 0


@pytest.mark.parametrize(
    "move",
    [
        {"from": "t9", "to": "f1"},
        {"from": "t1", "to": "nowhere"},
        {"from": "t1"},
        {"from": "t1", "to": "f1", "count": 0},
        {"from": "t1", "to": "f1", "count": "all"},
        {"from": "t1", "to": "f1", "speed": 3},
    ],
)
def test_malformed_moves_are_bad_requests(ana: Actor, move: dict[str, Any]) -> None:
    snapshot = klondike(ana)
    with pytest.raises(errors.BadRequest):
        play(ana, snapshot.game.pk, move)
    assert not Move.objects.exists()


@pytest.mark.parametrize(
    "action", [{}, {"type": "teleport"}, {"type": "move"}, {"type": "move", "move": "t1f1"}]
)
def test_malformed_actions_are_bad_requests(ana: Actor, action: dict[str, Any]) -> None:
    snapshot = klondike(ana)
    with pytest.raises(errors.BadRequest):
        apply_action(snapshot.game.pk, ana, action)


def test_the_log_is_append_only(ana: Actor) -> None:
    snapshot = klondike(ana)
    play(ana, snapshot.game.pk, first_move(snapshot))
    entry = Move.objects.get()
    entry.move = {"from": "t1", "to": "f1", "count": 1}
    with pytest.raises(ValueError, match="append-only"):
        entry.save()
    with pytest.raises(ValueError, match="append-only"):
        entry.delete()


# ------------------------------------------------------------------ undo


def test_undo_is_a_new_log_entry_that_steps_back(ana: Actor) -> None:
    snapshot = klondike(ana)
    dealt = snapshot.state
    play(ana, snapshot.game.pk, first_move(snapshot))
    after = undo(ana, snapshot.game.pk)
    assert after.game.version == 2
    assert after.game.moves_made == 1
    assert after.state == dealt
    assert [entry.move for entry in Move.objects.all()][-1] == {"undo": True}
    assert Move.objects.count() == 2


def test_undoing_an_undo_steps_back_further_and_never_redoes(ana: Actor) -> None:
    snapshot = klondike(ana)
    dealt = snapshot.state
    one = play(ana, snapshot.game.pk, first_move(snapshot))
    two = play(ana, snapshot.game.pk, one.state.view()["moves"][0])
    assert undo(ana, snapshot.game.pk).state == one.state
    assert undo(ana, snapshot.game.pk).state == dealt
    with pytest.raises(errors.Refused) as refused:
        undo(ana, snapshot.game.pk)
    assert refused.value.code == "nothing_to_undo"
    assert two.game.version == 2
    assert Game.objects.get().version == 4


# ------------------------------------------------------------------ idempotency and versions


def test_a_repeated_client_id_is_applied_once(ana: Actor) -> None:
    snapshot = klondike(ana)
    move = first_move(snapshot)
    first = play(ana, snapshot.game.pk, move, client_id="m-1")
    again = play(ana, snapshot.game.pk, move, client_id="m-1")
    assert first.applied and not again.applied
    assert again.game.version == 1
    assert Move.objects.count() == 1


def test_a_repeated_client_id_is_applied_once_even_for_another_action(ana: Actor) -> None:
    snapshot = klondike(ana)
    play(ana, snapshot.game.pk, first_move(snapshot), client_id=7)
    again = undo(ana, snapshot.game.pk, client_id="7")
    assert not again.applied
    assert Move.objects.count() == 1


def test_a_stale_version_is_refused(ana: Actor) -> None:
    snapshot = klondike(ana)
    after = play(ana, snapshot.game.pk, first_move(snapshot), expected_version=0)
    with pytest.raises(errors.Refused) as refused:
        play(ana, snapshot.game.pk, after.state.view()["moves"][0], expected_version=0)
    assert refused.value.code == "stale"
    assert refused.value.data == {"version": 1}
    assert Move.objects.count() == 1


@pytest.mark.parametrize("client_id", ["", "x" * 65, 1.5, True, ["m"], "m\x001", "m\ud800"])
def test_bad_client_ids_are_refused(ana: Actor, client_id: object) -> None:
    snapshot = klondike(ana)
    with pytest.raises(errors.BadRequest):
        play(ana, snapshot.game.pk, first_move(snapshot), client_id=client_id)


# ------------------------------------------------------------------ replay and cache


def test_the_replayed_log_equals_the_cached_state(
    ana: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    snapshot = klondike(ana)
    game_id = snapshot.game.pk
    state = snapshot.state
    # The cache is filled once a change commits.
    with django_capture_on_commit_callbacks(execute=True):
        for step in range(12):
            if step % 4 == 3:
                state = undo(ana, game_id).state
            else:
                state = play(ana, game_id, state.view()["moves"][0]).state
    game = Game.objects.get(pk=game_id)
    assert history.positions.get(game_id, game.version) is not None
    assert history.current_line(game).state == state
    assert history.replayed_line(game).state == state
    history.positions.clear()
    assert solo_play.get_game_for(ana, game_id).state == state


def test_a_cached_line_of_an_old_version_is_not_used(ana: Actor) -> None:
    snapshot = klondike(ana)
    game_id = snapshot.game.pk
    play(ana, game_id, first_move(snapshot))
    # As if another process moved on: the cache here still holds version 0.
    history.positions.clear()
    history.positions.put(game_id, 0, history.Position(snapshot.game, history.Line(snapshot.state)))
    assert solo_play.get_game_for(ana, game_id).state == engine_state(snapshot).apply(first_move(snapshot))


# ------------------------------------------------------------------ ownership


def test_someone_elses_game_is_not_found(ana: Actor, ben: Actor) -> None:
    snapshot = klondike(ana)
    with pytest.raises(errors.NotFound):
        solo_play.get_game_for(ben, snapshot.game.pk)
    with pytest.raises(errors.NotFound):
        play(ben, snapshot.game.pk, first_move(snapshot))
    with pytest.raises(errors.NotFound):
        solo_play.get_game_for(Actor(), snapshot.game.pk)
    assert solo_play.list_games_for(ben).games == []
    assert not Move.objects.exists()


def test_a_users_games_are_theirs_and_not_their_sessions(ana: Actor) -> None:
    user = User.objects.create_user("carla", password="pw-carla-123")
    carla = Actor(user_id=user.pk, token=ana.token)
    snapshot = klondike(carla)
    assert snapshot.game.owner == user
    with pytest.raises(errors.NotFound):
        solo_play.get_game_for(ana, snapshot.game.pk)
    assert solo_play.list_games_for(carla).games == [snapshot.game]


def test_anonymous_games_move_to_the_account(ana: Actor, ben: Actor) -> None:
    user = User.objects.create_user("dora", password="pw-dora-123")
    mine = klondike(ana)
    theirs = klondike(ben)
    assert owners.give_anonymous_games(ana.token, user.pk) == 1
    dora = Actor(user_id=user.pk)
    assert [g.pk for g in solo_play.list_games_for(dora).games] == [mine.game.pk]
    assert solo_play.list_games_for(ana).games == []
    assert [g.pk for g in solo_play.list_games_for(ben).games] == [theirs.game.pk]


def test_games_are_listed_newest_first(ana: Actor) -> None:
    ids = [klondike(ana, deal=n).game.pk for n in (1, 2, 3)]
    assert [g.pk for g in solo_play.list_games_for(ana).games] == ids[::-1]


# ------------------------------------------------------------------ elapsed time


def test_elapsed_time_counts_pauses_up_to_a_minute(ana: Actor, monkeypatch: Any) -> None:
    start = timezone.now()
    clock = {"now": start}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    snapshot = klondike(ana)
    clock["now"] = start + timedelta(seconds=10)
    after = play(ana, snapshot.game.pk, first_move(snapshot))
    clock["now"] = start + timedelta(seconds=10 + 3600)
    after = play(ana, snapshot.game.pk, after.state.view()["moves"][0])
    assert after.game.elapsed == timedelta(seconds=10 + 60)
    assert payloads.game_payload(after)["elapsed"] == 70


def test_a_paused_span_is_not_counted_as_play(ana: Actor, monkeypatch: Any) -> None:
    start = timezone.now()
    clock = {"now": start}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    snapshot = klondike(ana)
    game_id = snapshot.game.pk
    clock["now"] = start + timedelta(seconds=10)
    after = play(ana, game_id, first_move(snapshot))
    # 5 s of play, then a pause of 40 s (less than the idle cap: it would have counted).
    clock["now"] = start + timedelta(seconds=15)
    assert solo_play.set_paused(ana, game_id, True) == after.game.version
    clock["now"] = start + timedelta(seconds=16)
    assert solo_play.set_paused(ana, game_id, True) == after.game.version  # again: no change
    clock["now"] = start + timedelta(seconds=55)
    solo_play.set_paused(ana, game_id, False)
    clock["now"] = start + timedelta(seconds=58)
    after = play(ana, game_id, after.state.view()["moves"][0])
    assert after.game.elapsed == timedelta(seconds=10 + 5 + 3)
    # Resuming a running game changes nothing: it cannot wipe out time played.
    clock["now"] = start + timedelta(seconds=68)
    solo_play.set_paused(ana, game_id, False)
    clock["now"] = start + timedelta(seconds=70)
    after = play(ana, game_id, after.state.view()["moves"][0])
    assert after.game.elapsed == timedelta(seconds=18 + 12)
    # The log holds moves only: pausing is no entry, and the version did not move for it.
    assert [entry.seq for entry in Move.objects.filter(game_id=game_id)] == [1, 2, 3]


def test_a_move_made_while_paused_resumes_without_counting_the_pause(
    ana: Actor, ben: Actor, monkeypatch: Any
) -> None:
    start = timezone.now()
    clock = {"now": start}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    snapshot = klondike(ana)
    clock["now"] = start + timedelta(seconds=4)
    solo_play.set_paused(ana, snapshot.game.pk, True)
    clock["now"] = start + timedelta(seconds=50)
    after = play(ana, snapshot.game.pk, first_move(snapshot))
    assert after.game.elapsed == timedelta(seconds=4)
    assert Game.objects.get(pk=snapshot.game.pk).paused_at is None
    with pytest.raises(errors.NotFound):
        solo_play.set_paused(ben, snapshot.game.pk, True)


def test_the_payload_says_whether_the_game_is_paused(ana: Actor) -> None:
    snapshot = klondike(ana)
    game_id = snapshot.game.pk
    assert payloads.game_payload(solo_play.get_game_for(ana, game_id))["paused"] is False
    solo_play.set_paused(ana, game_id, True)
    # What a reloaded page is given: it shows the game paused, as the server keeps it.
    assert payloads.game_payload(solo_play.get_game_for(ana, game_id))["paused"] is True
    after = play(ana, game_id, first_move(snapshot))
    assert payloads.game_payload(after)["paused"] is False  # a move resumed it


# ------------------------------------------------------------------ auto-finish and hints


def test_auto_finish_is_refused_while_cards_are_hidden(ana: Actor) -> None:
    snapshot = klondike(ana)
    with pytest.raises(errors.Refused) as refused:
        apply_action(snapshot.game.pk, ana, {"type": "autofinish"})
    assert refused.value.code == "cannot_auto_finish"
    assert not Move.objects.exists()


def test_a_hint_is_a_legal_move(ana: Actor) -> None:
    snapshot = klondike(ana)
    hint = verdicts.hint_for(ana, snapshot.game.pk)
    assert hint is not None
    assert hint in snapshot.state.view()["moves"]


# ------------------------------------------------------------------ statistics


def _finished(actor: Actor, deal: int, status: str, *, score: int, seconds: int, **options: Any) -> None:
    """A game finished as ``status``; only statistics read these fields."""
    snapshot = klondike(actor, deal=deal, **options)
    Game.objects.filter(pk=snapshot.game.pk).update(
        status=status, version=5, score=score, elapsed=timedelta(seconds=seconds)
    )


def test_statistics_count_wins_streaks_and_bests_per_variant(ana: Actor, ben: Actor) -> None:
    won, lost = Game.Status.WON, Game.Status.LOST
    _finished(ana, 1, won, score=500, seconds=300)
    _finished(ana, 2, won, score=400, seconds=200)
    _finished(ana, 3, lost, score=90, seconds=50)
    _finished(ana, 4, won, score=700, seconds=250)
    _finished(ana, 5, won, score=600, seconds=400)
    klondike(ana, deal=6)  # dealt, never played: not counted
    _finished(ana, 7, won, score=100, seconds=100, draw=3)
    _finished(ben, 8, won, score=1, seconds=1)

    stats = solo_stats.statistics_for(ana)
    assert stats["overall"] == {
        "played": 6,
        "won": 5,
        "win_rate": 0.8333,
        "current_streak": 3,
        "best_streak": 3,
        "best_time": 100,
        "best_score": 700,
    }
    draw_one = next(v for v in stats["variants"] if v["options"]["draw"] == 1)
    assert draw_one["game"] == "klondike"
    assert draw_one["options_text"] == "Draw 1 · Standard scoring"
    texts = {v["options_text"] for v in stats["variants"]}
    assert texts == {"Draw 1 · Standard scoring", "Draw 3 · Standard scoring"}
    assert (draw_one["played"], draw_one["won"], draw_one["current_streak"]) == (5, 4, 2)
    assert (draw_one["best_streak"], draw_one["best_time"], draw_one["best_score"]) == (2, 200, 700)
    assert len(stats["variants"]) == 2


def test_a_game_left_unfinished_breaks_the_streak_only_once_another_finishes(ana: Actor) -> None:
    won = Game.Status.WON
    _finished(ana, 1, won, score=1, seconds=1)
    in_play = klondike(ana, deal=2)
    play(ana, in_play.game.pk, first_move(in_play))
    assert solo_stats.statistics_for(ana)["overall"]["current_streak"] == 1
    _finished(ana, 3, won, score=1, seconds=1)
    overall = solo_stats.statistics_for(ana)["overall"]
    assert (overall["current_streak"], overall["best_streak"], overall["played"]) == (1, 1, 3)


def test_nobody_has_empty_statistics() -> None:
    assert solo_stats.statistics_for(Actor()) == {
        "overall": {
            "played": 0,
            "won": 0,
            "win_rate": None,
            "current_streak": 0,
            "best_streak": 0,
            "best_time": None,
            "best_score": None,
        },
        "variants": [],
    }
