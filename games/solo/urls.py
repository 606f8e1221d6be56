"""URLs of single play: the JSON API (/api/games..., /api/stats, /api/daily), the play
page (/play/<id>/) and the game socket (/ws/games/<id>/, mounted by games.routing)."""

from __future__ import annotations

from django.urls import path

from games.solo import api, pages
from games.solo.consumer import GameConsumer

urlpatterns = [
    path("api/games", api.games, name="api-games"),
    path("api/games/<int:game_id>", api.game_detail, name="api-game"),
    path("api/games/<int:game_id>/moves", api.moves, name="api-game-moves"),
    path("api/games/<int:game_id>/undo", api.undo, name="api-game-undo"),
    path("api/games/<int:game_id>/redo", api.redo, name="api-game-redo"),
    path("api/games/<int:game_id>/autofinish", api.autofinish, name="api-game-autofinish"),
    path("api/games/<int:game_id>/abandon", api.abandon, name="api-game-abandon"),
    path("api/games/<int:game_id>/hint", api.hint, name="api-game-hint"),
    path("api/games/<int:game_id>/winnable", api.winnable, name="api-game-winnable"),
    path("api/stats", api.stats_view, name="api-stats"),
    path("api/daily", api.daily, name="api-daily"),
    path("play/<int:game_id>/", pages.play, name="play"),
]

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
]
