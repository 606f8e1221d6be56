"""Every URL of the games app: the site pages, the health check, single play and races.
config.urls includes this; games.routing holds the sockets."""

from __future__ import annotations

from django.urls import include, path

from games import site
from games.core.health import healthz

urlpatterns = [
    path("", site.home, name="home"),
    path("how-to-play/<slug:game>/", site.how_to_play, name="how-to-play"),
    path("healthz", healthz, name="healthz"),
    path("", include("games.solo.urls")),
    path("", include("games.races.urls")),
]
