"""Benchmark of the ``calibrated`` estimator (not a test): ``python -m bench.calibrated``.

Over ``--hands`` seeded random 13-card hands per rule set (``--rules``), medians in
milliseconds of ``solve(cards)`` (the table model) and ``solve(cards, estimator="calibrated")``,
and of the calibrated solve's parts where the code has them: ``analyse`` (the table model's top
10 candidates), ``pool_weights``, the pool kernels (``pool_sums``: weights and cells in one
pass; ``reference``: weights then the loop over (candidate, pool hand) pairs) and
``calibrate``. Then ``solve_many(hands, estimator="calibrated")`` in hands per second.

``--against REV`` times the code of a git revision beside the working tree's, side by side in
one run: each is a child process (the revision's ``solver/`` from ``git archive``, imported as
``cpsolver``), the hands sent to each in turn, one at a time (the machine drifts), then
``solve_many`` calls of a tenth of the batch each, in turn; the parent checks that both chose
the same rows and prints how often they differ and by how much in value.

``--margin N`` measures :data:`cpsolver.chinese.pool.CALIBRATED_MARGIN` instead, over ``N``
seeded hands per rule set: the pool re-scores all ten of the table model's best splits, and
the bench counts the hands whose pool choice lies more than the margin below the table's
best (where the margin changes the choice), what that costs by the pool's own values per hand,
and how many candidates the margin leaves.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

NAMES = ["23456789TJQKA"[i // 4] + "cdhs"[i % 4] for i in range(52)]
REPO = Path(__file__).resolve().parent.parent


def _hands(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(NAMES[c] for c in sorted(rng.sample(range(52), 13))) for _ in range(count)]


def _ms(start: float) -> float:
    return 1000 * (time.perf_counter() - start)


def _serve() -> None:
    """The child: reads JSON requests from stdin, answers one JSON line each."""
    import importlib

    import numpy as np

    from cpsolver.chinese import pool as P
    from cpsolver.chinese.ev import analyse, hand_array
    from cpsolver.chinese.ev_model import model_for, natural_code
    from cpsolver.rules.chinese import ChineseRules

    solve_module = importlib.import_module("cpsolver.chinese.solve")
    solve, solve_many = solve_module.solve, solve_module.solve_many
    for line in sys.stdin:
        ask = json.loads(line)
        rules = ChineseRules.preset(ask["rules"])
        out: dict[str, Any] = {}
        if ask["kind"] == "many":
            hands = ask["hands"]
            start = time.perf_counter()
            many = solve_many(hands, rules, estimator="calibrated")
            out["seconds"] = time.perf_counter() - start
            out["classes"] = [[s.hands[r].strength for r in sorted(s.hands)] for s in many]
        else:
            cards = ask["cards"]
            pool, model = P.pool_for(rules), model_for(rules)
            start = time.perf_counter()
            solve(cards, rules, estimator="model")
            out["solve"] = _ms(start)
            start = time.perf_counter()
            s = solve(cards, rules, estimator="calibrated")
            out["solve calibrated"] = _ms(start)
            out["classes"] = [s.hands[r].strength for r in sorted(s.hands)]
            out["ev"] = s.value
            start = time.perf_counter()
            if hasattr(P, "calibrated_candidates"):  # what the calibrated solve re-scores
                candidates = P.calibrated_candidates(cards, rules, model=model)
            else:  # a revision before it: the top 10
                candidates = analyse(cards, rules, top=10, model=model)
            out["analyse"] = _ms(start)
            start = time.perf_counter()
            P.pool_weights(pool, cards)
            out["pool_weights"] = _ms(start)
            if hasattr(P, "pool_sums"):
                _, hand = hand_array(cards)
                rows = np.array([c.classes for c in candidates], dtype=np.int64).reshape(-1, 3)
                codes = np.array(
                    [natural_code(rules, c.natural) if c.natural else 0 for c in candidates],
                    dtype=np.int64,
                )
                start = time.perf_counter()
                P.pool_sums(pool, rules, hand, rows, codes)
                out["pool_sums"] = _ms(start)
                start = time.perf_counter()
                P.pool_sums(pool, rules, hand, rows, codes, reference=True)
                out["reference"] = _ms(start)
            start = time.perf_counter()
            P.calibrate(cards, rules, candidates, pool=pool)
            out["calibrate"] = _ms(start)
        print(json.dumps(out), flush=True)


def _child(tree: Path | None) -> subprocess.Popen[str]:
    env = dict(os.environ)
    if tree is not None:  # the revision's solver/ first on the path, as `cpsolver`
        env["PYTHONPATH"] = f"{tree}{os.pathsep}{env.get('PYTHONPATH', '')}"
    return subprocess.Popen(
        [sys.executable, "-c", "from bench.calibrated import _serve; _serve()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=REPO,
    )  # fmt: skip


def _ask(child: subprocess.Popen[str], request: dict[str, Any]) -> dict[str, Any]:
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(json.dumps(request) + "\n")
    child.stdin.flush()
    answer: dict[str, Any] = json.loads(child.stdout.readline())
    return answer


def _tree_at(rev: str, directory: Path) -> Path:
    raw = subprocess.run(
        ["git", "archive", rev, "solver"], capture_output=True, check=True, cwd=REPO
    ).stdout
    with tarfile.open(fileobj=BytesIO(raw)) as tar:
        tar.extractall(directory / "tree", filter="data")
    (directory / "path").mkdir()
    (directory / "path" / "cpsolver").symlink_to(directory / "tree" / "solver")
    return directory / "path"


FIGURES = (
    "solve", "solve calibrated", "analyse", "pool_weights", "pool_sums", "reference", "calibrate",
)  # fmt: skip


def margin_check(preset: str, hands: int, seed: int) -> str:
    """One line of ``--margin`` (module doc) for ``preset``."""
    from cpsolver.cards import parse_cards
    from cpsolver.chinese.ev import analyse
    from cpsolver.chinese.pool import CALIBRATED_MARGIN, calibrate, calibrated_candidates
    from cpsolver.rules.chinese import ChineseRules

    rules = ChineseRules.preset(preset)
    outside, cost, kept, ten = 0, 0.0, 0, 0
    for text in _hands(seed, hands):
        cards = parse_cards(text)
        everything = calibrate(cards, rules, analyse(cards, rules, top=10))
        margined = calibrate(cards, rules, calibrated_candidates(cards, rules))
        kept += sum(c.natural is None for c in margined)
        ten += sum(c.natural is None for c in everything)
        if margined[0].classes != everything[0].classes or (
            margined[0].natural != everything[0].natural
        ):
            outside += 1
            cost += everything[0].score - margined[0].score
    return (
        f"{preset}: margin {CALIBRATED_MARGIN} units, {hands} hands: the choice among all ten "
        f"outside it on {outside} hands, costing {cost / hands:.5f} units a hand by the pool's "
        f"values; {kept / hands:.2f} of {ten / hands:.2f} candidates re-scored a hand"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--batch", type=int, default=2000, help="hands for solve_many")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="*", default=["standard"])
    parser.add_argument("--against", metavar="REV", help="also time this git revision's code")
    parser.add_argument("--margin", type=int, metavar="N", help="measure the margin (doc)")
    args = parser.parse_args(argv)
    if args.margin:
        for preset in args.rules:
            print(margin_check(preset, args.margin, args.seed), flush=True)
        return
    with tempfile.TemporaryDirectory() as tmp:
        children = {"current": _child(None)}
        if args.against:
            children[args.against] = _child(_tree_at(args.against, Path(tmp)))
        for preset in args.rules:
            hands = _hands(args.seed, args.hands)
            for child in children.values():  # compile or load the kernels first
                _ask(child, {"kind": "one", "rules": preset, "cards": hands[0]})
            times: dict[str, dict[str, list[float]]] = {n: {} for n in children}
            chosen: dict[str, list[tuple[list[int], float]]] = {n: [] for n in children}
            for cards in hands:
                for name, child in children.items():
                    out = _ask(child, {"kind": "one", "rules": preset, "cards": cards})
                    for f in FIGURES:
                        if f in out:
                            times[name].setdefault(f, []).append(out[f])
                    chosen[name].append((out["classes"], out["ev"]))
            for name in children:
                shown = ", ".join(
                    f"{f} {statistics.median(times[name][f]):.3f}" for f in FIGURES
                    if f in times[name]
                )  # fmt: skip
                print(f"{preset} {name}: {shown} ms (medians of {args.hands} hands)", flush=True)
            names = list(children)
            for other in names[1:]:
                pairs = list(zip(chosen[names[0]], chosen[other], strict=True))
                same = sum(a[0] == b[0] for a, b in pairs)
                gap = max(abs(a[1] - b[1]) for a, b in pairs)
                print(f"{preset} {names[0]} vs {other}: same rows on {same} of {len(pairs)} "
                      f"hands, largest |ev difference| {gap:.2e}", flush=True)  # fmt: skip
            batch = _hands(args.seed + 1, args.batch)
            seconds = dict.fromkeys(children, 0.0)
            for child in children.values():
                _ask(child, {"kind": "many", "rules": preset, "hands": batch[:50]})  # warm
            step = max(1, args.batch // 10)  # ten calls each, in turn (the machine drifts)
            for start in range(0, len(batch), step):
                for name, child in children.items():
                    part = batch[start : start + step]
                    seconds[name] += _ask(child, {"kind": "many", "rules": preset,
                                                  "hands": part})["seconds"]  # fmt: skip
            for name in children:
                print(f"{preset} {name}: solve_many calibrated {len(batch) / seconds[name]:,.0f} "
                      f"hands/s ({len(batch)} hands in calls of {step})", flush=True)  # fmt: skip
        for child in children.values():
            assert child.stdin is not None
            child.stdin.close()
            child.wait()


if __name__ == "__main__":
    main()
