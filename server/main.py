"""The supervisor behind ``cpsolver serve``: pre-forked workers sharing one port.

Why pre-forked processes: gRPC Python serves calls on threads of one process, so CPU-bound
solves would share one core (the GIL). The supervisor reserves the port (SO_REUSEPORT, so
``--port 0`` picks a free one), forks ``--workers`` processes that each run a complete gRPC
server on it (:mod:`.worker`), and the kernel spreads incoming *connections* across them.
One client connection (one channel) is served by one worker; a client reaches every core with
several channels (see docs/API.md). The supervisor itself never creates gRPC objects (gRPC is
not fork-safe once started), restarts a worker that dies, and on SIGTERM/SIGINT asks every
worker to drain (health NOT_SERVING, in-flight calls finish within ``grace``) and waits.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import json
import logging
import multiprocessing
import multiprocessing.connection
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from multiprocessing.context import ForkProcess
from multiprocessing.queues import SimpleQueue
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from cpsolver.server.config import ServerConfig

__all__ = [
    "AddressUnavailable",
    "Reservation",
    "address_problem",
    "cli_program",
    "configure_logging",
    "reserve_port",
    "serve",
]

log = logging.getLogger("cpsolver.server")

STARTUP_TIMEOUT = 300.0  # seconds for every worker to warm up and bind
RESTART_WINDOW = 60.0  # seconds: --max-restarts counts the restarts within the last minute


class _JsonFormatter(logging.Formatter):
    """Access-log records are JSON already; other records become JSON lines too, with the
    ``event`` and ``fields`` a caller passes in ``extra`` (the ready line is ``"event":
    "ready"``)."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if record.name == "cpsolver.server.access":
            return message
        entry: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + "Z",
            "level": record.levelname.lower(),
            "event": getattr(record, "event", "log"),
            "msg": message,
            "pid": record.process,
            **getattr(record, "fields", {}),
        }
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry)


class _TextFormatter(logging.Formatter):
    """Readable lines for a terminal: time, level, message; a call as method, code, latency."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(message)s", "%H:%M:%S")

    def format(self, record: logging.LogRecord) -> str:
        if record.name == "cpsolver.server.access":
            call = json.loads(record.getMessage())
            record = logging.makeLogRecord(
                {
                    **record.__dict__,
                    "msg": "%s %s %.2f ms",
                    "args": (call["method"], call["status"], call["latency_ms"]),
                }
            )
        return super().format(record)


LOG_FORMATS: dict[str, type[logging.Formatter]] = {"json": _JsonFormatter, "text": _TextFormatter}


def configure_logging(access_log: bool = True, log_format: str = "json") -> None:
    """Log lines on stderr, JSON or text (``--log-format``); the access log can be switched off
    (``--no-access-log``)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(LOG_FORMATS[log_format]())
    root = logging.getLogger("cpsolver")
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    root.propagate = False
    logging.getLogger("cpsolver.server.access").setLevel(
        logging.INFO if access_log else logging.WARNING
    )


def address_problem(host: str, port: int, option: str = "--port") -> str:
    """Why ``host:port`` cannot be served, or ``""``: the host does not resolve, or the port is
    taken (the message names ``option``, the one that asked for the port). Checked before the
    warm-up, so a bad address fails in a second, not after a minute.

    The workers bind with SO_REUSEPORT, which would let a second server (or anything else
    bound with it) share a port silently; a plain bind here, without the option, fails while
    any socket holds the port, ours included. Port 0 always has a free port.

    >>> print(address_problem("256.1.1.1", 50051))  # doctest: +ELLIPSIS
    --host 256.1.1.1 does not resolve to an address to listen on (...)
    """
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, socket.gaierror) else str(exc)
        return f"--host {host} does not resolve to an address to listen on ({reason})"
    family, kind, proto, _, sockaddr = found[0]
    if port == 0:
        return ""
    with socket.socket(family, kind, proto) as probe:
        # SO_REUSEADDR: connections of a stopped server left in TIME_WAIT do not count (gRPC
        # binds with it too); a listener, or a socket bound with SO_REUSEPORT alone, does.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(sockaddr)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return _in_use(host, port, option)
            return f"cannot listen on {host}:{port}: {exc.strerror}"
    return ""


