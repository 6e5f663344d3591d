"""TL-5, cpsolver.three_leaves.play: the rule written once and everything derived from it.

Expectations are read off RULES.md §4 (TL-5, TL-E5) and an enumeration written here from the
rule's text, not from the code.
"""

from __future__ import annotations

import itertools
import warnings

import pytest

from cpsolver.cards import DECK_28, Card, Suit, parse_cards
from cpsolver.errors import IllegalPlayError
from cpsolver.rules import ThreeLeavesRules
from cpsolver.three_leaves import can_play, check_play, legal_plays, verify_play
from cpsolver.three_leaves.play import next_seat
from cpsolver.tricks import Play, Trick


def _c(text: str) -> Card:
    return Card.of(text)


def _led(suit_of_lead: str, trump: Suit = Suit.DIAMONDS) -> Trick:
    return Trick(trump, 0).play(0, _c(suit_of_lead))


def test_tl_e5_face_up_trump_wins_face_down_ace_cannot() -> None:
    """TL-E5: trumps ♦, A♠ led: a void player's face-up 8♦ wins; a face-down A♣ cannot."""
    hand = parse_cards("8d Ac Kh")
    trick = _led("As")
    legal = legal_plays(hand, trick)
    assert Play(1, _c("8d")) in legal
    assert Play(1, _c("Ac"), True) in legal
    assert Play(1, _c("Ac")) not in legal  # a non-trump is never played face up when void
    assert trick.play(1, _c("8d")).winner == 1
    assert trick.play(1, _c("Ac"), face_down=True).winner == 0


def test_tl5_must_follow_suit_but_need_not_head() -> None:
    """TL-5: holding the led suit, any card of it (no duty to head), face up only."""
    hand = parse_cards("Ks 9s 8d")
    trick = _led("As")
    assert set(legal_plays(hand, trick)) == {Play(1, _c("Ks")), Play(1, _c("9s"))}
    with pytest.raises(IllegalPlayError, match="must follow suit") as info:
        verify_play(hand, trick, "8d")
    assert info.value.rule == "TL-5"
    with pytest.raises(IllegalPlayError, match="face up"):
        verify_play(hand, trick, "~9s")
    with pytest.raises(IllegalPlayError, match="does not hold"):
        verify_play(hand, trick, Play(1, _c("Ah")))
    with pytest.raises(IllegalPlayError, match="lead is played face up"):
        verify_play(hand, Trick(Suit.DIAMONDS, 0), (_c("9s"), True))
    assert not can_play(hand, trick, "8d") and can_play(hand, trick, "9s")


@pytest.mark.parametrize(
    ("void", "expected"),
    [
        ("trump_or_discard", {("8d", False), ("8d", True), ("Ac", True), ("Kh", True)}),
        ("must_trump", {("8d", False)}),
        ("discard_only", {("8d", True), ("Ac", True), ("Kh", True)}),
    ],
)
def test_tl5_void_options(void: str, expected: set[tuple[str, bool]]) -> None:
    """TL-5 void options: a trump face up or any card face down [default]; must_trump;
    discard_only."""
    rules = ThreeLeavesRules().replace(void=void)
    legal = legal_plays(parse_cards("8d Ac Kh"), _led("As"), rules)
    assert {(str(p.card), p.face_down) for p in legal} == expected
    assert legal_plays(parse_cards("8d Ac Kh"), _led("As"), rules=rules) == legal


def test_tl5_must_trump_without_trumps_discards_face_down() -> None:
    """TL-5 void=must_trump: holding no trump, the void player discards face down."""
    rules = ThreeLeavesRules().replace(void="must_trump")
    legal = legal_plays(parse_cards("Ac Kh"), _led("As"), rules)
    assert {(str(p.card), p.face_down) for p in legal} == {("Ac", True), ("Kh", True)}


def _tl5_from_the_text(
    hand: tuple[Card, ...], led: Suit | None, trump: Suit, void: str
) -> set[tuple[Card, bool]]:
    """TL-5 as RULES.md words it, enumerated independently of the library."""
    if led is None:
        return {(c, False) for c in hand}
    follow = [c for c in hand if c.suit is led]
    if follow:
        return {(c, False) for c in follow}
    trumps = [c for c in hand if c.suit is trump]
    if void == "must_trump" and trumps:
        return {(c, False) for c in trumps}
    up = set() if void == "discard_only" else {(c, False) for c in trumps}
    return up | {(c, True) for c in hand}


@pytest.mark.parametrize("void", ["trump_or_discard", "must_trump", "discard_only"])
def test_list_and_check_agree_with_the_rule_on_every_hand(void: str) -> None:
    """Over every 3-card hand of the 28-card deck against ♠ led and a leader's empty trick
    (trumps ♦): legal_plays is the rule's set, and can_play / verify_play accept exactly it."""
    rules = ThreeLeavesRules().replace(void=void)
    lead = _c("Ts")
    cards = [c for c in DECK_28.cards if c != lead]
    for hand in itertools.combinations(cards, 3):
        for trick in (Trick(Suit.DIAMONDS, 0), _led("Ts")):
            expected = _tl5_from_the_text(hand, trick.led_suit, Suit.DIAMONDS, void)
            legal = legal_plays(hand, trick, rules)
            assert {(p.card, p.face_down) for p in legal} == expected, (hand, trick)
            for card, down in itertools.product(hand, (False, True)):
                play = Play(next_seat(trick), card, down)
                assert can_play(hand, trick, play, rules) is ((card, down) in expected)
                if (card, down) in expected:
                    verify_play(hand, trick, play, rules)
                else:
                    with pytest.raises(IllegalPlayError):
                        verify_play(hand, trick, play, rules)


def test_the_seat_of_a_legal_play() -> None:
    """The plays are the next seat's (clockwise at rules.players), or the seat named."""
    hand = parse_cards("Ks 9s 8d")
    three = ThreeLeavesRules(players=3)
    trick = Trick.of(Suit.DIAMONDS, 2, parse_cards("As"), players=3)
    assert {p.seat for p in legal_plays(hand, trick, three)} == {0}
    assert {p.seat for p in legal_plays(hand, trick, three, seat=1)} == {1}


def test_the_old_forms_warn_and_answer_as_before() -> None:
    """legal_plays(hand, led, trump) and check_play, used by the docs until now, still work
    for one release, with a DeprecationWarning."""
    hand = parse_cards("8d Ac Kh")
    with pytest.warns(DeprecationWarning, match="legal_plays\\(hand, led, trump\\)"):
        old = legal_plays(hand, Suit.SPADES, Suit.DIAMONDS, seat=1)
    assert old == legal_plays(hand, _led("As"))
    rules = ThreeLeavesRules().replace(void="must_trump")
    with pytest.warns(DeprecationWarning):
        assert legal_plays(hand, Suit.SPADES, Suit.DIAMONDS, rules=rules) == (Play(0, _c("8d")),)
    with (
        pytest.warns(DeprecationWarning, match="check_play"),
        pytest.raises(IllegalPlayError, match="must follow suit"),
    ):
        check_play(parse_cards("Ks 9h"), Suit.SPADES, Suit.DIAMONDS, _c("9h"), False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        legal_plays(hand, _led("As"))  # the new form does not warn
