"""The card model, decks and the one notation parser shared by all three games (RULES §1).

A :class:`Card` is an immutable value with a :class:`Rank` and a :class:`Suit`; the 52 cards are
interned, so ``Card.from_index(i)`` and parsing return the same objects. ``str(card)`` is the
canonical notation (``As``, ``Td``).

>>> parse_cards("As 10d, k♥ 2◆")
(Card('As'), Card('Td'), Card('Kh'), Card('2d'))
>>> format_cards(parse_cards("AsKsQs"))
'As Ks Qs'
>>> parse_cards("As As")
Traceback (most recent call last):
...
cpsolver.errors.CardError: cards[1]: duplicate card 'As' (also cards[0])
>>> parse_cards("9h", deck=DECK_20)
Traceback (most recent call last):
...
cpsolver.errors.CardError: cards[0]: card '9h' is not in the 20-card deck (ranks T-A)
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from cpsolver.errors import (
    CardError,
    CardTypeError,
    Field,
    FieldViolation,
    field_path,
    format_field,
)

__all__ = [
    "DECKS",
    "DECK_20",
    "DECK_24",
    "DECK_28",
    "DECK_32",
    "DECK_52",
    "Card",
    "CardsLike",
    "Deck",
    "Rank",
    "Suit",
    "check_cards_type",
    "duplicate_description",
    "duplicate_violations",
    "format_cards",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "readable_cards",
]


class Rank(enum.IntEnum):
    """Card ranks; the value is the conventional number (ace high = 14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """One-character notation: ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_SYMBOLS[self - 2]

    @property
    def plural(self) -> str:
        """English plural used in hand names (``"sixes"``, ``"aces"``)."""
        return _RANK_PLURALS[self - 2]

    @property
    def word(self) -> str:
        """English singular (``"six"``, ``"ace"``)."""
        return _RANK_WORDS[self - 2]


class Suit(enum.Enum):
    """Card suits, ``c d h s``; the value is the notation letter."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def index(self) -> int:
        """0..3 in the order c, d, h, s (used in card indices)."""
        return _SUIT_INDEX[self]  # a dict: every card's index asks for it

    @property
    def symbol(self) -> str:
        """The suit symbol ``♣ ♦ ♥ ♠``."""
        return _SUIT_SYMBOLS[self.index]

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts (for colour output)."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_RANK_SYMBOLS = "23456789TJQKA"
_RANK_WORDS = [
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
]
_RANK_PLURALS = [
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
]
_SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_INDEX = {suit: i for i, suit in enumerate(_SUIT_ORDER)}
_SUIT_SYMBOLS = "♣♦♥♠"


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card. ``index`` is ``4 * (rank - 2) + suit.index``, 0..51, ordered by rank.

    >>> c = Card(Rank.ACE, Suit.SPADES)
    >>> str(c), c.index, c.pretty
    ('As', 51, 'A♠')
    >>> Card.from_index(51) is Card.from_index(51)
    True

    A rank may be given as its number or letter and a suit as its letter (``Card(14, "s")``);
    anything else is a :class:`CardError` naming ``rank`` or ``suit``:

    >>> Card(14, "s") == c
    True
    >>> Card(15, "s")
    Traceback (most recent call last):
    ...
    cpsolver.errors.CardError: rank: expected a Rank, 2 to 14 or its letter, got 15
    """

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False, compare=False)
    """Dense index 0..51 (``2c`` = 0, ``As`` = 51): stored, not computed on each read (a
    solve reads it about a hundred times)."""

    _BY_INDEX: ClassVar[tuple[Card, ...]]

    def __post_init__(self) -> None:
        if type(self.rank) is not Rank or type(self.suit) is not Suit:
            _coerce_card(self)
        object.__setattr__(self, "index", 4 * (self.rank - 2) + self.suit.index)

    @property
    def pretty(self) -> str:
        """Notation with the suit symbol, e.g. ``A♠`` (``T`` stays one character)."""
        return self.rank.symbol + self.suit.symbol

    @staticmethod
    def from_index(index: int) -> Card:
        """The interned card with this dense index."""
        return Card._BY_INDEX[index]

    @staticmethod
    def of(text: str) -> Card:
        """One card from its notation (``Card.of("Td")``); raises :class:`CardError` (a
        :class:`CardTypeError` for a value that is not text)."""
        return parse_card(text)

    def __str__(self) -> str:
        return self.rank.symbol + self.suit.value

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        # Pickle by index so unpickled cards are the interned objects.
        return (Card.from_index, (self.index,))


def _coerce_card(card: Card) -> None:
    """Set ``card``'s rank and suit to the :class:`Rank` and :class:`Suit` they name (``Card(14,
    "s")`` is the ace of spades: a rank's number or notation, a suit's letter, symbol or name),
    or raise :class:`CardError` naming ``rank`` and ``suit`` (both at once) when they name
    none: unchecked, a plain value failed later in the index arithmetic as a bare TypeError."""
    problems: list[FieldViolation] = []
    rank: object = card.rank
    if isinstance(rank, str):
        rank = _RANK_BY_TEXT.get(rank.strip().upper(), rank)
    if isinstance(rank, int) and not isinstance(rank, bool) and 2 <= rank <= 14:
        object.__setattr__(card, "rank", Rank(rank))
    else:
        problems.append(
            FieldViolation("rank", f"expected a Rank, 2 to 14 or its letter, got {card.rank!r}")
        )
    if isinstance(card.suit, (str, Suit)):
        try:
            object.__setattr__(card, "suit", parse_suit(card.suit))
        except CardError as exc:
            problems.extend(exc.violations)
    else:
        problems.append(FieldViolation("suit", f"expected a Suit or its letter, got {card.suit!r}"))
    if problems:
        raise CardError.of_violations(problems, token="", position=-1)


Card._BY_INDEX = tuple(Card(Rank(r), s) for r in range(2, 15) for s in _SUIT_ORDER)


@dataclass(frozen=True)
class Deck:
    """A deck: every suit from ``lowest`` up to the ace (RULES §1).

    >>> len(DECK_20.cards), Card.of("9h") in DECK_24, Card.of("9h") in DECK_20
    (20, True, False)
    """

    size: int
    lowest: Rank
    cards: tuple[Card, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cards = tuple(c for c in Card._BY_INDEX if c.rank >= self.lowest)
        if len(cards) != self.size:
            raise ValueError(f"deck of {self.size} cannot start at {self.lowest!r}")
        object.__setattr__(self, "cards", cards)

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """The deck's ranks, low to high."""
        return tuple(Rank(r) for r in range(self.lowest, 15))

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and card.rank >= self.lowest

    def describe(self) -> str:
        """Short description used in error messages, e.g. ``20-card deck (ranks T-A)``."""
        return f"{self.size}-card deck (ranks {self.lowest.symbol}-A)"


