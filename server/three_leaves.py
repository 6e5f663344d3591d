"""``cpsolver.v1.ThreeLeavesService``: adapters from the wire to ``cpsolver.three_leaves``.

No game logic: every method converts the request with :mod:`.convert`, calls the library
and converts the result back; library exceptions propagate to the error interceptor.
"""

from __future__ import annotations

import grpc

from cpsolver.cards import Card, Rank, Suit, parse_cards
from cpsolver.errors import InvalidInputError
from cpsolver.evaluator.khlyust import KhlyustClass, KhlyustValue, evaluate_khlyust
from cpsolver.rules import ThreeLeavesRules
from cpsolver.server.convert import (
    card_from_wire,
    card_to_wire,
    cards_from_wire,
    cards_to_wire,
    rules_from_wire,
    suit_from_wire,
)
from cpsolver.server.services import Service, ServiceLimits
from cpsolver.three_leaves import (
    Choices,
    Deal,
    DealResult,
    Estimate,
    Exchange,
    ExchangeAction,
    ExchangeOption,
    HandAdvice,
    KhlyustClaim,
    KhlyustOdds,
    LegalPlay,
    Outcome,
    Payment,
    TrickOdds,
    advise_hand,
    best_khlyust,
    legal_on_trick,
    play_deal,
)
from cpsolver.three_leaves.advice import DEFAULT_SAMPLES  # an unset AdviseLeavesRequest.samples
from cpsolver.tricks import Play, Trick
from cpsolver.v1 import cards_pb2
from cpsolver.v1 import three_leaves_pb2 as pb
from cpsolver.v1 import three_leaves_pb2_grpc as pb_grpc

__all__ = [
    "SERVICE",
    "ThreeLeavesServicer",
    "claim_from_wire",
    "claim_to_wire",
    "exchange_to_wire",
    "hand_advice_from_wire",
    "khlyust_from_wire",
    "khlyust_to_wire",
    "leaves_result_from_wire",
    "legal_from_wire",
]

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
_WIRE_ACTIONS = {
    ExchangeAction.PLAY: pb.LeavesExchange.ACTION_PLAY,
    ExchangeAction.PASS: pb.LeavesExchange.ACTION_PASS,
    ExchangeAction.DRAW: pb.LeavesExchange.ACTION_DRAW,
}
# The caps (samples, seeds, carried pot) are the library's: advise_hand and play_deal check
# them (cpsolver.three_leaves.advice.check_advice_limits, game.check_play_limits), in-process too.


def _one_card(card: cards_pb2.Card, field: str, present: bool) -> Card:
    if not present:
        raise InvalidInputError(field, "is required")
    return cards_from_wire([card], field)[0]


def _rules(request: object) -> ThreeLeavesRules:
    return rules_from_wire(request.rules, ThreeLeavesRules)  # type: ignore[attr-defined]


def _deal(request: pb.PlayLeavesDealRequest | pb.ResolveLeavesDealRequest) -> Deal:
    """The deal a PlayLeavesDeal or ResolveLeavesDeal request describes (players: the number
    of hands unless the rules set it)."""
    players_set = request.rules.HasField("players")
    rules = _rules(request)
    if not players_set:
        rules = rules.replace(players=len(request.hands))
    hands = [cards_from_wire(h.cards, f"hands[{i}]") for i, h in enumerate(request.hands, 1)]
    return Deal.of(
        hands,
        _one_card(request.trump_card, "trump_card", request.HasField("trump_card")),
        cards_from_wire(request.stock, "stock"),
        dealer=request.dealer if request.HasField("dealer") else None,
        rules=rules,
    )


def khlyust_to_wire(value: KhlyustValue, position: int = 0) -> pb.Khlyust:
    """The Khlyust message of a judged hand."""
    return pb.Khlyust(
        cards=cards_to_wire(value.cards),
        khlyust_class=_CLASSES[value.khlyust_class],
        points=value.points,
        top=int(value.top),  # type: ignore[arg-type]
        key=list(value.order_key(position)),
    )


