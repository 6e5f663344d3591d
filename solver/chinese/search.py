"""The exact arranger kernel: every split of 13 cards into back / middle / front (CP-2, CP-6).

A hand's 13 cards are first sorted by card index (so ranks ascend); each row is then a subset
of the 13 *positions*. There are 1,287 five-card subsets and 286 three-card subsets, and
286 x 126 = 36,036 splits once the two five-card rows are taken as an unordered pair (the
stronger of the two plays in the back, CP-6). The kernel:

1. :func:`subset_classes` - the strength class (``cpsolver.evaluator.poker`` scale, 0..7916) of
   every 5-subset and 3-subset of the hand (1,573 table lookups);
2. :func:`search_classes` - scans the 36,036 splits, drops the fouled ones (middle below the
   front, or back equal to middle under ``order=strict``), and keeps the best by an ADDITIVE
   objective: three float64 tables indexed by class, ``value = (front[f] + middle[m]) +
   back[b]``, added in that order by every scan (the pairing scan's ``PAIR_ADDITIVE`` too):
   float addition is not associative, and two orders can rank splits whose values differ in
   the last bit differently, so ``solve`` and ``solve_many`` would pick different splits.

**Tie-break** (deterministic, documented): among splits of equal value the one met first in
the enumeration order wins. That order is: fronts in lexicographic order of their positions
(:data:`COMB3`), then for each front the 126 five-card pairs in lexicographic order of the
subset holding the lowest remaining position. When the two five-card rows are equal in
strength (allowed under ``order=weak``) the subset holding the lowest remaining position plays
in the back. Since positions come from the sorted card indices, the answer depends only on the
set of cards, never on their input order.

**Alternatives** (``top_k``): the best ``top_k`` splits with *distinct* values, best first;
splits of equal value (for the deterministic objectives: the same three row classes, differing
only in suits) appear once, as the first met.

Extension points (kept as plain arrays so compiled code can take them):

* non-additive objectives (the ``ev`` objective under ``two_four`` / ``scoop_double``, which
  combines per-row win and tie probabilities per pairing) use :func:`search_pairing_classes`
  and :func:`search_pairing_batch`: the same scan, foul test, tie-break and alternatives over
  per-row tables with several fields (see ``PAIR_*`` and ``F_*``); :func:`valid_splits` lists
  every valid split with its three classes for anything else;
* per-card row constraints can be expressed as per-subset allowed-row masks over
  :data:`COMB5` / :data:`COMB3` (a subset holding a card barred from a row is barred from it),
  checked in the scan next to the foul test; 13-of-N selection can call
  :func:`subset_classes` per chosen 13.

The compiled kernels use numba (``cache=True``), imported with the kernels on the first call of
one (:mod:`cpsolver.jit`: ``import cpsolver`` does not load numba); :func:`warm_up` loads or
compiles them all so the JIT never runs on a first request. ``*_reference`` functions are plain
numpy/Python versions that the tests compare the compiled ones against.

>>> from cpsolver.cards import parse_cards
>>> from cpsolver.chinese.objectives import get_objective
>>> from cpsolver.rules import ChineseRules
>>> cards = parse_cards("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s")
>>> tables = get_objective("strength").row_tables(ChineseRules())
>>> found = search(sorted_indices(cards), tables, strict=False)
>>> back, middle, front = split_cards(cards, found.best)
>>> " ".join(map(str, back)), " ".join(map(str, middle)), " ".join(map(str, front))
('Ts Js Qs Ks As', '2d 2h 9c 9d 9h', '3s 5d 7c')
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from cpsolver.cards import Card
from cpsolver.chinese.removal import RemovalModel, gather_fields, removal_cumulative
from cpsolver.evaluator.poker import MULTISET_WEIGHTS, PokerTables, poker_tables
from cpsolver.jit import dispatcher, njit, prange

if TYPE_CHECKING:
    from cpsolver.chinese.objectives import RowTables

__all__ = [
    "COMB3",
    "COMB3_LISTS",
    "COMB5",
    "COMB5_LISTS",
    "F_ADD",
    "F_PAID",
    "F_TIE",
    "F_VALUE",
    "F_WIN",
    "MODE_FIELDS",
    "NUM_FIELDS",
    "NUM_SPLITS",
    "PAIRS_PER_FRONT",
    "PAIR_ADDITIVE",
    "PAIR_ROWS",
    "PAIR_SCOOP",
    "PAIR_SCOOP_BONUS",
    "PAIR_TWO_FOUR",
    "SPLIT_A",
    "SPLIT_B",
    "SPLIT_FRONT",
    "WEIGHTS",
    "BatchResult",
    "RateBatch",
    "RemovalBatch",
    "RemovalTopBatch",
    "SearchResult",
    "pairing_mode",
    "rate_removal_batch",
    "removal_split_values",
    "search",
    "search_batch",
    "search_classes",
    "search_classes_reference",
    "search_pairing_batch",
    "search_pairing_classes",
    "search_removal_batch",
    "search_removal_batch_top",
    "search_removal_classes",
    "sorted_indices",
    "split_cards",
    "split_rows",
    "subset_classes",
    "subset_classes_into",
    "subset_classes_reference",
    "valid_splits",
    "warm_up",
]

IntArray = npt.NDArray[np.int64]
SplitArray = npt.NDArray[np.int16]
FloatArray = npt.NDArray[np.float64]
_ClassArgs = tuple[  # what subset_classes_into takes after the hand (see _class_args)
    npt.NDArray[np.int16],
    npt.NDArray[np.int16],
    npt.NDArray[np.int16],
    IntArray,
    IntArray,
    IntArray,
]


def _build_index_tables() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], IntArray]:
    # Vectorised: this runs at import (a loop over the 72,072 candidate pairs took ~0.1 s).
    comb5 = np.array(list(itertools.combinations(range(13), 5)), dtype=np.int8)
    comb3 = np.array(list(itertools.combinations(range(13), 3)), dtype=np.int8)
    bit = np.int64(1) << np.arange(13, dtype=np.int64)
    index5 = np.full(1 << 13, -1, dtype=np.int64)  # bitmask of 5 positions -> COMB5 index
    index5[bit[comb5].sum(axis=1)] = np.arange(len(comb5))
    outside = np.ones((len(comb3), 13), dtype=bool)
    outside[np.arange(len(comb3))[:, None], comb3] = False
    rest = np.nonzero(outside)[1].reshape(len(comb3), 10)  # per front, the 10 other positions
    # The five-card row holding the lowest other position (local index 0) and 4 of the 9 after
    # it, in lexicographic order; the other row is the complement.
    pick = np.array([(0, *c) for c in itertools.combinations(range(1, 10), 4)], dtype=np.int64)
    others = np.ones((len(pick), 10), dtype=bool)
    others[np.arange(len(pick))[:, None], pick] = False
    rest_pick = np.nonzero(others)[1].reshape(len(pick), 5)
    first = index5[bit[rest[:, pick]].sum(axis=2)]  # (286 fronts, 126 pairs)
    second = index5[bit[rest[:, rest_pick]].sum(axis=2)]
    fronts = np.repeat(np.arange(len(comb3), dtype=np.int64), len(pick))
    table = np.stack([fronts, first.ravel(), second.ravel()], axis=1)
    for array in (comb5, comb3, table):
        array.setflags(write=False)
    return comb5, comb3, table


COMB5, COMB3, _SPLITS64 = _build_index_tables()
_SPLITS = _SPLITS64.astype(np.int16)  # 16-bit tables: the scan reads them for every hand
"""``COMB5[i]``: the 5 positions (0..12, ascending) of 5-subset ``i``; ``COMB3`` likewise."""
COMB5_LISTS: list[list[int]] = COMB5.tolist()
""":data:`COMB5` as plain lists, for Python code that builds rows from a search result."""
COMB3_LISTS: list[list[int]] = COMB3.tolist()
""":data:`COMB3` as plain lists."""
SPLIT_FRONT: SplitArray = np.ascontiguousarray(_SPLITS[:, 0])
"""Per split: index into :data:`COMB3` of its front."""
SPLIT_A: SplitArray = np.ascontiguousarray(_SPLITS[:, 1])
"""Per split: index into :data:`COMB5` of the five-card row holding the lowest other position."""
SPLIT_B: SplitArray = np.ascontiguousarray(_SPLITS[:, 2])
"""Per split: index into :data:`COMB5` of the other five-card row."""
for _table in (SPLIT_FRONT, SPLIT_A, SPLIT_B):
    _table.setflags(write=False)
NUM_SPLITS = len(_SPLITS)
"""36,036: 286 fronts x 126 unordered pairs of five-card rows."""
PAIRS_PER_FRONT = 126
"""Splits ``f * 126 .. f * 126 + 125`` share front ``COMB3[f]``."""
_COMB5_I64: IntArray = COMB5.astype(np.int64)
_COMB3_I64: IntArray = COMB3.astype(np.int64)
WEIGHTS: IntArray = MULTISET_WEIGHTS.astype(np.int64)
"""The multiset weights as the kernels take them (int64; :mod:`cpsolver.chinese.select` too)."""
_NEG_INF = -np.inf


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a scan found for one hand.

    ``splits[i]`` is a split index (into :data:`SPLIT_FRONT` etc.), ``values[i]`` its value and
    ``back[i]``, ``middle[i]``, ``front[i]`` its row classes; entry 0 is the best, the rest are
    the distinct-valued alternatives, best first.
    """

    splits: tuple[int, ...]
    values: tuple[float, ...]
    back: tuple[int, ...]
    middle: tuple[int, ...]
    front: tuple[int, ...]
    rows: tuple[tuple[int, int, int], ...]
    """Per entry: (back, middle) indices into :data:`COMB5` and the front's into :data:`COMB3`."""

    @property
    def best(self) -> int:
        """The best split's index."""
        return self.splits[0]


