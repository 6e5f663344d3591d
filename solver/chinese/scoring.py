"""Settling a Chinese poker table, RULES CP-7..CP-11, under every option of the rule set.

Two layers:

* :func:`score` takes 2 to 4 players, seat by seat (a sequence: seat ``i`` is item ``i``, named
  N, E, S, W; or a mapping whose names label the seats in its order), each with rows (back,
  middle, front) or a declared natural, checks the input, detects fouls (CP-6 under ``order``
  and ``wheel``) and returns an immutable :class:`TableResult`. As in Chlust and Three Leaves,
  seats are numbers 0..n-1 and per-seat values are tuples indexed by seat: ``net`` (units won,
  summing to zero), ``players`` (each seat as scored), ``seats`` (their names); per pairing
  (seat numbers), each row's outcome and units, the CP-9 bonus, notes on fouls and naturals, and
  the total.
* :func:`settle_pair` is the allocation-light settlement of one pairing from strength classes,
  foul flags and natural codes, for code that settles many thousands of pairings (rollouts).

The table's size comes from the input (2, 3 or 4 seats); the rule set's ``players`` option is
the table size the *solver* assumes and is not checked here (docs/RULES-CHOICES.md).

CP-E6 (A wins the front with trips, B the middle with a full house and the back with a
straight flush):

>>> table = score([
...     {"front": "8s 8h 8d", "middle": "4c 4d 4h Ks Kd", "back": "Qs Qh Qd Qc 2c"},
...     {"front": "As Ah 3c", "middle": "9s 9h 9c 7h 7c", "back": "3s 4s 5s 6s 7s"},
... ])
>>> table.net, table.seats
((-4, 4), ('N', 'E'))
>>> [(r.row.label, r.outcome.value, r.units, r.winner) for r in table.pairings[0].rows]
[('back', 'loss', -5, 1), ('middle', 'loss', -2, 1), ('front', 'win', 3, 0)]
>>> score(table.inputs, royalty_mode="add").net
(-5, 5)

Named seats (the CLI's and the wire's form) label the same seats:

>>> named = score({"A": table.inputs[0], "B": table.inputs[1]})
>>> named.seats, named.net, named.pairings[0].seats
(('A', 'B'), (-4, 4), (0, 1))
"""

from __future__ import annotations

import enum
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from types import MappingProxyType
from typing import Any, NoReturn

from cpsolver.cards import Card, duplicate_description, parse_cards, readable_cards
from cpsolver.chinese.deal import SEATS
from cpsolver.chinese.naturals import Natural, detect_natural, detect_naturals
from cpsolver.errors import CardError, Field, FieldPath, InvalidInputError, Violations
from cpsolver.evaluator.poker import Category, HandValue, evaluate, poker_tables
from cpsolver.rules.chinese import (
    CP11_NATURALS,
    BonusPaid,
    ChineseRules,
    Declare,
    Foul,
    NaturalTies,
    Row,
    Scoring,
    Sweep,
)

__all__ = [
    "NATURAL_UNITS",
    "SCORING_CODES",
    "SCORING_PER_ROW",
    "SCORING_SCOOP_BONUS",
    "SCORING_SCOOP_DOUBLE",
    "SCORING_TWO_FOUR",
    "Outcome",
    "PairTerms",
    "Pairing",
    "RowOutcome",
    "Seat",
    "SettledBy",
    "TableResult",
    "check_arrangement",
    "foul_check",
    "pair_terms",
    "read_seat",
    "read_seats",
    "row_value_table",
    "score",
    "seat_entries",
    "settle",
    "settle_pair",
    "sweep_table",
]

# -- the fast layer ------------------------------------------------------------------------

SCORING_PER_ROW = 0
SCORING_TWO_FOUR = 1
SCORING_SCOOP_DOUBLE = 2
SCORING_SCOOP_BONUS = 3
SCORING_CODES: Mapping[Scoring, int] = MappingProxyType(
    {
        Scoring.PER_ROW: SCORING_PER_ROW,
        Scoring.TWO_FOUR: SCORING_TWO_FOUR,
        Scoring.SCOOP_DOUBLE: SCORING_SCOOP_DOUBLE,
        Scoring.SCOOP_BONUS: SCORING_SCOOP_BONUS,
    }
)
"""Integer code of each CP-9 / CP-13 ``scoring`` option, as :func:`settle_pair` takes it."""

NATURAL_UNITS: tuple[int, ...] = (0, *(units for _, units in CP11_NATURALS))
"""Units of a CP-11 natural by its code: 0 = none, then the CP-11 rank (1 = dragon .. 4 = six
pairs); a rule set's own are :attr:`ChineseRules.natural_units`."""

RowValues = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class PairTerms:
    """Everything the settlement of one pairing reads from a rule set (:func:`pair_terms`),
    as plain integers and per-class tables: what :func:`settle` takes.

    ``values[row][cls]`` is what a won row collects (CP-8, CP-12; 1 under
    ``bonus_paid=always``); ``always[row][cls]`` the bonus a row's holder collects whatever the
    row's result (``bonus_paid=always``; None under ``on_win``); ``scoring`` a code of
    :data:`SCORING_CODES` with ``scoop_bonus`` its N; ``foul_units`` the N of ``foul=fixed:N``
    (None under ``scooped``); ``natural_units[code]`` the units of the rule set's natural
    ``code`` (1 = the highest listed, 0 = none); ``difference`` for ``natural_ties=
    difference``; ``naturals_scooped`` and ``sweep`` (CP-13) as in the rule set.
    """

    values: RowValues
    always: RowValues | None = None
    scoring: int = SCORING_PER_ROW
    scoop_bonus: int = 0
    foul_units: int | None = None
    natural_units: tuple[int, ...] = NATURAL_UNITS
    difference: bool = False
    naturals_scooped: bool = False
    sweep: bool = False


