"""Wire <-> library conversions shared by every game's servicer (no game logic here).

Inbound helpers raise the library's :class:`~solver.errors.InvalidInputError` with field paths
in the library convention (1-based list indexes, see :mod:`server.errors`), so a servicer only
converts, calls the library and converts back.

Rule sets: a game's rules message has a ``preset`` string and one field per library option with
the option's name; an enum field's unset (``*_UNSPECIFIED``) value and an unset ``optional``
scalar keep the preset's value. :func:`rules_from_wire` therefore works for any game whose
message follows that pattern (``ChineseRules``, and the Chlust / Three Leaves messages).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from cpsolver.v1 import cards_pb2, chinese_poker_pb2
from solver.cards import Card, Rank, Suit
from solver.errors import FieldViolation, InvalidInputError
from solver.evaluator.poker import HandValue
from solver.rules.base import RuleSet

__all__ = [
    "card_to_wire",
    "cards_from_wire",
    "cards_to_wire",
    "enum_value_name",
    "hand_to_wire",
    "rules_from_wire",
]

R = TypeVar("R", bound=RuleSet)

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


def cards_from_wire(cards: Iterable[cards_pb2.Card], field: str) -> tuple[Card, ...]:
    """Typed library cards from Card messages; every missing or unknown rank/suit is reported.

    Duplicates, counts and deck membership are left to the library's parser.
    """
    result: list[Card] = []
    problems: list[FieldViolation] = []
    for position, card in enumerate(cards, start=1):
        where = f"{field}[{position}]"
        rank_ok = card.rank in _RANKS
        suit = _SUIT_FROM_WIRE.get(card.suit)
        if not rank_ok:
            reason = "is required" if card.rank == 0 else f"has unknown value {card.rank}"
            problems.append(FieldViolation(f"{where}.rank", f"rank {reason}"))
        if suit is None:
            reason = "is required" if card.suit == 0 else f"has unknown value {card.suit}"
            problems.append(FieldViolation(f"{where}.suit", f"suit {reason}"))
        if rank_ok and suit is not None:
            result.append(Card(Rank(card.rank), suit))
    if problems:
        raise InvalidInputError(violations=problems)
    return tuple(result)


def card_to_wire(card: Card) -> cards_pb2.Card:
    """The Card message of a library card."""
    return _WIRE_CARDS[card.index]


def cards_to_wire(cards: Sequence[Card]) -> list[cards_pb2.Card]:
    """Card messages of library cards, in order."""
    return [_WIRE_CARDS[c.index] for c in cards]


def enum_value_name(message: Message, field: FieldDescriptor, value: int) -> str | None:
    """``ORDER_SECOND_HIGHEST`` -> ``"second_highest"``; None when unset (zero).

    The prefix is the enum's name in UPPER_SNAKE_CASE (buf's ENUM_VALUE_PREFIX rule). An
    unknown number (a newer client) is an input error naming the field.
    """
    if value == 0:
        return None
    enum_type = field.enum_type
    entry = enum_type.values_by_number.get(value)
    if entry is None:
        raise InvalidInputError(field.name, f"unknown value {value}")
    prefix = "".join(f"_{c}" if c.isupper() else c.upper() for c in enum_type.name)
    name: str = entry.name
    return name.removeprefix(prefix.lstrip("_") + "_").lower()


def rules_from_wire(message: Message, kind: type[R], field: str = "rules") -> R:
    """A library rule set from a rules message (preset + the options that are set).

    >>> from solver.rules import ChineseRules
    >>> wire = chinese_poker_pb2.ChineseRules(
    ...     preset="two_four", order=chinese_poker_pb2.ChineseRules.ORDER_STRICT)
    >>> rules = rules_from_wire(wire, ChineseRules)
    >>> rules.players, rules.order.value, rules.scoring.value
    (2, 'strict', 'two_four')
    """
    overrides: dict[str, Any] = {}
    problems: list[FieldViolation] = []
    for desc in message.DESCRIPTOR.fields:
        if desc.name == "preset":
            continue
        value = getattr(message, desc.name)
        if desc.enum_type is not None:
            try:
                name = enum_value_name(message, desc, value)
            except InvalidInputError as exc:
                problems.extend(exc.prefixed(field).violations)
                continue
            if name is not None:
                overrides[desc.name] = name
        elif desc.has_presence:
            if message.HasField(desc.name):
                overrides[desc.name] = value
        elif value:
            overrides[desc.name] = value
    if problems:
        raise InvalidInputError(violations=problems)
    preset = getattr(message, "preset", "") or "standard"
    return kind.preset(preset, **overrides)


def hand_to_wire(hand: HandValue) -> chinese_poker_pb2.Hand:
    """The Hand message of an evaluated poker hand or front."""
    return chinese_poker_pb2.Hand(
        cards=cards_to_wire(hand.cards),
        category=chinese_poker_pb2.HandCategory.Value("HAND_CATEGORY_" + hand.category.name),
        name=hand.name,
        strength=hand.strength,
        royal=hand.is_royal,
    )
