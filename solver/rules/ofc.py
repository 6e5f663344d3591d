"""The open-face Chinese poker rule set (RULES §5): presets, royalties and fantasyland.

Everything OFC decides by rule lives here, once: the royalty schedule (OFC-3), who enters or
stays in fantasyland and with how many cards (OFC-5), the street structure of each variant
(OFC-1). Hands, rows and their order are Chinese poker's under its defaults (OFC-2: the wheel is
the lowest straight, an equal back and middle are valid), so the strength scale is
:func:`cpsolver.evaluator.poker.poker_tables` with ``wheel_second_highest=False``.

>>> rules = OfcRules.preset("pineapple")
>>> rules.variant.value, rules.players, rules.fantasyland.value, rules.stay.value
('pineapple', 3, 'standard', 'default')
>>> OfcRules.preset("classic").streets
(5, 1, 1, 1, 1, 1, 1, 1, 1)
>>> OfcRules.preset("pineapple", players=4)
Traceback (most recent call last):
...
cpsolver.errors.RuleError: rules.players: pineapple is played by 2 or 3 players (OFC-1), got 4
>>> OfcRules.resolve(None, fantasyland="progressive").fantasyland
<Fantasyland.PROGRESSIVE: 'progressive'>
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from cpsolver.errors import RuleError
from cpsolver.evaluator.poker import NUM_CLASSES, Category, poker_tables
from cpsolver.rules.base import Choice, RuleSet, int_option
from cpsolver.rules.chinese import Row

__all__ = [
    "FANTASYLAND_CARDS",
    "Fantasyland",
    "OfcRules",
    "Stay",
    "Variant",
    "royalty_of_key",
]


class Variant(Choice):
    """OFC-1: Pineapple (5, then 4 streets of 3 cards keeping 2) or classic (5, then 8 x 1)."""

    PINEAPPLE = "pineapple"
    CLASSIC = "classic"


class Fantasyland(Choice):
    """OFC-5: 14 cards on every entry (``standard``) or 14/15/16/17 by the front
    (``progressive``)."""

    STANDARD = "standard"
    PROGRESSIVE = "progressive"


class Stay(Choice):
    """OFC-5: what keeps a fantasyland player in fantasyland (the front trips clause always)."""

    DEFAULT = "default"
    NO_MIDDLE = "no_middle"
    QUADS_MIDDLE = "quads_middle"


FANTASYLAND_CARDS = 14
"""Cards dealt in fantasyland on entry under ``standard`` and on every stay (OFC-5)."""

# OFC-3, by row: (category, royalty) for the five-card rows; a royal flush apart.
_FIVE_CARD_ROYALTIES: dict[Row, dict[Category, int]] = {
    Row.BACK: {
        Category.STRAIGHT: 2,
        Category.FLUSH: 4,
        Category.FULL_HOUSE: 6,
        Category.FOUR_OF_A_KIND: 10,
        Category.STRAIGHT_FLUSH: 15,
    },
    Row.MIDDLE: {
        Category.THREE_OF_A_KIND: 2,
        Category.STRAIGHT: 4,
        Category.FLUSH: 8,
        Category.FULL_HOUSE: 12,
        Category.FOUR_OF_A_KIND: 20,
        Category.STRAIGHT_FLUSH: 30,
    },
}
_ROYAL_FLUSH: dict[Row, int] = {Row.BACK: 25, Row.MIDDLE: 50}
# Front (ranks 0-based, deuce 0 .. ace 12): a pair of sixes (4) earns 1, each rank more 1 more,
# aces 9; three deuces earn 10, each rank more 1 more, aces 22.
_FRONT_PAIR_FROM = 4
_FRONT_TRIPS_BASE = 10

_ROYAL_TOP = 24
"""A straight's key holds twice its top rank: 24 is ace-high (see evaluator.poker._key)."""


def royalty_of_key(row: Row, key: tuple[int, ...]) -> int:
    """OFC-3 royalty of a row holding the hand of this evaluator key (category, ranks...).

    >>> from cpsolver.evaluator.poker import evaluate, poker_tables
    >>> keys = poker_tables().keys
    >>> royalty_of_key(Row.FRONT, keys[evaluate("Qs Qh 3c").strength])
    7
    >>> royalty_of_key(Row.FRONT, keys[evaluate("5s 5h 3c").strength])
    0
    >>> royalty_of_key(Row.MIDDLE, keys[evaluate("As Ks Qs Js Ts").strength])
    50
    """
    category = Category(key[0])
    if row is Row.FRONT:
        if category is Category.THREE_OF_A_KIND:
            return _FRONT_TRIPS_BASE + key[1]
        if category is Category.PAIR and key[1] >= _FRONT_PAIR_FROM:
            return key[1] - _FRONT_PAIR_FROM + 1
        return 0
    if category is Category.STRAIGHT_FLUSH and key[1] == _ROYAL_TOP:
        return _ROYAL_FLUSH[row]
    return _FIVE_CARD_ROYALTIES[row].get(category, 0)


@cache
def _royalty_table() -> npt.NDArray[np.int64]:
    keys = poker_tables(False).keys
    front = poker_tables(False).is_front
    table = np.zeros((3, NUM_CLASSES), dtype=np.int64)
    for cls, key in enumerate(keys):
        if front[cls]:
            table[Row.FRONT, cls] = royalty_of_key(Row.FRONT, key)
        else:
            table[Row.MIDDLE, cls] = royalty_of_key(Row.MIDDLE, key)
            table[Row.BACK, cls] = royalty_of_key(Row.BACK, key)
    table.setflags(write=False)
    return table


_QUEENS = 10  # 0-based rank of the queen
_KINGS = 11
_ACES = 12


