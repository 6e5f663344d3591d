"""Shared fixtures: every 5-card and 3-card hand as index arrays; the real gRPC server
(``cpsolver serve``) in a subprocess on loopback, its address and a typed client of it.
Plain helper functions (in-process CLI runs, card messages, BadRequest violations) are in
``helpers.py``.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import numpy as np
import numpy.typing as npt
import pytest

from cpsolver.client import RemoteSolver


def _combinations(n: int, k: int) -> npt.NDArray[np.int8]:
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(n), k)), dtype=np.int8
    )
    return flat.reshape(-1, k)


@pytest.fixture(scope="session")
def all_five_card_hands() -> npt.NDArray[np.int8]:
    """Every 5-card hand as card indices (index = 4 * (rank - 2) + suit), ascending."""
    return _combinations(52, 5)


@pytest.fixture(scope="session")
def all_three_card_hands() -> npt.NDArray[np.int8]:
    """Every 3-card hand as card indices, ascending."""
    return _combinations(52, 3)


# A first start in a fresh install compiles every kernel before it is ready (numba's cache is
# empty): ~2 minutes on a busy 2-core CI machine since RULES 2.5's calibrated kernels joined
# the warm-up (a fresh-clone run saw the 120 s this was run out during their compile); a
# start from a warm cache takes seconds.
SERVER_START_TIMEOUT = 240.0


@dataclass
class RunningServer:
    """A ``cpsolver serve`` subprocess; its stdout and stderr lines are collected as they come."""

    proc: subprocess.Popen[str]
    address: str = ""
    stdout: list[str] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)

    def channel(self, **kwargs: object) -> grpc.Channel:
        """A plaintext channel to the server."""
        return grpc.insecure_channel(self.address, **kwargs)  # type: ignore[arg-type]

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30.0) -> int:
        """Signal the server and wait for it to exit; returns its exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise


def start_server(
    *args: str,
    env: dict[str, str] | None = None,
    python: str = sys.executable,
    cwd: str | None = None,
    wrap: list[str] | None = None,
    bare: bool = False,
) -> RunningServer:
    """Start ``cpsolver serve --host 127.0.0.1 --port 0 ARGS`` (only ``serve ARGS`` when
    ``bare``: configured by ``env`` alone) and wait for its ready line, with ``python``
    (another environment's interpreter, in tests/test_packaging.py) in ``cwd``, under the
    ``wrap`` command (e.g. ``setpriv``)."""
    where = [] if bare else ["--host", "127.0.0.1", "--port", "0"]
    command = [*(wrap or []),
        python, "-c", "from cpsolver.client.cli import main; main()",
        "serve", *where, *args,
    ]  # fmt: skip
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=cwd,
    )
    server = RunningServer(proc)
    lines: queue.Queue[str] = queue.Queue()

    def pump(stream: object, sink: list[str], forward: bool) -> None:
        for line in stream:  # type: ignore[attr-defined]
            sink.append(line)
            if forward:
                lines.put(line)

    # The ready line is text on stdout (--log-format text) or a JSON event on stderr (json,
    # the default when stderr is not a terminal): watch both.
    threading.Thread(target=pump, args=(proc.stdout, server.stdout, True), daemon=True).start()
    threading.Thread(target=pump, args=(proc.stderr, server.stderr, True), daemon=True).start()
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while not server.address:
        try:
            line = lines.get(timeout=0.2)
        except queue.Empty:
            if proc.poll() is not None or time.monotonic() > deadline:
                server.stop(signal.SIGKILL)
                pytest.fail("server did not start:\n" + "".join(server.stderr[-20:]))
            continue
        server.address = ready_address(line) or ""
    return server


def ready_address(line: str) -> str | None:
    """The address of a server's ready line, text or JSON (``"event": "ready"``), else None."""
    if line.startswith("{"):
        event = json.loads(line)
        return str(event["address"]) if event.get("event") == "ready" else None
    if line.startswith("cpsolver serve: ready on "):
        return line.split(" ready on ", 1)[1].split()[0]
    return None


# Runs a command as root without the capabilities that let root write anywhere, so a
# ``chmod a-w`` directory is read-only to it, as an image's files are to a container's user.
NO_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"]


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without a kernel cache setting, plus ``extra``."""
    unset = ("NUMBA_CACHE_DIR", "CPSOLVER_KERNEL_CACHE")
    return {**{k: v for k, v in os.environ.items() if k not in unset}, **extra}


@pytest.fixture(scope="session")
def kernel_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A kernel cache filled by ``cpsolver compile`` (its output in ``compile.log`` beside it),
    then made read-only."""
    directory = tmp_path_factory.mktemp("compiled") / "kernels"
    run = subprocess.run(
        [str(Path(sys.executable).with_name("cpsolver")), "compile", str(directory)],
        env=clean_env(), capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    (directory.parent / "compile.log").write_text(run.stderr + run.stdout)
    assert run.returncode == 0, run.stderr
    subprocess.run(["chmod", "-R", "a-w", str(directory)], check=True)
    yield directory
    subprocess.run(["chmod", "-R", "u+w", str(directory)], check=True)


@contextlib.contextmanager
def running_server(
    *args: str,
    env: dict[str, str] | None = None,
    python: str = sys.executable,
    cwd: str | None = None,
    wrap: list[str] | None = None,
    bare: bool = False,
) -> Iterator[RunningServer]:
    """A server for one test; always stopped (SIGTERM, then SIGKILL) afterwards."""
    server = start_server(*args, env=env, python=python, cwd=cwd, wrap=wrap, bare=bare)
    try:
        yield server
    finally:
        with contextlib.suppress(Exception):
            server.stop()
        if server.proc.poll() is None:
            server.proc.kill()


@pytest.fixture(scope="session")
def grpc_server() -> Iterator[RunningServer]:
    """One server (2 workers) shared by the suite's read-only gRPC tests."""
    with running_server("--workers", "2") as server:
        yield server


@pytest.fixture(scope="session")
def grpc_channel(grpc_server: RunningServer) -> Iterator[grpc.Channel]:
    """A channel to the shared server, ready for use."""
    channel = grpc_server.channel()
    grpc.channel_ready_future(channel).result(timeout=30)
    yield channel
    channel.close()


@pytest.fixture(scope="session")
def server(grpc_server: RunningServer) -> str:
    """The shared server's address (HOST:PORT), as ``--server`` takes it."""
    return grpc_server.address


@pytest.fixture(scope="module")
def remote(server: str) -> Iterator[RemoteSolver]:
    """A typed client of the shared server (60 s per call)."""
    with RemoteSolver(server, timeout=60) as client:
        yield client


@pytest.fixture
def serve_grpc():  # type: ignore[no-untyped-def]
    """Factory for a server of one's own: ``with serve_grpc("--workers", "1") as server:``."""
    return running_server
