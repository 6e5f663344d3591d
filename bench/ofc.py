"""Benchmark of the OFC fantasyland set (issue 31; not a test): ``python -m bench.ofc``.

For ``--hands`` seeded random hands of 14 and of 17 cards (``fantasyland=progressive``), in
one process whose kernels are already loaded: the median and p99 wall time of
``cpsolver.ofc.fantasyland(cards, fantasyland_value=V)`` (the ``royalties`` objective), and,
side by side, a brute force over every 13 of the cards and each of their 36,036 splits
(numpy, vectorised per 13-card subset; ``--brute-hands`` hands, it is slow at 17 cards), whose
best value must equal the solver's on every hand it runs.

Targets (issue 31): median <= 2 ms at 14 cards, <= 10 ms at 17. docs/BENCHMARKS.md records a
run.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import time

import numpy as np
import numpy.typing as npt

from cpsolver.cards import Card
from cpsolver.chinese.search import COMB3, COMB5, SPLIT_A, SPLIT_B, SPLIT_FRONT
from cpsolver.chinese.select import subset_classes_n, subset_tables
from cpsolver.evaluator.poker import Category, poker_tables
from cpsolver.ofc import OfcRules, fantasyland
from cpsolver.rules.chinese import Row

IntArray = npt.NDArray[np.int64]


def brute_force(cards: list[Card], rules: OfcRules, value: float) -> float:
    """max over every 13 of ``cards`` and every valid split of royalties + V * stays."""
    ordered = sorted(cards, key=lambda c: c.index)
    n = len(ordered)
    idx = np.array([c.index for c in ordered], dtype=np.int64)
    poker = poker_tables(False)
    cls5, cls3 = subset_classes_n(idx, poker)
    t = subset_tables(n)
    lookup5 = np.full(1 << n, -1, dtype=np.int64)
    lookup5[t.mask5] = np.arange(len(t.mask5))
    mask3 = np.array([sum(1 << int(p) for p in c) for c in t.comb3], dtype=np.int64)
    lookup3 = np.full(1 << n, -1, dtype=np.int64)
    lookup3[mask3] = np.arange(len(mask3))
    royalty = OfcRules.royalty_table()
    category = poker.category
    lowest = {"default": Category.FULL_HOUSE, "quads_middle": Category.FOUR_OF_A_KIND}
    middle_floor = lowest.get(rules.stay.value, 99)
    bit = np.int64(1) << np.arange(n, dtype=np.int64)
    best = -np.inf
    for keep in itertools.combinations(range(n), 13):
        pos = bit[list(keep)]
        a = cls5[lookup5[pos[COMB5].sum(axis=1)]][SPLIT_A]
        b = cls5[lookup5[pos[COMB5].sum(axis=1)]][SPLIT_B]
        f = cls3[lookup3[pos[COMB3].sum(axis=1)]][SPLIT_FRONT]
        back = np.maximum(a, b)
        middle = np.minimum(a, b)
        valid = middle >= f
        stays = (
            (category[f] == Category.THREE_OF_A_KIND)
            | (category[back] >= Category.FOUR_OF_A_KIND)
            | (category[middle] >= middle_floor)
        )
        values = royalty[Row.BACK, back] + royalty[Row.MIDDLE, middle] + royalty[Row.FRONT, f]
        values = values + value * stays
        best = max(best, float(values[valid].max()))
    return best


def _percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--brute-hands", type=int, default=3)
    parser.add_argument("--value", type=float, default=15.0, help="V, the value of staying")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rules = OfcRules.preset("pineapple", fantasyland="progressive")
    rng = random.Random(args.seed)
    deck = [Card.from_index(i) for i in range(52)]
    fantasyland(deck[:14], rules=rules, fantasyland_value=args.value)  # kernels loaded
    print(
        f"hands: {args.hands} per size (seed {args.seed}), V = {args.value:g}; "
        f"cpus: {os.cpu_count()}; load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'cards':>5} {'median ms':>10} {'p99 ms':>8} {'hands/s':>8} {'brute force s/hand':>19}")
    for n in (14, 15, 16, 17):
        hands = [rng.sample(deck, n) for _ in range(args.hands)]
        samples = []
        for hand in hands:
            start = time.perf_counter()
            fantasyland(hand, rules=rules, fantasyland_value=args.value)
            samples.append((time.perf_counter() - start) * 1e3)
        brute = []
        for hand in hands[: args.brute_hands]:
            start = time.perf_counter()
            expected = brute_force(hand, rules, args.value)
            brute.append(time.perf_counter() - start)
            got = fantasyland(hand, rules=rules, fantasyland_value=args.value).value
            assert got == expected, (hand, got, expected)
        median = statistics.median(samples)
        print(
            f"{n:>5} {median:>10.3f} {_percentile(samples, 0.99):>8.3f} "
            f"{1e3 / statistics.mean(samples):>8.0f} {statistics.median(brute):>19.2f}"
        )


if __name__ == "__main__":
    main()
