"""Three Leaves deal facts (TL-2..TL-4): seats and turn order, the exchange choices, a deal's
facts and the players' choices, and the khlyust check.

Seats are numbered 0..n-1 clockwise. The dealer is a seat (default the last, n-1); the
**assistant** is the dealer's left-hand neighbour (``(dealer + 1) % n``), leads the first trick
and is first in turn; turn order runs clockwise from the assistant and ends with the dealer.
With the default dealer, seat 0 is the assistant, so the worked examples' A, B, C, D are seats
0, 1, 2, 3.

A deal is given as facts (:class:`Deal`: dealt hands, the turned trump card, the stock in draw
order) plus the players' choices (:class:`Choices`: exchanges, play-out demand, payment-round
picks, the plays in order, or a policy choosing them); :mod:`cpsolver.three_leaves.engine`
plays it.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from cpsolver.cards import (
    Card,
    CardsLike,
    Suit,
    duplicate_description,
    format_cards,
    parse_card,
    parse_cards,
)
from cpsolver.checks import whole_number
from cpsolver.errors import (
    CardError,
    Field,
    FieldPath,
    InvalidInputError,
    Violations,
    field_path,
    format_field,
)
from cpsolver.evaluator.khlyust import KhlyustValue, evaluate_khlyust
from cpsolver.rules.three_leaves import ThreeLeavesRules
from cpsolver.seeds import MAX_SEED, check_seed
from cpsolver.three_leaves.play import PlayLike, PlayPolicy, parse_plays

__all__ = [
    "MAX_CARRIED_POT",
    "MAX_SEED",
    "Choices",
    "Deal",
    "Exchange",
    "ExchangeAction",
    "KhlyustClaim",
    "assistant_of",
    "best_khlyust",
    "check_deal_request",
    "check_play_limits",
    "deal",
    "evaluate",
    "read_exchanges",
    "turn_order",
]

MAX_CARRIED_POT = 1_000_000_000
"""Largest pot carried into a deal (money is int32 on the wire; a deal adds antes of at most
1,000,000 a player, shares and penalties on top)."""


def check_play_limits(*, seed: object = 0, carried_pot: object = 0) -> None:
    """Raise :class:`InvalidInputError` naming ``seed`` (0 to :data:`MAX_SEED`) or
    ``carried_pot`` (a whole number 0 to :data:`MAX_CARRIED_POT`), both at once, unless
    :func:`play_deal` accepts them (the remote client checks with it before sending, so both
    give the same error).

    >>> check_play_limits(seed=MAX_SEED, carried_pot=MAX_CARRIED_POT)
    >>> check_play_limits(carried_pot=-1)
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: carried_pot: must be 0 to 1000000000, got -1
    """
    problems = Violations()
    with problems.check():
        check_seed(seed)  # type: ignore[arg-type]  # check_seed reads any value
    with problems.check():
        whole_number(carried_pot, "carried_pot", low=0, high=MAX_CARRIED_POT)
    problems.raise_any()


def assistant_of(dealer: int, players: int) -> int:
    """The dealer's left-hand neighbour (TL-3).

    >>> assistant_of(3, 4), assistant_of(1, 2)
    (0, 0)
    """
    return (dealer + 1) % players


def turn_order(dealer: int, players: int) -> tuple[int, ...]:
    """Seats in turn from the assistant, clockwise, ending with the dealer (TL-3, TL-4).

    >>> turn_order(3, 4), turn_order(0, 3)
    ((0, 1, 2, 3), (1, 2, 0))
    """
    first = assistant_of(dealer, players)
    return tuple((first + i) % players for i in range(players))


class ExchangeAction(enum.Enum):
    """TL-3: what a player other than the dealer and the assistant does after the deal."""

    PLAY = "play"
    PASS = "pass"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Exchange:
    """One player's TL-3 choice: play, pass, or discard 1-3 cards and draw as many."""

    action: ExchangeAction = ExchangeAction.PLAY
    discard: tuple[Card, ...] = ()

    @classmethod
    def parse(cls, value: object, *, rules: ThreeLeavesRules, field: Field) -> Exchange:
        """``"play"``, ``"pass"``, or the cards to discard (``"8c 9d"`` / a list).

        >>> Exchange.parse("8c 9d", rules=ThreeLeavesRules(), field="x").discard
        (Card('8c'), Card('9d'))
        """
        if isinstance(value, Exchange):
            return value
        if isinstance(value, str) and value.strip().lower() in ("play", "pass", "stand"):
            word = value.strip().lower()
            return cls(ExchangeAction.PASS if word == "pass" else ExchangeAction.PLAY)
        if isinstance(value, Mapping):
            value = value.get("discard", ())
        if not isinstance(value, (str, list, tuple)):
            raise InvalidInputError(
                field, f"expected 'play', 'pass' or cards to discard, got {value!r}"
            )
        cards = parse_cards(value, deck=rules.card_deck, count=(1, 2, 3), field=field)
        return cls(ExchangeAction.DRAW, cards)

    def __str__(self) -> str:
        if self.action is ExchangeAction.DRAW:
            return f"draw {len(self.discard)} (discard {format_cards(self.discard)})"
        return str(self.action.value)


