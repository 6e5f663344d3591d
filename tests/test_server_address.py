"""``cpsolver serve`` on an address it cannot have (issue 30): a port another server or program
holds, a host that does not resolve. One line and exit 2 within seconds, before the warm-up;
never a second server silently sharing the port (the workers bind with SO_REUSEPORT), not even
two servers started at the same moment, never a traceback; the workers of one server still
share its port. Real processes and real sockets on loopback.
"""

from __future__ import annotations

import errno
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import (
    SERVER_START_TIMEOUT,
    RunningServer,
    clean_env,
    ready_address,
    running_server,
)

SERVE = [str(Path(sys.executable).with_name("cpsolver")), "serve", "--workers", "1"]


def in_use(port: str, option: str = "--port") -> list[str]:
    """The one line a server refused a taken port prints (stderr, exit code 2), naming the
    option that asked for it."""
    return [
        f"error: {option} {port}: 127.0.0.1:{port} is already in use (another cpsolver serve, "
        f"or another program); stop it, or choose another {option} (0 picks a free one)"
    ]


def free_port() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return str(probe.getsockname()[1])


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
    assert (code, err.splitlines()) == (2, in_use(port))
    assert took < 20  # before the warm-up (about a minute)


def test_a_port_a_plain_listener_holds_is_refused() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = str(listener.getsockname()[1])
        code, err, took = _serve("--host", "127.0.0.1", "--port", port)
    assert (code, err.splitlines()) == (2, in_use(port))
    assert took < 20


def test_the_metrics_port_is_checked_too() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = str(listener.getsockname()[1])
        code, err, _ = _serve("--host", "127.0.0.1", "--port", "0", "--metrics-port", port)
    assert code == 2
    assert err.splitlines() == in_use(port, "--metrics-port")  # its own option, twice


def test_the_metrics_port_cannot_be_the_grpc_port() -> None:
    """``--port P --metrics-port P``: one line and exit 2 before the warm-up, not an OSError
    traceback from the metrics process after it and a 15 s wait for the workers (exit 1)."""
    port = free_port()
    code, err, took = _serve("--host", "127.0.0.1", "--port", port, "--metrics-port", port)
    assert (code, err.splitlines()) == (2, [
        f"error: --metrics-port {port}: it is the gRPC --port too; choose another "
        "--metrics-port (0 picks a free one)"
    ])  # fmt: skip
    assert took < 20


def test_the_metrics_port_is_held_from_before_the_warm_up(tmp_path: Path) -> None:
    """The metrics port is bound before the warm-up, as the gRPC port is: a program that takes
    it meanwhile cannot (it could, and the metrics process died after the warm-up)."""
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("w") as sink:
        proc = subprocess.Popen(
            [*SERVE, "--host", "127.0.0.1", "--port", "0", "--metrics-port", port,
             "--log-format", "json"],
            stdout=subprocess.DEVNULL, stderr=sink, stdin=subprocess.DEVNULL, env=clean_env(),
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while '"warm-up 1/' not in log.read_text():  # warming up, not serving yet
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        assert not any(ready_address(line) for line in log.read_text().splitlines())
        with socket.socket() as intruder, pytest.raises(OSError) as taken:
            intruder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            intruder.bind(("127.0.0.1", int(port)))
            intruder.listen()
        assert taken.value.errno == errno.EADDRINUSE
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("host", ["256.1.1.1", "no-such-host.invalid"])
def test_a_host_that_does_not_resolve_is_refused(host: str) -> None:
    code, err, took = _serve("--host", host, "--port", "0")
    assert code == 2, err
    [line] = err.splitlines()  # one line, no usage text, no traceback
    assert line.startswith(f"error: --host {host} does not resolve to an address to listen on (")
    assert took < 30


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


def test_two_servers_started_together_never_share_the_port(tmp_path: Path) -> None:
    """Two ``cpsolver serve`` on one port at the same moment: one serves, the other exits 2
    with the one line in seconds. Both pass a check made before the warm-up when neither holds
    the port yet; the port is claimed before the warm-up and the check made again under the
    claim, so the second fails then instead of warming up and joining the first's port."""
    port = free_port()
    command = [*SERVE, "--host", "127.0.0.1", "--port", port, "--log-format", "json"]
    logs = [tmp_path / f"server-{i}.log" for i in range(2)]
    started = time.monotonic()
    procs = []
    for log in logs:
        with log.open("w") as sink:
            procs.append(subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=sink, stdin=subprocess.DEVNULL,
                text=True, env=clean_env(),
            ))  # fmt: skip
    exited: dict[int, float] = {}
    ready: set[int] = set()
    try:
        deadline = started + SERVER_START_TIMEOUT
        while time.monotonic() < deadline and len(exited) + len(ready) < 2:
            for i, proc in enumerate(procs):
                if i not in exited and proc.poll() is not None:
                    exited[i] = time.monotonic() - started
                if any(ready_address(x) for x in logs[i].read_text().splitlines()):
                    ready.add(i)
            time.sleep(0.1)
        assert len(exited) == 1 and len(ready) == 1, (exited, ready)
        [loser] = exited
        assert ready == {1 - loser}
        assert procs[loser].returncode == 2
        assert logs[loser].read_text().splitlines() == in_use(port)
        assert exited[loser] < 20  # before its warm-up, not after
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()


def test_the_workers_of_one_server_share_its_port() -> None:
    """The claim is the server's, not each worker's: two workers serve on the one port."""
    port = free_port()
    args = ("--workers", "2", "--host", "127.0.0.1", "--port", port, "--log-format", "json")
    with running_server(*args) as server:
        assert server.address == f"127.0.0.1:{port}"
        serving = {
            json.loads(line)["pid"]
            for line in server.stderr
            if line.startswith("{") and f"serving on 127.0.0.1:{port}" in line
        }
        assert len(serving) == 2  # two worker pids
        code, err, _ = _serve("--host", "127.0.0.1", "--port", port)
        assert (code, err.splitlines()) == (2, in_use(port))
