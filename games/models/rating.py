"""Ratings of race players (Glicko-2), and what each finished race did to them.

A rating belongs to an account, or, for an anonymous player, to the player token of
their session; on signup or login it moves to the account, as their games do. The
computer levels have fixed ratings and no rows here.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class PlayerRating(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="race_rating"
    )
    player_key = models.CharField(max_length=64, blank=True, db_index=True)
    rating = models.FloatField(default=1500.0)
    deviation = models.FloatField(default=350.0)
    volatility = models.FloatField(default=0.06)
    races = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player_key"], condition=Q(user__isnull=True), name="rating_unique_anonymous_key"
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False) | ~Q(player_key=""), name="rating_has_an_owner"
            ),
        ]

    def __str__(self) -> str:
        return f"rating {self.rating:.0f} ± {self.deviation:.0f}"


class RaceRating(models.Model):
    """A finished race's effect on one seat's rating: written once per race and seat."""

    race = models.ForeignKey("games.Race", on_delete=models.CASCADE, related_name="ratings")
    seat = models.PositiveSmallIntegerField()
    opponent = models.CharField(max_length=60, help_text="The opponent's name, or the computer level.")
    score = models.FloatField(help_text="1 won, 0.5 drawn, 0 lost.")
    before = models.FloatField()
    after = models.FloatField()
    deviation = models.FloatField(help_text="The deviation after the race.")
    rating = models.ForeignKey(PlayerRating, null=True, on_delete=models.SET_NULL, related_name="history")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["race", "seat"], name="race_rating_once_per_seat")]

    def __str__(self) -> str:
        return f"race {self.race_id} seat {self.seat}: {self.before:.0f} -> {self.after:.0f}"
