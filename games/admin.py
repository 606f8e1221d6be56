"""Django admin for deals, games and their move logs. The log is shown read-only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Deal, Game, Move


class ReadOnly:
    """Admin that shows rows but never adds, changes or deletes them (the log is append-only)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MoveInline(ReadOnly, admin.TabularInline):
    model = Move
    fields = ("seq", "move", "client_id", "created")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "options_key", "number", "created")
    list_filter = ("game",)
    search_fields = ("number",)
    readonly_fields = ("seed", "created")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "deal", "owner", "status", "version", "score", "elapsed", "created")
    list_filter = ("status", "deal__game")
    search_fields = ("id", "owner__username")
    list_select_related = ("deal", "owner")
    raw_id_fields = ("deal", "owner")
    # Position fields follow from the log; only the service may change them.
    readonly_fields = (
        "version",
        "moves_made",
        "score",
        "elapsed",
        "last_active",
        "created",
        "updated",
        "finished",
    )
    inlines = (MoveInline,)


@admin.register(Move)
class MoveAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("game", "seq", "move", "client_id", "created")
    list_select_related = ("game",)
    raw_id_fields = ("game",)
