"""Chlust trick play (CH-8) and its result (CH-9).

The duties of CH-8, for a player holding ``hand`` facing the trick so far:

* follow suit; while the trick is headed by a card of the led suit, play higher than it when
  able;
* void in the led suit: trump, and overtrump a trump heading the trick when able; unable to
  overtrump, still trump [default] (``underruff=may_discard``: any card);
* holding neither: any card.

The wild card plays as itself in tricks (CH-3). Trick winners come from :mod:`cpsolver.tricks`.

CH-8 is stated once, in :func:`duty`; :func:`legal_plays`, :func:`can_play`,
:func:`verify_play` and :class:`TrickGame` derive from it. As in Three Leaves, the legal plays
are :class:`~cpsolver.tricks.Play` values of the seat to play:

>>> from cpsolver.cards import Suit
>>> from cpsolver.tricks import Trick
>>> over = Trick.of(Suit.HEARTS, 0, parse_cards("Qd Kd Jh"))
>>> [str(p) for p in legal_plays("Th Kh Ac", over)], legal_cards("Th Ac Ks", over)
(['3:Kh'], (Card('Th'),))
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, overload

from cpsolver.cards import Card, CardsLike, Suit, parse_cards, parse_suit
from cpsolver.checks import iterable_of, whole_number
from cpsolver.chlust.deal import Deal, one_card, parse_hands
from cpsolver.errors import Field, IllegalPlayError, InvalidInputError, Violations
from cpsolver.rules.chlust import ChlustRules, TrickTie, Underruff
from cpsolver.tricks import Play, Trick, check_trick

__all__ = [
    "DealResult",
    "LegalPlays",
    "TrickGame",
    "can_play",
    "duty",
    "first_leader",
    "legal_cards",
    "legal_plays",
    "next_seat",
    "play_deal",
    "settle_tricks",
    "verify_play",
]


def duty(hand: Sequence[Card], trick: Trick, rules: ChlustRules) -> tuple[tuple[Card, ...], str]:
    """The legal cards of ``hand`` on ``trick`` and the CH-8 duty that selects them, in words
    (the one statement of CH-8: :func:`legal_plays`, :meth:`TrickGame.play` and the advice
    derive from it)."""
    head = trick.head
    led = trick.led_suit
    if head is None or led is None:
        return tuple(hand), "any card may lead"
    trump = trick.trump
    top = head.card
    following = tuple(c for c in hand if c.suit is led)
    if following:
        if top.suit is led:
            higher = tuple(c for c in following if c.rank > top.rank)
            if higher:
                return higher, f"must follow {led.symbol} above {top} heading the trick"
        return following, f"must follow suit {led.symbol}"
    trumps = tuple(c for c in hand if trump is not None and c.suit is trump)
    if trumps:
        if top.suit is trump:
            over = tuple(c for c in trumps if c.rank > top.rank)
            if over:
                return over, f"void in {led.symbol}: must overtrump {top}"
            if rules.underruff is Underruff.MAY_DISCARD:
                return tuple(hand), "unable to overtrump: any card (underruff=may_discard)"
            return trumps, f"void in {led.symbol}, unable to overtrump {top}: must still trump"
        return trumps, f"void in {led.symbol}: must trump"
    return tuple(hand), "holding neither the led suit nor trumps: any card"


class LegalPlays(tuple[Play, ...]):
    """The legal plays :func:`legal_plays` returns. Until this release Chlust's
    ``legal_plays`` returned cards; for one release the plays still answer ``card in plays``
    and ``plays == (card, ...)`` as those cards did, with a :class:`DeprecationWarning`
    (compare ``play.card``, or use :func:`legal_cards`)."""

    __slots__ = ()

    @staticmethod
    def _warn() -> None:
        warnings.warn(
            "Chlust's legal_plays returns Play values now (as Three Leaves' does): compare "
            "play.card, or use legal_cards()",
            DeprecationWarning,
            stacklevel=3,
        )

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Card):
            self._warn()
            return any(p.card == item for p in self)
        return tuple.__contains__(self, item)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, tuple) and other and all(isinstance(c, Card) for c in other):
            self._warn()
            return tuple(p.card for p in self) == other
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__


def next_seat(trick: Trick, rules: ChlustRules | str | None = None) -> int:
    """The seat after the trick's last play, clockwise at a table of ``rules.players`` (the
    leader when the trick is empty): the default seat of :func:`legal_plays`. A seat that
    folded is skipped by naming the seat to play instead.

    >>> from cpsolver.cards import Suit
    >>> next_seat(Trick.of(Suit.HEARTS, 1, parse_cards("Qd")), "heads_up")
    0
    """
    players = ChlustRules.resolve(rules).players
    check_trick(trick, players)
    if not trick.plays:
        return trick.leader
    return (trick.plays[-1].seat + 1) % players


def _parse_hand(hand: CardsLike, trick: Trick, rules: ChlustRules) -> tuple[Card, ...]:
    """``hand`` read for a play to ``trick``, both checked (the trick one of the table's,
    waiting for a card: :func:`~cpsolver.tricks.check_trick`), as every entry point taking a
    hand and a trick reads them."""
    check_trick(trick, rules.players)
    cards = parse_cards(hand, deck=rules.card_deck, count=(1, 2, 3), field="hand")
    for card in cards:
        if card in trick.cards:
            raise InvalidInputError("hand", f"card {card} is already on the trick")
    return cards


def legal_cards(
    hand: CardsLike, trick: Trick, rules: ChlustRules | str | None = None
) -> tuple[Card, ...]:
    """The cards of :func:`legal_plays` (never empty for a non-empty hand).

    ``trick.trump`` is the trump suit. CH-E10, trumps ♥, Q♦ led:

    >>> from cpsolver.cards import Suit
    >>> from cpsolver.tricks import Trick
    >>> led = Trick.of(Suit.HEARTS, 0, parse_cards("Qd"))
    >>> legal_cards("Kd Ad Ts", led), legal_cards("Jh As Kc", led)
    ((Card('Kd'), Card('Ad')), (Card('Jh'),))
    """
    resolved = ChlustRules.resolve(rules)
    return duty(_parse_hand(hand, trick, resolved), trick, resolved)[0]


def legal_plays(
    hand: CardsLike,
    trick: Trick,
    rules: ChlustRules | str | None = None,
    *,
    seat: int | None = None,
) -> LegalPlays:
    """Every play ``hand`` may make on ``trick`` under CH-8 (:func:`duty`), as plays of
    ``seat`` (default :func:`next_seat`); the wild card plays as itself.

    >>> from cpsolver.cards import Suit
    >>> from cpsolver.tricks import Trick
    >>> led = Trick.of(Suit.HEARTS, 0, parse_cards("Qd"))
    >>> [str(p) for p in legal_plays("Kd Ad Ts", led, seat=2)]
    ['2:Kd', '2:Ad']
    """
    resolved = ChlustRules.resolve(rules)
    to_play = next_seat(trick, resolved) if seat is None else seat
    return LegalPlays(Play(to_play, c) for c in legal_cards(hand, trick, resolved))


def _card(play: Card | str | Play, rules: ChlustRules, field: Field) -> Card:
    return play.card if isinstance(play, Play) else one_card(play, rules, field)


def can_play(
    hand: CardsLike,
    trick: Trick,
    play: Card | str | Play,
    rules: ChlustRules | str | None = None,
) -> bool:
    """True when ``hand`` may play ``play`` (a card, its notation or a
    :class:`~cpsolver.tricks.Play`) to ``trick`` under CH-8 (:func:`duty`).

    >>> from cpsolver.cards import Suit
    >>> over = Trick.of(Suit.HEARTS, 0, parse_cards("Qd Kd Jh"))
    >>> can_play(parse_cards("Th Kh Ac"), over, "Kh"), can_play(parse_cards("Th Kh Ac"), over, "Th")
    (True, False)
    """
    resolved = ChlustRules.resolve(rules)
    held = _parse_hand(hand, trick, resolved)
    card = _card(play, resolved, "card")
    return card in held and card in duty(held, trick, resolved)[0]


def verify_play(
    hand: CardsLike,
    trick: Trick,
    play: Card | str | Play,
    rules: ChlustRules | str | None = None,
    *,
    field: Field = "card",
    who: str = "the player",
) -> None:
    """Raise :class:`IllegalPlayError` (rule CH-8) saying why ``hand`` may not play ``play`` to
    ``trick`` (a card not held, or the :func:`duty` it breaks), else return.

    >>> from cpsolver.cards import Suit
    >>> over = Trick.of(Suit.HEARTS, 0, parse_cards("Qd Kd Jh"))
    >>> verify_play(parse_cards("Th Kh Ac"), over, "Th")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.IllegalPlayError: card: the player may not play Th: ... (legal: Kh) (CH-8)
    """
    resolved = ChlustRules.resolve(rules)
    held = _parse_hand(hand, trick, resolved)
    _verify(held, trick, _card(play, resolved, field), resolved, field, who)


def _verify(
    held: Sequence[Card], trick: Trick, card: Card, rules: ChlustRules, field: Field, who: str
) -> None:
    """:func:`verify_play` of a hand and trick read already (:class:`TrickGame` plays its
    own: a table of its hands, whatever ``rules.players`` says)."""
    if card not in held:
        raise IllegalPlayError(field, f"{who} does not hold {card}", rule="CH-8")
    legal, why = duty(held, trick, rules)
    if card not in legal:
        allowed = " ".join(str(c) for c in legal)
        raise IllegalPlayError(
            field, f"{who} may not play {card}: {why} (legal: {allowed})", rule="CH-8"
        )


def first_leader(players: int, dealer: int, folded: Sequence[int] = ()) -> int:
    """Who leads the first trick: the dealer, or the first player still in clockwise from the
    dealer (CH-8).

    >>> first_leader(4, 1), first_leader(4, 1, folded=[1, 2])
    (1, 3)
    """
    for offset in range(players):
        seat = (dealer + offset) % players
        if seat not in folded:
            return seat
    raise InvalidInputError("folded", "every player folded: no tricks are played (CH-6)")


@dataclass(frozen=True)
class DealResult:
    """The outcome of three tricks under CH-9; per-seat values are tuples indexed by seat
    (every seat at the table, as in Three Leaves).

    ``tricks_won[seat]`` and ``shares[seat]`` (the fraction of the pot) are 0 for a seat that
    folded (``in_deal[seat]`` False); ``carried`` is the fraction that stays for the next deal.
    """

    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[Fraction, ...]
    carried: Fraction
    in_deal: tuple[bool, ...]

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats still in the deal, in seat order."""
        return tuple(s for s, playing in enumerate(self.in_deal) if playing)

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values (fractions as strings such as ``"1/3"``)."""
        return {
            "tricks": [
                {
                    "leader": t.leader,
                    "plays": [{"seat": p.seat, "card": str(p.card)} for p in t.plays],
                    "winner": t.winner,
                }
                for t in self.tricks
            ],
            "tricks_won": {str(s): self.tricks_won[s] for s in self.seats},
            "winners": list(self.winners),
            "shares": {str(s): str(self.shares[s]) for s in self.seats},
            "carried": str(self.carried),
        }


def settle_tricks(
    tricks_won: Sequence[int],
    rules: ChlustRules | str | None = None,
    *,
    in_deal: Sequence[bool] | None = None,
) -> tuple[tuple[int, ...], tuple[Fraction, ...], Fraction]:
    """CH-9: (seats with most tricks, pot fraction per seat, fraction carried over), from the
    tricks each seat took (a tuple by seat; ``in_deal`` marks the seats still in, default all).
    The tricks must be one deal's: a whole number >= 0 for each seat of a table of 2 to 4,
    three in all, none for a seat out of the deal; else :class:`InvalidInputError` naming
    ``tricks_won[i]``, ``tricks_won`` or ``in_deal``, every violation at once.

    >>> settle_tricks((-1, 2, 2))
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: tricks_won[0]: must be 0 to 3, got -1
    >>> winners, shares, carried = settle_tricks((1, 1, 1))
    >>> winners, carried
    ((0, 1, 2), Fraction(1, 1))
    >>> settle_tricks((2, 0, 1), ChlustRules().replace(trick_tie="thirds"), in_deal=(1, 0, 1))[1]
    (Fraction(2, 3), Fraction(0, 1), Fraction(1, 3))
    """
    rules = ChlustRules.resolve(rules)
    won, playing = _read_tricks_won(tricks_won, in_deal)
    seats = [s for s in range(len(won)) if playing[s]]
    most = max(won[s] for s in seats)
    winners = tuple(s for s in seats if won[s] == most)
    total = sum(won[s] for s in seats)
    shares = [Fraction(0)] * len(won)
    carried = Fraction(0)
    if rules.trick_tie is TrickTie.THIRDS and total:
        for s in seats:
            shares[s] = Fraction(won[s], total)
    elif len(winners) == 1:
        shares[winners[0]] = Fraction(1)
    elif rules.trick_tie is TrickTie.SPLIT:
        for s in winners:
            shares[s] = Fraction(1, len(winners))
    else:
        carried = Fraction(1)
    return winners, tuple(shares), carried


TRICKS = 3
"""Tricks a Chlust deal plays (CH-7): three cards a hand."""


def _read_tricks_won(
    tricks_won: object, in_deal: object
) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """The tricks each seat took and whether it is in the deal, checked as one deal's result
    (every violation at once): one whole number >= 0 a seat of a table of 2 to 4 (CH-1),
    :data:`TRICKS` in all, none taken by a seat out of the deal, at least two seats in it
    (CH-6: tricks are played by two or more). Unchecked, -1 or 5 tricks were settled as if
    played and text failed inside as a bare TypeError."""
    entries = list(iterable_of(tricks_won, "tricks_won", "the tricks won seat by seat"))
    problems = Violations()
    won: list[int] = []
    for i, value in enumerate(entries):
        with problems.check():
            won.append(whole_number(value, ("tricks_won", i), low=0, high=TRICKS))
    with problems.check():
        if not 2 <= len(entries) <= 4:
            raise InvalidInputError(
                "tricks_won", f"expected one entry a seat, 2 to 4 seats (CH-1), got {len(entries)}"
            )
    playing: tuple[bool, ...] = (True,) * len(entries)
    if in_deal is not None:
        flags = list(iterable_of(in_deal, "in_deal", "one flag a seat"))
        with problems.check():
            if len(flags) != len(entries):
                raise InvalidInputError(
                    "in_deal", f"expected {len(entries)} seats, got {len(flags)}"
                )
            playing = tuple(bool(x) for x in flags)
            if sum(playing) < 2:
                raise InvalidInputError(
                    "in_deal", "tricks need at least two players still in the deal (CH-6)"
                )
    if not problems:  # the sums below need every entry read
        for i, (count, still_in) in enumerate(zip(won, playing, strict=True)):
            if count and not still_in:
                problems.add(
                    InvalidInputError(
                        ("tricks_won", i), f"seat {i} is out of the deal but took {count}"
                    )
                )
        if sum(won) != TRICKS:
            problems.add(
                InvalidInputError(
                    "tricks_won", f"a deal plays {TRICKS} tricks (CH-7), these add up to {sum(won)}"
                )
            )
    problems.raise_any()
    return tuple(won), playing


@dataclass
class TrickGame:
    """Three tricks of one Chlust deal as a state machine that refuses illegal plays (CH-8).

    ``hands`` has one entry per seat at the table (clockwise); folded seats may hold anything
    (``None`` or ``""``) and never play.

    >>> game = TrickGame(["Ah Td Kc", "Kh Ad Js", "Qh Jd Tc"], "s")
    >>> game.to_play, game.legal()
    (0, (Card('Td'), Card('Kc'), Card('Ah')))
    >>> game.play("Kd")
    Traceback (most recent call last):
    ...
    cpsolver.errors.IllegalPlayError: card: seat 0 does not hold Kd (CH-8)
    """

    hands: Sequence[CardsLike | None]
    trump: Suit | str
    rules: ChlustRules | str | None = None
    dealer: int = 0
    folded: Sequence[int] = ()
    turned: Card | str | None = None
    _held: dict[int, list[Card]] = field(init=False, repr=False)
    _done: list[Trick] = field(init=False, repr=False)
    _current: Trick = field(init=False, repr=False)
    _order: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rules = ChlustRules.resolve(self.rules)
        self.trump = parse_suit(self.trump, field="trump")
        n = len(self.hands)
        if not 2 <= n <= 4:
            raise InvalidInputError("hands", f"Chlust needs 2 to 4 hands (CH-1), got {n}")
        if not 0 <= self.dealer < n:
            raise InvalidInputError("dealer", f"must be a seat 0..{n - 1}, got {self.dealer}")
        for s in self.folded:
            if not 0 <= s < n:
                raise InvalidInputError("folded", f"no seat {s} at a table of {n}")
        active = [s for s in range(n) if s not in self.folded]
        if len(active) < 2:
            raise InvalidInputError("folded", "tricks need at least two players still in (CH-6)")
        turned = () if self.turned is None else (one_card(self.turned, self.rules, "turned"),)
        if any(self.hands[s] is None for s in active):
            raise InvalidInputError("hands", "every player still in needs a hand")
        given = [self.hands[s] if s in active else None for s in range(n)]
        parsed = parse_hands(given, self.rules, players=False, exclude=turned)
        self._held = {s: list(parsed[s]) for s in active}
        leader = first_leader(n, self.dealer, self.folded)
        self._order = tuple((leader + i) % n for i in range(n) if (leader + i) % n in self._held)
        self._done = []
        self._current = Trick(self.trump, leader)

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats still in, clockwise from the first leader."""
        return self._order

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks."""
        return tuple(self._done)

    @property
    def current(self) -> Trick:
        """The trick in progress (empty at the start of a trick)."""
        return self._current

    @property
    def is_over(self) -> bool:
        """True after three tricks."""
        return len(self._done) == 3

    @property
    def to_play(self) -> int | None:
        """The seat whose turn it is (None when the deal is over)."""
        if self.is_over:
            return None
        n = len(self.hands)
        seat = self._current.leader
        for _ in range(len(self._current)):
            seat = (seat + 1) % n
            while seat not in self._held:
                seat = (seat + 1) % n
        return seat

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` still holds."""
        return tuple(self._held.get(seat, ()))

    def legal_plays(self) -> LegalPlays:
        """The legal plays of the player to play (CH-8), as :func:`legal_plays` gives them."""
        seat = self.to_play
        if seat is None:
            return LegalPlays()
        return LegalPlays(Play(seat, c) for c in self.legal())

    def legal(self) -> tuple[Card, ...]:
        """The legal cards of the player to play (CH-8)."""
        seat = self.to_play
        if seat is None:
            return ()
        return duty(sorted(self._held[seat]), self._current, self._rules)[0]

    @property
    def _rules(self) -> ChlustRules:
        assert isinstance(self.rules, ChlustRules)
        return self.rules

    def play(self, card: Card | str, *, seat: int | None = None, field: Field = "card") -> None:
        """Play ``card`` for the player to play (``seat``, when given, must be that player).

        Raises :class:`IllegalPlayError` naming CH-8 for a card not held, out of turn or
        against a duty.
        """
        to_play = self.to_play
        if to_play is None:
            raise IllegalPlayError(field, "the deal is over: three tricks are played", rule="CH-8")
        if seat is not None and seat != to_play:
            raise IllegalPlayError(
                field, f"seat {seat} plays out of turn: seat {to_play} is to play", rule="CH-8"
            )
        parsed = one_card(card, self._rules, field)
        held = self._held[to_play]
        _verify(sorted(held), self._current, parsed, self._rules, field, f"seat {to_play}")
        held.remove(parsed)
        self._current = self._current.play(to_play, parsed)
        if len(self._current) == len(self._held):
            self._done.append(self._current)
            self._current = Trick(self._current.trump, self._current.winner)

    def tricks_won(self) -> tuple[int, ...]:
        """Tricks taken so far by each seat at the table (0 for a seat that folded)."""
        won = [0] * len(self.hands)
        for t in self._done:
            won[t.winner] += 1
        return tuple(won)

    def result(self) -> DealResult:
        """The CH-9 result; raises when fewer than three tricks are complete."""
        if not self.is_over:
            raise InvalidInputError(
                "plays", f"the deal is not over: {len(self._done)} of 3 tricks played"
            )
        won = self.tricks_won()
        in_deal = tuple(s in self._held for s in range(len(self.hands)))
        winners, shares, carried = settle_tricks(won, self._rules, in_deal=in_deal)
        return DealResult(tuple(self._done), won, winners, shares, carried, in_deal)


