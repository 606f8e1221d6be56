"""docker-compose.yml and the Dockerfile say what the scale-out suite runs.

Docker does not run on the development and CI machines, so the deployment files are
read here (PyYAML, and a small Dockerfile reader) and compared with the commands,
settings and health check the rest of the suite starts real processes with. Needs no
services.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
import yaml
from scale_support import (
    COLLECTSTATIC_COMMAND,
    MIGRATE_COMMAND,
    ROOT,
    SERVER_ENV_NAMES,
    WEB_COMMAND,
    WEB_HEALTHCHECK,
    load_healthcheck,
    server_environment,
)

# What the suite's processes get beyond the deployment's settings: where to find the
# virtualenv and Django, and a scratch directory.
PLUMBING = {"PATH", "HOME", "DJANGO_SETTINGS_MODULE", "VAR_DIR"}
# A .env as deploy/env.example asks for: only the secrets are required.
DOT_ENV = {"SECRET_KEY": "k" * 50, "DEAL_SECRET": "d" * 20, "POSTGRES_PASSWORD": "p4ssw0rd"}
VARIABLE = re.compile(r"\$\$|\$\{(\w+)(?::([-?])([^}]*))?\}")


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's variable substitution: ${X}, ${X:-default}, ${X:?error}, and $$."""

    def one(match: re.Match[str]) -> str:
        name, kind, word = match.groups()
        if name is None:
            return "$"
        if env.get(name):
            return env[name]
        if kind == "?":
            raise KeyError(f"compose needs {name}: {word}")
        return word or ""

    return VARIABLE.sub(one, value)


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


@pytest.fixture(scope="module")
def services(compose: dict[str, Any]) -> dict[str, Any]:
    return compose["services"]


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (INSTRUCTION, arguments), continuations joined."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1] if " " in line else "")
        for line in lines
        if line and not line.startswith("#")
    ]


def test_compose_runs_the_five_services_of_the_deployment(services: dict[str, Any]) -> None:
    assert set(services) == {"postgres", "redis", "web", "proxy", "migrate"}
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    assert services["proxy"]["image"].startswith("nginx:")
    # At least two web processes, from the image the Dockerfile builds.
    assert services["web"]["deploy"]["replicas"] >= 2
    for name in ("web", "migrate"):
        assert services[name]["build"] == "."
        assert services[name]["image"] == services["web"]["image"]


def test_web_and_migrate_run_the_commands_the_suite_runs(services: dict[str, Any]) -> None:
    assert services["web"]["command"] == WEB_COMMAND
    assert services["migrate"]["command"] == MIGRATE_COMMAND
    assert services["migrate"]["restart"] == "no"
    for command in (WEB_COMMAND, MIGRATE_COMMAND, COLLECTSTATIC_COMMAND):
        script = ROOT / command[0]
        assert script.is_file() and os.access(script, os.X_OK), script
    web_script = (ROOT / WEB_COMMAND[0]).read_text()
    assert re.search(r"^exec daphne .*config\.asgi:application$", web_script, re.MULTILINE), web_script


def test_web_gets_exactly_the_settings_the_suite_gives_its_processes(
    services: dict[str, Any], tmp_path: Path
) -> None:
    web_env = {name: interpolate(value, DOT_ENV) for name, value in services["web"]["environment"].items()}
    assert set(web_env) == set(SERVER_ENV_NAMES)
    suite_env = server_environment("postgres://x@127.0.0.1/x", tmp_path / "static", tmp_path / "var")
    assert set(suite_env) - PLUMBING == set(SERVER_ENV_NAMES)
    assert services["migrate"]["environment"] == services["web"]["environment"]
    # Each name is one the code reads: the settings, or the web script for BIND/PORT.
    settings_source = (ROOT / "config" / "settings.py").read_text()
    web_script = (ROOT / WEB_COMMAND[0]).read_text()
    for name in SERVER_ENV_NAMES:
        assert f'"{name}"' in settings_source or "${" + name in web_script, name
    # Production, on PostgreSQL and Redis, as in the suite.
    assert web_env["DEBUG"] == suite_env["DEBUG"] == "0"
    database = urllib.parse.urlsplit(web_env["DATABASE_URL"])
    assert database.scheme == "postgres" and database.hostname == "postgres"
    assert database.password == DOT_ENV["POSTGRES_PASSWORD"]
    postgres_env = {k: interpolate(v, DOT_ENV) for k, v in services["postgres"]["environment"].items()}
    assert postgres_env["POSTGRES_PASSWORD"] == DOT_ENV["POSTGRES_PASSWORD"]
    assert database.username == postgres_env["POSTGRES_USER"]
    assert database.path == "/" + postgres_env["POSTGRES_DB"]
    redis = urllib.parse.urlsplit(web_env["REDIS_URL"])
    assert redis.scheme == "redis" and redis.hostname == "redis"
    assert web_env["BIND"] == "0.0.0.0"
    assert web_env["SECRET_KEY"] == DOT_ENV["SECRET_KEY"] and web_env["ALLOWED_HOSTS"]
    # Without its secrets, compose refuses to start rather than run with blanks.
    with pytest.raises(KeyError, match="SECRET_KEY"):
        interpolate(services["web"]["environment"]["SECRET_KEY"], {})
    assert services["web"]["expose"] == [web_env["PORT"]]


