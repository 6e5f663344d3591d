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
cpsolver.errors.InvalidInputError: objective: unknown objective 'luck'; valid objectives: ...
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import numpy as np

from cpsolver.budget import budget_left, check_deadline
from cpsolver.cards import Card, CardsLike, parse_cards
from cpsolver.chinese.constrained import arrange, check_engine, declare_natural
from cpsolver.chinese.constraints import Constraints, NaturalPolicy, as_constraints
from cpsolver.chinese.estimator import (
    CALIBRATED_COST_MS,
    DEFAULT_ESTIMATOR,
    MAX_ARRANGEMENTS,
    MAX_BUDGET_MS,
    Estimator,
    EstimatorLike,
    budget_mode,
    resolve_count,
    resolve_estimator,
)
from cpsolver.chinese.ev import (
    Candidate,
    EvObjective,
    RowOdds,
    analyse,
    best_split_candidate,
    with_natural,
)
from cpsolver.chinese.ev_model import (
    TablesInfo,
    kernel_pairing,
    model_for,
    natural_code,
    natural_odds,
    tables_info,
    total_ev,
)
from cpsolver.chinese.naturals import Natural, detect_natural
from cpsolver.chinese.objectives import (
    DEFAULT_OBJECTIVE,
    Objective,
    RowTables,
    get_objective,
    reported_value,
)
from cpsolver.chinese.pool import (
    CalibrationBatch,
    calibrate_hand,
    calibrated_drafts_many,
)
from cpsolver.chinese.rollouts import MAX_ROLLOUTS, rollout
from cpsolver.chinese.search import (
    COMB3_LISTS,
    COMB5_LISTS,
    search,
    search_batch,
    search_removal_batch,
)
from cpsolver.errors import CardError, CardTypeError, Field, InvalidInputError, Violations
from cpsolver.estimate import Estimate
from cpsolver.evaluator.poker import Category, HandValue, evaluate, hand_from_class, poker_tables
from cpsolver.gc_pause import collector_paused
from cpsolver.rules import ChineseRules, Row
from cpsolver.rules.chinese import Declare, Scoring
from cpsolver.seeds import check_seed

__all__ = [
    "CALIBRATED_COST_MS",
    "CALIBRATION_95",
    "MAX_ALTERNATIVES",
    "MAX_ARRANGEMENTS",
    "MAX_BUDGET_MS",
    "Arrangement",
    "EvReport",
    "NaturalSettlement",
    "Solution",
    "budget_mode",
    "check_solve_limits",
    "ev_solution",
    "solve",
    "solve_many",
]

_ROWS = (Row.BACK, Row.MIDDLE, Row.FRONT)
MAX_ALTERNATIVES = 100
"""Most next-best arrangements one call reports (the CLI's ``--alternatives`` range and the
server's ``top_k``): :data:`~cpsolver.chinese.estimator.MAX_ARRANGEMENTS` less the best."""