DECK_52 = Deck(52, Rank.TWO)
DECK_32 = Deck(32, Rank.SEVEN)
DECK_28 = Deck(28, Rank.EIGHT)
DECK_24 = Deck(24, Rank.NINE)
DECK_20 = Deck(20, Rank.TEN)
DECKS: dict[int, Deck] = {d.size: d for d in (DECK_52, DECK_32, DECK_28, DECK_24, DECK_20)}

_RANK_BY_TEXT = {s: Rank(i + 2) for i, s in enumerate(_RANK_SYMBOLS)} | {"10": Rank.TEN}
_SUIT_BY_TEXT = {
    "c": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
    "d": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "◆": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "h": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "s": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
}  # fmt: skip
_SEPARATORS = re.compile(r"[\s,;/|\[\]()\"']+")
# Emoji presentation selectors (♠️) carry no meaning for a card.
_IGNORED = dict.fromkeys(map(ord, "\ufe0e\ufe0f"), None)
_RANK_HELP = "ranks are 2-9, T (or 10), J, Q, K, A"
_SUIT_HELP = "suits are c d h s (or ♣ ♦ ♥ ♠, ◆ for diamonds)"

CardsLike = str | Iterable["Card | str"]
"""What the parsers accept: one string of cards, or a sequence of cards or card strings."""


def parse_card(text: str, *, deck: Deck = DECK_52, field: Field = "card") -> Card:
    """Parse exactly one card (``"As"``, ``"10♥"``); raises :class:`CardError`.

    >>> parse_card("10♥")
    Card('Th')
    >>> parse_card(None)
    Traceback (most recent call last):
    ...
    cpsolver.errors.CardTypeError: card: expected one card as text (such as 'As'), got None
    """
    if isinstance(text, Card):
        _check_deck(text, str(text), deck, field)
        return text
    if not isinstance(text, str):  # not read as text: None or 60 failed inside the scan
        kind = "None" if text is None else type(text).__name__
        raise CardTypeError(field, f"expected one card as text (such as 'As'), got {kind}")
    cards = _tokenize(text, field)
    if len(cards) != 1:
        raise CardError(field, f"expected one card, got {len(cards)} in {text!r}")
    token, card = cards[0]
    _check_deck(card, token, deck, field)
    return card


