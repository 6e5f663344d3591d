"""The compiled loops of open-face advice (RULES OFC-1..OFC-5): the placement policy every
simulated player uses, whole hands played out by it, and their settlement.

Cards are dense indices (``4 * rank + suit``, ranks 0-12); a board is 13 slots, back 0-4,
middle 5-9, front 10-12 (-1: empty), with its per-row counts (back, middle, front). Strength
classes come from :func:`cpsolver.evaluator.poker.poker_tables` (the one evaluator), royalties
and fantasyland entry from the rule set's tables (:class:`SimTables`, built by
:func:`sim_tables`), so no rule is written twice.

**The policy ("fill"):** a player dealt cards tries every legal placement (which card to
discard, which row each kept card goes to) and keeps the one whose board, completed with the
same ``fills`` random draws of the cards it has not seen, scores best on average. A completed
board scores ``-foul_cost`` when fouled, else for each opponent its royalties plus, per row,
``2 p - 1`` with ``p`` the share of finished rows of that kind it beats,
plus the fantasyland value when it enters (``p``: :func:`cpsolver.ofc.rows.row_values`, rows
of self-play). The same draws serve every placement of one
decision, so placements are compared on equal luck. Its speed and strength are measured in
bench/ofc.py (docs/BENCHMARKS.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from cpsolver.chinese.search import WEIGHTS
from cpsolver.evaluator.poker import NUM_CLASSES, poker_tables
from cpsolver.jit import njit
from cpsolver.ofc.rows import row_values
from cpsolver.rules.chinese import Row
from cpsolver.rules.ofc import OfcRules

__all__ = [
    "FOUL_UNITS",
    "SimTables",
    "board_value",
    "placement_codes",
    "play_fantasyland",
    "play_rollouts",
    "policy_choose",
    "policy_seeded",
    "sim_tables",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
I16 = npt.NDArray[np.int16]

FOUL_UNITS = 6
"""OFC-4: what a fouled board loses to each opponent that did not foul, before royalties."""


@dataclass(frozen=True, eq=False)
class SimTables:
    """What the kernels read of the evaluator and the rule set, as arrays (row order back,
    middle, front): ``royalty[r, cls]`` (OFC-3), ``enters[cls]`` (cards of the next hand's
    fantasyland for an unfouled front of class ``cls``, OFC-5) and ``row_value[r, cls]`` (the
    policy's row score, ``2 p - 1``)."""

    nonflush5: npt.NDArray[np.int16]
    flush5: npt.NDArray[np.int16]
    front3: npt.NDArray[np.int16]
    weights: IntArray
    royalty: IntArray
    enters: IntArray
    row_value: FloatArray


def sim_tables(rules: OfcRules) -> SimTables:
    """The kernels' tables for ``rules`` (cached per fantasyland option)."""
    return _sim_tables(rules.fantasyland)


@cache
def _sim_tables(fantasyland: object) -> SimTables:
    poker = poker_tables(False)
    rules = OfcRules().replace(fantasyland=fantasyland)
    royalty = OfcRules.royalty_table()
    ordered = np.ascontiguousarray(royalty[[Row.BACK, Row.MIDDLE, Row.FRONT]], dtype=np.int64)
    enters = np.zeros(NUM_CLASSES, dtype=np.int64)
    for cls in np.flatnonzero(poker.is_front):
        enters[cls] = rules.enters_with(int(cls))
    for a in (ordered, enters):
        a.setflags(write=False)
    return SimTables(
        poker.nonflush5,
        poker.flush5,
        poker.front3,
        np.ascontiguousarray(WEIGHTS, dtype=np.int64),
        ordered,
        enters,
        row_values(),
    )


# -- evaluation ---------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _five_class(
    cards: IntArray, at: int, nonflush5: I16, flush5: I16, weights: IntArray
) -> int:  # pragma: no cover - compiled
    c0, c1, c2, c3, c4 = cards[at], cards[at + 1], cards[at + 2], cards[at + 3], cards[at + 4]
    if (c0 & 3) == (c1 & 3) == (c2 & 3) == (c3 & 3) == (c4 & 3):
        mask = (1 << (c0 >> 2)) | (1 << (c1 >> 2)) | (1 << (c2 >> 2)) | (1 << (c3 >> 2))
        return int(flush5[mask | (1 << (c4 >> 2))])
    a, b, c, d, e = c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2, c4 >> 2
    # a sorting network of 9 compare-exchanges: ranks ascending for the multiset index
    if a > b:
        a, b = b, a
    if d > e:
        d, e = e, d
    if c > e:
        c, e = e, c
    if c > d:
        c, d = d, c
    if b > e:
        b, e = e, b
    if a > d:
        a, d = d, a
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    return int(
        nonflush5[weights[0, a] + weights[1, b] + weights[2, c] + weights[3, d] + weights[4, e]]
    )


