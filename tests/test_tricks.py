"""Shared trick primitives (cpsolver.tricks): winners per CH-8 and TL-5, the Trick value."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.cards import DECK_24, Card, Suit, parse_cards
from cpsolver.errors import InvalidInputError
from cpsolver.tricks import Play, Trick, beats, trick_winner


def _cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


@pytest.mark.parametrize(
    ("cards", "trump", "winner"),
    [
        # CH-E11 trick 1: no trump played, highest of the led suit wins.
        ("Ah Kh Qh", Suit.SPADES, 0),
        # CH-E11 trick 2: L trumps with J♠.
        ("Kc Js Tc", Suit.SPADES, 1),
        # CH-E11 trick 3: A♦ led, no trumps.
        ("Ad Jd Td", Suit.SPADES, 0),
        # A card of a third suit never wins, however high.
        ("9h Ac Td", Suit.SPADES, 0),
        # Higher trump overtrumps.
        ("9h Ts As", Suit.SPADES, 2),
        # TL-E6 trick 1: A♠ K♠ 10♠ Q♠ -> the ace (first).
        ("As Ks Ts Qs", Suit.DIAMONDS, 0),
    ],
)
def test_trick_winner_ch8_tl5_highest_trump_else_highest_of_led_suit(
    cards: str, trump: Suit, winner: int
) -> None:
    assert trick_winner(_cards(cards), trump) == winner


def test_face_down_card_never_wins_tl_e5() -> None:
    """TL-E5: trumps ♦, A♠ led: a face-up 8♦ wins, a face-down A♣ (or even a trump) cannot."""
    assert trick_winner(_cards("As 8d"), Suit.DIAMONDS) == 1
    assert trick_winner(_cards("As Ac"), Suit.DIAMONDS, face_down=[False, True]) == 0
    assert trick_winner(_cards("As 8d"), Suit.DIAMONDS, face_down=[False, True]) == 0


def test_tl_e6_trick_3_face_up_trump_wins_over_face_down() -> None:
    """TL-E6 trick 3: C Q♦, D A♣ down, A 8♦, B J♣ down -> C (Q♦ is the highest trump)."""
    trick = Trick(Suit.DIAMONDS, leader=2)
    trick = trick.play(2, Card.of("Qd"))
    trick = trick.play(3, Card.of("Ac"), face_down=True)
    trick = trick.play(0, Card.of("8d"))
    trick = trick.play(1, Card.of("Jc"), face_down=True)
    assert trick.winner == 2
    assert trick.led_suit is Suit.DIAMONDS
    assert trick.head == Play(2, Card.of("Qd"))


def test_trick_is_immutable_and_records_order() -> None:
    empty = Trick(Suit.HEARTS, leader=1)
    one = empty.play(1, Card.of("Qd"))
    assert len(empty) == 0 and empty.head is None and empty.led_suit is None
    assert one.cards == (Card.of("Qd"),) and one.seats == (1,)
    with pytest.raises(AttributeError):
        one.leader = 2  # type: ignore[misc]


def test_trick_of_wraps_seats_around_the_table() -> None:
    trick = Trick.of(Suit.SPADES, 2, _cards("Kc Js Tc"), players=3)
    assert trick.seats == (2, 0, 1)
    assert trick.winner == 0


@pytest.mark.parametrize(
    ("build", "field"),
    [
        (lambda: Trick(Suit.HEARTS, 0).play(1, Card.of("Ah")), "trick"),
        (lambda: Trick(Suit.HEARTS, 0).play(0, Card.of("Ah")).play(1, Card.of("Ah")), "trick"),
        (lambda: Trick(Suit.HEARTS, 0).play(0, Card.of("Ah")).play(0, Card.of("Kh")), "trick"),
        (lambda: Trick(Suit.HEARTS, 0).play(0, Card.of("Ah"), face_down=True), "trick"),
        (lambda: trick_winner((), Suit.HEARTS), "trick"),
    ],
)
def test_bad_tricks_are_refused(build: object, field: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        build()  # type: ignore[operator]
    assert err.value.field.startswith(field)


def _reference_winner(cards: tuple[Card, ...], trump: Suit) -> int:
    """Independent statement: max trump if any, else max of the led suit."""
    trumps = [i for i, c in enumerate(cards) if c.suit is trump]
    pool = trumps or [i for i, c in enumerate(cards) if c.suit is cards[0].suit]
    return max(pool, key=lambda i: cards[i].rank)


@settings(derandomize=True, max_examples=200, deadline=None)
@given(
    st.permutations(DECK_24.cards).map(lambda p: tuple(p[:4])),
    st.sampled_from(list(Suit)),
    st.integers(min_value=2, max_value=4),
)
def test_trick_winner_matches_reference(cards: tuple[Card, ...], trump: Suit, n: int) -> None:
    assert trick_winner(cards[:n], trump) == _reference_winner(cards[:n], trump)


def test_beats_is_asymmetric_for_face_up_cards() -> None:
    """For two distinct cards under any led suit and trump, at most one beats the other."""
    for a, b in itertools.permutations(DECK_24.cards[:12], 2):
        for led, trump in itertools.product(Suit, Suit):
            assert not (beats(a, b, led, trump) and beats(b, a, led, trump))
