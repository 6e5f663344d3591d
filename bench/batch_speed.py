"""``solve_many`` by each estimator, side by side (not a test): ``python -m bench.batch_speed``.

Issue 32 asks ``solve_many`` with the default (calibrated) estimate for >= 3,000 hands/s on 2
cores, measured beside the table model in one run. This shared machine's speed swings by half
within minutes, so the calls alternate: for each of ``--rounds`` rounds, each preset
(``--rules``), each estimator (``--estimators``), one call of ``solve_many`` on the same
``--hands`` seeded hands (``Card`` lists); then the median hands/s of each, and of each round
the calibrated rate over the table model's (the ratio holds where the absolute figures drift).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from cpsolver import ChineseRules, solve_many
from cpsolver.cards import Card


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="+", default=["standard", "two_four"])
    parser.add_argument("--estimators", nargs="+", default=["calibrated", "model"])
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    hands = [[Card.from_index(i) for i in rng.sample(range(52), 13)] for _ in range(args.hands)]
    for preset in args.rules:  # warm: tables, pools, kernels, name caches
        for estimator in args.estimators:
            solve_many(hands[:100], ChineseRules.resolve(preset), estimator=estimator)
    rates: dict[tuple[str, str], list[float]] = {}
    for round_ in range(args.rounds):
        line = []
        for preset in args.rules:
            rules = ChineseRules.resolve(preset)
            for estimator in args.estimators:
                start = time.perf_counter()
                solve_many(hands, rules, estimator=estimator)
                rate = len(hands) / (time.perf_counter() - start)
                rates.setdefault((preset, estimator), []).append(rate)
                line.append(f"{preset} {estimator} {rate:,.0f}")
        print(f"round {round_ + 1}: " + ", ".join(line) + " hands/s", flush=True)
    for (preset, estimator), values in rates.items():
        print(
            f"{preset} {estimator}: median {statistics.median(values):,.0f} hands/s "
            f"(min {min(values):,.0f}, max {max(values):,.0f}) over {len(values)} calls "
            f"of {args.hands} hands"
        )
    if len(args.estimators) == 2:
        first, second = args.estimators
        for preset in args.rules:
            ratios = [
                a / b for a, b in zip(rates[preset, first], rates[preset, second], strict=True)
            ]
            print(f"{preset} {first} / {second}, per round: median {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
