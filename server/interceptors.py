"""Server interceptors: metrics, one access-log line per call, bearer-token auth, error mapping,
request decoding.

Order (outermost first): :class:`MetricsInterceptor` (with ``--metrics-port``),
:class:`AccessLogInterceptor`, :class:`TokenAuthInterceptor` (when a
token is configured), :class:`ErrorInterceptor`, :class:`DecodeInterceptor`. So a rejected
token is logged as UNAUTHENTICATED, a body is decoded only once the token is accepted, an
undecodable or oversized body is INVALID_ARGUMENT (logged and counted like any call), and
servicers simply raise library exceptions.
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import grpc
from google.rpc import code_pb2, status_pb2
from grpc_status import rpc_status

from cpsolver.budget import TimeLimitError, call_budget
from cpsolver.errors import InvalidInputError
from cpsolver.server.metrics import SOLVING_METHODS, ServerMetrics
from cpsolver.wire.bounds import check_bounds
from cpsolver.wire.status import ShuttingDownError, status_from_exception

__all__ = [
    "AccessLogInterceptor",
    "AdmissionInterceptor",
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
        self._expected = f"Bearer {token}".encode()

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
        if supplied and all(
            isinstance(v, str) and hmac.compare_digest(v.encode(), self._expected) for v in supplied
        ):
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


# Health and reflection are the server's own control plane: never shed with the calls, so a
# loaded worker still answers its probes; their streams have their own, separate budget.
CONTROL_PREFIXES = ("/grpc.health.v1.Health/", "/grpc.reflection.")


# A method's cost before its first call is measured: a cheap call's (the estimate is only used
# to refuse calls while the worker is saturated, and it learns from the first call that ends).
FIRST_COST = 0.002
# Weight of the newest call in a method's running mean cost: ~20 calls of memory, so the
# estimate follows a change of load within a fraction of a second at the rates that saturate.
COST_WEIGHT = 0.05


@dataclass(slots=True)
class _Queued:
    """An admitted call that has not started: when it arrived, its estimated cost (s)."""

    arrived: float
    cost: float
    waiting: bool = True


class AdmissionInterceptor(grpc.ServerInterceptor):  # type: ignore[misc]
    """Admission control: refuses, before any work, the calls the worker cannot serve in time.

    At most ``max_calls`` calls run at once. The queue in front of them is bounded in *time*,
    not in count: as a call arrives (on gRPC's polling thread, before it is handed to a pool
    thread) the worker estimates how long it would wait: the work already admitted and not
    started (each method's measured mean wall time, :data:`COST_WEIGHT`) spread over the
    ``max_calls`` slots. Over ``max_queue`` seconds, the call is refused at once with
    RESOURCE_EXHAUSTED, its body never decoded: it costs the worker almost nothing, so under
    overload the worker keeps its capacity for the calls it admitted (issue 15, D6). An
    admitted call whose deadline has passed by the time it gets a thread is refused with
    DEADLINE_EXCEEDED (nobody would read the answer); one that still finds no free slot within
    ``max_queue`` seconds of its arrival (the estimate was wrong) with RESOURCE_EXHAUSTED.
    Health and reflection are exempt from those (a probe must work under load, D4); their
    streams (``Watch``, reflection) count against ``max_streams`` instead, so unauthenticated
    watchers cannot take the call slots.

    It also runs each admitted call inside :func:`cpsolver.budget.call_budget`, so the
    library's sampling loops stop when the call's deadline passes or it is cancelled (D5), and
    tracks the calls in progress, so shutdown ends the streams as soon as the calls are done
    (:meth:`wait_idle`) instead of holding them for the whole grace.
    """

    def __init__(self, max_calls: int, max_streams: int, max_queue: float) -> None:
        self._max_calls, self._max_streams, self._max_queue = max_calls, max_streams, max_queue
        self._lock = threading.Lock()
        # Separate conditions on one lock: a freed slot wakes one waiting call (not all of
        # them: a herd of woken threads fighting for the GIL starves the polling thread),
        # while shutdown waits for the last call.
        self._slot_freed = threading.Condition(self._lock)
        self._idle = threading.Condition(self._lock)
        self._calls = 0
        self._streams = 0
        self._queue: deque[_Queued] = deque()  # admitted calls in arrival order
        self._waiting_work = 0.0  # estimated seconds of the admitted calls not yet running
        self._cost: dict[str, float] = {}  # method -> mean wall seconds of its calls
        # method -> whether it streams its answers, for each method a call has been admitted
        # or refused for: a later refusal of it needs nothing else (see _refusals)
        self._streams_answers: dict[str, bool] = {}
        self._refusals = {
            streaming: self._refusal_handler(streaming) for streaming in (False, True)
        }
        self._closing: str | None = None  # set at the end of the grace: why calls must stop

    def abort_calls(self, reason: str) -> None:
        """Make every call still in progress stop at its next budget check with
        :class:`~cpsolver.wire.status.ShuttingDownError` (``reason``), so its caller gets the
        server's own status instead of a cancelled stream."""
        self._closing = reason

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no call (streams aside) is in progress; False after ``timeout``."""
        with self._lock:
            return self._idle.wait_for(lambda: self._calls == 0, timeout)

    def expected_wait(self) -> float:
        """Seconds a call arriving now is expected to wait for a slot."""
        with self._lock:
            return self._expected_wait()

    def _expected_wait(self) -> float:
        # The slots clear the admitted work in parallel; the time left on the calls running
        # is not counted (a call waits at most one running call's time longer).
        return self._waiting_work / self._max_calls

    def _admit(self, method: str, arrived: float) -> _Queued | None:
        """On arrival: the call queued with its estimated cost; None when it must be refused."""
        cost = self._cost.get(method, FIRST_COST)
        with self._lock:
            # A call still waiting max_queue seconds after it arrived is shed when a thread
            # reaches it, and one cancelled meanwhile never reaches a thread at all: either
            # way it is no longer work to wait for.
            horizon = arrived - self._max_queue
            while self._queue and self._queue[0].arrived < horizon:
                self._dequeue(self._queue.popleft())
            if self._expected_wait() > self._max_queue:
                return None
            queued = _Queued(arrived, cost)
            self._queue.append(queued)
            self._waiting_work += cost
        return queued

    def _dequeue(self, queued: _Queued) -> None:
        if queued.waiting:
            queued.waiting = False
            self._waiting_work = max(self._waiting_work - queued.cost, 0.0)

    def _refused(self, behavior: Behavior, response_streaming: bool, method: str) -> Behavior:
        """The behaviour of a call refused on arrival: RESOURCE_EXHAUSTED, no work."""
        message = (
            f"server overloaded: the calls queued on this worker would keep this one waiting "
            f"more than {self._max_queue:g} s; retry later or on another worker"
        )

        def refuse(request: Any, context: grpc.ServicerContext) -> Any:
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, message)

        if response_streaming:

            def refuse_stream(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                refuse(request, context)
                yield from ()

            return refuse_stream
        return refuse

    def _refusal_handler(self, response_streaming: bool) -> grpc.RpcMethodHandler:
        """The whole handler of a refused call of a method already seen: shaped as a
        request-streaming one, so gRPC never reads or decodes the body before the refusal, and
        built once, so the interceptors inside this one (token check, decoding) never run for
        it. A refusal is then the cheapest call a worker answers (~0.34 ms of CPU against
        ~0.43 ms with the body read and every interceptor, and ~1.2 ms for a served Solve):
        under overload the worker's one accepting thread gets to see more of the calls."""
        refuse = self._refused(_unused, response_streaming, "")
        if response_streaming:
            return grpc.stream_stream_rpc_method_handler(refuse)
        return grpc.stream_unary_rpc_method_handler(refuse)

    def _enter_control(self, context: grpc.ServicerContext) -> None:
        with self._lock:
            if self._streams < self._max_streams:
                self._streams += 1
                return
        context.abort(
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            f"more than {self._max_streams} health/reflection streams open on this worker",
        )

    def _enter(self, context: grpc.ServicerContext, queued: _Queued) -> None:
        """Run the admitted call (count it) once a slot is free, or abort it. It counts as
        waiting work until it runs or gives up."""
        remaining = context.time_remaining()
        if remaining is not None and remaining <= 0:
            with self._lock:
                self._dequeue(queued)
            context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline passed before the call ran")
        # Normally a slot frees in time (the arrival estimate holds the queue to what the
        # slots clear within max_queue); when the estimate was wrong, the call waits at most
        # max_queue seconds since it arrived, never past its own deadline, then is shed
        # without any work done.
        patience = self._max_queue - (time.monotonic() - queued.arrived)
        if remaining is not None:
            patience = min(patience, remaining)
        with self._lock:
            admitted = self._slot_freed.wait_for(
                lambda: self._calls < self._max_calls, max(patience, 0.0)
            )
            self._dequeue(queued)
            if admitted:
                self._calls += 1
                return
        remaining = context.time_remaining()
        if remaining is not None and remaining <= 0:
            context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline passed while queued")
        context.abort(
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            f"server overloaded: {self._max_calls} calls in progress and none finished within "
            f"{self._max_queue:g} s; retry later or on another worker",
        )

    def _leave(self, method: str, started: float) -> None:
        took = time.monotonic() - started
        with self._lock:
            self._calls -= 1
            mean = self._cost.get(method)
            self._cost[method] = took if mean is None else mean + COST_WEIGHT * (took - mean)
            self._slot_freed.notify()
            if self._calls == 0:
                self._idle.notify_all()

    def _leave_control(self) -> None:
        with self._lock:
            self._streams -= 1

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        # Runs on gRPC's polling thread as the call arrives: the time it then waits for one of
        # the pool's threads is part of the queueing delay the admission bounds.
        arrived = time.monotonic()
        method: str = handler_call_details.method
        streams_answers = self._streams_answers.get(method)
        if streams_answers is not None:  # a method seen before: decide before anything else
            queued = self._admit(method, arrived)
            if queued is None:
                return self._refusals[streams_answers]
            handler = continuation(handler_call_details)
        else:
            handler = continuation(handler_call_details)
            control = method.startswith(CONTROL_PREFIXES)
            if handler is None or (control and not handler.response_streaming):
                return handler  # health Check, unknown methods: never refused here
            if control:
                return wrap_handler(handler, self._around_control, method)
            # Only methods that exist get here, so the map stays as small as the services.
            self._streams_answers[method] = handler.response_streaming
            queued = self._admit(method, arrived)
            if queued is None:
                return wrap_handler(handler, self._refused, method)

        def counted(context: grpc.ServicerContext, started: float) -> None:
            # The slot frees when the RPC has ended, its status sent (gRPC's termination
            # callback), not when the handler returns: shutdown waits on it, and cancelling
            # the remaining streams then cannot cut off a call's answer on its way out.
            def leave() -> None:
                self._leave(method, started)

            if not context.add_callback(leave):
                leave()  # already over (cancelled meanwhile)

        def around(behavior: Behavior, response_streaming: bool, method: str) -> Behavior:
            if response_streaming:

                def streaming(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                    self._enter(context, queued)
                    counted(context, time.monotonic())
                    with call_budget(context.time_remaining(), self._wanted_by(context)):
                        yield from behavior(request, context)

                return streaming

            def unary(request: Any, context: grpc.ServicerContext) -> Any:
                self._enter(context, queued)
                counted(context, time.monotonic())
                with call_budget(context.time_remaining(), self._wanted_by(context)):
                    return behavior(request, context)

            return unary

        return wrap_handler(handler, around, method)

    def _wanted_by(self, context: grpc.ServicerContext) -> Callable[[], bool]:
        def wanted() -> bool:
            if self._closing is not None:
                raise ShuttingDownError(self._closing)
            return bool(context.is_active())

        return wanted

    def _around_control(
        self, behavior: Behavior, response_streaming: bool, method: str
    ) -> Behavior:
        """Health ``Watch`` and reflection streams: their own budget, no deadline checks."""

        def streaming(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            self._enter_control(context)
            if not context.add_callback(self._leave_control):
                self._leave_control()
            with call_budget(context.time_remaining(), self._wanted_by(context)):
                yield from behavior(request, context)

        return streaming
