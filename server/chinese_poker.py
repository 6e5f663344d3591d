"""``cpsolver.v1.ChinesePokerService``: adapters from the wire to ``solver`` (no game logic).

Every method converts the request with :mod:`cpsolver.wire.chinese_poker`, calls the library
and converts the result back. Library exceptions propagate; :class:`.interceptors.ErrorInterceptor`
maps them to statuses (``BatchSolve`` maps them per item with the same function).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

import grpc

from cpsolver.cards import Card, parse_cards
from cpsolver.chinese import solve
from cpsolver.chinese.deal import check_deal_request, deals
from cpsolver.chinese.estimator import resolve_count, resolve_estimator
from cpsolver.chinese.objectives import DEFAULT_OBJECTIVE
from cpsolver.chinese.rate import rate
from cpsolver.chinese.scoring import check_arrangement, score
from cpsolver.errors import CpsolverError, InvalidInputError, Violations
from cpsolver.evaluator.poker import evaluate
from cpsolver.rules import ChineseRules
from cpsolver.server.interceptors import status_of
from cpsolver.server.services import Service, ServiceLimits
from cpsolver.v1 import chinese_poker_pb2 as pb
from cpsolver.v1 import chinese_poker_pb2_grpc as pb_grpc
from cpsolver.wire.cards import cards_from_wire
from cpsolver.wire.chinese_poker import (
    MAX_DEALS,
    arrangement_check_to_wire,
    constraints_from_wire,
    deal_to_wire,
    engine_from_wire,
    hand_to_wire,
    player_paths_to_wire,
    players_from_wire,
    rate_paths_to_wire,
    rating_to_wire,
    solution_to_wire,
    table_to_wire,
)
from cpsolver.wire.rules import enum_value_name, rules_from_wire
from cpsolver.wire.status import OK_STATUS, RequestTooLargeError, paths_moved

__all__ = ["SERVICE", "ChinesePokerServicer"]

_OBJECTIVE_FIELD = pb.SolveRequest.DESCRIPTOR.fields_by_name["objective"]


def _seconds_left(context: grpc.ServicerContext) -> float | None:
    """Seconds until the call's deadline (None without one)."""
    remaining = context.time_remaining()
    return None if remaining is None else max(float(remaining), 0.0)


