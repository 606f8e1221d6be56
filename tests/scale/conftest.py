"""Fixtures of the scale-out suite: real PostgreSQL and Redis (from DATABASE_URL and
REDIS_URL), a database of the suite's own, and real Daphne processes started the way
docker-compose.yml starts them.

Without the services the suite skips, unless CI is set: then it fails. The figures of
the kill test are printed at the end of the run and kept in results/.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from scale_support import FIGURES, Deployment, WebProcess, deployment, must_not_skip, unreachable_services


@pytest.fixture(scope="session")
def services() -> None:
    problems = unreachable_services()
    if not problems:
        return
    reason = "the scale-out suite needs PostgreSQL and Redis: " + "; ".join(problems)
    if must_not_skip():
        pytest.fail(reason + " (CI is set, so this is a failure, not a skip)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def scale(services: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    """The suite's deployment: its own migrated database and collected static files."""
    with deployment(tmp_path_factory.mktemp("scale")) as made:
        yield made


@pytest.fixture(scope="session")
def cluster(scale: Deployment) -> list[WebProcess]:
    """Two web processes, A and B, on two loopback ports, sharing database and Redis."""
    return scale.start_all("A", "B")


@pytest.fixture(autouse=True)
def no_errors_in_the_server_logs(request: pytest.FixtureRequest) -> Iterator[None]:
    """Whatever a test asserts, the processes it used must not have logged an error."""
    if "scale" not in request.fixturenames:
        yield
        return
    scale: Deployment = request.getfixturevalue("scale")
    before = {process.log: process.log.stat().st_size for process in scale.processes if process.log.exists()}
    yield
    for process in scale.processes:
        if not process.log.exists():
            continue
        with process.log.open("rb") as log:
            log.seek(before.get(process.log, 0))
            written = log.read().decode("utf-8", "replace")
        problems = [
            line for line in written.splitlines() if " ERROR " in line or line.startswith("Traceback")
        ]
        assert not problems, f"process {process.name} logged errors:\n{written}"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for name, figures in FIGURES:
        terminalreporter.write_sep("-", f"scale-out figures: {name}")
        for key, value in figures.items():
            terminalreporter.write_line(f"{key}: {value}")