def pair_terms(rules: ChineseRules) -> PairTerms:
    """The :class:`PairTerms` of a rule set (cached per rule set).

    >>> terms = pair_terms(ChineseRules.preset("maubinh"))
    >>> terms.foul_units, terms.natural_units, terms.sweep
    (6, (0, 24, 12, 3, 3, 3, 3), True)
    """
    return _pair_terms(rules)


@cache
def _pair_terms(rules: ChineseRules) -> PairTerms:
    always = None
    if rules.bonus_paid is BonusPaid.ALWAYS:
        always = _class_table(rules, rules.bonus_always)
    return PairTerms(
        row_value_table(rules),
        always,
        SCORING_CODES[rules.scoring],
        rules.scoop_bonus,
        rules.foul_units if rules.foul is Foul.FIXED else None,
        rules.natural_units,
        rules.natural_ties is NaturalTies.DIFFERENCE,
        rules.naturals_scooped,
        rules.sweep is Sweep.DOUBLE,
    )


def row_value_table(rules: ChineseRules) -> RowValues:
    """``values[row][cls]``: units a row collects when it wins (CP-8, CP-12), per strength class.

    Indexed by :class:`~cpsolver.rules.chinese.Row` (front 0, middle 1, back 2) and by strength
    class on the scale of ``rules.wheel`` (0 .. 7916). Built once per bonus table, royalty
    mode, ``bonus_paid`` and wheel, then shared.

    >>> from cpsolver.evaluator.poker import strength
    >>> from cpsolver.cards import parse_cards
    >>> values = row_value_table(ChineseRules())
    >>> values[Row.MIDDLE][strength(parse_cards("9s 9h 9c 7h 7c"))]
    2
    """
    # Only what a row's value depends on makes the cache key: 432 rule sets share 10 tables.
    basis = ChineseRules(
        wheel=rules.wheel,
        royalties=rules.royalties,
        royalty_mode=rules.royalty_mode,
        bonus_paid=rules.bonus_paid,
        royalty_table=rules.royalty_table,
    )
    return _value_table(basis)


@cache
def _value_table(rules: ChineseRules) -> RowValues:
    return _class_table(rules, rules.row_value)


def _class_table(rules: ChineseRules, unit: Any) -> RowValues:
    tables = poker_tables(rules.wheel_second_highest)
    kinds = list(zip(tables.category.tolist(), tables.is_royal.tolist(), strict=True))
    rows = []
    for row in (Row.FRONT, Row.MIDDLE, Row.BACK):
        # A row's units depend on the class's category and royalness alone: ~20 calls of
        # ``unit`` per row instead of 7,917 (40 ms of a rule file's first solve).
        units = {k: unit(row, Category(k[0]), royal=bool(k[1])) for k in set(kinds)}
        rows.append(tuple(units[k] for k in kinds))
    front, middle, back = rows
    return front, middle, back


def foul_check(front: int, middle: int, back: int, *, strict: bool = False) -> bool:
    """True when rows with these strength classes foul (CP-6): back >= middle >= front fails,
    or, under ``order=strict`` (``strict=True``), back equals middle.

    >>> foul_check(10, 20, 30), foul_check(10, 30, 20), foul_check(10, 30, 30, strict=True)
    (False, True, True)
    """
    return middle < front or back < middle or (strict and back == middle)


def settle(
    rows_a: Sequence[int],
    rows_b: Sequence[int],
    terms: PairTerms,
    foul_a: bool = False,
    foul_b: bool = False,
    natural_a: int = 0,
    natural_b: int = 0,
) -> tuple[int, int, int]:
    """One pairing settled in the order of CP-17: ``(units, before, scoop)`` where ``units``
    is what player A wins from B after the scoop rule (before the sweep, a table's matter:
    :func:`sweep_table`), ``before`` the amount before the scoop rule and ``scoop`` 1 when A
    scooped B, -1 when B scooped A, 0 otherwise (CP-17 says which pairings are scoops).

    ``rows_a``/``rows_b`` are strength classes of (front, middle, back) on the rule set's
    wheel scale, ``natural_a``/``natural_b`` declared natural codes (the rank in the rule set's
    list, 0 = none). Pure integer work: call it in a loop.

    CP-E13's pairing under ``shisanshui`` (N wins every row, no row bonus): 3, doubled by the
    scoop to 6; under ``maubinh`` a foul pays 6 and is no scoop (CP-E14):

    >>> shisanshui = pair_terms(ChineseRules.preset("shisanshui"))
    >>> settle((20, 2000, 3000), (10, 1000, 2500), shisanshui)
    (6, 3, 1)
    >>> settle((20, 2000, 3000), (10, 1000, 2500), pair_terms(ChineseRules.preset("maubinh")),
    ...        foul_b=True)
    (6, 6, 0)
    """
    units = terms.natural_units
    if natural_a or natural_b:
        # CP-11 / CP-15: no rows compared; the higher natural (the smaller code) collects.
        if natural_a and natural_b:
            if natural_a == natural_b:
                return 0, 0, 0
            if natural_a < natural_b:
                amount = units[natural_a] - (units[natural_b] if terms.difference else 0)
                winner = 1
            else:
                amount = -(units[natural_b] - (units[natural_a] if terms.difference else 0))
                winner = -1
        elif natural_a:
            amount, winner = units[natural_a], 1
        else:
            amount, winner = -units[natural_b], -1
        if not terms.naturals_scooped:
            return amount, amount, 0
        return _scoop_rule(amount, winner, winner, terms), amount, winner
    if foul_a and foul_b:
        return 0, 0, 0
    values = terms.values
    always = terms.always
    if foul_a or foul_b:
        if terms.foul_units is not None:  # CP-14 fixed:N: N, nothing else, no scoop
            fixed = terms.foul_units if foul_b else -terms.foul_units
            return fixed, fixed, 0
        # CP-10: the fouled side loses all three rows at the other side's row values, and
        # (bonus_paid=always) pays the other side's bonuses, earning none.
        rows, sign = (rows_a, 1) if foul_b else (rows_b, -1)
        net = values[0][rows[0]] + values[1][rows[1]] + values[2][rows[2]]
        if always is not None:
            net += always[0][rows[0]] + always[1][rows[1]] + always[2][rows[2]]
        net *= sign
        return _scoop_rule(net, sign, sign, terms), net, sign
    won = lost = 0
    net = 0
    for r in (0, 1, 2):
        a = rows_a[r]
        b = rows_b[r]
        if a > b:
            won += 1
            net += values[r][a]
        elif b > a:
            lost += 1
            net -= values[r][b]
    if always is not None:
        net += always[0][rows_a[0]] + always[1][rows_a[1]] + always[2][rows_a[2]]
        net -= always[0][rows_b[0]] + always[1][rows_b[1]] + always[2][rows_b[2]]
    scoop = 1 if won == 3 else (-1 if lost == 3 else 0)
    majority = 1 if won > lost else (-1 if lost > won else 0)
    return _scoop_rule(net, scoop, majority, terms), net, scoop


