"""The typed gRPC client: the library's API, answered by a ``cpsolver serve`` server.

:class:`RemoteBackend` answers the client's calls (:mod:`cpsolver.client.calls`) with one gRPC
call each and :class:`RemoteSolver` is a :class:`~cpsolver.client.Solver` over it, so it has
the methods of :class:`cpsolver.client.LocalSolver` and returns the same types
(:class:`solver.Solution`, :class:`solver.HandValue`...): a bot switches between an embedded
solver and a server with one line (``client.connect(None)`` or
``client.connect("host:50051")``). Library errors come back as the library's exceptions, of
the same class with the same attributes and field violations (:mod:`cpsolver.wire.status`
reads the status's BadRequest, ErrorInfo and QuotaFailure details): ``INVALID_ARGUMENT`` is an
:class:`~cpsolver.errors.InvalidInputError` or its subclass (``CardError`` with its ``token``,
``IllegalPlayError`` with its ``rule``...), with the paths the library gives its own arguments,
``FAILED_PRECONDITION`` an :class:`~cpsolver.errors.InfeasibleError`; an unreachable server is a
:class:`~client.errors.ServerUnavailableError`, a missed deadline a
:class:`~client.errors.DeadlineExceededError`, anything else a
:class:`~client.errors.RemoteError`.

The channel is configured the standard gRPC way, with a service config: retries of
``UNAVAILABLE`` with exponential backoff (:class:`RetryPolicy`, done by gRPC itself, so a
retried call never runs twice on the server after it answered), and ``round_robin`` load
balancing, which spreads calls over every address a ``dns:///name:port`` target resolves to.
Every call has a deadline (``timeout`` seconds, per client, overridable per call).
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from grpc_status import rpc_status

from cpsolver.cards import Card, CardsLike, parse_card, parse_cards, parse_suit
from cpsolver.chinese import Solution
from cpsolver.chinese.constrained import check_engine
from cpsolver.chinese.constraints import as_constraints
from cpsolver.chinese.deal import Deal as ChineseDeal
from cpsolver.chinese.deal import check_deal_request
from cpsolver.chinese.estimator import DEFAULT_ESTIMATOR, Estimator
from cpsolver.chinese.rate import Rating
from cpsolver.chinese.scoring import (
    Seat,
    TableResult,
    check_arrangement,
    read_seat,
    read_seats,
    seat_entries,
)
from cpsolver.chlust import Bidding, BiddingState, PlayAdvice, ShowdownOdds, TrickGame
from cpsolver.chlust import Deal as ChlustDeal
from cpsolver.chlust import DealResult as ChlustDealResult
from cpsolver.chlust.advice import check_advice_limits as check_chlust_advice
from cpsolver.chlust.advice import check_odds_limits as check_chlust_odds
from cpsolver.chlust.bidding import parse_bid_action
from cpsolver.chlust.deal import Showdown, one_card, parse_hands
from cpsolver.chlust.deal import check_deal_request as check_chlust_deal
from cpsolver.client import calls
from cpsolver.client.calls import Call, T, answers, dispatch, handlers
from cpsolver.client.errors import DeadlineExceededError, RemoteError, ServerUnavailableError
from cpsolver.client.solver import Solver
from cpsolver.errors import CpsolverError, Field, FieldPath, InvalidInputError, Violations
from cpsolver.evaluator.chlust import SetValue
from cpsolver.evaluator.khlyust import KhlyustValue
from cpsolver.evaluator.poker import HandValue
from cpsolver.ofc import Advice as OfcAdvice
from cpsolver.ofc import FantasylandSet, OfcDeal
from cpsolver.ofc import TableResult as OfcTable
from cpsolver.rules import ChineseRules, Row
from cpsolver.seeds import check_seed
from cpsolver.three_leaves import (
    Choices,
    HandAdvice,
    KhlyustClaim,
    LegalPlay,
)
from cpsolver.three_leaves import Deal as LeavesDeal
from cpsolver.three_leaves import DealResult as LeavesDealResult
from cpsolver.three_leaves.advice import check_advice_limits as check_leaves_advice
from cpsolver.three_leaves.deal import check_deal_request as check_leaves_deal
from cpsolver.three_leaves.engine import check_play_request
from cpsolver.v1 import chinese_poker_pb2 as pb
from cpsolver.v1 import chinese_poker_pb2_grpc as pb_grpc
from cpsolver.wire.cards import (
    card_from_wire,
    card_to_wire,
    cards_to_wire,
    hand_paths_from_wire,
    suit_to_wire,
)
from cpsolver.wire.chinese_poker import (
    MAX_DEALS,
    arrangement_check_from_wire,
    constraints_to_wire,
    deal_from_wire,
    hand_from_wire,
    player_paths_from_wire,
    rate_paths_from_wire,
    rating_from_wire,
    seat_to_wire,
    solution_from_wire,
    table_from_wire,
)
from cpsolver.wire.rules import rules_to_wire
from cpsolver.wire.status import RequestTooLargeError, exception_from_status

__all__ = ["DEFAULT_RETRY", "RemoteBackend", "RemoteSolver", "RetryPolicy"]


SERVICES = (
    "cpsolver.v1.ChinesePokerService",
    "cpsolver.v1.ChlustService",
    "cpsolver.v1.ThreeLeavesService",
)
BATCH_CHUNK = 1000  # hands per BatchSolve call (the server's default cap is 10,000)
DEAL_CHUNK = MAX_DEALS  # deals per DealTables call: the server's cap


@dataclass(frozen=True)
class RetryPolicy:
    """gRPC's retry policy (A6 of the gRPC proposals), applied to every cpsolver method.

    ``max_attempts`` counts the first call (gRPC caps it at 5); the n-th retry waits a random
    time up to ``min(initial_backoff * multiplier**(n-1), max_backoff)`` seconds.
    """

    max_attempts: int = 5
    initial_backoff: float = 0.1
    max_backoff: float = 2.0
    multiplier: float = 2.0
    codes: tuple[str, ...] = ("UNAVAILABLE",)

    def to_json(self) -> dict[str, Any]:
        """The ``retryPolicy`` object of a service config."""
        return {
            "maxAttempts": self.max_attempts,
            "initialBackoff": f"{self.initial_backoff}s",
            "maxBackoff": f"{self.max_backoff}s",
            "backoffMultiplier": self.multiplier,
            "retryableStatusCodes": list(self.codes),
        }


DEFAULT_RETRY = RetryPolicy()


def service_config(retry: RetryPolicy | None, load_balancing: str = "round_robin") -> str:
    """The channel's service config JSON: load balancing policy and retry policy.

    >>> config = json.loads(service_config(RetryPolicy(max_attempts=3)))
    >>> config["loadBalancingConfig"], config["methodConfig"][0]["retryPolicy"]["maxAttempts"]
    ([{'round_robin': {}}], 3)
    """
    method: dict[str, Any] = {"name": [{"service": s} for s in SERVICES]}
    if retry is not None:
        method["retryPolicy"] = retry.to_json()
    return json.dumps(
        {"loadBalancingConfig": [{load_balancing: {}}], "methodConfig": [method]},
        separators=(",", ":"),
    )


def _read(value: bytes | str | Path | None) -> bytes | None:
    if value is None or isinstance(value, bytes):
        return value
    return Path(value).read_bytes()


class RemoteSolver(Solver):
    """A :class:`~cpsolver.client.Solver` answered by a ``cpsolver serve`` server, used as a
    context manager.

    >>> with RemoteSolver("127.0.0.1:1", timeout=5, retry=None) as remote:
    ...     remote.target
    '127.0.0.1:1'

    ``options`` are :class:`RemoteBackend`'s (``timeout``, ``retry``, ``tls``, ``token``,
    ``connections``...); ``target``, ``timeout``, :meth:`wait_ready` and :meth:`health` are the
    backend's.
    """

    backend: RemoteBackend

    def __init__(self, target: str, **options: Any) -> None:
        super().__init__(RemoteBackend(target, **options))

    @property
    def target(self) -> str:
        """The server's gRPC target."""
        return self.backend.target

    @property
    def timeout(self) -> float | None:
        """Each call's default deadline in seconds (None: none)."""
        return self.backend.timeout

    def wait_ready(self, timeout: float = 10.0) -> None:
        """:meth:`RemoteBackend.wait_ready`."""
        self.backend.wait_ready(timeout)

    def health(self, service: str = "", timeout: float | None = None) -> str:
        """:meth:`RemoteBackend.health`."""
        return self.backend.health(service, timeout)


