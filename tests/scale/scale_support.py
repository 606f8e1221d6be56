"""What the scale-out suite runs, and the clients it drives.

The deployment's commands, settings names and health check are declared once here, and
both sides use them: the suite starts its processes with them, and test_compose.py
checks that docker-compose.yml and the Dockerfile say the same. The rest is plumbing:
a dedicated PostgreSQL database, real Daphne subprocesses, nginx with the deployment's
own proxy configuration, and players made of a urllib cookie jar and `websockets`
connections, talking to the site as docs/api.md says a client does.

Nothing here imports Django or the web app: the processes under test are reached only
over HTTP and WebSockets, and the database only to read the move log back, which the
rules engine alone then replays.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import http.cookiejar
import importlib.util
import json
import os
import re
import shutil
import signal
import socket as sockets_module
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script (check_services.py), the project is not on the path
    sys.path.insert(0, str(ROOT))

from tests.support.positions import near_the_end  # noqa: E402, F401  (re-exported for the tests)

VENV_BIN = ROOT / ".venv" / "bin"
RESULTS = Path(__file__).resolve().parent / "results"

# ---------------------------------------------------------------- the deployment's terms

# The commands of docker-compose.yml's services and the image, run from the project root.
WEB_COMMAND = ["deploy/web.sh"]
MIGRATE_COMMAND = ["deploy/migrate.sh"]
COLLECTSTATIC_COMMAND = ["deploy/collectstatic.sh"]
WEB_HEALTHCHECK = ["CMD", "python", "deploy/healthcheck.py"]
# The settings a web process reads from its environment. The suite sets every one of
# them for its processes, and docker-compose.yml must set every one for `web`.
SERVER_ENV_NAMES = (
    "DEBUG",
    "SECRET_KEY",
    "DEAL_SECRET",
    "DATABASE_URL",
    "REDIS_URL",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "HTTPS",
    "LOG_LEVEL",
    "STATIC_ROOT",
    "BIND",
    "PORT",
)
# `make test-scale`'s defaults: the development and CI machines' loopback services.
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"

STARTUP_SECONDS = 60
TIMEOUT = 15.0  # for one expected message; generous, as the machine is shared


def load_healthcheck() -> ModuleType:
    """deploy/healthcheck.py, the health check docker-compose runs, as a module."""
    spec = importlib.util.spec_from_file_location("deploy_healthcheck", ROOT / "deploy" / "healthcheck.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- services


def database_url() -> str:
    return os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL


def redis_url() -> str:
    return os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL


def unreachable_services() -> list[str]:
    """Why PostgreSQL or Redis cannot be used, one line each; empty when both answer."""
    import psycopg
    import redis

    problems = []
    url = database_url()
    if not url.startswith(("postgres://", "postgresql://")):
        problems.append(f"DATABASE_URL must name PostgreSQL for the scale-out suite, not {url!r}")
    else:
        try:
            with psycopg.connect(url, connect_timeout=5) as connection:
                connection.execute("SELECT 1")
        except psycopg.Error as error:
            problems.append(f"PostgreSQL at {url} does not answer: {error}".strip())
    try:
        client = redis.Redis.from_url(redis_url(), socket_connect_timeout=5, socket_timeout=5)
        client.ping()
        client.close()
    except (redis.RedisError, OSError) as error:
        problems.append(f"Redis at {redis_url()} does not answer: {error}")
    return problems


def must_not_skip() -> bool:
    """On CI, a missing service is a failure, never a skip."""
    return bool(os.environ.get("CI"))


@dataclass
class ScaleDatabase:
    """A database of its own for this run, beside the one DATABASE_URL names.

    The Daphne processes must share one database with each other, so the suite cannot
    use pytest-django's per-test transactions; it migrates this one and drops it after.
    """

    admin_url: str
    name: str = field(default_factory=lambda: f"patience_scale_{os.getpid()}")

    @property
    def url(self) -> str:
        parts = urllib.parse.urlsplit(self.admin_url)
        return urllib.parse.urlunsplit(parts._replace(path=f"/{self.name}"))

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            connection.execute(sql)

    def create(self) -> None:
        self.drop()
        self._admin(f'CREATE DATABASE "{self.name}"')

    def drop(self) -> None:
        self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def rows(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(self.url) as connection:
            return connection.execute(sql, params).fetchall()


# ---------------------------------------------------------------- processes


def free_port() -> int:
    with sockets_module.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_environment(database: str, static_root: Path, var_dir: Path) -> dict[str, str]:
    """Production settings, as docker-compose.yml gives them, for loopback."""
    return {
        "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": os.environ.get("HOME", "/tmp"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "VAR_DIR": str(var_dir),
        "DEBUG": "0",
        "SECRET_KEY": "scale-suite-secret-key-not-for-production-0123456789",
        "DEAL_SECRET": "scale-suite-deal-secret",
        "DATABASE_URL": database,
        "REDIS_URL": redis_url(),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CSRF_TRUSTED_ORIGINS": "",
        "HTTPS": "0",
        "LOG_LEVEL": "WARNING",
        "STATIC_ROOT": str(static_root),
        "BIND": "127.0.0.1",
        "PORT": "8000",
    }


def run_command(command: list[str], env: dict[str, str], what: str) -> None:
    """Run one of the deployment's one-shot commands; fail with its output."""
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{what} ({' '.join(command)}) failed:\n{done.stdout}\n{done.stderr}")


