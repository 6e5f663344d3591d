"""The opponent pool: card removal beyond first order, by importance weighting (issue 14).

The first-order reweighting (:mod:`cpsolver.chinese.removal`) corrects each opponent row
class for the cards *of that class* we hold; it misses how our hand changes the opponents'
*other* cards, and so how they arrange (docs/EV.md, "Card removal"). The pool measures that
instead of modelling it: :data:`POOL_SIZE` seeded random 13-card hands, each arranged once, at
``make pools`` time, by the table key's own policy (:func:`cpsolver.chinese.training.play_policy`,
as the rollouts' opponents are). The opponents are dealt uniformly from the 39 cards we do not
hold, so a pool hand that avoids our cards is an exact draw of an opponent's hand; keeping only
those keeps 1.3% of the pool. But a hand's arrangement does not depend on which suit is which
(the rules and the policy are symmetric in the suits), so each pool hand stands for its 24 suit
relabellings, and its weight is the share of them that avoid our cards:

    w(H) = #{suit permutations s : s(H) avoids our 13 cards} / 24

an unbiased importance weight (the 24 relabellings of a uniform hand are uniform), with
10-25% of the pool weighted instead of 1.3%. A candidate split's value is its exact settlement
(CP-7..CP-11: rows *and* their correlation, majority, scoop, royalties, naturals) against every
weighted pool hand, times the number of opponents (settlement is pairwise). Measured against
20,000-rollout simulations (docs/BENCHMARKS.md) this is what brings the printed EV within the
calibration target. (Also measured, and not used: weighting by the hand's rank and suit profile,
``prod C(4 - held_rank, n_rank) / C(4, n_rank) * prod C(13 - held_suit, m_suit) / C(13,
m_suit)``, a smoother but biased weight: a larger error.)

``solve(cards)`` (``estimator="calibrated"``, the default since issue 32) re-scores the ``ev``
objective's top candidates this way (:func:`calibrate`); ``estimator="model"`` keeps the
first-order tables (0.3 ms against about 1 ms, docs/BENCHMARKS.md).

>>> from cpsolver.rules.chinese import ChineseRules, Sweep
>>> pool = pool_for(ChineseRules())
>>> pool.rows.shape == (POOL_SIZE, 3)
True
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import itertools
import json
import math
import sys
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import numpy as np
import numpy.typing as npt

from cpsolver.cards import Card, CardsLike
from cpsolver.chinese import ev_kernel as K
from cpsolver.chinese.ev import (
    Candidate,
    Draft,
    RowOdds,
    analyse,
    analyse_many,
    build_candidates,
    draft_many,
    hand_array,
)
from cpsolver.chinese.ev_model import (
    PACKAGE_DATA,
    MissingTablesError,
    OpponentModel,
    TablesError,
    kernel_mode,
    model_for,
    natural_code,
    row_values_view,
    table_search_path,
)
from cpsolver.chinese.table_keys import (
    is_legacy,
    shipped_keys,
    stand_in_key,
    table_key,
    wheel_permutation,
)
from cpsolver.jit import njit
from cpsolver.rules.chinese import ChineseRules, Sweep

__all__ = [
    "CALIBRATED_MARGIN",
    "CALIBRATED_TOP",
    "ENOUGH",
    "FIRST_PASS",
    "POOL_SEED",
    "POOL_SIZE",
    "CalibrationBatch",
    "OpponentPool",
    "build_pool",
    "calibrate",
    "calibrate_hand",
    "calibrate_many",
    "calibrated_candidates",
    "calibrated_candidates_many",
    "calibrated_drafts_many",
    "pool_filename",
    "pool_for",
    "pool_hands",
    "pool_weights",
    "save_pool",
    "sweep_chances",
]

POOL_SIZE = 100_000
"""Pool hands per table key (the calibration figures of docs/BENCHMARKS.md are at this size:
half of it doubles the error's noise part)."""
POOL_SEED = 2026
"""Seed of the pool hands (:func:`pool_hands`); the same hands serve every key."""
HANDS_FILE = "chinese-pool-hands.npz"
FORMAT = "cpsolver-chinese-pool"
CHUNK = 2_000  # hands arranged per call while building (progress, memory)

IntArray = npt.NDArray[np.int64]

FIRST_PASS = 25_000
"""Pool hands of the calibrated estimate's first pass: the rest are summed only when the first
pass does not decide (:func:`pool_sums`): the choice's 95% interval wider than
:data:`ENOUGH`, or its lead over the next best not clear of that lead's own noise."""
ENOUGH = 0.1
"""Units at the table: the widest 95% half-width of the choice's value that a first pass may
stop at (the calibration: ``two_four`` heads-up after a quarter of the pool +-0.06 to 0.09,
``standard``'s three opponents +-0.15 to 0.22, so those never stop). Measured against the
committed 20,000-rollout references (tests/test_calibration_references.py, docs/BENCHMARKS.md):
``two_four`` MAE 0.022 / worst 0.131 (0.016 / 0.059 over the whole pool), ``standard``
unchanged (0.037 / 0.189). A rule on the interval alone stopped every ``two_four`` hand and cost
0.0026 units a deal in duplicate play against the whole pool's choices; with the lead's test
too, ~43% of ``two_four`` hands stop and 99.9% of choices stay (+0.0001 +- 0.0006 a deal)."""
CALIBRATED_TOP = 10
"""The table model's best splits the ``calibrated`` estimator considers (distinct values)."""
CALIBRATED_MARGIN = 0.5
"""Of those, the ones re-scored: at most this many units below the table model's best (at
least the best ones asked for; a natural declaration always). The pool moves the splits of a
hand against each other by far less than it moves their level: over 3,000 seeded hands per
preset the pool's choice among all ten was never more than 0.5 units below the table's best
in ``two_four`` and three times in ``standard``, which cost 0.00005 units a hand, while the
margin leaves 6 to 7 candidates of 10 to build and re-score (docs/BENCHMARKS.md)."""


def pool_hands(size: int = POOL_SIZE, seed: int = POOL_SEED) -> npt.NDArray[np.int8]:
    """``size`` seeded random 13-card hands (card indices, ascending), in chunks of 10,000
    drawn from ``SeedSequence((seed, chunk))`` so a prefix does not depend on ``size``.

    >>> bool((pool_hands(12_000)[:10] == pool_hands(10)).all())
    True
    """
    out = np.empty((size, 13), dtype=np.int8)
    for chunk, start in enumerate(range(0, size, 10_000)):
        n = min(10_000, size - start)
        rng = np.random.default_rng(np.random.SeedSequence((seed, chunk)))
        keys = rng.random((10_000, 52))[:n]
        out[start : start + n] = np.sort(np.argsort(keys, axis=1)[:, :13], axis=1)
    return out


@dataclass(frozen=True, eq=False)
class OpponentPool:
    """Pool hands arranged by one table key's policy: ``rows[i]`` (front, middle, back classes
    on the key's strength scale, ``wheel=lowest``), ``natural[i]`` (the natural it declares,
    0: none), and each hand's ranks per suit (``suit_columns[s, i]``, a 13-bit mask; a column
    per suit, so :func:`_fit_masks` reads each one straight through) for :func:`pool_weights`."""

    key: ChineseRules
    hands: npt.NDArray[np.int8]
    rows: npt.NDArray[np.int32]
    natural: npt.NDArray[np.int8]
    suit_columns: npt.NDArray[np.int16]

    @classmethod
    def of(cls, key: ChineseRules, hands: npt.ArrayLike, rows: npt.ArrayLike,
           natural: npt.ArrayLike) -> OpponentPool:  # fmt: skip
        """From arrays (the hands' suit masks are derived once per hands array and shared by
        every key's pool: ~1.3 MB per key in memory, plus 2.1 MB for the hands)."""
        h, masks = _shared_hands(np.asarray(hands, dtype=np.int8))
        r = np.ascontiguousarray(rows, dtype=np.int32)
        n = np.ascontiguousarray(natural, dtype=np.int8)
        for a in (r, n):
            a.setflags(write=False)
        return cls(table_key(key), h, r, n, masks)

    def natural_for(self, rules: ChineseRules) -> npt.NDArray[np.int8]:
        """The natural each pool hand declares under ``rules``: none under ``naturals=off``;
        the key's trained decisions under CP-11's four; under a list of the rule set's own
        (CP-15), the first listed natural the hand holds (an opponent declares any natural it
        holds, as :mod:`cpsolver.chinese.natural_rates` counts them), cached per list."""
        if not rules.naturals:
            return np.zeros_like(self.natural)
        if rules.natural_table is None:
            return self.natural
        cache: dict[object, npt.NDArray[np.int8]] = self.__dict__.setdefault("_listed", {})
        found = cache.get(rules.natural_table)
        if found is None:
            codes = K.natural_codes(self.hands, K.kernel_terms(rules).order)
            found = np.ascontiguousarray(codes, dtype=np.int8)
            found.setflags(write=False)
            cache[rules.natural_table] = found
        return found

    def rows_for(self, rules: ChineseRules) -> npt.NDArray[np.int32]:
        """The rows on ``rules``' strength scale (the ``wheel`` option moves wheel straights)."""
        if not rules.wheel_second_highest:
            return self.rows
        cached: npt.NDArray[np.int32] | None = self.__dict__.get("_rows_high")
        if cached is None:
            cached = np.ascontiguousarray(wheel_permutation()[self.rows], dtype=np.int32)
            cached.setflags(write=False)
            object.__setattr__(self, "_rows_high", cached)
        return cached


_HANDS: list[tuple[npt.NDArray[np.int8], npt.NDArray[np.int16]]] = []  # (hands, suit masks)


def _shared_hands(
    hands: npt.NDArray[np.int8],
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int16]]:
    """``hands`` and their per-suit rank masks, the arrays of an equal earlier call if any."""
    for known, masks in _HANDS:
        if known.shape == hands.shape and np.array_equal(known, hands):
            return known, masks
    h = np.ascontiguousarray(hands, dtype=np.int8)
    wide = h.astype(np.int64)
    masks64 = np.zeros((h.shape[0], 4), dtype=np.int64)
    for j in range(h.shape[1]):
        np.bitwise_or.at(masks64, (np.arange(h.shape[0]), wide[:, j] & 3), 1 << (wide[:, j] >> 2))
    masks = np.ascontiguousarray(masks64.T, dtype=np.int16)  # (4, hands)
    for a in (h, masks):
        a.setflags(write=False)
    _HANDS.append((h, masks))
    return h, masks


