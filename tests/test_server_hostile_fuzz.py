"""A bounded hostile fuzz run against a real server (issue 15): 3,000 generated requests over
every RPC (random extreme field values, mutated and random bytes; :mod:`bench.hostile`) get no
INTERNAL and no UNKNOWN, no worker dies, and the workers' memory stays flat: RSS after the run
is within 15 MB of RSS after a 300-request warm-up (the undecodable-body leak of D1 grew a
worker by ~16 KB a call, ~20 MB here). ``make soak`` runs 100,000 of them.
"""

from __future__ import annotations

from pathlib import Path

from bench.hostile import fire, rss_kb

RSS_BOUND_KB = 15 * 1024


def _workers(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def test_hostile_requests_get_no_internal_and_memory_stays_flat(serve_grpc) -> None:
    with serve_grpc("--workers", "2", "--no-access-log") as server:
        workers = _workers(server.proc.pid)
        warm = fire(server.address, 300, seed=1, max_seconds=30)
        assert not warm.bad, warm.bad[:5]
        before = {pid: rss_kb(pid) for pid in workers}
        run = fire(server.address, 3000, seed=15, max_seconds=70)
        after = {pid: rss_kb(pid) for pid in workers}
        assert run.calls >= 1500, run  # bounded in time: most of them must have been sent
        assert not run.bad, (run.codes, run.bad[:10])
        assert _workers(server.proc.pid) == workers, "a worker died"
        growth = {pid: after[pid] - before[pid] for pid in workers}
        assert max(growth.values()) <= RSS_BOUND_KB, (before, after)
        print(f"codes {dict(run.codes)} in {run.seconds:.1f} s; RSS kB {before} -> {after}")
