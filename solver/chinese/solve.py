"""``solve``: the best arrangement of 13 cards under a rule set and a named objective.

>>> s = solve("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s")
>>> [str(c) for c in s.back], s.hands[Row.BACK].name
(['As', 'Ks', 'Qs', 'Js', 'Ts'], 'royal flush')
>>> [str(c) for c in s.middle], [str(c) for c in s.front]
(['9c', '9d', '9h', '2d', '2h'], ['7c', '5d', '3s'])
>>> s.royalties[Row.BACK], s.royalties[Row.MIDDLE], s.royalties[Row.FRONT]
(5, 2, 0)
>>> solve("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s", objective="luck")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
solver.errors.InvalidInputError: objective: unknown objective 'luck'; valid objectives: ...
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import numpy as np

from solver.cards import Card, CardsLike, parse_cards
from solver.chinese.naturals import Natural, detect_natural
from solver.chinese.objectives import DEFAULT_OBJECTIVE, Objective, RowTables, get_objective
from solver.chinese.search import COMB3, COMB5, search, search_batch
from solver.errors import InvalidInputError
from solver.evaluator.poker import HandValue, evaluate
from solver.rules import ChineseRules, Row

__all__ = ["Arrangement", "Solution", "solve", "solve_many"]

_ROWS = (Row.BACK, Row.MIDDLE, Row.FRONT)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Three rows of a valid split, their evaluated hands, royalties and objective value.

    Each row's cards come strongest group first (as :func:`solver.evaluate` orders them).
    ``royalties[row]`` is the royalty (CP-8) the row earns if it wins (0 when it earns none);
    ``row_values[row]`` is what it collects when it wins (1, the royalty, or 1 + royalty under
    ``royalty_mode=add``).
    """

    back: tuple[Card, ...]
    middle: tuple[Card, ...]
    front: tuple[Card, ...]
    hands: Mapping[Row, HandValue]
    royalties: Mapping[Row, int]
    row_values: Mapping[Row, int]
    value: float

    def row(self, row: Row) -> tuple[Card, ...]:
        """The cards of ``row``."""
        return self.front if row is Row.FRONT else self.middle if row is Row.MIDDLE else self.back

    def to_dict(self) -> dict[str, Any]:
        """JSON shape: ``{back, middle, front, hands, royalties, value}``."""
        return {
            **{row.label: [str(c) for c in self.row(row)] for row in _ROWS},
            "hands": {row.label: _hand_dict(self.hands[row]) for row in _ROWS},
            "royalties": {row.label: self.royalties[row] for row in _ROWS},
            "value": _number(self.value),
        }


