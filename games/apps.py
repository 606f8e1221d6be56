"""App configuration: connects the login signal that moves anonymous games to an account."""

from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from games.accounts import adopt_anonymous_games
        from games.races.ratings import adopt_on_login

        user_logged_in.connect(adopt_anonymous_games, dispatch_uid="games.adopt_anonymous_games")
        user_logged_in.connect(adopt_on_login, dispatch_uid="games.adopt_anonymous_rating")
