"""The root URLs: admin, accounts, the JSON API and the pages.

Pages (games.page_urls) belong to the front end; everything else here is the backend.
"""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("games.account_urls")),
    path("", include("games.api_urls")),
    path("", include("games.race_urls")),  # issue 4: /api/races..., /races/...
    path("", include("games.page_urls")),
]