@njit(cache=True, nogil=True)
def _front_class(
    cards: IntArray, at: int, front3: I16, weights: IntArray
) -> int:  # pragma: no cover - compiled
    a, b, c = cards[at] >> 2, cards[at + 1] >> 2, cards[at + 2] >> 2
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return int(front3[weights[0, a] + weights[1, b] + weights[2, c]])


@njit(cache=True, nogil=True)
def _classes(
    board: IntArray, nonflush5: I16, flush5: I16, front3: I16, weights: IntArray, out: IntArray
) -> None:  # pragma: no cover - compiled
    """Classes of a complete board's rows into out[0..2] (back, middle, front)."""
    out[0] = _five_class(board, 0, nonflush5, flush5, weights)
    out[1] = _five_class(board, 5, nonflush5, flush5, weights)
    out[2] = _front_class(board, 10, front3, weights)


@njit(cache=True, nogil=True)
def _fill_value(
    board: IntArray,
    counts: IntArray,
    seq: IntArray,
    at: int,
    fixed: IntArray,
    nonflush5: I16,
    flush5: I16,
    front3: I16,
    weights: IntArray,
    royalty: IntArray,
    enters: IntArray,
    row_value: FloatArray,
    opponents: int,
    foul_cost: float,
    fl_value: float,
    tmp: IntArray,
    cls: IntArray,
) -> float:  # pragma: no cover - compiled
    """The policy's score of ``board`` completed with the cards of ``seq`` from ``at`` on, in
    order (back, middle, front); ``fixed[r]`` >= 0 is the class of a row already full."""
    for r in range(3):
        if fixed[r] >= 0:
            cls[r] = fixed[r]
            continue
        start = r * 5
        for k in range(5 if r < 2 else 3):
            if k < counts[r]:
                tmp[start + k] = board[start + k]
            else:
                tmp[start + k] = seq[at]
                at += 1
        if r < 2:
            cls[r] = _five_class(tmp, start, nonflush5, flush5, weights)
        else:
            cls[r] = _front_class(tmp, 10, front3, weights)
    if cls[0] < cls[1] or cls[1] < cls[2]:
        return -foul_cost
    value = 0.0
    for r in range(3):
        value += opponents * (royalty[r, cls[r]] + row_value[r, cls[r]])
    if enters[cls[2]] > 0:
        value += fl_value
    return value


# -- the policy ---------------------------------------------------------------------------


@cache
def placement_codes() -> tuple[IntArray, IntArray, IntArray]:
    """Every way to place a hand, capacity aside: ``codes[i, j]`` the row of card ``j``
    (0 back, 1 middle, 2 front, -1 discarded), the lines of a hand of ``n`` cards from
    ``start[n]`` to ``end[n]``: 5 cards all placed (street 1), 3 cards keeping 2 (pineapple),
    1 card placed (classic).

    >>> codes, start, end = placement_codes()
    >>> int(end[5] - start[5]), int(end[3] - start[3]), int(end[1] - start[1])
    (243, 27, 3)
    """
    import itertools

    lines: list[list[int]] = []
    start = np.zeros(6, dtype=np.int64)
    end = np.zeros(6, dtype=np.int64)
    for n, keep in ((5, 5), (3, 2), (1, 1)):
        start[n] = len(lines)
        for discard in itertools.combinations(range(n), n - keep):
            for rows in itertools.product(range(3), repeat=keep):
                it = iter(rows)
                lines.append([-1 if j in discard else next(it) for j in range(n)] + [-1] * (5 - n))
        end[n] = len(lines)
    codes = np.array(lines, dtype=np.int64)
    for x in (codes, start, end):
        x.setflags(write=False)
    return codes, start, end


