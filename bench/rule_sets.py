"""Benchmark of the ``ev`` objective across rule sets (issue 13; not a test):
``python -m bench.rule_sets`` (part of ``make bench``).

For one rule set of each of the 15 table keys (``table_keys.one_rule_set_per_key(seed)``, the
sample tests/test_all_rule_sets.py also sends through the CLI and a server), in one process
whose kernels are already loaded (a warm-up ``solve`` under ``standard``):

* **first use**: the model cache emptied (``ev_model.clear_cache()``), the wall time of the
  first ``solve()`` under the rule set: reading its key's file, serving it to the rule set,
  the derived tables, and the solve itself;
* **solve**: median and p99 of ``solve()`` over ``--hands`` seeded random hands after that.

Targets (issue 13): first use <= 100 ms, median <= 0.5 ms. docs/BENCHMARKS.md records a run.
``--rules NAME ...`` measures those rule sets instead (presets or rule files: issue 28's
``shisanshui`` and ``maubinh``, answered from their stand-in key; their first use also reads
the natural-mask histogram, whose cache is emptied too).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from cpsolver import ChineseRules, solve
from cpsolver.cards import Card
from cpsolver.chinese import ev_model, natural_rates
from cpsolver.chinese.table_keys import one_rule_set_per_key


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2026, help="the hands' seed")
    parser.add_argument("--sample-seed", type=int, default=13, help="the rule sets' seed")
    parser.add_argument("--rules", nargs="*", help="presets or rule files instead of the sample")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    hands = [[Card.from_index(i) for i in rng.sample(range(52), 13)] for _ in range(args.hands)]
    solve(hands[0], ChineseRules())  # kernels loaded once: what is left is per rule set
    print(
        f"rule sets: one per table key (sample seed {args.sample_seed}); hands: {args.hands} "
        f"(seed {args.seed}); cpus: {os.cpu_count()}; load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'rule set':<100} {'first use':>10} {'median':>8} {'p99':>8}")
    firsts, medians = [], []
    chosen = (
        [ChineseRules.resolve(name) for name in args.rules]
        if args.rules
        else one_rule_set_per_key(args.sample_seed)
    )
    for rules in chosen:
        ev_model.clear_cache()
        natural_rates.clear_cache()
        t = time.perf_counter()
        solve(hands[0], rules)
        first = (time.perf_counter() - t) * 1e3
        samples = []
        for hand in hands:
            t = time.perf_counter()
            solve(hand, rules)
            samples.append((time.perf_counter() - t) * 1e3)
        samples.sort()
        median = statistics.median(samples)
        p99 = samples[min(len(samples) - 1, int(0.99 * len(samples)))]
        firsts.append(first)
        medians.append(median)
        print(f"{rules.describe():<100} {first:>8.1f}ms {median:>6.3f}ms {p99:>6.3f}ms")
    print(
        f"over the {len(firsts)} rule sets: first use median {statistics.median(firsts):.1f} ms, "
        f"max {max(firsts):.1f} ms; solve median of medians {statistics.median(medians):.3f} ms, "
        f"max {max(medians):.3f} ms"
    )


if __name__ == "__main__":
    main()
