"""Accounts: sign-up, and moving an anonymous player's games to the account on login.

Login and logout are Django's own views. Templates (registration/login.html and
registration/signup.html) belong to the front end; this module only decides.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from games.core.actors import PLAYER_TOKEN_KEY
from games.solo.owners import give_anonymous_games


def adopt_anonymous_games(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """On login, the games this browser played anonymously become the user's.

    The token lives in the session data, which Django keeps when it gives the session
    a new key at login.
    """
    if request is not None and hasattr(request, "session"):
        give_anonymous_games(request.session.get(PLAYER_TOKEN_KEY), user.pk)


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return str(settings.LOGIN_REDIRECT_URL)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log in (which moves this browser's games to it)."""
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return HttpResponseRedirect(_next_url(request))
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": _next_url(request)},
    )