def _scoop_rule(net: int, scoop: int, majority: int, terms: PairTerms) -> int:
    """CP-9 / CP-13 on a pairing's whole amount: ``scoop`` says who scooped (1 A, -1 B, 0
    nobody), ``majority`` who won more rows (``two_four``)."""
    scoring = terms.scoring
    if scoring == SCORING_SCOOP_DOUBLE:
        return 2 * net if scoop else net
    if scoring == SCORING_SCOOP_BONUS:
        return net + scoop * terms.scoop_bonus
    if scoring == SCORING_TWO_FOUR:
        return net + majority
    return net


def sweep_table(amounts: Sequence[Sequence[int]], scoops: Sequence[Sequence[int]]) -> int | None:
    """CP-13's sweep: the seat that scooped every other seat at a table of 3 or 4
    (``scoops[a][b]`` 1 when seat ``a`` scooped seat ``b``), or None. ``amounts`` is unused
    but for its size (the seats).

    >>> sweep_table([[0, 0, 0]] * 3, [[0, 1, 1], [0, 0, 0], [0, 1, 0]])
    0
    >>> print(sweep_table([[0, 0]] * 2, [[0, 1], [0, 0]]))
    None
    """
    count = len(amounts)
    if count < 3:
        return None
    for a in range(count):
        if all(scoops[a][b] == 1 for b in range(count) if b != a):
            return a
    return None


def settle_pair(
    rows_a: Sequence[int],
    rows_b: Sequence[int],
    values: RowValues | PairTerms,
    scoring: int = SCORING_PER_ROW,
    foul_a: bool = False,
    foul_b: bool = False,
    natural_a: int = 0,
    natural_b: int = 0,
) -> int:
    """Units player A wins from player B in one pairing (negative when A pays), CP-7..CP-17,
    before a table's sweep.

    ``values`` is the rule set's :func:`pair_terms` (then ``scoring`` is ignored), or, the
    form of RULES §2.1-2.2, :func:`row_value_table` with ``scoring`` a code from
    :data:`SCORING_CODES` and CP-11's naturals. ``rows_a``/``rows_b`` are the strength classes
    of (front, middle, back), on the scale of the rule set's ``wheel`` (ignored for a fouled or
    natural hand); ``foul_a``/``foul_b`` the CP-6 foul flags (see :func:`foul_check`);
    ``natural_a`` and ``natural_b`` the declared natural's rank in the rule set's list (CP-11:
    1 = dragon .. 4 = six pairs, 0 = none; pass 0 under ``naturals=off``).

    >>> values = row_value_table(ChineseRules())
    >>> settle_pair((10, 20, 30), (11, 21, 31), values, foul_a=True)  # CP-10: A pays 3 rows
    -3
    >>> settle_pair((10, 20, 30), (11, 21, 31), values, SCORING_TWO_FOUR, foul_a=True)
    -4
    >>> settle_pair((0, 0, 0), (0, 0, 0), values, natural_a=4, natural_b=1)  # dragon wins
    -13
    """
    terms = values if isinstance(values, PairTerms) else _legacy_terms(values, scoring)
    return settle(rows_a, rows_b, terms, foul_a, foul_b, natural_a, natural_b)[0]


# By the identity of the values table (hashing 3 x 7917 integers per call would cost more than
# the settlement); the table is kept alive beside its terms.
_LEGACY_TERMS: dict[tuple[int, int], tuple[RowValues, PairTerms]] = {}


def _legacy_terms(values: RowValues, scoring: int) -> PairTerms:
    found = _LEGACY_TERMS.get((id(values), scoring))
    if found is None or found[0] is not values:
        found = _LEGACY_TERMS[(id(values), scoring)] = (values, PairTerms(values, scoring=scoring))
    return found[1]


# -- the table layer -----------------------------------------------------------------------

_ROWS = (Row.BACK, Row.MIDDLE, Row.FRONT)  # comparison and display order (CP-7)


class Outcome(enum.StrEnum):
    """A row's outcome for the first seat of a pairing."""

    WIN = "win"
    TIE = "tie"
    LOSS = "loss"


class SettledBy(enum.StrEnum):
    """How a pairing was settled."""

    ROWS = "rows"  # rows compared (CP-7..CP-9)
    FOUL = "foul"  # one side fouled and loses every row (CP-10)
    BOTH_FOULED = "both_fouled"  # both fouled: nothing paid (CP-10)
    NATURAL = "natural"  # a declared natural, no rows compared (CP-11)


