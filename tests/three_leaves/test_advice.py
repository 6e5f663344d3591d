"""Three Leaves advice (TL-3, TL-4, TL-5): exact khlyust odds against closed forms and an
independent simulation, seeded trick odds, exchange advice."""

from __future__ import annotations

import itertools
import random
from math import comb

import pytest

from cpsolver.cards import DECK_28, Card, parse_cards
from cpsolver.errors import InvalidInputError
from cpsolver.three_leaves import exchange_advice, khlyust_odds, trick_odds


def _is_khlyust(cards: list[Card] | tuple[Card, ...]) -> bool:
    """TL-4 by definition: three of one suit or three of one rank (written independently)."""
    return len({c.suit for c in cards}) == 1 or len({c.rank for c in cards}) == 1


def test_tl4_holding_odds_match_closed_forms() -> None:
    """TL-4: with the 9♦ turned (trumps ♦) a hand from the other 27 cards is a trump khlyust
    C(6,3) ways, plain 3*C(7,3), three of a rank 6*C(4,3) + C(3,3), out of C(27,3)."""
    odds = khlyust_odds("As Kh 8c", trump_card="9d")
    total = comb(27, 3)
    assert odds.holding["trump_khlyust"] == pytest.approx(comb(6, 3) / total)
    assert odds.holding["plain_khlyust"] == pytest.approx(3 * comb(7, 3) / total)
    assert odds.holding["three_of_a_rank"] == pytest.approx((6 * 4 + 1) / total)
    assert sum(odds.holding.values()) == pytest.approx(1.0)


def test_tl4_facing_odds_two_players_by_direct_count() -> None:
    """Two players: facing a khlyust = khlyust hands among the 24 unseen cards / C(24,3)."""
    hand = parse_cards("As Kh 8c")
    turned = Card.of("9d")
    unseen = [c for c in DECK_28.cards if c not in hand and c != turned]
    hits = sum(_is_khlyust(h) for h in itertools.combinations(unseen, 3))
    odds = khlyust_odds(hand, turned, rules="two_players")
    assert odds.facing_any == pytest.approx(hits / comb(24, 3))
    # A hand that is no khlyust is beaten by any khlyust.
    assert odds.beaten == pytest.approx(odds.facing_any)


def test_tl4_facing_odds_four_players_against_a_simulation() -> None:
    """Four players (inclusion-exclusion over three opponents) against an independent seeded
    simulation of 20,000 deals: within 4 standard errors."""
    hand = parse_cards("As Kh 8c")
    turned = Card.of("9d")
    unseen = [c for c in DECK_28.cards if c not in hand and c != turned]
    rng = random.Random(7)
    n = 20_000
    hits = 0
    for _ in range(n):
        cards = rng.sample(unseen, 9)
        hits += any(_is_khlyust(cards[i : i + 3]) for i in (0, 3, 6))
    p = hits / n
    odds = khlyust_odds(hand, turned)
    assert abs(odds.facing_any - p) < 4 * (p * (1 - p) / n) ** 0.5


def test_tl4_beaten_is_at_most_facing_and_zero_for_the_top_khlyust() -> None:
    """TL-4: A♦K♦T♦ (the best trump khlyust with 9♦ turned: 25 points) is never beaten."""
    odds = khlyust_odds("Ad Kd Td", trump_card="9d")
    assert odds.hand.khlyust_class.label == "trump_khlyust"
    assert odds.beaten == pytest.approx(0.0, abs=1e-12)
    assert odds.facing_any > 0
    weaker = khlyust_odds("Jh Th 8h", trump_card="9d")
    assert 0 < weaker.beaten < weaker.facing_any


def test_tl5_trick_odds_exact_and_seeded() -> None:
    """TL-5: the three top trumps led by the assistant take 3 tricks for sure (exact with one
    opponent, and in every sample with three); samples are reproducible by seed."""
    exact = trick_odds("Ad Kd Qd", trump_card="9d", rules="two_players")
    assert exact.method == "exact" and exact.samples == comb(24, 3)
    assert exact.three_tricks.value == 1.0
    sampled = trick_odds("Ad Kd Qd", trump_card="9d", samples=200, seed=3)
    assert sampled.method == "monte_carlo" and sampled.three_tricks.value == 1.0
    assert sampled.three_tricks.low < 1.0  # a sampled estimate carries an interval
    a = trick_odds("As Kh 8c", trump_card="9d", samples=200, seed=5)
    b = trick_odds("As Kh 8c", trump_card="9d", samples=200, seed=5)
    assert a == b
    assert a.three_tricks.low <= a.three_tricks.value <= a.three_tricks.high
    assert a.three_tricks.value <= a.two_or_more.value


def test_tl3_exchange_advice_options_and_errors() -> None:
    """TL-3: stand, pass and the 7 discards are ranked by expected money; passing is worth
    exactly 0; the dealer, the assistant and a khlyust hand cannot be advised to exchange."""
    options = exchange_advice("8s 9h Jc", "9d", position=1, samples=40, seed=2)
    assert len(options) == 9
    values = [o.expected_money.value for o in options]
    assert values == sorted(values, reverse=True)
    assert {o.label for o in options if o.action == "pass"} == {"pass"}
    with pytest.raises(InvalidInputError, match="assistant, who must play"):
        exchange_advice("8s 9h Jc", "9d", position=0)
    with pytest.raises(InvalidInputError, match="dealer, who must play"):
        exchange_advice("8s 9h Jc", "9d", position=3)
    with pytest.raises(InvalidInputError, match="TL-4"):
        exchange_advice("8s 9s Js", "9d", position=1)
