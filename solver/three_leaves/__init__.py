"""Three Leaves ("Tri listika", RULES §4) on the shared card model, evaluator and tricks.

* :mod:`solver.three_leaves.game` - a deal from facts and choices: khlyust check and payment
  round, play-out, exchange, tricks with face-down discards, settlement over a session.
* :mod:`solver.three_leaves.advice` - odds and exchange advice for bots.
"""

from solver.three_leaves.advice import (
    Estimate,
    ExchangeOption,
    KhlyustOdds,
    TrickOdds,
    exchange_advice,
    khlyust_odds,
    trick_odds,
)
from solver.three_leaves.game import (
    Choices,
    Deal,
    DealResult,
    Exchange,
    ExchangeAction,
    KhlyustClaim,
    Outcome,
    Payment,
    PlayPolicy,
    SessionResult,
    assistant_of,
    best_khlyust,
    check_play,
    greedy_policy,
    legal_plays,
    parse_play,
    parse_plays,
    play_deal,
    play_session,
    play_tricks,
    turn_order,
)

__all__ = [
    "Choices",
    "Deal",
    "DealResult",
    "Estimate",
    "Exchange",
    "ExchangeAction",
    "ExchangeOption",
    "KhlyustClaim",
    "KhlyustOdds",
    "Outcome",
    "Payment",
    "PlayPolicy",
    "SessionResult",
    "TrickOdds",
    "assistant_of",
    "best_khlyust",
    "check_play",
    "exchange_advice",
    "greedy_policy",
    "khlyust_odds",
    "legal_plays",
    "parse_play",
    "parse_plays",
    "play_deal",
    "play_session",
    "play_tricks",
    "trick_odds",
    "turn_order",
]
