"""Admission control: a call runs only if its work fits the time its caller gives it.

A worker is one process with one GIL on (about) one core: calls that run at once share it, so
admitting a call it cannot finish before the caller's deadline wastes the CPU every other call
needs (issue 30: at 10x overload of 20 ms ``Solve`` calls, 86% of the handler runs finished
after their caller had given up). :class:`AdmissionInterceptor` therefore decides, for every
call, before any work:

1. **On arrival** (gRPC's polling thread, before the body is read): the admitted work not yet
   started (each method's measured mean wall time) spread over the ``max_calls`` slots; over
   ``max_queue`` seconds the call is refused at once with RESOURCE_EXHAUSTED, its body never
   decoded (issue 15, D6): under overload a refusal is the cheapest call a worker answers.
2. **Given a thread** (the body read, the deadline known): what the call's work depends on is
   read from its body (a *cost class*, from the service's :data:`Classifier` for the method,
   e.g. a ``Solve``'s objective and estimator), and the call's expected service time is that
   class's measured mean wall time (:class:`CostModel`). A **heavy** call (its class's mean
   CPU time over :data:`HEAVY_SECONDS`: rollouts, the calibrated re-score, a large batch; CPU,
   not wall time, so a cheap call stays cheap under contention) runs in the worker's
   one heavy lane, first come first served, so CPU-bound calls never share the core with each
   other and each takes its own time, not 4x it; the call is admitted only if the lane's work
   ahead of it plus its own fits the time left before its deadline. A cheap call is admitted if
   the queue ahead of it plus its own time fits. Calls without a deadline get the server's
   ``default_budget``. A call whose own work would not fit its deadline even with nothing
   queued ahead is refused with DEADLINE_EXCEEDED (no worker could do it in time, so the
   RetryInfo of an overload refusal would mislead). An *anytime* method (the service's
   ``anytime_methods``: its work stops at the deadline with the answer so far, e.g. OFC street
   advice) needs only one round of work (:data:`ANYTIME_SECONDS`) to fit, not its mean.
   An estimate is only as good as its last measurement: a class none of whose calls has ended
   for :data:`STALE_AFTER` seconds lets one call through as a *probe* even when its estimate
   says it would not fit (one a second at most), and the probe's time replaces the estimate
   rather than being averaged in. Without it, a class whose first calls ran slow (a busy
   core, a first use loading tables) was refused for good: a refused call teaches nothing.
3. **At its slot**: an admitted call whose deadline has passed meanwhile is refused with
   DEADLINE_EXCEEDED (nobody would read the answer); one that finds no slot in time (the
   estimate was wrong) with RESOURCE_EXHAUSTED.

Every refusal with RESOURCE_EXHAUSTED carries a ``google.rpc.RetryInfo`` (when the worker
expects to have room again) and is reported to ``on_refusal(method, reason)`` (the metrics
count them by reason); a call whose work ran and ended after its deadline is reported to
``on_late(method)``. Health and reflection are exempt from all this (a probe must work under
load, D4); their streams count against ``max_streams`` instead.

Each admitted call runs inside :func:`cpsolver.budget.call_budget`, so the library's sampling
loops stop when the call's deadline (or the default budget) passes or it is cancelled (D5); the
calls in progress are tracked, so shutdown ends the streams as soon as the calls are done
(:meth:`AdmissionInterceptor.wait_idle`).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Collection, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

import grpc
from google.protobuf import duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from cpsolver.budget import call_budget
from cpsolver.server.interceptors import Behavior, wrap_handler
from cpsolver.wire.status import ShuttingDownError, packed

__all__ = [
    "CONTROL_PREFIXES",
    "DEFAULT_BUDGET",
    "HEAVY_SECONDS",
    "AdmissionInterceptor",
    "Classifier",
    "CostModel",
    "overloaded_status",
    "seconds_left",
]

# Health and reflection are the server's own control plane: never shed with the calls, so a
# loaded worker still answers its probes; their streams have their own, separate budget.
CONTROL_PREFIXES = ("/grpc.health.v1.Health/", "/grpc.reflection.")

Classifier = Callable[[bytes], Hashable]
"""What a call's work depends on, read from its request body (e.g. a ``Solve``'s objective and
estimator): calls of one class cost about the same. Raising is allowed (an undecodable body is
the decoder's error to report): the call is then classed by its method alone."""

# A method's cost before its first call is measured: a cheap call's (it learns from the first
# call that ends).
FIRST_COST = 0.002
# Weight of the newest call in a class's running mean cost: ~20 calls of memory, so the
# estimate follows a change of load within a fraction of a second at the rates that saturate.
COST_WEIGHT = 0.05
# Cost classes a worker remembers: a class is read from the request (an estimator's text, say),
# so a caller could make endless ones; past this many, new classes go by their method's mean.
MAX_CLASSES = 1024
# Calls expected to take longer than this are CPU-bound enough to run one at a time (the heavy
# lane): two 20 ms calls sharing a core each take 40 ms, and both may miss a deadline that
# either would have met alone.
HEAVY_SECONDS = 0.005
# Seconds of work a call without a deadline may take (``cpsolver serve --default-budget``).
DEFAULT_BUDGET = 120.0
# The answer still has to travel after the work: a call is admitted only if its work is
# expected to end this long before its deadline.
SEND_MARGIN = 0.002
# An estimate not renewed for this long (no call of its class ended) is stale: the next call
# of the class that the estimate would refuse runs as a probe, at most one per this interval
# and class, and the next measurement replaces the estimate instead of being averaged in.
STALE_AFTER = 1.0
# The least work an *anytime* call needs (a method whose work stops at the call's deadline
# with the answer so far, e.g. OFC street advice): one round of its sampling. Such a call is
# admitted when this much fits after the work queued ahead, whatever its class's mean.
ANYTIME_SECONDS = 0.010


class CostModel:
    """Running means of calls' wall time and CPU time, per cost class (and per method, for the
    estimate on arrival, before the body is read).

    The wall time is what a call takes at the worker's present load: whether it fits its
    deadline. The CPU time (its handler thread's) is what it costs the core whatever the load:
    whether it is **heavy**. Under contention a cheap call's wall time grows with the calls
    sharing the core, its CPU time does not; judged by wall time, cheap calls drifted into the
    heavy lane exactly when the worker was busiest, and ran there one at a time.

    >>> model = CostModel()
    >>> model.expected(("/S/Solve", "rollouts:30"), "/S/Solve")  # nothing measured: FIRST_COST
    0.002
    >>> model.learn(("/S/Solve", "rollouts:30"), "/S/Solve", 0.020, cpu=0.019)
    >>> model.expected(("/S/Solve", "rollouts:30"), "/S/Solve")
    0.02
    >>> model.heavy(("/S/Solve", "rollouts:30"), "/S/Solve")
    True
    >>> model.expected(("/S/Solve", "model"), "/S/Solve")  # an unseen class: its method's mean
    0.02
    >>> model.learn(("/S/Solve", "model"), "/S/Solve", 0.012, cpu=0.001)  # 12 ms, in a crowd
    >>> model.heavy(("/S/Solve", "model"), "/S/Solve")
    False

    An estimate nothing renewed for :data:`STALE_AFTER` seconds allows one probe per interval,
    and the probe's time replaces it (a class learned slow is not refused for good):

    >>> slow = ("/S/Solve", "rollouts:200")
    >>> model.learn(slow, "/S/Solve", 0.300, now=10.0)  # its first call: a busy core
    >>> [model.probe(slow, "/S/Solve", now) for now in (10.5, 11.2, 11.5)]
    [False, True, False]
    >>> model.learn(slow, "/S/Solve", 0.080, now=11.3)  # the probe's time, not a 5% step
    >>> model.expected(slow, "/S/Solve")
    0.08
    """

    def __init__(self) -> None:
        self._by_class: dict[Hashable, float] = {}
        self._by_method: dict[str, float] = {}
        self._cpu_by_class: dict[Hashable, float] = {}
        self._cpu_by_method: dict[str, float] = {}
        # when each class's and method's estimate was last renewed, and last probed
        self._renewed: dict[Hashable, float] = {}
        self._probed: dict[Hashable, float] = {}

    def expected(self, key: Hashable, method: str) -> float:
        """Expected seconds of a call of class ``key``."""
        cost = self._by_class.get(key)
        return cost if cost is not None else self.of_method(method)

    def of_method(self, method: str) -> float:
        """Expected seconds of a call of ``method``, its class unknown."""
        return self._by_method.get(method, FIRST_COST)

    def heavy(self, key: Hashable, method: str) -> bool:
        """Whether a call of class ``key`` is heavy: its mean CPU time over
        :data:`HEAVY_SECONDS` (its method's, for a class not measured yet; its wall time while
        no CPU time is known)."""
        cpu = self._cpu_by_class.get(key)
        if cpu is None:
            return self.method_heavy(method)
        return cpu > HEAVY_SECONDS

    def method_heavy(self, method: str) -> bool:
        """Whether a call of ``method`` is heavy, its class unknown."""
        cpu = self._cpu_by_method.get(method)
        return (cpu if cpu is not None else self.of_method(method)) > HEAVY_SECONDS

    def probe(self, key: Hashable, method: str, now: float) -> bool:
        """Whether a call of class ``key`` that its estimate would refuse runs anyway, as a
        probe: the estimate (its method's, for a class not measured yet) is stale (not renewed
        for :data:`STALE_AFTER` s) and no other call of the class was let through as one
        within that time. True marks it as probed."""
        renewed = self._renewed.get(key, self._renewed.get(method))
        if renewed is None or now - renewed < STALE_AFTER:
            return False
        if now - self._probed.get(key, -STALE_AFTER) < STALE_AFTER:
            return False
        if key not in self._probed and len(self._probed) >= MAX_CLASSES:
            return False
        self._probed[key] = now
        return True

    def learn(
        self,
        key: Hashable,
        method: str,
        seconds: float,
        cpu: float | None = None,
        now: float | None = None,
    ) -> None:
        """Fold one finished call's wall time (and its CPU time, when its handler ran to its
        end) into its class's and its method's means; a stale mean is replaced."""
        now = time.monotonic() if now is None else now
        for name, table, value in (
            (key, self._by_class, seconds),
            (method, self._by_method, seconds),
            (key, self._cpu_by_class, cpu),
            (method, self._cpu_by_method, cpu),
        ):
            if value is not None:
                stale = now - self._renewed.get(name, now) >= STALE_AFTER
                _fold(table, name, value, replace=stale)
        for name in (key, method):
            if name in self._by_class or name in self._by_method:
                self._renewed[name] = now


def _fold(table: dict[Any, float], name: Hashable, seconds: float, *, replace: bool) -> None:
    mean = table.get(name)
    if mean is None and len(table) >= MAX_CLASSES:
        return
    table[name] = seconds if mean is None or replace else mean + COST_WEIGHT * (seconds - mean)


# gRPC reports a call without a deadline as ~9.2e18 seconds left (its infinite future).
NO_DEADLINE = 1e9


def seconds_left(context: grpc.ServicerContext) -> float | None:
    """Seconds before the call's deadline; None for a call without one."""
    remaining = context.time_remaining()
    if remaining is None or remaining > NO_DEADLINE:
        return None
    return max(float(remaining), 0.0)


def overloaded_status(message: str, retry_after: float) -> status_pb2.Status:
    """RESOURCE_EXHAUSTED with a ``google.rpc.RetryInfo`` saying when to retry (at least 1 ms)."""
    delay = duration_pb2.Duration()
    delay.FromNanoseconds(int(max(retry_after, 0.001) * 1e9))
    info = error_details_pb2.RetryInfo(retry_delay=delay)
    return status_pb2.Status(
        code=code_pb2.RESOURCE_EXHAUSTED, message=message, details=[packed(info)]
    )


class _Refused(Exception):
    """Raised inside the admission to refuse a call: ``status`` is what the caller gets."""

    def __init__(self, code: grpc.StatusCode, message: str, retry_after: float | None) -> None:
        super().__init__(message)
        self.code, self.message, self.retry_after = code, message, retry_after


@dataclass(slots=True)
class _Queued:
    """An admitted call that has not started: when it arrived, its estimated cost (s)."""

    arrived: float
    cost: float
    waiting: bool = True


@dataclass(slots=True)
class _LaneTicket:
    """A heavy call waiting for the heavy lane: its expected cost (s)."""

    cost: float
    waiting: bool = field(default=True)


@dataclass(slots=True)
class _Run:
    """An admitted call's handler: its thread's CPU clock when it started, and its CPU time
    once it has returned (None before, or when it raised: then only its wall time is learned).
    gRPC runs a handler, a server stream's generator included, on one thread of its pool."""

    began: float
    cpu: float | None = None

    def finish(self) -> None:
        self.cpu = time.thread_time() - self.began


def _unused(request: Any, context: grpc.ServicerContext) -> Any:
    raise AssertionError("never called: the refusal answers instead")


class AdmissionInterceptor(grpc.ServerInterceptor):  # type: ignore[misc]
    """Admission control (the module's docstring says how it decides).

    ``classifiers`` maps a full method name (``/pkg.Service/Method``) to its :data:`Classifier`;
    ``on_refusal(method, reason)`` is told of every call refused (reason ``queue``: on arrival,
    ``deadline``: its work would not fit its deadline, ``no_slot``: no slot in time,
    ``expired``: its deadline passed while it waited) and ``on_late(method)`` of every call
    whose work ran past its deadline.
    """

    def __init__(
        self,
        max_calls: int,
        max_streams: int,
        max_queue: float,
        *,
        default_budget: float = DEFAULT_BUDGET,
        classifiers: Mapping[str, Classifier] | None = None,
        anytime: Collection[str] = (),
        on_refusal: Callable[[str, str], None] | None = None,
        on_late: Callable[[str], None] | None = None,
    ) -> None:
        self._max_calls, self._max_streams, self._max_queue = max_calls, max_streams, max_queue
        self._default_budget = default_budget
        self._classifiers = dict(classifiers or {})
        self._anytime = frozenset(anytime)
        self._on_refusal = on_refusal or (lambda method, reason: None)
        self._on_late = on_late or (lambda method: None)
        self._lock = threading.Lock()
        # Separate conditions on one lock: a freed slot wakes one waiting call (not all of
        # them: a herd of woken threads fighting for the GIL starves the polling thread),
        # the lane wakes its few waiters (at most max_calls), shutdown waits for the last call.
        self._slot_freed = threading.Condition(self._lock)
        self._lane_freed = threading.Condition(self._lock)
        self._idle = threading.Condition(self._lock)
        self._calls = 0
        self._streams = 0
        self._queue: deque[_Queued] = deque()  # admitted calls in arrival order
        self._waiting_work = 0.0  # estimated seconds of the admitted calls not yet running
        self._costs = CostModel()
        # The heavy lane: the one heavy call running (when it is expected to end) and the
        # heavy calls waiting for it, first come first served.
        self._lane_busy_until: float | None = None
        self._lane: deque[_LaneTicket] = deque()
        # method -> the handler of its calls refused on arrival, for each method a call has
        # been admitted or refused for: a later refusal needs nothing else (_refusal_handler)
        self._refusals: dict[str, grpc.RpcMethodHandler] = {}
        self._closing: str | None = None  # set at the end of the grace: why calls must stop

    # -- shutdown -------------------------------------------------------------------------

    def abort_calls(self, reason: str) -> None:
        """Make every call still in progress stop at its next budget check with
        :class:`~cpsolver.wire.status.ShuttingDownError` (``reason``), so its caller gets the
        server's own status instead of a cancelled stream."""
        self._closing = reason

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no call (streams aside) is in progress; False after ``timeout``."""
        with self._lock:
            return self._idle.wait_for(lambda: self._calls == 0, timeout)

    # -- the estimates ----------------------------------------------------------------------

    def expected_wait(self, method: str = "") -> float:
        """Seconds a call of ``method`` arriving now is expected to wait: for the heavy lane
        if the method's calls are heavy, else for a slot."""
        with self._lock:
            now = time.monotonic()
            if self._costs.method_heavy(method):
                return self._lane_wait(now)
            return self._expected_wait(now)

    def _expected_wait(self, now: float) -> float:
        # The slots clear the admitted work in parallel; the time left on the calls running
        # is not counted (a call waits at most one running call's time longer). When every
        # slot is taken, the heavy lane's calls also stand ahead: each takes the next slot.
        work = self._waiting_work
        if self._calls >= self._max_calls:
            work += self._lane_wait(now)
        return work / self._max_calls

    def _lane_wait(self, now: float) -> float:
        """Seconds until the heavy lane would take a heavy call arriving now."""
        running = 0.0 if self._lane_busy_until is None else max(self._lane_busy_until - now, 0.0)
        return running + sum(ticket.cost for ticket in self._lane)

    # -- step 1: on arrival -------------------------------------------------------------------

    def _admit(self, method: str, arrived: float) -> _Queued | None:
        """On arrival: the call queued with its estimated cost; None when it must be refused."""
        cost = self._costs.of_method(method)
        with self._lock:
            # A call still waiting max_queue seconds after it arrived is shed when a thread
            # reaches it, and one cancelled meanwhile never reaches a thread at all: either
            # way it is no longer work to wait for.
            horizon = arrived - self._max_queue
            while self._queue and self._queue[0].arrived < horizon:
                self._dequeue(self._queue.popleft())
            # A heavy call waits for the lane; any other for a slot.
            heavy = self._costs.method_heavy(method)
            wait = self._lane_wait(arrived) if heavy else self._expected_wait(arrived)
            if wait > self._max_queue:
                return None
            queued = _Queued(arrived, cost)
            self._queue.append(queued)
            self._waiting_work += cost
        return queued

    def _dequeue(self, queued: _Queued) -> None:
        if queued.waiting:
            queued.waiting = False
            self._waiting_work = max(self._waiting_work - queued.cost, 0.0)

    def _refusal_handler(self, method: str, response_streaming: bool) -> grpc.RpcMethodHandler:
        """The whole handler of a call refused on arrival, for a method already seen: shaped
        as a request-streaming one, so gRPC never reads or decodes the body before the refusal,
        and built once, so the interceptors inside this one (token check, decoding) never run
        for it. A refusal is then the cheapest call a worker answers (~0.34 ms of CPU against
        ~0.43 ms with the body read and every interceptor, and ~1.2 ms for a served Solve):
        under overload the worker's one accepting thread gets to see more of the calls."""
        refuse = self._refused_on_arrival(_unused, response_streaming, method)
        if response_streaming:
            return grpc.stream_stream_rpc_method_handler(refuse)
        return grpc.stream_unary_rpc_method_handler(refuse)

    def _refused_on_arrival(
        self, behavior: Behavior, response_streaming: bool, method: str
    ) -> Behavior:
        """The behaviour of a call refused on arrival: RESOURCE_EXHAUSTED, no work."""
        message = (
            f"server overloaded: the calls queued on this worker would keep this one waiting "
            f"more than {self._max_queue:g} s; retry later or on another worker"
        )

        def refuse(request: Any, context: grpc.ServicerContext) -> Any:
            self._on_refusal(method, "queue")
            _abort(context, _Refused(grpc.StatusCode.RESOURCE_EXHAUSTED, message,
                                     self.expected_wait(method)))  # fmt: skip

        if response_streaming:

            def refuse_stream(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                refuse(request, context)
                yield from ()

            return refuse_stream
        return refuse

    # -- steps 2 and 3: given a thread ------------------------------------------------------

    def _class_of(self, method: str, request: Any) -> Hashable:
        classify = self._classifiers.get(method)
        if classify is None or not isinstance(request, bytes):
            return (method,)
        try:
            return (method, classify(request))
        except Exception:  # an undecodable body: the decoder reports it, at no cost
            return (method,)

    def _enter(
        self, context: grpc.ServicerContext, queued: _Queued, method: str, key: Hashable
    ) -> tuple[float, bool]:
        """Wait for the call's slot (and the heavy lane for a heavy call) or refuse it
        (raises :class:`_Refused`). Returns the seconds of budget the call runs with, and
        whether it holds the heavy lane."""
        remaining = seconds_left(context)
        budget = self._default_budget if remaining is None else remaining
        if budget <= 0:
            with self._lock:
                self._dequeue(queued)
            raise _Refused(grpc.StatusCode.DEADLINE_EXCEEDED,
                           "deadline passed before the call ran", None)  # fmt: skip
        cost = self._costs.expected(key, method)
        # the work the call must have time for: all of it, or one round of an anytime call's
        needed = min(cost, ANYTIME_SECONDS) if method in self._anytime else cost
        if self._costs.heavy(key, method):
            return self._enter_lane(context, queued, method, key, cost, needed, budget)
        now = time.monotonic()
        with self._lock:
            wait = self._expected_wait(now) if self._calls >= self._max_calls else 0.0
            if wait + needed + SEND_MARGIN > budget:
                if not self._probing(key, method, now, wait, budget):
                    self._dequeue(queued)
                    raise self._too_late(context, method, needed, budget, wait)
                needed = ANYTIME_SECONDS  # a probe stops at its deadline, its time measured
        # Normally a slot frees in time (the arrival estimate holds the queue to what the
        # slots clear within max_queue); when the estimate was wrong, the call waits at most
        # max_queue seconds since it arrived, never so long that its work no longer fits.
        patience = min(self._max_queue - (now - queued.arrived), budget - needed - SEND_MARGIN)
        with self._lock:
            admitted = self._slot_freed.wait_for(
                lambda: self._calls < self._max_calls, max(patience, 0.0)
            )
            self._dequeue(queued)
            if admitted:
                self._calls += 1
                return budget - (time.monotonic() - now), False
        raise self._no_slot(context, method)

    def _enter_lane(
        self,
        context: grpc.ServicerContext,
        queued: _Queued,
        method: str,
        key: Hashable,
        cost: float,
        needed: float,
        budget: float,
    ) -> tuple[float, bool]:
        now = time.monotonic()
        with self._lock:
            self._dequeue(queued)  # from here it waits in the lane, with its class's cost
            wait = self._lane_wait(now)
            if len(self._lane) >= self._max_calls or wait > self._max_queue:
                raise self._lane_full(method, wait)
            if wait + needed + SEND_MARGIN > budget:
                if not self._probing(key, method, now, wait, budget):
                    raise self._too_late(context, method, needed, budget, wait)
                needed = ANYTIME_SECONDS  # a probe stops at its deadline, its time measured
            # an anytime call (or a probe) stops at its deadline
            cost = min(cost, budget - wait)
            ticket = _LaneTicket(cost)
            self._lane.append(ticket)
            try:
                admitted = self._lane_freed.wait_for(
                    lambda: self._lane_busy_until is None
                    and self._lane[0] is ticket
                    and self._calls < self._max_calls,
                    max(budget - needed - SEND_MARGIN, 0.0),
                )
            finally:
                self._lane.remove(ticket)
            if admitted:
                self._calls += 1
                started = time.monotonic()
                self._lane_busy_until = started + min(cost, budget - (started - now))
                return budget - (started - now), True
            self._lane_freed.notify_all()  # the next in line may now be first
        raise self._no_slot(context, method)

    def _probing(
        self, key: Hashable, method: str, now: float, wait: float, budget: float
    ) -> bool:
        """Whether a call its class's estimate would refuse runs as a probe of a stale
        estimate (:meth:`CostModel.probe`): only if one round of work fits after the queue."""
        if wait + ANYTIME_SECONDS + SEND_MARGIN > budget:
            return False
        return self._costs.probe(key, method, now)

    def _too_late(
        self, context: grpc.ServicerContext, method: str, cost: float, budget: float, wait: float
    ) -> _Refused:
        self._on_refusal(method, "deadline")
        if wait <= 0 and seconds_left(context) is not None:
            # Nothing is queued ahead: the call's own work does not fit the deadline its caller
            # set, so no worker could finish it in time; retrying later or elsewhere (what
            # RESOURCE_EXHAUSTED with RetryInfo invites) cannot help, only a longer deadline.
            return _Refused(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"this call's work (about {cost * 1000:.0f} ms) cannot finish within its "
                f"{budget * 1000:.0f} ms deadline even on an idle worker; retry with a longer "
                f"deadline",
                None,
            )
        return _Refused(
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            f"server busy: this call's work (about {cost * 1000:.0f} ms) would not finish within "
            f"its {budget * 1000:.0f} ms after the {wait * 1000:.0f} ms of work queued ahead of "
            f"it on this worker; retry later, on another worker, or with a longer deadline",
            wait,
        )

    def _lane_full(self, method: str, wait: float) -> _Refused:
        self._on_refusal(method, "queue")
        return _Refused(
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            f"server overloaded: the long calls queued on this worker would keep this one "
            f"waiting more than {self._max_queue:g} s; retry later or on another worker",
            wait,
        )

    def _no_slot(self, context: grpc.ServicerContext, method: str) -> _Refused:
        remaining = context.time_remaining()
        if remaining is not None and remaining <= 0:
            self._on_refusal(method, "expired")
            return _Refused(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline passed while queued",
                            None)  # fmt: skip
        self._on_refusal(method, "no_slot")
        return _Refused(
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            f"server overloaded: {self._max_calls} calls in progress and none finished in time "
            f"for this one; retry later or on another worker",
            self.expected_wait(method),
        )

    def _leave(
        self, method: str, key: Hashable, started: float, heavy: bool, cpu: float | None
    ) -> None:
        took = time.monotonic() - started
        with self._lock:
            self._calls -= 1
            self._costs.learn(key, method, took, cpu)
            if heavy:
                self._lane_busy_until = None
            self._slot_freed.notify()
            self._lane_freed.notify_all()
            if self._calls == 0:
                self._idle.notify_all()

    # -- the control plane ------------------------------------------------------------------

    def _enter_control(self, context: grpc.ServicerContext) -> None:
        with self._lock:
            if self._streams < self._max_streams:
                self._streams += 1
                return
        context.abort(
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            f"more than {self._max_streams} health/reflection streams open on this worker",
        )

    def _leave_control(self) -> None:
        with self._lock:
            self._streams -= 1

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

    # -- the interceptor ----------------------------------------------------------------------

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        # Runs on gRPC's polling thread as the call arrives: the time it then waits for one of
        # the pool's threads is part of the queueing delay the admission bounds.
        arrived = time.monotonic()
        method: str = handler_call_details.method
        refusal = self._refusals.get(method)
        if refusal is not None:  # a method seen before: decide before anything else
            queued = self._admit(method, arrived)
            if queued is None:
                return refusal
            handler = continuation(handler_call_details)
        else:
            handler = continuation(handler_call_details)
            control = method.startswith(CONTROL_PREFIXES)
            if handler is None or (control and not handler.response_streaming):
                return handler  # health Check, unknown methods: never refused here
            if control:
                return wrap_handler(handler, self._around_control, method)
            # Only methods that exist get here, so the map stays as small as the services.
            self._refusals[method] = self._refusal_handler(method, handler.response_streaming)
            queued = self._admit(method, arrived)
            if queued is None:
                return wrap_handler(handler, self._refused_on_arrival, method)

        def start(request: Any, context: grpc.ServicerContext) -> tuple[float, _Run]:
            """Admit the call (or abort it); count it until its RPC has ended. Returns its
            budget in seconds and the record its handler's CPU time goes into."""
            key = self._class_of(method, request)
            try:
                budget, heavy = self._enter(context, queued, method, key)
            except _Refused as refused:
                _abort(context, refused)
            started = time.monotonic()
            ends = started + budget
            run = _Run(time.thread_time())

            # The slot frees when the RPC has ended, its status sent (gRPC's termination
            # callback), not when the handler returns: shutdown waits on it, and cancelling
            # the remaining streams then cannot cut off a call's answer on its way out.
            def leave() -> None:
                if time.monotonic() > ends:
                    self._on_late(method)
                self._leave(method, key, started, heavy, run.cpu)

            if not context.add_callback(leave):
                leave()  # already over (cancelled meanwhile)
            return budget, run

        def around(behavior: Behavior, response_streaming: bool, method: str) -> Behavior:
            if response_streaming:

                def streaming(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                    budget, run = start(request, context)
                    with call_budget(budget, self._wanted_by(context)):
                        yield from behavior(request, context)
                    run.finish()

                return streaming

            def unary(request: Any, context: grpc.ServicerContext) -> Any:
                budget, run = start(request, context)
                with call_budget(budget, self._wanted_by(context)):
                    answer = behavior(request, context)
                run.finish()
                return answer

            return unary

        return wrap_handler(handler, around, method)

    def _wanted_by(self, context: grpc.ServicerContext) -> Callable[[], bool]:
        def wanted() -> bool:
            if self._closing is not None:
                raise ShuttingDownError(self._closing)
            return bool(context.is_active())

        return wanted


def _abort(context: grpc.ServicerContext, refused: _Refused) -> NoReturn:
    retry_after = refused.retry_after
    if retry_after is None:
        context.abort(refused.code, refused.message)
        raise AssertionError("unreachable: abort raises")
    status = overloaded_status(refused.message, retry_after)
    context.abort_with_status(rpc_status.to_status(status))
    raise AssertionError("unreachable: abort raises")
