"""Three Leaves plays (TL-5): what a hand may put on a trick, face up or face down.

TL-5 is stated once, in :func:`play_violation`: why a play is illegal (or None). Everything
else derives from it, as Chlust's play module derives from its :func:`~cpsolver.chlust.play.duty`:
:func:`can_play` (a yes/no), :func:`verify_play` (raises :class:`IllegalPlayError` naming
TL-5 with that reason), :func:`legal_plays` (every play that :func:`can_play`) and
:func:`legal_on_trick` (the legal plays and whether each would head the trick).

* Leading: any card, face up.
* Holding the led suit: any card of it, face up (no duty to head).
* Void: ``void=trump_or_discard`` [default] a trump face up or any card face down;
  ``must_trump`` a trump face up when holding one, else any card face down; ``discard_only``
  any card face down.

>>> hand, trick = leaf_trick("8d Ac Kh", "d", "As")
>>> [str(p) for p in legal_plays(hand, trick)]
['1:8d', '1:8d(down)', '1:Ac(down)', '1:Kh(down)']
>>> can_play(hand, trick, Play(1, Card.of("Ac"))), can_play(hand, trick, Play(1, Card.of("8d")))
(False, True)
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from cpsolver.cards import (
    Card,
    CardsLike,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
    parse_suit,
)
from cpsolver.errors import Field, IllegalPlayError, InvalidInputError, Violations, field_path
from cpsolver.rules.three_leaves import ThreeLeavesRules, Void
from cpsolver.tricks import Play, Trick, beats, check_trick, check_trick_size

__all__ = [
    "FACE_DOWN_MARK",
    "TRICKS_PER_DEAL",
    "LegalPlay",
    "PlayLike",
    "PlayPolicy",
    "can_play",
    "check_play",
    "greedy_policy",
    "leaf_trick",
    "legal_on_trick",
    "legal_plays",
    "next_seat",
    "parse_play",
    "parse_plays",
    "play_violation",
    "verify_play",
]

TRICKS_PER_DEAL = 3
FACE_DOWN_MARK = "~"

PlayLike = str | Play | tuple[Card | str, bool]
"""A play as text (``"8d"``, ``"~Ac"`` face down), a :class:`~cpsolver.tricks.Play` or
``(card, face_down)``."""


def parse_play(
    text: PlayLike,
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
    plays: str | Iterable[PlayLike],
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


def play_violation(
    hand: Sequence[Card],
    led: Suit | None,
    trump: Suit,
    card: Card,
    face_down: bool,
    void: Void,
    who: str = "the player",
) -> str | None:
    """TL-5, the one statement of it: why ``who`` (holding ``hand``) may not play ``card``
    (face down or not) to a trick led in ``led`` (None: leading) under ``trump``; None when the
    play is legal.

    >>> from cpsolver.cards import parse_cards
    >>> play_violation(parse_cards("Ks 9h"), Suit.SPADES, Suit.DIAMONDS, Card.of("Ks"), True,
    ...                Void.TRUMP_OR_DISCARD)
    'the player follows suit ♠: Ks is played face up'
    """
    if card not in hand:
        return f"{who} does not hold {card} (holds {format_cards(hand) or 'nothing'})"
    if led is None:
        return f"{who} leads: the lead is played face up" if face_down else None
    follow = [c for c in hand if c.suit is led]
    if follow:
        if card.suit is not led:
            held = format_cards(follow)
            return f"{who} must follow suit {led.symbol} with {held}, not play {card}"
        if face_down:
            return f"{who} follows suit {led.symbol}: {card} is played face up"
        return None
    if not face_down:
        if void is Void.DISCARD_ONLY:
            return f"{who} is void in {led.symbol} and under void=discard_only plays face down"
        if card.suit is not trump:
            return (
                f"{who} is void in {led.symbol}: only a trump ({trump.symbol}) may be played "
                f"face up; {card} must go face down"
            )
        return None
    if void is Void.MUST_TRUMP:
        trumps = [c for c in hand if c.suit is trump]
        if trumps:
            return (
                f"{who} is void in {led.symbol} and under void=must_trump must trump with "
                f"{format_cards(trumps)}"
            )
    return None


def next_seat(trick: Trick, rules: ThreeLeavesRules | None = None) -> int:
    """The seat after the trick's last play, clockwise at a table of ``rules.players`` (the
    leader when the trick is empty): the default seat of :func:`legal_plays`. A seat that
    passed is skipped by naming the seat to play instead.

    >>> next_seat(Trick(Suit.SPADES, 2)), next_seat(Trick.of(Suit.SPADES, 3, [Card.of("As")]))
    (2, 0)
    """
    players = (rules or ThreeLeavesRules()).players
    check_trick(trick, players)
    if not trick.plays:
        return trick.leader
    return (trick.plays[-1].seat + 1) % players


def _trump(trick: Trick) -> Suit:
    if trick.trump is None:
        raise InvalidInputError("trump", "a Three Leaves trick has a trump suit")
    return trick.trump


def _read(
    hand: CardsLike, trick: object, rules: ThreeLeavesRules
) -> tuple[tuple[Card, ...], Trick, Suit]:
    """``hand`` (1 to 3 cards of the deck) and ``trick`` (one of the table's, waiting for a
    card: :func:`~cpsolver.tricks.check_trick`) and its trump, as every entry point taking a
    hand and a trick reads them, both at once: unread, a trick of five cards at a table of
    four was answered for a seat 5, and text in place of a trick failed inside."""
    problems = Violations()
    with problems.check():
        checked = check_trick(trick, rules.players)
    with problems.check():
        cards = parse_cards(hand, deck=rules.card_deck, count=(1, 2, 3), field="hand")
    problems.raise_any()
    return cards, checked, _trump(checked)


def _as_play(play: PlayLike | Card, seat: int, rules: ThreeLeavesRules) -> Play:
    if isinstance(play, Play):
        return play
    if isinstance(play, Card):
        return Play(seat, play)
    card, down = parse_play(play, deck_rules=rules)
    return Play(seat, card, down)


def can_play(
    hand: CardsLike,
    trick: Trick,
    play: PlayLike | Card,
    rules: ThreeLeavesRules | None = None,
) -> bool:
    """True when ``play`` (a :class:`~cpsolver.tricks.Play`, a card played face up, or its
    text) from ``hand`` is legal on ``trick`` (TL-5)."""
    r = rules or ThreeLeavesRules()
    cards, trick, trump = _read(hand, trick, r)
    p = _as_play(play, next_seat(trick, r), r)
    return play_violation(cards, trick.led_suit, trump, p.card, p.face_down, r.void) is None


def verify_play(
    hand: CardsLike,
    trick: Trick,
    play: PlayLike | Card,
    rules: ThreeLeavesRules | None = None,
    *,
    field: Field = "play",
    who: str = "the player",
) -> None:
    """Raise :class:`IllegalPlayError` (rule TL-5) saying why ``play`` is illegal, else return.

    >>> hand, trick = leaf_trick("Ks 9h Jc", "d", "As")
    >>> verify_play(hand, trick, "9h")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.IllegalPlayError: play: the player must follow suit ♠ with Ks, not ... (TL-5)
    """
    r = rules or ThreeLeavesRules()
    cards, trick, trump = _read(hand, trick, r)
    p = _as_play(play, next_seat(trick, r), r)
    reason = play_violation(cards, trick.led_suit, trump, p.card, p.face_down, r.void, who)
    if reason is not None:
        raise IllegalPlayError(field, reason, rule="TL-5")


def legal_plays(
    hand: CardsLike,
    trick: Trick | Suit | None,
    rules: ThreeLeavesRules | Suit | None = None,
    /,
    *,
    seat: int | None = None,
    **keywords: ThreeLeavesRules | None,
) -> tuple[Play, ...]:
    """Every legal play from ``hand`` for ``seat`` (default :func:`next_seat`) on ``trick``
    (TL-5): each card face up, then each face down, that :func:`can_play`. ``rules`` may also
    be passed by name.

    The form ``legal_plays(hand, led, trump, *, rules=None, seat=0)`` (the led suit and the
    trump instead of the trick) is deprecated: it warns and answers as before.

    >>> from cpsolver.cards import parse_cards
    >>> led = Trick.of(Suit.DIAMONDS, 0, parse_cards("As"))
    >>> [str(p) for p in legal_plays(parse_cards("Ac 8d Kh"), led)]
    ['1:8d', '1:Ac(down)', '1:8d(down)', '1:Kh(down)']
    """
    named = keywords.pop("rules", None)
    if keywords:
        raise TypeError(f"legal_plays() got unexpected keyword arguments {sorted(keywords)}")
    if trick is None or isinstance(trick, Suit):  # the deprecated (hand, led, trump) form
        warnings.warn(
            "legal_plays(hand, led, trump) is deprecated: pass the trick, "
            "legal_plays(hand, trick, rules, seat=...)",
            DeprecationWarning,
            stacklevel=2,
        )
        if not isinstance(rules, Suit):
            raise TypeError("legal_plays(hand, led, trump): trump must be a Suit")
        old = named or ThreeLeavesRules()
        cards = parse_cards(hand, deck=old.card_deck, field="hand")
        return _legal(cards, trick, rules, old, seat or 0)
    if isinstance(rules, Suit):
        raise TypeError("legal_plays(hand, trick, rules): rules must be a ThreeLeavesRules")
    r = rules or named or ThreeLeavesRules()
    cards, trick, trump = _read(hand, trick, r)
    to_play = next_seat(trick, r) if seat is None else seat
    return _legal(cards, trick.led_suit, trump, r, to_play)


def _legal(
    hand: Sequence[Card], led: Suit | None, trump: Suit, rules: ThreeLeavesRules, seat: int
) -> tuple[Play, ...]:
    cards = list(hand)
    return tuple(
        Play(seat, c, down)
        for down in (False, True)
        for c in cards
        if play_violation(cards, led, trump, c, down, rules.void) is None
    )


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
    """Deprecated: :func:`verify_play` with the trick. Raises :class:`IllegalPlayError`
    (TL-5) like it."""
    warnings.warn(
        "check_play(hand, led, trump, card, face_down) is deprecated: use "
        "verify_play(hand, trick, play, rules)",
        DeprecationWarning,
        stacklevel=2,
    )
    void = (rules or ThreeLeavesRules()).void
    reason = play_violation(hand, led, trump, card, face_down, void, who)
    if reason is not None:
        raise IllegalPlayError(field, reason, rule="TL-5")


@dataclass(frozen=True, slots=True)
class LegalPlay:
    """A legal play (TL-5) and whether it would head the trick so far."""

    play: Play
    heads_trick: bool


def leaf_trick(
    hand: CardsLike,
    trump: Suit | str,
    plays: str | Iterable[PlayLike] = "",
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
    parsed = parse_plays(plays, rules=r, field="trick")
    check_trick_size(len(parsed), r.players, "trick")
    trick = Trick(suit, 0)
    for seat, (card, down) in enumerate(parsed):
        if card in cards:
            raise InvalidInputError(("trick", seat), f"{card} is in the hand too")
        trick = trick.play(seat, card, face_down=down)
    return cards, trick


def legal_on_trick(
    hand: CardsLike, trick: Trick, *, rules: ThreeLeavesRules | None = None
) -> tuple[LegalPlay, ...]:
    """Every legal play of ``hand`` (the next seat) on ``trick`` and whether it heads it (TL-5).

    >>> hand, trick = leaf_trick("8d Ac Kh", "d", "As")
    >>> [(str(p.play), p.heads_trick) for p in legal_on_trick(hand, trick)][:2]
    [('1:8d', True), ('1:8d(down)', False)]
    """
    r = rules or ThreeLeavesRules()
    cards, trick, _ = _read(hand, trick, r)
    seat = next_seat(trick, r)
    out = []
    for p in legal_plays(cards, trick, r, seat=seat):
        heads = bool(trick.plays) and trick.play(seat, p.card, face_down=p.face_down).winner == seat
        out.append(LegalPlay(p, heads))
    return tuple(out)


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
    trump = _trump(trick)
    # _legal, not legal_plays: the engine's own trick and hand, read already (the advice's
    # simulations call this for every play)
    legal = _legal(hand, trick.led_suit, trump, rules, seat)

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
