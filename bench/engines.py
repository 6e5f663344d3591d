"""Benchmark of the two engines (not a test): ``python -m bench.engines`` (part of ``make bench``).

Prints, for 13, 15 and 17 seeded random cards: median and p99 latency of an in-process
``solver.solve()`` call with the default engine (13 cards: the 36,036-split enumerator; more:
the 13-of-N branch and bound) and of the branch-and-bound kernel alone, then the same for
``engine="cpsat"`` (with CP-SAT's own deterministic time, which does not depend on the load of
the machine); then the CP-SAT agreement run: for every registered objective, ``--agreement``
random hands (13 cards, half of them under order=strict) solved by both engines, and the share
with the same optimum value (100% expected), plus a smaller mixed run of constrained and
13-of-N hands (``--agreement-mixed`` per objective).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from cpsolver import ChineseRules, solve
from cpsolver.cards import Card
from cpsolver.chinese.objectives import get_objective, objective_names
from cpsolver.chinese.search import warm_up
from cpsolver.chinese.select import no_constraints, select_positions


def _quantiles(samples_ms: list[float]) -> tuple[float, float]:
    ms = sorted(samples_ms)
    return statistics.median(ms), ms[min(len(ms) - 1, int(0.99 * len(ms)))]


def _deal(rng: random.Random, n: int) -> list[Card]:
    return [Card.from_index(i) for i in rng.sample(range(52), n)]


def _time_exact(n: int, hands: int, seed: int, objective: str) -> tuple[float, ...]:
    rng = random.Random(seed + n)
    deals = [_deal(rng, n) for _ in range(hands)]
    tables = get_objective(objective).row_tables(ChineseRules())
    masks = no_constraints(n)
    solve_ms, kernel_ms = [], []
    for cards in deals:
        t = time.perf_counter_ns()
        solve(cards, objective=objective)
        solve_ms.append((time.perf_counter_ns() - t) / 1e6)
        idx = np.array(sorted(c.index for c in cards), dtype=np.int64)
        t = time.perf_counter_ns()
        select_positions(idx, tables, masks, strict=False)
        kernel_ms.append((time.perf_counter_ns() - t) / 1e6)
    return (*_quantiles(solve_ms), *_quantiles(kernel_ms))


def _time_cpsat(n: int, hands: int, seed: int, objective: str) -> tuple[float, ...]:
    from cpsolver.chinese.cpsat import solve_cpsat

    rng = random.Random(seed + 100 + n)
    tables = get_objective(objective).row_tables(ChineseRules())
    wall_ms, det = [], []
    for _ in range(hands):
        idx = np.array(sorted(c.index for c in _deal(rng, n)), dtype=np.int64)
        t = time.perf_counter_ns()
        found = solve_cpsat(idx, tables, no_constraints(n), strict=False)
        wall_ms.append((time.perf_counter_ns() - t) / 1e6)
        det.append(found.deterministic_time)
    return (*_quantiles(wall_ms), statistics.median(det))


def _agree(job: tuple[str, int, str, Any]) -> tuple[str, str, bool, float]:
    """One hand by both engines: (objective, kind, same value, CP-SAT seconds)."""
    objective, seed, kind, _ = job
    rng = random.Random(seed)
    n = 13 if kind in ("plain", "constrained") else rng.choice([14, 15, 16, 17])
    cards = _deal(rng, n)
    kwargs: dict[str, Any] = {"objective": objective}
    if rng.random() < 0.5:
        kwargs["order"] = "strict"
    if kind == "constrained":
        rows = ["front", "middle", "back"]
        kwargs["constraints"] = (
            f"{cards[0]}={rng.choice(rows)} {cards[1]}!={rng.choice(rows)} "
            f"{rng.choice(rows)}>={rng.choice(['high_card', 'pair'])}"
        )
    try:
        exact = solve(cards, **kwargs).value
    except Exception as exc:  # InfeasibleError: both engines must say so
        exact = type(exc).__name__
    t = time.perf_counter()
    try:
        cpsat = solve(cards, engine="cpsat", **kwargs).value
    except Exception as exc:
        cpsat = type(exc).__name__
    return objective, kind, exact == cpsat, time.perf_counter() - t


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per size, default engine")
    parser.add_argument("--cpsat-hands", type=int, default=20, help="hands per size, CP-SAT")
    parser.add_argument("--agreement", type=int, default=200, help="13-card hands per objective")
    parser.add_argument("--agreement-mixed", type=int, default=20, help="per objective and kind")
    parser.add_argument("--objective", default="strength", help="objective of the timings")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    warm_up(parallel=False)
    print(f"engines: objective={args.objective}, seed={args.seed}")
    print(
        f"default engine, {args.hands} hands per size (ms): solve median / p99, kernel median / p99"
    )
    for n in (13, 15, 17):
        sm, sp, km, kp = _time_exact(n, args.hands, args.seed, args.objective)
        print(f"  {n} cards: solve {sm:.3f} / {sp:.3f}   branch and bound {km:.3f} / {kp:.3f}")
    if args.cpsat_hands:
        print(
            f"cpsat engine, {args.cpsat_hands} hands per size: wall median / p99 (ms), "
            "median deterministic time"
        )
        for n in (13, 15, 17):
            wm, wp, det = _time_cpsat(n, args.cpsat_hands, args.seed, args.objective)
            print(f"  {n} cards: {wm:.0f} / {wp:.0f} ms   dtime {det:.2f}")
    jobs: list[tuple[str, int, str, Any]] = []
    for o, objective in enumerate(objective_names()):
        base = args.seed * 1000 + o * 100_000
        jobs += [(objective, base + i, "plain", None) for i in range(args.agreement)]
        for k, kind in enumerate(("constrained", "13-of-n")):
            jobs += [
                (objective, base + 50_000 + k * 10_000 + i, kind, None)
                for i in range(args.agreement_mixed)
            ]
    if not jobs:
        return
    print(f"cpsat agreement ({len(jobs)} hands, {args.jobs} processes):")
    t = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(_agree, jobs, chunksize=4))
    tally: dict[tuple[str, str], list[bool]] = {}
    for objective, kind, same, _ in results:
        tally.setdefault((objective, kind), []).append(same)
    for (objective, kind), same in tally.items():
        print(
            f"  {objective:10} {kind:12} {sum(same)}/{len(same)} same optimum value "
            f"({100 * sum(same) / len(same):.1f}%)"
        )
    print(f"  ({time.perf_counter() - t:.0f} s)")


if __name__ == "__main__":
    main()
