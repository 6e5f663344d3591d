"""Calibration and decisions of the ``ev`` objective against large rollouts (issue 14).

For seeded random hands: the top candidates of the default ``ev`` (card removal) are re-scored
with N rollouts (opponents dealt from the 39 unseen cards, arranged by the solver's own policy,
settled exactly; common random numbers across candidates). Reported per rule set:

* calibration: mean and worst absolute error of the reported ``ev`` of the choice against the
  rollout mean of the same split, beside the same figure for the full-deck table value
  (``card_removal=False``) of that split, and the rollouts' own noise (mean 95% half-width);
* decisions: share of hands whose choice is within 0.01 units (by the rollouts) of the best of
  the top candidates;
* the root mean square error with the rollouts' own noise taken out (``sqrt(mean(err^2) -
  mean(se^2))``): at 20,000 rollouts a 4-player table's rollout mean still has a standard error
  of ~0.06 units, the size of the target itself, so the plain MAE is an upper bound;
* with ``--budget-rollouts N``, the same figures for the rollout mode as ``solve(cards,
  rollouts=N)`` runs it (the top candidates re-scored by N deals of *another* seed, the best
  rollout mean chosen and reported): the named budget that buys calibration with time, and its
  median seconds per hand.

``--out FILE`` also writes one JSON line per hand as it finishes (a long run can be read
before it ends), with every candidate's rollout mean. ``--rescore FILE`` reads such a file
and measures ``solve(cards, calibrated=True)`` against it: the importance-weighted opponent
pool (:mod:`cpsolver.chinese.pool`) re-scores the same top candidates, and its choice's value
is compared with that choice's 20,000-rollout mean (seconds per hand, not the rollouts').

Hands are spread over worker processes (spawned, so no numba threading state is forked); the
result depends on the seed only.

    python -m bench.calibration --hands 200 --rollouts 20000 --top 10 --seed 1 --workers 2
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from cpsolver.cards import Card
from cpsolver.chinese.ev import analyse
from cpsolver.chinese.ev_model import model_for, pairing_ev, total_ev
from cpsolver.chinese.pool import CALIBRATED_TOP, calibrate, calibrated_candidates
from cpsolver.chinese.rollouts import rollout
from cpsolver.rules.chinese import ChineseRules

DECISION_MARGIN = 0.01


def hands_for(seed: int, count: int) -> list[list[int]]:
    """``count`` seeded random 13-card hands (card indices)."""
    rng = random.Random(seed)
    return [rng.sample(range(52), 13) for _ in range(count)]


BUDGET_SEED = 0xB0D6E7  # mixed into the budget rollouts' seed: independent of the reference's

Result = tuple[float, float, float, float, bool, float, float, bool, float, list[list[object]]]
"""(reported ev, full-deck table ev, rollout mean, rollout half-width, decision ok; with a
budget: its reported ev, the reference's mean of its choice, its decision ok, its seconds; and
every candidate as ``[front, middle, back, natural, rollout mean]``, so that another model's
choice among them can be scored afterwards from the JSON lines)."""


RESULT_KEYS = (
    "ev", "table_ev", "rollout_ev", "half_width", "decision_ok",
    "budget_ev", "budget_reference", "budget_decision_ok", "budget_seconds", "candidates",
)  # fmt: skip
"""The names of a :data:`Result`'s fields in ``--out`` JSON lines."""


def stored_result(row: dict[str, object]) -> Result:
    """A :data:`Result` read back from its ``--out`` JSON line (``--resume``)."""
    return tuple(row[key] for key in RESULT_KEYS)  # type: ignore[return-value]


