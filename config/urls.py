"""The root URLs: admin, accounts, and the games app (pages, JSON API, health check)."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("games.account_urls")),
    path("", include("games.urls")),
]
