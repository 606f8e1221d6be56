"""docker-compose's nginx configuration in front of the two web processes.

nginx runs deploy/nginx/default.conf with only its upstream and listen lines changed
for loopback (see scale_support.Proxy). Players reach the site only through it, as on
a deployment: pages, the API with its CSRF checks, the health check and WebSockets.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import time
from collections.abc import Iterator

import pytest
import yaml
from scale_support import (
    ROOT,
    Deployment,
    Player,
    Proxy,
    WebProcess,
    load_healthcheck,
    must_not_skip,
    near_the_end,
    nginx_binary,
    ready_and_start,
)

pytestmark = pytest.mark.timeout(180)


@pytest.fixture(scope="module")
def proxy(
    scale: Deployment, cluster: list[WebProcess], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Proxy]:
    if nginx_binary() is None:
        reason = "nginx is not installed (make test-scale installs it)"
        if must_not_skip():
            pytest.fail(reason + "; CI is set, so this is a failure", pytrace=False)
        pytest.skip(reason)
    started = Proxy(tmp_path_factory.mktemp("proxy"), cluster)
    started.start()
    yield started
    started.stop()


def test_the_proxy_answers_the_health_check_of_compose(proxy: Proxy) -> None:
    healthy, said = load_healthcheck().check(proxy.url, host="127.0.0.1")
    assert healthy, said
    # docker-compose's own health check command for the proxy, aimed at this port.
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    kind, command = compose["services"]["proxy"]["healthcheck"]["test"]
    assert kind == "CMD-SHELL"
    command = command.replace("$$", "$").replace("http://127.0.0.1/", f"{proxy.url}/")
    if shutil.which("wget"):
        done = subprocess.run(
            ["sh", "-c", command], env={"ALLOWED_HOSTS": "127.0.0.1,localhost", "PATH": "/usr/bin:/bin"}
        )
        assert done.returncode == 0, command


async def test_a_race_through_the_proxy_puts_its_two_players_on_different_processes(
    scale: Deployment, cluster: list[WebProcess], proxy: Proxy
) -> None:
    ana, ben = Player("Ana"), Player("Ben")
    # Pages and static files come through too, as a browser would ask for them.
    ana.opener.open(f"{proxy.url}/", timeout=15).read()
    # The API's POSTs carry a browser's Origin, which Django checks against the Host the
    # proxy passes on: a proxy that dropped the port would fail every POST here.
    ana.get(f"{proxy.url}/api/races")
    race = ana.post(f"{proxy.url}/api/races", {"name": "Ana"}, expect=201)
    race_id = race["id"]
    ben.get(f"{proxy.url}/api/races")
    ben.post(f"{proxy.url}/api/races/{race_id}/join", {"token": race["token"], "name": "Ben"})
    scale.set_start_position(race_id, near_the_end())

    ana_socket = await ana.connect(proxy, f"/ws/races/{race_id}/")
    ben_socket = await ben.connect(proxy, f"/ws/races/{race_id}/")
    assert (await ana_socket.expect("state"))["seat"] == 1
    assert (await ben_socket.expect("state"))["seat"] == 2
    await ready_and_start(ana_socket, ben_socket)
    mine = await ana_socket.move("a1", "p1.t3", "f1")
    assert mine["type"] == "ack", mine
    assert (await ben_socket.state_at(mine["version"]))["state"]["piles"]["f1"][-1] == "JC:1"
    theirs = await ben_socket.move("b1", "p2.t3", "f2")
    assert theirs["type"] == "ack", theirs
    assert (await ana_socket.state_at(theirs["version"]))["state"]["piles"]["f2"][-1] == "JC:2"
    await ana_socket.close()
    await ben_socket.close()

    # nginx logs a WebSocket once it closes: the two went to the two processes.
    socket_path = re.compile(rf"^/ws/races/{race_id}/$")
    deadline = time.monotonic() + 15
    while True:
        sockets = [entry for entry in proxy.served() if socket_path.match(entry[1])]
        if len(sockets) == 2 or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.1)
    assert [status for _, _, status, _ in sockets] == [101, 101]
    assert {upstream for *_, upstream in sockets} == {f"127.0.0.1:{process.port}" for process in cluster}
    served_by = {upstream for *_, upstream in proxy.served()}
    assert served_by == {f"127.0.0.1:{process.port}" for process in cluster}
