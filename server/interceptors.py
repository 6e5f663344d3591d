"""Server interceptors: metrics, one access-log line per call, bearer-token auth, error mapping,
request decoding.

Order (outermost first): :class:`MetricsInterceptor` (with ``--metrics-port``),
:class:`AccessLogInterceptor`, the admission control (:mod:`cpsolver.server.admission`),
:class:`TokenAuthInterceptor` (when a token is configured), :class:`ErrorInterceptor`,
:class:`DecodeInterceptor`. So a rejected
token is logged as UNAUTHENTICATED, a body is decoded only once the token is accepted, an
undecodable or oversized body is INVALID_ARGUMENT (logged and counted like any call), and
servicers simply raise library exceptions.
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import grpc
from google.rpc import code_pb2, status_pb2
from grpc_status import rpc_status

from cpsolver.budget import TimeLimitError
from cpsolver.errors import InvalidInputError
from cpsolver.server.metrics import SOLVING_METHODS, ServerMetrics
from cpsolver.wire.bounds import check_bounds
from cpsolver.wire.status import status_from_exception

__all__ = [
    "AccessLogInterceptor",
    "Behavior",
    "DecodeInterceptor",
    "ErrorInterceptor",
    "MetricsInterceptor",
    "TokenAuthInterceptor",
    "final_code",
    "observed",
    "status_of",
    "wrap_handler",
]

access_log = logging.getLogger("cpsolver.server.access")
log = logging.getLogger("cpsolver.server")


def status_of(exc: BaseException) -> status_pb2.Status:
    """The status a caller gets for ``exc`` (:func:`cpsolver.wire.status.status_from_exception`);
    an INTERNAL one is a bug, logged here with its traceback (the caller sees no details)."""
    status = status_from_exception(exc)
    if status.code == code_pb2.INTERNAL:
        log.error("internal error", exc_info=exc)
    return status


Behavior = Callable[[Any, grpc.ServicerContext], Any]
# around(behavior, response_streaming, method) -> wrapped behavior of the same shape
Around = Callable[[Behavior, bool, str], Behavior]

_KINDS = (
    ("unary_unary", False),
    ("unary_stream", True),
    ("stream_unary", False),
    ("stream_stream", True),
)


def wrap_handler(
    handler: grpc.RpcMethodHandler | None, around: Around, method: str
) -> grpc.RpcMethodHandler | None:
    """The same handler with its behaviour wrapped by ``around`` (None stays None)."""
    if handler is None:
        return None
    for kind, response_streaming in _KINDS:
        behavior = getattr(handler, kind)
        if behavior is not None:
            return handler._replace(**{kind: around(behavior, response_streaming, method)})
    return handler


def final_code(context: grpc.ServicerContext, failed: bool) -> grpc.StatusCode:
    """The status a call ended with, as its caller sees it (also for metrics)."""
    code = context.code()
    if isinstance(code, grpc.StatusCode):
        return code
    remaining = context.time_remaining()
    if remaining is not None and remaining <= 0:
        return grpc.StatusCode.DEADLINE_EXCEEDED  # an answer after the deadline is not delivered
    if not context.is_active():
        return grpc.StatusCode.CANCELLED
    return grpc.StatusCode.UNKNOWN if failed else grpc.StatusCode.OK


# on_end(context, started_at, messages answered, failed): called once when a call ends
OnEnd = Callable[[grpc.ServicerContext, float, int, bool], None]


def observed(
    behavior: Behavior,
    response_streaming: bool,
    on_end: OnEnd,
    on_start: Callable[[], None] = lambda: None,
) -> Behavior:
    """``behavior`` timed: ``on_start`` runs when the call starts running, ``on_end`` once when
    it ends, however it ends, with the ``time.perf_counter()`` of its start, the messages it
    answered and whether it raised (the access log and the metrics observe calls through this
    one wrapper)."""
    if response_streaming:

        def streaming(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            on_start()
            start, items, failed = time.perf_counter(), 0, True
            try:
                for response in behavior(request, context):
                    items += 1
                    yield response
                failed = False
            finally:
                on_end(context, start, items, failed)

        return streaming

    def unary(request: Any, context: grpc.ServicerContext) -> Any:
        on_start()
        start, failed = time.perf_counter(), True
        try:
            response = behavior(request, context)
            failed = False
            return response
        finally:
            on_end(context, start, 0 if failed else 1, failed)

    return unary


class AccessLogInterceptor(grpc.ServerInterceptor):  # type: ignore[misc]
    """Logs one JSON line per call: method, status, latency (ms), peer, worker pid."""

    def __init__(self) -> None:
        self._pid = os.getpid()

    def _log(self, method: str, context: grpc.ServicerContext, start: float, failed: bool) -> None:
        if not access_log.isEnabledFor(logging.INFO):
            return
        record = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + "Z",
            "event": "rpc",
            "method": method,
            "status": final_code(context, failed).name,
            "latency_ms": round((time.perf_counter() - start) * 1000, 3),
            "peer": context.peer(),
            "worker": self._pid,
        }
        access_log.info(json.dumps(record))

    def _around(self, behavior: Behavior, response_streaming: bool, method: str) -> Behavior:
        def on_end(context: grpc.ServicerContext, start: float, items: int, failed: bool) -> None:
            self._log(method, context, start, failed)

        return observed(behavior, response_streaming, on_end)

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        method = handler_call_details.method
        return wrap_handler(continuation(handler_call_details), self._around, method)


def _unused(request: Any, context: grpc.ServicerContext) -> Any:
    raise AssertionError("never called: the token check answers instead")


class TokenAuthInterceptor(grpc.ServerInterceptor):  # type: ignore[misc]
    """Requires ``authorization: Bearer <token>`` metadata (UNAUTHENTICATED otherwise).

    The health service stays open, so load balancers and orchestrators can probe it.
    """

    EXEMPT_PREFIXES = ("/grpc.health.v1.Health/",)

    def __init__(self, token: str) -> None:
        self._expected = token.encode()

    def _carries_token(self, value: object) -> bool:
        """Whether one ``authorization`` value is ``Bearer <token>``. The scheme is matched
        case-insensitively (RFC 7235 section 2.1: ``bearer`` is ``Bearer``) and may be followed
        by several spaces (``1*SP``); the token is compared exactly, in constant time."""
        if not isinstance(value, str):
            return False
        scheme, space, credentials = value.partition(" ")
        return (
            bool(space)
            and scheme.lower() == "bearer"
            and hmac.compare_digest(credentials.lstrip(" ").encode(), self._expected)
        )

    def _deny(self, behavior: Behavior, response_streaming: bool, method: str) -> Behavior:
        def deny(request: Any, context: grpc.ServicerContext) -> Any:
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or invalid bearer token")

        return deny

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        method: str = handler_call_details.method
        if method.startswith(self.EXEMPT_PREFIXES):
            return continuation(handler_call_details)
        metadata = handler_call_details.invocation_metadata
        # Every authorization value must be the token: with several, checking only the first
        # would let whatever a proxy or a client library adds after it pass unexamined.
        supplied = [v for k, v in metadata or () if k == "authorization"]
        if supplied and all(self._carries_token(v) for v in supplied):
            return continuation(handler_call_details)
        handler = continuation(handler_call_details)
        if handler is None:  # an unknown method: say UNAUTHENTICATED, not which methods exist
            return grpc.unary_unary_rpc_method_handler(self._deny(_unused, False, method))
        return wrap_handler(handler, self._deny, method)


class ErrorInterceptor(grpc.ServerInterceptor):  # type: ignore[misc]
    """Turns exceptions raised by servicers into statuses (:func:`status_of`)."""

    @staticmethod
    def _abort(context: grpc.ServicerContext, exc: Exception) -> None:
        code = context.code()
        if code is not None and code != grpc.StatusCode.OK:
            raise exc  # the servicer already aborted with a status of its own
        if not context.is_active() and not isinstance(exc, TimeLimitError):
            raise exc  # cancelled or past its deadline: nobody is listening
        # A loop stopped by the call's budget ends with its status, quietly (not as an
        # application exception in gRPC's log).
        context.abort_with_status(rpc_status.to_status(status_of(exc)))

    def _around(self, behavior: Behavior, response_streaming: bool, method: str) -> Behavior:
        abort = self._abort
        if response_streaming:

            def streaming(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                try:
                    yield from behavior(request, context)
                except Exception as exc:
                    abort(context, exc)

            return streaming

        def unary(request: Any, context: grpc.ServicerContext) -> Any:
            try:
                return behavior(request, context)
            except Exception as exc:
                abort(context, exc)

        return unary

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        method = handler_call_details.method
        return wrap_handler(continuation(handler_call_details), self._around, method)


def _labels(method: str, client_streaming: bool, server_streaming: bool) -> tuple[str, str, str]:
    kind = {
        (False, False): "unary",
        (False, True): "server_stream",
        (True, False): "client_stream",
        (True, True): "bidi_stream",
    }[(client_streaming, server_streaming)]
    service, _, name = method.lstrip("/").rpartition("/")
    return kind, service, name


class MetricsInterceptor(grpc.ServerInterceptor):  # type: ignore[misc]
    """Counts every call into :class:`ServerMetrics` (outermost, so it sees the final code)."""

    def __init__(self, metrics: ServerMetrics) -> None:
        self._metrics = metrics
        self._labels: dict[str, tuple[str, str, str]] = {}

    def _begin(self, method: str) -> None:
        self._metrics.started.labels(*self._labels[method]).inc()
        self._metrics.in_flight.inc()

    def _end(
        self, method: str, context: grpc.ServicerContext, start: float, items: int, failed: bool
    ) -> None:
        metrics, labels = self._metrics, self._labels[method]
        seconds = time.perf_counter() - start
        code = final_code(context, failed).name
        metrics.handled.labels(*labels, code).inc()
        metrics.handling.labels(*labels).observe(seconds)
        metrics.in_flight.dec()
        if code == "RESOURCE_EXHAUSTED":
            metrics.shed.labels(*labels).inc()
        if method in SOLVING_METHODS:
            metrics.hands.inc(items)
            metrics.solve_seconds.inc(seconds)

    def _around(self, behavior: Behavior, response_streaming: bool, method: str) -> Behavior:
        def on_start() -> None:
            self._begin(method)

        def on_end(context: grpc.ServicerContext, start: float, items: int, failed: bool) -> None:
            self._end(method, context, start, items, failed)

        return observed(behavior, response_streaming, on_end, on_start)

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        handler = continuation(handler_call_details)
        method: str = handler_call_details.method
        if handler is not None and method not in self._labels:
            self._labels[method] = _labels(
                method, handler.request_streaming, handler.response_streaming
            )
        return wrap_handler(handler, self._around, method)


class DecodeInterceptor(grpc.ServerInterceptor):  # type: ignore[misc]
    """Decodes request bodies itself (innermost), so a malformed body is the caller's error.

    gRPC's own deserializer path answers a body that does not parse with INTERNAL, before any
    interceptor sees the call (no access-log line, no metrics), and leaked ~16 KB per call
    (issue 15, D1). Here the handler is given no deserializer (it receives the raw bytes) and
    its behaviour decodes with the message class, inside the error interceptor: a DecodeError
    becomes INVALID_ARGUMENT naming the message type. The decoded message's sizes are then
    checked (:func:`cpsolver.wire.bounds.check_bounds`) before any work starts.
    """

    def __init__(self, max_items: int) -> None:
        self._max_items = max_items

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        handler = continuation(handler_call_details)
        if handler is None or handler.request_deserializer is None:
            return handler
        parse = handler.request_deserializer
        kind = getattr(parse, "__self__", None)
        name = getattr(getattr(kind, "DESCRIPTOR", None), "full_name", "request")
        max_items = self._max_items

        def decode(body: bytes) -> Any:
            try:
                message = parse(body)
            except Exception:  # DecodeError, or whatever a deserializer raises on bad bytes
                raise InvalidInputError("", f"the request body is not a valid {name}") from None
            check_bounds(message, max_items)
            return message

        def around(behavior: Behavior, response_streaming: bool, method: str) -> Behavior:
            if handler.request_streaming:

                def streamed(requests: Iterator[bytes], context: grpc.ServicerContext) -> Any:
                    return behavior((decode(body) for body in requests), context)

                return streamed

            def unary(body: bytes, context: grpc.ServicerContext) -> Any:
                return behavior(decode(body), context)

            return unary

        wrapped = wrap_handler(handler, around, handler_call_details.method)
        assert wrapped is not None
        return wrapped._replace(request_deserializer=None)