@dataclass(frozen=True, slots=True)
class Seat:
    """One player as scored: rows and their hands, or a declared natural.

    ``available_natural`` is the highest natural the 13 cards qualify for when the player did
    not declare one (declaring is the player's choice, CP-11; None under ``naturals=off``).
    ``foul_reason`` says which comparison of CP-6 failed (empty when valid). ``royalties`` is
    the royalty (CP-8) each row earns if it wins, under the rules the seat was read with (None
    for a declared natural).
    """

    name: str
    cards: tuple[Card, ...]
    rows: Mapping[Row, tuple[Card, ...]] | None
    hands: Mapping[Row, HandValue] | None
    fouled: bool
    foul_reason: str
    natural: Natural | None
    available_natural: Natural | None
    royalties: Mapping[Row, int] | None = None

    @property
    def royalty_total(self) -> int:
        """The royalty units the rows earn together if each wins: 0 for a fouled arrangement
        (its rows earn no royalties, CP-6) and for a declared natural (no rows, CP-11).

        >>> check_arrangement("As Ks Qs Js Ts", "9h 9d 9c 2h 2d", "7c 5d 3s").royalty_total
        7
        >>> check_arrangement("9h 9d 9c 2h 2d", "As Ks Qs Js Ts", "7c 5d 3s").royalty_total
        0
        """
        if self.fouled or self.royalties is None:
            return 0
        return sum(self.royalties.values())

    def to_dict(self) -> dict[str, Any]:
        """JSON form: rows with hand names (or null), fouled, the natural and its availability."""
        rows = None
        if self.rows is not None and self.hands is not None:
            rows = {
                row.label: {
                    "cards": [str(c) for c in self.rows[row]],
                    "hand": self.hands[row].name,
                    "category": self.hands[row].category.label,
                    "strength": self.hands[row].strength,
                }
                for row in _ROWS
            }
        return {
            "rows": rows,
            "fouled": self.fouled,
            "foul_reason": self.foul_reason or None,
            "natural": self.natural.to_dict() if self.natural else None,
            "available_natural": (
                self.available_natural.to_dict() if self.available_natural else None
            ),
        }


@dataclass(frozen=True, slots=True)
class RowOutcome:
    """One row of a pairing: outcome and units for the pairing's first seat (signed); the
    ``winner`` is a seat number (None for a tie)."""

    row: Row
    outcome: Outcome
    units: int
    winner: int | None

    def to_dict(self, names: Sequence[str]) -> dict[str, Any]:
        """``{"outcome": "win"|"tie"|"loss", "winner": seat name|null, "units": n}``."""
        winner = None if self.winner is None else names[self.winner]
        return {"outcome": self.outcome.value, "winner": winner, "units": self.units}


@dataclass(frozen=True, slots=True)
class Pairing:
    """The settlement between two seats (seat numbers); every figure is for ``seats[0]``
    (negative: it pays).

    ``rows`` holds back, middle and front (empty when a natural settles the pairing or both
    sides fouled); ``row_bonus`` the row bonuses paid whatever the rows' results
    (``bonus_paid=always``, CP-12); ``bonus`` is the scoop rule's bonus (CP-9, CP-13: the
    doubling under ``scoop_double``, the majority unit under ``two_four``, N under
    ``scoop_bonus:N``); ``sweep`` what the sweep added (CP-13); ``total`` = row units +
    row_bonus + bonus + sweep (a foul under ``foul=fixed:N``: its N, CP-14).
    """

    seats: tuple[int, int]
    settled_by: SettledBy
    rows: tuple[RowOutcome, ...]
    bonus: int
    total: int
    notes: tuple[str, ...]
    sweep: int = 0
    row_bonus: int = 0

    @property
    def row_units(self) -> int:
        """Units from the rows (with their bonuses under ``bonus_paid=always``), or the
        natural's units, or a fixed foul's."""
        return self.total - self.bonus - self.sweep

    def to_dict(self, names: Sequence[str]) -> dict[str, Any]:
        """JSON form of the pairing, the seats by name (``names[seat]``); ``sweep`` and
        ``row_bonus`` only when the rule set has them (CP-12, CP-13)."""
        out: dict[str, Any] = {
            "seats": [names[s] for s in self.seats],
            "settled_by": self.settled_by.value,
            "rows": {r.row.label: r.to_dict(names) for r in self.rows},
            "bonus": self.bonus,
            "total": self.total,
            "notes": list(self.notes),
        }
        if self.row_bonus:
            out["row_bonus"] = self.row_bonus
        if self.sweep:
            out["sweep"] = self.sweep
        return out


@dataclass(frozen=True, slots=True)
class TableResult:
    """A settled table. Seats are numbers 0..n-1 and per-seat values are tuples indexed by seat,
    as in Chlust and Three Leaves: ``seats[i]`` is seat i's name, ``players[i]`` how it was
    scored, ``net[i]`` the units it won (the ``net`` of the trick games' ``DealResult``; they
    sum to zero), ``inputs[i]`` what it was given as. ``pairings`` are in seat order (0-1, 0-2,
    ..., with seat numbers)."""

    rules: ChineseRules
    seats: tuple[str, ...]
    players: tuple[Seat, ...]
    pairings: tuple[Pairing, ...]
    net: tuple[int, ...]
    inputs: tuple[object, ...]

    @property
    def totals(self) -> Mapping[str, int]:
        """Deprecated (one release): seat name -> units, the mapping this attribute was before
        per-seat values became tuples; use ``net`` (and ``seats`` for the names)."""
        warnings.warn(
            "TableResult.totals (a mapping by seat name) is deprecated: use TableResult.net, "
            "a tuple indexed by seat (TableResult.seats names them)",
            DeprecationWarning,
            stacklevel=2,
        )
        return MappingProxyType(dict(zip(self.seats, self.net, strict=True)))

    def __str__(self) -> str:
        """The table in a few lines (the whole account is :meth:`to_dict`; the dataclass
        ``repr`` holds every card): each seat's net units and how it played, then each
        pairing's total with the notes that explain it.

        >>> print(score({"N": {"back": "As Ad Ah Kc Kd", "middle": "Qs Qd Jc Jd 2c",
        ...                    "front": "3c 4d 5h"},
        ...              "S": {"back": "Ts 9s 8s 7s 6s", "middle": "2s 2d 2h 7c 8d",
        ...                    "front": "Kh Qh 4c"}}))
        N -7 (rows)
        S +7 (rows)
        N-S: N -7
        """
        lines = []
        for name, units, seat in zip(self.seats, self.net, self.players, strict=True):
            if seat.fouled:
                played = f"fouled: {seat.foul_reason}"
            elif seat.natural is not None:
                played = f"natural: {seat.natural.name}"
            else:
                played = "rows"
            lines.append(f"{name} {units:+d} ({played})")
        for pairing in self.pairings:
            first, second = (self.seats[i] for i in pairing.seats)
            notes = f" ({'; '.join(pairing.notes)})" if pairing.notes else ""
            lines.append(f"{first}-{second}: {first} {pairing.total:+d}{notes}")
        return "\n".join(lines)

    def between(self, a: int, b: int) -> int:
        """Units seat ``a`` wins from seat ``b`` (negative when it pays)."""
        for pairing in self.pairings:
            if pairing.seats == (a, b):
                return pairing.total
            if pairing.seats == (b, a):
                return -pairing.total
        raise KeyError((a, b))

    def to_dict(self) -> dict[str, Any]:
        """``{"totals": {seat: units}, "pairings": [...], "players": {...}, "rules": {...}}``:
        the CLI's JSON (docs/CLI-JSON.md), seats by name in seat order."""
        names = self.seats
        return {
            "totals": dict(zip(names, self.net, strict=True)),
            "pairings": [p.to_dict(names) for p in self.pairings],
            "players": {
                name: seat.to_dict() for name, seat in zip(names, self.players, strict=True)
            },
            "rules": self.rules.to_dict(),
        }


