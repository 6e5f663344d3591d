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

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from cpsolver.chinese import search
from cpsolver.chinese.scoring import pair_terms
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
from cpsolver.rules.chinese import ChineseRules, NaturalName

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
    "KernelTerms",
    "kernel_terms",
    "natural_code",
    "natural_codes",
    "natural_mask",
    "scoop_rule_affine",
    "settle_candidates",
    "settle_pair",
    "settle_rows",
    "settle_table_candidates",
    "settle_terms",
    "split_straights",
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
    # RULES §2.5's simulations (rollouts, the pool, matches): the vocabulary's naturals and the
    # whole settlement, on the arrays kernel_terms makes (read-only: their own compilation).
    terms = kernel_terms(ChineseRules.preset("shisanshui"))
    natural_codes(hand.reshape(1, 13), terms.order)
    settle_table_candidates(
        rows.reshape(1, 3), np.zeros(1, dtype=np.int64), rows.reshape(1, 1, 3),
        np.zeros((1, 1), dtype=np.int64), *terms.args(),
    )  # fmt: skip


# ------------------------------------------------------------------ RULES §2.5 on arrays
# The whole vocabulary of a rule set (CP-12..CP-17) for the simulations (rollouts, the
# calibrated pool, matches): naturals detected over CP-15's 15 as a bit mask, ranked by the rule
# set's list, and a pairing settled from the arrays of the rule set's PairTerms
# (:func:`kernel_terms`: the one settlement, cpsolver.chinese.scoring.settle, as numbers).

TERM_SCORING, TERM_SCOOP_BONUS, TERM_FOUL_UNITS, TERM_DIFFERENCE, TERM_NATURALS_SCOOPED = (
    0,
    1,
    2,
    3,
    4,
)
TERM_SWEEP = 5
"""Slots of :class:`KernelTerms`'s ``params`` (``foul_units`` -1: ``foul=scooped``)."""


@njit(cache=True)
def _take_straight(left: npt.NDArray[np.int64], start: int, length: int) -> bool:
    """Remove a straight of ``length`` from the rank counts ``left`` (window ``start``: 0 is
    the one with the ace low, ``s >= 1`` starts at rank ``s - 1``); False when it is not
    there (``left`` is then spoilt: callers pass a copy)."""
    ok = True
    for i in range(length):
        r = 12 if (start == 0 and i == 0) else start - 1 + i
        left[r] -= 1
        if left[r] < 0:
            ok = False
    return ok


@njit(cache=True)
def _split_fives(left: npt.NDArray[np.int64], need5: int) -> bool:
    if need5 == 0:
        return bool(left.sum() == 0)
    for a in range(10):
        la = left.copy()
        if not _take_straight(la, a, 5):
            continue
        if need5 == 1:
            if la.sum() == 0:
                return True
            continue
        for b in range(a, 10):
            lb = la.copy()
            if _take_straight(lb, b, 5) and lb.sum() == 0:
                return True
    return False


@njit(cache=True)
def split_straights(counts: npt.NDArray[np.int64], need3: int, need5: int) -> bool:
    """Whether rank counts split exactly into ``need3`` (0 or 1) straights of 3 cards and
    ``need5`` (0 to 2) of 5 (A-2-3 and Q-K-A are 3-card straights, K-A-2 is not; CP-11)."""
    if need3 == 0:
        return _split_fives(counts.copy(), need5)
    for s3 in range(12):
        left = counts.copy()
        if _take_straight(left, s3, 3) and _split_fives(left, need5):
            return True
    return False


