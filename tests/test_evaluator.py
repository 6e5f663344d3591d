"""The shared poker evaluator (CP-3..CP-5): exhaustive counts and agreement with eval7."""

from __future__ import annotations

import itertools
from collections import Counter

import eval7
import numpy as np
import numpy.typing as npt
import pytest

from cpsolver.cards import Card
from cpsolver.errors import CardError
from cpsolver.evaluator.poker import (
    FIVE_CARD_CLASSES,
    FRONT_CLASSES,
    MULTISET_WEIGHTS,
    NUM_CLASSES,
    Category,
    evaluate,
    poker_tables,
    strength,
)

# Standard combinatorics of the 2,598,960 five-card hands (independent of this project).
FIVE_CARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 40,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3744,
    Category.FLUSH: 5108,
    Category.STRAIGHT: 10200,
    Category.THREE_OF_A_KIND: 54912,
    Category.TWO_PAIR: 123552,
    Category.PAIR: 1098240,
    Category.HIGH_CARD: 1302540,
}
FIVE_CARD_CLASS_COUNTS = {
    Category.STRAIGHT_FLUSH: 10,
    Category.FOUR_OF_A_KIND: 156,
    Category.FULL_HOUSE: 156,
    Category.FLUSH: 1277,
    Category.STRAIGHT: 10,
    Category.THREE_OF_A_KIND: 858,
    Category.TWO_PAIR: 858,
    Category.PAIR: 2860,
    Category.HIGH_CARD: 1277,
}
# 22,100 three-card hands: trips 52, pair 3,744, high card 18,304 (no straights or flushes, CP-4).
FRONT_COUNTS = {Category.THREE_OF_A_KIND: 52, Category.PAIR: 3744, Category.HIGH_CARD: 18304}
FRONT_CLASS_COUNTS = {Category.THREE_OF_A_KIND: 13, Category.PAIR: 156, Category.HIGH_CARD: 286}


def classes_of(hands: npt.NDArray[np.int8], wheel_second_highest: bool = False) -> np.ndarray:
    """Strength classes of many hands at once (indices ascending, so ranks are ascending)."""
    tables = poker_tables(wheel_second_highest)
    ranks = hands.astype(np.int64) // 4
    suits = hands % 4
    index = sum(MULTISET_WEIGHTS[i][ranks[:, i]] for i in range(hands.shape[1]))
    if hands.shape[1] == 3:
        return tables.front3[index]
    flush = (suits == suits[:, :1]).all(axis=1)
    mask = np.bitwise_or.reduce(1 << ranks, axis=1)
    return np.where(flush, tables.flush5[mask], tables.nonflush5[index])


def eval7_values(hands: npt.NDArray[np.int8]) -> np.ndarray:
    """eval7's values (higher is stronger), an evaluator independent of this project."""
    deck = [eval7.Card(str(Card.from_index(i))) for i in range(52)]
    return np.fromiter(
        (eval7.evaluate([deck[i] for i in hand]) for hand in hands.tolist()),
        dtype=np.int64,
        count=len(hands),
    )


def test_scale_has_7462_plus_455_classes() -> None:
    tables = poker_tables()
    assert len(tables.keys) == NUM_CLASSES == FIVE_CARD_CLASSES + FRONT_CLASSES == 7917
    assert int(tables.is_front.sum()) == FRONT_CLASSES


@pytest.mark.slow
def test_cp3_five_card_category_and_class_counts(all_five_card_hands: np.ndarray) -> None:
    classes = classes_of(all_five_card_hands)
    assert (classes >= 0).all()
    category = poker_tables().category[classes]
    assert dict(Counter(Category(c) for c in category.tolist())) == FIVE_CARD_COUNTS
    distinct = np.unique(classes)
    assert len(distinct) == FIVE_CARD_CLASSES
    per_category = Counter(Category(c) for c in poker_tables().category[distinct].tolist())
    assert dict(per_category) == FIVE_CARD_CLASS_COUNTS


def test_cp4_front_category_and_class_counts(all_three_card_hands: np.ndarray) -> None:
    classes = classes_of(all_three_card_hands)
    category = poker_tables().category[classes]
    assert dict(Counter(Category(c) for c in category.tolist())) == FRONT_COUNTS
    distinct = np.unique(classes)
    assert len(distinct) == FRONT_CLASSES
    assert poker_tables().is_front[distinct].all()
    per_category = Counter(Category(c) for c in poker_tables().category[distinct].tolist())
    assert dict(per_category) == FRONT_CLASS_COUNTS


