"""Calibration and decisions of the ``ev`` objective against large rollouts (issue 14).

For seeded random hands: the top candidates of the default ``ev`` (card removal) are re-scored
with N rollouts (opponents dealt from the 39 unseen cards, arranged by the solver's own policy,
settled exactly; common random numbers across candidates). Reported per rule set:

* calibration: mean and worst absolute error of the reported ``ev`` of the choice against the
  rollout mean of the same split, beside the same figure for the full-deck table value
  (``card_removal=False``) of that split, and the rollouts' own noise (mean 95% half-width);
* decisions: share of hands whose choice is within 0.01 units (by the rollouts) of the best of
  the top candidates.

Hands are spread over worker processes (spawned, so no numba threading state is forked); the
result depends on the seed only.

    python -m bench.calibration --hands 200 --rollouts 20000 --top 10 --seed 1 --workers 2
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import numpy as np

from cpsolver.cards import Card
from cpsolver.chinese.ev import analyse
from cpsolver.chinese.ev_model import model_for, pairing_ev, total_ev
from cpsolver.chinese.rollouts import rollout
from cpsolver.rules.chinese import ChineseRules

DECISION_MARGIN = 0.01


def hands_for(seed: int, count: int) -> list[list[int]]:
    """``count`` seeded random 13-card hands (card indices)."""
    rng = random.Random(seed)
    return [rng.sample(range(52), 13) for _ in range(count)]


def one_hand(args: tuple[str, list[int], int, int, int]) -> tuple[float, float, float, float, bool]:
    """(reported ev, full-deck table ev, rollout mean, rollout half-width, decision ok)."""
    preset, hand, n, top, seed = args
    rules = ChineseRules.preset(preset)
    model = model_for(rules)
    cards = [Card.from_index(i) for i in hand]
    candidates = analyse(cards, rules, top=top)
    choice = candidates[0]
    sim = rollout(cards, rules, n=n, seed=seed, candidates=candidates, model=model)
    same = next(c for c in sim if c.classes == choice.classes and c.natural == choice.natural)
    assert same.rollout_ev is not None and same.rollout_ci is not None
    best = max(c.rollout_ev for c in sim if c.rollout_ev is not None)
    if choice.natural is None:
        f, m, b = choice.classes
        table = total_ev(model, pairing_ev(model, f, m, b))
    else:
        table = choice.ev  # a declaration's value does not depend on card removal here
    half = (same.rollout_ci[1] - same.rollout_ci[0]) / 2
    return choice.ev, table, same.rollout_ev, half, same.rollout_ev >= best - DECISION_MARGIN


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--rollouts", type=int, default=20_000)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rules", nargs="*", default=["standard", "two_four"])
    args = parser.parse_args()
    print(
        "| rules | hands | rollouts | ev: MAE / worst | full-deck tables: MAE / worst | "
        "rollout 95% half-width (mean) | within 0.01 of the best of top "
        f"{args.top} | seconds |"
    )
    print("|---|---|---|---|---|---|---|---|")
    ctx = get_context("spawn")
    for preset in args.rules:
        start = time.perf_counter()
        tasks = [
            (preset, h, args.rollouts, args.top, args.seed * 1_000_003 + i)
            for i, h in enumerate(hands_for(args.seed, args.hands))
        ]
        with ProcessPoolExecutor(args.workers, mp_context=ctx) as pool:
            results = list(pool.map(one_hand, tasks))
        ev, table, sim, half, ok = (np.array(x) for x in zip(*results, strict=True))
        err, err_table = np.abs(ev - sim), np.abs(table - sim)
        print(
            f"| {preset} | {args.hands} | {args.rollouts:,} | "
            f"**{err.mean():.3f}** / {err.max():.3f} | {err_table.mean():.3f} / "
            f"{err_table.max():.3f} | {half.mean():.3f} | **{ok.mean():.0%}** | "
            f"{time.perf_counter() - start:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
