"""Trick-taking primitives shared by Chlust (CH-8) and Three Leaves (TL-5).

A :class:`Trick` is an immutable record of the cards played to one trick, in turn order, under
one trump suit (or none). It answers what every trick game here agrees on: the led suit, the
card heading the trick so far and the winner - the highest trump, else the highest card of the
led suit; a card played **face down** (Three Leaves' "v okhlupku") never wins. Ranks compare by
their conventional value (A > K > Q > J > T > 9 ...), which is the card order of both games.

What a player *may* play (CH-8's duty to head and overtrump, TL-5's face-down discards) is game
logic and lives in each game's module; this module only records and judges.

>>> from cpsolver.cards import parse_cards, Suit
>>> trick = Trick(Suit.HEARTS, leader=0)
>>> for seat, card in enumerate(parse_cards("Qd Kd Jh")):
...     trick = trick.play(seat, card)
>>> trick.led_suit, trick.head.card, trick.winner
(<Suit.DIAMONDS: 'd'>, Card('Jh'), 2)
>>> trick_winner(parse_cards("As 8d Ac"), Suit.DIAMONDS, face_down=[False, False, True])
1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cpsolver.cards import Card, Suit
from cpsolver.errors import Field, FieldViolation, InvalidInputError, field_path

__all__ = ["Play", "Trick", "beats", "check_trick", "check_trick_size", "trick_winner"]


@dataclass(frozen=True, slots=True)
class Play:
    """One card put on a trick by the player in ``seat`` (face up unless ``face_down``)."""

    seat: int
    card: Card
    face_down: bool = False

    def __str__(self) -> str:
        return f"{self.seat}:{self.card}{'(down)' if self.face_down else ''}"


def beats(challenger: Card, head: Card, led: Suit, trump: Suit | None) -> bool:
    """True when face-up ``challenger`` takes the lead of a trick headed by face-up ``head``.

    A trump beats any non-trump and a lower trump; a card of the led suit beats a lower card of
    the led suit; anything else (a discard of a third suit) never beats.

    >>> from cpsolver.cards import Card, Suit
    >>> beats(Card.of("7h"), Card.of("As"), Suit.SPADES, Suit.HEARTS)
    True
    >>> beats(Card.of("Ac"), Card.of("7s"), Suit.SPADES, Suit.HEARTS)
    False
    """
    if trump is not None and challenger.suit is trump:
        return head.suit is not trump or challenger.rank > head.rank
    if challenger.suit is led:
        return head.suit is led and challenger.rank > head.rank
    return False


def trick_winner(
    cards: Sequence[Card],
    trump: Suit | None,
    *,
    face_down: Sequence[bool] | None = None,
) -> int:
    """Index (into ``cards``, play order) of the card that wins the trick.

    The first card leads and must be face up; face-down cards never win.

    >>> from cpsolver.cards import parse_cards, Suit
    >>> trick_winner(parse_cards("Qd Kd Jh"), Suit.HEARTS)
    2
    >>> trick_winner(parse_cards("Qd Kd Ah"), Suit.CLUBS)
    1
    """
    if not cards:
        raise InvalidInputError("trick", "an empty trick has no winner")
    down = list(face_down) if face_down is not None else [False] * len(cards)
    if len(down) != len(cards):
        raise InvalidInputError("trick.face_down", f"expected {len(cards)} flags, got {len(down)}")
    if down[0]:
        raise InvalidInputError(("trick", "plays", 0), "the lead cannot be played face down")
    led = cards[0].suit
    best = 0
    for i in range(1, len(cards)):
        if not down[i] and beats(cards[i], cards[best], led, trump):
            best = i
    return best


@dataclass(frozen=True, slots=True)
class Trick:
    """An immutable trick in progress or complete: trump, leader and the plays in order.

    :meth:`play` returns a new trick with one more card; nothing here checks a game's duty to
    follow or head (that is the caller's rule), only that a card and a seat appear once.
    """

    trump: Suit | None
    leader: int
    plays: tuple[Play, ...] = ()

    def __post_init__(self) -> None:
        if self.plays and self.plays[0].seat != self.leader:
            raise InvalidInputError(
                ("trick", "plays", 0),
                f"the first play must be the leader's (seat {self.leader}), "
                f"got seat {self.plays[0].seat}",
            )
        if self.plays:
            trick_winner(self.cards, self.trump, face_down=[p.face_down for p in self.plays])
        seen_cards: set[Card] = set()
        seen_seats: set[int] = set()
        for i, p in enumerate(self.plays):
            if p.card in seen_cards:
                raise InvalidInputError(("trick", "plays", i), f"card {p.card} is already played")
            if p.seat in seen_seats:
                raise InvalidInputError(("trick", "plays", i), f"seat {p.seat} has already played")
            seen_cards.add(p.card)
            seen_seats.add(p.seat)

    @classmethod
    def of(
        cls,
        trump: Suit | None,
        leader: int,
        cards: Iterable[Card],
        *,
        seats: Sequence[int] | None = None,
        players: int | None = None,
    ) -> Trick:
        """A trick from cards in play order; seats default to clockwise from ``leader``.

        ``players`` (the table size) makes seats wrap around (``leader=2, players=3`` plays
        seats 2, 0, 1).
        """
        listed = list(cards)
        if seats is None:
            seats = [(leader + i) % players if players else leader + i for i in range(len(listed))]
        return cls(trump, leader, tuple(Play(s, c) for s, c in zip(seats, listed, strict=True)))

    def play(self, seat: int, card: Card, *, face_down: bool = False) -> Trick:
        """This trick with ``card`` added by ``seat``."""
        if not self.plays and seat != self.leader:
            raise InvalidInputError(
                "trick", f"seat {seat} cannot lead; the leader is seat {self.leader}"
            )
        return Trick(self.trump, self.leader, (*self.plays, Play(seat, card, face_down)))

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards in play order."""
        return tuple(p.card for p in self.plays)

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats in play order."""
        return tuple(p.seat for p in self.plays)

    @property
    def led_suit(self) -> Suit | None:
        """The suit of the lead (None for an empty trick)."""
        return self.plays[0].card.suit if self.plays else None

    @property
    def head(self) -> Play | None:
        """The play currently winning the trick (None for an empty trick)."""
        if not self.plays:
            return None
        return self.plays[self._winning_index()]

    @property
    def winner(self) -> int:
        """Seat of the player winning the trick so far (raises on an empty trick)."""
        if not self.plays:
            raise InvalidInputError("trick", "an empty trick has no winner")
        return self.plays[self._winning_index()].seat

    def _winning_index(self) -> int:
        return trick_winner(self.cards, self.trump, face_down=[p.face_down for p in self.plays])

    def __len__(self) -> int:
        return len(self.plays)

    def __str__(self) -> str:
        return " ".join(str(p) for p in self.plays)


def check_trick_size(plays: int, players: int, field: Field = "trick") -> None:
    """Raise :class:`InvalidInputError` naming ``field`` unless a trick of ``plays`` cards
    still waits for a card at a table of ``players``: at most ``players - 1`` (with more, the
    next card would be a seat the table does not have).

    >>> check_trick_size(5, 4)
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: trick: holds 5 cards, but a trick at a table of 4 \
players waits for a card only while it holds at most 3
    """
    if plays >= players:
        raise InvalidInputError(
            field,
            f"holds {plays} cards, but a trick at a table of {players} players waits for a card "
            f"only while it holds at most {players - 1}",
        )


def check_trick(
    trick: object, players: int | None, field: Field = "trick", *, waiting: bool = True
) -> Trick:
    """``trick`` when it is a :class:`Trick` of a table of ``players`` seats (None: a Trick,
    its seats checked by the caller): its leader and every seat that played one of the
    table's (0 to ``players - 1``) and, when ``waiting`` (a trick a card is asked for),
    :func:`check_trick_size`. Every violation is reported at once, each naming its part
    (``trick.leader``, ``trick.plays[4]``, ``trick``). The games' entry points taking a trick
    read it here: unchecked, a string failed inside as a bare AttributeError and a trick of
    more cards than players was answered for a seat that does not exist.

    >>> check_trick("Qd Kd Jh", 3)
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: trick: expected a Trick (cpsolver.tricks.Trick), got str
    >>> check_trick(Trick.of(Suit.HEARTS, 2, [Card.of("Qd"), Card.of("Kd")]), 3)
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: trick.plays[1]: seat 3 is not at a table of 3 players \
(seats 0 to 2)
    """
    if not isinstance(trick, Trick):
        kind = "None" if trick is None else type(trick).__name__
        raise InvalidInputError(field, f"expected a Trick (cpsolver.tricks.Trick), got {kind}")
    if players is None:
        return trick
    base = field_path(field)
    seats = f"seats 0 to {players - 1}"
    found: list[FieldViolation] = []
    if not 0 <= trick.leader < players:
        found.append(
            FieldViolation(
                (*base, "leader"),
                f"seat {trick.leader} is not at a table of {players} players ({seats})",
            )
        )
    for i, play in enumerate(trick.plays):
        if not 0 <= play.seat < players and play.seat != trick.leader:
            found.append(
                FieldViolation(
                    (*base, "plays", i),
                    f"seat {play.seat} is not at a table of {players} players ({seats})",
                )
            )
    if waiting:
        try:
            check_trick_size(len(trick.plays), players, field)
        except InvalidInputError as exc:
            found.extend(exc.violations)
    if found:
        raise InvalidInputError(violations=found)
    return trick