def score(
    players: Sequence[object] | Mapping[str, object],
    /,  # so that ``players=2`` is the rule option (an override), not this argument
    rules: ChineseRules | str | None = "standard",
    **overrides: object,
) -> TableResult:
    """Settle a table of 2 to 4 players under a rule set (preset name or object) and overrides.

    ``players`` is seat by seat: a sequence (seat ``i`` is item ``i``, named N, E, S, W as
    :data:`cpsolver.chinese.deal.SEATS`) or a mapping of seat name to player (the names label
    seats 0, 1, ... in the mapping's order; the form of ``cpsolver score``'s JSON and of the
    wire's ``TablePlayer.seat``). Each player is one of:

    * rows: a mapping with ``back``, ``middle`` and ``front`` (5, 5 and 3 cards, as text or a
      sequence of cards/card strings), a sequence ``(back, middle, front)``, or any object with
      ``back``/``middle``/``front`` attributes (such as a solver ``Solution``; one whose
      ``natural`` attribute holds a :class:`Natural` declares it);
    * a declared natural: a mapping ``{"cards": 13 cards, "natural": true}`` (or the natural's
      name, which the cards must qualify for), or a :class:`Natural`. The hand plays as the
      highest natural it qualifies for (CP-11).

    Errors (:class:`InvalidInputError`) name the field, e.g. ``players.N.back[1]`` for a mapping
    (indexes from 0, as in every cpsolver message; the path is ``("players", "N", "back",
    1)``) or ``players[1].back[1]`` for a sequence (``("players", 1, "back", 1)``): a bad or
    repeated card (across all seats; the other place is named, "also N's front[0]"), a row
    of the wrong size, a declared natural the cards do not make or under ``naturals=off``, fewer
    than 2 or more than 4 seats, unknown option names or values.
    """
    ruleset = ChineseRules.resolve(rules, **overrides)
    seats = read_seats(players, ruleset)
    count = len(seats)
    settled = [
        _settle(seats[a], seats[b], a, b, ruleset)
        for a in range(count)
        for b in range(a + 1, count)
    ]
    pairings = tuple(p for p, _ in settled)
    if ruleset.sweep is Sweep.DOUBLE:
        pairings = _swept(pairings, [scoop for _, scoop in settled], seats)
    net = [0] * count
    for pairing in pairings:
        net[pairing.seats[0]] += pairing.total
        net[pairing.seats[1]] -= pairing.total
    given = tuple(spec for _, _, spec in seat_entries(players))
    return TableResult(ruleset, tuple(s.name for s in seats), seats, pairings, tuple(net), given)


def read_seats(
    players: Sequence[object] | Mapping[str, object], rules: ChineseRules
) -> tuple[Seat, ...]:
    """The input half of :func:`score`: every player read, checked and evaluated (rows, fouls,
    naturals), seat by seat (each :class:`Seat` carries its name), before anything is settled;
    raises the errors :func:`score` documents. The typed client (``cpsolver.client``) reads a
    table with it before sending it.

    >>> seats = read_seats([("As Ks Qs Js Ts", "2c 2d 3h 4h 5h", "6c 7d 9h"),
    ...                     ("Ah Kh Qh Jh 9s", "2s 3s 4s 5s 6s", "7c 8d Th")], ChineseRules())
    >>> seats[1].name, seats[1].fouled, seats[1].foul_reason
    ('E', True, 'the middle (straight flush, six high) beats the back (high card, A-K-Q-J-9)')
    """
    seats: list[Seat] = []
    seen: dict[Card, FieldPath] = {}
    for name, base, spec in seat_entries(players):
        seat, places = _read_seat(name, base, spec, rules)
        _check_unique(seat.cards, places, seen)
        seats.append(seat)
    return tuple(seats)