@pytest.mark.slow
def test_one_scale_agrees_with_eval7_on_every_hand(
    all_five_card_hands: np.ndarray, all_three_card_hands: np.ndarray
) -> None:
    """eval7 ranks 3-card hands on the 5-card scale with missing kickers lowest, as CP-5 says.

    So the map class -> eval7 value must be a strictly increasing function over all
    2,598,960 + 22,100 hands: equal classes are equal hands, and the order agrees.
    """
    ours = np.concatenate([classes_of(all_five_card_hands), classes_of(all_three_card_hands)])
    theirs = np.concatenate([eval7_values(all_five_card_hands), eval7_values(all_three_card_hands)])
    low = np.full(NUM_CLASSES, np.iinfo(np.int64).max)
    high = np.full(NUM_CLASSES, np.iinfo(np.int64).min)
    np.minimum.at(low, ours, theirs)
    np.maximum.at(high, ours, theirs)
    assert (low == high).all(), "a class holds hands eval7 tells apart"
    assert (np.diff(low) > 0).all(), "class order differs from eval7's order"


def test_scalar_strength_matches_vectorised_tables() -> None:
    rng = np.random.default_rng(7)
    for _ in range(2000):
        hand = sorted(rng.choice(52, size=5, replace=False).tolist())
        cards = [Card.from_index(i) for i in hand]
        assert strength(cards) == classes_of(np.array([hand], dtype=np.int8))[0]


@pytest.mark.parametrize(
    ("stronger", "weaker", "rule"),
    [
        ("9h 9c Kd 5s 2h", "9s 9d Kc", "CP-5: a front's missing kickers rank lowest"),
        ("2c 2d 3h", "Ac Kd Qh", "CP-4: pair beats high card"),
        ("2d 3h 5s", "2c 3c 4c", "CP-4: no 3-card straights or flushes, five high > four high"),
        ("6s 5h 4d 3c 2s", "Ah 2d 3h 4s 5c", "CP-3: the wheel is the lowest straight"),
        ("As Ks Qs Js 9s", "Ah Kd Qc Js Ts", "CP-3: flush beats straight"),
        ("2c 2d 2h 3s 3c", "Ac Kc Qc Jc 9c", "CP-3: full house beats flush"),
        ("3c 3d 3h As Kc", "2c 2d 2h 3s 3c", "CP-3: three of a kind... loses to full house"),
        ("Jh Jc 4d 4c 2s", "Js Jd 3h 3c Ad", "CP-3: two pair by low pair before kicker"),
        ("Kh Kd 9c 8c 2d", "Ks Kc 9d 7c 6d", "CP-3: pair kickers high to low"),
        ("Tc Td Th 9s 9c", "9h 9d 9s Ac Ad", "CP-3: full house by trips first"),
    ],
)
def test_ordering_examples(stronger: str, weaker: str, rule: str) -> None:
    if "loses to full house" in rule:
        stronger, weaker = weaker, stronger
    assert evaluate(stronger) > evaluate(weaker), rule


def test_cp4_front_categories() -> None:
    assert evaluate("2c 3c 4c").category is Category.HIGH_CARD
    assert evaluate("Qs Qd 2c").category is Category.PAIR
    assert evaluate("8s 8h 8d").category is Category.THREE_OF_A_KIND


def test_cp3_suits_never_break_ties() -> None:
    assert evaluate("As Kd 9c 7h 2s") == evaluate("Ad Kc 9h 7s 2c")
    assert evaluate("7s 8d 9c Th Js").strength == evaluate("7h 8s 9d Tc Jh").strength


def test_cp_e4_wheel_option() -> None:
    """CP-E4: 6-high beats the wheel by default; under wheel=second_highest it loses."""
    assert evaluate("6s 5h 4d 3c 2s") > evaluate("Ah 2d 3h 4s 5c")
    wheel = evaluate("Ah 2d 3h 4s 5c", wheel_second_highest=True)
    assert wheel > evaluate("6s 5h 4d 3c 2s", wheel_second_highest=True)
    assert wheel > evaluate("Ks Qd Jc Th 9s", wheel_second_highest=True)
    assert wheel < evaluate("As Kd Qc Jh Ts", wheel_second_highest=True)
    steel = evaluate("Ah 2h 3h 4h 5h", wheel_second_highest=True)
    assert steel > evaluate("Ks Qs Js Ts 9s", wheel_second_highest=True)
    assert steel < evaluate("As Ks Qs Js Ts", wheel_second_highest=True)


