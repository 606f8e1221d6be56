"""URLs of the JSON API (/api/...) and the health check (/healthz)."""

from __future__ import annotations

from django.urls import path

from games import api

urlpatterns = [
    path("api/games", api.games, name="api-games"),
    path("api/games/<int:game_id>", api.game_detail, name="api-game"),
    path("api/games/<int:game_id>/moves", api.moves, name="api-game-moves"),
    path("api/games/<int:game_id>/undo", api.undo, name="api-game-undo"),
    path("api/games/<int:game_id>/autofinish", api.autofinish, name="api-game-autofinish"),
    path("api/games/<int:game_id>/hint", api.hint, name="api-game-hint"),
    path("api/games/<int:game_id>/winnable", api.winnable, name="api-game-winnable"),
    path("api/stats", api.stats, name="api-stats"),
    path("healthz", api.healthz, name="healthz"),
]
