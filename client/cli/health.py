"""``cpsolver health``: ask a server's gRPC health service (``grpc.health.v1``) if it serves.

For probes that cannot speak gRPC natively (a container ``HEALTHCHECK``; Kubernetes has
``grpc:`` probes of its own): exit 0 when the service is SERVING, 1 when it is not, 3 when
the server cannot be reached in time.
"""

from __future__ import annotations

from pathlib import Path

import click

from cpsolver.client.cli.main import EXIT_UNREACHABLE, main


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
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    if tls_ca is not None:
        channel = grpc.secure_channel(server, grpc.ssl_channel_credentials(tls_ca.read_bytes()))
    else:
        channel = grpc.insecure_channel(server)
    with channel:
        stub = health_pb2_grpc.HealthStub(channel)
        try:
            reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=timeout)
        except grpc.RpcError as exc:
            code = exc.code()
            if code == grpc.StatusCode.NOT_FOUND:
                click.echo(f"{service}: unknown service", err=True)
                raise SystemExit(1) from None
            click.echo(f"error: server unreachable: {server}: {code.name}", err=True)
            raise SystemExit(EXIT_UNREACHABLE) from None
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
    click.echo(f"{service or 'server'}: {status}")
    raise SystemExit(0 if reply.status == health_pb2.HealthCheckResponse.SERVING else 1)
