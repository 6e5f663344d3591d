"""CP-11 naturals: worked examples CP-E9..E12, the stated frequencies, and a brute-force check."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.cards import Card, parse_cards
from cpsolver.chinese.naturals import Natural, NaturalKind, detect_natural, detect_naturals
from cpsolver.errors import InvalidInputError
from cpsolver.rules.chinese import ChineseRules


def names(cards: str) -> list[str]:
    return [n.name for n in detect_naturals(parse_cards(cards))]


# -- independent definitions straight from the CP-11 table (no code shared with the module) --


def is_flush(group: Sequence[Card]) -> bool:
    return len({c.suit for c in group}) == 1


def is_straight(group: Sequence[Card]) -> bool:
    """A run of consecutive distinct ranks; the ace may play low (A-2-3, A-2-3-4-5) or high."""
    ranks = sorted(int(c.rank) for c in group)
    n = len(ranks)
    if len(set(ranks)) != n:
        return False
    if ranks[-1] - ranks[0] == n - 1:
        return True
    if ranks[-1] == 14:
        low = sorted([1, *ranks[:-1]])
        return low[-1] - low[0] == n - 1
    return False


def splits_3_5_5(cards: Sequence[Card], ok: object) -> bool:
    """Brute force over every 3 + 5 + 5 split of the cards."""
    assert callable(ok)
    cards = list(cards)
    for three in itertools.combinations(range(13), 3):
        if not ok([cards[i] for i in three]):
            continue
        rest = [i for i in range(13) if i not in three]
        for five in itertools.combinations(rest, 5):
            other = [i for i in rest if i not in five]
            if ok([cards[i] for i in five]) and ok([cards[i] for i in other]):
                return True
    return False


def brute_force_kinds(cards: Sequence[Card]) -> set[NaturalKind]:
    counts = Counter(c.rank for c in cards)
    kinds = set()
    if len(counts) == 13:
        kinds.add(NaturalKind.DRAGON)
    if splits_3_5_5(cards, is_flush):
        kinds.add(NaturalKind.THREE_FLUSHES)
    if splits_3_5_5(cards, is_straight):
        kinds.add(NaturalKind.THREE_STRAIGHTS)
    if sum(n // 2 for n in counts.values()) == 6:
        kinds.add(NaturalKind.SIX_PAIRS)
    return kinds


def check_grouping(natural: Natural, cards: Sequence[Card]) -> None:
    """The groups partition the hand and show the natural."""
    flat = [c for g in natural.groups for c in g]
    assert sorted(flat) == sorted(cards)
    if natural.kind in (NaturalKind.THREE_FLUSHES, NaturalKind.THREE_STRAIGHTS):
        assert [len(g) for g in natural.groups] == [3, 5, 5]
        ok = is_flush if natural.kind is NaturalKind.THREE_FLUSHES else is_straight
        assert all(ok(g) for g in natural.groups), natural
    elif natural.kind is NaturalKind.SIX_PAIRS:
        assert [len(g) for g in natural.groups] == [2] * 6 + [1]
        assert all(g[0].rank == g[1].rank for g in natural.groups[:6])
    else:
        assert len({c.rank for c in natural.groups[0]}) == 13


# -- worked examples --


@pytest.mark.parametrize(
    "cards",
    [
        "2♠2♥5♦5♣7♠7♥9♦9♣J♠J♥K♦K♣A♠",
        "4♠4♥4♦4♣8♠8♥10♦10♣Q♠Q♥3♦3♣6♠",  # quads count as two pairs
        "5♠5♥5♦2♣2♦7♠7♥9♣9♦J♠J♣K♠K♥",  # five pairs and trips
    ],
)
def test_cp_e9_six_pairs(cards: str) -> None:
    hand = parse_cards(cards)
    natural = detect_natural(hand)
    assert natural is not None
    assert (natural.kind, natural.name, natural.units, natural.rank) == (
        NaturalKind.SIX_PAIRS,
        "six_pairs",
        3,
        4,
    )
    check_grouping(natural, hand)


def test_cp_e10_dragon_also_three_straights_plays_as_dragon() -> None:
    hand = parse_cards("A♠K♥Q♦J♣10♠9♥8♦7♣6♠5♥4♦3♣2♠")
    natural = detect_natural(hand)
    assert natural is not None
    assert (natural.name, natural.units, natural.rank) == ("dragon", 13, 1)
    assert names("A♠K♥Q♦J♣10♠9♥8♦7♣6♠5♥4♦3♣2♠") == ["dragon", "three_straights"]
    for found in detect_naturals(hand):
        check_grouping(found, hand)


@pytest.mark.parametrize(
    "rows",
    [
        "5♣6♦7♥ / 4♠5♠6♣7♦8♥ / 8♠9♦10♣J♠Q♥",
        "A♥2♣3♦ / 2♠3♣4♥5♠6♦ / 7♣8♦9♠10♥J♣",  # A-2-3 counts
    ],
)
def test_cp_e11_three_straights(rows: str) -> None:
    hand = parse_cards(rows)
    natural = detect_natural(hand)
    assert natural is not None and natural.name == "three_straights"
    assert (natural.units, natural.rank) == (3, 3)
    check_grouping(natural, hand)


def test_cp_e12_three_flushes_even_though_rows_would_foul() -> None:
    hand = parse_cards("2♥5♥9♥ / 3♥4♥7♥J♥K♥ / 2♠6♠8♠10♠Q♠")
    natural = detect_natural(hand)
    assert natural is not None and natural.name == "three_flushes"
    assert (natural.units, natural.rank) == (3, 2)
    check_grouping(natural, hand)


# -- the definitions' edge cases --


def test_cp11_queen_king_ace_is_a_three_card_straight() -> None:
    assert names("Qc Kd Ah / 9s Th Jc Qd Ks / 4c 5d 6h 7s 8c") == ["three_straights"]


def test_cp11_king_ace_deuce_is_not_a_straight() -> None:
    assert names("Ks Ah 2c / 2d 3d 4h 5s 6d / 7c 8d 9s Th Jc") == []


def test_cp11_straight_flushes_count_and_highest_natural_plays() -> None:
    hand = parse_cards("5c 6c 7c / 4s 5s 6s 7s 8s / 8h 9h Th Jh Qh")
    assert names(str(" ".join(map(str, hand)))) == ["three_flushes", "three_straights"]
    natural = detect_natural(hand)
    assert natural is not None and natural.kind is NaturalKind.THREE_FLUSHES


def test_cp11_flush_suits_may_repeat_between_groups() -> None:
    # 8 spades split 3 + 5, five hearts.
    assert names("2s 4s 6s / 8s 9s Js Qs As / 2h 5h 7h 9h Kh") == ["three_flushes"]
    # 10 clubs split 5 + 5, three diamonds.
    assert names("2d 7d Kd / 2c 3c 5c 6c 8c / 9c Tc Jc Qc Ac") == ["three_flushes"]


def test_cp11_five_pairs_without_trips_is_nothing() -> None:
    assert names("2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Qc As") == []


def test_cp11_naturals_ordered_by_rank() -> None:
    # CP-11's table: dragon 13 (rank 1), three flushes, three straights, six pairs 3 each.
    listed = ChineseRules().natural_list
    assert [k.value for k, _ in listed] == [
        "dragon", "three_flushes", "three_straights", "six_pairs"
    ]
    assert [units for _, units in listed] == [13, 3, 3, 3]
    assert ChineseRules().natural_units == (0, 13, 3, 3, 3)


@pytest.mark.parametrize("text", ["As Kd", "2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As Ah"])
def test_wrong_card_count_is_an_input_error(text: str) -> None:
    with pytest.raises(InvalidInputError, match="13 cards"):
        detect_natural(parse_cards(text))


def test_repeated_card_is_an_input_error() -> None:
    cards = list(parse_cards("2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc"))
    with pytest.raises(InvalidInputError, match="repeated"):
        detect_natural([*cards, cards[0]])


# -- frequencies --


def test_cp11_dragon_odds_exact() -> None:
    """13 distinct ranks: 4**13 of the C(52, 13) hands, 1 in 9,462 (RULES CP-11)."""
    assert round(comb(52, 13) / 4**13) in (9462, 9463)
    deck = [Card.from_index(i) for i in range(52)]
    rng = random.Random(11)
    for _ in range(200):
        hand = [deck[4 * r + rng.randrange(4)] for r in range(13)]
        natural = detect_natural(hand)
        assert natural is not None and natural.kind is NaturalKind.DRAGON


def test_cp11_three_flushes_odds_exact() -> None:
    """Three flushes depends on the suit counts only: weigh one hand per suit-count vector by the
    number of hands sharing it; the total is 1 in 111 hands (RULES CP-11)."""
    deck = [Card.from_index(i) for i in range(52)]
    qualifying = 0
    for counts in itertools.product(range(14), repeat=4):
        if sum(counts) != 13:
            continue
        hand = [deck[4 * r + suit] for suit, n in enumerate(counts) for r in range(n)]
        weight = 1
        for n in counts:
            weight *= comb(13, n)
        if any(n.kind is NaturalKind.THREE_FLUSHES for n in detect_naturals(hand)):
            qualifying += weight
    assert round(comb(52, 13) / qualifying) == 111


def test_cp11_frequencies_monte_carlo() -> None:
    """Seeded 100k random hands against CP-11's worked odds (about 5 standard deviations)."""
    rng = random.Random(20261129)
    deck = [Card.from_index(i) for i in range(52)]
    n = 100_000
    counts: Counter[NaturalKind] = Counter()
    for _ in range(n):
        for natural in detect_naturals(rng.sample(deck, 13)):
            counts[natural.kind] += 1
    for kind, one_in in [
        (NaturalKind.THREE_FLUSHES, 111),
        (NaturalKind.SIX_PAIRS, 222),
        (NaturalKind.THREE_STRAIGHTS, 313),
        (NaturalKind.DRAGON, 9462),
    ]:
        expected = n / one_in
        assert abs(counts[kind] - expected) <= 5 * expected**0.5 + 3, (kind, counts[kind])