@njit(cache=True, nogil=True)
def policy_choose(
    board: IntArray,
    counts: IntArray,
    hand: IntArray,
    pool: IntArray,
    n_pool: int,
    fills: int,
    codes: IntArray,
    first: int,
    last: int,
    nonflush5: I16,
    flush5: I16,
    front3: I16,
    weights: IntArray,
    royalty: IntArray,
    enters: IntArray,
    row_value: FloatArray,
    opponents: int,
    foul_cost: float,
    fl_value: float,
    scratch: IntArray,
    seq_space: IntArray,
    scores: FloatArray,
    rows_out: IntArray,
) -> None:  # pragma: no cover - compiled
    """The fill policy's placement of ``hand`` on ``board``, written into ``rows_out`` (the
    row of each card, -1 discarded), from the placement lines ``codes[first:last]``,
    drawing completions from ``pool[:n_pool]`` (the cards the player has not seen) with
    numpy's global generator (the caller seeds it). ``scratch`` (int64, >= 87),
    ``seq_space`` (int64, >= 13 x fills) and ``scores`` (float64, >= 243) are work space."""
    n_hand = hand.shape[0]
    keep = 0
    for j in range(n_hand):
        if codes[first, j] >= 0:
            keep += 1
    placed = scratch[0:13]
    tmp = scratch[13:26]
    cls = scratch[26:29]
    used = scratch[29:32]
    fixed = scratch[32:35]
    local = scratch[35:87]
    room = 13 - (counts[0] + counts[1] + counts[2]) - keep
    n_fills = fills if room > 0 else 1
    seqs = seq_space[: n_fills * max(room, 1)]
    for i in range(n_pool):
        local[i] = pool[i]
    for f in range(n_fills):  # the same draws for every placement: partial shuffles
        for i in range(room):
            j = i + np.random.randint(n_pool - i)
            local[i], local[j] = local[j], local[i]
            seqs[f * room + i] = local[i]
    for o in range(first, last):
        scores[o - first] = -np.inf
        for k in range(13):
            placed[k] = board[k]
        used[0], used[1], used[2] = counts[0], counts[1], counts[2]
        for j in range(n_hand):
            r = codes[o, j]
            if r >= 0:
                if used[r] == (5 if r < 2 else 3):
                    used[0] = 99  # over capacity: not a legal placement
                    break
                placed[r * 5 + used[r]] = hand[j]
                used[r] += 1
        if used[0] > 5:
            continue
        for r in range(3):
            fixed[r] = -1
        if used[0] == 5:
            fixed[0] = _five_class(placed, 0, nonflush5, flush5, weights)
        if used[1] == 5:
            fixed[1] = _five_class(placed, 5, nonflush5, flush5, weights)
        if used[2] == 3:
            fixed[2] = _front_class(placed, 10, front3, weights)
        total = 0.0
        for f in range(n_fills):
            total += _fill_value(placed, used, seqs, f * room, fixed, nonflush5, flush5,
                                 front3, weights, royalty, enters, row_value, opponents,
                                 foul_cost, fl_value, tmp, cls)  # fmt: skip
        scores[o - first] = total
    best = first
    for o in range(first + 1, last):
        if scores[o - first] > scores[best - first]:
            best = o
    for j in range(n_hand):
        rows_out[j] = codes[best, j]


@njit(cache=True, nogil=True)
def _apply(
    board: IntArray, counts: IntArray, hand: IntArray, rows: IntArray
) -> None:  # pragma: no cover - compiled
    for j in range(hand.shape[0]):
        r = rows[j]
        if r >= 0:
            board[r * 5 + counts[r]] = hand[j]
            counts[r] += 1


