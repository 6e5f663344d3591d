"""``rate``: what a player's own arrangement is worth, beside the best one (RULES §2.3).

A player set back, middle and front (or declared a natural); :func:`rate` checks it (CP-6: a
fouled arrangement is rated as the foul it is, CP-10), values it with the same estimator
``solve`` uses (:mod:`cpsolver.chinese.estimator`), finds the best arrangement and reports the
**EV lost** (best minus the player's), its rank among every valid choice and, row by row, the
odds and units of the player's rows beside the best's.

How each choice is valued:

* ``model``: every valid split by the opponent tables reweighted for the 13 cards
  (card removal), the very values ``solve`` ranks (equal to the bit: the EV lost of ``solve``'s
  own arrangement is 0); the interval of the EV lost is not known (None).
* ``calibrated`` (the default, as ``solve``'s) and ``rollouts:N``: ``solve``'s candidates (the
  model's best 10) and the player's choice re-scored together (the same weighted pool, or the same
  N deals from ``seed``), so the best is the best of them; the EV lost's 95% interval combines the
  two choices' half-widths as if independent (they share the pool or the deals, which only narrows
  the true one), its low end at least 0.
* a foul: each opponent who plays rows collects all three of its rows (with the CP-9 bonus of
  a scoop), one who declares a natural collects it: by the model's reweighted rows, or, for
  ``calibrated`` and ``rollouts:N``, against the weighted pool.

``rank`` is 1 + the number of distinct values above the player's among every valid choice:
the re-scored ones (and declaring the natural the hand holds) by the estimator against the
player's value, every other split by the model against the model's value of the player's
choice (the two scales are never mixed); the k-th entry of ``solve(cards, arrangements=k)``
has rank k. A foul has no rank.

>>> r = rate(("As Ks Qs Js Ts", "9h 9d 9c 2h 2d", "7c 5d 3s"))
>>> r.ev_lost, r.rank, r.played_best
(0.0, 1, True)
>>> f = rate(("9h 9d 9c 2h 2d", "As Ks Qs Js Ts", "7c 5d 3s"))
>>> f.fouled, f.rank, f.mistakes, f.ev < 0 < f.ev_lost
(True, None, ('foul',), True)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

import numpy as np

from cpsolver.budget import budget_left, check_deadline
from cpsolver.cards import Card
from cpsolver.chinese.constraints import NaturalPolicy
from cpsolver.chinese.estimator import Estimator, EstimatorLike, resolve_count, resolve_estimator
from cpsolver.chinese.ev import Candidate, RowOdds, analyse, best_split_candidate
from cpsolver.chinese.ev_model import (
    OpponentModel,
    kernel_pairing,
    model_for,
    row_values,
    total_ev,
)
from cpsolver.chinese.naturals import Natural
from cpsolver.chinese.objectives import get_objective
from cpsolver.chinese.pool import calibrate, calibrated_candidates, pool_for, pool_weights
from cpsolver.chinese.rollouts import rollout
from cpsolver.chinese.scoring import read_seat
from cpsolver.chinese.search import (
    COMB3_LISTS,
    COMB5_LISTS,
    removal_split_values,
    subset_classes,
)
from cpsolver.chinese.solve import CALIBRATION_95, Solution, ev_solution, resolve_rules
from cpsolver.errors import Violations
from cpsolver.evaluator.poker import HandValue, poker_tables
from cpsolver.rules import ChineseRules, Row
from cpsolver.rules.chinese import Scoring
from cpsolver.seeds import check_seed

__all__ = [
    "MISTAKE_KINDS",
    "PLAYED_BEST",
    "Rating",
    "RowRating",
    "foul_rows_ev",
    "mistakes_of",
    "rate",
]

_ROWS = (Row.BACK, Row.MIDDLE, Row.FRONT)
PLAYED_BEST = 1e-9
"""EV lost up to this many units counts as the best played (float noise, not a choice)."""

MISTAKE_KINDS: Mapping[str, str] = MappingProxyType(
    {
        "foul": "fouled the rows (CP-6): paid every opponent's rows",
        "missed_natural": "played rows where declaring the natural held was worth more",
        "natural_declared": "declared a natural where playing rows was worth more",
        "front_too_strong": "a stronger front than the best arrangement's",
        "front_too_weak": "a weaker front than the best arrangement's",
        "royalty_given_up": "fewer royalty units than the best arrangement earns",
        "row_balance": "the same front strength, the five-card rows split worse",
    }
)
"""What went wrong, by kind (a hand can show several; :func:`mistakes_of`)."""


@dataclass(frozen=True, slots=True)
class RowRating:
    """One row of a rated choice against one opponent who plays rows: its cards and hand,
    P(win)/P(tie)/P(loss), ``value`` (units it collects when it wins), ``royalty`` (CP-8) and
    ``units`` (its expected units by the model's reweighted tables: value x P(win) less what
    it pays when it loses; a fouled row loses always and pays the opponent's row)."""

    row: Row
    cards: tuple[Card, ...]
    hand: HandValue
    win: float
    tie: float
    loss: float
    value: float
    royalty: int
    units: float

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "cards": [str(c) for c in self.cards],
            "hand": self.hand.name,
            "win": self.win,
            "tie": self.tie,
            "loss": self.loss,
            "value": self.value,
            "royalty": self.royalty,
            "units": self.units,
        }


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's choice rated beside the best (module doc).

    ``cards``: the 13 cards, ascending; ``rows``: the player's rows rated (empty for a
    declared natural); ``natural``: the natural declared (None for rows); ``fouled`` and
    ``foul_reason``: CP-6; ``ev`` (with ``ev_ci95``): expected units of the choice at the
    table; ``best``: the best arrangement, as ``solve`` returns it (its ``analysis.rows`` beside
    ``rows``); ``best_rows``: the best's rows rated alike; ``ev_lost`` (>= 0, with
    ``ev_lost_ci95`` where the estimator has one); ``rank`` (1 = best; None for a foul) among
    ``choices`` distinct values; ``mistakes``: kinds of :data:`MISTAKE_KINDS`;
    ``available_natural``: the natural the cards hold; ``estimator``: what valued them.
    """

    cards: tuple[Card, ...]
    rules: ChineseRules
    estimator: Estimator
    rows: tuple[RowRating, ...]
    natural: Natural | None
    fouled: bool
    foul_reason: str
    ev: float
    ev_ci95: tuple[float, float] | None
    best: Solution
    best_rows: tuple[RowRating, ...]
    ev_lost: float
    ev_lost_ci95: tuple[float, float] | None
    rank: int | None
    choices: int
    mistakes: tuple[str, ...]
    available_natural: Natural | None

    @property
    def best_ev(self) -> float:
        """Expected units of the best choice."""
        assert self.best.ev is not None
        return self.best.ev

    @property
    def played_best(self) -> bool:
        """True when the choice is worth the best's (EV lost within :data:`PLAYED_BEST`)."""
        return self.ev_lost <= PLAYED_BEST

    def row(self, row: Row) -> RowRating:
        """The player's ``row`` rated (raises KeyError for a declared natural)."""
        for rated in self.rows:
            if rated.row is row:
                return rated
        raise KeyError(row)

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``cpsolver rate --json`` (docs/CLI-JSON.md)."""
        return {
            "cards": [str(c) for c in self.cards],
            "played": {
                "rows": {r.row.label: r.to_dict() for r in self.rows} or None,
                "natural": None if self.natural is None else self.natural.to_dict(),
                "fouled": self.fouled,
                "foul_reason": self.foul_reason or None,
                "ev": self.ev,
                "ev_ci95": None if self.ev_ci95 is None else list(self.ev_ci95),
            },
            "best": {
                "rows": {r.row.label: r.to_dict() for r in self.best_rows},
                "natural": None if self.best.natural is None else self.best.natural.to_dict(),
                "ev": self.best_ev,
            },
            "ev_lost": self.ev_lost,
            "ev_lost_ci95": None if self.ev_lost_ci95 is None else list(self.ev_lost_ci95),
            "played_best": self.played_best,
            "rank": self.rank,
            "choices": self.choices,
            "mistakes": list(self.mistakes),
            "available_natural": (
                None if self.available_natural is None else self.available_natural.to_dict()
            ),
            "estimator": str(self.estimator),
            "rules": self.rules.to_dict(),
            "solution": self.best.to_dict(),
        }

    def __str__(self) -> str:
        """The choice, its EV beside the best's, the loss, rank and mistakes
        (:func:`cpsolver.chinese.render.rating_text`)."""
        from cpsolver.chinese.render import rating_text

        return rating_text(self)

    def _repr_html_(self) -> str:
        """The rating drawn as HTML in a notebook (:mod:`cpsolver.chinese.render`)."""
        from cpsolver.chinese.render import rating_html

        return rating_html(self)


def foul_rows_ev(lost_rows: float, rules: ChineseRules) -> float:
    """Per-opponent row EV of a fouled hand against one who plays rows and collects
    ``lost_rows`` expected row units from it (CP-10: all three rows, the CP-9 bonus of a
    scoop).

    >>> two_four = ChineseRules.resolve(None, scoring="two_four")
    >>> foul_rows_ev(3.0, ChineseRules()), foul_rows_ev(3.0, two_four)
    (-3.0, -4.0)
    """
    if rules.scoring is Scoring.SCOOP_DOUBLE:
        return -2.0 * lost_rows
    if rules.scoring is Scoring.TWO_FOUR:
        return -lost_rows - 1.0
    return -lost_rows


def mistakes_of(
    played: tuple[int, int, int] | None,
    played_royalties: int,
    declared: bool,
    best: tuple[int, int, int] | None,
    best_royalties: int,
    fouled: bool,
    lost: float,
) -> tuple[str, ...]:
    """The kinds (:data:`MISTAKE_KINDS`) of a choice that lost ``lost`` units: ``played`` and
    ``best`` are (back, middle, front) strength classes (None for a natural).

    >>> mistakes_of((5000, 4000, 3000), 0, False, (5000, 4500, 2000), 2, False, 0.4)
    ('front_too_strong', 'royalty_given_up')
    >>> mistakes_of((5000, 4000, 3000), 0, False, None, 0, False, 1.0)
    ('missed_natural',)
    """
    if lost <= PLAYED_BEST:
        return ()
    if fouled:
        return ("foul",)
    if best is None:
        return ("missed_natural",)
    if declared or played is None:
        return ("natural_declared",)
    kinds = []
    if played[2] > best[2]:
        kinds.append("front_too_strong")
    elif played[2] < best[2]:
        kinds.append("front_too_weak")
    if played_royalties < best_royalties:
        kinds.append("royalty_given_up")
    if not kinds:
        kinds.append("row_balance")
    return tuple(kinds)


_SUBSET5 = {tuple(c): i for i, c in enumerate(COMB5_LISTS)}
_SUBSET3 = {tuple(c): i for i, c in enumerate(COMB3_LISTS)}
_EV = get_objective("ev")


def rate(
    played: object,
    rules: ChineseRules | str | None = "standard",
    *,
    estimator: EstimatorLike | None = None,
    arrangements: int | None = None,
    seed: int = 0,
    deadline: float | None = None,
    **overrides: Any,
) -> Rating:
    """Rate the choice ``played`` under ``rules`` (module doc): rows as ``(back, middle,
    front)``, a mapping ``{"back", "middle", "front"}``, a ``Solution`` or ``Arrangement``; a
    declared natural as ``{"cards": [13 cards], "natural": true}`` or a :class:`Natural`.
    ``estimator``, ``arrangements`` (of :attr:`Rating.best`), ``seed`` and ``deadline`` mean
    what they mean in :func:`cpsolver.solve`. Bad input raises
    :class:`~cpsolver.errors.InvalidInputError` (or ``CardError``) naming the field
    (``back[1]``, ``cards``), every violation at once; a foul is an answer, not an error.

    >>> r = rate({"back": "Jh Th 9c 8c 7d", "middle": "As Ad Kh Kd Qs", "front": "5s 4s 2h"})
    >>> r.rank > 1, r.ev_lost > 0, r.best_ev > r.ev
    (True, True, True)
    """
    problems = Violations()  # every violation at once, as in solve
    resolved = None
    with problems.check():
        resolved = resolve_rules(rules, overrides)
    with problems.check():
        asked = resolve_estimator(estimator)
    with problems.check():
        count = resolve_count(arrangements)
    with problems.check():
        check_seed(seed)
    with problems.check():
        deadline = check_deadline(deadline)
    with problems.check():
        seat = read_seat(played, resolved or ChineseRules())
    problems.raise_any()
    assert resolved is not None
    left = deadline if deadline is not None else budget_left()
    chosen = asked.chosen(left)
    cards = tuple(sorted(seat.cards, key=lambda c: c.index))
    model = model_for(resolved)
    hand = np.array([c.index for c in cards], dtype=np.int64)
    cls5, cls3 = subset_classes(hand, poker_tables(resolved.wheel_second_highest))
    splits, values, (prob, below, paid) = removal_split_values(
        hand, cls5, cls3, model.removal, mode=kernel_pairing(model), strict=resolved.strict_order
    )
    shapes_pos = model.removal.shapes.pos
    compact_values = model.removal.values

    def odds(row: int, cls: int) -> tuple[float, float]:
        return model.removal.odds(row, cls, prob, below)

    def row_units(row: int, cls: int) -> float:
        i = int(shapes_pos[cls])
        return float(compact_values[row, i] * below[row, i] - paid[row, i])

    # Every valid choice's value by its classes (back, middle, front): splits that differ
    # only in suits are one choice (the values depend on the classes alone).
    model_values: dict[tuple[int, int, int], float] = {}
    for (_, back, middle, front), value in zip(splits.tolist(), values.tolist(), strict=True):
        model_values.setdefault((back, middle, front), total_ev(model, value))
    by_classes = dict(model_values)  # each choice's value: the estimator's where it re-scored

    ordered = tuple(cards)
    played_candidate: Candidate | None = None
    played_classes: tuple[int, int, int] | None = None
    if seat.rows is not None and seat.hands is not None and not seat.fouled:
        hands = seat.hands
        played_classes = (
            hands[Row.BACK].strength,
            hands[Row.MIDDLE].strength,
            hands[Row.FRONT].strength,
        )
        played_candidate = _candidate(
            ordered, seat.rows, played_classes, by_classes[played_classes], model, odds
        )

    finer = chosen.kind in ("calibrated", "rollouts")
    if chosen.kind == "calibrated":  # the candidates a calibrated solve re-scores
        candidates = calibrated_candidates(cards, resolved, keep=count, model=model)
    else:
        candidates = analyse(cards, resolved, top=max(count, 10) if finer else count, model=model)
    known = {c.classes for c in candidates if c.natural is None}
    if finer and played_candidate is not None and _fmb(played_classes) not in known:
        candidates.append(played_candidate)
    if chosen.kind == "calibrated":
        candidates = calibrate(cards, resolved, candidates)
    elif chosen.kind == "rollouts":
        candidates = rollout(
            cards, resolved, n=chosen.rollouts, seed=seed, deadline=deadline, model=model,
            candidates=candidates,
        )  # fmt: skip
    best = ev_solution(cards, resolved, candidates, count - 1, NaturalPolicy.AUTO, chosen)
    rescored: dict[tuple[int, int, int], float] = {}
    for c in candidates:  # the re-scored choices take the estimator's values
        if c.natural is None and finer:
            rescored[(c.classes[2], c.classes[1], c.classes[0])] = c.score
    by_classes.update(rescored)
    choice_values = list(by_classes.values())
    natural_candidate = next((c for c in candidates if c.natural), None)
    if natural_candidate is not None:
        choice_values.append(natural_candidate.score)

    best_ev = best.ev
    assert best_ev is not None
    best_half = _half(best_ev, _choice_ci(candidates[0]))
    if seat.natural is not None:
        assert natural_candidate is not None  # read_seat checked the cards hold one
        ev, ci = natural_candidate.score, natural_candidate.rollout_ci
        rows: tuple[RowRating, ...] = ()
    elif seat.fouled:
        ev, ci = _foul_ev(cards, resolved, model, chosen, prob, paid)
        assert seat.rows is not None and seat.hands is not None
        rows = tuple(
            RowRating(row, seat.hands[row].cards, seat.hands[row], 0.0, 0.0, 1.0, 0.0, 0,
                      -_whole_row(int(row), prob, paid, compact_values))
            for row in _ROWS
        )  # fmt: skip
    else:
        assert played_candidate is not None and played_classes is not None
        scored = next(
            (c for c in candidates if c.natural is None and c.classes == _fmb(played_classes)),
            None,
        )
        shown = scored if (finer and scored is not None) else played_candidate
        ev = by_classes[played_classes]
        ci = shown.rollout_ci if finer else None
        rows = _rated(shown, row_units)
    if not finer:
        ci = (ev - CALIBRATION_95[resolved.scoring], ev + CALIBRATION_95[resolved.scoring])
    ev = float(ev)  # plain floats: a rollout's scores are numpy's (played_best a numpy bool)
    lost = max(0.0, float(best_ev) - ev)
    lost_ci = None
    if finer and ci is not None and best_half is not None:
        half = math.hypot(best_half, (ci[1] - ci[0]) / 2)
        lost_ci = (max(0.0, lost - half), lost + half) if lost > 0 else (0.0, 0.0)
    rank = None
    if not seat.fouled:
        played_model = ev if played_classes is None else model_values[played_classes]
        natural_score = None if natural_candidate is None else natural_candidate.score
        rank = 1 + _choices_above(model_values, rescored, natural_score, ev, played_model)
    best_split = _split_candidate(best, candidates)
    best_rows = _rated(best_split, row_units)
    best_classes = None if best.natural is not None else _bmf(best_split.classes)
    mistakes = mistakes_of(
        played_classes,
        seat.royalty_total,
        seat.natural is not None,
        best_classes,
        best.arrangement.royalty_total,
        seat.fouled,
        lost,
    )
    return Rating(
        cards,
        resolved,
        chosen,
        rows,
        seat.natural,
        seat.fouled,
        seat.foul_reason,
        ev,
        ci,
        best,
        best_rows,
        lost,
        lost_ci,
        rank,
        len(set(choice_values)),
        mistakes,
        seat.available_natural if seat.natural is None else seat.natural,
    )


def _choices_above(
    model_values: Mapping[tuple[int, int, int], float],
    rescored: Mapping[tuple[int, int, int], float],
    natural: float | None,
    ev: float,
    played_model: float,
) -> int:
    """Distinct values above the played choice's (module doc, ``rank``): a re-scored choice
    (and declaring the natural) by the estimator's value against ``ev``; any other split by
    the model's value against the played choice's own model value (``played_model``), since
    the estimator moves every value it re-scores (the pool's and the model's scales differ by
    tenths of a unit, enough to put hundreds of splits it never re-scored above its best). A
    split the model values as it values a re-scored one is that one's twin (the model cannot
    tell them apart) and counts with it, not again."""
    twins = [model_values[classes] for classes in rescored]
    above: set[tuple[bool, float]] = set()
    for classes, model_value in model_values.items():
        if classes in rescored:
            if rescored[classes] > ev + PLAYED_BEST:
                above.add((True, rescored[classes]))
        elif model_value > played_model + PLAYED_BEST and all(
            abs(model_value - twin) > PLAYED_BEST for twin in twins
        ):
            above.add((False, model_value))
    if natural is not None and natural > ev + PLAYED_BEST:
        above.add((True, natural))
    return len(above)


def _fmb(classes: tuple[int, int, int] | None) -> tuple[int, int, int]:
    """(back, middle, front) -> a Candidate's (front, middle, back)."""
    assert classes is not None
    return (classes[2], classes[1], classes[0])


