"""Account URLs under /accounts/: Django's login and logout, and our sign-up."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from games import accounts

urlpatterns = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", accounts.signup, name="signup"),
]
