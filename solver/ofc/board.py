"""An open-face board: the cards placed in the back, middle and front (RULES OFC-1).

A :class:`Board` may be partial (during a hand: rows hold at most 5 / 5 / 3 cards) or finished
(13 cards). :func:`read_board` reads one from caller input, naming the field of any problem;
:func:`read_boards` reads a table of them and checks no card is placed twice.

>>> board = read_board({"back": "As Ks", "middle": [], "front": "Qd"})
>>> board.size, board.room, board.complete
(3, (3, 5, 2), False)
>>> read_board({"back": "As Ks Qs Js Ts 9s", "middle": [], "front": []})
Traceback (most recent call last):
...
cpsolver.errors.InvalidInputError: back: a back holds at most 5 cards (OFC-1), got 6
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cpsolver.cards import Card, duplicate_description, parse_cards
from cpsolver.chinese.deal import SEATS
from cpsolver.errors import CardError, FieldPath, InvalidInputError
from cpsolver.rules.chinese import Row

__all__ = ["ROWS", "Board", "read_board", "read_boards", "seat_entries"]

ROWS: tuple[Row, Row, Row] = (Row.BACK, Row.MIDDLE, Row.FRONT)
"""The rows in the order boards are written (back, middle, front)."""


@dataclass(frozen=True, slots=True)
class Board:
    """Cards placed per row, in the order given. ``in_fantasyland``: the board was set in
    fantasyland this hand (OFC-5: it decides staying rather than entering)."""

    back: tuple[Card, ...] = ()
    middle: tuple[Card, ...] = ()
    front: tuple[Card, ...] = ()
    in_fantasyland: bool = False

    def row(self, row: Row) -> tuple[Card, ...]:
        """The cards of ``row``."""
        return (self.front, self.middle, self.back)[row]

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every placed card: back, middle, front."""
        return self.back + self.middle + self.front

    @property
    def size(self) -> int:
        """Cards placed."""
        return len(self.back) + len(self.middle) + len(self.front)

    @property
    def room(self) -> tuple[int, int, int]:
        """Free places in (back, middle, front)."""
        return (5 - len(self.back), 5 - len(self.middle), 3 - len(self.front))

    @property
    def complete(self) -> bool:
        """True when all 13 places are filled."""
        return self.size == 13

    def placed(self, back: Sequence[Card] = (), middle: Sequence[Card] = (),
               front: Sequence[Card] = ()) -> Board:  # fmt: skip
        """This board with more cards placed (no checks: the caller placed legally)."""
        return Board(
            self.back + tuple(back),
            self.middle + tuple(middle),
            self.front + tuple(front),
            self.in_fantasyland,
        )

    def to_dict(self) -> dict[str, Any]:
        """``{"back": [...], "middle": [...], "front": [...]}`` (card strings)."""
        return {row.label: [str(c) for c in self.row(row)] for row in ROWS}


def read_board(spec: object, base: FieldPath = (), *, complete: bool = False) -> Board:
    """A board from a mapping ``{"back", "middle", "front"[, "fantasyland"]}`` (rows as text or
    lists of cards), a :class:`Board`, or a sequence ``(back, middle, front)``. ``complete``
    asks for exactly 5 / 5 / 3 cards. Errors name the field under ``base`` (``back[2]``).
    Duplicates inside the board are reported; across boards :func:`read_boards` checks them.
    """
    if isinstance(spec, Board):
        spec = {**spec.to_dict(), "fantasyland": spec.in_fantasyland}
    if isinstance(spec, Sequence) and not isinstance(spec, (str, bytes)) and len(spec) == 3:
        spec = dict(zip(("back", "middle", "front"), spec, strict=True))
    if not isinstance(spec, Mapping):
        raise InvalidInputError(
            base, 'expected a board {"back": [...], "middle": [...], "front": [...]}'
        )
    unknown = sorted(str(k) for k in spec if k not in ("back", "middle", "front", "fantasyland"))
    if unknown:
        raise InvalidInputError(
            (*base, unknown[0]), "unknown field; valid fields: back, middle, front, fantasyland"
        )
    flag = spec.get("fantasyland", False)
    if not isinstance(flag, bool):
        raise InvalidInputError((*base, "fantasyland"), f"expected true or false, got {flag!r}")
    rows: dict[Row, tuple[Card, ...]] = {}
    for row in ROWS:
        field = (*base, row.label)
        if row.label not in spec:
            if complete:
                raise InvalidInputError(field, "missing row")
            rows[row] = ()
            continue
        raw = spec[row.label]
        if raw is None and not complete:
            rows[row] = ()
            continue
        if not (isinstance(raw, str) or (isinstance(raw, Sequence) and not isinstance(raw, bytes))):
            kind = "null" if raw is None else type(raw).__name__
            raise InvalidInputError(
                field, f"expected the row's cards as a list or a string, got {kind}"
            )
        cards = parse_cards(raw, count=row.size if complete else None, field=field)
        if len(cards) > row.size:
            raise InvalidInputError(
                field, f"a {row.label} holds at most {row.size} cards (OFC-1), got {len(cards)}"
            )
        rows[row] = cards
    board = Board(rows[Row.BACK], rows[Row.MIDDLE], rows[Row.FRONT], flag)
    _check_unique([(board, base)])
    return board


def seat_entries(players: object, *, most: int) -> tuple[tuple[str, FieldPath, object], ...]:
    """``(name, path, spec)`` seat by seat for a sequence (named N, E, S, W; path
    ``players[i]``) or a mapping of seat name (path ``players.NAME``), 2 to ``most`` seats."""
    is_list = isinstance(players, Sequence) and not isinstance(players, (str, bytes))
    if not (is_list or isinstance(players, Mapping)):
        raise InvalidInputError(
            "players", "expected the boards seat by seat: a list, or a mapping of seat name"
        )
    assert isinstance(players, (Sequence, Mapping))
    if not 2 <= len(players) <= most:
        raise InvalidInputError(
            "players", f"a table has 2 to {most} players (OFC-1), got {len(players)}"
        )
    if isinstance(players, Mapping):
        for name in players:
            if not isinstance(name, str) or not name:
                raise InvalidInputError(
                    "players", f"seat names must be non-empty text, got {name!r}"
                )
        return tuple((name, ("players", name), spec) for name, spec in players.items())
    return tuple((SEATS[i], ("players", i), spec) for i, spec in enumerate(players))


def read_boards(
    players: object, *, most: int, complete: bool
) -> tuple[tuple[str, ...], tuple[Board, ...]]:
    """Seat names and boards of a table (see :func:`seat_entries`), no card placed twice."""
    entries = seat_entries(players, most=most)
    boards = tuple(read_board(spec, path, complete=complete) for _, path, spec in entries)
    _check_unique(list(zip(boards, (path for _, path, _ in entries), strict=True)))
    return tuple(name for name, _, _ in entries), boards


def _check_unique(boards: Sequence[tuple[Board, FieldPath]]) -> None:
    seen: dict[Card, FieldPath] = {}
    for board, base in boards:
        for row in ROWS:
            for i, card in enumerate(board.row(row)):
                where = (*base, row.label, i)
                if card in seen:
                    raise CardError(
                        where,
                        duplicate_description(card, seen[card]),
                        token=str(card),
                        position=i,
                    )
                seen[card] = where
