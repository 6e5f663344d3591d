"""``cpsolver.v1.ChlustService``: adapters from the wire to ``cpsolver.chlust`` (no game logic).

Every method converts the request with :mod:`cpsolver.wire.chlust`, calls the library and
converts the result back. Library exceptions propagate to the error interceptor
(INVALID_ARGUMENT with field violations; an illegal play names rule CH-8 in its description).
The work caps (samples, exact_limit, seeds) are the library's: ``showdown_odds`` and
``advise_play`` check them (``cpsolver.chlust.advice``), in-process too.
"""

from __future__ import annotations

import grpc

from cpsolver.cards import Card, parse_cards
from cpsolver.chlust import (
    Bidding,
    Deal,
    advise_play,
    deal,
    exchange_seat,
    legal_cards,
    parse_hands,
    play_deal,
    showdown,
    showdown_odds,
)
from cpsolver.chlust.advice import (
    DEFAULT_ADVICE_SAMPLES,
    DEFAULT_EXACT_LIMIT,
    DEFAULT_ODDS_SAMPLES,
    check_advice_limits,
)
from cpsolver.errors import FieldPath, InvalidInputError
from cpsolver.evaluator.chlust import evaluate_set
from cpsolver.rules import ChlustRules
from cpsolver.server.services import Service, ServiceLimits
from cpsolver.tricks import Trick
from cpsolver.v1 import chlust_pb2 as pb
from cpsolver.v1 import chlust_pb2_grpc as pb_grpc
from cpsolver.wire.cards import (
    card_to_wire,
    cards_from_wire,
    cards_to_wire,
    hand_paths_to_wire,
    suit_from_wire,
)
from cpsolver.wire.chlust import (
    advice_to_wire,
    bidding_to_wire,
    deal_result_to_wire,
    deal_to_wire,
    hands_from_wire,
    odds_to_wire,
    set_to_wire,
    showdown_to_wire,
    turned_from_wire,
)
from cpsolver.wire.rules import rules_from_wire
from cpsolver.wire.status import paths_moved

__all__ = ["SERVICE", "ChlustServicer"]


