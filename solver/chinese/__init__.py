"""Chinese poker (RULES §2): naturals, table scoring and the arranger live in submodules."""

from cpsolver.chinese.ev_model import TablesInfo
from cpsolver.chinese.hands import evaluate
from cpsolver.chinese.naturals import Natural, NaturalKind, detect_natural, detect_naturals
from cpsolver.chinese.objectives import get_objective, objective_names, register_objective
from cpsolver.chinese.search import warm_up
from cpsolver.chinese.solve import Arrangement, Solution, solve, solve_many

__all__ = [
    "Arrangement",
    "Natural",
    "NaturalKind",
    "Solution",
    "TablesInfo",
    "detect_natural",
    "detect_naturals",
    "evaluate",
    "get_objective",
    "objective_names",
    "register_objective",
    "solve",
    "solve_many",
    "warm_up",
]
