"""Card model and notation (RULES §1): one parser for all three games."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.cards import (
    DECK_20,
    DECK_24,
    DECK_28,
    DECK_32,
    DECK_52,
    Card,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)
from cpsolver.errors import CardError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As", "As"),
        ("AS", "As"),
        ("as", "As"),
        ("Td", "Td"),
        ("10d", "Td"),
        ("A♠", "As"),
        ("10♥", "Th"),
        ("2◆", "2d"),
        ("K♦", "Kd"),
        ("q♣", "Qc"),
        ("9♠\ufe0f", "9s"),
    ],
)
def test_notation_variants(text: str, expected: str) -> None:
    assert str(parse_card(text)) == expected


@pytest.mark.parametrize(
    "text", ["As Ks Qs", "As,Ks,Qs", "AsKsQs", "As, Ks ,Qs", "A♠K♠Q♠", "as ks qs", "[As Ks Qs]"]
)
def test_separators(text: str) -> None:
    assert format_cards(parse_cards(text)) == "As Ks Qs"


def test_sequence_input_and_ten_glued() -> None:
    assert format_cards(parse_cards(["10c", "Js", Card(Rank.ACE, Suit.HEARTS)])) == "Tc Js Ah"
    assert format_cards(parse_cards("10c10d")) == "Tc Td"


@pytest.mark.parametrize(
    ("text", "field", "fragment"),
    [
        ("As Xs Qs", "cards[1]", "unknown rank 'X' in 'Xs'"),
        ("As Kx Qs", "cards[1]", "unknown suit 'x' in 'Kx'"),
        ("As K", "cards[1]", "missing suit in 'K'"),
        ("As Ks As", "cards[2]", "duplicate card 'As' (also cards[0])"),
        ("1s", "cards[0]", "unknown rank '1'"),
    ],
)
def test_errors_name_position_token_and_reason(text: str, field: str, fragment: str) -> None:
    with pytest.raises(CardError) as info:
        parse_cards(text)
    assert info.value.field == field
    assert fragment in str(info.value)
    assert info.value.position == int(field[6:-1])


def test_wrong_count() -> None:
    with pytest.raises(CardError, match=r"cards: expected 13 cards, got 3") as info:
        parse_cards("As Ks Qs", count=13)
    assert info.value.position == -1  # the whole list, not one card


def test_sequence_errors_name_the_item() -> None:
    with pytest.raises(CardError) as info:
        parse_cards(["As", "Zz"], field="hand")
    assert info.value.field == "hand[1]"


@pytest.mark.parametrize(
    ("deck", "outside", "inside"),
    [(DECK_20, "9h", "Th"), (DECK_24, "8h", "9h"), (DECK_28, "7c", "8c"), (DECK_32, "6d", "7d")],
)
def test_card_outside_the_game_deck_is_an_input_error(deck, outside: str, inside: str) -> None:
    assert parse_cards(inside, deck=deck)
    with pytest.raises(CardError, match=f"card '{outside}' is not in the {deck.size}-card deck"):
        parse_cards(f"{inside} {outside}", deck=deck)


def test_deck_sizes() -> None:
    for deck in (DECK_52, DECK_32, DECK_28, DECK_24, DECK_20):
        assert len(deck.cards) == deck.size
        assert len(set(deck.cards)) == deck.size


def test_cards_are_interned_and_ordered() -> None:
    assert parse_card("As") is Card.from_index(51)
    assert Card.of("2c").index == 0
    assert sorted(parse_cards("As 2c Td")) == list(parse_cards("2c Td As"))


@settings(max_examples=200, derandomize=True)
@given(
    st.lists(st.integers(0, 51), min_size=1, max_size=13, unique=True),
    st.sampled_from([" ", ",", ""]),
)
def test_format_then_parse_round_trips(indices: list[int], sep: str) -> None:
    cards = tuple(Card.from_index(i) for i in indices)
    for pretty in (False, True):
        assert parse_cards(format_cards(cards, pretty=pretty, sep=sep)) == cards


_TOKENS = st.sampled_from(
    ["As", "as", "AS", "10h", "Th", "t♥", "2◆", "9♠\ufe0f", "Kd", "kD", "Qc", "1x", "Ax", "5",
     "As,", "3s4s", "", "ZZ", "7c", "6s", "Jh", "jH", "8d", "2c"]
)  # fmt: skip
_SEPARATORS = st.sampled_from([" ", "  ", "\t", "\n", "\u00a0", ", ", "/", ""])


@settings(max_examples=400, deadline=None)
@given(
    parts=st.lists(st.tuples(_TOKENS, _SEPARATORS), max_size=15),
    count=st.sampled_from([None, 2, 5, 13, (3, 5)]),
    deck=st.sampled_from([DECK_52, DECK_32, DECK_20]),
)
def test_the_plain_fast_path_parses_as_the_full_parser_does(
    parts: list[tuple[str, str]], count: int | tuple[int, int] | None, deck: object
) -> None:
    """parse_cards reads plain text (cards between whitespace) by a table lookup: whatever it
    answers - the cards, or the error with its every violation - the full token scan answers
    the same (run again with the fast path turned off)."""
    import cpsolver.cards as cards_module

    text = "".join(token + sep for token, sep in parts)

    def parse() -> tuple[Card, ...] | str:
        try:
            return parse_cards(text, deck=deck, count=count)  # type: ignore[arg-type]
        except CardError as error:
            return f"{error} {[str(v) for v in error.violations]}"

    fast = parse()
    plain = cards_module._parse_plain
    cards_module._parse_plain = lambda *args: None  # type: ignore[assignment]
    try:
        full = parse()
    finally:
        cards_module._parse_plain = plain
    assert fast == full


@pytest.mark.parametrize(
    ("text", "field", "token"),
    [
        ("As Ks Qs Js Tss", "cards[4]", "Tss"),
        ("AsKsQsJsTsx", "cards[0]", "AsKsQsJsTsx"),
        ("10s Tss Kd", "cards[1]", "Tss"),
    ],
)
def test_a_mistyped_token_is_named_whole_at_its_own_index(
    text: str, field: str, token: str
) -> None:
    """"Tss" was read as the card Ts and a token 's' at cards[5], past the five cards given;
    a run of cards written together is one token, named at its first card's index."""
    with pytest.raises(CardError) as caught:
        parse_cards(text)
    assert str(caught.value).startswith(f"{field}: ") and caught.value.token == token
