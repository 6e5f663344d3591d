"""Exact constrained arrangement and 13-of-N selection by branch and bound (the default engine).

Given N = 13..17 cards (sorted by index; *positions* 0..N-1), the search picks a back and a
middle among the C(N, 5) five-card subsets and a front among the C(N, 3) three-card subsets,
pairwise disjoint (with 13 cards they partition the hand; with more, the cards left over are
discarded), valid under CP-6 (back >= middle >= front on the strength scale; back > middle
under ``order=strict``) and allowed by the constraints (:class:`RowMasks`: a subset may play in
a row only when each of its cards may go there, it holds every card pinned there and its class
reaches the row's minimum), maximising an ADDITIVE objective
``back[b] + middle[m] + front[f]`` (:class:`cpsolver.chinese.objectives.RowTables`).

**Bounds.** ``M*(c)`` is the best middle value over allowed middles of class <= ``c`` and
``F*(c)`` likewise for fronts (prefix maxima over the class scale). For a back of class ``b``
no completion beats ``back[b] + M*(b') + F*(b)`` (``b' = b - 1`` under strict order); for a
back and middle ``m``, none beats ``back[b] + middle[m] + F*(m)``. Both ignore disjointness, so
they are admissible (never below the true best completion). Backs are scanned in decreasing
bound order, middles and fronts in decreasing value order, and a scan stops as soon as its
bound cannot beat the incumbent (the ``top_k``-th distinct value when alternatives are asked
for). The first valid front met for a (back, middle) pair is that pair's best.

**Tie-break.** Among arrangements of equal value the first found wins: backs by decreasing
bound, middles and fronts by decreasing value, each sort stable over the lexicographic
subset order, so the answer depends only on the set of cards (never their input order). It
may differ from the 13-card enumerator's pick among equal-valued splits; the value is the same.

>>> from cpsolver.cards import parse_cards
>>> from cpsolver.chinese.objectives import get_objective
>>> from cpsolver.rules import ChineseRules
>>> cards = parse_cards("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s Ac Ad")
>>> tables = get_objective("strength").row_tables(ChineseRules())
>>> found = select(cards, tables, strict=False)
>>> [" ".join(map(str, row)) for row in found.rows(cards)[0]]
['Ts Js Qs Ks As', '9c 9d 9h Ac Ad', '2d 2h 7c']
>>> " ".join(map(str, found.discarded(cards)[0]))
'3s 5d'
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from cpsolver.cards import Card
from cpsolver.chinese.constraints import RowMasks
from cpsolver.chinese.objectives import RowTables
from cpsolver.chinese.search import WEIGHTS, subset_classes_into
from cpsolver.errors import InfeasibleError
from cpsolver.evaluator.poker import PokerTables
from cpsolver.jit import njit

__all__ = [
    "MAX_CARDS",
    "MIN_CARDS",
    "Selection",
    "SubsetTables",
    "select",
    "select_positions",
    "subset_tables",
]

MIN_CARDS = 13
MAX_CARDS = 17

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class SubsetTables:
    """The 5- and 3-subsets of N positions: ``comb5[i]`` positions, ``mask5[i]`` bitmask."""

    n: int
    comb5: IntArray
    comb3: IntArray
    mask5: IntArray
    mask3: IntArray


@cache
def subset_tables(n: int) -> SubsetTables:
    """Subsets of ``range(n)`` in lexicographic order (cached per ``n``)."""
    comb5 = np.array(list(itertools.combinations(range(n), 5)), dtype=np.int64)
    comb3 = np.array(list(itertools.combinations(range(n), 3)), dtype=np.int64)
    mask5 = (np.int64(1) << comb5).sum(axis=1).astype(np.int64)
    mask3 = (np.int64(1) << comb3).sum(axis=1).astype(np.int64)
    for a in (comb5, comb3, mask5, mask3):
        a.setflags(write=False)
    return SubsetTables(n, comb5, comb3, mask5, mask3)


def no_constraints(n: int) -> RowMasks:
    """Masks that constrain nothing (every card may go anywhere, 13 of them kept)."""
    keep = (1 << n) - 1 if n == 13 else 0
    return RowMasks((15,) * n, (0, 0, 0), keep, (0, 0, 0))


@dataclass(frozen=True)
class Selection:
    """What the branch and bound found: per entry (best first, distinct values) the subset
    indices (back and middle into ``comb5``, front into ``comb3``) and the value, plus the
    number of subsets the constraints allowed per row (front, middle, back)."""

    n: int
    picks: tuple[tuple[int, int, int], ...]
    values: tuple[float, ...]
    allowed: tuple[int, int, int]

    def positions(self) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
        """Per entry: the (back, middle, front) positions into the sorted cards."""
        t = subset_tables(self.n)
        return [
            (
                tuple(int(p) for p in t.comb5[b]),
                tuple(int(p) for p in t.comb5[m]),
                tuple(int(p) for p in t.comb3[f]),
            )
            for b, m, f in self.picks
        ]

    def rows(
        self, cards: Sequence[Card]
    ) -> list[tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]]:
        """Per entry: the (back, middle, front) cards (``cards`` in any order)."""
        ordered = sorted(cards, key=lambda c: c.index)
        return [
            (
                tuple(ordered[p] for p in b),
                tuple(ordered[p] for p in m),
                tuple(ordered[p] for p in f),
            )
            for b, m, f in self.positions()
        ]

    def discarded(self, cards: Sequence[Card]) -> list[tuple[Card, ...]]:
        """Per entry: the cards in no row (ascending)."""
        ordered = sorted(cards, key=lambda c: c.index)
        out = []
        for b, m, f in self.positions():
            used = set(b) | set(m) | set(f)
            out.append(tuple(c for p, c in enumerate(ordered) if p not in used))
        return out


# ----------------------------------------------------------------------------------------------
# Compiled kernel.


@njit(cache=True, nogil=True)
def _allowed(
    masks: IntArray,
    cls: IntArray,
    barred: int,
    required: int,
    minimum: int,
) -> IntArray:  # pragma: no cover - compiled
    out = np.empty(masks.shape[0], dtype=np.int64)
    n = 0
    for i in range(masks.shape[0]):
        mk = masks[i]
        if (mk & barred) == 0 and (required & ~mk) == 0 and cls[i] >= minimum:
            out[n] = i
            n += 1
    return out[:n]


@njit(cache=True, nogil=True)
def _prefix_best(idx: IntArray, cls: IntArray, values: FloatArray, size: int) -> FloatArray:
    # pragma: no cover - compiled
    best = np.full(size, -np.inf)
    for i in idx:
        c = cls[i]
        if values[c] > best[c]:
            best[c] = values[c]
    for c in range(1, size):
        if best[c - 1] > best[c]:
            best[c] = best[c - 1]
    return best


@njit(cache=True, nogil=True)
def _select(
    cls5: IntArray,
    cls3: IntArray,
    mask5: IntArray,
    mask3: IntArray,
    vb: FloatArray,
    vm: FloatArray,
    vf: FloatArray,
    strict: bool,
    allowed: IntArray,
    required: IntArray,
    keep: int,
    minimum: IntArray,
    top_k: int,
    out_pick: IntArray,
    out_value: FloatArray,
    out_allowed: IntArray,
) -> int:  # pragma: no cover - compiled
    n = allowed.shape[0]
    barred = np.zeros(3, dtype=np.int64)
    for p in range(n):
        for r in range(3):
            if (allowed[p] >> r) & 1 == 0:
                barred[r] |= 1 << p
    fr = _allowed(mask3, cls3, barred[0], required[0], minimum[0])
    md = _allowed(mask5, cls5, barred[1], required[1], minimum[1])
    bk = _allowed(mask5, cls5, barred[2], required[2], minimum[2])
    out_allowed[0] = fr.shape[0]
    out_allowed[1] = md.shape[0]
    out_allowed[2] = bk.shape[0]
    for k in range(top_k):
        out_value[k] = -np.inf
        out_pick[k, 0] = -1
    if fr.shape[0] == 0 or md.shape[0] == 0 or bk.shape[0] == 0:
        return 0
    size = vb.shape[0]
    best_m = _prefix_best(md, cls5, vm, size)
    best_f = _prefix_best(fr, cls3, vf, size)
    # Backs by decreasing admissible bound; middles and fronts by decreasing value.
    bound = np.empty(bk.shape[0])
    for i in range(bk.shape[0]):
        cb = cls5[bk[i]]
        lim = cb - 1 if strict else cb
        if lim < 0:
            bound[i] = -np.inf
        else:
            bound[i] = vb[cb] + best_m[lim] + best_f[cb]
    by_bound = np.argsort(-bound, kind="mergesort")
    order_b = bk[by_bound]
    bound_sorted = bound[by_bound]
    vmd = np.empty(md.shape[0])
    for i in range(md.shape[0]):
        vmd[i] = vm[cls5[md[i]]]
    order_m = md[np.argsort(-vmd, kind="mergesort")]
    vfr = np.empty(fr.shape[0])
    for i in range(fr.shape[0]):
        vfr[i] = vf[cls3[fr[i]]]
    order_f = fr[np.argsort(-vfr, kind="mergesort")]

    found = 0
    worst = -np.inf
    for ib in range(order_b.shape[0]):
        if bound_sorted[ib] == -np.inf:
            break
        if found == top_k and bound_sorted[ib] <= worst:
            break
        b = order_b[ib]
        cb = cls5[b]
        mb = mask5[b]
        lim = cb - 1 if strict else cb
        v_b = vb[cb]
        cap_f = best_f[cb]
        for im in range(order_m.shape[0]):
            m = order_m[im]
            cm = cls5[m]
            v_bm = v_b + vm[cm]
            if found == top_k and v_bm + cap_f <= worst:
                break
            if cm > lim or (mask5[m] & mb) != 0:
                continue
            if best_f[cm] == -np.inf:
                continue
            if found == top_k and v_bm + best_f[cm] <= worst:
                continue
            used = mb | mask5[m]
            for jf in range(order_f.shape[0]):
                f = order_f[jf]
                v = v_bm + vf[cls3[f]]
                if found == top_k and v <= worst:
                    break
                if cls3[f] > cm or (mask3[f] & used) != 0:
                    continue
                if ((used | mask3[f]) & keep) != keep:
                    continue
                # Insert keeping (value desc, first found first); equal values kept once.
                pos = found
                duplicate = False
                for k in range(found):
                    if out_value[k] == v:
                        duplicate = True
                        break
                    if v > out_value[k]:
                        pos = k
                        break
                if duplicate:
                    continue
                last = found if found < top_k else top_k - 1
                for k in range(last, pos, -1):
                    out_value[k] = out_value[k - 1]
                    out_pick[k, 0] = out_pick[k - 1, 0]
                    out_pick[k, 1] = out_pick[k - 1, 1]
                    out_pick[k, 2] = out_pick[k - 1, 2]
                out_value[pos] = v
                out_pick[pos, 0] = b
                out_pick[pos, 1] = m
                out_pick[pos, 2] = f
                if found < top_k:
                    found += 1
                if found == top_k:
                    worst = out_value[top_k - 1]
    return found


# ----------------------------------------------------------------------------------------------
# Python entry points.


def subset_classes_n(idx: IntArray, poker: PokerTables) -> tuple[IntArray, IntArray]:
    """Strength classes of every 5- and 3-subset of N sorted card indices."""
    t = subset_tables(len(idx))
    cls5 = np.empty(len(t.comb5), dtype=np.int64)
    cls3 = np.empty(len(t.comb3), dtype=np.int64)
    subset_classes_into(
        np.ascontiguousarray(idx, dtype=np.int64),
        poker.nonflush5,
        poker.flush5,
        poker.front3,
        WEIGHTS,
        t.comb5,
        t.comb3,
        cls5,
        cls3,
    )
    return cls5, cls3


def select_positions(
    idx: IntArray,
    tables: RowTables,
    masks: RowMasks,
    *,
    strict: bool,
    top_k: int = 1,
) -> Selection:
    """Branch and bound over the sorted card indices ``idx`` (13..17 of them).

    Returns a :class:`Selection` with no picks when nothing is feasible (the caller raises).
    """
    n = len(idx)
    if not MIN_CARDS <= n <= MAX_CARDS:
        raise ValueError(f"select needs {MIN_CARDS}..{MAX_CARDS} cards, got {n}")
    t = subset_tables(n)
    cls5, cls3 = subset_classes_n(idx, tables.poker)
    k = max(1, top_k)
    out_pick = np.empty((k, 3), dtype=np.int64)
    out_value = np.empty(k, dtype=np.float64)
    out_allowed = np.zeros(3, dtype=np.int64)
    found = _select(
        cls5,
        cls3,
        t.mask5,
        t.mask3,
        tables.back,
        tables.middle,
        tables.front,
        strict,
        np.array(masks.allowed, dtype=np.int64),
        np.array(masks.required, dtype=np.int64),
        masks.keep,
        np.array(masks.minimum, dtype=np.int64),
        k,
        out_pick,
        out_value,
        out_allowed,
    )
    picks = tuple((int(b), int(m), int(f)) for b, m, f in out_pick[:found].tolist())
    allowed = (int(out_allowed[0]), int(out_allowed[1]), int(out_allowed[2]))
    return Selection(n, picks, tuple(float(v) for v in out_value[:found]), allowed)


def select(
    cards: Sequence[Card],
    tables: RowTables,
    masks: RowMasks | None = None,
    *,
    strict: bool,
    top_k: int = 1,
) -> Selection:
    """:func:`select_positions` for cards in any order; raises :class:`InfeasibleError` when
    no valid arrangement satisfies ``masks``."""
    idx = np.array(sorted(c.index for c in cards), dtype=np.int64)
    found = select_positions(
        idx, tables, masks or no_constraints(len(idx)), strict=strict, top_k=top_k
    )
    if not found.picks:
        raise InfeasibleError(infeasible_message(found.allowed))
    return found


def infeasible_message(allowed: tuple[int, int, int]) -> str:
    """Why a search found nothing, from the per-row counts of allowed subsets."""
    empty = [name for name, n in zip(("front", "middle", "back"), allowed, strict=True) if not n]
    if empty:
        return (
            "no arrangement satisfies the constraints: no "
            + " and no ".join(f"{row} hand" for row in empty)
            + " meets them"
        )
    return (
        "no valid arrangement satisfies the constraints: every choice of rows that meets them "
        "fouls (CP-6: back >= middle >= front) or needs a card twice"
    )


def warm_up() -> None:
    """Compile (or load) the kernel with a 14-card hand."""
    from cpsolver.chinese.objectives import get_objective
    from cpsolver.rules import ChineseRules

    tables = get_objective("strength").row_tables(ChineseRules())
    idx = np.arange(0, 42, 3, dtype=np.int64)
    select_positions(idx, tables, no_constraints(14), strict=False, top_k=2)