@njit(cache=True)
def natural_mask(hand: npt.NDArray[np.int8]) -> int:
    """Bit ``i`` set when the 13 cards make natural ``i`` of CP-15's vocabulary, in the order
    of :class:`~cpsolver.rules.chinese.NaturalName` (0 clean dragon .. 14 three flushes);
    :func:`natural_codes` ranks them by a rule set's list."""
    rc = np.zeros(13, dtype=np.int64)
    sc = np.zeros(4, dtype=np.int64)
    suited = np.zeros((4, 13), dtype=np.int64)
    for i in range(13):
        r = hand[i] >> 2
        s = hand[i] & 3
        rc[r] += 1
        sc[s] += 1
        suited[s, r] += 1
    distinct = 0
    pairs = 0
    trips = 0
    threes = 0
    quads = 0
    for r in range(13):
        n = rc[r]
        if n > 0:
            distinct += 1
        pairs += n // 2
        trips += n // 3
        if n >= 3:
            threes += 1
        if n == 4:
            quads += 1
    mask = 0
    if distinct == 13:
        mask |= 1 << 1  # dragon
        if sc.max() == 13:
            mask |= 1 << 0  # clean dragon
    if rc[9] + rc[10] + rc[11] + rc[12] == 13:
        mask |= 1 << 2  # twelve royals: J, Q, K, A
    # Three flushes: every suit's count is 0, 3, 5, 8, 10 or 13, making one 3 and two 5s.
    need3 = 0
    need5 = 0
    shaped = True
    for s in range(4):
        n = sc[s]
        if n == 3 or n == 8 or n == 13:
            need3 += 1
        if n == 5 or n == 8:
            need5 += 1
        elif n == 10 or n == 13:
            need5 += 2
        if not (n == 0 or n == 3 or n == 5 or n == 8 or n == 10 or n == 13):
            shaped = False
    if shaped and need3 == 1 and need5 == 2:
        mask |= 1 << 14  # three flushes
        straight_flushes = True
        for s in range(4):
            n = sc[s]
            if n == 0:
                continue
            n3 = 1 if (n == 3 or n == 8 or n == 13) else 0
            n5 = 1 if (n == 5 or n == 8) else (2 if (n == 10 or n == 13) else 0)
            if not split_straights(suited[s], n3, n5):
                straight_flushes = False
                break
        if straight_flushes:
            mask |= 1 << 3
    if quads == 3:
        mask |= 1 << 4  # three quads
    if rc[6:].sum() == 13:
        mask |= 1 << 5  # all high: 8 or higher
    if rc[:7].sum() == 13:
        mask |= 1 << 6  # all low: 8 or lower
    red = sc[1] + sc[2]  # diamonds, hearts
    if red == 0 or red == 13:
        mask |= 1 << 7
    if red >= 12 or red <= 1:
        mask |= 1 << 8
    if threes == 3:
        left_pairs = 0
        for r in range(13):
            n = rc[r]
            left_pairs += (n - 3 if n >= 3 else n) // 2
        if left_pairs == 2:
            mask |= 1 << 9  # two full houses and trips
    if trips == 4:
        mask |= 1 << 10  # four trips
    for r in range(13):
        if rc[r] >= 3:
            left_pairs = pairs - rc[r] // 2 + (rc[r] - 3) // 2
            if left_pairs == 5:
                mask |= 1 << 11  # five pairs and trips
                break
    if pairs == 6:
        mask |= 1 << 12
    if distinct >= 5 and rc.max() <= 3 and split_straights(rc, 1, 2):
        mask |= 1 << 13  # three straights
    return mask


