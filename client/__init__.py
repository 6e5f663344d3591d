"""Clients of the solver: the ``cpsolver`` command line and the typed Python client.

>>> from cpsolver.client import connect
>>> with connect(None) as solver:   # connect("127.0.0.1:50051") talks to `cpsolver serve`
...     solver.evaluate("Qs Qd 2c").name, solver.chlust.deal(1).trump.name
('pair of queens, 2 kicker', 'HEARTS')

A :class:`Solver` has one section per game, ``solver.chinese``, ``solver.chlust`` and
``solver.leaves`` (:mod:`cpsolver.client.games`; Chinese poker's methods are also on the solver
itself), written once over a :class:`~cpsolver.client.calls.Backend`: :class:`LocalSolver` is
a Solver over the library in this process, :class:`RemoteSolver` one over a gRPC client
(:mod:`cpsolver.client.remote`); they return the library's types and raise the library's
exceptions. ``grpc`` is imported only when a remote solver is made; without the ``grpc`` extra
that raises :class:`cpsolver.errors.MissingExtraError` (``pip install 'cpsolver[grpc]'``), and
the in-process solver works as ever.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cpsolver.client.calls import Backend
from cpsolver.client.errors import DeadlineExceededError, RemoteError, ServerUnavailableError
from cpsolver.client.local import LocalBackend, LocalSolver
from cpsolver.client.solver import Solver
from cpsolver.extras import require

if TYPE_CHECKING:
    from cpsolver.client.remote import RemoteBackend, RemoteSolver, RetryPolicy

__all__ = [
    "Backend",
    "DeadlineExceededError",
    "LocalBackend",
    "LocalSolver",
    "RemoteBackend",
    "RemoteError",
    "RemoteSolver",
    "RetryPolicy",
    "ServerUnavailableError",
    "Solver",
    "connect",
]


def connect(server: str | None = None, **options: Any) -> Solver:
    """A :class:`LocalSolver` when ``server`` is None or empty, else a :class:`RemoteSolver`
    for ``server`` (``host:port`` or a gRPC target) with ``options`` (timeout, retry, tls,
    token...)."""
    if not server:
        return LocalSolver()  # options only concern a connection
    require("grpc", "the gRPC client")
    from cpsolver.client.remote import RemoteSolver

    return RemoteSolver(server, **options)


def __getattr__(name: str) -> Any:
    if name in ("RemoteBackend", "RemoteSolver", "RetryPolicy"):
        require("grpc", f"cpsolver.client.{name}")
        from cpsolver.client import remote

        return getattr(remote, name)
    raise AttributeError(f"module 'client' has no attribute {name!r}")
