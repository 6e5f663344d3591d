"""Benchmark of a server's cold start (not a test): ``python -m bench.cold_start``.

Times ``cpsolver serve`` from process start to its ready line, ``--baked-runs`` / ``--runs``
times each way:

* **no cache**: an empty numba cache directory, so every kernel compiles (what a container
  without the baked cache pays at every start);
* **baked, read-only**: ``CPSOLVER_KERNEL_CACHE`` pointing at a ``cpsolver compile`` directory
  made read-only, the server run under ``setpriv`` without CAP_DAC_OVERRIDE so root obeys the
  file modes, as a container's user does (the cache is copied to $TMPDIR and loaded).

Prints medians and the ratio; docs/BENCHMARKS.md records them with the command.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

CPSOLVER = str(Path(sys.executable).with_name("cpsolver"))
NO_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"]


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without a kernel cache setting, plus ``extra``."""
    unset = ("NUMBA_CACHE_DIR", "CPSOLVER_KERNEL_CACHE")
    return {**{k: v for k, v in os.environ.items() if k not in unset}, **extra}


@contextlib.contextmanager
def ready_server(
    env: dict[str, str], workers: int, wrap: list[str] | None = None
) -> Iterator[tuple[int, float]]:
    """``cpsolver serve --port 0`` (under ``wrap``), once it is ready: its port and the seconds
    from process start to its ready event; the server is stopped afterwards."""
    command = [*(wrap or []), CPSOLVER, "serve", "--port", "0", "--workers", str(workers)]
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*command, "--log-format", "json", "--no-access-log"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            entry = json.loads(line)
            if entry.get("event") == "ready":
                port = entry["fields"]["port"] if "fields" in entry else entry["port"]
                break
        else:
            raise RuntimeError(f"the server exited ({proc.wait()}) before it was ready")
        yield int(port), time.perf_counter() - start
    finally:
        proc.terminate()
        proc.wait(60)


def time_to_ready(env: dict[str, str], workers: int, wrap: list[str] | None = None) -> float:
    """Seconds from starting ``cpsolver serve`` to its ready event; the server is then stopped."""
    with ready_server(env, workers, wrap) as (_, seconds):
        return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="starts without a cache")
    parser.add_argument("--baked-runs", type=int, default=7, help="starts from the baked cache")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        baked = Path(tmp) / "kernels"
        subprocess.run([CPSOLVER, "compile", str(baked)], env=clean_env(), check=True)
        subprocess.run(["chmod", "-R", "a-w", str(baked)], check=True)
        # The baked starts run as a block, first: each cold start compiles on both cores for
        # tens of seconds, and the machine takes a while to settle after one.
        baked_env = clean_env(CPSOLVER_KERNEL_CACHE=str(baked))
        warm = [time_to_ready(baked_env, args.workers, NO_OVERRIDE) for _ in range(args.baked_runs)]
        cold = []
        for run in range(args.runs):
            empty = Path(tmp) / f"empty-{run}"
            empty.mkdir()
            cold.append(time_to_ready(clean_env(NUMBA_CACHE_DIR=str(empty)), args.workers))
        subprocess.run(["chmod", "-R", "u+w", str(baked)], check=True)
    cold_median, warm_median = statistics.median(cold), statistics.median(warm)
    print(f"cold start to ready, {args.workers} workers (median, all runs):")
    print(f"  no kernel cache:        {cold_median:6.2f} s  {[round(x, 2) for x in cold]}")
    print(f"  baked cache, read-only: {warm_median:6.2f} s  {[round(x, 2) for x in warm]}")
    print(f"  ratio: {cold_median / warm_median:.1f}x")


if __name__ == "__main__":
    main()
