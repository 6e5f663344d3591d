"""``cpsolver health``: ask a server's gRPC health service (``grpc.health.v1``) if it serves.

For probes that cannot speak gRPC natively (a container ``HEALTHCHECK``; Kubernetes has
``grpc:`` probes of its own): exit 0 when the service is SERVING, 1 when it is not, 2 for an
unknown service, 3 when the server cannot be reached in time.
"""

from __future__ import annotations

from pathlib import Path

import click

from cpsolver.client.cli.main import main


@main.command()
@click.option(
    "--server", envvar="CPSOLVER_SERVER", default="127.0.0.1:50051", show_default=True,
    metavar="HOST:PORT", help="The server to ask (env CPSOLVER_SERVER).",
)  # fmt: skip
@click.option(
    "--service", default="", metavar="NAME",
    help="A service name, e.g. cpsolver.v1.ChinesePokerService [default: the whole server].",
)  # fmt: skip
@click.option(
    "--timeout", type=click.FloatRange(0, min_open=True), default=5.0, show_default=True,
    help="Seconds to wait for the answer.",
)  # fmt: skip
@click.option(
    "--tls-ca", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
    envvar="CPSOLVER_TLS_CA", help="Use TLS trusting this PEM CA bundle (env CPSOLVER_TLS_CA).",
)  # fmt: skip
def health(server: str, service: str, timeout: float, tls_ca: Path | None) -> None:
    """Print the health status of SERVICE on SERVER; exit 0 only when it is SERVING."""
    from cpsolver.extras import require

    require("grpc", "cpsolver health")  # a base install: one line and exit 4, no traceback
    from cpsolver.client.remote import RemoteSolver

    with RemoteSolver(server, timeout=timeout, retry=None, root_certificates=tls_ca) as remote:
        status = remote.health(service)  # unreachable: exit 3, unknown service: exit 2
    click.echo(f"{service or 'server'}: {status}")
    raise SystemExit(0 if status == "SERVING" else 1)
