"""Benchmark of a fresh server's first open-face calls (not a test): ``python -m
bench.ofc_first_call``.

Fills a kernel cache with ``cpsolver compile DIR`` (what a container image carries) and
makes it read-only, then starts ``cpsolver serve --workers 1 --port 0`` with
``CPSOLVER_KERNEL_CACHE=DIR`` under ``setpriv`` without CAP_DAC_OVERRIDE (root obeys the file
modes, as the image's user does: the cache is copied to $TMPDIR, bench/cold_start.py). Once
it is ready, times its first ``AdviseOpenFace`` calls (street 1 with 16 deals per placement,
then the last street, exact), a ``SetFantasyland`` and a ``ScoreOpenFace``, each twice,
through the typed client: the first call pays whatever the warm-up left to load or compile,
the second is the steady state. ``--runs N`` starts the server N times on the same cache.

Prints the seconds to ready and each call's seconds; docs/BENCHMARKS.md records them with the
command.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.cold_start import CPSOLVER, NO_OVERRIDE, clean_env, ready_server

STREET_1 = {"street": 1, "hand": "As Kd 7c 7h 2s", "opponents": [{}, {}]}
LAST_STREET = {
    "street": 5,
    "hand": "Qd 2c 7h",
    "board": {"back": "As Ad Ac 9s 9d", "middle": "Ks Kd 4c 4d", "front": "Qs 3h"},
    "opponents": [{"back": "Ts 9h 8c 7d 6s", "middle": "Jh Jd 5c 5d 2s", "front": "Th Td 3c"}],
}
FANTASYLAND = "As Ah Ad Kh Kd Ks Qs Jh Th 9c 8c 7c 6c 2d"
TABLE = {
    "A": {"back": "2s 2h 2d 2c Ks", "middle": "As Ah Ad Kh Kd", "front": "Qs Qh 3c"},
    "B": {"back": "9s 8s 7s 6s 5s", "middle": "Th Td Tc 3h 3d", "front": "Jc Jd 4s"},
}


def _calls(solver: Any) -> list[tuple[str, Callable[[], object]]]:
    ofc = solver.ofc
    return [
        ("AdviseOpenFace, street 1 (16 deals)", lambda: ofc.advise(STREET_1, samples=16)),
        ("AdviseOpenFace, last street (exact)", lambda: ofc.advise(LAST_STREET)),
        ("SetFantasyland, 14 cards", lambda: ofc.fantasyland(FANTASYLAND, fantasyland_value=10)),
        ("ScoreOpenFace, 2 seats", lambda: ofc.score(TABLE)),
    ]


def one_run(cache: Path) -> tuple[float, list[tuple[str, float, float]]]:
    """Start a server on ``cache``; seconds to ready and (call, first s, second s)."""
    from cpsolver.client import connect

    env = clean_env(CPSOLVER_KERNEL_CACHE=str(cache))
    with ready_server(env, 1, NO_OVERRIDE) as (port, ready):
        times = []
        with connect(f"127.0.0.1:{port}") as solver:
            for name, call in _calls(solver):
                seconds = []
                for _ in range(2):
                    began = time.perf_counter()
                    call()
                    seconds.append(time.perf_counter() - began)
                times.append((name, seconds[0], seconds[1]))
        return ready, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="server starts on the same cache")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "kernels"
        began = time.perf_counter()
        subprocess.run([CPSOLVER, "compile", str(cache)], env=clean_env(), check=True,
                       stderr=subprocess.DEVNULL)  # fmt: skip
        print(f"cpsolver compile: {time.perf_counter() - began:.1f} s")
        subprocess.run(["chmod", "-R", "a-w", str(cache)], check=True)
        try:
            for run in range(1, args.runs + 1):
                ready, times = one_run(cache)
                print(f"run {run}: ready in {ready:.2f} s (load average {os.getloadavg()[0]:.1f})")
                for name, first, second in times:
                    print(f"  {name:40s} first {first:7.3f} s  second {second:7.3f} s")
        finally:
            subprocess.run(["chmod", "-R", "u+w", str(cache)], check=True)


if __name__ == "__main__":
    main()
