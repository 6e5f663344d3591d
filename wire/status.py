"""Library exceptions <-> gRPC status (``google.rpc.Status`` and its standard details).

The mapping is written once, here, both directions: the server's error interceptor
(``cpsolver.server.interceptors``) and streaming servicers (per-item statuses of
``BatchSolve``) call :func:`status_from_exception`; the typed client raises what
:func:`exception_from_status` returns, so a remote caller gets the class and the attributes an
in-process caller gets.

* :class:`~cpsolver.errors.InvalidInputError` and its subclasses (bad cards, counts, options,
  illegal plays) -> ``INVALID_ARGUMENT`` with a ``google.rpc.BadRequest`` (one field violation
  per library violation) and a ``google.rpc.ErrorInfo``: ``reason`` names the exception class
  (:data:`REASONS`), ``domain`` is :data:`ERROR_DOMAIN` and ``metadata`` holds its attributes
  (``token`` and ``position`` of a :class:`~cpsolver.errors.CardError`, ``rule`` of an
  :class:`~cpsolver.errors.IllegalPlayError`), as text;
* :class:`RequestTooLargeError` (more items than the server takes in one call) -> the same,
  plus a ``google.rpc.QuotaFailure`` whose ``quota_value`` is the limit, so a client can ask
  again in smaller calls without reading the message;
* :class:`~cpsolver.errors.InfeasibleError` -> ``FAILED_PRECONDITION`` with an ErrorInfo;
* :class:`~cpsolver.budget.TimeLimitError` (CP-SAT's time limit, or the call's deadline
  reached inside a sampling loop) -> ``DEADLINE_EXCEEDED``;
* :class:`ShuttingDownError` (the grace ended with the call still running) -> ``ABORTED``;
* anything else is a bug -> ``INTERNAL`` (no details leak; the server logs the traceback).

Field paths: the library's paths are structured, with 0-based list indexes
(:mod:`cpsolver.errors`); the wire shows them as google.rpc.BadRequest does and as every
library message does, indexes from 0 (``cards[4]``, ``hands[1].cards[0]``), and ErrorInfo's
``position`` of a card error is the same 0-based index. :func:`wire_path` and
:func:`parse_wire_path` are the two directions of that one conversion. Where a request is
shaped differently from the library's arguments (a Chlust hand is a message with a ``cards``
field; a table's players are a list, not a mapping by seat), the game's codec moves the path
first (``cpsolver.wire.cards.hand_paths_to_wire``,
``cpsolver.wire.chinese_poker.player_paths_to_wire``...).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from google.protobuf import any_pb2
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2

from cpsolver.budget import TimeLimitError
from cpsolver.chinese.ev_model import MissingTablesError
from cpsolver.errors import (
    CardError,
    CardTypeError,
    CpsolverError,
    Field,
    FieldPath,
    FieldViolation,
    IllegalPlayError,
    InfeasibleError,
    InvalidInputError,
    MissingExtraError,
    RuleError,
    format_field,
)

__all__ = [
    "ERROR_DOMAIN",
    "MAX_DESCRIPTION",
    "MAX_VIOLATIONS",
    "OK_STATUS",
    "REASONS",
    "RequestTooLargeError",
    "ShuttingDownError",
    "exception_from_status",
    "packed",
    "parse_wire_path",
    "paths_moved",
    "status_from_exception",
    "wire_path",
]

ERROR_DOMAIN = "cpsolver"
"""``google.rpc.ErrorInfo.domain`` of every error the server reports."""

OK_STATUS = status_pb2.Status(code=code_pb2.OK)


class RequestTooLargeError(InvalidInputError):
    """A request holds more items than the server takes in one call (``BatchSolve`` hands
    beyond ``--max-batch``, ``DealTables`` deals beyond :data:`~cpsolver.wire.chinese_poker.
    MAX_DEALS`); ``limit`` is the most it takes. In-process calls have no such limit."""

    limit: int

    def __init__(self, field: Field, description: str, *, limit: int) -> None:
        super().__init__(field, description)
        self.limit = limit


class ShuttingDownError(CpsolverError):
    """The server shut down before the call finished (its grace period ended): ``ABORTED``,
    which the client's retry policy does not retry against the same, now closed, address, so
    the caller reads this reason rather than "connection refused"."""


def _reason(kind: type[CpsolverError]) -> str:
    """``IllegalPlayError`` -> ``ILLEGAL_PLAY_ERROR`` (ErrorInfo's UPPER_SNAKE_CASE)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", kind.__name__).upper()


# The classes a status can stand for, each with the attributes ErrorInfo.metadata carries and
# their types. A subclass that is not listed travels as its nearest listed base class.
_ATTRIBUTES: dict[type[CpsolverError], dict[str, type[str] | type[int]]] = {
    InvalidInputError: {},
    CardError: {"token": str, "position": int},
    CardTypeError: {"token": str, "position": int},
    RuleError: {},
    IllegalPlayError: {"rule": str},
    MissingTablesError: {},
    RequestTooLargeError: {},  # the limit is the QuotaFailure's quota_value
    InfeasibleError: {},
    MissingExtraError: {"extra": str, "feature": str},
}
REASONS: Mapping[str, type[CpsolverError]] = {_reason(k): k for k in _ATTRIBUTES}
"""ErrorInfo reason -> library exception class (``CARD_ERROR`` -> CardError...)."""

_WIRE_PATH = re.compile(r"[^.\[\]]+(?:\.[^.\[\]]+|\[\d+\])*")
_WIRE_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def wire_path(path: FieldPath) -> str:
    """A library field path as the wire shows it (list indexes from 0).

    >>> wire_path(("players", 1, "arrangement", "back", 4)), wire_path(("rules", "order"))
    ('players[1].arrangement.back[4]', 'rules.order')
    """
    return format_field(path, first=0)


def parse_wire_path(text: str) -> FieldPath:
    """The structured path of a wire field path (the inverse of :func:`wire_path`); text that
    is not a field path (``name``, then ``.name`` or ``[index]`` parts) stays one name.

    >>> parse_wire_path("hands[1].cards[0]"), parse_wire_path(""), parse_wire_path("a..b")
    (('hands', 1, 'cards', 0), (), ('a..b',))
    """
    if not text:
        return ()
    if not _WIRE_PATH.fullmatch(text):
        return (text,)
    return tuple(name or int(index) for name, index in _WIRE_PART.findall(text))


@contextmanager
def paths_moved(move: Callable[[FieldPath], FieldPath]) -> Iterator[None]:
    """Inside the block, an :class:`~cpsolver.errors.InvalidInputError` is raised again with
    every path replaced by ``move(path)`` (class, attributes and descriptions kept): a servicer
    names its request's fields for the library's arguments, the typed client the other way.

    >>> from cpsolver.wire.cards import hand_paths_to_wire
    >>> try:
    ...     with paths_moved(hand_paths_to_wire):
    ...         raise InvalidInputError(("hands", 1, 0), "card Ah is also in hands[0]")
    ... except InvalidInputError as exc:
    ...     wire_path(exc.path)
    'hands[1].cards[0]'
    """
    try:
        yield
    except InvalidInputError as exc:
        raise exc.with_paths(move) from None


def packed(message: Message) -> any_pb2.Any:
    """``message`` packed into a ``google.protobuf.Any`` (a status detail)."""
    detail = any_pb2.Any()
    detail.Pack(message)
    return detail


def _kind_of(exc: CpsolverError) -> type[CpsolverError]:
    return next(k for k in type(exc).__mro__ if k in _ATTRIBUTES)


def _error_info(exc: CpsolverError) -> any_pb2.Any:
    kind = _kind_of(exc)
    metadata = {name: _clip(str(getattr(exc, name)), MAX_DESCRIPTION) for name in _ATTRIBUTES[kind]}
    info = error_details_pb2.ErrorInfo(reason=_reason(kind), domain=ERROR_DOMAIN, metadata=metadata)
    return packed(info)


MAX_VIOLATIONS = 10
"""Field violations a status carries; the rest are counted in one last violation."""
MAX_DESCRIPTION = 1024
"""Characters of a violation's description a status carries (descriptions may quote input)."""


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _bounded(found: tuple[FieldViolation, ...]) -> list[tuple[str, str]]:
    """The violations a status carries: the first :data:`MAX_VIOLATIONS`, each clipped, and
    ``and K more`` when there are more, so an error reply stays small whatever the input
    (issue 15, D3: 100,000 bad cards made a 7.4 MB trailer, past the response cap).

    >>> many = tuple(FieldViolation(("cards", i), "rank is required") for i in range(25))
    >>> shown = _bounded(many)
    >>> len(shown), shown[0], shown[-1]
    (11, ('cards[0]', 'rank is required'), ('', 'and 15 more violations'))
    """
    shown = [
        (_clip(wire_path(v.path), MAX_DESCRIPTION), _clip(v.description, MAX_DESCRIPTION))
        for v in found[:MAX_VIOLATIONS]
    ]
    if len(found) > MAX_VIOLATIONS:
        shown.append(("", f"and {len(found) - MAX_VIOLATIONS:,} more violations"))
    return shown


def status_from_exception(exc: BaseException) -> status_pb2.Status:
    """The ``google.rpc.Status`` a caller gets for ``exc`` (see the module docstring); field
    paths are rendered with :func:`wire_path`, as the request's fields."""
    if isinstance(exc, InvalidInputError):
        violations = _bounded(exc.violations)
        bad_request = error_details_pb2.BadRequest(
            field_violations=[
                error_details_pb2.BadRequest.FieldViolation(field=field, description=text)
                for field, text in violations
            ]
        )
        details = [packed(bad_request), _error_info(exc)]
        if isinstance(exc, RequestTooLargeError):
            quota = error_details_pb2.QuotaFailure.Violation(
                subject=wire_path(exc.path),
                description=_clip(exc.description, MAX_DESCRIPTION),
                quota_id="items-per-request",
                quota_value=exc.limit,
            )
            details.append(packed(error_details_pb2.QuotaFailure(violations=[quota])))
        message = "; ".join(f"{field}: {text}" if field else text for field, text in violations)
        return status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=message, details=details)
    if isinstance(exc, InfeasibleError):
        return status_pb2.Status(
            code=code_pb2.FAILED_PRECONDITION, message=str(exc), details=[_error_info(exc)]
        )
    if isinstance(exc, ShuttingDownError):
        return status_pb2.Status(code=code_pb2.ABORTED, message=str(exc))
    if isinstance(exc, TimeLimitError):  # CP-SAT's own limit, or the call's deadline (D5)
        return status_pb2.Status(code=code_pb2.DEADLINE_EXCEEDED, message=str(exc))
    if isinstance(exc, MissingExtraError):  # e.g. engine=cpsat on a server without [cpsat]
        return status_pb2.Status(
            code=code_pb2.UNIMPLEMENTED, message=str(exc), details=[_error_info(exc)]
        )
    return status_pb2.Status(
        code=code_pb2.INTERNAL, message=f"internal error ({type(exc).__name__})"
    )