def sorted_indices(cards: Sequence[Card]) -> IntArray:
    """The 13 card indices (0..51) sorted ascending, as the kernels take them."""
    return np.array(sorted(c.index for c in cards), dtype=np.int64)


# ----------------------------------------------------------------------------------------------
# Compiled kernels.


@njit(cache=True, nogil=True)
def subset_classes_into(
    idx: IntArray,
    nonflush5: npt.NDArray[np.int16],
    flush5: npt.NDArray[np.int16],
    front3: npt.NDArray[np.int16],
    weights: IntArray,
    comb5: IntArray,
    comb3: IntArray,
    cls5: IntArray,
    cls3: IntArray,
) -> None:  # pragma: no cover - compiled
    """Write the classes of ``idx``'s subsets ``comb5``, ``comb3`` into ``cls5``, ``cls3``."""
    for i in range(comb5.shape[0]):
        suit = idx[comb5[i, 0]] & 3
        flush = True
        mset = 0
        mask = 0
        for j in range(5):
            card = idx[comb5[i, j]]
            rank = card >> 2
            if (card & 3) != suit:
                flush = False
            mset += weights[j, rank]
            mask |= 1 << rank
        cls5[i] = flush5[mask] if flush else nonflush5[mset]
    for i in range(comb3.shape[0]):
        mset = 0
        for j in range(3):
            mset += weights[j, idx[comb3[i, j]] >> 2]
        cls3[i] = front3[mset]


@njit(cache=True, nogil=True)
def _keep_best(
    out_split: IntArray, out_value: FloatArray, found: int, top_k: int, s: int, v: float
) -> int:  # pragma: no cover - compiled
    """Insert split ``s`` of value ``v`` into the best-first list of ``found`` entries (at most
    ``top_k``), keeping (value desc, first met first); a value already listed is kept once.
    Returns the new count. Shared by every scan so they all break ties the same way."""
    pos = found
    for k in range(found):
        if out_value[k] == v:
            return found
        if v > out_value[k]:
            pos = k
            break
    if pos >= top_k:
        return found
    last = found if found < top_k else top_k - 1
    for k in range(last, pos, -1):
        out_value[k] = out_value[k - 1]
        out_split[k] = out_split[k - 1]
    out_value[pos] = v
    out_split[pos] = s
    return found + 1 if found < top_k else found


@njit(cache=True, nogil=True)
def _search(
    cls5: IntArray,
    cls3: IntArray,
    vb: FloatArray,
    vm: FloatArray,
    vf: FloatArray,
    strict: bool,
    split_f: SplitArray,
    split_a: SplitArray,
    split_b: SplitArray,
    top_k: int,
    out_split: IntArray,
    out_value: FloatArray,
) -> int:  # pragma: no cover - compiled
    """Fill out_* (length >= top_k) with the best distinct-valued splits; return how many.

    Splits are grouped by front: split ``s`` has front ``s // PAIRS_PER_FRONT``.
    """
    n5 = cls5.shape[0]
    vb5 = np.empty(n5, dtype=np.float64)
    vm5 = np.empty(n5, dtype=np.float64)
    for i in range(n5):
        vb5[i] = vb[cls5[i]]
        vm5[i] = vm[cls5[i]]
    found = 0
    for k in range(top_k):
        out_value[k] = -np.inf
        out_split[k] = -1
    worst = -np.inf  # the value to beat once top_k are found
    for s0 in range(0, split_f.shape[0], PAIRS_PER_FRONT):
        cf = cls3[split_f[s0]]
        front_value = vf[cf]
        for s in range(s0, s0 + PAIRS_PER_FRONT):
            a = split_a[s]
            b = split_b[s]
            ca = cls5[a]
            cb = cls5[b]
            if ca >= cb:
                if cb < cf or (strict and ca == cb):
                    continue
                v = front_value + vm5[b] + vb5[a]
            else:
                if ca < cf:
                    continue
                v = front_value + vm5[a] + vb5[b]
            if v <= worst:
                continue
            found = _keep_best(out_split, out_value, found, top_k, s, v)
            if found == top_k:
                worst = out_value[top_k - 1]
    return found


@njit(cache=True, nogil=True)
def _valid(
    cls5: IntArray,
    cls3: IntArray,
    strict: bool,
    split_f: SplitArray,
    split_a: SplitArray,
    split_b: SplitArray,
    out: IntArray,
) -> int:  # pragma: no cover - compiled
    n = 0
    for s in range(split_f.shape[0]):
        cf = cls3[split_f[s]]
        ca = cls5[split_a[s]]
        cb = cls5[split_b[s]]
        hi = max(ca, cb)
        lo = min(ca, cb)
        if lo < cf or (strict and hi == lo):
            continue
        out[n, 0] = s
        out[n, 1] = hi
        out[n, 2] = lo
        out[n, 3] = cf
        n += 1
    return n


@njit(cache=True, parallel=True)
def _batch(
    hands: IntArray,
    nonflush5: npt.NDArray[np.int16],
    flush5: npt.NDArray[np.int16],
    front3: npt.NDArray[np.int16],
    weights: IntArray,
    comb5: IntArray,
    comb3: IntArray,
    vb: FloatArray,
    vm: FloatArray,
    vf: FloatArray,
    strict: bool,
    split_f: SplitArray,
    split_a: SplitArray,
    split_b: SplitArray,
    out_split: IntArray,
    out_value: FloatArray,
    out_rows: IntArray,
    out_cls: IntArray,
) -> None:  # pragma: no cover - compiled
    for h in prange(hands.shape[0]):
        cls5 = np.empty(comb5.shape[0], dtype=np.int64)
        cls3 = np.empty(comb3.shape[0], dtype=np.int64)
        one_split = np.empty(1, dtype=np.int64)
        one_value = np.empty(1, dtype=np.float64)
        subset_classes_into(hands[h], nonflush5, flush5, front3, weights, comb5, comb3, cls5, cls3)
        _search(cls5, cls3, vb, vm, vf, strict, split_f, split_a, split_b, 1, one_split, one_value)
        s = one_split[0]
        a = split_a[s]
        b = split_b[s]
        if cls5[b] > cls5[a]:
            a, b = b, a
        out_split[h] = s
        out_value[h] = one_value[0]
        out_rows[h, 0] = a
        out_rows[h, 1] = b
        out_rows[h, 2] = split_f[s]
        out_cls[h, 0] = cls5[a]
        out_cls[h, 1] = cls5[b]
        out_cls[h, 2] = cls3[split_f[s]]


# ----------------------------------------------------------------------------------------------
# Python entry points.


def subset_classes(idx: IntArray, tables: PokerTables) -> tuple[IntArray, IntArray]:
    """Strength classes of every 5-subset (:data:`COMB5`) and 3-subset (:data:`COMB3`).

    ``idx`` is the output of :func:`sorted_indices`.
    """
    cls5 = np.empty(len(COMB5), dtype=np.int64)
    cls3 = np.empty(len(COMB3), dtype=np.int64)
    subset_classes_into(idx, *_class_args(tables), cls5, cls3)
    return cls5, cls3


def _class_args(poker: PokerTables) -> _ClassArgs:
    """What :func:`subset_classes_into` (and each batch kernel) takes after the hand: the lookup
    tables of ``poker`` and the multiset weights and subset positions."""
    return (poker.nonflush5, poker.flush5, poker.front3, WEIGHTS, _COMB5_I64, _COMB3_I64)


