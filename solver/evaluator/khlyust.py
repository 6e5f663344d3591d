"""Three Leaves hands under a trump suit: khlyust class, card points, the TL-4 order key.

A **khlyust** is three cards of one suit or three of one rank (TL-4). Its class, high to low
by default: trump khlyust (three trumps), three of a rank, plain khlyust; hands of no class
rank below every khlyust. Within a class the higher card-point total wins (TL-1 points: A 11,
K 4, Q 3, J 2, others their face value), then the higher top card, then the player first in
turn from the assistant (that last key is a seat fact, see :meth:`KhlyustValue.order_key`).

Same card model and parser as the other games; the class order is passed in as a ranking so
this module does not depend on the rule set (``ThreeLeavesRules.class_ranking`` supplies it).

>>> hand = evaluate_khlyust("As Ks 8s", trump=Suit.SPADES)
>>> hand.khlyust_class.title, hand.points
('trump khlyust', 23)
>>> evaluate_khlyust("Qs Qh Qd", trump=Suit.CLUBS).khlyust_class.label
'three_of_a_rank'
>>> evaluate_khlyust("Ah Th 8h", trump="c").key > evaluate_khlyust("As Ks 9s", trump="c").key
True
>>> evaluate_khlyust("7h 8h 9h", trump="c")
Traceback (most recent call last):
...
cpsolver.errors.CardError: cards[0]: card '7h' is not in the 28-card deck (ranks 8-A)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from cpsolver.cards import DECK_28, Card, CardsLike, Deck, Rank, Suit, parse_cards, parse_suit
from cpsolver.errors import Field, InvalidInputError

__all__ = [
    "DEFAULT_CLASS_RANKING",
    "KhlyustClass",
    "KhlyustValue",
    "card_points",
    "classify",
    "evaluate_khlyust",
    "hand_points",
]


class KhlyustClass(enum.Enum):
    """The khlyust classes of TL-4 (their order is an option, see ``class_ranking``)."""

    NONE = "none"
    PLAIN = "plain_khlyust"
    TRIPS = "three_of_a_rank"
    TRUMP = "trump_khlyust"

    @property
    def label(self) -> str:
        """snake_case name used in JSON (``trump_khlyust``)."""
        return self.value

    @property
    def title(self) -> str:
        """Human name (``trump khlyust``, ``no khlyust``)."""
        return "no khlyust" if self is KhlyustClass.NONE else self.value.replace("_", " ")

    @property
    def is_khlyust(self) -> bool:
        """True for every class but NONE."""
        return self is not KhlyustClass.NONE


DEFAULT_CLASS_RANKING: tuple[KhlyustClass, ...] = (
    KhlyustClass.NONE,
    KhlyustClass.PLAIN,
    KhlyustClass.TRIPS,
    KhlyustClass.TRUMP,
)
"""TL-4 [default] class order, low to high."""

_POINTS = {Rank.ACE: 11, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}


def card_points(card: Card) -> int:
    """TL-1 card points: A 11, K 4, Q 3, J 2, others their face value (T = 10).

    >>> [card_points(Card.of(c)) for c in ("As", "Kd", "Qh", "Jc", "Ts", "8d")]
    [11, 4, 3, 2, 10, 8]
    """
    return _POINTS.get(card.rank, int(card.rank))


def hand_points(cards: Sequence[Card]) -> int:
    """Sum of :func:`card_points`.

    >>> hand_points(parse_cards("Ah Th 8h"))
    29
    """
    return sum(card_points(c) for c in cards)


@dataclass(frozen=True, slots=True)
class KhlyustValue:
    """A 3-card hand judged under a trump suit (TL-4).

    ``key`` = (class rank, points, top rank) orders hands; equal keys are separated by seat
    order only (:meth:`order_key`).
    """

    cards: tuple[Card, ...]
    trump: Suit
    khlyust_class: KhlyustClass
    points: int
    top: Rank
    class_rank: int

    @property
    def key(self) -> tuple[int, int, int]:
        """(class rank, card points, top card rank): higher is better."""
        return (self.class_rank, self.points, int(self.top))

    def order_key(self, turn_position: int) -> tuple[int, int, int, int]:
        """The full TL-4 key for a hand held ``turn_position`` places after the assistant
        (the assistant is 0): the earlier player wins a tie.

        >>> a = evaluate_khlyust("Ah Th 8h", trump="c")
        >>> b = evaluate_khlyust("As Ts 8s", trump="c")
        >>> a.key == b.key, a.order_key(2) > b.order_key(1)
        (True, False)
        """
        return (*self.key, -turn_position)

    @property
    def is_khlyust(self) -> bool:
        """True when the hand is a khlyust of any class."""
        return self.khlyust_class.is_khlyust

    @property
    def name(self) -> str:
        """Human description, e.g. ``trump khlyust, 23 points``."""
        return f"{self.khlyust_class.title}, {self.points} points"


def classify(cards: Sequence[Card], trump: Suit) -> KhlyustClass:
    """The TL-4 class of three cards (no validation; see :func:`evaluate_khlyust`).

    >>> classify(parse_cards("Jd Td 8d"), Suit.DIAMONDS).label
    'trump_khlyust'
    """
    suits = {c.suit for c in cards}
    if len(suits) == 1:
        return KhlyustClass.TRUMP if trump in suits else KhlyustClass.PLAIN
    if len({c.rank for c in cards}) == 1:
        return KhlyustClass.TRIPS
    return KhlyustClass.NONE


def evaluate_khlyust(
    cards: CardsLike,
    trump: Suit | str,
    *,
    deck: Deck = DECK_28,
    class_ranking: Sequence[KhlyustClass] = DEFAULT_CLASS_RANKING,
    field: Field = "cards",
) -> KhlyustValue:
    """Judge three cards under ``trump`` (TL-4); raises :class:`~cpsolver.errors.CardError`.

    >>> evaluate_khlyust("Jd Td 8d", trump="d").key > evaluate_khlyust("Ah Kh Qh", trump="d").key
    True
    """
    hand = tuple(
        sorted(parse_cards(cards, deck=deck, count=3, field=field), key=lambda c: -c.index)
    )
    suit = parse_suit(trump, field="trump")
    if sorted(class_ranking, key=lambda c: c.value) != sorted(KhlyustClass, key=lambda c: c.value):
        raise InvalidInputError("class_ranking", "must list every khlyust class once")
    cls = classify(hand, suit)
    return KhlyustValue(
        cards=hand,
        trump=suit,
        khlyust_class=cls,
        points=hand_points(hand),
        top=max(c.rank for c in hand),
        class_rank=list(class_ranking).index(cls),
    )
