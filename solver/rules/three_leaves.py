"""The Three Leaves rule set (RULES §4, TL-1..TL-6): every option, its default, presets.

>>> rules = ThreeLeavesRules()
>>> rules.players, rules.deck, rules.void.value, rules.zero_tricks.value
(4, 28, 'trump_or_discard', 'pay_penalty')
>>> ThreeLeavesRules.preset("standard", deck=32, players=3).card_deck.size
32
>>> ThreeLeavesRules.preset("standard", deck=30)
Traceback (most recent call last):
...
cpsolver.errors.RuleError: rules.deck: invalid value 30; valid values: 28, 32
>>> ThreeLeavesRules.preset("standard", zero_tricks="x")
Traceback (most recent call last):
...
cpsolver.errors.RuleError: rules.zero_tricks: invalid value 'x'; valid values: pay_penalty, forfeit
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from cpsolver.cards import DECKS, Deck
from cpsolver.evaluator.khlyust import KhlyustClass
from cpsolver.rules.base import Choice, RuleSet, int_option

__all__ = [
    "ClassOrder",
    "DrawAppliesTo",
    "DrawSource",
    "ThreeLeavesRules",
    "Void",
    "ZeroTricks",
]


class ClassOrder(Choice):
    """TL-4: the order of the khlyust classes, high to low.

    ``trump_first`` [default]: trump khlyust > three of a rank > plain khlyust.
    ``trips_first``: three of a rank > trump khlyust > plain khlyust (the source's "never
    challenged" read as "highest").
    """

    TRUMP_FIRST = "trump_first"
    TRIPS_FIRST = "trips_first"


class DrawSource(Choice):
    """TL-4: where the payment round's cards come from.

    ``holder`` [default]: each opponent picks one of the holder's three face-down cards;
    ``stock``: each opponent draws the top card of the stock.
    """

    HOLDER = "holder"
    STOCK = "stock"


class DrawAppliesTo(Choice):
    """TL-4: which khlyust taking the pot without play has a payment round.

    ``trump_khlyust`` [default] or ``any_khlyust`` (also three of a rank and an unchallenged
    plain khlyust).
    """

    TRUMP_KHLYUST = "trump_khlyust"
    ANY_KHLYUST = "any_khlyust"


class ZeroTricks(Choice):
    """TL-4: a plain khlyust that takes no trick in a play-out.

    ``pay_penalty`` [default]: the holder takes the pot and pays ``flop_penalty`` to each other
    player; ``forfeit``: the holder takes nothing and the pot stays.
    """

    PAY_PENALTY = "pay_penalty"
    FORFEIT = "forfeit"


class Void(Choice):
    """TL-5: what a player void in the led suit may play.

    ``trump_or_discard`` [default]: a trump face up or any card face down;
    ``must_trump``: a trump face up when holding one, else any card face down;
    ``discard_only``: any card face down (trumps win only when trumps are led).
    """

    TRUMP_OR_DISCARD = "trump_or_discard"
    MUST_TRUMP = "must_trump"
    DISCARD_ONLY = "discard_only"


@dataclass(frozen=True, slots=True)
class ThreeLeavesRules(RuleSet):
    """Every option of RULES §4, defaults as marked **[default]** there.

    Money amounts (``ante``, ``share``, ``flop_penalty``) are whole units; a card's points in
    the payment round are paid one unit per point.
    """

    GAME: ClassVar[str] = "three_leaves"
    PRESETS: ClassVar = MappingProxyType(
        {
            "standard": {},
            "two_players": {"players": 2},
            "three_players": {"players": 3},
        }
    )

    players: int = int_option(4, 2, 4, "TL-1: players at the table")
    deck: int = int_option(28, 28, 32, "TL-1: 28 (8..A) or 32 (7..A) cards", choices=(28, 32))
    khlyust_after_exchange: bool = False
    class_order: ClassOrder = ClassOrder.TRUMP_FIRST
    draw_source: DrawSource = DrawSource.HOLDER
    draw_applies_to: DrawAppliesTo = DrawAppliesTo.TRUMP_KHLYUST
    zero_tricks: ZeroTricks = ZeroTricks.PAY_PENALTY
    void: Void = Void.TRUMP_OR_DISCARD
    ante: int = int_option(1, 0, 1_000_000, "TL-2: units each player puts in the pot per deal")
    share: int = int_option(1, 0, 1_000_000, "TL-6: units a 2-trick player gets per 0-trick one")
    flop_penalty: int = int_option(
        1, 0, 1_000_000, "TL-4: units a 0-trick khlyust holder pays each other player"
    )

    @property
    def card_deck(self) -> Deck:
        """The :class:`~cpsolver.cards.Deck` of this rule set (TL-1)."""
        return DECKS[self.deck]

    @property
    def class_ranking(self) -> tuple[KhlyustClass, ...]:
        """Khlyust classes from low to high under ``class_order`` (NONE first), TL-4.

        >>> [c.label for c in ThreeLeavesRules().class_ranking]
        ['none', 'plain_khlyust', 'three_of_a_rank', 'trump_khlyust']
        """
        if self.class_order is ClassOrder.TRIPS_FIRST:
            return (KhlyustClass.NONE, KhlyustClass.PLAIN, KhlyustClass.TRUMP, KhlyustClass.TRIPS)
        return (KhlyustClass.NONE, KhlyustClass.PLAIN, KhlyustClass.TRIPS, KhlyustClass.TRUMP)