def one_hand(args: tuple[str, list[int], int, int, int, int]) -> Result:
    """One hand's :data:`Result` (module doc); the budget fields are NaN / False without one."""
    preset, hand, n, top, seed, budget = args
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
    b_ev, b_ref, b_ok, b_sec = float("nan"), float("nan"), False, float("nan")
    if budget:
        start = time.perf_counter()
        quick = rollout(
            cards, rules, n=budget, seed=seed ^ BUDGET_SEED, candidates=candidates, model=model
        )
        b_sec = time.perf_counter() - start
        pick = quick[0]  # what solve(cards, rollouts=budget) chooses and reports
        assert pick.rollout_ev is not None
        ref = next(c for c in sim if c.classes == pick.classes and c.natural == pick.natural)
        assert ref.rollout_ev is not None
        b_ev, b_ref = pick.rollout_ev, ref.rollout_ev
        b_ok = b_ref >= best - DECISION_MARGIN
    ok = same.rollout_ev >= best - DECISION_MARGIN
    scored = [[*c.classes, c.natural, c.rollout_ev] for c in sim]
    return choice.ev, table, same.rollout_ev, half, ok, b_ev, b_ref, b_ok, b_sec, scored


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--rollouts", type=int, default=20_000)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rules", nargs="*", default=["standard", "two_four"])
    parser.add_argument("--out", type=Path, help="JSON lines, one per hand")
    parser.add_argument(
        "--budget-rollouts", type=int, default=0, metavar="N",
        help="also measure solve(cards, rollouts=N): the rollout mode's calibration and speed",
    )  # fmt: skip
    parser.add_argument(
        "--resume", action="store_true",
        help="keep the hands already in --out FILE and measure only the rest (same seed)",
    )  # fmt: skip
    parser.add_argument(
        "--rescore", type=Path, metavar="FILE",
        help="measure calibrated=True against the rollouts of an earlier --out FILE",
    )  # fmt: skip
    args = parser.parse_args()
    if args.rescore:
        print(rescore(args.rescore, args.top))
        return
    budget = " rollouts=N: MAE / worst | within 0.01 | median s/hand |"
    print(
        "| rules | hands | rollouts | ev: MAE / worst | ev: RMSE, noise removed | full-deck "
        "tables: MAE / worst | rollout 95% half-width (mean) | within 0.01 of the best of top "
        f"{args.top} | seconds |" + (budget if args.budget_rollouts else "")
    )
    print("|---" * (12 if args.budget_rollouts else 9) + "|")
    ctx = get_context("spawn")
    for preset in args.rules:
        start = time.perf_counter()
        tasks = [
            (preset, h, args.rollouts, args.top, args.seed * 1_000_003 + i, args.budget_rollouts)
            for i, h in enumerate(hands_for(args.seed, args.hands))
        ]
        results: list[Result] = []
        if args.resume and args.out and args.out.exists():
            done = {
                tuple(row["hand"]): row
                for row in map(json.loads, args.out.read_text().splitlines())
                if row["rules"] == preset
            }
            results = [stored_result(done[tuple(t[1])]) for t in tasks if tuple(t[1]) in done]
            tasks = [t for t in tasks if tuple(t[1]) not in done]
        with ProcessPoolExecutor(args.workers, mp_context=ctx) as pool:
            for task, result in zip(tasks, pool.map(one_hand, tasks), strict=True):
                results.append(result)
                if args.out:
                    with args.out.open("a") as f:
                        row = {
                            "rules": preset,
                            "hand": task[1],
                            **dict(zip(RESULT_KEYS, result, strict=True)),
                        }
                        f.write(json.dumps(row, default=float) + "\n")
        print(summary(preset, args.rollouts, results, time.perf_counter() - start))


def rescore(path: Path, top: int) -> str:
    """Markdown rows, one per rule set in ``path``: the calibrated value's MAE / worst error
    against the stored rollout means, decisions within 0.01 of the best, median ms per hand."""
    by_rules: dict[str, list[tuple[float, bool, float]]] = {}
    for line in path.read_text().splitlines():
        row = json.loads(line)
        rules = ChineseRules.preset(row["rules"])
        cards = [Card.from_index(i) for i in row["hand"]]
        start = time.perf_counter()
        found = (
            calibrated_candidates(cards, rules)
            if top == CALIBRATED_TOP
            else analyse(cards, rules, top=top)
        )
        pick = calibrate(cards, rules, found)[0]
        seconds = time.perf_counter() - start
        stored = {(f, m, b, nat): mean for f, m, b, nat, mean in row["candidates"]}
        ref = stored[(*pick.classes, pick.natural)]
        assert pick.rollout_ev is not None
        ok = ref >= max(stored.values()) - DECISION_MARGIN
        by_rules.setdefault(row["rules"], []).append((pick.rollout_ev - ref, ok, seconds))
    lines = ["| rules | hands | calibrated: MAE / worst | within 0.01 | median ms/hand |"]
    lines.append("|---|---|---|---|---|")
    for preset, results in by_rules.items():
        err, ok, sec = (np.array(x, dtype=float) for x in zip(*results, strict=True))
        lines.append(
            f"| {preset} | {len(results)} | **{np.abs(err).mean():.3f}** / "
            f"{np.abs(err).max():.3f} | **{ok.mean():.0%}** | {1000 * np.median(sec[1:]):.1f} |"
        )
    return "\n".join(lines)


def summary(
    preset: str,
    rollouts: int,
    results: list[Result],
    seconds: float,
) -> str:
    """One markdown row of the table ``main`` prints."""
    columns = (np.array(x, dtype=float) for x in list(zip(*results, strict=True))[:9])
    ev, table, sim, half, ok, b_ev, b_ref, b_ok, b_sec = columns
    err, err_table = np.abs(ev - sim), np.abs(table - sim)
    se = half / 1.959964
    rmse = float(np.sqrt(max(np.mean(err**2) - np.mean(se**2), 0.0)))
    return (
        f"| {preset} | {len(results)} | {rollouts:,} | **{err.mean():.3f}** / {err.max():.3f} | "
        f"{rmse:.3f} | {err_table.mean():.3f} / {err_table.max():.3f} | {half.mean():.3f} | "
        f"**{ok.mean():.0%}** | {seconds:.0f} |"
    ) + (
        f" **{np.abs(b_ev - b_ref).mean():.3f}** / {np.abs(b_ev - b_ref).max():.3f} | "
        f"**{b_ok.mean():.0%}** | {np.median(b_sec):.2f} |"
        if not np.isnan(b_sec).all()
        else ""
    )


if __name__ == "__main__":
    main()