@overload
def play_deal(
    deal: Deal,
    plays: CardsLike | Sequence[CardsLike],
    /,
    *,
    rules: ChlustRules | str | None = None,
    folded: Sequence[int] = (),
) -> DealResult: ...


@overload
def play_deal(
    hands: Sequence[CardsLike | None],
    trump: Suit | str,
    plays: CardsLike | Sequence[CardsLike],
    rules: ChlustRules | str | None = None,
    *,
    dealer: int = 0,
    folded: Sequence[int] = (),
    turned: Card | str | None = None,
) -> DealResult: ...


def play_deal(
    hands: Deal | Sequence[CardsLike | None],
    trump: Any = None,
    plays: Any = None,
    rules: ChlustRules | str | None = None,
    *,
    dealer: int = 0,
    folded: Sequence[int] = (),
    turned: Card | str | None = None,
) -> DealResult:
    """Play a whole deal to its end (CH-8, CH-9): ``play_deal(deal, plays, *, rules, folded)``
    as in Three Leaves, ``deal`` a :class:`~cpsolver.chlust.deal.Deal` (its hands, dealer and
    turned card); or from loose facts, ``play_deal(hands, trump, plays, rules, *, dealer,
    folded, turned)``, when only the trump suit is known (as on the wire and in the CLI's JSON).

    ``plays`` is one string/sequence of cards, or one entry per trick. Every illegal play
    raises :class:`IllegalPlayError` (``plays[k]``, from 0, rule CH-8), a short list too
    (checked play by play before its count, as in Three Leaves):

    >>> play_deal(["Ah Td Kc", "Kh Ad Js", "Qh Jd Tc"], "s", "Ah Ad")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.IllegalPlayError: plays[1]: seat 1 may not play Ad: must follow suit ♥ ...

    CH-E11 (seat 0 deals; trumps ♠), from loose facts and from a deal:

    >>> result = play_deal(["Ah Td Kc", "Kh Ad Js", "Qh Jd Tc"], "s",
    ...                    "Ah Kh Qh  Kc Js Tc  Ad Jd Td")
    >>> result.tricks_won, result.winners, result.shares[1]
    ((1, 2, 0), (1,), Fraction(1, 1))
    >>> dealt = Deal(tuple(parse_cards(h) for h in ("Ah Td Kc", "Kh Ad Js", "Qh Jd Tc")),
    ...              Card.of("As"), dealer=0, stock=())
    >>> play_deal(dealt, "Ah Kh Qh  Kc Js Tc  Ad Jd Td") == result
    True
    """
    if isinstance(hands, Deal):
        if dealer or turned is not None or (plays is not None and trump is not None and rules):
            raise TypeError("play_deal(deal, plays, *, rules, folded): the deal has the rest")
        deal = hands
        if trump is not None:  # play_deal(deal, plays[, rules])
            plays, rules = trump, rules if plays is None else plays
        hands, trump, dealer, turned = deal.hands, deal.trump, deal.dealer, deal.turned
    game = TrickGame(hands, trump, rules, dealer, folded, turned)
    if isinstance(plays, str):
        cards: list[Card | str] = list(_parse_plays(plays, game))
    else:
        cards = []
        for entry in plays:
            if isinstance(entry, Card):
                cards.append(entry)
            else:
                cards.extend(_parse_plays(entry, game))
    needed = 3 * len(game.seats)
    # The plays given are played and checked first, as Three Leaves' play_deal does: a short
    # (or long) list is refused for its count only when every play in it is legal.
    for k, card in enumerate(cards[:needed]):
        game.play(card, field=("plays", k))
    if len(cards) != needed:
        raise InvalidInputError(
            "plays",
            f"expected {needed} cards (3 tricks of {len(game.seats)} players), got {len(cards)}",
        )
    return game.result()


def _parse_plays(text: CardsLike, game: TrickGame) -> tuple[Card, ...]:
    rules = game.rules
    assert isinstance(rules, ChlustRules)
    return parse_cards(text, deck=rules.card_deck, field="plays")