def _bmf(classes: tuple[int, int, int]) -> tuple[int, int, int]:
    """A Candidate's (front, middle, back) -> (back, middle, front)."""
    return (classes[2], classes[1], classes[0])


def _choice_ci(c: Candidate) -> tuple[float, float] | None:
    return c.rollout_ci


def _half(value: float, ci: tuple[float, float] | None) -> float | None:
    return None if ci is None else (ci[1] - ci[0]) / 2


def _candidate(
    ordered: tuple[Card, ...],
    rows: Mapping[Row, tuple[Card, ...]],
    classes: tuple[int, int, int],
    ev: float,
    model: OpponentModel,
    odds: Any,
) -> Candidate:
    """The candidate of the player's rows (positions in the sorted 13 cards)."""
    where = {c: i for i, c in enumerate(ordered)}
    back = _SUBSET5[tuple(sorted(where[c] for c in rows[Row.BACK]))]
    middle = _SUBSET5[tuple(sorted(where[c] for c in rows[Row.MIDDLE]))]
    front = _SUBSET3[tuple(sorted(where[c] for c in rows[Row.FRONT]))]
    # best_split_candidate takes the per-opponent row EV; ``ev`` is already at the table.
    found = best_split_candidate(ordered, (back, middle, front), classes, 0.0, model, odds)
    return replace(found, ev=ev)


