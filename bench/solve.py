"""Benchmark of the exact arranger (not a test): ``make bench`` = ``python -m bench.solve``.

Prints, over ``--hands`` seeded random 13-card hands: median and p99 latency of an in-process
``solver.solve()`` call and of the kernel alone (subset classes + scan of 36,036 splits), the
throughput of ``solve_many`` (and of the batch kernel alone), and the JIT compile time and
cached-load time of ``warm_up()`` measured in fresh subprocesses with an empty / filled
``NUMBA_CACHE_DIR``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np

from cpsolver import ChineseRules, solve, solve_many
from cpsolver.cards import Card
from cpsolver.chinese.objectives import get_objective
from cpsolver.chinese.search import search, search_batch, sorted_indices, warm_up

_WARM = (
    "import time; t = time.perf_counter(); from cpsolver.chinese.search import warm_up; "
    "w = warm_up(); print(f'{w:.3f} {time.perf_counter() - t:.3f}')"
)


def _quantiles(samples_ns: list[int]) -> tuple[float, float]:
    ms = sorted(s / 1e6 for s in samples_ns)
    return statistics.median(ms), ms[min(len(ms) - 1, int(0.99 * len(ms)))]


def _jit_times() -> tuple[str, str]:
    """(compile, cached load) lines: 'warm_up seconds, whole import+warm_up seconds'."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        runs = [
            subprocess.run(
                [sys.executable, "-c", _WARM], env=env, capture_output=True, text=True, check=True
            ).stdout.split()
            for _ in range(2)
        ]
    return " / ".join(runs[0]), " / ".join(runs[1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--objective", default="strength")
    parser.add_argument(
        "--estimator", default=None,
        help="ev: the estimator named (default: the library's, calibrated; model: the tables)",
    )  # fmt: skip
    parser.add_argument("--rules", default="standard", help="a preset or a rule file")
    parser.add_argument("--no-jit-times", action="store_true", help="skip the subprocess runs")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    hands = [[Card.from_index(i) for i in rng.sample(range(52), 13)] for _ in range(args.hands)]
    print(
        f"hands: {args.hands} (seed {args.seed}), objective: {args.objective}, "
        f"estimator: {args.estimator or 'default'}, rules: {args.rules}, "
        f"numba threads: {numba.get_num_threads()}, cpus: {os.cpu_count()}"
    )
    print(f"warm_up (this process, cache present): {warm_up() * 1e3:.1f} ms")

    rules = ChineseRules.resolve(args.rules)
    tables = get_objective(args.objective).row_tables(rules)
    for hand in hands[:20]:
        solve(hand, rules, args.objective, estimator=args.estimator)

    samples = []
    for hand in hands:
        t = time.perf_counter_ns()
        solve(hand, rules, args.objective, estimator=args.estimator)
        samples.append(time.perf_counter_ns() - t)
    med, p99 = _quantiles(samples)
    print(f"solve():      median {med:.3f} ms, p99 {p99:.3f} ms")

    samples = []
    for hand in hands:
        t = time.perf_counter_ns()
        search(sorted_indices(hand), tables, strict=False)
        samples.append(time.perf_counter_ns() - t)
    med, p99 = _quantiles(samples)
    print(f"kernel only:  median {med:.3f} ms, p99 {p99:.3f} ms")

    text_hands = [" ".join(str(c) for c in hand) for hand in hands]
    solve_many(hands[:10], rules, args.objective, estimator=args.estimator)
    rates = []
    for batch in (hands, text_hands, hands):
        t, cpu = time.perf_counter(), time.process_time()
        solve_many(batch, rules, args.objective, estimator=args.estimator)
        rates.append(
            (len(batch) / (time.perf_counter() - t), len(batch) / (time.process_time() - cpu))
        )
    best = max(rates[0], rates[2])
    print(
        f"solve_many:   {best[0]:,.0f} hands/s wall ({best[1]:,.0f} per CPU-second) from Card "
        f"lists; {rates[1][0]:,.0f} hands/s wall from strings"
    )
    idx = np.array([sorted(c.index for c in hand) for hand in hands], dtype=np.int64)
    t, cpu = time.perf_counter(), time.process_time()
    search_batch(idx, tables, strict=False)
    print(
        f"batch kernel: {len(hands) / (time.perf_counter() - t):,.0f} hands/s wall "
        f"({len(hands) / (time.process_time() - cpu):,.0f} per CPU-second)"
    )

    if not args.no_jit_times:
        compiled, loaded = _jit_times()
        print(f"JIT compile (empty cache):  {compiled} s (warm_up / import + warm_up)")
        print(f"JIT cache load (new process): {loaded} s (warm_up / import + warm_up)")


if __name__ == "__main__":
    main()
