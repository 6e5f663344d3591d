"""Rule sets: one typed, immutable object per game; the single source of truth for options."""

from cpsolver.rules.base import Choice, RuleSet, parse_assignments
from cpsolver.rules.chinese import (
    ChineseRules,
    Order,
    Row,
    Royalties,
    RoyaltyMode,
    Scoring,
    Wheel,
)
from cpsolver.rules.chlust import ChlustRules, Purity, TrickTie, Underruff, WildShift
from cpsolver.rules.ofc import Fantasyland, OfcRules, Stay, Variant
from cpsolver.rules.three_leaves import (
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
    "Fantasyland",
    "OfcRules",
    "Order",
    "Purity",
    "Row",
    "Royalties",
    "RoyaltyMode",
    "RuleSet",
    "Scoring",
    "Stay",
    "ThreeLeavesRules",
    "TrickTie",
    "Underruff",
    "Variant",
    "Void",
    "Wheel",
    "WildShift",
    "ZeroTricks",
    "parse_assignments",
]
