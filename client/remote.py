"""The typed gRPC client: the library's API, answered by a ``cpsolver serve`` server.

:class:`RemoteSolver` has the methods of :class:`cpsolver.client.local.LocalSolver` and returns the
same types (:class:`solver.Solution`, :class:`solver.HandValue`...), so a bot switches between
an embedded solver and a server with one line (``client.connect(None)`` or
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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

import grpc
from grpc_status import rpc_status

from cpsolver.cards import Card, CardsLike, Suit, parse_card, parse_cards, parse_suit
from cpsolver.chinese import Solution
from cpsolver.chinese.constrained import check_engine
from cpsolver.chinese.constraints import Constraints, as_constraints
from cpsolver.chinese.deal import Deal as ChineseDeal
from cpsolver.chinese.deal import check_deal_request
from cpsolver.chinese.scoring import Seat, TableResult, check_arrangement, read_seats
from cpsolver.chinese.solve import check_solve_limits
from cpsolver.chlust import BidAction, Bidding, BiddingState, PlayAdvice, ShowdownOdds, TrickGame
from cpsolver.chlust import Deal as ChlustDeal
from cpsolver.chlust import DealResult as ChlustDealResult
from cpsolver.chlust.advice import (
    DEFAULT_ADVICE_SAMPLES,
    DEFAULT_EXACT_LIMIT,
    DEFAULT_ODDS_SAMPLES,
)
from cpsolver.chlust.advice import check_advice_limits as check_chlust_advice
from cpsolver.chlust.advice import check_odds_limits as check_chlust_odds
from cpsolver.chlust.bidding import parse_bid_action
from cpsolver.chlust.deal import Showdown, one_card, parse_hands
from cpsolver.chlust.deal import check_deal_request as check_chlust_deal
from cpsolver.client.compat import seed_first
from cpsolver.client.errors import DeadlineExceededError, RemoteError, ServerUnavailableError
from cpsolver.errors import CpsolverError, Field, FieldPath, InvalidInputError
from cpsolver.evaluator.chlust import SetValue
from cpsolver.evaluator.khlyust import KhlyustValue
from cpsolver.evaluator.poker import HandValue
from cpsolver.rules import ChineseRules, ChlustRules, Row, ThreeLeavesRules
from cpsolver.three_leaves import (
    Choices,
    HandAdvice,
    KhlyustClaim,
    LegalPlay,
    SessionResult,
    play_session,
)
from cpsolver.three_leaves import Deal as LeavesDeal
from cpsolver.three_leaves import DealResult as LeavesDealResult
from cpsolver.three_leaves.advice import DEFAULT_SAMPLES as DEFAULT_LEAVES_SAMPLES
from cpsolver.three_leaves.advice import check_advice_limits as check_leaves_advice
from cpsolver.three_leaves.engine import check_play_request
from cpsolver.tricks import Trick
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
    seat_to_wire,
    solution_from_wire,
    table_from_wire,
)
from cpsolver.wire.rules import rules_to_wire
from cpsolver.wire.status import RequestTooLargeError, exception_from_status

__all__ = ["DEFAULT_RETRY", "RemoteSolver", "RetryPolicy"]

T = TypeVar("T")

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


class RemoteSolver:
    """A client of a ``cpsolver serve`` server, used as a context manager.

    >>> with RemoteSolver("127.0.0.1:1", timeout=5, retry=None) as remote:
    ...     remote.target
    '127.0.0.1:1'

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

    @property
    def _channel(self) -> grpc.Channel:
        """The channel of the next call (they take turns, see ``connections``)."""
        return self._channels[next(self._turn) % len(self._channels)]

    @property
    def _chinese(self) -> Any:
        return self._chinese_stubs[next(self._turn) % len(self._chinese_stubs)]

    # -- lifecycle ---------------------------------------------------------------------

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

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

    def evaluate(
        self,
        cards: CardsLike,
        rules: ChineseRules | str | None = "standard",
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> HandValue:
        """Evaluate a 5-card hand or a 3-card front, as :func:`solver.evaluate` does."""
        resolved = ChineseRules.resolve(rules, **overrides)
        request = pb.EvaluateHandRequest(
            cards=cards_to_wire(parse_cards(cards)),
            rules=rules_to_wire(resolved, pb.ChineseRules),
        )
        return hand_from_wire(self._call(self._chinese.EvaluateHand, request, timeout).hand)

    def _solve_request(
        self,
        cards: CardsLike,
        rules: ChineseRules,
        objective: str | None,
        alternatives: int,
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
        check_solve_limits(alternatives=alternatives)  # the library's bound and error
        request.top_k = alternatives
        return request

    def solve(
        self,
        cards: CardsLike,
        rules: ChineseRules | str | None = "standard",
        objective: str | None = None,
        *,
        alternatives: int = 0,
        constraints: Constraints | str | Iterable[str] | None = None,
        engine: str = "exact",
        rollouts: int = 0,
        seed: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> Solution:
        """The best arrangement of 13 cards, as :func:`solver.solve` returns it."""
        engine = check_engine(engine)
        resolved = ChineseRules.resolve(rules, **overrides)
        request = self._solve_request(cards, resolved, objective, alternatives)
        check_solve_limits(alternatives=alternatives, rollouts=rollouts, seed=seed)
        request.rollouts = rollouts
        request.seed = seed
        if constraints is not None:
            request.constraints.CopyFrom(constraints_to_wire(as_constraints(constraints), resolved))
        request.engine = pb.Engine.Value(f"ENGINE_{engine.upper()}")
        return solution_from_wire(self._call(self._chinese.Solve, request, timeout), resolved)

    def solve_batch(
        self,
        hands: Iterable[CardsLike],
        rules: ChineseRules | str | None = "standard",
        objective: str | None = None,
        *,
        alternatives: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> Iterator[Solution | CpsolverError]:
        """Solve many hands with ``BatchSolve`` streaming; one result per hand, in order.

        A hand that cannot be solved yields its exception (an
        :class:`~cpsolver.errors.InvalidInputError` naming the hand's field, e.g. ``cards[13]``)
        instead of a Solution, so one bad hand does not stop the batch. ``timeout`` is the
        deadline of each BatchSolve call (up to 1,000 hands each; fewer when the server's
        ``--max-batch`` refuses that many: the client then asks in calls it accepts).
        """
        resolved = ChineseRules.resolve(rules, **overrides)
        pending: list[Solution | CpsolverError | pb.SolveRequest] = []
        for hand in hands:
            try:
                pending.append(self._solve_request(hand, resolved, objective, alternatives))
            except CpsolverError as exc:
                pending.append(exc)
            if len(pending) >= BATCH_CHUNK:
                yield from self._flush(pending, resolved, timeout)
                pending = []
        yield from self._flush(pending, resolved, timeout)

    def score(
        self,
        players: Mapping[str, object],
        rules: ChineseRules | str | None = "standard",
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> TableResult:
        """Settle a table with ``ScoreTable``, as :func:`solver.score` does.

        The players are read here with the library (:func:`~cpsolver.chinese.scoring.read_seats`:
        the same input forms and the same errors as in-process); the server settles them.
        """
        resolved = ChineseRules.resolve(rules, **overrides)
        seats = read_seats(players, resolved)
        request = pb.ScoreTableRequest(
            players=[seat_to_wire(seat) for seat in seats.values()],
            rules=rules_to_wire(resolved, pb.ChineseRules),
        )
        names = list(seats)
        response = self._call(
            self._chinese.ScoreTable,
            request,
            timeout,
            lambda path: player_paths_from_wire(path, names),
        )
        return table_from_wire(response, resolved, seats, players)

    def deal(
        self,
        seed: int | None = None,
        /,
        *,
        players: int | None = None,
        count: int = 1,
        timeout: float | None = None,
        **legacy: Any,
    ) -> tuple[ChineseDeal, ...]:
        """Seeded deals with ``DealTables`` (CP-1), as ``cpsolver.chinese.deal.deals``: the same
        seeds give the same hands in-process and on the server. The request is checked here
        with the library (the same errors); more than :data:`DEAL_CHUNK` deals are asked for
        in several calls (the server's cap per call), each with ``timeout``."""
        seed, n = seed_first("deal", seed, legacy, players)
        if legacy:
            raise TypeError(f"deal() got unexpected keyword arguments {sorted(legacy)}")
        players = 4 if n is None else n
        check_deal_request(seed, players, count)
        found: list[ChineseDeal] = []
        for start in range(seed, seed + count, DEAL_CHUNK):
            request = pb.DealTablesRequest(
                seed=start, players=players, count=min(DEAL_CHUNK, seed + count - start)
            )
            response = self._call(self._chinese.DealTables, request, timeout)
            found.extend(deal_from_wire(t) for t in response.tables)
        return tuple(found)

    def validate(
        self,
        back: CardsLike,
        middle: CardsLike,
        front: CardsLike,
        rules: ChineseRules | str | None = "standard",
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> Seat:
        """Check one arrangement with ``ValidateArrangement`` (CP-6), as
        ``cpsolver.chinese.scoring.check_arrangement``: the rows are read here with the library
        (the same errors as in-process), the server evaluates and judges them."""
        resolved = ChineseRules.resolve(rules, **overrides)
        local = check_arrangement(back, middle, front, resolved)  # the library's input errors
        assert local.rows is not None
        request = pb.ValidateArrangementRequest(
            arrangement=pb.Arrangement(
                back=cards_to_wire(local.rows[Row.BACK]),
                middle=cards_to_wire(local.rows[Row.MIDDLE]),
                front=cards_to_wire(local.rows[Row.FRONT]),
            ),
            rules=rules_to_wire(resolved, pb.ChineseRules),
        )
        response = self._call(self._chinese.ValidateArrangement, request, timeout)
        return arrangement_check_from_wire(response, local.rows, resolved)

    # -- Chlust (RULES.md §3) -----------------------------------------------------------

    def chlust_evaluate(
        self,
        cards: CardsLike,
        trump: Suit | str,
        rules: ChlustRules | str | None = None,
        *,
        turned: Card | str | None = None,
        timeout: float | None = None,
        **overrides: Any,
    ) -> SetValue:
        """Judge a 3-card Chlust hand with ``EvaluateSet``, as ``cpsolver.chlust.evaluate_set``."""
        from cpsolver.v1 import chlust_pb2
        from cpsolver.wire.chlust import set_from_wire

        resolved = ChlustRules.resolve(rules, **overrides)
        suit = parse_suit(trump) if isinstance(trump, str) else trump
        request = chlust_pb2.EvaluateSetRequest(
            cards=cards_to_wire(parse_cards(cards)),
            trump=suit_to_wire(suit),  # type: ignore[arg-type]
            rules=rules_to_wire(resolved, chlust_pb2.ChlustRules),
        )
        if turned is not None:
            request.turned.CopyFrom(card_to_wire(parse_cards([turned], field="turned")[0]))
        response = self._chlust_call(self._chlust().EvaluateSet, request, timeout)
        return set_from_wire(response.set, suit)

    def chlust_showdown(
        self,
        hands: Sequence[CardsLike],
        trump: Suit | str,
        rules: ChlustRules | str | None = None,
        *,
        turned: Card | str | None = None,
        timeout: float | None = None,
        **overrides: Any,
    ) -> Showdown:
        """Rank 2-4 Chlust hands with ``Showdown`` (CH-7), as ``cpsolver.chlust.showdown``."""
        from cpsolver.v1 import chlust_pb2
        from cpsolver.wire.chlust import showdown_from_wire

        resolved = ChlustRules.resolve(rules, **overrides)
        suit = parse_suit(trump) if isinstance(trump, str) else trump
        request = chlust_pb2.ShowdownRequest(
            hands=[
                chlust_pb2.ChlustHand(cards=cards_to_wire(parse_cards(h, field=("hands", i))))
                for i, h in enumerate(hands)
            ],
            trump=suit_to_wire(suit),  # type: ignore[arg-type]
            rules=rules_to_wire(resolved, chlust_pb2.ChlustRules),
        )
        if turned is not None:
            request.turned.CopyFrom(card_to_wire(parse_cards([turned], field="turned")[0]))
        response = self._chlust_call(self._chlust().Showdown, request, timeout)
        return showdown_from_wire(response, suit)

    def chlust_legal(
        self,
        hand: CardsLike,
        trump: Suit | str,
        rules: ChlustRules | str | None = None,
        *,
        trick: CardsLike = (),
        timeout: float | None = None,
        **overrides: Any,
    ) -> tuple[Card, ...]:
        """The cards ``hand`` may play with ``LegalPlays`` (CH-8), as
        ``cpsolver.chlust.legal_plays``."""
        from cpsolver.v1 import chlust_pb2

        resolved = ChlustRules.resolve(rules, **overrides)
        suit = parse_suit(trump, field="trump") if isinstance(trump, str) else trump
        on_trick = parse_cards(trick, deck=resolved.card_deck, count=(0, 1, 2, 3), field="trick")
        held = parse_cards(hand, deck=resolved.card_deck, count=(1, 2, 3), field="hand")
        request = chlust_pb2.LegalPlaysRequest(
            hand=cards_to_wire(held),
            trick=cards_to_wire(on_trick),
            trump=suit_to_wire(suit),  # type: ignore[arg-type]
            rules=rules_to_wire(resolved, chlust_pb2.ChlustRules),
        )
        response = self._chlust_call(self._chlust().LegalPlays, request, timeout)
        return tuple(card_from_wire(c) for c in response.legal)

    def chlust_play(
        self,
        hands: Sequence[CardsLike | None],
        trump: Suit | str,
        plays: CardsLike | Sequence[CardsLike],
        rules: ChlustRules | str | None = None,
        *,
        dealer: int = 0,
        folded: Sequence[int] = (),
        turned: Card | str | None = None,
        timeout: float | None = None,
        **overrides: Any,
    ) -> ChlustDealResult:
        """Play a whole deal with ``PlayDeal`` (CH-8, CH-9), as ``cpsolver.chlust.play_deal``.

        The hands, seats and cards are checked here with the library (the same errors as
        in-process); the server plays the tricks and refuses illegal plays (``plays[k]``).
        """
        from cpsolver.v1 import chlust_pb2
        from cpsolver.wire.chlust import deal_result_from_wire

        resolved = ChlustRules.resolve(rules, **overrides)
        game = TrickGame(hands, trump, resolved, dealer, folded, turned)
        suit = parse_suit(game.trump, field="trump")
        if isinstance(plays, str):
            cards = list(parse_cards(plays, deck=resolved.card_deck, field="plays"))
        else:
            cards = []
            for entry in plays:
                if isinstance(entry, Card):
                    cards.append(entry)
                else:
                    cards.extend(parse_cards(entry, deck=resolved.card_deck, field="plays"))
        request = chlust_pb2.PlayDealRequest(
            hands=[
                chlust_pb2.ChlustHand(cards=cards_to_wire(game.hand(s) if s in game.seats else ()))
                for s in range(len(hands))
            ],
            trump=suit_to_wire(suit),  # type: ignore[arg-type]
            plays=cards_to_wire(cards),
            dealer=dealer,
            folded=list(folded),
            rules=rules_to_wire(resolved, chlust_pb2.ChlustRules),
        )
        if turned is not None:
            request.turned.CopyFrom(card_to_wire(one_card(turned, resolved, "turned")))
        response = self._chlust_call(self._chlust().PlayDeal, request, timeout)
        return deal_result_from_wire(response, suit, len(hands))

    def chlust_odds(
        self,
        hand: CardsLike,
        trump: Suit | str,
        rules: ChlustRules | str | None = None,
        *,
        opponents: int = 1,
        turned: Card | str | None = None,
        dead: CardsLike = (),
        exact_limit: int = DEFAULT_EXACT_LIMIT,
        samples: int = DEFAULT_ODDS_SAMPLES,
        seed: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> ShowdownOdds:
        """Showdown odds with ``ShowdownOdds`` (CH-7), as ``cpsolver.chlust.showdown_odds``
        (``samples``, ``exact_limit`` and ``seed`` are checked here with the library's
        bounds, ``check_odds_limits``: the same errors as in-process)."""
        from cpsolver.v1 import chlust_pb2
        from cpsolver.wire.chlust import odds_from_wire

        check_chlust_odds(opponents=opponents, samples=samples, exact_limit=exact_limit, seed=seed)
        resolved = ChlustRules.resolve(rules, **overrides)
        suit = parse_suit(trump, field="trump") if isinstance(trump, str) else trump
        held = parse_cards(hand, deck=resolved.card_deck, count=3, field="hand")
        request = chlust_pb2.ShowdownOddsRequest(
            hand=cards_to_wire(held),
            trump=suit_to_wire(suit),  # type: ignore[arg-type]
            opponents=opponents,
            rules=rules_to_wire(resolved, chlust_pb2.ChlustRules),
            exact_limit=exact_limit,
            samples=samples,
            seed=seed,
        )
        if turned is not None:
            request.turned.CopyFrom(card_to_wire(one_card(turned, resolved, "turned")))
        if dead:
            request.dead.extend(
                cards_to_wire(parse_cards(dead, deck=resolved.card_deck, field="dead"))
            )
        response = self._chlust_call(self._chlust().ShowdownOdds, request, timeout)
        return odds_from_wire(response, opponents)

    def chlust_advise(
        self,
        hand: CardsLike,
        trick: Trick,
        rules: ChlustRules | str | None = None,
        *,
        seat: int,
        seats: Sequence[int],
        history: Sequence[Trick] = (),
        turned: Card | str | None = None,
        samples: int = DEFAULT_ADVICE_SAMPLES,
        seed: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> PlayAdvice:
        """The card to play with ``AdvisePlay``, as ``cpsolver.chlust.advise_play`` (``samples``
        and ``seed`` are checked here with the library's bounds, ``check_advice_limits``)."""
        from cpsolver.v1 import chlust_pb2
        from cpsolver.wire.chlust import advice_from_wire, trick_record_to_wire

        check_chlust_advice(samples=samples, seed=seed, seat=seat, seats=seats)
        resolved = ChlustRules.resolve(rules, **overrides)
        if trick.trump is None:
            raise InvalidInputError("trick", "a Chlust trick has a trump suit")
        held = parse_cards(hand, deck=resolved.card_deck, field="hand")

        request = chlust_pb2.AdvisePlayRequest(
            hand=cards_to_wire(held),
            trump=suit_to_wire(trick.trump),  # type: ignore[arg-type]
            seat=seat,
            seats=list(seats),
            history=[trick_record_to_wire(t) for t in history],
            trick=trick_record_to_wire(trick),
            samples=samples,
            seed=seed,
            rules=rules_to_wire(resolved, chlust_pb2.ChlustRules),
        )
        if turned is not None:
            request.turned.CopyFrom(card_to_wire(one_card(turned, resolved, "turned")))
        response = self._chlust_call(self._chlust().AdvisePlay, request, timeout)
        return advice_from_wire(response)

    def chlust_exchange(
        self,
        hands: Sequence[CardsLike],
        turned: Card | str,
        rules: ChlustRules | str | None = None,
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> tuple[int | None, ChlustDeal]:
        """The trump-ace exchange with ``Exchange`` (CH-2): the seat that may exchange (None:
        nobody) and the hands and turned card after it, as ``cpsolver.chlust.exchange_seat``
        and ``Deal.exchange`` give them."""
        from cpsolver.v1 import chlust_pb2

        resolved = ChlustRules.resolve(rules, **overrides)
        card = one_card(turned, resolved, "turned")
        parsed = parse_hands(hands, resolved, exclude=(card,))  # the library's input errors
        request = chlust_pb2.ExchangeRequest(
            hands=[chlust_pb2.ChlustHand(cards=cards_to_wire(h)) for h in parsed],
            turned=card_to_wire(card),
            rules=rules_to_wire(resolved, chlust_pb2.ChlustRules),
        )
        response = self._chlust_call(self._chlust().Exchange, request, timeout)
        after = tuple(tuple(card_from_wire(c) for c in h.cards) for h in response.hands)
        seat = response.seat if response.HasField("seat") else None
        return seat, ChlustDeal(after, card_from_wire(response.turned), 0, ())

    def chlust_deal(
        self,
        seed: int | None = None,
        rules: ChlustRules | str | None = None,
        /,
        *,
        players: int | None = None,
        dealer: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> ChlustDeal:
        """A seeded deal with ``DealHands`` (CH-2), as ``cpsolver.chlust.deal`` (the same seed
        gives the same deal in-process and on the server)."""
        from cpsolver.v1 import chlust_pb2
        from cpsolver.wire.chlust import deal_from_wire

        seed, players = seed_first("chlust_deal", seed, overrides, players)
        resolved = ChlustRules.resolve(overrides.pop("rules", rules), **overrides)
        n = players or resolved.players
        check_chlust_deal(n, seed=seed, dealer=dealer)  # the library's checks and errors
        request = chlust_pb2.DealHandsRequest(
            players=n,
            dealer=dealer,
            seed=seed,
            rules=rules_to_wire(resolved, chlust_pb2.ChlustRules),
        )
        return deal_from_wire(self._chlust_call(self._chlust().DealHands, request, timeout))

    def chlust_bid(
        self,
        actions: Sequence[BidAction | str],
        players: int | None = None,
        rules: ChlustRules | str | None = None,
        *,
        dealer: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> BiddingState:
        """Replay a bidding round with ``Bid`` (CH-6), as ``cpsolver.chlust.Bidding`` does."""
        from cpsolver.v1 import chlust_pb2
        from cpsolver.wire.chlust import bidding_from_wire

        resolved = ChlustRules.resolve(rules, **overrides)
        table = Bidding(players, resolved, dealer=dealer)  # checks players and dealer
        wire = []
        for i, action in enumerate(actions):
            try:
                name = parse_bid_action(action).name
            except InvalidInputError as exc:
                raise exc.prefixed(("actions", i)) from None
            wire.append(chlust_pb2.BidAction.Value(f"BID_ACTION_{name}"))
        request = chlust_pb2.BidRequest(
            players=table.players,
            dealer=dealer,
            actions=wire,
            rules=rules_to_wire(resolved, chlust_pb2.ChlustRules),
        )
        response = self._chlust_call(self._chlust().Bid, request, timeout)
        return bidding_from_wire(response, table.players, dealer)

    def _chlust_call(self, method: Callable[..., T], request: Any, timeout: float | None) -> T:
        """:meth:`_call`, with the wire's ``hands[i].cards[j]`` field paths named as the library
        names them (``hands[i][j]``), so errors read the same as in-process."""
        return self._call(method, request, timeout, hand_paths_from_wire)

    def _chlust(self) -> Any:
        from cpsolver.v1 import chlust_pb2_grpc

        return chlust_pb2_grpc.ChlustServiceStub(self._channel)  # type: ignore[no-untyped-call]

    # -- Three Leaves (RULES.md §4) -----------------------------------------------------

    def leaves_evaluate(
        self,
        cards: CardsLike,
        trump: Suit | str,
        rules: ThreeLeavesRules | str | None = None,
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> KhlyustValue:
        """Judge three cards with ``EvaluateKhlyust`` (TL-4), as ``evaluate_khlyust``."""
        from cpsolver.v1 import three_leaves_pb2
        from cpsolver.wire.three_leaves import khlyust_from_wire

        resolved = ThreeLeavesRules.resolve(rules, **overrides)
        held = parse_cards(cards, deck=resolved.card_deck, count=3, field="cards")
        suit = parse_suit(trump, field="trump") if isinstance(trump, str) else trump
        request = three_leaves_pb2.EvaluateKhlyustRequest(
            rules=rules_to_wire(resolved, three_leaves_pb2.ThreeLeavesRules),
            cards=cards_to_wire(held),
            trump=suit_to_wire(suit),  # type: ignore[arg-type]
        )
        response = self._call(self._leaves().EvaluateKhlyust, request, timeout)
        return khlyust_from_wire(response.khlyust, suit)

    def leaves_legal(
        self,
        hand: CardsLike,
        trick: Trick,
        rules: ThreeLeavesRules | str | None = None,
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> tuple[LegalPlay, ...]:
        """The legal plays with ``ListLegalLeafPlays`` (TL-5), as ``legal_on_trick``."""
        from cpsolver.v1 import three_leaves_pb2
        from cpsolver.wire.three_leaves import legal_from_wire

        resolved = ThreeLeavesRules.resolve(rules, **overrides)
        held = parse_cards(hand, deck=resolved.card_deck, count=(1, 2, 3), field="hand")
        if trick.trump is None:
            raise InvalidInputError("trump", "a Three Leaves trick has a trump suit")
        request = three_leaves_pb2.ListLegalLeafPlaysRequest(
            rules=rules_to_wire(resolved, three_leaves_pb2.ThreeLeavesRules),
            hand=cards_to_wire(held),
            trump=suit_to_wire(trick.trump),  # type: ignore[arg-type]
            trick=[
                three_leaves_pb2.LeafPlay(
                    seat=p.seat, card=card_to_wire(p.card), face_down=p.face_down
                )
                for p in trick.plays
            ],
        )
        response = self._call(self._leaves().ListLegalLeafPlays, request, timeout)
        return legal_from_wire(response)

    def leaves_resolve(
        self, deal: LeavesDeal, *, timeout: float | None = None
    ) -> tuple[KhlyustClaim | None, tuple[KhlyustClaim, ...]]:
        """The khlyust check with ``ResolveLeavesDeal`` (TL-4), as ``best_khlyust``."""
        from cpsolver.v1 import three_leaves_pb2
        from cpsolver.wire.three_leaves import claim_from_wire

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

    def leaves_play(
        self,
        deal: LeavesDeal,
        choices: Choices | None = None,
        *,
        carried_pot: int = 0,
        timeout: float | None = None,
    ) -> LeavesDealResult:
        """Play and settle a deal with ``PlayLeavesDeal`` (TL-2..TL-6), as ``play_deal``.

        The plays must be listed (a play policy, a function, runs in-process only).
        """
        from cpsolver.v1 import three_leaves_pb2 as tl
        from cpsolver.wire.three_leaves import (
            exchange_paths_from_wire,
            exchange_to_wire,
            leaves_result_from_wire,
        )

        ch = choices or Choices()
        check_play_request(deal, ch, carried_pot)  # the library's checks and errors
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
            carried_pot=carried_pot,
            seed=ch.seed,
        )
        seats = list(ch.exchanges)  # the request's exchanges, in order

        def paths(path: FieldPath) -> FieldPath:
            return exchange_paths_from_wire(hand_paths_from_wire(path), seats)

        response = self._call(self._leaves().PlayLeavesDeal, request, timeout, paths)
        return leaves_result_from_wire(response, deal, carried_pot)

    def leaves_session(
        self,
        deals: Sequence[tuple[LeavesDeal, Choices | None]],
        *,
        carried_pot: int = 0,
        timeout: float | None = None,
    ) -> SessionResult:
        """Deals in order with one ``PlayLeavesDeal`` each, the pot carried over (TL-6), as
        ``play_session``."""

        def play(deal: LeavesDeal, choices: Choices | None, pot: int) -> LeavesDealResult:
            return self.leaves_play(deal, choices, carried_pot=pot, timeout=timeout)

        return play_session(deals, carried_pot=carried_pot, play=play)

    def leaves_advise(
        self,
        hand: CardsLike,
        trump_card: Card | str,
        rules: ThreeLeavesRules | str | None = None,
        *,
        position: int = 1,
        samples: int = DEFAULT_LEAVES_SAMPLES,
        seed: int = 0,
        carried_pot: int = 0,
        odds: bool = True,
        tricks: bool = True,
        exchange: bool = False,
        timeout: float | None = None,
        **overrides: Any,
    ) -> HandAdvice:
        """Odds and exchange advice with ``AdviseLeaves``, as ``advise_hand`` (the position,
        ``samples``, ``seed`` and ``carried_pot`` are checked here with the library's bounds,
        ``check_advice_limits``: the same errors as in-process)."""
        from cpsolver.v1 import three_leaves_pb2
        from cpsolver.wire.three_leaves import hand_advice_from_wire

        resolved = ThreeLeavesRules.resolve(rules, **overrides)
        check_leaves_advice(
            position=position, rules=resolved, samples=samples, seed=seed, carried_pot=carried_pot
        )
        held = parse_cards(hand, deck=resolved.card_deck, count=3, field="hand")
        turned = (
            trump_card
            if isinstance(trump_card, Card)
            else parse_card(trump_card, deck=resolved.card_deck, field="trump_card")
        )
        request = three_leaves_pb2.AdviseLeavesRequest(
            rules=rules_to_wire(resolved, three_leaves_pb2.ThreeLeavesRules),
            hand=cards_to_wire(held),
            trump_card=card_to_wire(turned),
            position=position,
            samples=samples,
            seed=seed,
            exchange=exchange,
            carried_pot=carried_pot,
            skip_odds=not odds,
            skip_tricks=not tricks,
        )
        response = self._call(self._leaves().AdviseLeaves, request, timeout)
        return hand_advice_from_wire(response, turned.suit, position, exchange=exchange)

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


def _plain_status(code: grpc.StatusCode, details: str) -> Any:
    from google.rpc import status_pb2

    return status_pb2.Status(code=code.value[0], message=details)
