"""Chlust deal and showdown (CH-2, CH-7): dealing, the trump-ace exchange, ranking the hands.

>>> from cpsolver.cards import Card
>>> exchange_trump_ace("Td Ah As", Card.of("Ad"))
(Card('Ad'), Card('Ah'), Card('As'))
>>> result = showdown(["Js Jh Tc", "Ad Kd Qd", "Qh Jd Ks"], "d")
>>> result.winner, result.ranking
(0, ((0,), (1,), (2,)))
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cpsolver.cards import (
    Card,
    CardsLike,
    Rank,
    Suit,
    duplicate_description,
    parse_card,
    parse_cards,
    parse_suit,
)
from cpsolver.errors import (
    CardError,
    CardTypeError,
    Field,
    FieldPath,
    IllegalPlayError,
    InvalidInputError,
    field_path,
)
from cpsolver.evaluator.chlust import SetValue, evaluate_parsed, evaluate_set
from cpsolver.rules.chlust import ChlustRules
from cpsolver.seeds import MAX_SEED, check_seed

__all__ = [
    "MAX_SEED",
    "Deal",
    "Showdown",
    "check_deal_request",
    "check_seed",
    "deal",
    "evaluate",
    "exchange_seat",
    "exchange_trump_ace",
    "one_card",
    "parse_hands",
    "showdown",
]


def one_card(value: Card | str, rules: ChlustRules, field: Field) -> Card:
    """One card (a :class:`Card` or its notation) from the rules' deck; raises ``CardError``."""
    if isinstance(value, Card):
        if value not in rules.card_deck:
            raise CardError(field, f"card {value} is not in the {rules.card_deck.describe()}")
        return value
    return parse_card(value, deck=rules.card_deck, field=field)


def parse_hands(
    hands: Sequence[CardsLike | None],
    rules: ChlustRules,
    *,
    field: Field = "hands",
    sizes: int | Sequence[int] = 3,
    players: bool = True,
    exclude: Sequence[Card] = (),
    exclude_field: Field = "turned",
) -> tuple[tuple[Card, ...], ...]:
    """Parse 2-4 hands (``players``) of ``sizes`` cards from the rules' deck, all disjoint.

    Errors name the hand and card (``hands[1][0]`` is the second hand's first card, path
    ``("hands", 1, 0)``); a card in two hands names the other place, as every game does
    (``duplicate card 'As' (also hands[0][2])``); ``exclude`` lists cards that may be in no
    hand (such as the turned card), at ``exclude_field``. A ``None`` entry (a seat that
    folded) is skipped and comes back as an empty hand.

    >>> parse_hands(["As Ks Qs", "Ah Kh As"], ChlustRules())
    Traceback (most recent call last):
    ...
    cpsolver.errors.CardError: hands[1][2]: duplicate card 'As' (also hands[0][0])
    """
    if isinstance(hands, str):
        raise InvalidInputError(field, "expected a list of hands, got one string")
    if not isinstance(hands, Sequence):
        raise CardTypeError(field, f"expected a list of hands, got {type(hands).__name__}")
    if players and not 2 <= len(hands) <= rules.players:  # a showdown of the seats still in
        raise InvalidInputError(
            field,
            f"Chlust needs 2 to {rules.players} hands (CH-1, rules.players), got {len(hands)}",
        )
    parsed: list[tuple[Card, ...]] = []
    owner: dict[Card, FieldPath] = {c: field_path(exclude_field) for c in exclude}
    for i, hand in enumerate(hands):
        where = (*field_path(field), i)
        if hand is None:
            parsed.append(())
            continue
        cards = parse_cards(hand, deck=rules.card_deck, count=sizes, field=where)
        for j, card in enumerate(cards):
            if card in owner:  # worded as every game words a card given twice
                raise CardError(
                    (*where, j),
                    duplicate_description(card, owner[card]),
                    token=str(card),
                    position=j,
                )
            owner[card] = (*where, j)
        parsed.append(cards)
    return tuple(parsed)


