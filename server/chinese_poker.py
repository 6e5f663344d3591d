"""``cpsolver.v1.ChinesePokerService``: adapters from the wire to ``solver`` (no game logic).

Every method converts the request with :mod:`server.convert`, calls the library and converts
the result back. Library exceptions propagate; :class:`server.interceptors.ErrorInterceptor`
maps them to statuses (``BatchSolve`` maps them per item with the same function).
"""

from __future__ import annotations

import grpc

from cpsolver.v1 import chinese_poker_pb2 as pb
from cpsolver.v1 import chinese_poker_pb2_grpc as pb_grpc
from server.convert import cards_from_wire, hand_to_wire, rules_from_wire
from server.services import Service, ServiceLimits
from solver.evaluator.poker import evaluate
from solver.rules import ChineseRules

__all__ = ["SERVICE", "ChinesePokerServicer"]


class ChinesePokerServicer(pb_grpc.ChinesePokerServiceServicer):
    """Chinese poker over gRPC (RULES.md §2)."""

    def __init__(self, limits: ServiceLimits) -> None:
        self._limits = limits

    def EvaluateHand(
        self, request: pb.EvaluateHandRequest, context: grpc.ServicerContext
    ) -> pb.EvaluateHandResponse:
        rules = rules_from_wire(request.rules, ChineseRules)
        cards = cards_from_wire(request.cards, "cards")
        hand = evaluate(cards, wheel_second_highest=rules.wheel_second_highest)
        return pb.EvaluateHandResponse(hand=hand_to_wire(hand))


SERVICE = Service(
    name=pb.DESCRIPTOR.services_by_name["ChinesePokerService"].full_name,
    add_to_server=pb_grpc.add_ChinesePokerServiceServicer_to_server,
    make_servicer=ChinesePokerServicer,
)