def build_pool(rules: ChineseRules, *, size: int = POOL_SIZE, seed: int = POOL_SEED,
               progress: bool = False) -> OpponentPool:  # fmt: skip
    """Arrange :func:`pool_hands` with the policy of ``rules``' table key (its shipped or
    trained model, card removal included: the rollouts' opponents)."""
    from cpsolver.chinese.training import play_policy  # the training stack, only to build

    key = table_key(rules)
    model = model_for(key)
    hands = pool_hands(size, seed)
    rows = np.empty((size, 3), dtype=np.int64)
    natural = np.empty(size, dtype=np.int64)
    start = time.perf_counter()
    for lo in range(0, size, CHUNK):
        hi = min(lo + CHUNK, size)
        rows[lo:hi], natural[lo:hi] = play_policy(hands[lo:hi], key, model)
        if progress:
            print(f"  {hi:,} / {size:,} hands, {time.perf_counter() - start:.0f} s",
                  file=sys.stderr, flush=True)  # fmt: skip
    return OpponentPool.of(key, hands, rows, natural)


def pool_filename(rules: ChineseRules) -> str:
    """``chinese-pool-<fingerprint of the table key>.npz`` (beside the key's tables)."""
    return f"chinese-pool-{table_key(rules).fingerprint()}.npz"