def khlyust_from_wire(message: pb.Khlyust, trump: Suit) -> KhlyustValue:
    """The library's :class:`KhlyustValue` of a Khlyust message (the inverse of
    :func:`khlyust_to_wire`; ``trump`` is the request's, which the message does not repeat)."""
    classes = {v: k for k, v in _CLASSES.items()}
    return KhlyustValue(
        tuple(card_from_wire(c) for c in message.cards),
        trump,
        classes[message.khlyust_class],
        message.points,
        Rank(message.top),
        message.key[0],
    )


def claim_to_wire(claim: KhlyustClaim) -> pb.KhlyustClaim:
    """The KhlyustClaim message of a khlyust held at a check."""
    return pb.KhlyustClaim(
        seat=claim.seat,
        khlyust=khlyust_to_wire(claim.value, claim.turn_position),
        turn_position=claim.turn_position,
    )


def claim_from_wire(message: pb.KhlyustClaim, trump: Suit) -> KhlyustClaim:
    """The library's :class:`KhlyustClaim` of a KhlyustClaim message."""
    return KhlyustClaim(
        message.seat, khlyust_from_wire(message.khlyust, trump), message.turn_position
    )


def exchange_to_wire(seat: int, exchange: Exchange) -> pb.LeavesExchange:
    """The LeavesExchange message of one seat's TL-3 choice."""
    return pb.LeavesExchange(
        seat=seat, action=_WIRE_ACTIONS[exchange.action], discard=cards_to_wire(exchange.discard)
    )


def legal_from_wire(message: pb.ListLegalLeafPlaysResponse) -> tuple[LegalPlay, ...]:
    """The library's legal plays (:func:`cpsolver.three_leaves.legal_on_trick`) of a response."""
    return tuple(
        LegalPlay(Play(p.play.seat, card_from_wire(p.play.card), p.play.face_down), p.heads_trick)
        for p in message.plays
    )


def leaves_result_from_wire(
    message: pb.PlayLeavesDealResponse, deal: Deal, carried_pot: int
) -> DealResult:
    """The library's :class:`DealResult` of a PlayLeavesDealResponse for ``deal`` (the request's
    deal, which the response does not repeat)."""
    trump = deal.trump
    claims = tuple(claim_from_wire(c, trump) for c in message.khlyusts)
    best = next((c for c in claims if c.seat == message.khlyust_seat), None)
    outcomes = {v: k for k, v in _OUTCOMES.items()}
    return DealResult(
        deal,
        Outcome(outcomes[message.outcome]),
        best,
        claims,
        {
            e.seat: Exchange(_ACTIONS[e.action], tuple(card_from_wire(c) for c in e.discard))
            for e in message.exchanges
        },
        tuple(message.in_deal),
        tuple(tuple(card_from_wire(c) for c in h.cards) for h in message.hands_played),
        tuple(
            Trick(
                trump,
                t.leader,
                tuple(Play(p.seat, card_from_wire(p.card), p.face_down) for p in t.plays),
            )
            for t in message.tricks
        ),
        tuple(message.trick_counts),
        carried_pot,
        message.pot_before,
        tuple(message.pot_taken),
        message.pot_after,
        tuple(
            Payment(
                p.payer,
                p.payee,
                p.amount,
                p.reason,
                card_from_wire(p.card) if p.HasField("card") else None,
            )
            for p in message.payments
        ),
        tuple(message.net),
        tuple(message.notes),
    )


def _estimate(e: Estimate) -> pb.LeavesEstimate:
    return pb.LeavesEstimate(value=e.value, low=e.low, high=e.high, exact=e.exact)


def _estimate_from_wire(e: pb.LeavesEstimate) -> Estimate:
    return Estimate(e.value, e.low, e.high, e.exact)


