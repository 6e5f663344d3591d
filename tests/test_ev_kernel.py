"""The EV objective's kernels against independent computations (RULES §2.3, CP-6..CP-11).

* table EV of a split = a direct expectation over the stored opponent distributions, settled
  row by row with a settlement written here from RULES.md (small supports, so it enumerates);
* the EV objective never returns a fouled split and always returns a partition of the hand;
* the kernel's natural detection agrees with ``cpsolver.chinese.naturals`` (CP-11);
* the kernel's pairwise settlement reproduces the worked examples CP-E5..E8.
"""

from __future__ import annotations

import functools
import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.cards import Card, parse_cards
from cpsolver.chinese import ev_kernel as K
from cpsolver.chinese.ev import analyse
from cpsolver.chinese.ev_model import OpponentModel, kernel_mode, row_values, total_ev
from cpsolver.chinese.naturals import detect_natural
from cpsolver.evaluator.poker import NUM_CLASSES, evaluate, poker_tables, strength
from cpsolver.rules.chinese import ChineseRules, Row

# A small opponent model: three classes per row, so a direct expectation enumerates 27 cases.
FRONTS = {"Qs Qd 2c": 0.5, "Ah Kd 3c": 0.3, "7s 7d 7c": 0.2}
MIDDLES = {"Js Jd 8h 5c 4d": 0.4, "Ts Td 6h 6c Kc": 0.35, "5s 5h 5d 9c 9h": 0.25}
BACKS = {"9s 8s 7s 4s 2s": 0.5, "8d 9d Th Jc Qc": 0.3, "7s 7h 7d 7c 3s": 0.2}


def small_model(rules: ChineseRules, natural_rate: float = 0.0) -> OpponentModel:
    rows = np.zeros((3, NUM_CLASSES))
    wheel = rules.wheel_second_highest
    for r, support in enumerate((FRONTS, MIDDLES, BACKS)):
        for cards, p in support.items():
            rows[r, evaluate(cards, wheel_second_highest=wheel).strength] += p
    naturals = np.array([1.0 - natural_rate, 0.0, natural_rate / 2, 0.0, natural_rate / 2])
    return OpponentModel(rules, rows, naturals)


@functools.cache
def _row_value(rules: ChineseRules, row: int, cls: int) -> int:
    """What winning ``row`` with strength class ``cls`` pays (the rule set's own row value:
    remembered, as the brute force asks for the same few thousand times)."""
    t = poker_tables(rules.wheel_second_highest)
    return rules.row_value(Row(row), t.category[cls], royal=bool(t.is_royal[cls]))


def direct_pairing_units(
    rules: ChineseRules, ours: tuple[int, ...], theirs: tuple[int, ...]
) -> float:
    """CP-7..CP-9 for one pairing of two unfouled players, from RULES.md alone."""

    def value(row: int, cls: int) -> int:
        return _row_value(rules, row, cls)

    won = lost = 0
    mine = yours = 0.0
    for r in range(3):
        if ours[r] > theirs[r]:
            won += 1
            mine += value(r, ours[r])
        elif theirs[r] > ours[r]:
            lost += 1
            yours += value(r, theirs[r])
    net = mine - yours
    if rules.scoring.value == "two_four":
        net += (won > lost) - (lost > won)
    elif rules.scoring.value == "scoop_double" and (won == 3 or lost == 3):
        net *= 2
    elif rules.scoring.value == "scoop_bonus:N":  # CP-13: N units to the scooper
        net += rules.scoop_bonus * ((won == 3) - (lost == 3))
    return net


SUPPORT_CARDS = [list(FRONTS), list(MIDDLES), list(BACKS)]


def available_share(cards: str, hand: list[int], wheel: bool) -> float:
    """Card removal by enumeration: of the card sets in the class of ``cards`` (every suit
    assignment of its ranks, kept when ``evaluate`` puts it in the same class), the share that
    avoids ``hand``."""
    sample = list(parse_cards(cards))
    target = evaluate(sample, wheel_second_highest=wheel).strength
    ranks = [c.index >> 2 for c in sample]
    total = avail = 0
    for suits in itertools.product(range(4), repeat=len(ranks)):
        indices = {4 * r + s for r, s in zip(ranks, suits, strict=True)}
        if len(indices) < len(ranks):
            continue
        combo = [Card.from_index(i) for i in indices]
        if evaluate(combo, wheel_second_highest=wheel).strength != target:
            continue
        total += 1
        avail += not indices & set(hand)
    # each set was met once per ordering of equal ranks' suits: the ratio is unaffected
    return avail / total