def seat_entries(
    players: Sequence[object] | Mapping[str, object],
) -> tuple[tuple[str, FieldPath, object], ...]:
    """The table's shape, checked: ``(name, field path, player)`` seat by seat, for a sequence
    (seat ``i`` named as :data:`cpsolver.chinese.deal.SEATS`, path ``players[i]``) or a mapping
    (its names, path ``players.NAME``). Raises :class:`InvalidInputError` for another type, a
    count outside 2-4 (CP-1) or a seat name that is not text. Each caller that needs the
    players as given (:func:`score`'s ``inputs``, the remote client's error paths) reads them
    here.

    >>> [path for _, path, _ in seat_entries({"A": 1, "B": 2})], seat_entries([1, 2])[1][0]
    ([('players', 'A'), ('players', 'B')], 'E')
    """
    is_list = isinstance(players, Sequence) and not isinstance(players, (str, bytes))
    if not (is_list or isinstance(players, Mapping)):
        raise InvalidInputError(
            "players", "expected the players seat by seat: a list, or a mapping of seat name"
        )
    if not 2 <= len(players) <= 4:
        raise InvalidInputError("players", f"a table has 2 to 4 players (CP-1), got {len(players)}")
    if isinstance(players, Mapping):
        for name in players:
            if not isinstance(name, str) or not name:
                raise InvalidInputError(
                    "players", f"seat names must be non-empty text, got {name!r}"
                )
        return tuple((name, ("players", name), spec) for name, spec in players.items())
    return tuple((SEATS[i], ("players", i), spec) for i, spec in enumerate(players))


def check_arrangement(
    back: object,
    middle: object,
    front: object,
    rules: ChineseRules | str | None = "standard",
    **overrides: object,
) -> Seat:
    """One player's rows, evaluated and checked (CP-6) as :func:`score` checks them.

    The :class:`Seat` says whether the arrangement is ``fouled`` and why (``foul_reason``), holds
    each row's hand, and the natural the 13 cards make (``available_natural``, CP-11). Errors
    name the row and card (``back``, ``middle[1]``; from 0), including a card given twice.

    CP-E1 is valid; CP-E2 fouls (the front's kicker K beats the middle's Q):

    >>> check_arrangement("As Ks Qs Js 3s", "9h 9c Kd 5s 2h", "9s 9d Kc").fouled
    False
    >>> check_arrangement("As Ks 8s 7s 3s", "9h 9c Qd Js Th", "9s 9d Kc").foul_reason
    'the front (pair of nines, K kicker) beats the middle (pair of nines, Q-J-T kickers)'
    """
    ruleset = ChineseRules.resolve(rules, **overrides)
    seat, places = _arranged("", back, middle, front, ruleset, base=())
    _check_unique(seat.cards, places, {})
    return seat


def read_seat(spec: object, rules: ChineseRules, *, base: FieldPath = (), name: str = "") -> Seat:
    """One player's input read and checked as :func:`score` reads a player (rows as a
    mapping ``{back, middle, front}``, a sequence of three rows or an object with those
    attributes; a declared natural as ``{"cards", "natural"}`` or a :class:`Natural`), with
    error paths under ``base`` (``back[1]``, ``cards[0]``; from 0) and a card given twice
    refused. :func:`cpsolver.chinese.rate.rate` reads the arrangement it rates with it.

    >>> read_seat({"cards": "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac", "natural": True},
    ...           ChineseRules()).natural.name
    'dragon'
    >>> read_seat(("As Ks Qs Js Ts", "9h 9d 9c 2h 2d", "7c 5d 3s"), ChineseRules()).fouled
    False
    """
    seat, places = _read_seat(name, base, spec, rules)
    _check_unique(seat.cards, places, {})
    return seat


# Where each of a seat's cards came from: its path (another card's duplicate message names it
# so, as every game does: "also players[0].front[0]").
_Places = list[FieldPath]


def _check_unique(cards: Sequence[Card], places: _Places, seen: dict[Card, FieldPath]) -> None:
    """Raise one :class:`CardError` for every one of ``cards`` (at ``places``) already
    ``seen`` (a card -> the place it was read first; filled in as the cards are read)."""
    found = Violations()
    for card, where in zip(cards, places, strict=True):
        if card in seen:
            found.add(_duplicate(card, where, seen[card]))
        else:
            seen[card] = where
    found.raise_any()


def _duplicate(card: Card, where: FieldPath, first: FieldPath) -> CardError:
    """``card`` given at ``where`` after ``first``, worded as every game words it."""
    return CardError(
        where, duplicate_description(card, first), token=str(card), position=_index(where)
    )


def _index(path: FieldPath) -> int:
    """A card's index in its list (the last part of its path), -1 for none."""
    return path[-1] if path and isinstance(path[-1], int) else -1


def _places(path: FieldPath, count: int) -> _Places:
    return [(*path, i) for i in range(count)]


def _read_seat(
    name: str, base: FieldPath, spec: object, rules: ChineseRules
) -> tuple[Seat, _Places]:
    """Parse one player's input (at ``base``: ``players.N`` or ``players[1]``) into a Seat
    and the place of each of its cards."""
    if isinstance(spec, Natural):
        return _declared(name, base, spec.cards, True, rules)
    if isinstance(spec, Mapping):
        keys = set(spec)
        if keys & {"cards", "natural"}:
            extra = keys - {"cards", "natural"}
            if extra:
                raise InvalidInputError(
                    (*base, sorted(map(str, extra))[0]),
                    "unknown field beside a declared natural; valid fields: cards, natural",
                )
            if "cards" not in spec:
                raise InvalidInputError((*base, "cards"), "a declared natural needs its 13 cards")
            return _declared(name, base, spec["cards"], spec.get("natural", False), rules)
        unknown = keys - {"back", "middle", "front"}
        if unknown:
            raise InvalidInputError(
                (*base, sorted(map(str, unknown))[0]),
                "unknown field; valid fields: back, middle, front (rows) or cards, natural",
            )
        missing = [r.label for r in _ROWS if r.label not in spec]
        if missing:
            raise InvalidInputError((*base, missing[0]), "missing row")
        return _arranged(name, spec["back"], spec["middle"], spec["front"], rules, base)
    if all(hasattr(spec, a) for a in ("back", "middle", "front")):
        natural = getattr(spec, "natural", None)
        if isinstance(natural, Natural):
            return _declared(name, base, natural.cards, True, rules)
        return _arranged(name, spec.back, spec.middle, spec.front, rules, base)  # type: ignore[attr-defined]
    if isinstance(spec, Sequence) and not isinstance(spec, str) and len(spec) == 3:
        return _arranged(name, spec[0], spec[1], spec[2], rules, base)
    raise InvalidInputError(
        base, 'expected rows {"back", "middle", "front"} or {"cards": [13 cards], "natural": true}'
    )


