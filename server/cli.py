"""``cpsolver serve``: run the gRPC server (the server code is imported only when it runs, and
needs the ``grpc`` extra: without it the command prints that one line and exits 4).

The server registers this command with the ``cpsolver`` CLI itself, through the entry point
group ``cpsolver.commands`` (pyproject.toml), so the client never imports the server.

Every option can also come from the environment (``CPSOLVER_PORT=50052``, see :func:`env_var`),
so a container is configured the twelve-factor way; flags win over the environment.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from cpsolver.extras import require

F = TypeVar("F", bound=Callable[..., Any])

_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
ENV_PREFIX = "CPSOLVER_"


def env_var(long_option: str) -> str:
    """The environment variable of a serve option: one rule for all, ``--tls-cert`` ->
    ``CPSOLVER_TLS_CERT`` (twelve-factor configuration; a flag on the command line wins).

    >>> env_var("--max-concurrent-rpcs"), env_var("--access-log/--no-access-log")
    ('CPSOLVER_MAX_CONCURRENT_RPCS', 'CPSOLVER_ACCESS_LOG')
    """
    return ENV_PREFIX + long_option.split("/")[0].removeprefix("--").upper().replace("-", "_")


def option(long_option: str, **attrs: Any) -> Callable[[F], F]:
    """A ``click.option`` that can also be set from :func:`env_var` (shown in ``--help``; a bad
    value is a usage error naming the variable, exit code 2)."""
    return click.option(long_option, envvar=env_var(long_option), show_envvar=True, **attrs)


@click.command()
@option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@option(
    "--port", default=50051, show_default=True, type=click.IntRange(0, 65535),
    help="Port to listen on; 0 picks a free one (shown in the ready line).",
)  # fmt: skip
@option(
    "--workers", type=click.IntRange(1), default=None,
    help="Worker processes sharing the port [default: one per core].",
)  # fmt: skip
@option("--tls-cert", type=_FILE, help="PEM certificate chain: serve TLS.")
@option("--tls-key", type=_FILE, help="PEM private key of --tls-cert.")
@option(
    "--tls-client-ca", type=_FILE,
    help="PEM CA bundle: require client certificates it signed (mutual TLS).",
)  # fmt: skip
@option(
    "--token", default=None,
    help="Require 'authorization: Bearer TOKEN' on every call.",
)  # fmt: skip
@option(
    "--drain", type=click.FloatRange(0), default=0.0, show_default=True,
    help="Seconds after SIGTERM/SIGINT during which health says NOT_SERVING but calls are "
    "still served, so load balancers move traffic away first.",
)  # fmt: skip
@option(
    "--grace", type=click.FloatRange(0), default=10.0, show_default=True,
    help="Seconds in-flight calls get to finish after the drain.",
)  # fmt: skip
@option(
    "--max-concurrent-rpcs", type=click.IntRange(1), default=4, show_default=True,
    help="Calls in progress per worker (health and reflection aside); more wait for a slot.",
)  # fmt: skip
@option(
    "--max-queue-wait", type=click.FloatRange(0), default=1.0, show_default=True,
    help="Seconds a call may wait for a slot; then RESOURCE_EXHAUSTED (with RetryInfo), "
    "before any work. A call whose expected work would not end before its deadline is "
    "refused alike.",
)  # fmt: skip
@option(
    "--default-budget", type=click.FloatRange(0.001), default=120.0, show_default=True,
    help="Seconds of work a call without a deadline may take (its admission and its "
    "sampling loops go by it, as by a deadline).",
)  # fmt: skip
@option(
    "--max-message-bytes", type=click.IntRange(1024), default=4 * 1024 * 1024,
    show_default=True, help="Largest request or response message.",
)  # fmt: skip
@option(
    "--max-batch", type=click.IntRange(1), default=10_000, show_default=True,
    help="Most hands in one BatchSolve request.",
)  # fmt: skip
@option(
    "--max-connection-age", type=click.FloatRange(1), default=300.0, show_default=True,
    help="Seconds a client connection lives before the worker sends GOAWAY, so clients "
    "reconnect and spread over workers again (after a restart, say).",
)  # fmt: skip
@option(
    "--max-restarts", type=click.IntRange(1), default=10, show_default=True,
    help="Worker restarts per minute the supervisor makes before it gives up (exit 1).",
)  # fmt: skip
@option(
    "--access-log/--no-access-log", default=True, show_default=True,
    help="One log line per call on stderr (method, status, latency).",
)  # fmt: skip
@option(
    "--metrics-port", type=click.IntRange(0, 65535), default=None,
    help="Serve Prometheus metrics at http://HOST:PORT/metrics (0 picks a free port) "
    "[default: off].",
)  # fmt: skip
@option(
    "--log-format", type=click.Choice(["json", "text"]), default=None,
    help="json: every line, the ready line too, is a JSON object on stderr; text: readable "
    "log lines on stderr, the ready line on stdout [default: text on a terminal, else json].",
)  # fmt: skip
def serve(
    host: str,
    port: int,
    workers: int | None,
    tls_cert: Path | None,
    tls_key: Path | None,
    tls_client_ca: Path | None,
    token: str | None,
    drain: float,
    grace: float,
    max_concurrent_rpcs: int,
    max_queue_wait: float,
    default_budget: float,
    max_message_bytes: int,
    max_batch: int,
    max_connection_age: float,
    max_restarts: int,
    access_log: bool,
    metrics_port: int | None,
    log_format: str | None,
) -> None:
    """Serve the gRPC API (health, reflection, graceful shutdown on SIGTERM/SIGINT)."""
    if (tls_cert is None) != (tls_key is None):
        raise click.UsageError("--tls-cert and --tls-key go together")
    if tls_client_ca is not None and tls_cert is None:
        raise click.UsageError("--tls-client-ca needs --tls-cert and --tls-key")
    # Checked here: the workers import grpc only after forking, each of them would fail alone.
    require("grpc", "cpsolver serve")
    from cpsolver.server.config import ServerConfig
    from cpsolver.server.main import serve as run_server

    # A taken port (--port or --metrics-port), the two the same, or an unknown host is the
    # caller's to fix: run_server refuses it first, one line and exit 2 in a second (issue 30),
    # not a traceback after the warm-up or a second server sharing the port.
    config = ServerConfig(
        host=host,
        port=port,
        workers=workers or os.cpu_count() or 1,
        tls_cert=tls_cert,
        tls_key=tls_key,
        tls_client_ca=tls_client_ca,
        token=token or None,
        drain=drain,
        grace=grace,
        max_concurrent_rpcs=max_concurrent_rpcs,
        max_queue_wait=max_queue_wait,
        default_budget=default_budget,
        max_message_bytes=max_message_bytes,
        max_batch=max_batch,
        max_connection_age=max_connection_age,
        max_restarts=max_restarts,
        access_log=access_log,
        metrics_port=metrics_port,
        log_format=log_format or ("text" if sys.stderr.isatty() else "json"),
    )
    raise SystemExit(run_server(config))
