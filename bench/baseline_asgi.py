"""The baseline the site is measured against: a bare Channels consumer, benchmark only.

Served by the same Daphne with the same channel layer (the project's CHANNEL_LAYERS),
on the same path shapes as the site (/ws/games/<id>/ and /ws/races/<id>/). It receives
the same JSON, answers the sender with an ``ack``, and sends the change through the
same path the site uses: one ``group_send`` to the game's (or race's) group, whose
handler sends each socket a ``state`` message. That message is a real engine view,
padded to the byte size the client asks for with ``?bytes=`` (the mean size of the
site's state messages in the same run). What the baseline leaves out is exactly what
the site adds: sessions, the database, the rules engine and rendering the view.

Never mounted by the site: ``daphne bench.baseline_asgi:application``.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any
from urllib.parse import parse_qs

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from channels.generic.websocket import AsyncJsonWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

import solitaire  # noqa: E402


def _played(name: str, moves: int, **options: Any) -> Any:
    """An engine state some random moves into a deal, so the view looks like mid-game."""
    chooser = random.Random(3)
    state = solitaire.new_game(name, seed=11, **options)
    for _ in range(moves):
        legal = state.legal_moves()
        if not legal:
            break
        state = state.apply(chooser.choice(legal))
    return state


def _templates() -> dict[str, dict[str, Any]]:
    stamp = "2026-11-30T12:00:00.000000+00:00"
    klondike = _played("klondike", 40, draw=1)
    double = _played("double", 40)
    return {
        "game": {
            "type": "state",
            "id": 1,
            "url": "/play/1/",
            "game": "klondike",
            "options": dict(klondike.options),
            "deal": 123456789,
            "version": 0,
            "status": "playing",
            "score": klondike.score,
            "elapsed": 42,
            "moves_made": 40,
            "created": stamp,
            "updated": stamp,
            "state": klondike.view(),
        },
        "race": {
            "type": "state",
            "id": 1,
            "url": "/races/1/",
            "seat": 1,
            "status": "playing",
            "version": 0,
            "options": dict(double.options),
            "players": [
                {"seat": n, "name": f"player {n}", "ready": True, "offered_end": False, "connected": True}
                for n in (1, 2)
            ],
            "starts_at": stamp,
            "moves_made": 40,
            "result": None,
            "state": double.view(1),
        },
    }


TEMPLATES = _templates()
# The version of each group: one process serves the baseline, so a dict is enough.
VERSIONS: dict[str, int] = {}


class BareConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """Ack the sender, then one group_send; every socket of the group gets a state."""

    group: str
    template: dict[str, Any]
    pad: str
    sent_version: int

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        kind = "game" if "game_id" in kwargs else "race"
        self.group = f"{kind}.{kwargs.get('game_id', kwargs.get('race_id'))}"
        self.template = TEMPLATES[kind]
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        wanted = int((query.get("bytes") or ["0"])[0])
        bare = len(json.dumps({**self.template, "pad": ""}))
        self.pad = "x" * max(0, wanted - bare)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        self.sent_version = VERSIONS.get(self.group, 0)
        await self.send_json(self._state(self.sent_version))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        version = VERSIONS[self.group] = VERSIONS.get(self.group, 0) + 1
        await self.send_json({"type": "ack", "id": content.get("id"), "version": version})
        await self.channel_layer.group_send(self.group, {"type": "bench.changed", "version": version})

    async def bench_changed(self, event: dict[str, Any]) -> None:
        # As the site's sockets do: versions only grow on a socket. Group messages from
        # two senders may cross on Redis; the older one is then not sent.
        if event["version"] > self.sent_version:
            self.sent_version = event["version"]
            await self.send_json(self._state(event["version"]))

    def _state(self, version: int) -> dict[str, Any]:
        return {**self.template, "version": version, "pad": self.pad}


async def health(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A 200 on any HTTP path, so the bench can tell the server is up."""
    if scope["type"] != "http":
        return
    await receive()
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"ok"})


application = ProtocolTypeRouter(
    {
        "http": health,
        "websocket": URLRouter(
            [
                path("ws/games/<int:game_id>/", BareConsumer.as_asgi()),
                path("ws/races/<int:race_id>/", BareConsumer.as_asgi()),
            ]
        ),
    }
)
