"""What is stored for racing without a friend: the seek pool and the computer's seats.

A ``Seek`` is one player waiting for a stranger with given options. The pool lives in
the database, so every server process sees the same one; pairing claims both seeks
with guarded updates (``status = 'waiting'`` in the WHERE clause), so a seek is paired
exactly once however many processes try at the same instant (games.races.seeks).

A ``RaceBot`` marks a race seat played by the computer, and at which level. The seat
itself is an ordinary RaceSeat whose player token only the server knows: the computer
plays through the same services as a person.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Seek(models.Model):
    """A player waiting in the pool for an opponent with the same options."""

    class Status(models.TextChoices):
        WAITING = "waiting"
        MATCHED = "matched"
        CANCELLED = "cancelled"

    options = models.JSONField(help_text="Double's validated options; only equal options pair.")
    options_key = models.CharField(max_length=200, db_index=True, help_text="The options, canonical JSON.")
    name = models.CharField(max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="seeks"
    )
    player_key = models.CharField(max_length=64, blank=True, db_index=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    race = models.ForeignKey(
        "games.Race", null=True, blank=True, on_delete=models.SET_NULL, related_name="seeks"
    )
    created = models.DateTimeField(auto_now_add=True)
    seen = models.DateTimeField(help_text="Last time its player asked about it; stale seeks do not pair.")

    class Meta:
        indexes = [models.Index(fields=["status", "options_key", "seen"], name="seek_pool")]

    def __str__(self) -> str:
        return f"seek {self.pk} ({self.status})"


class RaceBot(models.Model):
    """A seat of a race played by the computer."""

    class Level(models.TextChoices):
        EASY = "easy"
        STEADY = "steady"
        SHARP = "sharp"

    race = models.OneToOneField("games.Race", on_delete=models.CASCADE, related_name="bot")
    seat = models.PositiveSmallIntegerField(default=2)
    level = models.CharField(max_length=16, choices=Level.choices)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(seat__in=(1, 2)), name="race_bot_seat_1_or_2")]

    def __str__(self) -> str:
        return f"race {self.race_id} seat {self.seat}: computer ({self.level})"


class RaceListing(models.Model):
    """A race its creator chose to show on the home page for anyone to watch (opt-in).
    Invited races without a listing are never listed."""

    race = models.OneToOneField("games.Race", on_delete=models.CASCADE, related_name="listing")
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"race {self.race_id} listed"