def test_the_health_check_is_the_one_the_suite_runs(services: dict[str, Any]) -> None:
    assert services["web"]["healthcheck"]["test"] == WEB_HEALTHCHECK
    assert load_healthcheck().HEALTH_PATH == "/healthz"
    assert "/healthz" in " ".join(services["proxy"]["healthcheck"]["test"])
    for name in ("postgres", "redis"):
        assert services[name]["healthcheck"]["test"]


def test_services_start_in_order(services: dict[str, Any]) -> None:
    web_needs = services["web"]["depends_on"]
    assert web_needs["migrate"]["condition"] == "service_completed_successfully"
    assert web_needs["postgres"]["condition"] == "service_healthy"
    assert web_needs["redis"]["condition"] == "service_healthy"
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert services["proxy"]["depends_on"]["web"]["condition"] == "service_healthy"


def test_the_proxy_spreads_connections_over_web_and_passes_websocket_upgrades(
    services: dict[str, Any],
) -> None:
    mounts = [volume.split(":") for volume in services["proxy"]["volumes"]]
    config_file = next(host for host, target, *_ in mounts if target.startswith("/etc/nginx/"))
    config = (ROOT / config_file).read_text()
    port = services["web"]["environment"]["PORT"]
    assert re.search(rf"^\s*server web:{port}\b[^;]*;", config, re.MULTILINE), "upstream is not web"
    assert re.search(r"^\s*proxy_pass http://web;", config, re.MULTILINE)
    assert "proxy_http_version 1.1;" in config
    assert "proxy_set_header Upgrade $http_upgrade;" in config
    assert "proxy_set_header Connection $connection_upgrade;" in config
    assert re.search(r"map \$http_upgrade \$connection_upgrade \{\s*default upgrade;", config)
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in config


def test_the_dockerfile_builds_what_compose_and_the_suite_run(services: dict[str, Any]) -> None:
    everything = dockerfile()
    # The served image is the last stage; an earlier one compiles the solver.
    served_from = max(i for i, (instruction, _) in enumerate(everything) if instruction == "FROM")
    instructions = everything[served_from:]
    assert instructions[0] == ("FROM", "python:3.11-slim")
    assert ("FROM", "python:3.11-slim AS compiled") in everything[:served_from]
    assert any(
        instruction == "COPY" and arguments.startswith("--from=compiled ")
        for instruction, arguments in instructions
    )
    runs = [arguments for instruction, arguments in instructions if instruction == "RUN"]
    assert "pip install -r requirements.txt" in runs
    collect = next(shlex.split(run) for run in runs if COLLECTSTATIC_COMMAND[0] in run)
    assert "DEBUG=0" in collect and collect[-len(COLLECTSTATIC_COMMAND) :] == COLLECTSTATIC_COMMAND
    last = {instruction: arguments for instruction, arguments in instructions}
    assert json.loads(last["CMD"]) == WEB_COMMAND
    assert json.loads(last["HEALTHCHECK"].split("CMD", 1)[1]) == WEB_HEALTHCHECK[1:]
    env_lines = " ".join(arguments for instruction, arguments in instructions if instruction == "ENV")
    assert f"STATIC_ROOT={services['web']['environment']['STATIC_ROOT']}" in env_lines
    assert f"PORT={services['web']['environment']['PORT']}" in env_lines


def test_the_example_env_file_names_every_variable_compose_requires() -> None:
    text = (ROOT / "docker-compose.yml").read_text()
    required = set(re.findall(r"\$\{(\w+):\?", text))
    assert required == {"SECRET_KEY", "DEAL_SECRET", "POSTGRES_PASSWORD"}
    example = (ROOT / "deploy" / "env.example").read_text()
    named = set(re.findall(r"^(\w+)=", example, re.MULTILINE))
    optional = set(re.findall(r"\$\{(\w+):-", text))
    assert required | optional <= named, (required | optional) - named
