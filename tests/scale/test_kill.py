"""A web process dies in the middle of a race (SIGKILL, no goodbye), while its player is
sending moves as fast as the protocol allows. The player reconnects to another process,
resends what was never acknowledged, and carries on to the end. No acknowledged move
may be lost, and none may be applied twice.

The figures (moves acknowledged, moves in the log, time to reconnect) are printed at
the end of the run and written to tests/scale/results/kill-test.json.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

import pytest
from scale_support import (
    Deployment,
    Player,
    Socket,
    WebProcess,
    finishing_line,
    near_the_end,
    ready_and_start,
    record_figures,
    replay,
    turning,
)
from websockets.exceptions import ConnectionClosed

pytestmark = pytest.mark.timeout(180)

WINDOW = 4  # moves a client may have sent and not yet seen acknowledged
ANA_MOVES = 40  # even: her stock ends where it began
BEN_MOVES = 20
KILL_AFTER = 12  # acknowledgements Ana has before her process is killed


@dataclass
class Sender:
    """A client sending a list of moves with up to WINDOW unacknowledged at a time,
    keeping its own account of what the server acknowledged."""

    prefix: str
    moves: list[tuple[str, str]]
    next: int = 0
    acked: list[str] = field(default_factory=list)
    unacked: list[str] = field(default_factory=list)  # sent, in order, no answer yet

    def move_id(self, n: int) -> str:
        return f"{self.prefix}{n}"

    def move_of(self, move_id: str) -> tuple[str, str]:
        return self.moves[int(move_id.removeprefix(self.prefix))]

    @property
    def done(self) -> bool:
        return self.next == len(self.moves) and not self.unacked

    async def send(self, socket: Socket, move_id: str) -> None:
        source, target = self.move_of(move_id)
        await socket.send({"type": "move", "id": move_id, "move": {"from": source, "to": target, "count": 1}})

    async def pump(self, socket: Socket, stop_after: int | None = None) -> None:
        """Send and collect answers until done, or until ``stop_after`` acks."""
        while not self.done and (stop_after is None or len(self.acked) < stop_after):
            while self.next < len(self.moves) and len(self.unacked) < WINDOW:
                move_id = self.move_id(self.next)
                self.next += 1
                self.unacked.append(move_id)
                await self.send(socket, move_id)
            message = await socket.receive()
            if message["type"] == "error":
                raise AssertionError(f"{socket.who}'s move was refused: {message}")
            if message["type"] == "ack" and message["id"] in self.unacked:
                self.unacked.remove(message["id"])
                self.acked.append(message["id"])

    async def resend(self, socket: Socket) -> None:
        """After a reconnect: resend everything unacknowledged, same ids, same order."""
        for move_id in list(self.unacked):
            await self.send(socket, move_id)
        await self.pump(socket)


async def test_a_killed_process_loses_no_acknowledged_move(
    scale: Deployment, cluster: list[WebProcess]
) -> None:
    a, b = cluster
    victim = scale.start_all("victim")[0]
    ana, ben = Player("Ana"), Player("Ben")
    ana.get(f"{victim.url}/api/races")
    race = ana.post(f"{victim.url}/api/races", {"name": "Ana"}, expect=201)
    race_id = race["id"]
    ben.get(f"{a.url}/api/races")
    ben.post(f"{a.url}/api/races/{race_id}/join", {"token": race["token"], "name": "Ben"})
    position = near_the_end()
    scale.set_start_position(race_id, position)
    ana_socket = await ana.connect(victim, f"/ws/races/{race_id}/")
    ben_socket = await ben.connect(a, f"/ws/races/{race_id}/")
    await ready_and_start(ana_socket, ben_socket)

    # Both turn their stocks over as fast as they may, Ana on the victim, Ben on A.
    ana_sender = Sender("a", turning(1, ANA_MOVES))
    ben_sender = Sender("b", turning(2, BEN_MOVES))
    ben_task = asyncio.ensure_future(ben_sender.pump(ben_socket))
    await ana_sender.pump(ana_socket, stop_after=KILL_AFTER)
    acked_before = list(ana_sender.acked)
    in_flight = list(ana_sender.unacked)

    killed_at = time.monotonic()
    victim.kill()
    with pytest.raises(ConnectionClosed):
        while True:  # what was on the wire before the kill, then the dead connection
            message = await ana_socket.receive()
            if message["type"] == "ack" and message["id"] in ana_sender.unacked:
                ana_sender.unacked.remove(message["id"])
                ana_sender.acked.append(message["id"])
    noticed = time.monotonic() - killed_at

    # Every acknowledged move is in the database, the moment the process is gone.
    logged = {entry["client_id"] for entry in scale.race_log(race_id) if entry["seat"] == 1}
    assert set(ana_sender.acked) <= logged, set(ana_sender.acked) - logged
    applied_unacked = sorted(logged - set(ana_sender.acked), key=lambda i: int(i[1:]))

    # Ana's client reconnects to the other process (B) and gets the race as it is now.
    back = await ana.connect(b, f"/ws/races/{race_id}/")
    state = await back.expect("state")
    reconnected = time.monotonic() - killed_at
    assert state["seat"] == 1 and state["status"] == "playing"
    resent = list(ana_sender.unacked)
    await ana_sender.resend(back)
    await ben_task

    # Nothing lost, nothing twice: Ana's log is exactly her moves, once each, in order.
    log = scale.race_log(race_id)
    ana_ids = [entry["client_id"] for entry in log if entry["seat"] == 1]
    assert ana_ids == [ana_sender.move_id(n) for n in range(ANA_MOVES)]
    assert sorted(ana_sender.acked) == sorted(ana_ids)
    assert [entry["client_id"] for entry in log if entry["seat"] == 2] == [
        ben_sender.move_id(n) for n in range(BEN_MOVES)
    ]
    assert [entry["seq"] for entry in log] == list(range(1, len(log) + 1))

    # And the race carries on to its end, Ana on B, Ben on A.
    for n, (source, target) in enumerate([("p1.t3", "f1"), *finishing_line(1, "f1", "f3")]):
        answer = await back.move(f"end{n}", source, target)
        assert answer["type"] == "ack", answer
    for socket in (back, ben_socket):
        finished = await socket.expect("finished")
        assert finished["result"]["winner"] == 1 and finished["result"]["reason"] == "finished"
    log = scale.race_log(race_id)
    final = replay(position, [entry["move"] for entry in log])
    assert final.rules.result(final)["winner"] == 1
    assert back.states()[-1]["state"] == final.view(1)
    assert ben_socket.states()[-1]["state"] == final.view(2)
    ben_versions = [s["version"] for s in ben_socket.states()]
    assert ben_versions == sorted(set(ben_versions))

    record_figures(
        "kill-test",
        {
            "moves Ana sent before the kill": len(acked_before) + len(in_flight),
            "acknowledged before the kill": len(acked_before),
            "acknowledged (all, before the kill or on reconnect)": len(ana_sender.acked),
            "Ana's moves in the log": len(ana_ids),
            "acknowledged moves missing from the log": len(set(ana_sender.acked) - set(ana_ids)),
            "moves applied twice": len(ana_ids) - len(set(ana_ids)),
            "unacknowledged at the kill": len(in_flight),
            "of which already applied (acked on resend as repeats)": len(applied_unacked),
            "resent after reconnecting": len(resent),
            "seconds until the client saw its socket close": round(noticed, 3),
            "seconds from SIGKILL to the state on the other process": round(reconnected, 3),
            "race moves in the log at the end": len(log),
        },
    )
    await back.close()
    await ben_socket.close()
