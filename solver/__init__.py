"""cpsolver's library: Chinese poker arrangement, Chlust and Three Leaves on one evaluator.

The public API lives here; everything else is reachable through the submodules.

>>> from solver import parse_cards, evaluate
>>> evaluate("Qs Qd 2c").name
'pair of queens, 2 kicker'
"""

from solver.cards import DECKS, Card, Deck, Rank, Suit, format_cards, parse_cards
from solver.chinese import Solution, solve, solve_many
from solver.chinese.naturals import Natural, NaturalKind, detect_natural
from solver.chinese.scoring import TableResult, score
from solver.errors import (
    CardError,
    CpsolverError,
    FieldViolation,
    IllegalPlayError,
    InfeasibleError,
    InvalidInputError,
    RuleError,
)
from solver.evaluator.poker import Category, HandValue, evaluate
from solver.rules import ChineseRules, ChlustRules, Row

__all__ = [
    "DECKS",
    "Card",
    "CardError",
    "Category",
    "ChineseRules",
    "ChlustRules",
    "CpsolverError",
    "Deck",
    "FieldViolation",
    "HandValue",
    "IllegalPlayError",
    "InfeasibleError",
    "InvalidInputError",
    "Natural",
    "NaturalKind",
    "Rank",
    "Row",
    "RuleError",
    "Solution",
    "Suit",
    "TableResult",
    "detect_natural",
    "evaluate",
    "format_cards",
    "parse_cards",
    "score",
    "solve",
    "solve_many",
]