# -- brute force on random and near-natural hands --


@st.composite
def near_natural_hands(draw: st.DrawFn) -> list[Card]:
    """Random hands, and hands built as a natural then disturbed by up to two card swaps."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    style = draw(st.sampled_from(["random", "straights", "flushes", "pairs", "dragon"]))
    deck = [Card.from_index(i) for i in range(52)]
    hand: list[Card] = []
    if style == "straights":
        slots: list[int] = []
        for length, top in ((3, 11), (5, 9), (5, 9)):
            start = rng.randint(0, top)
            slots.extend(range(start, start + length))
        for slot in slots:
            rank = 12 if slot in (0, 13) else slot - 1
            free = [c for c in deck[4 * rank : 4 * rank + 4] if c not in hand]
            if free:
                hand.append(rng.choice(free))
    elif style == "flushes":
        for size in (3, 5, 5):
            suit = rng.randrange(4)
            free = [c for c in deck[suit::4] if c not in hand]
            hand.extend(rng.sample(free, min(size, len(free))))
    elif style == "pairs":
        for rank in rng.sample(range(13), 6):
            hand.extend(rng.sample(deck[4 * rank : 4 * rank + 4], 2))
    elif style == "dragon":
        hand = [deck[4 * r + rng.randrange(4)] for r in range(13)]
    rest = [c for c in deck if c not in hand]
    hand.extend(rng.sample(rest, 13 - len(hand)))
    for _ in range(draw(st.integers(0, 2))):
        rest = [c for c in deck if c not in hand]
        hand[rng.randrange(13)] = rng.choice(rest)
    return hand


@settings(derandomize=True, max_examples=200, deadline=None)
@given(near_natural_hands())
def test_cp11_detection_matches_brute_force(hand: list[Card]) -> None:
    found = detect_naturals(hand)
    assert {n.kind for n in found} == brute_force_kinds(hand)
    assert [n.rank for n in found] == sorted(n.rank for n in found)
    best = detect_natural(hand)
    assert best == (found[0] if found else None)
    for natural in found:
        check_grouping(natural, hand)
