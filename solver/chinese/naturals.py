"""Chinese poker naturals (special hands), RULES CP-11, judged on all 13 cards.

Four naturals, highest first: dragon (13 different ranks, 13 units), three flushes, three
straights and six pairs (3 units each). :func:`detect_natural` returns the highest one a hand
qualifies for, with a grouping of the cards that shows it; :func:`detect_naturals` returns all of
them. Detection runs on every solve, so the common no-natural case exits after one pass over the
cards and a few integer checks.

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
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from cpsolver.cards import Card, Suit, format_cards
from cpsolver.errors import CardTypeError, InvalidInputError
from cpsolver.evaluator.poker import strength

__all__ = ["Natural", "NaturalKind", "detect_natural", "detect_naturals"]


class NaturalKind(enum.IntEnum):
    """The four naturals of CP-11; a higher value is a higher-ranked natural."""

    SIX_PAIRS = 1
    THREE_STRAIGHTS = 2
    THREE_FLUSHES = 3
    DRAGON = 4

    @property
    def label(self) -> str:
        """snake_case name used in JSON (``three_flushes``)."""
        return self.name.lower()

    @property
    def title(self) -> str:
        """Human name (``three flushes``)."""
        return self.name.lower().replace("_", " ")

    @property
    def units(self) -> int:
        """Units the natural collects (CP-11): 13 for the dragon, 3 for the others."""
        return 13 if self is NaturalKind.DRAGON else 3

    @property
    def rank(self) -> int:
        """Rank in the CP-11 table: 1 is the highest (dragon), 4 the lowest (six pairs)."""
        return 5 - int(self)


@dataclass(frozen=True, slots=True)
class Natural:
    """A natural a 13-card hand qualifies for, with a grouping of the cards that shows it.

    ``groups`` is, for three flushes and three straights, the 3-card group then the two 5-card
    groups (the weaker 5-card group first, on the default strength scale); each straight is
    listed from its top card down, each flush high to low. For six pairs it is the six pairs
    (highest rank first; quads give two pairs) then the one card left over. For the dragon it
    is one group of the 13 cards, ace down to deuce.
    """

    kind: NaturalKind
    groups: tuple[tuple[Card, ...], ...]

    @property
    def name(self) -> str:
        """snake_case name: ``dragon``, ``three_flushes``, ``three_straights``, ``six_pairs``."""
        return self.kind.label

    @property
    def units(self) -> int:
        """Units collected from each beaten opponent (CP-11)."""
        return self.kind.units

    @property
    def rank(self) -> int:
        """CP-11 table rank, 1 = highest."""
        return self.kind.rank

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
# Nonzero suit counts, sorted descending, that split into one-suit groups of 3, 5 and 5.
_FLUSH_SHAPES = frozenset({(5, 5, 3), (8, 5), (10, 3), (13,)})


def detect_natural(cards: Sequence[Card]) -> Natural | None:
    """The highest natural (CP-11) the 13 cards qualify for, or None.

    Raises :class:`InvalidInputError` unless given 13 distinct cards.
    """
    found = _detect(cards, first_only=True)
    return found[0] if found else None


def detect_naturals(cards: Sequence[Card]) -> tuple[Natural, ...]:
    """Every natural (CP-11) the 13 cards qualify for, highest first (empty when none).

    >>> from cpsolver.cards import parse_cards
    >>> [n.name for n in detect_naturals(parse_cards("2h 5h 9h 3h 4h 7h Jh Kh 2s 6s 8s Ts Qs"))]
    ['three_flushes']
    """
    return _detect(cards, first_only=False)


def _detect(cards: Sequence[Card], *, first_only: bool) -> tuple[Natural, ...]:
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
    distinct = 13 - rank_counts.count(0)
    if distinct == 13:
        found.append(Natural(NaturalKind.DRAGON, (_by_rank_desc(cards),)))
        if first_only:
            return tuple(found)
    shape = tuple(sorted((n for n in suit_counts if n), reverse=True))
    if shape in _FLUSH_SHAPES:
        found.append(Natural(NaturalKind.THREE_FLUSHES, _flush_groups(cards)))
        if first_only:
            return tuple(found)
    if distinct >= 5 and max(rank_counts) <= 3:
        straights = _find_straights(rank_counts)
        if straights is not None:
            found.append(Natural(NaturalKind.THREE_STRAIGHTS, _straight_groups(cards, straights)))
            if first_only:
                return tuple(found)
    if sum(n >> 1 for n in rank_counts) == 6:
        found.append(Natural(NaturalKind.SIX_PAIRS, _pair_groups(cards)))
    return tuple(found)


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


def _find_straights(rank_counts: list[int]) -> list[tuple[int, int]] | None:
    """Split the ranks into straights of 3, 5 and 5 cards; None when impossible.

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
        if _split(slots, 1, 2, found):
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
    by_rank: list[list[Card]] = [[] for _ in range(13)]
    for card in sorted(cards, key=lambda c: c.index):
        by_rank[card.rank - 2].append(card)
    groups: list[tuple[Card, ...]] = []
    for start, length in straights:
        # Slot 0 (low ace) and slot 13 are the ace; slot s >= 1 is 0-based rank s - 1.
        group = [by_rank[12 if s == 0 else s - 1].pop() for s in range(start, start + length)]
        groups.append(tuple(reversed(group)))
    threes = [g for g in groups if len(g) == 3]
    fives = [g for g in groups if len(g) == 5]
    return _order_rows(threes[0], fives[0], fives[1])


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
