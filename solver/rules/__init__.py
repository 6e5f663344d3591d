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

__all__ = [
    "ChineseRules",
    "Choice",
    "Order",
    "Row",
    "Royalties",
    "RoyaltyMode",
    "RuleSet",
    "Scoring",
    "Wheel",
    "parse_assignments",
]