def _attributes(info: error_details_pb2.ErrorInfo, kind: type[CpsolverError]) -> dict[str, object]:
    """The attributes ErrorInfo.metadata carries for ``kind``, as their types (a value that does
    not read as its type is dropped: the error still has its class and violations)."""
    found: dict[str, object] = {}
    for name, of_type in _ATTRIBUTES[kind].items():
        if name in info.metadata:
            try:
                found[name] = of_type(info.metadata[name])
            except ValueError:
                continue
    return found


def exception_from_status(status: status_pb2.Status) -> CpsolverError | None:
    """The library exception a ``google.rpc.Status`` stands for (the inverse of
    :func:`status_from_exception`), or None when the code is not a library error.

    ``INVALID_ARGUMENT`` -> the class ErrorInfo names (:class:`InvalidInputError` without one)
    with the BadRequest's violations, their paths read back with :func:`parse_wire_path`, and
    the attributes ErrorInfo carries; ``FAILED_PRECONDITION`` -> :class:`InfeasibleError`;
    ``UNIMPLEMENTED`` with a ``MISSING_EXTRA_ERROR`` ErrorInfo -> :class:`MissingExtraError`
    (the server lacks an optional part, e.g. the CP-SAT engine).

    >>> sent = CardError(("cards", 4), "duplicate card 'As' (also cards[0])", token="As",
    ...                  position=4)
    >>> back = exception_from_status(status_from_exception(sent))
    >>> type(back).__name__, str(back), back.token, back.position
    ('CardError', "cards[4]: duplicate card 'As' (also cards[0])", 'As', 4)
    """
    violations: list[FieldViolation] = []
    info: error_details_pb2.ErrorInfo | None = None
    limit: int | None = None
    for detail in status.details:
        bad_request = error_details_pb2.BadRequest()
        error_info = error_details_pb2.ErrorInfo()
        quota = error_details_pb2.QuotaFailure()
        if detail.Unpack(bad_request):
            violations.extend(
                FieldViolation(parse_wire_path(v.field), v.description)
                for v in bad_request.field_violations
            )
        elif detail.Unpack(error_info) and error_info.domain == ERROR_DOMAIN:
            info = error_info
        elif detail.Unpack(quota) and quota.violations:
            limit = quota.violations[0].quota_value
    if status.code == code_pb2.INVALID_ARGUMENT:
        kind: type[InvalidInputError] = InvalidInputError
        named = REASONS.get(info.reason) if info is not None else None
        if named is not None and issubclass(named, InvalidInputError):
            kind = named
        attributes = _attributes(info, kind) if info is not None else {}
        if issubclass(kind, RequestTooLargeError):
            if limit is None:  # no QuotaFailure: the limit is unknown
                kind = InvalidInputError
            else:
                attributes["limit"] = limit
        if not violations:
            violations.append(FieldViolation("", status.message or "invalid argument"))
        return kind.of_violations(violations, **attributes)
    if status.code == code_pb2.FAILED_PRECONDITION:
        return InfeasibleError(status.message)
    missing = info is not None and REASONS.get(info.reason) is MissingExtraError
    if status.code == code_pb2.UNIMPLEMENTED and info is not None and missing:
        extra = _attributes(info, MissingExtraError)
        return MissingExtraError(str(extra.get("extra", "")), str(extra.get("feature", "")))
    return None
