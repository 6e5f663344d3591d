"""Clients across replicas: one typed client (and the CLI) with a multi-address gRPC target
spreads calls over two real servers with round_robin, and keeps working when one stops."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from conftest import RunningServer, running_server

from cpsolver.client import connect

CPSOLVER = Path(sys.executable).with_name("cpsolver")


def _calls(server: RunningServer) -> int:
    return sum(
        1
        for x in list(server.stderr)
        if '"method": "/cpsolver.v1.ChinesePokerService/EvaluateHand"' in x
    )


def _settled_calls(*servers: RunningServer, total: int, within: float = 10.0) -> list[int]:
    """The calls each server has logged, once they add up to ``total`` (or ``within`` seconds
    passed): a worker writes its access-log line after answering, and a thread reads the
    server's stderr, so a count taken right after the last answer can miss the last lines."""
    deadline = time.monotonic() + within
    counts = [_calls(s) for s in servers]
    while sum(counts) < total and time.monotonic() < deadline:
        time.sleep(0.05)
        counts = [_calls(s) for s in servers]
    return counts


def test_round_robin_over_two_servers_and_failover() -> None:
    with (
        running_server("--workers", "1", "--log-format", "json") as first,
        running_server("--workers", "1", "--log-format", "json") as second,
    ):
        target = f"ipv4:{first.address},{second.address}"
        with connect(target, timeout=30) as solver:
            for _ in range(20):
                assert solver.evaluate("Jh Js 4c 4d Jd").name == "full house, jacks over fours"
            calls = _settled_calls(first, second, total=20)
            assert calls[0] >= 5 and calls[1] >= 5, calls
            assert sum(calls) == 20
            cli = subprocess.run(
                [str(CPSOLVER), "evaluate", "Qs Qd 2c", "--server", target, "--json"],
                capture_output=True, text=True, timeout=60,
            )  # fmt: skip
            assert cli.returncode == 0, cli.stderr
            assert json.loads(cli.stdout)["category"] == "pair"
            _settled_calls(first, second, total=21)  # the CLI's call logged too
            assert first.stop() == 0
            before = _calls(second)
            for _ in range(10):  # the stopped address is dropped; retries cover the switch
                assert solver.evaluate("Jh Js 4c 4d Jd").name == "full house, jacks over fours"
            assert _settled_calls(second, total=before + 10) == [before + 10]


def _workers(server: RunningServer, skip: int = 0) -> set[int]:
    """The worker pids of the server's EvaluateHand calls, after the first ``skip`` of them."""
    method = '"method": "/cpsolver.v1.ChinesePokerService/EvaluateHand"'
    calls = [json.loads(x)["worker"] for x in list(server.stderr) if method in x]
    return set(calls[skip:])


def test_connections_reach_every_worker_of_a_server() -> None:
    """One connection is one worker (the kernel hands connections to the workers sharing the
    port); connections=16 reaches both workers of a 2-worker server (all 16 on one worker:
    probability 2 / 2**16)."""
    with running_server("--workers", "2", "--log-format", "json") as server:
        with connect(server.address, timeout=30) as one:
            for _ in range(8):
                one.evaluate("Jh Js 4c 4d Jd")
        assert _settled_calls(server, total=8) == [8]
        assert len(_workers(server)) == 1
        with connect(server.address, timeout=30, connections=16) as many:
            many.wait_ready(timeout=30)
            for _ in range(32):
                many.evaluate("Jh Js 4c 4d Jd")
        assert _settled_calls(server, total=40) == [40]
        # The 32 calls of the many-connection client alone reached both workers (counting the
        # first client's calls too would pass half the time with a single connection).
        assert len(_workers(server, skip=8)) == 2
