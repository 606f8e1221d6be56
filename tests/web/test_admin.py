"""The Django admin shows deals, games and their read-only move logs."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.core.actors import Actor
from games.models import Move
from tests.support.solo import apply_action, klondike

pytestmark = pytest.mark.django_db


def test_the_admin_shows_a_game_with_its_log_read_only(admin_client: Client, ana: Actor) -> None:
    snapshot = klondike(ana)
    move: dict[str, Any] = snapshot.state.view()["moves"][0]
    apply_action(snapshot.game.pk, ana, {"type": "move", "move": move}, client_id="adm-1")
    for url in ("/admin/games/deal/", "/admin/games/game/", "/admin/games/move/"):
        assert admin_client.get(url).status_code == 200
    page = admin_client.get(f"/admin/games/game/{snapshot.game.pk}/change/")
    assert page.status_code == 200
    assert b"adm-1" in page.content
    entry = Move.objects.get()
    assert admin_client.get(f"/admin/games/move/{entry.pk}/delete/").status_code == 403
    assert admin_client.get("/admin/games/move/add/").status_code == 403