@dataclass(frozen=True)
class Deal:
    """A dealt Chlust hand (CH-2): seats 0..n-1 clockwise, the turned card, the rest."""

    hands: tuple[tuple[Card, ...], ...]
    turned: Card
    dealer: int
    stock: tuple[Card, ...]

    @property
    def trump(self) -> Suit:
        """The suit of the turned card."""
        return self.turned.suit

    def exchange_seat(self, rules: ChlustRules | str | None = None) -> int | None:
        """The seat that may exchange its lowest trump for the turned ace, if any (CH-2)."""
        return exchange_seat(self.hands, self.turned, rules)

    def exchange(self, seat: int, rules: ChlustRules | str | None = None) -> Deal:
        """The deal after ``seat`` exchanges its lowest trump for the turned ace (CH-2)."""
        allowed = self.exchange_seat(rules)
        if allowed is None or seat != allowed:
            who = "nobody" if allowed is None else f"only seat {allowed}"
            raise IllegalPlayError(
                "seat", f"seat {seat} may not exchange for {self.turned}: {who} may", rule="CH-2"
            )
        hands = list(self.hands)
        low = next(c for c in hands[seat] if c.suit is self.trump and c.rank != Rank.ACE)
        hands[seat] = exchange_trump_ace(hands[seat], self.turned, rules)
        return Deal(tuple(hands), low, self.dealer, self.stock)


def check_deal_request(players: int, *, seed: int, dealer: int = 0) -> None:
    """Raise :class:`InvalidInputError` naming ``players`` (2 to 4, CH-1), ``dealer`` (a seat)
    or ``seed`` (:func:`check_seed`) unless :func:`deal` accepts them (the remote client checks
    a request with it before sending, so both give the same error).

    >>> check_deal_request(3, seed=0, dealer=3)
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: dealer: must be a seat 0..2, got 3
    """
    if not 2 <= players <= 4:
        raise InvalidInputError("players", f"must be 2, 3 or 4 (CH-1), got {players}")
    if not 0 <= dealer < players:
        raise InvalidInputError("dealer", f"must be a seat 0..{players - 1}, got {dealer}")
    check_seed(seed)


def deal(
    seed: int | None = None,
    rules: ChlustRules | str | int | None = None,
    /,
    *,
    players: int | None = None,
    dealer: int = 0,
    **keywords: Any,
) -> Deal:
    """The deal numbered ``seed``: the rule set's deck shuffled by ``random.Random(seed)``,
    three cards each, one at a time from the dealer's left, then the next card turned for
    trumps (CH-2). ``players`` defaults to ``rules.players``; ``seed`` and ``rules`` may be
    passed by name.

    The form ``deal(players, rules=None, *, seed, dealer=0)`` is deprecated: it warns and
    deals the same.

    >>> d = deal(7, players=3)
    >>> [len(h) for h in d.hands], len(d.stock), d.turned not in sum(d.hands, ())
    ([3, 3, 3], 10, True)
    """
    named = keywords.pop("seed", None)
    if "rules" in keywords:
        if rules is not None:
            raise TypeError("deal() got the rules twice")
        rules = keywords.pop("rules")
    if keywords:
        raise TypeError(f"deal() got unexpected keyword arguments {sorted(keywords)}")
    if named is not None and seed is not None:  # the deprecated deal(players, rules, *, seed)
        warnings.warn(
            "deal(players, rules, *, seed) is deprecated: use deal(seed, rules, players=...)",
            DeprecationWarning,
            stacklevel=2,
        )
        if players is not None:
            raise TypeError("deal(players, rules, *, seed): players given twice")
        players, seed = seed, named
    else:
        seed = named if seed is None else seed
    if seed is None:
        raise TypeError("deal() missing the seed")
    if isinstance(rules, int):
        raise TypeError("deal(seed, rules): rules must be a rule set or a preset name")
    rules = ChlustRules.resolve(rules)
    players = rules.players if players is None else players
    check_deal_request(players, seed=seed, dealer=dealer)
    cards = list(rules.card_deck.cards)
    random.Random(seed).shuffle(cards)
    hands: list[list[Card]] = [[] for _ in range(players)]
    position = 0
    for _ in range(3):
        for offset in range(1, players + 1):
            hands[(dealer + offset) % players].append(cards[position])
            position += 1
    turned = cards[position]
    return Deal(tuple(tuple(h) for h in hands), turned, dealer, tuple(cards[position + 1 :]))


def evaluate(
    cards: CardsLike,
    trump: Suit | str,
    rules: ChlustRules | str | None = None,
    *,
    turned: Card | None = None,
) -> SetValue:
    """Judge a 3-card Chlust hand under ``trump`` (CH-3..CH-5): :func:`evaluate_set` in the
    games' one vocabulary (``cpsolver.three_leaves.evaluate`` is Three Leaves').

    >>> evaluate("Tc Ac Kc", "h").name
    'flush A-K-T ♣ (pure)'
    """
    return evaluate_set(cards, trump, rules, turned=turned)


