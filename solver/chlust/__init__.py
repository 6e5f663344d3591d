"""Chlust (Silesian poker, RULES §3) on the shared card model and evaluator.

* :mod:`solver.chlust.deal` - dealing, the trump-ace exchange (CH-2), the showdown (CH-7);
* :mod:`solver.chlust.play` - legal plays (CH-8), a deal's three tricks, the result (CH-9);
* :mod:`solver.chlust.bidding` - the bidding round (CH-6) as a state machine;
* :mod:`solver.chlust.advice` - showdown odds and the card to play, for bots.

Sets themselves are judged by :mod:`solver.evaluator.chlust` (CH-3..CH-5).
"""

from solver.chlust.advice import (
    PlayAdvice,
    ShowdownOdds,
    advise_play,
    showdown_odds,
    wilson_interval,
)
from solver.chlust.bidding import BidAction, Bidding, BiddingState, BidRecord, parse_bid_action
from solver.chlust.deal import (
    Deal,
    Showdown,
    deal,
    exchange_seat,
    exchange_trump_ace,
    parse_hands,
    showdown,
)
from solver.chlust.play import (
    DealResult,
    TrickGame,
    first_leader,
    legal_plays,
    play_deal,
    settle_tricks,
)
from solver.evaluator.chlust import SetCategory, SetValue, WildRole, evaluate_set
from solver.rules.chlust import ChlustRules

__all__ = [
    "BidAction",
    "BidRecord",
    "Bidding",
    "BiddingState",
    "ChlustRules",
    "Deal",
    "DealResult",
    "PlayAdvice",
    "SetCategory",
    "SetValue",
    "Showdown",
    "ShowdownOdds",
    "TrickGame",
    "WildRole",
    "advise_play",
    "deal",
    "evaluate_set",
    "exchange_seat",
    "exchange_trump_ace",
    "first_leader",
    "legal_plays",
    "parse_bid_action",
    "parse_hands",
    "play_deal",
    "settle_tricks",
    "showdown",
    "showdown_odds",
    "wilson_interval",
]
