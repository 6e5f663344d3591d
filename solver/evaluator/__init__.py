"""The one evaluator of the project: hand categories and strength keys for all three games.

* :mod:`solver.evaluator.poker` - Chinese poker rows: 5-card hands and 3-card fronts on one
  integer scale (CP-3..CP-5).
* Chlust sets and Three Leaves khlyusts (trump- and wild-aware 3-card hands) live in their own
  modules of this package, on the same card model.
"""

from solver.evaluator.poker import Category, HandValue, evaluate, poker_tables, strength

__all__ = ["Category", "HandValue", "evaluate", "poker_tables", "strength"]