class RemoteBackend:
    """The calls of :mod:`cpsolver.client.calls` over gRPC to a ``cpsolver serve`` server.

    ``target`` is ``host:port`` or any gRPC target (``dns:///solver.internal:50051`` resolves
    every address and balances over them). ``timeout`` is each call's deadline in seconds
    (None: no deadline; a method's ``timeout`` argument overrides it for one call); ``retry``
    is the policy for ``UNAVAILABLE`` (None: no retries).
    ``tls=True`` (implied by any certificate argument) uses TLS with the system's roots or
    ``root_certificates``; ``client_certificate`` and ``client_key`` (PEM bytes or file paths)
    answer a server that requires mutual TLS. ``token`` sends ``authorization: Bearer TOKEN``.
    ``options`` are extra channel arguments.

    ``connections`` is how many connections to keep to each address. A server's workers share
    its port and the kernel hands each *connection* to one of them, so one connection reaches
    one worker; with ``connections=N`` the client opens N channels (each with its own
    subchannels, ``grpc.use_local_subchannel_pool``) and takes the next one for every call,
    spreading calls over the workers of every replica. A few times the number of workers per
    server reaches them all with high probability (docs/DEPLOY.md).

    Each handler reads the call's cards with the library before it builds the request, so a bad
    input raises the library's error, with the library's field paths, as in-process.
    """

    def __init__(
        self,
        target: str,
        *,
        timeout: float | None = 30.0,
        retry: RetryPolicy | None = DEFAULT_RETRY,
        load_balancing: str = "round_robin",
        tls: bool = False,
        root_certificates: bytes | str | Path | None = None,
        client_certificate: bytes | str | Path | None = None,
        client_key: bytes | str | Path | None = None,
        token: str | None = None,
        max_message_bytes: int = 64 * 1024 * 1024,
        options: Sequence[tuple[str, Any]] = (),
        connections: int = 1,
    ) -> None:
        if connections < 1:
            raise InvalidInputError("connections", f"must be at least 1, got {connections}")
        self.target = target
        self.timeout = timeout
        self._batch_size = BATCH_CHUNK  # lowered when a server refuses that many per call
        self._metadata: tuple[tuple[str, str], ...] = (
            (("authorization", f"Bearer {token}"),) if token else ()
        )
        channel_options: list[tuple[str, Any]] = [
            ("grpc.service_config", service_config(retry, load_balancing)),
            ("grpc.enable_retries", 1 if retry is not None else 0),
            ("grpc.max_receive_message_length", max_message_bytes),
            ("grpc.max_send_message_length", max_message_bytes),
            ("grpc.keepalive_time_ms", 60_000),
            *options,
        ]
        if connections > 1:  # channels sharing the global pool would share one connection
            channel_options.append(("grpc.use_local_subchannel_pool", 1))
        secure = tls or any(x is not None for x in (root_certificates, client_certificate))
        credentials = None
        if secure:
            credentials = grpc.ssl_channel_credentials(
                root_certificates=_read(root_certificates),
                private_key=_read(client_key),
                certificate_chain=_read(client_certificate),
            )
        self._channels = [
            grpc.secure_channel(target, credentials, options=channel_options)
            if credentials is not None
            else grpc.insecure_channel(target, options=channel_options)
            for _ in range(connections)
        ]
        self._chinese_stubs = [
            pb_grpc.ChinesePokerServiceStub(channel)  # type: ignore[no-untyped-call]
            for channel in self._channels
        ]
        self._turn = itertools.count()  # next(...) is atomic under the GIL: safe across threads
        self._handlers = handlers(self)

    @property
    def _channel(self) -> grpc.Channel:
        """The channel of the next call (they take turns, see ``connections``)."""
        return self._channels[next(self._turn) % len(self._channels)]

    @property
    def _chinese(self) -> Any:
        return self._chinese_stubs[next(self._turn) % len(self._chinese_stubs)]

    # -- lifecycle ---------------------------------------------------------------------

    def call(self, request: Call[T], timeout: float | None = None) -> T:
        """The server's answer to ``request`` (``timeout`` None: the backend's)."""
        return dispatch(self._handlers, request, timeout)

    def close(self) -> None:
        """Close the channels (calls in progress are cancelled)."""
        for channel in self._channels:
            channel.close()

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Block until every channel is connected; :class:`ServerUnavailableError` otherwise."""
        deadline = time.monotonic() + timeout
        try:
            for channel in self._channels:
                remaining = max(0.0, deadline - time.monotonic())
                grpc.channel_ready_future(channel).result(timeout=remaining)
        except grpc.FutureTimeoutError:
            raise ServerUnavailableError(
                "UNAVAILABLE", f"no connection within {timeout:g} s", target=self.target
            ) from None

    def health(self, service: str = "", timeout: float | None = None) -> str:
        """The server's ``grpc.health.v1`` status of ``service`` ("" for the whole server):
        ``"SERVING"``, ``"NOT_SERVING"``...; an unknown service is an
        :class:`~cpsolver.errors.InvalidInputError` naming it. Health needs no token."""
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        stub = health_pb2_grpc.HealthStub(self._channel)
        request = health_pb2.HealthCheckRequest(service=service)
        try:
            reply = stub.Check(request, timeout=self.timeout if timeout is None else timeout)
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.NOT_FOUND:
                raise InvalidInputError("service", f"unknown service {service!r}") from None
            raise self._error(exc) from None
        return str(health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status))

    # -- calls -------------------------------------------------------------------------

    def _call(
        self,
        method: Callable[..., T],
        request: Any,
        timeout: float | None,
        paths: Callable[[FieldPath], FieldPath] | None = None,
    ) -> T:
        """Call ``method``; a failure raises what :meth:`_error` says. ``paths`` names the
        request's fields as the library names its arguments (the inverse of the servicer's
        move, e.g. ``hands[i].cards[j]`` -> ``hands[i][j]``), so an error reads as in-process."""
        deadline = self.timeout if timeout is None else timeout
        try:
            return method(request, timeout=deadline, metadata=self._metadata)
        except grpc.RpcError as exc:
            error = self._error(exc)
            if paths is not None and isinstance(error, InvalidInputError):
                error = error.with_paths(paths)
            raise error from None

    def _error(self, exc: grpc.RpcError) -> CpsolverError:
        """The exception a failed call raises (see the module docstring)."""
        call: Any = exc  # a grpc.Call as well as an RpcError
        code: grpc.StatusCode = call.code()
        details: str = call.details() or ""
        try:
            status = rpc_status.from_call(call)
        except ValueError:  # inconsistent trailers: fall back to the code
            status = None
        if status is not None:
            mapped = exception_from_status(status)
            if mapped is not None:
                return mapped
        if code is grpc.StatusCode.INVALID_ARGUMENT:
            mapped = exception_from_status(_plain_status(code, details))
            assert mapped is not None
            return mapped
        if code is grpc.StatusCode.UNAVAILABLE:
            return ServerUnavailableError(code.name, details, target=self.target)
        if code is grpc.StatusCode.DEADLINE_EXCEEDED:
            return DeadlineExceededError(code.name, details, target=self.target)
        return RemoteError(code.name, details, target=self.target)

    # -- Chinese poker (ChinesePokerService) -----------------------------------------------

    @answers(calls.EvaluateHand)
    def _evaluate_hand(self, r: calls.EvaluateHand, timeout: float | None) -> HandValue:
        """``EvaluateHand``, as :func:`cpsolver.evaluate` with the rule set's wheel."""
        request = pb.EvaluateHandRequest(
            cards=cards_to_wire(parse_cards(r.cards)),
            rules=rules_to_wire(r.rules, pb.ChineseRules),
        )
        return hand_from_wire(self._call(self._chinese.EvaluateHand, request, timeout).hand)

    @staticmethod
    def _solve_request(
        cards: CardsLike,
        rules: ChineseRules,
        objective: str | None,
        estimator: Estimator,
        arrangements: int,
        seed: int,
        field: Field = "cards",
    ) -> pb.SolveRequest:
        request = pb.SolveRequest(
            cards=cards_to_wire(parse_cards(cards, field=field)),
            rules=rules_to_wire(rules, pb.ChineseRules),
        )
        if objective is not None:
            name = f"OBJECTIVE_{objective.upper()}"
            if name not in pb.Objective.DESCRIPTOR.values_by_name:
                from cpsolver.chinese.objectives import get_objective

                get_objective(objective)  # raises the library's error for an unknown name
                raise RemoteError("UNIMPLEMENTED", f"objective {objective!r} has no wire name")
            request.objective = pb.Objective.Value(name)
        # The section resolved both with the library (its errors, raised before any call).
        # The default goes as empty: the server's default, which, unlike a named
        # "calibrated", falls back to the tables where the pool cannot settle the call.
        request.estimator = _estimator_to_wire(estimator)
        request.arrangements = arrangements
        request.seed = seed
        return request

    @answers(calls.Solve)
    def _solve(self, r: calls.Solve, timeout: float | None) -> Solution:
        """``Solve``, as :func:`cpsolver.solve` returns it."""
        found = Violations()  # every violation at once, in the library's order (issue 27, D5)
        with found.check():
            request = self._solve_request(
                r.cards, r.rules, r.objective, r.estimator, r.arrangements, r.seed
            )
        with found.check():
            constraints = None if r.constraints is None else as_constraints(r.constraints)
        with found.check():
            engine = check_engine(r.engine)
        found.raise_any()
        if constraints is not None:
            request.constraints.CopyFrom(constraints_to_wire(constraints, r.rules))
        request.engine = pb.Engine.Value(f"ENGINE_{engine.upper()}")
        return solution_from_wire(self._call(self._chinese.Solve, request, timeout), r.rules)

    @answers(calls.BatchSolve)
    def _batch_solve(
        self, r: calls.BatchSolve, timeout: float | None
    ) -> Iterator[Solution | CpsolverError]:
        """``BatchSolve`` streaming; one result per hand, in order.

        A hand that cannot be solved yields its exception (an
        :class:`~cpsolver.errors.InvalidInputError` naming the hand's field, e.g. ``cards[13]``)
        instead of a Solution, so one bad hand does not stop the batch. ``timeout`` is the
        deadline of each BatchSolve call (up to 1,000 hands each; fewer when the server's
        ``--max-batch`` refuses that many: the client then asks in calls it accepts).
        """
        pending: list[Solution | CpsolverError | pb.SolveRequest] = []
        for hand in r.hands:
            try:
                request = self._solve_request(
                    hand, r.rules, r.objective, r.estimator, r.arrangements, r.seed
                )
                pending.append(request)
            except CpsolverError as exc:
                pending.append(exc)
            if len(pending) >= BATCH_CHUNK:
                yield from self._flush(pending, r.rules, timeout)
                pending = []
        yield from self._flush(pending, r.rules, timeout)

    @answers(calls.ScoreTable)
    def _score_table(self, r: calls.ScoreTable, timeout: float | None) -> TableResult:
        """``ScoreTable``, as :func:`cpsolver.score` settles a table.

        The players are read here with the library (:func:`~cpsolver.chinese.scoring.read_seats`:
        the same input forms and the same errors as in-process); the server settles them.
        """
        seats = read_seats(r.players, r.rules)
        request = pb.ScoreTableRequest(
            players=[seat_to_wire(seat) for seat in seats],
            rules=rules_to_wire(r.rules, pb.ChineseRules),
        )
        # Errors name a player as the caller did: by name for a mapping, by seat for a list.
        entries = seat_entries(r.players)
        keys = [path[1] for _, path, _ in entries]
        response = self._call(
            self._chinese.ScoreTable,
            request,
            timeout,
            lambda path: player_paths_from_wire(path, keys),
        )
        return table_from_wire(response, r.rules, seats, tuple(spec for _, _, spec in entries))

    @answers(calls.DealTables)
    def _deal_tables(self, r: calls.DealTables, timeout: float | None) -> tuple[ChineseDeal, ...]:
        """``DealTables``, as ``cpsolver.chinese.deal.deals``: the same seeds give the same
        hands in-process and on the server. The request is checked here with the library (the
        same errors); more than :data:`DEAL_CHUNK` deals are asked for in several calls (the
        server's cap per call), each with ``timeout``."""
        check_deal_request(r.seed, r.players, r.count)
        found: list[ChineseDeal] = []
        for start in range(r.seed, r.seed + r.count, DEAL_CHUNK):
            request = pb.DealTablesRequest(
                seed=start, players=r.players, count=min(DEAL_CHUNK, r.seed + r.count - start)
            )
            response = self._call(self._chinese.DealTables, request, timeout)
            found.extend(deal_from_wire(t) for t in response.tables)
        return tuple(found)

    @answers(calls.ValidateArrangement)
    def _validate(self, r: calls.ValidateArrangement, timeout: float | None) -> Seat:
        """``ValidateArrangement`` (CP-6), as ``cpsolver.chinese.scoring.check_arrangement``:
        the rows are read here with the library (the same errors as in-process), the server
        evaluates and judges them."""
        local = check_arrangement(r.back, r.middle, r.front, r.rules)  # the library's errors
        assert local.rows is not None
        request = pb.ValidateArrangementRequest(
            arrangement=pb.Arrangement(
                back=cards_to_wire(local.rows[Row.BACK]),
                middle=cards_to_wire(local.rows[Row.MIDDLE]),
                front=cards_to_wire(local.rows[Row.FRONT]),
            ),
            rules=rules_to_wire(r.rules, pb.ChineseRules),
        )
        response = self._call(self._chinese.ValidateArrangement, request, timeout)
        return arrangement_check_from_wire(response, local.rows, r.rules)

    @answers(calls.RateArrangement)
    def _rate(self, r: calls.RateArrangement, timeout: float | None) -> Rating:
        """``RateArrangement``, as :func:`cpsolver.rate`: the choice is read here with the
        library (:func:`~cpsolver.chinese.scoring.read_seat`: the same input forms and errors
        as in-process); the server rates it."""
        seat = read_seat(r.played, r.rules)
        request = pb.RateArrangementRequest(
            rules=rules_to_wire(r.rules, pb.ChineseRules),
            estimator=_estimator_to_wire(r.estimator),
            arrangements=r.arrangements,
            seed=r.seed,
        )
        if seat.natural is not None:
            request.natural.cards.extend(cards_to_wire(seat.cards))
        else:
            assert seat.rows is not None
            request.arrangement.CopyFrom(
                pb.Arrangement(
                    back=cards_to_wire(seat.rows[Row.BACK]),
                    middle=cards_to_wire(seat.rows[Row.MIDDLE]),
                    front=cards_to_wire(seat.rows[Row.FRONT]),
                )
            )
        response = self._call(self._chinese.RateArrangement, request, timeout, rate_paths_from_wire)
        return rating_from_wire(response, r.rules)

    # -- Chlust (ChlustService) ------------------------------------------------------------

    @answers(calls.EvaluateSet)
    def _evaluate_set(self, r: calls.EvaluateSet, timeout: float | None) -> SetValue:
        """``EvaluateSet``, as ``cpsolver.chlust.evaluate``."""
        from cpsolver.v1 import chlust_pb2
        from cpsolver.wire.chlust import set_from_wire

        suit = parse_suit(r.trump) if isinstance(r.trump, str) else r.trump
        request = chlust_pb2.EvaluateSetRequest(
            cards=cards_to_wire(parse_cards(r.cards)),
            trump=suit_to_wire(suit),  # type: ignore[arg-type]
            rules=rules_to_wire(r.rules, chlust_pb2.ChlustRules),
        )
        if r.turned is not None:
            request.turned.CopyFrom(card_to_wire(parse_cards([r.turned], field="turned")[0]))
        response = self._chlust_call(self._chlust().EvaluateSet, request, timeout)
        return set_from_wire(response.set, suit)

    @answers(calls.Showdown)
    def _showdown(self, r: calls.Showdown, timeout: float | None) -> Showdown:
        """``Showdown`` (CH-7), as ``cpsolver.chlust.showdown``."""
        from cpsolver.v1 import chlust_pb2
        from cpsolver.wire.chlust import showdown_from_wire

        suit = parse_suit(r.trump) if isinstance(r.trump, str) else r.trump
        request = chlust_pb2.ShowdownRequest(
            hands=[
                chlust_pb2.ChlustHand(cards=cards_to_wire(parse_cards(h, field=("hands", i))))
                for i, h in enumerate(r.hands)
            ],
            trump=suit_to_wire(suit),  # type: ignore[arg-type]
            rules=rules_to_wire(r.rules, chlust_pb2.ChlustRules),
        )
        if r.turned is not None:
            request.turned.CopyFrom(card_to_wire(parse_cards([r.turned], field="turned")[0]))
        response = self._chlust_call(self._chlust().Showdown, request, timeout)
        return showdown_from_wire(response, suit)

    @answers(calls.LegalPlays)
    def _legal_plays(self, r: calls.LegalPlays, timeout: float | None) -> tuple[Card, ...]:
        """``LegalPlays`` (CH-8), as ``cpsolver.chlust.legal_cards``."""
        from cpsolver.v1 import chlust_pb2

        deck = r.rules.card_deck
        suit = parse_suit(r.trump, field="trump") if isinstance(r.trump, str) else r.trump
        on_trick = parse_cards(r.trick, deck=deck, count=(0, 1, 2, 3), field="trick")
        held = parse_cards(r.hand, deck=deck, count=(1, 2, 3), field="hand")
        request = chlust_pb2.LegalPlaysRequest(
            hand=cards_to_wire(held),
            trick=cards_to_wire(on_trick),
            trump=suit_to_wire(suit),  # type: ignore[arg-type]
            rules=rules_to_wire(r.rules, chlust_pb2.ChlustRules),
        )
        response = self._chlust_call(self._chlust().LegalPlays, request, timeout)
        return tuple(card_from_wire(c) for c in response.legal)

    @answers(calls.PlayDeal)
    def _play_deal(self, r: calls.PlayDeal, timeout: float | None) -> ChlustDealResult:
        """``PlayDeal`` (CH-8, CH-9), as ``cpsolver.chlust.play_deal``.

        The hands, seats and cards are checked here with the library (the same errors as
        in-process); the server plays the tricks and refuses illegal plays (``plays[k]``).
        """
        from cpsolver.v1 import chlust_pb2
        from cpsolver.wire.chlust import deal_result_from_wire

        game = TrickGame(r.hands, r.trump, r.rules, r.dealer, r.folded, r.turned)
        suit = parse_suit(game.trump, field="trump")
        deck = r.rules.card_deck
        if isinstance(r.plays, str):
            cards = list(parse_cards(r.plays, deck=deck, field="plays"))
        else:
            cards = []
            for entry in r.plays:
                if isinstance(entry, Card):
                    cards.append(entry)
                else:
                    cards.extend(parse_cards(entry, deck=deck, field="plays"))
        request = chlust_pb2.PlayDealRequest(
            hands=[
                chlust_pb2.ChlustHand(cards=cards_to_wire(game.hand(s) if s in game.seats else ()))
                for s in range(len(r.hands))
            ],
            trump=suit_to_wire(suit),  # type: ignore[arg-type]
            plays=cards_to_wire(cards),
            dealer=r.dealer,
            folded=list(r.folded),
            rules=rules_to_wire(r.rules, chlust_pb2.ChlustRules),
        )
        if r.turned is not None:
            request.turned.CopyFrom(card_to_wire(one_card(r.turned, r.rules, "turned")))
        response = self._chlust_call(self._chlust().PlayDeal, request, timeout)
        return deal_result_from_wire(response, suit, len(r.hands))

    @answers(calls.ShowdownOdds)
    def _showdown_odds(self, r: calls.ShowdownOdds, timeout: float | None) -> ShowdownOdds:
        """``ShowdownOdds`` (CH-7), as ``cpsolver.chlust.showdown_odds`` (``samples``,
        ``exact_limit`` and ``seed`` are checked here with the library's bounds,
        ``check_odds_limits``: the same errors as in-process)."""
        from cpsolver.v1 import chlust_pb2
        from cpsolver.wire.chlust import odds_from_wire

        check_chlust_odds(
            opponents=r.opponents, samples=r.samples, exact_limit=r.exact_limit, seed=r.seed
        )
        suit = parse_suit(r.trump, field="trump") if isinstance(r.trump, str) else r.trump
        held = parse_cards(r.hand, deck=r.rules.card_deck, count=3, field="hand")
        request = chlust_pb2.ShowdownOddsRequest(
            hand=cards_to_wire(held),
            trump=suit_to_wire(suit),  # type: ignore[arg-type]
            opponents=r.opponents,
            rules=rules_to_wire(r.rules, chlust_pb2.ChlustRules),
            exact_limit=r.exact_limit,
            samples=r.samples,
            seed=r.seed,
        )
        if r.turned is not None:
            request.turned.CopyFrom(card_to_wire(one_card(r.turned, r.rules, "turned")))
        if r.dead:
            dead = parse_cards(r.dead, deck=r.rules.card_deck, field="dead")
            request.dead.extend(cards_to_wire(dead))
        response = self._chlust_call(self._chlust().ShowdownOdds, request, timeout)
        return odds_from_wire(response, r.opponents)

    @answers(calls.AdvisePlay)
    def _advise_play(self, r: calls.AdvisePlay, timeout: float | None) -> PlayAdvice:
        """``AdvisePlay``, as ``cpsolver.chlust.advise_play`` (``samples`` and ``seed`` are
        checked here with the library's bounds, ``check_advice_limits``)."""
        from cpsolver.v1 import chlust_pb2
        from cpsolver.wire.chlust import advice_from_wire, trick_record_to_wire

        check_chlust_advice(samples=r.samples, seed=r.seed, seat=r.seat, seats=r.seats)
        if r.trick.trump is None:
            raise InvalidInputError("trick", "a Chlust trick has a trump suit")
        held = parse_cards(r.hand, deck=r.rules.card_deck, field="hand")
        request = chlust_pb2.AdvisePlayRequest(
            hand=cards_to_wire(held),
            trump=suit_to_wire(r.trick.trump),  # type: ignore[arg-type]
            seat=r.seat,
            seats=list(r.seats),
            history=[trick_record_to_wire(t) for t in r.history],
            trick=trick_record_to_wire(r.trick),
            samples=r.samples,
            seed=r.seed,
            rules=rules_to_wire(r.rules, chlust_pb2.ChlustRules),
        )
        if r.turned is not None:
            request.turned.CopyFrom(card_to_wire(one_card(r.turned, r.rules, "turned")))
        response = self._chlust_call(self._chlust().AdvisePlay, request, timeout)
        return advice_from_wire(response)

    @answers(calls.Exchange)
    def _exchange(self, r: calls.Exchange, timeout: float | None) -> tuple[int | None, ChlustDeal]:
        """``Exchange`` (CH-2): the seat that may exchange (None: nobody) and the hands and
        turned card after it, as ``cpsolver.chlust.exchange_seat`` and ``Deal.exchange``."""
        from cpsolver.v1 import chlust_pb2

        card = one_card(r.turned, r.rules, "turned")
        parsed = parse_hands(r.hands, r.rules, exclude=(card,))  # the library's input errors
        request = chlust_pb2.ExchangeRequest(
            hands=[chlust_pb2.ChlustHand(cards=cards_to_wire(h)) for h in parsed],
            turned=card_to_wire(card),
            rules=rules_to_wire(r.rules, chlust_pb2.ChlustRules),
        )
        response = self._chlust_call(self._chlust().Exchange, request, timeout)
        after = tuple(tuple(card_from_wire(c) for c in h.cards) for h in response.hands)
        seat = response.seat if response.HasField("seat") else None
        return seat, ChlustDeal(after, card_from_wire(response.turned), 0, ())

    @answers(calls.DealHands)
    def _deal_hands(self, r: calls.DealHands, timeout: float | None) -> ChlustDeal:
        """``DealHands`` (CH-2), as ``cpsolver.chlust.deal`` (the same seed gives the same
        deal in-process and on the server)."""
        from cpsolver.v1 import chlust_pb2
        from cpsolver.wire.chlust import deal_from_wire

        n = r.rules.players if r.players is None else r.players  # 0 is refused, not the rules'
        check_chlust_deal(n, seed=r.seed, dealer=r.dealer)  # the library's checks and errors
        request = chlust_pb2.DealHandsRequest(
            players=n,
            dealer=r.dealer,
            seed=r.seed,
            rules=rules_to_wire(r.rules, chlust_pb2.ChlustRules),
        )
        return deal_from_wire(self._chlust_call(self._chlust().DealHands, request, timeout))

    @answers(calls.Bid)
    def _bid(self, r: calls.Bid, timeout: float | None) -> BiddingState:
        """``Bid`` (CH-6), as a ``cpsolver.chlust.Bidding`` round replayed."""
        from cpsolver.v1 import chlust_pb2
        from cpsolver.wire.chlust import bidding_from_wire

        table = Bidding(r.players, r.rules, dealer=r.dealer)  # checks players and dealer
        wire = []
        for i, action in enumerate(r.actions):
            try:
                name = parse_bid_action(action).name
            except InvalidInputError as exc:
                raise exc.prefixed(("actions", i)) from None
            wire.append(chlust_pb2.BidAction.Value(f"BID_ACTION_{name}"))
        request = chlust_pb2.BidRequest(
            players=table.players,
            dealer=r.dealer,
            actions=wire,
            rules=rules_to_wire(r.rules, chlust_pb2.ChlustRules),
        )
        response = self._chlust_call(self._chlust().Bid, request, timeout)
        return bidding_from_wire(response, table.players, r.dealer)

    def _chlust_call(self, method: Callable[..., T], request: Any, timeout: float | None) -> T:
        """:meth:`_call`, with the wire's ``hands[i].cards[j]`` field paths named as the library
        names them (``hands[i][j]``), so errors read the same as in-process."""
        return self._call(method, request, timeout, hand_paths_from_wire)

    def _chlust(self) -> Any:
        from cpsolver.v1 import chlust_pb2_grpc

        return chlust_pb2_grpc.ChlustServiceStub(self._channel)  # type: ignore[no-untyped-call]

    # -- Three Leaves (ThreeLeavesService) -------------------------------------------------

    @answers(calls.EvaluateKhlyust)
    def _evaluate_khlyust(self, r: calls.EvaluateKhlyust, timeout: float | None) -> KhlyustValue:
        """``EvaluateKhlyust`` (TL-4), as ``cpsolver.three_leaves.evaluate``."""
        from cpsolver.v1 import three_leaves_pb2
        from cpsolver.wire.three_leaves import khlyust_from_wire

        held = parse_cards(r.cards, deck=r.rules.card_deck, count=3, field="cards")
        suit = parse_suit(r.trump, field="trump") if isinstance(r.trump, str) else r.trump
        request = three_leaves_pb2.EvaluateKhlyustRequest(
            rules=rules_to_wire(r.rules, three_leaves_pb2.ThreeLeavesRules),
            cards=cards_to_wire(held),
            trump=suit_to_wire(suit),  # type: ignore[arg-type]
        )
        response = self._call(self._leaves().EvaluateKhlyust, request, timeout)
        return khlyust_from_wire(response.khlyust, suit)

    @answers(calls.ListLegalLeafPlays)
    def _legal_leaf_plays(
        self, r: calls.ListLegalLeafPlays, timeout: float | None
    ) -> tuple[LegalPlay, ...]:
        """``ListLegalLeafPlays`` (TL-5), as ``legal_on_trick``."""
        from cpsolver.v1 import three_leaves_pb2
        from cpsolver.wire.three_leaves import legal_from_wire

        held = parse_cards(r.hand, deck=r.rules.card_deck, count=(1, 2, 3), field="hand")
        if r.trick.trump is None:
            raise InvalidInputError("trump", "a Three Leaves trick has a trump suit")
        request = three_leaves_pb2.ListLegalLeafPlaysRequest(
            rules=rules_to_wire(r.rules, three_leaves_pb2.ThreeLeavesRules),
            hand=cards_to_wire(held),
            trump=suit_to_wire(r.trick.trump),  # type: ignore[arg-type]
            trick=[
                three_leaves_pb2.LeafPlay(
                    seat=p.seat, card=card_to_wire(p.card), face_down=p.face_down
                )
                for p in r.trick.plays
            ],
        )
        response = self._call(self._leaves().ListLegalLeafPlays, request, timeout)
        return legal_from_wire(response)

    @answers(calls.DealLeaves)
    def _deal_leaves(self, r: calls.DealLeaves, timeout: float | None) -> LeavesDeal:
        """``DealLeaves`` (TL-2), as ``cpsolver.three_leaves.deal`` (the same seed and rules
        give the same deal in-process and on the server)."""
        from cpsolver.v1 import three_leaves_pb2
        from cpsolver.wire.three_leaves import deal_from_wire

        check_leaves_deal(r.seed, r.rules, r.dealer)  # the library's checks and errors
        request = three_leaves_pb2.DealLeavesRequest(
            rules=rules_to_wire(r.rules, three_leaves_pb2.ThreeLeavesRules),
            seed=r.seed,
            dealer=r.dealer,
        )
        response = self._call(self._leaves().DealLeaves, request, timeout)
        return deal_from_wire(response, r.rules)

    @answers(calls.ResolveLeavesDeal)
    def _resolve_leaves(
        self, r: calls.ResolveLeavesDeal, timeout: float | None
    ) -> tuple[KhlyustClaim | None, tuple[KhlyustClaim, ...]]:
        """``ResolveLeavesDeal`` (TL-4), as ``best_khlyust``."""
        from cpsolver.v1 import three_leaves_pb2
        from cpsolver.wire.three_leaves import claim_from_wire

        deal = r.deal
        request = three_leaves_pb2.ResolveLeavesDealRequest(
            rules=rules_to_wire(deal.rules, three_leaves_pb2.ThreeLeavesRules),
            hands=[three_leaves_pb2.LeavesHand(cards=cards_to_wire(h)) for h in deal.hands],
            trump_card=card_to_wire(deal.trump_card),
            stock=cards_to_wire(deal.stock),
            dealer=deal.dealer,
        )
        response = self._call(
            self._leaves().ResolveLeavesDeal, request, timeout, hand_paths_from_wire
        )
        found = tuple(claim_from_wire(c, deal.trump) for c in response.khlyusts)
        winner = response.winner if response.HasField("winner") else None
        return next((c for c in found if c.seat == winner), None), found

    @answers(calls.PlayLeavesDeal)
    def _play_leaves(self, r: calls.PlayLeavesDeal, timeout: float | None) -> LeavesDealResult:
        """``PlayLeavesDeal`` (TL-2..TL-6), as ``play_deal``.

        The plays must be listed (a play policy, a function, runs in-process only).
        """
        from cpsolver.v1 import three_leaves_pb2 as tl
        from cpsolver.wire.three_leaves import (
            exchange_paths_from_wire,
            exchange_to_wire,
            leaves_result_from_wire,
        )

        deal = r.deal
        ch = r.choices or Choices()
        check_play_request(deal, ch, r.carried_pot)  # the library's checks and errors
        if callable(ch.plays):
            raise InvalidInputError("plays", "a play policy runs in-process only: list the plays")
        request = tl.PlayLeavesDealRequest(
            rules=rules_to_wire(deal.rules, tl.ThreeLeavesRules),
            hands=[tl.LeavesHand(cards=cards_to_wire(h)) for h in deal.hands],
            trump_card=card_to_wire(deal.trump_card),
            stock=cards_to_wire(deal.stock),
            dealer=deal.dealer,
            exchanges=[exchange_to_wire(seat, e) for seat, e in ch.exchanges.items()],
            demand_playout=ch.demand_playout,
            picks=cards_to_wire(ch.picks or ()),
            plays=[tl.LeafPlay(card=card_to_wire(c), face_down=down) for c, down in ch.plays],
            carried_pot=r.carried_pot,
            seed=ch.seed,
        )
        seats = list(ch.exchanges)  # the request's exchanges, in order

        def paths(path: FieldPath) -> FieldPath:
            return exchange_paths_from_wire(hand_paths_from_wire(path), seats)

        response = self._call(self._leaves().PlayLeavesDeal, request, timeout, paths)
        return leaves_result_from_wire(response, deal, r.carried_pot)

    @answers(calls.AdviseLeaves)
    def _advise_leaves(self, r: calls.AdviseLeaves, timeout: float | None) -> HandAdvice:
        """``AdviseLeaves``, as ``advise_hand`` (the position, ``samples``, ``seed`` and
        ``carried_pot`` are checked here with the library's bounds, ``check_advice_limits``:
        the same errors as in-process)."""
        from cpsolver.v1 import three_leaves_pb2
        from cpsolver.wire.three_leaves import hand_advice_from_wire

        check_leaves_advice(
            position=r.position,
            rules=r.rules,
            samples=r.samples,
            seed=r.seed,
            carried_pot=r.carried_pot,
        )
        held = parse_cards(r.hand, deck=r.rules.card_deck, count=3, field="hand")
        turned = (
            r.trump_card
            if isinstance(r.trump_card, Card)
            else parse_card(r.trump_card, deck=r.rules.card_deck, field="trump_card")
        )
        request = three_leaves_pb2.AdviseLeavesRequest(
            rules=rules_to_wire(r.rules, three_leaves_pb2.ThreeLeavesRules),
            hand=cards_to_wire(held),
            trump_card=card_to_wire(turned),
            position=r.position,
            samples=r.samples,
            seed=r.seed,
            exchange=r.exchange,
            carried_pot=r.carried_pot,
            skip_odds=not r.odds,
            skip_tricks=not r.tricks,
        )
        response = self._call(self._leaves().AdviseLeaves, request, timeout)
        return hand_advice_from_wire(response, turned.suit, r.position, exchange=r.exchange)

    # -- open-face Chinese poker (OpenFaceService) ----------------------------------------

    @answers(calls.ScoreOpenFace)
    def _score_open_face(self, r: calls.ScoreOpenFace, timeout: float | None) -> OfcTable:
        """``ScoreOpenFace`` (OFC-4), as :func:`cpsolver.ofc.score`: the boards are read here
        with the library (the same errors), the server settles them."""
        from cpsolver.ofc.board import read_boards, seat_entries
        from cpsolver.v1 import open_face_pb2
        from cpsolver.wire.open_face import board_to_wire, table_from_wire

        names, boards = read_boards(r.players, most=r.rules.max_players, complete=True)
        keys = [path[1] for _, path, _ in seat_entries(r.players, most=r.rules.max_players)]
        request = open_face_pb2.ScoreOpenFaceRequest(
            rules=rules_to_wire(r.rules, open_face_pb2.OpenFaceRules),
            players=[
                open_face_pb2.OpenFaceSeat(seat=name, board=board_to_wire(board))
                for name, board in zip(names, boards, strict=True)
            ],
        )

        def paths(path: FieldPath) -> FieldPath:
            # players[i].board.back[j] -> players.NAME.back[j] (or players[i].back[j])
            if (
                len(path) >= 3
                and path[0] == "players"
                and isinstance(path[1], int)
                and path[2] == "board"
                and path[1] < len(keys)
            ):
                return ("players", keys[path[1]], *path[3:])
            return path

        response = self._call(self._open_face().ScoreOpenFace, request, timeout, paths)
        return table_from_wire(response, r.rules, names, boards)

    @answers(calls.SetFantasyland)
    def _set_fantasyland(self, r: calls.SetFantasyland, timeout: float | None) -> FantasylandSet:
        """``SetFantasyland`` (OFC-5), as :func:`cpsolver.ofc.fantasyland`."""
        from cpsolver.ofc.fantasyland import check_fantasyland_request
        from cpsolver.v1 import open_face_pb2
        from cpsolver.wire.open_face import fantasyland_from_wire

        cards, value = check_fantasyland_request(
            r.cards, r.rules, r.objective, r.fantasyland_value, samples=r.samples, seed=r.seed
        )
        request = open_face_pb2.SetFantasylandRequest(
            rules=rules_to_wire(r.rules, open_face_pb2.OpenFaceRules),
            cards=cards_to_wire(cards),
            objective=r.objective,
            fantasyland_value=value,
            seed=r.seed,
        )
        if r.samples is not None:
            request.samples = r.samples
        response = self._call(self._open_face().SetFantasyland, request, timeout)
        return fantasyland_from_wire(response)

    @answers(calls.AdviseOpenFace)
    def _advise_open_face(self, r: calls.AdviseOpenFace, timeout: float | None) -> OfcAdvice:
        """``AdviseOpenFace`` (issue 31), as :func:`cpsolver.ofc.advise`: the options are
        checked here with the library (the same errors), the server advises."""
        from cpsolver.ofc.advice import check_advice_options
        from cpsolver.wire.open_face import advice_from_wire, advise_request

        check_advice_options(r.budget_ms, r.samples, r.seed, r.fantasyland_value, r.fills)
        request = advise_request(
            r.position,
            budget_ms=r.budget_ms,
            samples=r.samples,
            seed=r.seed,
            fantasyland_value=r.fantasyland_value,
            fills=r.fills,
        )
        response = self._call(self._open_face().AdviseOpenFace, request, timeout)
        return advice_from_wire(response, r.position)

    @answers(calls.DealOpenFace)
    def _deal_open_face(self, r: calls.DealOpenFace, timeout: float | None) -> OfcDeal:
        """``DealOpenFace`` (OFC-1), as :func:`cpsolver.ofc.deal` (the same seed and rules give
        the same deal in-process and on the server)."""
        from cpsolver.v1 import open_face_pb2
        from cpsolver.wire.open_face import deal_from_wire

        check_seed(r.seed)
        request = open_face_pb2.DealOpenFaceRequest(
            rules=rules_to_wire(r.rules, open_face_pb2.OpenFaceRules), seed=r.seed
        )
        response = self._call(self._open_face().DealOpenFace, request, timeout)
        return deal_from_wire(response, r.rules)

    def _open_face(self) -> Any:
        from cpsolver.v1 import open_face_pb2_grpc

        return open_face_pb2_grpc.OpenFaceServiceStub(self._channel)  # type: ignore[no-untyped-call]

    def _leaves(self) -> Any:
        from cpsolver.v1 import three_leaves_pb2_grpc

        return three_leaves_pb2_grpc.ThreeLeavesServiceStub(self._channel)  # type: ignore[no-untyped-call]

    def _batch_call(
        self,
        part: list[int],
        pending: list[Solution | CpsolverError | pb.SolveRequest],
        results: list[Solution | CpsolverError | pb.SolveRequest],
        rules: ChineseRules,
        timeout: float | None,
    ) -> None:
        """One ``BatchSolve`` call for ``pending[i]``, i in ``part``; fills ``results``."""
        request = pb.BatchSolveRequest(requests=[pending[i] for i in part])  # type: ignore[misc]
        stream = self._call(self._chinese.BatchSolve, request, timeout)
        try:
            for item in stream:
                position = part[item.index]
                if item.status.code == 0:
                    results[position] = solution_from_wire(item.response, rules)
                else:
                    error = exception_from_status(item.status)
                    results[position] = error or RemoteError(
                        str(item.status.code), item.status.message, target=self.target
                    )
        except grpc.RpcError as exc:
            raise self._error(exc) from None

    def _flush(
        self,
        pending: list[Solution | CpsolverError | pb.SolveRequest],
        rules: ChineseRules,
        timeout: float | None,
    ) -> Iterator[Solution | CpsolverError]:
        sent = [i for i, item in enumerate(pending) if isinstance(item, pb.SolveRequest)]
        results: list[Solution | CpsolverError | pb.SolveRequest] = list(pending)
        start = 0
        while start < len(sent):
            part = sent[start : start + self._batch_size]
            try:
                self._batch_call(part, pending, results, rules, timeout)
            except RequestTooLargeError as exc:
                # A server started with a smaller --max-batch refuses the whole call before
                # solving anything, saying its limit (a QuotaFailure): ask again in calls it
                # accepts (in-process has no such cap).
                if len(part) <= 1:
                    raise
                self._batch_size = max(1, min(exc.limit, len(part) - 1))
                continue
            start += len(part)
        for result in results:
            assert not isinstance(result, pb.SolveRequest), "the server skipped a hand"
            yield result


def _estimator_to_wire(estimator: Estimator) -> str:
    """A request's ``estimator`` field: empty for the default (the server's, which falls back
    to the tables where the pool cannot settle the call), else the estimator's text."""
    return "" if estimator is DEFAULT_ESTIMATOR else str(estimator)


def _plain_status(code: grpc.StatusCode, details: str) -> Any:
    from google.rpc import status_pb2

    return status_pb2.Status(code=code.value[0], message=details)
