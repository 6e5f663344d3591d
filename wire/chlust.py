"""Chlust: library values <-> ``cpsolver.v1`` Chlust messages, both directions.

The servicer (``cpsolver.server.chlust``) reads requests and writes responses with these; the
typed client (``cpsolver.client.remote``) reads the responses back into the library's types.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from cpsolver.cards import Card, Rank, Suit
from cpsolver.chlust import (
    BidAction,
    BiddingState,
    BidRecord,
    Deal,
    DealResult,
    PlayAdvice,
    Showdown,
    ShowdownOdds,
)
from cpsolver.evaluator.chlust import SetCategory, SetValue, WildRole
from cpsolver.tricks import Play, Trick
from cpsolver.v1 import chinese_poker_pb2
from cpsolver.v1 import chlust_pb2 as pb
from cpsolver.wire.cards import (
    card_from_wire,
    card_to_wire,
    cards_from_wire,
    cards_to_wire,
    suit_from_wire,
    suit_to_wire,
)

__all__ = [
    "advice_from_wire",
    "advice_to_wire",
    "bid_action_to_wire",
    "bidding_from_wire",
    "bidding_to_wire",
    "deal_from_wire",
    "deal_result_from_wire",
    "deal_result_to_wire",
    "deal_to_wire",
    "hands_from_wire",
    "odds_from_wire",
    "odds_to_wire",
    "set_from_wire",
    "set_to_wire",
    "showdown_from_wire",
    "showdown_to_wire",
    "trick_record_to_wire",
    "turned_from_wire",
]


def hands_from_wire(hands: Iterable[pb.ChlustHand]) -> list[tuple[Card, ...]]:
    """The cards of ChlustHand messages (unchecked beyond rank and suit: the library's; its
    errors name ``hands[i][j]``, which :func:`~cpsolver.wire.cards.hand_paths_to_wire` moves
    to the request's ``hands[i].cards[j]``)."""
    return [cards_from_wire(h.cards, ("hands", i, "cards")) for i, h in enumerate(hands)]


def turned_from_wire(request: object, field: str = "turned") -> Card | None:
    """The optional turned card of a request (None when unset)."""
    if not request.HasField(field):  # type: ignore[attr-defined]
        return None
    return cards_from_wire([getattr(request, field)], field)[0]


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


def showdown_to_wire(result: Showdown) -> pb.ShowdownResponse:
    """The ShowdownResponse of a showdown."""
    return pb.ShowdownResponse(
        sets=[set_to_wire(v) for v in result.values],
        ranking=[pb.SeatGroup(seats=list(g)) for g in result.ranking],
        winner=result.winner,
        needs_tricks=result.needs_tricks,
    )


def showdown_from_wire(message: pb.ShowdownResponse, trump: Suit) -> Showdown:
    """The library's :class:`Showdown` of a ShowdownResponse (seats 0.. in request order)."""
    return Showdown(
        trump,
        tuple(range(len(message.sets))),
        tuple(set_from_wire(v, trump) for v in message.sets),
        tuple(tuple(group.seats) for group in message.ranking),
        message.winner if message.HasField("winner") else None,
    )


def deal_result_to_wire(result: DealResult) -> pb.PlayDealResponse:
    """The PlayDealResponse of a played deal."""
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
                share_numerator=result.shares[seat].numerator,
                share_denominator=result.shares[seat].denominator,
            )
            for seat, won in enumerate(result.tricks_won)
            if result.in_deal[seat]
        ],
        winners=list(result.winners),
        carried_numerator=result.carried.numerator,
        carried_denominator=result.carried.denominator,
    )


def deal_result_from_wire(message: pb.PlayDealResponse, trump: Suit, players: int) -> DealResult:
    """The library's :class:`DealResult` of a PlayDealResponse (``trump`` and ``players``, the
    table's seats, are the request's; the response lists only the seats still in)."""
    tricks = tuple(
        Trick(
            trump,
            t.leader,
            tuple(Play(p.seat, card_from_wire(p.card)) for p in t.plays),
        )
        for t in message.tricks
    )
    won = [0] * players
    shares = [Fraction(0)] * players
    in_deal = [False] * players
    for s in message.seats:
        won[s.seat] = s.tricks
        shares[s.seat] = Fraction(s.share_numerator, s.share_denominator or 1)
        in_deal[s.seat] = True
    return DealResult(
        tricks,
        tuple(won),
        tuple(message.winners),
        tuple(shares),
        Fraction(message.carried_numerator, message.carried_denominator or 1),
        tuple(in_deal),
    )


def _method_to_wire(method: str) -> int:
    return int(pb.OddsMethod.Value("ODDS_METHOD_" + method.upper()))


def _method_from_wire(value: int) -> str:
    return str(pb.OddsMethod.Name(value)).removeprefix("ODDS_METHOD_").lower()


