"""The Chinese poker rule set (RULES §2): every option, its default, presets, royalties.

>>> rules = ChineseRules.preset("two_four")
>>> rules.players, rules.scoring.value, rules.royalties.value, rules.naturals
(2, 'two_four', 'none', False)
>>> ChineseRules.preset("standard", order="strict").order
<Order.STRICT: 'strict'>
>>> ChineseRules.preset("standard", order="sideways")
Traceback (most recent call last):
...
cpsolver.errors.RuleError: rules.order: invalid value 'sideways'; valid values: weak, strict
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from cpsolver.evaluator.poker import Category
from cpsolver.rules.base import Choice, RuleSet, int_option

__all__ = ["ChineseRules", "Order", "Row", "Royalties", "RoyaltyMode", "Scoring", "Wheel"]


class Row(enum.IntEnum):
    """The three rows, in the order they are compared (RULES CP-2)."""

    FRONT = 0
    MIDDLE = 1
    BACK = 2

    @property
    def size(self) -> int:
        """Cards in the row: 3 for the front, 5 otherwise."""
        return 3 if self is Row.FRONT else 5

    @property
    def label(self) -> str:
        """Lower-case name used in JSON and field paths."""
        return self.name.lower()


class Order(Choice):
    """CP-6: whether a back equal to the middle is valid (``weak``) or a foul (``strict``)."""

    WEAK = "weak"
    STRICT = "strict"


class Wheel(Choice):
    """CP-3: where A-2-3-4-5 ranks among straights."""

    LOWEST = "lowest"
    SECOND_HIGHEST = "second_highest"


class Royalties(Choice):
    """CP-8: the royalty schedule."""

    STANDARD = "standard"
    EASTERN = "eastern"
    NONE = "none"


class RoyaltyMode(Choice):
    """CP-8: a royalty is the row's whole value (``replace``) or paid on top of 1 (``add``)."""

    REPLACE = "replace"
    ADD = "add"


class Scoring(Choice):
    """CP-9: per-pairing bonuses."""

    PER_ROW = "per_row"
    SCOOP_DOUBLE = "scoop_double"
    TWO_FOUR = "two_four"


# CP-8 royalty schedules: (row, category) -> units; royal flushes listed separately where the
# schedule distinguishes them. One table, read by ChineseRules.royalty and nothing else.
_ROYALTY_TABLE: dict[Royalties, dict[tuple[Row, Category], int]] = {
    Royalties.STANDARD: {
        (Row.FRONT, Category.THREE_OF_A_KIND): 3,
        (Row.MIDDLE, Category.FULL_HOUSE): 2,
        (Row.MIDDLE, Category.FOUR_OF_A_KIND): 4,
        (Row.MIDDLE, Category.STRAIGHT_FLUSH): 5,
        (Row.BACK, Category.FOUR_OF_A_KIND): 4,
        (Row.BACK, Category.STRAIGHT_FLUSH): 5,
    },
    Royalties.EASTERN: {
        (Row.FRONT, Category.THREE_OF_A_KIND): 3,
        (Row.MIDDLE, Category.FULL_HOUSE): 2,
        (Row.MIDDLE, Category.FOUR_OF_A_KIND): 8,
        (Row.MIDDLE, Category.STRAIGHT_FLUSH): 10,
        (Row.BACK, Category.FOUR_OF_A_KIND): 4,
        (Row.BACK, Category.STRAIGHT_FLUSH): 5,
    },
    Royalties.NONE: {},
}
_ROYAL_FLUSH_ROYALTY: dict[Royalties, dict[Row, int]] = {
    Royalties.EASTERN: {Row.MIDDLE: 14, Row.BACK: 7},
}


@dataclass(frozen=True, slots=True)
class ChineseRules(RuleSet):
    """Every option of RULES §2, defaults as marked **[default]** there."""

    GAME: ClassVar[str] = "chinese_poker"
    PRESETS: ClassVar = MappingProxyType(
        {
            "standard": {},
            "two_four": {
                "players": 2,
                "scoring": Scoring.TWO_FOUR,
                "royalties": Royalties.NONE,
                "naturals": False,
            },
            "eastern": {"royalties": Royalties.EASTERN},
        }
    )

    players: int = int_option(4, 2, 4, "CP-1: players at the table")
    order: Order = Order.WEAK
    wheel: Wheel = Wheel.LOWEST
    royalties: Royalties = Royalties.STANDARD
    royalty_mode: RoyaltyMode = RoyaltyMode.REPLACE
    scoring: Scoring = Scoring.PER_ROW
    naturals: bool = True

    def royalty(self, row: Row, category: Category, *, royal: bool = False) -> int:
        """Royalty units a winning row earns under this schedule (0 when none), CP-8.

        >>> ChineseRules().royalty(Row.MIDDLE, Category.FULL_HOUSE)
        2
        >>> ChineseRules.preset("eastern").royalty(Row.BACK, Category.STRAIGHT_FLUSH, royal=True)
        7
        """
        if royal and category is Category.STRAIGHT_FLUSH:
            special = _ROYAL_FLUSH_ROYALTY.get(self.royalties, {}).get(row)
            if special is not None:
                return special
        return _ROYALTY_TABLE[self.royalties].get((row, category), 0)

    def row_value(self, row: Row, category: Category, *, royal: bool = False) -> int:
        """Units a row collects when it wins: 1, or its royalty (``replace``), or 1 + royalty.

        >>> ChineseRules(royalty_mode=RoyaltyMode.ADD).row_value(Row.BACK, Category.FOUR_OF_A_KIND)
        5
        """
        royalty = self.royalty(row, category, royal=royal)
        if royalty == 0:
            return 1
        return royalty if self.royalty_mode is RoyaltyMode.REPLACE else 1 + royalty

    @property
    def strict_order(self) -> bool:
        """True when a back equal to the middle fouls (CP-6 ``order=strict``)."""
        return self.order is Order.STRICT

    @property
    def wheel_second_highest(self) -> bool:
        """True when A-2-3-4-5 ranks just below A-K-Q-J-T (CP-3)."""
        return self.wheel is Wheel.SECOND_HIGHEST
