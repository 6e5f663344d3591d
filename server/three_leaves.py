"""``cpsolver.v1.ThreeLeavesService``: adapters from the wire to ``solver.three_leaves``.

No game logic: every method converts the request with :mod:`server.convert`, calls the library
and converts the result back; library exceptions propagate to the error interceptor.
"""

from __future__ import annotations

import grpc

from cpsolver.v1 import cards_pb2
from cpsolver.v1 import three_leaves_pb2 as pb
from cpsolver.v1 import three_leaves_pb2_grpc as pb_grpc
from server.convert import (
    card_to_wire,
    cards_from_wire,
    cards_to_wire,
    rules_from_wire,
    suit_from_wire,
)
from server.services import Service, ServiceLimits
from solver.cards import Card, parse_cards
from solver.errors import InvalidInputError
from solver.evaluator.khlyust import KhlyustClass, KhlyustValue, evaluate_khlyust
from solver.rules import ThreeLeavesRules
from solver.three_leaves import (
    Choices,
    Deal,
    Estimate,
    Exchange,
    ExchangeAction,
    ExchangeOption,
    exchange_advice,
    khlyust_odds,
    legal_plays,
    play_deal,
    trick_odds,
)
from solver.tricks import Trick

__all__ = ["SERVICE", "ThreeLeavesServicer"]

_CLASSES = {
    KhlyustClass.NONE: pb.KHLYUST_CLASS_NONE,
    KhlyustClass.PLAIN: pb.KHLYUST_CLASS_PLAIN,
    KhlyustClass.TRIPS: pb.KHLYUST_CLASS_THREE_OF_A_RANK,
    KhlyustClass.TRUMP: pb.KHLYUST_CLASS_TRUMP,
}
_ACTIONS = {
    pb.LeavesExchange.ACTION_UNSPECIFIED: ExchangeAction.PLAY,
    pb.LeavesExchange.ACTION_PLAY: ExchangeAction.PLAY,
    pb.LeavesExchange.ACTION_PASS: ExchangeAction.PASS,
    pb.LeavesExchange.ACTION_DRAW: ExchangeAction.DRAW,
}
_OUTCOMES = {
    "khlyust": pb.LEAVES_OUTCOME_KHLYUST,
    "playout": pb.LEAVES_OUTCOME_PLAYOUT,
    "tricks": pb.LEAVES_OUTCOME_TRICKS,
}
DEFAULT_SAMPLES = 400
MAX_SAMPLES = 20_000


def _one_card(card: cards_pb2.Card, field: str, present: bool) -> Card:
    if not present:
        raise InvalidInputError(field, "is required")
    return cards_from_wire([card], field)[0]


def _rules(request: object) -> ThreeLeavesRules:
    return rules_from_wire(request.rules, ThreeLeavesRules)  # type: ignore[attr-defined]


def khlyust_to_wire(value: KhlyustValue, position: int = 0) -> pb.Khlyust:
    """The Khlyust message of a judged hand."""
    return pb.Khlyust(
        cards=cards_to_wire(value.cards),
        khlyust_class=_CLASSES[value.khlyust_class],
        points=value.points,
        top=int(value.top),  # type: ignore[arg-type]
        key=list(value.order_key(position)),
    )


def _estimate(e: Estimate) -> pb.LeavesEstimate:
    return pb.LeavesEstimate(value=e.value, low=e.low, high=e.high, exact=e.exact)