MAX_CARD_PROBLEMS = 20
"""At most this many bad tokens are reported by one :func:`parse_cards` error (then
``and N more``): enough for any hand, bounded for a pasted wall of text."""


def parse_cards(
    cards: CardsLike,
    *,
    deck: Deck = DECK_52,
    count: int | Sequence[int] | None = None,
    field: Field = "cards",
) -> tuple[Card, ...]:
    """Parse cards from text or a sequence of card strings/cards, checking the deck and count.

    Separators may be spaces, commas or nothing at all (``AsKsQs``); ranks and suits are
    case-insensitive; ``10`` is ``T``; suit symbols are accepted. ``count`` is the number of
    cards required (or the allowed numbers). Errors name the field (``field`` with the card's
    index from 0, ``cards[1]`` for the second card), the token and the reason.

    >>> parse_cards(["As", "Kd"])
    (Card('As'), Card('Kd'))
    >>> parse_cards("As Kd", count=3)
    Traceback (most recent call last):
    ...
    cpsolver.errors.CardError: cards: expected 3 cards, got 2

    Every bad token is reported (up to :data:`MAX_CARD_PROBLEMS`), in order:

    >>> parse_cards("As Kd 2s As 1x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.CardError: cards[3]: duplicate card 'As' (also cards[0]); cards[4]: unknown ...
    """
    if isinstance(cards, (list, tuple)) and _parsed_already(cards, deck, count):
        return tuple(cards)
    if isinstance(cards, str):
        plain = _parse_plain(cards, deck, count)
        if plain is not None:
            return plain
    base = field_path(field)
    check_cards_type(cards, field)
    # Every problem is collected (up to MAX_CARD_PROBLEMS), not just the first: a user who
    # typed "... 2s As 1x" learns of the duplicate and the bad token at once.
    problems: list[tuple[FieldViolation, str, int]] = []  # (violation, token, position)
    tokens: list[tuple[str, Card | None]] = []  # every token in order; None: unreadable
    seen: dict[Card, int] = {}  # card -> its index (from 0)

    def bad(description: str, token: str = "") -> None:
        position = len(tokens)
        for helps in (_RANK_HELP, _SUIT_HELP):  # say how cards are written once per error
            if description.endswith(helps) and any(
                v.description.endswith(helps) for v, _, _ in problems
            ):
                description = description.removesuffix(f"; {helps}")
        problems.append((FieldViolation((*base, position), description), token, position))
        tokens.append((token, None))

    def good(token: str, card: Card) -> None:
        if card not in deck:
            bad(f"card {token!r} is not in the {deck.describe()}", token)
        elif card in seen:
            bad(duplicate_description(token, (*base, seen[card])), token)
        else:
            seen[card] = len(tokens)
            tokens.append((token, card))

    if isinstance(cards, str):
        for token, card, reason in _scan(cards):
            if card is None:
                bad(reason, token)
            else:
                good(token, card)
    else:
        for item in cards:
            if isinstance(item, Card):
                good(str(item), item)
            elif not isinstance(item, str):
                bad(f"expected a card string, got {type(item).__name__}")
            else:
                found = _scan(item)
                if len(found) != 1:
                    bad(f"expected one card, got {item!r}", item)
                elif found[0][1] is None:
                    bad(found[0][2], found[0][0])
                else:
                    good(found[0][0], found[0][1])
    if problems:
        shown = [v for v, _, _ in problems[:MAX_CARD_PROBLEMS]]
        if len(problems) > MAX_CARD_PROBLEMS:
            shown.append(
                FieldViolation(base, f"and {len(problems) - MAX_CARD_PROBLEMS} more bad cards")
            )
        _, token, position = problems[0]
        raise CardError.of_violations(shown, token=token, position=position)
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(tokens) not in allowed:
            consecutive = len(allowed) > 2 and list(allowed) == list(
                range(allowed[0], allowed[0] + len(allowed))
            )
            # a run reads as a range: "14 to 17", not "14 or 15 or 16 or 17"
            if consecutive:
                wanted = f"{allowed[0]} to {allowed[-1]}"
            else:
                wanted = " or ".join(str(n) for n in allowed)
            noun = "card" if allowed == (1,) else "cards"  # a classic OFC street's one card
            raise CardError(field, f"expected {wanted} {noun}, got {len(tokens)}")
    return tuple(card for _, card in tokens if card is not None)


