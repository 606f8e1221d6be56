"""A real Daphne serving the site on a fresh SQLite database, for the security suite.

``serve(**env)`` migrates a database in a temporary directory, starts
``daphne config.asgi:application`` on a free port with the given environment on top of a
development one, waits for /healthz, and stops it afterwards. ``Player`` is an HTTP
client with its own cookies (one browser), speaking JSON with the CSRF token."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DAPHNE = ROOT / ".venv" / "bin" / "daphne"
STARTUP_SECONDS = 90
DEAL_SECRET = "security-suite-deal-secret-0123456789-abcdef"
SECRET_KEY = "security-suite-secret-key-0123456789-abcdefghijklmnop"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    url: str
    host: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path


def _wait_until_up(server: Server) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"daphne exited early:\n{server.log.read_text()}")
        try:
            with urllib.request.urlopen(f"{server.url}/healthz", timeout=5) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"daphne did not answer within {STARTUP_SECONDS}s:\n{server.log.read_text()}")


@contextmanager
def serve(**overrides: str) -> Iterator[Server]:
    with tempfile.TemporaryDirectory(prefix="security-server-") as directory:
        home = Path(directory)
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{home / 'site.sqlite3'}",
            "DEBUG": "1",
            "VAR_DIR": str(home),
            "DEAL_SECRET": DEAL_SECRET,
            "SECRET_KEY": SECRET_KEY,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "LOG_LEVEL": "WARNING",
            **overrides,
        }
        env.pop("REDIS_URL", None)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
        )
        port = free_port()
        log = home / "daphne.log"
        with log.open("wb") as output:
            process = subprocess.Popen(
                [str(DAPHNE), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
                cwd=ROOT,
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        server = Server(f"http://127.0.0.1:{port}", "127.0.0.1", port, process, log)
        try:
            _wait_until_up(server)
            yield server
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


class Player:
    """One browser: its own cookies and a kept-alive connection."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.cookies: dict[str, str] = {}
        self.connection = http.client.HTTPConnection(server.host, server.port, timeout=120)

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, dict[str, str], Any]:
        headers = {"Origin": self.server.url, "Referer": self.server.url + "/"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if "csrftoken" in self.cookies:
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            self.connection.request(method, path, body=data, headers=headers)
            answer = self.connection.getresponse()
        except (http.client.HTTPException, OSError):
            self.connection.close()
            self.connection = http.client.HTTPConnection(self.server.host, self.server.port, timeout=120)
            self.connection.request(method, path, body=data, headers=headers)
            answer = self.connection.getresponse()
        raw = answer.read()
        for header in answer.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        content: Any = raw
        if answer.headers.get("Content-Type", "").startswith("application/json"):
            content = json.loads(raw)
        return answer.status, dict(answer.headers), content

    def get(self, path: str) -> tuple[int, dict[str, str], Any]:
        return self.request("GET", path)

    def post(self, path: str, body: Any = None) -> tuple[int, dict[str, str], Any]:
        if "csrftoken" not in self.cookies:
            self.get("/api/stats")  # ensure_csrf_cookie
        return self.request("POST", path, {} if body is None else body)

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def close(self) -> None:
        self.connection.close()