def odds_to_wire(odds: ShowdownOdds) -> pb.ShowdownOddsResponse:
    """The ShowdownOddsResponse of showdown odds."""

    def interval(name: str) -> chinese_poker_pb2.Interval:
        low, high = odds.ci95[name]
        return chinese_poker_pb2.Interval(low=low, high=high)

    return pb.ShowdownOddsResponse(
        win=odds.win,
        lose=odds.lose,
        tricks=odds.tricks,
        method=_method_to_wire(odds.method),  # type: ignore[arg-type]
        deals=odds.deals,
        win_ci=interval("win"),
        lose_ci=interval("lose"),
        tricks_ci=interval("tricks"),
        seed=odds.seed,
    )


def odds_from_wire(message: pb.ShowdownOddsResponse, opponents: int) -> ShowdownOdds:
    """The library's :class:`ShowdownOdds` of a ShowdownOddsResponse."""
    return ShowdownOdds(
        message.win,
        message.lose,
        message.tricks,
        _method_from_wire(message.method),
        message.deals,
        {
            name: (getattr(message, f"{name}_ci").low, getattr(message, f"{name}_ci").high)
            for name in ("win", "lose", "tricks")
        },
        message.seed if message.HasField("seed") else None,
        opponents,
    )


def trick_record_to_wire(trick: Trick) -> pb.TrickRecord:
    """The TrickRecord of a trick (its leader and the cards played, in order)."""
    return pb.TrickRecord(leader=trick.leader, cards=cards_to_wire(trick.cards))


def advice_to_wire(advice: PlayAdvice) -> pb.AdvisePlayResponse:
    """The AdvisePlayResponse of play advice."""
    return pb.AdvisePlayResponse(
        card=card_to_wire(advice.card),
        values=[
            pb.CardValue(card=card_to_wire(c), tricks=v, ci95=advice.ci95[c])
            for c, v in advice.expected.items()
        ],
        method=_method_to_wire(advice.method),  # type: ignore[arg-type]
        deals=advice.deals,
        seed=advice.seed,
    )


def advice_from_wire(message: pb.AdvisePlayResponse) -> PlayAdvice:
    """The library's :class:`PlayAdvice` of an AdvisePlayResponse (cards in the server's order)."""
    values = [(card_from_wire(v.card), v) for v in message.values]
    return PlayAdvice(
        card_from_wire(message.card),
        {card: v.tricks for card, v in values},
        {card: v.ci95 for card, v in values},
        _method_from_wire(message.method),
        message.deals,
        message.seed if message.HasField("seed") else None,
    )


def bid_action_to_wire(action: BidAction) -> int:
    """The BidAction value of a library bid action."""
    return int(pb.BidAction.Value("BID_ACTION_" + action.name))


def _bid_action_from_wire(value: int) -> BidAction:
    return BidAction(pb.BidAction.Name(value).removeprefix("BID_ACTION_").lower())


def bidding_to_wire(state: BiddingState) -> pb.BidResponse:
    """The BidResponse of a bidding round's state."""
    return pb.BidResponse(
        history=[
            pb.BidRecord(seat=r.seat, action=bid_action_to_wire(r.action), paid=r.paid)  # type: ignore[arg-type]
            for r in state.history
        ],
        in_play=list(state.in_play),
        pot=state.pot,
        over=state.is_over,
        to_act=state.to_act,
        winner=state.winner,
        legal=[bid_action_to_wire(a) for a in state.legal],  # type: ignore[misc]
    )


def bidding_from_wire(message: pb.BidResponse, players: int, dealer: int) -> BiddingState:
    """The library's :class:`BiddingState` of a BidResponse (``players`` resolved, ``dealer``
    as requested)."""
    return BiddingState(
        players,
        dealer,
        tuple(BidRecord(r.seat, _bid_action_from_wire(r.action), r.paid) for r in message.history),
        tuple(message.in_play),
        message.pot,
        message.over,
        message.to_act if message.HasField("to_act") else None,
        message.winner if message.HasField("winner") else None,
        tuple(_bid_action_from_wire(a) for a in message.legal),
    )


def deal_to_wire(dealt: Deal, exchange_seat: int | None) -> pb.DealHandsResponse:
    """The DealHandsResponse of a deal (``exchange_seat``: the library's CH-2 answer)."""
    return pb.DealHandsResponse(
        hands=[pb.ChlustHand(cards=cards_to_wire(h)) for h in dealt.hands],
        turned=card_to_wire(dealt.turned),
        dealer=dealt.dealer,
        stock=cards_to_wire(dealt.stock),
        exchange_seat=exchange_seat,
    )


def deal_from_wire(message: pb.DealHandsResponse) -> Deal:
    """The library's :class:`Deal` of a DealHandsResponse."""
    return Deal(
        tuple(tuple(card_from_wire(c) for c in h.cards) for h in message.hands),
        card_from_wire(message.turned),
        message.dealer,
        tuple(card_from_wire(c) for c in message.stock),
    )
