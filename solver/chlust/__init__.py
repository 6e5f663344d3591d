"""Chlust (Silesian poker, RULES §3) on the shared card model and evaluator.

* :mod:`cpsolver.chlust.deal` - dealing, the trump-ace exchange (CH-2), the showdown (CH-7);
* :mod:`cpsolver.chlust.play` - legal plays (CH-8), a deal's three tricks, the result (CH-9);
* :mod:`cpsolver.chlust.bidding` - the bidding round (CH-6) as a state machine;
* :mod:`cpsolver.chlust.advice` - showdown odds and the card to play, for bots.

Sets themselves are judged by :mod:`cpsolver.evaluator.chlust` (CH-3..CH-5).
"""

from cpsolver.chlust.advice import (
    PlayAdvice,
    ShowdownOdds,
    advise_play,
    showdown_odds,
    wilson_interval,
)
from cpsolver.chlust.bidding import BidAction, Bidding, BiddingState, BidRecord, parse_bid_action
from cpsolver.chlust.deal import (
    Deal,
    Showdown,
    deal,
    evaluate,
    exchange_seat,
    exchange_trump_ace,
    parse_hands,
    showdown,
)
from cpsolver.chlust.play import (
    DealResult,
    LegalPlays,
    TrickGame,
    can_play,
    duty,
    first_leader,
    legal_cards,
    legal_plays,
    next_seat,
    play_deal,
    settle_tricks,
    verify_play,
)
from cpsolver.evaluator.chlust import SetCategory, SetValue, WildRole, evaluate_set
from cpsolver.rules.chlust import ChlustRules

__all__ = [
    "BidAction",
    "BidRecord",
    "Bidding",
    "BiddingState",
    "ChlustRules",
    "Deal",
    "DealResult",
    "LegalPlays",
    "PlayAdvice",
    "SetCategory",
    "SetValue",
    "Showdown",
    "ShowdownOdds",
    "TrickGame",
    "WildRole",
    "advise_play",
    "can_play",
    "deal",
    "duty",
    "evaluate",
    "evaluate_set",
    "exchange_seat",
    "exchange_trump_ace",
    "first_leader",
    "legal_cards",
    "legal_plays",
    "next_seat",
    "parse_bid_action",
    "parse_hands",
    "play_deal",
    "settle_tricks",
    "showdown",
    "showdown_odds",
    "verify_play",
    "wilson_interval",
]