@dataclass
class WebProcess:
    """One Daphne process started by deploy/web.sh on a loopback port."""

    name: str
    env: dict[str, str]
    log: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                WEB_COMMAND,
                cwd=ROOT,
                env={**self.env, "PORT": str(self.port)},
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_until_healthy(self) -> None:
        """Poll /healthz the way the health check does, until the process is healthy."""
        assert self.process is not None
        check = load_healthcheck().check
        deadline = time.monotonic() + STARTUP_SECONDS
        said = ""
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited early:\n{self.log.read_text()}")
            healthy, said = check(self.url, host="127.0.0.1", timeout=5)
            if healthy:
                return
            time.sleep(0.2)
        raise RuntimeError(f"{self.name} never became healthy ({said}):\n{self.log.read_text()}")

    def run_healthcheck(self) -> subprocess.CompletedProcess[str]:
        """The compose health check command, run against this process."""
        command = [sys.executable if part == "python" else part for part in WEB_HEALTHCHECK[1:]]
        return subprocess.run(
            command,
            cwd=ROOT,
            env={**self.env, "PORT": str(self.port)},
            capture_output=True,
            text=True,
            check=False,
            timeout=30,
        )

    def kill(self) -> None:
        """SIGKILL: the process dies at once, saying nothing to anyone."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@dataclass
class Deployment:
    """The suite's deployment: a migrated database, collected static files, and a way
    to start web processes on it."""

    database: ScaleDatabase
    env: dict[str, str]
    home: Path
    processes: list[WebProcess] = field(default_factory=list)

    def start(self, name: str) -> WebProcess:
        process = WebProcess(name, self.env, self.home / f"{name}.log")
        self.processes.append(process)
        process.start()
        return process

    def start_all(self, *names: str) -> list[WebProcess]:
        """Start several processes side by side and wait until each is healthy."""
        started = [self.start(name) for name in names]
        for process in started:
            process.wait_until_healthy()
        return started

    def stop_all(self) -> None:
        for process in self.processes:
            process.stop()

    def set_start_position(self, race_id: int, position: dict[str, Any]) -> None:
        """games.races.lobby.use_start_position, the race's hook for tests, run by Django in
        a subprocess against the same database the processes use."""
        done = subprocess.run(
            [sys.executable, str(Path(__file__).with_name("start_position.py")), str(race_id)],
            cwd=ROOT,
            env=self.env,
            input=json.dumps(position),
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"setting the start position failed:\n{done.stderr}")

    def race_log(self, race_id: int) -> list[dict[str, Any]]:
        """The race's move log as the database holds it, in order."""
        rows = self.database.rows(
            "SELECT seq, seat, move, client_id, version FROM games_racemove WHERE race_id = %s ORDER BY seq",
            race_id,
        )
        return [
            {"seq": seq, "seat": seat, "move": move, "client_id": client_id, "version": version}
            for seq, seat, move, client_id, version in rows
        ]


@contextlib.contextmanager
def deployment(home: Path) -> Iterator[Deployment]:
    """Create and migrate the suite's database and collect the static files, with the
    deployment's own scripts; drop the database at the end."""
    database = ScaleDatabase(database_url())
    database.create()
    env = server_environment(database.url, home / "static", home / "var")
    made = Deployment(database, env, home)
    try:
        run_command(MIGRATE_COMMAND, env, "migrate")
        run_command(COLLECTSTATIC_COMMAND, env, "collectstatic")
        yield made
    finally:
        made.stop_all()
        database.drop()