# -- settlement ---------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def board_value(
    boards: IntArray,
    n_players: int,
    nonflush5: I16,
    flush5: I16,
    front3: I16,
    weights: IntArray,
    royalty: IntArray,
    enters: IntArray,
    fl_value: float,
    out: FloatArray,
) -> None:  # pragma: no cover - compiled
    """Seat 0's units against every other seat (OFC-4) for complete ``boards``; writes
    (units, fouled, entered fantasyland) into ``out[0..2]``."""
    cls = np.empty((n_players, 3), dtype=np.int64)
    fouled = np.zeros(n_players, dtype=np.bool_)
    roy = np.zeros(n_players, dtype=np.int64)
    row = np.empty(3, dtype=np.int64)
    for p in range(n_players):
        _classes(boards[p], nonflush5, flush5, front3, weights, row)
        cls[p, 0], cls[p, 1], cls[p, 2] = row[0], row[1], row[2]
        fouled[p] = row[0] < row[1] or row[1] < row[2]
        if not fouled[p]:
            roy[p] = royalty[0, row[0]] + royalty[1, row[1]] + royalty[2, row[2]]
    units = 0.0
    for q in range(1, n_players):
        if fouled[0] and fouled[q]:
            continue
        if fouled[0]:
            units -= FOUL_UNITS + roy[q]
            continue
        if fouled[q]:
            units += FOUL_UNITS + roy[0]
            continue
        won = 0
        for r in range(3):
            if cls[0, r] > cls[q, r]:
                won += 1
            elif cls[0, r] < cls[q, r]:
                won -= 1
        if won == 3:
            won = 6
        elif won == -3:
            won = -6
        units += won + roy[0] - roy[q]
    entered = (not fouled[0]) and enters[cls[0, 2]] > 0
    out[0] = units + (fl_value if entered else 0.0)
    out[1] = 1.0 if fouled[0] else 0.0
    out[2] = 1.0 if entered else 0.0


@njit(cache=True, nogil=True)
def _unseen(sim: IntArray, hand: IntArray, pool: IntArray) -> int:  # pragma: no cover - compiled
    """Write into ``pool`` the cards on no board and not in ``hand``; return how many."""
    seen = np.zeros(52, dtype=np.bool_)
    for q in range(sim.shape[0]):
        for k in range(13):
            if sim[q, k] >= 0:
                seen[sim[q, k]] = True
    for k in range(hand.shape[0]):
        seen[hand[k]] = True
    n_pool = 0
    for card in range(52):
        if not seen[card]:
            pool[n_pool] = card
            n_pool += 1
    return n_pool


@njit(cache=True, nogil=True)
def policy_seeded(
    seed: int,
    board: IntArray,
    counts: IntArray,
    hand: IntArray,
    pool: IntArray,
    fills: int,
    codes: IntArray,
    first: int,
    last: int,
    nonflush5: I16,
    flush5: I16,
    front3: I16,
    weights: IntArray,
    royalty: IntArray,
    enters: IntArray,
    row_value: FloatArray,
    opponents: int,
    foul_cost: float,
    fl_value: float,
    rows_out: IntArray,
) -> None:  # pragma: no cover - compiled
    """:func:`policy_choose` once, numba's generator seeded with ``seed`` first."""
    np.random.seed(seed)
    scratch = np.empty(87, dtype=np.int64)
    seq_space = np.empty(13 * max(fills, 1), dtype=np.int64)
    scores = np.empty(243, dtype=np.float64)
    policy_choose(board, counts, hand, pool, pool.shape[0], fills, codes, first, last,
                  nonflush5, flush5, front3, weights, royalty, enters, row_value, opponents,
                  foul_cost, fl_value, scratch, seq_space, scores, rows_out)  # fmt: skip


# -- whole hands --------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _deal(
    deck: IntArray, n_hidden: int, need: int, dealt: IntArray
) -> None:  # pragma: no cover - compiled
    """Deal ``need`` cards at random from ``deck[:n_hidden]`` into ``dealt`` (a partial
    shuffle of ``deck`` in place, numpy's global generator)."""
    for i in range(need):
        j = i + np.random.randint(n_hidden - i)
        deck[i], deck[j] = deck[j], deck[i]
        dealt[i] = deck[i]


