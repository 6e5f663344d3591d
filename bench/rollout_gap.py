"""How often rollouts (card removal, exact settlement) change the table-mode choice, and by how
much EV (EV-NOTES "Card removal"; docs/BENCHMARKS.md).

For seeded random hands: the top candidates by table EV are re-scored with N rollouts (common
random numbers); we count the hands whose best rollout candidate is not the table's choice and
the rollout-EV difference between the two (a selection among noisy means, so an upper bound),
plus the mean rollout-minus-table EV of the table's choice (the tables' bias on that hand).

    python -m bench.rollout_gap --hands 100 --rollouts 500 --top 5 --seed 1
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from bench.matches import mean_ci
from cpsolver.cards import Card
from cpsolver.chinese import ev_kernel as K
from cpsolver.chinese.ev import analyse
from cpsolver.chinese.rollouts import rollout
from cpsolver.rules.chinese import ChineseRules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--rollouts", type=int, default=500)
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="*", default=["standard", "two_four"])
    args = parser.parse_args()
    K.warm_up()
    print(
        "| rules | hands | rollouts | choice changed | EV gained when changed (mean) | "
        "rollout - table EV of the table choice | seconds per hand |"
    )
    print("|---|---|---|---|---|---|---|")
    for preset in args.rules:
        rules = ChineseRules.preset(preset)
        rng = random.Random(args.seed)
        changed, gains, bias = 0, [], []
        start = time.perf_counter()
        for _ in range(args.hands):
            cards = [Card.from_index(i) for i in rng.sample(range(52), 13)]
            table = analyse(cards, rules, top=args.top)
            sim = rollout(cards, rules, n=args.rollouts, seed=args.seed, candidates=table)
            by_table = next(
                c for c in sim if c.classes == table[0].classes and c.natural == table[0].natural
            )
            assert by_table.rollout_ev is not None and sim[0].rollout_ev is not None
            bias.append(by_table.rollout_ev - by_table.ev)
            if sim[0] is not by_table:
                changed += 1
                gains.append(sim[0].rollout_ev - by_table.rollout_ev)
        per_hand = (time.perf_counter() - start) / args.hands
        gain = f"{np.mean(gains):+.3f}" if gains else "-"
        mean, half = mean_ci(bias)
        print(
            f"| {preset} | {args.hands} | {args.rollouts} | {changed / args.hands:.0%} | "
            f"{gain} | {mean:+.3f} ± {half:.3f} | {per_hand:.2f} |"
        )


if __name__ == "__main__":
    main()
