"""CH-8, cpsolver.chlust.play: legal plays, can_play and verify_play all come from duty.

The expected duties are read off RULES.md §3 (CH-8) and enumerated here independently.
"""

from __future__ import annotations

import itertools

import pytest

from cpsolver.cards import Card, Suit, parse_cards
from cpsolver.chlust import (
    ChlustRules,
    TrickGame,
    can_play,
    deal,
    legal_cards,
    legal_plays,
    play_deal,
    verify_play,
)
from cpsolver.errors import IllegalPlayError
from cpsolver.tricks import Trick


def _ch8_from_the_text(hand: tuple[Card, ...], trick: Trick, underruff: str) -> set[Card]:
    """CH-8 as RULES.md words it: follow and head the led suit when able; void, trump and
    overtrump when able (unable: still trump, or any card with underruff=may_discard)."""
    if not trick.plays:
        return set(hand)
    led = trick.plays[0].card.suit
    trump = trick.trump
    head = trick.head
    assert head is not None and trump is not None
    top = head.card
    following = {c for c in hand if c.suit is led}
    if following:
        higher = {c for c in following if top.suit is led and c.rank > top.rank}
        return higher or following
    trumps = {c for c in hand if c.suit is trump}
    if not trumps:
        return set(hand)
    if top.suit is not trump:
        return trumps
    over = {c for c in trumps if c.rank > top.rank}
    if over:
        return over
    return set(hand) if underruff == "may_discard" else trumps


@pytest.mark.parametrize("underruff", ["must_trump", "may_discard"])
def test_list_and_check_agree_with_ch8_on_every_hand(underruff: str) -> None:
    """Every 3-card hand of the 20-card deck against tricks headed by a lower/higher card of
    the led suit and by a trump (trumps ♥): the legal cards are CH-8's, and can_play /
    verify_play accept exactly them."""
    rules = ChlustRules().replace(underruff=underruff)
    tricks = [
        Trick.of(Suit.HEARTS, 0, parse_cards(text)) for text in ("", "Qd", "Qd Ad", "Qd Kd Jh")
    ]
    for trick in tricks:
        others = [c for c in rules.card_deck.cards if c not in trick.cards]
        for hand in itertools.combinations(others, 3):
            expected = _ch8_from_the_text(hand, trick, underruff)
            assert {p.card for p in legal_plays(hand, trick, rules)} == expected, (hand, str(trick))
            for card in hand:
                assert can_play(hand, trick, card, rules) is (card in expected)
                if card in expected:
                    verify_play(hand, trick, card, rules)
                else:
                    with pytest.raises(IllegalPlayError, match="may not play") as info:
                        verify_play(hand, trick, card, rules)
                    assert info.value.rule == "CH-8"


def test_a_card_not_held_is_refused() -> None:
    trick = Trick.of(Suit.HEARTS, 0, parse_cards("Qd"))
    hand = parse_cards("Kd Ad Ts")
    assert not can_play(hand, trick, "Jd")
    with pytest.raises(IllegalPlayError, match="does not hold Jd"):
        verify_play(hand, trick, "Jd", who="seat 1")


def test_legal_plays_are_plays_of_the_seat_to_play() -> None:
    """Like Three Leaves', Chlust's legal plays are Play values: the next seat's (clockwise
    at rules.players) or the seat named; legal_cards is their cards."""
    trick = Trick.of(Suit.HEARTS, 2, parse_cards("Qd"), players=3)
    plays = legal_plays("Kd Ad Ts", trick, ChlustRules(players=3))
    assert [(p.seat, str(p.card), p.face_down) for p in plays] == [
        (0, "Kd", False),
        (0, "Ad", False),
    ]
    assert {p.seat for p in legal_plays("Kd Ad Ts", trick, seat=1)} == {1}
    assert legal_cards("Kd Ad Ts", trick) == tuple(p.card for p in plays)


def test_the_old_card_answers_warn_for_one_release() -> None:
    """Code written for the cards legal_plays returned until now keeps working, warned."""
    trick = Trick.of(Suit.HEARTS, 0, parse_cards("Qd"))
    plays = legal_plays("Kd Ad Ts", trick)
    with pytest.warns(DeprecationWarning, match="legal_cards"):
        assert Card.of("Kd") in plays
    with pytest.warns(DeprecationWarning):
        assert plays == (Card.of("Kd"), Card.of("Ad"))
    with pytest.warns(DeprecationWarning):
        assert Card.of("Ts") not in plays
    assert plays == tuple(plays) and hash(plays) == hash(tuple(plays))


def test_play_deal_takes_a_deal_like_three_leaves() -> None:
    """play_deal(deal, plays) plays a dealt Deal (its hands, dealer, turned card) exactly as
    the loose facts would; the deal's own rules are passed by name."""
    nines = ChlustRules.preset("nines")
    for seed in range(20):
        dealt = deal(seed, nines, players=3, dealer=seed % 3)
        game = TrickGame(list(dealt.hands), dealt.trump, nines, dealt.dealer, turned=dealt.turned)
        plays = []
        while not game.is_over:
            card = game.legal()[-1]  # any legal card will do
            plays.append(card)
            game.play(card)
        loose = play_deal(
            list(dealt.hands), dealt.trump, plays, nines, dealer=dealt.dealer, turned=dealt.turned
        )
        assert play_deal(dealt, plays, rules=nines) == loose == game.result()
        assert play_deal(dealt, plays, nines) == loose
    with pytest.raises(TypeError, match="the deal has"):
        play_deal(dealt, plays, rules=nines, dealer=1)
