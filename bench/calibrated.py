"""Benchmark of ``solve(cards, calibrated=True)`` (not a test): ``python -m bench.calibrated``.

Over ``--hands`` seeded random 13-card hands per rule set (``--rules``), in one process,
medians in milliseconds of: ``pool_weights``, the re-scoring kernel alone (``_rescore`` on the
solver's top 10 candidates, as ``calibrate`` calls it), ``calibrate`` (both, plus the Python
around them), ``solve()`` and ``solve(calibrated=True)``. ``--against REV`` loads
``solver/chinese/pool.py`` of a git revision beside the current one and times both, hand by
hand in turn (the machine drifts), checking that they return equal weights and candidates.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from cpsolver.chinese import ev_kernel
from cpsolver.chinese import pool as current
from cpsolver.chinese.ev import analyse
from cpsolver.chinese.ev_model import NATURAL_NAMES, kernel_mode, model_for, row_values
from cpsolver.rules.chinese import ChineseRules

solve_module = importlib.import_module("cpsolver.chinese.solve")  # the package exports solve()
NAMES = ["23456789TJQKA"[i // 4] + "cdhs"[i % 4] for i in range(52)]


def _pool_module_at(rev: str, directory: Path) -> ModuleType:
    source = subprocess.run(
        ["git", "show", f"{rev}:solver/chinese/pool.py"], capture_output=True, text=True, check=True
    ).stdout
    path = directory / f"pool_{rev.replace('/', '_')}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def _timed(f: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = f()
    return 1000 * (time.perf_counter() - start), out


def _measure(module: ModuleType, pool: Any, rules: ChineseRules, cards: str) -> dict[str, Any]:
    """One hand's timings with ``module`` as the pool module (and ``solve``'s calibrate)."""
    out: dict[str, Any] = {}
    out["pool_weights"], weights = _timed(lambda: module.pool_weights(pool, cards))
    candidates = analyse(cards, rules, top=10, model=model_for(rules))
    codes = np.array(
        [NATURAL_NAMES.index(c.natural) if c.natural else 0 for c in candidates], dtype=np.int64
    )
    rows = np.array([c.classes for c in candidates], dtype=np.int64).reshape(-1, 3)
    opp_nat = pool.natural if rules.naturals else np.zeros_like(pool.natural)
    values, mode = row_values(rules), kernel_mode(rules)
    sums, odds = np.zeros((len(candidates), 4)), np.zeros((len(candidates), 3, 3))
    kernel_args = (weights, rows, codes, pool.rows_for(rules), opp_nat, values, mode)
    out["rescore"], _ = _timed(
        lambda: module._rescore(*kernel_args, ev_kernel.NATURAL_UNITS, sums, odds)
    )
    out["calibrate"], out["candidates"] = _timed(
        lambda: module.calibrate(cards, rules, candidates, pool=pool)
    )
    out["solve"], _ = _timed(lambda: solve_module.solve(cards, rules))
    solve_module.calibrate = module.calibrate
    try:
        out["solve calibrated"], out["solution"] = _timed(
            lambda: solve_module.solve(cards, rules, calibrated=True)
        )
    finally:
        solve_module.calibrate = current.calibrate
    out["weights"] = weights
    return out


FIGURES = ("pool_weights", "rescore", "calibrate", "solve", "solve calibrated")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="*", default=["standard"])
    parser.add_argument("--against", metavar="REV", help="also time pool.py of this revision")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        modules = {"current": current}
        if args.against:
            modules[args.against] = _pool_module_at(args.against, Path(tmp))
        for preset in args.rules:
            rules = ChineseRules.preset(preset)
            pool = current.pool_for(rules)
            pools = {
                name: pool if module is current else module.OpponentPool.of(
                    pool.key, pool.hands, pool.rows, pool.natural
                )
                for name, module in modules.items()
            }  # fmt: skip
            rng = random.Random(args.seed)
            hands = [
                " ".join(NAMES[c] for c in sorted(rng.sample(range(52), 13)))
                for _ in range(args.hands)
            ]
            for name, module in modules.items():  # compile or load the kernels first
                _measure(module, pools[name], rules, hands[0])
            times: dict[str, dict[str, list[float]]] = {
                name: {f: [] for f in FIGURES} for name in modules
            }
            for cards in hands:
                seen = []
                for name, module in modules.items():
                    out = _measure(module, pools[name], rules, cards)
                    for f in FIGURES:
                        times[name][f].append(out[f])
                    seen.append(out)
                for other in seen[1:]:
                    assert np.array_equal(other["weights"], seen[0]["weights"]), cards
                    assert other["candidates"] == seen[0]["candidates"], cards
                    assert other["solution"] == seen[0]["solution"], cards
            for name in modules:
                shown = ", ".join(f"{f} {statistics.median(times[name][f]):.2f}" for f in FIGURES)
                print(f"{preset} {name}: {shown} ms (medians of {args.hands} hands)", flush=True)


if __name__ == "__main__":
    main()
