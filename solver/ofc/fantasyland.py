"""Setting a fantasyland hand (RULES OFC-5, OFC-6): the best 13 of 14-17 cards, exactly.

The ``royalties`` objective values a set (a valid back / middle / front of 13 of the cards, the
rest discarded) at its royalties (OFC-3) plus ``V`` when it stays in fantasyland (OFC-5), ``V``
(``fantasyland_value``, >= 0) being what the caller says the next fantasyland hand is worth.
Fouled sets are never returned.

**Exact, by four additive searches.** Staying is an *or* of three row clauses (front trips,
the middle clause of ``stay``, back quads or better), so the value is not a sum over rows. But
``max(royalties + V * stays)`` equals the largest of ``max(royalties)`` and, per clause,
``max(royalties + V * clause)``: each of those is a sum over rows (``V`` added to the row
classes that meet the clause), never above the true value of any set (``V >= 0``), and the
best set reaches its value in one of them. Each is solved exactly by the 13-of-N branch and
bound :func:`cpsolver.chinese.select.select_positions` (every valid choice of back, middle and
front among the N cards, pruned by admissible bounds).

**Ties.** Sets of equal value are many (most hands earn the same royalties several ways). The
answer is the first found: the searches in the order front clause, middle clause, back clause,
royalties alone, each with the branch and bound's own tie-break; it depends only on the set of
cards, never their order.

>>> best = fantasyland("As Ah Ad Kh Kd Ks Qs Jh Th 9c 8c 7c 6c 2d", fantasyland_value=10)
>>> [" ".join(map(str, row)) for row in (best.back, best.middle, best.front, best.discarded)]
['6c 7c 8c 9c Th', '2d Jh Ad Ah As', 'Kd Kh Ks', 'Qs']
>>> best.royalties, best.stays, best.value
(25, True, 35.0)

(A-A-A in front would earn 22 but foul: the middle must beat it.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from cpsolver.cards import Card, CardsLike, parse_cards
from cpsolver.chinese.objectives import RowTables
from cpsolver.chinese.select import no_constraints, select_positions
from cpsolver.errors import InvalidInputError, Violations
from cpsolver.evaluator.poker import Category, poker_tables
from cpsolver.rules.chinese import ChineseRules, Row
from cpsolver.rules.ofc import FANTASYLAND_CARDS, Fantasyland, OfcRules, Stay

__all__ = [
    "OBJECTIVES",
    "FantasylandSet",
    "check_fantasyland_request",
    "fantasyland",
    "fantasyland_sizes",
]

OBJECTIVES = ("royalties",)
"""The fantasyland objectives offered (``ev``: not yet, see docs/OFC.md)."""

_CHINESE = ChineseRules()
"""OFC-2: Chinese poker's rows under its defaults (weak order, the wheel lowest): the scale the
searches run on."""


@dataclass(frozen=True, slots=True)
class FantasylandSet:
    """A fantasyland set: the rows (each in ascending card order), the discarded cards, the
    royalties (OFC-3), whether it stays (OFC-5) and its ``value`` under ``objective``
    (``royalties + fantasyland_value`` when it stays, else the royalties)."""

    back: tuple[Card, ...]
    middle: tuple[Card, ...]
    front: tuple[Card, ...]
    discarded: tuple[Card, ...]
    royalties: int
    stays: bool
    value: float
    fantasyland_value: float
    objective: str

    def to_dict(self) -> dict[str, Any]:
        """The CLI's JSON: ``back``, ``middle``, ``front``, ``discarded`` (card strings),
        ``royalties``, ``stays``, ``value``, ``fantasyland_value``, ``objective``."""
        return {
            "back": [str(c) for c in self.back],
            "middle": [str(c) for c in self.middle],
            "front": [str(c) for c in self.front],
            "discarded": [str(c) for c in self.discarded],
            "royalties": self.royalties,
            "stays": self.stays,
            "value": self.value,
            "fantasyland_value": self.fantasyland_value,
            "objective": self.objective,
        }


def fantasyland_sizes(rules: OfcRules) -> tuple[int, ...]:
    """How many cards a fantasyland hand may hold under ``rules`` (OFC-5): 14, or 14-17
    under ``fantasyland=progressive``.

    >>> fantasyland_sizes(OfcRules()), fantasyland_sizes(OfcRules().replace(
    ...     fantasyland="progressive"))
    ((14,), (14, 15, 16, 17))
    """
    if rules.fantasyland is Fantasyland.PROGRESSIVE:
        return (14, 15, 16, 17)
    return (FANTASYLAND_CARDS,)


def fantasyland(
    cards: CardsLike,
    *,
    rules: OfcRules | str | None = "pineapple",
    objective: str = "royalties",
    fantasyland_value: float = 0.0,
    **overrides: object,
) -> FantasylandSet:
    """The best set of a fantasyland hand (see the module docstring).

    Errors (:class:`~cpsolver.errors.InvalidInputError`): ``cards`` (a bad card, one given
    twice, a count the rules do not deal: 14, or 14-17 under ``fantasyland=progressive``),
    ``objective``, ``fantasyland_value`` (a finite number >= 0), ``rules.*``.
    """
    ruleset = OfcRules.resolve(rules, **overrides)
    parsed, value = check_fantasyland_request(cards, ruleset, objective, fantasyland_value)
    ordered = sorted(parsed, key=lambda c: c.index)
    idx = np.array([c.index for c in ordered], dtype=np.int64)
    masks = no_constraints(len(idx))
    best: tuple[float, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] | None = None
    for tables in _tables(ruleset.stay, value):
        found = select_positions(idx, tables, masks, strict=False)
        if found.picks and (best is None or found.values[0] > best[0]):
            best = (found.values[0], found.positions()[0])
    assert best is not None  # every 13 of the cards have a valid split (CP-6)
    back, middle, front = (tuple(ordered[p] for p in row) for row in best[1])
    used = set(back) | set(middle) | set(front)
    classes = [_strength(back), _strength(middle), _strength(front)]
    royalty = sum(
        ruleset.royalty(row, cls)
        for row, cls in zip((Row.BACK, Row.MIDDLE, Row.FRONT), classes, strict=True)
    )
    stays = ruleset.stays(*classes)
    return FantasylandSet(
        back,
        middle,
        front,
        tuple(c for c in ordered if c not in used),
        royalty,
        stays,
        float(royalty + (value if stays else 0.0)),
        value,
        objective,
    )


def check_fantasyland_request(
    cards: CardsLike, rules: OfcRules, objective: str, fantasyland_value: object
) -> tuple[tuple[Card, ...], float]:
    """The checks of :func:`fantasyland` (the cards parsed, V as a float), every problem at
    once: the remote client runs them before sending.

    >>> check_fantasyland_request("As Ks", OfcRules(), "best", -1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.CardError: cards: expected 14 cards, got 2; objective: unknown ...
    """
    found = Violations()
    parsed: tuple[Card, ...] = ()
    value = 0.0
    with found.check():
        parsed = parse_cards(cards, count=fantasyland_sizes(rules), field="cards")
    with found.check():
        if objective not in OBJECTIVES:
            raise InvalidInputError(
                "objective", f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}"
            )
    with found.check():
        value = _check_value(fantasyland_value)
    found.raise_any()
    return parsed, value


def _check_value(raw: object) -> float:
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        raise InvalidInputError(
            "fantasyland_value", f"expected a number >= 0, got {type(raw).__name__}"
        )
    value = float(raw)
    if not math.isfinite(value) or value < 0:
        raise InvalidInputError("fantasyland_value", f"expected a number >= 0, got {raw!r}")
    return value


def _strength(cards: Sequence[Card]) -> int:
    from cpsolver.evaluator.poker import strength

    return strength(cards)


@cache
def _tables(stay: Stay, value: float) -> tuple[RowTables, ...]:
    """The additive searches: V on each stay clause's rows (in the order front, middle, back,
    a clause the rules drop left out), then the royalties alone."""
    royalty = OfcRules.royalty_table().astype(np.float64)
    category = poker_tables(False).category
    plain = _row_tables(royalty[Row.BACK], royalty[Row.MIDDLE], royalty[Row.FRONT])
    if value == 0:
        return (plain,)
    clauses: list[RowTables] = []
    trips = category == Category.THREE_OF_A_KIND
    clauses.append(
        _row_tables(royalty[Row.BACK], royalty[Row.MIDDLE], royalty[Row.FRONT] + value * trips)
    )
    if stay is not Stay.NO_MIDDLE:
        lowest = Category.FULL_HOUSE if stay is Stay.DEFAULT else Category.FOUR_OF_A_KIND
        middle = royalty[Row.MIDDLE] + value * (category >= lowest)
        clauses.append(_row_tables(royalty[Row.BACK], middle, royalty[Row.FRONT]))
    back = royalty[Row.BACK] + value * (category >= Category.FOUR_OF_A_KIND)
    clauses.append(_row_tables(back, royalty[Row.MIDDLE], royalty[Row.FRONT]))
    return (*clauses, plain)


def _row_tables(
    back: npt.NDArray[np.float64], middle: npt.NDArray[np.float64], front: npt.NDArray[np.float64]
) -> RowTables:
    b, m, f = (np.ascontiguousarray(a, dtype=np.float64) for a in (back, middle, front))
    for a in (b, m, f):
        a.setflags(write=False)
    return RowTables("ofc_royalties", _CHINESE, b, m, f, poker_tables(False))
