"""``cpsolver.v1.ChlustService``: adapters from the wire to ``cpsolver.chlust`` (no game logic).

Every method converts the request with :mod:`.convert`, calls the library and converts
the result back. Library exceptions propagate to :class:`.interceptors.ErrorInterceptor`
(INVALID_ARGUMENT with field violations; an illegal play names rule CH-8 in its description).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import TypeVar

import grpc

from cpsolver.cards import Card, Rank, Suit, parse_cards
from cpsolver.chlust import (
    BidAction,
    Bidding,
    BiddingState,
    BidRecord,
    Deal,
    DealResult,
    PlayAdvice,
    ShowdownOdds,
    advise_play,
    deal,
    exchange_seat,
    legal_plays,
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
from cpsolver.errors import FieldViolation, InvalidInputError
from cpsolver.evaluator.chlust import SetCategory, SetValue, WildRole, evaluate_set
from cpsolver.rules import ChlustRules
from cpsolver.server.convert import (
    card_from_wire,
    card_to_wire,
    cards_from_wire,
    cards_to_wire,
    rules_from_wire,
    suit_from_wire,
    suit_to_wire,
)
from cpsolver.server.services import Service, ServiceLimits
from cpsolver.tricks import Play, Trick
from cpsolver.v1 import chinese_poker_pb2
from cpsolver.v1 import chlust_pb2 as pb
from cpsolver.v1 import chlust_pb2_grpc as pb_grpc

__all__ = [
    "SERVICE",
    "ChlustServicer",
    "advice_from_wire",
    "bidding_from_wire",
    "deal_from_wire",
    "deal_result_from_wire",
    "library_hand_paths",
    "odds_from_wire",
    "set_from_wire",
    "set_to_wire",
]

# The work caps (samples, exact_limit, seeds) are the library's: showdown_odds and advise_play
# check them (cpsolver.chlust.advice.check_odds_limits / check_advice_limits), in-process too.
# The library names a hand's card hands[i][j]; on the wire it is hands[i].cards[j].
_HAND_CARD = re.compile(r"^hands\[(\d+)\]\[(\d+)\]")
_WIRE_HAND_CARD = re.compile(r"^hands\[(\d+)\]\.cards\[(\d+)\]")

T = TypeVar("T")


def _wire_paths(call: Callable[[], T]) -> T:
    """Run ``call``, renaming library field paths of hands to their wire paths."""
    try:
        return call()
    except InvalidInputError as exc:
        moved = [
            FieldViolation(_HAND_CARD.sub(r"hands[\1].cards[\2]", v.field), v.description)
            for v in exc.violations
        ]
        clone = type(exc).__new__(type(exc))
        clone.__dict__.update(exc.__dict__)
        clone.violations = tuple(moved)
        Exception.__init__(clone, "; ".join(str(v) for v in moved))
        raise clone from None


def library_hand_paths(exc: InvalidInputError) -> InvalidInputError:
    """``exc`` with the wire's ``hands[i].cards[j]`` paths back as the library's
    ``hands[i][j]`` (the inverse of the servicer's renaming; used by the remote client)."""
    moved = [
        FieldViolation(_WIRE_HAND_CARD.sub(r"hands[\1][\2]", v.field), v.description)
        for v in exc.violations
    ]
    if moved == list(exc.violations):
        return exc
    return InvalidInputError(violations=moved)


def set_to_wire(value: SetValue) -> pb.ChlustSet:
    """The ChlustSet message of an evaluated hand."""
    return pb.ChlustSet(
        cards=cards_to_wire(value.cards),
        category=pb.ChlustSetCategory.Value("CHLUST_SET_CATEGORY_" + value.category.name),
        pure=value.pure,
        wild=card_to_wire(value.wild),
        wild_role=pb.WildRole.Value("WILD_ROLE_" + value.wild_role.name),
        stands_for=card_to_wire(value.stands_for) if value.stands_for else None,
        set_cards=cards_to_wire(value.set_cards),
        suit=suit_to_wire(value.suit),  # type: ignore[arg-type]
        rank=int(value.rank) if value.rank else 0,  # type: ignore[arg-type]
        key=value.key,
        name=value.name,
    )


def set_from_wire(message: pb.ChlustSet, trump: Suit) -> SetValue:
    """The library's :class:`SetValue` of a ChlustSet message (the inverse of
    :func:`set_to_wire`; ``trump`` is the request's, which the message does not repeat)."""
    category = pb.ChlustSetCategory.Name(message.category).removeprefix("CHLUST_SET_CATEGORY_")
    role = pb.WildRole.Name(message.wild_role).removeprefix("WILD_ROLE_")
    return SetValue(
        cards=tuple(card_from_wire(c) for c in message.cards),
        trump=trump,
        category=SetCategory[category],
        pure=message.pure,
        wild=card_from_wire(message.wild),
        wild_role=WildRole[role],
        stands_for=card_from_wire(message.stands_for) if message.HasField("stands_for") else None,
        set_cards=tuple(card_from_wire(c) for c in message.set_cards),
        suit=suit_from_wire(message.suit, "suit") if message.suit else None,
        rank=Rank(message.rank) if message.rank else None,
        key=message.key,
    )


def deal_result_from_wire(message: pb.PlayDealResponse, trump: Suit) -> DealResult:
    """The library's :class:`DealResult` of a PlayDealResponse (``trump`` is the request's)."""
    tricks = tuple(
        Trick(
            trump,
            t.leader,
            tuple(Play(p.seat, card_from_wire(p.card)) for p in t.plays),
        )
        for t in message.tricks
    )
    return DealResult(
        tricks,
        {s.seat: s.tricks for s in message.seats},
        tuple(message.winners),
        {s.seat: Fraction(s.share_numerator, s.share_denominator or 1) for s in message.seats},
        Fraction(message.carried_numerator, message.carried_denominator or 1),
    )


def odds_from_wire(message: pb.ShowdownOddsResponse, opponents: int) -> ShowdownOdds:
    """The library's :class:`ShowdownOdds` of a ShowdownOddsResponse."""
    return ShowdownOdds(
        message.win,
        message.lose,
        message.tricks,
        pb.OddsMethod.Name(message.method).removeprefix("ODDS_METHOD_").lower(),
        message.deals,
        {
            name: (getattr(message, f"{name}_ci").low, getattr(message, f"{name}_ci").high)
            for name in ("win", "lose", "tricks")
        },
        message.seed if message.HasField("seed") else None,
        opponents,
    )


def advice_from_wire(message: pb.AdvisePlayResponse) -> PlayAdvice:
    """The library's :class:`PlayAdvice` of an AdvisePlayResponse (cards in the server's order)."""
    values = [(card_from_wire(v.card), v) for v in message.values]
    return PlayAdvice(
        card_from_wire(message.card),
        {card: v.tricks for card, v in values},
        {card: v.ci95 for card, v in values},
        pb.OddsMethod.Name(message.method).removeprefix("ODDS_METHOD_").lower(),
        message.deals,
        message.seed if message.HasField("seed") else None,
    )


def bidding_from_wire(message: pb.BidResponse, players: int, dealer: int) -> BiddingState:
    """The library's :class:`BiddingState` of a BidResponse (``players`` resolved, ``dealer``
    as requested)."""

    def action(value: int) -> BidAction:
        return BidAction(pb.BidAction.Name(value).removeprefix("BID_ACTION_").lower())

    return BiddingState(
        players,
        dealer,
        tuple(BidRecord(r.seat, action(r.action), r.paid) for r in message.history),
        tuple(message.in_play),
        message.pot,
        message.over,
        message.to_act if message.HasField("to_act") else None,
        message.winner if message.HasField("winner") else None,
        tuple(action(a) for a in message.legal),
    )


def deal_from_wire(message: pb.DealHandsResponse) -> Deal:
    """The library's :class:`Deal` of a DealHandsResponse."""
    return Deal(
        tuple(tuple(card_from_wire(c) for c in h.cards) for h in message.hands),
        card_from_wire(message.turned),
        message.dealer,
        tuple(card_from_wire(c) for c in message.stock),
    )


def _turned(request: object, field: str = "turned") -> Card | None:
    if not request.HasField(field):  # type: ignore[attr-defined]
        return None
    return cards_from_wire([getattr(request, field)], field)[0]


def _hands(hands: Iterable[pb.ChlustHand]) -> list[tuple[Card, ...]]:
    return [cards_from_wire(h.cards, f"hands[{i}].cards") for i, h in enumerate(hands, start=1)]


def _fraction(value: Fraction) -> tuple[int, int]:
    return value.numerator, value.denominator


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
        value = evaluate_set(cards, trump, rules, turned=_turned(request))
        return pb.EvaluateSetResponse(set=set_to_wire(value))

    def Showdown(
        self, request: pb.ShowdownRequest, context: grpc.ServicerContext
    ) -> pb.ShowdownResponse:
        rules = rules_from_wire(request.rules, ChlustRules)
        hands = _hands(request.hands)
        trump = suit_from_wire(request.trump, "trump")
        turned = _turned(request)
        result = _wire_paths(lambda: showdown(hands, trump, rules, turned=turned))
        return pb.ShowdownResponse(
            sets=[set_to_wire(v) for v in result.values],
            ranking=[pb.SeatGroup(seats=list(g)) for g in result.ranking],
            winner=result.winner,
            needs_tricks=result.needs_tricks,
        )

    def LegalPlays(
        self, request: pb.LegalPlaysRequest, context: grpc.ServicerContext
    ) -> pb.LegalPlaysResponse:
        rules = rules_from_wire(request.rules, ChlustRules)
        hand = cards_from_wire(request.hand, "hand")
        played = cards_from_wire(request.trick, "trick")
        trump = suit_from_wire(request.trump, "trump")
        on_trick = parse_cards(played, deck=rules.card_deck, count=(0, 1, 2, 3), field="trick")
        legal = legal_plays(hand, Trick.of(trump, 0, on_trick), rules)
        return pb.LegalPlaysResponse(legal=cards_to_wire(legal))

    def PlayDeal(
        self, request: pb.PlayDealRequest, context: grpc.ServicerContext
    ) -> pb.PlayDealResponse:
        rules = rules_from_wire(request.rules, ChlustRules)
        folded = list(request.folded)
        hands: list[tuple[Card, ...] | None] = list(_hands(request.hands))
        for seat in folded:
            if 0 <= seat < len(hands) and not hands[seat]:
                hands[seat] = None
        plays = cards_from_wire(request.plays, "plays")
        trump = suit_from_wire(request.trump, "trump")
        turned = _turned(request)
        result = _wire_paths(
            lambda: play_deal(
                hands, trump, plays, rules, dealer=request.dealer, folded=folded, turned=turned
            )
        )
        return pb.PlayDealResponse(
            tricks=[
                pb.TrickResult(
                    leader=t.leader,
                    plays=[pb.TrickPlay(seat=p.seat, card=card_to_wire(p.card)) for p in t.plays],
                    winner=t.winner,
                )
                for t in result.tricks
            ],
            seats=[
                pb.SeatResult(
                    seat=seat,
                    tricks=won,
                    share_numerator=_fraction(result.shares[seat])[0],
                    share_denominator=_fraction(result.shares[seat])[1],
                )
                for seat, won in result.tricks_won.items()
            ],
            winners=list(result.winners),
            carried_numerator=result.carried.numerator,
            carried_denominator=result.carried.denominator,
        )

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
            turned=_turned(request),
            dead=dead,
            exact_limit=exact_limit,
            samples=samples,
            seed=request.seed if request.HasField("seed") else 0,
        )

        def interval(name: str) -> chinese_poker_pb2.Interval:
            low, high = odds.ci95[name]
            return chinese_poker_pb2.Interval(low=low, high=high)

        return pb.ShowdownOddsResponse(
            win=odds.win,
            lose=odds.lose,
            tricks=odds.tricks,
            method=pb.OddsMethod.Value("ODDS_METHOD_" + odds.method.upper()),
            deals=odds.deals,
            win_ci=interval("win"),
            lose_ci=interval("lose"),
            tricks_ci=interval("tricks"),
            seed=odds.seed,
        )

    def Exchange(
        self, request: pb.ExchangeRequest, context: grpc.ServicerContext
    ) -> pb.ExchangeResponse:
        rules = rules_from_wire(request.rules, ChlustRules)
        given = _hands(request.hands)
        if not request.HasField("turned"):
            raise InvalidInputError("turned", "the turned card is required")
        turned = cards_from_wire([request.turned], "turned")[0]
        parsed = _wire_paths(lambda: parse_hands(given, rules, exclude=(turned,)))
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
        for i, action in enumerate(request.actions, start=1):
            name = pb.BidAction.Name(action) if action in pb.BidAction.values() else None
            if action == 0 or name is None:
                raise InvalidInputError(f"actions[{i}]", f"unknown or unset action {action}")
            try:
                bidding.act(name.removeprefix("BID_ACTION_").lower())
            except InvalidInputError as exc:
                raise exc.prefixed(f"actions[{i}]") from None

        def action_to_wire(value: str) -> str:
            return "BID_ACTION_" + value.upper()

        return pb.BidResponse(
            history=[
                pb.BidRecord(seat=r.seat, action=action_to_wire(r.action.value), paid=r.paid)
                for r in bidding.history
            ],
            in_play=list(bidding.in_play),
            pot=bidding.pot,
            over=bidding.is_over,
            to_act=bidding.to_act,
            winner=bidding.winner,
            legal=[action_to_wire(a.value) for a in bidding.legal_actions()],
        )

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

        def trick_of(record: pb.TrickRecord, field: str) -> Trick:
            cards = cards_from_wire(record.cards, f"{field}.cards")
            if record.leader not in seats:
                raise InvalidInputError(f"{field}.leader", f"expected one of the seats {seats}")
            start = seats.index(record.leader)
            order = seats[start:] + seats[:start]
            if len(cards) > len(order):
                raise InvalidInputError(f"{field}.cards", "more cards than seats")
            return Trick.of(trump, record.leader, cards, seats=order[: len(cards)])

        history = [trick_of(t, f"history[{i}]") for i, t in enumerate(request.history, start=1)]
        if request.HasField("trick"):
            trick = trick_of(request.trick, "trick")
        else:
            trick = Trick(trump, history[-1].winner if history else request.seat)
        advice = advise_play(
            hand,
            trick,
            rules,
            seat=request.seat,
            seats=seats,
            history=history,
            turned=_turned(request),
            samples=samples,
            seed=seed,
        )
        return pb.AdvisePlayResponse(
            card=card_to_wire(advice.card),
            values=[
                pb.CardValue(card=card_to_wire(c), tricks=v, ci95=advice.ci95[c])
                for c, v in advice.expected.items()
            ],
            method=pb.OddsMethod.Value("ODDS_METHOD_" + advice.method.upper()),
            deals=advice.deals,
            seed=advice.seed,
        )

    def DealHands(
        self, request: pb.DealHandsRequest, context: grpc.ServicerContext
    ) -> pb.DealHandsResponse:
        rules = rules_from_wire(request.rules, ChlustRules)
        dealt = deal(
            request.players or rules.players, rules, seed=request.seed, dealer=request.dealer
        )
        return pb.DealHandsResponse(
            hands=[pb.ChlustHand(cards=cards_to_wire(h)) for h in dealt.hands],
            turned=card_to_wire(dealt.turned),
            dealer=dealt.dealer,
            stock=cards_to_wire(dealt.stock),
            exchange_seat=dealt.exchange_seat(rules),
        )


SERVICE = Service(
    name=pb.DESCRIPTOR.services_by_name["ChlustService"].full_name,
    add_to_server=pb_grpc.add_ChlustServiceServicer_to_server,
    make_servicer=ChlustServicer,
)
