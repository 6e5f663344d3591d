"""Cards and suits: library :class:`~cpsolver.cards.Card` / :class:`~cpsolver.cards.Suit` <->
``cpsolver.v1.Card`` messages and ``Suit`` values.

Inbound (``*_from_wire`` with a ``field``) checks what only the wire can get wrong (an unset or
unknown rank or suit) and raises the library's :class:`~cpsolver.errors.InvalidInputError`
naming the request field; duplicates, counts and deck membership are the library's parser's.
:func:`card_from_wire` reads a card the server sent (trusted, unchecked).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cpsolver.cards import Card, Rank, Suit, duplicate_violations
from cpsolver.errors import Field, FieldPath, FieldViolation, InvalidInputError, field_path
from cpsolver.v1 import cards_pb2

__all__ = [
    "card_from_wire",
    "card_to_wire",
    "cards_from_wire",
    "cards_to_wire",
    "hand_paths_from_wire",
    "hand_paths_to_wire",
    "suit_from_wire",
    "suit_to_wire",
]

_SUIT_FROM_WIRE = {
    cards_pb2.SUIT_CLUBS: Suit.CLUBS,
    cards_pb2.SUIT_DIAMONDS: Suit.DIAMONDS,
    cards_pb2.SUIT_HEARTS: Suit.HEARTS,
    cards_pb2.SUIT_SPADES: Suit.SPADES,
}
_SUIT_TO_WIRE = {suit: wire for wire, suit in _SUIT_FROM_WIRE.items()}
_RANKS = {r.value for r in Rank}
# Card messages for the 52 cards, built once (responses copy them).
_WIRE_CARDS = tuple(
    cards_pb2.Card(rank=cards_pb2.Rank.Name(int(c.rank)), suit=_SUIT_TO_WIRE[c.suit])
    for c in (Card.from_index(i) for i in range(52))
)


def cards_from_wire(cards: Iterable[cards_pb2.Card], field: Field) -> tuple[Card, ...]:
    """Typed library cards from Card messages; every missing or unknown rank/suit is reported
    (``cards[0].suit`` for the first card's, as a path ``("cards", 0, "suit")``).

    Duplicates, counts and deck membership are left to the library's parser, which cannot run
    when some card is unreadable: then the duplicates among the readable cards are reported
    with the unreadable ones, so one error lists both (issue 27, D5).
    """
    result: list[Card] = []
    problems: list[FieldViolation] = []
    readable: list[tuple[int, Card]] = []
    base = field_path(field)
    for position, card in enumerate(cards):
        where = (*base, position)
        rank_ok = card.rank in _RANKS
        suit = _SUIT_FROM_WIRE.get(card.suit)
        if not rank_ok:
            reason = "is required" if card.rank == 0 else f"has unknown value {card.rank}"
            problems.append(FieldViolation((*where, "rank"), f"rank {reason}"))
        if suit is None:
            reason = "is required" if card.suit == 0 else f"has unknown value {card.suit}"
            problems.append(FieldViolation((*where, "suit"), f"suit {reason}"))
        if rank_ok and suit is not None:
            result.append(Card(Rank(card.rank), suit))
            readable.append((position, result[-1]))
    if problems:
        problems += duplicate_violations(readable, field)
        problems.sort(key=lambda v: _index_in(v.path, len(base)))
        raise InvalidInputError(violations=problems)
    return tuple(result)


def _index_in(path: FieldPath, at: int) -> int:
    """The list index at ``path[at]`` (-1 when there is none): the card a violation is about."""
    part = path[at] if len(path) > at else -1
    return part if isinstance(part, int) else -1


def card_to_wire(card: Card) -> cards_pb2.Card:
    """The Card message of a library card."""
    return _WIRE_CARDS[card.index]


def cards_to_wire(cards: Sequence[Card]) -> list[cards_pb2.Card]:
    """Card messages of library cards, in order."""
    return [_WIRE_CARDS[c.index] for c in cards]


def card_from_wire(card: cards_pb2.Card) -> Card:
    """The library card of a Card message the server sent (trusted: no validation)."""
    return Card(Rank(card.rank), _SUIT_FROM_WIRE[card.suit])


def suit_from_wire(value: int, field: Field) -> Suit:
    """The library suit of a Suit enum value; unset or unknown is an input error on ``field``."""
    suit: Suit | None = _SUIT_FROM_WIRE.get(value)  # type: ignore[call-overload]
    if suit is None:
        reason = "is required" if value == 0 else f"has unknown value {value}"
        raise InvalidInputError(field, f"suit {reason}")
    return suit


def suit_to_wire(suit: Suit | None) -> int:
    """The Suit enum value of a library suit (``SUIT_UNSPECIFIED`` for None)."""
    return 0 if suit is None else _SUIT_TO_WIRE[suit]


def hand_paths_to_wire(path: FieldPath, field: str = "hands") -> FieldPath:
    """A library path into a list of hands as the wire names it: the library's card ``j`` of
    hand ``i`` (``hands[i][j]``) is the ``cards`` field of the i-th hand message on the wire
    (ChlustHand, LeavesHand). Other paths are the same.

    >>> hand_paths_to_wire(("hands", 1, 2)), hand_paths_to_wire(("hands", 1))
    (('hands', 1, 'cards', 2), ('hands', 1))
    """
    if len(path) > 2 and path[0] == field and isinstance(path[1], int):
        return (*path[:2], "cards", *path[2:]) if isinstance(path[2], int) else path
    return path


def hand_paths_from_wire(path: FieldPath, field: str = "hands") -> FieldPath:
    """The inverse of :func:`hand_paths_to_wire`.

    >>> hand_paths_from_wire(("hands", 1, "cards", 2, "rank"))
    ('hands', 1, 2, 'rank')
    """
    if len(path) > 3 and path[0] == field and isinstance(path[1], int) and path[2] == "cards":
        return (*path[:2], *path[3:])
    return path