@dataclass(frozen=True)
class Deal:
    """The facts of one deal (TL-2): who deals, the hands dealt by seat, the turned trump card
    and the stock below it in draw order (only as many cards as draws need; may be empty)."""

    rules: ThreeLeavesRules
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    trump_card: Card
    stock: tuple[Card, ...] = ()

    @property
    def trump(self) -> Suit:
        """The trump suit, set by the turned card."""
        return self.trump_card.suit

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.hands)

    @property
    def assistant(self) -> int:
        """The assistant's seat."""
        return assistant_of(self.dealer, self.players)

    @property
    def order(self) -> tuple[int, ...]:
        """Turn order from the assistant (TL-3)."""
        return turn_order(self.dealer, self.players)

    @classmethod
    def of(
        cls,
        hands: Sequence[CardsLike],
        trump_card: Card | str,
        stock: CardsLike = (),
        *,
        dealer: int | None = None,
        rules: ThreeLeavesRules | str | None = None,
    ) -> Deal:
        """Validate and build a deal: 3 cards a hand from the rule set's deck, no card twice,
        as many hands as ``rules.players`` (when ``rules`` is None the hands set the count)."""
        if rules is None:
            if not 2 <= len(hands) <= 4:
                raise InvalidInputError("hands", f"expected 2 to 4 hands, got {len(hands)}")
            resolved = ThreeLeavesRules(players=len(hands))
        else:
            resolved = ThreeLeavesRules.resolve(rules)
        if len(hands) != resolved.players:
            raise InvalidInputError(
                "hands", f"expected {resolved.players} hands (rules.players), got {len(hands)}"
            )
        deck = resolved.card_deck
        parsed = tuple(
            parse_cards(h, deck=deck, count=3, field=("hands", i)) for i, h in enumerate(hands)
        )
        turned = (
            trump_card
            if isinstance(trump_card, Card)
            else parse_card(trump_card, deck=deck, field="trump_card")
        )
        if turned not in deck:
            raise InvalidInputError("trump_card", f"card {turned} is not in the {deck.describe()}")
        rest = parse_cards(stock, deck=deck, field="stock")
        # Each card's place, worded as every game words a card given twice (the first place)
        seen: dict[Card, FieldPath] = {}
        places: list[tuple[FieldPath, Card]] = [
            (("hands", i, j), c) for i, h in enumerate(parsed) for j, c in enumerate(h)
        ]
        places.append((("trump_card",), turned))
        places += [(("stock", i), c) for i, c in enumerate(rest)]
        for where, card in places:
            if card in seen:
                raise CardError(
                    where,
                    duplicate_description(card, seen[card]),
                    token=str(card),
                    position=where[-1] if isinstance(where[-1], int) else -1,
                )
            seen[card] = where
        seat = resolved.players - 1 if dealer is None else dealer
        if not 0 <= seat < resolved.players:
            raise InvalidInputError(
                "dealer", f"must be a seat 0 to {resolved.players - 1}, got {seat}"
            )
        return cls(resolved, seat, parsed, turned, rest)