def _rated(c: Candidate, row_units: Any) -> tuple[RowRating, ...]:
    """Rows back, middle, front of a split candidate, rated."""
    cards = {Row.FRONT: c.front, Row.MIDDLE: c.middle, Row.BACK: c.back}
    out = []
    for row in _ROWS:
        r = int(row)
        odds: RowOdds = c.rows[r]
        hand = c.hands[r]
        out.append(
            RowRating(row, cards[row], hand, odds.win, odds.tie, odds.loss, odds.value,
                      odds.royalty, row_units(r, hand.strength))
        )  # fmt: skip
    return tuple(out)


def _split_candidate(best: Solution, candidates: list[Candidate]) -> Candidate:
    """The candidate of the rows the best Solution shows (its best split)."""
    shown = (best.back, best.middle, best.front)
    for c in candidates:
        if c.natural is None and (set(c.back), set(c.middle), set(c.front)) == tuple(
            set(x) for x in shown
        ):
            return c
    return next(c for c in candidates if c.natural is None)


def _whole_row(row: int, prob: np.ndarray, paid: np.ndarray, values: np.ndarray) -> float:
    """Expected row units an opponent who plays rows collects from ``row``."""
    return float(paid[row, 0] + prob[row, 0] * values[row, 0])


def _foul_ev(
    cards: tuple[Card, ...],
    rules: ChineseRules,
    model: OpponentModel,
    estimator: Estimator,
    prob: np.ndarray,
    paid: np.ndarray,
) -> tuple[float, tuple[float, float] | None]:
    """EV of fouling the 13 cards (module doc) with its interval (the pool's)."""
    if estimator.kind == "model":
        lost = sum(_whole_row(r, prob, paid, model.removal.values) for r in range(3))
        return total_ev(model, foul_rows_ev(lost, rules)), None
    pool = pool_for(rules)
    w = pool_weights(pool, cards)
    opp = pool.rows_for(rules)
    values = row_values(rules)
    collected = values[0, opp[:, 0]] + values[1, opp[:, 1]] + values[2, opp[:, 2]]
    units = np.array([foul_rows_ev(float(x), rules) for x in (0.0, 1.0)])
    slope = units[1] - units[0]
    u = units[0] + slope * collected
    if rules.naturals:
        nat = pool.natural_for(rules).astype(np.int64)
        u = np.where(nat > 0, -np.array(rules.natural_units, dtype=np.float64)[nat], u)
    total = float(w.sum())
    mean = float((w * u).sum()) / total
    var = max(float((w * u * u).sum()) / total - mean * mean, 0.0)
    ess = total * total / float((w * w).sum())
    opponents = rules.players - 1
    half = 1.96 * opponents * math.sqrt(var / ess)
    return opponents * mean, (opponents * mean - half, opponents * mean + half)