def _in_use(host: str, port: int, option: str = "--port") -> str:
    return (
        f"{option} {port}: {host}:{port} is already in use (another cpsolver serve, or another "
        f"program); stop it, or choose another {option} (0 picks a free one)"
    )


class AddressUnavailable(Exception):
    """The address cannot be this server's; the message says why in one line
    (:func:`address_problem`)."""


class Reservation:
    """The server's port, held from before the warm-up until it stops (:func:`reserve_port`),
    and its metrics port, listening, when it has one (``metrics``, handed to the metrics
    process): ``with reservation as port:`` closes them at the end; :meth:`close` may be called
    twice."""

    def __init__(
        self, sock: socket.socket, claim: socket.socket | None, metrics: socket.socket | None
    ) -> None:
        self._sock = sock
        self._claim = claim
        self.metrics = metrics
        self.port = int(sock.getsockname()[1])

    def close(self) -> None:
        """Give the ports (and the claim on the address) back."""
        self._sock.close()
        if self._claim is not None:
            self._claim.close()
        if self.metrics is not None:
            self.metrics.close()

    def __enter__(self) -> int:
        return self.port

    def __exit__(self, *exc: object) -> None:
        self.close()


def _claim(host: str, port: int, sockaddr: tuple[Any, ...]) -> socket.socket | None:
    """Claim ``sockaddr`` among the cpsolver servers of this machine: a Linux abstract Unix
    socket named after it, which one process at a time can bind and which goes away with the
    last process holding it (the workers inherit it) however they end: no file left behind.
    Without it two servers started at the same moment could both pass :func:`address_problem`
    before either bound the port, and then share it. None for port 0 (the kernel picks a free
    port) and where there are no abstract sockets (not Linux)."""
    if port == 0 or not sys.platform.startswith("linux"):
        return None
    claim = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        claim.bind(f"\0cpsolver-serve {sockaddr[0]} {sockaddr[1]}")
    except OSError as exc:
        claim.close()
        if exc.errno == errno.EADDRINUSE:
            raise AddressUnavailable(_in_use(host, port)) from None
        raise
    return claim


def reserve_port(config: ServerConfig) -> Reservation:
    """Claim the address (:func:`_claim`), check it (:func:`address_problem`) and bind (not
    listen) it with SO_REUSEPORT; the :class:`Reservation` holds it until the server stops.
    Raises :class:`AddressUnavailable` when another server or program holds the port or the
    host does not resolve. :func:`serve` reserves first, before the warm-up: from then on
    another server's check fails, so two servers started together never share the port.

    Workers bind the same port with SO_REUSEPORT; holding it here keeps the port ours even
    while a worker restarts, and resolves ``port=0`` to a concrete free port. The metrics port,
    if any, is then taken too (:func:`_reserve_metrics`).
    """
    problem = address_problem(config.host, config.port)  # resolves the host, or says why not
    if problem:
        raise AddressUnavailable(problem)
    family, kind, proto, _, sockaddr = socket.getaddrinfo(
        config.host, config.port, type=socket.SOCK_STREAM
    )[0]
    claim = _claim(config.host, config.port, sockaddr)
    sock = socket.socket(family, kind, proto)
    try:
        problem = address_problem(config.host, config.port)  # again, now under the claim
        if problem:
            raise AddressUnavailable(problem)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(sockaddr)
        metrics = _reserve_metrics(config, int(sock.getsockname()[1]))
    except BaseException:
        sock.close()
        if claim is not None:
            claim.close()
        raise
    return Reservation(sock, claim, metrics)


