"""Benchmark of ``review`` (not a test): ``python -m bench.review``.

Writes ``--hands`` seeded random hands (random rows, about half of them fouled, by ten
players) as a JSON-lines history and times ``cpsolver review FILE --json`` end to end in a
fresh process (reading, rating with ``--estimator``, default ``model``, summing up, writing
the JSON), after one warm run, and the library's :func:`cpsolver.chinese.review.review` in
this process. Prints hands per second of each (docs/BENCHMARKS.md, "Reviewing a history").
A finer estimator rates hand by hand: ``--estimator calibrated --hands 300 --repeat 1``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cpsolver.cards import Card
from cpsolver.chinese.review import review

CPSOLVER = Path(sys.executable).with_name("cpsolver")


def make_history(n: int, seed: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    deck = [str(Card.from_index(i)) for i in range(52)]
    out: list[dict[str, object]] = []
    for i in range(n):
        cards = rng.sample(deck, 13)
        out.append({"id": i, "player": f"p{i % 10}", "back": " ".join(cards[:5]),
                    "middle": " ".join(cards[5:10]), "front": " ".join(cards[10:])})  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--estimator", default="model")
    args = parser.parse_args(argv)
    hands = make_history(args.hands, args.seed)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"{args.hands:,} hands, seed {args.seed}, estimator {args.estimator}, {cores} cores, "
          f"load {os.getloadavg()[0]:.2f}")  # fmt: skip
    review(hands[:10], estimator=args.estimator)  # kernels loaded
    lib = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        result = review(hands, estimator=args.estimator)
        lib.append(time.perf_counter() - start)
    print(f"library review(): best {args.hands / min(lib):,.0f} hands/s, "
          f"median {args.hands / sorted(lib)[len(lib) // 2]:,.0f} hands/s "
          f"(mean EV lost {result.overall.mean_lost:.3f})")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "history.jsonl"
        path.write_text("".join(json.dumps(h) + "\n" for h in hands))
        cli = []
        for i in range(args.repeat + 1):
            start = time.perf_counter()
            subprocess.run(
                [str(CPSOLVER), "review", str(path), "--json", "--estimator", args.estimator],
                check=True, stdout=subprocess.DEVNULL,
            )  # fmt: skip
            if i:  # the first run fills numba's cache
                cli.append(time.perf_counter() - start)
    print(f"cpsolver review --json (fresh process, start-up included): best "
          f"{args.hands / min(cli):,.0f} hands/s, median "
          f"{args.hands / sorted(cli)[len(cli) // 2]:,.0f} hands/s")  # fmt: skip
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