@njit(cache=True, nogil=True)
def _play_streets(
    sim: IntArray,
    sim_counts: IntArray,
    dealt: IntArray,
    at: int,
    streets: IntArray,
    first_seat: int,
    end_seat: int,
    pool: IntArray,
    fills: int,
    codes: IntArray,
    code_start: IntArray,
    code_end: IntArray,
    nonflush5: I16,
    flush5: I16,
    front3: I16,
    weights: IntArray,
    royalty: IntArray,
    enters: IntArray,
    row_value: FloatArray,
    opponents: int,
    foul_cost: float,
    fl_value: float,
    scratch: IntArray,
    seq_space: IntArray,
    scores: FloatArray,
    rows: IntArray,
) -> int:  # pragma: no cover - compiled
    """Seats ``first_seat`` to ``end_seat - 1`` play their streets still to come (street by
    street, seat by seat) with the cards of ``dealt`` from ``at`` on, each placing by
    :func:`policy_choose`; return where the cards dealt end."""
    for t in range(streets.shape[1]):
        for p in range(first_seat, end_seat):
            n = streets[p, t]
            if n == 0:
                continue
            hand = dealt[at : at + n]
            at += n
            n_pool = _unseen(sim, hand, pool)
            policy_choose(sim[p], sim_counts[p], hand, pool, n_pool, fills, codes,
                          code_start[n], code_end[n], nonflush5, flush5, front3, weights,
                          royalty, enters, row_value, opponents, foul_cost, fl_value,
                          scratch, seq_space, scores, rows)  # fmt: skip
            _apply(sim[p], sim_counts[p], hand, rows)
    return at


@njit(cache=True, nogil=True)
def play_rollouts(
    boards: IntArray,
    counts: IntArray,
    candidates: IntArray,
    cand_counts: IntArray,
    hidden: IntArray,
    streets: IntArray,
    seeds: IntArray,
    fills: int,
    codes: IntArray,
    code_start: IntArray,
    code_end: IntArray,
    nonflush5: I16,
    flush5: I16,
    front3: I16,
    weights: IntArray,
    royalty: IntArray,
    enters: IntArray,
    row_value: FloatArray,
    foul_cost: float,
    fl_value: float,
    active: BoolArray,
    values: FloatArray,
    fouls: BoolArray,
    entries: BoolArray,
) -> None:  # pragma: no cover - compiled
    """Play the rest of the hand once per seed for every active candidate board of seat 0.

    ``boards[p]``/``counts[p]``: the seats' boards now (seat 0's before its placement);
    ``candidates[c]``/``cand_counts[c]``: seat 0's board after candidate ``c``; ``hidden``: the
    cards no one has seen (dealt from, at random); ``streets[p, t]``: the cards seat ``p`` is
    dealt on its ``t``-th street still to come (0: none; how many it keeps: ``codes``' lines
    for that many cards, :func:`placement_codes`).
    Every candidate meets the same cards (common random numbers); every seat places by
    :func:`policy_choose`. The opponents play their streets once per seed, on the boards as
    they are now (seat 0's placement is not yet known to them), and every candidate of seat 0
    is settled against those boards. Writes, per seed ``s`` and active candidate ``c``, the
    value (units + the fantasyland value when it enters) into ``values[s, c]``, and whether it
    fouled and entered fantasyland into ``fouls[s, c]`` and ``entries[s, c]``.
    """
    n_players = boards.shape[0]
    n_streets = streets.shape[1]
    need = 0
    for p in range(n_players):
        for t in range(n_streets):
            need += streets[p, t]
    deck = hidden.copy()
    n_hidden = deck.shape[0]
    dealt = np.empty(max(need, 1), dtype=np.int64)
    sim = np.empty((n_players, 13), dtype=np.int64)
    sim_counts = np.empty((n_players, 3), dtype=np.int64)
    pool = np.empty(52, dtype=np.int64)
    out = np.empty(3, dtype=np.float64)
    scratch = np.empty(87, dtype=np.int64)
    seq_space = np.empty(13 * max(fills, 1), dtype=np.int64)
    scores = np.empty(243, dtype=np.float64)
    rows = np.empty(5, dtype=np.int64)
    opponents = n_players - 1
    for s in range(seeds.shape[0]):
        np.random.seed(seeds[s])
        _deal(deck, n_hidden, need, dealt)
        sim[:] = boards
        sim_counts[:] = counts
        # the opponents, once
        own_at = _play_streets(sim, sim_counts, dealt, 0, streets, 1, n_players, pool, fills,
                               codes, code_start, code_end, nonflush5, flush5, front3, weights,
                               royalty, enters, row_value, opponents, foul_cost, fl_value,
                               scratch, seq_space, scores, rows)  # fmt: skip
        for c in range(candidates.shape[0]):
            if not active[c]:
                continue
            np.random.seed(seeds[s] ^ 0x5BD1E995)  # the same policy draws for every candidate
            sim[0] = candidates[c]
            sim_counts[0] = cand_counts[c]
            _play_streets(sim, sim_counts, dealt, own_at, streets, 0, 1, pool, fills, codes,
                          code_start, code_end, nonflush5, flush5, front3, weights, royalty,
                          enters, row_value, opponents, foul_cost, fl_value, scratch, seq_space,
                          scores, rows)  # fmt: skip
            board_value(sim, n_players, nonflush5, flush5, front3, weights, royalty, enters,
                        fl_value, out)  # fmt: skip
            values[s, c] = out[0]
            fouls[s, c] = out[1] > 0
            entries[s, c] = out[2] > 0


