"""Setting a fantasyland hand (RULES OFC-5, OFC-6): the best 13 of 14-17 cards.

Two objectives: ``royalties`` (exact, below) and ``ev`` (:func:`estimate_ev`: the expected
units against the table, its hands played out on seeded deals, plus ``V`` when the set
stays; candidate sets from ``royalties``-like searches scored against the same deals).

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
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from cpsolver.budget import budget_left, check_budget
from cpsolver.cards import Card, CardsLike, parse_cards
from cpsolver.chinese.objectives import RowTables
from cpsolver.chinese.select import no_constraints, select_positions
from cpsolver.errors import InvalidInputError, Violations
from cpsolver.evaluator.poker import Category, poker_tables
from cpsolver.ofc.simulate import FOUL_UNITS, placement_codes, play_fantasyland, sim_tables
from cpsolver.rules.chinese import ChineseRules, Row
from cpsolver.rules.ofc import FANTASYLAND_CARDS, Fantasyland, OfcRules, Stay
from cpsolver.seeds import check_seed

__all__ = [
    "DEFAULT_EV_SAMPLES",
    "EV_POLICY",
    "EV_ROUND",
    "EV_ROW_WEIGHTS",
    "EV_TOP_K",
    "OBJECTIVES",
    "EvEstimate",
    "FantasylandSet",
    "check_fantasyland_request",
    "estimate_ev",
    "fantasyland",
    "fantasyland_sizes",
]

OBJECTIVES = ("royalties", "ev")
"""The fantasyland objectives offered: ``royalties`` (exact) and ``ev`` (simulated)."""

DEFAULT_EV_SAMPLES = 500
"""Simulated deals of the ``ev`` objective when the caller names no ``samples``."""

EV_ROUND = 32
"""Deals the ``ev`` objective simulates between two looks at the call's deadline."""

EV_TOP_K = 6
"""Sets each candidate search of the ``ev`` objective keeps (its best distinct values)."""

EV_ROW_WEIGHTS = (0.0, 0.25, 1.0, 2.0)
"""The weights of the rows' strength (the fill policy's row values, ``2 p - 1``) beside the
royalties in the ``ev`` objective's candidate searches."""

EV_POLICY = (8, 10.0)
"""The opponents' fill policy in the ``ev`` objective: completions per decision and their own
fantasyland value (advice's defaults)."""

_MAX_SAMPLES = 1_000_000

_CHINESE = ChineseRules()
"""OFC-2: Chinese poker's rows under its defaults (weak order, the wheel lowest): the scale the
searches run on."""