def search_classes(
    cls5: IntArray, cls3: IntArray, tables: RowTables, *, strict: bool, top_k: int = 1
) -> SearchResult:
    """Best valid split (and up to ``top_k - 1`` alternatives) given the subset classes."""
    k = max(1, top_k)
    out_split = np.empty(k, dtype=np.int64)
    out_value = np.empty(k, dtype=np.float64)
    found = _search(
        cls5,
        cls3,
        tables.back,
        tables.middle,
        tables.front,
        strict,
        SPLIT_FRONT,
        SPLIT_A,
        SPLIT_B,
        k,
        out_split,
        out_value,
    )
    return _result(cls5, cls3, out_split[:found].tolist(), out_value[:found].tolist())


def search(idx: IntArray, tables: RowTables, *, strict: bool, top_k: int = 1) -> SearchResult:
    """:func:`subset_classes` then :func:`search_classes` for one hand (sorted indices)."""
    cls5, cls3 = subset_classes(idx, tables.poker)
    return search_classes(cls5, cls3, tables, strict=strict, top_k=top_k)


@dataclass(frozen=True, eq=False)
class BatchResult:
    """Best split of each hand of a batch: arrays with one entry (row) per hand.

    ``splits[h]``, ``values[h]``; ``rows[h]`` = (back, middle) :data:`COMB5` indices and the
    front's :data:`COMB3` index; ``classes[h]`` = (back, middle, front) strength classes.
    """

    splits: IntArray
    values: FloatArray
    rows: IntArray
    classes: IntArray


_BATCH_LOCK = threading.Lock()


def _batch_args(hands: IntArray, tables: RowTables, strict: bool) -> tuple[Any, ...]:
    n = hands.shape[0]
    return (
        np.ascontiguousarray(hands, dtype=np.int64),
        *_class_args(tables.poker),
        tables.back,
        tables.middle,
        tables.front,
        strict,
        SPLIT_FRONT,
        SPLIT_A,
        SPLIT_B,
        np.empty(n, dtype=np.int64),
        np.empty(n, dtype=np.float64),
        np.empty((n, 3), dtype=np.int64),
        np.empty((n, 3), dtype=np.int64),
    )


def search_batch(hands: IntArray, tables: RowTables, *, strict: bool) -> BatchResult:
    """Best split of each row of ``hands`` (n x 13 sorted indices), hands in parallel threads.

    Same answers as :func:`search` with ``top_k=1`` (the tie-break is per hand). Calls are
    serialised by a lock (the kernel already uses every core, and numba's ``workqueue``
    threading layer must not be entered from two threads at once). See :func:`warm_up` about
    forking.
    """
    args = _batch_args(hands, tables, strict)
    if hands.shape[0]:
        with _BATCH_LOCK:
            _batch(*args)
    return BatchResult(*args[-4:])


def valid_splits(cls5: IntArray, cls3: IntArray, *, strict: bool) -> IntArray:
    """Every valid split of a hand: an ``(n, 4)`` array of (split, back, middle, front classes).

    For objectives that are not a sum of per-row tables (they score these rows themselves).
    """
    out = np.empty((NUM_SPLITS, 4), dtype=np.int64)
    n = _valid(cls5, cls3, strict, SPLIT_FRONT, SPLIT_A, SPLIT_B, out)
    return out[:n]


def _result(cls5: IntArray, cls3: IntArray, splits: list[int], values: list[float]) -> SearchResult:
    # by whole arrays, not split by split: a top-10 answer reads 60 numpy scalars otherwise
    s = np.array(splits, dtype=np.int64)
    a, b, f = SPLIT_A[s], SPLIT_B[s], SPLIT_FRONT[s]
    swap = cls5[b] > cls5[a]  # the stronger five-card subset is the back
    back, middle = np.where(swap, b, a), np.where(swap, a, b)
    return SearchResult(
        tuple(splits),
        tuple(values),
        tuple(cls5[back].tolist()),
        tuple(cls5[middle].tolist()),
        tuple(cls3[f].tolist()),
        tuple(zip(back.tolist(), middle.tolist(), f.tolist(), strict=True)),
    )


