"""Three Leaves: library values <-> ``cpsolver.v1`` Three Leaves messages, both directions.

The servicer (``cpsolver.server.three_leaves``) reads requests and writes responses with these;
the typed client (``cpsolver.client.remote``) reads the responses back into the library's types.
"""

from __future__ import annotations

from collections.abc import Sequence

from cpsolver.cards import Card, Rank, Suit
from cpsolver.errors import Field, FieldPath, InvalidInputError
from cpsolver.evaluator.khlyust import KhlyustClass, KhlyustValue
from cpsolver.rules import ThreeLeavesRules
from cpsolver.three_leaves import (
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
)
from cpsolver.tricks import Play, Trick
from cpsolver.v1 import cards_pb2
from cpsolver.v1 import three_leaves_pb2 as pb
from cpsolver.wire.cards import card_from_wire, card_to_wire, cards_from_wire, cards_to_wire
from cpsolver.wire.rules import rules_from_wire

__all__ = [
    "claim_from_wire",
    "claim_to_wire",
    "deal_from_request",
    "deal_from_wire",
    "deal_to_wire",
    "exchange_action_from_wire",
    "exchange_paths_from_wire",
    "exchange_paths_to_wire",
    "exchange_to_wire",
    "hand_advice_from_wire",
    "hand_advice_to_wire",
    "khlyust_from_wire",
    "khlyust_to_wire",
    "leaves_result_from_wire",
    "leaves_result_to_wire",
    "legal_from_wire",
    "legal_to_wire",
    "required_card_from_wire",
    "rules_of",
]

_CLASSES = {
    KhlyustClass.NONE: pb.KHLYUST_CLASS_NONE,
    KhlyustClass.PLAIN: pb.KHLYUST_CLASS_PLAIN,
    KhlyustClass.TRIPS: pb.KHLYUST_CLASS_THREE_OF_A_RANK,
    KhlyustClass.TRUMP: pb.KHLYUST_CLASS_TRUMP,
}
_CLASSES_FROM_WIRE = {v: k for k, v in _CLASSES.items()}
_ACTIONS: dict[int, ExchangeAction] = {
    pb.LeavesExchange.ACTION_UNSPECIFIED: ExchangeAction.PLAY,
    pb.LeavesExchange.ACTION_PLAY: ExchangeAction.PLAY,
    pb.LeavesExchange.ACTION_PASS: ExchangeAction.PASS,
    pb.LeavesExchange.ACTION_DRAW: ExchangeAction.DRAW,
}
_OUTCOMES = {
    Outcome.KHLYUST: pb.LEAVES_OUTCOME_KHLYUST,
    Outcome.PLAYOUT: pb.LEAVES_OUTCOME_PLAYOUT,
    Outcome.TRICKS: pb.LEAVES_OUTCOME_TRICKS,
}
_OUTCOMES_FROM_WIRE = {v: k for k, v in _OUTCOMES.items()}
_WIRE_ACTIONS = {
    ExchangeAction.PLAY: pb.LeavesExchange.ACTION_PLAY,
    ExchangeAction.PASS: pb.LeavesExchange.ACTION_PASS,
    ExchangeAction.DRAW: pb.LeavesExchange.ACTION_DRAW,
}


def required_card_from_wire(card: cards_pb2.Card, field: Field, present: bool) -> Card:
    """A card field that must be set (``present``: the request's ``HasField``)."""
    if not present:
        raise InvalidInputError(field, "is required")
    return cards_from_wire([card], field)[0]


def rules_of(request: object) -> ThreeLeavesRules:
    """The rule set of a request's ``rules`` field."""
    return rules_from_wire(request.rules, ThreeLeavesRules)  # type: ignore[attr-defined]


