"""One worker process: a gRPC server on the shared port (SO_REUSEPORT), until SIGTERM/SIGINT.

Each worker warms the solver up before it accepts calls (so JIT compilation never falls on a
request), registers every service of :mod:`.services` with per-service health and server
reflection, and shuts down gracefully: health goes NOT_SERVING while calls are still served for
``drain`` seconds, then new calls are refused and calls in flight get ``grace`` seconds to
finish.
"""

from __future__ import annotations

import gc
import logging
import math
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent import futures
from types import FrameType
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from cpsolver.server.admission import AdmissionInterceptor
from cpsolver.server.config import ServerConfig
from cpsolver.server.interceptors import (
    AccessLogInterceptor,
    DecodeInterceptor,
    ErrorInterceptor,
    MetricsInterceptor,
    TokenAuthInterceptor,
)
from cpsolver.server.metrics import ServerMetrics
from cpsolver.server.reflection import enable_reflection
from cpsolver.server.services import ServiceLimits, load_services
from cpsolver.server.tracing import tracing_interceptor

__all__ = ["build_server", "run_worker", "warm_up"]

log = logging.getLogger("cpsolver.server")

# Items in any repeated field of a request (cards have their own bound, a deck): a backstop,
# looser than every field's own limit (--max-batch for BatchSolve, whose message names it),
# small enough that no request makes a worker walk millions.
MAX_ITEMS = 100_000
# Open health Watch and reflection streams per worker: their own budget, apart from the calls'
# (a kubelet or a load balancer needs one or two; more are refused, never starve the calls).
MAX_CONTROL_STREAMS = 16


def warm_up() -> None:
    """Compile or load every kernel and table (:func:`cpsolver.warmup.warm_up`) before the
    worker binds, so neither JIT compilation nor a first table load falls on a request; logs
    each step, so a cold start (20-70 s without a kernel cache) says what it is doing."""
    from cpsolver.jit import compile_counts
    from cpsolver.warmup import warm_up as warm_up_library

    def progress(step: int, total: int, what: str) -> None:
        log.info("warm-up %d/%d: %s", step, total, what)

    before = compile_counts()  # a forked worker starts with the supervisor's counts
    seconds = warm_up_library(progress)
    compiled, loaded = (now - then for now, then in zip(compile_counts(), before, strict=True))
    log.info(
        "warm-up took %.2f s (kernels: %d compiled, %d loaded from the cache)",
        seconds, compiled, loaded,
        extra={"fields": {"kernels_compiled": compiled, "kernels_loaded": loaded}},
    )  # fmt: skip


def _credentials(config: ServerConfig) -> grpc.ServerCredentials | None:
    if not config.tls:
        return None
    assert config.tls_cert is not None and config.tls_key is not None
    client_ca = config.tls_client_ca.read_bytes() if config.tls_client_ca else None
    return grpc.ssl_server_credentials(
        [(config.tls_key.read_bytes(), config.tls_cert.read_bytes())],
        root_certificates=client_ca,
        require_client_auth=client_ca is not None,
    )