@dataclass(frozen=True)
class Choices:
    """What the players choose in a deal (absent choices take the defaults noted).

    * ``exchanges``: seat -> :class:`Exchange` for the players who may choose (TL-3); others
      absent play. The dealer and the assistant may only play.
    * ``demand_playout``: an opponent demands a play-out of a plain khlyust (TL-4).
    * ``picks``: the holder's cards picked in the payment round, in turn from the holder's
      left (TL-4, ``draw_source=holder``); None (or no picks: the wire cannot tell an empty
      list from an absent one) picks at random with ``seed``.
    * ``plays``: every play in order as ``(card, face_down)``, or a :data:`PlayPolicy`.
    """

    exchanges: Mapping[int, Exchange] = field(default_factory=dict)
    demand_playout: bool = False
    picks: tuple[Card, ...] | None = None
    plays: tuple[tuple[Card, bool], ...] | PlayPolicy = ()
    seed: int = 0

    @classmethod
    def of(
        cls,
        *,
        exchanges: Mapping[int, object] | None = None,
        demand_playout: bool = False,
        picks: CardsLike | None = None,
        plays: str | Iterable[PlayLike] | PlayPolicy = (),
        seed: int = 0,
        rules: ThreeLeavesRules | None = None,
    ) -> Choices:
        """Parse choices from text or values: cards of ``rules``' deck (default
        :class:`ThreeLeavesRules`, 28 cards, like everything else; pass the deal's rules for
        the 32-card deck).

        >>> Choices.of(plays="7s", rules=ThreeLeavesRules(deck=32)).plays
        ((Card('7s'), False),)
        >>> Choices.of(plays="7s")
        Traceback (most recent call last):
        ...
        cpsolver.errors.CardError: plays[0]: card '7s' is not in the 28-card deck (ranks 8-A)
        """
        r = rules or ThreeLeavesRules()
        given = exchanges or {}
        if not isinstance(given, Mapping):
            raise InvalidInputError("exchanges", "expected a mapping of seat to exchange")
        ex = read_exchanges(
            ((("exchanges", str(seat)), seat, v) for seat, v in given.items()), rules=r
        )
        parsed_picks = (
            None if picks is None else parse_cards(picks, deck=r.card_deck, field="picks") or None
        )
        parsed_plays: tuple[tuple[Card, bool], ...] | PlayPolicy
        parsed_plays = plays if callable(plays) else parse_plays(plays, rules=r)
        return cls(ex, demand_playout, parsed_picks, parsed_plays, seed)


def read_exchanges(
    entries: Iterable[tuple[Field, object, object]], *, rules: ThreeLeavesRules
) -> dict[int, Exchange]:
    """The exchanges by seat of ``(field, seat, exchange)`` entries: a seat as a whole number
    (or its digits), an exchange as :meth:`Exchange.parse` reads it. Every violation is
    reported at once, each at its entry's ``field``, and a seat given twice is one of them,
    naming the other place: a mapping by seat (``Choices.of``, keys ``1`` and ``"1"``) and a
    request's list (``PlayLeavesDeal``'s exchanges) can both give one, and the last silently
    won.

    >>> read_exchanges([(("exchanges", 0), 2, "pass"), (("exchanges", 1), 2, "play")],
    ...                rules=ThreeLeavesRules())
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: exchanges[1]: seat 2 has two exchanges (also exchanges[0])
    """
    problems = Violations()
    found: dict[int, Exchange] = {}
    first: dict[int, tuple[FieldPath, object]] = {}  # seat -> the path and seat given first
    for where, seat, value in entries:
        path = field_path(where)
        with problems.check():
            number = _seat_number(seat, path)
            exchange = Exchange.parse(value, rules=rules, field=path)
            if number in first:
                other, given = first[number]
                place = f"also {format_field(other)}"
                if other == path:  # a mapping's keys 1 and "1": one path, two keys
                    place = f"keys {given!r} and {seat!r}"
                raise InvalidInputError(path, f"seat {number} has two exchanges ({place})")
            first[number] = (path, seat)
            found[number] = exchange
    problems.raise_any()
    return found


def _seat_number(seat: object, field: FieldPath) -> int:
    """A seat given as a whole number or its digits (a mapping read from JSON has text keys)."""
    if isinstance(seat, str):
        try:
            return int(seat)
        except ValueError:
            pass  # worded below, as any value that is not a seat
    return whole_number(seat, field)


@dataclass(frozen=True, slots=True)
class KhlyustClaim:
    """A khlyust held at a check (TL-4): seat, its value and its place in turn order."""

    seat: int
    value: KhlyustValue
    turn_position: int

    @property
    def order_key(self) -> tuple[int, int, int, int]:
        """The TL-4 key including the seat tie-break."""
        return self.value.order_key(self.turn_position)

    def to_dict(self) -> dict[str, object]:
        """The claim as JSON: ``seat``, ``cards``, ``class``, ``points``, ``top``."""
        return {
            "seat": self.seat,
            "cards": [str(c) for c in self.value.cards],
            "class": self.value.khlyust_class.label,
            "points": self.value.points,
            "top": self.value.top.symbol,
        }


