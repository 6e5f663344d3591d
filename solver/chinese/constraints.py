"""Constraints on a Chinese poker solve: pinned cards, barred rows, minimum hands, naturals.

A :class:`Constraints` value is immutable and hashable. It is built from typed parts or parsed
from short text (:meth:`Constraints.parse`):

* ``As=front`` pins a card to a row (``front``, ``middle``, ``back``; with more than 13 cards
  also ``discard``, and ``As!=discard`` keeps a card);
* ``Kd!=back`` keeps a card out of a row;
* ``front>=pair`` asks for at least a pair in the front: the bound is a category
  (``high_card`` .. ``straight_flush``), a strength class on the one scale (``front>=4000``,
  :mod:`cpsolver.evaluator.poker`) or a hand whose strength is the bound (``front>=QsQd2c``);
* ``natural=force|forbid|auto`` forces or forbids declaring a natural (CP-11); ``auto`` (the
  default) declares one when the hand holds it and the rules allow naturals.

Row constraints govern the arrangement (the rows shown also when a natural is declared); the
natural policy governs the declaration. Constraints that no valid (unfouled, CP-6) split can
satisfy make :func:`cpsolver.chinese.solve.solve` raise :class:`cpsolver.errors.InfeasibleError`.

>>> c = Constraints.parse("As=front, Kd!=back front>=pair natural=forbid")
>>> str(c)
'As=front Kd!=back front>=pair natural=forbid'
>>> c.pins[0].card, c.pins[0].place.label
(Card('As'), 'front')
>>> Constraints.parse("As=top")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cpsolver.errors.InvalidInputError: constraints[0]: unknown place 'top' in 'As=top'; valid: ...
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cpsolver.cards import Card, parse_card, parse_cards
from cpsolver.errors import Field, InfeasibleError, InvalidInputError
from cpsolver.evaluator.poker import NUM_CLASSES, Category, PokerTables, evaluate
from cpsolver.rules import Row

__all__ = [
    "Constraints",
    "MinHand",
    "NaturalPolicy",
    "Pin",
    "Place",
    "RowMasks",
    "as_constraints",
]


class Place(enum.Enum):
    """Where a card can go: one of the three rows, or the discard pile (13 of N)."""

    FRONT = "front"
    MIDDLE = "middle"
    BACK = "back"
    DISCARD = "discard"

    @property
    def label(self) -> str:
        """Lower-case name (``front``)."""
        return self.value

    @property
    def bit(self) -> int:
        """Bit of this place in a card's allowed-places mask: front 1, middle 2, back 4,
        discard 8 (rows use ``1 << Row``)."""
        return 8 if self is Place.DISCARD else 1 << int(self.row)

    @property
    def row(self) -> Row:
        """The row (raises for the discard pile)."""
        if self is Place.DISCARD:
            raise ValueError("the discard pile is not a row")
        return Row[self.name]

    @classmethod
    def of(cls, value: str | Row | Place, *, field: Field = "place") -> Place:
        """A place from its name or a :class:`Row`; unknown names list the valid ones."""
        if isinstance(value, Place):
            return value
        if isinstance(value, Row):
            return cls[value.name]
        try:
            return cls(value.strip().lower())
        except ValueError:
            valid = ", ".join(p.value for p in cls)
            raise InvalidInputError(field, f"unknown place {value!r}; valid: {valid}") from None


ALL_PLACES = 15
"""Allowed-places mask of an unconstrained card."""


class NaturalPolicy(enum.Enum):
    """Whether the solve declares a natural (CP-11)."""

    AUTO = "auto"
    """Declare one when the (kept) cards hold it and the rules allow naturals."""
    FORCE = "force"
    """Declare one; infeasible when the rules have naturals off or no 13 cards hold one."""
    FORBID = "forbid"
    """Never declare; play rows."""

    @classmethod
    def of(cls, value: str | NaturalPolicy, *, field: Field = "natural") -> NaturalPolicy:
        """A policy from its name; unknown names list the valid ones."""
        if isinstance(value, NaturalPolicy):
            return value
        try:
            return cls(value.strip().lower())
        except ValueError:
            valid = ", ".join(p.value for p in cls)
            raise InvalidInputError(
                field, f"unknown natural policy {value!r}; valid: {valid}"
            ) from None


@dataclass(frozen=True, slots=True, order=True)
class Pin:
    """One card and one place: pinned there (``Constraints.pins``) or barred from it
    (``Constraints.forbids``)."""

    card: Card
    place: Place = field(compare=False)

    def __str__(self) -> str:
        return f"{self.card}={self.place.label}"


@dataclass(frozen=True, slots=True)
class MinHand:
    """A row must hold at least this hand: a category, a strength class on the one scale, or
    a hand (3 or 5 cards) whose strength under the solve's rules is the bound."""

    row: Row
    category: Category | None = None
    strength: int | None = None
    hand: tuple[Card, ...] | None = None

    def __post_init__(self) -> None:
        given = sum(x is not None for x in (self.category, self.strength, self.hand))
        if given != 1:
            raise InvalidInputError("minimum", "give exactly one of category, strength and hand")
        if self.strength is not None and not 0 <= self.strength < NUM_CLASSES:
            raise InvalidInputError(
                "minimum", f"strength must be 0..{NUM_CLASSES - 1}, got {self.strength}"
            )
        front = self.row is Row.FRONT
        if front and self.category is not None and self.category > Category.THREE_OF_A_KIND:
            raise InvalidInputError(
                "minimum",
                f"a front holds 3 cards and cannot be a {self.category.title} "
                "(CP-4: high card, pair or three of a kind)",
            )

    def threshold(self, poker: PokerTables) -> int:
        """The lowest strength class of this row that meets the bound.

        A category bound is the weakest hand of that category or better that the row can
        hold (fronts and five-card hands are separate classes on the one scale, CP-5).
        """
        if self.strength is not None:
            return self.strength
        if self.hand is not None:
            return evaluate(self.hand, wheel_second_highest=poker.wheel_second_highest).strength
        assert self.category is not None
        front = self.row is Row.FRONT
        ok = (poker.category >= int(self.category)) & (poker.is_front == front)
        return int(np.flatnonzero(ok)[0])

    def with_strength(self, *, wheel_second_highest: bool = False) -> MinHand:
        """The same bound with a hand given as the strength class it is under the rules'
        ``wheel`` (what :meth:`threshold` compares against); other bounds are returned as they
        are. A wire message has no hand bound, so the typed client sends this.

        >>> bound = MinHand(Row.MIDDLE, hand=parse_cards("5s 4h 3d 2c Ah"))
        >>> wheel_low = bound.with_strength().strength
        >>> wheel_high = bound.with_strength(wheel_second_highest=True).strength
        >>> wheel_low < wheel_high
        True
        """
        if self.hand is None:
            return self
        value = evaluate(self.hand, wheel_second_highest=wheel_second_highest)
        return MinHand(self.row, strength=value.strength)

    def __str__(self) -> str:
        if self.category is not None:
            bound = self.category.label
        elif self.hand is not None:
            bound = "".join(str(c) for c in self.hand)
        else:
            bound = str(self.strength)
        return f"{self.row.label}>={bound}"