def hand_advice_from_wire(
    message: pb.AdviseLeavesResponse, trump: Suit, position: int, *, exchange: bool
) -> HandAdvice:
    """The library's :class:`HandAdvice` of an AdviseLeavesResponse (the parts the response
    holds; ``exchange``: whether exchange options were asked for)."""
    odds = None
    if message.HasField("hand"):
        order = [c.label for c in KhlyustClass]
        odds = KhlyustOdds(
            {label: message.holding[label] for label in order if label in message.holding},
            khlyust_from_wire(message.hand, trump),
            position,
            message.facing_any,
            message.beaten,
        )
    tricks = None
    if message.HasField("three_tricks"):
        tricks = TrickOdds(
            _estimate_from_wire(message.three_tricks),
            _estimate_from_wire(message.two_or_more),
            _estimate_from_wire(message.expected_tricks),
            message.trick_samples,
            message.trick_method,
            message.trick_seed if message.HasField("trick_seed") else None,
        )
    options = None
    if exchange:
        options = tuple(
            ExchangeOption(
                o.action,
                tuple(card_from_wire(c) for c in o.discard),
                _estimate_from_wire(o.expected_money),
                _estimate_from_wire(o.three_tricks),
                _estimate_from_wire(o.khlyust),
            )
            for o in message.exchange_options
        )
    return HandAdvice(odds, tricks, options)


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
        return pb.ListLegalLeafPlaysResponse(
            plays=[
                pb.LegalLeafPlay(
                    play=pb.LeafPlay(
                        seat=p.play.seat, card=card_to_wire(p.play.card), face_down=p.play.face_down
                    ),
                    heads_trick=p.heads_trick,
                )
                for p in legal_on_trick(hand, trick, rules=rules)
            ]
        )

    def PlayLeavesDeal(
        self, request: pb.PlayLeavesDealRequest, context: grpc.ServicerContext
    ) -> pb.PlayLeavesDealResponse:
        deal = _deal(request)
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
            khlyusts=[claim_to_wire(c) for c in result.khlyusts],
            exchanges=[exchange_to_wire(seat, e) for seat, e in result.exchanges.items()],
            hands_played=[pb.LeavesHand(cards=cards_to_wire(h)) for h in result.hands_played],
        )

    def AdviseLeaves(
        self, request: pb.AdviseLeavesRequest, context: grpc.ServicerContext
    ) -> pb.AdviseLeavesResponse:
        rules = _rules(request)
        hand = cards_from_wire(request.hand, "hand")
        turned = _one_card(request.trump_card, "trump_card", request.HasField("trump_card"))
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
        response = pb.AdviseLeavesResponse(
            exchange_options=[
                pb.LeavesExchangeOption(
                    action=o.action,
                    discard=cards_to_wire(o.discard),
                    expected_money=_estimate(o.expected_money),
                    three_tricks=_estimate(o.three_tricks),
                    khlyust=_estimate(o.khlyust),
                )
                for o in advice.exchange or ()
            ],
        )
        if advice.odds is not None:
            odds = advice.odds
            response.hand.CopyFrom(khlyust_to_wire(odds.hand, request.position))
            response.holding.update(odds.holding)
            response.facing_any = odds.facing_any
            response.beaten = odds.beaten
        if advice.tricks is not None:
            tricks = advice.tricks
            response.three_tricks.CopyFrom(_estimate(tricks.three_tricks))
            response.two_or_more.CopyFrom(_estimate(tricks.two_or_more))
            response.expected_tricks.CopyFrom(_estimate(tricks.expected_tricks))
            response.trick_method = tricks.method
            response.trick_samples = tricks.samples
            if tricks.seed is not None:
                response.trick_seed = tricks.seed
        return response

    def ResolveLeavesDeal(
        self, request: pb.ResolveLeavesDealRequest, context: grpc.ServicerContext
    ) -> pb.ResolveLeavesDealResponse:
        deal = _deal(request)
        best, found = best_khlyust(
            dict(enumerate(deal.hands)), deal.trump, deal.dealer, deal.players, deal.rules
        )
        return pb.ResolveLeavesDealResponse(
            khlyusts=[claim_to_wire(c) for c in found],
            winner=None if best is None else best.seat,
            dealer=deal.dealer,
            assistant=deal.assistant,
        )


SERVICE = Service(
    name=pb.DESCRIPTOR.services_by_name["ThreeLeavesService"].full_name,
    add_to_server=pb_grpc.add_ThreeLeavesServiceServicer_to_server,
    make_servicer=ThreeLeavesServicer,
)
