"""Objectives of the arranger: what "best split" means, as per-row value tables.

An objective is looked up by name (:func:`get_objective`) and gives, for a rule set, three
float64 tables indexed by strength class (0..7916): the value of a class played in the back, in
the middle and in the front. The arranger (:mod:`cpsolver.chinese.search`) maximises
``back[b] + middle[m] + front[f]`` over the valid splits. Every value here is an integer below
2**53, so float64 sums are exact and ties are real ties.

* ``ev`` [default]: expected units at the table (RULES §2.3), from trained opponent tables;
  registered by :mod:`cpsolver.chinese.ev`.
* ``strength``: the strongest back, then the strongest middle, then the
  strongest front (lexicographic): ``value = b * K**2 + m * K + f`` with ``K = 7917``.
* ``royalties``: the most royalty units the rows can earn (CP-8, under the rule set's schedule:
  ``ChineseRules.royalty`` per row, 0 for a row without one), ties broken by ``strength``:
  the search key is ``units * K**3 + strength value``; the value a solution reports is the
  units alone (:func:`reported_value`).

Objectives that are not a sum of per-row values (the expected-value objective, which combines
per-row win and tie probabilities per pairing) register here too and set ``additive = False``;
they score the rows listed by :func:`cpsolver.chinese.search.valid_splits` themselves.

>>> float(get_objective("strength").row_tables(ChineseRules()).back[7916])
496166085324.0
>>> get_objective("ev-ish")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cpsolver.errors.InvalidInputError: objective: unknown objective 'ev-ish'; valid objectives: ...
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from cpsolver.errors import InvalidInputError
from cpsolver.evaluator.poker import NUM_CLASSES, Category, PokerTables, poker_tables
from cpsolver.rules import ChineseRules, Row, Royalties
from cpsolver.rules.chinese import RoyaltyTable

__all__ = [
    "DEFAULT_OBJECTIVE",
    "OBJECTIVES",
    "Objective",
    "RowTables",
    "RoyaltiesObjective",
    "StrengthObjective",
    "get_objective",
    "objective_names",
    "register_objective",
]

K = NUM_CLASSES
"""Radix of the lexicographic encodings (one digit per row)."""

DEFAULT_OBJECTIVE = "ev"
"""RULES §2.3 (registered by :mod:`cpsolver.chinese.ev`)."""


@dataclass(frozen=True, eq=False)
class RowTables:
    """Per-row values of each strength class for one objective and rule set.

    ``back[c]``, ``middle[c]``, ``front[c]`` (float64, length ``NUM_CLASSES``); ``poker`` is the
    strength scale they index (it depends on the ``wheel`` option).
    """

    objective: str
    rules: ChineseRules
    back: npt.NDArray[np.float64]
    middle: npt.NDArray[np.float64]
    front: npt.NDArray[np.float64]
    poker: PokerTables

    def value(self, back: int, middle: int, front: int) -> float:
        """The objective value of one split given its three row classes."""
        return float(self.back[back] + self.middle[middle] + self.front[front])


@runtime_checkable
class Objective(Protocol):
    """A named objective: per-row value tables for a rule set."""

    @property
    def name(self) -> str:
        """Registry name (``strength``)."""
        ...

    @property
    def description(self) -> str:
        """One line for help texts."""
        ...

    @property
    def additive(self) -> bool:
        """True when the value of a split is the sum of its three per-row table values."""
        ...

    def row_tables(self, rules: ChineseRules) -> RowTables:
        """The three per-row tables under ``rules`` (cached by the implementation)."""
        ...


def reported_value(objective: Objective, key: float) -> float:
    """The value a solution reports for a split whose search key (the sum of its row tables'
    values) is ``key``: what the objective counts, not its tie-break (an objective with a
    ``reported_value(key)`` method says it; else the key itself).

    >>> rules = ChineseRules()
    >>> tables = get_objective("royalties").row_tables(rules)
    >>> key = tables.back[7916] + tables.middle[0] + tables.front[0]  # a royal flush back
    >>> reported_value(get_objective("royalties"), key)
    5.0
    >>> reported_value(get_objective("strength"), 7.0)
    7.0
    """
    report = getattr(objective, "reported_value", None)
    return float(report(key)) if callable(report) else key


def _frozen(array: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    array.setflags(write=False)
    return array


def _strength_parts() -> tuple[npt.NDArray[np.float64], ...]:
    cls = np.arange(NUM_CLASSES, dtype=np.float64)
    return cls * float(K * K), cls * float(K), cls.copy()


@dataclass(frozen=True)
class StrengthObjective:
    """Strongest back, then middle, then front: ``b * K**2 + m * K + f`` (``K = 7917``)."""

    name: str = "strength"
    description: str = "strongest back, then strongest middle, then strongest front"
    additive: bool = True

    def row_tables(self, rules: ChineseRules) -> RowTables:
        """Tables of the lexicographic encoding (independent of royalties)."""
        return _strength_tables(rules)


# The tables are cached per rule set (a small object), their arrays per what they depend on, so
# a server that sees all 432 rule sets holds one copy of each array, not 432 (issue 15, D1).
@cache
def _strength_tables(rules: ChineseRules) -> RowTables:
    back, middle, front = _strength_arrays()
    poker = poker_tables(rules.wheel_second_highest)
    return RowTables("strength", rules, back, middle, front, poker)


@cache
def _strength_arrays() -> tuple[npt.NDArray[np.float64], ...]:
    return tuple(_frozen(part) for part in _strength_parts())


def royalty_units(rules: ChineseRules, row: Row, poker: PokerTables) -> npt.NDArray[np.int64]:
    """Royalty units (CP-8, 0 when none) that each class earns in ``row`` under ``rules``.

    Front tables hold units only for front classes, five-card rows only for five-card classes.

    >>> units = royalty_units(ChineseRules(), Row.BACK, poker_tables())
    >>> int(units[7916]), int(units[0])
    (5, 0)
    """
    out = np.zeros(NUM_CLASSES, dtype=np.int64)
    memo: dict[tuple[int, bool], int] = {}
    for cls in range(NUM_CLASSES):
        if bool(poker.is_front[cls]) != (row is Row.FRONT):
            continue
        key = (int(poker.category[cls]), bool(poker.is_royal[cls]))
        if key not in memo:
            memo[key] = rules.royalty(row, Category(key[0]), royal=key[1])
        out[cls] = memo[key]
    return out


@dataclass(frozen=True)
class RoyaltiesObjective:
    """Most royalty units (CP-8) the rows can earn, ties broken by ``strength``."""

    name: str = "royalties"
    description: str = "most royalty units the rows can earn, then strength"
    additive: bool = True

    def row_tables(self, rules: ChineseRules) -> RowTables:
        """``units * K**3`` plus the strength encoding, per row."""
        return _royalty_tables(rules)

    def reported_value(self, key: float) -> float:
        """The royalty units of a split whose search key is ``key`` (its tie-break, the
        strength encoding, is below ``K**3``)."""
        return float(int(key) // K**3)


@cache
def _royalty_tables(rules: ChineseRules) -> RowTables:
    back, middle, front = _royalty_arrays(
        rules.royalties, rules.royalty_table, rules.wheel_second_highest
    )
    poker = poker_tables(rules.wheel_second_highest)
    return RowTables("royalties", rules, back, middle, front, poker)


@cache
def _royalty_arrays(
    royalties: Royalties, table: RoyaltyTable | None, wheel_second_highest: bool
) -> tuple[npt.NDArray[np.float64], ...]:
    # The royalty schedule (or a rule file's own table, RULES 2.5) and the strength scale are
    # all the units depend on (CP-8).
    schedule = ChineseRules(royalties=royalties, royalty_table=table)
    poker = poker_tables(wheel_second_highest)
    scale = float(K) ** 3
    return tuple(
        _frozen(part + royalty_units(schedule, row, poker).astype(np.float64) * scale)
        for part, row in zip(_strength_parts(), (Row.BACK, Row.MIDDLE, Row.FRONT), strict=True)
    )


OBJECTIVES: dict[str, Objective] = {}
"""The registry, by name, in registration order."""


def register_objective(objective: Objective) -> Objective:
    """Add (or replace) an objective in the registry; returns it."""
    OBJECTIVES[objective.name] = objective
    return objective


def objective_names() -> tuple[str, ...]:
    """Names of the registered objectives."""
    return tuple(OBJECTIVES)


def get_objective(name: str | Objective | None) -> Objective:
    """The objective of this name (or the object itself; None: :data:`DEFAULT_OBJECTIVE`, as
    the typed clients read it); unknown names list the valid ones, anything else is named.

    >>> import cpsolver  # registers ev
    >>> get_objective(None).name
    'ev'
    >>> get_objective(3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: objective: expected an objective's name ..., got int
    """
    if name is None:
        name = DEFAULT_OBJECTIVE
    if not isinstance(name, str):  # a str first: the protocol's isinstance is the slow test
        if isinstance(name, Objective):
            return name
        valid = ", ".join(OBJECTIVES)
        raise InvalidInputError(
            "objective", f"expected an objective's name ({valid}), got {type(name).__name__}"
        )
    try:
        return OBJECTIVES[name]
    except KeyError:
        valid = ", ".join(OBJECTIVES)
        raise InvalidInputError(
            "objective", f"unknown objective {name!r}; valid objectives: {valid}"
        ) from None


register_objective(StrengthObjective())
register_objective(RoyaltiesObjective())