def reweighted(model: OpponentModel, hand: list[int]) -> OpponentModel:
    """The small model's rows as seen by a player holding ``hand`` (enumerated, renormalised)."""
    wheel = model.rules.wheel_second_highest
    rows = model.rows.copy()
    for r, support in enumerate(SUPPORT_CARDS):
        for cards in support:
            rows[r, evaluate(cards, wheel_second_highest=wheel).strength] *= available_share(
                cards, hand, wheel
            )
        rows[r] /= rows[r].sum()
    return OpponentModel(model.rules, rows, model.naturals)


@functools.cache  # once per model (identity), as the brute force asks once per split
def _supports(model: OpponentModel) -> list[list[tuple[int, float]]]:
    """Each row's classes with their chances."""
    return [
        [(int(c), float(model.rows[r, c])) for c in np.flatnonzero(model.rows[r])] for r in range(3)
    ]


def direct_ev(
    model: OpponentModel, ours: tuple[int, ...], full_deck: OpponentModel | None = None
) -> float:
    """Expectation over the product of the three rows' stored distributions; under
    ``sweep=double`` at a table of ``n + 1`` = 3 or 4 (CP-13), the sweep with the opponents
    independent (no naturals here): every pairing doubled once more when we scoop all ``n``,
    ``E[u; scoop] * P(scoop)^(n-1)`` per pairing, and an opponent's against us when it scoops us
    and the others, ``E[u; scooped] * s``, ``s`` the chance that a hand which scooped one hand
    scoops ``n - 1`` more (rows independent, from the full-deck distributions ``full_deck``:
    enumerated here over its row classes)."""
    total = swept = scooped = p_scoop = 0.0
    for (f, pf), (m, pm), (b, pb) in itertools.product(*_supports(model)):
        theirs = (f, m, b)
        p = pf * pm * pb
        u = direct_pairing_units(model.rules, ours, theirs)
        total += p * u
        if all(o > t for o, t in zip(ours, theirs, strict=True)):
            swept += p * u
            p_scoop += p
        elif all(t > o for o, t in zip(ours, theirs, strict=True)):
            scooped += p * u
    rules = model.rules
    if rules.sweep.value == "double" and rules.players >= 3:
        e = rules.players - 2
        total += swept * p_scoop**e + scooped * _scoops_more(full_deck or model, e)
    return total


@functools.cache  # a model hashes by identity (eq=False), and the cache keeps it alive
def _scoops_more(model: OpponentModel, e: int) -> float:
    """The chance that a hand which scooped one hand scoops ``e`` more, rows independent and
    enumerated over ``model``'s row classes. It does not depend on our split, so it is
    computed once per model (the brute force asks for it thousands of times)."""
    supports = _supports(model)
    both = once = 0.0  # P(A scoops B and e more), P(A scoops B), over A's row classes
    for hand in itertools.product(*supports):
        p_a = hand[0][1] * hand[1][1] * hand[2][1]
        beat = 1.0  # P(A scoops one other hand), rows independent
        for (a, _), support in zip(hand, supports, strict=True):
            beat *= sum(pb for b, pb in support if a > b)
        once += p_a * beat
        both += p_a * beat ** (e + 1)
    return both / once


RULE_VARIANTS = [
    ChineseRules(),
    ChineseRules.preset("two_four"),
    ChineseRules.preset("eastern", scoring="scoop_double"),
    ChineseRules().replace(scoring="two_four", royalty_mode="add", order="strict"),
    # RULES §2.5's presets (issue 28): their bonus tables, scoop rule and wheel; the model
    # prices pairings (the sweep, a table's matter, is the rollouts' and the pool's: docs/EV.md)
    ChineseRules.preset("shisanshui", naturals=False),
    ChineseRules.preset("maubinh", naturals=False, players=3),
    # a rule file's scoop bonus, and sweeps under per_row and two_four (CP-13)
    ChineseRules().replace(scoring="scoop_bonus:2", naturals=False, players=3, sweep="double"),
    ChineseRules().replace(royalties="none", naturals=False, sweep="double"),
    ChineseRules.preset("two_four", players=4, sweep="double"),
]


