"""The Three Leaves names of the old single module, kept for one release.

``cpsolver.three_leaves.game`` was split the way :mod:`cpsolver.chlust` is:
:mod:`~cpsolver.three_leaves.play` (TL-5 plays), :mod:`~cpsolver.three_leaves.deal` (a deal's
facts and choices, the khlyust check), :mod:`~cpsolver.three_leaves.engine` (playing a deal to
its end and settling it) and :mod:`~cpsolver.three_leaves.session` (deals in sequence). Import
from :mod:`cpsolver.three_leaves` (or those modules); this module re-exports their names and
warns (:class:`DeprecationWarning`) when imported.
"""

from __future__ import annotations

import warnings

from cpsolver.three_leaves.deal import (
    MAX_CARRIED_POT,
    MAX_SEED,
    Choices,
    Deal,
    Exchange,
    ExchangeAction,
    KhlyustClaim,
    assistant_of,
    best_khlyust,
    check_play_limits,
    turn_order,
)
from cpsolver.three_leaves.engine import (
    DealResult,
    Outcome,
    Payment,
    check_play_request,
    play_deal,
    play_tricks,
)
from cpsolver.three_leaves.play import (
    FACE_DOWN_MARK,
    TRICKS_PER_DEAL,
    LegalPlay,
    PlayPolicy,
    check_play,
    greedy_policy,
    leaf_trick,
    legal_on_trick,
    legal_plays,
    parse_play,
    parse_plays,
)
from cpsolver.three_leaves.session import SessionResult, play_session

warnings.warn(
    "cpsolver.three_leaves.game is deprecated: import from cpsolver.three_leaves (or its "
    "modules play, deal, engine, session)",
    DeprecationWarning,
    stacklevel=2,
)

__all__ = [
    "FACE_DOWN_MARK",
    "MAX_CARRIED_POT",
    "MAX_SEED",
    "TRICKS_PER_DEAL",
    "Choices",
    "Deal",
    "DealResult",
    "Exchange",
    "ExchangeAction",
    "KhlyustClaim",
    "LegalPlay",
    "Outcome",
    "Payment",
    "PlayPolicy",
    "SessionResult",
    "assistant_of",
    "best_khlyust",
    "check_play",
    "check_play_limits",
    "check_play_request",
    "greedy_policy",
    "leaf_trick",
    "legal_on_trick",
    "legal_plays",
    "parse_play",
    "parse_plays",
    "play_deal",
    "play_session",
    "play_tricks",
    "turn_order",
]