def _reserve_metrics(config: ServerConfig, grpc_port: int) -> socket.socket | None:
    """The metrics port, bound and listening from before the warm-up (None without
    ``--metrics-port``), so that a port that is taken, or the gRPC port itself, is refused in a
    second with one line, not after the warm-up by the metrics process dying with a traceback
    (the workers then waited out, exit 1); and so nothing can take it during the warm-up. The
    metrics process serves on this socket (:func:`cpsolver.server.metrics.serve_metrics`).

    Listening, not only bound: on Linux a socket bound with SO_REUSEADDR that does not listen
    lets another SO_REUSEADDR socket (an HTTP server's) bind the port too."""
    port = config.metrics_port
    if port is None:
        return None
    if port != 0 and port in (config.port, grpc_port):
        raise AddressUnavailable(
            f"--metrics-port {port}: it is the gRPC --port too; choose another --metrics-port "
            "(0 picks a free one)"
        )
    family, kind, proto, _, sockaddr = socket.getaddrinfo(
        config.host, port, type=socket.SOCK_STREAM
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        # TIME_WAIT connections of a stopped server's scrapes do not count (as for --port)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(sockaddr)
        sock.listen(64)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise AddressUnavailable(_in_use(config.host, port, "--metrics-port")) from None
        raise AddressUnavailable(
            f"--metrics-port {port}: cannot listen on {config.host}:{port}: {exc.strerror}"
        ) from None
    return sock


def _worker_main(config: ServerConfig, port: int, index: int, queue: SimpleQueue[Any]) -> None:
    from cpsolver.server.worker import run_worker

    configure_logging(config.access_log, config.log_format)
    try:
        run_worker(config, port, index, lambda info: queue.put(("ready", index, info)))
    except BaseException as exc:
        log.exception("worker %d failed", index)
        queue.put(("failed", index, f"{type(exc).__name__}: {exc}"))
        raise SystemExit(1) from exc
    # Every call has ended (the server stopped), but a handler thread may still be inside a
    # kernel for a call that was cancelled; the interpreter would wait for it at exit, past
    # the supervisor's patience (then SIGKILL). Nothing is left to clean up: exit now.
    for handler in logging.getLogger("cpsolver").handlers:
        handler.flush()
    os._exit(0)


def _metrics_main(config: ServerConfig, sock: socket.socket, queue: SimpleQueue[Any]) -> None:
    from cpsolver.server.metrics import serve_metrics

    # Forked from the supervisor, this process inherited its handler, which only sets the
    # supervisor's flag: SIGTERM would be ignored here until _stop_all's SIGKILL, drain + grace
    # + 5 s later. Nothing here needs draining (a scrape is retried): exit at once.
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: sys.exit(0))
    configure_logging(config.access_log, config.log_format)
    serve_metrics(sock, lambda bound: queue.put(("metrics", -1, bound)))


def cli_program() -> str:
    """How a shell runs this installation's CLI: ``cpsolver`` when the one on PATH is this
    installation's, else the script's full path (``make run``'s ``.venv/bin/cpsolver`` is not on
    PATH), so the commands to try run as printed (the ready line's, and ``make edge``'s)."""
    script = Path(sys.executable).with_name("cpsolver")
    found = shutil.which("cpsolver")
    if script.is_file():
        if found and os.path.samefile(found, script):
            return "cpsolver"
        return shlex.quote(str(script))
    if found:
        return "cpsolver"
    return f'{shlex.quote(sys.executable)} -c "from cpsolver.client.cli import main; main()"'


def _try_lines(config: ServerConfig, port: int) -> list[str]:
    """Client commands to try against this server, each runnable as printed (but for the
    ``<token>`` and ``<ca.pem>`` placeholders of a secured server): the cpsolver CLI's
    ``solve`` and ``health``, and grpcurl's call when grpcurl is installed."""
    address = config.address(port)
    program = cli_program()
    tls = " --tls-ca <ca.pem>" if config.tls else ""
    cli = f"{program} solve --server {address}{tls}"
    if config.token:
        cli += " --token <token>"
    cli += ' "As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"'
    health = f"{program} health --server {address}{tls}"  # health needs no token
    cards = [
        ("RANK_JACK", "SUIT_HEARTS"),
        ("RANK_JACK", "SUIT_SPADES"),
        ("RANK_FOUR", "SUIT_CLUBS"),
    ]
    cards += [("RANK_FOUR", "SUIT_DIAMONDS"), ("RANK_JACK", "SUIT_DIAMONDS")]
    body = json.dumps({"cards": [{"rank": r, "suit": s} for r, s in cards]}, separators=(",", ":"))
    security = "-cacert <ca.pem>" if config.tls else "-plaintext"
    if config.tls_client_ca:
        security += " -cert <client.pem> -key <client-key.pem>"
    header = " -H 'authorization: Bearer <token>'" if config.token else ""
    grpcurl = (
        f"grpcurl {security}{header} -d '{body}' {address} "
        "cpsolver.v1.ChinesePokerService/EvaluateHand"
    )
    return [cli, health, *([grpcurl] if shutil.which("grpcurl") else [])]


