"""Expected-value analysis of one hand: the best splits by table EV, with per-row odds.

:func:`analyse` scores every valid split of 13 cards with the trained opponent model of the
rule set (:mod:`cpsolver.chinese.ev_model`) and returns the best ``top`` candidates, best first,
plus the natural declaration when the hand has one and the rules allow it (CP-11: declaring is
a candidate like any split, chosen only when its EV is higher). :mod:`cpsolver.chinese.rollouts`
re-scores candidates by simulation.

>>> from cpsolver.rules.chinese import ChineseRules
>>> best = analyse("As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h", ChineseRules(), top=2)[0]
>>> best.hands[2] >= best.hands[1] > best.hands[0]  # back >= middle > front (CP-6)
True
>>> [round(r.win + r.tie + r.loss, 9) for r in best.rows]
[1.0, 1.0, 1.0]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from cpsolver.cards import DECK_52, Card, CardsLike, parse_cards
from cpsolver.chinese import ev_kernel as K
from cpsolver.chinese.ev_model import (
    OpponentModel,
    declare_ev,
    kernel_pairing,
    model_for,
    natural_name,
    row_values_view,
    rows_ev_span,
    total_ev,
)
from cpsolver.chinese.objectives import RowTables, register_objective
from cpsolver.chinese.removal import removal_tables
from cpsolver.chinese.search import (
    COMB3_LISTS,
    COMB5_LISTS,
    search_pairing_classes,
    search_removal_batch_top,
    search_removal_classes,
    subset_classes,
)
from cpsolver.evaluator.poker import Category, HandValue, hand_from_class, poker_tables
from cpsolver.rules.chinese import ChineseRules, Row

__all__ = [
    "Candidate",
    "Draft",
    "EvObjective",
    "RowOdds",
    "analyse",
    "analyse_many",
    "build_candidates",
    "draft_many",
    "hand_array",
    "hand_natural",
]


@dataclass(frozen=True)
class RowOdds:
    """One row against one opponent who plays rows: P(win), P(tie), P(loss), and the units
    the row collects when it wins (its royalty under CP-8, else 1)."""

    win: float
    tie: float
    loss: float
    value: float
    royalty: int

    def to_dict(self) -> dict[str, float]:
        """JSON form."""
        return {
            "win": self.win,
            "tie": self.tie,
            "loss": self.loss,
            "value": self.value,
            "royalty": self.royalty,
        }


@dataclass(frozen=True)
class Candidate:
    """A split (or a natural declaration) with its expected units at the table.

    ``ev`` is the table-model EV; ``rollout_ev`` / ``rollout_ci`` (95%) are filled by
    :func:`cpsolver.chinese.rollouts.rollout`.
    """

    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]
    natural: str | None
    ev: float
    classes: tuple[int, int, int] = (-1, -1, -1)
    rows: tuple[RowOdds, ...] = ()
    rollout_ev: float | None = None
    rollout_ci: tuple[float, float] | None = None
    rollouts: int = 0
    hands: tuple[HandValue, ...] = field(default=(), repr=False)

    @property
    def score(self) -> float:
        """The EV the choice is ranked by: the rollout mean when there is one, else ``ev``."""
        return self.ev if self.rollout_ev is None else self.rollout_ev

    def with_rollout(self, mean: float, half_width: float, n: int) -> Candidate:
        """A copy carrying rollout results."""
        return replace(
            self, rollout_ev=mean, rollout_ci=(mean - half_width, mean + half_width), rollouts=n
        )

    def with_estimate(self, mean: float, half_width: float) -> Candidate:
        """A copy carrying an estimate that is not a rollout (the calibrated pool value,
        :mod:`cpsolver.chinese.pool`): ranked and reported like a rollout mean, 0 rollouts."""
        return self.with_rollout(mean, half_width, 0)


@dataclass(frozen=True, slots=True)
class Draft:
    """A candidate before its rows are made: what a re-score needs (its row classes, or its
    natural) and what makes it a :class:`Candidate` afterwards (:func:`build_candidates`).
    The calibrated batch re-scores drafts and makes each :class:`Candidate` once, with the
    pool's odds, instead of making it with the table model's odds and again with the pool's
    (about a third of the batch's Python, docs/BENCHMARKS.md).

    ``subsets``: the (back, middle) 5-card and front 3-card subset indices of the sorted hand
    (``()`` for a natural); ``classes``: the (front, middle, back) classes (``(-1, -1, -1)``
    for a natural, as :class:`Candidate`'s); ``ev``: the table model's EV."""

    subsets: tuple[int, ...]
    classes: tuple[int, int, int]
    ev: float
    natural: str | None = None


def hand_array(cards: CardsLike) -> tuple[tuple[Card, ...], np.ndarray]:
    """Parse 13 cards; return them sorted by index and as the kernel's ``int8`` array."""
    parsed = parse_cards(cards, deck=DECK_52, count=13)
    ordered = tuple(sorted(parsed, key=lambda c: c.index))
    return ordered, np.array([c.index for c in ordered], dtype=np.int8)


def analyse(
    cards: CardsLike,
    rules: ChineseRules,
    *,
    top: int = 5,
    model: OpponentModel | None = None,
    card_removal: bool = True,
    within: float | None = None,
    keep: int = 1,
) -> list[Candidate]:
    """The ``top`` best splits by EV (distinct values), plus the natural declaration when the
    hand has one and the rules allow it, best first (module doc). ``card_removal=False``
    scores with the full-deck tables (the model before card removal, for comparisons).
    ``within``: of those splits, only the ones whose EV is at most ``within`` units below the
    best, and at least the ``keep`` best (what the ``calibrated`` estimator re-scores:
    :data:`cpsolver.chinese.pool.CALIBRATED_MARGIN`)."""
    model = model or model_for(rules)
    ordered, hand = hand_array(cards)
    idx = hand.astype(np.int64)
    cls5, cls3 = subset_classes(idx, poker_tables(rules.wheel_second_highest))
    mode, strict, k = kernel_pairing(model), rules.strict_order, max(top, 1)
    if card_removal:
        removal = model.removal
        found, (prob, below, _, _) = search_removal_classes(
            idx, cls5, cls3, removal, mode=mode, strict=strict, top_k=k,
            within=_scan_within(model, within, keep),
        )  # fmt: skip

        def odds(row: int, cls: int) -> tuple[float, float]:
            return removal.odds(row, cls, prob, below)
    else:
        found = search_pairing_classes(cls5, cls3, model.tables, mode=mode, strict=strict, top_k=k)
        t = model.tables

        def odds(row: int, cls: int) -> tuple[float, float]:
            return float(t[row, K.F_WIN, cls]), float(t[row, K.F_TIE, cls])

    splits = zip(found.rows, zip(found.front, found.middle, found.back, strict=True), strict=True)
    return _split_candidates(
        ordered, hand, rules, model, list(splits), found.values, odds, within, keep
    )


def analyse_many(
    hands: Sequence[CardsLike],
    rules: ChineseRules,
    *,
    top: int = 5,
    model: OpponentModel | None = None,
    within: float | None = None,
    keep: int = 1,
) -> list[list[Candidate]]:
    """:func:`analyse` (card removal) of each of ``hands``, the same candidates: the scans of
    every hand in one GIL-free call (:func:`cpsolver.chinese.search.search_removal_batch_top`,
    so other threads run meanwhile), then each hand's candidates made as :func:`analyse`
    makes them."""
    model = model or model_for(rules)
    return [
        build_candidates(ordered, drafts, model, _lookup(known))
        for ordered, drafts, known in _scan_many(hands, rules, model, top, within, keep, True)
    ]


def draft_many(
    hands: Sequence[CardsLike],
    rules: ChineseRules,
    *,
    top: int = 5,
    model: OpponentModel | None = None,
    within: float | None = None,
    keep: int = 1,
) -> list[tuple[tuple[Card, ...], list[Draft]]]:
    """:func:`analyse_many`'s candidates of each of ``hands`` as :class:`Draft` s, with the
    hand's cards in ascending index order (what :func:`build_candidates` reads): the same
    splits, values and order, their rows not made."""
    model = model or model_for(rules)
    return [
        (ordered, drafts)
        for ordered, drafts, _ in _scan_many(hands, rules, model, top, within, keep, False)
    ]


def _scan_many(
    hands: Sequence[CardsLike],
    rules: ChineseRules,
    model: OpponentModel,
    top: int,
    within: float | None,
    keep: int,
    with_odds: bool,
) -> list[tuple[tuple[Card, ...], list[Draft], dict[tuple[int, int], tuple[float, float]]]]:
    """Each hand's sorted cards, drafts (:func:`_drafts`) and, ``with_odds``, the kernel's
    (win, tie) of each (row, class) its splits have (else an empty dict), from one batch
    scan."""
    parsed = [hand_array(cards) for cards in hands]
    if not parsed:
        return []
    found = search_removal_batch_top(
        np.array([hand for _, hand in parsed]), model.removal,
        poker_tables(rules.wheel_second_highest), mode=kernel_pairing(model),
        strict=rules.strict_order, top_k=max(top, 1), within=_scan_within(model, within, keep),
    )  # fmt: skip
    counts, values = found.counts.tolist(), found.values.tolist()
    rows, classes = found.rows.tolist(), found.classes.tolist()
    odds = found.odds.tolist() if with_odds else []
    out = []
    for h, (ordered, hand) in enumerate(parsed):
        n = counts[h]
        splits = [
            ((b, m, f), (cf, cm, cb))
            for (b, m, f), (cb, cm, cf) in zip(rows[h][:n], classes[h][:n], strict=True)
        ]
        drafts = _drafts(hand, rules, model, splits, values[h][:n], within, keep)
        # The kernel's odds of each split's rows (front first): a row class's odds are the
        # hand's, whichever split it is in.
        known = {
            (r, c): (win, tie)
            for k in range(n)
            for r, (c, (win, tie)) in enumerate(zip(classes[h][k][::-1], odds[h][k], strict=True))
        } if with_odds else {}  # fmt: skip
        out.append((ordered, drafts, known))
    return out


def _scan_within(model: OpponentModel, within: float | None, keep: int) -> float:
    """What the scan may leave out (:func:`cpsolver.chinese.search.search_removal_classes`'
    ``within``, per-opponent row EV) when only the splits within ``within`` units of the best
    are kept: nothing when more than the best one must be kept whatever its value (``keep``),
    and a hair more than ``within``, so that rounding never drops a split the candidates'
    own test in units keeps."""
    if within is None or keep > 1:
        return math.inf
    return rows_ev_span(model, within) * (1 + 1e-9) + 1e-12


def _lookup(known: dict[tuple[int, int], tuple[float, float]]) -> Odds:
    """``known``'s (win, tie) of (row, class) as an :data:`Odds` function."""

    def odds(row: int, cls: int) -> tuple[float, float]:
        return known[row, cls]

    return odds


def _split_candidates(
    ordered: tuple[Card, ...],
    hand: np.ndarray,
    rules: ChineseRules,
    model: OpponentModel,
    splits: list[tuple[tuple[int, int, int], tuple[int, int, int]]],
    values: Sequence[float],
    odds: Odds,
    within: float | None,
    keep: int,
) -> list[Candidate]:
    """A scan's splits (best first: each its (back, middle, front) subset indices and its
    (front, middle, back) classes, with its per-opponent row value) as :func:`analyse`'s
    candidates: those within ``within`` units of the best (at least ``keep``), plus the
    natural declaration."""
    drafts = _drafts(hand, rules, model, splits, values, within, keep)
    return build_candidates(ordered, drafts, model, odds)


def _drafts(
    hand: np.ndarray,
    rules: ChineseRules,
    model: OpponentModel,
    splits: list[tuple[tuple[int, int, int], tuple[int, int, int]]],
    values: Sequence[float],
    within: float | None,
    keep: int,
) -> list[Draft]:
    """:func:`_split_candidates`' candidates as drafts, in its order."""
    evs = [total_ev(model, value) for value in values]
    if within is not None and evs:
        close = evs[0] - within
        evs = [ev for i, ev in enumerate(evs) if i < keep or ev >= close]
    drafts = [Draft(rows, classes, ev) for (rows, classes), ev in zip(splits, evs, strict=False)]
    declared = _natural_draft(hand, rules, model)
    if declared is not None:  # a candidate like any split (CP-11), as in with_natural
        drafts.append(declared)
        drafts.sort(key=lambda d: -d.ev)
    return drafts


def build_candidates(
    ordered: tuple[Card, ...],
    drafts: Sequence[Draft],
    model: OpponentModel,
    odds: Odds,
    estimates: Sequence[tuple[float, float]] | None = None,
) -> list[Candidate]:
    """``drafts`` of the hand ``ordered`` (ascending index order) as candidates, in their
    order, each row with ``odds(row, class)``; ``estimates``: each draft's (value, 95%
    half-width) to carry as :meth:`Candidate.with_estimate` does (a re-score's)."""
    seen: _Rows = {}  # a hand's candidates share rows: each row's hand and odds made once
    out = []
    for i, d in enumerate(drafts):
        estimate = None if estimates is None else estimates[i]
        if d.natural is not None and estimate is None:
            out.append(Candidate((), (), (), d.natural, d.ev))
            continue
        if d.natural is not None and estimate is not None:
            value, half = estimate
            out.append(Candidate((), (), (), d.natural, d.ev, rollout_ev=value,
                                 rollout_ci=(value - half, value + half)))  # fmt: skip
            continue
        b, m, f = d.subsets
        out.append(_candidate(ordered, (b, m, f), d.classes, d.ev, model, odds, seen, estimate))
    return out


def with_natural(
    candidates: list[Candidate], hand: np.ndarray, rules: ChineseRules, model: OpponentModel
) -> list[Candidate]:
    """``candidates`` plus the natural declaration when the hand has one and the rules allow
    it, best first. Declaring is a candidate like any split (CP-11); always listed, so callers
    can report what declaring is worth even when they do not."""
    declared = _natural_draft(hand, rules, model)
    if declared is not None:
        candidates.append(Candidate((), (), (), declared.natural, declared.ev))
        candidates.sort(key=lambda c: -c.ev)
    return candidates


def _natural_draft(hand: np.ndarray, rules: ChineseRules, model: OpponentModel) -> Draft | None:
    """The natural declaration of 13 cards (kernel indices) as a draft, when the hand has a
    natural and the rules allow it (valued by ``model``), else None."""
    if not rules.naturals:
        return None
    code = hand_natural(hand, rules)
    if not code:
        return None
    return Draft((), (-1, -1, -1), declare_ev(model, code), natural_name(rules, code))


def hand_natural(hand: np.ndarray, rules: ChineseRules) -> int:
    """The code of the natural 13 cards (kernel indices) make under ``rules``' list (its rank,
    1 = the highest listed; 0 for none)."""
    if rules.natural_table is None:  # CP-11's four: the kernel the tables were trained with
        return int(K.natural_code(hand)) if rules.naturals else 0
    order = K.kernel_terms(rules).order
    return int(K.natural_codes(hand.reshape(1, 13).astype(np.int8), order)[0])


Odds = Callable[[int, int], tuple[float, float]]
"""``odds(row, cls)``: P(win), P(tie) of class ``cls`` in ``row`` under the model used."""


def best_split_candidate(
    ordered: tuple[Card, ...],
    rows: tuple[int, int, int],
    classes: tuple[int, int, int],
    rows_ev: float,
    model: OpponentModel,
    odds: Odds,
) -> Candidate:
    """The candidate of a split found by a batch search: ``rows`` are the (back, middle) 5-card
    subset indices and the front's 3-card index, ``classes`` the (back, middle, front) classes
    and ``rows_ev`` the per-opponent row EV."""
    front_middle_back = (classes[2], classes[1], classes[0])
    return _candidate(ordered, rows, front_middle_back, total_ev(model, rows_ev), model, odds)


def _row_facts(
    model: OpponentModel,
) -> tuple[bool, npt.NDArray[np.float64], tuple[tuple[tuple[int, int], ...], ...]]:
    """What :func:`_candidate` reads of ``model``'s rule set, made once per model (a solve makes
    about 20 rows, and a rule set hashes slowly): the wheel rule, the row values
    (:func:`row_values_view`: the array shared by every rule set of the same royalties, not a
    copy - a worker serves hundreds of rule sets, tests/test_model_sharing.py) and the
    royalties (``royalties[row][category][royal]``, ``rules.royalty``)."""
    facts = model.__dict__.get("_row_facts")
    if facts is None:
        rules = model.rules
        royalties = tuple(
            tuple(
                (rules.royalty(row, category), rules.royalty(row, category, royal=True))
                for category in Category
            )
            for row in Row
        )
        facts = (rules.wheel_second_highest, row_values_view(rules), royalties)
        object.__setattr__(model, "_row_facts", facts)
    return facts


_Rows = dict[tuple[int, int], tuple[HandValue, RowOdds]]
"""Per (row, subset index): the row's hand and odds, shared by the candidates of one hand."""


def _candidate(
    ordered: tuple[Card, ...],
    rows: tuple[int, int, int],
    row_classes: tuple[int, int, int],
    ev: float,
    model: OpponentModel,
    odds: Odds,
    seen: _Rows | None = None,
    estimate: tuple[float, float] | None = None,
) -> Candidate:
    back_i, middle_i, front_i = rows
    seen = {} if seen is None else seen
    wheel, values, royalties = _row_facts(model)
    made = []
    for r, subset, positions in (
        (0, front_i, COMB3_LISTS[front_i]),
        (1, middle_i, COMB5_LISTS[middle_i]),
        (2, back_i, COMB5_LISTS[back_i]),
    ):
        found = seen.get((r, subset))
        if found is None:
            c = int(row_classes[r])
            hand = hand_from_class([ordered[p] for p in positions], c, wheel_second_highest=wheel)
            win, tie = odds(r, c)
            royalty = royalties[r][hand.category][hand.is_royal]
            loss = max(0.0, 1.0 - win - tie)
            found = seen[r, subset] = (hand, RowOdds(win, tie, loss, float(values[r, c]), royalty))
        made.append(found)
    (front, front_odds), (middle, middle_odds), (back, back_odds) = made
    if estimate is not None:  # a re-score's value and 95% half-width (Candidate.with_estimate)
        value, half = estimate
        return Candidate(
            front.cards, middle.cards, back.cards, None, ev,
            (front.strength, middle.strength, back.strength),
            (front_odds, middle_odds, back_odds), value, (value - half, value + half), 0,
            (front, middle, back),
        )  # fmt: skip
    return Candidate(
        front.cards,
        middle.cards,
        back.cards,
        None,
        ev,
        (front.strength, middle.strength, back.strength),
        (front_odds, middle_odds, back_odds),
        hands=(front, middle, back),
    )


@dataclass(frozen=True)
class EvObjective:
    """The ``ev`` objective: expected units at the table against opponents who arrange as the
    solver does (RULES §2.3), from the rule set's trained tables (:mod:`.ev_model`).

    Not additive in general (``two_four`` and ``scoop_double`` combine the rows per pairing);
    :func:`cpsolver.chinese.solve.solve` routes it through :func:`analyse`. ``row_tables`` gives
    the additive part (exactly the objective under ``per_row``).
    """

    name: str = "ev"
    description: str = "expected units against opponents as strong as the solver (default)"
    additive: bool = False

    def row_tables_for(self, rules: ChineseRules, held: Sequence[int]) -> RowTables:
        """:meth:`row_tables` reweighted for the cards ``held`` (card indices: the 13 played,
        or all 14 to 17 of a 13-of-N hand), as the unconstrained ``ev`` solve scores: the
        constrained and CP-SAT searches then optimise the same values."""
        model = model_for(rules)
        wheel = rules.wheel_second_highest
        t = removal_tables(model.rows, row_values_view(rules), np.asarray(held, dtype=np.int64),
                           wheel_second_highest=wheel)  # fmt: skip
        poker = poker_tables(wheel)
        return RowTables("ev", rules, t[2, K.F_ADD], t[1, K.F_ADD], t[0, K.F_ADD], poker)

    def row_tables(self, rules: ChineseRules) -> RowTables:
        """Per-row ``VALUE * WIN - PAID`` tables (raises :class:`MissingTablesError`)."""
        t = model_for(rules).tables
        poker = poker_tables(rules.wheel_second_highest)
        return RowTables("ev", rules, t[2, K.F_ADD], t[1, K.F_ADD], t[0, K.F_ADD], poker)


register_objective(EvObjective())
