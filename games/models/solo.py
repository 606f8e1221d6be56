"""What is stored about single-player games: deals, games and each game's append-only log.

A game's position is never stored. It is the deal replayed through the log, which is
why Move rows are never changed or deleted. This module knows nothing of HTTP,
sockets or the rules engine; games.solo is the only code that writes games.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q


class Deal(models.Model):
    """A public deal number of one game and option set, and the engine seed behind it.

    The seed is an HMAC of the number under DEAL_SECRET, so the number can be shared
    without revealing the cards. It is stored so that replays stay the same even if
    the secret changes.
    """

    game = models.CharField(max_length=32)
    options = models.JSONField(help_text="The engine's validated options.")
    options_key = models.CharField(
        max_length=255, help_text="The options as canonical JSON, for lookups and grouping."
    )
    number = models.PositiveBigIntegerField()
    seed = models.BigIntegerField(help_text="The engine seed. Never leaves the server.")
    created = models.DateTimeField(auto_now_add=True)
    # What the solver proved about the deal from its start (issue 7). Only proofs are
    # kept: a search that ran out of time leaves both as they were, to be tried again.
    # ``verdict`` is {"status", "moves", "nodes", "seconds"}; its moves show the cards,
    # so they leave the server only for a finished game.
    winnable = models.BooleanField(null=True, blank=True, help_text="Solver: True winnable, False not.")
    verdict = models.JSONField(null=True, blank=True, help_text="The solver's proof, with its moves.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "options_key", "number"], name="deal_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.options_key} #{self.number}"


class Game(models.Model):
    """One player's game of one deal. Owned by a user, or by an anonymous session."""

    class Status(models.TextChoices):
        PLAYING = "playing"
        WON = "won"
        LOST = "lost"
        ABANDONED = "abandoned"

    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="games")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="games",
    )
    owner_key = models.CharField(
        max_length=64,
        blank=True,
        db_index=True,
        help_text="The anonymous player token kept in the session that started the game.",
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    version = models.PositiveIntegerField(default=0, help_text="The number of log entries.")
    moves_made = models.PositiveIntegerField(default=0, help_text="Log entries that are moves.")
    score = models.IntegerField(null=True, blank=True)
    elapsed = models.DurationField(default=timedelta(0), help_text="Time spent playing.")
    last_active = models.DateTimeField(help_text="When the last log entry (or the deal) was made.")
    paused_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the player paused the game (time then stops counting); empty while it runs.",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["owner", "-created"], name="game_owner_recent"),
            models.Index(fields=["owner_key", "-created"], name="game_owner_key_recent"),
        ]

    def __str__(self) -> str:
        return f"game {self.pk} ({self.deal}, {self.status})"


def game_group(game_id: int) -> str:
    return f"game.{game_id}"


class Move(models.Model):
    """One entry of a game's log: a move ``{"from", "to", "count"}``, ``{"undo": true}``,
    ``{"redo": true}``, ``{"lost": true}`` (the hint found the game lost) or, last,
    ``{"abandon": true}``.

    Append-only: saving an existing row or deleting one raises.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="log")
    seq = models.PositiveIntegerField(help_text="1 for the first entry; the game's version after it.")
    move = models.JSONField()
    client_id = models.CharField(
        max_length=64,
        null=True,
        blank=True,
        help_text="The sender's id for this change, so a resent message is applied once.",
    )
    created = models.DateTimeField()

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq"),
            models.UniqueConstraint(
                fields=["game", "client_id"],
                condition=Q(client_id__isnull=False),
                name="move_unique_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} #{self.seq}: {self.move}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("the move log is append-only: a Move is never changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError("the move log is append-only: a Move is never deleted")