# ---------------------------------------------------------------- the proxy

NGINX_CONFIG = ROOT / "deploy" / "nginx" / "default.conf"
NGINX_UPSTREAM = re.compile(r"^(\s*)server web:8000 resolve;$", re.MULTILINE)
NGINX_LISTEN = re.compile(r"^(\s*)listen 80 default_server;$", re.MULTILINE)


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (path for path in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(path, os.X_OK)), None
    )


@dataclass
class Proxy:
    """nginx with docker-compose's own site configuration, on loopback.

    Only two lines of deploy/nginx/default.conf change: the upstream names the suite's
    processes instead of Docker's `web` service, and the server listens on a free
    loopback port instead of 80. The access log records which process served each
    request, so a test can see where connections went.
    """

    home: Path
    upstreams: list[WebProcess]
    port: int = field(default_factory=free_port)
    name: str = "proxy"
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def site_config(self) -> str:
        site = NGINX_CONFIG.read_text()
        servers = "\n".join(f"\\1server 127.0.0.1:{process.port};" for process in self.upstreams)
        site, upstreams = NGINX_UPSTREAM.subn(servers, site)
        site, listens = NGINX_LISTEN.subn(f"\\1listen 127.0.0.1:{self.port} default_server;", site)
        assert (upstreams, listens) == (1, 1), (
            "deploy/nginx/default.conf no longer has its upstream or listen"
        )
        return site

    def start(self) -> None:
        binary = nginx_binary()
        assert binary is not None
        for directory in ("logs", "body", "proxy"):
            (self.home / directory).mkdir(parents=True, exist_ok=True)
        (self.home / "site.conf").write_text(self.site_config())
        (self.home / "nginx.conf").write_text(
            f"""
daemon off;
user {getpass.getuser()};
worker_processes 1;
pid {self.home}/nginx.pid;
error_log {self.home}/logs/error.log warn;
events {{ worker_connections 256; }}
http {{
    log_format upstreams '$request_method $request_uri $status $upstream_addr';
    access_log {self.home}/logs/access.log upstreams;
    client_body_temp_path {self.home}/body;
    proxy_temp_path {self.home}/proxy;
    include {self.home}/site.conf;
}}
"""
        )
        self.process = subprocess.Popen(
            [binary, "-p", str(self.home), "-e", str(self.home / "logs" / "error.log"), "-c", "nginx.conf"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"nginx exited: {self.process.stderr.read().decode() if self.process.stderr else ''}"
                )
            with contextlib.suppress(OSError), sockets_module.create_connection(("127.0.0.1", self.port), 1):
                return
            time.sleep(0.1)
        raise RuntimeError("nginx did not start listening")

    def served(self) -> list[tuple[str, str, int, str]]:
        """The access log so far: (method, path, status, the process address)."""
        log = self.home / "logs" / "access.log"
        lines = log.read_text().splitlines() if log.exists() else []
        return [
            (method, path, int(status), upstream)
            for method, path, status, upstream in (line.split(" ", 3) for line in lines)
        ]

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# ---------------------------------------------------------------- players


class Socket:
    """One WebSocket connection; remembers every message it received.

    Messages not yet asked for wait in ``pending``, in order, so a test can look for
    the answer to its move without losing the states that came before it.
    """

    def __init__(self, connection: ClientConnection, who: str, where: str) -> None:
        self.connection = connection
        self.who = who
        self.where = where
        self.seen: list[dict[str, Any]] = []
        self.pending: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any]) -> None:
        await self.connection.send(json.dumps(message))

    async def receive(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message off the wire (not from ``pending``)."""
        message = json.loads(await asyncio.wait_for(self.connection.recv(), timeout))
        self.seen.append(message)
        return message

    async def first(self, match: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first message, waiting or yet to come, that ``match`` accepts."""
        for index, message in enumerate(self.pending):
            if match(message):
                return self.pending.pop(index)
        while True:
            message = await self.receive()
            if match(message):
                return message
            self.pending.append(message)

    async def expect(self, kind: str, **fields: Any) -> dict[str, Any]:
        return await self.first(lambda m: m["type"] == kind and all(m.get(k) == v for k, v in fields.items()))

    async def state_at(self, version: int) -> dict[str, Any]:
        """The first state message at ``version`` or later."""
        return await self.first(lambda m: m["type"] == "state" and m["version"] >= version)

    async def move(self, move_id: str, source: str, target: str, count: int = 1) -> dict[str, Any]:
        """Send a move and return the answer to it (ack or error)."""
        await self.send(
            {"type": "move", "id": move_id, "move": {"from": source, "to": target, "count": count}}
        )
        return await self.first(lambda m: m["type"] in ("ack", "error") and m.get("id") == move_id)

    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.seen if m["type"] == "state"]

    async def close(self) -> None:
        await self.connection.close()


