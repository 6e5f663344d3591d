"""A player's decision in open-face Chinese poker (RULES OFC-1): the street, the cards in hand,
the player's board, the opponents' visible boards and the cards known dead; and the legal
placements of the hand.

:func:`read_position` reads one from caller input and checks it whole, every problem named by
its field (``hand[2]``, ``board.front``, ``opponents[1].back[0]``, ``street``): a card given
twice anywhere, a row over capacity, a street that does not match the board, a hand of the
wrong size, an opponent's board no street ends with, more cards to deal than the deck holds.

>>> pos = read_position({"street": 2, "hand": "As Ad 7c",
...     "board": {"back": "Ks Kd 4c", "middle": "9h 8h", "front": []},
...     "opponents": [{"back": "2c 2d", "middle": "Jc", "front": "Qc Qd"}], "dead": []})
>>> pos.street, pos.board.size, len(legal_placements(pos))
(2, 5, 27)
>>> read_position({"street": 3, "hand": "As Ad 7c", "board": {"back": "Ks"}, "opponents": [{}]})
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cpsolver.errors.InvalidInputError: street: street 3 comes after 7 cards placed (OFC-1), the ...
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cpsolver.cards import Card, duplicate_description, parse_cards
from cpsolver.errors import CardError, FieldPath, InvalidInputError, Violations
from cpsolver.ofc.board import ROWS, Board, read_board
from cpsolver.rules.chinese import Row
from cpsolver.rules.ofc import OfcRules

__all__ = [
    "Placement",
    "Position",
    "legal_placements",
    "read_position",
    "remaining_streets",
]

_FIELDS = ("rules", "street", "hand", "board", "opponents", "dead")


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a hand's cards go: the cards added to each row (ascending card order) and the
    cards discarded (pineapple: one from street 2 on)."""

    back: tuple[Card, ...] = ()
    middle: tuple[Card, ...] = ()
    front: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()

    def row(self, row: Row) -> tuple[Card, ...]:
        """The cards added to ``row``."""
        return (self.front, self.middle, self.back)[row]

    def on(self, board: Board) -> Board:
        """``board`` with this placement made."""
        return board.placed(self.back, self.middle, self.front)

    def to_dict(self) -> dict[str, Any]:
        """``{"back": [...], "middle": [...], "front": [...]}`` (card strings; the discard
        apart)."""
        return {row.label: [str(c) for c in self.row(row)] for row in ROWS}

    def __str__(self) -> str:
        parts = [
            f"{row.label} {' '.join(map(str, self.row(row)))}" for row in ROWS if self.row(row)
        ]
        if self.discard:
            parts.append(f"discard {' '.join(map(str, self.discard))}")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Position:
    """A decision: ``street`` (from 1), ``hand`` (the cards dealt this street), ``board`` (the
    player's), ``opponents`` (their boards as seen: partial or complete), ``dead`` (cards out
    of play the player knows of: its own discards, any other seen), under ``rules``."""

    rules: OfcRules
    street: int
    hand: tuple[Card, ...]
    board: Board
    opponents: tuple[Board, ...]
    dead: tuple[Card, ...] = ()

    @property
    def keep(self) -> int:
        """Cards of the hand placed this street (OFC-1)."""
        return self.rules.kept[self.street - 1]

    @property
    def last(self) -> bool:
        """True when this placement completes the board (nothing is left to deal to it)."""
        return self.board.size + self.keep == 13

    def unseen(self) -> tuple[Card, ...]:
        """The cards the player has not seen, in index order: what is left to deal."""
        seen = {*self.hand, *self.board.cards, *self.dead}
        for b in self.opponents:
            seen.update(b.cards)
        return tuple(Card.from_index(i) for i in range(52) if Card.from_index(i) not in seen)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form :func:`read_position` reads."""
        return {
            "rules": self.rules.to_dict(),
            "street": self.street,
            "hand": [str(c) for c in self.hand],
            "board": self.board.to_dict(),
            "opponents": [b.to_dict() for b in self.opponents],
            "dead": [str(c) for c in self.dead],
        }


def remaining_streets(rules: OfcRules, placed: int) -> tuple[int, ...]:
    """The cards a board holding ``placed`` cards is still dealt, street by street (OFC-1),
    or raise ``ValueError`` when no street ends with that many placed.

    >>> remaining_streets(OfcRules(), 0), remaining_streets(OfcRules(), 9)
    ((5, 3, 3, 3, 3), (3, 3))
    >>> remaining_streets(OfcRules.preset("classic"), 12)
    (1,)
    """
    done = 0
    for street, kept in enumerate(rules.kept):
        if done == placed:
            return rules.streets[street:]
        done += kept
    if done == placed:
        return ()
    raise ValueError(placed)


def _board_sizes(rules: OfcRules) -> str:
    sizes = list(itertools.accumulate((0, *rules.kept)))
    return ", ".join(map(str, sizes))


def read_position(
    spec: Mapping[str, object] | Position,
    rules: OfcRules | str | None = None,
    **overrides: object,
) -> Position:
    """A position from a mapping ``{"street", "hand", "board", "opponents", "dead"}`` (the
    CLI's STATE.json; ``"rules"``: a preset name or the options as :meth:`Position.to_dict`
    writes them, used when ``rules`` is None), every problem
    reported at once (:class:`~cpsolver.errors.InvalidInputError`)."""
    if isinstance(spec, Position):
        spec = spec.to_dict() | {"rules": spec.rules}
    if not isinstance(spec, Mapping):
        raise InvalidInputError(
            (), 'expected a position {"street", "hand", "board", "opponents", "dead"}'
        )
    unknown = sorted(str(k) for k in spec if k not in _FIELDS)
    if unknown:
        raise InvalidInputError(unknown[0], f"unknown field; valid fields: {', '.join(_FIELDS)}")
    if rules is None and "rules" in spec:
        given = spec["rules"]
        if isinstance(given, Mapping):  # the options, as Position.to_dict writes them
            given = OfcRules().replace(**{str(k): v for k, v in given.items()})
        if not isinstance(given, (str, OfcRules)):
            raise InvalidInputError(
                "rules", f"expected a preset name or a mapping of options, got {given!r}"
            )
        rules = given
    ruleset = OfcRules.resolve(rules, **overrides)
    found = Violations()
    street = spec.get("street")
    street_ok = False
    with found.check():
        if isinstance(street, bool) or not isinstance(street, int):
            raise InvalidInputError("street", f"expected a street number, got {street!r}")
        if not 1 <= street <= len(ruleset.streets):
            raise InvalidInputError(
                "street",
                f"{ruleset.variant.value} has streets 1 to {len(ruleset.streets)} (OFC-1), "
                f"got {street}",
            )
        street_ok = True
    hand: tuple[Card, ...] = ()
    with found.check():
        count = ruleset.streets[street - 1] if street_ok else None  # type: ignore[operator]
        hand = parse_cards(spec.get("hand", ()), count=count, field="hand")  # type: ignore[arg-type]
    board = Board()
    board_ok = False
    with found.check():
        board = read_board(spec.get("board", {}), ("board",))
        if board.in_fantasyland:
            raise InvalidInputError(
                ("board", "fantasyland"),
                "a fantasyland hand is set at once: use fantasyland(), not street advice",
            )
        board_ok = True
    opponents: list[Board] = []
    with found.check():
        raw = spec.get("opponents", ())
        if not isinstance(raw, Sequence) or isinstance(raw, (str, bytes)):
            raise InvalidInputError("opponents", "expected a list of boards")
        if not 1 <= len(raw) <= ruleset.max_players - 1:
            raise InvalidInputError(
                "opponents",
                f"{ruleset.variant.value} has 1 to {ruleset.max_players - 1} opponents "
                f"(OFC-1), got {len(raw)}",
            )
        for i, other in enumerate(raw):
            with found.check():
                b = read_board(other, ("opponents", i))
                if b.in_fantasyland:
                    raise InvalidInputError(
                        ("opponents", i, "fantasyland"),
                        "an opponent in fantasyland sets face down: leave its board out",
                    )
                try:
                    remaining_streets(ruleset, b.size)
                except ValueError:
                    raise InvalidInputError(
                        ("opponents", i),
                        f"{b.size} card{'' if b.size == 1 else 's'} placed: no street ends "
                        f"there (OFC-1: {_board_sizes(ruleset)})",
                    ) from None
                opponents.append(b)
    dead: tuple[Card, ...] = ()
    with found.check():
        dead = parse_cards(spec.get("dead", ()), field="dead")  # type: ignore[arg-type]
    if street_ok and board_ok:
        with found.check():
            expected = sum(ruleset.kept[: street - 1])  # type: ignore[operator, arg-type]
            if board.size != expected:
                raise InvalidInputError(
                    "street",
                    f"street {street} comes after {expected} cards placed (OFC-1), the board "
                    f"holds {board.size}",
                )
    found.raise_any()
    _check_unique(hand, board, opponents, dead)
    position = Position(ruleset, street, hand, board, tuple(opponents), dead)  # type: ignore[arg-type]
    _check_deck(position)
    return position


def _check_unique(
    hand: Sequence[Card], board: Board, opponents: Sequence[Board], dead: Sequence[Card]
) -> None:
    seen: dict[Card, FieldPath] = {}
    places: list[tuple[FieldPath, Card]] = [(("hand", i), c) for i, c in enumerate(hand)]
    for base, b in [(("board",), board), *((("opponents", i), o) for i, o in enumerate(opponents))]:
        for row in ROWS:
            places.extend(((*base, row.label, i), c) for i, c in enumerate(b.row(row)))
    places.extend((("dead", i), c) for i, c in enumerate(dead))
    for where, card in places:
        if card in seen:
            raise CardError(
                where,
                duplicate_description(card, seen[card]),
                token=str(card),
                position=int(where[-1]),
            )
        seen[card] = where


def _check_deck(position: Position) -> None:
    """Enough unseen cards for every street still to deal (opponents' past discards, never
    seen, are counted out of the deck)."""
    rules = position.rules
    own = remaining_streets(rules, position.board.size + position.keep)
    need = sum(own)
    hidden_discards = 0
    for b in position.opponents:
        streets = remaining_streets(rules, b.size)
        need += sum(streets)
        dealt = sum(rules.streets) - sum(streets)
        hidden_discards += dealt - b.size
    unseen = len(position.unseen())
    if need + hidden_discards > unseen:
        # The discards are named apart from the unseen count: subtracted from it, they made
        # it negative ("only -4 are left unseen") when every card was given.
        discards = (
            f" and the opponents discarded {hidden_discards} face down (OFC-1)"
            if hidden_discards
            else ""
        )
        raise InvalidInputError(
            "dead",
            f"{need} cards are still to be dealt{discards}, but only {unseen} are left "
            "unseen: too many cards given",
        )


def legal_placements(position: Position) -> tuple[Placement, ...]:
    """Every legal placement of the hand (OFC-1: the kept cards into rows with room, the rest
    discarded), in a fixed order: by discard, then by rows (back before middle before front)."""
    keep = position.keep
    room = position.board.room
    hand = sorted(position.hand, key=lambda c: c.index)
    out: list[Placement] = []
    for kept in itertools.combinations(hand, keep):
        discard = tuple(c for c in hand if c not in kept)
        for rows in itertools.product(range(3), repeat=keep):
            if any(rows.count(r) > room[r] for r in range(3)):
                continue
            back = tuple(c for c, r in zip(kept, rows, strict=True) if r == 0)
            middle = tuple(c for c, r in zip(kept, rows, strict=True) if r == 1)
            front = tuple(c for c, r in zip(kept, rows, strict=True) if r == 2)
            out.append(Placement(back, middle, front, discard))
    return tuple(out)
