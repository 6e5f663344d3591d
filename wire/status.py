"""Library exceptions <-> gRPC status (``google.rpc.Status`` with ``google.rpc.BadRequest``).

The mapping is written once, here, both directions: the server's error interceptor
(``cpsolver.server.interceptors``) and streaming servicers (per-item statuses of
``BatchSolve``) call :func:`status_from_exception`; the typed client raises what
:func:`exception_from_status` returns:

* :class:`cpsolver.errors.InvalidInputError` (bad cards, counts, options, illegal plays) ->
  ``INVALID_ARGUMENT`` with one ``BadRequest.FieldViolation`` per library violation;
* :class:`cpsolver.errors.InfeasibleError` -> ``FAILED_PRECONDITION``;
* anything else is a bug -> ``INTERNAL`` (no details leak; the server logs the traceback).

Field paths: the library numbers list items from 1, as people do (``cards[2]`` is the second
card, and its messages say "card 2"); the wire follows google.rpc.BadRequest and protobuf field
paths, which index from 0. :func:`wire_field_path` converts once, here, so adapters raise the
library's exceptions (and build their own field paths in the library's convention).
"""

from __future__ import annotations

import re

from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2

from cpsolver.errors import CpsolverError, FieldViolation, InfeasibleError, InvalidInputError

__all__ = [
    "OK_STATUS",
    "exception_from_status",
    "library_field_path",
    "status_from_exception",
    "wire_field_path",
]

_INDEX = re.compile(r"\[(\d+)\]")

OK_STATUS = status_pb2.Status(code=code_pb2.OK)


def wire_field_path(path: str) -> str:
    """A library field path (1-based indexes) as a wire field path (0-based).

    >>> wire_field_path("players[2].back[5]")
    'players[1].back[4]'
    >>> wire_field_path("rules.order")
    'rules.order'
    """
    return _INDEX.sub(lambda m: f"[{max(int(m.group(1)) - 1, 0)}]", path)


def library_field_path(path: str) -> str:
    """A wire field path (0-based indexes) as a library field path (1-based); the inverse of
    :func:`wire_field_path` for the paths the server sends.

    >>> library_field_path("players[1].back[4]")
    'players[2].back[5]'
    """
    return _INDEX.sub(lambda m: f"[{int(m.group(1)) + 1}]", path)


def status_from_exception(exc: BaseException, *, prefix: str = "") -> status_pb2.Status:
    """The ``google.rpc.Status`` a caller gets for ``exc`` (see the module docstring).

    ``prefix`` places every field path under a request field (``requests[3]``), in the library
    convention (1-based).
    """
    if isinstance(exc, InvalidInputError):
        if prefix:
            exc = exc.prefixed(prefix)
        bad_request = error_details_pb2.BadRequest(
            field_violations=[
                error_details_pb2.BadRequest.FieldViolation(
                    field=wire_field_path(v.field), description=v.description
                )
                for v in exc.violations
            ]
        )
        detail = any_pb2.Any()
        detail.Pack(bad_request)
        message = "; ".join(
            f"{wire_field_path(v.field)}: {v.description}" if v.field else v.description
            for v in exc.violations
        )
        return status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=message, details=[detail])
    if isinstance(exc, InfeasibleError):
        return status_pb2.Status(code=code_pb2.FAILED_PRECONDITION, message=str(exc))
    return status_pb2.Status(
        code=code_pb2.INTERNAL, message=f"internal error ({type(exc).__name__})"
    )


def exception_from_status(status: status_pb2.Status) -> CpsolverError | None:
    """The library exception a ``google.rpc.Status`` stands for (the inverse of
    :func:`status_from_exception`), or None when the code is not a library error.

    ``INVALID_ARGUMENT`` -> :class:`InvalidInputError` with the BadRequest's field violations
    (field paths back in the library's 1-based convention); ``FAILED_PRECONDITION`` ->
    :class:`InfeasibleError`.

    >>> err = exception_from_status(status_from_exception(InvalidInputError("cards[5]", "dup")))
    >>> type(err).__name__, str(err)
    ('InvalidInputError', 'cards[5]: dup')
    """
    if status.code == code_pb2.INVALID_ARGUMENT:
        found: list[FieldViolation] = []
        for detail in status.details:
            bad_request = error_details_pb2.BadRequest()
            if detail.Unpack(bad_request):
                found.extend(
                    FieldViolation(library_field_path(v.field), v.description)
                    for v in bad_request.field_violations
                )
        if not found:
            found.append(FieldViolation("", status.message or "invalid argument"))
        return InvalidInputError(violations=found)
    if status.code == code_pb2.FAILED_PRECONDITION:
        return InfeasibleError(status.message)
    return None
