"""Three Leaves (RULES §4): the worked examples TL-E1..TL-E7 and the rules TL-1..TL-6.

Seats: the dealer is the last seat, so in the worked examples A (the assistant), B, C, D (the
dealer) are seats 0, 1, 2, 3; every expectation below is read off RULES.md, not the code.
"""

from __future__ import annotations

import itertools

import pytest

from cpsolver.cards import DECK_28, DECK_32, Card, Suit, parse_cards
from cpsolver.errors import CardError, IllegalPlayError, InvalidInputError, RuleError
from cpsolver.evaluator import KhlyustClass, card_points, evaluate_khlyust
from cpsolver.rules import ThreeLeavesRules
from cpsolver.three_leaves import (
    Choices,
    Deal,
    Exchange,
    ExchangeAction,
    Outcome,
    best_khlyust,
    play_deal,
)

A, B, C, D = 0, 1, 2, 3


def _c(text: str) -> Card:
    return Card.of(text)


# ---------------------------------------------------------------------------------- TL-1


def test_tl1_card_points_from_rules() -> None:
    """TL-1: A 11, K 4, Q 3, J 2, others their face value."""
    expected = {"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10, "9": 9, "8": 8, "7": 7}
    for rank, points in expected.items():
        for suit in "cdhs":
            assert card_points(_c(rank + suit)) == points


def test_tl1_deck_options_and_cards_outside_the_deck() -> None:
    """TL-1: 28 cards (8..A) by default, 32 with deck=32; a 7 is an input error in 28."""
    assert ThreeLeavesRules().card_deck is DECK_28
    assert ThreeLeavesRules().replace(deck=32).card_deck is DECK_32
    with pytest.raises(CardError, match="not in the 28-card deck"):
        evaluate_khlyust("7h 8h 9h", trump="c")
    assert evaluate_khlyust("7h 8h 9h", trump="c", deck=DECK_32).points == 24
    with pytest.raises(RuleError, match=r"rules\.deck"):
        ThreeLeavesRules.preset("standard", deck=24)
    with pytest.raises(RuleError, match=r"rules\.players"):
        ThreeLeavesRules.preset("standard", players=5)


# ---------------------------------------------------------------------------------- TL-4


def test_tl4_class_counts_over_the_whole_deck() -> None:
    """TL-4 over all C(28,3) hands for one trump: 35 trump khlyusts (C(7,3)), 3*35 plain, 7*4
    three of a rank, the rest none."""
    counts = dict.fromkeys(KhlyustClass, 0)
    for hand in itertools.combinations(DECK_28.cards, 3):
        counts[evaluate_khlyust(hand, Suit.HEARTS).khlyust_class] += 1
    assert counts[KhlyustClass.TRUMP] == 35
    assert counts[KhlyustClass.PLAIN] == 105
    assert counts[KhlyustClass.TRIPS] == 28
    assert sum(counts.values()) == 3276


def test_tl_e1_trump_khlyust_points_and_payment_round() -> None:
    """TL-E1: trumps ♠, A♠K♠8♠ is a trump khlyust of 23 points; it takes the pot; the three
    opponents pay 11, 4 and 8 in the order they pick (from the holder's left)."""
    value = evaluate_khlyust("As Ks 8s", trump="s")
    assert value.khlyust_class is KhlyustClass.TRUMP
    assert value.points == 23
    deal = Deal.of(["9h Jc Qd", "As Ks 8s", "Th Jd 9c", "Qh Kc 8d"], trump_card="Js")
    result = play_deal(deal, Choices.of(picks="As Ks 8s"))
    assert result.outcome is Outcome.KHLYUST
    assert result.khlyust is not None and result.khlyust.seat == B
    # From B's left: C, D, A pick A♠, K♠, 8♠.
    assert [(p.payer, p.payee, p.amount) for p in result.payments] == [
        (C, B, 11),
        (D, B, 4),
        (A, B, 8),
    ]
    # Pot of 4 antes to B, plus 23 from the payment round.
    assert result.net == (-1 - 8, -1 + 4 + 23, -1 - 11, -1 - 4)
    assert result.pot_after == 0


def test_tl4_payment_round_from_the_stock() -> None:
    """TL-4 draw_source=stock: each opponent in turn from the holder's left draws from the
    stock (in order) and pays that card's points."""
    rules = ThreeLeavesRules().replace(draw_source="stock")
    deal = Deal.of(
        ["9h Jc Qd", "As Ks 8s", "Th Jd 9c", "Qh Kc 8d"],
        trump_card="Js",
        stock="Ad 9s Tc 8h",
        rules=rules,
    )
    result = play_deal(deal, Choices())
    assert [(p.payer, p.amount) for p in result.payments] == [(C, 11), (D, 9), (A, 10)]


def test_tl4_picks_must_be_the_holders_distinct_cards() -> None:
    """TL-4: the picks come from the holder's three face-down cards, one each."""
    deal = Deal.of(["9h Jc Qd", "As Ks 8s", "Th Jd 9c", "Qh Kc 8d"], trump_card="Js")
    with pytest.raises(IllegalPlayError, match=r"picks\[1\]: Ad is not one of .*TL-4"):
        play_deal(deal, Choices.of(picks="As Ad 8s"))
    with pytest.raises(InvalidInputError, match=r"picks\[1\]: duplicate"):
        play_deal(deal, Choices.of(picks="As As 8s"))
    with pytest.raises(IllegalPlayError, match="3 opponents pick"):
        play_deal(deal, Choices.of(picks="As"))


def test_tl_e2_three_of_a_rank_takes_the_pot_unchallenged() -> None:
    """TL-E2: trumps ♣, Q♠Q♥Q♦ is three of a rank; it takes the pot; no challenge (a demand
    for a play-out is ignored), no payment round."""
    assert evaluate_khlyust("Qs Qh Qd", trump="c").khlyust_class is KhlyustClass.TRIPS
    deal = Deal.of(["9h Jc Ad", "Ks 8h 8s", "Qs Qh Qd", "Th Kc 8d"], trump_card="Tc")
    result = play_deal(deal, Choices(demand_playout=True))
    assert result.outcome is Outcome.KHLYUST
    assert result.khlyust is not None and result.khlyust.seat == C
    assert result.payments == ()
    assert result.tricks == ()
    assert result.net == (-1, -1, 3, -1)


def test_tl_e2_any_khlyust_option_adds_a_payment_round() -> None:
    """TL-4 draw_applies_to=any_khlyust: three of a rank also has the payment round."""
    rules = ThreeLeavesRules().replace(draw_applies_to="any_khlyust")
    deal = Deal.of(["9h Jc Ad", "Ks 8h 8s", "Qs Qh Qd", "Th Kc 8d"], trump_card="Tc", rules=rules)
    result = play_deal(deal, Choices.of(picks="Qs Qh Qd"))
    assert sorted(p.amount for p in result.payments) == [3, 3, 3]
    assert result.net[C] == -1 + 4 + 9


def test_tl_e3_trump_khlyust_beats_plain() -> None:
    """TL-E3: trumps ♦, J♦10♦8♦ (trump khlyust) beats A♥K♥Q♥ (plain), whatever the seats."""
    low = evaluate_khlyust("Jd Td 8d", trump="d")
    high = evaluate_khlyust("Ah Kh Qh", trump="d")
    assert low.order_key(3) > high.order_key(0)
    hands = {A: parse_cards("Ah Kh Qh"), D: parse_cards("Jd Td 8d")}
    best, found = best_khlyust(hands, Suit.DIAMONDS, dealer=D, players=4)
    assert best is not None and best.seat == D
    assert len(found) == 2
    by_seat = (hands[A], None, None, hands[D])  # the same hands as a tuple by seat
    assert best_khlyust(by_seat, Suit.DIAMONDS, dealer=D, players=4) == (best, found)


def test_tl_e4_points_decide_within_a_class() -> None:
    """TL-E4: trumps ♣, A♥10♥8♥ (29 points) beats A♠K♠9♠ (24 points)."""
    a = evaluate_khlyust("Ah Th 8h", trump="c")
    b = evaluate_khlyust("As Ks 9s", trump="c")
    assert (a.points, b.points) == (29, 24)
    assert a.order_key(3) > b.order_key(0)


def test_tl4_ties_go_to_the_top_card_then_the_first_in_turn() -> None:
    """TL-4: equal points -> higher top card; then the first player in turn from the
    assistant."""
    # 10+9+2 = 21 = A(11)+8+2: the ace is the higher top card.
    assert evaluate_khlyust("Jh Th 9h", trump="c").points == 21
    assert evaluate_khlyust("Ah Jh 8h", trump="c").points == 21
    best, _ = best_khlyust(
        {A: parse_cards("Jh Th 9h"), B: parse_cards("As Js 8s")}, Suit.CLUBS, dealer=D, players=4
    )
    assert best is not None and best.seat == B
    # Same ranks in two suits: the first in turn (B before C) wins.
    best, _ = best_khlyust(
        {C: parse_cards("Ah Th 8h"), B: parse_cards("As Ts 8s")}, Suit.CLUBS, dealer=D, players=4
    )
    assert best is not None and best.seat == B


def test_tl4_class_order_option() -> None:
    """TL-4 class order: trump khlyust > three of a rank by default; class_order=trips_first
    puts three of a rank on top."""
    hands = {A: parse_cards("8s 8h 8d"), B: parse_cards("Ac Kc Qc")}
    best, _ = best_khlyust(hands, Suit.CLUBS, dealer=D, players=4)
    assert best is not None and best.seat == B
    rules = ThreeLeavesRules().replace(class_order="trips_first")
    best, _ = best_khlyust(hands, Suit.CLUBS, dealer=D, players=4, rules=rules)
    assert best is not None and best.seat == A


def _tl_e6_deal(**rules: object) -> Deal:
    return Deal.of(
        ["As Kh 8d", "Ks 9h Jc", "Ts Ah Qd", "Qs 8c Ac"],
        trump_card="9d",
        rules=ThreeLeavesRules().replace(**rules),  # type: ignore[arg-type]
    )


TL_E6_PLAYS = "As Ks Ts Qs  Kh 9h Ah ~8c  Qd ~Ac 8d ~Jc"


def test_tl_e6_whole_deal_pot_stays_and_two_tricks_collect_share() -> None:
    """TL-E6: no khlyust; tricks to A, C, C; nobody has 3: the pot stays; C (2 tricks)
    collects `share` from B and D (no tricks); A (1 trick) earns nothing."""
    result = play_deal(_tl_e6_deal(share=5), Choices.of(plays=TL_E6_PLAYS))
    assert result.outcome is Outcome.TRICKS
    assert [t.winner for t in result.tricks] == [A, C, C]
    assert result.trick_counts == (1, 0, 2, 0)
    assert result.pot_after == 4
    assert sorted((p.payer, p.payee, p.amount) for p in result.payments) == [
        (B, C, 5),
        (D, C, 5),
    ]
    assert result.net == (-1, -6, -1 + 10, -6)


def test_tl_e6_illegal_play_is_refused_naming_tl5() -> None:
    """TL-E6 with B playing J♣ on the A♠ lead although holding K♠: refused, rule TL-5."""
    with pytest.raises(IllegalPlayError, match=r"plays\[1\]: seat 1 must follow suit") as info:
        play_deal(_tl_e6_deal(), Choices.of(plays="As Jc Ts Qs  Kh 9h Ah ~8c  Qd ~Ac 8d ~Ks"))
    assert info.value.rule == "TL-5"
    # D may not play the non-trump A♣ face up when void in hearts.
    with pytest.raises(IllegalPlayError, match=r"plays\[7\].*only a trump"):
        play_deal(_tl_e6_deal(), Choices.of(plays="As Ks Ts Qs  Kh 9h Ah 8c  Qd ~Ac 8d ~Jc"))
    with pytest.raises(InvalidInputError, match="make 12 plays, got 11"):
        play_deal(_tl_e6_deal(), Choices.of(plays=TL_E6_PLAYS.rsplit(" ", 1)[0]))
    with pytest.raises(InvalidInputError, match="make 12 plays, got 13"):
        play_deal(_tl_e6_deal(), Choices.of(plays=TL_E6_PLAYS + " 9c"))


def test_tl_e6_under_discard_only_the_trump_cannot_be_played_face_up() -> None:
    """TL-5 void=discard_only: in TL-E6 the face-down 8♣ is still fine, but nobody void may
    trump face up; the same plays remain legal (no face-up ruff occurs in TL-E6)."""
    result = play_deal(_tl_e6_deal(void="discard_only"), Choices.of(plays=TL_E6_PLAYS))
    assert result.trick_counts == (1, 0, 2, 0)


def test_tl_e7_plain_khlyust_play_out_one_trick_takes_half_the_pot() -> None:
    """TL-E7: trumps ♠; the assistant H holds A♥K♥8♥ (plain khlyust); a play-out is demanded;
    tricks to H, Y, D; H took 1 trick: half the pot (the other half stays)."""
    deal = Deal.of(["Ah Kh 8h", "Qh Jh 9d", "Th Ks 8c", "9h Kd Ac"], trump_card="Qs")
    plays = "Ah Jh Th 9h  Kh Qh Ks ~Kd  8c Ac ~8h ~9d"
    result = play_deal(deal, Choices.of(demand_playout=True, plays=plays))
    assert result.outcome is Outcome.PLAYOUT
    assert [t.winner for t in result.tricks] == [0, 2, 3]
    assert result.trick_counts == (1, 0, 1, 1)  # H, X, Y, D
    assert result.pot_taken == (2, 0, 0, 0)
    assert result.pot_after == 2
    assert result.payments == ()  # TL-6 shares are not paid in a play-out


def test_tl_e7_without_a_demand_the_plain_khlyust_takes_the_pot() -> None:
    """TL-4: a plain khlyust takes the pot unless an opponent demands a play-out."""
    deal = Deal.of(["Ah Kh 8h", "Qh Jh 9d", "Th Ks 8c", "9h Kd Ac"], trump_card="Qs")
    result = play_deal(deal)
    assert result.outcome is Outcome.KHLYUST
    assert result.pot_taken == (4, 0, 0, 0)
    assert result.payments == ()


def _zero_trick_playout(**rules: object) -> tuple[int, ...]:
    """Two players: H (assistant) J♥9♥8♥ plain khlyust, trumps ♠; D A♥K♥Q♦ takes all three."""
    deal = Deal.of(
        ["Jh 9h 8h", "Ah Kh Qd"],
        trump_card="Ts",
        rules=ThreeLeavesRules().replace(players=2, **rules),  # type: ignore[arg-type]
    )
    result = play_deal(deal, Choices.of(demand_playout=True, plays="Jh Ah  Kh 9h  Qd ~8h"))
    assert result.trick_counts == (0, 3)
    return (*result.net, result.pot_after)


def test_tl4_zero_tricks_pays_the_flop_penalty_by_default() -> None:
    """TL-4 [default]: a holder with no trick still takes the pot and pays each other player
    the flop_penalty (pot 2 here, penalty 3)."""
    assert _zero_trick_playout(flop_penalty=3) == (-1 + 2 - 3, -1 + 3, 0)


def test_tl4_zero_tricks_forfeit() -> None:
    """TL-4 zero_tricks=forfeit: the holder takes nothing and the pot stays."""
    assert _zero_trick_playout(zero_tricks="forfeit") == (-1, -1, 2)


# ---------------------------------------------------------------------------------- TL-3


def test_tl3_exchange_draws_from_the_stock_in_order_and_pass_drops_out() -> None:
    """TL-3: B discards two cards and draws the top two stock cards; C passes (out, ante
    lost, neither pays nor receives); the dealer and assistant play their cards."""
    deal = Deal.of(
        ["As Kh 8d", "Ks 9h Jc", "Ts 8c Qd", "Qs Ah Ac"],
        trump_card="9d",
        stock="Js 9s Tc",
    )
    # Turn order A, B, D (C passed). B now holds K♠ J♠ 9♠.
    plays = "As Ks Qs  8d ~9s ~Ac  Kh ~Js Ah"
    result = play_deal(
        deal, Choices.of(exchanges={B: "9h Jc", C: "pass"}, plays=plays, rules=deal.rules)
    )
    assert result.hands_played[B] == parse_cards("Ks Js 9s")
    assert result.in_deal == (True, True, False, True)
    # Per seat, like every per-seat value: the dealer and the assistant choose nothing.
    assert result.exchanges == (
        None,
        Exchange(ExchangeAction.DRAW, parse_cards("9h Jc")),
        Exchange(ExchangeAction.PASS),
        None,
    )
    assert [t.winner for t in result.tricks] == [A, A, D]
    assert result.trick_counts == (2, 0, 0, 1)
    # A collects the share from B only: C passed, D took a trick.
    assert [(p.payer, p.payee) for p in result.payments] == [(B, A)]
    assert result.net == (-1 + 1, -1 - 1, -1, -1)
    assert result.pot_after == 4


def test_tl3_dealer_and_assistant_must_play() -> None:
    """TL-3: the dealer and the assistant must play the cards dealt to them."""
    deal = Deal.of(["As Kh 8d", "Ks 9h Jc", "Ts Ah Qd", "Qs 8c Ac"], trump_card="9d")
    for seat in (A, D):
        with pytest.raises(IllegalPlayError, match="must play the cards dealt") as info:
            play_deal(deal, Choices.of(exchanges={seat: "pass"}))
        assert info.value.rule == "TL-3"
    with pytest.raises(IllegalPlayError, match="cannot discard"):
        play_deal(deal, Choices.of(exchanges={B: "As"}, rules=deal.rules))


def test_tl4_khlyust_after_exchange_counts_a_drawn_khlyust() -> None:
    """TL-4 khlyust_after_exchange: B draws into K♠J♠9♠ (plain, trumps ♦) and takes the pot
    without play; by default the same draw leads to tricks."""
    hands = ["As Kh 8d", "Ks 9h Jc", "Ts Ah Qd", "Qs 8c Ac"]
    plays = "As Ks Ts Qs  Kh ~9s Ah ~8c  Qd ~Ac 8d ~Js"
    for after, outcome in ((True, Outcome.KHLYUST), (False, Outcome.TRICKS)):
        rules = ThreeLeavesRules().replace(khlyust_after_exchange=after)
        deal = Deal.of(hands, trump_card="9d", stock="Js 9s Tc", rules=rules)
        result = play_deal(deal, Choices.of(exchanges={B: "9h Jc"}, plays=plays, rules=rules))
        assert result.outcome is outcome
        if after:
            assert result.khlyust is not None and result.khlyust.seat == B


def test_deal_input_errors_are_specific() -> None:
    """Bad deals name the field: a card twice (and where else it is, as every game says it),
    wrong count, card outside the deck. Indexes count from 0 in the path and in the words, as
    in every cpsolver message: hands[1] is the second hand (seat 1), stock[1] the second stock
    card."""
    with pytest.raises(CardError) as twice:
        Deal.of(["As Kh 8d", "As 9h Jc"], trump_card="9d")
    assert str(twice.value) == "hands[1][0]: duplicate card 'As' (also hands[0][0])"
    assert twice.value.path == ("hands", 1, 0)
    with pytest.raises(CardError) as turned:
        Deal.of(["As Kh 8d", "Ks 9h Jc"], trump_card="8d")
    assert str(turned.value) == "trump_card: duplicate card '8d' (also hands[0][2])"
    with pytest.raises(CardError) as stock:
        Deal.of(["As Kh 8d", "Ks 9h Jc"], trump_card="9d", stock="Qd Ks")
    assert str(stock.value) == "stock[1]: duplicate card 'Ks' (also hands[1][0])"
    with pytest.raises(CardError, match=r"hands\[0\]: expected 3 cards"):
        Deal.of(["As Kh", "Ks 9h Jc"], trump_card="9d")
    with pytest.raises(CardError, match="not in the 28-card deck"):
        Deal.of(["As Kh 7d", "Ks 9h Jc"], trump_card="9d")
    with pytest.raises(InvalidInputError, match="expected 4 hands"):
        Deal.of(["As Kh 8d", "Ks 9h Jc"], trump_card="9d", rules="standard")