def build_server(
    config: ServerConfig, port: int, *, tracing: Any = None
) -> tuple[grpc.Server, health.HealthServicer, list[str], AdmissionInterceptor]:
    """A server (not started) with every service, health and reflection; the names; and its
    admission control (shutdown waits on it). ``tracing`` is an OpenTelemetry server
    interceptor (:mod:`.tracing`), outermost."""
    interceptors: list[grpc.ServerInterceptor] = [tracing] if tracing is not None else []
    metrics = ServerMetrics() if config.metrics_port is not None else None
    if metrics is not None:  # outermost: counts every call with its final code
        interceptors.append(MetricsInterceptor(metrics))
    if config.access_log:
        interceptors.append(AccessLogInterceptor())
    services = load_services()
    # Inside the log and the metrics, so a shed call is logged and counted; before the token
    # check and the decoding, so shedding costs nothing.
    admission = AdmissionInterceptor(
        config.max_concurrent_rpcs,
        MAX_CONTROL_STREAMS,
        config.max_queue_wait,
        default_budget=config.default_budget,
        classifiers={
            f"/{service.name}/{name}": classify
            for service in services
            for name, classify in service.cost_classes.items()
        },
        anytime=[
            f"/{service.name}/{name}" for service in services for name in service.anytime_methods
        ],
        on_refusal=None if metrics is None else metrics.refused,
        on_late=None if metrics is None else metrics.late,
    )
    interceptors.append(admission)
    if config.token:
        interceptors.append(TokenAuthInterceptor(config.token))
    interceptors.append(ErrorInterceptor())
    # Innermost: decodes every body itself, inside the token check and the error mapping.
    interceptors.append(DecodeInterceptor(max_items=max(2 * config.max_batch, MAX_ITEMS)))
    options = [
        ("grpc.so_reuseport", 1),
        ("grpc.max_receive_message_length", config.max_message_bytes),
        ("grpc.max_send_message_length", config.max_message_bytes),
        # GOAWAY after this age (+/-10% jitter in gRPC core), then calls in flight on the old
        # connection get the grace to finish: clients reconnect, and the kernel spreads the
        # new connections over every worker, a restarted one too.
        ("grpc.max_connection_age_ms", int(config.max_connection_age * 1000)),
        ("grpc.max_connection_age_grace_ms", int(max(config.grace, 1.0) * 1000)),
        # Calls the worker has not even picked up within the queue's bound (whole seconds,
        # gRPC core's unit) are dropped by gRPC core, unread, at no cost to this process: under
        # overload the one Python thread that accepts calls falls behind, and without this the
        # backlog it leaves grows until clients give up, then costs the worker its goodput
        # (issue 15 D6: 27% of capacity at 5x). Such a caller sees CANCELLED; the calls the
        # worker does pick up and cannot serve in time are refused with RESOURCE_EXHAUSTED.
        ("grpc.server_max_unrequested_time_in_server", max(1, math.ceil(config.max_queue_wait))),
    ]
    # No maximum_concurrent_rpcs: gRPC's own cap counts health and reflection streams with the
    # calls (64 unauthenticated Watch streams starved a worker, D4). The admission interceptor
    # caps the calls; the pool has threads for the running calls, as many waiting for a slot,
    # the control streams and a margin for health checks and shed calls.
    threads = 2 * config.max_concurrent_rpcs + MAX_CONTROL_STREAMS + 8
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=threads),
        interceptors=interceptors,
        options=options,
    )
    limits = ServiceLimits(max_batch=config.max_batch)
    health_servicer = health.HealthServicer()
    names = []
    for service in services:
        service.add_to_server(service.make_servicer(limits), server)
        names.append(service.name)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    enable_reflection([*names, health.SERVICE_NAME], server)  # v1 and v1alpha, with comments
    for name in ("", *names):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    credentials = _credentials(config)
    address = config.address(port)
    if credentials is None:
        server.add_insecure_port(address)
    else:
        server.add_secure_port(address, credentials)
    return server, health_servicer, names, admission


def run_worker(config: ServerConfig, port: int, index: int, ready: Callable[[str], None]) -> None:
    """Serve until SIGTERM or SIGINT, then drain. Calls ``ready(service names)`` once serving."""
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    warm_up()
    tracing = tracing_interceptor()  # None unless OTEL_TRACES_EXPORTER asks for traces
    interceptor, provider = tracing if tracing is not None else (None, None)
    server, health_servicer, names, admission = build_server(config, port, tracing=interceptor)
    # Everything allocated so far (tables, rule sets, modules: ~137,000 objects) lives as long
    # as the worker: out of the collector's sight, a full collection no longer walks it and
    # stops the worker for ~100 ms of GIL under load, but for well under 1 ms.
    gc.collect()
    gc.freeze()
    log.info("worker %d: %d objects from the warm-up frozen out of garbage collection",
             index, gc.get_freeze_count())  # fmt: skip
    server.start()
    log.info("worker %d (pid %d) serving on %s", index, os.getpid(), config.address(port))
    ready(", ".join(names))
    stop.wait()
    log.info(
        "worker %d (pid %d) draining: %.1f s NOT_SERVING while serving, then grace %.1f s",
        index, os.getpid(), config.drain, config.grace,
    )  # fmt: skip
    # Health first, calls still served: load balancers and health-checking clients need a few
    # seconds to move traffic away, and calls that arrive meanwhile are not refused.
    health_servicer.enter_graceful_shutdown()
    time.sleep(config.drain)
    stopped = server.stop(config.grace)  # no new calls; cancels what is left after the grace
    # Health Watch and reflection streams never end by themselves: once the calls are done
    # (or the grace is over) cancel them too, instead of holding shutdown for the whole grace.
    if not admission.wait_idle(max(config.grace - 0.5, 0.0)):
        # Calls still running as the grace ends: they answer ABORTED with the reason (at their
        # next budget check) just before gRPC would cancel them with no status of ours.
        admission.abort_calls(
            f"the server shut down before the call finished ({config.grace:g} s grace)"
        )
        admission.wait_idle(0.4)
    server.stop(None)
    stopped.wait()
    if provider is not None:
        provider.shutdown()  # flushes the spans still batched
    log.info("worker %d (pid %d) stopped", index, os.getpid())
