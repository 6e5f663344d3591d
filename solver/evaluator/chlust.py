"""Chlust sets: category, purity, the wild card's role and a total-order key (CH-3..CH-5).

A hand is three cards of the Chlust deck (20 or 24 cards, CH-1) judged under a trump suit and a
:class:`~cpsolver.rules.chlust.ChlustRules`. Categories, high to low: three jacks, flush (three of
one suit), three of a rank, and no set. The wild card (10♣, or 10♠ when clubs are trumps, CH-3)
completes a set only where the other two cards share a suit or a rank; a hand takes its best set.
A set is **pure** when no wild card stands in for another card.

The key is an integer: a higher key wins the showdown, equal keys are equal hands (every hand
without a set has key 0; sets that the rules do not separate, such as two trips of one rank,
share a key - such hands can never meet in one deal, see ``docs/RULES-CHOICES.md``).

>>> from cpsolver.cards import Suit
>>> jacks = evaluate_set("Js Jh Tc", Suit.DIAMONDS)
>>> jacks.category.label, jacks.pure, jacks.stands_for
('three_jacks', False, Card('Jc'))
>>> jacks > evaluate_set("Ad Kd Qd", Suit.DIAMONDS)
True
>>> evaluate_set("Qh Jd Tc", Suit.DIAMONDS).category.label
'none'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import total_ordering

from cpsolver.cards import Card, CardsLike, Rank, Suit, parse_cards, parse_suit
from cpsolver.errors import Field
from cpsolver.rules.chlust import ChlustRules, Purity

__all__ = ["SetCategory", "SetValue", "WildRole", "evaluate_parsed", "evaluate_set", "set_key"]


class SetCategory(enum.IntEnum):
    """CH-4 categories, weakest first."""

    NONE = 0
    THREE_OF_A_RANK = 1
    FLUSH = 2
    THREE_JACKS = 3

    @property
    def label(self) -> str:
        """snake_case name used in JSON (``three_jacks``)."""
        return self.name.lower()


class WildRole(enum.Enum):
    """What the wild card does in a hand (CH-3)."""

    ABSENT = "absent"
    """The hand does not hold the wild card."""
    ITSELF = "itself"
    """The wild card stands as itself in the set (10♣ in three tens or a clubs flush): pure."""
    SUBSTITUTE = "substitute"
    """The wild card stands for another card: the set is impure."""
    UNUSED = "unused"
    """The hand holds the wild card but has no set."""


@total_ordering
@dataclass(frozen=True, eq=False)
class SetValue:
    """An evaluated Chlust hand. Comparisons use :attr:`key` only."""

    cards: tuple[Card, ...]
    """The three cards as held, best first."""
    trump: Suit
    category: SetCategory
    pure: bool
    """True for a set with no wild card standing in; False for an impure set or no set."""
    wild: Card
    """The wild card of the deal (whether or not this hand holds it)."""
    wild_role: WildRole
    stands_for: Card | None
    """The card the wild card stands for (when :attr:`wild_role` is ``SUBSTITUTE``)."""
    set_cards: tuple[Card, ...]
    """The set as judged, the wild card replaced by what it stands for; empty without a set."""
    suit: Suit | None
    """The flush's suit."""
    rank: Rank | None
    """The rank of three of a rank (J for three jacks)."""
    key: int

    @property
    def is_set(self) -> bool:
        """True unless the hand has no set."""
        return self.category is not SetCategory.NONE

    @property
    def name(self) -> str:
        """A human description, e.g. ``trump flush A-K-Q ♦ (pure)``."""
        if self.category is SetCategory.NONE:
            return "no set"
        stands = self.stands_for.pretty if self.stands_for else "?"
        purity = "pure" if self.pure else f"impure, {self.wild.pretty} as {stands}"
        if self.category is SetCategory.THREE_JACKS:
            body = "three jacks"
        elif self.category is SetCategory.THREE_OF_A_RANK:
            assert self.rank is not None
            body = f"three {self.rank.plural}"
        else:
            assert self.suit is not None
            kind = "trump flush" if self.suit is self.trump else "flush"
            ranks = "-".join(c.rank.symbol for c in self.set_cards)
            body = f"{kind} {ranks} {self.suit.symbol}"
        return f"{body} ({purity})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SetValue):
            return NotImplemented
        return self.key == other.key

    def __lt__(self, other: SetValue) -> bool:
        return self.key < other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values (cards as notation strings)."""
        return {
            "cards": [str(c) for c in self.cards],
            "trump": self.trump.value,
            "category": self.category.label,
            "pure": self.pure,
            "wild": str(self.wild),
            "wild_role": self.wild_role.value,
            "stands_for": str(self.stands_for) if self.stands_for else None,
            "set_cards": [str(c) for c in self.set_cards],
            "suit": self.suit.value if self.suit else None,
            "rank": self.rank.symbol if self.rank else None,
            "key": self.key,
            "name": self.name,
        }


def set_key(
    category: SetCategory,
    pure: bool,
    *,
    trump_suit: bool = False,
    suit: Suit | None = None,
    ranks: tuple[Rank, ...] = (),
    purity: Purity = Purity.SAME_SUIT_ONLY,
) -> int:
    """The integer key of a set from its facts (CH-5); 0 for no set.

    Digits, most significant first (base 16): global purity, category, purity within the
    category, trump flush, suit (♣ > ♠ > ♥ > ♦), purity within one suit, the three ranks high
    to low. Each purity digit is used only under its ``purity`` option.

    >>> set_key(SetCategory.FLUSH, True, suit=Suit.HEARTS, ranks=(Rank.ACE,)) > set_key(
    ...     SetCategory.THREE_OF_A_RANK, True, ranks=(Rank.ACE,) * 3)
    True
    """
    if category is SetCategory.NONE:
        return 0
    pure_bit = 1 if pure else 0
    flush = category is SetCategory.FLUSH
    digits = [
        pure_bit if purity is Purity.GLOBAL else 0,
        int(category),
        pure_bit if purity is Purity.WITHIN_CATEGORY else 0,
        1 if flush and trump_suit else 0,
        ChlustRules.suit_rank(suit) if flush and suit is not None else 0,
        pure_bit if flush and purity is Purity.SAME_SUIT_ONLY else 0,
    ]
    padded = [*sorted((int(r) for r in ranks), reverse=True), 0, 0, 0]
    digits.extend(padded[:3])
    key = 0
    for d in digits:
        key = key * 16 + d
    return key


# Suits in CH-1 order, high first: used to pick which jack/ten the wild card stands for.
_SUITS_HIGH_FIRST = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)


def evaluate_set(
    cards: CardsLike,
    trump: Suit | str,
    rules: ChlustRules | str | None = None,
    *,
    turned: Card | None = None,
    field: Field = "cards",
) -> SetValue:
    """Evaluate a 3-card Chlust hand under ``trump`` (CH-3..CH-5); raises ``CardError``.

    ``rules`` is a :class:`ChlustRules` or preset name; ``turned`` the trump indicator (only
    ``wild_shift=indicator_only`` needs it).

    >>> from cpsolver.cards import Suit
    >>> evaluate_set("10c Ac Kc", "h").name
    'flush A-K-T ♣ (pure)'
    >>> evaluate_set("10c 10h Jh", "h").name
    'trump flush A-J-T ♥ (impure, T♣ as A♥)'
    >>> evaluate_set("9h Jh Qh", Suit.DIAMONDS, "nines").pure
    True
    """
    rules = ChlustRules.resolve(rules)
    trump = parse_suit(trump, field="trump")
    held = parse_cards(cards, deck=rules.card_deck, count=3, field=field)
    wild = rules.wild_card(trump, turned)
    return evaluate_parsed(held, trump, wild, rules)


def evaluate_parsed(
    held: tuple[Card, ...], trump: Suit, wild: Card, rules: ChlustRules
) -> SetValue:
    """:func:`evaluate_set` of cards already checked (three distinct cards of the deck) with the
    wild card resolved: no parsing, for the hot paths of the showdown and the odds."""
    ordered = tuple(
        sorted(held, key=lambda c: (c.rank, ChlustRules.suit_rank(c.suit)), reverse=True)
    )
    if wild in held:
        others = [c for c in held if c != wild]
        a, b = others
        if a.rank == b.rank:
            rank = a.rank
            if rank == wild.rank:
                # The wild card is a ten beside two tens: it stands as itself (pure trips).
                return _make(
                    ordered,
                    trump,
                    wild,
                    rules,
                    SetCategory.THREE_OF_A_RANK,
                    True,
                    WildRole.ITSELF,
                    None,
                    ordered,
                    None,
                    rank,
                )
            missing = next(s for s in _SUITS_HIGH_FIRST if s not in (a.suit, b.suit))
            stand = Card(rank, missing)
            category = SetCategory.THREE_JACKS if rank == Rank.JACK else SetCategory.THREE_OF_A_RANK
            return _make(
                ordered,
                trump,
                wild,
                rules,
                category,
                False,
                WildRole.SUBSTITUTE,
                stand,
                _sorted((a, b, stand)),
                None,
                rank,
            )
        if a.suit == b.suit:
            suit = a.suit
            if suit == wild.suit:
                return _make(
                    ordered,
                    trump,
                    wild,
                    rules,
                    SetCategory.FLUSH,
                    True,
                    WildRole.ITSELF,
                    None,
                    ordered,
                    suit,
                    None,
                )
            top = next(r for r in reversed(rules.card_deck.ranks) if r not in (a.rank, b.rank))
            stand = Card(top, suit)
            return _make(
                ordered,
                trump,
                wild,
                rules,
                SetCategory.FLUSH,
                False,
                WildRole.SUBSTITUTE,
                stand,
                _sorted((a, b, stand)),
                suit,
                None,
            )
        return _make(
            ordered,
            trump,
            wild,
            rules,
            SetCategory.NONE,
            False,
            WildRole.UNUSED,
            None,
            (),
            None,
            None,
        )
    if all(c.rank == Rank.JACK for c in held):
        return _make(
            ordered,
            trump,
            wild,
            rules,
            SetCategory.THREE_JACKS,
            True,
            WildRole.ABSENT,
            None,
            ordered,
            None,
            Rank.JACK,
        )
    if len({c.suit for c in held}) == 1:
        return _make(
            ordered,
            trump,
            wild,
            rules,
            SetCategory.FLUSH,
            True,
            WildRole.ABSENT,
            None,
            ordered,
            held[0].suit,
            None,
        )
    if len({c.rank for c in held}) == 1:
        return _make(
            ordered,
            trump,
            wild,
            rules,
            SetCategory.THREE_OF_A_RANK,
            True,
            WildRole.ABSENT,
            None,
            ordered,
            None,
            held[0].rank,
        )
    return _make(
        ordered, trump, wild, rules, SetCategory.NONE, False, WildRole.ABSENT, None, (), None, None
    )


def _sorted(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: (c.rank, ChlustRules.suit_rank(c.suit)), reverse=True))


def _make(
    ordered: tuple[Card, ...],
    trump: Suit,
    wild: Card,
    rules: ChlustRules,
    category: SetCategory,
    pure: bool,
    role: WildRole,
    stands_for: Card | None,
    set_cards: tuple[Card, ...],
    suit: Suit | None,
    rank: Rank | None,
) -> SetValue:
    if category is SetCategory.FLUSH:
        ranks = tuple(c.rank for c in set_cards)
    elif category is SetCategory.NONE:
        ranks = ()
    else:
        assert rank is not None
        ranks = (rank, rank, rank)
    key = set_key(
        category,
        pure,
        trump_suit=suit is trump,
        suit=suit,
        ranks=ranks,
        purity=rules.purity,
    )
    return SetValue(
        ordered, trump, category, pure, wild, role, stands_for, set_cards, suit, rank, key
    )