def _announce(
    config: ServerConfig, port: int, services: str, metrics_port: int | None, out: TextIO
) -> None:
    """The ready line: text on ``out`` with commands to try, or a JSON log event (``ready``)."""
    mode = ("mutual TLS" if config.tls_client_ca else "TLS") if config.tls else "plaintext"
    auth = ", bearer token required" if config.token else ""
    address = config.address(port)
    metrics = f"; metrics: http://{config.address(metrics_port)}/metrics" if metrics_port else ""
    line = (
        f"cpsolver serve: ready on {address} "
        f"({config.workers} worker{'s' if config.workers > 1 else ''}, {mode}{auth}; "
        f"services: {services}{metrics})"
    )
    if config.log_format == "json":
        fields = {
            "address": address,
            "port": port,
            "workers": config.workers,
            "security": mode,
            "token": bool(config.token),
            "services": services.split(", "),
            "metrics_port": metrics_port,
            "try": _try_lines(config, port),
        }
        log.info(line, extra={"event": "ready", "fields": fields})
        return
    print(line, file=out)
    for command in _try_lines(config, port):
        print(f"try: {command}", file=out)
    out.flush()


def serve(config: ServerConfig, out: TextIO | None = None) -> int:
    """Run the server until SIGTERM/SIGINT; returns the process exit code: 2, with one line on
    stderr, when the address cannot be had (:func:`reserve_port`, before anything else)."""
    try:
        reservation = reserve_port(config)
    except AddressUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2  # the CLI's exit code for what the caller must fix
    try:
        return _serve(config, reservation, out or sys.stdout)
    finally:
        reservation.close()


def _serve(config: ServerConfig, reservation: Reservation, out: TextIO) -> int:
    configure_logging(config.access_log, config.log_format)
    # Choose the kernel cache once, before forking: a read-only CPSOLVER_KERNEL_CACHE is
    # copied here, and every worker inherits the copy through NUMBA_CACHE_DIR.
    from cpsolver.kernel_cache import configure as configure_kernel_cache

    log.info("kernel cache: %s", configure_kernel_cache() or "numba's default (__pycache__)")
    stopping = False

    def on_signal(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        if not stopping:
            log.info("received %s, shutting down", signal.Signals(signum).name)
        stopping = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    _warm_up_before_forking()
    metrics_dir = None
    if config.metrics_port is not None:
        from cpsolver.server import metrics

        metrics_dir = metrics.prepare_multiprocess_dir()  # before prometheus_client is imported
    try:
        return _supervise(config, reservation, out, lambda: stopping)
    finally:
        if metrics_dir is not None:
            metrics.remove_multiprocess_dir(metrics_dir)


def _warm_up_before_forking() -> None:
    """Load every kernel and table that is safe to fork with, once: the workers inherit them
    (copy-on-write) and only load the parallel batch kernels themselves, which a process that
    forks must never load (numba's threading layer would abort the children). Those are
    compiled once too, when numba's cache lacks them: by a process of their own (it never
    forks), started as soon as the serial search kernels they call are cached, beside the rest
    of this warm-up; the workers then load them from the cache instead of each compiling them.
    Several workers start in about the time of one, and a restarted worker is ready at once."""
    from cpsolver.warmup import SEARCH_STEP, parallel_kernels_cached, warm_up

    helper: list[subprocess.Popen[str]] = []
    done: list[str] = []

    def progress(step: int, total: int, what: str) -> None:
        if done and done[-1] == SEARCH_STEP and not parallel_kernels_cached():
            log.info("compiling the parallel kernels once, in a process of their own")
            command = [sys.executable, "-m", "cpsolver.warmup", "--parallel"]
            proc = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
            )
            helper.append(proc)
        done.append(what)
        log.info("warm-up %d/%d: %s (before forking the workers)", step, total, what)

    seconds = warm_up(progress, parallel=False)
    for proc in helper:
        _, errors = proc.communicate()
        if proc.returncode != 0:  # the workers compile them, each (slower, still correct)
            log.warning(
                "compiling the parallel kernels failed (exit %s): %s",
                proc.returncode, errors.strip().splitlines()[-1:] or "",
            )  # fmt: skip
    log.info("warm-up before forking took %.2f s", seconds)


