"""The Chlust rule set (RULES §3, CH-1..CH-9): every option, its default, presets.

>>> rules = ChlustRules()
>>> rules.players, rules.deck, rules.purity.value, rules.trick_tie.value
(4, 20, 'same_suit_only', 'carry')
>>> ChlustRules.preset("standard", deck="24").lowest_rank
<Rank.NINE: 9>
>>> ChlustRules.preset("standard", deck=28)
Traceback (most recent call last):
...
cpsolver.errors.RuleError: rules.deck: invalid value 28; valid values: 20, 24
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from cpsolver.cards import DECKS, Card, Deck, Rank, Suit
from cpsolver.rules.base import Choice, RuleSet, int_option

__all__ = ["ChlustRules", "Purity", "TrickTie", "Underruff", "WildShift"]


class WildShift(Choice):
    """CH-3: when the wild card moves from the 10♣ to the 10♠.

    ``clubs_trump`` [default]: whenever clubs are trumps; ``indicator_only``: only when the
    turned card is the 10♣ itself.
    """

    CLUBS_TRUMP = "clubs_trump"
    INDICATOR_ONLY = "indicator_only"


class Purity(Choice):
    """CH-5: where a pure set (wild card standing as itself, or no wild card) ranks higher.

    ``same_suit_only`` [default]: only between flushes of one suit; ``within_category``: first
    key after the category; ``global``: every pure set beats every impure one.
    """

    SAME_SUIT_ONLY = "same_suit_only"
    WITHIN_CATEGORY = "within_category"
    GLOBAL = "global"


class Underruff(Choice):
    """CH-8: a player void in the led suit who cannot overtrump a trump heading the trick.

    ``must_trump`` [default]: must still play a (lower) trump; ``may_discard``: may play any card.
    """

    MUST_TRUMP = "must_trump"
    MAY_DISCARD = "may_discard"


class TrickTie(Choice):
    """CH-9: a tie for most tricks.

    ``carry`` [default]: the pot stays for the next deal; ``split``: the tied players share
    it; ``thirds``: each trick takes a third of the pot.
    """

    CARRY = "carry"
    SPLIT = "split"
    THIRDS = "thirds"


_SUIT_RANK = {Suit.CLUBS: 3, Suit.SPADES: 2, Suit.HEARTS: 1, Suit.DIAMONDS: 0}


@dataclass(frozen=True, slots=True)
class ChlustRules(RuleSet):
    """Every option of RULES §3, defaults as marked **[default]** there (see RULES-CHOICES)."""

    GAME: ClassVar[str] = "chlust"
    PRESETS: ClassVar = MappingProxyType(
        {
            "standard": {},
            "nines": {"deck": 24},
            "heads_up": {"players": 2},
        }
    )

    players: int = int_option(4, 2, 4, "CH-1: players at the table")
    deck: int = int_option(20, 20, 24, "CH-1: 20 cards (T-A) or 24 (9-A)", choices=(20, 24))
    wild_shift: WildShift = WildShift.CLUBS_TRUMP
    purity: Purity = Purity.SAME_SUIT_ONLY
    underruff: Underruff = Underruff.MUST_TRUMP
    trick_tie: TrickTie = TrickTie.CARRY
    ante: int = int_option(1, 1, 1_000_000, "CH-2: each player's stake into the pot")
    raise_unit: int = int_option(1, 1, 1_000_000, "CH-6: the size of one raise")
    max_raises: int = int_option(3, 0, 100, "CH-6: raises allowed in one bidding round")

    @property
    def card_deck(self) -> Deck:
        """The :class:`~cpsolver.cards.Deck` in play (CH-1)."""
        return DECKS[self.deck]

    @property
    def lowest_rank(self) -> Rank:
        """The lowest rank of the deck: the 10, or the 9 with 24 cards (CH-2)."""
        return self.card_deck.lowest

    def wild_card(self, trump: Suit, turned: Card | None = None) -> Card:
        """The wild card of a deal (CH-3).

        ``turned`` is the card that set trumps; only ``wild_shift=indicator_only`` reads it
        (when it is not given, it is taken not to be the 10♣).

        >>> str(ChlustRules().wild_card(Suit.HEARTS)), str(ChlustRules().wild_card(Suit.CLUBS))
        ('Tc', 'Ts')
        >>> late = ChlustRules(wild_shift=WildShift.INDICATOR_ONLY)
        >>> [str(late.wild_card(Suit.CLUBS, Card.of(t))) for t in ("Kc", "Tc")]
        ['Tc', 'Ts']
        """
        ten_clubs = Card(Rank.TEN, Suit.CLUBS)
        if self.wild_shift is WildShift.CLUBS_TRUMP:
            shifted = trump is Suit.CLUBS
        else:
            shifted = turned == ten_clubs
        return Card(Rank.TEN, Suit.SPADES) if shifted else ten_clubs

    @staticmethod
    def suit_rank(suit: Suit) -> int:
        """CH-1 suit order for ties: ♣ 3 > ♠ 2 > ♥ 1 > ♦ 0.

        >>> [ChlustRules.suit_rank(s) for s in (Suit.CLUBS, Suit.SPADES, Suit.HEARTS)]
        [3, 2, 1]
        """
        return _SUIT_RANK[suit]
