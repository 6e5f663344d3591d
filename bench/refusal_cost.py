"""What one refused call costs a worker (issue 30; not a test): ``python -m bench.refusal_cost``.

One worker (``cpsolver serve --workers 1 --metrics-port 0``, pinned to CPU 0, the client
processes to the others, as ``bench.soak --server-cpus 0``), fed open-loop for ``--seconds``
at ``--rate`` calls/s, alternately:

* **refused**: ``Solve`` with ``rollouts:30`` (~20 ms of work) and a 5 ms deadline: the
  admission refuses each as soon as it has read the body (its work cannot fit), the path of
  most refusals at 10x overload of expensive calls (``bench.soak --phases expensive``);
* **cheap**: ``Solve`` with the ``strength`` objective and a 2 s deadline, served.

Prints each run's codes and the server's CPU milliseconds per call (supervisor and worker, user
+ system, over the run, less what the idle server used over as long: measured first), so the
share of a core that refusing N calls a second takes is N times the first figure.
docs/BENCHMARKS.md records them with the command.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from bench import soak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=500.0, help="calls per second")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each run")
    parser.add_argument("--runs", type=int, default=2, help="runs of each kind, alternating")
    args = parser.parse_args()
    soak.pin({0})
    server = soak.Server("--workers", "1", "--metrics-port", "0")
    try:  # the rollouts class's cost learned first, as a loaded worker knows it
        soak.drive(server.address, seconds=3, closed=2, estimator="rollouts:30", deadline=5.0)
        before, start = server.cpu_seconds(), time.monotonic()
        time.sleep(args.seconds)
        idle = (server.cpu_seconds() - before) / (time.monotonic() - start)
        print(json.dumps({"idle_server_cpu_s_per_s": round(idle, 4)}), flush=True)
        kinds = {"refused": ("rollouts:30", 0.005), "cheap": ("", 2.0)}
        for run in range(args.runs):
            for kind, (estimator, deadline) in kinds.items():
                before, start = server.cpu_seconds(), time.monotonic()
                calls = soak.drive(server.address, rate=args.rate, seconds=args.seconds,
                                   processes=2, estimator=estimator, deadline=deadline)  # fmt: skip
                used = server.cpu_seconds() - before - idle * (time.monotonic() - start)
                print(json.dumps({
                    "run": run + 1, "kind": kind, "calls": len(calls),
                    "codes": dict(Counter(code for _, _, code in calls)),
                    "server_cpu_ms_per_call": round(1000 * used / max(len(calls), 1), 3),
                }), flush=True)  # fmt: skip
    finally:
        server.close()


if __name__ == "__main__":
    main()
