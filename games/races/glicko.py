"""Glicko-2 ratings: the arithmetic only, with no database and no Django.

Mark Glickman, "Example of the Glicko-2 system" (Boston University, 2013) defines the
steps followed here one by one: the scale change (step 2), the estimated variance
``v`` and improvement ``delta`` (steps 3-4), the new volatility by the Illinois
algorithm (step 5), and the new deviation and rating (steps 6-8). The worked example of
that paper is a test (tests/races_bots/test_glicko.py).

A race is one rating period with one game in it, as most online sites do it. A draw
scores 0.5. The computer levels keep fixed ratings: their ``Rating`` is passed in as an
opponent and never updated.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's scale factor, 400 / ln(10)
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5  # how much volatility may change; the paper suggests 0.3 to 1.2
EPSILON = 0.000001  # convergence tolerance of the volatility iteration
# A deviation this high or more marks a rating as provisional (few games yet).
PROVISIONAL_DEVIATION = 110.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating, its deviation (RD) and volatility, on the Glicko scale."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation >= PROVISIONAL_DEVIATION


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with ``games``: (opponent, score)
    pairs, score 1 for a win, 0.5 for a draw, 0 for a loss. With no games only the
    deviation grows (step 6 alone)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(phi_star * SCALE, DEFAULT_DEVIATION), sigma)
    for _, score in games:
        if score not in (0, 0.5, 1):
            raise ValueError("a game scores 1, 0.5 or 0")
    # Steps 3 and 4: estimated variance and improvement.
    v_inverse = 0.0
    outcome = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = opponent.deviation / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        outcome += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * outcome
    # Step 5: the new volatility, by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)
    # Steps 6 to 8: new deviation and rating, back on the Glicko scale.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * outcome
    return Rating(new_mu * SCALE + DEFAULT_RATING, new_phi * SCALE, new_sigma)


def expected_score(player: Rating, opponent: Rating) -> float:
    """The player's expected score against ``opponent`` (0 to 1)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
    phi_both = math.sqrt((player.deviation / SCALE) ** 2 + (opponent.deviation / SCALE) ** 2)
    return _expected(mu, mu_j, phi_both)
