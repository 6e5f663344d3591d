"""``cpsolver.v1.ThreeLeavesService``: adapters from the wire to ``cpsolver.three_leaves``.

No game logic: every method converts the request with :mod:`cpsolver.wire.three_leaves`, calls
the library and converts the result back; library exceptions propagate to the error
interceptor. The caps (samples, seeds, carried pot) are the library's: ``advise_hand`` and
``play_deal`` check them (``cpsolver.three_leaves.advice.check_advice_limits``,
``deal.check_play_limits``), in-process too.
"""

from __future__ import annotations

import grpc

from cpsolver.errors import Field, InvalidInputError
from cpsolver.evaluator.khlyust import evaluate_khlyust
from cpsolver.server.services import Service, ServiceLimits
from cpsolver.three_leaves import (
    Choices,
    Exchange,
    ExchangeAction,
    advise_hand,
    best_khlyust,
    deal,
    leaf_trick,
    legal_on_trick,
    play_deal,
)
from cpsolver.three_leaves.advice import DEFAULT_SAMPLES  # an unset AdviseLeavesRequest.samples
from cpsolver.three_leaves.deal import read_exchanges
from cpsolver.v1 import three_leaves_pb2 as pb
from cpsolver.v1 import three_leaves_pb2_grpc as pb_grpc
from cpsolver.wire.cards import cards_from_wire, hand_paths_to_wire, suit_from_wire
from cpsolver.wire.status import paths_moved
from cpsolver.wire.three_leaves import (
    claim_to_wire,
    deal_from_request,
    deal_to_wire,
    exchange_action_from_wire,
    exchange_paths_to_wire,
    hand_advice_to_wire,
    khlyust_to_wire,
    leaves_result_to_wire,
    legal_to_wire,
    required_card_from_wire,
    rules_of,
)

__all__ = ["SERVICE", "ThreeLeavesServicer"]


class ThreeLeavesServicer(pb_grpc.ThreeLeavesServiceServicer):
    """Three Leaves over gRPC (RULES.md §4)."""

    def __init__(self, limits: ServiceLimits) -> None:
        self._limits = limits

    def EvaluateKhlyust(
        self, request: pb.EvaluateKhlyustRequest, context: grpc.ServicerContext
    ) -> pb.EvaluateKhlyustResponse:
        rules = rules_of(request)
        # Checked before any work: the key carries -position, which must stay an int32.
        if not 0 <= request.position < rules.players:
            raise InvalidInputError(
                "position", f"must be 0 to {rules.players - 1}, got {request.position}"
            )
        cards = cards_from_wire(request.cards, "cards")
        value = evaluate_khlyust(
            cards,
            suit_from_wire(request.trump, "trump"),
            deck=rules.card_deck,
            class_ranking=rules.class_ranking,
        )
        return pb.EvaluateKhlyustResponse(khlyust=khlyust_to_wire(value, request.position))

    def ListLegalLeafPlays(
        self, request: pb.ListLegalLeafPlaysRequest, context: grpc.ServicerContext
    ) -> pb.ListLegalLeafPlaysResponse:
        rules = rules_of(request)
        trump = suit_from_wire(request.trump, "trump")
        plays = [
            (required_card_from_wire(p.card, ("trick", i, "card"), p.HasField("card")), p.face_down)
            for i, p in enumerate(request.trick)
        ]
        # The library checks the hand and the trick (no card in both), as in-process.
        hand, trick = leaf_trick(cards_from_wire(request.hand, "hand"), trump, plays, rules=rules)
        return legal_to_wire(legal_on_trick(hand, trick, rules=rules))

    def PlayLeavesDeal(
        self, request: pb.PlayLeavesDealRequest, context: grpc.ServicerContext
    ) -> pb.PlayLeavesDealResponse:
        with paths_moved(hand_paths_to_wire):
            deal = deal_from_request(request)
        given: list[tuple[Field, int, Exchange]] = []
        for i, ex in enumerate(request.exchanges):
            action = exchange_action_from_wire(ex.action)
            if action is None:
                raise InvalidInputError(("exchanges", i, "action"), f"unknown value {ex.action}")
            discard = cards_from_wire(ex.discard, ("exchanges", i, "discard"))
            if (action is ExchangeAction.DRAW) != bool(discard):
                raise InvalidInputError(
                    ("exchanges", i, "discard"), "list 1 to 3 cards exactly when drawing"
                )
            given.append((("exchanges", i), ex.seat, Exchange(action, discard)))
        # The library reads them by seat, refusing a seat listed twice (the wire's list can
        # hold one; a mapping by seat cannot, and the last one silently won)
        exchanges = read_exchanges(given, rules=deal.rules)
        plays = []
        for i, p in enumerate(request.plays):
            plays.append(
                (
                    required_card_from_wire(p.card, ("plays", i, "card"), p.HasField("card")),
                    p.face_down,
                )
            )
        picks = cards_from_wire(request.picks, "picks") or None
        seats = [ex.seat for ex in request.exchanges]
        with paths_moved(lambda path: exchange_paths_to_wire(path, seats)):
            result = play_deal(
                deal,
                Choices(
                    exchanges=exchanges,
                    demand_playout=request.demand_playout,
                    picks=picks,
                    plays=tuple(plays),
                    seed=request.seed,
                ),
                carried_pot=request.carried_pot,
            )
        return leaves_result_to_wire(result)

    def AdviseLeaves(
        self, request: pb.AdviseLeavesRequest, context: grpc.ServicerContext
    ) -> pb.AdviseLeavesResponse:
        rules = rules_of(request)
        hand = cards_from_wire(request.hand, "hand")
        turned = required_card_from_wire(
            request.trump_card, "trump_card", request.HasField("trump_card")
        )
        samples = request.samples or DEFAULT_SAMPLES
        advice = advise_hand(
            hand,
            turned,
            position=request.position,
            rules=rules,
            samples=samples,
            seed=request.seed,
            carried_pot=request.carried_pot,
            odds=not request.skip_odds,
            tricks=not request.skip_tricks,
            exchange=request.exchange,
        )
        return hand_advice_to_wire(advice, request.position)

    def ResolveLeavesDeal(
        self, request: pb.ResolveLeavesDealRequest, context: grpc.ServicerContext
    ) -> pb.ResolveLeavesDealResponse:
        with paths_moved(hand_paths_to_wire):
            deal = deal_from_request(request)
        best, found = best_khlyust(deal.hands, deal.trump, deal.dealer, deal.players, deal.rules)
        return pb.ResolveLeavesDealResponse(
            khlyusts=[claim_to_wire(c) for c in found],
            winner=None if best is None else best.seat,
            dealer=deal.dealer,
            assistant=deal.assistant,
        )

    def DealLeaves(
        self, request: pb.DealLeavesRequest, context: grpc.ServicerContext
    ) -> pb.DealLeavesResponse:
        dealer = request.dealer if request.HasField("dealer") else None
        return deal_to_wire(deal(request.seed, rules_of(request), dealer=dealer))


SERVICE = Service(
    name=pb.DESCRIPTOR.services_by_name["ThreeLeavesService"].full_name,
    add_to_server=pb_grpc.add_ThreeLeavesServiceServicer_to_server,
    make_servicer=ThreeLeavesServicer,
)
