"""Benchmark of start-up costs (not a test): ``python -m bench.startup`` (one of ``make bench``).

Each figure is measured in fresh subprocesses, since start-up is what a new process pays:

* ``import cpsolver``: seconds inside the process (interpreter start excluded), and which of the
  optional or heavy modules (numba, grpc, google.protobuf, ortools) the import loaded;
* the first ``cpsolver.solve()`` of a process (objectives ``ev``, the default, and
  ``strength``), with numba's cache filled (``warm``: kernels are loaded from disk) and empty
  (``cold``: kernels are compiled), each run with its own ``NUMBA_CACHE_DIR``;
* ``cpsolver solve CARDS`` on the command line, whole process wall time, cache filled.

Medians over ``--runs`` (warm) and ``--cold-runs`` (cold) runs. Bytecode is written and used
(``PYTHONDONTWRITEBYTECODE`` is dropped), as in an installed wheel, which pip compiles. Run it
with another environment's interpreter (``/path/venv/bin/python -m bench.startup`` from the
repository root) to measure that installation.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HAND = "As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"
WATCHED = ("numba", "grpc", "google.protobuf", "ortools")

_IMPORT = """
import json, sys, time
t = time.perf_counter()
import cpsolver
seconds = time.perf_counter() - t
print(json.dumps({"import": seconds, "loaded": [m for m in WATCHED if m in sys.modules]}))
"""

_FIRST_SOLVE = """
import json, time
t0 = time.perf_counter()
import cpsolver
t1 = time.perf_counter()
cpsolver.solve(HAND, objective=OBJECTIVE)
t2 = time.perf_counter()
cpsolver.solve(HAND, objective=OBJECTIVE)
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first": t2 - t1, "second": t3 - t2}))
"""


def _env(cache: str) -> dict[str, str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _run(code: str, cache: str, **names: object) -> dict[str, Any]:
    prelude = "".join(f"{k} = {v!r}\n" for k, v in names.items())
    env = _env(cache)
    out = subprocess.run(
        [sys.executable, "-c", prelude + code], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(out.stdout.splitlines()[-1])
    return result


def _median(rows: list[dict[str, Any]], key: str) -> float:
    return statistics.median(float(row[key]) for row in rows)


def _cli_seconds(cache: str, runs: int) -> float:
    cli = Path(sys.executable).with_name("cpsolver")
    env = _env(cache)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([str(cli), "solve", HAND], env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="runs per warm figure")
    parser.add_argument("--cold-runs", type=int, default=3, help="runs per cold figure")
    args = parser.parse_args(argv)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"python {sys.version.split()[0]} ({sys.prefix}), cpus: {os.cpu_count()}, load: {load}")

    with tempfile.TemporaryDirectory() as cache:
        rows = [_run(_IMPORT, cache, WATCHED=WATCHED) for _ in range(args.runs)]
        loaded = ", ".join(rows[0]["loaded"]) or "none of " + ", ".join(WATCHED)
        print(
            f"import cpsolver: median {_median(rows, 'import') * 1e3:.0f} ms "
            f"(min {min(r['import'] for r in rows) * 1e3:.0f} ms); loaded: {loaded}"
        )

    for objective in ("ev", "strength"):
        cold = []
        for _ in range(args.cold_runs):
            with tempfile.TemporaryDirectory() as empty:
                cold.append(_run(_FIRST_SOLVE, empty, HAND=HAND, OBJECTIVE=objective))
        with tempfile.TemporaryDirectory() as cache:
            _run(_FIRST_SOLVE, cache, HAND=HAND, OBJECTIVE=objective)  # fills the cache
            warm = [
                _run(_FIRST_SOLVE, cache, HAND=HAND, OBJECTIVE=objective) for _ in range(args.runs)
            ]
        print(
            f"first solve ({objective}): warm cache {_median(warm, 'first') * 1e3:.0f} ms "
            f"(import {_median(warm, 'import') * 1e3:.0f} ms, second solve "
            f"{_median(warm, 'second') * 1e3:.2f} ms); cold cache "
            f"{_median(cold, 'first'):.1f} s (import {_median(cold, 'import') * 1e3:.0f} ms)"
        )

    with tempfile.TemporaryDirectory() as cache:
        _cli_seconds(cache, 1)  # fills the cache
        cli = _cli_seconds(cache, args.runs)
        print(f"cpsolver solve CARDS (whole process, warm cache): median {cli:.2f} s")


if __name__ == "__main__":
    main()