def test_wheel_scale_differs_only_in_where_wheels_sit(all_five_card_hands: np.ndarray) -> None:
    low = poker_tables(False)
    high = poker_tables(True)
    assert len(high.keys) == NUM_CLASSES
    # Same categories per class index outside the straight blocks.
    assert (low.category == high.category).all()


def test_royal_flush_is_flagged() -> None:
    assert evaluate("As Ks Qs Js Ts").is_royal
    assert not evaluate("Ks Qs Js Ts 9s").is_royal
    assert evaluate("As Ks Qs Js Ts").name == "royal flush"


def test_hand_names() -> None:
    assert evaluate("Jh Js 4c 4d Jd").name == "full house, jacks over fours"
    assert evaluate("Ah 2d 3h 4s 5c").name == "straight, five high"
    assert evaluate("9s 9d Kc").name == "pair of nines, K kicker"


def test_evaluate_rejects_wrong_counts_and_duplicates() -> None:
    with pytest.raises(CardError, match="expected 3 or 5 cards, got 4"):
        evaluate("As Ks Qs Js")
    with pytest.raises(CardError, match="duplicate card 'As'"):
        evaluate("As Ks As")


def test_root_evaluate_takes_the_rules_like_the_other_games() -> None:
    """``cpsolver.evaluate(cards, rules)`` (issue 17: one vocabulary): the rule set's wheel
    ranks A-2-3-4-5 (CP-3), given as a rule set, a preset name or an option by name; the
    evaluator's own keyword still overrides it."""
    import cpsolver
    from cpsolver import ChineseRules

    assert cpsolver.evaluate is cpsolver.chinese.evaluate
    six, wheel = "6h 5s 4d 3c 2h", "5h 4s 3d 2c Ah"
    assert cpsolver.evaluate(wheel, "standard") < cpsolver.evaluate(six)
    high = ChineseRules.resolve(None, wheel="second_highest")
    assert cpsolver.evaluate(wheel, high) > cpsolver.evaluate(six, high)
    assert cpsolver.evaluate(wheel, wheel="second_highest") == cpsolver.evaluate(wheel, high)
    assert cpsolver.evaluate(wheel, high, wheel_second_highest=False) == cpsolver.evaluate(wheel)
    assert cpsolver.evaluate(wheel, "eastern").name == "straight, five high"


@pytest.mark.parametrize("wheel", [False, True])
def test_hand_from_class_is_evaluate(wheel: bool) -> None:
    """``hand_from_class`` reads a class's category, name, royal flag and wheel from its key
    (issue 32: no ``evaluate`` on a class's first sighting): against ``evaluate`` on every
    straight and straight flush (wheels included), every quads and full house, and 20,000
    seeded random rows, with the per-class cache emptied first."""
    import random

    from cpsolver.cards import parse_cards
    from cpsolver.evaluator import poker

    ranks = "23456789TJQKA"
    hands = []
    for low in range(-1, 9):  # A-2-3-4-5 up to T-J-Q-K-A
        run = [ranks[(low + k) % 13] for k in range(5)]
        hands.append(" ".join(r + "s" for r in run))
        hands.append(" ".join(r + ("s" if k else "h") for k, r in enumerate(run)))
    for a, b in itertools.permutations(ranks, 2):
        hands += [f"{a}s {a}h {a}d {a}c {b}s", f"{a}s {a}h {a}d {b}c {b}s"]
    rows = [sorted(parse_cards(h), key=lambda c: c.index) for h in hands]
    rng = random.Random(32)
    deck = [Card.from_index(i) for i in range(52)]
    rows += [
        sorted(rng.sample(deck, 5 if n % 4 else 3), key=lambda c: c.index) for n in range(20000)
    ]
    poker._CLASS_INFO.clear()
    for cards in rows:
        cls = poker.strength(cards, wheel_second_highest=wheel)
        fast = poker.hand_from_class(cards, cls, wheel_second_highest=wheel)
        slow = poker.evaluate(cards, wheel_second_highest=wheel)
        assert (fast.strength, fast.category, fast.cards, fast.name, fast.is_royal) == (
            slow.strength,
            slow.category,
            slow.cards,
            slow.name,
            slow.is_royal,
        ), cards
