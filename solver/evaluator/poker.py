"""Poker hand strength for Chinese poker rows: 5-card hands and 3-card fronts on ONE scale.

Every 5-card hand (7,462 classes) and every 3-card front (455 classes) maps to a dense integer
*strength class* in ``0 .. 7916`` ordered weakest to strongest, with fronts placed on the
five-card scale as CP-5 says (a front's missing kickers rank below any card), so the foul check
of CP-6 is two integer comparisons. Equal classes are equal hands (suits never break ties).

The tables are generated at first use from the rules alone (no data file); two scales exist,
one per ``wheel`` option (CP-3).

>>> hand = evaluate("As Ks Qs Js Ts")
>>> hand.category, hand.name
(<Category.STRAIGHT_FLUSH: 8>, 'royal flush')
>>> evaluate("9s 9d Kc") < evaluate("9h 9c Kd 5s 2h")
True
>>> evaluate("6s 5h 4d 3c 2s") > evaluate("Ah 2d 3h 4s 5c")
True
>>> evaluate("6s 5h 4d 3c 2s", wheel_second_highest=True) > evaluate("Ah 2d 3h 4s 5c",
...     wheel_second_highest=True)
False
"""

from __future__ import annotations

import enum
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, total_ordering
from math import comb

import numpy as np
import numpy.typing as npt

from cpsolver.cards import DECK_52, Card, CardsLike, Rank, parse_cards

__all__ = [
    "FIVE_CARD_CLASSES",
    "FRONT_CLASSES",
    "MULTISET_WEIGHTS",
    "NUM_CLASSES",
    "Category",
    "HandValue",
    "PokerTables",
    "evaluate",
    "hand_from_class",
    "multiset_index",
    "poker_tables",
    "strength",
]

FIVE_CARD_CLASSES = 7462
FRONT_CLASSES = 455
NUM_CLASSES = FIVE_CARD_CLASSES + FRONT_CLASSES


