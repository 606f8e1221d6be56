"""The site's URLs plus API and page views that fail on purpose, for the 500 tests."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns


def explode(request: HttpRequest) -> HttpResponse:
    stock = ["7S", "8H", "9C"]  # a frame local a debug page would print
    raise RuntimeError(f"secret-frame-local: the stock is {' '.join(stock)}")


async def explode_async(request: HttpRequest) -> HttpResponse:
    return explode(request)


urlpatterns = [
    path("api/test-explode", explode),
    path("api/test-explode-async", explode_async),
    path("test-explode", explode),
    *site_urlpatterns,
]
