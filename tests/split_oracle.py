"""A brute-force oracle for constrained and 13-of-N solves, independent of the branch and bound
(``cpsolver.chinese.select``) and of CP-SAT: every choice of 13 kept cards, every one of the
72,072 ordered splits of them (both orientations of the two five-card rows), the constraints
checked card by card on numpy masks, CP-6 checked on the strength classes.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from cpsolver.cards import Card
from cpsolver.chinese.objectives import RowTables
from cpsolver.chinese.search import COMB3, COMB5, SPLIT_A, SPLIT_B, SPLIT_FRONT, subset_classes
from cpsolver.rules import Row

MASK5 = (np.int64(1) << COMB5.astype(np.int64)).sum(axis=1)
MASK3 = (np.int64(1) << COMB3.astype(np.int64)).sum(axis=1)
ROWS = ("front", "middle", "back")


def best_values(
    cards: Sequence[Card],
    tables: RowTables,
    *,
    strict: bool,
    pins: Mapping[Card, str] | None = None,
    forbids: Mapping[Card, set[str]] | None = None,
    minimum: Mapping[str, int] | None = None,
    min_category: Mapping[str, int] | None = None,
    top: int = 1,
) -> list[float]:
    """The ``top`` best distinct objective values (best first) of valid arrangements meeting
    the constraints; empty when none does. ``pins``: card -> front/middle/back/discard;
    ``forbids``: card -> places; ``minimum``: row -> lowest strength class;
    ``min_category``: row -> lowest hand category (checked on the class's category)."""
    pins = pins or {}
    forbids = forbids or {}
    minimum = minimum or {}
    min_category = min_category or {}
    category = tables.poker.category
    ordered = sorted(cards, key=lambda c: c.index)
    values: set[float] = set()
    for kept in itertools.combinations(range(len(ordered)), 13):
        kept_cards = [ordered[p] for p in kept]
        dropped = [c for c in ordered if c not in kept_cards]
        if any(pins.get(c, "discard") != "discard" for c in dropped):
            continue
        if any("discard" in forbids.get(c, set()) for c in dropped):
            continue
        if any(pins.get(c) == "discard" for c in kept_cards):
            continue
        pos = {c: i for i, c in enumerate(kept_cards)}

        def bits(chosen: list[Card], pos: dict[Card, int] = pos) -> int:
            return sum(1 << pos[c] for c in chosen if c in pos)

        idx = np.array([c.index for c in kept_cards], dtype=np.int64)
        cls5, cls3 = subset_classes(idx, tables.poker)
        for back, middle in ((SPLIT_A, SPLIT_B), (SPLIT_B, SPLIT_A)):
            cb, cm, cf = cls5[back], cls5[middle], cls3[SPLIT_FRONT]
            ok = (cb > cm) if strict else (cb >= cm)
            ok &= cm >= cf
            for row, masks, cls in (
                ("back", MASK5[back], cb),
                ("middle", MASK5[middle], cm),
                ("front", MASK3[SPLIT_FRONT], cf),
            ):
                required = bits([c for c, r in pins.items() if r == row])
                barred = bits([c for c, rs in forbids.items() if row in rs])
                ok &= (masks & required) == required
                ok &= (masks & barred) == 0
                ok &= cls >= minimum.get(row, 0)
                ok &= category[cls] >= min_category.get(row, 0)
            v = tables.back[cb] + tables.middle[cm] + tables.front[cf]
            values.update(v[ok].tolist())
    return sorted(values, reverse=True)[:top]


def search_key(arrangement: Any, tables: RowTables) -> float:
    """The search key of a solved arrangement (a Solution or an Arrangement) under ``tables``:
    the sum of its rows' table values, what the oracle's ``best_values`` ranks by. The solution's
    own ``value`` is the objective's reported value (royalty units for ``royalties``), so the
    tests compare keys, tie-break included."""
    hands = arrangement.hands
    return float(
        tables.back[hands[Row.BACK].strength]
        + tables.middle[hands[Row.MIDDLE].strength]
        + tables.front[hands[Row.FRONT].strength]
    )