class ThreeLeavesServicer(pb_grpc.ThreeLeavesServiceServicer):
    """Three Leaves over gRPC (RULES.md §4)."""

    def __init__(self, limits: ServiceLimits) -> None:
        self._limits = limits

    def EvaluateKhlyust(
        self, request: pb.EvaluateKhlyustRequest, context: grpc.ServicerContext
    ) -> pb.EvaluateKhlyustResponse:
        rules = _rules(request)
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
        rules = _rules(request)
        hand = parse_cards(
            cards_from_wire(request.hand, "hand"),
            deck=rules.card_deck,
            count=(1, 2, 3),
            field="hand",
        )
        trump = suit_from_wire(request.trump, "trump")
        trick = Trick(trump, 0)
        for i, p in enumerate(request.trick, start=1):
            card = _one_card(p.card, f"trick[{i}].card", p.HasField("card"))
            if card in hand:
                raise InvalidInputError(f"trick[{i}].card", f"{card} is in the hand too")
            trick = trick.play(i - 1, card, face_down=p.face_down)
        seat = len(request.trick)
        plays = legal_plays(hand, trick.led_suit, trump, rules=rules, seat=seat)
        out = []
        for p in plays:
            heads = (
                bool(request.trick)
                and trick.play(seat, p.card, face_down=p.face_down).winner == seat
            )
            out.append(
                pb.LegalLeafPlay(
                    play=pb.LeafPlay(seat=seat, card=card_to_wire(p.card), face_down=p.face_down),
                    heads_trick=heads,
                )
            )
        return pb.ListLegalLeafPlaysResponse(plays=out)

    def PlayLeavesDeal(
        self, request: pb.PlayLeavesDealRequest, context: grpc.ServicerContext
    ) -> pb.PlayLeavesDealResponse:
        players_set = request.rules.HasField("players")
        rules = _rules(request)
        if not players_set:
            rules = rules.replace(players=len(request.hands))
        hands = [cards_from_wire(h.cards, f"hands[{i}]") for i, h in enumerate(request.hands, 1)]
        deal = Deal.of(
            hands,
            _one_card(request.trump_card, "trump_card", request.HasField("trump_card")),
            cards_from_wire(request.stock, "stock"),
            dealer=request.dealer if request.HasField("dealer") else None,
            rules=rules,
        )
        exchanges: dict[int, Exchange] = {}
        for i, ex in enumerate(request.exchanges, start=1):
            action = _ACTIONS.get(ex.action)
            if action is None:
                raise InvalidInputError(f"exchanges[{i}].action", f"unknown value {ex.action}")
            discard = cards_from_wire(ex.discard, f"exchanges[{i}].discard")
            if (action is ExchangeAction.DRAW) != bool(discard):
                raise InvalidInputError(
                    f"exchanges[{i}].discard", "list 1 to 3 cards exactly when drawing"
                )
            exchanges[ex.seat] = Exchange(action, discard)
        plays = []
        for i, p in enumerate(request.plays, start=1):
            plays.append((_one_card(p.card, f"plays[{i}].card", p.HasField("card")), p.face_down))
        picks = cards_from_wire(request.picks, "picks") or None
        if request.carried_pot < 0:
            raise InvalidInputError("carried_pot", f"must be 0 or more, got {request.carried_pot}")
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
        claim = result.khlyust
        return pb.PlayLeavesDealResponse(
            outcome=_OUTCOMES[result.outcome.value],
            khlyust_seat=-1 if claim is None else claim.seat,
            khlyust=None if claim is None else khlyust_to_wire(claim.value, claim.turn_position),
            tricks=[
                pb.LeavesTrick(
                    leader=t.leader,
                    winner=t.winner,
                    plays=[
                        pb.LeafPlay(seat=p.seat, card=card_to_wire(p.card), face_down=p.face_down)
                        for p in t.plays
                    ],
                )
                for t in result.tricks
            ],
            trick_counts=list(result.trick_counts),
            in_deal=list(result.in_deal),
            pot_before=result.pot_before,
            pot_taken=list(result.pot_taken),
            pot_after=result.pot_after,
            payments=[
                pb.LeavesPayment(
                    payer=p.payer,
                    payee=p.payee,
                    amount=p.amount,
                    reason=p.reason,
                    card=None if p.card is None else card_to_wire(p.card),
                )
                for p in result.payments
            ],
            net=list(result.net),
            notes=list(result.notes),
        )

    def AdviseLeaves(
        self, request: pb.AdviseLeavesRequest, context: grpc.ServicerContext
    ) -> pb.AdviseLeavesResponse:
        rules = _rules(request)
        hand = cards_from_wire(request.hand, "hand")
        turned = _one_card(request.trump_card, "trump_card", request.HasField("trump_card"))
        samples = request.samples or DEFAULT_SAMPLES
        if not 2 <= samples <= MAX_SAMPLES:
            raise InvalidInputError("samples", f"must be 2 to {MAX_SAMPLES}, got {samples}")
        odds = khlyust_odds(hand, turned, position=request.position, rules=rules)
        tricks = trick_odds(
            hand,
            turned,
            position=request.position,
            rules=rules,
            samples=samples,
            seed=request.seed,
        )
        options: tuple[ExchangeOption, ...] = ()
        if request.exchange:
            options = exchange_advice(
                hand,
                turned,
                position=request.position,
                rules=rules,
                carried_pot=request.carried_pot,
                samples=samples,
                seed=request.seed,
            )
        return pb.AdviseLeavesResponse(
            hand=khlyust_to_wire(odds.hand, request.position),
            holding=odds.holding,
            facing_any=odds.facing_any,
            beaten=odds.beaten,
            three_tricks=_estimate(tricks.three_tricks),
            two_or_more=_estimate(tricks.two_or_more),
            trick_method=tricks.method,
            exchange_options=[
                pb.LeavesExchangeOption(
                    action=o.action,
                    discard=cards_to_wire(o.discard),
                    expected_money=_estimate(o.expected_money),
                    three_tricks=_estimate(o.three_tricks),
                )
                for o in options
            ],
        )


SERVICE = Service(
    name=pb.DESCRIPTOR.services_by_name["ThreeLeavesService"].full_name,
    add_to_server=pb_grpc.add_ThreeLeavesServiceServicer_to_server,
    make_servicer=ThreeLeavesServicer,
)