@dataclass(frozen=True, slots=True)
class OfcRules(RuleSet):
    """Every option of RULES §5, defaults as marked **[default]** there.

    ``players`` is the table size the solver assumes (advice, self-play); a table given to
    :func:`cpsolver.ofc.score` has as many seats as it has boards (2-3, classic 2-4).
    """

    GAME: ClassVar[str] = "ofc"
    PRESETS: ClassVar = MappingProxyType(
        {
            "pineapple": {},
            "classic": {"variant": Variant.CLASSIC},
        }
    )
    DEFAULT_PRESET: ClassVar[str] = "pineapple"

    variant: Variant = Variant.PINEAPPLE
    players: int = int_option(
        3, 2, 4, "OFC-1: players at the table (pineapple 2-3)", narrower="pineapple: 2 or 3"
    )
    fantasyland: Fantasyland = Fantasyland.STANDARD
    stay: Stay = Stay.DEFAULT

    def _check(self) -> None:
        if self.players > self.max_players:
            raise RuleError(
                "rules.players",
                f"{self.variant.value} is played by 2 or 3 players (OFC-1), got {self.players}",
            )

    @property
    def max_players(self) -> int:
        """Seats a table may have (OFC-1): 3 in pineapple (17 cards each), 4 in classic."""
        return 3 if self.variant is Variant.PINEAPPLE else 4

    @property
    def streets(self) -> tuple[int, ...]:
        """Cards dealt per street (OFC-1): the first street 5, then 3 (pineapple) or 1."""
        if self.variant is Variant.PINEAPPLE:
            return (5, 3, 3, 3, 3)
        return (5, *([1] * 8))

    @property
    def kept(self) -> tuple[int, ...]:
        """Cards placed per street: all five on street 1, then 2 of 3 (pineapple) or 1."""
        return tuple(min(dealt, 2) if i else dealt for i, dealt in enumerate(self.streets))

    @staticmethod
    def royalty_table() -> npt.NDArray[np.int64]:
        """``table[row][cls]``: the OFC-3 royalty of each strength class in each row (indexed by
        :class:`~cpsolver.rules.chinese.Row`; a five-card class in the front and a front class
        in a five-card row are 0). Read-only, built once.

        >>> from cpsolver.evaluator.poker import evaluate
        >>> table = OfcRules.royalty_table()
        >>> int(table[Row.BACK, evaluate("2s 2h 2d 2c Ks").strength])
        10
        >>> int(table[Row.FRONT, evaluate("As Ah Ad").strength])
        22
        """
        return _royalty_table()

    def royalty(self, row: Row, cls: int) -> int:
        """The OFC-3 royalty of strength class ``cls`` in ``row``.

        >>> from cpsolver.evaluator.poker import evaluate
        >>> OfcRules().royalty(Row.MIDDLE, evaluate("As Ah Ad Kh Kd").strength)
        12
        """
        return int(_royalty_table()[row, cls])

    def enters_with(self, front: int) -> int:
        """Cards of the next hand's fantasyland for an unfouled board (not in fantasyland) with
        front class ``front``: 0 below a pair of queens (OFC-5).

        >>> from cpsolver.evaluator.poker import evaluate
        >>> rules = OfcRules.preset("pineapple", fantasyland="progressive")
        >>> [rules.enters_with(evaluate(f).strength) for f in ("Js Jh Ac", "Qs Qh 2c",
        ...     "Ks Kh 2c", "As Ah 2c", "2s 2h 2c")]
        [0, 14, 15, 16, 17]
        >>> OfcRules().enters_with(evaluate("2s 2h 2c").strength)
        14
        """
        key = poker_tables(False).keys[front]
        category = Category(key[0])
        if category is Category.THREE_OF_A_KIND:
            top = 17
        elif category is Category.PAIR and key[1] >= _QUEENS:
            top = 14 + key[1] - _QUEENS
        else:
            return 0
        return top if self.fantasyland is Fantasyland.PROGRESSIVE else FANTASYLAND_CARDS

    def stays(self, back: int, middle: int, front: int) -> bool:
        """True when an unfouled fantasyland board with these classes stays (OFC-5): three of a
        kind in front, or (``stay=default``) a full house or better in the middle, or
        (``stay=quads_middle``) four of a kind or better there, or four of a kind or better in
        the back.

        >>> from cpsolver.evaluator.poker import evaluate
        >>> s = lambda t: evaluate(t).strength
        >>> full = (s("2s 2h 2d 2c Ks"), s("As Ah Ad Kh Kd"), s("Qs Qh 3c"))
        >>> OfcRules().stays(*full), OfcRules().replace(stay="no_middle").stays(s("Ts 9s 8s 7h 6h"),
        ...     *full[1:])
        (True, False)
        """
        categories = poker_tables(False).category
        if categories[front] == Category.THREE_OF_A_KIND:
            return True
        if categories[back] >= Category.FOUR_OF_A_KIND:
            return True
        if self.stay is Stay.NO_MIDDLE:
            return False
        lowest = Category.FULL_HOUSE if self.stay is Stay.DEFAULT else Category.FOUR_OF_A_KIND
        return bool(categories[middle] >= lowest)

    def next_fantasyland(
        self, back: int, middle: int, front: int, *, fouled: bool, in_fantasyland: bool
    ) -> int:
        """Cards of the next hand's fantasyland (0: none) for a finished board (OFC-5): a
        fantasyland board stays with 14 cards or leaves; any other enters by its front.
        """
        if fouled:
            return 0
        if in_fantasyland:
            return FANTASYLAND_CARDS if self.stays(back, middle, front) else 0
        return self.enters_with(front)