def _declared(
    name: str, base: FieldPath, cards_in: Any, flag: object, rules: ChineseRules
) -> tuple[Seat, _Places]:
    if flag is False or flag is None:
        raise InvalidInputError(
            (*base, "natural"),
            'give rows (back, middle, front), or declare a natural with "natural": true',
        )
    if not (flag is True or isinstance(flag, str)):
        raise InvalidInputError(
            (*base, "natural"), f"expected true or a natural's name, got {flag!r}"
        )
    if not rules.naturals:
        raise InvalidInputError(
            (*base, "natural"), "naturals are off in this rule set (naturals=off): give rows"
        )
    cards = _parse(cards_in, 13, (*base, "cards"))
    found = detect_naturals(cards, rules)
    if not found:
        listed = ", ".join(n.title for n, _ in rules.natural_list)
        rule = "CP-11" if rules.natural_table is None else "CP-15"
        raise InvalidInputError(
            (*base, "natural"),
            f"declared a natural, but the 13 cards are none of {listed} ({rule})",
        )
    if isinstance(flag, str):
        named = [n for n in found if n.name == flag.strip().lower().replace(" ", "_")]
        if not named:
            qualifies = ", ".join(n.name for n in found)
            raise InvalidInputError(
                (*base, "natural"), f"the cards are not {flag!r}; they qualify as {qualifies}"
            )
    places = _places((*base, "cards"), 13)
    return Seat(name, cards, None, None, False, "", found[0], None), places


def _arranged(
    name: str,
    back_in: Any,
    middle_in: Any,
    front_in: Any,
    rules: ChineseRules,
    base: FieldPath | None = None,
) -> tuple[Seat, _Places]:
    """The seat of three rows; ``base`` is the rows' path (a table's ``players.NAME``, or
    nothing for one arrangement)."""
    base = ("players", name) if base is None else base
    wheel = rules.wheel_second_highest
    given = ((Row.BACK, back_in), (Row.MIDDLE, middle_in), (Row.FRONT, front_in))
    rows: dict[Row, tuple[Card, ...]] = {}
    problems: dict[Row, InvalidInputError] = {}
    for row, raw in given:
        try:
            rows[row] = _parse(raw, row.size, (*base, row.label))
        except InvalidInputError as exc:
            problems[row] = exc
    if problems:
        _raise_every_violation(given, rows, problems, base)
    hands: dict[Row, HandValue] = {}
    places: _Places = []
    for row, cards in rows.items():
        hands[row] = evaluate(cards, wheel_second_highest=wheel)
        places += _places((*base, row.label), row.size)
    back, middle, front = hands[Row.BACK], hands[Row.MIDDLE], hands[Row.FRONT]
    reason = ""
    if middle.strength < front.strength:
        reason = f"the front ({front.name}) beats the middle ({middle.name})"
    elif back.strength < middle.strength:
        reason = f"the middle ({middle.name}) beats the back ({back.name})"
    elif rules.strict_order and back.strength == middle.strength:
        reason = f"the back equals the middle ({back.name}) under order=strict"
    all_cards = rows[Row.BACK] + rows[Row.MIDDLE] + rows[Row.FRONT]
    available = None
    if rules.naturals and len(set(all_cards)) == 13:
        available = detect_natural(all_cards, rules)
    declared = None
    if available is not None and rules.declare is Declare.AUTO:
        # CP-17: under declare=auto a hand holding a natural is settled as that natural.
        declared, available = available, None
    royalties = {
        row: rules.royalty(row, hand.category, royal=hand.is_royal) for row, hand in hands.items()
    }
    seat = Seat(
        name,
        all_cards,
        MappingProxyType(rows),
        MappingProxyType(hands),
        bool(reason),
        reason,
        declared,
        available,
        MappingProxyType(royalties),
    )
    return seat, places


def _raise_every_violation(
    given: Sequence[tuple[Row, object]],
    rows: Mapping[Row, tuple[Card, ...]],
    problems: Mapping[Row, InvalidInputError],
    base: FieldPath,
) -> NoReturn:
    """Raise every violation of a seat's rows at once, in row order, each row's own and the
    cards given in two rows among those that could be read (a row with a bad token still
    shows its other cards): the first row's error alone hid the others (a back of 4 cards
    hid a middle of 6, a card twice in the front one in two rows)."""
    found = Violations()
    seen: dict[Card, FieldPath] = {}  # the rows before the one read: where a card came first
    for row, raw in given:
        field = (*base, row.label)
        reported: set[FieldPath] = set()
        if row in problems:
            found.add(problems[row])
            reported = {v.path for v in problems[row].violations}
            read = readable_cards(raw)
        else:
            read = list(enumerate(rows[row]))
        # a card twice in one row is that row's parse's to report: only other rows count here
        for i, card in read:
            if card in seen and (*field, i) not in reported:
                found.add(_duplicate(card, (*field, i), seen[card]))
        for i, card in read:
            seen.setdefault(card, (*field, i))
    found.raise_any()
    raise AssertionError("unreachable: a row's problem is raised above")


def _parse(raw: object, count: int, field: Field) -> tuple[Card, ...]:
    """parse_cards for untrusted values: text or a list of cards, nothing else."""
    if isinstance(raw, str) or (isinstance(raw, Sequence) and not isinstance(raw, bytes)):
        return parse_cards(raw, count=count, field=field)
    kind = "null" if raw is None else type(raw).__name__
    raise InvalidInputError(field, f"expected {count} cards as a list or a string, got {kind}")


def _row_value(rules: ChineseRules, row: Row, hand: HandValue) -> int:
    return rules.row_value(row, hand.category, royal=hand.is_royal)