def deal_from_request(request: pb.PlayLeavesDealRequest | pb.ResolveLeavesDealRequest) -> Deal:
    """The deal a PlayLeavesDeal or ResolveLeavesDeal request describes (players: the number
    of hands unless the rules set it), checked by the library's :meth:`Deal.of` (whose errors
    name ``hands[i][j]``: :func:`~cpsolver.wire.cards.hand_paths_to_wire` moves them to the
    request's ``hands[i].cards[j]``)."""
    players_set = request.rules.HasField("players")
    rules = rules_of(request)
    if not players_set and 2 <= len(request.hands) <= 4:  # TL-1's table sizes
        rules = rules.replace(players=len(request.hands))
    # else the rules' own count stands, and Deal.of names ``hands`` (an empty request was
    # refused as "rules.players: invalid value 0", a field the caller never set)
    hands = [cards_from_wire(h.cards, ("hands", i, "cards")) for i, h in enumerate(request.hands)]
    return Deal.of(
        hands,
        required_card_from_wire(request.trump_card, "trump_card", request.HasField("trump_card")),
        cards_from_wire(request.stock, "stock"),
        dealer=request.dealer if request.HasField("dealer") else None,
        rules=rules,
    )


def deal_to_wire(dealt: Deal) -> pb.DealLeavesResponse:
    """The DealLeavesResponse of a deal: hands, turned card, stock, dealer and assistant."""
    return pb.DealLeavesResponse(
        hands=[pb.LeavesHand(cards=cards_to_wire(h)) for h in dealt.hands],
        trump_card=card_to_wire(dealt.trump_card),
        stock=cards_to_wire(dealt.stock),
        dealer=dealt.dealer,
        assistant=dealt.assistant,
    )


def deal_from_wire(message: pb.DealLeavesResponse, rules: ThreeLeavesRules) -> Deal:
    """The library's :class:`Deal` of a DealLeavesResponse, dealt under ``rules`` (the rule
    set the request sent)."""
    return Deal(
        rules,
        message.dealer,
        tuple(tuple(card_from_wire(c) for c in h.cards) for h in message.hands),
        card_from_wire(message.trump_card),
        tuple(card_from_wire(c) for c in message.stock),
    )


def exchange_action_from_wire(value: int) -> ExchangeAction | None:
    """The library action of a LeavesExchange action (None: an unknown value)."""
    return _ACTIONS.get(value)


def exchange_paths_to_wire(path: FieldPath, seats: Sequence[int]) -> FieldPath:
    """A library path of a seat's exchange (``exchanges.2``: ``Choices.exchanges`` is a mapping
    by seat) as the request's path: the position of that seat's LeavesExchange in the
    request's list, ``seats`` in request order (``exchanges[0]`` on the wire).

    >>> exchange_paths_to_wire(("exchanges", "2"), [2, 1]), exchange_paths_to_wire(("plays", 0), [])
    (('exchanges', 0), ('plays', 0))
    """
    if len(path) >= 2 and path[0] == "exchanges" and isinstance(path[1], str):
        known = [str(seat) for seat in seats]
        if path[1] in known:
            return ("exchanges", known.index(path[1]), *path[2:])
    return path