class Category(enum.IntEnum):
    """Hand categories, weakest first (CP-3, CP-4)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """snake_case name used in JSON (``three_of_a_kind``)."""
        return self.name.lower()

    @property
    def title(self) -> str:
        """Human name (``three of a kind``)."""
        return self.name.lower().replace("_", " ")


# Multiset ranking: for ranks sorted ascending r_0 <= ... <= r_{k-1} (0 = deuce .. 12 = ace),
# sum_i C(r_i + i, i + 1) is a bijection onto 0 .. C(12 + k, k) - 1 (combinatorial number
# system on the strictly increasing r_i + i). Row i of this table holds C(v + i, i + 1).
MULTISET_WEIGHTS: npt.NDArray[np.int32] = np.array(
    [[comb(v + i, i + 1) for v in range(13)] for i in range(5)], dtype=np.int32
)


def multiset_index(ranks_ascending: Sequence[int]) -> int:
    """Index of a sorted multiset of 0-based ranks (see :data:`MULTISET_WEIGHTS`).

    >>> multiset_index([0, 0, 0]), multiset_index([12, 12, 12])
    (0, 454)
    """
    return int(sum(MULTISET_WEIGHTS[i, r] for i, r in enumerate(ranks_ascending)))


@dataclass(frozen=True, eq=False)
class PokerTables:
    """Lookup tables of one strength scale (one ``wheel`` option).

    * ``nonflush5[multiset_index(ranks)]``: class of a 5-card hand that is not a flush.
    * ``flush5[rank_bitmask]``: class of a 5-card flush (bit r set for each 0-based rank).
    * ``front3[multiset_index(ranks)]``: class of a 3-card front.
    * ``category[cls]``, ``is_front[cls]``, ``is_royal[cls]``: per-class facts.
    """

    wheel_second_highest: bool
    nonflush5: npt.NDArray[np.int16]
    flush5: npt.NDArray[np.int16]
    front3: npt.NDArray[np.int16]
    category: npt.NDArray[np.int8]
    is_front: npt.NDArray[np.bool_]
    is_royal: npt.NDArray[np.bool_]
    keys: tuple[tuple[int, ...], ...]


def _straight_top(ranks: Sequence[int]) -> int | None:
    """Top rank (0-based) of five distinct ranks forming a straight; the wheel returns -1."""
    s = sorted(ranks)
    if s == [0, 1, 2, 3, 12]:
        return -1
    if s[4] - s[0] == 4 and len(set(s)) == 5:
        return s[4]
    return None


def _grouped(ranks: Sequence[int]) -> tuple[list[int], list[int]]:
    """Ranks grouped by (count, rank) descending, each once; and the counts in that order."""
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return order, [counts[r] for r in order]


_SHAPES = {
    (1, 1, 1, 1, 1): Category.HIGH_CARD,
    (2, 1, 1, 1): Category.PAIR,
    (2, 2, 1): Category.TWO_PAIR,
    (3, 1, 1): Category.THREE_OF_A_KIND,
    (3, 2): Category.FULL_HOUSE,
    (4, 1): Category.FOUR_OF_A_KIND,
    (1, 1, 1): Category.HIGH_CARD,
    (2, 1): Category.PAIR,
    (3,): Category.THREE_OF_A_KIND,
}


# The doubled top rank _key gives a wheel (5-4-3-2-A): below a 6-high straight (6), or
# between K-high (22) and A-high (24) when it ranks second highest (23).
_WHEEL_LOW, _WHEEL_SECOND = 6, 23
_STRAIGHTS = (Category.STRAIGHT, Category.STRAIGHT_FLUSH)


def _is_wheel(key: tuple[int, ...]) -> bool:
    """Whether a strength key (:func:`_key`) is a wheel straight or straight flush."""
    return Category(key[0]) in _STRAIGHTS and key[1] in (_WHEEL_LOW, _WHEEL_SECOND)


def _key(ranks: Sequence[int], flush: bool, wheel_second_highest: bool) -> tuple[int, ...]:
    """Total-order key of a hand: (category, grouped ranks padded with -1); CP-3..CP-5."""
    order, counts = _grouped(ranks)
    category = _SHAPES[tuple(counts)]
    if len(ranks) == 5 and category is Category.HIGH_CARD:
        top = _straight_top(ranks)
        if top is not None:
            # Doubled ranks leave room for the wheel between K-high (22) and A-high (24).
            wheel = _WHEEL_SECOND if wheel_second_highest else _WHEEL_LOW
            doubled = wheel if top == -1 else 2 * top
            kind = Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT
            return (kind, doubled, -1, -1, -1, -1)
        if flush:
            category = Category.FLUSH
    padded = list(order) + [-1] * (5 - len(order))
    return (category, *padded)


@cache
def poker_tables(wheel_second_highest: bool = False) -> PokerTables:
    """Build (once per process and option) the lookup tables of one strength scale."""
    entries: list[tuple[tuple[int, ...], str, int]] = []
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if len(set(ranks)) > 1:
            key = _key(ranks, False, wheel_second_highest)
            entries.append((key, "nonflush", multiset_index(ranks)))
    for ranks in itertools.combinations(range(13), 5):
        key = _key(ranks, True, wheel_second_highest)
        entries.append((key, "flush", sum(1 << r for r in ranks)))
    for front in itertools.combinations_with_replacement(range(13), 3):
        entries.append((_key(front, False, wheel_second_highest), "front", multiset_index(front)))

    distinct = sorted({key for key, _, _ in entries})
    class_of = {key: i for i, key in enumerate(distinct)}
    nonflush5 = np.full(comb(17, 5), -1, dtype=np.int16)
    flush5 = np.full(1 << 13, -1, dtype=np.int16)
    front3 = np.full(comb(15, 3), -1, dtype=np.int16)
    is_front = np.zeros(len(distinct), dtype=np.bool_)
    for key, kind, slot in entries:
        cls = class_of[key]
        if kind == "nonflush":
            nonflush5[slot] = cls
        elif kind == "flush":
            flush5[slot] = cls
        else:
            front3[slot] = cls
            is_front[cls] = True
    category = np.array([k[0] for k in distinct], dtype=np.int8)
    royal = np.array(
        [k[0] == Category.STRAIGHT_FLUSH and k[1] == 24 for k in distinct], dtype=np.bool_
    )
    for array in (nonflush5, flush5, front3, category, is_front, royal):
        array.setflags(write=False)
    return PokerTables(
        wheel_second_highest, nonflush5, flush5, front3, category, is_front, royal,
        tuple(distinct),
    )  # fmt: skip


def strength(cards: Sequence[Card], *, wheel_second_highest: bool = False) -> int:
    """Strength class (0 .. 7916) of 5 cards or a 3-card front; no validation (hot path)."""
    tables = poker_tables(wheel_second_highest)
    ranks = sorted(c.rank - 2 for c in cards)
    if len(cards) == 3:
        return int(tables.front3[multiset_index(ranks)])
    if len({c.suit for c in cards}) == 1:
        return int(tables.flush5[sum(1 << r for r in ranks)])
    return int(tables.nonflush5[multiset_index(ranks)])


@total_ordering
@dataclass(frozen=True, eq=False)
class HandValue:
    """An evaluated row: its strength class, category and a human name.

    Comparisons use the strength class only (equal hands compare equal whatever the suits).
    """

    strength: int
    category: Category
    cards: tuple[Card, ...]
    name: str
    is_royal: bool = False

    @property
    def is_front(self) -> bool:
        """True for a 3-card hand."""
        return len(self.cards) == 3

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength == other.strength

    def __lt__(self, other: HandValue) -> bool:
        return self.strength < other.strength

    def __hash__(self) -> int:
        return hash(self.strength)


def evaluate(cards: CardsLike, *, wheel_second_highest: bool = False) -> HandValue:
    """Evaluate a 5-card hand or a 3-card front (52-card deck); raises :class:`CardError`.

    >>> evaluate("Jh Js 4c 4d Jd").name
    'full house, jacks over fours'
    >>> evaluate("Qs Qd 2c").name
    'pair of queens, 2 kicker'
    """
    parsed = parse_cards(cards, deck=DECK_52, count=(3, 5))
    cls = strength(parsed, wheel_second_highest=wheel_second_highest)
    tables = poker_tables(wheel_second_highest)
    key = tables.keys[cls]
    category = Category(key[0])
    counts = Counter(c.rank for c in parsed)
    wheel = _is_wheel(key)
    ordered = tuple(
        sorted(
            parsed,
            key=lambda c: (counts[c.rank], 1 if wheel and c.rank == Rank.ACE else c.rank),
            reverse=True,
        )
    )
    return HandValue(cls, category, ordered, _name(key), bool(tables.is_royal[cls]))


def _name(key: tuple[int, ...]) -> str:
    category = Category(key[0])
    if category in _STRAIGHTS:
        if category is Category.STRAIGHT_FLUSH and key[1] == 24:
            return "royal flush"
        top = "five" if _is_wheel(key) else Rank(key[1] // 2 + 2).word
        return f"{category.title}, {top} high"
    ranks = [Rank(r + 2) for r in key[1:] if r >= 0]
    kickers = "-".join(r.symbol for r in ranks[1:])
    match category:
        case Category.FLUSH:
            return f"flush, {'-'.join(r.symbol for r in ranks)}"
        case Category.FOUR_OF_A_KIND:
            return f"four {ranks[0].plural}, {kickers} kicker"
        case Category.FULL_HOUSE:
            return f"full house, {ranks[0].plural} over {ranks[1].plural}"
        case Category.THREE_OF_A_KIND:
            return f"three {ranks[0].plural}" + (f", {kickers} kickers" if kickers else "")
        case Category.TWO_PAIR:
            return f"two pair, {ranks[0].plural} and {ranks[1].plural}, {ranks[2].symbol} kicker"
        case Category.PAIR:
            plural = "kicker" if len(ranks) == 2 else "kickers"
            return f"pair of {ranks[0].plural}, {kickers} {plural}"
        case _:
            return f"high card, {'-'.join(r.symbol for r in ranks)}"


_DISTINCT_RANKS = frozenset(
    {Category.HIGH_CARD, Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH}
)
_CLASS_INFO: dict[tuple[bool, int], tuple[Category, str, bool, tuple[int, ...]]] = {}


def hand_from_class(
    cards: Sequence[Card], cls: int, *, wheel_second_highest: bool = False
) -> HandValue:
    """The :class:`HandValue` that ``evaluate(cards)`` gives, when the class is already known.

    A fast path for search results: ``cards`` must come in ascending index order (as the
    arranger's subsets do) and ``cls`` must be their strength class; names are computed once
    per class.

    >>> cards = sorted(parse_cards("Jh Js 4c 4d Jd"))
    >>> hand_from_class(cards, strength(cards)) == evaluate(cards)
    True
    """
    info = _CLASS_INFO.get((wheel_second_highest, cls))
    if info is None:  # evaluate's facts of the class, read from its key as evaluate reads them
        info = _class_info(cards, cls, wheel_second_highest)
        _CLASS_INFO[wheel_second_highest, cls] = info
    category, name, royal, order = info
    return HandValue(cls, category, tuple([cards[j] for j in order]), name, royal)


def _class_info(
    cards: Sequence[Card], cls: int, wheel_second_highest: bool
) -> tuple[Category, str, bool, tuple[int, ...]]:
    """:func:`hand_from_class`' facts of class ``cls``: category, name, royal, and where each
    card of the shown order stands among ``cards`` in ascending index order. The class fixes
    the ranks, so it fixes that order too: ascending indices ascend by rank, and cards of one
    rank keep their relative order (a stable sort)."""
    tables = poker_tables(wheel_second_highest)
    key = tables.keys[cls]
    category = Category(key[0])
    n = len(cards)
    order: tuple[int, ...]
    if _is_wheel(key):
        order = (3, 2, 1, 0, 4)  # 5-4-3-2-A (cards ascend, the ace is last)
    elif category in _DISTINCT_RANKS:
        order = tuple(range(n - 1, -1, -1))
    else:
        ranks = [c.rank for c in cards]
        counts = {r: ranks.count(r) for r in ranks}
        order = tuple(sorted(range(n), key=lambda j: (counts[ranks[j]], ranks[j]), reverse=True))
    return category, _name(key), bool(tables.is_royal[cls]), order