class ChinesePokerServicer(pb_grpc.ChinesePokerServiceServicer):
    """Chinese poker over gRPC (RULES.md §2)."""

    def __init__(self, limits: ServiceLimits) -> None:
        self._limits = limits

    def _solve(self, request: pb.SolveRequest, context: grpc.ServicerContext) -> pb.SolveResponse:
        found = Violations()  # every violation of the request in one reply (issue 27, D5)
        with found.check():
            rules = rules_from_wire(request.rules, ChineseRules)
        cards: tuple[Card, ...] = ()
        with found.check():
            cards = cards_from_wire(request.cards, "cards")
        with found.check():
            objective = enum_value_name(request, _OBJECTIVE_FIELD, request.objective)
        # The deprecated fields name the same two things; a request naming one twice is
        # refused with a violation for each field (cpsolver.chinese.estimator).
        with found.check():
            estimator = resolve_estimator(
                request.estimator or None,
                rollouts=request.rollouts,
                calibrated=request.calibrated,
                budget_ms=request.budget_ms,
                warn=False,
            )
        with found.check():
            count = resolve_count(
                request.arrangements or None,
                alternatives=request.top_k,
                warn=False,
                alternatives_name="top_k",
            )
            if count - 1 > self._limits.max_top_k:
                raise InvalidInputError(
                    "arrangements",
                    f"this server returns at most {self._limits.max_top_k + 1} arrangements, "
                    f"got {count}",
                )
        with found.check():
            constraints = constraints_from_wire(request.constraints)
        with found.check():
            engine = engine_from_wire(request.engine)
        if found:  # solve will not run: its check of the readable cards joins the others
            with found.check():
                parse_cards(cards)
        found.raise_any()
        solution = solve(
            cards,
            rules,
            objective or DEFAULT_OBJECTIVE,
            estimator=estimator,
            arrangements=count,
            seed=request.seed,
            constraints=constraints,
            engine=engine,
            # The caller's deadline: a budget never spends more than half the time left
            # (cpsolver.chinese.estimator.budget_mode), and rollouts stop when it comes, so
            # the answer still arrives in time and the worker is free again.
            deadline=_seconds_left(context),
        )
        return solution_to_wire(solution)

    def Solve(self, request: pb.SolveRequest, context: grpc.ServicerContext) -> pb.SolveResponse:
        return self._solve(request, context)

    def BatchSolve(
        self, request: pb.BatchSolveRequest, context: grpc.ServicerContext
    ) -> Iterator[pb.BatchSolveResponse]:
        count = len(request.requests)
        cap = self._limits.max_batch
        if count > cap:
            raise RequestTooLargeError(
                "requests", f"at most {cap} hands per batch, got {count}", limit=cap
            )
        for index, item in enumerate(request.requests):
            if not context.is_active():
                return  # cancelled or past the deadline: stop working
            try:
                yield pb.BatchSolveResponse(
                    index=index, status=OK_STATUS, response=self._solve(item, context)
                )
            except CpsolverError as exc:
                yield pb.BatchSolveResponse(index=index, status=status_of(exc))

    def ValidateArrangement(
        self, request: pb.ValidateArrangementRequest, context: grpc.ServicerContext
    ) -> pb.ValidateArrangementResponse:
        rules = rules_from_wire(request.rules, ChineseRules)
        wire = request.arrangement
        rows = {
            name: cards_from_wire(getattr(wire, name), f"arrangement.{name}")
            for name in ("back", "middle", "front")
        }
        try:
            seat = check_arrangement(rows["back"], rows["middle"], rows["front"], rules)
        except InvalidInputError as exc:
            raise exc.prefixed("arrangement") from exc
        return arrangement_check_to_wire(seat)

    def RateArrangement(
        self, request: pb.RateArrangementRequest, context: grpc.ServicerContext
    ) -> pb.RateArrangementResponse:
        rules = rules_from_wire(request.rules, ChineseRules)
        played: object
        if request.WhichOneof("play") == "natural":
            played = {"cards": cards_from_wire(request.natural.cards, "natural.cards"),
                      "natural": True}  # fmt: skip
        elif request.WhichOneof("play") == "arrangement":
            wire = request.arrangement
            played = {
                name: cards_from_wire(getattr(wire, name), f"arrangement.{name}")
                for name in ("back", "middle", "front")
            }
        else:
            raise InvalidInputError("arrangement", "required: the rows played, or a natural")
        with paths_moved(rate_paths_to_wire):
            rating = rate(
                played,
                rules,
                estimator=request.estimator or None,
                arrangements=request.arrangements or None,
                seed=request.seed,
                deadline=_seconds_left(context),
            )
        return rating_to_wire(rating)

    def ScoreTable(
        self, request: pb.ScoreTableRequest, context: grpc.ServicerContext
    ) -> pb.ScoreTableResponse:
        rules = rules_from_wire(request.rules, ChineseRules)
        seats = [p.seat for p in request.players]
        with paths_moved(lambda path: player_paths_to_wire(path, seats)):
            table = score(players_from_wire(request.players), rules)
        return table_to_wire(table)

    def EvaluateHand(
        self, request: pb.EvaluateHandRequest, context: grpc.ServicerContext
    ) -> pb.EvaluateHandResponse:
        rules = rules_from_wire(request.rules, ChineseRules)
        cards = cards_from_wire(request.cards, "cards")
        hand = evaluate(cards, wheel_second_highest=rules.wheel_second_highest)
        return pb.EvaluateHandResponse(hand=hand_to_wire(hand))

    def DealTables(
        self, request: pb.DealTablesRequest, context: grpc.ServicerContext
    ) -> pb.DealTablesResponse:
        players = request.players or 4
        count = request.count or 1
        check_deal_request(request.seed, players, count)
        if count > MAX_DEALS:
            raise RequestTooLargeError(
                "count", f"at most {MAX_DEALS:,} deals per request, got {count:,}", limit=MAX_DEALS
            )
        dealt = deals(request.seed, players, count)
        return pb.DealTablesResponse(tables=[deal_to_wire(d) for d in dealt])


def _solve_class(request: pb.SolveRequest) -> Hashable:
    """What a ``Solve``'s work depends on (the admission control learns a cost per class):
    the objective, the estimate and the count asked for, the engine, constraints or not."""
    return (
        request.objective,
        request.estimator,
        request.rollouts,
        request.calibrated,
        request.budget_ms,
        request.engine,
        request.arrangements or request.top_k,
        request.HasField("constraints"),
    )


def _solve_cost_class(body: bytes) -> Hashable:
    return _solve_class(pb.SolveRequest.FromString(body))


def _batch_cost_class(body: bytes) -> Hashable:
    # A batch costs its hands times a hand's cost: classed by its size's power of two and
    # its first hand's class (a batch's hands are usually asked alike).
    request = pb.BatchSolveRequest.FromString(body)
    first = _solve_class(request.requests[0]) if request.requests else None
    return (len(request.requests).bit_length(), first)


SERVICE = Service(
    name=pb.DESCRIPTOR.services_by_name["ChinesePokerService"].full_name,
    add_to_server=pb_grpc.add_ChinesePokerServiceServicer_to_server,
    make_servicer=ChinesePokerServicer,
    cost_classes={"Solve": _solve_cost_class, "BatchSolve": _batch_cost_class},
)
