"""Chlust deal, showdown, tricks, result and bidding (CH-2, CH-6..CH-9; CH-E9..CH-E11)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.cards import Card, Suit, parse_cards
from cpsolver.chlust import (
    TrickGame,
    deal,
    exchange_seat,
    exchange_trump_ace,
    first_leader,
    legal_cards,
    play_deal,
    settle_tricks,
    showdown,
)
from cpsolver.chlust.bidding import BidAction, Bidding
from cpsolver.errors import CardError, IllegalPlayError, InvalidInputError
from cpsolver.evaluator import SetCategory
from cpsolver.rules import ChlustRules
from cpsolver.tricks import Trick

STANDARD = ChlustRules()
NINES = ChlustRules().replace(deck=24)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


# --- CH-2 deal and exchange ----------------------------------------------------------------


def test_ch_e9_trump_ace_exchange_makes_trips_aces() -> None:
    hand = exchange_trump_ace("Td Ah As", "Ad")
    assert set(hand) == set(cards("Ad Ah As"))
    assert showdown([hand, "Kh Qh Js"], "d").value_of(0).category is SetCategory.THREE_OF_A_RANK
    assert exchange_seat(["Kh Qh Js", "Td Ah As"], "Ad") == 1


def test_ch2_exchange_needs_the_turned_trump_ace_and_the_lowest_trump() -> None:
    with pytest.raises(IllegalPlayError) as err:
        exchange_trump_ace("Td Ah As", "Kd")
    assert err.value.rule == "CH-2"
    with pytest.raises(IllegalPlayError):
        exchange_trump_ace("Jd Ah As", "Ad")
    # With 24 cards the lowest trump is the nine; the ten may not exchange.
    assert exchange_seat(["Td Ah As", "9d Kh Ks"], "Ad", NINES) == 1
    assert exchange_trump_ace("9d Kh Ks", "Ad", NINES) == cards("Ad Kh Ks")
    assert exchange_seat(["Jd Ah As", "Kh Qh Js"], "Ad") is None


def test_deal_is_seeded_and_deals_one_at_a_time_from_the_dealers_left() -> None:
    first = deal(11, players=3, dealer=2)
    assert first == deal(11, players=3, dealer=2)
    assert first != deal(12, players=3, dealer=2)
    everything = [c for h in first.hands for c in h] + [first.turned, *first.stock]
    assert sorted(everything) == sorted(STANDARD.card_deck.cards)
    # Reconstruct the shuffled order: seat 0 (dealer's left) got cards 1, 4, 7.
    order = [first.hands[(2 + 1 + i % 3) % 3][i // 3] for i in range(9)]
    shuffled = list(STANDARD.card_deck.cards)
    random.Random(11).shuffle(shuffled)
    assert order == shuffled[:9] and first.turned == shuffled[9]


def test_deal_exchange_refuses_other_seats() -> None:
    d = deal(1, players=2)  # seed 1 turns the A♣; seat 0 holds the 10♣
    assert d.turned == Card.of("Ac") and Card.of("Tc") in d.hands[0]
    assert d.exchange_seat() == 0
    after = d.exchange(0)
    assert Card.of("Ac") in after.hands[0] and Card.of("Tc") not in after.hands[0]
    assert after.turned == Card.of("Tc") and after.hands[1] == d.hands[1]
    with pytest.raises(IllegalPlayError, match="CH-2"):
        d.exchange(1)


# --- CH-7 showdown -------------------------------------------------------------------------


def test_ch7_showdown_winner_and_full_ranking() -> None:
    """CH-E1, CH-E3 and a no-set hand at one table (trumps ♦)."""
    result = showdown(["Ad Kd Qd", "Qh Jd Ks", "Js Jh Tc", "Ac Kc Qc"], "d")
    assert result.winner == 2
    assert result.ranking == ((2,), (1,), (3,), (0,)) or result.ranking[0] == (2,)
    assert result.ranking == ((2,), (0,), (3,), (1,))


def test_ch7_no_set_means_tricks_and_hands_without_sets_tie() -> None:
    result = showdown(["Qh Jd Tc", "Ad Ks Qs", "Kh Ts Jc"], "d", seats=[0, 2, 3])
    assert result.needs_tricks and result.winner is None
    assert result.ranking == ((0, 2, 3),)


@pytest.mark.parametrize(
    ("hands", "field"),
    [
        (["Ah Kh Qh"], "hands"),
        (["Ah Kh Qh"] * 5, "hands"),
        (["Ah Kh Qh", "Ah Ks Qs"], "hands[1][0]"),  # from 0, as every path
        (["Ah Kh Qh", "9s Ks Qs"], "hands[1][0]"),
        (["Ah Kh", "Js Ks Qs"], "hands[0]"),
    ],
)
def test_showdown_bad_hands(hands: list[str], field: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        showdown(hands, "h")
    assert err.value.field == field


def test_showdown_turned_card_cannot_be_held() -> None:
    with pytest.raises(CardError, match=r"^hands\[0\]\[0\]: duplicate card 'Ah' \(also turned\)$"):
        showdown(["Ah Kh Qh", "Js Ks Qs"], "h", turned="Ah")


# --- CH-8 legal plays ----------------------------------------------------------------------


def trick(trump: str, played: str) -> Trick:
    return Trick.of(Suit(trump), 0, cards(played))


@pytest.mark.parametrize(
    ("hand", "played", "legal"),
    [
        ("Kd Ad Ts", "Qd", "Kd Ad"),  # follow and head the Q♦
        ("Jh As Kc", "Qd", "Jh"),  # void in ♦: must trump
        ("Th Kh Ac", "Qd Kd Jh", "Kh"),  # overtrump the J♥
        ("Th Ac Ks", "Qd Kd Jh", "Th"),  # cannot overtrump: must still trump
        ("Ad 9d Ks", "Qd Jh", "Ad 9d"),  # headed by a trump: any diamond
        ("Qh Ah Ks", "Kh", "Ah"),  # trumps led: head the K♥
    ],
)
def test_ch_e10_legal_cards(hand: str, played: str, legal: str) -> None:
    assert set(legal_cards(hand, trick("h", played), NINES)) == set(cards(legal))


def test_ch8_underruff_may_discard_option() -> None:
    rules = ChlustRules().replace(underruff="may_discard")
    assert set(legal_cards("Th Ac Ks", trick("h", "Qd Kd Jh"), rules)) == set(cards("Th Ac Ks"))
    # Able to overtrump: still must.
    assert legal_cards("Th Kh Ac", trick("h", "Qd Kd Jh"), rules) == cards("Kh")


def test_ch8_follow_lower_when_unable_to_head_and_anything_when_void() -> None:
    assert set(legal_cards("Td Ks Ac", trick("h", "Ad"))) == {Card.of("Td")}
    assert set(legal_cards("Ts Ks Ac", trick("h", "Ad"))) == set(cards("Ts Ks Ac"))
    assert set(legal_cards("Ts Ks Ac", trick("h", ""))) == set(cards("Ts Ks Ac"))


def test_ch8_first_leader_skips_folded_dealer() -> None:
    assert first_leader(3, 0) == 0
    assert first_leader(3, 0, folded=[0]) == 1
    assert first_leader(4, 3, folded=[3, 0]) == 1


# --- CH-E11 and whole deals ----------------------------------------------------------------

CH_E11_HANDS = ["Ah Td Kc", "Kh Ad Js", "Qh Jd Tc"]  # D, L, R; D deals


def test_ch_e11_whole_deal() -> None:
    result = play_deal(CH_E11_HANDS, "s", ["Ah Kh Qh", "Kc Js Tc", "Ad Jd Td"], turned="Qs")
    assert [t.winner for t in result.tricks] == [0, 1, 1]
    assert [t.leader for t in result.tricks] == [0, 0, 1]
    assert result.tricks_won == (1, 2, 0)
    assert result.winners == (1,)
    assert result.shares[1] == 1 and result.carried == 0


@pytest.mark.parametrize(
    ("plays", "position", "text"),
    [
        ("Ah Kh Qh  Kc Ad", 4, "must trump"),  # L must trump K♣ (CH-E11 trick 2)
        ("Ah Kh Qh  Kc Js Jd", 5, "must follow suit"),  # R holds 10♣
        ("Kh", 0, "does not hold"),  # D leads a card of L
        ("Ah Qh", 1, "does not hold"),  # L plays R's card
        ("Td Js", 1, "above Td"),  # L holds A♦ and must head the 10♦
    ],
)
def test_illegal_plays_name_ch8_and_the_play(plays: str, position: int, text: str) -> None:
    game = TrickGame(CH_E11_HANDS, "s")
    parsed = cards(plays)
    with pytest.raises(IllegalPlayError) as err:
        for k, card in enumerate(parsed):
            game.play(card, field=("plays", k))
    assert err.value.rule == "CH-8"
    assert err.value.field == f"plays[{position}]"
    assert text in str(err.value)


def test_play_deal_counts_cards_and_refuses_plays_after_the_end() -> None:
    with pytest.raises(InvalidInputError, match="expected 9 cards"):
        play_deal(CH_E11_HANDS, "s", "Ah Kh Qh")
    game = TrickGame(CH_E11_HANDS, "s")
    for card in cards("Ah Kh Qh Kc Js Tc Ad Jd Td"):
        game.play(card)
    assert game.is_over and game.to_play is None and game.legal() == ()
    with pytest.raises(IllegalPlayError, match="over"):
        game.play("Ah")
    with pytest.raises(IllegalPlayError, match="out of turn"):
        TrickGame(CH_E11_HANDS, "s").play("Kh", seat=1)


def test_folded_players_do_not_play_and_dealer_folded_leader() -> None:
    """CH-8: dealer folded -> first player still in clockwise from the dealer leads."""
    result = play_deal(["Ah Td Kc", "Kh Ad Js", "Qh Jd Tc"], "s", "Kh Qh Ad Jd Js Tc", folded=[0])
    assert result.tricks[0].leader == 1
    assert result.seats == (1, 2) and result.in_deal[0] is False
    assert result.tricks_won[1:] == (3, 0) and result.shares[0] == 0


# --- CH-9 result ---------------------------------------------------------------------------


def test_ch9_tie_for_most_tricks() -> None:
    tie = (1, 1, 1)
    winners, shares, carried = settle_tricks(tie)
    assert winners == (0, 1, 2) and carried == 1 and not any(shares)
    _, shares, carried = settle_tricks(tie, ChlustRules().replace(trick_tie="split"))
    assert carried == 0 and shares == (Fraction(1, 3),) * 3
    _, shares, carried = settle_tricks(tie, ChlustRules().replace(trick_tie="thirds"))
    assert carried == 0 and shares == (Fraction(1, 3),) * 3
    _, shares, _ = settle_tricks((2, 1, 0), ChlustRules().replace(trick_tie="thirds"))
    assert shares == (Fraction(2, 3), Fraction(1, 3), Fraction(0))
    _, shares, carried = settle_tricks((2, 1, 0))
    assert shares == (1, 0, 0) and carried == 0


def test_ch9_a_folded_seat_takes_no_share_and_no_tie() -> None:
    """A folded seat (0 tricks, out of the deal) neither wins a tie of zeros nor a share."""
    winners, shares, carried = settle_tricks((0, 2, 1, 0), in_deal=(False, True, True, True))
    assert winners == (1,) and shares == (0, 1, 0, 0) and carried == 0
    winners, _, carried = settle_tricks((0, 1, 1, 1), in_deal=(False, True, True, True))
    assert winners == (1, 2, 3) and carried == 1


# --- properties: random deals played with random legal cards -------------------------------


@settings(derandomize=True, max_examples=150, deadline=None)
@given(
    st.integers(2, 4),
    st.sampled_from([20, 24]),
    st.sampled_from(["must_trump", "may_discard"]),
    st.integers(0, 10**6),
)
def test_random_legal_deals_have_three_tricks_and_never_empty_legal_sets(
    players: int, deck: int, underruff: str, seed: int
) -> None:
    """CH-8: the legal set is never empty, lies in the hand and respects the duties; any deal
    played with legal cards ends after exactly three tricks that sum to 3 (CH-9)."""
    rules = ChlustRules().replace(deck=deck, underruff=underruff)
    rng = random.Random(seed)
    d = deal(seed, rules, players=players, dealer=rng.randrange(players))
    game = TrickGame(d.hands, d.trump, rules, dealer=d.dealer, turned=d.turned)
    while not game.is_over:
        seat = game.to_play
        assert seat is not None
        hand = game.hand(seat)
        legal = game.legal()
        assert legal and set(legal) <= set(hand)
        current = game.current
        if current.plays:
            led, head = current.led_suit, current.cards[current.plays.index(current.head)]  # type: ignore[arg-type]
            follow = [c for c in hand if c.suit is led]
            trumps = [c for c in hand if c.suit is d.trump]
            if follow:
                assert all(c.suit is led for c in legal)
                higher = [c for c in follow if head.suit is led and c.rank > head.rank]
                if higher:
                    assert set(legal) == set(higher)
            elif trumps and underruff == "must_trump":
                assert all(c.suit is d.trump for c in legal)
        game.play(rng.choice(legal))
    result = game.result()
    assert len(result.tricks) == 3
    assert sum(result.tricks_won) == 3
    assert all(len(t) == players for t in result.tricks)
    assert sum(result.shares) + result.carried == 1


# --- CH-6 bidding --------------------------------------------------------------------------


def test_ch6_everyone_checks_goes_to_showdown() -> None:
    b = Bidding(3, dealer=2)
    assert b.to_act == 0
    for _ in range(3):
        b.act("check")
    assert b.is_over and b.in_play == (0, 1, 2) and b.pot == 3 and b.winner is None


def test_ch6_raise_must_be_answered_and_last_player_takes_the_pot() -> None:
    b = Bidding(4, ChlustRules().replace(raise_unit=5), dealer=0)
    b.act("check", seat=1)
    b.act("raise", seat=2)
    assert b.to_act == 3 and b.legal_actions() == (
        BidAction.FOLD,
        BidAction.CALL,
        BidAction.RAISE,
    )
    with pytest.raises(IllegalPlayError) as err:
        b.act("check")
    assert err.value.rule == "CH-6"
    b.act("fold")
    b.act("fold")  # seat 0
    assert not b.is_over and b.to_act == 1
    b.act("fold")
    assert b.is_over and b.winner == 2 and b.pot == 4 + 5


def test_ch6_max_raises_and_turn_order() -> None:
    b = Bidding(2, ChlustRules().replace(max_raises=2))
    with pytest.raises(IllegalPlayError, match="out of turn"):
        b.act("check", seat=0)
    b.act("raise")  # seat 1
    b.act("raise")  # seat 0 re-raises
    assert b.to_act == 1 and BidAction.RAISE not in b.legal_actions()
    with pytest.raises(IllegalPlayError, match="max_raises"):
        b.act("raise")
    with pytest.raises(IllegalPlayError, match="no bet"):
        Bidding(2).act("call")
    b.act("call")
    assert b.is_over and b.pot == 2 + 1 + 2 + 1
    assert [r.paid for r in b.history] == [1, 2, 1]
    with pytest.raises(InvalidInputError, match="unknown action"):
        Bidding(2).act("double")


def test_bidding_bad_table() -> None:
    with pytest.raises(InvalidInputError):
        Bidding(5)
    with pytest.raises(CardError):
        showdown(["Ah Kh Qh", "Js Ks Qx"], "h")


@settings(derandomize=True, max_examples=200, deadline=None)
@given(
    st.integers(2, 4),
    st.integers(0, 3),
    st.integers(0, 3),
    st.lists(st.integers(0, 3), min_size=0, max_size=40),
)
def test_bidding_random_legal_actions_ch6(
    players: int, dealer: int, max_raises: int, choices: list[int]
) -> None:
    """CH-6 invariants under any sequence of legal actions: the round ends; at the end either one
    player is left or everyone still in has paid the same; the pot is the antes plus all
    payments; no more than ``max_raises`` raises; an action after the end is refused."""
    rules = ChlustRules().replace(max_raises=max_raises, raise_unit=2)
    b = Bidding(players, rules, dealer=dealer % players)
    for choice in [*choices, *[1] * 60]:  # then keep taking the second legal action (check/call)
        if b.is_over:
            break
        legal = b.legal_actions()
        assert legal and BidAction.FOLD in legal
        assert (BidAction.CALL in legal) != (BidAction.CHECK in legal)
        b.act(legal[min(choice, len(legal) - 1)])
    assert b.is_over and b.to_act is None and b.legal_actions() == ()
    assert b.raises <= max_raises
    assert b.pot == players + sum(r.paid for r in b.history)
    if b.winner is None:
        assert len({b.paid(s) for s in b.in_play}) == 1 and len(b.in_play) >= 2
    else:
        assert b.in_play == (b.winner,)
    with pytest.raises(IllegalPlayError, match="CH-6"):
        b.act("fold")