def check_solve_limits(
    *, alternatives: int = 0, rollouts: int = 0, seed: int = 0, budget_ms: int = 0
) -> None:
    """Raise :class:`InvalidInputError` naming each of ``alternatives``, ``rollouts``, ``seed``
    and ``budget_ms`` that is not within its documented bound (all of them in one error): 0 to
    :data:`MAX_ALTERNATIVES`, 0 (no rollouts) to
    :data:`~cpsolver.chinese.rollouts.MAX_ROLLOUTS`, 0 to :data:`cpsolver.seeds.MAX_SEED`, 0 (no
    budget) to :data:`MAX_BUDGET_MS`.
    :func:`solve` checks them; so does the remote client before it sends a request, so both
    give the same error.

    >>> check_solve_limits(alternatives=MAX_ALTERNATIVES, rollouts=MAX_ROLLOUTS, seed=2**64 - 1)
    >>> check_solve_limits(rollouts=MAX_ROLLOUTS + 1)
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: rollouts: must be 0 to 20000, got 20001
    """
    problems = Violations()
    if not 0 <= alternatives <= MAX_ALTERNATIVES:
        problems.add(
            InvalidInputError("alternatives", f"must be 0..{MAX_ALTERNATIVES}, got {alternatives}")
        )
    if not 0 <= rollouts <= MAX_ROLLOUTS:
        problems.add(InvalidInputError("rollouts", f"must be 0 to {MAX_ROLLOUTS}, got {rollouts}"))
    with problems.check():
        check_seed(seed)
    if not 0 <= budget_ms <= MAX_BUDGET_MS:
        problems.add(
            InvalidInputError(
                "budget_ms",
                f"must be 0 (no budget) to {MAX_BUDGET_MS} milliseconds, got {budget_ms}",
            )
        )
    problems.raise_any()


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

    @classmethod
    def of(
        cls,
        hands: Mapping[Row, HandValue],
        value: float,
        rules: ChineseRules,
    ) -> Arrangement:
        """The arrangement of the evaluated rows ``hands`` worth ``value``, with each row's
        royalty and row value under ``rules`` (the rows' cards as the hands order them).

        >>> rows = {Row.BACK: evaluate("As Ks Qs Js Ts"), Row.MIDDLE: evaluate("9h 9d 9c 2h 2d"),
        ...         Row.FRONT: evaluate("7c 5d 3s")}
        >>> arr = Arrangement.of(rows, 0.0, ChineseRules())
        >>> arr.royalties[Row.BACK], arr.royalties[Row.MIDDLE], arr.royalty_total
        (5, 2, 7)
        """
        return _scored({row: hands[row] for row in _ROWS}, value, rules)

    @classmethod
    def of_rows(
        cls,
        back: Iterable[Card],
        middle: Iterable[Card],
        front: Iterable[Card],
        value: float,
        rules: ChineseRules,
    ) -> Arrangement:
        """:meth:`of` the rows' cards, evaluated under ``rules`` (its ``wheel``)."""
        wheel = rules.wheel_second_highest
        cards = {Row.BACK: back, Row.MIDDLE: middle, Row.FRONT: front}
        hands = {row: evaluate(tuple(cards[row]), wheel_second_highest=wheel) for row in _ROWS}
        return _scored(hands, value, rules)

    @property
    def royalty_total(self) -> int:
        """The royalty units (CP-8) the three rows earn together if each of them wins."""
        return sum(self.royalties.values())

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
    asked for); ``discarded`` are the cards left out of a 13-of-N solve (14 to 17 cards in).
    """

    arrangement: Arrangement
    objective: str
    rules: ChineseRules
    natural: Natural | None = None
    alternatives: tuple[Arrangement, ...] = field(default=())
    discarded: tuple[Card, ...] = field(default=())
    """Cards left out when more than 13 were given (13 of N), ascending; empty otherwise."""
    analysis: EvReport | None = None
    """For the ``ev`` objective: EV, per-row odds, every candidate with its EV and gap."""
    tables: TablesInfo | None = None
    """For the ``ev`` objective: the table file that answered (key, file, shipped or the
    user's, :class:`~cpsolver.chinese.ev_model.TablesInfo`); None for the other objectives."""

    @property
    def ev(self) -> float | None:
        """Expected units of the choice at the table (``ev`` objective only, else None): the
        estimator's (:attr:`analysis`), or, for a solve with no analysis (constraints, 13 of
        14-17 cards, ``engine="cpsat"``), the table model's EV its :attr:`value` holds."""
        if self.analysis is not None:
            return self.analysis.ev
        return self.arrangement.value if self.objective == "ev" else None

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
        "value", "objective", "rules", "alternatives": [...], "discarded": [cards], "tables":
        null | {key, file, source, directory}}``.
        """
        arr = self.arrangement
        out = {
            "arrangement": {row.label: [str(c) for c in arr.row(row)] for row in _ROWS},
            "natural": _natural_dict(self.natural),
            "hands": {row.label: _hand_dict(arr.hands[row]) for row in _ROWS},
            "royalties": {row.label: arr.royalties[row] for row in _ROWS},
            "row_values": {row.label: arr.row_values[row] for row in _ROWS},
            "value": _number(arr.value),
            "objective": self.objective,
            "rules": self.rules.to_dict(),
            "alternatives": [alt.to_dict() for alt in self.alternatives],
            "discarded": [str(c) for c in self.discarded],
            "tables": None if self.tables is None else self.tables.to_dict(),
        }
        if self.analysis is not None:
            out.update(self.analysis.to_dict(self))
        return out

    def __str__(self) -> str:
        """The rows, a declared natural and the value, a few lines
        (:func:`cpsolver.chinese.render.solution_text`)."""
        from cpsolver.chinese.render import solution_text

        return solution_text(self)

    def _repr_html_(self) -> str:
        """The solution drawn as HTML in a notebook (:mod:`cpsolver.chinese.render`)."""
        from cpsolver.chinese.render import solution_html

        return solution_html(self)


@dataclass(frozen=True, slots=True)
class NaturalSettlement:
    """How a declared natural settles against one opponent (CP-11), by the opponent model's
    natural rates: it collects ``units`` with P(``win``) (they declare none or a lower one),
    nothing with P(``tie``) (the same natural) and pays a higher natural with P(``loss``)."""

    name: str
    units: int
    win: float
    tie: float
    loss: float

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "natural": self.name,
            "units": self.units,
            "win": self.win,
            "tie": self.tie,
            "loss": self.loss,
        }


CALIBRATION_95: Mapping[Scoring, float] = MappingProxyType(
    {
        Scoring.PER_ROW: 0.50,
        Scoring.TWO_FOUR: 0.20,
        Scoring.SCOOP_DOUBLE: 0.50,
        Scoring.SCOOP_BONUS: 0.50,
    }
)
"""Half-width of the interval reported around the model's EV (no rollouts), per CP-9 scoring:
the 95th percentile of |EV - rollout mean of the same split| in ``bench.calibration``
(docs/BENCHMARKS.md: ``standard``, 20,000 rollouts, 0.50; ``two_four``, 40 hands at 4,000
rollouts, 0.18, rounded up; ``scoop_double`` and ``scoop_bonus:N`` take ``per_row``'s
until they have their own measurement). The model value is not exact; with rollouts the
interval is theirs."""


@dataclass(frozen=True, slots=True)
class EvReport:
    """What the ``ev`` objective found (RULES §2.3).

    ``ev``: expected units of the choice at the table (the rollout mean when rollouts ran; when
    a natural is declared, the declaration's EV); ``rows``: per-row P(win)/P(tie)/P(loss) of the
    arrangement against one opponent who plays rows, with the units the row collects when it
    wins and its royalty; ``ci95``: the 95% confidence interval of ``ev`` (rollouts, or the
    weighted pool of the ``calibrated`` estimator);
    ``rollouts``: opponent deals simulated; ``alternatives_ci95``: per
    :attr:`Solution.alternatives` entry, its interval; ``naturals``: natural declarations that
    were not chosen, as (name, EV, interval). ``candidates``: every candidate scored, the
    choice first (sent over the wire too: ``SolveResponse.candidates``). ``settlement``: when
    a natural is declared, how it settles against one opponent (then ``rows`` are the best ordinary
    arrangement's, for reference). ``estimate``: ``ev`` in the estimate shape of the other
    games, ``{value, low, high, exact}``: the rollouts' interval, the weighted pool's with
    the ``calibrated`` estimator, or else the model's measured calibration bound
    (:data:`CALIBRATION_95`); never exact. ``estimator``: the estimator that valued the
    choice (a budget's choice, not the budget: ``model``, ``calibrated`` or ``rollouts:N``).
    """

    ev: float
    rows: Mapping[Row, RowOdds]
    ci95: tuple[float, float] | None = None
    rollouts: int = 0
    alternatives_ci95: tuple[tuple[float, float] | None, ...] = ()
    naturals: tuple[tuple[str, float, tuple[float, float] | None], ...] = ()
    candidates: tuple[Candidate, ...] = ()
    settlement: NaturalSettlement | None = None
    estimate: Estimate | None = None
    estimator: Estimator = DEFAULT_ESTIMATOR

    def to_dict(self, solution: Solution) -> dict[str, Any]:
        """JSON keys ``ev``, ``ev_ci95``, ``rollouts``, ``rows`` and ``alternatives`` (the
        alternative arrangements, then undeclared naturals, each with ``ev`` and ``gap``)."""
        alternatives: list[dict[str, Any]] = []
        cis = self.alternatives_ci95 or (None,) * len(solution.alternatives)
        for alt, ci in zip(solution.alternatives, cis, strict=True):
            entry = alt.to_dict()
            entry.update(_ev_fields(alt.value, self.ev, ci))
            alternatives.append(entry)
        for name, ev, ci in self.naturals:
            alternatives.append({"natural": name, **_ev_fields(ev, self.ev, ci)})
        return {
            "ev": self.ev,
            "ev_ci95": None if self.ci95 is None else list(self.ci95),
            "ev_estimate": None if self.estimate is None else self.estimate.to_dict(),
            "estimator": str(self.estimator),
            "rollouts": self.rollouts,
            "rows": {row.label: self.rows[row].to_dict() for row in _ROWS},
            "natural_settlement": None if self.settlement is None else self.settlement.to_dict(),
            "alternatives": alternatives,
        }


def _ev_fields(ev: float, best: float, ci: tuple[float, float] | None) -> dict[str, Any]:
    fields: dict[str, Any] = {"ev": ev, "gap": best - ev}
    if ci is not None:
        fields["ci95"] = list(ci)
    return fields


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def _hand_dict(hand: HandValue) -> dict[str, Any]:
    return {"name": hand.name, "category": hand.category.label, "strength": hand.strength}


def _natural_dict(natural: Natural | None) -> dict[str, object] | None:
    return None if natural is None else natural.to_dict()


@lru_cache(maxsize=256)
def _resolve_cached(rules: str | ChineseRules | None, items: tuple[tuple[str, Any], ...]) -> Any:
    return ChineseRules.resolve(rules, **dict(items))


def resolve_rules(
    rules: str | os.PathLike[str] | ChineseRules | None, overrides: Mapping[str, Any]
) -> ChineseRules:
    """``ChineseRules.resolve`` memoised for hashable arguments (presets are resolved often;
    a rule file is read each time, it may have changed)."""
    if isinstance(rules, os.PathLike) or (
        isinstance(rules, str) and rules not in ChineseRules.PRESETS
    ):
        return ChineseRules.resolve(rules, **overrides)
    try:
        return _resolve_cached(rules, tuple(sorted(overrides.items())))  # type: ignore[no-any-return]
    except TypeError:  # unhashable override value: resolve without the cache
        return ChineseRules.resolve(rules, **overrides)


def _tables(
    objective: Objective, rules: ChineseRules, held: Sequence[int] | None = None
) -> RowTables:
    if isinstance(objective, EvObjective):
        # Constrained and 13-of-N solves scan additive tables: the per-row EV, exact for
        # per_row scoring; the two_four / scoop_double bonuses are not additive.
        if rules.scoring is not Scoring.PER_ROW:
            raise InvalidInputError(
                "objective",
                "the ev objective with constraints, 13 of N cards or the cpsat engine needs "
                f"scoring=per_row (got {rules.scoring.value}); use objective strength",
            )
        if held is not None:  # card removal: every card given is out of the opponents' reach
            return objective.row_tables_for(rules, held)
        return objective.row_tables(rules)
    if not objective.additive:
        raise InvalidInputError(
            "objective", f"objective {objective.name!r} is not supported by this solver"
        )
    return objective.row_tables(rules)


def _arrangement(
    indices: list[int],
    rows: tuple[int, int, int],
    classes: tuple[int, int, int],
    value: float,
    rules: ChineseRules,
) -> Arrangement:
    """Build the arrangement of hand ``indices`` (ascending card indices) from kernel output."""
    wheel = rules.wheel_second_highest
    hands = {}
    for row, positions, cls in zip(
        _ROWS,
        (COMB5_LISTS[rows[0]], COMB5_LISTS[rows[1]], COMB3_LISTS[rows[2]]),
        classes,
        strict=True,
    ):
        picked = [indices[p] for p in positions]
        hands[row] = hand_from_class(
            [_BY_INDEX[i] for i in picked], cls, wheel_second_highest=wheel
        )
    return _scored(hands, value, rules)


def _scored(hands: dict[Row, HandValue], value: float, rules: ChineseRules) -> Arrangement:
    """The arrangement of evaluated rows ``hands`` (back, middle, front order) worth ``value``,
    with each row's royalty and row value under ``rules``."""
    royalties = {}
    row_values = {}
    for row, hand in hands.items():
        royalties[row], row_values[row] = _row_units(rules, row, hand.category, hand.is_royal)
    return Arrangement(
        hands[Row.BACK].cards,
        hands[Row.MIDDLE].cards,
        hands[Row.FRONT].cards,
        MappingProxyType(hands),
        MappingProxyType(royalties),
        MappingProxyType(row_values),
        value,
    )


@lru_cache(maxsize=1024)
def _row_units(rules: ChineseRules, row: Row, category: Category, royal: bool) -> tuple[int, int]:
    return rules.royalty(row, category, royal=royal), rules.row_value(row, category, royal=royal)


def _natural(indices: list[int], rules: ChineseRules) -> Natural | None:
    """The natural a deterministic objective declares: any the hand holds, when allowed (CP-11).

    Declaring is the player's choice (CP-11); the deterministic objectives always declare, as
    a natural collects at least 3 units from every opponent and can lose only to a higher
    natural (docs/RULES-CHOICES.md).
    """
    return detect_natural([_BY_INDEX[i] for i in indices], rules) if rules.naturals else None


def solve(
    cards: CardsLike,
    rules: ChineseRules | str | os.PathLike[str] | None = "standard",
    objective: str | Objective | None = DEFAULT_OBJECTIVE,
    *,
    estimator: EstimatorLike | None = None,
    arrangements: int | None = None,
    constraints: Constraints | str | Iterable[str] | None = None,
    engine: str = "exact",
    seed: int = 0,
    deadline: float | None = None,
    alternatives: int | None = None,
    top: int | None = None,
    rollouts: int | None = None,
    calibrated: bool | None = None,
    budget_ms: int | None = None,
    **overrides: Any,
) -> Solution:
    """The best valid arrangement of 13 cards (never a fouled one, CP-6); or, given 14 to 17
    cards, of the best 13 of them (the rest are ``Solution.discarded``).

    The default objective ``ev`` maximises expected units at the table (RULES §2.3) from the
    rule set's trained tables (:class:`~cpsolver.chinese.ev_model.MissingTablesError` when the
    rule set has none); it decides a natural declaration by EV too (CP-11) and fills
    :attr:`Solution.analysis`. ``estimator`` says how it estimates
    (:mod:`cpsolver.chinese.estimator`): ``"calibrated"`` (the default: the 10 best
    candidates, less those more than :data:`~cpsolver.chinese.pool.CALIBRATED_MARGIN` below
    the best, re-scored against the importance-weighted opponent pool,
    :mod:`cpsolver.chinese.pool`: card removal beyond first order, about 1 ms, within the
    calibration target of docs/BENCHMARKS.md), ``"model"`` (the first-order tables alone,
    about 0.3 ms),
    ``"rollouts:N"`` (re-scored by simulating N deals of the opponents from the unseen cards,
    reproducible by ``seed``, stopping early after ``deadline`` seconds,
    :mod:`cpsolver.chinese.rollouts`) or ``"budget:Nms"`` (the finest of those that fits N
    milliseconds, :func:`~cpsolver.chinese.estimator.budget_mode`: never more than half the
    time left before ``deadline`` or a server call's deadline). Other objectives have only
    one way to value a split: they take ``"model"``, ``"budget:Nms"`` or no estimator, and
    a named ``calibrated`` or ``rollouts:N`` is an error; constrained, 13-of-N and
    ``cpsat`` solves value splits by the table model (the pool settles whole 13-card
    arrangements it chose), so there too the default is the model and a finer one named is an
    error.

    ``arrangements`` is how many arrangements come back: the best and the next best with
    distinct values (:attr:`Solution.alternatives`), 1 to
    :data:`~cpsolver.chinese.estimator.MAX_ARRANGEMENTS` (default 1). ``alternatives``,
    ``top``, ``rollouts``, ``calibrated`` and ``budget_ms`` are the deprecated names of these
    two (a :class:`DeprecationWarning`); naming the estimate or the count twice raises
    :class:`InvalidInputError` naming both.

    ``rules`` is a :class:`ChineseRules`, a preset name or a rule file's path (TOML, RULES
    §2.5, :mod:`cpsolver.rules.files`), ``overrides`` change options by name
    (``order="strict"``); ``objective`` names a registered objective
    (:func:`cpsolver.chinese.objectives.objective_names`). ``constraints`` (a
    :class:`cpsolver.chinese.constraints.Constraints` or its text, ``"As=front Kd!=back
    front>=pair natural=forbid"``) pins cards to rows, keeps them out of rows, sets minimum
    hands and forces or forbids a natural; ``engine`` is ``exact`` (default) or ``cpsat``
    (OR-Tools, slow: an independent check). Raises :class:`cpsolver.errors.CardError` for bad
    cards, :class:`cpsolver.errors.InvalidInputError` for unknown options, objectives or
    engines, and :class:`cpsolver.errors.InfeasibleError` when no valid arrangement satisfies
    the constraints.

    >>> s = solve("2c 3d 4h 5s 7c 8d 9h Jc Qd Kh 6s Ts As", objective="strength", order="strict")
    >>> s.hands[Row.BACK].name, s.hands[Row.MIDDLE].name, s.hands[Row.FRONT].name
    ('straight, ace high', 'straight, nine high', 'high card, 4-3-2')
    >>> s = solve("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s Ac Ad", "standard", "strength",
    ...           constraints="Ac!=middle")
    >>> [str(c) for c in s.discarded], s.hands[Row.MIDDLE].name
    (['3s', '5d'], 'full house, nines over twos')
    >>> s = solve("As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s", estimator="calibrated", arrangements=3)
    >>> str(s.analysis.estimator), len(s.alternatives)
    ('calibrated', 2)
    """
    # Every argument is checked before any error is raised: one error lists every violation.
    problems = Violations()
    with problems.check():
        indices = _indices_n(cards, "cards")
    with problems.check():
        resolved = resolve_rules(rules, overrides)
    with problems.check():
        obj = get_objective(objective)
    with problems.check():
        asked = resolve_estimator(
            estimator, rollouts=rollouts, calibrated=calibrated, budget_ms=budget_ms
        )
    with problems.check():
        count = resolve_count(arrangements, alternatives=alternatives, top=top)
    with problems.check():
        check_seed(seed)
    with problems.check():
        deadline = check_deadline(deadline)
    with problems.check():
        cons = as_constraints(constraints)
    with problems.check():
        check_engine(engine)
    problems.raise_any()
    plain = len(indices) == 13 and cons.rows_free and check_engine(engine) == "exact"
    if isinstance(obj, EvObjective) and plain:
        left = deadline if deadline is not None else budget_left()
        return _solve_ev(
            indices, resolved, obj, count, asked.chosen(left), seed, deadline, cons.natural
        )
    refuse_finer_estimate(asked)
    alternatives = count - 1
    tables = _tables(obj, resolved, indices)
    if not plain:
        picked = arrange(
            [_BY_INDEX[i] for i in indices],
            resolved,
            tables,
            cons,
            engine=engine,
            top_k=1 + alternatives,
        )
        if isinstance(obj, EvObjective):  # per-opponent row EV -> EV at the table
            model = model_for(resolved)
            values = [total_ev(model, v) for v in picked.values]
        else:
            values = [reported_value(obj, v) for v in picked.values]
        chosen = [
            _arrangement_of(rows, value, resolved)
            for rows, value in zip(picked.rows, values, strict=True)
        ]
        return Solution(
            chosen[0],
            obj.name,
            resolved,
            picked.natural,
            tuple(chosen[1:]),
            picked.discarded,
            tables=tables_info(resolved) if isinstance(obj, EvObjective) else None,
        )
    idx = np.array(indices, dtype=np.int64)
    found = search(idx, tables, strict=resolved.strict_order, top_k=1 + alternatives)
    ranked = [
        _arrangement(indices, rows, classes, value, resolved)
        for rows, classes, value in zip(
            found.rows,
            zip(found.back, found.middle, found.front, strict=True),
            [reported_value(obj, v) for v in found.values],
            strict=True,
        )
    ]
    natural = (
        _natural(indices, resolved)
        if cons.natural is _AUTO
        else declare_natural([_BY_INDEX[i] for i in indices], resolved, cons.natural)
    )
    return Solution(ranked[0], obj.name, resolved, natural, tuple(ranked[1:]))


_AUTO = as_constraints(None).natural


def _arrangement_of(
    rows: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]],
    value: float,
    rules: ChineseRules,
) -> Arrangement:
    """The arrangement of (back, middle, front) cards (constrained and 13-of-N solves)."""
    wheel = rules.wheel_second_highest
    hands = {
        row: evaluate(cards, wheel_second_highest=wheel)
        for row, cards in zip(_ROWS, rows, strict=True)
    }
    return _scored(hands, value, rules)


_BY_INDEX = tuple(Card.from_index(i) for i in range(52))


def _indices13(cards: CardsLike, field: Field) -> list[int]:
    """Sorted card indices of ``parse_cards(cards, count=13)`` (13 distinct Cards pass through
    parse_cards' shortcut)."""
    return sorted(c.index for c in parse_cards(cards, count=13, field=field))


def _indices_n(cards: CardsLike, field: Field) -> list[int]:
    """Sorted card indices of 13 cards (fast path) or of 14 to 17 cards (13 of N)."""
    if isinstance(cards, (list, tuple)) and len(cards) == 13:
        return _indices13(cards, field)
    parsed = parse_cards(cards, field=field)
    if len(parsed) < 13:
        raise CardError(field, f"expected 13 cards, got {len(parsed)}")
    if len(parsed) > 17:
        raise CardError(
            field, f"expected 13 cards (or 14 to 17 to keep the best 13), got {len(parsed)}"
        )
    return sorted(c.index for c in parsed)


def _solve_ev(
    indices: list[int],
    rules: ChineseRules,
    obj: EvObjective,
    count: int,
    estimator: Estimator,
    seed: int,
    deadline: float | None,
    policy: NaturalPolicy = NaturalPolicy.AUTO,
) -> Solution:
    """An ``ev`` solve of 13 cards by ``estimator`` (a budget already resolved to what it
    buys): the table model ranks every split; ``rollouts:N`` re-scores its best ``max(count,
    10)`` candidates, ``calibrated`` those of them close to the best
    (:func:`cpsolver.chinese.pool.calibrated_candidates`)."""
    model = model_for(rules)
    parsed = [_BY_INDEX[i] for i in indices]
    if estimator.kind == "calibrated":
        candidates = calibrate_hand(parsed, rules, keep=count, model=model)
    elif estimator.kind == "rollouts":
        candidates = analyse(parsed, rules, top=max(count, 10), model=model)
        candidates = rollout(
            parsed, rules, n=estimator.rollouts, seed=seed, deadline=deadline, model=model,
            candidates=candidates,
        )  # fmt: skip
    else:
        candidates = analyse(parsed, rules, top=count, model=model)
    return _ev_solution(parsed, rules, obj, candidates, count - 1, policy, estimator)


def _ev_solution(
    parsed: list[Card],
    rules: ChineseRules,
    obj: EvObjective,
    candidates: list[Candidate],
    alternatives: int,
    policy: NaturalPolicy = NaturalPolicy.AUTO,
    estimator: Estimator = DEFAULT_ESTIMATOR,
) -> Solution:
    """The Solution of an ``ev`` solve from its candidates, best first, valued by
    ``estimator``."""
    if policy is not NaturalPolicy.AUTO:  # forced or forbidden declaration (constraints)
        forced = declare_natural(parsed, rules, policy)  # InfeasibleError when impossible
        naturals = [c for c in candidates if c.natural]
        splits_only = [c for c in candidates if c.natural is None]
        candidates = naturals + splits_only if forced is not None else splits_only
    elif rules.declare is Declare.AUTO:  # CP-15: a natural held is declared, whatever it is worth
        naturals = [c for c in candidates if c.natural]
        candidates = naturals + [c for c in candidates if c.natural is None]
    choice = candidates[0]
    splits = [c for c in candidates if c.natural is None]
    declared = choice.natural is not None
    # The rows shown are the best split; their value is the EV of the choice (the natural's
    # when it is declared, and then the best split is the first alternative).
    shown = [replace(_ev_arrangement(splits[0], rules), value=choice.score)]
    others = splits if declared else splits[1:]
    shown += [_ev_arrangement(c, rules) for c in others[:alternatives]]
    settlement = None
    if declared:
        assert choice.natural is not None
        code = natural_code(rules, choice.natural)
        settlement = NaturalSettlement(
            choice.natural, rules.natural_units[code], *natural_odds(model_for(rules), code)
        )
    if choice.rollout_ci is not None:
        estimate = Estimate(choice.score, *choice.rollout_ci, exact=False)
    else:
        estimate = Estimate.around(choice.score, CALIBRATION_95[rules.scoring])
    report = EvReport(
        choice.score,
        MappingProxyType({row: splits[0].rows[row] for row in _ROWS}),
        choice.rollout_ci,
        choice.rollouts,
        tuple(c.rollout_ci for c in others[:alternatives]),
        tuple((c.natural, c.score, c.rollout_ci) for c in candidates[1:] if c.natural),
        tuple(candidates),
        settlement,
        estimate,
        estimator,
    )
    return Solution(
        shown[0],
        obj.name,
        rules,
        detect_natural(parsed, rules) if declared else None,
        tuple(shown[1:]),
        analysis=report,
        tables=tables_info(rules),
    )


def refuse_finer_estimate(asked: Estimator) -> None:
    """Raise :class:`InvalidInputError` on ``estimator`` when ``asked`` names a ``calibrated``
    or ``rollouts:N`` estimate for a call that cannot have one (another objective,
    constraints, 13 of N cards, the CP-SAT engine): the caller asked for what this call
    cannot give. The default is the best estimate each call can have, so there it is the
    table model's, and passes."""
    if asked.kind in ("rollouts", "calibrated") and asked is not DEFAULT_ESTIMATOR:
        raise InvalidInputError(
            "estimator",
            f"{asked} needs the ev objective on 13 cards without constraints or engine cpsat",
        )


def ev_solution(
    cards: Sequence[Card],
    rules: ChineseRules,
    candidates: list[Candidate],
    alternatives: int,
    policy: NaturalPolicy = NaturalPolicy.AUTO,
    estimator: Estimator = DEFAULT_ESTIMATOR,
) -> Solution:
    """The ``ev`` Solution an unconstrained solve of ``cards`` builds from its scored
    ``candidates`` (best first; :func:`cpsolver.chinese.rate.rate` adds the player's choice
    to them), with ``alternatives`` next best."""
    ordered = sorted(cards, key=lambda c: c.index)
    obj = get_objective("ev")
    assert isinstance(obj, EvObjective)
    return _ev_solution(ordered, rules, obj, candidates, alternatives, policy, estimator)


def _ev_arrangement(c: Candidate, rules: ChineseRules) -> Arrangement:
    hands = {Row.FRONT: c.hands[0], Row.MIDDLE: c.hands[1], Row.BACK: c.hands[2]}
    royalties = {row: c.rows[row].royalty for row in _ROWS}
    row_values = {row: int(c.rows[row].value) for row in _ROWS}
    return Arrangement(
        c.back,
        c.middle,
        c.front,
        MappingProxyType(hands),
        MappingProxyType(royalties),
        MappingProxyType(row_values),
        c.score,
    )


def solve_many(
    hands: Iterable[CardsLike],
    rules: ChineseRules | str | None = "standard",
    objective: str | Objective | None = DEFAULT_OBJECTIVE,
    *,
    estimator: EstimatorLike | None = None,
    arrangements: int | None = None,
    seed: int = 0,
    budget_ms: int | None = None,
    **overrides: Any,
) -> list[Solution]:
    """:func:`solve` for many hands at once; the search runs on all cores (numba threads).
    ``estimator``, ``arrangements`` and ``seed`` mean what they mean in :func:`solve`, for
    each hand (a budget is each hand's); the ``calibrated`` estimator (named, or bought by a
    budget) solves chunks of hands on two threads, one chunk's kernels running while the
    other's Python does (the answers are :func:`solve`'s, hand by hand); one that asks for
    more than the table model's best arrangement otherwise (``rollouts:N``, a budget that buys
    it, or more than one arrangement) solves the hands one by one with it.
    ``budget_ms`` is the deprecated name of ``estimator="budget:Nms"``.

    Bad cards raise as in :func:`solve`, with the field ``hands[i]``; one error lists the
    violations of every bad hand.

    >>> [s.hands[Row.FRONT].name for s in solve_many(
    ...     ["As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s", "2c 3c 4c 5c 6c 7d 8d 9d Td Jd Qh Kh Ah"])]
    ['high card, 7-5-3', 'high card, A-K-Q']
    """
    problems = Violations()  # every violation in one error, as in solve
    with problems.check():
        resolved = resolve_rules(rules, overrides)
    obj: Objective | None = None
    with problems.check():
        obj = get_objective(objective)
    with problems.check():
        asked = resolve_estimator(estimator, budget_ms=budget_ms)
        if obj is not None and not isinstance(obj, EvObjective):
            refuse_finer_estimate(asked)  # as solve refuses it, so BatchSolve too
    with problems.check():
        count = resolve_count(arrangements)
    with problems.check():
        check_seed(seed)
    if isinstance(hands, str) or not isinstance(hands, Iterable):
        problems.add(
            CardTypeError("hands", f"expected a list of hands, got {type(hands).__name__}")
        )
        hands = ()
    indices: list[list[int]] = []
    for i, hand in enumerate(hands):
        with problems.check():
            indices.append(_indices13(hand, ("hands", i)))
    problems.raise_any()
    assert obj is not None
    with collector_paused():  # the answers are many small objects, all kept (gc_pause doc)
        return _solve_all(indices, resolved, obj, count, asked.chosen(budget_left()), seed)


def _solve_all(
    indices: list[list[int]],
    resolved: ChineseRules,
    obj: Objective,
    count: int,
    chosen: Estimator,
    seed: int,
) -> list[Solution]:
    """:func:`solve_many`'s hands (validated card indices) solved."""
    if isinstance(obj, EvObjective) and chosen.kind == "calibrated":
        return _solve_calibrated_batch(indices, resolved, obj, count, chosen)
    if isinstance(obj, EvObjective) and (count > 1 or chosen.kind != "model"):
        return [_solve_ev(ix, resolved, obj, count, chosen, seed, None) for ix in indices]
    if isinstance(obj, EvObjective):
        return _solve_ev_batch(indices, resolved, obj, chosen)
    if count > 1:
        return [
            solve([_BY_INDEX[i] for i in ix], resolved, obj, arrangements=count) for ix in indices
        ]
    tables = _tables(obj, resolved)
    batch = np.array(indices, dtype=np.int64).reshape(-1, 13)
    found = search_batch(batch, tables, strict=resolved.strict_order)
    rows = found.rows.tolist()
    classes = found.classes.tolist()
    values = [reported_value(obj, v) for v in found.values.tolist()]
    return [
        Solution(
            _arrangement(ix, (r[0], r[1], r[2]), (c[0], c[1], c[2]), v, resolved),
            obj.name,
            resolved,
            _natural(ix, resolved),
        )
        for ix, r, c, v in zip(indices, rows, classes, values, strict=True)
    ]


CALIBRATED_CHUNK = 64
"""Most hands per chunk of :func:`_solve_calibrated_batch`'s threads."""
CALIBRATED_CHUNKS = 8
"""Chunks a shorter batch is cut into (of at least :data:`CALIBRATED_MIN_CHUNK` hands): the
last chunk runs alone, so a call of 100 hands cut in two chunks would keep the second thread
busy half of the time, cut in eight most of it."""
CALIBRATED_MIN_CHUNK = 8
CALIBRATED_THREADS = 2
"""Threads of a calibrated batch: each solves whole chunks, and while one holds the GIL
(Python: the candidates, the Solutions) the other's kernels run (the scans of a chunk,
:func:`cpsolver.chinese.pool.calibrated_drafts_many`, and its pool kernel,
:class:`cpsolver.chinese.pool.CalibrationBatch`: GIL-free calls, no numba threading layer, so
the process may fork afterwards)."""


def _solve_calibrated_batch(
    indices: list[list[int]],
    rules: ChineseRules,
    obj: EvObjective,
    count: int,
    estimator: Estimator,
) -> list[Solution]:
    """``solve_many`` under the ``calibrated`` estimator, the same Solutions as :func:`solve`
    hand by hand: chunks of :func:`calibrated_chunk` hands, each solved whole by one of
    :data:`CALIBRATED_THREADS` threads (its scans in one GIL-free call, its candidates, its
    pool kernel in one GIL-free call, its Solutions), under every rule set."""
    model = model_for(rules)
    parsed = [[_BY_INDEX[i] for i in ix] for ix in indices]

    def solution(cards: list[Card], candidates: list[Candidate]) -> Solution:
        return _ev_solution(cards, rules, obj, candidates, count - 1, NaturalPolicy.AUTO,
                            estimator)  # fmt: skip

    def solve_chunk(part: list[list[Card]]) -> list[Solution]:
        drafted = calibrated_drafts_many(part, rules, keep=count, model=model)
        batch = CalibrationBatch([o for o, _ in drafted], rules, [d for _, d in drafted])
        batch.run()
        return [solution(cards, c) for cards, c in zip(part, batch.results(), strict=True)]

    chunk = calibrated_chunk(len(parsed))
    parts = [parsed[a : a + chunk] for a in range(0, len(parsed), chunk)]
    if len(parts) <= 1:
        return [s for part in parts for s in solve_chunk(part)]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(CALIBRATED_THREADS) as threads:
        return [s for solved in threads.map(solve_chunk, parts) for s in solved]


def calibrated_chunk(hands: int) -> int:
    """Hands per chunk of a calibrated batch of ``hands``: :data:`CALIBRATED_CHUNKS` chunks,
    each of :data:`CALIBRATED_MIN_CHUNK` to :data:`CALIBRATED_CHUNK` hands.

    >>> calibrated_chunk(100), calibrated_chunk(2000), calibrated_chunk(20)
    (13, 64, 8)
    """
    wanted = -(-hands // CALIBRATED_CHUNKS)
    return max(CALIBRATED_MIN_CHUNK, min(CALIBRATED_CHUNK, wanted))


def _solve_ev_batch(
    indices: list[list[int]], rules: ChineseRules, obj: EvObjective, estimator: Estimator
) -> list[Solution]:
    """The parallel card-removal kernel finds every hand's best split at once (the same scan,
    values and tie-break as :func:`solve`'s); each Solution is then assembled as solve does."""
    model = model_for(rules)
    batch = np.array(indices, dtype=np.int64).reshape(-1, 13)
    found = search_removal_batch(
        batch, model.removal, poker_tables(rules.wheel_second_highest),
        mode=kernel_pairing(model), strict=rules.strict_order, parallel=True,
    )  # fmt: skip
    solutions = []
    for ix, r, c, v, odds in zip(
        indices, found.rows.tolist(), found.classes.tolist(), found.values.tolist(),
        found.odds.tolist(), strict=True,
    ):  # fmt: skip
        parsed = [_BY_INDEX[i] for i in ix]

        def odds_of(row: int, cls: int, odds: list[list[float]] = odds) -> tuple[float, float]:
            return odds[row][0], odds[row][1]  # the kernel's, rows in Row order

        best = best_split_candidate(
            tuple(parsed), (r[0], r[1], r[2]), (c[0], c[1], c[2]), v, model, odds_of
        )
        candidates = with_natural([best], np.array(ix, dtype=np.int8), rules, model)
        solutions.append(
            _ev_solution(parsed, rules, obj, candidates, 0, NaturalPolicy.AUTO, estimator)
        )
    return solutions