def best_khlyust(
    hands: Sequence[Sequence[Card] | None] | Mapping[int, Sequence[Card]],
    trump: Suit,
    dealer: int,
    players: int,
    rules: ThreeLeavesRules | None = None,
) -> tuple[KhlyustClaim | None, tuple[KhlyustClaim, ...]]:
    """The best khlyust among ``hands`` and every khlyust found (TL-4). ``hands`` is a tuple by
    seat, like every per-seat value (None for a seat out of the deal), or a mapping seat -> cards
    of the seats in.

    >>> from cpsolver.cards import parse_cards
    >>> best, found = best_khlyust((parse_cards("Jd Td 8d"), parse_cards("Ah Kh Qh")),
    ...                            Suit.DIAMONDS, dealer=1, players=2)
    >>> best.seat, [c.value.khlyust_class.label for c in found]
    (0, ['trump_khlyust', 'plain_khlyust'])
    """
    r = rules or ThreeLeavesRules()
    by_seat: Mapping[int, Sequence[Card]] = (
        hands
        if isinstance(hands, Mapping)
        else {seat: h for seat, h in enumerate(hands) if h is not None}
    )
    order = turn_order(dealer, players)
    claims = []
    for pos, seat in enumerate(order):
        if seat not in by_seat:
            continue
        value = evaluate_khlyust(
            by_seat[seat],
            trump,
            deck=r.card_deck,
            class_ranking=r.class_ranking,
            field=("hands", seat),
        )
        if value.is_khlyust:
            claims.append(KhlyustClaim(seat, value, pos))
    best = max(claims, key=lambda c: c.order_key) if claims else None
    return best, tuple(claims)


def check_deal_request(seed: int, rules: ThreeLeavesRules, dealer: int | None = None) -> int:
    """The dealer's seat of :func:`deal` (``dealer``, or the last seat when None) when the seed
    is 0 to :data:`MAX_SEED` and the seat one of ``rules``; else :class:`InvalidInputError`
    naming ``seed`` or ``dealer`` (the remote client checks with it before sending).

    >>> check_deal_request(7, ThreeLeavesRules(players=3))
    2
    >>> check_deal_request(7, ThreeLeavesRules(players=3), dealer=3)
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: dealer: must be a seat 0 to 2, got 3
    """
    check_seed(seed)
    n = rules.players
    seat = n - 1 if dealer is None else dealer
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise InvalidInputError("dealer", f"must be a seat 0 to {n - 1}, got {seat!r}")
    return seat


def deal(
    seed: int, rules: ThreeLeavesRules | str | None = None, *, dealer: int | None = None
) -> Deal:
    """The deal numbered ``seed`` (TL-2): the rule set's deck shuffled by
    ``random.Random(seed)``, three cards to each of ``rules.players`` seats one at a time from
    the dealer's left, the next card turned for trumps, the rest the stock in draw order.
    ``dealer`` defaults to the last seat.

    >>> d = deal(7, "three_players")
    >>> d.players, [len(h) for h in d.hands], len(d.stock), d.dealer
    (3, [3, 3, 3], 18, 2)
    >>> d == deal(7, "three_players") and d != deal(8, "three_players")
    True
    """
    resolved = ThreeLeavesRules.resolve(rules)
    seat = check_deal_request(seed, resolved, dealer)
    n = resolved.players
    cards = list(resolved.card_deck.cards)
    random.Random(seed).shuffle(cards)
    hands: list[list[Card]] = [[] for _ in range(n)]
    position = 0
    for _ in range(3):
        for offset in range(1, n + 1):
            hands[(seat + offset) % n].append(cards[position])
            position += 1
    return Deal(
        resolved,
        seat,
        tuple(tuple(h) for h in hands),
        cards[position],
        tuple(cards[position + 1 :]),
    )


def evaluate(
    cards: CardsLike, trump: Suit | str, rules: ThreeLeavesRules | str | None = None
) -> KhlyustValue:
    """Judge three cards under ``trump`` (TL-4) with ``rules``' deck and class order:
    :func:`cpsolver.evaluator.evaluate_khlyust` in this game's vocabulary.

    >>> evaluate("7s 7h 7d", "c", ThreeLeavesRules(deck=32)).khlyust_class.label
    'three_of_a_rank'
    """
    resolved = ThreeLeavesRules.resolve(rules)
    return evaluate_khlyust(
        cards, trump, deck=resolved.card_deck, class_ranking=resolved.class_ranking
    )