@njit(cache=True, nogil=True)
def play_fantasyland(
    sets: IntArray,
    hidden: IntArray,
    streets: IntArray,
    seeds: IntArray,
    fills: int,
    codes: IntArray,
    code_start: IntArray,
    code_end: IntArray,
    nonflush5: I16,
    flush5: I16,
    front3: I16,
    weights: IntArray,
    royalty: IntArray,
    enters: IntArray,
    row_value: FloatArray,
    foul_cost: float,
    fl_value: float,
    units: FloatArray,
    opponent_boards: IntArray,
) -> None:  # pragma: no cover - compiled
    """Settle complete fantasyland sets of seat 0 (``sets[c]``: 13 slots) against the other
    seats playing a whole hand, once per seed.

    Per seed the cards are dealt at random from ``hidden`` (the deck less seat 0's hand) to
    seats 1.. street by street (``streets[p, t]``, seat 0's row all zero), every seat placing
    by :func:`policy_choose` with ``fl_value`` its own fantasyland value; seat 0's board is set
    face down, so they see no card of it (its cards are among the ones they have not seen).
    Writes seat 0's units against the table (OFC-4, no fantasyland value) for set ``c`` into
    ``units[s, c]`` and the other seats' finished boards into ``opponent_boards[s, p - 1]``.
    The deal of a seed does not depend on the seeds before it.
    """
    n_players = streets.shape[0]
    need = 0
    for p in range(n_players):
        for t in range(streets.shape[1]):
            need += streets[p, t]
    deck = hidden.copy()
    n_hidden = deck.shape[0]
    dealt = np.empty(max(need, 1), dtype=np.int64)
    sim = np.empty((n_players, 13), dtype=np.int64)
    sim_counts = np.empty((n_players, 3), dtype=np.int64)
    pool = np.empty(52, dtype=np.int64)
    out = np.empty(3, dtype=np.float64)
    scratch = np.empty(87, dtype=np.int64)
    seq_space = np.empty(13 * max(fills, 1), dtype=np.int64)
    scores = np.empty(243, dtype=np.float64)
    rows = np.empty(5, dtype=np.int64)
    for s in range(seeds.shape[0]):
        np.random.seed(seeds[s])
        deck[:] = hidden
        _deal(deck, n_hidden, need, dealt)
        sim[:] = -1
        sim_counts[:] = 0
        _play_streets(sim, sim_counts, dealt, 0, streets, 1, n_players, pool, fills, codes,
                      code_start, code_end, nonflush5, flush5, front3, weights, royalty, enters,
                      row_value, n_players - 1, foul_cost, fl_value, scratch, seq_space, scores,
                      rows)  # fmt: skip
        for p in range(1, n_players):
            opponent_boards[s, p - 1] = sim[p]
        for c in range(sets.shape[0]):
            sim[0] = sets[c]
            board_value(sim, n_players, nonflush5, flush5, front3, weights, royalty, enters,
                        0.0, out)  # fmt: skip
            units[s, c] = out[0]
