"""Settings for every environment, read from the environment.

The same code runs as one Daphne process on SQLite with the in-memory channel layer
(the default, for `make run`) and as several processes on PostgreSQL and Redis
(`DATABASE_URL`, `REDIS_URL`). Only declarations live here; parsing is in config.env.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import dj_database_url

from config.env import env_bool, env_int, env_list, env_secret, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
# Runtime files of a development checkout: the SQLite database and generated secrets.
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

# Development is the default so that `make run` needs nothing; production sets DEBUG=0.
DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_secret("SECRET_KEY", VAR_DIR / "secret_key", allow_file=DEBUG)
# The key of the deal seeds. It is not SECRET_KEY, so rotating one does not touch the other.
DEAL_SECRET = env_secret("DEAL_SECRET", VAR_DIR / "deal_secret", allow_file=DEBUG)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
CSRF_FAILURE_VIEW = "games.core.http.csrf_failure"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite by default: WAL lets readers run beside the writer, IMMEDIATE transactions take
# the write lock up front, and the busy timeout makes a second writer wait, not fail.
SQLITE_DATABASE = {
    "ENGINE": "django.db.backends.sqlite3",
    "NAME": VAR_DIR / "db.sqlite3",
    "OPTIONS": {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    },
    # Keep connections open (bench, issue 6). When the last connection to a WAL database
    # closes, SQLite checkpoints and deletes the WAL, and the next write recreates it:
    # about 15 ms of disk waits, paid on every socket message when connections close
    # after each one. An open SQLite connection holds no server resources.
    "CONN_MAX_AGE": None,
    # A file, not the in-memory default: shared-cache memory databases lock whole
    # tables and ignore the busy timeout, which breaks tests with concurrent writers.
    # One per test process, so that test runs side by side do not share it.
    "TEST": {"NAME": VAR_DIR / f"test-{os.getpid()}.sqlite3"},
}
DATABASES = {
    "default": (
        dj_database_url.parse(
            env_str("DATABASE_URL"),
            # Django advises against persistent connections under ASGI.
            conn_max_age=env_int("DB_CONN_MAX_AGE", 0),
            conn_health_checks=True,
        )
        if env_str("DATABASE_URL")
        else SQLITE_DATABASE
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# channels_redis waits on Redis in blocking pops of five seconds, and was written for
# connections without a read timeout. redis-py 8 gives each connection a five-second
# read timeout by default, which cuts those waits off and closes every socket left
# quiet that long (django/channels_redis#422); with any read timeout, a socket closed
# just after it opened can also leave its wait running for good. So, as before
# redis-py 8, no read timeout, and TCP keepalive to notice a Redis that vanished.
REDIS_CONNECTION: dict[str, object] = {
    "socket_timeout": None,
    "socket_keepalive": True,
    "socket_keepalive_options": {
        getattr(socket, name): seconds
        for name, seconds in (("TCP_KEEPIDLE", 60), ("TCP_KEEPINTVL", 10), ("TCP_KEEPCNT", 3))
        if hasattr(socket, name)  # Linux's names; elsewhere the system's defaults
    },
}
# A socket's queue holds this many messages. Both layers drop group messages silently
# when a queue is full (the default is 100), and a lost "changed" message can be a race's
# last word, so leave room for a busy socket to fall behind for a while.
CHANNEL_CAPACITY = 1000
CHANNEL_LAYERS = {
    "default": (
        {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": env_str("REDIS_URL"), **REDIS_CONNECTION}],
                "capacity": CHANNEL_CAPACITY,
            },
        }
        if env_str("REDIS_URL")
        else {"BACKEND": "channels.layers.InMemoryChannelLayer", "CONFIG": {"capacity": CHANNEL_CAPACITY}}
    )
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Anonymous players own their games through the session, so it must outlive a browser
# restart: "come back tomorrow and carry on".
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
# Behind a TLS-terminating proxy (HTTPS=1): cookies only over TLS, and trust the proxy's
# X-Forwarded-Proto. The proxy must set that header itself, never pass the client's.
HTTPS = env_bool("HTTPS", False)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", HTTPS)
CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", HTTPS)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
# Usually the proxy redirects plain HTTP; this is for running without one.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# collectstatic writes here; a deployment may collect into a volume its proxy serves.
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
# Production serves hashed, compressed files from STATIC_ROOT (after collectstatic);
# development and tests use plain storage, and WhiteNoise then finds files in place.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "plain",
        },
    },
    "root": {"handlers": ["stdout"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
    },
}
