"""Clients of the solver: the ``cpsolver`` command line and the typed Python client.

>>> from cpsolver.client import connect
>>> with connect(None) as solver:   # connect("127.0.0.1:50051") talks to `cpsolver serve`
...     solver.evaluate("Qs Qd 2c").name
'pair of queens, 2 kicker'

:class:`Solver` is the protocol both :class:`LocalSolver` (the library in this process) and
:class:`RemoteSolver` (a gRPC client, :mod:`cpsolver.client.remote`) implement; they return the
library's types and raise the library's exceptions. ``grpc`` is imported only when a remote
solver is made; without the ``grpc`` extra that raises :class:`cpsolver.errors.MissingExtraError`
(``pip install 'cpsolver[grpc]'``), and the in-process solver works as ever.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cpsolver.client.errors import DeadlineExceededError, RemoteError, ServerUnavailableError
from cpsolver.client.local import LocalSolver, Solver
from cpsolver.extras import require

if TYPE_CHECKING:
    from cpsolver.client.remote import RemoteSolver, RetryPolicy

__all__ = [
    "DeadlineExceededError",
    "LocalSolver",
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
    if name in ("RemoteSolver", "RetryPolicy"):
        require("grpc", f"cpsolver.client.{name}")
        from cpsolver.client import remote

        return getattr(remote, name)
    raise AttributeError(f"module 'client' has no attribute {name!r}")
