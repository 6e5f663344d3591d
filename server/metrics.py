"""Prometheus metrics of the server, aggregated across the pre-forked workers.

``cpsolver serve --metrics-port PORT`` serves the Prometheus text format at ``/metrics``. Each
worker is its own process, so the counts live in ``prometheus_client``'s multiprocess mode:
every process writes its values to files in one directory (``PROMETHEUS_MULTIPROC_DIR``, made
by the supervisor before anything imports ``prometheus_client``) and a separate metrics process
(forked before any thread exists, like the workers) sums them on each scrape.

The gRPC metrics have the names and labels of the go-grpc-prometheus / java-grpc-prometheus
convention, so standard dashboards work: ``grpc_server_started_total``,
``grpc_server_handled_total{grpc_code}``, ``grpc_server_handling_seconds`` (a histogram), each
with ``grpc_type``, ``grpc_service`` and ``grpc_method``. The server's own: calls in flight,
calls shed with RESOURCE_EXHAUSTED, worker restarts, hands solved and the seconds spent solving.
The workers count calls with :class:`cpsolver.server.interceptors.MetricsInterceptor`; this
module imports no gRPC (the supervisor uses it, and never loads gRPC before it forks).
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from collections.abc import Callable
from typing import Any

__all__ = [
    "MULTIPROC_ENV",
    "SOLVING_METHODS",
    "ServerMetrics",
    "mark_worker_dead",
    "prepare_multiprocess_dir",
    "serve_metrics",
]

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"

# Latency buckets for calls from well under a millisecond (EvaluateHand) to long rollouts.
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)

# Calls whose answers are solved hands, and how many hands each streamed message holds.
SOLVING_METHODS = {
    "/cpsolver.v1.ChinesePokerService/Solve",
    "/cpsolver.v1.ChinesePokerService/BatchSolve",
}


def prepare_multiprocess_dir() -> str:
    """A fresh directory for the processes' metric files, exported as ``PROMETHEUS_MULTIPROC_DIR``
    (before ``prometheus_client`` is imported: it reads the variable then). Called by the
    supervisor; the workers inherit it."""
    directory = tempfile.mkdtemp(prefix="cpsolver-metrics-")
    os.environ[MULTIPROC_ENV] = directory
    return directory


def remove_multiprocess_dir(directory: str) -> None:
    shutil.rmtree(directory, ignore_errors=True)


def mark_worker_dead(pid: int) -> None:
    """Drop a dead worker's live gauges (in-flight calls); its counters stay in the sums."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]


def serve_metrics(sock: socket.socket, on_listening: Callable[[int], None]) -> None:
    """Serve ``/metrics`` (the sum over every process's files) on ``sock``, a listening socket
    (the supervisor's, taken before the warm-up: :func:`cpsolver.server.main.reserve_port`),
    until the process is stopped; ``on_listening(port)`` is called once it serves."""
    from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

    from prometheus_client import CollectorRegistry, multiprocess
    from prometheus_client.exposition import make_wsgi_app

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # scrapes are not access-logged
            pass

    class HeldSocketServer(WSGIServer):
        """A WSGI server on a socket that is already bound and listening: it binds nothing
        itself (a bind of its own could fail after the warm-up, or find the port taken)."""

        address_family = sock.family

        def server_bind(self) -> None:
            self.socket.close()  # the one socketserver made, unbound
            self.socket = sock
            self.server_address = sock.getsockname()
            host, port = sock.getsockname()[:2]
            self.server_name, self.server_port = str(host), int(port)  # no reverse DNS lookup
            self.setup_environ()

        def server_activate(self) -> None:
            pass  # listening already

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    httpd = HeldSocketServer(sock.getsockname()[:2], QuietHandler)
    httpd.set_app(make_wsgi_app(registry))
    on_listening(int(httpd.server_port))
    httpd.serve_forever()


class ServerMetrics:
    """The metric objects of one process (create after ``PROMETHEUS_MULTIPROC_DIR`` is set)."""

    def __init__(self) -> None:
        from prometheus_client import Counter, Gauge, Histogram

        # Not registered in the default registry: in multiprocess mode the files are what the
        # scrape reads, and a forked process may create its own set again.
        labels = ("grpc_type", "grpc_service", "grpc_method")
        self.started = Counter("grpc_server_started_total", "Calls started.", labels, registry=None)
        self.handled = Counter(
            "grpc_server_handled_total",
            "Calls completed, by status code.",
            (*labels, "grpc_code"),
            registry=None,
        )
        self.handling = Histogram(
            "grpc_server_handling_seconds",
            "Time to complete a call.",
            labels,
            buckets=BUCKETS,
            registry=None,
        )
        self.in_flight = Gauge(
            "cpsolver_calls_in_flight",
            "Calls being handled now.",
            multiprocess_mode="livesum",
            registry=None,
        )
        self.shed = Counter(
            "cpsolver_calls_shed_total",
            "Calls refused with RESOURCE_EXHAUSTED.",
            labels,
            registry=None,
        )
        self.refusals = Counter(
            "cpsolver_admission_refusals_total",
            "Calls the admission control refused before any work, by reason: queue (on "
            "arrival), deadline (its work would not end in time), no_slot, expired.",
            ("grpc_method", "reason"),
            registry=None,
        )
        self.late_calls = Counter(
            "cpsolver_calls_late_total",
            "Calls whose work ran and ended after their deadline (wasted work).",
            ("grpc_method",),
            registry=None,
        )
        self.restarts = Counter(
            "cpsolver_worker_restarts_total", "Workers restarted after dying.", registry=None
        )
        self.hands = Counter(
            "cpsolver_hands_solved_total", "Chinese poker hands solved.", registry=None
        )
        self.solve_seconds = Counter(
            "cpsolver_solve_seconds_total",
            "Seconds spent in calls that solve hands.",
            registry=None,
        )

    def refused(self, method: str, reason: str) -> None:
        """Count a call the admission control refused (:mod:`cpsolver.server.admission`)."""
        self.refusals.labels(method.rpartition("/")[2], reason).inc()

    def late(self, method: str) -> None:
        """Count a call whose work ended after its deadline."""
        self.late_calls.labels(method.rpartition("/")[2]).inc()