@dataclass(frozen=True, slots=True)
class RowMasks:
    """Constraints as bitmasks over the positions of the sorted cards (what engines take).

    ``allowed[p]``: the places card ``p`` may go (:attr:`Place.bit`); ``required[row]``: the
    positions pinned to ``row`` (indexed by ``int(Row)``: front, middle, back);
    ``keep``: the positions that must be in some row; ``minimum[row]``: the lowest strength
    class the row may hold.
    """

    allowed: tuple[int, ...]
    required: tuple[int, int, int]
    keep: int
    minimum: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Constraints:
    """Typed, immutable constraints on one solve (see the module docstring for the text form).

    ``pins``: cards that must be in a place; ``forbids``: cards barred from a place;
    ``minimums``: per-row minimum hands; ``natural``: the natural policy.
    """

    pins: tuple[Pin, ...] = ()
    forbids: tuple[Pin, ...] = ()
    minimums: tuple[MinHand, ...] = ()
    natural: NaturalPolicy = NaturalPolicy.AUTO

    def __post_init__(self) -> None:
        # Canonical order so equal constraints compare and hash equal.
        object.__setattr__(self, "pins", _canonical_pins(self.pins))
        object.__setattr__(self, "forbids", _canonical_pins(self.forbids))
        object.__setattr__(
            self, "minimums", tuple(sorted(set(self.minimums), key=lambda m: (m.row, str(m))))
        )

    @property
    def rows_free(self) -> bool:
        """True when nothing constrains the rows (only the natural policy may be set)."""
        return not (self.pins or self.forbids or self.minimums)

    @classmethod
    def parse(cls, text: str | Iterable[str] = (), **parts: Any) -> Constraints:
        """Constraints from text items (``As=front``, ``Kd!=back``, ``front>=pair``,
        ``natural=force``), separated by commas or spaces, or given as a list.

        Keyword parts are added: ``pins`` / ``forbids`` (``As=front`` items or ``(card, place)``
        pairs), ``minimums`` (``front=pair`` or ``front>=pair`` items), ``natural``.

        >>> c = Constraints.parse(pins=["As=front"], minimums=["front=pair"], natural="force")
        >>> str(c), c.minimums[0].category
        ('As=front front>=pair natural=force', <Category.PAIR: 1>)
        """
        items = _split(text) if isinstance(text, str) else [t for s in text for t in _split(s)]
        pins: list[Pin] = []
        forbids: list[Pin] = []
        minimums: list[MinHand] = []
        natural = NaturalPolicy.AUTO
        for i, item in enumerate(items):
            where = ("constraints", i)
            if item.lower().startswith("natural="):
                natural = NaturalPolicy.of(item.split("=", 1)[1], field=where)
            elif ">=" in item:
                minimums.append(_parse_min(item, where))
            elif "!=" in item:
                forbids.append(_parse_pin(item, "!=", where))
            elif "=" in item:
                pins.append(_parse_pin(item, "=", where))
            else:
                raise InvalidInputError(
                    where,
                    f"cannot read {item!r}: use CARD=PLACE, CARD!=PLACE, ROW>=HAND "
                    "or natural=force|forbid|auto",
                )
        for i, pin in enumerate(parts.pop("pins", ()) or ()):
            pins.append(_pin_part(pin, "=", ("pins", i)))
        for i, pin in enumerate(parts.pop("forbids", ()) or ()):
            forbids.append(_pin_part(pin, "!=", ("forbids", i)))
        for i, item in enumerate(parts.pop("minimums", ()) or ()):
            if isinstance(item, MinHand):
                minimums.append(item)
            else:
                text_item = item if ">=" in item else item.replace("=", ">=", 1)
                minimums.append(_parse_min(text_item, ("minimums", i)))
        if (policy := parts.pop("natural", None)) is not None:
            natural = NaturalPolicy.of(policy)
        if parts:
            raise InvalidInputError(
                "constraints",
                f"unknown part(s) {', '.join(sorted(parts))}; valid: pins, forbids, "
                "minimums, natural",
            )
        return cls(tuple(pins), tuple(forbids), tuple(minimums), natural)

    def __str__(self) -> str:
        parts = [str(p) for p in self.pins]
        parts += [f"{p.card}!={p.place.label}" for p in self.forbids]
        parts += [str(m) for m in self.minimums]
        if self.natural is not NaturalPolicy.AUTO:
            parts.append(f"natural={self.natural.value}")
        return " ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{pins: ["As=front"], forbids: ["Kd=back"], minimums: ["front>=pair"],
        natural: "auto"}``."""
        return {
            "pins": [str(p) for p in self.pins],
            "forbids": [str(p) for p in self.forbids],
            "minimums": [str(m) for m in self.minimums],
            "natural": self.natural.value,
        }

    def masks(self, ordered: Sequence[Card], poker: PokerTables) -> RowMasks:
        """The constraints over the positions of ``ordered`` (the cards sorted by index).

        Raises :class:`InvalidInputError` for a card that is not among the cards and
        :class:`InfeasibleError` for constraints that contradict each other outright.
        """
        position = {card: p for p, card in enumerate(ordered)}
        allowed = [ALL_PLACES] * len(ordered)
        pinned: dict[Card, Place] = {}
        for group, name in ((self.pins, "pins"), (self.forbids, "forbids")):
            for pin in group:
                if pin.card not in position:
                    raise InvalidInputError(
                        f"constraints.{name}", f"{pin.card} is not among the cards ({pin})"
                    )
        for pin in self.pins:
            if pin.card in pinned and pinned[pin.card] is not pin.place:
                raise InfeasibleError(
                    f"{pin.card} is pinned to both {pinned[pin.card].label} and {pin.place.label}"
                )
            pinned[pin.card] = pin.place
            allowed[position[pin.card]] = pin.place.bit
        for pin in self.forbids:
            p = position[pin.card]
            if pinned.get(pin.card) is pin.place:
                raise InfeasibleError(
                    f"{pin.card} is both pinned to and kept out of {pin.place.label}"
                )
            allowed[p] &= ~pin.place.bit
            if allowed[p] == 0:
                raise InfeasibleError(f"{pin.card} is kept out of every row and the discard pile")
        if len(ordered) == 13:
            for p, card in enumerate(ordered):
                if not allowed[p] & 7:
                    pinned_away = pinned.get(card) is Place.DISCARD
                    why = "pinned to the discard pile" if pinned_away else "kept out of every row"
                    raise InfeasibleError(f"{card} is {why}, but with 13 cards every card plays")
        required = [0, 0, 0]
        for pin in self.pins:
            if pin.place is not Place.DISCARD:
                required[int(pin.place.row)] |= 1 << position[pin.card]
        for row in Row:
            if (n := required[int(row)].bit_count()) > row.size:
                raise InfeasibleError(
                    f"{n} cards are pinned to the {row.label}, which holds {row.size}"
                )
        minimum = [0, 0, 0]
        for m in self.minimums:
            minimum[int(m.row)] = max(minimum[int(m.row)], m.threshold(poker))
        keep = sum(1 << p for p, a in enumerate(allowed) if not a & Place.DISCARD.bit)
        if len(ordered) == 13:
            keep = (1 << 13) - 1
        return RowMasks(
            tuple(allowed),
            (required[0], required[1], required[2]),
            keep,
            (minimum[0], minimum[1], minimum[2]),
        )


def as_constraints(value: Constraints | str | Iterable[str] | None) -> Constraints:
    """``None`` -> no constraints; text or a list of items -> :meth:`Constraints.parse`."""
    if value is None:
        return _NONE
    if isinstance(value, Constraints):
        return value
    return Constraints.parse(value)


def _canonical_pins(pins: Iterable[Pin]) -> tuple[Pin, ...]:
    unique = {(p.card.index, p.place.value): p for p in pins}
    return tuple(unique[k] for k in sorted(unique))


def _split(text: str) -> list[str]:
    # Spaces around the operators are allowed ("As = front"); items are split on commas and
    # on whitespace between items.
    text = re.sub(r"\s*(!=|>=|=)\s*", r"\1", text.strip())
    return [t for t in re.split(r"[,\s]+", text) if t]


def _parse_pin(item: str, op: str, where: Field) -> Pin:
    card_text, _, place_text = item.partition(op)
    card = parse_card(card_text, field=where)
    try:
        place = Place.of(place_text, field=where)
    except InvalidInputError:
        valid = ", ".join(p.value for p in Place)
        raise InvalidInputError(
            where, f"unknown place {place_text!r} in {item!r}; valid: {valid}"
        ) from None
    return Pin(card, place)


def _pin_part(value: object, op: str, where: Field) -> Pin:
    if isinstance(value, Pin):
        return value
    if isinstance(value, str):
        return _parse_pin(value.replace("!=", "="), "=", where)
    if isinstance(value, tuple) and len(value) == 2:
        card = value[0] if isinstance(value[0], Card) else parse_card(str(value[0]), field=where)
        return Pin(card, Place.of(value[1], field=where))
    raise InvalidInputError(where, f"expected CARD{op}PLACE or (card, place), got {value!r}")


def _parse_min(item: str, where: Field) -> MinHand:
    row_text, _, bound = item.partition(">=")
    try:
        row = Row[row_text.strip().upper()]
    except KeyError:
        raise InvalidInputError(
            where, f"unknown row {row_text!r} in {item!r}; valid: front, middle, back"
        ) from None
    bound = bound.strip()
    if bound.isdigit():
        return _min_hand(row, None, int(bound), None, where)
    label = bound.lower().replace(" ", "_").replace("-", "_")
    categories = {c.label: c for c in Category}
    categories.update({"trips": Category.THREE_OF_A_KIND, "quads": Category.FOUR_OF_A_KIND})
    if label in categories:
        return _min_hand(row, categories[label], None, None, where)
    try:
        cards = parse_cards(bound, count=(3, 5), field=where)
    except InvalidInputError:
        valid = ", ".join(c.label for c in Category)
        raise InvalidInputError(
            where,
            f"cannot read the bound {bound!r} in {item!r}: give a category ({valid}), "
            "a strength class 0..7916 or a 3- or 5-card hand",
        ) from None
    return _min_hand(row, None, None, cards, where)


def _min_hand(
    row: Row,
    category: Category | None,
    strength: int | None,
    hand: tuple[Card, ...] | None,
    where: Field,
) -> MinHand:
    try:
        return MinHand(row, category, strength, hand)
    except InvalidInputError as exc:
        raise InvalidInputError(where, exc.description) from None


_NONE = Constraints()
