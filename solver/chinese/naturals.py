"""Chinese poker naturals (special hands), RULES CP-11 and CP-15, judged on all 13 cards.

The rule set says which naturals count and what they are worth
(:attr:`~cpsolver.rules.chinese.ChineseRules.natural_list`, highest first): CP-11's four
(dragon 13 units; three flushes, three straights and six pairs 3) by default, or any ranked list
over CP-15's vocabulary of 15. :func:`detect_natural` returns the highest one a hand qualifies
for under a rule set, with a grouping of the cards that shows it; :func:`detect_naturals`
returns all of them. Detection runs on every solve, so the common no-natural case exits after
one pass over the cards and a few integer checks.

>>> from cpsolver.cards import parse_cards
>>> hand = parse_cards("2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As")
>>> natural = detect_natural(hand)
>>> natural.name, natural.units, natural.rank
('six_pairs', 3, 4)
>>> detect_natural(parse_cards("As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s")).name
'dragon'
>>> [n.name for n in detect_naturals(parse_cards("As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s"))]
['dragon', 'three_straights']
>>> straights = detect_natural(parse_cards("Ah 2c 3d 2s 3c 4h 5s 6d 7c 8d 9s Th Jc"))
>>> straights.name, [format_cards(g) for g in straights.groups]
('three_straights', ['3d 2s Ah', '6d 5s 4h 3c 2c', 'Jc Th 9s 8d 7c'])
>>> print(detect_natural(parse_cards("Ks Ah 2c 2d 3d 4h 5s 6d 7c 8d 9s Th Jc")))  # K-A-2
None
>>> print(detect_natural(parse_cards("As Kd Qh Jc 9s 8d 7h 6c 4s 3d 2h 2c 5s")))
None

Under ``shisanshui`` (CP-16) the same six pairs hand is worth 4, and a one-suit dragon is the
clean dragon (CP-E15):

>>> from cpsolver.rules import ChineseRules
>>> shisanshui = ChineseRules.preset("shisanshui")
>>> detect_natural(hand, shisanshui).units
4
>>> clean = detect_natural(parse_cards("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"), shisanshui)
>>> clean.name, clean.units, clean.rank
('clean_dragon', 52, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cpsolver.cards import Card, Suit, format_cards
from cpsolver.errors import CardTypeError, InvalidInputError
from cpsolver.evaluator.poker import strength
from cpsolver.rules.chinese import CP11_NATURALS, ChineseRules, NaturalName, NaturalTable

__all__ = [
    "Natural",
    "NaturalKind",
    "NaturalName",
    "detect_natural",
    "detect_naturals",
    "qualifies",
]

NaturalKind = NaturalName
"""The name the natural's kind had when CP-11's four were the only ones (the same values)."""


@dataclass(frozen=True, slots=True)
class Natural:
    """A natural a 13-card hand qualifies for under a rule set, with a grouping of the cards
    that shows it, its ``units`` and its ``rank`` (1 = the highest of the rule set's list).

    ``groups`` is, for three flushes, three straights and three straight flushes, the 3-card
    group then the two 5-card groups (the weaker 5-card group first, on the default strength
    scale); each straight is listed from its top card down, each flush high to low. For six
    pairs it is the six pairs (highest rank first; quads give two pairs) then the one card
    left over; for two full houses and trips the trips then the two full houses. For the
    others it is one group of the 13 cards, ace down to deuce.
    """

    kind: NaturalName
    groups: tuple[tuple[Card, ...], ...]
    units: int
    rank: int

    @property
    def name(self) -> str:
        """snake_case name: ``dragon``, ``three_flushes``, ``clean_dragon``, ..."""
        return self.kind.value

    @property
    def cards(self) -> tuple[Card, ...]:
        """The 13 cards, in group order."""
        return tuple(c for group in self.groups for c in group)

    def to_dict(self) -> dict[str, object]:
        """Plain JSON form: name, units, rank and the groups as canonical card strings."""
        return {
            "name": self.name,
            "units": self.units,
            "rank": self.rank,
            "groups": [[str(c) for c in group] for group in self.groups],
        }

    def __str__(self) -> str:
        return f"{self.kind.title}: " + " / ".join(format_cards(g) for g in self.groups)


_SUIT_INDEX = {
    suit: i for i, suit in enumerate((Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES))
}
_RED = (1, 2)  # diamonds, hearts in _SUIT_INDEX
# Nonzero suit counts, sorted descending, that split into one-suit groups of 3, 5 and 5.
_FLUSH_SHAPES = frozenset({(5, 5, 3), (8, 5), (10, 3), (13,)})
# Straights of each size one suit's cards must split into, by the suit's count (3 + 5 + 5).
_SUIT_NEEDS = {3: (1, 0), 5: (0, 1), 8: (1, 1), 10: (0, 2), 13: (1, 2)}


def detect_natural(cards: Sequence[Card], rules: ChineseRules | None = None) -> Natural | None:
    """The highest natural of ``rules``' list (CP-11's four by default) the 13 cards qualify
    for, or None (also under ``naturals=off``).

    Raises :class:`InvalidInputError` unless given 13 distinct cards.
    """
    found = _detect(cards, _list(rules), first_only=True)
    return found[0] if found else None


def detect_naturals(
    cards: Sequence[Card], rules: ChineseRules | None = None
) -> tuple[Natural, ...]:
    """Every natural of ``rules``' list the 13 cards qualify for, highest first (empty when
    none).

    >>> from cpsolver.cards import parse_cards
    >>> [n.name for n in detect_naturals(parse_cards("2h 5h 9h 3h 4h 7h Jh Kh 2s 6s 8s Ts Qs"))]
    ['three_flushes']
    """
    return _detect(cards, _list(rules), first_only=False)


def qualifies(cards: Sequence[Card], natural: NaturalName) -> bool:
    """Whether 13 distinct cards make ``natural`` (its definition in CP-11 / CP-15).

    >>> from cpsolver.cards import parse_cards
    >>> qualifies(parse_cards("As Ad Ac Ah Ks Kd Kc Kh Qs Qd Qc Qh 2c"), NaturalName.THREE_QUADS)
    True
    """
    return bool(_detect(cards, ((natural, 0),), first_only=True))


def _list(rules: ChineseRules | None) -> NaturalTable:
    return CP11_NATURALS if rules is None else rules.natural_list


def _detect(cards: Sequence[Card], table: NaturalTable, *, first_only: bool) -> tuple[Natural, ...]:
    if not isinstance(cards, Sequence) or any(not isinstance(c, Card) for c in cards[:1]):
        raise CardTypeError(
            "cards", f"expected a sequence of 13 Card objects, got {type(cards).__name__}"
        )
    if len(cards) != 13:
        raise InvalidInputError("cards", f"a natural needs 13 cards, got {len(cards)}")
    rank_counts = [0] * 13
    suit_counts = [0, 0, 0, 0]
    seen = 0
    suit_index = _SUIT_INDEX
    for card in cards:
        r = card.rank - 2
        s = suit_index[card.suit]
        rank_counts[r] += 1
        suit_counts[s] += 1
        seen |= 1 << (4 * r + s)
    if seen.bit_count() != 13:
        raise InvalidInputError("cards", "a natural needs 13 distinct cards; a card is repeated")
    found: list[Natural] = []
    for rank, (name, units) in enumerate(table, start=1):
        groups = _DETECTORS[name](cards, rank_counts, suit_counts)
        if groups is not None:
            found.append(Natural(name, groups, units, rank))
            if first_only:
                break
    return tuple(found)


_Groups = tuple[tuple[Card, ...], ...]
_Detector = Callable[[Sequence[Card], list[int], list[int]], "_Groups | None"]


def _whole(cards: Sequence[Card]) -> _Groups:
    return (_by_rank_desc(cards),)


def _dragon(cards: Sequence[Card], ranks: list[int], suits: list[int]) -> _Groups | None:
    return _whole(cards) if 0 not in ranks else None


def _clean_dragon(cards: Sequence[Card], ranks: list[int], suits: list[int]) -> _Groups | None:
    return _whole(cards) if 0 not in ranks and 13 in suits else None


def _twelve_royals(cards: Sequence[Card], ranks: list[int], suits: list[int]) -> _Groups | None:
    return _whole(cards) if sum(ranks[9:]) == 13 else None  # J (index 9), Q, K, A


def _three_quads(cards: Sequence[Card], ranks: list[int], suits: list[int]) -> _Groups | None:
    return _whole(cards) if ranks.count(4) == 3 else None


def _all_high(cards: Sequence[Card], ranks: list[int], suits: list[int]) -> _Groups | None:
    return _whole(cards) if sum(ranks[6:]) == 13 else None  # 8 (index 6) or higher


def _all_low(cards: Sequence[Card], ranks: list[int], suits: list[int]) -> _Groups | None:
    return _whole(cards) if sum(ranks[:7]) == 13 else None  # 8 or lower


def _one_color(cards: Sequence[Card], ranks: list[int], suits: list[int]) -> _Groups | None:
    red = suits[_RED[0]] + suits[_RED[1]]
    return _whole(cards) if red in (0, 13) else None


def _twelve_one_color(cards: Sequence[Card], ranks: list[int], suits: list[int]) -> _Groups | None:
    red = suits[_RED[0]] + suits[_RED[1]]
    return _whole(cards) if red >= 12 or red <= 1 else None


def _four_trips(cards: Sequence[Card], ranks: list[int], suits: list[int]) -> _Groups | None:
    return _whole(cards) if sum(n // 3 for n in ranks) == 4 else None


def _five_pairs_trips(cards: Sequence[Card], ranks: list[int], suits: list[int]) -> _Groups | None:
    # A three of a kind, and five pairs of the ten cards left (a four of a kind is two pairs).
    for r, n in enumerate(ranks):
        if n >= 3:
            left = [*ranks[:r], n - 3, *ranks[r + 1 :]]
            if sum(m // 2 for m in left) == 5:
                return _whole(cards)
    return None


def _two_full_houses_trips(
    cards: Sequence[Card], ranks: list[int], suits: list[int]
) -> _Groups | None:
    # Three threes of a kind (a rank holds one at most) and two pairs of the four cards left.
    trips = [r for r, n in enumerate(ranks) if n >= 3]
    if len(trips) != 3:
        return None
    left = [n - 3 if r in trips else n for r, n in enumerate(ranks)]
    if sum(n // 2 for n in left) != 2:
        return None
    by_rank: list[list[Card]] = [[] for _ in range(13)]
    for card in _by_rank_desc(cards):
        by_rank[card.rank - 2].append(card)
    pairs = sorted(r for r, n in enumerate(left) for _ in range(n // 2))
    low, *high = trips  # the lowest trips in front; each full house takes a pair
    groups: list[tuple[Card, ...]] = [tuple(by_rank[low][:3])]
    for t, p in zip(high, pairs, strict=True):
        groups.append((*by_rank[t][:3], *by_rank[p][-2:]))
        by_rank[p] = by_rank[p][:-2]
    return tuple(groups)


def _three_flushes(cards: Sequence[Card], ranks: list[int], suits: list[int]) -> _Groups | None:
    shape = tuple(sorted((n for n in suits if n), reverse=True))
    return _flush_groups(cards) if shape in _FLUSH_SHAPES else None


def _three_straights(cards: Sequence[Card], ranks: list[int], suits: list[int]) -> _Groups | None:
    if 13 - ranks.count(0) < 5 or max(ranks) > 3:
        return None
    straights = _find_straights(ranks)
    return None if straights is None else _straight_groups(cards, straights)


def _three_straight_flushes(
    cards: Sequence[Card], ranks: list[int], suits: list[int]
) -> _Groups | None:
    shape = tuple(sorted((n for n in suits if n), reverse=True))
    if shape not in _FLUSH_SHAPES:
        return None
    threes: list[tuple[Card, ...]] = []
    fives: list[tuple[Card, ...]] = []
    for suit, index in _SUIT_INDEX.items():
        count = suits[index]
        if not count:
            continue
        suited = [c for c in cards if c.suit is suit]
        suit_ranks = [0] * 13
        for card in suited:
            suit_ranks[card.rank - 2] += 1
        need3, need5 = _SUIT_NEEDS[count]
        straights = _find_straights(suit_ranks, need3, need5)
        if straights is None:
            return None
        for group in _groups_of(suited, straights):
            (threes if len(group) == 3 else fives).append(group)
    return _order_rows(threes[0], fives[0], fives[1])


def _six_pairs(cards: Sequence[Card], ranks: list[int], suits: list[int]) -> _Groups | None:
    return _pair_groups(cards) if sum(n >> 1 for n in ranks) == 6 else None


_DETECTORS: dict[NaturalName, _Detector] = {
    NaturalName.CLEAN_DRAGON: _clean_dragon,
    NaturalName.DRAGON: _dragon,
    NaturalName.TWELVE_ROYALS: _twelve_royals,
    NaturalName.THREE_STRAIGHT_FLUSHES: _three_straight_flushes,
    NaturalName.THREE_QUADS: _three_quads,
    NaturalName.ALL_HIGH: _all_high,
    NaturalName.ALL_LOW: _all_low,
    NaturalName.ONE_COLOR: _one_color,
    NaturalName.TWELVE_ONE_COLOR: _twelve_one_color,
    NaturalName.TWO_FULL_HOUSES_TRIPS: _two_full_houses_trips,
    NaturalName.FOUR_TRIPS: _four_trips,
    NaturalName.FIVE_PAIRS_TRIPS: _five_pairs_trips,
    NaturalName.SIX_PAIRS: _six_pairs,
    NaturalName.THREE_STRAIGHTS: _three_straights,
    NaturalName.THREE_FLUSHES: _three_flushes,
}


def _by_rank_desc(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: c.index, reverse=True))


def _order_rows(
    three: tuple[Card, ...], five_a: tuple[Card, ...], five_b: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    """The 3-card group, then the two 5-card groups weaker first."""
    if strength(five_a) > strength(five_b):
        five_a, five_b = five_b, five_a
    return (three, five_a, five_b)


def _flush_groups(cards: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    by_suit: dict[Suit, list[Card]] = {}
    for card in sorted(cards, key=lambda c: c.index, reverse=True):
        by_suit.setdefault(card.suit, []).append(card)
    threes: list[tuple[Card, ...]] = []
    fives: list[tuple[Card, ...]] = []
    for suited in by_suit.values():
        n = len(suited)
        # High to low; the 3-card group takes the lowest cards of its suit.
        if n in (5, 10, 8, 13):
            fives.append(tuple(suited[:5]))
        if n in (10, 13):
            fives.append(tuple(suited[5:10]))
        if n in (3, 8, 13):
            threes.append(tuple(suited[-3:]))
    return _order_rows(threes[0], fives[0], fives[1])


def _find_straights(
    rank_counts: list[int], need3: int = 1, need5: int = 2
) -> list[tuple[int, int]] | None:
    """Split the ranks into ``need3`` straights of 3 cards and ``need5`` of 5 (by default
    3 + 5 + 5); None when impossible.

    Slots 1..13 hold the ranks deuce..ace; slot 0 is an ace played low, so every window of
    3 or 5 consecutive slots is a straight (A-2-3, Q-K-A, A-2-3-4-5, T-J-Q-K-A) and K-A-2 is not.
    Returns (first slot, length) per straight.
    """
    aces = rank_counts[12]
    slots = [0, *rank_counts]
    for low_aces in range(aces + 1):
        slots[0] = low_aces
        slots[13] = aces - low_aces
        found: list[tuple[int, int]] = []
        if _split(slots, need3, need5, found):
            return found
    return None


def _split(slots: list[int], need3: int, need5: int, found: list[tuple[int, int]]) -> bool:
    start = 0
    while start < 14 and slots[start] == 0:
        start += 1
    if start == 14:
        return need3 == 0 and need5 == 0
    for length, left3, left5 in ((3, need3 - 1, need5), (5, need3, need5 - 1)):
        if left3 < 0 or left5 < 0 or start + length > 14:
            continue
        window = range(start, start + length)
        if all(slots[s] for s in window):
            for s in window:
                slots[s] -= 1
            found.append((start, length))
            if _split(slots, left3, left5, found):
                return True
            found.pop()
            for s in window:
                slots[s] += 1
    return False


def _straight_groups(
    cards: Sequence[Card], straights: list[tuple[int, int]]
) -> tuple[tuple[Card, ...], ...]:
    groups = _groups_of(cards, straights)
    threes = [g for g in groups if len(g) == 3]
    fives = [g for g in groups if len(g) == 5]
    return _order_rows(threes[0], fives[0], fives[1])


def _groups_of(cards: Sequence[Card], straights: list[tuple[int, int]]) -> list[tuple[Card, ...]]:
    """The cards of each straight ``(first slot, length)``, top card first."""
    by_rank: list[list[Card]] = [[] for _ in range(13)]
    for card in sorted(cards, key=lambda c: c.index):
        by_rank[card.rank - 2].append(card)
    groups: list[tuple[Card, ...]] = []
    for start, length in straights:
        # Slot 0 (low ace) and slot 13 are the ace; slot s >= 1 is 0-based rank s - 1.
        group = [by_rank[12 if s == 0 else s - 1].pop() for s in range(start, start + length)]
        groups.append(tuple(reversed(group)))
    return groups


def _pair_groups(cards: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    ordered = _by_rank_desc(cards)
    groups: list[tuple[Card, ...]] = []
    left: list[Card] = []
    i = 0
    while i < len(ordered):
        if i + 1 < len(ordered) and ordered[i].rank == ordered[i + 1].rank:
            groups.append((ordered[i], ordered[i + 1]))
            i += 2
        else:
            left.append(ordered[i])
            i += 1
    return (*groups, tuple(left))