def _digest(*arrays: npt.NDArray[np.generic]) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(str(a.shape).encode())
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def save_pool(pool: OpponentPool, directory: str | Path, *, seed: int = POOL_SEED) -> Path:
    """Write the key's pool file (and the shared hands file when absent or different)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    hands_path = directory / HANDS_FILE
    hands = np.asarray(pool.hands, dtype=np.int8)
    if not hands_path.exists() or not np.array_equal(_load_hands(hands_path), hands):
        header = {"format": FORMAT, "seed": seed, "size": int(hands.shape[0]),
                  "sha256": _digest(hands)}  # fmt: skip
        _write(hands_path, header, hands=hands)
    rows = pool.rows.astype("<i2")
    natural = pool.natural.astype("<i1")
    header = {
        "format": FORMAT,
        "fingerprint": pool.key.fingerprint(),
        "rules": pool.key.to_dict(),
        "hands_sha256": _digest(hands),
        "sha256": _digest(rows, natural),
    }
    path = directory / pool_filename(pool.key)
    _write(path, header, rows=rows, natural=natural)
    return path


def _write(path: Path, header: dict[str, object], **arrays: npt.NDArray[np.generic]) -> None:
    raw = np.frombuffer(json.dumps(header, sort_keys=True).encode(), dtype=np.uint8)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, header=raw, **arrays)  # type: ignore[arg-type]
    tmp.replace(path)


def _read(path: Path) -> tuple[dict[str, object], dict[str, np.ndarray]]:
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(bytes(data["header"]).decode())
            arrays = {k: np.array(data[k]) for k in data.files if k != "header"}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, UnicodeDecodeError) as exc:
        raise TablesError(f"{path}: not a readable pool file ({exc})") from exc
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise TablesError(f"{path}: not a {FORMAT} file")
    return header, arrays


def _load_hands(path: Path) -> npt.NDArray[np.int8]:
    header, arrays = _read(path)
    hands = arrays.get("hands")
    if hands is None or hands.ndim != 2 or hands.shape[1] != 13:
        raise TablesError(f"{path}: missing or malformed hands")
    if header.get("sha256") != _digest(hands.astype(np.int8)):
        raise TablesError(f"{path}: checksum mismatch, the file is damaged")
    return hands.astype(np.int8)


_POOLS: dict[str, OpponentPool] = {}  # per table key fingerprint


def preload() -> int:
    """Read every shipped key's pool that the search path holds (a server worker's warm-up,
    so its memory does not creep up as rule sets arrive); returns how many."""
    count = 0
    for key in shipped_keys():
        try:
            pool = pool_for(key)
        except MissingTablesError:
            continue
        # Its rows on the other strength scale too (~1.2 MB; rule sets of either ``wheel``
        # share the key's pool): made now, not by the first such call.
        pool.rows_for(key.replace(wheel="second_highest"))
        count += 1
    return count


def pool_for(rules: ChineseRules) -> OpponentPool:
    """The pool of ``rules``' table key, read once per process from the table search path
    (:func:`cpsolver.chinese.ev_model.table_search_path`); :class:`MissingTablesError` when
    no directory has one, :class:`TablesError` naming a damaged file."""
    key = table_key(rules)
    fp = key.fingerprint()
    if fp in _POOLS:
        return _POOLS[fp]
    name = pool_filename(key)
    for directory in table_search_path():
        path = directory / name
        if path.exists():
            break
    else:
        stand_in = stand_in_key(key)
        if stand_in != key:  # the nearest trained key's pool (ev_model: stand-in tables)
            pool = _POOLS[fp] = pool_for(stand_in)
            return pool
        raise MissingTablesError(
            "calibrated",
            f"no opponent pool for [{key.describe()}] ({name}): `make pools` (python -m "
            "cpsolver.chinese.pool) builds every key's",
        )
    header, arrays = _read(path)
    rows, natural = arrays.get("rows"), arrays.get("natural")
    if rows is None or natural is None or header.get("sha256") != _digest(rows, natural):
        raise TablesError(f"{path}: checksum mismatch or missing arrays, the file is damaged")
    hands = _load_hands(path.parent / HANDS_FILE)
    if header.get("hands_sha256") != _digest(hands) or hands.shape[0] != rows.shape[0]:
        raise TablesError(f"{path}: made for other pool hands than {path.parent / HANDS_FILE}")
    pool = OpponentPool.of(key, hands, rows, natural)
    _POOLS[fp] = pool
    return pool


SUIT_PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)
"""The 24 relabellings of the suits."""


@functools.cache
def _fitting_permutations() -> npt.NDArray[np.uint8]:
    """``table[m]``: how many of the 24 relabellings ``s`` have bit ``4 * t + s[t]`` set in the
    16-bit mask ``m`` for every suit ``t`` (bit ``4 * t + u`` of a hand's mask: its ranks of suit
    ``t`` are all free in suit ``u``). One lookup replaces up to 96 subset tests per hand (bytes:
    the 64 KB table stays in cache)."""
    masks = np.arange(1 << 16, dtype=np.int64)
    table = np.zeros(1 << 16, dtype=np.uint8)
    for perm in SUIT_PERMUTATIONS:
        need = sum(1 << (4 * t + int(u)) for t, u in enumerate(perm))
        table += (masks & need) == need
    return table


_SHARES: npt.NDArray[np.float64] = np.arange(25, dtype=np.float64) / 24.0
"""``_SHARES[n]``: the weight of a hand that ``n`` of the 24 relabellings fit."""


@njit(cache=True, nogil=True)
def _fit_masks(
    suit_columns: npt.NDArray[np.int16],
    held: npt.NDArray[np.int16],
    lo: int,
    masks: npt.NDArray[np.uint16],
) -> None:  # pragma: no cover - compiled
    """``masks[i]``, bit ``4 * t + u``: pool hand ``lo + i``'s ranks of suit ``t`` are all
    free (unseen) in suit ``u``, i.e. none of them is among ``held[u]``, the ranks we hold in
    suit ``u``. Four passes, one down each suit's column, each testing it against the four
    suits we hold at once (four bits, ``or``-ed in; the first pass writes, so no zeroing
    pass): vector instructions (16-bit lanes), 2.6 times faster than four table lookups per
    hand, and 2.3 times faster again than sixteen passes, one per pair of suits, which read
    every column four times (docs/BENCHMARKS.md)."""
    n = masks.shape[0]
    h0, h1, h2, h3 = held[0], held[1], held[2], held[3]
    for t in range(4):
        column = suit_columns[t, lo : lo + n]
        b0 = np.uint16(1 << (4 * t))
        b1 = np.uint16(1 << (4 * t + 1))
        b2 = np.uint16(1 << (4 * t + 2))
        b3 = np.uint16(1 << (4 * t + 3))
        for i in range(n):
            c = column[i]
            bits = (
                b0 * np.uint16((c & h0) == 0)
                | b1 * np.uint16((c & h1) == 0)
                | b2 * np.uint16((c & h2) == 0)
                | b3 * np.uint16((c & h3) == 0)
            )
            masks[i] = bits if t == 0 else masks[i] | bits


@njit(cache=True, nogil=True)
def _weights(
    suit_columns: npt.NDArray[np.int16],
    held: npt.NDArray[np.int16],
    fitting: npt.NDArray[np.uint8],
    shares: npt.NDArray[np.float64],
    out: npt.NDArray[np.float64],
) -> None:  # pragma: no cover - compiled
    """``out[i]``: the share of the suit permutations ``s`` under which pool hand ``i``'s ranks
    of each suit ``t`` are all free (unseen) in suit ``s[t]`` (module doc): the 16 suit-to-suit
    subset tests as one mask (:func:`_fit_masks`), counted by the ``fitting`` table
    (:func:`_fitting_permutations`)."""
    masks = np.empty(suit_columns.shape[1], dtype=np.uint16)
    _fit_masks(suit_columns, held, 0, masks)
    for i in range(masks.shape[0]):
        out[i] = shares[fitting[masks[i]]]


def _held_ranks(hand: npt.NDArray[np.int8]) -> npt.NDArray[np.int16]:
    """Per suit, the 13-bit set of the ranks we hold (``hand``: kernel card indices)."""
    held = [0, 0, 0, 0]
    for c in hand.tolist():  # Python ints: a loop over numpy scalars costs ten times more
        held[c & 3] |= 1 << (c >> 2)
    return np.array(held, dtype=np.int16)


def pool_weights(pool: OpponentPool, cards: CardsLike) -> npt.NDArray[np.float64]:
    """Each pool hand's weight for our 13 ``cards`` (module doc).

    >>> from cpsolver.rules.chinese import ChineseRules, Sweep
    >>> w = pool_weights(pool_for(ChineseRules()), "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h")
    >>> float(w.min()), float(w.max()) <= 1.0, round(float((w > 0).mean()), 2)
    (0.0, True, 0.22)
    """
    _, hand = hand_array(cards)
    out = np.empty(pool.hands.shape[0])
    fitting = _fitting_permutations()  # built on first use
    _weights(pool.suit_columns, _held_ranks(hand), fitting, _SHARES, out)
    return out


@njit(cache=True, nogil=True)
def _rescore_pairs(
    weights: npt.NDArray[np.float64],
    cand_rows: IntArray,
    cand_nat: IntArray,
    opp_rows: npt.NDArray[np.int32],
    opp_nat: npt.NDArray[np.int8],
    values: npt.NDArray[np.float64],
    scoring: int,
    natural_units: npt.NDArray[np.float64],
    sums: npt.NDArray[np.float64],
    odds: npt.NDArray[np.float64],
) -> None:  # pragma: no cover - compiled
    """One pass over the pool: ``sums[k] = (sum w, sum w*u, sum w*u^2, sum w^2)`` of candidate
    ``k``'s units ``u`` against each pool hand, and ``odds[k, r] = (sum w over hands that play
    rows, sum w where ours wins row r, sum w where it ties)``. Hands of weight 0 (a profile the
    unseen cards cannot deal) are skipped.

    ``u`` is :func:`cpsolver.chinese.ev_kernel.settle_pair`'s (nobody fouls) written out, on
    the weighted hands gathered once (weight, natural, rows, what each row collects when it
    wins), candidate by candidate: each sum adds the same terms in the same (pool) order as a
    call per pair would, so the results are equal to the bit (tests/test_pool.py; ``sums`` and
    ``odds`` come in as zeros). The sums that do not depend on the candidate are made once, and
    a row's odds once per class among the candidates.

    The rows' outcomes are unpredictable, and branches on them (or selects, which the compiler
    turns into branches) cost more than the arithmetic: they are taken as 0/1 integers and
    enter the sums through ``one[c]`` (0.0 or 1.0) factors instead, which changes no sum: the
    terms are >= 0, so a product by 0.0 is +0.0, and adding +0.0 leaves a sum that is not -0.0
    (none is: they start at +0.0 and x - x is +0.0) as it is."""
    n = weights.shape[0]
    kept = np.empty(n, dtype=np.int64)
    count = np.int64(0)
    for j in range(n):  # the weighted hands, in pool order (written always, kept if w > 0)
        kept[count] = j
        count += np.int64(weights[j] != 0.0)
    w = np.empty(count)
    nat = np.empty(count, dtype=np.int64)
    rows = np.empty((3, count), dtype=np.int64)  # rows[r, i]: hand i's row r
    paid = np.empty((3, count))  # values[r, rows[r, i]]: what the hand's row r collects
    played = np.empty(count)  # w, or 0 for a hand that declares a natural
    total = 0.0  # the sums that do not depend on the candidate
    squares = 0.0
    plays = 0.0
    for i in range(count):
        j = kept[i]
        w[i] = weights[j]
        nat[i] = opp_nat[j]
        for r in range(3):
            rows[r, i] = opp_rows[j, r]
            paid[r, i] = values[r, opp_rows[j, r]]
        total += w[i]
        squares += w[i] * w[i]
        played[i] = w[i] if nat[i] == 0 else 0.0
        if nat[i] == 0:
            plays += w[i]
    one = np.array([0.0, 1.0])
    step = np.array([-1.0, -1.0, -1.0, 0.0, 1.0, 1.0, 1.0])  # two_four's point by won - lost
    for k in range(cand_rows.shape[0]):
        a0, a1, a2 = cand_rows[k, 0], cand_rows[k, 1], cand_rows[k, 2]
        pa0, pa1, pa2 = values[0, a0], values[1, a1], values[2, a2]
        ours = cand_nat[k]
        first = 0.0
        second = 0.0
        if ours > 0:  # settle_pair's naturals: ours against theirs, or against rows
            for i in range(count):
                theirs = nat[i]
                if theirs == 0 or ours < theirs:
                    u = natural_units[ours]
                elif ours == theirs:
                    u = 0.0
                else:
                    u = -natural_units[theirs]
                first += w[i] * u
                second += w[i] * u * u
        else:
            for i in range(count):
                if nat[i] > 0:  # theirs against our rows
                    u = -natural_units[nat[i]]
                else:
                    b0, b1, b2 = rows[0, i], rows[1, i], rows[2, i]
                    g0, g1, g2 = np.int64(a0 > b0), np.int64(a1 > b1), np.int64(a2 > b2)
                    l0, l1, l2 = np.int64(b0 > a0), np.int64(b1 > a1), np.int64(b2 > a2)
                    units_a = pa0 * one[g0] + pa1 * one[g1]
                    units_a += pa2 * one[g2]
                    units_b = paid[0, i] * one[l0] + paid[1, i] * one[l1]
                    units_b += paid[2, i] * one[l2]
                    u = units_a - units_b
                    if scoring == K.MODE_TWO_FOUR:
                        u += step[g0 + g1 + g2 - l0 - l1 - l2 + 3]
                    elif scoring == K.MODE_SCOOP:
                        u += units_a * one[np.int64(g0 + g1 + g2 == 3)]
                        u -= units_b * one[np.int64(l0 + l1 + l2 == 3)]
                first += w[i] * u
                second += w[i] * u * u
        sums[k, 0] += total
        sums[k, 1] += first
        sums[k, 2] += second
        sums[k, 3] += squares
    # The rows' odds, against the hands that play rows: once per row class among the
    # candidates (rows[r, i] < a: ours wins), four classes per pass (independent sums).
    classes = np.empty((3 * cand_rows.shape[0], 2), dtype=np.int64)  # (row, class)
    which = np.empty((cand_rows.shape[0], 3), dtype=np.int64)  # index in classes
    found = 0
    for k in range(cand_rows.shape[0]):
        for r in range(3):
            which[k, r] = -1
            for e in range(found):
                if classes[e, 0] == r and classes[e, 1] == cand_rows[k, r]:
                    which[k, r] = e
                    break
            if which[k, r] < 0:
                classes[found, 0] = r
                classes[found, 1] = cand_rows[k, r]
                which[k, r] = found
                found += 1
    wins = np.zeros(found)
    ties = np.zeros(found)
    for e0 in range(0, found, 4):
        e1, e2, e3 = min(e0 + 1, found - 1), min(e0 + 2, found - 1), min(e0 + 3, found - 1)
        r0, r1, r2, r3 = classes[e0, 0], classes[e1, 0], classes[e2, 0], classes[e3, 0]
        c0, c1, c2, c3 = classes[e0, 1], classes[e1, 1], classes[e2, 1], classes[e3, 1]
        win0 = win1 = win2 = win3 = 0.0
        tie0 = tie1 = tie2 = tie3 = 0.0
        for i in range(count):
            p = played[i]
            b0, b1, b2, b3 = rows[r0, i], rows[r1, i], rows[r2, i], rows[r3, i]
            win0 += p * one[np.int64(c0 > b0)]
            tie0 += p * one[np.int64(c0 == b0)]
            win1 += p * one[np.int64(c1 > b1)]
            tie1 += p * one[np.int64(c1 == b1)]
            win2 += p * one[np.int64(c2 > b2)]
            tie2 += p * one[np.int64(c2 == b2)]
            win3 += p * one[np.int64(c3 > b3)]
            tie3 += p * one[np.int64(c3 == b3)]
        wins[e0], wins[e1], wins[e2], wins[e3] = win0, win1, win2, win3
        ties[e0], ties[e1], ties[e2], ties[e3] = tie0, tie1, tie2, tie3
    for k in range(cand_rows.shape[0]):
        for r in range(3):
            odds[k, r, 0] += plays
            odds[k, r, 1] += wins[which[k, r]]
            odds[k, r, 2] += ties[which[k, r]]


@njit(cache=True, nogil=True)
def _row_cells(
    cand_rows: IntArray, ncls: int
) -> tuple[npt.NDArray[np.int32], IntArray, IntArray]:  # pragma: no cover - compiled
    """The cells of :func:`_rescore_cells`: per row ``r``, the candidates' distinct classes
    ``t[0] < ... < t[q-1]`` cut the classes into ``2q + 1`` cells, ``2p + 1`` the class ``t[p]``
    itself and ``2p`` the classes between ``t[p-1]`` and ``t[p]``; returns ``lut[r, c]`` (class
    ``c``'s cell, times row ``r``'s stride among the cells of three rows), ``size[r]`` (``2q +
    1``) and ``level[k, r]`` (the cell of candidate ``k``'s own class: a class in a lower cell
    loses to it, in a higher one beats it)."""
    m = cand_rows.shape[0]
    lut = np.empty((3, ncls), dtype=np.int32)
    size = np.empty(3, dtype=np.int64)
    level = np.empty((m, 3), dtype=np.int64)
    cuts = [np.unique(cand_rows[:, r]) for r in range(3)]
    for r in range(3):
        ts = cuts[r]
        size[r] = 2 * ts.shape[0] + 1
        for k in range(m):  # a natural's rows (-1) included: no class below them
            level[k, r] = 2 * np.searchsorted(ts, cand_rows[k, r]) + 1
    # Premultiplied by the row's stride (a hand's cell is the sum of its rows' entries), and
    # filled a run of classes at a time: the classes from one cut to the next share a cell.
    stride = (size[1] * size[2], size[2], 1)
    for r in range(3):
        ts = cuts[r]
        q = ts.shape[0]
        lo = 0
        for p in range(q):
            t = ts[p]
            if t >= 0:  # a natural's -1 is below every class: it only shifts the cells
                lut[r, lo:t] = 2 * p * stride[r]
                lut[r, t] = (2 * p + 1) * stride[r]
                lo = t + 1
        lut[r, lo:] = 2 * q * stride[r]
    return lut, size, level


@njit(cache=True, nogil=True)
def _rescore_cells(
    suit_columns: npt.NDArray[np.int16],
    held: npt.NDArray[np.int16],
    fitting: npt.NDArray[np.uint8],
    shares: npt.NDArray[np.float64],
    cand_rows: IntArray,
    cand_nat: IntArray,
    opp_rows: npt.NDArray[np.int32],
    opp_nat: npt.NDArray[np.int8],
    values: npt.NDArray[np.float64],
    scoring: int,
    natural_units: npt.NDArray[np.float64],
    first: int,
    enough: float,
    sums: npt.NDArray[np.float64],
    odds: npt.NDArray[np.float64],
) -> int:  # pragma: no cover - compiled
    """:func:`_rescore_pairs`' ``sums`` and ``odds`` (the same algebra, summed in another
    order: equal up to rounding, tests/test_pool.py), with the weights (:func:`_weights`) made
    in the same pass, without a loop over (candidate, pool hand) pairs; over the pool's first
    ``first`` hands, and over all of them unless those decide (:func:`_first_pass_decides`:
    the best candidate's 95% half-width at most ``enough`` units per opponent, :data:`ENOUGH`,
    and its lead over the next at least as wide). Returns the pool hands summed.

    Against a candidate, a pool hand's rows only matter through where each row's class falls
    among the candidates' classes of that row (:func:`_row_cells`): the cell triple fixes which
    rows win, tie and lose against *every* candidate. So the pass over the pool adds each
    weighted hand that plays rows into its cell's sums of ``w``, ``w * p_r`` and ``w * p_r *
    p_s`` (``p_r``: what its row ``r`` collects when it wins), and each candidate then reads the
    non-empty cells (hundreds to a few thousand, against ~20,000 weighted hands): with ``u = C -
    D * B`` in a cell (``C``: our rows' units with the majority point or the scoop, ``B``: the
    sum of ``p_r`` over the rows we lose, ``D``: 2 when they scoop us, else 1), ``sum w u =
    C S_w - D S_B`` and ``sum w u^2 = C^2 S_w - 2 C D S_B + D^2 S_BB``. Hands that declare a
    natural are summed by natural; the odds come from each row's cell marginals. Where the time
    goes (docs/BENCHMARKS.md): the weights' pass over the pool, then the weighted hands added
    into their cells; the candidates' part is a few microseconds."""
    lut, size, level = _row_cells(cand_rows, values.shape[1])
    ncells = size[0] * size[1] * size[2]
    acc = np.zeros((ncells, 10))  # w, w p_r (3), w p_r^2 (3), w p_0 p_1, w p_0 p_2, w p_1 p_2
    by_natural = np.zeros(128)  # sum w of the hands that declare natural t
    totals = np.zeros(2)  # sum w, sum w^2
    n = int(suit_columns.shape[1])
    first = min(max(first, 0), n)
    _add_cells(suit_columns, held, fitting, shares, opp_rows, opp_nat, values, lut, 0, first,
               acc, by_natural, totals)  # fmt: skip
    if first < n:
        # The first candidate's level first (a few microseconds; under standard's three
        # opponents it is too wide on ~99 hands in 100), then every candidate's and the lead.
        _settle_cells(cand_rows[:1], cand_nat[:1], values, scoring, natural_units, size,
                      level[:1], acc, by_natural, totals, sums[:1], odds[:1])  # fmt: skip
        if _half_width(sums[0]) <= enough:
            _settle_cells(cand_rows, cand_nat, values, scoring, natural_units, size, level,
                          acc, by_natural, totals, sums, odds)  # fmt: skip
            if _first_pass_decides(cand_rows, cand_nat, values, scoring, size, level, acc,
                                   sums, enough):  # fmt: skip
                return first
        _add_cells(suit_columns, held, fitting, shares, opp_rows, opp_nat, values, lut, first, n,
                   acc, by_natural, totals)  # fmt: skip
    _settle_cells(cand_rows, cand_nat, values, scoring, natural_units, size, level, acc,
                  by_natural, totals, sums, odds)  # fmt: skip
    return n


