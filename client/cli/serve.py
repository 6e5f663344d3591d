"""``cpsolver serve``: run the gRPC server (the server code is imported only when it runs, and
needs the ``grpc`` extra: without it the command prints that one line and exits 4)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from cpsolver.client.cli.main import main
from cpsolver.extras import require

_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", default=50051, show_default=True, type=click.IntRange(0, 65535),
    help="Port to listen on; 0 picks a free one (shown in the ready line).",
)  # fmt: skip
@click.option(
    "--workers", type=click.IntRange(1), default=None,
    help="Worker processes sharing the port [default: one per core].",
)  # fmt: skip
@click.option("--tls-cert", type=_FILE, help="PEM certificate chain: serve TLS.")
@click.option("--tls-key", type=_FILE, help="PEM private key of --tls-cert.")
@click.option(
    "--tls-client-ca", type=_FILE,
    help="PEM CA bundle: require client certificates it signed (mutual TLS).",
)  # fmt: skip
@click.option(
    "--token", envvar="CPSOLVER_TOKEN", default=None,
    help="Require 'authorization: Bearer TOKEN' on every call (env CPSOLVER_TOKEN).",
)  # fmt: skip
@click.option(
    "--grace", type=click.FloatRange(0), default=10.0, show_default=True,
    help="Seconds in-flight calls get to finish on SIGTERM/SIGINT.",
)  # fmt: skip
@click.option(
    "--max-concurrent-rpcs", type=click.IntRange(1), default=64, show_default=True,
    help="Calls in progress per worker; more get RESOURCE_EXHAUSTED.",
)  # fmt: skip
@click.option(
    "--max-message-bytes", type=click.IntRange(1024), default=4 * 1024 * 1024,
    show_default=True, help="Largest request or response message.",
)  # fmt: skip
@click.option(
    "--max-batch", type=click.IntRange(1), default=10_000, show_default=True,
    help="Most hands in one BatchSolve request.",
)  # fmt: skip
@click.option(
    "--access-log/--no-access-log", default=True, show_default=True,
    help="One JSON line per call on stderr (method, status, latency).",
)  # fmt: skip
def serve(
    host: str,
    port: int,
    workers: int | None,
    tls_cert: Path | None,
    tls_key: Path | None,
    tls_client_ca: Path | None,
    token: str | None,
    grace: float,
    max_concurrent_rpcs: int,
    max_message_bytes: int,
    max_batch: int,
    access_log: bool,
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

    config = ServerConfig(
        host=host,
        port=port,
        workers=workers or os.cpu_count() or 1,
        tls_cert=tls_cert,
        tls_key=tls_key,
        tls_client_ca=tls_client_ca,
        token=token or None,
        grace=grace,
        max_concurrent_rpcs=max_concurrent_rpcs,
        max_message_bytes=max_message_bytes,
        max_batch=max_batch,
        access_log=access_log,
    )
    raise SystemExit(run_server(config))
