"""The arranger kernel (cpsolver.chinese.search): split tables, compiled == reference, CP-6."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.cards import Card
from cpsolver.chinese import search as S
from cpsolver.chinese.objectives import get_objective
from cpsolver.chinese.removal import RemovalModel
from cpsolver.evaluator.poker import NUM_CLASSES, poker_tables
from cpsolver.rules import ChineseRules

hands13 = st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True).map(
    lambda idx: [Card.from_index(i) for i in idx]
)


def test_split_tables_are_every_partition_once() -> None:
    """CP-2: the 36,036 splits are exactly the 72,072 (front, back, middle) partitions / 2."""
    assert S.NUM_SPLITS == 36_036 == 72_072 // 2
    seen = set()
    for f, a, b in zip(S.SPLIT_FRONT, S.SPLIT_A, S.SPLIT_B, strict=True):
        front, five_a, five_b = set(S.COMB3[f]), set(S.COMB5[a]), set(S.COMB5[b])
        assert front | five_a | five_b == set(range(13))
        assert len(front) + len(five_a) + len(five_b) == 13
        seen.add((frozenset(front), frozenset({frozenset(five_a), frozenset(five_b)})))
    assert len(seen) == S.NUM_SPLITS
    # The scan relies on splits being grouped by front, PAIRS_PER_FRONT at a time.
    assert np.array_equal(S.SPLIT_FRONT, np.repeat(np.arange(286), S.PAIRS_PER_FRONT))


@settings(max_examples=25, derandomize=True, deadline=None)
@given(hands13, st.booleans())
def test_subset_classes_match_evaluator(cards: list[Card], wheel: bool) -> None:
    """Kernel subset classes == cpsolver.evaluator.poker.strength on each subset (CP-3..CP-5)."""
    tables = poker_tables(wheel)
    cls5, cls3 = S.subset_classes(S.sorted_indices(cards), tables)
    ref5, ref3 = S.subset_classes_reference(cards, tables)
    assert np.array_equal(cls5, ref5)
    assert np.array_equal(cls3, ref3)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(hands13, st.sampled_from(["strength", "royalties"]), st.booleans(), st.booleans())
def test_compiled_search_matches_numpy_reference(
    cards: list[Card], objective: str, strict: bool, eastern: bool
) -> None:
    """Compiled scan == numpy reference: same best split, values and top-5 alternatives."""
    rules = ChineseRules.preset("eastern" if eastern else "standard")
    tables = get_objective(objective).row_tables(rules)
    cls5, cls3 = S.subset_classes(S.sorted_indices(cards), tables.poker)
    got = S.search_classes(cls5, cls3, tables, strict=strict, top_k=5)
    want = S.search_classes_reference(cls5, cls3, tables, strict=strict, top_k=5)
    assert got == want
    assert len(set(got.values)) == len(got.values)  # distinct values, best first
    assert list(got.values) == sorted(got.values, reverse=True)


@settings(max_examples=30, derandomize=True, deadline=None)
@given(hands13, st.booleans())
def test_valid_splits_are_exactly_the_unfouled_ones(cards: list[Card], strict: bool) -> None:
    """CP-6: valid_splits lists every split with back >= middle >= front (back > middle strict)."""
    tables = poker_tables()
    cls5, cls3 = S.subset_classes(S.sorted_indices(cards), tables)
    listed = S.valid_splits(cls5, cls3, strict=strict)
    expected = []
    for s in range(S.NUM_SPLITS):
        a, b, f = cls5[S.SPLIT_A[s]], cls5[S.SPLIT_B[s]], cls3[S.SPLIT_FRONT[s]]
        back, middle = max(a, b), min(a, b)
        if middle > f and (back > middle or not strict):
            expected.append((s, back, middle, f))
    assert [tuple(r) for r in listed.tolist()] == expected
    assert expected, "CP-6: every 13-card hand has a valid arrangement"


def test_batch_matches_single_hand_search() -> None:
    """search_batch (parallel) gives each hand the same best split as search."""
    rng = random.Random(7)
    hands = [sorted(rng.sample(range(52), 13)) for _ in range(40)]
    for strict in (False, True):
        tables = get_objective("royalties").row_tables(ChineseRules())
        batch = S.search_batch(np.array(hands), tables, strict=strict)
        for h, idx in enumerate(hands):
            one = S.search(np.array(idx), tables, strict=strict)
            assert batch.splits[h] == one.best
            assert batch.values[h] == one.values[0]
            assert tuple(batch.rows[h]) == one.rows[0]
            assert tuple(batch.classes[h]) == (one.back[0], one.middle[0], one.front[0])


@pytest.mark.parametrize("preset", ["standard", "two_four"])
def test_the_batch_top_scan_finds_what_the_one_hand_scan_finds(preset: str) -> None:
    """search_removal_batch_top (the calibrated batch's scans, one GIL-free call) gives each
    hand the splits, values, classes and row odds search_removal_classes gives it, best first;
    its first split is search_removal_batch's best."""
    from cpsolver.chinese.ev_model import kernel_pairing, model_for

    rules = ChineseRules.preset(preset)
    model = model_for(rules)
    mode, poker = kernel_pairing(model), poker_tables(rules.wheel_second_highest)
    rng = random.Random(17)
    hands = np.array([sorted(rng.sample(range(52), 13)) for _ in range(40)])
    top = S.search_removal_batch_top(hands, model.removal, poker, mode=mode, strict=True,
                                     top_k=10)  # fmt: skip
    best = S.search_removal_batch(hands, model.removal, poker, mode=mode, strict=True)
    assert np.array_equal(best.values, top.values[:, 0])
    for h, idx in enumerate(hands):
        cls5, cls3 = S.subset_classes(idx, poker)
        one, (prob, below, _, _) = S.search_removal_classes(
            idx, cls5, cls3, model.removal, mode=mode, strict=True, top_k=10
        )
        n = int(top.counts[h])
        assert n == len(one.values) == 10
        assert top.values[h, :n].tolist() == list(one.values)
        assert [tuple(r) for r in top.rows[h, :n].tolist()] == list(one.rows)
        assert top.classes[h, :n].tolist() == [
            list(c) for c in zip(one.back, one.middle, one.front, strict=True)
        ]
        for k, classes in enumerate(zip(one.front, one.middle, one.back, strict=True)):
            for row, cls in enumerate(classes):
                assert tuple(top.odds[h, k, row]) == model.removal.odds(row, cls, prob, below)


def test_tie_break_is_independent_of_input_order() -> None:
    """The documented tie-break depends on the card set only, not the order given."""
    rng = random.Random(3)
    tables = get_objective("strength").row_tables(ChineseRules())
    for _ in range(10):
        cards = [Card.from_index(i) for i in rng.sample(range(52), 13)]
        first = S.split_cards(cards, S.search(S.sorted_indices(cards), tables, strict=False).best)
        shuffled = cards[:]
        rng.shuffle(shuffled)
        again = S.search(S.sorted_indices(shuffled), tables, strict=False).best
        assert S.split_cards(shuffled, again) == first


def test_split_rows_puts_the_stronger_five_in_back() -> None:
    """CP-6: the row positions of a split put the stronger 5-card subset in the back."""
    cards = [Card.from_index(i) for i in range(0, 52, 4)]  # 2c .. Ac: thirteen ranks
    tables = poker_tables()
    cls5, _ = S.subset_classes(S.sorted_indices(cards), tables)
    for s in itertools.islice(range(S.NUM_SPLITS), 0, S.NUM_SPLITS, 997):
        back, middle, front = S.split_rows(cls5, s)
        assert (
            cls5[S.COMB5.tolist().index(list(back))] >= cls5[S.COMB5.tolist().index(list(middle))]
        )
        assert len(front) == 3


def test_warm_up_returns_elapsed_seconds() -> None:
    """warm_up loads the compiled kernels (idempotent) and says how long it took."""
    elapsed = S.warm_up()
    assert 0 <= elapsed < 120


@pytest.mark.parametrize("top_k", [1, 3])
def test_alternatives_are_never_fouled(top_k: int) -> None:
    """CP-6: every split the search reports, alternatives included, is valid."""
    rng = random.Random(11)
    tables = get_objective("strength").row_tables(ChineseRules())
    for _ in range(20):
        cards = [Card.from_index(i) for i in rng.sample(range(52), 13)]
        found = S.search(S.sorted_indices(cards), tables, strict=True, top_k=top_k)
        for b, m, f in zip(found.back, found.middle, found.front, strict=True):
            assert b > m > f


def test_warm_up_loads_the_batch_kernel_for_the_call_signature() -> None:
    """After warm_up, solve_many compiles nothing (no JIT on a first request)."""
    from cpsolver import solve_many

    S.warm_up()
    before = len(S._batch.signatures)
    assert before >= 1
    solve_many(["As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s", "2c 3c 4c 5c 6c 7d 8d 9d Td Jd Qh Kh Ah"])
    assert len(S._batch.signatures) == before


FORK_SCRIPT = """
import os
from cpsolver.chinese.search import warm_up
from cpsolver import solve_many
warm_up(parallel=False)
pid = os.fork()
if pid == 0:
    warm_up()
    solve_many(["As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"] * 4)
    os._exit(0)
_, status = os.waitpid(pid, 0)
raise SystemExit(os.waitstatus_to_exitcode(status))
"""


def test_a_worker_forked_after_serial_warm_up_can_solve_batches() -> None:
    """warm_up(parallel=False) before a fork leaves the batch kernel usable in the child."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", FORK_SCRIPT], timeout=300, check=False)
    assert done.returncode == 0


# The pairing scan skips a split whose additive upper bound cannot reach the values it holds
# (search._bound_terms). These check it against every split's value computed in full.

PAIRING_MODES = [
    # [kind, N, e, we, they]: each kind alone, each with a sweep at 3 and 4 players, a
    # negative bonus, and a negative sweep weight (where the scan must not prune at all).
    [S.PAIR_TWO_FOUR, 0, 0, 0, 0],
    [S.PAIR_SCOOP, 0, 0, 0, 0],
    [S.PAIR_SCOOP_BONUS, 3, 0, 0, 0],
    [S.PAIR_SCOOP_BONUS, -2, 0, 0, 0],
    [S.PAIR_ROWS, 0, 0, 0, 0],
    [S.PAIR_TWO_FOUR, 0, 1, 0.9, 0.2],
    [S.PAIR_SCOOP, 0, 2, 0.97, 0.12],
    [S.PAIR_SCOOP_BONUS, 3, 2, 0.8, 0.3],
    [S.PAIR_SCOOP_BONUS, -2, 1, 0.8, 0.3],
    [S.PAIR_ROWS, 0, 2, 0.95, 0.1],
    [S.PAIR_SCOOP, 0, 1, -0.5, 0.1],
]


def _random_removal(rng: np.random.Generator, negative: bool) -> RemovalModel:
    rows = rng.random((3, NUM_CLASSES)) ** 4  # skewed, as real row distributions are
    rows /= rows.sum(axis=1, keepdims=True)
    values = 1.0 + rng.integers(0, 3, (3, NUM_CLASSES)) * rng.random((3, NUM_CLASSES)) * 8
    if negative:  # bound terms for negative row values and paid amounts are exercised too
        values -= 2.5
    return RemovalModel.of(rows, values)


def _full_scan_top(
    splits: np.ndarray, values: np.ndarray, top_k: int
) -> tuple[list[int], list[float]]:
    """The best ``top_k`` distinct values of every split, each with the first split met."""
    first: dict[float, int] = {}
    for s, v in zip(splits[:, 0].tolist(), values.tolist(), strict=True):
        first.setdefault(v, s)
    best = sorted(first, reverse=True)[:top_k]
    return [first[v] for v in best], best


@pytest.mark.parametrize("mode", PAIRING_MODES, ids=lambda m: "-".join(map(str, m)))
def test_pruned_pairing_scan_finds_what_the_full_scan_finds(mode: list[float]) -> None:
    """search_removal_classes (pruned) == the top-k of every valid split's value computed in
    full (removal_split_values, the same arithmetic): same splits, same values to the bit,
    for top 1, 3 and 10, strict order or not, random models and seeded hands."""
    rng = np.random.default_rng(int(mode[0] * 100 + mode[2] * 10 + (mode[1] < 0)))
    tables = poker_tables()
    for trial in range(6):
        removal = _random_removal(rng, negative=trial % 3 == 2)
        idx = np.sort(rng.choice(52, 13, replace=False)).astype(np.int64)
        cls5, cls3 = S.subset_classes(idx, tables)
        for strict in (False, True):
            splits, values, _ = S.removal_split_values(
                idx, cls5, cls3, removal, mode=np.array(mode, dtype=float), strict=strict
            )
            for top_k in (1, 3, 10):
                found, _ = S.search_removal_classes(
                    idx, cls5, cls3, removal, mode=np.array(mode, dtype=float), strict=strict,
                    top_k=top_k,
                )  # fmt: skip
                want_splits, want_values = _full_scan_top(splits, values, top_k)
                assert list(found.splits) == want_splits
                assert list(found.values) == want_values


@pytest.mark.parametrize("mode", PAIRING_MODES, ids=lambda m: "-".join(map(str, m)))
def test_a_scan_within_a_margin_lists_every_split_within_it(mode: list[float]) -> None:
    """search_removal_classes with ``within`` (the calibrated candidates' margin, in row EV)
    lists, of the full scan's top 10, exactly those within ``within`` of the best, in the same
    order (of the others it may list fewer, and some the full scan's ten do not hold), best
    first: random models, seeded hands, margins from none of the ten to all of them."""
    rng = np.random.default_rng(int(mode[0] * 100 + mode[2] * 10 + (mode[1] < 0)) + 7)
    tables = poker_tables()
    short = 0
    for trial in range(6):
        removal = _random_removal(rng, negative=trial % 3 == 2)
        idx = np.sort(rng.choice(52, 13, replace=False)).astype(np.int64)
        cls5, cls3 = S.subset_classes(idx, tables)
        splits, values, _ = S.removal_split_values(
            idx, cls5, cls3, removal, mode=np.array(mode, dtype=float), strict=True
        )
        want_splits, want_values = _full_scan_top(splits, values, 10)
        spread = want_values[0] - want_values[-1]
        for within in (0.0, spread / 4, spread / 2, spread):
            found, _ = S.search_removal_classes(
                idx, cls5, cls3, removal, mode=np.array(mode, dtype=float), strict=True,
                top_k=10, within=within,
            )  # fmt: skip
            close = [(s, v) for s, v in zip(want_splits, want_values, strict=True)
                     if v >= want_values[0] - within]  # fmt: skip
            listed = list(zip(found.splits, found.values, strict=True))
            assert [sv for sv in listed if sv[1] >= want_values[0] - within] == close
            assert list(found.values) == sorted(set(found.values), reverse=True)
            short += len(close) < 10
    assert short > 0  # margins that leave some of the ten out


def _row_shares(
    removal: RemovalModel,
    splits: np.ndarray,
    below: np.ndarray,
    paid: np.ndarray,
    c: float,
    d: float,
) -> np.ndarray:
    """Per split, the sum over its rows of ``ADD + c * WIN * max(VALUE, 0) + d * max(-PAID,
    0)``, computed from the reweighted arrays in numpy."""
    total = np.zeros(len(splits))
    for row, cls in ((0, splits[:, 3]), (1, splits[:, 2]), (2, splits[:, 1])):
        i = removal.shapes.pos[cls]
        v, w, p = removal.values[row, i], below[row, i], paid[row, i]
        total += v * w - p + c * w * np.maximum(v, 0) + d * np.maximum(-p, 0)
    return total


def test_bound_terms_bound_every_split_value() -> None:
    """The bound the scan prunes with is at least the value of every valid split, for every
    mode (the property the pruning rests on, checked directly on random models)."""
    rng = np.random.default_rng(5)
    tables = poker_tables()
    for mode in PAIRING_MODES:
        kind, bonus, e, we, they = mode
        if we < 0 or they < 0:
            continue
        c, d, k = S._bound_terms(int(kind), float(bonus), int(e), float(we), float(they))
        for negative in (False, True):
            removal = _random_removal(rng, negative)
            idx = np.sort(rng.choice(52, 13, replace=False)).astype(np.int64)
            cls5, cls3 = S.subset_classes(idx, tables)
            splits, values, (_, below, paid) = S.removal_split_values(
                idx, cls5, cls3, removal, mode=np.array(mode, dtype=float), strict=False
            )
            assert np.all(values <= _row_shares(removal, splits, below, paid, c, d) + k + 1e-9)
            additive = _row_shares(removal, splits, below, paid, 0.0, 0.0)
            if kind == S.PAIR_ROWS and e == 0:
                assert np.allclose(values, additive)  # per-row units: the ADD sum itself
            else:
                # Not vacuous: some split is worth more than its rows' ADD sum, so a bound
                # without the mode's terms would fail the check above.
                assert np.any(values > additive + 1e-6)


def test_the_majority_bound_bounds_every_two_four_split() -> None:
    """Under two-four the scan also prunes with the majority term bounded by ``1/2 + sum_r
    (w_r - l_r) / 2`` instead of 1 (``_scan_pairing``): that bound is at least the value of
    every valid split, with and without a sweep, on random models; and it is tighter than the
    first bound for most splits (else it would prune nothing)."""
    rng = np.random.default_rng(6)
    tables = poker_tables()
    tighter = 0
    for mode in ([S.PAIR_TWO_FOUR, 0, 0, 0, 0], [S.PAIR_TWO_FOUR, 0, 1, 0.9, 0.2]):
        kind, bonus, e, we, they = mode
        c, d, k = S._bound_terms(int(kind), float(bonus), int(e), float(we), float(they))
        for negative in (False, True, False):
            removal = _random_removal(rng, negative)
            idx = np.sort(rng.choice(52, 13, replace=False)).astype(np.int64)
            cls5, cls3 = S.subset_classes(idx, tables)
            splits, values, (prob, below, paid) = S.removal_split_values(
                idx, cls5, cls3, removal, mode=np.array(mode, dtype=float), strict=False
            )
            first = _row_shares(removal, splits, below, paid, c, d) + k
            lead = np.zeros(len(splits))  # sum over the rows of P(win) - P(loss)
            for row, cls in ((0, splits[:, 3]), (1, splits[:, 2]), (2, splits[:, 1])):
                i = removal.shapes.pos[cls]
                lead += below[row, i] - (1.0 - below[row, i] - prob[row, i])
            second = first - 0.5 + 0.5 * lead
            assert np.all(values <= second + 1e-9)
            tighter += int(np.mean(second < first - 0.1) > 0.5)
    assert tighter >= 4


def test_the_two_four_scan_finds_what_the_full_scan_finds_on_its_own_model() -> None:
    """The pruned scan (both bounds) against every valid split's value under the shipped
    ``two_four`` model reweighted for seeded hands: the same ten splits and values, to the
    bit (random models, above, leave wide gaps between the best values; the trained model's
    close calls are where a bound that is too tight would show)."""
    from cpsolver.chinese.ev_model import kernel_pairing, model_for

    model = model_for(ChineseRules.preset("two_four"))
    mode = S.pairing_mode(kernel_pairing(model))
    tables = poker_tables()
    rng = np.random.default_rng(8)
    for _ in range(120):
        idx = np.sort(rng.choice(52, 13, replace=False)).astype(np.int64)
        cls5, cls3 = S.subset_classes(idx, tables)
        splits, values, _ = S.removal_split_values(
            idx, cls5, cls3, model.removal, mode=mode, strict=False
        )
        found, _ = S.search_removal_classes(
            idx, cls5, cls3, model.removal, mode=mode, strict=False, top_k=10
        )
        want_splits, want_values = _full_scan_top(splits, values, 10)
        assert list(found.splits) == want_splits
        assert list(found.values) == want_values