@njit(cache=True, nogil=True)
def _half_width(sums: npt.NDArray[np.float64]) -> float:  # pragma: no cover - compiled
    """The 95% half-width of one pairing's mean from a candidate's ``sums`` (:func:`calibrate`'s
    interval, per opponent): ``1.96 * sd / sqrt(Kish's effective size)``."""
    total, moment, second, squares = sums[0], sums[1], sums[2], sums[3]
    if total <= 0:
        return np.inf
    mean = moment / total
    return 1.96 * math.sqrt(max(second / total - mean * mean, 0.0) * squares) / float(total)


@njit(cache=True, nogil=True)
def _first_pass_decides(
    cand_rows: IntArray,
    cand_nat: IntArray,
    values: npt.NDArray[np.float64],
    scoring: int,
    size: IntArray,
    level: IntArray,
    acc: npt.NDArray[np.float64],
    sums: npt.NDArray[np.float64],
    enough: float,
) -> bool:  # pragma: no cover - compiled
    """Whether the first pass's ``sums`` are enough (:func:`_rescore_cells`): the best
    candidate's 95% half-width at most ``enough`` (the level, for the calibration), and its lead
    over the next best more than twice the 95% half-width of that lead (the choice). The lead's
    own noise is far below the level's (the same pool hands meet both candidates), worked out
    here from the cells as the level's is: per cell, the difference of the two pairings is
    ``dC - (D_b B_b - D_r B_r)``, its square's weighted sum read from the cell's sums of ``w``,
    ``w p_r`` and ``w p_r p_s``. A natural declaration among the two: never enough."""
    total, squares = sums[0, 0], sums[0, 3]
    if total <= 0:
        return False
    best = 0
    for k in range(1, sums.shape[0]):
        if sums[k, 1] > sums[best, 1]:
            best = k
    if _half_width(sums[best]) > enough:
        return False
    runner = -1
    for k in range(sums.shape[0]):
        if k != best and (runner < 0 or sums[k, 1] > sums[runner, 1]):
            runner = k
    if runner < 0:  # one candidate: nothing to choose
        return True
    if cand_nat[best] > 0 or cand_nat[runner] > 0:
        return False
    s1, s2 = size[1], size[2]
    both = (best, runner)
    cc = np.zeros(2)
    dd = np.zeros(2)
    lost = np.zeros((2, 3), dtype=np.bool_)
    d2 = 0.0
    for e in range(acc.shape[0]):
        s_w = acc[e, 0]
        if s_w == 0.0:
            continue
        cell = (e // (s1 * s2), (e // s2) % s1, e % s2)
        for j in range(2):
            k = both[j]
            for r in range(3):
                lost[j, r] = cell[r] > level[k, r]
            cc[j], dd[j] = _cell_units(
                cell[0] < level[k, 0], cell[1] < level[k, 1], cell[2] < level[k, 2],
                lost[j, 0], lost[j, 1], lost[j, 2], values[0, cand_rows[k, 0]],
                values[1, cand_rows[k, 1]], values[2, cand_rows[k, 2]], scoring,
            )  # fmt: skip
        delta = cc[0] - cc[1]
        s_b = 0.0  # sum w (D_b B_b - D_r B_r), then its square's sum
        for r in range(3):
            coef = dd[0] * lost[0, r] - dd[1] * lost[1, r]
            s_b += coef * acc[e, 1 + r]
        s_bb = 0.0
        for r in range(3):
            cr = dd[0] * lost[0, r] - dd[1] * lost[1, r]
            if cr == 0.0:
                continue
            s_bb += cr * cr * acc[e, 4 + r]
            for t in range(r + 1, 3):
                ct = dd[0] * lost[0, t] - dd[1] * lost[1, t]
                if ct != 0.0:
                    s_bb += 2.0 * cr * ct * acc[e, 6 + r + t]  # (0,1) 7, (0,2) 8, (1,2) 9
        d2 += delta * delta * s_w - 2.0 * delta * s_b + s_bb
    lead = (sums[best, 1] - sums[runner, 1]) / total
    half = 1.96 * math.sqrt(max(d2 / total - lead * lead, 0.0) * squares) / total
    return bool(lead > 2.0 * half)


@njit(cache=True, nogil=True)
def _weighted_hands(
    suit_columns: npt.NDArray[np.int16],
    held: npt.NDArray[np.int16],
    fitting: npt.NDArray[np.uint8],
    lo: int,
    hi: int,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint8], int]:  # pragma: no cover - compiled
    """Of pool hands ``lo`` to ``hi``, the ``count`` that carry weight for our ``held`` ranks:
    ``kept[:count]`` their indices, in pool order, and ``fit[:count]`` how many suit
    relabellings fit each (the weight is ``shares[fit]``, :func:`_weights`)."""
    n = hi - lo
    masks = np.empty(n, dtype=np.uint16)
    _fit_masks(suit_columns, held, lo, masks)
    kept = np.empty(n, dtype=np.int32)  # the weighted hands, in pool order: a branch on the
    fit = np.empty(n, dtype=np.uint8)  # weight per hand would be mispredicted, a write is not
    count = 0
    for j in range(n):
        f = fitting[masks[j]]
        kept[count] = lo + j
        fit[count] = f
        count += int(f != 0)
    return kept, fit, count


@njit(cache=True, nogil=True)
def _add_cells(
    suit_columns: npt.NDArray[np.int16],
    held: npt.NDArray[np.int16],
    fitting: npt.NDArray[np.uint8],
    shares: npt.NDArray[np.float64],
    opp_rows: npt.NDArray[np.int32],
    opp_nat: npt.NDArray[np.int8],
    values: npt.NDArray[np.float64],
    lut: npt.NDArray[np.int32],
    lo: int,
    hi: int,
    acc: npt.NDArray[np.float64],
    by_natural: npt.NDArray[np.float64],
    totals: npt.NDArray[np.float64],
) -> None:  # pragma: no cover - compiled
    """:func:`_rescore_cells`' pass over pool hands ``lo`` to ``hi``: each weighted hand added
    into its cell (or its natural's sum), ``totals`` its weight and squared weight."""
    kept, fit, count = _weighted_hands(suit_columns, held, fitting, lo, hi)
    total = 0.0
    squares = 0.0
    for h in range(count):
        i = kept[h]
        w = shares[fit[h]]
        total += w
        squares += w * w
        t = opp_nat[i]
        if t > 0:
            by_natural[t] += w
            continue
        b0, b1, b2 = opp_rows[i, 0], opp_rows[i, 1], opp_rows[i, 2]
        cell = np.int64(lut[0, b0]) + np.int64(lut[1, b1]) + np.int64(lut[2, b2])
        p0, p1, p2 = values[0, b0], values[1, b1], values[2, b2]
        w0, w1, w2 = w * p0, w * p1, w * p2
        acc[cell, 0] += w
        acc[cell, 1] += w0
        acc[cell, 2] += w1
        acc[cell, 3] += w2
        acc[cell, 4] += w0 * p0
        acc[cell, 5] += w1 * p1
        acc[cell, 6] += w2 * p2
        acc[cell, 7] += w0 * p1
        acc[cell, 8] += w0 * p2
        acc[cell, 9] += w1 * p2
    totals[0] += total
    totals[1] += squares