@dataclass(frozen=True, slots=True)
class FantasylandSet:
    """A fantasyland set: the rows (each in ascending card order), the discarded cards, the
    royalties (OFC-3), whether it stays (OFC-5) and its ``value`` under ``objective``
    (``royalties``: the royalties + ``fantasyland_value`` when it stays; ``ev``: the mean units
    against the table over ``samples`` simulated deals + ``fantasyland_value`` when it stays,
    with its standard error ``stderr``, the ``seed``, the ``opponents``, the ``candidates``
    scored and the opponents' ``policy``; these are 0 or empty under ``royalties``)."""

    back: tuple[Card, ...]
    middle: tuple[Card, ...]
    front: tuple[Card, ...]
    discarded: tuple[Card, ...]
    royalties: int
    stays: bool
    value: float
    fantasyland_value: float
    objective: str
    stderr: float = 0.0
    samples: int = 0
    seed: int = 0
    opponents: int = 0
    candidates: int = 0
    policy: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The CLI's JSON: ``back``, ``middle``, ``front``, ``discarded`` (card strings),
        ``royalties``, ``stays``, ``value``, ``fantasyland_value``, ``objective``; under ``ev``
        also ``stderr``, ``samples``, ``seed``, ``opponents``, ``candidates``, ``policy``."""
        found = {
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
        if self.objective == "ev":
            found.update(
                stderr=self.stderr,
                samples=self.samples,
                seed=self.seed,
                opponents=self.opponents,
                candidates=self.candidates,
                policy=self.policy,
            )
        return found


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
    rules: OfcRules | str | None = "pineapple",
    *,
    objective: str = "royalties",
    fantasyland_value: float = 0.0,
    samples: int | None = None,
    seed: int = 0,
    **overrides: object,
) -> FantasylandSet:
    """The best set of a fantasyland hand (see the module docstring).

    ``samples`` (deals simulated, default :data:`DEFAULT_EV_SAMPLES`) and ``seed`` serve the
    ``ev`` objective only (:func:`estimate_ev`). Errors
    (:class:`~cpsolver.errors.InvalidInputError`): ``cards`` (a bad card, one given twice, a
    count the rules do not deal: 14, or 14-17 under ``fantasyland=progressive``),
    ``objective``, ``fantasyland_value`` (a finite number >= 0), ``samples`` (1 to 1,000,000,
    and only with ``ev``), ``seed``, ``rules.*`` (under ``ev`` also ``rules.players``: a table
    whose hands the deck cannot deal beside the fantasyland hand).
    """
    ruleset = OfcRules.resolve(rules, **overrides)
    if objective == "ev":
        return estimate_ev(
            cards, rules=ruleset, fantasyland_value=fantasyland_value, samples=samples, seed=seed
        ).best
    parsed, value = check_fantasyland_request(
        cards, ruleset, objective, fantasyland_value, samples=samples, seed=seed
    )
    ordered = sorted(parsed, key=lambda c: c.index)
    idx = np.array([c.index for c in ordered], dtype=np.int64)
    found = _royalties_best(idx, ruleset.stay, value)
    back, middle, front, discarded, royalty, stays, _ = _set_of(ordered, found, ruleset)
    return FantasylandSet(
        back,
        middle,
        front,
        discarded,
        royalty,
        stays,
        float(royalty + (value if stays else 0.0)),
        value,
        objective,
    )


@dataclass(frozen=True, eq=False)
class EvEstimate:
    """What the ``ev`` objective simulated: every candidate set (in the order generated, the
    ``royalties`` answer first), each valued as :class:`FantasylandSet` says, the index of the
    best (the highest value, the first of equal ones) and the opponents' finished boards of
    every simulated deal (``opponent_boards[s, p]``: 13 card indices, back 0-4, middle 5-9,
    front 10-12), which every candidate met."""

    candidates: tuple[FantasylandSet, ...]
    best_index: int
    opponent_boards: npt.NDArray[np.int64]

    @property
    def best(self) -> FantasylandSet:
        """The set the ``ev`` objective answers."""
        return self.candidates[self.best_index]


def estimate_ev(
    cards: CardsLike,
    rules: OfcRules | str | None = "pineapple",
    *,
    fantasyland_value: float = 0.0,
    samples: int | None = None,
    seed: int = 0,
    **overrides: object,
) -> EvEstimate:
    """The ``ev`` objective (OFC-6), every candidate shown: see docs/OFC.md.

    **Candidates.** The ``royalties`` answer, then the :data:`EV_TOP_K` best distinct values
    of additive 13-of-N searches of ``opponents x (royalties + w x row strength)`` (``w`` in
    :data:`EV_ROW_WEIGHTS`; the row strength is the fill policy's ``2 p - 1``, p the share of
    the policy's finished rows of that row it beats), each with ``V`` on a stay clause's rows
    (as the ``royalties`` searches) and without; sets of the same three row classes are one
    candidate (they score alike against any table).

    **Opponents.** ``rules.players - 1`` seats, dealt at random (seeded) from the cards not in
    the hand, play a whole hand street by street by the fill policy (:data:`EV_POLICY`), not
    seeing the set (it is face down). Every candidate is settled (OFC-4) against the same
    boards (common random numbers); its value is its mean units plus ``V`` when it stays.

    Deals run in rounds of :data:`EV_ROUND` until ``samples``, and never past the call's
    deadline (:mod:`cpsolver.budget`: the answer so far; ``samples`` says how many ran). The
    same cards, rules, ``V``, ``samples`` and ``seed`` give the same answer when no deadline
    cuts the run short.
    """
    started = time.perf_counter()
    ruleset = OfcRules.resolve(rules, **overrides)
    parsed, value = check_fantasyland_request(
        cards, ruleset, "ev", fantasyland_value, samples=samples, seed=seed
    )
    most = DEFAULT_EV_SAMPLES if samples is None else samples
    ordered = sorted(parsed, key=lambda c: c.index)
    idx = np.array([c.index for c in ordered], dtype=np.int64)
    opponents = ruleset.players - 1
    sets = _candidates(ordered, idx, ruleset, value, opponents)
    slots = np.array([s[0] for s in sets], dtype=np.int64)
    stays = np.array([s[1][5] for s in sets], dtype=np.bool_)
    held = set(idx.tolist())
    hidden = np.array([i for i in range(52) if i not in held], dtype=np.int64)
    streets = np.zeros((ruleset.players, len(ruleset.streets)), dtype=np.int64)
    streets[1:] = ruleset.streets
    t = sim_tables(ruleset)
    codes, start, end = placement_codes()
    fills, policy_value = EV_POLICY
    foul_cost = float(opponents * (FOUL_UNITS + 2))
    limit = budget_left()
    limit = None if limit is None else 0.9 * limit
    stream = random.Random(seed)
    units: list[npt.NDArray[np.float64]] = []
    boards: list[npt.NDArray[np.int64]] = []
    done = 0
    while done < most:
        check_budget()
        batch = min(EV_ROUND, most - done)
        round_started = time.perf_counter()
        seeds = np.array([stream.getrandbits(31) for _ in range(batch)], dtype=np.int64)
        chunk = np.empty((batch, len(sets)), dtype=np.float64)
        seen = np.empty((batch, opponents, 13), dtype=np.int64)
        play_fantasyland(
            slots, hidden, streets, seeds, fills, codes, start, end, t.nonflush5, t.flush5,
            t.front3, t.weights, t.royalty, t.enters, t.row_value, foul_cost, policy_value,
            chunk, seen,
        )  # fmt: skip
        units.append(chunk)
        boards.append(seen)
        done += batch
        now = time.perf_counter()
        # stop when another round like this one would end past the deadline's share
        if limit is not None and now - started + (now - round_started) > limit:
            break
    table = np.concatenate(units)
    means = table.mean(axis=0) + value * stays
    errors = table.std(axis=0, ddof=1) / math.sqrt(done) if done > 1 else np.zeros(len(sets))
    candidates = tuple(
        FantasylandSet(
            *found[:6],
            float(means[c]),
            value,
            "ev",
            float(errors[c]),
            done,
            seed,
            opponents,
            len(sets),
            f"fill:{fills}",
        )
        for c, (_, found) in enumerate(sets)
    )
    best = int(np.argmax(means))  # the first of equal means: the royalties answer first
    return EvEstimate(candidates, best, np.concatenate(boards))


def check_fantasyland_request(
    cards: CardsLike,
    rules: OfcRules,
    objective: str,
    fantasyland_value: object,
    *,
    samples: object = None,
    seed: object = 0,
) -> tuple[tuple[Card, ...], float]:
    """The checks of :func:`fantasyland` (the cards parsed, V as a float), every problem at
    once: the remote client runs them before sending.

    >>> check_fantasyland_request("As Ks", OfcRules(), "best", -1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.CardError: cards: expected 14 cards, got 2; objective: unknown ...
    >>> check_fantasyland_request("As Ks", OfcRules(), "royalties", 0, samples=100)
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.CardError: cards: ...; samples: only the ev objective simulates deals, ...
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
    with found.check():
        if samples is not None:
            if objective != "ev":
                raise InvalidInputError(
                    "samples",
                    f"only the ev objective simulates deals, not {objective!r}; "
                    "ask objective ev or leave samples out",
                )
            if not (
                isinstance(samples, int)
                and not isinstance(samples, bool)
                and 1 <= samples <= _MAX_SAMPLES
            ):
                raise InvalidInputError(
                    "samples",
                    f"expected a whole number from 1 to {_MAX_SAMPLES:,}, got {samples!r}",
                )
    with found.check():
        check_seed(seed)  # type: ignore[arg-type]
    with found.check():
        if objective == "ev":
            _check_deck(rules, len(parsed) if parsed else min(fantasyland_sizes(rules)))
    found.raise_any()
    return parsed, value


def _check_deck(rules: OfcRules, held: int) -> None:
    """The ``ev`` objective deals the other seats' whole hands beside the fantasyland hand."""
    dealt = (rules.players - 1) * sum(rules.streets)
    if held + dealt > 52:
        raise InvalidInputError(
            "rules.players",
            f"{rules.players - 1} opponents are dealt {dealt} cards beside the {held} of the "
            f"fantasyland hand: {held + dealt}, more than the deck's 52 (the ev objective "
            "plays their hands out)",
        )


_Found = tuple[
    tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], int, bool,
    tuple[int, int, int],
]  # fmt: skip
_Positions = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _royalties_best(idx: npt.NDArray[np.int64], stay: Stay, value: float) -> _Positions:
    """The ``royalties`` answer: the best of the additive searches (the first on ties)."""
    masks = no_constraints(len(idx))
    best: tuple[float, _Positions] | None = None
    for tables in _tables(stay, value):
        found = select_positions(idx, tables, masks, strict=False)
        if found.picks and (best is None or found.values[0] > best[0]):
            best = (found.values[0], found.positions()[0])
    assert best is not None  # every 13 of the cards have a valid split (CP-6)
    return best[1]


def _set_of(ordered: Sequence[Card], positions: _Positions, rules: OfcRules) -> _Found:
    """The set at ``positions`` of the sorted cards: rows, discards, royalties, whether it
    stays, the rows' classes."""
    back, middle, front = (tuple(ordered[p] for p in row) for row in positions)
    used = set(back) | set(middle) | set(front)
    classes = (_strength(back), _strength(middle), _strength(front))
    royalty = sum(
        rules.royalty(row, cls)
        for row, cls in zip((Row.BACK, Row.MIDDLE, Row.FRONT), classes, strict=True)
    )
    stays = rules.stays(*classes)
    discarded = tuple(c for c in ordered if c not in used)
    return back, middle, front, discarded, royalty, stays, classes


def _candidates(
    ordered: Sequence[Card],
    idx: npt.NDArray[np.int64],
    rules: OfcRules,
    value: float,
    opponents: int,
) -> list[tuple[list[int], _Found]]:
    """The ``ev`` objective's candidate sets (see :func:`estimate_ev`), each as 13 slots and
    what :func:`_set_of` says of it; one per three row classes, in the order found."""
    masks = no_constraints(len(idx))
    found: list[_Positions] = [_royalties_best(idx, rules.stay, value)]
    for weight in EV_ROW_WEIGHTS:
        for tables in _tables(rules.stay, value, weight, opponents):
            found.extend(
                select_positions(idx, tables, masks, strict=False, top_k=EV_TOP_K).positions()
            )
    out: list[tuple[list[int], _Found]] = []
    seen: set[tuple[int, int, int]] = set()
    for positions in found:
        the_set = _set_of(ordered, positions, rules)
        if the_set[6] in seen:
            continue
        seen.add(the_set[6])
        slots = [c.index for c in (*the_set[0], *the_set[1], *the_set[2])]
        out.append((slots, the_set))
    return out


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


@lru_cache(maxsize=256)
def _tables(
    stay: Stay, value: float, row_weight: float = 0.0, per: int = 1
) -> tuple[RowTables, ...]:
    """The additive searches: V on each stay clause's rows (in the order front, middle, back,
    a clause the rules drop left out), then without V. A row's value is ``per x (royalty +
    row_weight x the fill policy's row value)``: the royalties alone by default."""
    from cpsolver.ofc.rows import row_values

    base = OfcRules.royalty_table().astype(np.float64)
    royalty = [per * base[r] for r in (Row.BACK, Row.MIDDLE, Row.FRONT)]
    if row_weight:
        strength = row_values()
        royalty = [royalty[r] + per * row_weight * strength[r] for r in range(3)]
    back_row, middle_row, front_row = royalty
    category = poker_tables(False).category
    plain = _row_tables(back_row, middle_row, front_row)
    if value == 0:
        return (plain,)
    clauses: list[RowTables] = []
    trips = category == Category.THREE_OF_A_KIND
    clauses.append(_row_tables(back_row, middle_row, front_row + value * trips))
    if stay is not Stay.NO_MIDDLE:
        lowest = Category.FULL_HOUSE if stay is Stay.DEFAULT else Category.FOUR_OF_A_KIND
        middle = middle_row + value * (category >= lowest)
        clauses.append(_row_tables(back_row, middle, front_row))
    back = back_row + value * (category >= Category.FOUR_OF_A_KIND)
    clauses.append(_row_tables(back, middle_row, front_row))
    return (*clauses, plain)


def _row_tables(
    back: npt.NDArray[np.float64], middle: npt.NDArray[np.float64], front: npt.NDArray[np.float64]
) -> RowTables:
    b, m, f = (np.ascontiguousarray(a, dtype=np.float64) for a in (back, middle, front))
    for a in (b, m, f):
        a.setflags(write=False)
    return RowTables("ofc_royalties", _CHINESE, b, m, f, poker_tables(False))
