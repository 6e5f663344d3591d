"""Server configuration (what ``cpsolver serve`` accepts). Imports nothing heavy."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ServerConfig"]


@dataclass(frozen=True)
class ServerConfig:
    """Everything a worker needs to serve; defaults are the documented ones."""

    host: str = "127.0.0.1"
    port: int = 50051  # 0 picks a free port (printed in the ready line)
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    tls_cert: Path | None = None
    tls_key: Path | None = None
    tls_client_ca: Path | None = None  # set: clients must present a certificate it signed
    token: str | None = None  # set: calls need "authorization: Bearer <token>"
    drain: float = 0.0  # seconds after SIGTERM/SIGINT of health NOT_SERVING while still serving
    grace: float = 10.0  # seconds in-flight calls get to finish after the drain
    # Calls in progress per worker (health and reflection aside). A worker is one process, one
    # GIL: calls beyond a few add no throughput, only runnable threads that the one thread
    # accepting calls must win the GIL from (issue 15: at 64, the soak's CANCELLED).
    max_concurrent_rpcs: int = 4
    max_queue_wait: float = 1.0  # seconds a call may wait for a slot; then RESOURCE_EXHAUSTED
    default_budget: float = 120.0  # seconds of work a call without a deadline may take
    max_message_bytes: int = 4 * 1024 * 1024  # request and response size cap
    max_batch: int = 10_000  # hands per BatchSolve request
    max_connection_age: float = 300.0  # seconds; then GOAWAY, so clients rebalance over workers
    max_restarts: int = 10  # worker restarts per minute; more and the supervisor gives up
    access_log: bool = True  # one log line per call on stderr
    metrics_port: int | None = None  # set: Prometheus /metrics on this port (0 picks one)
    log_format: str = "json"  # "json" (one object per line, ready line too) or "text"

    @property
    def tls(self) -> bool:
        """True when serving TLS (a certificate and key are configured)."""
        return self.tls_cert is not None

    def address(self, port: int | None = None) -> str:
        """``host:port`` as gRPC expects it (IPv6 literals in brackets)."""
        host = f"[{self.host}]" if ":" in self.host and not self.host.startswith("[") else self.host
        return f"{host}:{self.port if port is None else port}"