class Player:
    """A browser: a cookie jar shared by every process (cookies ignore the port), an
    HTTP client that sends Django's CSRF token, and WebSocket connections."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(self.jar)
        )

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def request(self, method: str, url: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        """One API call: ``(status, decoded JSON)``. POSTs carry the CSRF token."""
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        token = self.cookie("csrftoken")
        if method != "GET":
            # As a browser's fetch() does: Django checks it against the Host it sees.
            parts = urllib.parse.urlsplit(url)
            headers["Origin"] = f"{parts.scheme}://{parts.netloc}"
            if token:
                headers["X-CSRFToken"] = token
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with self.opener.open(request, timeout=TIMEOUT) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def get(self, url: str) -> Any:
        status, body = self.request("GET", url)
        assert status == 200, (url, status, body)
        return body

    def post(self, url: str, body: dict[str, Any], expect: int = 200) -> Any:
        status, answer = self.request("POST", url, body)
        assert status == expect, (url, status, answer)
        return answer

    async def connect(self, server: WebProcess | Proxy, path: str) -> Socket:
        """A WebSocket to ``path`` on a web process or the proxy, as this browser."""
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        connection = await connect(
            server.ws_url + path,
            origin=server.url,  # type: ignore[arg-type]
            additional_headers={"Cookie": cookies} if cookies else None,
            proxy=None,
            open_timeout=TIMEOUT,
        )
        return Socket(connection, self.name, server.name)


# ---------------------------------------------------------------- races


def finishing_line(seat: int, clubs: str, diamonds: str) -> list[tuple[str, str]]:
    """The moves that take ``seat`` home from near_the_end once its JC is on ``clubs``."""
    p = f"p{seat}"
    return [
        (f"{p}.t2", clubs),
        (f"{p}.t1", diamonds),
        (f"{p}.t1", clubs),
        (f"{p}.stock", f"{p}.waste"),
        (f"{p}.waste", diamonds),
        (f"{p}.waste", "f5" if seat == 1 else "f6"),
        (f"{p}.waste", "f7" if seat == 1 else "f8"),
    ]


def turning(seat: int, count: int) -> list[tuple[str, str]]:
    """Draw, turn the waste over, draw...: ``count`` moves that are legal one after the
    other in near_the_end, and only in that order, so a move applied twice or lost
    makes a later one illegal. An even count leaves the stock as it was."""
    p = f"p{seat}"
    return [
        (f"{p}.stock", f"{p}.waste") if n % 2 == 0 else (f"{p}.waste", f"{p}.stock") for n in range(count)
    ]


def replay(position: dict[str, Any], moves: list[dict[str, Any]]) -> Any:
    """The engine's state after ``moves`` from ``position``: the truth a log stands for."""
    import solitaire

    state = solitaire.load("double", position)
    for move in moves:
        state = state.apply(move)
    return state


async def ready_and_start(*sockets: Socket) -> None:
    """Both players press Ready; each socket counts 3, 2, 1 and gets the start."""
    for socket in sockets:
        await socket.send({"type": "ready", "id": "ready"})
        answer = await socket.first(lambda m: m["type"] in ("ack", "error") and m.get("id") == "ready")
        assert answer["type"] == "ack", answer
    for socket in sockets:
        counted = [(await socket.expect("countdown"))["seconds"] for _ in range(3)]
        assert counted == [3, 2, 1], (socket.who, counted)
        await socket.expect("start")
    for socket in sockets:
        await socket.first(lambda m: m["type"] == "state" and m["status"] == "playing")


# ---------------------------------------------------------------- figures


FIGURES: list[tuple[str, dict[str, Any]]] = []


def record_figures(name: str, figures: dict[str, Any]) -> None:
    """Keep figures for the end-of-run summary and write them to results/<name>.json."""
    FIGURES.append((name, figures))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(figures, indent=2) + "\n")