def _parse_plain(
    text: str, deck: Deck, count: int | Sequence[int] | None
) -> tuple[Card, ...] | None:
    """What :func:`parse_cards` returns for ``text`` when it is the common case - cards
    written plainly (:data:`_PLAIN_TOKENS`) between whitespace, the cards then passing
    :func:`_parsed_already` - found by one dictionary lookup a token; None otherwise, and the
    full parse then reads it and words every problem. Solves read 13 cards from a string each call:
    ~4 us here against ~34 us for the token scan."""
    found = [_PLAIN_TOKENS.get(token) for token in text.split()]
    return tuple(found) if _parsed_already(found, deck, count) else None  # type: ignore[arg-type]


def _plain_tokens() -> dict[str, Card]:
    """Every plain way of writing one card (a rank letter or digit in either case, or 10, then
    a suit letter in either case or a suit symbol), each read by :func:`_scan`, the one parser:
    what :func:`_parse_plain` may look up instead of scanning."""
    ranks = [t for r in _RANK_SYMBOLS for t in {r, r.lower()}] + ["10"]
    suits = [t for k in _SUIT_BY_TEXT for t in {k, k.upper()}]
    table = {}
    for token in (r + u for r in ranks for u in suits):
        scanned = _scan(token)
        if len(scanned) == 1 and scanned[0][1] is not None:
            table[token] = scanned[0][1]
    return table


def _parsed_already(cards: Sequence[object], deck: Deck, count: int | Sequence[int] | None) -> bool:
    """Whether ``cards`` are distinct :class:`Card` s of ``deck``, as many as ``count`` allows:
    what :func:`parse_cards` would return unchanged, known without its per-card checks (solves
    pass the cards they parsed on to the model, the pool and the answer)."""
    if count is not None and len(cards) not in ((count,) if isinstance(count, int) else count):
        return False
    lowest = deck.lowest
    if not all(type(c) is Card and c.rank >= lowest for c in cards):
        return False
    return len({c.index for c in cards}) == len(cards)  # type: ignore[attr-defined]


def duplicate_description(card: Card | str, also: Field) -> str:
    """How every game words a card given twice, at the second place: the card and the first
    place as a field path (``also players[0].back[3]``), the one format of every such message
    (an adapter moving the paths to its own fields moves this one too,
    :meth:`~cpsolver.errors.InvalidInputError.with_paths`).

    >>> duplicate_description(Card.of("As"), ("players", 0, "back", 3))
    "duplicate card 'As' (also players[0].back[3])"
    """
    return f"duplicate card {str(card)!r} (also {format_field(field_path(also))})"


def duplicate_violations(
    cards: Iterable[tuple[int, Card]], field: Field = "cards"
) -> list[FieldViolation]:
    """A violation for each card of ``(index, card)`` pairs that repeats an earlier one, worded
    as :func:`parse_cards` words it: for a caller that read some cards of a list but not all (a
    request with unreadable cards), whose parse cannot run yet.

    >>> [str(v) for v in duplicate_violations([(0, Card.of("As")), (3, Card.of("As"))])]
    ["cards[3]: duplicate card 'As' (also cards[0])"]
    """
    base = field_path(field)
    seen: dict[Card, int] = {}
    found: list[FieldViolation] = []
    for index, card in cards:
        if card in seen:
            found.append(
                FieldViolation((*base, index), duplicate_description(card, (*base, seen[card])))
            )
        else:
            seen[card] = index
    return found


def readable_cards(cards: object, *, deck: Deck = DECK_52) -> list[tuple[int, Card]]:
    """The cards of ``cards`` (as :func:`parse_cards` takes them) that can be read, each with
    its index, whatever is wrong with the rest (an unreadable token, a card outside ``deck``,
    a count): what a caller reporting every violation at once compares with other lists of
    cards, when :func:`parse_cards` refused this one. Nothing readable: an empty list.

    >>> readable_cards("As 1x Kd As")
    [(0, Card('As')), (2, Card('Kd')), (3, Card('As'))]
    """
    found: list[tuple[int, Card]] = []
    if isinstance(cards, str):
        for index, (_, card, _) in enumerate(_scan(cards)):
            if card is not None and card in deck:
                found.append((index, card))
    elif isinstance(cards, Iterable) and not isinstance(cards, bytes):
        for index, item in enumerate(cards):
            if isinstance(item, str):
                scanned = _scan(item)
                item = scanned[0][1] if len(scanned) == 1 else None
            if isinstance(item, Card) and item in deck:
                found.append((index, item))
    return found


