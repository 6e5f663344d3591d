"""Reliability soak (issue 15): fuzz, sustained load, overload, kill -9, SIGTERM in flight.

    python -m bench.soak [--fuzz 100000] [--load-seconds 180] [--overload 5] [--seed 15]

Starts ``cpsolver serve --workers 2`` on 127.0.0.1 (a free port; ``--max-connection-age 10
--drain 2 --grace 5``, the access log to a temporary file) and runs, in order, every phase
bounded in count and time:

1. **fuzz**: ``--fuzz`` hostile requests over every RPC (:mod:`bench.hostile`) in ten parts;
   calls by code, the workers' RSS before and after each part;
2. **capacity**: closed-loop unary ``Solve`` (objective strength, random hands) from client
   processes for 10 s (OK calls per second, reported), then the capacity the later phases use:
   the highest open-loop rate the same clients get served in full (:func:`open_loop_capacity`);
3. **load**: open-loop arrivals at 80% of that capacity for ``--load-seconds`` (2 s deadlines);
4. **overload**: open loop at ``--overload`` times capacity for 30 s: the server should shed
   with RESOURCE_EXHAUSTED and keep its goodput (OK/s) near capacity;
5. **kill -9**: open loop at 50% for 30 s, one worker SIGKILLed at 5 s: calls lost, and the
   time until the restarted worker serves existing clients' calls (from the access log);
6. **SIGTERM**: open loop at 50%, SIGTERM at 5 s: calls started before SIGTERM or within the
   drain that did not succeed (lost), the exit code, whether any worker had to be killed.

Issue 30's phases run on their own servers: ``expensive`` (:func:`expensive_phase`), ``edge``
(:func:`edge_phase`: direct and through Envoy, the Python generator), ``edge-h2load``
(:func:`edge_h2load_phase`: through Envoy's HTTP/JSON route at true 5x/10x, sent by h2load,
Debian's ``nghttp2-client``; skipped with a line saying so where h2load is missing) and
``edge-kill`` (:func:`edge_kill_phase`: a replica killed behind Envoy under load).

Clients run in their own processes (``spawn``), so the load generator does not share the GIL
with the measurement; on a 2-core host the clients still share the cores with the server,
unless ``--server-cpus`` pins the servers to those CPUs and this process (the clients it
spawns, Envoy, h2load) to the others: a client machine of its own, as in production.
Figures go to docs/BENCHMARKS.md with the command and date.
"""

from __future__ import annotations

import argparse
import calendar
import contextlib
import json
import math
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.hostile import FireResult, fire, rss_kb

DEADLINE = 2.0
CHANNELS = 16
PHASES = ("fuzz", "capacity", "load", "overload", "kill9", "sigterm", "expensive", "edge",
          "edge-h2load", "edge-kill")  # fmt: skip
# The expensive-call scenario (issue 30): Solve with 30 rollouts (~20 ms of CPU), every call
# with a 100 ms deadline, at 10x the capacity of one worker.
EXPENSIVE_ESTIMATOR = "rollouts:30"
EXPENSIVE_DEADLINE = 0.1