def split_rows(
    cls5: IntArray, split: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Positions (into the sorted 13 cards) of the back, middle and front of ``split``.

    The stronger five-card subset is the back; on equal strength the subset holding the lowest
    remaining position (:data:`SPLIT_A`) is.
    """
    a, b = int(SPLIT_A[split]), int(SPLIT_B[split])
    if cls5[b] > cls5[a]:
        a, b = b, a
    return (
        tuple(int(p) for p in COMB5[a]),
        tuple(int(p) for p in COMB5[b]),
        tuple(int(p) for p in COMB3[SPLIT_FRONT[split]]),
    )


def split_cards(
    cards: Sequence[Card], split: int, *, wheel_second_highest: bool = False
) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """The (back, middle, front) cards of ``split`` for a hand (any input order).

    Each row's cards come in ascending card order.
    """
    ordered = sorted(cards, key=lambda c: c.index)
    a, b = int(SPLIT_A[split]), int(SPLIT_B[split])
    tables = poker_tables(wheel_second_highest)
    rows_a = tuple(ordered[p] for p in COMB5[a])
    rows_b = tuple(ordered[p] for p in COMB5[b])
    if _class5(rows_b, tables) > _class5(rows_a, tables):
        rows_a, rows_b = rows_b, rows_a
    return rows_a, rows_b, tuple(ordered[p] for p in COMB3[SPLIT_FRONT[split]])


def _class5(cards: Sequence[Card], tables: PokerTables) -> int:
    ranks = [c.index >> 2 for c in cards]
    if len({c.index & 3 for c in cards}) == 1:
        return int(tables.flush5[sum(1 << r for r in ranks)])
    return int(tables.nonflush5[sum(int(MULTISET_WEIGHTS[i, r]) for i, r in enumerate(ranks))])


# ----------------------------------------------------------------------------------------------
# Plain references (tests compare the compiled kernels against these).


def subset_classes_reference(
    cards: Sequence[Card], tables: PokerTables
) -> tuple[IntArray, IntArray]:
    """:func:`subset_classes` in plain Python, via :func:`cpsolver.evaluator.poker.strength`."""
    from cpsolver.evaluator.poker import strength

    ordered = sorted(cards, key=lambda c: c.index)
    wheel = tables.wheel_second_highest
    cls5 = np.array(
        [strength([ordered[p] for p in c], wheel_second_highest=wheel) for c in COMB5],
        dtype=np.int64,
    )
    cls3 = np.array(
        [strength([ordered[p] for p in c], wheel_second_highest=wheel) for c in COMB3],
        dtype=np.int64,
    )
    return cls5, cls3


def search_classes_reference(
    cls5: IntArray, cls3: IntArray, tables: RowTables, *, strict: bool, top_k: int = 1
) -> SearchResult:
    """:func:`search_classes` vectorised in numpy (same tie-break and alternatives)."""
    ca, cb, cf = cls5[SPLIT_A], cls5[SPLIT_B], cls3[SPLIT_FRONT]
    hi, lo = np.maximum(ca, cb), np.minimum(ca, cb)
    ok = lo >= cf
    if strict:
        ok &= hi > lo
    values = np.where(ok, tables.front[cf] + tables.middle[lo] + tables.back[hi], _NEG_INF)
    distinct = np.unique(values[ok])[::-1][: max(1, top_k)]
    splits = [int(np.flatnonzero(values == v)[0]) for v in distinct]
    return _result(cls5, cls3, splits, [float(v) for v in distinct])


# ----------------------------------------------------------------------------------------------
# Pairing objectives: per-row tables with several fields combined per split (the ``ev``
# objective under ``two_four`` / ``scoop_double``, where a split's value is not a sum of rows).

PAIR_ADDITIVE = 0
"""Mode: ``T[ADD, front] + T[ADD, middle] + T[ADD, back]`` (the scan above, on field 0)."""
PAIR_TWO_FOUR = 1
"""Mode: row units plus the CP-9 majority point, rows independent."""
PAIR_SCOOP = 2
"""Mode: row units plus the CP-9 ``scoop_double`` doubling, rows independent."""
F_ADD, F_WIN, F_TIE, F_VALUE, F_PAID = 0, 1, 2, 3, 4
"""Fields (axis 1) of a pairing table ``(3 rows: front, middle, back; 5 fields; classes)``:
the additive value, P(win), P(tie), units collected when winning, expected units paid."""
NUM_FIELDS = 5


@njit(cache=True, nogil=True)
def _gather(
    tables: FloatArray, row: int, cls: IntArray, nfields: int, out: FloatArray
) -> None:  # pragma: no cover - compiled
    for k in range(nfields):
        for i in range(cls.shape[0]):
            out[k, i] = tables[row, k, cls[i]]


MODE_FIELDS = 5
"""A pairing mode as the kernels take it: ``[kind, N, e, we, they]``: ``kind`` one of the
``PAIR_*`` (:data:`PAIR_SCOOP_BONUS` with its ``N``; :data:`PAIR_ROWS` per-row units priced
field by field), then CP-13's sweep at a table of ``e + 2`` players (``e`` 0: no sweep): a
split's per-pairing value gains ``win * P(scoop)^e * we - loss * they``, ``win``/``loss`` the
expected amounts of the pairings it scoops / is scooped in, ``we`` = (1 - q)^e and ``they``
= ((1 - q) s)^e for an opponent's natural rate ``q`` and the rate ``s`` of one opponent
scooping another (:func:`cpsolver.chinese.ev_model.kernel_pairing`). An ``int`` mode is the
same with no bonus and no sweep (:func:`pairing_mode`)."""
PAIR_SCOOP_BONUS = 3
"""Mode: row units plus CP-13's ``scoop_bonus:N`` (``N`` units to the scooper), rows
independent."""
PAIR_ROWS = 4
"""Mode: row units (``per_row``) from the five fields, so that a sweep can be priced."""

_MODES = {
    kind: np.array([kind, 0.0, 0.0, 0.0, 0.0])
    for kind in (PAIR_ADDITIVE, PAIR_TWO_FOUR, PAIR_SCOOP, PAIR_SCOOP_BONUS, PAIR_ROWS)
}


def pairing_mode(mode: int | FloatArray) -> FloatArray:
    """``mode`` as the kernels take it (:data:`MODE_FIELDS`): an ``int`` kind without bonus or
    sweep, or the array itself.

    >>> pairing_mode(PAIR_SCOOP).tolist()
    [2.0, 0.0, 0.0, 0.0, 0.0]
    """
    if isinstance(mode, (int, np.integer)):
        return _MODES[int(mode)]
    found = np.ascontiguousarray(mode, dtype=np.float64)
    if found.shape != (MODE_FIELDS,):
        raise ValueError(f"a pairing mode has {MODE_FIELDS} fields, got shape {found.shape}")
    return found


@njit(cache=True, nogil=True)
def _pair_value(
    kind: int,
    bonus: float,
    e: int,
    we: float,
    they: float,
    jf: int,
    im: int,
    ib: int,
    g3: FloatArray,
    gm: FloatArray,
    gb: FloatArray,
) -> float:  # pragma: no cover - compiled
    """A split's value under the pairing mode ``kind, bonus, e, we, they`` (the fields of
    :data:`MODE_FIELDS`, read once per scan so that the scan's loop keeps them in registers)."""
    if kind == 0:
        return float(g3[0, jf] + gm[0, im] + gb[0, ib])
    w0, w1, w2 = g3[1, jf], gm[1, im], gb[1, ib]
    t0, t1, t2 = g3[2, jf], gm[2, im], gb[2, ib]
    v0, v1, v2 = g3[3, jf], gm[3, im], gb[3, ib]
    p0, p1, p2 = g3[4, jf], gm[4, im], gb[4, ib]
    l0 = 1.0 - w0 - t0
    l1 = 1.0 - w1 - t1
    l2 = 1.0 - w2 - t2
    rows = v0 * w0 + v1 * w1 + v2 * w2 - p0 - p1 - p2
    if kind == 1:
        # Distribution of (rows won - rows lost) over front and middle, then the back.
        q2 = w0 * w1
        q1 = w0 * t1 + t0 * w1
        q0 = t0 * t1 + w0 * l1 + l0 * w1
        qm1 = l0 * t1 + t0 * l1
        qm2 = l0 * l1
        ahead = q2 + q1 * (w2 + t2) + q0 * w2
        behind = qm2 + qm1 * (l2 + t2) + q0 * l2
        value = rows + ahead - behind
    elif kind == 2:
        # A scoop doubles the pairing: the scooper collects its row units once more.
        ours = w0 * w1 * w2 * (v0 + v1 + v2)
        theirs = p0 * l1 * l2 + l0 * p1 * l2 + l0 * l1 * p2
        value = rows + ours - theirs
    elif kind == 3:
        value = rows + bonus * (w0 * w1 * w2 - l0 * l1 * l2)
    else:
        value = rows
    if e > 0:
        # CP-13's sweep: the expected amounts of the pairings we scoop / are scooped in.
        scoop = w0 * w1 * w2
        scooped = l0 * l1 * l2
        win = scoop * (v0 + v1 + v2)
        loss = p0 * l1 * l2 + l0 * p1 * l2 + l0 * l1 * p2
        if kind == 1:
            win += scoop  # the majority unit comes with a scoop
            loss += scooped
        elif kind == 2:
            win *= 2.0
            loss *= 2.0
        elif kind == 3:
            win += bonus * scoop
            loss += bonus * scooped
        sweep = we  # scoop ** e by products (e is 1 or 2)
        for _ in range(e):
            sweep *= scoop
        value += win * sweep - loss * they
    return float(value)


@njit(cache=True, nogil=True)
def _search_pairing(
    cls5: IntArray,
    cls3: IntArray,
    tables: FloatArray,
    mode: FloatArray,
    strict: bool,
    split_f: SplitArray,
    split_a: SplitArray,
    split_b: SplitArray,
    top_k: int,
    out_split: IntArray,
    out_value: FloatArray,
) -> int:  # pragma: no cover - compiled
    """:func:`_search` for pairing tables: same foul test, order, tie-break, alternatives."""
    nfields = 1 if mode[0] == 0 else 5
    g3 = np.empty((nfields, cls3.shape[0]))
    gm = np.empty((nfields, cls5.shape[0]))
    gb = np.empty((nfields, cls5.shape[0]))
    _gather(tables, 0, cls3, nfields, g3)
    _gather(tables, 1, cls5, nfields, gm)
    _gather(tables, 2, cls5, nfields, gb)
    return _scan_pairing(
        cls5, cls3, g3, gm, gb, mode, strict, split_f, split_a, split_b, top_k, np.inf,
        out_split, out_value,
    )  # fmt: skip


@njit(cache=True, nogil=True)
def _bound_terms(
    kind: int, bonus: float, e: int, we: float, they: float
) -> tuple[float, float, float]:  # pragma: no cover - compiled
    """``c, d, k`` of the bound :func:`_scan_pairing` prunes with: a split's value (mode
    ``kind, bonus, e, we, they``, :func:`_pair_value`) is at most the sum over its rows of
    ``ADD + c * WIN * max(VALUE, 0) + d * max(-PAID, 0)``, plus ``k``.

    Why it holds (``w``, ``t``, ``l`` a row's P(win), P(tie), P(loss), all in [0, 1]): the value
    is the rows' ADD sum (field 0 is ``VALUE * WIN - PAID``) plus the mode's term and the
    sweep's. Two-four's ``ahead - behind`` is at most 1. Scoop-double's ``w0 w1 w2 (v0 + v1 +
    v2)`` is at most ``sum w_r max(v_r, 0)`` (each product of probabilities is at most the one
    factor kept), and ``-(p0 l1 l2 + ...)`` at most ``sum max(-p_r, 0)``. Scoop-bonus adds at
    most ``|N|``. The sweep's ``win * P(scoop)^e * we`` is at most ``max(win, 0) * we`` when
    ``we >= 0`` (``P(scoop)^e`` in [0, 1]), ``win`` bounded as the scoop term (doubled under
    scoop-double, plus the majority unit or ``N``), and ``-loss * they`` likewise when ``they
    >= 0``; the caller checks those signs.
    """
    c = 0.0
    d = 0.0
    k = 0.0
    if kind == 1:
        k = 1.0
    elif kind == 2:
        c = 1.0
        d = 1.0
    elif kind == 3:
        k = abs(bonus)
    if e > 0:
        m = 2.0 if kind == 2 else 1.0
        c += we * m
        d += they * m
        if kind == 1:
            k += we
        elif kind == 3:
            k += we * max(bonus, 0.0) + they * max(-bonus, 0.0)
    return c, d, k


@njit(cache=True, nogil=True)
def _bound_fields(
    g: FloatArray, c: float, d: float, out: FloatArray
) -> None:  # pragma: no cover - compiled
    """Per gathered subset: its row's share of :func:`_bound_terms`' bound."""
    for i in range(g.shape[1]):
        v = g[3, i]
        p = g[4, i]
        out[i] = g[0, i] + c * g[1, i] * (v if v > 0.0 else 0.0) + d * (-p if p < 0.0 else 0.0)


@njit(cache=True, nogil=True)
def _majority_fields(
    g: FloatArray, bound: FloatArray, out: FloatArray
) -> None:  # pragma: no cover - compiled
    """Per gathered subset under two-four: its row's share of the tighter bound
    (:func:`_scan_pairing`): ``bound`` plus ``(w - l) / 2``."""
    for i in range(g.shape[1]):
        w = g[1, i]
        out[i] = bound[i] + 0.5 * (w - (1.0 - w - g[2, i]))


@njit(cache=True, nogil=True)
def _scan_pairing(
    cls5: IntArray,
    cls3: IntArray,
    g3: FloatArray,
    gm: FloatArray,
    gb: FloatArray,
    mode: FloatArray,
    strict: bool,
    split_f: SplitArray,
    split_a: SplitArray,
    split_b: SplitArray,
    top_k: int,
    within: float,
    out_split: IntArray,
    out_value: FloatArray,
) -> int:  # pragma: no cover - compiled
    """The split scan over gathered per-subset fields (``g3[field, front subset]``, ``gm`` /
    ``gb`` the same fields of every 5-subset as a middle / as a back).

    Once ``top_k`` values are held, a split whose additive upper bound (:func:`_bound_terms`,
    three loads) is below the worst of them by more than rounding is skipped without computing
    its value, which it could not have entered the list with: the same splits and values as
    the full scan, at under half its time under ``two_four`` and ``scoop_double``. With a
    finite ``within``, so is a split whose bound is more than ``within`` below the best value
    found so far: the list then holds every split of the full scan's list within ``within`` of
    the best (what the calibrated estimator keeps, :data:`cpsolver.chinese.pool.CALIBRATED_MARGIN`),
    and perhaps fewer of the others.

    Under two-four a split that passes is tested against a tighter bound before its value is
    computed: the majority term ``ahead - behind`` is ``E[sign(X)]``, ``X`` the rows won less
    the rows lost (-3 to 3), and ``sign(x) <= (x + 1) / 2`` on those integers, so the term is
    at most ``1/2 + sum_r (w_r - l_r) / 2`` (linearity: no independence needed) instead of 1:
    an additive bound again, half a unit lower where the rows are even and lower still where
    they lose. It leaves ~180 of the ~7,100 values a hand computed under the first bound
    (two_four, 2,000 seeded hands; the same lists, docs/BENCHMARKS.md).
    """
    kind, bonus, e, we, they = int(mode[0]), mode[1], int(mode[2]), mode[3], mode[4]
    prune = kind != 0 and we >= 0.0 and they >= 0.0
    if prune:
        c, d, k_bound = _bound_terms(kind, bonus, e, we, they)
        b3 = np.empty(cls3.shape[0])
        bm = np.empty(cls5.shape[0])
        bb = np.empty(cls5.shape[0])
        _bound_fields(g3, c, d, b3)
        _bound_fields(gm, c, d, bm)
        _bound_fields(gb, c, d, bb)
    else:  # no bound: cut stays -inf and the arrays are never read
        k_bound = 0.0
        b3 = bm = bb = np.empty(0)
    majority = prune and kind == 1  # two-four: the tighter bound (docstring)
    if majority:
        t3 = np.empty(cls3.shape[0])
        tm = np.empty(cls5.shape[0])
        tb = np.empty(cls5.shape[0])
        _majority_fields(g3, b3, t3)
        _majority_fields(gm, bm, tm)
        _majority_fields(gb, bb, tb)
    else:
        t3 = tm = tb = np.empty(0)
    found = 0
    for k in range(top_k):
        out_value[k] = -np.inf
        out_split[k] = -1
    worst = -np.inf
    cut = -np.inf  # skip a split whose bound is below this
    near_best = prune and within < np.inf  # skip what lies beyond within of the best
    for s in range(split_f.shape[0]):
        jf = split_f[s]
        ia = split_a[s]
        ib = split_b[s]
        cf = cls3[jf]
        if cls5[ia] >= cls5[ib]:
            hi, lo, ihi, ilo = cls5[ia], cls5[ib], ia, ib
        else:
            hi, lo, ihi, ilo = cls5[ib], cls5[ia], ib, ia
        if lo < cf or (strict and hi == lo):
            continue
        if prune and b3[jf] + bm[ilo] + bb[ihi] < cut:
            continue
        # The majority term's 1 in the cut becomes 1/2 plus the rows' share (docstring).
        if majority and t3[jf] + tm[ilo] + tb[ihi] < cut + 0.5:
            continue
        v = _pair_value(kind, bonus, e, we, they, jf, ilo, ihi, g3, gm, gb)
        if found == top_k and v <= worst:
            continue
        found = _keep_best(out_split, out_value, found, top_k, s, v)
        if found == top_k:
            worst = out_value[top_k - 1]
            if prune:
                # The margin covers the rounding of the bound's and the value's sums.
                cut = max(cut, worst - k_bound - 1e-9 * (1.0 + abs(worst) + k_bound))
        if near_best:
            low = out_value[0] - within
            cut = max(cut, low - k_bound - 1e-9 * (1.0 + abs(low) + k_bound))
    return found


@njit(cache=True, nogil=True)
def _search_removal(
    hand: IntArray,
    cls5: IntArray,
    cls3: IntArray,
    rows: FloatArray,
    values: FloatArray,
    code5: IntArray,
    code3: IntArray,
    masks: IntArray,
    distinct: IntArray,
    flush: IntArray,
    binom: FloatArray,
    pos: IntArray,
    mode: FloatArray,
    strict: bool,
    split_f: SplitArray,
    split_a: SplitArray,
    split_b: SplitArray,
    top_k: int,
    within: float,
    out_split: IntArray,
    out_value: FloatArray,
    prob: FloatArray,
    below: FloatArray,
    paid: FloatArray,
    add: FloatArray,
) -> int:  # pragma: no cover - compiled
    """:func:`_search_pairing` with the tables of the model ``rows`` reweighted for the hand's
    own cards (:mod:`cpsolver.chinese.removal`); ``prob``/``below``/``paid`` are scratch that
    holds the reweighted compact arrays afterwards, ``add`` scratch of ``(3, NUM_CLASSES)``.
    The additive mode runs :func:`_search` (the faster scan; same sum order, same values), which
    has no bound to prune with and ignores ``within`` (:func:`_scan_pairing`'s)."""
    removal_cumulative(
        hand, rows, values, code5, code3, masks, distinct, flush, binom, prob, below, paid
    )
    if mode[0] == 0:
        # _search takes per-class tables: write ADD at the classes this hand's subsets have
        # (the expression gather_fields uses, so the values are the pairing scan's).
        for k in range(cls3.shape[0]):
            c = cls3[k]
            i = pos[c]
            add[0, c] = values[0, i] * below[0, i] - paid[0, i]
        for k in range(cls5.shape[0]):
            c = cls5[k]
            i = pos[c]
            add[1, c] = values[1, i] * below[1, i] - paid[1, i]
            add[2, c] = values[2, i] * below[2, i] - paid[2, i]
        vf = add[0]
        vm = add[1]
        vb = add[2]
        return _search(
            cls5, cls3, vb, vm, vf, strict, split_f, split_a, split_b, top_k, out_split,
            out_value,
        )  # fmt: skip
    nfields = 5
    g3 = np.empty((nfields, cls3.shape[0]))
    gm = np.empty((nfields, cls5.shape[0]))
    gb = np.empty((nfields, cls5.shape[0]))
    gather_fields(0, cls3, pos, prob, below, paid, values, nfields, g3)
    gather_fields(1, cls5, pos, prob, below, paid, values, nfields, gm)
    gather_fields(2, cls5, pos, prob, below, paid, values, nfields, gb)
    return _scan_pairing(
        cls5, cls3, g3, gm, gb, mode, strict, split_f, split_a, split_b, top_k, within,
        out_split, out_value,
    )  # fmt: skip


@njit(cache=True, nogil=True)
def _batch_removal_range(
    hands: IntArray,
    lo: int,
    hi: int,
    nonflush5: npt.NDArray[np.int16],
    flush5: npt.NDArray[np.int16],
    front3: npt.NDArray[np.int16],
    weights: IntArray,
    comb5: IntArray,
    comb3: IntArray,
    rows: FloatArray,
    values: FloatArray,
    code5: IntArray,
    code3: IntArray,
    masks: IntArray,
    distinct: IntArray,
    flush: IntArray,
    binom: FloatArray,
    pos: IntArray,
    mode: FloatArray,
    strict: bool,
    split_f: SplitArray,
    split_a: SplitArray,
    split_b: SplitArray,
    within: float,
    out_count: IntArray,
    out_value: FloatArray,
    out_cls: IntArray,
    out_rows: IntArray,
    out_odds: FloatArray,
) -> None:  # pragma: no cover - compiled
    """Hands ``lo`` to ``hi`` of a batch: each hand's ``out_count[h]`` best splits (at most
    ``out_value.shape[1]``: :func:`_search_removal`'s ``top_k``, the same splits in the same
    order as :func:`search_removal_classes`), each with its value, classes (back, middle,
    front), rows (back and middle :data:`COMB5` indices, front :data:`COMB3` index) and its
    rows' P(win), P(tie) (front first, Row order); ``within``: :func:`_scan_pairing`'s."""
    top_k = out_value.shape[1]
    cls5 = np.empty(comb5.shape[0], dtype=np.int64)
    cls3 = np.empty(comb3.shape[0], dtype=np.int64)
    found_split = np.empty(top_k, dtype=np.int64)
    found_value = np.empty(top_k, dtype=np.float64)
    prob = np.empty(rows.shape)
    below = np.empty(rows.shape)
    paid = np.empty(rows.shape)
    add = np.empty((3, pos.shape[0]))
    for h in range(lo, hi):
        subset_classes_into(hands[h], nonflush5, flush5, front3, weights, comb5, comb3, cls5, cls3)
        found = _search_removal(
            hands[h], cls5, cls3, rows, values, code5, code3, masks, distinct, flush, binom,
            pos, mode, strict, split_f, split_a, split_b, top_k, within, found_split,
            found_value, prob, below, paid, add,
        )  # fmt: skip
        out_count[h] = found
        for k in range(found):
            s = found_split[k]
            a = split_a[s]
            b = split_b[s]
            if cls5[b] > cls5[a]:  # the stronger five-card subset is the back (as _result)
                a, b = b, a
            out_value[h, k] = found_value[k]
            out_rows[h, k, 0] = a
            out_rows[h, k, 1] = b
            out_rows[h, k, 2] = split_f[s]
            out_cls[h, k, 0] = cls5[a]
            out_cls[h, k, 1] = cls5[b]
            out_cls[h, k, 2] = cls3[split_f[s]]
            # P(win), P(tie) of the split's rows, front first (Row order), for its odds.
            for r in range(3):
                i = pos[out_cls[h, k, 2 - r]]
                out_odds[h, k, r, 0] = below[r, i]
                out_odds[h, k, r, 1] = prob[r, i]


@njit(cache=True, parallel=True)
def _batch_removal_parallel(
    hands: IntArray,
    nonflush5: npt.NDArray[np.int16],
    flush5: npt.NDArray[np.int16],
    front3: npt.NDArray[np.int16],
    weights: IntArray,
    comb5: IntArray,
    comb3: IntArray,
    rows: FloatArray,
    values: FloatArray,
    code5: IntArray,
    code3: IntArray,
    masks: IntArray,
    distinct: IntArray,
    flush: IntArray,
    binom: FloatArray,
    pos: IntArray,
    mode: FloatArray,
    strict: bool,
    split_f: SplitArray,
    split_a: SplitArray,
    split_b: SplitArray,
    within: float,
    out_count: IntArray,
    out_value: FloatArray,
    out_cls: IntArray,
    out_rows: IntArray,
    out_odds: FloatArray,
) -> None:  # pragma: no cover - compiled
    # Chunks, not hands, in parallel: each chunk allocates its scratch once.
    n = hands.shape[0]
    chunks = min(n, 64)
    for k in prange(chunks):
        _batch_removal_range(
            hands, k * n // chunks, (k + 1) * n // chunks, nonflush5, flush5, front3, weights,
            comb5, comb3, rows, values, code5, code3, masks, distinct, flush, binom, pos, mode,
            strict, split_f, split_a, split_b, within, out_count, out_value, out_cls, out_rows,
            out_odds,
        )  # fmt: skip


@njit(cache=True, nogil=True)
def _batch_pairing(
    hands: IntArray,
    nonflush5: npt.NDArray[np.int16],
    flush5: npt.NDArray[np.int16],
    front3: npt.NDArray[np.int16],
    weights: IntArray,
    comb5: IntArray,
    comb3: IntArray,
    tables: FloatArray,
    mode: FloatArray,
    strict: bool,
    split_f: SplitArray,
    split_a: SplitArray,
    split_b: SplitArray,
    out_value: FloatArray,
    out_cls: IntArray,
) -> None:  # pragma: no cover - compiled
    cls5 = np.empty(comb5.shape[0], dtype=np.int64)
    cls3 = np.empty(comb3.shape[0], dtype=np.int64)
    one_split = np.empty(1, dtype=np.int64)
    one_value = np.empty(1, dtype=np.float64)
    for h in range(hands.shape[0]):
        subset_classes_into(hands[h], nonflush5, flush5, front3, weights, comb5, comb3, cls5, cls3)
        _search_pairing(
            cls5, cls3, tables, mode, strict, split_f, split_a, split_b, 1, one_split, one_value
        )
        s = one_split[0]
        ca = cls5[split_a[s]]
        cb = cls5[split_b[s]]
        out_value[h] = one_value[0]
        out_cls[h, 0] = max(ca, cb)
        out_cls[h, 1] = min(ca, cb)
        out_cls[h, 2] = cls3[split_f[s]]


def search_pairing_classes(
    cls5: IntArray,
    cls3: IntArray,
    tables: FloatArray,
    *,
    mode: int | FloatArray,
    strict: bool,
    top_k: int = 1,
) -> SearchResult:
    """Best valid split (and distinct-valued alternatives) under pairing ``tables``
    (``(3, NUM_FIELDS, NUM_CLASSES)``, rows front/middle/back) combined by ``mode``."""
    k = max(1, top_k)
    out_split = np.empty(k, dtype=np.int64)
    out_value = np.empty(k, dtype=np.float64)
    found = _search_pairing(
        cls5,
        cls3,
        tables,
        pairing_mode(mode),
        strict,
        SPLIT_FRONT,
        SPLIT_A,
        SPLIT_B,
        k,
        out_split,
        out_value,
    )
    return _result(cls5, cls3, out_split[:found].tolist(), out_value[:found].tolist())


def search_pairing_batch(
    hands: npt.NDArray[np.integer[Any]],
    tables: FloatArray,
    poker: PokerTables,
    *,
    mode: int | FloatArray,
    strict: bool,
) -> tuple[FloatArray, IntArray]:
    """Best split of each hand (n x 13 card indices, any order) under pairing tables, in one
    thread (callers parallelise by process): ``(values[n], classes[n] = back, middle, front)``."""
    ordered = np.sort(np.asarray(hands, dtype=np.int64).reshape(-1, 13), axis=1)
    n = ordered.shape[0]
    out_value = np.empty(n, dtype=np.float64)
    out_cls = np.empty((n, 3), dtype=np.int64)
    if n:
        _batch_pairing(
            ordered,
            *_class_args(poker),
            np.ascontiguousarray(tables, dtype=np.float64),
            pairing_mode(mode),
            strict,
            SPLIT_FRONT,
            SPLIT_A,
            SPLIT_B,
            out_value,
            out_cls,
        )
    return out_value, out_cls


def search_removal_classes(
    hand: IntArray,
    cls5: IntArray,
    cls3: IntArray,
    removal: RemovalModel,
    *,
    mode: int | FloatArray,
    strict: bool,
    top_k: int = 1,
    within: float = np.inf,
) -> tuple[SearchResult, tuple[FloatArray, FloatArray, FloatArray, FloatArray]]:
    """:func:`search_pairing_classes` under the model reweighted for ``hand``'s own cards
    (card removal, :mod:`cpsolver.chinese.removal`); also returns the reweighted compact
    ``prob, below, paid`` arrays (for the per-row odds of the answer). With a finite
    ``within`` (per-opponent row EV) only the splits within it of the best are sure to be
    listed (:func:`_scan_pairing`), as many as the full scan lists of them."""
    k = max(1, top_k)
    out_split = np.empty(k, dtype=np.int64)
    out_value = np.empty(k, dtype=np.float64)
    scratch = removal.scratch()
    kernel_args: tuple[Any, ...] = (
        np.ascontiguousarray(hand, dtype=np.int64), cls5, cls3, *removal.kernel_args(),
        pairing_mode(mode), strict, SPLIT_FRONT, SPLIT_A, SPLIT_B, k, float(within), out_split,
        out_value, *scratch,
    )  # fmt: skip
    found = _search_removal(*kernel_args)
    return _result(cls5, cls3, out_split[:found].tolist(), out_value[:found].tolist()), scratch


def _removal_batch_args(
    hands: npt.NDArray[np.integer[Any]],
    removal: RemovalModel,
    poker: PokerTables,
    mode: int | FloatArray,
    strict: bool,
    top_k: int = 1,
    within: float = np.inf,
) -> tuple[Any, ...]:
    ordered = np.sort(np.asarray(hands, dtype=np.int64).reshape(-1, 13), axis=1)
    n, k = ordered.shape[0], max(1, top_k)
    return (
        ordered, *_class_args(poker), *removal.kernel_args(), pairing_mode(mode), strict,
        SPLIT_FRONT, SPLIT_A, SPLIT_B, float(within), np.zeros(n, dtype=np.int64),
        np.empty((n, k), dtype=np.float64), np.empty((n, k, 3), dtype=np.int64),
        np.empty((n, k, 3), dtype=np.int64), np.empty((n, k, 3, 2), dtype=np.float64),
    )  # fmt: skip


def search_removal_batch(
    hands: npt.NDArray[np.integer[Any]],
    removal: RemovalModel,
    poker: PokerTables,
    *,
    mode: int | FloatArray,
    strict: bool,
    parallel: bool = False,
) -> RemovalBatch:
    """Best split of each hand (n x 13 card indices, any order) under the model reweighted for
    that hand's own cards (card removal). One thread unless ``parallel`` (numba threads;
    serialised by a lock, see :func:`search_batch` and :func:`warm_up` about forking)."""
    top = search_removal_batch_top(hands, removal, poker, mode=mode, strict=strict,
                                   parallel=parallel)  # fmt: skip
    return RemovalBatch(top.values[:, 0], top.classes[:, 0], top.rows[:, 0], top.odds[:, 0])


def search_removal_batch_top(
    hands: npt.NDArray[np.integer[Any]],
    removal: RemovalModel,
    poker: PokerTables,
    *,
    mode: int | FloatArray,
    strict: bool,
    top_k: int = 1,
    within: float = np.inf,
    parallel: bool = False,
) -> RemovalTopBatch:
    """The ``top_k`` best splits of each hand (n x 13 card indices, any order) under the model
    reweighted for that hand's own cards: per hand what :func:`search_removal_classes` finds
    (``within`` as there), in one GIL-free call (one thread unless ``parallel``, as
    :func:`search_removal_batch`)."""
    args = _removal_batch_args(hands, removal, poker, mode, strict, top_k, within)
    if args[0].shape[0]:
        if parallel:
            with _BATCH_LOCK:
                _batch_removal_parallel(*args)
        else:
            _batch_removal_range(args[0], 0, args[0].shape[0], *args[1:])
    return RemovalTopBatch(*args[-5:])


@dataclass(frozen=True, eq=False)
class RemovalBatch:
    """:func:`search_removal_batch`'s answer, one entry per hand: ``values`` (per-opponent
    EV), ``classes`` (back, middle, front), ``rows`` (back and middle :data:`COMB5` indices,
    front :data:`COMB3` index, of the sorted hand) and ``odds[h, row, (win, tie)]`` (rows in
    front, middle, back order)."""

    values: FloatArray
    classes: IntArray
    rows: IntArray
    odds: FloatArray


@dataclass(frozen=True, eq=False)
class RemovalTopBatch:
    """:func:`search_removal_batch_top`'s answer: hand ``h``'s ``counts[h]`` best splits, best
    first, each as one entry of :class:`RemovalBatch` (``values[h, k]``, ``classes[h, k]``,
    ``rows[h, k]``, ``odds[h, k]``)."""

    counts: IntArray
    values: FloatArray
    classes: IntArray
    rows: IntArray
    odds: FloatArray


# ----------------------------------------------------------------------------------------------
# Rating a given split: its value beside the best (cpsolver.chinese.rate, .review).


@njit(cache=True, nogil=True)
def _split_values_removal(
    hand: IntArray,
    cls5: IntArray,
    cls3: IntArray,
    rows: FloatArray,
    values: FloatArray,
    code5: IntArray,
    code3: IntArray,
    masks: IntArray,
    distinct: IntArray,
    flush: IntArray,
    binom: FloatArray,
    pos: IntArray,
    mode: FloatArray,
    strict: bool,
    split_f: SplitArray,
    split_a: SplitArray,
    split_b: SplitArray,
    out: IntArray,
    out_value: FloatArray,
    prob: FloatArray,
    below: FloatArray,
    paid: FloatArray,
) -> int:  # pragma: no cover - compiled
    """Every valid split's value under the model reweighted for ``hand``, with the arithmetic
    (terms and order) of :func:`_search_removal`'s scans, so a split's value here is the bit
    its scan computes: ``out[n] = (split, back, middle, front classes)``, ``out_value[n]``."""
    removal_cumulative(
        hand, rows, values, code5, code3, masks, distinct, flush, binom, prob, below, paid
    )
    nfields = 1 if mode[0] == 0 else 5
    kind, bonus, e, we, they = int(mode[0]), mode[1], int(mode[2]), mode[3], mode[4]
    g3 = np.empty((nfields, cls3.shape[0]))
    gm = np.empty((nfields, cls5.shape[0]))
    gb = np.empty((nfields, cls5.shape[0]))
    gather_fields(0, cls3, pos, prob, below, paid, values, nfields, g3)
    gather_fields(1, cls5, pos, prob, below, paid, values, nfields, gm)
    gather_fields(2, cls5, pos, prob, below, paid, values, nfields, gb)
    n = 0
    for s in range(split_f.shape[0]):
        jf = split_f[s]
        ia = split_a[s]
        ib = split_b[s]
        cf = cls3[jf]
        if cls5[ia] >= cls5[ib]:
            hi, lo, ihi, ilo = cls5[ia], cls5[ib], ia, ib
        else:
            hi, lo, ihi, ilo = cls5[ib], cls5[ia], ib, ia
        if lo < cf or (strict and hi == lo):
            continue
        if mode[0] == 0:  # _search's sum: (front + middle) + back
            v = g3[0, jf] + gm[0, ilo] + gb[0, ihi]
        else:
            v = _pair_value(kind, bonus, e, we, they, jf, ilo, ihi, g3, gm, gb)
        out[n, 0] = s
        out[n, 1] = hi
        out[n, 2] = lo
        out[n, 3] = cf
        out_value[n] = v
        n += 1
    return n


def removal_split_values(
    hand: IntArray,
    cls5: IntArray,
    cls3: IntArray,
    removal: RemovalModel,
    *,
    mode: int | FloatArray,
    strict: bool,
) -> tuple[IntArray, FloatArray, tuple[FloatArray, FloatArray, FloatArray]]:
    """Every valid split of ``hand`` (13 sorted card indices) with its per-opponent value
    under the model reweighted for the hand (card removal), equal to the bit to what
    :func:`search_removal_classes` computes for it: ``(splits, values, (prob, below, paid))``,
    ``splits[n] = (split, back, middle, front classes)`` in enumeration order, and the
    reweighted compact arrays (for per-row odds)."""
    out = np.empty((NUM_SPLITS, 4), dtype=np.int64)
    out_value = np.empty(NUM_SPLITS, dtype=np.float64)
    prob, below, paid, _ = removal.scratch()
    kernel_args: tuple[Any, ...] = (
        np.ascontiguousarray(hand, dtype=np.int64), cls5, cls3, *removal.kernel_args(),
        pairing_mode(mode), strict, SPLIT_FRONT, SPLIT_A, SPLIT_B, out, out_value, prob, below,
        paid,
    )  # fmt: skip
    n = _split_values_removal(*kernel_args)
    return out[:n], out_value[:n], (prob, below, paid)


@njit(cache=True, nogil=True)
def _rate_range(
    hands: IntArray,
    given: IntArray,
    lo: int,
    hi: int,
    nonflush5: npt.NDArray[np.int16],
    flush5: npt.NDArray[np.int16],
    front3: npt.NDArray[np.int16],
    weights: IntArray,
    comb5: IntArray,
    comb3: IntArray,
    rows: FloatArray,
    values: FloatArray,
    code5: IntArray,
    code3: IntArray,
    masks: IntArray,
    distinct: IntArray,
    flush: IntArray,
    binom: FloatArray,
    pos: IntArray,
    mode: FloatArray,
    strict: bool,
    split_f: SplitArray,
    split_a: SplitArray,
    split_b: SplitArray,
    out_value: FloatArray,
    out_cls: IntArray,
    out_given: FloatArray,
    out_lost_rows: FloatArray,
    out_subsets: IntArray,
) -> None:  # pragma: no cover - compiled
    """Hands ``lo..hi``: the best split's value, classes and subsets (back, middle: indexes
    into ``comb5``, front: into ``comb3``) (:func:`_search_removal`, top 1),
    the value of the given rows' classes ``given[h] = (back, middle, front)`` with the
    arithmetic of the scan (``-inf`` when ``given[h, 0] < 0``: no rows to value), and the
    expected row values an opponent who plays rows collects from all three rows
    (``out_lost_rows``: what a fouled hand pays them, CP-10)."""
    cls5 = np.empty(comb5.shape[0], dtype=np.int64)
    cls3 = np.empty(comb3.shape[0], dtype=np.int64)
    one_split = np.empty(1, dtype=np.int64)
    one_value = np.empty(1, dtype=np.float64)
    prob = np.empty(rows.shape)
    below = np.empty(rows.shape)
    paid = np.empty(rows.shape)
    add = np.empty((3, pos.shape[0]))
    nfields = 1 if mode[0] == 0 else 5
    kind, bonus, e, we, they = int(mode[0]), mode[1], int(mode[2]), mode[3], mode[4]
    g3 = np.empty((nfields, 1))
    gm = np.empty((nfields, 1))
    gb = np.empty((nfields, 1))
    one = np.empty(1, dtype=np.int64)
    for h in range(lo, hi):
        subset_classes_into(hands[h], nonflush5, flush5, front3, weights, comb5, comb3, cls5, cls3)
        _search_removal(
            hands[h], cls5, cls3, rows, values, code5, code3, masks, distinct, flush, binom,
            pos, mode, strict, split_f, split_a, split_b, 1, np.inf, one_split, one_value, prob,
            below, paid, add,
        )  # fmt: skip
        s = one_split[0]
        ca = cls5[split_a[s]]
        cb = cls5[split_b[s]]
        out_value[h] = one_value[0]
        out_cls[h, 0] = max(ca, cb)
        out_cls[h, 1] = min(ca, cb)
        out_cls[h, 2] = cls3[split_f[s]]
        back_is_a = ca >= cb
        out_subsets[h, 0] = split_a[s] if back_is_a else split_b[s]
        out_subsets[h, 1] = split_b[s] if back_is_a else split_a[s]
        out_subsets[h, 2] = split_f[s]
        lost = 0.0
        for r in range(3):  # paid[r, 0] + prob * value of the lowest class: the whole row
            lost += paid[r, 0] + prob[r, 0] * values[r, 0]
        out_lost_rows[h] = lost
        if given[h, 0] < 0:
            out_given[h] = -np.inf
            continue
        one[0] = given[h, 2]
        gather_fields(0, one, pos, prob, below, paid, values, nfields, g3)
        one[0] = given[h, 1]
        gather_fields(1, one, pos, prob, below, paid, values, nfields, gm)
        one[0] = given[h, 0]
        gather_fields(2, one, pos, prob, below, paid, values, nfields, gb)
        if mode[0] == 0:  # the scans' sum: (front + middle) + back
            out_given[h] = g3[0, 0] + gm[0, 0] + gb[0, 0]
        else:
            out_given[h] = _pair_value(kind, bonus, e, we, they, 0, 0, 0, g3, gm, gb)


@dataclass(frozen=True, eq=False)
class RateBatch:
    """:func:`rate_removal_batch`'s answer, one entry per hand: ``best`` (the best split's
    per-opponent value), ``classes`` (its back, middle, front classes), ``given`` (the given
    rows' per-opponent value, ``-inf`` where none was given), ``lost_rows`` (the expected
    row values an opponent who plays rows collects from three lost rows) and ``subsets`` (the
    best split's back and middle as :data:`COMB5` indexes, its front as a :data:`COMB3` index,
    into the hand's cards in ascending order)."""

    best: FloatArray
    classes: IntArray
    given: FloatArray
    lost_rows: FloatArray
    subsets: IntArray


def rate_removal_batch(
    hands: npt.NDArray[np.integer[Any]],
    given: npt.NDArray[np.integer[Any]],
    removal: RemovalModel,
    poker: PokerTables,
    *,
    mode: int | FloatArray,
    strict: bool,
    threads: int = 1,
) -> RateBatch:
    """For each hand (n x 13 card indices) under the model reweighted for its own cards: the
    best split's value (the one :func:`search_removal_batch` finds, to the bit), the value of
    the rows ``given[h] = (back, middle, front)`` strength classes (a row of -1: none) and
    what a foul pays. ``threads`` > 1 runs chunks on that many threads (the kernel releases
    the GIL; no numba threading layer, so a process may fork after it)."""
    ordered = np.sort(np.asarray(hands, dtype=np.int64).reshape(-1, 13), axis=1)
    wanted = np.ascontiguousarray(np.asarray(given, dtype=np.int64).reshape(-1, 3))
    n = ordered.shape[0]
    out = RateBatch(
        np.empty(n), np.empty((n, 3), dtype=np.int64), np.empty(n), np.empty(n),
        np.empty((n, 3), dtype=np.int64),
    )  # fmt: skip
    rest: tuple[Any, ...] = (
        *_class_args(poker), *removal.kernel_args(), pairing_mode(mode), strict, SPLIT_FRONT,
        SPLIT_A, SPLIT_B, out.best, out.classes, out.given, out.lost_rows, out.subsets,
    )  # fmt: skip
    chunks = max(1, min(threads, n))
    if chunks == 1:
        if n:
            _rate_range(ordered, wanted, 0, n, *rest)
        return out
    from concurrent.futures import ThreadPoolExecutor

    bounds = [(k * n // chunks, (k + 1) * n // chunks) for k in range(chunks)]
    with ThreadPoolExecutor(chunks) as pool:
        for done in [pool.submit(_rate_range, ordered, wanted, a, b, *rest) for a, b in bounds]:
            done.result()
    return out


# ----------------------------------------------------------------------------------------------
# Warm-up.


def parallel_kernels() -> tuple[Any, ...]:
    """The ``parallel=True`` kernels (numba threads): a process that forks must never load
    them (:func:`warm_up`); ``cpsolver serve`` has them compiled once, in a process of their
    own, before it forks its workers (:func:`cpsolver.warmup.parallel_kernels_cached`)."""
    return (_batch, _batch_removal_parallel)


def warm_up(*, parallel: bool = True) -> float:
    """Load (or, the first time, compile) every compiled kernel; return the seconds it took.

    The CLI and each server worker call this at start so the JIT never runs on a first
    request. Loading the parallel batch kernel (``parallel=True``) initialises numba's
    threading layer; with the GNU OpenMP layer a process that did so must not fork workers that
    use it afterwards (numba aborts them), so a process that forks calls
    ``warm_up(parallel=False)`` before forking, or nothing, and each worker calls ``warm_up()``.
    The constrained search's kernel is :func:`cpsolver.chinese.select.warm_up`'s;
    :func:`cpsolver.warmup.warm_up_search` loads both.
    """
    from cpsolver.chinese.objectives import get_objective
    from cpsolver.rules import ChineseRules

    start = time.perf_counter()
    tables = get_objective("strength").row_tables(ChineseRules())
    idx = np.arange(0, 52, 4, dtype=np.int64)
    found = search(idx, tables, strict=False, top_k=2)
    cls5, cls3 = subset_classes(idx, tables.poker)
    valid_splits(cls5, cls3, strict=True)
    writable = np.zeros((3, NUM_FIELDS, len(tables.back)))
    readonly = writable.copy()
    readonly.setflags(write=False)  # numba compiles read-only arrays separately
    for pairing in (writable, readonly):
        for mode in (PAIR_ADDITIVE, PAIR_TWO_FOUR, PAIR_SCOOP, PAIR_SCOOP_BONUS, PAIR_ROWS):
            search_pairing_classes(cls5, cls3, pairing, mode=mode, strict=False, top_k=2)
            search_pairing_batch(idx.reshape(1, 13), pairing, tables.poker, mode=mode, strict=False)
    removal = RemovalModel.of(np.ones((3, len(tables.back))) / len(tables.back), writable[:, 0])
    for mode in (PAIR_ADDITIVE, PAIR_TWO_FOUR, PAIR_SCOOP, PAIR_SCOOP_BONUS, PAIR_ROWS):
        search_removal_classes(idx, cls5, cls3, removal, mode=mode, strict=False, top_k=2)
        search_removal_batch(idx.reshape(1, 13), removal, tables.poker, mode=mode, strict=False)
        removal_split_values(idx, cls5, cls3, removal, mode=mode, strict=False)
        none_given = np.full((1, 3), -1, dtype=np.int64)
        rate_removal_batch(
            idx.reshape(1, 13), none_given, removal, tables.poker, mode=mode, strict=False
        )
    if parallel:
        # Load the batch kernel for the exact argument types search_batch passes, without
        # running it.
        args = _batch_args(idx.reshape(1, 13), tables, False)
        import numba  # loaded by the kernels above

        dispatcher(_batch).compile(tuple(numba.typeof(a) for a in args))  # type: ignore[no-untyped-call]
        # ... and the card-removal batch kernel (the mode is a value, one signature for all).
        args = _removal_batch_args(idx.reshape(1, 13), removal, tables.poker, PAIR_ADDITIVE, False)
        types = tuple(numba.typeof(a) for a in args)  # type: ignore[no-untyped-call]
        dispatcher(_batch_removal_parallel).compile(types)
    assert found.splits
    return time.perf_counter() - start