def check_cards_type(cards: object, field: Field = "cards") -> None:
    """Raise :class:`~cpsolver.errors.CardTypeError` naming ``field`` unless ``cards`` can be
    read as cards: a string, or an iterable (of card strings or :class:`Card` s, each checked
    by :func:`parse_cards`).

    >>> check_cards_type(12345)
    Traceback (most recent call last):
    ...
    cpsolver.errors.CardTypeError: cards: expected a string of cards or a list of cards \
(card strings or Card objects), got int
    """
    if not isinstance(cards, (str, Iterable)):
        raise CardTypeError(
            field,
            "expected a string of cards or a list of cards (card strings or Card objects), "
            f"got {type(cards).__name__}",
        )


_SUIT_NAMES = {"clubs": Suit.CLUBS, "diamonds": Suit.DIAMONDS, "hearts": Suit.HEARTS,
               "spades": Suit.SPADES}  # fmt: skip


def parse_suit(text: str | Suit, *, field: Field = "suit") -> Suit:
    """One suit from a letter, a symbol or an English name (``s``, ``♠``, ``Spades``).

    >>> parse_suit("♦"), parse_suit("Hearts")
    (<Suit.DIAMONDS: 'd'>, <Suit.HEARTS: 'h'>)
    >>> parse_suit("x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.CardError: suit: unknown suit 'x'; suits are c d h s (or ♣ ♦ ♥ ♠, ◆ for ...)
    """
    if isinstance(text, Suit):
        return text
    key = str(text).translate(_IGNORED).strip().lower()
    suit = _SUIT_BY_TEXT.get(key) or _SUIT_NAMES.get(key)
    if suit is None:
        raise CardError(field, f"unknown suit {text!r}; {_SUIT_HELP}", token=str(text))
    return suit


def format_cards(cards: Iterable[Card], *, pretty: bool = False, sep: str = " ") -> str:
    """Cards in canonical notation (``As Kd``), or with suit symbols when ``pretty``."""
    return sep.join(c.pretty if pretty else str(c) for c in cards)


def _check_deck(card: Card, token: str, deck: Deck, field: Field, position: int = 0) -> None:
    if card not in deck:
        raise CardError(
            field,
            f"card {token!r} is not in the {deck.describe()}",
            token=token,
            position=position,
        )


def _scan(text: str) -> list[tuple[str, Card | None, str]]:
    """Split text into ``(token, card, "")`` entries, or ``(token, None, reason)`` for a token
    that is not a card (the scan goes on at the next separator)."""
    text = text.translate(_IGNORED)
    found: list[tuple[str, Card | None, str]] = []
    i = 0
    n = len(text)
    word = 0  # where the run of characters without a separator that holds i starts
    word_cards = 0  # len(found) when that run started
    while i < n:
        gap = _SEPARATORS.match(text, i)
        if gap:
            i = gap.end()
            word, word_cards = i, len(found)
            continue
        rank_text = text[i : i + 2] if text.startswith("10", i) else text[i].upper()
        rank = _RANK_BY_TEXT.get(rank_text)
        j = i + len(rank_text)
        suit = _SUIT_BY_TEXT.get(text[j].lower()) if rank is not None and j < n else None
        if rank is None or suit is None:
            # Inside a run of cards written together ("Tss", "JsTsx") the whole run is the bad
            # token, at its first card's index: the run's cards read so far are dropped (else
            # "Tss" was the card Ts and a token 's' one index past the cards given).
            start = word if i > word else i
            del found[word_cards if start < i else len(found) :]
            token = _bad_token(text, start, i - start + 4)
            if rank is None:
                reason = f"unknown rank {text[i]!r} in {token!r}; {_RANK_HELP}"
            elif j >= n or _SEPARATORS.match(text, j):
                reason = f"missing suit in {token!r}; {_SUIT_HELP}"
            else:
                reason = f"unknown suit {text[j]!r} in {token!r}; {_SUIT_HELP}"
            found.append((token, None, reason))
            after = _SEPARATORS.search(text, i)
            i = after.start() if after else n
            continue
        card = Card._BY_INDEX[4 * (rank - 2) + suit.index]
        found.append((str(card), card, ""))
        i = j + 1
    return found


def _tokenize(text: str, field: Field) -> list[tuple[str, Card]]:
    """:func:`_scan`, raising CardError at ``field`` on the first token that is not a card."""
    found: list[tuple[str, Card]] = []
    for token, card, reason in _scan(text):
        if card is None:
            raise CardError(field, reason, token=token, position=0)
        found.append((token, card))
    return found


def _bad_token(text: str, i: int, most: int = 4) -> str:
    gap = _SEPARATORS.search(text, i)
    end = gap.start() if gap else len(text)
    return text[i : min(end, i + most)]


_PLAIN_TOKENS: dict[str, Card] = _plain_tokens()
""":func:`_plain_tokens`, made once."""