@njit(cache=True, nogil=True)
def _cell_units(
    g0: bool,
    g1: bool,
    g2: bool,
    l0: bool,
    l1: bool,
    l2: bool,
    pa0: float,
    pa1: float,
    pa2: float,
    scoring: int,
) -> tuple[float, float]:  # pragma: no cover - compiled
    """A candidate's ``C, D`` in one cell (:func:`_rescore_cells`: its pairing there is ``C - D *
    B``): ``g_r`` / ``l_r`` whether it wins / loses row ``r`` against the cell's classes,
    ``pa_r`` what its row ``r`` collects when it wins. ``C``: the rows won, with two_four's
    majority point (+1 ahead, -1 behind) or scoop_double's doubling of a scoop; ``D``: 2 when
    scooped under scoop_double, else 1."""
    units = 0.0
    if g0:
        units += pa0
    if g1:
        units += pa1
    if g2:
        units += pa2
    big_c = units
    big_d = 1.0
    if scoring == K.MODE_TWO_FOUR:
        won = np.int64(g0) + np.int64(g1) + np.int64(g2)
        ahead = won - np.int64(l0) - np.int64(l1) - np.int64(l2)
        big_c += 1.0 if ahead > 0 else (-1.0 if ahead < 0 else 0.0)
    elif scoring == K.MODE_SCOOP:
        if g0 and g1 and g2:
            big_c += units
        if l0 and l1 and l2:
            big_d = 2.0
    return big_c, big_d


@njit(cache=True, nogil=True)
def _met_cells(
    size: IntArray, acc: npt.NDArray[np.float64]
) -> tuple[IntArray, npt.NDArray[np.float64], npt.NDArray[np.float64], float]:
    """The cells some weighted hand fell in, of ``acc`` (cells of ``size[0] x size[1] x
    size[2]``, :func:`_row_cells`): their coordinates, their sums (compacted, in cell order),
    each row's marginal sum of ``w`` per cell, and the sum of ``w`` over them all."""
    s1, s2 = size[1], size[2]
    met_cells = 0
    for e in range(acc.shape[0]):
        met_cells += int(acc[e, 0] != 0.0)
    cells = np.empty((met_cells, 3), dtype=np.int64)
    met = np.empty((met_cells, acc.shape[1]))
    marginal = np.zeros((3, max(size[0], max(s1, s2))))
    found = 0
    plays = 0.0
    for e in range(acc.shape[0]):
        if acc[e, 0] == 0.0:
            continue
        c0, c1, c2 = e // (s1 * s2), (e // s2) % s1, e % s2
        cells[found, 0], cells[found, 1], cells[found, 2] = c0, c1, c2
        met[found] = acc[e]
        marginal[0, c0] += acc[e, 0]
        marginal[1, c1] += acc[e, 0]
        marginal[2, c2] += acc[e, 0]
        plays += acc[e, 0]
        found += 1
    return cells, met, marginal, plays


@njit(cache=True, nogil=True)
def _settle_cells(
    cand_rows: IntArray,
    cand_nat: IntArray,
    values: npt.NDArray[np.float64],
    scoring: int,
    natural_units: npt.NDArray[np.float64],
    size: IntArray,
    level: IntArray,
    acc: npt.NDArray[np.float64],
    by_natural: npt.NDArray[np.float64],
    totals: npt.NDArray[np.float64],
    sums: npt.NDArray[np.float64],
    odds: npt.NDArray[np.float64],
) -> None:  # pragma: no cover - compiled
    """:func:`_rescore_cells`' candidates read from the cells summed so far (``acc`` is left
    as it is, so more hands may be added after): ``sums`` and ``odds`` overwritten."""
    cells, met, marginal, plays = _met_cells(size, acc)
    found = cells.shape[0]
    nu = np.zeros(128)  # natural_units by code (codes beyond the table count 0)
    for t in range(min(128, natural_units.shape[0])):
        nu[t] = natural_units[t]
    for k in range(cand_rows.shape[0]):
        ours = cand_nat[k]
        first = 0.0
        second = 0.0
        if ours > 0:  # settle_pair's naturals: ours against theirs, or against rows
            u = nu[ours]
            first += plays * u
            second += plays * u * u
            for t in range(1, 128):
                if by_natural[t] == 0.0:
                    continue
                u = nu[ours] if ours < t else (0.0 if ours == t else -nu[t])
                first += by_natural[t] * u
                second += by_natural[t] * u * u
        else:
            for t in range(1, 128):
                if by_natural[t] != 0.0:  # theirs against our rows
                    first -= by_natural[t] * nu[t]
                    second += by_natural[t] * nu[t] * nu[t]
            a0, a1, a2 = cand_rows[k, 0], cand_rows[k, 1], cand_rows[k, 2]
            pa0, pa1, pa2 = values[0, a0], values[1, a1], values[2, a2]
            v0, v1, v2 = level[k, 0], level[k, 1], level[k, 2]
            for e in range(found):
                c0, c1, c2 = cells[e, 0], cells[e, 1], cells[e, 2]
                g0, g1, g2 = c0 < v0, c1 < v1, c2 < v2
                l0, l1, l2 = c0 > v0, c1 > v1, c2 > v2
                big_c, big_d = _cell_units(g0, g1, g2, l0, l1, l2, pa0, pa1, pa2, scoring)
                s_b = 0.0
                s_bb = 0.0
                if l0:
                    s_b += met[e, 1]
                    s_bb += met[e, 4]
                if l1:
                    s_b += met[e, 2]
                    s_bb += met[e, 5]
                    if l0:
                        s_bb += 2.0 * met[e, 7]
                if l2:
                    s_b += met[e, 3]
                    s_bb += met[e, 6]
                    if l0:
                        s_bb += 2.0 * met[e, 8]
                    if l1:
                        s_bb += 2.0 * met[e, 9]
                s_w = met[e, 0]
                first += big_c * s_w - big_d * s_b
                second += big_c * big_c * s_w - 2.0 * big_c * big_d * s_b + big_d * big_d * s_bb
        sums[k, 0] = totals[0]
        sums[k, 1] = first
        sums[k, 2] = second
        sums[k, 3] = totals[1]
        for r in range(3):
            v = level[k, r]
            wins = 0.0
            for c in range(v):
                wins += marginal[r, c]
            odds[k, r, 0] = plays
            odds[k, r, 1] = wins
            odds[k, r, 2] = marginal[r, v]


@njit(cache=True, nogil=True)
def _rescore_terms(
    weights: npt.NDArray[np.float64],
    cand_rows: IntArray,
    cand_nat: IntArray,
    opp_rows: npt.NDArray[np.int32],
    opp_nat: IntArray,
    sweeps: npt.NDArray[np.float64],
    values: npt.NDArray[np.float64],
    always: npt.NDArray[np.float64],
    params: IntArray,
    natural_units: npt.NDArray[np.float64],
    sums: npt.NDArray[np.float64],
) -> None:  # pragma: no cover - compiled
    """:func:`_rescore_pairs`' sums under a rule set of RULES §2.5, each pairing settled by
    :func:`cpsolver.chinese.ev_kernel.settle_terms` (the one settlement's arrays): ``sums[k] =
    (sum w, sum w*u, sum w*u^2, sum w^2, sum w [we scoop], sum w*u [we scoop], sum w [they
    scoop us], sum w*u*c [they scoop us])``, the last four for the sweep (:func:`calibrate`;
    ``c = sweeps[j]``, pool hand ``j``'s chance of scooping the other opponents too:
    :func:`sweep_chances`). The reference :func:`pool_sums_terms` is tested against (it sums
    the same pairings by cells, ~5x faster)."""
    theirs = np.empty(3, dtype=np.int64)
    live = np.flatnonzero(weights)  # the weighted hands (10-25%), in order
    for k in range(cand_rows.shape[0]):
        a0, a1, a2 = cand_rows[k, 0], cand_rows[k, 1], cand_rows[k, 2]
        for j in live:
            w = weights[j]
            if cand_nat[k] == 0 and opp_nat[j] == 0:  # rows against rows: the common case
                u, scoop = K.settle_rows(
                    a0, a1, a2, opp_rows[j, 0], opp_rows[j, 1], opp_rows[j, 2], values, always,
                    params,
                )  # fmt: skip
            else:
                for r in range(3):
                    theirs[r] = opp_rows[j, r]
                u, scoop = K.settle_terms(
                    cand_rows[k], theirs, False, False, cand_nat[k], opp_nat[j], values,
                    always, params, natural_units,
                )  # fmt: skip
            sums[k, 0] += w
            sums[k, 1] += w * u
            sums[k, 2] += w * u * u
            sums[k, 3] += w * w
            if scoop == 1:
                sums[k, 4] += w
                sums[k, 5] += w * u
            elif scoop == -1:
                sums[k, 6] += w
                sums[k, 7] += w * u * sweeps[j]


