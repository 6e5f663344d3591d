"""cpsolver's library: Chinese poker arrangement, Chlust and Three Leaves on one evaluator.

The public API lives here; everything else is reachable through the submodules.

>>> from cpsolver import parse_cards, evaluate
>>> evaluate("Qs Qd 2c").name
'pair of queens, 2 kicker'
"""

import importlib
from importlib import metadata
from types import ModuleType

from cpsolver.cards import DECKS, Card, Deck, Rank, Suit, format_cards, parse_cards
from cpsolver.chinese import Solution, evaluate, solve, solve_many
from cpsolver.chinese.naturals import Natural, NaturalKind, detect_natural
from cpsolver.chinese.rate import Rating, rate
from cpsolver.chinese.review import Review, review
from cpsolver.chinese.scoring import TableResult, score
from cpsolver.errors import (
    CardError,
    CpsolverError,
    FieldViolation,
    IllegalPlayError,
    InfeasibleError,
    InvalidInputError,
    RuleError,
)
from cpsolver.evaluator.poker import Category, HandValue
from cpsolver.rules import ChineseRules, ChlustRules, Row

try:
    __version__ = metadata.version("cpsolver")
except metadata.PackageNotFoundError:  # a source tree on sys.path, not installed
    __version__ = "0+unknown"

# The other games and the typed client, loaded on first use (``cpsolver.chlust.deal(...)``
# after ``import cpsolver``, as the docs write it) so that importing the package stays light:
# the client brings gRPC with it when a remote is asked for.
_SUBMODULES = frozenset({"chlust", "three_leaves", "ofc", "client"})


def __getattr__(name: str) -> ModuleType:
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    "Rating",
    "Review",
    "Row",
    "RuleError",
    "Solution",
    "Suit",
    "TableResult",
    "detect_natural",
    "evaluate",
    "format_cards",
    "parse_cards",
    "rate",
    "review",
    "score",
    "solve",
    "solve_many",
]
