"""gRPC load benchmark (issue 4): Solve latency and BatchSolve throughput, 1 and 2 workers.

    python -m bench.grpc_load [--seconds 5] [--hands 1000] [--seed 7] [--workers 1,2]
                              [--objective strength|ev] [--budget-ms N]

Starts the real server (``cpsolver serve --port 0``) on loopback for each worker count and
drives it from cpsolver.client *processes* (each with its own connection: SO_REUSEPORT spreads
connections, not calls, over the workers). Every scenario runs for a fixed time after a short
warm-up and stops by itself; the server is stopped with SIGTERM at the end. Figures:

* in-process ``solver.solve`` latency (the baseline); objective ``strength`` throughout
  (``--objective ev`` for the default one, with ``--budget-ms N`` its time budget: 10 or more
  buys the calibrated re-score, docs/EV.md; the process-pool figure stays ``strength``),
* unary ``Solve`` latency (median, p99) and rate at concurrency 1 and 16,
* ``BatchSolve`` throughput (hands/s) with 4 concurrent streams of 256 hands.

The load generator shares the machine with the server, so on a 2-core host it takes CPU the
workers would otherwise use; the figures are what a client on the same host sees.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import threading
import time
from dataclasses import dataclass, field

from bench.soak import Server

WARMUP = 1.0
BATCH = 256


def _hands(count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), 13) for _ in range(count)]


@dataclass(frozen=True)
class Ask:
    """What each call asks: the objective and the ``ev`` estimator (``--objective``,
    ``--estimator``, e.g. ``budget:50ms``)."""

    objective: str = "strength"
    estimator: str = "model"
    rules: str = "standard"  # a preset's name or a rule file's path


def _requests(hands: list[list[int]], ask: Ask):  # type: ignore[no-untyped-def]
    from cpsolver.rules import ChineseRules
    from cpsolver.v1 import cards_pb2, chinese_poker_pb2
    from cpsolver.wire.rules import rules_to_wire

    rules = rules_to_wire(ChineseRules.resolve(ask.rules), chinese_poker_pb2.ChineseRules)
    suits = (
        cards_pb2.SUIT_CLUBS,
        cards_pb2.SUIT_DIAMONDS,
        cards_pb2.SUIT_HEARTS,
        cards_pb2.SUIT_SPADES,
    )
    return [
        chinese_poker_pb2.SolveRequest(
            objective=chinese_poker_pb2.Objective.Value(f"OBJECTIVE_{ask.objective.upper()}"),
            cards=[cards_pb2.Card(rank=i // 4 + 2, suit=suits[i % 4]) for i in hand],
            estimator=ask.estimator,
            rules=rules,
        )
        for hand in hands
    ]


@dataclass
class Result:
    latencies: list[float]  # seconds, calls completed inside the window
    items: int  # hands solved inside the window
    seconds: float
    calls: int = 0  # every call, warm-up included
    client_cpu: float = 0.0  # client CPU seconds over all calls
    failed: dict[str, int] = field(default_factory=dict)  # calls refused or failed, by code


def _client(  # type: ignore[no-untyped-def]
    address: str, mode: str, threads: int, seconds: float, hands, seed: int, out, ask: Ask
) -> None:
    import grpc

    from cpsolver.v1 import chinese_poker_pb2, chinese_poker_pb2_grpc

    requests = _requests(hands, ask)
    channel = grpc.insecure_channel(address)
    grpc.channel_ready_future(channel).result(timeout=30)
    stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel)
    start = time.perf_counter() + WARMUP
    end = start + seconds
    latencies: list[float] = []
    items = [0]
    calls = [0]
    failed: dict[str, int] = {}
    lock = threading.Lock()

    def run(offset: int) -> None:
        rng = random.Random(seed * 1000 + offset)
        mine: list[float] = []
        done = 0
        made = 0
        while True:
            t0 = time.perf_counter()
            if t0 >= end:
                break
            try:
                if mode == "unary":
                    stub.Solve(requests[rng.randrange(len(requests))], timeout=30)
                    count = 1
                else:
                    first = rng.randrange(len(requests) - BATCH)
                    batch = chinese_poker_pb2.BatchSolveRequest(
                        requests=requests[first : first + BATCH]
                    )
                    count = sum(1 for _ in stub.BatchSolve(batch, timeout=60))
            except grpc.RpcError as exc:
                # A refusal (RESOURCE_EXHAUSTED: the admission's queue is full) is counted,
                # not fatal: the client backs off a little, as its RetryInfo asks, and goes on.
                code = exc.code().name if exc.code() is not None else "UNKNOWN"
                with lock:
                    failed[code] = failed.get(code, 0) + 1
                time.sleep(0.01)
                continue
            t1 = time.perf_counter()
            made += count
            if t0 >= start and t1 <= end:
                mine.append(t1 - t0)
                done += count
        with lock:
            latencies.extend(mine)
            items[0] += done
            calls[0] += made

    workers = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    cpu = time.process_time()
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    cpu = time.process_time() - cpu
    channel.close()
    out.put(Result(latencies, items[0], seconds, calls[0], cpu, failed))


def drive(  # type: ignore[no-untyped-def]
    address: str, mode: str, processes: int, threads: int, seconds: float, hands,
    ask: Ask = Ask(),
) -> Result:  # fmt: skip
    """Run ``processes`` x ``threads`` closed-loop clients for ``seconds``; merge the results."""
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    procs = [
        ctx.Process(target=_client, args=(address, mode, threads, seconds, hands, i, out, ask))
        for i in range(processes)
    ]
    for p in procs:
        p.start()
    results = [out.get(timeout=seconds + 120) for _ in procs]
    for p in procs:
        p.join()
    return Result(
        [x for r in results for x in r.latencies],
        sum(r.items for r in results),
        seconds,
        sum(r.calls for r in results),
        sum(r.client_cpu for r in results),
        {code: sum(r.failed.get(code, 0) for r in results)
         for code in sorted({c for r in results for c in r.failed})},
    )  # fmt: skip


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def in_process(hands: list[list[int]], ask: Ask = Ask()) -> tuple[float, float]:
    from cpsolver.cards import Card
    from cpsolver.chinese import solve, warm_up
    from cpsolver.rules import ChineseRules

    warm_up()
    rules = ChineseRules.resolve(ask.rules)
    cards = [tuple(Card.from_index(i) for i in hand) for hand in hands]
    for c in cards[:50]:
        solve(c, rules, objective=ask.objective, estimator=ask.estimator)
    times = []
    for c in cards:
        t0 = time.perf_counter()
        solve(c, rules, objective=ask.objective, estimator=ask.estimator)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000, _ms(times, 0.99)


def _solve_to_bytes(hand: list[int]) -> bytes:
    from cpsolver.cards import Card
    from cpsolver.chinese import solve
    from cpsolver.wire.chinese_poker import solution_to_wire

    return bytes(
        solution_to_wire(
            solve([Card.from_index(i) for i in hand], objective="strength")
        ).SerializeToString()
    )


def pool_overhead(hands: list[list[int]]) -> tuple[float, float]:
    """Median ms of solve + proto encoding in-process vs through a 1-process pool (the
    asyncio-server-plus-process-pool design pays this hop on every call)."""
    from concurrent.futures import ProcessPoolExecutor

    from cpsolver.chinese import warm_up

    warm_up()
    local = []
    for hand in hands:
        t0 = time.perf_counter()
        _solve_to_bytes(hand)
        local.append(time.perf_counter() - t0)
    pooled = []
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        pool.submit(warm_up).result()
        for hand in hands:
            t0 = time.perf_counter()
            pool.submit(_solve_to_bytes, hand).result()
            pooled.append(time.perf_counter() - t0)
    return statistics.median(local) * 1000, statistics.median(pooled) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--objective", choices=("strength", "ev"), default="strength")
    parser.add_argument("--estimator", default="model", help="ev: model, calibrated, budget:Nms")
    parser.add_argument("--rules", default="standard", help="a preset or a rule file (Solve's)")
    args = parser.parse_args()
    ask = Ask(args.objective, args.estimator, args.rules)
    hands = _hands(args.hands, args.seed)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"cpsolver gRPC load: {os.cpu_count()} cores, load average {load}, "
        f"{args.seconds:.0f} s per scenario, {args.hands} hands (seed {args.seed}), "
        f"objective {ask.objective}, estimator {ask.estimator}, rules {ask.rules}"
    )
    base_median, base_p99 = in_process(hands, ask)
    print(f"in-process solve            median {base_median:6.3f} ms  p99 {base_p99:6.3f} ms")
    local, pooled = pool_overhead(hands[:300])
    print(
        f"solve + encode in-process    median {local:6.3f} ms; via a process pool {pooled:6.3f} ms"
        f" (+{pooled - local:.3f} ms per call)"
    )
    rates: dict[tuple[int, str], float] = {}
    for workers in (int(w) for w in args.workers.split(",")):
        server = Server("--workers", str(workers))  # bench.soak's: JSON log, ready event
        try:
            for label, mode, processes, threads in (
                ("unary c=1 ", "unary", 1, 1),
                ("unary c=16", "unary", 8, 2),
                ("unary c=16 one channel", "unary", 1, 16),
                ("batch 4x256", "batch", 4, 1),
            ):
                cpu0 = server.cpu_seconds()
                r = drive(server.address, mode, processes, threads, args.seconds, hands, ask)
                cpu = server.cpu_seconds() - cpu0
                rate = r.items / r.seconds
                per_item = (
                    f"CPU per hand: server {1000 * cpu / max(r.calls, 1):.3f} ms, "
                    f"client {1000 * r.client_cpu / max(r.calls, 1):.3f} ms"
                )
                rates[(workers, label)] = rate
                if mode == "unary":
                    median = statistics.median(r.latencies) * 1000
                    extra = (
                        f"  (+{median - base_median:.3f} ms over in-process)"
                        if processes * threads == 1
                        else ""
                    )
                    print(
                        f"{workers} worker(s) {label}  median {median:6.3f} ms  "
                        f"p99 {_ms(r.latencies, 0.99):7.3f} ms  {rate:7.0f} calls/s{extra}"
                    )
                else:
                    print(f"{workers} worker(s) {label} {rate:7.0f} hands/s")
                if r.failed:
                    per_item += "; calls not served: " + ", ".join(
                        f"{n} {code}" for code, n in r.failed.items()
                    )
                print(f"      {per_item}")
        finally:
            server.close()  # SIGTERM, then wait
        print(f"  load average now {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for label in ("unary c=16", "unary c=16 one channel", "batch 4x256"):
        if (1, label) in rates and (2, label) in rates:
            print(f"scaling 2 vs 1 worker, {label}: {rates[(2, label)] / rates[(1, label)]:.2f}x")


if __name__ == "__main__":
    main()
