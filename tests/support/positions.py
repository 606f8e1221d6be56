"""Known race positions for tests that must reach the end of a race in a few moves.

Set with ``games.races.lobby.use_start_position`` before anyone is ready (the scale
suite does it in a subprocess against its processes' database).
"""

from __future__ import annotations

from typing import Any

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def run(suit: str, top: str, owner: int) -> list[str]:
    """Foundation cards of one suit from the Ace up to ``top``, all laid by ``owner``."""
    return [f"{rank}{suit}:{owner}" for rank in RANKS[: RANKS.index(top) + 1]]


def near_the_end() -> dict[str, Any]:
    """Both seats seven cards from home, laid out alike: JC, QC, QD over a face-down KC,
    and KD, KH, KS in the stock. Seat 1 can finish in eight moves:
    JC, QC, QD, KC up; draw; KD, KH, KS up."""
    position: dict[str, Any] = {
        "f1": run("C", "10", 1),
        "f2": run("C", "10", 2),
        "f3": run("D", "J", 1),
        "f4": run("D", "J", 2),
        "f5": run("H", "Q", 1),
        "f6": run("H", "Q", 2),
        "f7": run("S", "Q", 1),
        "f8": run("S", "Q", 2),
    }
    for seat in (1, 2):
        position[f"p{seat}.t1"] = ["kc", "QD"]
        position[f"p{seat}.t2"] = ["QC"]
        position[f"p{seat}.t3"] = ["JC"]
        position[f"p{seat}.stock"] = ["kd", "kh", "ks"]
    return position


def almost_blocked() -> dict[str, Any]:
    """Seat 1 has AC, 2C and AH up and can never move again: its 4C needs a 3C nobody
    has, and its stock of four cards only cycles. Seat 2 has AD up and one move of
    progress left (2D onto it); after that only reversible tableau moves remain (7H
    between two black eights). Then the race is blocked: 3 to 2, seat 1 wins."""
    return {
        "f1": ["AC:1", "2C:1"],
        "f2": ["AD:2"],
        "f3": ["AH:1"],
        "p1.t1": ["4C"],
        "p1.stock": ["9h", "8s", "7d", "5c"],
        "p2.t1": ["2D"],
        "p2.t2": ["8S"],
        "p2.t3": ["8C"],
        "p2.t4": ["7H"],
        "p2.t5": ["5D"],
    }
