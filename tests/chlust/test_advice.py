"""Chlust advice for bots: showdown odds (CH-5, CH-7) and the card to play (CH-8).

Expectations come from hand counts of the 20-card deck or from brute force written here with
the public evaluator, never from the advice code itself."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from cpsolver.cards import Card, Suit, parse_cards
from cpsolver.chlust import advise_play, legal_cards, showdown_odds
from cpsolver.errors import InvalidInputError
from cpsolver.evaluator import evaluate_set
from cpsolver.rules import ChlustRules
from cpsolver.tricks import Trick

STANDARD = ChlustRules()


def test_trump_flush_odds_heads_up_by_hand_count() -> None:
    """A♦K♦Q♦, trumps ♦, one opponent, 17 unseen cards (680 hands). Only three jacks beat it:
    4 pure (J J J) + 6 with the wild 10♣ and two jacks; the impure J♦10♦+10♣ loses within the
    suit (CH-5). So the hand wins 670/680."""
    odds = showdown_odds("Ad Kd Qd", "d", opponents=1)
    assert odds.method == "exact" and odds.deals == 680
    assert odds.win == pytest.approx(670 / 680)
    assert odds.lose == pytest.approx(10 / 680) and odds.tricks == 0


def test_clubs_flush_odds_by_hand_count() -> None:
    """A♣K♣Q♣, trumps ♦: beaten by 10 three-jacks hands and 20 trump flushes (10 pure from
    five diamonds, 10 impure: two diamonds + 10♣): wins 650/680."""
    odds = showdown_odds("Ac Kc Qc", "d", opponents=1)
    assert odds.win == pytest.approx(650 / 680)


def test_turned_and_dead_cards_leave_the_unseen_pool() -> None:
    """With J♣ turned and J♠ dead, no pure three jacks remain: only J♥J♦+10♣ beats A♦K♦Q♦."""
    odds = showdown_odds("Ad Kd Qd", "d", opponents=1, turned="Jc", dead="Js")
    assert odds.deals == 455  # 20 - 3 held - turned - dead = 15 unseen: C(15, 3)
    assert odds.win == pytest.approx(1 - 1 / 455)


def _brute_force_two_opponents(hand: str, trump: str) -> tuple[Fraction, Fraction]:
    """P(win), P(nobody has a set) against two opponents by enumerating every pair of hands."""
    held = set(parse_cards(hand))
    unseen = [c for c in STANDARD.card_deck.cards if c not in held]
    keys = {t: evaluate_set(t, trump).key for t in itertools.combinations(unseen, 3)}
    mine = evaluate_set(hand, trump).key
    wins = nothing = total = 0
    for a, ka in keys.items():
        rest = [c for c in unseen if c not in a]
        for b in itertools.combinations(rest, 3):
            kb = keys[b]
            total += 1
            if mine > 0 and mine > ka and mine > kb:
                wins += 1
            if mine == ka == kb == 0:
                nothing += 1
    return Fraction(wins, total), Fraction(nothing, total)


@pytest.mark.parametrize("hand", ["Ts Th Td", "Ah Kh Qs"])
def test_exact_two_opponents_matches_brute_force(hand: str) -> None:
    win, nothing = _brute_force_two_opponents(hand, "d")
    odds = showdown_odds(hand, "d", opponents=2)
    assert odds.method == "exact"
    assert odds.win == pytest.approx(float(win))
    assert odds.tricks == pytest.approx(float(nothing))
    assert odds.win + odds.lose + odds.tricks == pytest.approx(1)


def test_monte_carlo_is_seeded_and_its_interval_covers_the_exact_value() -> None:
    exact = showdown_odds("Ts Th Td", "d", opponents=2)
    mc = showdown_odds("Ts Th Td", "d", opponents=2, exact_limit=0, samples=20_000, seed=3)
    again = showdown_odds("Ts Th Td", "d", opponents=2, exact_limit=0, samples=20_000, seed=3)
    assert mc.method == "monte_carlo" and mc.seed == 3 and mc.deals == 20_000
    assert mc == again
    low, high = mc.ci95["win"]
    assert low <= exact.win <= high and high - low < 0.02


def test_three_opponents_uses_monte_carlo_with_interval() -> None:
    odds = showdown_odds("Qh Jd Ks", "d", opponents=3, samples=5_000, seed=1)
    assert odds.method == "monte_carlo" and odds.win == 0
    low, high = odds.ci95["tricks"]
    assert low <= odds.tricks <= high


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"opponents": 0}, "opponents"),
        ({"opponents": 4}, "opponents"),
        ({"turned": "Ad"}, "turned"),
        ({"dead": "Kd"}, "dead"),
        ({"samples": 0}, "samples"),
    ],
)
def test_showdown_odds_bad_input(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        showdown_odds("Ad Kd Qd", "d", **kwargs)  # type: ignore[arg-type]
    assert err.value.field == field


# --- the card to play ----------------------------------------------------------------------


def test_last_trick_expected_tricks_by_counting() -> None:
    """Two players, trumps ♠, after two tricks seat 0 leads its last card A♥. The opponent's
    last card is one of the unseen cards; it beats A♥ only with a spade (no heart beats the
    ace). The opponent showed void in nothing, so every unseen card is equally likely."""
    t1 = Trick.of(Suit.SPADES, 0, parse_cards("Kd Ad"), players=2)  # seat 1 wins
    t2 = Trick.of(Suit.SPADES, 1, parse_cards("Qc Kc"), players=2)  # seat 0 wins
    seen = set(parse_cards("Kd Ad Qc Kc Ah")) | {Card.of("Js")}
    unseen = [c for c in STANDARD.card_deck.cards if c not in seen]
    spades = sum(1 for c in unseen if c.suit is Suit.SPADES)
    advice = advise_play(
        "Ah", Trick(Suit.SPADES, 0), seat=0, seats=[0, 1], history=[t1, t2], turned="Js"
    )
    assert advice.method == "exact" and advice.deals == len(unseen)
    assert advice.card == Card.of("Ah")
    assert advice.expected[Card.of("Ah")] == pytest.approx(1 + (len(unseen) - spades) / len(unseen))


def _paranoid(hands: dict[int, list[Card]], trick: Trick, order: list[int], me: int) -> int:
    """Reference double-dummy search written with the public API only."""
    if len(trick) == len(order):
        won = int(trick.winner == me)
        if not any(hands.values()):
            return won
        return won + _paranoid(hands, Trick(trick.trump, trick.winner), order, me)
    seat = (
        trick.leader
        if not trick.plays
        else order[(order.index(trick.plays[-1].seat) + 1) % len(order)]
    )
    values = []
    for card in legal_cards(hands[seat], trick):
        rest = {s: [c for c in h if c != card] for s, h in hands.items()}
        values.append(_paranoid(rest, trick.play(seat, card), order, me))
    return max(values) if seat == me else min(values)


def test_two_cards_left_matches_reference_search() -> None:
    """Two players after one trick: every possible opponent hand enumerated (exact)."""
    t1 = Trick.of(Suit.HEARTS, 0, parse_cards("Ac Kc"), players=2)  # seat 0 wins, leads
    mine = parse_cards("Kh Td")
    seen = set(mine) | set(t1.cards) | {Card.of("Qs")}
    unseen = [c for c in STANDARD.card_deck.cards if c not in seen]
    expected: dict[Card, Fraction] = {}
    worlds = list(itertools.combinations(unseen, 2))
    for card in mine:
        total = 0
        for other in worlds:
            hands = {0: [c for c in mine if c != card], 1: list(other)}
            total += 1 + _paranoid(hands, Trick(Suit.HEARTS, 0).play(0, card), [0, 1], 0)
        expected[card] = Fraction(total, len(worlds))
    advice = advise_play(
        mine, Trick(Suit.HEARTS, 0), seat=0, seats=[0, 1], history=[t1], turned="Qs", samples=500
    )
    assert advice.method == "exact" and advice.deals == len(worlds)
    for card in mine:
        assert advice.expected[card] == pytest.approx(float(expected[card]))
    assert advice.expected[advice.card] == max(advice.expected.values())


def test_advice_only_offers_legal_cards_and_is_seeded() -> None:
    """CH-E10 position: trumps ♥, Q♦ K♦ J♥ played, holding 10♥ K♥ A♣: only K♥ is legal."""
    trick = Trick.of(Suit.HEARTS, 1, parse_cards("Qd Kd Jh"), players=4)
    advice = advise_play("Th Kh Ac", trick, seat=0, seats=[0, 1, 2, 3], samples=20, seed=5)
    assert set(advice.expected) == {Card.of("Kh")} and advice.card == Card.of("Kh")
    first = advise_play("Ah Td Kc", Trick(Suit.SPADES, 0), seat=0, seats=[0, 1, 2], samples=30)
    second = advise_play("Ah Td Kc", Trick(Suit.SPADES, 0), seat=0, seats=[0, 1, 2], samples=30)
    assert first == second and first.method == "monte_carlo" and first.deals == 30
    assert all(0 <= v <= 3 for v in first.expected.values())


def test_advice_respects_shown_voids() -> None:
    """Seat 1 neither followed ♦ nor trumped in trick 1 (it discarded A♣): under CH-8 it holds
    no diamond and no spade (trumps), so only hearts and clubs are dealt to it."""
    t1 = Trick.of(Suit.SPADES, 0, parse_cards("Kd Ac"), players=2)  # seat 0 wins, leads
    mine = parse_cards("Qd Qh")
    seen = set(mine) | set(t1.cards) | {Card.of("Js")}
    unseen = [
        c for c in STANDARD.card_deck.cards if c not in seen and c.suit in (Suit.HEARTS, Suit.CLUBS)
    ]
    worlds = list(itertools.combinations(unseen, 2))
    advice = advise_play(
        mine, Trick(Suit.SPADES, 0), seat=0, seats=[0, 1], history=[t1], turned="Js", samples=500
    )
    assert advice.method == "exact" and advice.deals == len(worlds)
    for card in mine:
        total = sum(
            1 + _paranoid({0: [c for c in mine if c != card], 1: list(w)},
                          Trick(Suit.SPADES, 0).play(0, card), [0, 1], 0)
            for w in worlds
        )  # fmt: skip
        assert advice.expected[card] == pytest.approx(total / len(worlds))
    # Leading Q♦ takes a sure trick (no diamond, no trump against it) and keeps the lead;
    # leading Q♥ into A♥/K♥ loses the lead and the Q♦ with it.
    assert advice.card == Card.of("Qd")
    assert advice.expected[Card.of("Qd")] > advice.expected[Card.of("Qh")]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"seat": 1}, "seat"),
        ({"seats": [0]}, "seats"),
        ({"seats": [0, 1, 2], "seat": 3}, "seat"),
    ],
)
def test_advice_bad_positions(kwargs: dict[str, object], field: str) -> None:
    args: dict[str, object] = {"seat": 0, "seats": [0, 1, 2]}
    args.update(kwargs)
    with pytest.raises(InvalidInputError) as err:
        advise_play("Ah Td Kc", Trick(Suit.SPADES, 0), **args)  # type: ignore[arg-type]
    assert err.value.field == field