@dataclass(frozen=True, slots=True)
class Solution:
    """The solver's answer for one hand (RULES §2.3 for a deterministic objective).

    ``back``/``middle``/``front``/``hands``/``royalties``/``row_values``/``value`` describe the
    chosen valid arrangement (see :class:`Arrangement`); ``natural`` is the natural the hand
    declares (None when it declares none, CP-11): when it is set the hand plays as that natural
    and the rows are only the best ordinary arrangement, shown for reference; ``alternatives``
    are the next best arrangements with distinct objective values, best first (empty unless
    asked for).
    """

    arrangement: Arrangement
    objective: str
    rules: ChineseRules
    natural: Natural | None = None
    alternatives: tuple[Arrangement, ...] = field(default=())

    @property
    def back(self) -> tuple[Card, ...]:
        """The back row (5 cards)."""
        return self.arrangement.back

    @property
    def middle(self) -> tuple[Card, ...]:
        """The middle row (5 cards)."""
        return self.arrangement.middle

    @property
    def front(self) -> tuple[Card, ...]:
        """The front row (3 cards)."""
        return self.arrangement.front

    @property
    def hands(self) -> Mapping[Row, HandValue]:
        """Evaluated hand of each row."""
        return self.arrangement.hands

    @property
    def royalties(self) -> Mapping[Row, int]:
        """Royalty (CP-8) each row earns if it wins; 0 when none."""
        return self.arrangement.royalties

    @property
    def row_values(self) -> Mapping[Row, int]:
        """Units each row collects when it wins (CP-8 with ``royalty_mode``)."""
        return self.arrangement.row_values

    @property
    def value(self) -> float:
        """The objective's value of the arrangement."""
        return self.arrangement.value

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``cpsolver solve --json``.

        ``{"arrangement": {back, middle, front}, "natural": null | {name, units, ...},
        "hands": {row: {name, category, strength}}, "royalties": {row: units}, "row_values",
        "value", "objective", "rules", "alternatives": [...]}``.
        """
        arr = self.arrangement
        return {
            "arrangement": {row.label: [str(c) for c in arr.row(row)] for row in _ROWS},
            "natural": _natural_dict(self.natural),
            "hands": {row.label: _hand_dict(arr.hands[row]) for row in _ROWS},
            "royalties": {row.label: arr.royalties[row] for row in _ROWS},
            "row_values": {row.label: arr.row_values[row] for row in _ROWS},
            "value": _number(arr.value),
            "objective": self.objective,
            "rules": self.rules.to_dict(),
            "alternatives": [alt.to_dict() for alt in self.alternatives],
        }


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def _hand_dict(hand: HandValue) -> dict[str, Any]:
    return {"name": hand.name, "category": hand.category.label, "strength": hand.strength}


def _natural_dict(natural: Natural | None) -> dict[str, object] | None:
    return None if natural is None else natural.to_dict()


@lru_cache(maxsize=256)
def _resolve_cached(rules: str | ChineseRules | None, items: tuple[tuple[str, Any], ...]) -> Any:
    return ChineseRules.resolve(rules, **dict(items))


def resolve_rules(rules: str | ChineseRules | None, overrides: Mapping[str, Any]) -> ChineseRules:
    """``ChineseRules.resolve`` memoised for hashable arguments (presets are resolved often)."""
    try:
        return _resolve_cached(rules, tuple(sorted(overrides.items())))  # type: ignore[no-any-return]
    except TypeError:  # unhashable override value: resolve without the cache
        return ChineseRules.resolve(rules, **overrides)


def _tables(objective: Objective, rules: ChineseRules) -> RowTables:
    if not objective.additive:
        raise InvalidInputError(
            "objective", f"objective {objective.name!r} is not supported by this solver"
        )
    return objective.row_tables(rules)


def _arrangement(
    ordered: Sequence[Card],
    rows: tuple[int, int, int],
    value: float,
    rules: ChineseRules,
) -> Arrangement:
    b, m, f = rows
    wheel = rules.wheel_second_highest
    hands = {
        Row.BACK: evaluate([ordered[p] for p in COMB5[b]], wheel_second_highest=wheel),
        Row.MIDDLE: evaluate([ordered[p] for p in COMB5[m]], wheel_second_highest=wheel),
        Row.FRONT: evaluate([ordered[p] for p in COMB3[f]], wheel_second_highest=wheel),
    }
    royalties = {}
    row_values = {}
    for row, hand in hands.items():
        royalties[row] = rules.royalty(row, hand.category, royal=hand.is_royal)
        row_values[row] = rules.row_value(row, hand.category, royal=hand.is_royal)
    return Arrangement(
        hands[Row.BACK].cards,
        hands[Row.MIDDLE].cards,
        hands[Row.FRONT].cards,
        MappingProxyType(hands),
        MappingProxyType(royalties),
        MappingProxyType(row_values),
        value,
    )


def _natural(cards: Sequence[Card], rules: ChineseRules) -> Natural | None:
    """The natural a deterministic objective declares: any the hand holds, when allowed (CP-11).

    Declaring is the player's choice (CP-11); the deterministic objectives always declare, as
    a natural collects at least 3 units from every opponent and can lose only to a higher
    natural (docs/RULES-CHOICES.md).
    """
    return detect_natural(cards) if rules.naturals else None


def solve(
    cards: CardsLike,
    rules: ChineseRules | str | None = "standard",
    objective: str | Objective = DEFAULT_OBJECTIVE,
    *,
    alternatives: int = 0,
    **overrides: Any,
) -> Solution:
    """The best valid arrangement of 13 cards (never a fouled one, CP-6).

    ``rules`` is a :class:`ChineseRules` or a preset name, ``overrides`` change options by name
    (``order="strict"``); ``objective`` names a registered objective
    (:func:`solver.chinese.objectives.objective_names`); ``alternatives`` asks for that many
    next-best arrangements with distinct values. Raises :class:`solver.errors.CardError` for
    bad cards and :class:`solver.errors.InvalidInputError` for unknown options or objectives.

    >>> s = solve("2c 3d 4h 5s 7c 8d 9h Jc Qd Kh 6s Ts As", order="strict")
    >>> s.hands[Row.BACK].name, s.hands[Row.MIDDLE].name, s.hands[Row.FRONT].name
    ('straight, ace high', 'straight, nine high', 'high card, 4-3-2')
    """
    parsed = parse_cards(cards, count=13)
    resolved = resolve_rules(rules, overrides)
    obj = get_objective(objective)
    tables = _tables(obj, resolved)
    if alternatives < 0:
        raise InvalidInputError("alternatives", f"must be >= 0, got {alternatives}")
    ordered = sorted(parsed, key=_index)
    idx = np.fromiter((c.index for c in ordered), dtype=np.int64, count=13)
    found = search(idx, tables, strict=resolved.strict_order, top_k=1 + alternatives)
    arrangements = [
        _arrangement(ordered, rows, value, resolved)
        for rows, value in zip(found.rows, found.values, strict=True)
    ]
    return Solution(
        arrangements[0],
        obj.name,
        resolved,
        _natural(parsed, resolved),
        tuple(arrangements[1:]),
    )


def _index(card: Card) -> int:
    return card.index


def solve_many(
    hands: Iterable[CardsLike],
    rules: ChineseRules | str | None = "standard",
    objective: str | Objective = DEFAULT_OBJECTIVE,
    **overrides: Any,
) -> list[Solution]:
    """:func:`solve` for many hands at once; the search runs on all cores (numba threads).

    Bad cards raise as in :func:`solve`, with the field ``hands[i]``.

    >>> [s.hands[Row.FRONT].name for s in solve_many(
    ...     ["As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s", "2c 3c 4c 5c 6c 7d 8d 9d Td Jd Qh Kh Ah"])]
    ['high card, 7-5-3', 'high card, A-K-Q']
    """
    resolved = resolve_rules(rules, overrides)
    obj = get_objective(objective)
    tables = _tables(obj, resolved)
    parsed = [parse_cards(h, count=13, field=f"hands[{i}]") for i, h in enumerate(hands)]
    ordered = [sorted(p, key=_index) for p in parsed]
    batch = np.array([[c.index for c in o] for o in ordered], dtype=np.int64).reshape(-1, 13)
    found = search_batch(batch, tables, strict=resolved.strict_order)
    rows = found.rows.tolist()
    values = found.values.tolist()
    return [
        Solution(
            _arrangement(o, (r[0], r[1], r[2]), v, resolved),
            obj.name,
            resolved,
            _natural(p, resolved),
        )
        for o, r, v, p in zip(ordered, rows, values, parsed, strict=True)
    ]
