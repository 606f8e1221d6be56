"""WebSocket routes of the games app; config.asgi mounts them."""

from __future__ import annotations

from django.urls import path

from games.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
]
