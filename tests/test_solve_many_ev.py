"""``solve_many`` with the default ``ev`` objective answers exactly as ``solve`` per hand.

Under ``per_row`` scoring (``standard``, ``eastern``) ``solve_many`` takes the parallel batch
kernel; under ``two_four`` it solves hand by hand. Either way each Solution must equal the
single-hand solve, natural declarations included (CP-11).
"""

from __future__ import annotations

import random

import pytest

from cpsolver import solve, solve_many
from cpsolver.cards import Card, parse_cards

NATURAL_HANDS = [
    "2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As",  # six pairs (CP-E9)
    "As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s",  # dragon (CP-E10)
    "2h 5h 9h 3h 4h 7h Jh Kh 2s 6s 8s Ts Qs",  # three flushes (CP-E12)
]


def _hands(seed: int, count: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    deck = [Card.from_index(i) for i in range(52)]
    return [tuple(rng.sample(deck, 13)) for _ in range(count)] + [
        parse_cards(h) for h in NATURAL_HANDS
    ]


@pytest.mark.parametrize("rules", ["standard", "eastern", "two_four"])
def test_solve_many_equals_solve_for_ev(rules: str) -> None:
    hands = _hands(11, 150 if rules != "two_four" else 40)
    batch = solve_many(hands, rules)
    assert len(batch) == len(hands)
    for hand, many in zip(hands, batch, strict=True):
        one = solve(hand, rules)
        assert many.objective == one.objective == "ev"
        assert many.to_dict() == one.to_dict(), [str(c) for c in hand]
