"""Browser tests against a real server: Daphne serving the site, Debian's Chromium driving it.

A session fixture migrates a fresh SQLite database in a temporary directory, starts
``daphne config.asgi:application`` on a free port with a fixed deal secret (so deal
numbers mean the same cards in the test and on the server), and waits until it answers.
Each test gets a fresh browser context, that is a new anonymous player.

The helpers that drive pages are in browser_support.py.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import DEAL_SECRET, screen_context
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
DAPHNE = ROOT / ".venv" / "bin" / "daphne"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # test_csp.py serves pages through Playwright's router to add a policy; such a page
    # has no address space of its own, and Chromium would then refuse its socket to
    # 127.0.0.1 as a "local network" request.
    "--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests",
]
STARTUP_SECONDS = 60


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_until_up(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"daphne exited early:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"daphne did not answer within {STARTUP_SECONDS}s:\n{log.read_text()}")


@pytest.fixture(scope="session")
def live_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real Daphne server on a fresh database."""
    home = tmp_path_factory.mktemp("e2e-server")
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{home / 'e2e.sqlite3'}",
        "DEBUG": "1",
        "VAR_DIR": str(home),
        "DEAL_SECRET": DEAL_SECRET,
        "SECRET_KEY": "e2e-secret-key-not-for-production",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "WARNING",
        # Every browser context here comes from one address, and a page without a game
        # yet has no session, so it counts as its address: a full run makes more games a
        # minute than any one household would, and how many depends on the machine's
        # speed. The HTTP limits are raised; the socket buckets stay, so fast clicking is
        # still played against the real ones. tests/security checks the limits themselves.
        **{
            f"RATE_{name}{scope}": "100000/m"
            for name in ("CREATE_GAME", "CREATE_RACE", "JOIN_RACE", "HINT", "WINNABLE", "REPLAY", "HTTP_MOVE")
            for scope in ("", "_IP")
        },
        "RATE_LOGIN_IP": "100000/5m",
        "MAX_SOCKETS_PER_IP": "1000",
    }
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    port = _free_port()
    log = home / "daphne.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [str(DAPHNE), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(f"{url}/healthz", process, log)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def context(browser: Browser, live_server_url: str) -> Iterator[BrowserContext]:
    """A new browser profile on the desktop screen: a new anonymous player (see
    browser_support.screen_context for the policy it bypasses)."""
    made = screen_context(browser, live_server_url, "desktop")
    yield made
    made.close()


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    """A page that fails the test on any script error."""
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    assert not errors, f"script errors on the page: {errors}"