def pool_sums_terms(
    pool: OpponentPool,
    rules: ChineseRules,
    hand: npt.NDArray[np.int8],
    rows: IntArray,
    codes: IntArray,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """:func:`_rescore_terms`' eight sums of each candidate (RULES 2.5's rule sets: the one
    settlement, its sweep terms) over the whole pool, and :func:`pool_sums`' odds, by the
    cells of :func:`_rescore_cells` (equal up to rounding: tests/test_pool.py). Each pairing's
    units are ``C - D * X`` in a cell: ``D`` the scoop rule's slope
    (:func:`cpsolver.chinese.ev_kernel.scoop_rule_affine`), ``C`` what the rows we win and our
    bonuses paid whatever happens (``bonus_paid=always``) bring after it, ``X`` what the pool
    hand takes back, the values of the rows it wins and its own bonuses paid whatever happens;
    so each cell keeps the sums of ``w``, ``w X``'s parts and their products, and of ``w c``
    (``c``: the hand's chance of sweeping the table, :func:`sweep_chances`) for the sweep's
    terms. Hands that declare a natural are settled once per natural."""
    full = np.zeros((rows.shape[0], 8))
    odds = np.zeros((rows.shape[0], 3, 3))
    terms = K.kernel_terms(rules)
    _rescore_cells_terms(
        pool.suit_columns, _held_ranks(hand), _fitting_permutations(), _SHARES, rows, codes,
        pool.rows_for(rules), pool.natural_for(rules), sweep_chances(rules, pool), *terms.args(),
        full, odds,
    )  # fmt: skip
    return full, odds


# The sums a cell of :func:`_rescore_cells_terms` keeps, by column: ``w``; ``w p_r`` (3);
# ``w p_r^2`` (3); ``w p_0 p_1``, ``w p_0 p_2``, ``w p_1 p_2``; ``w q``, ``w q^2``; ``w q p_r``
# (3); ``w c``; ``w c p_r`` (3); ``w c q`` (``p_r``: the value of the pool hand's row ``r``
# when it wins it; ``q``: its bonuses paid whatever happens; ``c``: its sweep chance).
_TERMS_COLUMNS = 20


@njit(cache=True, nogil=True)
def _rescore_cells_terms(
    suit_columns: npt.NDArray[np.int16],
    held: npt.NDArray[np.int16],
    fitting: npt.NDArray[np.uint8],
    shares: npt.NDArray[np.float64],
    cand_rows: IntArray,
    cand_nat: IntArray,
    opp_rows: npt.NDArray[np.int32],
    opp_nat: npt.NDArray[np.int8],
    sweeps: npt.NDArray[np.float64],
    values: npt.NDArray[np.float64],
    always: npt.NDArray[np.float64],
    params: IntArray,
    natural_units: npt.NDArray[np.float64],
    full: npt.NDArray[np.float64],
    odds: npt.NDArray[np.float64],
) -> None:  # pragma: no cover - compiled
    """:func:`pool_sums_terms`' kernel: the whole pool's weighted hands added into their
    cells, then each candidate read from the non-empty cells."""
    lut, size, level = _row_cells(cand_rows, values.shape[1])
    acc = np.zeros((size[0] * size[1] * size[2], _TERMS_COLUMNS))
    by_natural = np.zeros((128, 2))  # per natural code: sum w, sum w c
    kept, fit, count = _weighted_hands(suit_columns, held, fitting, 0, suit_columns.shape[1])
    total = 0.0
    squares = 0.0
    for h in range(count):
        i = kept[h]
        w = shares[fit[h]]
        total += w
        squares += w * w
        c = sweeps[i]
        t = opp_nat[i]
        if t > 0:
            by_natural[t, 0] += w
            by_natural[t, 1] += w * c
            continue
        b0, b1, b2 = opp_rows[i, 0], opp_rows[i, 1], opp_rows[i, 2]
        cell = np.int64(lut[0, b0]) + np.int64(lut[1, b1]) + np.int64(lut[2, b2])
        p0, p1, p2 = values[0, b0], values[1, b1], values[2, b2]
        q = always[0, b0] + always[1, b1] + always[2, b2]
        w0, w1, w2, wq, wc = w * p0, w * p1, w * p2, w * q, w * c
        acc[cell, 0] += w
        acc[cell, 1] += w0
        acc[cell, 2] += w1
        acc[cell, 3] += w2
        acc[cell, 4] += w0 * p0
        acc[cell, 5] += w1 * p1
        acc[cell, 6] += w2 * p2
        acc[cell, 7] += w0 * p1
        acc[cell, 8] += w0 * p2
        acc[cell, 9] += w1 * p2
        acc[cell, 10] += wq
        acc[cell, 11] += wq * q
        acc[cell, 12] += wq * p0
        acc[cell, 13] += wq * p1
        acc[cell, 14] += wq * p2
        acc[cell, 15] += wc
        acc[cell, 16] += wc * p0
        acc[cell, 17] += wc * p1
        acc[cell, 18] += wc * p2
        acc[cell, 19] += wc * q
    _settle_cells_terms(cand_rows, cand_nat, values, always, params, natural_units, size, level,
                        acc, by_natural, total, squares, full, odds)  # fmt: skip


@njit(cache=True, nogil=True)
def _settle_cells_terms(
    cand_rows: IntArray,
    cand_nat: IntArray,
    values: npt.NDArray[np.float64],
    always: npt.NDArray[np.float64],
    params: IntArray,
    natural_units: npt.NDArray[np.float64],
    size: IntArray,
    level: IntArray,
    acc: npt.NDArray[np.float64],
    by_natural: npt.NDArray[np.float64],
    total: float,
    squares: float,
    full: npt.NDArray[np.float64],
    odds: npt.NDArray[np.float64],
) -> None:  # pragma: no cover - compiled
    """:func:`_rescore_cells_terms`' candidates read from its cells (:func:`pool_sums_terms`'
    algebra): ``full`` and ``odds`` written."""
    cells, met, marginal, plays = _met_cells(size, acc)  # plays: sum w of those playing rows
    found = cells.shape[0]
    plays_c = 0.0  # and of w c
    for e in range(found):
        plays_c += met[e, 15]
    unread = np.zeros(3, dtype=np.int64)  # a natural's settlement reads no rows
    for k in range(cand_rows.shape[0]):
        ours = cand_nat[k]
        first = 0.0
        second = 0.0
        we_scoop = 0.0
        we_scoop_u = 0.0
        scooped = 0.0
        scooped_uc = 0.0
        for t in range(1, 128):  # against the hands that declare natural t: one settlement
            if by_natural[t, 0] == 0.0:
                continue
            u, scoop = K.settle_terms(unread, unread, False, False, ours, t, values, always,
                                      params, natural_units)  # fmt: skip
            first += by_natural[t, 0] * u
            second += by_natural[t, 0] * u * u
            if scoop == 1:
                we_scoop += by_natural[t, 0]
                we_scoop_u += by_natural[t, 0] * u
            elif scoop == -1:
                scooped += by_natural[t, 0]
                scooped_uc += by_natural[t, 1] * u
        if ours > 0:  # our natural against every hand that plays rows: one settlement
            u, scoop = K.settle_terms(unread, unread, False, False, ours, 0, values, always,
                                      params, natural_units)  # fmt: skip
            first += plays * u
            second += plays * u * u
            if scoop == 1:
                we_scoop += plays
                we_scoop_u += plays * u
            elif scoop == -1:
                scooped += plays
                scooped_uc += plays_c * u
        else:
            a0, a1, a2 = cand_rows[k, 0], cand_rows[k, 1], cand_rows[k, 2]
            pa0, pa1, pa2 = values[0, a0], values[1, a1], values[2, a2]
            own = always[0, a0] + always[1, a1] + always[2, a2]
            v0, v1, v2 = level[k, 0], level[k, 1], level[k, 2]
            for e in range(found):
                c0, c1, c2 = cells[e, 0], cells[e, 1], cells[e, 2]
                l0, l1, l2 = c0 > v0, c1 > v1, c2 > v2
                g0, g1, g2 = c0 < v0, c1 < v1, c2 < v2
                won = np.int64(g0) + np.int64(g1) + np.int64(g2)
                lost = np.int64(l0) + np.int64(l1) + np.int64(l2)
                scoop = 1 if won == 3 else (-1 if lost == 3 else 0)
                majority = 1 if won > lost else (-1 if lost > won else 0)
                slope, offset = K.scoop_rule_affine(scoop, majority, params)
                gained = own
                if g0:
                    gained += pa0
                if g1:
                    gained += pa1
                if g2:
                    gained += pa2
                big_c = slope * gained + offset
                # X = q + the values of the rows lost: its sum, its square's, and w c X's
                s_x = met[e, 10]
                s_xx = met[e, 11]
                s_cx = met[e, 19]
                if l0:
                    s_x += met[e, 1]
                    s_xx += met[e, 4] + 2.0 * met[e, 12]
                    s_cx += met[e, 16]
                if l1:
                    s_x += met[e, 2]
                    s_xx += met[e, 5] + 2.0 * met[e, 13]
                    s_cx += met[e, 17]
                    if l0:
                        s_xx += 2.0 * met[e, 7]
                if l2:
                    s_x += met[e, 3]
                    s_xx += met[e, 6] + 2.0 * met[e, 14]
                    s_cx += met[e, 18]
                    if l0:
                        s_xx += 2.0 * met[e, 8]
                    if l1:
                        s_xx += 2.0 * met[e, 9]
                s_w = met[e, 0]
                units = big_c * s_w - slope * s_x
                first += units
                second += big_c * big_c * s_w - 2.0 * big_c * slope * s_x + slope * slope * s_xx
                if scoop == 1:
                    we_scoop += s_w
                    we_scoop_u += units
                elif scoop == -1:
                    scooped += s_w
                    scooped_uc += big_c * met[e, 15] - slope * s_cx
        full[k, 0] = total
        full[k, 1] = first
        full[k, 2] = second
        full[k, 3] = squares
        full[k, 4] = we_scoop
        full[k, 5] = we_scoop_u
        full[k, 6] = scooped
        full[k, 7] = scooped_uc
        for r in range(3):
            v = level[k, r]
            wins = 0.0
            for c in range(v):
                wins += marginal[r, c]
            odds[k, r, 0] = plays
            odds[k, r, 1] = wins
            odds[k, r, 2] = marginal[r, v]


def pool_sums(
    pool: OpponentPool,
    rules: ChineseRules,
    hand: npt.NDArray[np.int8],
    rows: IntArray,
    codes: IntArray,
    *,
    reference: bool = False,
    whole: bool = False,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The pool's ``sums`` and ``odds`` of candidates (``rows``: their row classes, ``codes``:
    the natural each declares, 0 for none) for our 13 cards ``hand`` (kernel indices), CP-7..11's
    settlement (:func:`_rescore_pairs`' doc): by the cells of :func:`_rescore_cells`, over the
    pool's first :data:`FIRST_PASS` hands and then the rest unless the first candidate's 95%
    half-width is at most :data:`ENOUGH` units (``whole``: always every hand); or with
    ``reference`` by the loop over (candidate, weighted pool hand) pairs over every hand (the
    same values up to rounding; kept to test the cells against, and to time them)."""
    sums = np.zeros((rows.shape[0], 4))
    odds = np.zeros((rows.shape[0], 3, 3))
    args = (rows, codes, pool.rows_for(rules), pool.natural_for(rules), row_values_view(rules),
            kernel_mode(rules), K.NATURAL_UNITS)  # fmt: skip
    if reference:
        w = np.empty(pool.hands.shape[0])
        _weights(pool.suit_columns, _held_ranks(hand), _fitting_permutations(), _SHARES, w)
        _rescore_pairs(w, *args, sums, odds)
    else:
        fitting = _fitting_permutations()
        first = pool.hands.shape[0] if whole else FIRST_PASS
        _rescore_cells(pool.suit_columns, _held_ranks(hand), fitting, _SHARES, *args, first,
                       _enough(rules), sums, odds)  # fmt: skip
    return sums, odds


def _enough(rules: ChineseRules) -> float:
    """:data:`ENOUGH` per opponent (the kernels' sums are one pairing's)."""
    return ENOUGH / max(rules.players - 1, 1)


def calibrated_candidates(
    cards: CardsLike, rules: ChineseRules, *, keep: int = 1, model: OpponentModel | None = None
) -> list[Candidate]:
    """The candidates the ``calibrated`` estimator re-scores (:func:`calibrate`) for 13
    ``cards``: the table model's :data:`CALIBRATED_TOP` best splits (or ``keep``, if more) less
    those more than :data:`CALIBRATED_MARGIN` units below its best, but at least the ``keep``
    best, and the natural declaration when the hand has one.

    >>> from cpsolver.rules.chinese import ChineseRules
    >>> found = calibrated_candidates("As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h", ChineseRules())
    >>> 1 <= len(found) <= CALIBRATED_TOP, found[0].ev - found[-1].ev <= CALIBRATED_MARGIN
    (True, True)
    """
    return analyse(
        cards, rules, top=max(keep, CALIBRATED_TOP), model=model, within=CALIBRATED_MARGIN,
        keep=keep,
    )  # fmt: skip


def calibrated_candidates_many(
    hands: Sequence[CardsLike],
    rules: ChineseRules,
    *,
    keep: int = 1,
    model: OpponentModel | None = None,
) -> list[list[Candidate]]:
    """:func:`calibrated_candidates` of each of ``hands``, the same candidates, their scans in
    one GIL-free call (:func:`cpsolver.chinese.ev.analyse_many`)."""
    return analyse_many(
        hands, rules, top=max(keep, CALIBRATED_TOP), model=model, within=CALIBRATED_MARGIN,
        keep=keep,
    )  # fmt: skip


def calibrate(
    cards: CardsLike,
    rules: ChineseRules,
    candidates: list[Candidate],
    *,
    pool: OpponentPool | None = None,
    whole: bool = False,
) -> list[Candidate]:
    """``candidates`` re-scored against the weighted pool (module doc), best first (``whole``:
    every pool hand, not the first pass when it decides, :func:`pool_sums`): each gets
    the pool value and a 95% interval (the weighted standard error with Kish's effective sample
    size: about 9,000 hands of the 100,000, a quarter of that after the first pass alone) in its
    estimate fields (:meth:`Candidate.with_estimate`), and its per-row odds from the same
    weighted pool (against an opponent who plays rows)."""
    pool = pool or pool_for(rules)
    _, hand = hand_array(cards)
    codes = np.array(
        [natural_code(rules, c.natural) if c.natural else 0 for c in candidates], dtype=np.int64
    )
    rows = np.array([c.classes for c in candidates], dtype=np.int64).reshape(-1, 3)
    if is_legacy(rules):
        sums, odds = pool_sums(pool, rules, hand, rows, codes, whole=whole)
        sweep = np.zeros(len(candidates))
    else:  # the whole vocabulary: the one settlement's terms, over the whole pool
        full, odds = pool_sums_terms(pool, rules, hand, rows, codes)
        sums = full[:, :4]
        sweep = _sweep_terms(full, rules, pool)
    return _with_estimates(candidates, rules, sums, odds, sweep)


def _with_estimates(
    candidates: list[Candidate],
    rules: ChineseRules,
    sums: npt.NDArray[np.float64],
    odds: npt.NDArray[np.float64],
    sweep: npt.NDArray[np.float64],
) -> list[Candidate]:
    """:func:`calibrate`'s candidates from the pool's sums and odds, best first."""
    out = []
    all_odds = odds.tolist()
    # A row's pool odds depend on its class only: candidates that share a row share its odds.
    made: dict[tuple[int, int], RowOdds] = {}
    for i, (c, (value, half)) in enumerate(
        zip(candidates, _estimates(rules, sums, sweep), strict=True)
    ):
        shown = c.rows
        if c.natural is None and c.rows:
            shown = tuple(
                _pool_row_odds(made, r, c.classes[r], row, all_odds[i][r]) for r, row in
                enumerate(c.rows)
            )  # fmt: skip
        # c.with_estimate(value, half) with the pool's rows, in one construction (not two
        # dataclasses.replace calls: a batch makes ten of these a hand)
        out.append(Candidate(
            c.front, c.middle, c.back, c.natural, c.ev, c.classes, shown,
            rollout_ev=value, rollout_ci=(value - half, value + half), rollouts=0, hands=c.hands,
        ))  # fmt: skip
    return _best_first(out)


def _estimates(
    rules: ChineseRules, sums: npt.NDArray[np.float64], sweep: npt.NDArray[np.float64]
) -> list[tuple[float, float]]:
    """Each candidate's pool value and 95% half-width (:func:`calibrate`) from its ``sums``
    (sum of weights, of weighted units, of weighted squared units, of squared weights: one
    pairing's) and its ``sweep`` term."""
    opponents = rules.players - 1
    out = []
    for (total, first, second, squares), swept in zip(sums.tolist(), sweep.tolist(), strict=True):
        mean = first / total
        var = max(second / total - mean * mean, 0.0)
        ess = total * total / squares
        out.append((opponents * mean + swept, 1.96 * opponents * math.sqrt(var / ess)))
    return out


def _best_first(candidates: list[Candidate]) -> list[Candidate]:
    """``candidates`` by their re-scored value, best first; values within rounding of each
    other (1e-9 units: a split and its twin with two rows' cards exchanged often have the same
    value, which the sums reach by other roundings) keep the table model's order, the order
    they came in."""
    candidates.sort(key=lambda c: -round(c.score, 9))
    return candidates


def _with_estimates_drafted(
    ordered: tuple[Card, ...],
    drafts: Sequence[Draft],
    rules: ChineseRules,
    model: OpponentModel,
    sums: npt.NDArray[np.float64],
    odds: npt.NDArray[np.float64],
    sweep: npt.NDArray[np.float64],
) -> list[Candidate]:
    """:func:`_with_estimates` of the candidates ``drafts`` stand for (:func:`draft_many`'s, of
    the hand ``ordered``), made once, with the pool's odds: the same candidates, to the bit."""
    pool_odds: dict[tuple[int, int], tuple[float, float]] = {}
    for d, rows in zip(drafts, odds.tolist(), strict=True):
        if d.natural is None:  # a row's pool odds depend on its class only (the first's kept)
            for r in range(3):
                plays, win, tie = rows[r]
                pool_odds.setdefault((d.classes[r], r), (win / plays, tie / plays))

    def row_odds(row: int, cls: int) -> tuple[float, float]:
        return pool_odds[cls, row]

    estimates = _estimates(rules, sums, sweep)
    return _best_first(build_candidates(ordered, drafts, model, row_odds, estimates))


def _pool_row_odds(
    made: dict[tuple[int, int], RowOdds], r: int, cls: int, row: RowOdds, odds: list[float]
) -> RowOdds:
    """Row ``r`` (class ``cls``, the table model's ``row``) with the pool's ``odds`` (plays,
    wins, ties), made once per (row, class) in ``made``."""
    found = made.get((r, cls))
    if found is None:
        plays, win, tie = odds
        found = made[r, cls] = RowOdds(
            win / plays, tie / plays, max(0.0, 1 - win / plays - tie / plays), row.value,
            row.royalty,
        )  # fmt: skip
    return found


class CalibrationBatch:
    """The pool kernel's inputs and outputs for a batch of hands (13 :class:`Card` s each,
    with their candidates; CP-7..11's kernel, or under RULES 2.5's rule sets
    :func:`pool_sums_terms`'), packed as arrays:
    :meth:`run` (GIL-free, any thread) fills the sums of every hand, and :meth:`results` is
    then what :func:`calibrate` returns for each hand, to the bit."""

    def __init__(
        self,
        hands: Sequence[Sequence[Card]],
        rules: ChineseRules,
        candidates: Sequence[Sequence[Candidate | Draft]],
    ) -> None:
        pool = pool_for(rules)
        n, wide = len(hands), max((len(c) for c in candidates), default=1)
        held = np.zeros((n, 4), dtype=np.int16)
        rows = np.zeros((n, wide, 3), dtype=np.int64)
        codes = np.zeros((n, wide), dtype=np.int64)
        counts = np.array([len(c) for c in candidates], dtype=np.int64)
        for h, (cards, found) in enumerate(zip(hands, candidates, strict=True)):
            held[h] = _held_ranks(np.array([card.index for card in cards], dtype=np.int8))
            rows[h, : len(found)] = [c.classes for c in found]
            codes[h, : len(found)] = [
                natural_code(rules, c.natural) if c.natural else 0 for c in found
            ]
        self.size = n
        self.rules = rules
        self.hands = hands
        self.candidates = candidates
        self.legacy = is_legacy(rules)
        self.odds = np.zeros((n, wide, 3, 3))
        self._kernel: Callable[[], None]
        if self.legacy:
            self.sums = np.zeros((n, wide, 4))
            args = (pool.suit_columns, held, _fitting_permutations(), _SHARES, rows, codes,
                    counts, pool.rows_for(rules), pool.natural_for(rules), row_values_view(rules),
                    kernel_mode(rules), K.NATURAL_UNITS, FIRST_PASS, _enough(rules), self.sums,
                    self.odds)  # fmt: skip
            self._kernel = functools.partial(_rescore_cells_range, *args, 0, n)
        else:  # RULES 2.5: the one settlement's eight sums (pool_sums_terms)
            self.sums = np.zeros((n, wide, 8))
            shared = (pool.rows_for(rules), pool.natural_for(rules), sweep_chances(rules, pool),
                      *K.kernel_terms(rules).args())  # fmt: skip
            sums, odds, fitting = self.sums, self.odds, _fitting_permutations()

            def each_hand() -> None:
                # pool_sums_terms' kernel hand by hand (each call releases the GIL): the one
                # compiled kernel, not a batch copy of it compiled at start-up beside it
                for h, m in enumerate(counts.tolist()):
                    _rescore_cells_terms(
                        pool.suit_columns, held[h], fitting, _SHARES,
                        np.ascontiguousarray(rows[h, :m]), np.ascontiguousarray(codes[h, :m]),
                        *shared, sums[h, :m], odds[h, :m],
                    )  # fmt: skip

            self._kernel = each_hand
        self._pool = pool

    def run(self) -> None:
        """The pool kernel for every hand of the batch, in one call that releases the GIL."""
        self._kernel()

    def results(self) -> list[list[Candidate]]:
        """Each hand's candidates re-scored, best first (after :meth:`run`). Drafts
        (:func:`calibrated_drafts_many`'s, the hands given in ascending index order as it
        returns them) are made candidates here, once, with the pool's odds."""
        out = []
        model = None
        for h, c in enumerate(self.candidates):
            sums, odds = self.sums[h, : len(c)], self.odds[h, : len(c)]
            if self.legacy:
                sweep = np.zeros(len(c))
            else:
                sweep = _sweep_terms(sums, self.rules, self._pool)
                sums = sums[:, :4]
            if c and isinstance(c[0], Draft):
                model = model or model_for(self.rules)
                drafts = cast(Sequence[Draft], c)
                cards = tuple(self.hands[h])
                out.append(_with_estimates_drafted(cards, drafts, self.rules, model, sums, odds,
                                                   sweep))  # fmt: skip
            else:
                found = cast(list[Candidate], list(c))
                out.append(_with_estimates(found, self.rules, sums, odds, sweep))
        return out


def calibrate_hand(
    cards: CardsLike, rules: ChineseRules, *, keep: int = 1, model: OpponentModel | None = None
) -> list[Candidate]:
    """``calibrate(cards, rules, calibrated_candidates(cards, rules, keep=keep))``, the same
    candidates to the bit, each made once (drafted, re-scored, then made with the pool's odds:
    a :class:`CalibrationBatch` of one hand), ~0.04 ms sooner (docs/BENCHMARKS.md).

    >>> from cpsolver.rules.chinese import ChineseRules
    >>> hand, rules = "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h", ChineseRules()
    >>> calibrate_hand(hand, rules) == calibrate(hand, rules, calibrated_candidates(hand, rules))
    True
    """
    ((ordered, drafts),) = calibrated_drafts_many([cards], rules, keep=keep, model=model)
    batch = CalibrationBatch([ordered], rules, [drafts])
    batch.run()
    return batch.results()[0]


def calibrated_drafts_many(
    hands: Sequence[CardsLike],
    rules: ChineseRules,
    *,
    keep: int = 1,
    model: OpponentModel | None = None,
) -> list[tuple[tuple[Card, ...], list[Draft]]]:
    """:func:`calibrated_candidates_many` as drafts (:func:`cpsolver.chinese.ev.draft_many`),
    each hand's with its cards in ascending index order: what a :class:`CalibrationBatch`
    re-scores and makes candidates of once."""
    return draft_many(
        hands, rules, top=max(keep, CALIBRATED_TOP), model=model, within=CALIBRATED_MARGIN,
        keep=keep,
    )  # fmt: skip


def calibrate_many(
    hands: list[list[Card]],
    rules: ChineseRules,
    candidates: list[list[Candidate]],
) -> list[list[Candidate]]:
    """:func:`calibrate` for many hands (13 :class:`Card` s each, with their candidates): the
    same candidates, to the bit. The pool kernel runs for every hand first, in one call
    (:class:`CalibrationBatch`)."""
    if not hands:
        return []
    batch = CalibrationBatch(hands, rules, candidates)
    batch.run()
    return batch.results()


@njit(cache=True, nogil=True)
def _rescore_cells_range(
    suit_columns: npt.NDArray[np.int16],
    held: npt.NDArray[np.int16],
    fitting: npt.NDArray[np.uint8],
    shares: npt.NDArray[np.float64],
    cand_rows: npt.NDArray[np.int64],
    cand_nat: npt.NDArray[np.int64],
    counts: IntArray,
    opp_rows: npt.NDArray[np.int32],
    opp_nat: npt.NDArray[np.int8],
    values: npt.NDArray[np.float64],
    scoring: int,
    natural_units: npt.NDArray[np.float64],
    first: int,
    enough: float,
    sums: npt.NDArray[np.float64],
    odds: npt.NDArray[np.float64],
    lo: int,
    hi: int,
) -> None:  # pragma: no cover - compiled
    """:func:`_rescore_cells` for hands ``lo`` to ``hi`` of a batch (:func:`calibrate_many`):
    hand ``h``'s ``counts[h]`` candidates, ``held[h]`` its ranks per suit."""
    for h in range(lo, hi):
        m = counts[h]
        _rescore_cells(
            suit_columns, held[h], fitting, shares, np.ascontiguousarray(cand_rows[h, :m]),
            np.ascontiguousarray(cand_nat[h, :m]), opp_rows, opp_nat, values, scoring,
            natural_units, first, enough, sums[h, :m], odds[h, :m],
        )  # fmt: skip


def _sweep_terms(
    full: npt.NDArray[np.float64], rules: ChineseRules, pool: OpponentPool
) -> npt.NDArray[np.float64]:
    """What CP-13's sweep adds to each candidate at a table of 3 or 4 (``n`` opponents): every
    pairing doubled once more when we scoop all ``n`` (``n * E[u; we scoop] * P(we
    scoop)^(n - 1)``, the opponents independent given our cards), and an opponent's pairing
    with us doubled when it scoops us and the ``n - 1`` others (``n * E[u * c; it scoops us]``,
    ``c`` that pool hand's own chance of scooping ``n - 1`` random hands:
    :func:`sweep_chances`). Measured against 20,000-rollout simulations (docs/BENCHMARKS.md),
    the second is most of the error a table-wide rate for ``c`` made: who scoops *us* depends
    on our hand, and how often it scoops the others on its own."""
    n = rules.players - 1
    if rules.sweep is not Sweep.DOUBLE or n < 2:
        return np.zeros(full.shape[0])
    total = full[:, 0]
    p_scoop = full[:, 4] / total
    ours = full[:, 5] / total
    theirs = full[:, 7] / total
    return n * (ours * p_scoop ** (n - 1) + theirs)


SWEEP_SAMPLE = 2_000
"""Pool hands (every ``POOL_SIZE // SWEEP_SAMPLE``-th) each pool hand is settled against for
its scoop share (:func:`sweep_chances`): the share's noise is ~0.007, and it is averaged over
the thousands of hands that scoop a candidate."""


def sweep_chances(rules: ChineseRules, pool: OpponentPool) -> npt.NDArray[np.float64]:
    """Per pool hand ``j``, its chance of sweeping the table's other opponents once it has
    scooped us (CP-13, ``sweep=double``, ``n = players - 1`` opponents): ``r_j ** (n - 1)``,
    ``r_j`` the share of :data:`SWEEP_SAMPLE` pool hands that ``j`` scoops under ``rules``
    (both playing rows: every row won, CP-17; a natural: the one settlement,
    :func:`cpsolver.chinese.ev_kernel.settle_terms`, so ``naturals_scooped`` counts). The
    others are taken as independent random hands. Zeros without a sweep. Computed once per
    rule set and pool (~0.3 s; a server's warm-up calibrates every preset).

    >>> from cpsolver.rules.chinese import ChineseRules
    >>> rules = ChineseRules.preset("shisanshui")
    >>> c = sweep_chances(rules, pool_for(rules))
    >>> c.shape == (POOL_SIZE,), 0.0 <= float(c.min()) < 0.001, 0.2 < float(c.max()) <= 1.0
    (True, True, True)
    """
    return _sweep_chances(rules, pool)


@functools.lru_cache(maxsize=16)
def _sweep_chances(rules: ChineseRules, pool: OpponentPool) -> npt.NDArray[np.float64]:
    others = rules.players - 2
    size = pool.rows.shape[0]
    if rules.sweep is not Sweep.DOUBLE or others < 1:
        out = np.zeros(size)
    else:
        rows = np.ascontiguousarray(pool.rows_for(rules), dtype=np.int64)
        natural = pool.natural_for(rules).astype(np.int64)
        sample = np.arange(0, size, max(1, size // SWEEP_SAMPLE), dtype=np.int64)
        out = np.empty(size)
        _scoop_shares(rows, natural, sample, *K.kernel_terms(rules).args(), out)
        out **= others
    out.setflags(write=False)
    return out


@njit(cache=True, nogil=True)
def _scoop_shares(
    rows: IntArray,
    natural: IntArray,
    sample: IntArray,
    values: npt.NDArray[np.float64],
    always: npt.NDArray[np.float64],
    params: IntArray,
    natural_units: npt.NDArray[np.float64],
    out: npt.NDArray[np.float64],
) -> None:  # pragma: no cover - compiled
    """``out[j]``: the share of the ``sample`` hands that hand ``j`` scoops
    (:func:`sweep_chances`). A pairing in which either side declares a natural is settled by
    its naturals alone (``settle_terms`` reads no rows then), so those outcomes are settled
    once per pair of codes; rows against rows is ``settle_rows``' scoop, every row won."""
    codes = natural_units.shape[0]
    scoops = np.zeros((codes, codes), dtype=np.int64)  # [our code, their code], 0: rows
    for a in range(codes):
        for b in range(codes):
            if a > 0 or b > 0:
                _, scoop = K.settle_terms(
                    rows[0], rows[0], False, False, a, b, values, always, params, natural_units
                )  # fmt: skip
                scoops[a, b] = scoop == 1
    plays = sample[natural[sample] == 0]
    r0 = rows[plays, 0].copy()
    r1 = rows[plays, 1].copy()
    r2 = rows[plays, 2].copy()
    by_code = np.zeros(codes, dtype=np.int64)  # scoops of a hand declaring each code
    for a in range(codes):
        for k in sample:
            if natural[k] > 0 or a > 0:
                by_code[a] += scoops[a, natural[k]]
    m = sample.shape[0]
    for j in range(rows.shape[0]):
        if natural[j] > 0:
            out[j] = by_code[natural[j]] / m
            continue
        a0, a1, a2 = rows[j, 0], rows[j, 1], rows[j, 2]
        count = 0
        for k in range(r0.shape[0]):
            count += (a0 > r0[k]) & (a1 > r1[k]) & (a2 > r2[k])
        out[j] = (count + by_code[0]) / m


def main(argv: list[str] | None = None) -> int:
    """``python -m cpsolver.chinese.pool [--only N] [--out DIR]``: build the pools of every
    table key (``make pools``), from the tables the search path finds."""
    parser = argparse.ArgumentParser(description="Build the opponent pools (issue 14).")
    parser.add_argument("--out", type=Path, default=PACKAGE_DATA)
    parser.add_argument("--size", type=int, default=POOL_SIZE)
    parser.add_argument("--only", type=int, help="the first N keys only")
    parser.add_argument("--skip", type=int, default=0, help="skip the first N keys")
    args = parser.parse_args(argv)
    keys = shipped_keys()[args.skip :][: args.only]
    for key in keys:
        start = time.perf_counter()
        path = save_pool(build_pool(key, size=args.size, progress=True), args.out)
        print(f"{path.name}: {key.describe()} ({time.perf_counter() - start:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
