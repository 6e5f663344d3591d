"""Constrained solves and 13-of-N selection: the glue between :func:`cpsolver.chinese.solve.solve`,
the constraints (:mod:`cpsolver.chinese.constraints`) and the two engines (``exact``: the branch
and bound of :mod:`cpsolver.chinese.select`; ``cpsat``: the OR-Tools model of
:mod:`cpsolver.chinese.cpsat`).

With more than 13 cards the natural policy applies to the 13 cards kept: ``auto`` declares a
natural when the kept cards (chosen for the rows' objective) hold one; ``force`` keeps the 13
cards that make the highest natural (CP-11 order), and among several such choices the one whose
best arrangement scores highest (the first in lexicographic order of the kept positions on
ties).

>>> from cpsolver.cards import parse_cards
>>> from cpsolver.chinese.constraints import Constraints
>>> from cpsolver.chinese.objectives import get_objective
>>> from cpsolver.rules import ChineseRules
>>> rules = ChineseRules()
>>> cards = parse_cards("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s")
>>> found = arrange(cards, rules, get_objective("strength").row_tables(rules),
...                 Constraints.parse("As=front"))
>>> [" ".join(map(str, row)) for row in found.rows[0]]
['2d 2h 9c 9d 9h', '3s Ts Js Qs Ks', '5d 7c As']
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from cpsolver.cards import Card
from cpsolver.chinese.constraints import Constraints, NaturalPolicy, Place, RowMasks
from cpsolver.chinese.naturals import Natural, detect_natural
from cpsolver.chinese.objectives import RowTables
from cpsolver.chinese.select import infeasible_message, select_positions
from cpsolver.errors import InfeasibleError, InvalidInputError
from cpsolver.rules import ChineseRules

__all__ = ["ENGINES", "Arranged", "arrange", "check_engine", "declare_natural"]

ENGINES = ("exact", "cpsat")
"""``exact``: enumeration / branch and bound (default); ``cpsat``: OR-Tools CP-SAT."""

Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]


@dataclass(frozen=True)
class Arranged:
    """Best arrangements (best first, distinct values) as (back, middle, front) cards, their
    values, the cards discarded by the best one and the natural declared."""

    rows: tuple[Rows, ...]
    values: tuple[float, ...]
    discarded: tuple[Card, ...]
    natural: Natural | None


def check_engine(engine: str) -> str:
    """The engine name, or an :class:`InvalidInputError` listing the valid ones."""
    if engine not in ENGINES:
        raise InvalidInputError(
            "engine", f"unknown engine {engine!r}; valid engines: {', '.join(ENGINES)}"
        )
    return engine


def declare_natural(
    cards: Sequence[Card], rules: ChineseRules, policy: NaturalPolicy
) -> Natural | None:
    """The natural 13 cards declare under ``policy`` (CP-11).

    ``auto``: the highest one they hold when the rules allow naturals (a natural collects at
    least 3 units from every opponent and loses only to a higher natural,
    docs/RULES-CHOICES.md); ``forbid``: none; ``force``: the highest one, or
    :class:`InfeasibleError` when there is none or the rules have naturals off.
    """
    if policy is NaturalPolicy.FORBID:
        return None
    if policy is NaturalPolicy.AUTO:
        return detect_natural(cards, rules) if rules.naturals else None
    if not rules.naturals:
        raise InfeasibleError("natural=force, but these rules have naturals off (naturals=false)")
    natural = detect_natural(cards, rules)
    if natural is None:
        raise InfeasibleError("natural=force, but the cards hold no natural (CP-11)")
    return natural


def _search(
    idx: np.ndarray,
    tables: RowTables,
    masks: RowMasks,
    *,
    strict: bool,
    engine: str,
    top_k: int,
) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]], list[float]]:
    if engine == "cpsat":
        from cpsolver.chinese.cpsat import solve_cpsat

        found = solve_cpsat(idx, tables, masks, strict=strict)
        return [found.positions], [found.value]
    sel = select_positions(idx, tables, masks, strict=strict, top_k=top_k)
    if not sel.picks:
        raise InfeasibleError(infeasible_message(sel.allowed))
    return sel.positions(), list(sel.values)


def arrange(
    cards: Sequence[Card],
    rules: ChineseRules,
    tables: RowTables,
    constraints: Constraints,
    *,
    engine: str = "exact",
    top_k: int = 1,
) -> Arranged:
    """The best arrangements of 13..17 cards under ``constraints`` by ``engine``.

    Raises :class:`InfeasibleError` when no valid arrangement satisfies the constraints and
    :class:`InvalidInputError` for a constraint naming a card not among the cards.
    """
    check_engine(engine)
    if engine == "cpsat" and top_k > 1:
        raise InvalidInputError("alternatives", "the cpsat engine gives no alternatives")
    ordered = sorted(cards, key=lambda c: c.index)
    n = len(ordered)
    masks = constraints.masks(ordered, tables.poker)
    idx = np.array([c.index for c in ordered], dtype=np.int64)
    strict = rules.strict_order
    if constraints.natural is NaturalPolicy.FORCE and n > 13:
        return _forced_natural(ordered, idx, rules, tables, masks, engine, top_k)
    positions, values = _search(idx, tables, masks, strict=strict, engine=engine, top_k=top_k)
    rows = tuple(_cards(ordered, p) for p in positions)
    kept = [c for row in rows[0] for c in row]
    kept_set = set(kept)
    discarded = tuple(c for c in ordered if c not in kept_set)
    natural = declare_natural(kept, rules, constraints.natural)
    return Arranged(rows, tuple(values), discarded, natural)


def _cards(
    ordered: Sequence[Card], positions: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
) -> Rows:
    b, m, f = positions
    return (
        tuple(ordered[p] for p in b),
        tuple(ordered[p] for p in m),
        tuple(ordered[p] for p in f),
    )


def _forced_natural(
    ordered: Sequence[Card],
    idx: np.ndarray,
    rules: ChineseRules,
    tables: RowTables,
    masks: RowMasks,
    engine: str,
    top_k: int,
) -> Arranged:
    if not rules.naturals:
        raise InfeasibleError("natural=force, but these rules have naturals off (naturals=false)")
    n = len(ordered)
    discard_ok = [bool(a & Place.DISCARD.bit) for a in masks.allowed]
    best_rank = None  # of the highest natural found: 1 is the rule set's highest
    candidates: list[tuple[tuple[int, ...], Natural]] = []
    for kept in itertools.combinations(range(n), 13):
        dropped = set(range(n)) - set(kept)
        if not all(discard_ok[p] for p in dropped):
            continue
        natural = detect_natural([ordered[p] for p in kept], rules)
        if natural is None or (best_rank is not None and natural.rank > best_rank):
            continue
        if best_rank is None or natural.rank < best_rank:
            best_rank, candidates = natural.rank, []
        candidates.append((kept, natural))
    if not candidates:
        raise InfeasibleError("natural=force, but no 13 of the cards hold a natural (CP-11)")
    best: tuple[float, Arranged] | None = None
    for kept, natural in candidates:
        keep_mask = sum(1 << p for p in kept)
        allowed = tuple(
            a if (keep_mask >> p) & 1 else Place.DISCARD.bit for p, a in enumerate(masks.allowed)
        )
        sub = replace(masks, allowed=allowed, keep=keep_mask)
        try:
            positions, values = _search(
                idx, tables, sub, strict=rules.strict_order, engine=engine, top_k=top_k
            )
        except InfeasibleError:
            continue
        if best is None or values[0] > best[0]:
            rows = tuple(_cards(ordered, p) for p in positions)
            discarded = tuple(ordered[p] for p in range(n) if not (keep_mask >> p) & 1)
            best = (values[0], Arranged(rows, tuple(values), discarded, natural))
    if best is None:
        raise InfeasibleError(
            "natural=force: the 13 cards that hold a natural admit no valid arrangement "
            "satisfying the row constraints"
        )
    return best[1]
