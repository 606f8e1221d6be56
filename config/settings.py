"""Settings for every environment, read from the environment.

The same code runs as one Daphne process on SQLite with the in-memory channel layer
(the default, for `make run`) and as several processes on PostgreSQL and Redis
(`DATABASE_URL`, `REDIS_URL`). Only declarations live here; parsing is in config.env.
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import dj_database_url

from config.env import env_bool, env_float, env_int, env_list, env_secret, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
# Runtime files of a development checkout: the SQLite database and generated secrets.
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

# Safe by default (issue 11): DEBUG is off unless DEBUG=1 says otherwise, so a 500 never
# shows Django's debug page. The one exception is a test run: pytest is never installed
# with the runtime requirements, and the test suites import these settings directly.
TESTING = "pytest" in sys.modules
DEBUG = env_bool("DEBUG", TESTING)
# Secrets come from the environment. Development (DEBUG=1) and `make run`
# (GENERATE_SECRETS=1) generate them once into VAR_DIR instead; with DEBUG off, a secret
# from the environment must be strong (config.env.weak_secret_reason).
GENERATE_SECRETS = DEBUG or env_bool("GENERATE_SECRETS", False)
SECRET_KEY = env_secret("SECRET_KEY", VAR_DIR / "secret_key", allow_file=GENERATE_SECRETS, strict=not DEBUG)
# The key of the deal seeds. It is not SECRET_KEY, so rotating one does not touch the other.
DEAL_SECRET = env_secret(
    "DEAL_SECRET", VAR_DIR / "deal_secret", allow_file=GENERATE_SECRETS, strict=not DEBUG
)

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
    # JSON for every /api/ error, 500s included; outermost, so it sees every answer.
    "games.core.middleware.ApiErrorMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy and the other headers SecurityMiddleware does not send.
    "games.core.middleware.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # A refused request (4xx, 5xx) never leaves a new session row behind.
    "games.core.middleware.NoSessionForRefusalsMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Too many login attempts from one address, or for one user name: 429.
    "games.core.middleware.LoginThrottleMiddleware",
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
            # Connections persist (issue 10: opening one per hop alone cost most of a move).
            # Django's warning about persistent connections under ASGI is about request
            # threads that come and go; here sync work runs on a small fixed pool of
            # threads, each closing stale connections before and after its call
            # (database_sync_to_async), and health checks catch a dropped one.
            conn_max_age=env_int("DB_CONN_MAX_AGE", 600),
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

# The cache that rate limits count in (games.core.limits). Counts must be shared by every
# process of the site, so with REDIS_URL they live in Redis (Django's own backend); without
# it, the site is one process and its memory will do.
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": env_str("REDIS_URL"),
            "KEY_PREFIX": "patience",
            "TIMEOUT": 300,
        }
        if env_str("REDIS_URL")
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "patience"}
    )
}

# Rate limits (games.core.limits): RATE_LIMITS=off turns every one off, for benchmarks
# and load tests. The figures (count/period, as django-ratelimit writes them) never
# slow a fast human; override one with RATE_<NAME>, e.g. RATE_HINT=60/m.
# Test runs start with them off, so that suites which create games by the hundred are not
# slowed; tests/security turns them on where it checks them.
RATE_LIMITS_ON = env_str("RATE_LIMITS", "off" if TESTING else "on").strip().lower() not in (
    "off",
    "0",
    "no",
    "false",
)
RATELIMIT_ENABLE = RATE_LIMITS_ON
RATELIMIT_USE_CACHE = "default"
RATE_LIMIT_RATES = {
    name: env_str(f"RATE_{name.upper()}", default)
    for name, default in {
        # Socket moves, per socket: a token bucket of 30 a second, bursts of 60.
        "move": "30/s",
        "move_burst": "60",
        # Every other socket message (sync, ping, ready ...), per socket.
        "message": "20/s",
        "message_burst": "40",
        # HTTP moves (POST /api/games/<id>/moves, undo, autofinish), per player and per address.
        "http_move": "1200/m",
        "http_move_ip": "3000/m",
        "create_game": "30/m",
        "create_game_ip": "120/m",
        "hint": "60/m",
        "hint_ip": "240/m",
        "winnable": "20/m",
        "winnable_ip": "60/m",
        "replay": "30/m",
        "replay_ip": "120/m",
        "create_race": "20/m",
        "create_race_ip": "60/m",
        "join_race": "30/m",
        "join_race_ip": "120/m",
        # Login attempts per address and per user name.
        "login_ip": "20/5m",
        "login_user": "10/5m",
    }.items()
}
# Sockets one session (or one address, when there is no session) may hold open at once,
# in one process.
MAX_SOCKETS_PER_SESSION = env_int("MAX_SOCKETS_PER_SESSION", 12)
MAX_SOCKETS_PER_IP = env_int("MAX_SOCKETS_PER_IP", 60)
# The longest race, in moves over both seats, and the most presence rows one race keeps.
MAX_RACE_MOVES = env_int("MAX_RACE_MOVES", 3000)
MAX_RACE_PRESENCE = env_int("MAX_RACE_PRESENCE", 50)
# The computer opponent's think times are multiplied by this (games.races.bot): 1 is its
# levels' human pace; browser tests run the server at 0.01, a hundred times faster.
BOT_THINK_SCALE = env_float("BOT_THINK_SCALE", 1.0)

# The bounded pool of worker processes (games.core.workers) for hints, solver searches,
# verdicts and replays: CPU work kept off the event loop and Django's shared thread.
WORKER_PROCESSES = env_int("WORKER_PROCESSES", 2)
# Jobs that may wait for a worker; one more is refused at once as busy (503, Retry-After).
WORKER_QUEUE = env_int("WORKER_QUEUE", 8)

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
# Sessions are saved only when something is put in them (a game or race created, a
# login), never for a cookie-less GET.
SESSION_SAVE_EVERY_REQUEST = False
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
# Behind a TLS-terminating proxy (HTTPS=1): cookies only over TLS, and trust the proxy's
# X-Forwarded-Proto. The proxy must set that header itself, never pass the client's.
HTTPS = env_bool("HTTPS", False)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", HTTPS)
CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", HTTPS)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
# HSTS whenever the site is served over HTTPS: a year by default.
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365 if HTTPS else 0)
# Usually the proxy redirects plain HTTP; this is for running without one.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Sent with every answer by games.core.middleware: scripts and styles from this site only,
# no inline script, no framing, sockets to this site only ('self' covers ws: and wss: on
# the same host and port).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

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
# The web-app manifest, so that phones offer to install the site.
WHITENOISE_MIMETYPES = {".webmanifest": "application/manifest+json"}

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
