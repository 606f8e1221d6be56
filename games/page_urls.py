"""Page URLs: the home page, a game's table and the "How to play" guides."""

from __future__ import annotations

from django.urls import path

from games import pages

urlpatterns = [
    path("", pages.home, name="home"),
    path("play/<int:game_id>/", pages.play, name="play"),
    path("how-to-play/<slug:game>/", pages.how_to_play, name="how-to-play"),
]
