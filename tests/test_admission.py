"""Admission by time (issue 30), against a real one-worker server: a call starts only if the
work it is expected to take (learned per method and cost class: a ``Solve``'s estimator)
fits the time left before its deadline, after the work queued ahead of it; the rest is refused
at once with RESOURCE_EXHAUSTED and a ``google.rpc.RetryInfo``, and counted in ``/metrics``."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable

import grpc
from conftest import RunningServer
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from helpers import wire
from test_server_metrics import scrape, value

from cpsolver.v1 import chinese_poker_pb2, chinese_poker_pb2_grpc, open_face_pb2, open_face_pb2_grpc

HAND = "As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"
SOLVE = "/cpsolver.v1.ChinesePokerService/Solve"


def _solve(estimator: str) -> chinese_poker_pb2.SolveRequest:
    return chinese_poker_pb2.SolveRequest(
        cards=wire(HAND), rules=chinese_poker_pb2.ChineseRules(), estimator=estimator, seed=1
    )


def _metrics_port(server: RunningServer) -> int:
    ready = [json.loads(line) for line in list(server.stderr) if '"event": "ready"' in line]
    return int(ready[0]["metrics_port"])


def _retry_after(error: grpc.RpcError) -> float | None:
    """The RetryInfo delay of a refusal, in seconds (None without one)."""
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    if status is None:
        return None
    for detail in status.details:
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            info = error_details_pb2.RetryInfo()
            detail.Unpack(info)
            return info.retry_delay.ToNanoseconds() / 1e9
    return None


def test_a_call_whose_work_cannot_fit_its_deadline_is_refused_at_once(serve_grpc) -> None:
    """Once the worker has seen that ``rollouts:300`` takes ~0.2 s, such a call with 50 ms
    left is refused on the spot (no work done) with DEADLINE_EXCEEDED and no RetryInfo: with
    nothing queued ahead, no worker could finish it, only a longer deadline helps; a
    table-model Solve (another cost class of the same method) with the same deadline is still
    served."""
    args = ("--workers", "1", "--metrics-port", "0", "--log-format", "json")
    with serve_grpc(*args) as server:
        channel = server.channel()
        stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel)
        for _ in range(2):
            stub.Solve(_solve("rollouts:300"), timeout=60)
            stub.Solve(_solve("model"), timeout=60)
        started = time.monotonic()
        try:
            stub.Solve(_solve("rollouts:300"), timeout=0.05)
        except grpc.RpcError as error:
            refused = error
        else:
            raise AssertionError("a 0.2 s call was admitted with 50 ms left")
        assert time.monotonic() - started < 0.05
        assert refused.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert "even on an idle worker" in str(refused.details())
        assert _retry_after(refused) is None
        assert stub.Solve(_solve("model"), timeout=0.5).estimator == "model"
        samples = scrape(_metrics_port(server))
        assert value(samples, "cpsolver_admission_refusals_total",
                     grpc_method="Solve", reason="deadline") == 1  # fmt: skip
        channel.close()


def test_an_anytime_call_is_admitted_with_less_time_than_it_usually_takes(serve_grpc) -> None:
    """Street advice stops at its deadline with its ranking so far: once the worker has seen
    a street-1 advice take its time (up to its default budget of 1 s; less when the halving
    leaves one placement clearly ahead), one of the same cost class with three quarters of
    that left is still admitted and answers every placement within the deadline (a Solve of
    such a cost would be refused), and one with 1 ms is DEADLINE_EXCEEDED."""
    request = open_face_pb2.AdviseOpenFaceRequest(
        street=1, hand=wire("As Kd 7c 7h 2s"), opponents=[open_face_pb2.OpenFaceBoard()] * 2
    )
    with serve_grpc("--workers", "1") as server:
        channel = server.channel()
        stub = open_face_pb2_grpc.OpenFaceServiceStub(channel)
        for _ in range(2):  # the first may compile the advice kernels
            learned = stub.AdviseOpenFace(request, timeout=300)
        cost = learned.elapsed_ms / 1e3
        assert cost > 0.3  # an expensive call: 232 placements simulated for most of a second
        left = 0.75 * cost
        started = time.monotonic()
        reply = stub.AdviseOpenFace(request, timeout=left)
        assert time.monotonic() - started < left
        assert len(reply.ranked) == 232 and not reply.exact and reply.elapsed_ms < left * 1e3
        try:
            stub.AdviseOpenFace(request, timeout=0.001)
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        else:
            raise AssertionError("an advice with 1 ms left answered")
        channel.close()


def test_a_call_without_a_deadline_gets_the_default_budget(serve_grpc) -> None:
    """``--default-budget 0.05``: once a ``rollouts:300`` call is known to take longer, one
    without a deadline is refused as one with 50 ms left would be; with a deadline that fits,
    it is served."""
    with serve_grpc("--workers", "1", "--default-budget", "0.05") as server:
        channel = server.channel()
        stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel)
        stub.Solve(_solve("rollouts:300"), timeout=60)  # learned: ~0.2 s
        try:
            stub.Solve(_solve("rollouts:300"))
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "within its 50 ms" in str(error.details())
        else:
            raise AssertionError("a call without a deadline ran past the default budget")
        assert stub.Solve(_solve("rollouts:300"), timeout=60).estimator.startswith("rollouts")
        channel.close()


def test_a_class_learned_slow_is_probed_again_not_refused_for_good(serve_grpc) -> None:
    """A cost class is what the request says about the work, not all of it: ``rollouts:500``
    Solves at a table of 4 (~220 ms alone on a quiet core; ``rollouts:300``'s ~130 ms was too
    close to the deadline to teach anything there) teach the worker that the class takes longer
    than 150 ms, so heads-up calls of the same class (~70 ms) with 150 ms deadlines are refused at
    once (DEADLINE_EXCEEDED, "even on an idle worker"). No refused call renews the estimate;
    once it is a second old, one call runs as a probe, its time replaces the estimate and the
    calls are served. Before, the class was refused for good (a CI run saw a whole test's
    4,435 calls refused after its first calls ran on a busy core)."""

    def request(players: int) -> chinese_poker_pb2.SolveRequest:
        return chinese_poker_pb2.SolveRequest(
            cards=wire(HAND), estimator="rollouts:500", seed=1,
            rules=chinese_poker_pb2.ChineseRules(players=players),
        )  # fmt: skip

    with serve_grpc("--workers", "1") as server:
        channel = server.channel()
        stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel)
        for _ in range(3):
            stub.Solve(request(4), timeout=60)
        codes: list[grpc.StatusCode] = []
        stop = time.monotonic() + 8
        while codes.count(grpc.StatusCode.OK) < 3 and time.monotonic() < stop:
            try:
                stub.Solve(request(2), timeout=0.15)
                codes.append(grpc.StatusCode.OK)
            except grpc.RpcError as error:
                codes.append(error.code())
                if error.code() == grpc.StatusCode.DEADLINE_EXCEEDED and len(codes) == 1:
                    assert "even on an idle worker" in str(error.details())
            time.sleep(0.02)
        channel.close()
    assert codes[0] == grpc.StatusCode.DEADLINE_EXCEEDED, codes[:5]
    assert codes.count(grpc.StatusCode.OK) == 3, Counter(codes)
    refused_first = codes.index(grpc.StatusCode.OK)
    assert refused_first >= 10, codes[:20]  # refused for about the probe interval first


def test_expensive_calls_at_overload_are_refused_not_run_late(serve_grpc) -> None:
    """Eight callers at once, each sending ``rollouts:30`` Solves (~20 ms of CPU) back to back
    with 100 ms deadlines, for 4 s, at one worker (several times what it can serve): the
    worker runs them one at a time in its heavy lane and refuses what would not finish in
    time, so few of the calls it runs end after their caller gave up (86% did before) and
    every refusal carries RetryInfo."""
    args = ("--workers", "1", "--metrics-port", "0", "--log-format", "json")
    with serve_grpc(*args) as server:
        channel = server.channel()
        stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel)
        for _ in range(5):  # the cost of the class learned
            stub.Solve(_solve("rollouts:30"), timeout=60)
        port = _metrics_port(server)
        before = scrape(port)
        codes: Counter[grpc.StatusCode] = Counter()
        without_retry = []
        lock = threading.Lock()
        stop = time.monotonic() + 4

        def caller() -> None:
            while time.monotonic() < stop:
                try:
                    stub.Solve(_solve("rollouts:30"), timeout=0.1)
                    code = grpc.StatusCode.OK
                except grpc.RpcError as error:
                    code = error.code()
                    if code == grpc.StatusCode.RESOURCE_EXHAUSTED and _retry_after(error) is None:
                        without_retry.append(error.details())
                    if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
                        time.sleep(0.005)  # a refusal is immediate: don't spin on the worker
                with lock:
                    codes[code] += 1

        threads = [threading.Thread(target=caller) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        time.sleep(0.5)  # the last calls' ends counted
        after = scrape(port)
        channel.close()

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    handled = delta("grpc_server_handled_total", grpc_service="cpsolver.v1.ChinesePokerService",
                    grpc_method="Solve", grpc_type="unary", grpc_code="OK")  # fmt: skip
    late = delta("cpsolver_calls_late_total", grpc_method="Solve")
    refused = sum(
        delta("cpsolver_admission_refusals_total", grpc_method="Solve", reason=reason)
        for reason in ("queue", "deadline", "no_slot", "expired")
    )
    assert codes[grpc.StatusCode.OK] >= 20, codes
    assert codes[grpc.StatusCode.RESOURCE_EXHAUSTED] >= 20, codes
    assert not without_retry, without_retry[:3]
    assert refused >= codes[grpc.StatusCode.RESOURCE_EXHAUSTED] * 0.9, (refused, codes)
    ran = codes[grpc.StatusCode.OK] + codes[grpc.StatusCode.DEADLINE_EXCEEDED]
    assert handled >= codes[grpc.StatusCode.OK] * 0.9, (handled, codes)
    # Alone on the machine it stays under a quarter; with the other test worker busy on the 2
    # cores (CI runs two) 26-33% were seen (a CI run, and beside two busy loops), every run
    # sharing its core; before admission by time 86% ended late.
    assert late <= 0.45 * ran, (late, ran, codes)


def test_a_call_is_heavy_by_its_cpu_time_not_its_wall_time() -> None:
    """The heavy lane runs CPU-bound calls one at a time; a call is heavy by the CPU time its
    handler takes, not its wall time, which contention stretches: a call that spends 30 ms
    waiting (as a cheap call does among others on a busy core) still runs beside others, one
    that computes for 30 ms runs alone. The interceptor in a real gRPC server in this process,
    with two handlers that only wait or only compute."""
    from concurrent import futures

    from cpsolver.server.admission import AdmissionInterceptor

    running = Counter[str]()
    most = Counter[str]()
    lock = threading.Lock()

    def handler(name: str, work: Callable[[], None]) -> grpc.RpcMethodHandler:
        def behaviour(request: bytes, context: grpc.ServicerContext) -> bytes:
            with lock:
                running[name] += 1
                most[name] = max(most[name], running[name])
            try:
                work()
            finally:
                with lock:
                    running[name] -= 1
            return b"done"

        return grpc.unary_unary_rpc_method_handler(behaviour)

    def compute() -> None:
        begun = time.thread_time()
        while time.thread_time() - begun < 0.03:
            pass

    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=8),
        interceptors=[AdmissionInterceptor(max_calls=4, max_streams=4, max_queue=10.0)],
    )
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(
        "t.Lane", {"Wait": handler("Wait", lambda: time.sleep(0.03)),
                   "Compute": handler("Compute", compute)},
    )])  # fmt: skip
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            for name in ("Wait", "Compute"):
                call = channel.unary_unary(f"/t.Lane/{name}")
                for _ in range(3):  # its cost learned
                    assert call(b"", timeout=30) == b"done"
                most[name] = 0
                answers = [call.future(b"", timeout=30) for _ in range(4)]
                assert [answer.result() for answer in answers] == [b"done"] * 4
    finally:
        server.stop(None)
    assert most["Compute"] == 1, most  # the heavy lane: one at a time
    assert most["Wait"] >= 3, most  # 30 ms of wall time, but cheap: side by side