@pytest.mark.parametrize("card_removal", [True, False], ids=["card-removal", "full-deck"])
@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=lambda r: r.describe())
def test_ev_equals_direct_expectation_over_the_distributions(
    rules: ChineseRules, card_removal: bool
) -> None:
    """§2.3: a split's EV is the expected units against the opponent rows: the stored ones
    reweighted for the cards we hold (card removal, counted here by enumeration), or the stored
    ones as they are (``card_removal=False``)."""
    model = small_model(rules)
    rng = random.Random(11)
    for _ in range(4):
        hand = rng.sample(range(52), 13)
        cards = [Card.from_index(i) for i in hand]
        candidates = analyse(cards, rules, top=4, model=model, card_removal=card_removal)
        assert candidates
        seen_by_us = reweighted(model, hand) if card_removal else model
        for c in candidates:
            classes = tuple(
                strength(row, wheel_second_highest=rules.wheel_second_highest)
                for row in (c.front, c.middle, c.back)
            )
            expected = (rules.players - 1) * direct_ev(seen_by_us, classes, model)
            assert c.ev == pytest.approx(expected, abs=1e-9)
            for r, odds in enumerate(c.rows):  # the odds shown are the same model's
                d = seen_by_us.rows[r]
                assert odds.win == pytest.approx(d[: classes[r]].sum(), abs=1e-12)
                assert odds.tie == pytest.approx(d[classes[r]], abs=1e-12)


def valid_splits(cards: list[Card], rules: ChineseRules):  # type: ignore[no-untyped-def]
    wheel = rules.wheel_second_highest
    five = {
        s: strength([cards[i] for i in s], wheel_second_highest=wheel)
        for s in itertools.combinations(range(13), 5)
    }
    for front in itertools.combinations(range(13), 3):
        rest = [i for i in range(13) if i not in front]
        f = strength([cards[i] for i in front], wheel_second_highest=wheel)
        for middle in itertools.combinations(rest, 5):
            m = five[middle]
            b = five[tuple(i for i in rest if i not in middle)]
            if b > m > f or (b == m > f and not rules.strict_order):
                yield f, m, b


@pytest.mark.parametrize(
    "rules", [RULE_VARIANTS[1], *RULE_VARIANTS[4:]], ids=lambda r: r.describe()
)
def test_best_split_is_the_maximum_of_the_direct_ev_over_every_valid_split(
    rules: ChineseRules,
) -> None:
    """The search returns the arg-max of the EV over all 72,072 orderings (CP-6 valid only)."""
    model = small_model(rules)
    cards = list(parse_cards("As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h"))
    seen = {split for split in valid_splits(cards, rules)}
    for card_removal in (True, False):
        best = analyse(cards, rules, top=1, model=model, card_removal=card_removal)[0]
        scored = reweighted(model, [c.index for c in cards]) if card_removal else model
        brute = max(direct_ev(scored, s, model) for s in seen)
        assert best.ev == pytest.approx((rules.players - 1) * brute, abs=1e-9)


def test_natural_rates_shift_the_ev_by_the_documented_constant() -> None:
    """CP-11: an opponent natural means no rows compared and paying its units."""
    rules = ChineseRules()
    plain, with_naturals = small_model(rules), small_model(rules, natural_rate=0.1)
    cards = "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h"
    a = analyse(cards, rules, top=1, model=plain)[0]
    b = analyse(cards, rules, top=1, model=with_naturals)[0]
    rows_ev = a.ev / 3
    assert b.ev == pytest.approx(3 * (0.9 * rows_ev - 0.05 * 3 - 0.05 * 3))
    assert b.ev == pytest.approx(total_ev(with_naturals, rows_ev))


@settings(max_examples=40, derandomize=True, deadline=None)
@given(
    st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True),
    st.sampled_from(range(len(RULE_VARIANTS))),
)
def test_ev_never_returns_a_fouled_split_and_partitions_the_hand(
    hand: list[int], variant: int
) -> None:
    """CP-6: back >= middle >= front (strict: back > middle); the rows use each card once."""
    rules = RULE_VARIANTS[variant]
    rng = np.random.default_rng(hand[0])
    rows = rng.random((3, NUM_CLASSES))  # an arbitrary opponent model
    model = OpponentModel(rules, rows / rows.sum(axis=1, keepdims=True), np.eye(5)[0])
    cards = [Card.from_index(i) for i in hand]
    wheel = rules.wheel_second_highest
    for c in analyse(cards, rules, top=5, model=model):
        if c.natural:
            continue
        assert sorted(c.front + c.middle + c.back) == sorted(cards)
        f, m, b = (strength(r, wheel_second_highest=wheel) for r in (c.front, c.middle, c.back))
        assert m > f
        assert b > m or (b == m and not rules.strict_order)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True))
