"""What is stored about Double Solitaire races: the race, its two seats, its move log,
and the sockets connected to it.

As with single games, a race's position is never stored: it is the deal (or the
starting position) replayed through the move log, so RaceMove rows are never changed
or deleted. This module knows nothing of HTTP, sockets or the rules engine;
games.races is the only code that writes races.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q


class Race(models.Model):
    """One race between two seats, from the invitation to the result.

    ``version`` counts every change a client draws (a seat taken, a player ready, the
    start, a move, an offer to stop, the end), so a client that sees a gap in versions
    knows it missed something and asks for the current state.
    """

    class Status(models.TextChoices):
        WAITING = "waiting"  # for the second player, or for both to be ready
        COUNTDOWN = "countdown"  # both ready; play opens at starts_at
        PLAYING = "playing"
        FINISHED = "finished"

    options = models.JSONField(help_text="The engine's validated options for double.")
    seed = models.BigIntegerField(help_text="The engine seed. Never leaves the server before the end.")
    start_position = models.JSONField(
        null=True,
        blank=True,
        help_text="A start other than the deal (puzzles, tests). Secret until the end.",
    )
    invite_token = models.CharField(max_length=64, unique=True, help_text="Lets its holder take seat 2.")
    watch_token = models.CharField(max_length=64, unique=True, help_text="Lets its holder watch.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    version = models.PositiveIntegerField(default=0)
    moves_made = models.PositiveIntegerField(default=0, help_text="Rows in the move log.")
    starts_at = models.DateTimeField(null=True, blank=True, help_text="When play opens (the signal).")
    result = models.JSONField(
        null=True,
        blank=True,
        help_text="Winner, reason (finished/blocked/resigned/agreed), contributions.",
    )
    rematch = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch_of",
        help_text="The race the same two players started after this one.",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"race {self.pk} ({self.status})"


def race_group(race_id: int) -> str:
    return f"race.{race_id}"


class RaceSeat(models.Model):
    """A player's place in a race: seat 1 (who created it) or 2 (who joined).

    A seat belongs to a user, or to the anonymous player token kept in a session; that
    is how a player who comes back, or logs in elsewhere, is given the seat again.
    """

    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(help_text="1 or 2, as in the engine's pile ids p1./p2.")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="race_seats",
    )
    player_key = models.CharField(
        max_length=64,
        blank=True,
        db_index=True,
        help_text="The anonymous player token of the session that took the seat.",
    )
    name = models.CharField(max_length=40)
    ready = models.BooleanField(default=False)
    offered_end = models.BooleanField(default=False, help_text="Offered to stop and be scored.")
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["race", "number"]
        constraints = [
            models.UniqueConstraint(fields=["race", "number"], name="race_seat_unique_number"),
            models.CheckConstraint(condition=Q(number__in=(1, 2)), name="race_seat_number_1_or_2"),
        ]

    def __str__(self) -> str:
        return f"race {self.race_id} seat {self.number}: {self.name}"


class RaceMove(models.Model):
    """One move of a race's log, by one seat. Append-only: it is never changed or deleted."""

    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="log")
    seq = models.PositiveIntegerField(help_text="1 for the first move.")
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField(help_text='{"from", "to", "count"}')
    client_id = models.CharField(
        max_length=64,
        null=True,
        blank=True,
        help_text="The sender's id for this move, so a resent message is applied once.",
    )
    version = models.PositiveIntegerField(help_text="The race's version after this move.")
    created = models.DateTimeField()

    class Meta:
        ordering = ["race", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["race", "seq"], name="race_move_unique_seq"),
            models.UniqueConstraint(
                fields=["race", "seat", "client_id"],
                condition=Q(client_id__isnull=False),
                name="race_move_unique_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"race {self.race_id} #{self.seq} seat {self.seat}: {self.move}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("the race log is append-only: a RaceMove is never changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError("the race log is append-only: a RaceMove is never deleted")


class RaceConnection(models.Model):
    """One open socket of a seated player, so presence works across processes.

    A process that dies cannot remove its rows, so each socket refreshes ``seen`` now
    and then and rows not refreshed for a while no longer count as connected.
    """

    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="connections")
    seat = models.PositiveSmallIntegerField()
    channel_name = models.CharField(max_length=200, unique=True)
    seen = models.DateTimeField()

    def __str__(self) -> str:
        return f"race {self.race_id} seat {self.seat} via {self.channel_name}"