class ChlustServicer(pb_grpc.ChlustServiceServicer):
    """Chlust over gRPC (RULES.md §3)."""

    def __init__(self, limits: ServiceLimits) -> None:
        self._limits = limits

    def EvaluateSet(
        self, request: pb.EvaluateSetRequest, context: grpc.ServicerContext
    ) -> pb.EvaluateSetResponse:
        rules = rules_from_wire(request.rules, ChlustRules)
        cards = cards_from_wire(request.cards, "cards")
        trump = suit_from_wire(request.trump, "trump")
        value = evaluate_set(cards, trump, rules, turned=turned_from_wire(request))
        return pb.EvaluateSetResponse(set=set_to_wire(value))

    def Showdown(
        self, request: pb.ShowdownRequest, context: grpc.ServicerContext
    ) -> pb.ShowdownResponse:
        rules = rules_from_wire(request.rules, ChlustRules)
        hands = hands_from_wire(request.hands)
        trump = suit_from_wire(request.trump, "trump")
        turned = turned_from_wire(request)
        with paths_moved(hand_paths_to_wire):
            result = showdown(hands, trump, rules, turned=turned)
        return showdown_to_wire(result)

    def LegalPlays(
        self, request: pb.LegalPlaysRequest, context: grpc.ServicerContext
    ) -> pb.LegalPlaysResponse:
        rules = rules_from_wire(request.rules, ChlustRules)
        hand = cards_from_wire(request.hand, "hand")
        played = cards_from_wire(request.trick, "trick")
        trump = suit_from_wire(request.trump, "trump")
        on_trick = parse_cards(played, deck=rules.card_deck, count=(0, 1, 2, 3), field="trick")
        legal = legal_cards(hand, Trick.of(trump, 0, on_trick), rules)
        return pb.LegalPlaysResponse(legal=cards_to_wire(legal))

    def PlayDeal(
        self, request: pb.PlayDealRequest, context: grpc.ServicerContext
    ) -> pb.PlayDealResponse:
        rules = rules_from_wire(request.rules, ChlustRules)
        folded = list(request.folded)
        hands: list[tuple[Card, ...] | None] = list(hands_from_wire(request.hands))
        for seat in folded:
            if 0 <= seat < len(hands) and not hands[seat]:
                hands[seat] = None
        plays = cards_from_wire(request.plays, "plays")
        trump = suit_from_wire(request.trump, "trump")
        turned = turned_from_wire(request)
        with paths_moved(hand_paths_to_wire):
            result = play_deal(
                hands, trump, plays, rules, dealer=request.dealer, folded=folded, turned=turned
            )
        return deal_result_to_wire(result)

    def ShowdownOdds(
        self, request: pb.ShowdownOddsRequest, context: grpc.ServicerContext
    ) -> pb.ShowdownOddsResponse:
        rules = rules_from_wire(request.rules, ChlustRules)
        hand = cards_from_wire(request.hand, "hand")
        dead = cards_from_wire(request.dead, "dead")
        trump = suit_from_wire(request.trump, "trump")
        samples = request.samples if request.HasField("samples") else DEFAULT_ODDS_SAMPLES
        exact_limit = (
            request.exact_limit if request.HasField("exact_limit") else DEFAULT_EXACT_LIMIT
        )
        odds = showdown_odds(
            hand,
            trump,
            rules,
            opponents=request.opponents,
            turned=turned_from_wire(request),
            dead=dead,
            exact_limit=exact_limit,
            samples=samples,
            seed=request.seed if request.HasField("seed") else 0,
        )
        return odds_to_wire(odds)

    def Exchange(
        self, request: pb.ExchangeRequest, context: grpc.ServicerContext
    ) -> pb.ExchangeResponse:
        rules = rules_from_wire(request.rules, ChlustRules)
        given = hands_from_wire(request.hands)
        if not request.HasField("turned"):
            raise InvalidInputError("turned", "the turned card is required")
        turned = cards_from_wire([request.turned], "turned")[0]
        with paths_moved(hand_paths_to_wire):
            parsed = parse_hands(given, rules, exclude=(turned,))
        seat = exchange_seat(parsed, turned, rules)
        dealt = Deal(parsed, turned, 0, ())
        after = dealt if seat is None else dealt.exchange(seat, rules)
        return pb.ExchangeResponse(
            seat=seat,
            hands=[pb.ChlustHand(cards=cards_to_wire(h)) for h in after.hands],
            turned=card_to_wire(after.turned),
        )

    def Bid(self, request: pb.BidRequest, context: grpc.ServicerContext) -> pb.BidResponse:
        rules = rules_from_wire(request.rules, ChlustRules)
        bidding = Bidding(request.players or None, rules, dealer=request.dealer)
        for i, action in enumerate(request.actions):
            name = pb.BidAction.Name(action) if action in pb.BidAction.values() else None
            if action == 0 or name is None:
                raise InvalidInputError(("actions", i), f"unknown or unset action {action}")
            try:
                bidding.act(name.removeprefix("BID_ACTION_").lower())
            except InvalidInputError as exc:
                raise exc.prefixed(("actions", i)) from None
        return bidding_to_wire(bidding.state())

    def AdvisePlay(
        self, request: pb.AdvisePlayRequest, context: grpc.ServicerContext
    ) -> pb.AdvisePlayResponse:
        rules = rules_from_wire(request.rules, ChlustRules)
        hand = cards_from_wire(request.hand, "hand")
        trump = suit_from_wire(request.trump, "trump")
        seats = list(request.seats)
        samples = request.samples if request.HasField("samples") else DEFAULT_ADVICE_SAMPLES
        seed = request.seed if request.HasField("seed") else 0
        # before the tricks are read, as in-process
        check_advice_limits(samples=samples, seed=seed, seat=request.seat, seats=seats)

        def trick_of(record: pb.TrickRecord, field: FieldPath) -> Trick:
            cards = cards_from_wire(record.cards, (*field, "cards"))
            if record.leader not in seats:
                raise InvalidInputError((*field, "leader"), f"expected one of the seats {seats}")
            start = seats.index(record.leader)
            order = seats[start:] + seats[:start]
            if len(cards) > len(order):
                raise InvalidInputError((*field, "cards"), "more cards than seats")
            return Trick.of(trump, record.leader, cards, seats=order[: len(cards)])

        history = [trick_of(t, ("history", i)) for i, t in enumerate(request.history)]
        if request.HasField("trick"):
            trick = trick_of(request.trick, ("trick",))
        else:
            trick = Trick(trump, history[-1].winner if history else request.seat)
        advice = advise_play(
            hand,
            trick,
            rules,
            seat=request.seat,
            seats=seats,
            history=history,
            turned=turned_from_wire(request),
            samples=samples,
            seed=seed,
        )
        return advice_to_wire(advice)

    def DealHands(
        self, request: pb.DealHandsRequest, context: grpc.ServicerContext
    ) -> pb.DealHandsResponse:
        rules = rules_from_wire(request.rules, ChlustRules)
        dealt = deal(request.seed, rules, players=request.players or None, dealer=request.dealer)
        return deal_to_wire(dealt, dealt.exchange_seat(rules))


SERVICE = Service(
    name=pb.DESCRIPTOR.services_by_name["ChlustService"].full_name,
    add_to_server=pb_grpc.add_ChlustServiceServicer_to_server,
    make_servicer=ChlustServicer,
)