def _classes(seat: Seat) -> tuple[int, int, int]:
    if seat.hands is None:
        return (0, 0, 0)
    return tuple(seat.hands[row].strength for row in (Row.FRONT, Row.MIDDLE, Row.BACK))  # type: ignore[return-value]


def _settle(a: Seat, b: Seat, ia: int, ib: int, rules: ChineseRules) -> tuple[Pairing, int]:
    """The pairing of seat ``ia`` (``a``) with seat ``ib`` (``b``), and who scooped (1: a,
    -1: b, 0: nobody). The amounts are :func:`settle`'s (the one settlement); the rows,
    bonuses and notes say how they came."""
    seats = (ia, ib)
    na = a.natural.rank if a.natural is not None else 0
    nb = b.natural.rank if b.natural is not None else 0
    total, before, scoop = settle(
        _classes(a), _classes(b), pair_terms(rules), a.fouled, b.fouled, na, nb
    )
    if na or nb:
        return _settle_naturals(a, b, seats, total, before, scoop, rules), scoop
    if a.fouled and b.fouled:
        note = f"both {a.name} and {b.name} fouled: nothing paid (CP-10)"
        return Pairing(seats, SettledBy.BOTH_FOULED, (), 0, 0, (note,)), 0
    assert a.hands is not None and b.hands is not None
    notes: list[str] = []
    if rules.foul is Foul.FIXED and (a.fouled or b.fouled):
        fouled = a if a.fouled else b
        notes.append(
            f"{fouled.name} fouled ({fouled.foul_reason}): pays {rules.foul_units} "
            "(CP-14 foul=fixed:N)"
        )
        return Pairing(seats, SettledBy.FOUL, (), 0, total, tuple(notes)), 0
    for seat in (a, b):
        if seat.fouled:
            notes.append(f"{seat.name} fouled ({seat.foul_reason}): loses every row (CP-10)")
    outcomes: list[RowOutcome] = []
    for row in _ROWS:
        ha, hb = a.hands[row], b.hands[row]
        if b.fouled or (not a.fouled and ha.strength > hb.strength):
            outcomes.append(RowOutcome(row, Outcome.WIN, _row_value(rules, row, ha), ia))
        elif a.fouled or hb.strength > ha.strength:
            outcomes.append(RowOutcome(row, Outcome.LOSS, -_row_value(rules, row, hb), ib))
        else:
            outcomes.append(RowOutcome(row, Outcome.TIE, 0, None))
    row_bonus = before - sum(o.units for o in outcomes)
    if row_bonus:
        notes.append(f"row bonuses paid whatever the rows' results: {row_bonus:+d} (CP-12)")
    bonus = total - before
    if bonus:
        winner = a.name if (scoop or (1 if bonus > 0 else -1)) > 0 else b.name
        notes.append(_scoop_note(rules, winner))
    settled_by = SettledBy.FOUL if a.fouled or b.fouled else SettledBy.ROWS
    pairing = Pairing(
        seats, settled_by, tuple(outcomes), bonus, total, tuple(notes), row_bonus=row_bonus
    )
    return pairing, scoop


def _scoop_note(rules: ChineseRules, winner: str) -> str:
    if rules.scoring is Scoring.SCOOP_DOUBLE:
        return f"{winner} wins all three rows: the pairing is doubled (CP-9 scoop_double)"
    if rules.scoring is Scoring.SCOOP_BONUS:
        return f"{winner} wins all three rows: +{rules.scoop_bonus} (CP-13 scoop_bonus)"
    return f"{winner} wins more rows: +1 (CP-9 two_four)"


def _swept(
    pairings: tuple[Pairing, ...], scoops: list[int], seats: tuple[Seat, ...]
) -> tuple[Pairing, ...]:
    """CP-13's sweep: the pairings of the seat that scooped every other seat, doubled."""
    count = len(seats)
    table = [[0] * count for _ in range(count)]
    for pairing, scoop in zip(pairings, scoops, strict=True):
        a, b = pairing.seats
        table[a][b], table[b][a] = scoop, -scoop
    sweeper = sweep_table(table, table)
    if sweeper is None:
        return pairings
    name = seats[sweeper].name
    note = f"{name} scoops every other player: the pairing is doubled once more (CP-13 sweep)"
    return tuple(
        replace(p, total=2 * p.total, sweep=p.total, notes=(*p.notes, note))
        if sweeper in p.seats
        else p
        for p in pairings
    )


def _settle_naturals(
    a: Seat, b: Seat, seats: tuple[int, int], total: int, before: int, scoop: int,
    rules: ChineseRules,
) -> Pairing:  # fmt: skip
    na, nb = a.natural, b.natural
    bonus = total - before
    notes: list[str] = []
    if na is not None and nb is not None:
        if na.rank == nb.rank:
            note = f"both declare {na.kind.title}: nothing paid (CP-11)"
            return Pairing(seats, SettledBy.NATURAL, (), 0, 0, (note,))
        high, low = (a, b) if na.rank < nb.rank else (b, a)
        assert high.natural is not None and low.natural is not None
        if rules.natural_ties is NaturalTies.DIFFERENCE:
            amount = (
                f"{high.natural.units} - {low.natural.units} units (CP-15 natural_ties=difference)"
            )
        else:
            amount = f"{high.natural.units} units (CP-11)"
        notes.append(
            f"{high.name}'s {high.natural.kind.title} outranks {low.name}'s "
            f"{low.natural.kind.title}: {amount}"
        )
    else:
        holder, other = (a, b) if na is not None else (b, a)
        natural = holder.natural
        assert natural is not None
        note = (
            f"{holder.name} declares {natural.kind.title}: {natural.units} units, rows not compared"
        )
        if other.fouled:
            note += f" ({other.name} fouled)"
        notes.append(note + " (CP-11)")
    if bonus:
        notes.append(
            _scoop_note(rules, a.name if scoop > 0 else b.name).replace(
                "wins all three rows", "'s natural counts as a scoop"
            )
        )
    return Pairing(seats, SettledBy.NATURAL, (), bonus, total, tuple(notes))
