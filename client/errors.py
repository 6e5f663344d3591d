"""Errors of a remote call that are not the library's (no grpc import here: the CLI maps them).

Library errors keep their library types over the wire (``InvalidInputError`` with the same
field violations, ``InfeasibleError``); what only a network call can do wrong is a
:class:`RemoteError`, and an unreachable server is :class:`ServerUnavailableError` (exit code 3
on the command line).
"""

from __future__ import annotations

from cpsolver.errors import CpsolverError

__all__ = ["DeadlineExceededError", "RemoteError", "ServerUnavailableError"]


class RemoteError(CpsolverError):
    """A gRPC call failed for a reason that is not the caller's input.

    ``code`` is the gRPC status code name (``"UNAVAILABLE"``, ``"UNAUTHENTICATED"``...),
    ``details`` the server's message.
    """

    def __init__(self, code: str, details: str = "", *, target: str = "") -> None:
        self.code = code
        self.details = details
        self.target = target
        where = f" ({target})" if target else ""
        super().__init__(f"{code}{where}: {details}" if details else f"{code}{where}")


class ServerUnavailableError(RemoteError):
    """The server could not be reached (after the retries of the channel's retry policy)."""


class DeadlineExceededError(RemoteError, TimeoutError):
    """The call's deadline passed before the server answered."""