@njit(cache=True)
def natural_codes(
    hands: npt.NDArray[np.int8], order: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Each hand's natural code under a rule set's list (``order[i]``: the vocabulary bit of
    the list's entry ``i``): the first listed it makes, 1-based; 0 for none."""
    out = np.zeros(hands.shape[0], dtype=np.int64)
    for h in range(hands.shape[0]):
        mask = natural_mask(hands[h])
        if mask == 0:
            continue
        for i in range(order.shape[0]):
            if (mask >> order[i]) & 1:
                out[h] = i + 1
                break
    return out


@njit(cache=True)
def _scoop_rule(net: float, scoop: int, majority: int, params: npt.NDArray[np.int64]) -> float:
    scoring = params[TERM_SCORING]
    if scoring == 2:  # scoop_double
        return 2.0 * net if scoop != 0 else net
    if scoring == 3:  # scoop_bonus:N
        return net + float(scoop * params[TERM_SCOOP_BONUS])
    if scoring == 1:  # two_four
        return net + majority
    return net


@njit(cache=True)
def scoop_rule_affine(
    scoop: int, majority: int, params: npt.NDArray[np.int64]
) -> tuple[float, float]:
    """The scoop rule of a pairing (:func:`settle_rows`' last step) as the affine map it is in
    the rows' net units: ``(slope, offset)``, the units being ``slope * net + offset`` for
    every pairing of that ``scoop`` (1 we scooped, -1 scooped, 0) and ``majority`` (the sign
    of rows won minus rows lost). What lets the pool's kernel settle many pairings that share
    them at once (:func:`cpsolver.chinese.pool.pool_sums_terms`).

    >>> params = kernel_terms(ChineseRules.preset("shisanshui")).params  # scoop_double
    >>> scoop_rule_affine(1, 1, params), scoop_rule_affine(0, 1, params)
    ((2.0, 0.0), (1.0, 0.0))
    """
    offset = _scoop_rule(0.0, scoop, majority, params)
    return _scoop_rule(1.0, scoop, majority, params) - offset, offset


@njit(cache=True)
def settle_terms(
    rows_a: npt.NDArray[np.int64],
    rows_b: npt.NDArray[np.int64],
    foul_a: bool,
    foul_b: bool,
    nat_a: int,
    nat_b: int,
    values: npt.NDArray[np.float64],
    always: npt.NDArray[np.float64],
    params: npt.NDArray[np.int64],
    natural_units: npt.NDArray[np.float64],
) -> tuple[float, int]:
    """:func:`cpsolver.chinese.scoring.settle` on arrays (:func:`kernel_terms`): ``(units A
    wins from B after the scoop rule, scoop: 1 A scooped B, -1 B scooped A, 0)``."""
    if nat_a > 0 or nat_b > 0:
        difference = params[TERM_DIFFERENCE] == 1
        if nat_a > 0 and nat_b > 0:
            if nat_a == nat_b:
                return 0.0, 0
            if nat_a < nat_b:
                amount = natural_units[nat_a] - (natural_units[nat_b] if difference else 0.0)
                winner = 1
            else:
                amount = -(natural_units[nat_b] - (natural_units[nat_a] if difference else 0.0))
                winner = -1
        elif nat_a > 0:
            amount, winner = natural_units[nat_a], 1
        else:
            amount, winner = -natural_units[nat_b], -1
        if params[TERM_NATURALS_SCOOPED] == 0:
            return amount, 0
        return _scoop_rule(amount, winner, winner, params), winner
    if foul_a and foul_b:
        return 0.0, 0
    if foul_a or foul_b:
        if params[TERM_FOUL_UNITS] >= 0:
            fixed = float(params[TERM_FOUL_UNITS])
            return (fixed if foul_b else -fixed), 0
        sign = 1 if foul_b else -1
        rows = rows_a if foul_b else rows_b
        net = values[0, rows[0]] + values[1, rows[1]] + values[2, rows[2]]
        net += always[0, rows[0]] + always[1, rows[1]] + always[2, rows[2]]
        net *= sign
        return _scoop_rule(net, sign, sign, params), sign
    return settle_rows(
        rows_a[0], rows_a[1], rows_a[2], rows_b[0], rows_b[1], rows_b[2], values, always, params
    )


@njit(cache=True)
def settle_rows(
    a0: int,
    a1: int,
    a2: int,
    b0: int,
    b1: int,
    b2: int,
    values: npt.NDArray[np.float64],
    always: npt.NDArray[np.float64],
    params: npt.NDArray[np.int64],
) -> tuple[float, int]:
    """:func:`settle_terms` of two players who neither foul nor declare a natural, their rows
    (front, middle, back classes) as scalars: the rows compared, royalties, the scoop rule.
    Hot loops over many pairings call this directly (rows in arrays cost them 3x)."""
    won = 0
    lost = 0
    net = 0.0
    for r, a, b in ((0, a0, b0), (1, a1, b1), (2, a2, b2)):
        if a > b:
            won += 1
            net += values[r, a]
        elif b > a:
            lost += 1
            net -= values[r, b]
    net += always[0, a0] + always[1, a1] + always[2, a2]
    net -= always[0, b0] + always[1, b1] + always[2, b2]
    scoop = 1 if won == 3 else (-1 if lost == 3 else 0)
    majority = 1 if won > lost else (-1 if lost > won else 0)
    return _scoop_rule(net, scoop, majority, params), scoop


@njit(cache=True)
def settle_table_candidates(
    cand_rows: npt.NDArray[np.int64],
    cand_nat: npt.NDArray[np.int64],
    opp_rows: npt.NDArray[np.int64],
    opp_nat: npt.NDArray[np.int64],
    values: npt.NDArray[np.float64],
    always: npt.NDArray[np.float64],
    params: npt.NDArray[np.int64],
    natural_units: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]:
    """``out[k, d]``: units candidate ``k`` wins at the table of deal ``d`` (``opp_rows[d, o]``,
    ``opp_nat[d, o]``; nobody fouls), every pairing by :func:`settle_terms` and then CP-13's
    sweep: a player who scoops every other player at a table of 3 or 4 doubles those pairings
    once more (ours when we scoop every opponent; an opponent's against us when it scoops us
    and every other opponent)."""
    deals = opp_rows.shape[0]
    opponents = opp_rows.shape[1]
    out = np.zeros((cand_rows.shape[0], deals))
    sweep = params[TERM_SWEEP] == 1 and opponents >= 2
    sweeps_others = np.zeros(opponents, dtype=np.bool_)
    for d in range(deals):
        if sweep:
            for o in range(opponents):
                every = True
                for o2 in range(opponents):
                    if o2 != o:
                        _, s = settle_terms(
                            opp_rows[d, o], opp_rows[d, o2], False, False, opp_nat[d, o],
                            opp_nat[d, o2], values, always, params, natural_units,
                        )  # fmt: skip
                        if s != 1:
                            every = False
                sweeps_others[o] = every
        for k in range(cand_rows.shape[0]):
            total = 0.0
            every = True
            for o in range(opponents):
                u, s = settle_terms(
                    cand_rows[k], opp_rows[d, o], False, False, cand_nat[k], opp_nat[d, o],
                    values, always, params, natural_units,
                )  # fmt: skip
                total += u
                if s != 1:
                    every = False
                if sweep and s == -1 and sweeps_others[o]:
                    total += u  # that opponent swept the table: its pairing doubles again
            if sweep and every:
                total *= 2.0
            out[k, d] = total
    return out


@dataclass(frozen=True, eq=False)
class KernelTerms:
    """A rule set's :class:`~cpsolver.chinese.scoring.PairTerms` as the kernels' arrays
    (:func:`settle_terms`): ``values``/``always`` ``(3, NUM_CLASSES)``, ``params`` (the
    ``TERM_*`` slots), ``natural_units`` by code, and ``order``, the vocabulary bit of each
    entry of the rule set's list of naturals (:func:`natural_codes`)."""

    values: npt.NDArray[np.float64]
    always: npt.NDArray[np.float64]
    params: npt.NDArray[np.int64]
    natural_units: npt.NDArray[np.float64]
    order: npt.NDArray[np.int64]

    def args(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64],
                            npt.NDArray[np.int64], npt.NDArray[np.float64]]:  # fmt: skip
        """``values, always, params, natural_units``: the settlement's arguments."""
        return self.values, self.always, self.params, self.natural_units


def kernel_terms(rules: ChineseRules) -> KernelTerms:
    """The :class:`KernelTerms` of a rule set (cached per rule set), read from
    :func:`~cpsolver.chinese.scoring.pair_terms`: no rule is written here.

    >>> terms = kernel_terms(ChineseRules.preset("maubinh"))
    >>> terms.params.tolist(), terms.natural_units.tolist()[:3], terms.order.tolist()[:2]
    ([2, 0, 6, 0, 0, 1], [0.0, 24.0, 12.0], [0, 1])
    """
    return _kernel_terms(rules)


@cache
def _kernel_terms(rules: ChineseRules) -> KernelTerms:
    terms = pair_terms(rules)
    values = _shared_array(terms.values)
    always = _NO_BONUS if terms.always is None else _shared_array(terms.always)
    params = np.array(
        [
            terms.scoring,
            terms.scoop_bonus,
            -1 if terms.foul_units is None else terms.foul_units,
            int(terms.difference),
            int(terms.naturals_scooped),
            int(terms.sweep),
        ],
        dtype=np.int64,
    )
    units = np.array(terms.natural_units, dtype=np.float64)
    vocabulary = list(NaturalName)
    order = np.array([vocabulary.index(name) for name, _ in rules.natural_list], dtype=np.int64)
    for a in (params, units, order):
        a.setflags(write=False)
    return KernelTerms(values, always, params, units, order)


# One array per table of values, not per rule set (the settlement's tables are shared by every
# rule set whose rows are worth the same: 432 rule sets hold a handful, issue 15).
_ARRAYS: dict[int, tuple[object, npt.NDArray[np.float64]]] = {}
_NO_BONUS = np.zeros((3, NUM_CLASSES))
_NO_BONUS.setflags(write=False)


def _shared_array(table: tuple[tuple[int, ...], ...]) -> npt.NDArray[np.float64]:
    found = _ARRAYS.get(id(table))
    if found is None or found[0] is not table:
        array = np.array(table, dtype=np.float64)
        array.setflags(write=False)
        found = _ARRAYS[id(table)] = (table, array)
    return found[1]
