"""What a finished row is worth to the fill policy (:mod:`cpsolver.ofc.simulate`): ``2 p - 1``
per row and strength class, ``p`` the share of the rows of that kind it beats (ties half)
among the unfouled boards the policy itself finishes in self-play (3-player pineapple).

The counts are data, made once by :func:`cpsolver.ofc.calibrate.calibrate` and shipped
(``cpsolver/data/ofc-row-counts.npz``; ``python -m cpsolver.ofc.calibrate --hands 3000
--seed 31`` writes it again); every class keeps a small share of the uniform prior (the
C(52, 5) hands, or C(52, 3) fronts, it beats), so a class self-play never met still has a
place in the order. Against rows of random hands (the prior alone) a pair of aces behind is
worth +0.80; against what OFC boards finish with it is worth -0.4: valued so, the policy
builds stronger backs and middles and beats the greedy baseline (docs/BENCHMARKS.md).

>>> from cpsolver.evaluator.poker import evaluate
>>> v = row_values()
>>> round(float(v[0, evaluate("As Ks Qs Js Ts").strength]), 3)
1.0
>>> aces, trips = evaluate("As Ah 5c 7d 9h").strength, evaluate("5s 5h 5c 7d 9h").strength
>>> float(v[0, aces]) < 0 < float(v[0, trips])
True
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cpsolver.evaluator.poker import NUM_CLASSES, multiset_index, poker_tables

__all__ = ["COUNTS_FILE", "PRIOR_SHARE", "row_values", "uniform_row_counts"]

COUNTS_FILE = Path(__file__).resolve().parent.parent / "data" / "ofc-row-counts.npz"
"""The shipped self-play counts: arrays ``back``, ``middle``, ``front`` (rows of each class)."""

PRIOR_SHARE = 0.01
"""The weight of the uniform prior, as a share of each row's self-play count."""

FloatArray = npt.NDArray[np.float64]


@cache
def row_values() -> FloatArray:
    """``[r, cls]`` (rows back, middle, front): the policy's score of a row (see above)."""
    prior = uniform_row_counts()
    out = np.empty((3, NUM_CLASSES), dtype=np.float64)
    with np.load(COUNTS_FILE) as data:
        counts = [data[name].astype(np.float64) for name in ("back", "middle", "front")]
    for r in range(3):
        weight = PRIOR_SHARE * counts[r].sum() / prior[r].sum()
        c = counts[r] + weight * prior[r]
        below = np.cumsum(c) - c
        out[r] = 2 * (below + c / 2) / c.sum() - 1
    out.setflags(write=False)
    return out


@cache
def uniform_row_counts() -> FloatArray:
    """``[r, cls]``: how many of the C(52, 5) five-card hands (C(52, 3) fronts for the front
    row) have strength class ``cls``, counted by rank multiset (the prior of
    :func:`row_values`).

    >>> counts = uniform_row_counts()
    >>> int(counts[0].sum()), int(counts[2].sum())
    (2598960, 22100)
    """
    tables = poker_tables(False)
    five = np.zeros(NUM_CLASSES, dtype=np.float64)
    front = np.zeros(NUM_CLASSES, dtype=np.float64)
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        if len(counts) == 5:  # five ranks: 4 flushes, 4^5 - 4 other suit choices
            five[tables.flush5[sum(1 << r for r in ranks)]] += 4
            five[tables.nonflush5[multiset_index(ranks)]] += 4**5 - 4
        else:
            five[tables.nonflush5[multiset_index(ranks)]] += math.prod(
                math.comb(4, m) for m in counts.values()
            )
    for three in itertools.combinations_with_replacement(range(13), 3):
        front[tables.front3[multiset_index(three)]] += math.prod(
            math.comb(4, m) for m in Counter(three).values()
        )
    out = np.stack([five, five, front])
    out.setflags(write=False)
    return out
