"""Daphne under test: started as a subprocess on a free loopback port, watched, stopped.

The environment is the project's own settings read from the environment: by default a
SQLite database in a temporary directory (migrated once per run) and the in-memory
channel layer; PostgreSQL and Redis when DATABASE_URL and REDIS_URL are set. DEBUG is
off, as in production, so Django keeps no query log. This module knows processes,
ports and /proc, nothing of games.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DAPHNE = Path(sys.executable).with_name("daphne")
STARTUP_SECONDS = 60
# The application of the site, and the bare consumer the site is measured against.
SITE_APP = "config.asgi:application"
BASELINE_APP = "bench.baseline_asgi:application"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def bench_environment(home: Path) -> dict[str, str]:
    """The server's environment: production-like settings, a private SQLite file."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "VAR_DIR": str(home),
        "SECRET_KEY": secrets.token_urlsafe(48),
        "DEAL_SECRET": secrets.token_urlsafe(32),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
        "PYTHONDONTWRITEBYTECODE": "1",
        # Hundreds of players from one address, far faster than people: no rate limits
        # or socket caps (issue 11), as for any load test.
        "RATE_LIMITS": "off",
    }
    return env


def database_kind(env: dict[str, str]) -> str:
    url = env.get("DATABASE_URL", "")
    return url.split(":", 1)[0] if url else "sqlite"


def layer_kind(env: dict[str, str]) -> str:
    return "redis" if env.get("REDIS_URL") else "in-memory"


def migrate(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    """One Daphne process serving ``app``."""

    app: str
    env: dict[str, str]
    log: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> Server:
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                [str(DAPHNE), "-b", "127.0.0.1", "-p", str(self.port), self.app],
                cwd=ROOT,
                env=self.env,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        self._wait_until_up()
        return self

    def _wait_until_up(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited early:\n{self.log.read_text()[-4000:]}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.1)
        raise RuntimeError(
            f"daphne did not answer within {STARTUP_SECONDS}s:\n{self.log.read_text()[-4000:]}"
        )

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------ what /proc says

    def memory_kb(self) -> dict[str, int]:
        """VmRSS (now) and VmHWM (the peak so far) of the server process, in KB."""
        found: dict[str, int] = {}
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0])
        return found

    def cpu_seconds(self) -> float:
        """User plus system CPU time the server process has used so far."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        # After the command name: state is field 3, utime 14 and stime 15 (1-based).
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def own_cpu_seconds() -> float:
    """CPU time of this process (the load generator), user plus system."""
    times = os.times()
    return times.user + times.system
