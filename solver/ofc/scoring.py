"""Settling an open-face table of finished boards (RULES OFC-2..OFC-5).

:func:`score` takes 2-3 (classic 2-4) finished boards, evaluates each (hands, foul, royalties
of OFC-3, the next hand's fantasyland of OFC-5) and settles every pair of seats by OFC-4:
1 unit per row won, 3 more for a scoop, plus the difference of the royalties; a fouled board
loses 6 to each opponent who did not foul and pays that opponent's royalties; two fouled boards
pay each other nothing. :func:`settle_pair` is that rule, once, over strength classes: the
table's settlement and every simulation's use it.

OFC-E1 against OFC-E2 (E2 wins the back, loses the middle and front: 1 - 2 + (33 - 29)):

>>> table = score({
...     "E1": {"back": "2s 2h 2d 2c Ks", "middle": "As Ah Ad Kh Kd", "front": "Qs Qh 3c"},
...     "E2": {"back": "9s 8s 7s 6s 5s", "middle": "Th Td Tc 3h 3d", "front": "Jc Jd 4s"},
... })
>>> table.net, [b.royalty_total for b in table.boards], [b.fantasyland for b in table.boards]
((-3, 3), [29, 33], [14, 0])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from cpsolver.chinese.scoring import foul_check
from cpsolver.evaluator.poker import HandValue, evaluate
from cpsolver.ofc.board import ROWS, Board, read_boards
from cpsolver.rules.chinese import Row
from cpsolver.rules.ofc import OfcRules

__all__ = [
    "SCOOP_BONUS",
    "BoardResult",
    "PairSettlement",
    "SeatPair",
    "TableResult",
    "evaluate_board",
    "score",
    "settle_pair",
]

SCOOP_BONUS = 3
"""OFC-4: units a player wins on top of the three rows when it wins all three."""


@dataclass(frozen=True, slots=True)
class PairSettlement:
    """One pairing as OFC-4 settles it, for its first seat: ``rows`` = +1 / 0 / -1 per row
    (back, middle, front), ``scoop`` = +3 / 0 / -3, ``royalties`` = the royalty difference
    paid, ``total`` = their sum (what the first seat wins; negative: it pays)."""

    rows: tuple[int, int, int]
    scoop: int
    royalties: int

    @property
    def total(self) -> int:
        """Units the first seat wins from the second."""
        return sum(self.rows) + self.scoop + self.royalties


def settle_pair(
    classes_a: Sequence[int],
    fouled_a: bool,
    royalties_a: int,
    classes_b: Sequence[int],
    fouled_b: bool,
    royalties_b: int,
) -> PairSettlement:
    """OFC-4 between boards a and b given as (back, middle, front) strength classes, foul
    flags and royalty totals (a fouled board's royalties are ignored: they count as 0).

    >>> settle_pair((9, 9, 1), False, 2, (5, 5, 1), False, 0)
    PairSettlement(rows=(1, 1, 0), scoop=0, royalties=2)
    >>> settle_pair((5, 5, 1), True, 30, (9, 9, 1), False, 7).total
    -13
    >>> settle_pair((5, 5, 1), True, 30, (9, 9, 1), True, 7).total
    0
    """
    if fouled_a and fouled_b:
        return PairSettlement((0, 0, 0), 0, 0)
    if fouled_a:
        return PairSettlement((-1, -1, -1), -SCOOP_BONUS, -royalties_b)
    if fouled_b:
        return PairSettlement((1, 1, 1), SCOOP_BONUS, royalties_a)
    rows = (
        _sign(classes_a[0] - classes_b[0]),
        _sign(classes_a[1] - classes_b[1]),
        _sign(classes_a[2] - classes_b[2]),
    )
    won = sum(rows)
    scoop = SCOOP_BONUS if won == 3 else -SCOOP_BONUS if won == -3 else 0
    return PairSettlement(rows, scoop, royalties_a - royalties_b)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@dataclass(frozen=True, slots=True)
class BoardResult:
    """A finished board as scored: each row's hand, the foul (and why), the royalties that count
    (OFC-3; all 0 for a fouled board, OFC-4) and the cards of the next hand's fantasyland
    (OFC-5; 0 for none)."""

    name: str
    board: Board
    hands: Mapping[Row, HandValue]
    fouled: bool
    foul_reason: str
    royalties: Mapping[Row, int]
    fantasyland: int

    @property
    def classes(self) -> tuple[int, int, int]:
        """(back, middle, front) strength classes."""
        return tuple(self.hands[row].strength for row in ROWS)  # type: ignore[return-value]

    @property
    def royalty_total(self) -> int:
        """The royalties the board collects (0 when fouled)."""
        return sum(self.royalties.values())

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``royalties`` (total), ``fouled``, ``fantasyland`` (cards, 0 if none), and
        per row its cards, hand name and royalty."""
        return {
            "royalties": self.royalty_total,
            "fouled": self.fouled,
            "foul_reason": self.foul_reason or None,
            "fantasyland": self.fantasyland,
            "in_fantasyland": self.board.in_fantasyland,
            "rows": {
                row.label: {
                    "cards": [str(c) for c in self.board.row(row)],
                    "hand": self.hands[row].name,
                    "royalty": self.royalties[row],
                }
                for row in ROWS
            },
        }


def evaluate_board(board: Board, rules: OfcRules, name: str = "") -> BoardResult:
    """Hands, foul, royalties and next fantasyland of one finished board (no input checks).

    OFC-E1 (29 royalties, valid, fantasyland with 14 cards):

    >>> from cpsolver.cards import parse_cards
    >>> e1 = Board(*map(parse_cards, ("2s 2h 2d 2c Ks", "As Ah Ad Kh Kd", "Qs Qh 3c")))
    >>> r = evaluate_board(e1, OfcRules())
    >>> r.fouled, r.royalty_total, r.fantasyland
    (False, 29, 14)
    """
    hands = {row: evaluate(board.row(row)) for row in ROWS}
    back, middle, front = (hands[row].strength for row in ROWS)
    reason = ""
    if foul_check(front, middle, back):
        if middle < front:
            reason = (
                f"the front ({hands[Row.FRONT].name}) beats the middle ({hands[Row.MIDDLE].name})"
            )
        else:
            reason = (
                f"the middle ({hands[Row.MIDDLE].name}) beats the back ({hands[Row.BACK].name})"
            )
    fouled = bool(reason)
    royalties = {row: 0 if fouled else rules.royalty(row, hands[row].strength) for row in ROWS}
    fantasyland = rules.next_fantasyland(
        back, middle, front, fouled=fouled, in_fantasyland=board.in_fantasyland
    )
    return BoardResult(
        name,
        board,
        MappingProxyType(hands),
        fouled,
        reason,
        MappingProxyType(royalties),
        fantasyland,
    )


@dataclass(frozen=True, slots=True)
class SeatPair:
    """The settlement between seats ``seats`` (numbers), figures for ``seats[0]``."""

    seats: tuple[int, int]
    settlement: PairSettlement

    @property
    def total(self) -> int:
        """Units ``seats[0]`` wins from ``seats[1]``."""
        return self.settlement.total

    def to_dict(self, names: Sequence[str]) -> dict[str, Any]:
        """``{"seats": [a, b], "rows": {"back": 1, ...}, "scoop", "royalties", "total"}``."""
        s = self.settlement
        return {
            "seats": [names[i] for i in self.seats],
            "rows": {row.label: units for row, units in zip(ROWS, s.rows, strict=True)},
            "scoop": s.scoop,
            "royalties": s.royalties,
            "total": s.total,
        }


@dataclass(frozen=True, slots=True)
class TableResult:
    """A settled OFC table: per seat (tuples indexed by seat number) the name, the board as
    scored and the net units (summing to zero); the pairings in seat order (0-1, 0-2, ...)."""

    rules: OfcRules
    seats: tuple[str, ...]
    boards: tuple[BoardResult, ...]
    pairings: tuple[SeatPair, ...]
    net: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """The CLI's JSON: ``totals`` by seat, ``players`` by seat, ``pairings``, ``rules``."""
        return {
            "rules": self.rules.to_dict(),
            "totals": dict(zip(self.seats, self.net, strict=True)),
            "players": {
                name: board.to_dict() for name, board in zip(self.seats, self.boards, strict=True)
            },
            "pairings": [p.to_dict(self.seats) for p in self.pairings],
        }


def score(
    players: Sequence[object] | Mapping[str, object],
    /,  # so that ``players=2`` is the rule option (an override), not this argument
    rules: OfcRules | str | None = "pineapple",
    **overrides: object,
) -> TableResult:
    """Settle a table of finished boards under a rule set (preset name or object) and overrides.

    ``players`` is seat by seat: a mapping of seat name to board or a sequence (seats named N,
    E, S, W). A board is ``{"back": 5 cards, "middle": 5, "front": 3}`` (text or lists of
    cards), optionally ``"fantasyland": true`` when it was set in fantasyland this hand (then
    OFC-5's stay decides its next hand), or a :class:`~cpsolver.ofc.board.Board`.

    Errors (:class:`~cpsolver.errors.InvalidInputError`) name the field: ``players.A.back[1]``
    for a bad card or one placed twice (the other place is named), ``players.A.front`` for a
    row of the wrong size, ``players`` for a table of the wrong size (2-3 seats, classic 2-4).

    >>> score({"A": {"back": "As Ks Qs Js Ts", "middle": "2c 3c 4c 5c 7d",
    ...                "front": "Ah Ad 2d"},
    ...        "B": {"back": "9h 9d 9c 2h 2s", "middle": "3h 3d 6c 7c 8c", "front": "As 4h 5h"}})
    Traceback (most recent call last):
    ...
    cpsolver.errors.CardError: players.B.front[0]: duplicate card 'As' (also players.A.back[0])
    """
    ruleset = OfcRules.resolve(rules, **overrides)
    names, boards = read_boards(players, most=ruleset.max_players, complete=True)
    results = tuple(evaluate_board(b, ruleset, n) for n, b in zip(names, boards, strict=True))
    pairings: list[SeatPair] = []
    net = [0] * len(results)
    for i, a in enumerate(results):
        for j in range(i + 1, len(results)):
            b = results[j]
            settled = settle_pair(
                a.classes, a.fouled, a.royalty_total, b.classes, b.fouled, b.royalty_total
            )
            pairings.append(SeatPair((i, j), settled))
            net[i] += settled.total
            net[j] -= settled.total
    return TableResult(ruleset, names, results, tuple(pairings), tuple(net))
