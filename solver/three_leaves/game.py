"""Three Leaves deals (RULES §4): khlyust resolution, exchange, tricks, settlement.

Seats are numbered 0..n-1 clockwise. The dealer is a seat (default the last, n-1); the
**assistant** is the dealer's left-hand neighbour (``(dealer + 1) % n``), leads the first trick
and is first in turn; turn order runs clockwise from the assistant and ends with the dealer.
With the default dealer, seat 0 is the assistant, so the worked examples' A, B, C, D are seats
0, 1, 2, 3.

A deal is given as facts (:class:`Deal`: dealt hands, the turned trump card, the stock in draw
order) plus the players' choices (:class:`Choices`: exchanges, play-out demand, payment-round
picks, the plays in order, or a policy choosing them). :func:`play_deal` applies every rule,
refusing an illegal choice with :class:`~cpsolver.errors.IllegalPlayError` naming the rule, and
returns a :class:`DealResult` with the money each player gained or lost. :func:`play_session`
chains deals, carrying the pot over (TL-6); money is conserved: the players' nets plus the pot
left on the table sum to zero.

>>> from cpsolver.cards import parse_cards
>>> deal = Deal.of(
...     hands=["As Kh 8d", "Ks 9h Jc", "Ts Ah Qd", "Qs 8c Ac"], trump_card="9d", stock="")
>>> result = play_deal(deal, Choices.of(
...     plays="As Ks Ts Qs  Kh 9h Ah ~8c  Qd ~Ac 8d ~Jc"))
>>> result.trick_counts, result.pot_after, result.net
((1, 0, 2, 0), 4, (-1, -2, 1, -2))
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from cpsolver.cards import (
    Card,
    CardsLike,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
    parse_suit,
)
from cpsolver.errors import Field, IllegalPlayError, InvalidInputError, field_path
from cpsolver.evaluator.khlyust import (
    KhlyustClass,
    KhlyustValue,
    card_points,
    evaluate_khlyust,
)
from cpsolver.rules.three_leaves import (
    DrawAppliesTo,
    DrawSource,
    ThreeLeavesRules,
    Void,
    ZeroTricks,
)
from cpsolver.tricks import Play, Trick, beats

__all__ = [
    "MAX_CARRIED_POT",
    "MAX_SEED",
    "Choices",
    "Deal",
    "DealResult",
    "Exchange",
    "ExchangeAction",
    "KhlyustClaim",
    "Outcome",
    "Payment",
    "PlayPolicy",
    "SessionResult",
    "assistant_of",
    "best_khlyust",
    "check_play",
    "check_play_limits",
    "check_play_request",
    "greedy_policy",
    "legal_plays",
    "parse_play",
    "parse_plays",
    "play_deal",
    "play_session",
    "play_tricks",
    "turn_order",
]

TRICKS_PER_DEAL = 3
FACE_DOWN_MARK = "~"
MAX_SEED = 2**32 - 1
"""Largest seed of a deal's random choices or of the advice's samples (seeds are 0 or more;
Three Leaves seeds are uint32 on the wire)."""
MAX_CARRIED_POT = 1_000_000_000
"""Largest pot carried into a deal (money is int32 on the wire; a deal adds antes of at most
1,000,000 a player, shares and penalties on top)."""


def check_play_limits(*, seed: int = 0, carried_pot: int = 0) -> None:
    """Raise :class:`InvalidInputError` naming ``seed`` (0 to :data:`MAX_SEED`) or
    ``carried_pot`` (0 to :data:`MAX_CARRIED_POT`) unless :func:`play_deal` accepts it (the
    remote client checks with it before sending, so both give the same error).

    >>> check_play_limits(seed=MAX_SEED, carried_pot=MAX_CARRIED_POT)
    >>> check_play_limits(carried_pot=-1)
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: carried_pot: must be 0 to 1000000000, got -1
    """
    if not 0 <= seed <= MAX_SEED:
        raise InvalidInputError("seed", f"must be 0 to {MAX_SEED}, got {seed}")
    if not 0 <= carried_pot <= MAX_CARRIED_POT:
        raise InvalidInputError("carried_pot", f"must be 0 to {MAX_CARRIED_POT}, got {carried_pot}")


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


# --------------------------------------------------------------------------------------------
# Plays (TL-5)


def parse_play(
    text: str | Play | tuple[Card | str, bool],
    *,
    deck_rules: ThreeLeavesRules | None = None,
    field: Field = "play",
) -> tuple[Card, bool]:
    """A play as ``(card, face_down)``; a leading ``~`` marks a face-down card ("v okhlupku").

    >>> parse_play("~Ac"), parse_play("8d")
    ((Card('Ac'), True), (Card('8d'), False))
    """
    rules = deck_rules or ThreeLeavesRules()
    if isinstance(text, Play):
        return text.card, text.face_down
    if isinstance(text, tuple):
        card, down = text
        if isinstance(card, str):
            card = parse_card(card, deck=rules.card_deck, field=field)
        return card, bool(down)
    raw = text.strip()
    down = raw.startswith(FACE_DOWN_MARK)
    if down:
        raw = raw[len(FACE_DOWN_MARK) :]
    return parse_card(raw, deck=rules.card_deck, field=field), down


def parse_plays(
    plays: str | Iterable[str | Play | tuple[Card | str, bool]],
    *,
    rules: ThreeLeavesRules | None = None,
    field: Field = "plays",
) -> tuple[tuple[Card, bool], ...]:
    """Plays in order from text (``"As Ks ~8c"``) or a sequence of plays.

    >>> parse_plays("As, ~8c")
    ((Card('As'), False), (Card('8c'), True))
    """
    items = plays.replace(",", " ").split() if isinstance(plays, str) else list(plays)
    base = field_path(field)
    return tuple(
        parse_play(item, deck_rules=rules, field=(*base, i)) for i, item in enumerate(items)
    )


def legal_plays(
    hand: Sequence[Card],
    led: Suit | None,
    trump: Suit,
    *,
    rules: ThreeLeavesRules | None = None,
    seat: int = 0,
) -> tuple[Play, ...]:
    """Every legal play from ``hand`` to a trick whose led suit is ``led`` (None: leading), TL-5.

    Leading: any card face up. Holding the led suit: any card of it, face up (no duty to head).
    Void: ``void=trump_or_discard`` [default] a trump face up or any card face down;
    ``must_trump`` a trump face up when holding one, else any card face down; ``discard_only``
    any card face down.

    >>> from cpsolver.cards import parse_cards
    >>> [str(p) for p in legal_plays(parse_cards("Ac 8d Kh"), Suit.SPADES, Suit.DIAMONDS)]
    ['0:8d', '0:Ac(down)', '0:8d(down)', '0:Kh(down)']
    """
    void = (rules or ThreeLeavesRules()).void
    cards = list(hand)
    if led is None:
        return tuple(Play(seat, c) for c in cards)
    follow = [c for c in cards if c.suit is led]
    if follow:
        return tuple(Play(seat, c) for c in follow)
    trumps = [c for c in cards if c.suit is trump]
    up: list[Card] = [] if void is Void.DISCARD_ONLY else trumps
    if void is Void.MUST_TRUMP and trumps:
        return tuple(Play(seat, c) for c in trumps)
    return (*(Play(seat, c) for c in up), *(Play(seat, c, True) for c in cards))


@dataclass(frozen=True, slots=True)
class LegalPlay:
    """A legal play (TL-5) and whether it would head the trick so far."""

    play: Play
    heads_trick: bool


def leaf_trick(
    hand: CardsLike,
    trump: Suit | str,
    plays: str | Iterable[str | Play | tuple[Card | str, bool]] = "",
    *,
    rules: ThreeLeavesRules | None = None,
) -> tuple[tuple[Card, ...], Trick]:
    """A hand of 1 to 3 cards and the trick it answers (``plays`` in order by seats 0, 1, ...),
    checked: no card on the trick is in the hand.

    >>> hand, trick = leaf_trick("8d Ac Kh", "d", "As ~8c")
    >>> len(hand), trick.led_suit, len(trick.plays)
    (3, <Suit.SPADES: 's'>, 2)
    """
    r = rules or ThreeLeavesRules()
    suit = parse_suit(trump, field="trump")
    cards = parse_cards(hand, deck=r.card_deck, count=(1, 2, 3), field="hand")
    trick = Trick(suit, 0)
    for seat, (card, down) in enumerate(parse_plays(plays, rules=r, field="trick")):
        if card in cards:
            raise InvalidInputError(("trick", seat), f"{card} is in the hand too")
        trick = trick.play(seat, card, face_down=down)
    return cards, trick


def legal_on_trick(
    hand: Sequence[Card], trick: Trick, *, rules: ThreeLeavesRules | None = None
) -> tuple[LegalPlay, ...]:
    """Every legal play of ``hand`` (the next seat) on ``trick`` and whether it heads it (TL-5).

    >>> hand, trick = leaf_trick("8d Ac Kh", "d", "As")
    >>> [(str(p.play), p.heads_trick) for p in legal_on_trick(hand, trick)][:2]
    [('1:8d', True), ('1:8d(down)', False)]
    """
    if trick.trump is None:
        raise InvalidInputError("trump", "a Three Leaves trick has a trump suit")
    seat = len(trick.plays)
    out = []
    for p in legal_plays(hand, trick.led_suit, trick.trump, rules=rules, seat=seat):
        heads = bool(trick.plays) and trick.play(seat, p.card, face_down=p.face_down).winner == seat
        out.append(LegalPlay(p, heads))
    return tuple(out)


def check_play(
    hand: Sequence[Card],
    led: Suit | None,
    trump: Suit,
    card: Card,
    face_down: bool,
    *,
    rules: ThreeLeavesRules | None = None,
    field: Field = "play",
    who: str = "the player",
) -> None:
    """Raise :class:`IllegalPlayError` (rule TL-5) saying why a play is illegal, else return.

    >>> from cpsolver.cards import parse_cards
    >>> check_play(parse_cards("Ks 9h Jc"), Suit.SPADES, Suit.DIAMONDS, Card.of("9h"), False)
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.IllegalPlayError: play: the player must follow suit ♠ with Ks, not ... (TL-5)
    """
    void = (rules or ThreeLeavesRules()).void
    if card not in hand:
        raise IllegalPlayError(
            field,
            f"{who} does not hold {card} (holds {format_cards(hand) or 'nothing'})",
            rule="TL-5",
        )
    if led is None:
        if face_down:
            raise IllegalPlayError(field, f"{who} leads: the lead is played face up", rule="TL-5")
        return
    follow = [c for c in hand if c.suit is led]
    if follow:
        if card.suit is not led:
            raise IllegalPlayError(
                field,
                f"{who} must follow suit {led.symbol} with {format_cards(follow)}, not play {card}",
                rule="TL-5",
            )
        if face_down:
            raise IllegalPlayError(
                field, f"{who} follows suit {led.symbol}: {card} is played face up", rule="TL-5"
            )
        return
    trumps = [c for c in hand if c.suit is trump]
    if not face_down:
        if void is Void.DISCARD_ONLY:
            raise IllegalPlayError(
                field,
                f"{who} is void in {led.symbol} and under void=discard_only plays face down",
                rule="TL-5",
            )
        if card.suit is not trump:
            raise IllegalPlayError(
                field,
                f"{who} is void in {led.symbol}: only a trump ({trump.symbol}) may be played "
                f"face up; {card} must go face down",
                rule="TL-5",
            )
        return
    if void is Void.MUST_TRUMP and trumps:
        raise IllegalPlayError(
            field,
            f"{who} is void in {led.symbol} and under void=must_trump must trump with "
            f"{format_cards(trumps)}",
            rule="TL-5",
        )


PlayPolicy = Callable[[int, tuple[Card, ...], Trick, ThreeLeavesRules], Play]
"""A bot choosing a play: ``(seat, hand, trick so far, rules) -> Play`` (must be legal)."""


def greedy_policy(seat: int, hand: tuple[Card, ...], trick: Trick, rules: ThreeLeavesRules) -> Play:
    """A simple bot used by the advice: lead the strongest card (trumps first, then rank);
    otherwise take the trick with the cheapest card that heads it, else throw the cheapest card
    (face down when allowed).

    >>> from cpsolver.cards import parse_cards
    >>> t = Trick(Suit.DIAMONDS, 0).play(0, Card.of("As"))
    >>> str(greedy_policy(1, parse_cards("Ks 9h Jc"), t, ThreeLeavesRules()))
    '1:Ks'
    >>> str(greedy_policy(1, parse_cards("9h Jc 8d"), t, ThreeLeavesRules()))
    '1:8d'
    """
    trump = trick.trump
    assert trump is not None
    legal = legal_plays(hand, trick.led_suit, trump, rules=rules, seat=seat)

    def strength(p: Play) -> tuple[int, int, int]:
        return (0 if p.face_down else 1, int(p.card.suit is trump), int(p.card.rank))

    head = trick.head
    if head is None:
        return max(legal, key=strength)
    led = trick.led_suit
    assert led is not None
    winning = [p for p in legal if not p.face_down and beats(p.card, head.card, led, trump)]
    if winning:
        return min(winning, key=strength)
    down = [p for p in legal if p.face_down]
    pool = down or list(legal)
    return min(pool, key=lambda p: (int(p.card.suit is trump), int(p.card.rank)))


# --------------------------------------------------------------------------------------------
# The deal


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
        # (path, the place in words for the other card's message, card)
        seen: dict[Card, str] = {}
        places: list[tuple[Field, str, Card]] = [
            (("hands", i), f"in hand {i + 1}", c) for i, h in enumerate(parsed) for c in h
        ]
        places.append(("trump_card", "the trump card", turned))
        places += [(("stock", i), f"stock card {i + 1}", c) for i, c in enumerate(rest)]
        for where, words, card in places:
            if card in seen:
                raise InvalidInputError(where, f"card {card} is dealt twice (also {seen[card]})")
            seen[card] = words
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
        plays: str | Iterable[str | Play | tuple[Card | str, bool]] | PlayPolicy = (),
        seed: int = 0,
        rules: ThreeLeavesRules | None = None,
    ) -> Choices:
        """Parse choices from text or values (cards in the rule set's deck)."""
        r = rules or ThreeLeavesRules(deck=32)
        ex = {
            int(seat): Exchange.parse(v, rules=r, field=("exchanges", str(seat)))
            for seat, v in (exchanges or {}).items()
        }
        parsed_picks = (
            None if picks is None else parse_cards(picks, deck=r.card_deck, field="picks") or None
        )
        parsed_plays: tuple[tuple[Card, bool], ...] | PlayPolicy
        parsed_plays = plays if callable(plays) else parse_plays(plays, rules=r)
        return cls(ex, demand_playout, parsed_picks, parsed_plays, seed)


class Outcome(enum.Enum):
    """How a deal ended."""

    KHLYUST = "khlyust"  # the best khlyust took the pot without play (TL-4)
    PLAYOUT = "playout"  # a plain khlyust was played out on demand (TL-4)
    TRICKS = "tricks"  # no khlyust: three tricks were played (TL-5, TL-6)


@dataclass(frozen=True, slots=True)
class Payment:
    """Money moving between players (not the pot): ``payer`` -> ``payee``, with the reason."""

    payer: int
    payee: int
    amount: int
    reason: str
    card: Card | None = None


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
    hands: Mapping[int, Sequence[Card]],
    trump: Suit,
    dealer: int,
    players: int,
    rules: ThreeLeavesRules | None = None,
) -> tuple[KhlyustClaim | None, tuple[KhlyustClaim, ...]]:
    """The best khlyust among ``hands`` (seat -> cards) and every khlyust found (TL-4).

    >>> from cpsolver.cards import parse_cards
    >>> best, found = best_khlyust({0: parse_cards("Jd Td 8d"), 1: parse_cards("Ah Kh Qh")},
    ...                            Suit.DIAMONDS, dealer=1, players=2)
    >>> best.seat, [c.value.khlyust_class.label for c in found]
    (0, ['trump_khlyust', 'plain_khlyust'])
    """
    r = rules or ThreeLeavesRules()
    order = turn_order(dealer, players)
    claims = []
    for pos, seat in enumerate(order):
        if seat not in hands:
            continue
        value = evaluate_khlyust(
            hands[seat],
            trump,
            deck=r.card_deck,
            class_ranking=r.class_ranking,
            field=("hands", seat),
        )
        if value.is_khlyust:
            claims.append(KhlyustClaim(seat, value, pos))
    best = max(claims, key=lambda c: c.order_key) if claims else None
    return best, tuple(claims)


