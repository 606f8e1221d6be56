"""Readers for settings that come from the environment.

The settings module stays a flat list of declarations; the small parsing and the
development fallbacks live here. This module must not import Django's settings.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a yes/no value such as 1 or 0, not {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}") from None


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        return float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, not {raw!r}") from None


def env_list(name: str, default: str = "") -> list[str]:
    """A comma-separated list; blanks are dropped."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# A secret given in the environment with DEBUG off must be at least this long and use at
# least this many different characters: `openssl rand -hex 32` (64 characters of 16) and
# `secrets.token_urlsafe(32)` pass; "x", "changeme" or "k" * 50 do not.
SECRET_MIN_LENGTH = 32
SECRET_MIN_DISTINCT = 10


def weak_secret_reason(value: str) -> str | None:
    """Why ``value`` is too weak to be a production secret, or None when it is strong enough."""
    if len(value) < SECRET_MIN_LENGTH:
        return f"it is {len(value)} characters long; use at least {SECRET_MIN_LENGTH}"
    if len(set(value)) < SECRET_MIN_DISTINCT:
        return f"it uses {len(set(value))} different characters; use at least {SECRET_MIN_DISTINCT}"
    if value.startswith("django-insecure"):
        return "it is Django's insecure development key"
    return None


def env_secret(name: str, dev_file: Path, *, allow_file: bool, strict: bool = False) -> str:
    """The secret in ``$name``; failing that, one generated once into ``dev_file``.

    Keeping a generated secret in a file makes it stable across restarts (sessions
    survive, deal numbers keep their meaning) without anyone having to set it. Several
    processes may start at once, so the file is created atomically: the first writer
    wins and everyone reads what it wrote. ``allow_file`` is false in production, where
    the secret must come from the environment; ``strict`` (DEBUG off) refuses a weak one.
    """
    value = os.environ.get(name, "").strip()
    if value:
        reason = weak_secret_reason(value) if strict else None
        if reason:
            raise ImproperlyConfigured(
                f"{name} is too weak for DEBUG off: {reason} (for example `openssl rand -hex 32`)"
            )
        return value
    if not allow_file:
        raise ImproperlyConfigured(
            f"{name} must be set in the environment when DEBUG is off "
            "(or GENERATE_SECRETS=1 to generate one into VAR_DIR, as `make run` does)"
        )
    dev_file.parent.mkdir(parents=True, exist_ok=True)
    if not dev_file.exists():
        fd, temporary = tempfile.mkstemp(dir=dev_file.parent, prefix=f".{dev_file.name}.")
        try:
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_urlsafe(48))
            # Linking fails if another process got there first; theirs is as good.
            with contextlib.suppress(FileExistsError):
                os.link(temporary, dev_file)
        finally:
            os.unlink(temporary)
    return dev_file.read_text().strip()
