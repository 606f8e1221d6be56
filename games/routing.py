"""WebSocket routes of the games app; config.asgi mounts them."""

from __future__ import annotations

from games.races.urls import websocket_urlpatterns as race_websockets
from games.solo.urls import websocket_urlpatterns as game_websockets

websocket_urlpatterns = [
    *game_websockets,  # /ws/games/<id>/
    *race_websockets,  # /ws/races/<id>/
]