def _requests(count: int, seed: int, estimator: str = "") -> list[bytes]:
    """``Solve`` bodies of random hands: objective ``strength`` (a cheap call), or ``ev`` with
    ``estimator`` (e.g. ``rollouts:30``, an expensive one)."""
    from cpsolver.v1 import cards_pb2, chinese_poker_pb2

    rng = random.Random(seed)
    suits = (cards_pb2.SUIT_CLUBS, cards_pb2.SUIT_DIAMONDS, cards_pb2.SUIT_HEARTS,
             cards_pb2.SUIT_SPADES)  # fmt: skip
    out = []
    for _ in range(count):
        hand = rng.sample(range(52), 13)
        request = chinese_poker_pb2.SolveRequest(
            objective=chinese_poker_pb2.OBJECTIVE_EV if estimator
            else chinese_poker_pb2.OBJECTIVE_STRENGTH,
            cards=[cards_pb2.Card(rank=i // 4 + 2, suit=suits[i % 4]) for i in hand],
            estimator=estimator,
        )  # fmt: skip
        out.append(request.SerializeToString())
    return out


SOLVE = "/cpsolver.v1.ChinesePokerService/Solve"


def _load_client(
    address: str, rate: float, seconds: float, closed: int, seed: int, out: Any,
    estimator: str = "", deadline: float = DEADLINE,
) -> None:  # fmt: skip
    """One client process: open loop at ``rate`` calls/s (or ``closed`` closed-loop threads)
    for ``seconds``, each call with ``deadline``; puts a list of (start, latency s, code
    name), ``start`` on the system-wide monotonic clock (the parent compares it with when it
    sent a signal)."""
    import grpc

    bodies = _requests(500, seed, estimator)
    channels = [
        grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(CHANNELS)
    ]
    for channel in channels:
        grpc.channel_ready_future(channel).result(timeout=30)
    calls = [c.unary_unary(SOLVE, request_serializer=None, response_deserializer=None)
             for c in channels]  # fmt: skip
    records: list[tuple[float, float, str]] = []
    details: Counter[str] = Counter()  # each error code with its message, as the caller saw it
    lock = threading.Lock()
    begin = time.monotonic()
    end = begin + seconds
    rng = random.Random(seed)

    def record(started: float, future: Any) -> None:
        exc = future.exception()
        code = "OK" if exc is None else exc.code().name
        with lock:
            records.append((started, time.monotonic() - started, code))
            if exc is not None:
                details[f"{code}: {exc.details()}"[:160]] += 1

    if closed:

        def loop(offset: int) -> None:
            index = offset
            while time.monotonic() < end:
                started = time.monotonic()
                future = calls[index % CHANNELS].future(bodies[index % len(bodies)],
                                                        timeout=deadline)  # fmt: skip
                with contextlib.suppress(grpc.RpcError):
                    future.result()
                record(started, future)
                index += closed

        threads = [threading.Thread(target=loop, args=(i,)) for i in range(closed)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    else:
        pending: list[Any] = []
        index = 0
        next_at = begin
        while next_at < end:
            now = time.monotonic()
            if now < next_at:
                time.sleep(next_at - now)
            started = time.monotonic()
            future = calls[index % CHANNELS].future(bodies[index % len(bodies)],
                                                    timeout=deadline)  # fmt: skip
            future.add_done_callback(lambda f, s=started: record(s, f))
            pending.append(future)
            index += 1
            next_at += rng.expovariate(rate)  # Poisson arrivals
        for future in pending:
            with contextlib.suppress(Exception):  # counted by the callback
                future.result(timeout=deadline + 5)
        time.sleep(0.2)
    for channel in channels:
        channel.close()
    out.put((records, time.process_time(), dict(details)))


# What the clients measured in the last :func:`drive`: their CPU seconds and their errors'
# messages (who answered a CANCELLED, and why, is in the message).
LAST_DRIVE: dict[str, Any] = {}


def drive(address: str, *, rate: float = 0.0, seconds: float, closed: int = 0,
          processes: int = 1, seed: int = 7, estimator: str = "",
          deadline: float = DEADLINE) -> list[tuple[float, float, str]]:  # fmt: skip
    """Run ``processes`` client processes sharing the rate (or closed-loop threads); merge.
    Their CPU time and error messages go to :data:`LAST_DRIVE`."""
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    procs = [
        ctx.Process(target=_load_client,
                    args=(address, rate / processes, seconds, closed, seed + i, out,
                          estimator, deadline))
        for i in range(processes)
    ]  # fmt: skip
    for p in procs:
        p.start()
    merged: list[tuple[float, float, str]] = []
    cpu, details = 0.0, Counter[str]()
    for _ in procs:
        records, used, errors = out.get(timeout=seconds + 120)
        merged.extend(records)
        cpu += used
        details.update(errors)
    for p in procs:
        p.join(timeout=30)
    LAST_DRIVE.clear()
    LAST_DRIVE.update(client_cpu_s=round(cpu, 1), errors=dict(details.most_common(6)))
    return merged


STEP_SECONDS = 8.0
CLEAN_P99_MS = 500.0


def open_loop_capacity(address: str, closed_loop: float) -> tuple[float, list[dict[str, Any]]]:
    """The capacity the later phases are sized from: the highest open-loop (Poisson) rate,
    in steps of 10% of the closed-loop figure from 50% up, that the server serves in full for
    :data:`STEP_SECONDS` (every call OK, p99 under :data:`CLEAN_P99_MS`: a queue that builds up
    shows in the tail first). Open-loop clients cost more of the shared 2 cores than the
    closed loop's blocked callers, so the closed-loop figure overstates what they can load."""
    best, steps = 0.0, []
    for tenth in range(5, 16):
        rate = closed_loop * tenth / 10
        figures = summary(drive(address, rate=rate, seconds=STEP_SECONDS, processes=2),
                          STEP_SECONDS)  # fmt: skip
        clean = set(figures["codes"]) <= {"OK"} and figures["p99_ms"] < CLEAN_P99_MS
        steps.append({"rate": round(rate, 1), **figures, "clean": clean,
                      "errors": LAST_DRIVE["errors"]})  # fmt: skip
        if not clean:
            break
        best = round(rate, 1)
        time.sleep(1.0)  # let the last step's stragglers finish
    return best, steps


def _quantile_ms(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(records: list[tuple[float, float, str]], seconds: float) -> dict[str, Any]:
    codes = Counter(code for _, _, code in records)
    first = min((start for start, _, _ in records), default=0.0)
    window = max(seconds / 12, 1.0)  # errors by twelfth of the phase: episodes, or a start?
    errors = [0] * (int(seconds / window) + 2)
    for start, _, code in records:
        if code != "OK":
            errors[min(int((start - first) / window), len(errors) - 1)] += 1
    ok = [lat for _, lat, code in records if code == "OK"]
    # A Python load generator that cannot send at the asked rate falls behind and sends the
    # rest late, over a longer span: the rates are per second of that span, and the span is
    # reported, so a run whose generator did not keep up says so (its latencies then include
    # the generator's own queueing).
    span = max((start for start, _, _ in records), default=first) - first
    over = max(seconds, span)
    return {
        "calls": len(records),
        "codes": dict(codes),
        "sent_over_s": round(span, 1),
        "sent_per_s": round(len(records) / over, 1),
        "ok_per_s": round(len(ok) / over, 1),
        "p50_ms": round(_quantile_ms(ok, 0.5), 1),
        "p99_ms": round(_quantile_ms(ok, 0.99), 1),
        # how long the callers waited for each kind of error (p50): a call gRPC core dropped
        # unread after its 1 s bound waited over 1 s; one the admission refused, a few ms
        "error_p50_ms": {
            code: round(_quantile_ms([lat for _, lat, c in records if c == code], 0.5), 1)
            for code in codes
            if code != "OK"
        },
        "errors_by_window": {"seconds": round(window, 1), "errors": errors},
    }


def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The server's ``/metrics``: (sample name, sorted labels) -> value."""
    from urllib.request import urlopen

    from prometheus_client.parser import text_string_to_metric_families

    with urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _delta(before: dict[Any, float], after: dict[Any, float], name: str,
           **labels: str) -> float:  # fmt: skip
    """How much the samples called ``name`` with ``labels`` (a subset) grew."""

    def total(values: dict[Any, float]) -> float:
        return sum(value for (sample, sample_labels), value in values.items()
                   if sample == name and labels.items() <= dict(sample_labels).items())  # fmt: skip

    return total(after) - total(before)


def expensive_phase(
    seconds: float, overload: float, server_args: list[str], via_envoy: bool = False
) -> dict[str, Any]:
    """Issue 30's expensive calls: one worker, ``Solve`` with :data:`EXPENSIVE_ESTIMATOR`;
    its capacity from a closed loop (2 threads, 10 s), then an open loop at ``overload`` times
    it, each call with a :data:`EXPENSIVE_DEADLINE` deadline. Goodput (OK/s over capacity), the
    callers' codes, and from the server's metrics the handler runs (calls that did work) and
    how many of them ended past their deadline. ``via_envoy``: the open loop goes through
    Envoy (deploy/envoy/envoy.yaml), its token bucket at the measured capacity."""
    server = Server("--workers", "1", "--metrics-port", "0", *server_args)
    proxy: EdgeProxy | None = None
    try:
        metrics_port = next(int(line["metrics_port"]) for line in server.lines()
                            if line.get("event") == "ready")  # fmt: skip
        drive(server.address, seconds=3, closed=2, estimator=EXPENSIVE_ESTIMATOR,
              deadline=5.0)  # warm-up: the class's cost learned  # fmt: skip
        closed = drive(server.address, seconds=10, closed=2, estimator=EXPENSIVE_ESTIMATOR,
                       deadline=5.0)  # fmt: skip
        capacity = summary(closed, 10)["ok_per_s"]
        if via_envoy:
            proxy = EdgeProxy(server.address, max(int(capacity), 1))
        before = scrape(metrics_port)
        mark = server.mark()
        over = drive(proxy.address if proxy else server.address, rate=overload * capacity,
                     seconds=seconds, processes=2, estimator=EXPENSIVE_ESTIMATOR,
                     deadline=EXPENSIVE_DEADLINE)  # fmt: skip
        figures = summary(over, seconds)
        time.sleep(1.0)  # the last calls' ends counted
        after = scrape(metrics_port)
        handled = _delta(before, after, "grpc_server_handled_total", grpc_method="Solve")
        refused = _delta(before, after, "cpsolver_admission_refusals_total", grpc_method="Solve")
        late = _delta(before, after, "cpsolver_calls_late_total", grpc_method="Solve")
        ran = handled - refused
        codes = Counter(code for _, _, code in over)
        excess = max(len(over) - capacity * seconds, 1.0)
        return {
            "via": "envoy" if via_envoy else "direct",
            "capacity_calls_per_s": capacity,
            "capacity_p50_ms": summary(closed, 10)["p50_ms"],
            "rate": round(overload * capacity, 1),
            **figures,
            "goodput_vs_capacity": round(figures["ok_per_s"] / capacity, 2),
            "handler_runs": int(ran),
            "handler_runs_past_deadline": int(late),
            "past_deadline_share": round(late / ran, 3) if ran else 0.0,
            "refused_by_reason": {
                reason: int(
                    _delta(
                        before,
                        after,
                        "cpsolver_admission_refusals_total",
                        grpc_method="Solve",
                        reason=reason,
                    )
                )
                for reason in ("queue", "deadline", "no_slot", "expired")
            },
            "excess_resource_exhausted_share": round(
                codes.get("RESOURCE_EXHAUSTED", 0) / excess, 2
            ),
            **server.since(mark),
            **LAST_DRIVE,
        }
    finally:
        if proxy:
            proxy.close()
        server.close()


SERVER_CPUS: set[int] | None = None
"""``--server-cpus``: the CPUs the servers run on (None: any), the rest left to this process."""


def pin(server_cpus: set[int]) -> None:
    """Run the servers started from now on on ``server_cpus`` and this process (with the
    clients, proxies and generators it starts) on the other CPUs."""
    global SERVER_CPUS
    others = set(os.sched_getaffinity(0)) - server_cpus
    if not server_cpus or not others:
        raise SystemExit(f"--server-cpus must leave this process a CPU: {sorted(server_cpus)}")
    SERVER_CPUS = set(server_cpus)
    os.sched_setaffinity(0, others)


class Server:
    """``cpsolver serve`` in a subprocess, its stderr (JSON lines) in a file (on
    :data:`SERVER_CPUS` when set)."""

    def __init__(self, *args: str) -> None:
        self.log = Path(tempfile.mkstemp(prefix="cpsolver-soak-", suffix=".log")[1])
        command = [sys.executable, "-c", "from cpsolver.client.cli import main; main()",
                   "serve", "--host", "127.0.0.1", "--port", "0", "--log-format", "json",
                   *args]  # fmt: skip
        self._stderr = self.log.open("w")
        cpus = SERVER_CPUS
        self.proc = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=self._stderr,
            preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None,
        )  # fmt: skip
        self.address = ""
        deadline = time.monotonic() + 300
        while not self.address:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("server did not start:\n" + self.log.read_text()[-2000:])
            for line in self.lines():
                if line.get("event") == "ready":
                    self.address = str(line["address"])
            time.sleep(0.2)

    def lines(self) -> list[dict[str, Any]]:
        found = []
        for text in self.log.read_text().splitlines():
            if text.startswith("{"):
                try:
                    found.append(json.loads(text))
                except json.JSONDecodeError:
                    continue
        return found

    def cpu_seconds(self) -> float:
        """CPU seconds (user + system) the supervisor and its live children have used."""
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for pid in (self.proc.pid, *self.workers()):
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
                total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / ticks

    def mark(self) -> tuple[int, float, float]:
        """Where a phase starts: access-log lines so far, server CPU seconds, the time."""
        return len(self.lines()), self.cpu_seconds(), time.monotonic()

    def since(self, mark: tuple[int, float, float]) -> dict[str, Any]:
        """What the server saw since ``mark``: its access log's Solve calls by status (a call
        gRPC core dropped before the worker picked it up is not there) and its CPU use (CPU
        seconds per second of the phase, its stragglers' wait included)."""
        lines, cpu, started = mark
        seconds = time.monotonic() - started
        codes = Counter(
            str(line.get("status")) for line in self.lines()[lines:]
            if line.get("event") == "rpc" and line.get("method") == SOLVE
        )  # fmt: skip
        return {"server_log_codes": dict(codes),
                "server_cpu_s_per_s": round((self.cpu_seconds() - cpu) / seconds, 2)}  # fmt: skip

    def workers(self) -> list[int]:
        pid = self.proc.pid
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]

    def kill(self) -> None:
        """SIGKILL the supervisor, then its workers, as a crashed machine goes: nothing
        drains, the kernel resets the connections."""
        workers = self.workers()
        self.proc.kill()
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.proc.wait(10)

    def close(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(60)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            self._stderr.close()
            self.log.unlink(missing_ok=True)  # tens of MB a run; the figures are printed


class EdgeProxy:
    """Envoy with deploy/envoy/envoy.yaml rendered for loopback (deploy/envoy/local.py) in
    front of ``upstream`` (an address, or a list of them), its token bucket at ``tokens``
    calls a second."""

    def __init__(
        self, upstream: str | list[str], tokens: int, fill_ms: int = 1000,
        in_flight: int | None = None,
    ) -> None:  # fmt: skip
        import importlib.util

        import yaml

        path = Path(__file__).resolve().parents[1] / "deploy" / "envoy" / "local.py"
        spec = importlib.util.spec_from_file_location("edge_local", path)
        assert spec is not None and spec.loader is not None
        local = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(local)
        upstreams = [upstream] if isinstance(upstream, str) else upstream
        self.port, self.admin = _free_port(), _free_port()
        self._workdir = tempfile.TemporaryDirectory(prefix="cpsolver-soak-edge-")
        config = Path(self._workdir.name) / "envoy.yaml"
        config.write_text(
            yaml.safe_dump(
                local.render(upstreams, self.port, self.admin, tokens, fill_ms, in_flight)
            )
        )
        self.proc = subprocess.Popen(
            [local.envoy(), "-c", str(config), "--log-level", "error", "--concurrency", "2",
             "--base-id", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.address = f"127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while self.stats().get("cluster.cpsolver.membership_healthy") != str(len(upstreams)):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("Envoy's upstream never became healthy")
            time.sleep(0.2)

    def stats(self) -> dict[str, str]:
        import urllib.request

        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.admin}/stats", timeout=5) as r:
                lines = r.read().decode().splitlines()
        except OSError:
            return {}
        return dict(line.split(": ", 1) for line in lines if ": " in line)

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self._workdir.cleanup()


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def edge_phase(seconds: float, overloads: list[float], server_args: list[str]) -> dict[str, Any]:
    """Issue 30's shedding in C: one 2-worker server, its closed-loop capacity for cheap
    Solves (8 threads in 2 processes, 10 s); then, for each overload factor, an open loop at
    that many times the capacity for ``seconds``, straight to the server and through Envoy
    (deploy/envoy/envoy.yaml, its token bucket at the capacity), one after the other. Per run:
    goodput over capacity, and how the excess was answered (RESOURCE_EXHAUSTED by the
    server or by Envoy, CANCELLED by gRPC core, DEADLINE_EXCEEDED)."""
    server = Server("--workers", "2", *server_args)
    try:
        drive(server.address, seconds=3, closed=8, processes=2)  # warm-up
        closed = drive(server.address, seconds=10, closed=8, processes=2)
        capacity = summary(closed, 10)["ok_per_s"]
        report: dict[str, Any] = {"capacity_calls_per_s": capacity, "runs": []}
        for overload in overloads:
            for via in ("direct", "envoy"):
                proxy = EdgeProxy(server.address, int(capacity)) if via == "envoy" else None
                try:
                    address = proxy.address if proxy else server.address
                    limited_before = int((proxy.stats() if proxy else {}).get(
                        "cpsolver_rate.http_local_rate_limit.rate_limited", 0))  # fmt: skip
                    proxy_cpu = proxy.cpu_seconds() if proxy else 0.0
                    mark = server.mark()
                    over = drive(address, rate=overload * capacity, seconds=seconds,
                                 processes=2)  # fmt: skip
                    figures = summary(over, seconds)
                    codes = Counter(code for _, _, code in over)
                    excess = max(len(over) - figures["codes"].get("OK", 0), 1)
                    run = {
                        "via": via, "overload": overload, "rate": round(overload * capacity, 1),
                        **figures,
                        "goodput_vs_capacity": round(figures["ok_per_s"] / capacity, 2),
                        "refused_share_of_excess": round(
                            codes.get("RESOURCE_EXHAUSTED", 0) / excess, 2),
                        **server.since(mark), **LAST_DRIVE,
                    }  # fmt: skip
                    if proxy:
                        run["refused_by_envoy"] = (
                            int(
                                proxy.stats().get(
                                    "cpsolver_rate.http_local_rate_limit.rate_limited", 0
                                )
                            )
                            - limited_before
                        )
                        run["envoy_cpu_s_per_s"] = round(
                            (proxy.cpu_seconds() - proxy_cpu) / seconds, 2)  # fmt: skip
                    report["runs"].append(run)
                    print(json.dumps({"edge": run}), flush=True)
                finally:
                    if proxy:
                        proxy.close()
                time.sleep(2.0)
        return report
    finally:
        server.close()


H2LOAD_CLIENTS = 8


def _h2load(url: str, body: Path, *, seconds: float, clients: int, streams: int,
            rps: float = 0.0) -> list[tuple[int, int]]:  # fmt: skip
    """One h2load run against ``url`` (a JSON ``POST`` of ``body`` with a 2 s grpc-timeout):
    ``(HTTP status, microseconds)`` per request sent (status -1: the stream failed)."""
    with tempfile.TemporaryDirectory(prefix="cpsolver-soak-h2load-") as tmp:
        log = Path(tmp) / "requests.tsv"
        command = ["h2load", "-D", f"{round(seconds * 1000)}ms", "-c", str(clients),
                   "-m", str(streams), "-d", str(body), "-H", "content-type: application/json",
                   "-H", f"grpc-timeout: {int(DEADLINE)}S",
                   "--log-file", str(log), url]  # fmt: skip
        if rps:  # a whole number per client (h2load's), rounded up
            command[1:1] = ["--rps", str(math.ceil(rps / clients))]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, timeout=seconds + 120)
        rows = [line.split("\t") for line in log.read_text().splitlines() if line]
    return [(int(row[1]), int(row[2])) for row in rows]


def _h2load_summary(rows: list[tuple[int, int]], seconds: float) -> dict[str, Any]:
    ok = sorted(us / 1e6 for status, us in rows if status == 200)  # seconds, as summary's
    codes = Counter(status for status, _ in rows)
    return {
        "sent": len(rows), "sent_per_s": round(len(rows) / seconds, 1),
        "ok_per_s": round(len(ok) / seconds, 1),
        "http_codes": {str(k): v for k, v in sorted(codes.items())},
        "p50_ms": round(_quantile_ms(ok, 0.5), 1) if ok else None,
        "p99_ms": round(_quantile_ms(ok, 0.99), 1) if ok else None,
    }  # fmt: skip


def edge_h2load_phase(
    seconds: float, overloads: list[float], server_args: list[str], *,
    bucket_share: float = 1.0, fill_ms: int = 1000, in_flight: int | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Issue 30's cheap calls at 5x and 10x through the shipped edge, sent by h2load (nghttp2's
    load generator in C, Debian's ``nghttp2-client``), which makes those rates where the
    Python generator cannot (it sends at most ~3,900 calls/s on 2 cores, itself using 1-3 of
    them). One 1-worker server behind Envoy, so the generator and the proxy have a core of
    their own; cheap Solves (objective strength, one hand) over the edge's HTTP/JSON route,
    whose status codes tell the answers apart: 200 OK, 429 RESOURCE_EXHAUSTED (Envoy's
    bucket, or the worker's admission through the transcoder), 503 UNAVAILABLE (Envoy's
    circuit breaker), 504 DEADLINE_EXCEEDED. In turn: the unloaded latency (one stream, 5 s,
    the bucket far above it), the capacity (closed loop, 8 clients x 4 streams, 10 s), then
    per overload an open loop at that many times the capacity for ``seconds``, the bucket at
    ``bucket_share`` of the capacity refilled every ``fill_ms`` (0: no bucket) and, with
    ``in_flight``, at most that many calls at the worker at once (Envoy's circuit breaker;
    its overflow answered 429 too), each client sending at its share of the rate whatever
    the answers, up to 512 streams in flight each. A bucket at the capacity keeps the
    worker's queue full (admitted calls wait up to its queue bound); a little below it,
    refilled often, keeps the queue short; a limit of calls in flight keeps it short
    whatever the capacity left to the worker."""
    import shutil

    if shutil.which("h2load") is None:
        print(json.dumps({"edge_h2load": "skipped: h2load not found (apt-get install "
                          "nghttp2-client)"}), flush=True)  # fmt: skip
        return {"skipped": "h2load not found"}
    from google.protobuf import json_format

    from cpsolver.v1 import chinese_poker_pb2

    request = chinese_poker_pb2.SolveRequest.FromString(_requests(1, 7)[0])
    server = Server("--workers", "1", *server_args)
    report: dict[str, Any] = {"runs": []}
    with tempfile.TemporaryDirectory(prefix="cpsolver-soak-h2load-") as tmp:
        body = Path(tmp) / "solve.json"
        body.write_text(json_format.MessageToJson(request))
        try:
            proxy = EdgeProxy(server.address, 1_000_000)
            try:
                url = f"http://{proxy.address}/v1/chinese-poker:solve"
                _h2load(url, body, seconds=3, clients=H2LOAD_CLIENTS, streams=4)  # warm-up
                unloaded = _h2load_summary(_h2load(url, body, seconds=5, clients=1,
                                                   streams=1), 5)  # fmt: skip
                closed = _h2load_summary(_h2load(url, body, seconds=10, clients=H2LOAD_CLIENTS,
                                                 streams=4), 10)  # fmt: skip
            finally:
                proxy.close()
            capacity = closed["ok_per_s"]
            bucket = int(capacity * bucket_share) if bucket_share > 0 else 1_000_000
            report |= {"unloaded": unloaded, "capacity_calls_per_s": capacity,
                       "bucket_calls_per_s": bucket, "bucket_fill_ms": fill_ms,
                       "in_flight": in_flight}  # fmt: skip
            print(json.dumps({"edge_h2load": report}), flush=True)
            for overload in overloads:
                proxy = EdgeProxy(server.address, bucket, fill_ms, in_flight)
                try:
                    proxy_cpu, mark = proxy.cpu_seconds(), server.mark()
                    rows = _h2load(url.replace(url.split("/")[2], proxy.address), body,
                                   seconds=seconds, clients=H2LOAD_CLIENTS, streams=512,
                                   rps=overload * capacity)  # fmt: skip
                    figures = _h2load_summary(rows, seconds)
                    ok = figures["http_codes"].get("200", 0)
                    excess = max(figures["sent"] - ok, 1)
                    run = {
                        "overload": overload, "rate": round(overload * capacity, 1), **figures,
                        "goodput_vs_capacity": round(figures["ok_per_s"] / capacity, 2),
                        "refused_share_of_excess": round(
                            figures["http_codes"].get("429", 0) / excess, 3),
                        "p99_vs_unloaded_p99": round(
                            (figures["p99_ms"] or 0) / (unloaded["p99_ms"] or 1), 2),
                        "envoy_cpu_s_per_s": round((proxy.cpu_seconds() - proxy_cpu) / seconds, 2),
                        "refused_by_envoy_in_flight": int(proxy.stats().get(
                            "cluster.cpsolver.upstream_rq_active_overflow", 0)),
                        **server.since(mark),
                    }  # fmt: skip
                    report["runs"].append(run)
                    print(json.dumps({"edge_h2load": run}), flush=True)
                finally:
                    proxy.close()
                time.sleep(2.0)
        finally:
            server.close()
    return report


KILL_AT = 5.0
"""Seconds into the ``edge-kill`` run at which a replica is killed."""


def edge_kill_phase(seconds: float, server_args: list[str], *, deadline: float = 1.0,
                    load: float = 0.5) -> dict[str, Any]:  # fmt: skip
    """Issue 30's replica killed behind the edge: two 1-worker servers behind Envoy (the
    shipped config, its bucket out of the way), their capacity for cheap Solves through it
    (closed loop, 10 s), then an open loop at ``load`` of it for ``seconds``, every call with
    ``deadline``; :data:`KILL_AT` seconds in, one replica is killed whole (SIGKILL,
    supervisor and worker). A call not answered OK is lost: those in flight on the killed
    replica must be retried on the other (a Solve is a pure computation), and those routed
    to it before the health checks take it out must fail over. Reports the calls by code,
    those started within a second either side of the kill, and Envoy's retries."""
    servers = [Server("--workers", "1", *server_args) for _ in range(2)]
    proxy = None
    try:
        proxy = EdgeProxy([server.address for server in servers], 1_000_000)
        drive(proxy.address, seconds=3, closed=8, processes=2)  # warm-up
        capacity = summary(drive(proxy.address, seconds=10, closed=8, processes=2),
                           10)["ok_per_s"]  # fmt: skip
        before = proxy.stats()
        killed_at: list[float] = []

        def kill() -> None:
            time.sleep(KILL_AT)
            killed_at.append(time.monotonic())
            servers[0].kill()

        threading.Thread(target=kill, daemon=True).start()
        records = drive(proxy.address, rate=load * capacity, seconds=seconds, processes=1,
                        deadline=deadline)  # fmt: skip
        after = proxy.stats()

        def grew(name: str) -> int:
            return int(after.get(name, "0")) - int(before.get(name, "0"))

        near = [r for r in records if killed_at and abs(r[0] - killed_at[0]) <= 1.0]
        report = {
            "capacity_calls_per_s": capacity, "rate": round(load * capacity, 1),
            "deadline_s": deadline, **summary(records, seconds),
            "lost": sum(1 for r in records if r[2] != "OK"),
            "started_within_1s_of_the_kill": len(near),
            "lost_of_those": sum(1 for r in near if r[2] != "OK"),
            "envoy_retries": grew("cluster.cpsolver.upstream_rq_retry"),
            "envoy_connect_failures": grew("cluster.cpsolver.upstream_cx_connect_fail"),
            "envoy_resets_with_calls_in_flight": grew(
                "cluster.cpsolver.upstream_cx_destroy_remote_with_active_rq"),
            "healthy_after": after.get("cluster.cpsolver.membership_healthy"),
            **LAST_DRIVE,
        }  # fmt: skip
        print(json.dumps({"edge_kill": report}), flush=True)
        return report
    finally:
        if proxy is not None:
            proxy.close()
        for server in servers:
            server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fuzz", type=int, default=100_000)
    parser.add_argument("--load-seconds", type=float, default=180.0)
    parser.add_argument("--overload", type=float, default=5.0)
    parser.add_argument("--overload-seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument(
        "--capacity", type=float, default=None,
        help="calls/s the later phases are sized from, instead of measuring it (A/B runs)",
    )  # fmt: skip
    parser.add_argument(
        "--phases",
        default=",".join(PHASES),
        help="comma-separated subset of " + ",".join(PHASES) + " (capacity "
        "always runs when a later phase needs it)",
    )
    parser.add_argument(
        "--expensive-seconds", type=float, default=30.0,
        help="length of the expensive-call overload (phase expensive)",
    )  # fmt: skip
    parser.add_argument(
        "--expensive-overload", type=float, default=10.0,
        help="times the capacity the expensive calls arrive at (phase expensive)",
    )  # fmt: skip
    parser.add_argument(
        "--expensive-via-envoy", action="store_true",
        help="the expensive-call overload through Envoy, its bucket at the capacity",
    )  # fmt: skip
    parser.add_argument(
        "--server-args",
        default="",
        help="extra `cpsolver serve` options, e.g. '--max-queue-wait 0.5'",
    )
    parser.add_argument(
        "--edge-seconds", type=float, default=20.0,
        help="length of each overload run direct and through Envoy (phase edge)",
    )  # fmt: skip
    parser.add_argument(
        "--edge-overloads", default="5,10",
        help="times the capacity the calls arrive at, comma-separated (phase edge)",
    )  # fmt: skip
    parser.add_argument(
        "--edge-bucket-share", type=float, default=0.0,
        help="Envoy's bucket as a share of the capacity, 0: none (phase edge-h2load)",
    )  # fmt: skip
    parser.add_argument(
        "--edge-fill-ms", type=int, default=50,
        help="how often Envoy's bucket is refilled, ms, >= 50 (Envoy's least; phase edge-h2load)",
    )  # fmt: skip
    parser.add_argument(
        "--edge-in-flight", type=int, default=8,
        help="at most this many calls at the worker at once, Envoy's circuit breaker "
        "(phase edge-h2load; 8: two per slot of its one worker, as the shipped config sizes it)",
    )  # fmt: skip
    parser.add_argument(
        "--server-cpus", default="",
        help="comma-separated CPUs the servers run on, this process and its clients on the "
        "others (default: all share every CPU)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.server_cpus:
        pin({int(c) for c in args.server_cpus.split(",")})
    phases = set(args.phases.split(","))
    unknown = phases - set(PHASES)
    if unknown:
        parser.error(f"unknown phases: {', '.join(sorted(unknown))}")
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    report["server_args"] = args.server_args
    report["server_cpus"] = sorted(SERVER_CPUS) if SERVER_CPUS else "all"
    if "expensive" in phases:  # its own one-worker server, alone on the cores
        report["expensive"] = expensive_phase(args.expensive_seconds, args.expensive_overload,
                                              args.server_args.split(),
                                              args.expensive_via_envoy)  # fmt: skip
        print(json.dumps({"expensive": report["expensive"]}), flush=True)
    if "edge" in phases:  # its own server, alone on the cores
        report["edge"] = edge_phase(args.edge_seconds,
                                    [float(x) for x in args.edge_overloads.split(",")],
                                    args.server_args.split())  # fmt: skip
    if "edge-h2load" in phases:  # its own one-worker server, h2load sending
        report["edge_h2load"] = edge_h2load_phase(
            args.edge_seconds, [float(x) for x in args.edge_overloads.split(",")],
            args.server_args.split(), bucket_share=args.edge_bucket_share,
            fill_ms=args.edge_fill_ms, in_flight=args.edge_in_flight,
        )  # fmt: skip
    if "edge-kill" in phases:  # its own two one-worker servers behind Envoy
        report["edge_kill"] = edge_kill_phase(args.edge_seconds, args.server_args.split())
    if not phases - {"expensive", "edge", "edge-h2load", "edge-kill"}:
        print(json.dumps(report, indent=1))
        return
    server = Server("--workers", "2", "--max-connection-age", "10", "--drain", "2",
                    "--grace", "5", *args.server_args.split())  # fmt: skip
    try:
        workers = server.workers()
        # 1. fuzz
        if "fuzz" in phases:
            fire(server.address, 500, seed=args.seed + 1, max_seconds=60)  # warm-up
            before = {pid: rss_kb(pid) for pid in workers}
            # Ten parts, each its own seeded stream, RSS read after each: a leak grows with
            # the calls (every part), a cache stops growing once filled.
            fuzz, samples = FireResult(), []
            for part in range(10):
                share = args.fuzz // 10 + (part < args.fuzz % 10)
                run = fire(server.address, share, seed=args.seed * 1000 + part,
                           max_seconds=180, in_flight=16, channels=4)  # fmt: skip
                fuzz.codes.update(run.codes)
                fuzz.bad.extend(run.bad)
                fuzz.seconds += run.seconds
                samples.append({"calls": fuzz.calls, **{str(p): rss_kb(p) for p in workers}})
            after = {pid: rss_kb(pid) for pid in workers}
            report["fuzz"] = {
                "calls": fuzz.calls, "seconds": round(fuzz.seconds, 1), "codes": dict(fuzz.codes),
                "unexpected": fuzz.bad[:10], "workers_alive": server.workers() == workers,
                "rss_kb_before": before, "rss_kb_after": after,
                "rss_growth_pct": round(max(100 * (after[p] - before[p]) / before[p]
                                            for p in workers), 2),
                "rss_kb_samples": samples,
            }  # fmt: skip
            print(json.dumps({"fuzz": report["fuzz"]}), flush=True)
        # 2. capacity: closed loop, then the open-loop rate the same clients can sustain
        capacity = args.capacity or 0.0
        if not capacity and phases & {"capacity", "load", "overload", "kill9", "sigterm"}:
            mark = server.mark()
            closed = drive(server.address, seconds=10, closed=8, processes=2)
            report["capacity_closed_loop"] = {**summary(closed, 10), **server.since(mark),
                                              **LAST_DRIVE}  # fmt: skip
            print(json.dumps({"capacity_closed_loop": report["capacity_closed_loop"]}),
                  flush=True)  # fmt: skip
            capacity, steps = open_loop_capacity(server.address, summary(closed, 10)["ok_per_s"])
            report["capacity"] = {"open_loop_calls_per_s": capacity, "steps": steps}
            print(json.dumps({"capacity": report["capacity"]}), flush=True)
        # 3. 80% load
        if "load" in phases:
            mark = server.mark()
            load = drive(server.address, rate=0.8 * capacity, seconds=args.load_seconds,
                         processes=2)  # fmt: skip
            report["load_80pct"] = {"rate": round(0.8 * capacity, 1),
                                    **summary(load, args.load_seconds),
                                    **server.since(mark),
                                    **LAST_DRIVE}  # fmt: skip
            print(json.dumps({"load_80pct": report["load_80pct"]}), flush=True)
        # 4. overload
        if "overload" in phases:
            mark = server.mark()
            over = drive(server.address, rate=args.overload * capacity,
                         seconds=args.overload_seconds, processes=2)  # fmt: skip
            over_summary = summary(over, args.overload_seconds)
            goodput = round(over_summary["ok_per_s"] / capacity, 2)
            report["overload"] = {"rate": round(args.overload * capacity, 1), **over_summary,
                                  "goodput_vs_capacity": goodput,
                                  **server.since(mark),
                                  **LAST_DRIVE}  # fmt: skip
            print(json.dumps({"overload": report["overload"]}), flush=True)
        # 5. kill -9 of a worker under load (existing client connections)
        if "kill9" in phases:
            victim = server.workers()[0]
            killed_at: list[float] = []

            def kill() -> None:
                time.sleep(5)
                killed_at.append(time.time())
                os.kill(victim, signal.SIGKILL)

            threading.Thread(target=kill, daemon=True).start()
            killed = drive(server.address, rate=0.5 * capacity, seconds=30, processes=1)
            fresh = [p for p in server.workers() if p not in workers]
            served = [
                line for line in server.lines()
                if line.get("event") == "rpc" and line.get("worker") in fresh
                and line.get("method") == SOLVE
            ]  # fmt: skip
            first = None
            if served and killed_at:
                stamp = time.strptime(str(served[0]["ts"]), "%Y-%m-%dT%H:%M:%SZ")
                first = round(calendar.timegm(stamp) - killed_at[0], 1)  # the log has 1 s stamps
            report["kill9"] = {**summary(killed, 30), "restarted_worker_serves_after_s": first}
            print(json.dumps({"kill9": report["kill9"]}), flush=True)
        # 6. SIGTERM with calls in flight
        if "sigterm" in phases:
            signalled: list[float] = []

            def terminate() -> None:
                time.sleep(5)
                signalled.append(time.monotonic())
                server.proc.send_signal(signal.SIGTERM)

            threading.Thread(target=terminate, daemon=True).start()
            term = drive(server.address, rate=0.5 * capacity, seconds=12, processes=1)
            rc = server.proc.wait(60)
            # Calls that fit the window: started before the 2 s drain ended, with 0.5 s of slack
            # for a call's deadline to the drain's end (the server refuses calls after it).
            cutoff = signalled[0] + 2.0 - 0.5
            inside = [r for r in term if r[0] < cutoff]
            report["sigterm"] = {
                **summary(term, 12), "exit_code": rc,
                "started_before_drain_end": len(inside),
                "lost": sum(1 for r in inside if r[2] != "OK"),
                "sigkill": any("killing" in str(line.get("msg", "")) for line in server.lines()),
            }  # fmt: skip
            print(json.dumps({"sigterm": report["sigterm"]}), flush=True)
    finally:
        server.close()
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