def exchange_paths_from_wire(path: FieldPath, seats: Sequence[int]) -> FieldPath:
    """The inverse of :func:`exchange_paths_to_wire`.

    >>> exchange_paths_from_wire(("exchanges", 1, "discard", 0), [2, 1])
    ('exchanges', '1', 'discard', 0)
    """
    if len(path) < 2 or path[0] != "exchanges" or not isinstance(path[1], int):
        return path
    if not 0 <= path[1] < len(seats):
        return path
    return ("exchanges", str(seats[path[1]]), *path[2:])


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
    return KhlyustValue(
        tuple(card_from_wire(c) for c in message.cards),
        trump,
        _CLASSES_FROM_WIRE[message.khlyust_class],
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


def _play_to_wire(play: Play) -> pb.LeafPlay:
    return pb.LeafPlay(seat=play.seat, card=card_to_wire(play.card), face_down=play.face_down)


def legal_to_wire(plays: tuple[LegalPlay, ...]) -> pb.ListLegalLeafPlaysResponse:
    """The ListLegalLeafPlaysResponse of the legal plays on a trick."""
    return pb.ListLegalLeafPlaysResponse(
        plays=[
            pb.LegalLeafPlay(play=_play_to_wire(p.play), heads_trick=p.heads_trick) for p in plays
        ]
    )


def legal_from_wire(message: pb.ListLegalLeafPlaysResponse) -> tuple[LegalPlay, ...]:
    """The library's legal plays (:func:`cpsolver.three_leaves.legal_on_trick`) of a response."""
    return tuple(
        LegalPlay(Play(p.play.seat, card_from_wire(p.play.card), p.play.face_down), p.heads_trick)
        for p in message.plays
    )


def leaves_result_to_wire(result: DealResult) -> pb.PlayLeavesDealResponse:
    """The PlayLeavesDealResponse of a played deal."""
    claim = result.khlyust
    return pb.PlayLeavesDealResponse(
        outcome=_OUTCOMES[result.outcome],
        khlyust_seat=-1 if claim is None else claim.seat,
        khlyust=None if claim is None else khlyust_to_wire(claim.value, claim.turn_position),
        tricks=[
            pb.LeavesTrick(
                leader=t.leader, winner=t.winner, plays=[_play_to_wire(p) for p in t.plays]
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
        exchanges=[
            exchange_to_wire(seat, e) for seat, e in enumerate(result.exchanges) if e is not None
        ],
        hands_played=[pb.LeavesHand(cards=cards_to_wire(h)) for h in result.hands_played],
    )


def _exchanges_from_wire(
    message: pb.PlayLeavesDealResponse, players: int
) -> tuple[Exchange | None, ...]:
    by_seat: list[Exchange | None] = [None] * players
    for e in message.exchanges:
        by_seat[e.seat] = Exchange(_ACTIONS[e.action], tuple(card_from_wire(c) for c in e.discard))
    return tuple(by_seat)


def leaves_result_from_wire(
    message: pb.PlayLeavesDealResponse, deal: Deal, carried_pot: int
) -> DealResult:
    """The library's :class:`DealResult` of a PlayLeavesDealResponse for ``deal`` (the request's
    deal, which the response does not repeat)."""
    trump = deal.trump
    claims = tuple(claim_from_wire(c, trump) for c in message.khlyusts)
    best = next((c for c in claims if c.seat == message.khlyust_seat), None)
    return DealResult(
        deal,
        _OUTCOMES_FROM_WIRE[message.outcome],
        best,
        claims,
        _exchanges_from_wire(message, deal.players),
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


def _estimate_to_wire(e: Estimate) -> pb.LeavesEstimate:
    return pb.LeavesEstimate(value=e.value, low=e.low, high=e.high, exact=e.exact)


def _estimate_from_wire(e: pb.LeavesEstimate) -> Estimate:
    return Estimate(e.value, e.low, e.high, e.exact)


def hand_advice_to_wire(advice: HandAdvice, position: int) -> pb.AdviseLeavesResponse:
    """The AdviseLeavesResponse of hand advice (``position``: the request's turn position)."""
    response = pb.AdviseLeavesResponse(
        exchange_options=[
            pb.LeavesExchangeOption(
                action=o.action,
                discard=cards_to_wire(o.discard),
                expected_money=_estimate_to_wire(o.expected_money),
                three_tricks=_estimate_to_wire(o.three_tricks),
                khlyust=_estimate_to_wire(o.khlyust),
            )
            for o in advice.exchange or ()
        ],
    )
    if advice.odds is not None:
        odds = advice.odds
        response.hand.CopyFrom(khlyust_to_wire(odds.hand, position))
        response.holding.update(odds.holding)
        response.facing_any = odds.facing_any
        response.beaten = odds.beaten
    if advice.tricks is not None:
        tricks = advice.tricks
        response.three_tricks.CopyFrom(_estimate_to_wire(tricks.three_tricks))
        response.two_or_more.CopyFrom(_estimate_to_wire(tricks.two_or_more))
        response.expected_tricks.CopyFrom(_estimate_to_wire(tricks.expected_tricks))
        response.trick_method = tricks.method
        response.trick_samples = tricks.samples
        if tricks.seed is not None:
            response.trick_seed = tricks.seed
    return response


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
