"""Street advice (RULES OFC-1..OFC-6, issue 31): every legal placement of a hand ranked by its
expected units against the table.

A placement's value is the units the player wins from all opponents at the end of the hand
(OFC-4: rows, scoops, royalties, fouls) plus ``fantasyland_value`` (V) when its board enters
fantasyland (OFC-5), averaged over the cards still to come:

* **Exact** when nothing is left to deal to anyone: the player's placement completes its
  board and every opponent's board is complete. Each placement is settled once.
* **Simulated** otherwise: the unseen cards are dealt at random (seeded) to every seat still
  to play, street by street, and every seat places them by the fill policy of
  :mod:`cpsolver.ofc.simulate`. On the last street the player's own board is then exact and
  only the opponents' cards are simulated. Every placement meets the same cards (common
  random numbers); placements whose paired difference to the leader is more than three
  standard errors below zero stop being simulated (they keep their estimate).

Simulation runs in rounds of :data:`ROUND` deals (half as many while more than 64
placements are simulated); under a time limit, more than 64 placements (street 1) are also
halved at planned times, the better half by mean going on (:class:`SequentialHalving`: the
deals go to the few placements closest to the best), until ``samples`` deals per placement,
or until another round like the last would end past the time budget (``budget_ms``; by
default :data:`DEFAULT_BUDGET_MS` by street), whichever comes first, and never past the
call's deadline (:mod:`cpsolver.budget`). The same position, seed and ``samples`` give the
same answer when the time budget does not cut the run short (``budget_ms=None`` with
``samples`` set: no time limit).

>>> pos = {"street": 5, "hand": "Qd 2c 7h",
...        "board": {"back": "As Ad Ac 9s 9d", "middle": "Ks Kd 4c 4d", "front": "Qs 3h"},
...        "opponents": [{"back": "Ts 9h 8c 7d 6s", "middle": "Jh Jd 5c 5d 2s",
...                       "front": "Th Td 3c"}]}
>>> advice = advise(pos, fantasyland_value=10)
>>> advice.exact, str(advice.best.placement), advice.best.value
(True, 'middle 2c, front Qd, discard 7h', 22.0)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from cpsolver.budget import budget_left, check_budget
from cpsolver.cards import Card
from cpsolver.errors import InvalidInputError, Violations
from cpsolver.ofc.board import Board
from cpsolver.ofc.position import (
    Placement,
    Position,
    legal_placements,
    read_position,
    remaining_streets,
)
from cpsolver.ofc.simulate import (
    FOUL_UNITS,
    placement_codes,
    play_rollouts,
    policy_seeded,
    sim_tables,
)
from cpsolver.rules.ofc import OfcRules
from cpsolver.seeds import check_seed

__all__ = [
    "DEFAULT_BUDGET_MS",
    "DEFAULT_FANTASYLAND_VALUE",
    "DEFAULT_FILLS",
    "DEFAULT_SAMPLES",
    "ROUND",
    "Advice",
    "RankedPlacement",
    "advise",
    "check_advice_options",
    "policy_placement",
    "warm_up",
]

IntArray = npt.NDArray[np.int64]

DEFAULT_FANTASYLAND_VALUE = 10.0
"""V when the caller names none: what entering fantasyland is worth, in units. A conservative
figure: against two fill-policy seats entering is worth about 34.5 (docs/BENCHMARKS.md)."""

DEFAULT_BUDGET_MS = (1000.0, 200.0)
"""The time budget when the caller names none: street 1, then every later street."""

DEFAULT_SAMPLES = 5000
"""Deals per placement at most when the caller names no ``samples``."""

DEFAULT_FILLS = 8
"""Random completions per decision of the fill policy (:mod:`cpsolver.ofc.simulate`)."""

ROUND = 16
"""Deals simulated per round, between two looks at the clock and the leaders."""

_PRUNE_AFTER = 32
_MANY = 64
_PRUNE_SE = 3.0
_MAX_SAMPLES = 1_000_000
_MAX_FILLS = 64


@dataclass(frozen=True, slots=True)
class RankedPlacement:
    """One placement as advised: its ``value`` (mean units + V x fantasyland entries),
    ``stderr`` (its standard error; 0 when exact), ``foul`` and ``fantasyland`` (the share of
    deals in which the board fouled / entered fantasyland) over ``samples`` deals."""

    placement: Placement
    value: float
    stderr: float
    foul: float
    fantasyland: float
    samples: int

    def to_dict(self) -> dict[str, Any]:
        """``place`` (cards by row), ``discard``, ``value``, ``stderr``, ``foul``,
        ``fantasyland``, ``samples``."""
        return {
            "place": self.placement.to_dict(),
            "discard": [str(c) for c in self.placement.discard],
            "value": round(self.value, 4),
            "stderr": round(self.stderr, 4),
            "foul": round(self.foul, 4),
            "fantasyland": round(self.fantasyland, 4),
            "samples": self.samples,
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """Every legal placement of the position's hand, best first (``ranked``), with how they
    were valued: ``exact``, the ``fantasyland_value`` V, the ``policy`` every simulated seat
    played, the ``seed``. ``elapsed_ms`` is informative (not compared)."""

    position: Position
    ranked: tuple[RankedPlacement, ...]
    exact: bool
    fantasyland_value: float
    policy: str
    seed: int
    elapsed_ms: float = field(default=0.0, compare=False)

    @property
    def best(self) -> RankedPlacement:
        """The placement advised."""
        return self.ranked[0]

    def to_dict(self) -> dict[str, Any]:
        """The CLI's JSON: the best placement's ``place``, ``discard``, ``value``, then
        ``fantasyland_value``, ``exact``, ``samples`` (the best's), ``policy``, ``seed`` and
        ``alternatives`` (every placement ranked, best first)."""
        best = self.best.to_dict()
        return {
            "street": self.position.street,
            "place": best["place"],
            "discard": best["discard"],
            "value": best["value"],
            "fantasyland_value": self.fantasyland_value,
            "exact": self.exact,
            "samples": self.best.samples,
            "policy": self.policy,
            "seed": self.seed,
            "alternatives": [r.to_dict() for r in self.ranked],
        }


def advise(
    position: Mapping[str, object] | Position,
    rules: OfcRules | str | None = None,
    *,
    budget_ms: float | None = None,
    samples: int | None = None,
    seed: int = 0,
    fantasyland_value: float | None = None,
    fills: int = DEFAULT_FILLS,
    **overrides: object,
) -> Advice:
    """Rank every legal placement of ``position``'s hand (see the module docstring).

    ``position`` is a :class:`~cpsolver.ofc.position.Position` or the mapping
    :func:`~cpsolver.ofc.position.read_position` reads; ``rules`` a rule set or preset
    (None: the position's ``"rules"``, else pineapple) with ``overrides``; the table is the
    player and the opponents' boards given. Errors (:class:`~cpsolver.errors.InvalidInputError`)
    name the field: the position's, ``budget_ms`` (> 0), ``samples`` (1 to 1,000,000),
    ``seed``, ``fantasyland_value`` (>= 0), ``fills`` (1 to 64).
    """
    started = time.perf_counter()
    found = Violations()
    pos: Position | None = None
    with found.check():
        pos = read_position(position, rules, **overrides)
    value = DEFAULT_FANTASYLAND_VALUE
    with found.check():
        value = check_advice_options(budget_ms, samples, seed, fantasyland_value, fills)
    found.raise_any()
    assert pos is not None
    # the first advice of a process loads the kernels before its clock starts (a one-shot
    # `cpsolver ofc advise` spent most of its street-1 second loading them: 8 deals a
    # placement instead of ~100); bad input is refused before that
    if not _warmed:
        warm_up()
        started = time.perf_counter()
    placements = legal_placements(pos)
    run = _Run(pos, placements, value, fills)
    if run.exact:
        run.simulate([0])
        stats = run.stats()
    else:
        limit = _time_limit(pos, budget_ms, samples)
        most = samples if samples is not None else DEFAULT_SAMPLES
        stream = random.Random(seed)
        done = 0
        # halving pays where the placements are many (street 1: 232); with the 27 at most of
        # later streets an even spread chose better (docs/BENCHMARKS.md)
        halving = SequentialHalving(limit if len(placements) > _MANY else None)
        while done < most:
            check_budget()
            # many placements (street 1): shorter rounds, so the clock is read often enough
            batch = min(ROUND if run.active.sum() <= _MANY else ROUND // 2, most - done)
            round_started = time.perf_counter()
            run.simulate([stream.getrandbits(31) for _ in range(batch)])
            done += batch
            run.prune()
            now = time.perf_counter()
            # stop when another round like this one would end past the limit
            if limit is not None and now - started + (now - round_started) > limit:
                break
            if run.active.sum() == 1 and done >= _PRUNE_AFTER:
                break
            if halving.due(now - started, int(run.active.sum())):
                run.halve()
        stats = run.stats()
    order = sorted(range(len(placements)), key=lambda i: (-stats[i][0], i))
    ranked = tuple(RankedPlacement(placements[i], *stats[i]) for i in order)
    return Advice(
        pos,
        ranked,
        run.exact,
        value,
        f"fill:{fills}",
        seed,
        (time.perf_counter() - started) * 1e3,
    )


def policy_placement(
    position: Position,
    *,
    seed: int = 0,
    fills: int = DEFAULT_FILLS,
    fantasyland_value: float = DEFAULT_FANTASYLAND_VALUE,
) -> Placement:
    """The placement the fill policy (:mod:`cpsolver.ofc.simulate`) plays in ``position``:
    what every simulated seat plays, in microseconds, not the advice (no input checks: a
    position read by :func:`~cpsolver.ofc.position.read_position` or built by a game loop).

    >>> from cpsolver.ofc.position import read_position
    >>> pos = read_position({"street": 5, "hand": "Qd 2c 7h",
    ...     "board": {"back": "As Ad Ac 9s 9d", "middle": "Ks Kd 4c 4d", "front": "Qs 3h"},
    ...     "opponents": [{}]})
    >>> str(policy_placement(pos))  # K-K-4-4-7 beats more hands than K-K-4-4-2
    'middle 7h, front Qd, discard 2c'
    """
    slots, counts = _slots(position.board)
    hand = sorted(position.hand, key=lambda c: c.index)
    pool = np.array([c.index for c in position.unseen()], dtype=np.int64)
    codes, start, end = placement_codes()
    t = sim_tables(position.rules)
    rows = np.empty(5, dtype=np.int64)
    n = len(hand)
    opponents = max(1, len(position.opponents))
    policy_seeded(
        seed & 0x7FFFFFFF, np.array(slots, dtype=np.int64), np.array(counts, dtype=np.int64),
        np.array([c.index for c in hand], dtype=np.int64), pool, fills, codes, int(start[n]),
        int(end[n]), t.nonflush5, t.flush5, t.front3, t.weights, t.royalty, t.enters,
        t.row_value, opponents, float(opponents * (FOUL_UNITS + 2)), fantasyland_value, rows,
    )  # fmt: skip
    placed: list[list[Card]] = [[], [], []]
    discard: list[Card] = []
    for card, row in zip(hand, rows[:n], strict=True):
        (placed[row] if row >= 0 else discard).append(card)
    return Placement(tuple(placed[0]), tuple(placed[1]), tuple(placed[2]), tuple(discard))


_warmed = False


def warm_up() -> None:
    """Load (or compile) the kernels of advice and the tables of both fantasyland options:
    one seeded deal of street 1 against two empty boards goes through every path. Once per
    process (a server's warm-up, or the first :func:`advise`); later calls return at once."""
    global _warmed
    if _warmed:
        return
    _warmed = True  # first: the advice below must not warm up again
    for rules in (OfcRules(), OfcRules().replace(fantasyland="progressive")):
        advise(
            {"street": 1, "hand": "As Kd 7c 7h 2s", "opponents": [{}, {}]},
            rules,
            samples=1,
        )


def check_advice_options(
    budget_ms: object, samples: object, seed: object, fantasyland_value: object, fills: object
) -> float:
    """The checks of :func:`advise`'s options, every problem at once (the remote client runs
    them before sending); returns V (the default when None).

    >>> check_advice_options(0, None, 0, -1, 4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: budget_ms: expected milliseconds > 0, got 0; ...
    """
    found = Violations()
    with found.check():
        if budget_ms is not None and not (_is_number(budget_ms) and 0 < budget_ms < math.inf):  # type: ignore[operator]
            raise InvalidInputError("budget_ms", f"expected milliseconds > 0, got {budget_ms!r}")
    with found.check():
        if samples is not None and not (_is_int(samples) and 1 <= samples <= _MAX_SAMPLES):  # type: ignore[operator]
            raise InvalidInputError(
                "samples", f"expected a whole number from 1 to {_MAX_SAMPLES:,}, got {samples!r}"
            )
    with found.check():
        check_seed(seed)  # type: ignore[arg-type]
    value = DEFAULT_FANTASYLAND_VALUE
    with found.check():
        if fantasyland_value is not None:
            if not (_is_number(fantasyland_value) and 0 <= fantasyland_value < math.inf):  # type: ignore[operator]
                raise InvalidInputError(
                    "fantasyland_value", f"expected a number >= 0, got {fantasyland_value!r}"
                )
            value = float(fantasyland_value)  # type: ignore[arg-type]
    with found.check():
        if not (_is_int(fills) and 1 <= fills <= _MAX_FILLS):  # type: ignore[operator]
            raise InvalidInputError(
                "fills", f"expected a whole number from 1 to {_MAX_FILLS}, got {fills!r}"
            )
    found.raise_any()
    return value


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _time_limit(pos: Position, budget_ms: float | None, samples: int | None) -> float | None:
    """Seconds the simulation may run: the budget named (by default by street, none when only
    ``samples`` is named), never more than 90% of what is left of the call's deadline."""
    if budget_ms is None and samples is None:
        budget_ms = DEFAULT_BUDGET_MS[0 if pos.street == 1 else 1]
    limit = None if budget_ms is None else budget_ms / 1e3
    left = budget_left()
    if left is not None:
        limit = 0.9 * left if limit is None else min(limit, 0.9 * left)
    return limit


class SequentialHalving:
    """When a time-limited advice halves its placements (sequential halving): the time left
    after the first :data:`_PRUNE_AFTER` deals is cut into ``ceil(log2(active))`` equal
    phases, and at the end of each the better half by mean goes on (the plan is made again
    after every halving, as pruning may have dropped more). Every placement is first simulated
    on the same deals, so the clearly worse ones go early; the time saved goes to the few
    closest to the best, which a run that spreads its deals over every survivor leaves
    undecided (street 1: 232 placements in one second). Only advice over more than
    :data:`_MANY` placements halves; runs without a time limit never do (their answer depends
    only on the seed and ``samples``)."""

    def __init__(self, limit: float | None) -> None:
        """``limit``: the advice's time limit in seconds (None: never halve)."""
        self.limit = limit
        self.next_at: float | None = None

    def due(self, elapsed: float, active: int) -> bool:
        """Whether to halve now, ``elapsed`` seconds into the advice with ``active``
        placements still simulated."""
        if self.limit is None or active <= 2:
            return False
        if self.next_at is None or elapsed >= self.next_at:
            halve = self.next_at is not None
            left = (active + 1) // 2 if halve else active
            phases = max(1, math.ceil(math.log2(max(left, 2))))
            self.next_at = elapsed + (self.limit - elapsed) / phases
            return halve
        return False


def _slots(board: Board) -> tuple[list[int], list[int]]:
    """A board as the kernels hold it: 13 slots (back 0-4, middle 5-9, front 10-12, -1
    empty) and the per-row counts."""
    slots = [-1] * 13
    for start, row in ((0, board.back), (5, board.middle), (10, board.front)):
        for k, card in enumerate(row):
            slots[start + k] = card.index
    return slots, [len(board.back), len(board.middle), len(board.front)]


class _Run:
    """The arrays of one advice and what its rounds found."""

    def __init__(
        self, pos: Position, placements: tuple[Placement, ...], value: float, fills: int
    ) -> None:
        rules = pos.rules
        seats = (pos.board, *pos.opponents)
        slots = [_slots(b) for b in seats]
        self.boards = np.array([s for s, _ in slots], dtype=np.int64)
        self.counts = np.array([c for _, c in slots], dtype=np.int64)
        after = [_slots(p.on(pos.board)) for p in placements]
        self.candidates = np.array([s for s, _ in after], dtype=np.int64)
        self.cand_counts = np.array([c for _, c in after], dtype=np.int64)
        future = [remaining_streets(rules, pos.board.size + pos.keep)]
        future += [remaining_streets(rules, b.size) for b in pos.opponents]
        width = max(1, *(len(f) for f in future))
        self.streets = np.zeros((len(seats), width), dtype=np.int64)
        for p, f in enumerate(future):
            self.streets[p, : len(f)] = f
        self.exact = not self.streets.any()
        self.hidden = np.array([c.index for c in pos.unseen()], dtype=np.int64)
        self.tables = sim_tables(rules)
        self.codes = placement_codes()
        opponents = len(pos.opponents)
        self.foul_cost = float(opponents * (FOUL_UNITS + 2))
        self.value = value
        self.fills = fills
        self.active = np.ones(len(placements), dtype=np.bool_)
        self.values: list[npt.NDArray[np.float64]] = []
        self.fouls: list[npt.NDArray[np.bool_]] = []
        self.entries: list[npt.NDArray[np.bool_]] = []

    def simulate(self, seeds: list[int]) -> None:
        n, c = len(seeds), len(self.active)
        values = np.full((n, c), np.nan)
        fouls = np.zeros((n, c), dtype=np.bool_)
        entries = np.zeros((n, c), dtype=np.bool_)
        t = self.tables
        codes, start, end = self.codes
        play_rollouts(
            self.boards, self.counts, self.candidates, self.cand_counts, self.hidden,
            self.streets, np.array(seeds, dtype=np.int64), self.fills, codes, start, end,
            t.nonflush5, t.flush5, t.front3, t.weights, t.royalty, t.enters, t.row_value,
            self.foul_cost, self.value, self.active, values, fouls, entries,
        )  # fmt: skip
        self.values.append(values)
        self.fouls.append(fouls)
        self.entries.append(entries)

    def prune(self) -> None:
        """Stop simulating the placements clearly behind the leader (paired differences)."""
        values = np.concatenate(self.values)
        if len(values) < _PRUNE_AFTER or self.active.sum() <= 1:
            return
        means = np.where(self.active, np.nan_to_num(values).mean(axis=0), -np.inf)
        leader = int(np.argmax(means))
        for c in np.flatnonzero(self.active):
            if c == leader:
                continue
            diff = values[:, c] - values[:, leader]
            se = diff.std(ddof=1) / math.sqrt(len(diff))
            if diff.mean() + _PRUNE_SE * se < 0:
                self.active[c] = False

    def halve(self) -> None:
        """Keep simulating the better half of the placements still simulated, by mean over
        the deals they all met (ties: the earlier placement)."""
        values = np.concatenate(self.values)
        live = np.flatnonzero(self.active)
        means = values[:, live].mean(axis=0)
        ranked = sorted(range(len(live)), key=lambda i: (-means[i], i))
        for i in ranked[(len(live) + 1) // 2 :]:
            self.active[live[i]] = False

    def stats(self) -> list[tuple[float, float, float, float, int]]:
        """(value, stderr, foul share, fantasyland share, samples) per placement."""
        values = np.concatenate(self.values)
        fouls = np.concatenate(self.fouls)
        entries = np.concatenate(self.entries)
        out = []
        for c in range(values.shape[1]):
            ran = ~np.isnan(values[:, c])
            v = values[ran, c]
            n = len(v)
            se = 0.0 if self.exact or n < 2 else float(v.std(ddof=1) / math.sqrt(n))
            out.append(
                (
                    float(v.mean()),
                    se,
                    float(fouls[ran, c].mean()),
                    float(entries[ran, c].mean()),
                    n,
                )
            )
        return out
