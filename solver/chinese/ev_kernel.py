"""Compiled (numba) helpers of the expected-value objective: naturals and pairwise settlement.

The split scan itself lives with the arranger in :mod:`cpsolver.chinese.search` (one kernel
family: :func:`~cpsolver.chinese.search.search_pairing_classes`); this module re-exports its
pairing modes under the names the EV code uses:

* ``MODE_ADDITIVE``: ``T[front] + T[middle] + T[back]`` (``per_row`` EV, percentile sum).
* ``MODE_TWO_FOUR``: row units plus the CP-9 majority point, rows independent.
* ``MODE_SCOOP``: row units plus the CP-9 ``scoop_double`` doubling, rows independent.

and adds :func:`natural_code` (CP-11 on card indices) and :func:`settle_pair` (CP-7..CP-11 on
strength classes), used by training, rollouts and the matches benchmark, where Python objects
per hand would be too slow. Tests compare both with the plain modules.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from cpsolver.chinese import search
from cpsolver.chinese.search import (
    F_ADD,
    F_PAID,
    F_TIE,
    F_VALUE,
    F_WIN,
    NUM_FIELDS,
    PAIR_ADDITIVE,
    PAIR_SCOOP,
    PAIR_TWO_FOUR,
)
from cpsolver.evaluator.poker import NUM_CLASSES
from cpsolver.jit import njit

__all__ = [
    "F_ADD",
    "F_PAID",
    "F_TIE",
    "F_VALUE",
    "F_WIN",
    "MODE_ADDITIVE",
    "MODE_SCOOP",
    "MODE_TWO_FOUR",
    "NATURAL_UNITS",
    "NUM_FIELDS",
    "natural_code",
    "settle_candidates",
    "settle_pair",
    "warm_up",
]

MODE_ADDITIVE = PAIR_ADDITIVE
MODE_TWO_FOUR = PAIR_TWO_FOUR
MODE_SCOOP = PAIR_SCOOP

# Natural codes: 0 none, then CP-11 rank order (1 = dragon, the highest).
NATURAL_UNITS = np.array([0.0, 13.0, 3.0, 3.0, 3.0])


@njit(cache=True)
def natural_code(hand: npt.NDArray[np.int8]) -> int:
    """CP-11 natural of 13 cards: 0 none, 1 dragon, 2 three flushes, 3 three straights,
    4 six pairs (a hand qualifying twice gets the highest, i.e. the smallest code)."""
    rc = np.zeros(13, dtype=np.int64)
    sc = np.zeros(4, dtype=np.int64)
    for i in range(13):
        rc[hand[i] >> 2] += 1
        sc[hand[i] & 3] += 1
    distinct = 0
    pairs = 0
    for r in range(13):
        if rc[r] > 0:
            distinct += 1
        pairs += rc[r] // 2
    if distinct == 13:
        return 1
    # Three flushes: groups of 3, 5, 5 cards each assigned to one suit, covering every card.
    sizes = (3, 5, 5)
    for g0 in range(4):
        for g1 in range(4):
            for g2 in range(4):
                need = np.zeros(4, dtype=np.int64)
                need[g0] += sizes[0]
                need[g1] += sizes[1]
                need[g2] += sizes[2]
                ok = True
                for s in range(4):
                    if need[s] != sc[s]:
                        ok = False
                if ok:
                    return 2
    # Three straights: a 3-card straight (A-2-3 .. Q-K-A) and two 5-card straights (wheel .. T-A).
    for s3 in range(12):
        left = rc.copy()
        ok = True
        for i in range(3):
            r = (12 if i == 0 else i - 1) if s3 == 0 else s3 - 1 + i
            left[r] -= 1
            if left[r] < 0:
                ok = False
        if not ok:
            continue
        for s5a in range(10):
            la = left.copy()
            ok = True
            for i in range(5):
                r = (12 if i == 0 else i - 1) if s5a == 0 else s5a - 1 + i
                la[r] -= 1
                if la[r] < 0:
                    ok = False
            if not ok:
                continue
            for s5b in range(s5a, 10):
                lb = la.copy()
                ok = True
                for i in range(5):
                    r = (12 if i == 0 else i - 1) if s5b == 0 else s5b - 1 + i
                    lb[r] -= 1
                    if lb[r] < 0:
                        ok = False
                if ok:
                    return 3
    if pairs >= 6:
        return 4
    return 0


@njit(cache=True)
def settle_pair(
    rows_a: npt.NDArray[np.int64],
    rows_b: npt.NDArray[np.int64],
    foul_a: bool,
    foul_b: bool,
    nat_a: int,
    nat_b: int,
    values: npt.NDArray[np.float64],
    scoring: int,
    natural_units: npt.NDArray[np.float64],
) -> float:
    """Units player A wins from B in one pairing (CP-7..CP-11) from strength classes.

    ``values[row, cls]`` is what a winning row collects; ``scoring`` is ``MODE_ADDITIVE``
    (``per_row``), ``MODE_TWO_FOUR`` or ``MODE_SCOOP``; ``nat_*`` are declared natural codes.
    """
    if nat_a > 0 or nat_b > 0:
        if nat_a > 0 and nat_b > 0:
            if nat_a == nat_b:
                return 0.0
            return float(natural_units[nat_a] if nat_a < nat_b else -natural_units[nat_b])
        return float(natural_units[nat_a] if nat_a > 0 else -natural_units[nat_b])
    if foul_a and foul_b:
        return 0.0
    won = 0
    lost = 0
    units_a = 0.0
    units_b = 0.0
    for r in range(3):
        if foul_b or (not foul_a and rows_a[r] > rows_b[r]):
            won += 1
            units_a += values[r, rows_a[r]]
        elif foul_a or rows_b[r] > rows_a[r]:
            lost += 1
            units_b += values[r, rows_b[r]]
    net = units_a - units_b
    if scoring == MODE_TWO_FOUR:
        if won > lost:
            net += 1.0
        elif lost > won:
            net -= 1.0
    elif scoring == MODE_SCOOP:
        if won == 3:
            net += units_a
        elif lost == 3:
            net -= units_b
    return net


@njit(cache=True)
def settle_candidates(
    cand_rows: npt.NDArray[np.int64],
    cand_nat: npt.NDArray[np.int64],
    opp_rows: npt.NDArray[np.int64],
    opp_nat: npt.NDArray[np.int64],
    values: npt.NDArray[np.float64],
    scoring: int,
    natural_units: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]:
    """``out[k, d]``: units candidate ``k`` wins against all opponents of deal ``d``
    (``opp_rows[d, o]`` classes, ``opp_nat[d, o]`` declared naturals; nobody fouls)."""
    out = np.zeros((cand_rows.shape[0], opp_rows.shape[0]))
    for k in range(cand_rows.shape[0]):
        for d in range(opp_rows.shape[0]):
            total = 0.0
            for o in range(opp_rows.shape[1]):
                total += settle_pair(
                    cand_rows[k], opp_rows[d, o], False, False, cand_nat[k], opp_nat[d, o],
                    values, scoring, natural_units,
                )  # fmt: skip
            out[k, d] = total
    return out


def warm_up(*, parallel: bool = True) -> None:
    """Compile (or load from numba's cache) every kernel, so no request pays for the JIT
    (``parallel`` as in :func:`cpsolver.chinese.search.warm_up`)."""
    search.warm_up(parallel=parallel)
    hand = np.arange(0, 52, 4, dtype=np.int8)
    natural_code(hand)
    rows = np.zeros(3, dtype=np.int64)
    settle_pair(rows, rows, False, False, 0, 0, np.ones((3, NUM_CLASSES)), 0, NATURAL_UNITS)
    settle_candidates(
        rows.reshape(1, 3), np.zeros(1, dtype=np.int64), rows.reshape(1, 1, 3),
        np.zeros((1, 1), dtype=np.int64), np.ones((3, NUM_CLASSES)), 0, NATURAL_UNITS,
    )  # fmt: skip
