"""Prometheus metrics scraped from a real ``/metrics`` of a real 2-worker server after real
calls: the standard gRPC server metrics, summed over the workers, and the server's own."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from collections.abc import Iterator

import grpc
import pytest
from conftest import RunningServer, running_server
from helpers import wire
from prometheus_client.parser import text_string_to_metric_families

from cpsolver.v1 import chinese_poker_pb2, chinese_poker_pb2_grpc

HAND = "As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"
SERVICE = "cpsolver.v1.ChinesePokerService"
SOLVES, BAD, BATCH = 12, 3, 4


def scrape(port: int) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of /metrics as {(name, labels): value}."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
        assert reply.status == 200
        assert reply.headers["Content-Type"].startswith("text/plain")
        text = reply.read().decode()
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(
    samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str
) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def _ready(server: RunningServer) -> dict[str, object]:
    events = [json.loads(x) for x in list(server.stderr) if '"event": "ready"' in x]
    assert len(events) == 1
    return events[0]


@pytest.fixture(scope="module")
def metered() -> Iterator[RunningServer]:
    with running_server("--workers", "2", "--metrics-port", "0", "--log-format", "json") as server:
        yield server


def _calls(server: RunningServer) -> None:
    """SOLVES Solve calls over separate connections (so both workers get some), BAD bad
    EvaluateHand calls, one BatchSolve of BATCH hands."""
    solve = chinese_poker_pb2.SolveRequest(cards=wire(HAND), rules=chinese_poker_pb2.ChineseRules())
    for _ in range(SOLVES):
        with server.channel(options=[("grpc.use_local_subchannel_pool", 1)]) as channel:
            chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel).Solve(solve, timeout=60)
    with server.channel() as channel:
        stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel)
        for _ in range(BAD):
            with pytest.raises(grpc.RpcError) as bad:
                stub.EvaluateHand(
                    chinese_poker_pb2.EvaluateHandRequest(cards=wire("As") * 2), timeout=30
                )
            assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        batch = chinese_poker_pb2.BatchSolveRequest(requests=[solve] * BATCH)
        assert len(list(stub.BatchSolve(batch, timeout=60))) == BATCH


def test_the_counts_are_the_calls_summed_over_both_workers(metered: RunningServer) -> None:
    port = int(_ready(metered)["metrics_port"])  # type: ignore[call-overload]
    _calls(metered)
    samples = scrape(port)
    unary = {"grpc_type": "unary", "grpc_service": SERVICE}
    assert value(samples, "grpc_server_started_total", **unary, grpc_method="Solve") == SOLVES
    ok = value(samples, "grpc_server_handled_total", **unary, grpc_method="Solve", grpc_code="OK")
    assert ok == SOLVES
    bad = value(
        samples, "grpc_server_handled_total", **unary, grpc_method="EvaluateHand",
        grpc_code="INVALID_ARGUMENT",
    )  # fmt: skip
    assert bad == BAD
    count = value(samples, "grpc_server_handling_seconds_count", **unary, grpc_method="Solve")
    assert count == SOLVES
    inf = value(
        samples, "grpc_server_handling_seconds_bucket", **unary, grpc_method="Solve", le="+Inf"
    )
    assert inf == SOLVES
    stream = {"grpc_type": "server_stream", "grpc_service": SERVICE, "grpc_method": "BatchSolve"}
    assert value(samples, "grpc_server_handled_total", **stream, grpc_code="OK") == 1
    assert value(samples, "cpsolver_hands_solved_total") == SOLVES + BATCH
    assert value(samples, "cpsolver_solve_seconds_total") > 0
    assert value(samples, "cpsolver_calls_in_flight") == 0
    # Both workers answered (their pids in the access log), and the scrape sums them.
    workers = {
        json.loads(x)["worker"]
        for x in list(metered.stderr)
        if '"method": "/cpsolver.v1.ChinesePokerService/Solve"' in x
    }
    assert len(workers) == 2


def test_a_worker_restart_is_counted_and_its_counts_stay(metered: RunningServer) -> None:
    port = int(_ready(metered)["metrics_port"])  # type: ignore[call-overload]
    before = scrape(port)
    started = value(
        before,
        "grpc_server_started_total",
        grpc_type="unary",
        grpc_service=SERVICE,
        grpc_method="Solve",
    )
    assert started > 0
    pids = {json.loads(x)["worker"] for x in list(metered.stderr) if '"event": "rpc"' in x}
    os.kill(next(iter(pids)), signal.SIGKILL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if value(scrape(port), "cpsolver_worker_restarts_total") == 1:
            break
        time.sleep(0.5)
    after = scrape(port)
    assert value(after, "cpsolver_worker_restarts_total") == 1
    assert (
        value(
            after,
            "grpc_server_started_total",
            grpc_type="unary",
            grpc_service=SERVICE,
            grpc_method="Solve",
        )
        == started
    )
    assert value(after, "cpsolver_calls_in_flight") == 0


def test_metrics_are_off_by_default(grpc_server: RunningServer) -> None:
    ready = [x for x in list(grpc_server.stderr) if '"event": "ready"' in x]
    assert ready and json.loads(ready[0])["metrics_port"] is None


def test_sigterm_stops_the_metrics_process_too() -> None:
    """The metrics process exits on SIGTERM like the workers: the server stops cleanly within
    seconds, not after the supervisor's patience (drain + grace + 5 s, then SIGKILL)."""
    with running_server("--workers", "1", "--metrics-port", "0", "--grace", "10") as server:
        start = time.monotonic()
        assert server.stop() == 0
        elapsed = time.monotonic() - start
    assert not [line for line in server.stderr if "did not stop in time" in line]
    assert elapsed < 8.0
