"""``cpsolver serve`` on an address it cannot have (issue 30): a port another server or program
holds, a host that does not resolve. One line and exit 2 within seconds, before the warm-up;
never a second server silently sharing the port (the workers bind with SO_REUSEPORT), never a
traceback. Real processes and real sockets on loopback.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import RunningServer, clean_env

SERVE = [str(Path(sys.executable).with_name("cpsolver")), "serve", "--workers", "1"]


def _serve(*args: str) -> tuple[int, str, float]:
    started = time.monotonic()
    done = subprocess.run(
        [*SERVE, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
    )
    return done.returncode, done.stderr, time.monotonic() - started


def test_a_port_another_cpsolver_server_holds_is_refused(grpc_server: RunningServer) -> None:
    port = grpc_server.address.rsplit(":", 1)[1]
    code, err, took = _serve("--host", "127.0.0.1", "--port", port)
    assert code == 2, err
    assert f"--port {port}: 127.0.0.1:{port} is already in use" in err
    assert "Traceback" not in err and took < 20  # before the warm-up (about a minute)


def test_a_port_a_plain_listener_holds_is_refused() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = str(listener.getsockname()[1])
        code, err, took = _serve("--host", "127.0.0.1", "--port", port)
    assert code == 2 and "is already in use" in err and "Traceback" not in err
    assert took < 20


def test_the_metrics_port_is_checked_too() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = str(listener.getsockname()[1])
        code, err, _ = _serve("--host", "127.0.0.1", "--port", "0", "--metrics-port", port)
    assert code == 2 and f"--metrics-port {port}: 127.0.0.1:{port} is already in use" in err


@pytest.mark.parametrize("host", ["256.1.1.1", "no-such-host.invalid"])
def test_a_host_that_does_not_resolve_is_refused(host: str) -> None:
    code, err, took = _serve("--host", host, "--port", "0")
    assert code == 2, err
    assert f"--host {host} does not resolve to an address to listen on" in err
    assert "Traceback" not in err and took < 30


def test_a_port_left_in_time_wait_is_not_in_use() -> None:
    """A stopped server's connections in TIME_WAIT do not block a restart on its port."""
    from cpsolver.server.main import address_problem

    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        client = socket.create_connection(("127.0.0.1", port))
        accepted, _ = listener.accept()
        accepted.close()  # the server side closes first: its end goes to TIME_WAIT
        client.close()
    assert address_problem("127.0.0.1", port) == ""
    assert address_problem("127.0.0.1", 0) == ""