def test_kernel_natural_detection_agrees_with_naturals_module(hand: list[int]) -> None:
    """CP-11: same natural (by rank) as ``detect_natural``."""
    found = detect_natural([Card.from_index(i) for i in hand])
    code = K.natural_code(np.array(hand, dtype=np.int8))
    assert code == (found.rank if found else 0)


@pytest.mark.parametrize(
    ("cards", "rank"),
    [
        ("2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As", 4),  # CP-E9
        ("4s 4h 4d 4c 8s 8h Td Tc Qs Qh 3d 3c 6s", 4),
        ("As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s", 1),  # CP-E10
        ("5c 6d 7h 4s 5s 6c 7d 8h 8s 9d Tc Js Qh", 3),  # CP-E11
        ("Ah 2c 3d 2s 3c 4h 5s 6d 7c 8d 9s Th Jc", 3),
        ("2h 5h 9h 3h 4h 7h Jh Kh 2s 6s 8s Ts Qs", 2),  # CP-E12
    ],
)
def test_kernel_natural_detection_worked_examples(cards: str, rank: int) -> None:
    hand = np.array([c.index for c in parse_cards(cards)], dtype=np.int8)
    assert K.natural_code(hand) == rank


def _settle(
    rules: ChineseRules, players: dict[str, tuple[str, str, str]], fouls: str = ""
) -> dict[str, float]:
    wheel = rules.wheel_second_highest
    classes = {
        name: np.array([evaluate(r, wheel_second_highest=wheel).strength for r in rows])
        for name, rows in players.items()
    }
    values = row_values(rules)
    mode = kernel_mode(rules)
    out = {}
    for a in players:
        out[a] = sum(
            K.settle_pair(
                classes[a], classes[b], a in fouls, b in fouls, 0, 0, values, mode, K.NATURAL_UNITS
            )
            for b in players
            if b != a
        )
    return out


CP_E5 = {
    "N": ("Qs Qd 2c", "Js Jd Jh 5c 4d", "9s 8s 7s 4s 2s"),
    "E": ("Ah Kd 3c", "Tc Td 6h 6c Kc", "8d 9d Th Jc Qc"),
    "S": ("7d 7c Ac", "5s 5h 5d 9c 8c", "3h 3d 3s Ks Kh"),
    "W": ("2h 2d 4c", "As Ad 6s 6d Ts", "Qh 9h 8h 7h 4h"),
}


def test_settlement_cp_e5_four_players() -> None:
    assert _settle(ChineseRules(), CP_E5) == {"N": 5, "E": -9, "S": 5, "W": -1}
    scoop = ChineseRules().replace(scoring="scoop_double")
    assert _settle(scoop, CP_E5) == {"N": 8, "E": -18, "S": 11, "W": -1}


def test_settlement_cp_e6_royalties() -> None:
    a = ("8s 8h 8d", "4c 4d 4h Ks Kd", "Qs Qh Qd Qc 2c")
    b = ("As Ah 3c", "9s 9h 9c 7h 7c", "3s 4s 5s 6s 7s")
    assert _settle(ChineseRules(), {"A": a, "B": b})["A"] == -4
    assert _settle(ChineseRules().replace(royalty_mode="add"), {"A": a, "B": b})["A"] == -5
    assert _settle(ChineseRules().replace(royalties="none"), {"A": a, "B": b})["A"] == -1


def test_settlement_cp_e7_foul_and_cp_e8_ties() -> None:
    f = ("Ks Kd 2h", "Qs Qh 5c 4c 3d", "As Ad Ac 9s 9d")
    v = ("Jh Jc 6s", "Th Tc Td 8h 8c", "7s 7h 7d 7c 3s")
    assert _settle(ChineseRules(), {"F": f, "V": v}, fouls="F")["V"] == 7
    assert _settle(ChineseRules().replace(royalties="none"), {"F": f, "V": v}, fouls="F")["V"] == 3
    x = ("Qs Qd 6c", "4c 4d 2s 2d Kc", "7s 8d 9c Th Js")
    y = ("Qh Qc 6d", "5s 5h 3c 3d Ac", "7h 8s 9d Tc Jh")
    assert _settle(ChineseRules(), {"X": x, "Y": y})["X"] == -1
