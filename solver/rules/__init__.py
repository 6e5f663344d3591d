"""Rule sets: one typed, immutable object per game; the single source of truth for options."""

from solver.rules.base import Choice, RuleSet, parse_assignments
from solver.rules.chinese import (
    ChineseRules,
    Order,
    Row,
    Royalties,
    RoyaltyMode,
    Scoring,
    Wheel,
)
from solver.rules.chlust import ChlustRules, Purity, TrickTie, Underruff, WildShift

__all__ = [
    "ChineseRules",
    "ChlustRules",
    "Choice",
    "Order",
    "Purity",
    "Row",
    "Royalties",
    "RoyaltyMode",
    "RuleSet",
    "Scoring",
    "TrickTie",
    "Underruff",
    "Wheel",
    "WildShift",
    "parse_assignments",
]