@dataclass(frozen=True)
class DealResult:
    """Everything that happened in a deal and what it did to the money.

    ``net[seat]`` is the seat's gain in the deal including its ante (negative: paid);
    ``pot_before`` includes this deal's antes; ``pot_after`` is what stays for the next deal.
    ``sum(net) + pot_after - carried_in == 0``.
    """

    deal: Deal
    outcome: Outcome
    khlyust: KhlyustClaim | None
    khlyusts: tuple[KhlyustClaim, ...]
    exchanges: Mapping[int, Exchange]
    in_deal: tuple[bool, ...]
    hands_played: tuple[tuple[Card, ...], ...]
    tricks: tuple[Trick, ...]
    trick_counts: tuple[int, ...]
    carried_in: int
    pot_before: int
    pot_taken: tuple[int, ...]
    pot_after: int
    payments: tuple[Payment, ...]
    net: tuple[int, ...]
    notes: tuple[str, ...]

    @property
    def pot_winner(self) -> int | None:
        """The seat that took the whole pot, if any."""
        for seat, amount in enumerate(self.pot_taken):
            if amount and amount == self.pot_before:
                return seat
        return None

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values."""
        k = self.khlyust
        return {
            "outcome": self.outcome.value,
            "trump": self.deal.trump.value,
            "dealer": self.deal.dealer,
            "assistant": self.deal.assistant,
            "khlyust": None if k is None else k.to_dict(),
            "khlyusts": [c.to_dict() for c in self.khlyusts],
            "exchanges": {str(s): str(e) for s, e in sorted(self.exchanges.items())},
            "in_deal": list(self.in_deal),
            "hands_played": [[str(c) for c in h] for h in self.hands_played],
            "tricks": [
                {
                    "leader": t.leader,
                    "plays": [
                        {"seat": p.seat, "card": str(p.card), "face_down": p.face_down}
                        for p in t.plays
                    ],
                    "winner": t.winner,
                }
                for t in self.tricks
            ],
            "trick_counts": list(self.trick_counts),
            "carried_in": self.carried_in,
            "pot_before": self.pot_before,
            "pot_taken": list(self.pot_taken),
            "pot_after": self.pot_after,
            "payments": [
                {
                    "payer": p.payer,
                    "payee": p.payee,
                    "amount": p.amount,
                    "reason": p.reason,
                    **({"card": str(p.card)} if p.card else {}),
                }
                for p in self.payments
            ],
            "net": list(self.net),
            "notes": list(self.notes),
        }


class _Ledger:
    def __init__(self, players: int, pot: int) -> None:
        self.net = [0] * players
        self.taken = [0] * players
        self.pot = pot
        self.payments: list[Payment] = []
        self.notes: list[str] = []

    def take(self, seat: int, amount: int) -> None:
        self.taken[seat] += amount
        self.net[seat] += amount
        self.pot -= amount

    def pay(
        self, payer: int, payee: int, amount: int, reason: str, card: Card | None = None
    ) -> None:
        if amount == 0 or payer == payee:
            return
        self.net[payer] -= amount
        self.net[payee] += amount
        self.payments.append(Payment(payer, payee, amount, reason, card))


def check_play_request(deal: Deal, choices: Choices, carried_pot: int = 0) -> None:
    """The checks :func:`play_deal` makes before playing: :func:`check_play_limits` and that
    every exchange names a seat of the deal (the remote client makes them before sending).

    >>> two = Deal.of(["As Ks 8s", "9h Jc Qd"], "Ts")
    >>> check_play_request(two, Choices.of(exchanges={2: "pass"}))
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: exchanges.2: no such seat (0 to 1)
    """
    check_play_limits(seed=choices.seed, carried_pot=carried_pot)
    n = deal.players
    for seat in choices.exchanges:
        if not 0 <= seat < n:
            raise InvalidInputError(("exchanges", str(seat)), f"no such seat (0 to {n - 1})")


def play_deal(deal: Deal, choices: Choices | None = None, *, carried_pot: int = 0) -> DealResult:
    """Play one deal to its end (TL-2..TL-6) and settle it.

    Everyone antes ``rules.ante`` into the pot (which starts at ``carried_pot``). Then:
    the khlyust check (TL-4); if none wins, the exchange step (TL-3), with
    ``khlyust_after_exchange`` a second check; then three tricks (TL-5) and TL-6.
    Illegal choices raise :class:`~cpsolver.errors.IllegalPlayError` naming the rule; the seed
    and ``carried_pot`` have documented bounds (:func:`check_play_limits`).
    """
    ch = choices or Choices()
    rules = deal.rules
    n = deal.players
    check_play_request(deal, ch, carried_pot)
    ledger = _Ledger(n, carried_pot + rules.ante * n)
    for seat in range(n):
        ledger.net[seat] -= rules.ante
    pot_before = ledger.pot
    hands = {s: tuple(h) for s, h in enumerate(deal.hands)}
    stock = list(deal.stock)
    in_deal = [True] * n
    exchanges: dict[int, Exchange] = {}
    tricks: tuple[Trick, ...] = ()
    counts = [0] * n

    def finish(
        outcome: Outcome, claim: KhlyustClaim | None, found: tuple[KhlyustClaim, ...]
    ) -> DealResult:
        return DealResult(
            deal,
            outcome,
            claim,
            found,
            dict(exchanges),
            tuple(in_deal),
            tuple(hands[s] for s in range(n)),
            tricks,
            tuple(counts),
            carried_pot,
            pot_before,
            tuple(ledger.taken),
            ledger.pot,
            tuple(ledger.payments),
            tuple(ledger.net),
            tuple(ledger.notes),
        )

    # TL-4: the khlyust check right after the deal.
    claim, found = best_khlyust(hands, deal.trump, deal.dealer, n, rules)
    if claim is None:
        # TL-3: the exchange step.
        _exchange(deal, ch, hands, stock, in_deal, exchanges)
        if rules.khlyust_after_exchange:
            live = {s: h for s, h in hands.items() if in_deal[s]}
            claim, found = best_khlyust(live, deal.trump, deal.dealer, n, rules)
    if claim is not None:
        cls = claim.value.khlyust_class
        if cls is KhlyustClass.PLAIN and ch.demand_playout:
            tricks, counts = play_tricks(deal, ch, hands, in_deal)
            _settle_playout(rules, claim, counts, in_deal, ledger)
            return finish(Outcome.PLAYOUT, claim, found)
        ledger.take(claim.seat, ledger.pot)
        ledger.notes.append(f"seat {claim.seat}'s {cls.title} takes the pot without play (TL-4)")
        if cls is KhlyustClass.TRUMP or rules.draw_applies_to is DrawAppliesTo.ANY_KHLYUST:
            _payment_round(deal, ch, claim, stock, in_deal, ledger)
        return finish(Outcome.KHLYUST, claim, found)
    tricks, counts = play_tricks(deal, ch, hands, in_deal)
    _settle_tricks(rules, counts, in_deal, ledger)
    return finish(Outcome.TRICKS, None, found)


def _exchange(
    deal: Deal,
    ch: Choices,
    hands: dict[int, tuple[Card, ...]],
    stock: list[Card],
    in_deal: list[bool],
    exchanges: dict[int, Exchange],
) -> None:
    forced = {deal.dealer, deal.assistant}
    for seat in deal.order:
        choice = ch.exchanges.get(seat, Exchange())
        where = ("exchanges", str(seat))
        if seat in forced:
            if choice.action is not ExchangeAction.PLAY:
                role = "dealer" if seat == deal.dealer else "assistant"
                raise IllegalPlayError(
                    where, f"seat {seat} is the {role} and must play the cards dealt", rule="TL-3"
                )
            continue
        exchanges[seat] = choice
        if choice.action is ExchangeAction.PASS:
            in_deal[seat] = False
        elif choice.action is ExchangeAction.DRAW:
            hand = hands[seat]
            for card in choice.discard:
                if card not in hand:
                    raise IllegalPlayError(
                        where,
                        f"seat {seat} cannot discard {card}: holds {format_cards(hand)}",
                        rule="TL-3",
                    )
            k = len(choice.discard)
            if len(stock) < k:
                raise InvalidInputError(
                    "stock", f"seat {seat} draws {k} but only {len(stock)} stock cards are given"
                )
            drawn = tuple(stock[:k])
            del stock[:k]
            hands[seat] = tuple(c for c in hand if c not in choice.discard) + drawn


def _payment_round(
    deal: Deal,
    ch: Choices,
    claim: KhlyustClaim,
    stock: list[Card],
    in_deal: list[bool],
    ledger: _Ledger,
) -> None:
    rules = deal.rules
    n = deal.players
    holder = claim.seat
    payers = [(holder + i) % n for i in range(1, n) if in_deal[(holder + i) % n]]
    if rules.draw_source is DrawSource.STOCK:
        if len(stock) < len(payers):
            raise InvalidInputError(
                "stock",
                f"the payment round draws {len(payers)} stock cards, only {len(stock)} given",
            )
        cards = stock[: len(payers)]
    else:
        held = list(claim.value.cards)
        if not ch.picks:  # None or empty: random picks (as over the wire)
            cards = random.Random(ch.seed).sample(held, len(payers))
        else:
            picks = list(ch.picks)
            if len(picks) != len(payers):
                raise IllegalPlayError(
                    "picks", f"{len(payers)} opponents pick, got {len(picks)} picks", rule="TL-4"
                )
            for i, card in enumerate(picks):
                if card not in held or card in picks[:i]:
                    raise IllegalPlayError(
                        ("picks", i),
                        f"{card} is not one of the holder's remaining cards "
                        f"({format_cards(c for c in held if c not in picks[:i])})",
                        rule="TL-4",
                    )
            cards = picks
    for payer, card in zip(payers, cards, strict=True):
        ledger.pay(payer, holder, card_points(card), "khlyust payment round (TL-4)", card)


def play_tricks(
    deal: Deal,
    choices: Choices,
    hands: Mapping[int, tuple[Card, ...]] | None = None,
    in_deal: Sequence[bool] | None = None,
) -> tuple[tuple[Trick, ...], list[int]]:
    """Play the three tricks of TL-5 (the assistant leads) and return them with the trick
    count of every seat. ``hands`` default to the dealt ones and ``in_deal`` to everyone.

    >>> d = Deal.of(["Ah Kh 8h", "Qh Jh 9d"], "Qs")
    >>> play_tricks(d, Choices.of(plays="Ah Qh  Kh Jh  8h ~9d"))[1]
    [3, 0]
    """
    ch = choices
    hands = dict(enumerate(deal.hands)) if hands is None else hands
    in_deal = [True] * deal.players if in_deal is None else in_deal
    rules = deal.rules
    n = deal.players
    live = [s for s in deal.order if in_deal[s]]
    holding = {s: list(hands[s]) for s in live}
    counts = [0] * n
    tricks: list[Trick] = []
    scripted = None if callable(ch.plays) else list(ch.plays)
    needed = TRICKS_PER_DEAL * len(live)

    def miscount() -> InvalidInputError:
        got = len(scripted or ())
        return InvalidInputError(
            "plays", f"{len(live)} players in the deal make {needed} plays, got {got}"
        )

    leader = deal.assistant
    index = 0
    for _ in range(TRICKS_PER_DEAL):
        trick = Trick(deal.trump, leader)
        start = live.index(leader)
        for seat in live[start:] + live[:start]:
            hand = tuple(holding[seat])
            if scripted is not None:
                if index >= len(scripted):
                    raise miscount()
                card, down = scripted[index]
            else:
                assert callable(ch.plays)
                chosen = ch.plays(seat, hand, trick, rules)
                card, down = chosen.card, chosen.face_down
            index += 1
            check_play(
                hand,
                trick.led_suit,
                deal.trump,
                card,
                down,
                rules=rules,
                field=("plays", index - 1),
                who=f"seat {seat}",
            )
            trick = trick.play(seat, card, face_down=down)
            holding[seat].remove(card)
        leader = trick.winner
        counts[leader] += 1
        tricks.append(trick)
    if scripted is not None and index != len(scripted):
        raise miscount()
    return tuple(tricks), counts


def _settle_tricks(
    rules: ThreeLeavesRules, counts: Sequence[int], in_deal: Sequence[bool], ledger: _Ledger
) -> None:
    """TL-6."""
    for seat, c in enumerate(counts):
        if c == TRICKS_PER_DEAL:
            ledger.take(seat, ledger.pot)
            ledger.notes.append(f"seat {seat} took 3 tricks and the pot (TL-6)")
            return
    ledger.notes.append("nobody took 3 tricks: the pot stays (TL-6)")
    for seat, c in enumerate(counts):
        if c == 2:
            for other, oc in enumerate(counts):
                if in_deal[other] and oc == 0 and other != seat:
                    ledger.pay(other, seat, rules.share, "share: 2 tricks against none (TL-6)")


def _settle_playout(
    rules: ThreeLeavesRules,
    claim: KhlyustClaim,
    counts: Sequence[int],
    in_deal: Sequence[bool],
    ledger: _Ledger,
) -> None:
    """TL-4's play-out: 3 tricks the pot, 1-2 half (rounded down), 0 per ``zero_tricks``."""
    holder = claim.seat
    got = counts[holder]
    if got == TRICKS_PER_DEAL:
        ledger.take(holder, ledger.pot)
        ledger.notes.append(f"khlyust holder seat {holder} took 3 tricks: the pot (TL-4)")
    elif got > 0:
        ledger.take(holder, ledger.pot // 2)
        ledger.notes.append(f"khlyust holder seat {holder} took {got}: half the pot (TL-4)")
    elif rules.zero_tricks is ZeroTricks.FORFEIT:
        ledger.notes.append(f"khlyust holder seat {holder} took none: forfeits (TL-4)")
    else:
        ledger.take(holder, ledger.pot)
        ledger.notes.append(f"khlyust holder seat {holder} took none: pot and penalty (TL-4)")
        for other in range(len(counts)):
            if other != holder and in_deal[other]:
                ledger.pay(holder, other, rules.flop_penalty, "flop penalty (TL-4)")


# --------------------------------------------------------------------------------------------
# Sequences of deals


@dataclass(frozen=True)
class SessionResult:
    """Deals played in sequence: each result, every player's running total and the pot left."""

    results: tuple[DealResult, ...]
    totals: tuple[int, ...]
    pot: int

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values."""
        return {
            "deals": [r.to_dict() for r in self.results],
            "totals": list(self.totals),
            "pot": self.pot,
        }


def play_session(
    deals: Iterable[tuple[Deal, Choices | None]],
    *,
    carried_pot: int = 0,
    play: Callable[[Deal, Choices | None, int], DealResult] | None = None,
) -> SessionResult:
    """Play deals in order, carrying the pot from each to the next (TL-6).

    ``play(deal, choices, carried_pot)`` plays one deal (default :func:`play_deal`; the remote
    client passes a call to its server).

    >>> d = Deal.of(["As Ks 8s", "9h Jc Qd"], "Ts")
    >>> s = play_session([(d, Choices.of(picks="Ks")), (d, Choices.of(picks="As"))])
    >>> s.totals, s.pot
    ((17, -17), 0)
    """
    results: list[DealResult] = []
    pot = carried_pot
    totals: list[int] = []
    for i, (deal, choices) in enumerate(deals):
        if totals and len(totals) != deal.players:
            raise InvalidInputError(
                ("deals", i), f"has {deal.players} players, the session {len(totals)}"
            )
        totals = totals or [0] * deal.players
        try:
            if play is None:
                result = play_deal(deal, choices, carried_pot=pot)
            else:
                result = play(deal, choices, pot)
        except InvalidInputError as exc:
            raise exc.prefixed(("deals", i)) from None
        results.append(result)
        totals = [t + d for t, d in zip(totals, result.net, strict=True)]
        pot = result.pot_after
    return SessionResult(tuple(results), tuple(totals), pot)
