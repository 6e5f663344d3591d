"""Three Leaves ("Tri listika", RULES §4) on the shared card model, evaluator and tricks.

* :mod:`cpsolver.three_leaves.play` - TL-5 written once: legal plays, checking a play, a policy;
* :mod:`cpsolver.three_leaves.deal` - seats and turn order, a deal's facts and the players'
  choices, the khlyust check (TL-2..TL-4);
* :mod:`cpsolver.three_leaves.engine` - a deal played to its end: payment round, play-out,
  exchange, tricks with face-down discards, settlement (TL-3..TL-6);
* :mod:`cpsolver.three_leaves.session` - deals in sequence, the pot carried over (TL-6);
* :mod:`cpsolver.three_leaves.advice` - odds and exchange advice for bots.
"""

from cpsolver.three_leaves.advice import (
    Estimate,
    ExchangeOption,
    HandAdvice,
    KhlyustOdds,
    TrickOdds,
    advise_hand,
    exchange_advice,
    khlyust_odds,
    trick_odds,
)
from cpsolver.three_leaves.deal import (
    Choices,
    Deal,
    Exchange,
    ExchangeAction,
    KhlyustClaim,
    assistant_of,
    best_khlyust,
    deal,
    evaluate,
    turn_order,
)
from cpsolver.three_leaves.engine import DealResult, Outcome, Payment, play_deal, play_tricks
from cpsolver.three_leaves.play import (
    LegalPlay,
    PlayPolicy,
    can_play,
    check_play,
    greedy_policy,
    leaf_trick,
    legal_on_trick,
    legal_plays,
    parse_play,
    parse_plays,
    verify_play,
)
from cpsolver.three_leaves.session import SessionResult, play_session

__all__ = [
    "Choices",
    "Deal",
    "DealResult",
    "Estimate",
    "Exchange",
    "ExchangeAction",
    "ExchangeOption",
    "HandAdvice",
    "KhlyustClaim",
    "KhlyustOdds",
    "LegalPlay",
    "Outcome",
    "Payment",
    "PlayPolicy",
    "SessionResult",
    "TrickOdds",
    "advise_hand",
    "assistant_of",
    "best_khlyust",
    "can_play",
    "check_play",
    "deal",
    "evaluate",
    "exchange_advice",
    "greedy_policy",
    "khlyust_odds",
    "leaf_trick",
    "legal_on_trick",
    "legal_plays",
    "parse_play",
    "parse_plays",
    "play_deal",
    "play_session",
    "play_tricks",
    "trick_odds",
    "turn_order",
    "verify_play",
]
