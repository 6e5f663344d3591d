"""Card removal: the opponents' row classes given the 13 cards we hold (RULES §2.3).

The trained opponent model (:mod:`cpsolver.chinese.ev_model`) stores, per row, the chance
``rows[r, c]`` that an opponent sets strength class ``c`` in row ``r`` *for opponents dealt
from a full deck*. At the table the opponents are dealt from the 39 cards we do not hold, so a
class whose cards we hold is rarer: holding two aces leaves one way in six to make a pair of
aces (C(2, 2) of C(4, 2)), holding both red kings and a black one leaves none.

For a class ``c`` (a rank multiset, flush or not) let ``total(c)`` be the number of card sets
of that class in a full deck and ``avail(c | H)`` the number that avoid our hand ``H``. An
opponent's row holds a given set of ``k`` cards with the same probability whatever the set (the
deal is uniform over the unseen cards), so to first order

    P(row r of an opponent is c | H)  ∝  rows[r, c] · avail(c | H) / total(c)

(renormalised per row). What it leaves out: our hand also changes the opponent's *other* cards,
and so how they arrange (second order); the rollouts (:mod:`cpsolver.chinese.rollouts`) and the
calibration benchmark (``bench/calibration.py``) measure what that costs.

Counting, with ``h[r]`` our cards of rank ``r`` and ``free[s]`` the ranks of suit ``s`` we do
not hold (``m[r]``: the class's multiplicity of rank ``r``):

* a paired 5-card class or any front (suits are free, a front has no flush): ``prod_r C(4 -
  h[r], m[r])``;
* five distinct ranks, not a flush (high card, straight): ``prod_r (4 - h[r])`` minus the suits
  in which all five cards are free (those sets are flushes);
* a flush or straight flush: the number of suits in which all five cards are free.

>>> import numpy as np
>>> from cpsolver.cards import parse_cards
>>> from cpsolver.evaluator.poker import evaluate
>>> hand = np.array([c.index for c in parse_cards("As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h")])
>>> w = removal_weights(hand)
>>> float(w[evaluate("Ac Ah 3c").strength]), float(w[evaluate("Kc Ks Kh").strength])
(0.16666666666666666, 0.0)
>>> float(w[evaluate("6c 6d 6h").strength])  # ranks we do not hold keep all their sets
1.0
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from cpsolver.evaluator.poker import NUM_CLASSES, multiset_index, poker_tables
from cpsolver.jit import njit

__all__ = [
    "BINOM",
    "KIND_DISTINCT",
    "KIND_FLUSH",
    "KIND_FRONT",
    "KIND_PAIRED",
    "ClassShapes",
    "RemovalModel",
    "class_shapes",
    "compact",
    "gather_fields",
    "removal_cumulative",
    "removal_rows",
    "removal_tables",
    "removal_weights",
    "removal_weights_reference",
]

KIND_DISTINCT, KIND_PAIRED, KIND_FLUSH, KIND_FRONT = 0, 1, 2, 3
"""Class kinds: five distinct ranks not suited; a paired five-card class; a five-card flush or
straight flush; a three-card front."""

IntArray = npt.NDArray[np.int64]

BINOM = np.array([[comb(n, k) for k in range(6)] for n in range(5)], dtype=np.float64)


@dataclass(frozen=True, eq=False)
class ClassShapes:
    """What card sets make each strength class (one ``wheel`` scale), as kernel arrays.

    ``ranks[c, j]`` / ``mults[c, j]``: the class's distinct ranks and their multiplicities
    (``-1`` / ``0`` padded), ``mask[c]`` the rank bitmask, ``kind[c]`` one of ``KIND_*`` and
    ``total[c]`` the number of card sets of the class in a full deck. For the kernels:
    ``code[c, j] = 13 * mults[c, j] + ranks[c, j]`` (``0``, a factor of 1, where padded);
    ``distinct[i]`` / ``flush[i]`` the unsuited and the suited class of the ``i``-th set of
    five distinct ranks (``masks[i]``); ``five`` / ``front`` the five-card and the front
    classes in increasing order, and ``pos[c]`` the position of class ``c`` in its list (the
    kernels' *compact* order).
    """

    ranks: npt.NDArray[np.int64]
    mults: npt.NDArray[np.int64]
    mask: npt.NDArray[np.int64]
    kind: npt.NDArray[np.int64]
    total: npt.NDArray[np.float64]
    code: npt.NDArray[np.int64]
    masks: npt.NDArray[np.int64]
    distinct: npt.NDArray[np.int64]
    flush: npt.NDArray[np.int64]
    five: npt.NDArray[np.int64]
    front: npt.NDArray[np.int64]
    pos: npt.NDArray[np.int64]

    def kernel_args(self) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray]:
        """What :func:`removal_cumulative` takes after ``values``, in compact order: the codes
        of the five-card and the front classes, ``masks`` and the compact positions of their
        unsuited and suited classes."""
        cached: tuple[IntArray, IntArray, IntArray, IntArray, IntArray] | None
        cached = self.__dict__.get("_kernel_args")
        if cached is None:
            cached = (
                np.ascontiguousarray(self.code[self.five]),
                np.ascontiguousarray(self.code[self.front]),
                self.masks,
                self.pos[self.distinct],
                self.pos[self.flush],
            )
            object.__setattr__(self, "_kernel_args", cached)
        return cached


@cache
def class_shapes(wheel_second_highest: bool = False) -> ClassShapes:
    """The :class:`ClassShapes` of one strength scale (built once per process and option)."""
    t = poker_tables(wheel_second_highest)
    ranks = np.full((NUM_CLASSES, 5), -1, dtype=np.int64)
    mults = np.zeros((NUM_CLASSES, 5), dtype=np.int64)
    mask = np.zeros(NUM_CLASSES, dtype=np.int64)
    kind = np.full(NUM_CLASSES, -1, dtype=np.int64)
    total = np.zeros(NUM_CLASSES, dtype=np.float64)

    suit_sets = [comb(4, m) for m in range(5)]  # ways to pick m of a rank's 4 cards

    def put(cls: int, multiset: tuple[int, ...], k: int) -> None:
        # Plain Python ints here: this runs ~8,000 times on a rule set's first use of a scale.
        sets, bits = 1, 0
        for j, (r, group) in enumerate(itertools.groupby(multiset)):  # multisets come sorted
            m = len(tuple(group))
            ranks[cls, j], mults[cls, j] = r, m
            bits |= 1 << r
            sets *= suit_sets[m]
        mask[cls] |= bits
        kind[cls] = k
        total[cls] = {KIND_DISTINCT: sets - 4.0, KIND_FLUSH: 4.0}.get(k, float(sets))

    masks, distinct, flush = [], [], []
    for ms in itertools.combinations_with_replacement(range(13), 5):
        if len(set(ms)) > 1:
            unpaired = len(set(ms)) == 5
            put(
                int(t.nonflush5[multiset_index(ms)]), ms, KIND_DISTINCT if unpaired else KIND_PAIRED
            )
    for ms in itertools.combinations(range(13), 5):
        bits = sum(1 << r for r in ms)
        put(int(t.flush5[bits]), ms, KIND_FLUSH)
        masks.append(bits)
        distinct.append(int(t.nonflush5[multiset_index(ms)]))
        flush.append(int(t.flush5[bits]))
    for front_ms in itertools.combinations_with_replacement(range(13), 3):
        put(int(t.front3[multiset_index(front_ms)]), front_ms, KIND_FRONT)
    assert (kind >= 0).all()
    code = np.where(ranks >= 0, 13 * mults + ranks, 0)
    five = np.flatnonzero(~t.is_front).astype(np.int64)
    front = np.flatnonzero(t.is_front).astype(np.int64)
    pos = np.zeros(NUM_CLASSES, dtype=np.int64)
    pos[five] = np.arange(five.size)
    pos[front] = np.arange(front.size)
    arrays = (
        ranks, mults, mask, kind, total, code,
        np.array(masks, dtype=np.int64), np.array(distinct, dtype=np.int64),
        np.array(flush, dtype=np.int64),
        five, front, pos,
    )  # fmt: skip
    for a in arrays:
        a.setflags(write=False)
    return ClassShapes(*arrays)


@njit(cache=True, nogil=True)
def _weights(
    hand: npt.NDArray[np.int64],
    code: npt.NDArray[np.int64],
    masks: npt.NDArray[np.int64],
    distinct: npt.NDArray[np.int64],
    flush: npt.NDArray[np.int64],
    binom: npt.NDArray[np.float64],
    out: npt.NDArray[np.float64],
) -> None:  # pragma: no cover - compiled
    """``out[i] = avail(c | hand) / total(c)`` for the classes ``c`` whose codes are
    ``code[i]`` (module doc); ``distinct`` / ``flush``: positions in ``code`` of the classes of
    ``masks`` (empty for fronts)."""
    held = np.zeros(13, dtype=np.int64)
    suit_held = np.zeros(4, dtype=np.int64)
    for i in range(hand.shape[0]):
        r = hand[i] >> 2
        held[r] += 1
        suit_held[hand[i] & 3] |= 1 << r
    # factor[13 * m + r] = C(4 - held[r], m) / C(4, m): the share of rank r's m-card sets left.
    factor = np.ones(65)
    for m in range(1, 5):
        for r in range(13):
            factor[13 * m + r] = binom[4 - held[r], m] / binom[4, m]
    for c in range(code.shape[0]):
        out[c] = (
            factor[code[c, 0]] * factor[code[c, 1]] * factor[code[c, 2]]
            * factor[code[c, 3]] * factor[code[c, 4]]
        )  # fmt: skip
    # Five distinct ranks: the product counted every suit pattern; the suited sets are flushes.
    for i in range(masks.shape[0]):
        suited = 0.0
        for s in range(4):
            if masks[i] & suit_held[s] == 0:
                suited += 1.0
        out[distinct[i]] = (1024.0 * out[distinct[i]] - suited) / 1020.0
        out[flush[i]] = suited / 4.0


@njit(cache=True, nogil=True)
def removal_cumulative(
    hand: npt.NDArray[np.int64],
    rows: npt.NDArray[np.float64],
    values: npt.NDArray[np.float64],
    code5: npt.NDArray[np.int64],
    code3: npt.NDArray[np.int64],
    masks: npt.NDArray[np.int64],
    distinct: npt.NDArray[np.int64],
    flush: npt.NDArray[np.int64],
    binom: npt.NDArray[np.float64],
    prob: npt.NDArray[np.float64],
    below: npt.NDArray[np.float64],
    paid: npt.NDArray[np.float64],
) -> None:  # pragma: no cover - compiled
    """For the model ``rows`` reweighted for ``hand``, in *compact* class order
    (:meth:`ClassShapes.compact`: row 0 over the 455 front classes, rows 1 and 2 over the 7,462
    five-card classes, each ascending): ``prob[r, i]`` = P(their class is i), ``below[r, i]`` =
    P(theirs is weaker), ``paid[r, i]`` = sum over stronger classes of P times their row
    value."""
    w5 = np.empty(code5.shape[0])
    w3 = np.empty(code3.shape[0])
    _weights(hand, code5, masks, distinct, flush, binom, w5)
    _weights(hand, code3, masks[:0], distinct[:0], flush[:0], binom, w3)
    _reweight_row(0, w3, rows, values, prob, below, paid)
    _reweight_row(1, w5, rows, values, prob, below, paid)
    _reweight_row(2, w5, rows, values, prob, below, paid)


@njit(cache=True, nogil=True)
def _reweight_row(
    r: int,
    w: npt.NDArray[np.float64],
    rows: npt.NDArray[np.float64],
    values: npt.NDArray[np.float64],
    prob: npt.NDArray[np.float64],
    below: npt.NDArray[np.float64],
    paid: npt.NDArray[np.float64],
) -> None:  # pragma: no cover - compiled
    """Row ``r`` of :func:`removal_cumulative` over its ``w.shape[0]`` compact classes."""
    n = w.shape[0]
    z = 0.0
    for i in range(n):
        p = rows[r, i] * w[i]
        prob[r, i] = p
        z += p
    inv = 1.0 / z if z > 0.0 else 0.0
    b = 0.0
    v = 0.0
    for i in range(n):
        p = prob[r, i] * inv
        prob[r, i] = p
        below[r, i] = b
        b += p
        v += p * values[r, i]
        paid[r, i] = v
    for i in range(n):
        paid[r, i] = v - paid[r, i]


@njit(cache=True, nogil=True)
def gather_fields(
    row: int,
    cls: npt.NDArray[np.int64],
    pos: npt.NDArray[np.int64],
    prob: npt.NDArray[np.float64],
    below: npt.NDArray[np.float64],
    paid: npt.NDArray[np.float64],
    values: npt.NDArray[np.float64],
    nfields: int,
    out: npt.NDArray[np.float64],
) -> None:  # pragma: no cover - compiled
    """``out[field, k]`` for the classes ``cls`` of one row: the pairing-table fields (ADD, WIN,
    TIE, VALUE, PAID, :mod:`cpsolver.chinese.search`) from :func:`removal_cumulative`'s compact
    arrays (``pos``: class -> compact position); ``nfields=1``: ADD only."""
    for k in range(cls.shape[0]):
        i = pos[cls[k]]
        v = values[row, i]
        out[0, k] = v * below[row, i] - paid[row, i]
        if nfields > 1:
            out[1, k] = below[row, i]
            out[2, k] = prob[row, i]
            out[3, k] = v
            out[4, k] = paid[row, i]


def compact(shapes: ClassShapes, per_class: npt.ArrayLike) -> np.ndarray:
    """A ``(3, NUM_CLASSES)`` per-row array in the kernels' compact order (row 0 on the front
    classes, padded with zeros; rows 1 and 2 on the five-card classes)."""
    a = np.asarray(per_class, dtype=np.float64)
    out = np.zeros((3, shapes.five.size))
    out[0, : shapes.front.size] = a[0, shapes.front]
    out[1] = a[1, shapes.five]
    out[2] = a[2, shapes.five]
    return out


def _cumulative(
    rows: npt.ArrayLike, values: npt.ArrayLike, hand: npt.ArrayLike, wheel_second_highest: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    s = class_shapes(wheel_second_highest)
    prob, below, paid = (np.zeros((3, s.five.size)) for _ in range(3))
    vals = compact(s, values)
    code5, code3, masks, distinct, flush = s.kernel_args()
    removal_cumulative(
        np.asarray(hand, dtype=np.int64), compact(s, rows), vals, code5, code3, masks, distinct,
        flush, BINOM, prob, below, paid,
    )  # fmt: skip
    return prob, below, paid, vals


def removal_weights(hand: npt.ArrayLike, *, wheel_second_highest: bool = False) -> np.ndarray:
    """``avail(c | hand) / total(c)`` for every class ``c`` (module doc); ``hand``: card
    indices we hold."""
    s = class_shapes(wheel_second_highest)
    h = np.asarray(hand, dtype=np.int64)
    w5, w3 = np.empty(s.five.size), np.empty(s.front.size)
    _weights(h, s.code[s.five], s.masks, s.pos[s.distinct], s.pos[s.flush], BINOM, w5)
    _weights(h, s.code[s.front], s.masks[:0], s.masks[:0], s.masks[:0], BINOM, w3)
    out = np.empty(NUM_CLASSES)
    out[s.five], out[s.front] = w5, w3
    return out


def removal_rows(rows: npt.ArrayLike, hand: npt.ArrayLike, *, wheel_second_highest: bool = False
                 ) -> np.ndarray:  # fmt: skip
    """The model's per-row class distributions ``rows[3, NUM_CLASSES]`` reweighted for
    ``hand`` and renormalised (module doc; plain numpy)."""
    out = np.asarray(rows, dtype=np.float64) * removal_weights(
        hand, wheel_second_highest=wheel_second_highest
    )
    sums = out.sum(axis=1, keepdims=True)
    return np.asarray(np.divide(out, sums, out=np.zeros_like(out), where=sums > 0))


def removal_tables(
    rows: npt.ArrayLike,
    values: npt.ArrayLike,
    hand: npt.ArrayLike,
    *,
    wheel_second_highest: bool = False,
) -> np.ndarray:
    """Full pairing tables ``(3, NUM_FIELDS, NUM_CLASSES)`` of the model reweighted for
    ``hand``, from the compiled kernels (rows at classes they cannot hold: zeros)."""
    prob, below, paid, vals = _cumulative(rows, values, hand, wheel_second_highest)
    s = class_shapes(wheel_second_highest)
    out = np.zeros((3, 5, NUM_CLASSES))
    for r, cls in enumerate((s.front, s.five, s.five)):
        part = np.empty((5, cls.size))
        gather_fields(r, cls, s.pos, prob, below, paid, vals, 5, part)
        out[r][:, cls] = part
    return out


def removal_weights_reference(hand: npt.ArrayLike, *, wheel_second_highest: bool = False
                              ) -> np.ndarray:  # fmt: skip
    """Plain-numpy :func:`removal_weights` (the tests compare the two, and both with counts by
    enumeration)."""
    s = class_shapes(wheel_second_highest)
    h = np.bincount(np.asarray(hand, dtype=np.int64) >> 2, minlength=13)
    free = np.ones((13, 4), dtype=bool)
    for c in np.asarray(hand, dtype=np.int64):
        free[c >> 2, c & 3] = False
    present = s.ranks >= 0
    r = np.where(present, s.ranks, 0)
    sets = np.where(present, BINOM[4 - h[r], s.mults], 1.0).prod(axis=1)
    in_class = np.zeros((NUM_CLASSES, 13), dtype=bool)
    np.put_along_axis(in_class, r, present, axis=1)
    in_class &= (s.mask[:, None] >> np.arange(13)) & 1 == 1
    suited = sum((~(in_class & ~free[:, k][None, :])).all(axis=1).astype(float) for k in range(4))
    sets = np.where(s.kind == KIND_DISTINCT, sets - suited, sets)
    sets = np.where(s.kind == KIND_FLUSH, suited, sets)
    return np.asarray(sets / s.total)


@dataclass(frozen=True, eq=False)
class RemovalModel:
    """An opponent model in the form the card-removal kernels take: per-row class
    distributions and row values in compact order (:func:`compact`), and the strength scale's
    class shapes. :meth:`OpponentModel.removal <cpsolver.chinese.ev_model.OpponentModel>`
    builds (and caches) one."""

    rows: npt.NDArray[np.float64]
    values: npt.NDArray[np.float64]
    shapes: ClassShapes

    @classmethod
    def of(
        cls, rows: npt.ArrayLike, values: npt.ArrayLike, *, wheel_second_highest: bool = False
    ) -> RemovalModel:
        """From per-class ``rows[3, NUM_CLASSES]`` and ``values[3, NUM_CLASSES]``."""
        shapes = class_shapes(wheel_second_highest)
        r, v = compact(shapes, rows), compact(shapes, values)
        r.setflags(write=False)
        v.setflags(write=False)
        return cls(r, v, shapes)

    def kernel_args(self) -> tuple[npt.NDArray[Any], ...]:
        """``rows, values, code5, code3, masks, distinct, flush, binom, pos`` for the kernels."""
        return (self.rows, self.values, *self.shapes.kernel_args(), BINOM, self.shapes.pos)

    def scratch(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Fresh ``prob, below, paid`` (compact) and ``add`` (per class) arrays for one hand."""
        shape = self.rows.shape
        return (np.empty(shape), np.empty(shape), np.empty(shape), np.empty((3, NUM_CLASSES)))

    def odds(self, row: int, cls: int, prob: np.ndarray, below: np.ndarray) -> tuple[float, float]:
        """P(win), P(tie) of class ``cls`` in ``row`` from a search's ``prob``/``below``."""
        i = int(self.shapes.pos[cls])
        return float(below[row, i]), float(prob[row, i])
