"""``solve_many`` with the default ``ev`` objective answers exactly as ``solve`` per hand.

Under ``per_row`` scoring (``standard``, ``eastern``) ``solve_many`` takes the parallel batch
kernel; under ``two_four`` it solves hand by hand. Either way each Solution must equal the
single-hand solve, natural declarations included (CP-11).
"""

from __future__ import annotations

import random

import pytest

from cpsolver import InvalidInputError, solve, solve_many
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


@pytest.mark.parametrize("estimator", ["calibrated", "model"])
@pytest.mark.parametrize("rules", ["standard", "eastern", "two_four"])
def test_solve_many_equals_solve_for_ev(rules: str, estimator: str) -> None:
    """The whole answer, the estimator's name too (the model's batch path once called its
    answers calibrated)."""
    hands = _hands(11, 150 if rules != "two_four" else 40)
    batch = solve_many(hands, rules, estimator=estimator)
    assert len(batch) == len(hands)
    for hand, many in zip(hands, batch, strict=True):
        one = solve(hand, rules, estimator=estimator)
        assert many.objective == one.objective == "ev"
        assert many.analysis is not None and str(many.analysis.estimator) == estimator
        assert many.to_dict() == one.to_dict(), [str(c) for c in hand]


# Two splits of this hand have EVs that differ only in the last bit, depending on the order the
# three row values are added: the batch kernel once added back + middle + front and the
# single-hand (pairing) kernel front + middle + back, so solve_many picked 5-4 / K-9-2 and solve
# 5-2 / K-9-4 (1 line of 10,000 in `cpsolver batch`). Every scan now adds in one order.
NEAR_TIE = "Ah Kc Qs Td Tc 9c 7s 7d 6h 6d 5s 4h 2c"


@pytest.mark.parametrize("rules", ["standard", "eastern"])
def test_solve_many_breaks_a_last_bit_tie_as_solve_does(rules: str) -> None:
    one = solve(NEAR_TIE, rules)
    (many,) = solve_many([NEAR_TIE], rules)
    assert many.value == one.value
    assert (many.back, many.middle, many.front) == (one.back, one.middle, one.front)
    assert many.to_dict() == one.to_dict()


def test_solve_many_equals_solve_on_thousands_of_seeded_hands() -> None:
    """The property behind `cpsolver batch` == `cpsolver solve` line by line: exact equality
    (values and splits), on enough hands for near-ties in the last bit to occur."""
    rng = random.Random(2026)
    deck = [Card.from_index(i) for i in range(52)]
    hands = [tuple(rng.sample(deck, 13)) for _ in range(20000)]
    batch = solve_many(hands)
    differ = [
        " ".join(map(str, hand))
        for hand, many in zip(hands, batch, strict=True)
        if many.to_dict() != solve(hand).to_dict()
    ]
    assert differ == []


@pytest.mark.parametrize("rules", ["standard", "two_four", "shisanshui"])
def test_solve_many_calibrated_equals_solve_hand_by_hand(rules: str) -> None:
    """The calibrated batch path (the pool kernel for all hands, chunks on threads) against
    ``solve`` one hand at a time: the same Solutions (rows, values, intervals, every candidate
    of the analysis), in the order given, natural hands included; ``shisanshui`` (RULES §2.5's
    settlement: its own kernel, ``pool_sums_terms``, on the same threads)."""
    hands = _hands(32, 80)
    batch = solve_many(hands, rules, estimator="calibrated", arrangements=2)
    assert len(batch) == len(hands)
    for hand, many in zip(hands, batch, strict=True):
        one = solve(hand, rules, estimator="calibrated", arrangements=2)
        assert many.to_dict() == one.to_dict(), [str(c) for c in hand]
        assert many.analysis == one.analysis
        assert many.analysis is not None and str(many.analysis.estimator) == "calibrated"


@pytest.mark.parametrize("estimator", ["rollouts:50", "calibrated"])
def test_solve_many_refuses_a_finer_estimate_another_objective_cannot_have(estimator: str) -> None:
    """As solve refuses it (and so BatchSolve and `cpsolver batch`); it was taken silently."""
    hand = "As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"
    with pytest.raises(InvalidInputError) as many:
        solve_many([hand], objective="strength", estimator=estimator)
    with pytest.raises(InvalidInputError) as one:
        solve(hand, objective="strength", estimator=estimator)
    assert str(many.value) == str(one.value)
    assert solve_many([hand], objective="strength", estimator="model")[0].objective == "strength"
