"""The one evaluator of the project: hand categories and strength keys for all three games.

* :mod:`cpsolver.evaluator.poker` - Chinese poker rows: 5-card hands and 3-card fronts on one
  integer scale (CP-3..CP-5).
* :mod:`cpsolver.evaluator.chlust` - Chlust sets under a trump suit with the wild card (CH-3..CH-5).
* :mod:`cpsolver.evaluator.khlyust` - Three Leaves hands under a trump suit: khlyust class, card
  points, the TL-4 order key (TL-1, TL-4).
"""

from cpsolver.evaluator.chlust import SetCategory, SetValue, WildRole, evaluate_set, set_key
from cpsolver.evaluator.khlyust import (
    KhlyustClass,
    KhlyustValue,
    card_points,
    evaluate_khlyust,
    hand_points,
)
from cpsolver.evaluator.poker import Category, HandValue, evaluate, poker_tables, strength

__all__ = [
    "Category",
    "HandValue",
    "KhlyustClass",
    "KhlyustValue",
    "SetCategory",
    "SetValue",
    "WildRole",
    "card_points",
    "evaluate",
    "evaluate_khlyust",
    "evaluate_set",
    "hand_points",
    "poker_tables",
    "set_key",
    "strength",
]