def _supervise(
    config: ServerConfig, reservation: Reservation, out: TextIO, stopped: Callable[[], bool]
) -> int:
    """Fork the workers (and the metrics process) on the reserved port, announce, restart the
    dead until stopped."""
    ctx = multiprocessing.get_context("fork")
    queue: SimpleQueue[Any] = ctx.SimpleQueue()
    procs: dict[int, ForkProcess] = {}
    metrics_index = -1  # the metrics process's key in procs (workers are 0..n-1)
    metrics_sock = reservation.metrics  # listening since before the warm-up; every restart's
    metrics_port = None if metrics_sock is None else int(metrics_sock.getsockname()[1])
    counters = None
    if metrics_sock is not None:
        from cpsolver.server.metrics import ServerMetrics, mark_worker_dead

        counters = ServerMetrics()

    with reservation as port:

        def start(index: int) -> None:
            if index == metrics_index:
                proc = ctx.Process(
                    target=_metrics_main,
                    args=(config, metrics_sock, queue),
                    name="cpsolver-metrics",
                    daemon=False,
                )
            else:
                proc = ctx.Process(
                    target=_worker_main,
                    args=(config, port, index, queue),
                    name=f"cpsolver-worker-{index}",
                    daemon=False,
                )
            proc.start()
            procs[index] = proc

        if metrics_sock is not None:
            start(metrics_index)  # first: it forks before the workers load anything
        for index in range(config.workers):
            start(index)
        ready: set[int] = set()
        expected = set(procs)
        services = ""
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while ready != expected and not stopped():
            if not queue.empty():
                what, index, info = queue.get()
                if what == "metrics":  # serving (on the reserved port, ``info``)
                    ready.add(index)
                    continue
                if what == "failed":
                    log.error("worker %d failed to start: %s", index, info)
                    _stop_all(procs, config)
                    return 1
                ready.add(index)
                services = info
                continue
            dead = [i for i, p in procs.items() if not p.is_alive() and i not in ready]
            if dead or time.monotonic() > deadline:
                log.error("workers did not start (%s)", "died" if dead else "timeout")
                _stop_all(procs, config)
                return 1
            time.sleep(0.02)
        if not stopped():
            _announce(config, port, services, metrics_port, out)
        # A rate, not a lifetime cap: a server that loses a worker now and then (OOM kill, a
        # crash) runs forever; one that crash-loops gives up instead of spinning.
        restarts: collections.deque[float] = collections.deque()
        while not stopped():
            sentinels = [p.sentinel for p in procs.values()]
            multiprocessing.connection.wait(sentinels, timeout=0.5)
            for index, proc in list(procs.items()):
                if stopped() or proc.is_alive():
                    continue
                now = time.monotonic()
                while restarts and restarts[0] <= now - RESTART_WINDOW:
                    restarts.popleft()
                if len(restarts) >= config.max_restarts:
                    log.error(
                        "worker %d exited (%s); %d restarts in the last %.0f s, giving up",
                        index, proc.exitcode, len(restarts), RESTART_WINDOW,
                    )  # fmt: skip
                    _stop_all(procs, config)
                    return 1
                restarts.append(now)
                log.warning("worker %d exited (%s); restarting", index, proc.exitcode)
                if counters is not None and index != metrics_index:
                    assert proc.pid is not None
                    mark_worker_dead(proc.pid)  # its in-flight gauge no longer counts
                    counters.restarts.inc()
                start(index)
        _stop_all(procs, config)
    log.info("server stopped")
    return 0


def _stop_all(procs: dict[int, ForkProcess], config: ServerConfig) -> None:
    """SIGTERM every worker, wait up to drain + grace + 5 s, then SIGKILL the stragglers."""
    for proc in procs.values():
        if proc.is_alive() and proc.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + config.drain + config.grace + 5.0
    for proc in procs.values():
        proc.join(max(0.0, deadline - time.monotonic()))
        if proc.is_alive():
            log.error("worker pid %s did not stop in time; killing it", proc.pid)
            proc.kill()
            proc.join()
