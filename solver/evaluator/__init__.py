"""The one evaluator of the project: hand categories and strength keys for all three games.

* :mod:`solver.evaluator.poker` - Chinese poker rows: 5-card hands and 3-card fronts on one
  integer scale (CP-3..CP-5).
* :mod:`solver.evaluator.chlust` - Chlust sets under a trump suit with the wild card (CH-3..CH-5).
* Three Leaves khlyusts (trump-aware 3-card hands) live in their own module of this package,
  on the same card model.
"""

from solver.evaluator.chlust import SetCategory, SetValue, WildRole, evaluate_set, set_key
from solver.evaluator.poker import Category, HandValue, evaluate, poker_tables, strength

__all__ = [
    "Category",
    "HandValue",
    "SetCategory",
    "SetValue",
    "WildRole",
    "evaluate",
    "evaluate_set",
    "poker_tables",
    "set_key",
    "strength",
]
