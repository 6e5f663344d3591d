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
from solver.rules.three_leaves import (
    ClassOrder,
    DrawAppliesTo,
    DrawSource,
    ThreeLeavesRules,
    Void,
    ZeroTricks,
)

__all__ = [
    "ChineseRules",
    "ChlustRules",
    "Choice",
    "ClassOrder",
    "DrawAppliesTo",
    "DrawSource",
    "Order",
    "Purity",
    "Row",
    "Royalties",
    "RoyaltyMode",
    "RuleSet",
    "Scoring",
    "ThreeLeavesRules",
    "TrickTie",
    "Underruff",
    "Void",
    "Wheel",
    "WildShift",
    "ZeroTricks",
    "parse_assignments",
]