def exchange_seat(
    hands: Sequence[CardsLike], turned: Card | str, rules: ChlustRules | str | None = None
) -> int | None:
    """Which hand may exchange its lowest trump (10, or 9 with 24 cards) for the turned card:
    only when the turned card is the trump ace (CH-2); ``None`` when nobody may.

    >>> exchange_seat(["Td Ah As", "Kh Qh Jh"], "Ad"), exchange_seat(["Td Ah As"], "Kd")
    (0, None)
    """
    rules = ChlustRules.resolve(rules)
    turned = one_card(turned, rules, "turned")
    if turned.rank != Rank.ACE:
        return None
    low = Card(rules.lowest_rank, turned.suit)
    parsed = parse_hands(hands, rules, players=False, exclude=(turned,))
    return next((i for i, h in enumerate(parsed) if low in h), None)


def exchange_trump_ace(
    hand: CardsLike, turned: Card | str, rules: ChlustRules | str | None = None
) -> tuple[Card, ...]:
    """The hand after exchanging its lowest trump for the turned trump ace (CH-2, CH-E9).

    Raises :class:`IllegalPlayError` (CH-2) when the turned card is not an ace or the hand does
    not hold the lowest trump.
    """
    rules = ChlustRules.resolve(rules)
    turned = one_card(turned, rules, "turned")
    cards = parse_cards(hand, deck=rules.card_deck, count=3, field="hand")
    if turned.rank != Rank.ACE:
        raise IllegalPlayError(
            "turned", f"only a turned trump ace may be exchanged, not {turned}", rule="CH-2"
        )
    low = Card(rules.lowest_rank, turned.suit)
    if low not in cards:
        raise IllegalPlayError(
            "hand", f"only the holder of {low} may exchange it for {turned}", rule="CH-2"
        )
    return tuple(turned if c == low else c for c in cards)


@dataclass(frozen=True)
class Showdown:
    """The showdown of CH-7 among the players still in.

    ``values[i]`` is the set of ``seats[i]``; ``ranking`` groups seats best first (equal keys
    share a group: only hands without a set can tie); ``winner`` is the best set's seat, or
    ``None`` when nobody holds a set and three tricks decide.
    """

    trump: Suit
    seats: tuple[int, ...]
    values: tuple[SetValue, ...]
    ranking: tuple[tuple[int, ...], ...]
    winner: int | None

    @property
    def needs_tricks(self) -> bool:
        """True when no hand holds a set (CH-7: three tricks are played)."""
        return self.winner is None

    def value_of(self, seat: int) -> SetValue:
        """The evaluated hand of ``seat``."""
        return self.values[self.seats.index(seat)]

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values."""
        return {
            "trump": self.trump.value,
            "hands": [
                {"seat": s, **v.to_dict()} for s, v in zip(self.seats, self.values, strict=True)
            ],
            "ranking": [list(g) for g in self.ranking],
            "winner": self.winner,
            "needs_tricks": self.needs_tricks,
        }


def showdown(
    hands: Sequence[CardsLike],
    trump: Suit | str,
    rules: ChlustRules | str | None = None,
    *,
    turned: Card | str | None = None,
    seats: Sequence[int] | None = None,
) -> Showdown:
    """Compare 2-4 disjoint hands under ``trump``: winner and full ranking (CH-7).

    ``seats`` numbers the hands (default 0..n-1), e.g. the players still in after bidding.

    >>> showdown(["Qh Jd Tc", "Ad Kd Qd"], "d").needs_tricks
    False
    >>> showdown(["Qh Jd Tc", "Ad Ks Qs"], "d").needs_tricks
    True
    """
    rules = ChlustRules.resolve(rules)
    trump = parse_suit(trump, field="trump")
    turned_card = None if turned is None else one_card(turned, rules, "turned")
    parsed = parse_hands(hands, rules, exclude=() if turned_card is None else (turned_card,))
    numbers = tuple(seats) if seats is not None else tuple(range(len(parsed)))
    if len(numbers) != len(parsed) or len(set(numbers)) != len(numbers):
        raise InvalidInputError("seats", f"expected {len(parsed)} distinct seats, got {numbers}")
    wild = rules.wild_card(trump, turned_card)
    values = tuple(evaluate_parsed(h, trump, wild, rules) for h in parsed)
    keys = sorted({v.key for v in values}, reverse=True)
    ranking = tuple(
        tuple(s for s, v in zip(numbers, values, strict=True) if v.key == key) for key in keys
    )
    best = ranking[0]
    winner = best[0] if values[numbers.index(best[0])].is_set and len(best) == 1 else None
    return Showdown(trump, numbers, values, ranking, winner)
