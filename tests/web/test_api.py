"""The HTTP JSON API: status codes, CSRF, ownership, idempotency, undo, stats, health,
and anonymous games following their player into an account."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

import solitaire
from games.models import Game, Move
from games.solo import history
from tests.support.solo import an_illegal_move

pytestmark = pytest.mark.django_db

GAME_FIELDS = {
    "id", "url", "game", "options", "deal", "version", "status", "score", "elapsed",
    "moves_made", "paused", "winnable", "created", "updated", "state", "can_undo", "can_redo",
    "describe", "safe_moves", "options_text",
}  # fmt: skip


def post(client: Client, url: str, body: Any = None, **extra: Any) -> Any:
    data = "" if body is None else (body if isinstance(body, str) else json.dumps(body))
    return client.post(url, data, content_type="application/json", **extra)


def new_game(client: Client, deal: int = 7, **body: Any) -> dict[str, Any]:
    response = post(client, "/api/games", {"game": "klondike", "options": {"draw": 1}, "deal": deal, **body})
    assert response.status_code == 201, response.content
    return response.json()


def test_dealing_a_game_answers_201_with_the_game_and_its_view(client: Client) -> None:
    response = post(client, "/api/games", {"game": "klondike", "options": {"draw": 1}, "deal": 123})
    assert response.status_code == 201
    game = response.json()
    assert set(game) == GAME_FIELDS
    assert (game["game"], game["deal"], game["version"], game["status"]) == ("klondike", 123, 0, "playing")
    assert game["url"] == f"/play/{game['id']}/"
    assert response["Location"] == f"/api/games/{game['id']}"
    assert game["options"]["draw"] == 1
    assert game["state"]["piles"]["stock"] == 24
    assert "seed" not in json.dumps(game)
    assert client.get(f"/api/games/{game['id']}").json() == {**game, "updated": game["updated"]}


def test_a_deal_number_is_optional(client: Client) -> None:
    response = post(client, "/api/games", {"game": "josephine"})
    assert response.status_code == 201
    assert isinstance(response.json()["deal"], int)


@pytest.mark.parametrize(
    "body",
    [
        "{not json",
        "[1, 2]",
        {"game": "spider"},
        {"options": {"draw": 1}},
        {"game": "klondike", "options": {"draw": 5}},
        {"game": "klondike", "options": "draw=1"},
        {"game": "klondike", "deal": "seven"},
    ],
)
def test_malformed_new_games_get_400(client: Client, body: Any) -> None:
    response = post(client, "/api/games", body)
    assert response.status_code == 400
    assert response.json()["error"]
    assert not Game.objects.exists()


def test_csrf_is_enforced_and_the_token_from_the_cookie_works() -> None:
    client = Client(enforce_csrf_checks=True)
    refused = post(client, "/api/games", {"game": "klondike"})
    assert refused.status_code == 403
    assert refused.json()["code"] == "csrf"
    client.get("/api/games")
    token = client.cookies["csrftoken"].value
    accepted = post(client, "/api/games", {"game": "klondike"}, HTTP_X_CSRFTOKEN=token)
    assert accepted.status_code == 201
    game_id = accepted.json()["id"]
    move = accepted.json()["state"]["moves"][0]
    assert post(client, f"/api/games/{game_id}/moves", {"move": move}).status_code == 403
    assert Move.objects.count() == 0
    ok = post(client, f"/api/games/{game_id}/moves", {"move": move}, HTTP_X_CSRFTOKEN=token)
    assert ok.status_code == 200


def test_a_legal_move_answers_the_game_at_its_new_version(client: Client) -> None:
    game = new_game(client)
    move = game["state"]["moves"][0]
    response = post(client, f"/api/games/{game['id']}/moves", {"move": move})
    assert response.status_code == 200
    after = response.json()
    assert (after["version"], after["moves_made"]) == (1, 1)
    assert after["state"] != game["state"]


def test_an_illegal_move_gets_409_with_the_engines_reason(client: Client) -> None:
    import solitaire

    game = new_game(client)
    state = Game.objects.get(pk=game["id"])

    engine_state = history.current_line(state).state
    move = an_illegal_move(engine_state)
    with pytest.raises(solitaire.IllegalMove) as reason:
        engine_state.apply(move)
    response = post(client, f"/api/games/{game['id']}/moves", {"move": move})
    assert response.status_code == 409
    assert response.json()["error"] == str(reason.value)
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 0


@pytest.mark.parametrize(
    "body", ["{", {"move": {"from": "t42", "to": "f1"}}, {"move": None}, {"move": {"to": "f1"}}]
)
def test_malformed_moves_get_400(client: Client, body: Any) -> None:
    game = new_game(client)
    response = post(client, f"/api/games/{game['id']}/moves", body)
    assert response.status_code == 400
    assert response.json()["error"]
    assert not Move.objects.exists()


def test_a_stale_version_gets_409(client: Client) -> None:
    game = new_game(client)
    moves = game["state"]["moves"]
    post(client, f"/api/games/{game['id']}/moves", {"move": moves[0], "version": 0})
    response = post(client, f"/api/games/{game['id']}/moves", {"move": moves[0], "version": 0})
    assert response.status_code == 409
    assert response.json()["code"] == "stale"
    assert response.json()["data"]["version"] == 1


def test_a_repeated_move_id_is_applied_once(client: Client) -> None:
    game = new_game(client)
    body = {"move": game["state"]["moves"][0], "id": "tab-1:1"}
    first = post(client, f"/api/games/{game['id']}/moves", body)
    again = post(client, f"/api/games/{game['id']}/moves", body)
    assert first.status_code == again.status_code == 200
    assert first.json()["version"] == again.json()["version"] == 1
    assert Move.objects.count() == 1


def test_undo_answers_the_game_one_move_back(client: Client) -> None:
    game = new_game(client)
    post(client, f"/api/games/{game['id']}/moves", {"move": game["state"]["moves"][0]})
    response = post(client, f"/api/games/{game['id']}/undo")
    assert response.status_code == 200
    assert response.json()["state"] == game["state"]
    assert response.json()["version"] == 2
    assert Move.objects.order_by("seq").last().move == {"undo": True}
    nothing = post(client, f"/api/games/{game['id']}/undo")
    assert nothing.status_code == 409


def test_autofinish_is_refused_with_409_while_cards_are_hidden(client: Client) -> None:
    game = new_game(client)
    response = post(client, f"/api/games/{game['id']}/autofinish")
    assert response.status_code == 409
    assert response.json()["code"] == "cannot_auto_finish"


def test_a_hint_is_one_of_the_legal_moves(client: Client) -> None:
    game = new_game(client)
    response = client.get(f"/api/games/{game['id']}/hint")
    assert response.status_code == 200
    assert response.json()["move"] in game["state"]["moves"]


def test_someone_elses_game_is_404_everywhere(client: Client) -> None:
    game = new_game(client)
    stranger = Client()
    base = f"/api/games/{game['id']}"
    move = {"move": game["state"]["moves"][0]}
    assert stranger.get(base).status_code == 404
    assert stranger.get(f"{base}/hint").status_code == 404
    assert post(stranger, f"{base}/moves", move).status_code == 404
    assert post(stranger, f"{base}/undo").status_code == 404
    assert post(stranger, f"{base}/autofinish").status_code == 404
    assert stranger.get("/api/games").json() == {"games": [], "page": 1, "next": None}
    assert client.get("/api/games/999999").status_code == 404
    assert client.get("/api/games/99999999999999999999999").status_code == 404
    assert not Move.objects.exists()


def test_the_games_list_is_newest_first_without_states(client: Client) -> None:
    ids = [new_game(client, deal=n)["id"] for n in (1, 2, 3)]
    games = client.get("/api/games").json()["games"]
    assert [g["id"] for g in games] == ids[::-1]
    assert all(
        set(g) == GAME_FIELDS - {"state", "can_undo", "can_redo", "describe", "safe_moves"} for g in games
    )
    # The options in the engine's words, so that the page never spells option names.
    assert {g["options_text"] for g in games} == {
        solitaire.rules_for("klondike", **games[0]["options"]).describe()["options_text"]
    }
    assert games[0]["options_text"].startswith("Draw ")


def test_statistics_follow_the_caller(client: Client) -> None:
    game = new_game(client)
    post(client, f"/api/games/{game['id']}/moves", {"move": game["state"]["moves"][0]})
    stats = client.get("/api/stats").json()
    assert stats["overall"]["played"] == 1
    assert stats["variants"][0]["game"] == "klondike"
    assert stats["variants"][0]["options_text"] == game["describe"]["options_text"] != ""
    assert Client().get("/api/stats").json()["overall"]["played"] == 0


def test_wrong_methods_are_refused(client: Client) -> None:
    game = new_game(client)
    assert client.get(f"/api/games/{game['id']}/moves").status_code == 405
    assert client.put(f"/api/games/{game['id']}").status_code == 405


def test_health_checks_the_database_and_the_channel_layer(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "channel_layer": "ok"}


def test_a_broken_channel_layer_makes_health_fail(client: Client, settings: Any) -> None:
    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:1"]},
        }
    }
    channel_layers.backends.clear()
    try:
        response = client.get("/healthz")
    finally:
        channel_layers.backends.clear()
    assert response.status_code == 503
    assert response.json()["channel_layer"].startswith("error")
    assert response.json()["database"] == "ok"


# ------------------------------------------------------------------ accounts


def test_signing_up_moves_this_browsers_games_to_the_account(client: Client) -> None:
    game = new_game(client)
    response = client.post(
        "/accounts/signup/",
        {"username": "ana", "password1": "a-long-passphrase-9", "password2": "a-long-passphrase-9"},
    )
    assert response.status_code == 302
    user = User.objects.get(username="ana")
    assert Game.objects.get(pk=game["id"]).owner == user
    # The account's games follow it to another browser.
    elsewhere = Client()
    elsewhere.login(username="ana", password="a-long-passphrase-9")
    assert [g["id"] for g in elsewhere.get("/api/games").json()["games"]] == [game["id"]]
    assert elsewhere.get(f"/api/games/{game['id']}").status_code == 200


def test_logging_in_moves_this_browsers_games_and_nobody_elses(client: Client) -> None:
    User.objects.create_user("ben", password="a-long-passphrase-9")
    mine = new_game(client, deal=1)
    someone = Client()
    theirs = new_game(someone, deal=2)
    response = client.post("/accounts/login/", {"username": "ben", "password": "a-long-passphrase-9"})
    assert response.status_code == 302
    assert [g["id"] for g in client.get("/api/games").json()["games"]] == [mine["id"]]
    assert [g["id"] for g in someone.get("/api/games").json()["games"]] == [theirs["id"]]
    client.post("/accounts/logout/")
    assert client.get("/api/games").json() == {"games": [], "page": 1, "next": None}
    assert client.get(f"/api/games/{mine['id']}").status_code == 404


def test_a_bad_signup_creates_no_account(client: Client) -> None:
    response = client.post("/accounts/signup/", {"username": "ana", "password1": "x", "password2": "y"})
    assert not User.objects.exists()
    # The form is shown again (rendered by the front end's template).
    assert response.status_code == 200
