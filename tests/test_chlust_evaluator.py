"""Chlust set evaluation (CH-3..CH-5): worked examples CH-E1..CH-E8 and properties over every
3-card hand of both decks, for every trump and every ``purity`` option."""

from __future__ import annotations

import functools
import itertools

import pytest

from cpsolver.cards import Card, Rank, Suit
from cpsolver.errors import CardError, RuleError
from cpsolver.evaluator import SetCategory, SetValue, WildRole, evaluate_set
from cpsolver.rules import ChlustRules, Purity

STANDARD = ChlustRules()
WITHIN = ChlustRules().replace(purity="within_category")
GLOBAL = ChlustRules().replace(purity="global")
NINES = ChlustRules().replace(deck=24)


def ev(
    cards: str, trump: str, rules: ChlustRules = STANDARD, turned: str | None = None
) -> SetValue:
    return evaluate_set(cards, trump, rules, turned=Card.of(turned) if turned else None)


# --- worked examples -----------------------------------------------------------------------


def test_ch_e1_impure_three_jacks_beat_trump_flush() -> None:
    jacks = ev("Js Jh Tc", "d")
    flush = ev("Ad Kd Qd", "d")
    assert jacks.category is SetCategory.THREE_JACKS and not jacks.pure
    assert jacks.wild_role is WildRole.SUBSTITUTE
    assert flush.category is SetCategory.FLUSH and flush.pure
    assert jacks > flush


@pytest.mark.parametrize("rules", [STANDARD, GLOBAL])
def test_ch_e2_impure_trump_flush_beats_spades_flush(rules: ChlustRules) -> None:
    """CH-E2: trump first; under global purity the pure spades win too (every pure > impure)."""
    trump_flush = ev("Jd Td Tc", "d", rules)
    spades = ev("As Ks Qs", "d", rules)
    assert trump_flush.category is SetCategory.FLUSH and not trump_flush.pure
    if rules is STANDARD:
        assert trump_flush > spades
    else:
        assert spades > trump_flush


def test_ch_e2_within_category_spades_win() -> None:
    assert ev("As Ks Qs", "d", WITHIN) > ev("Jd Td Tc", "d", WITHIN)


def test_ch_e3_trump_flush_then_suit_order() -> None:
    """CH-E3: trumps ♥: Q♥J♥10♥ > A♣K♣Q♣ > A♠K♠Q♠."""
    assert ev("Qh Jh Th", "h") > ev("Ac Kc Qc", "h") > ev("As Ks Qs", "h")


def test_ch_e4_pure_beats_impure_in_same_suit_with_24_cards() -> None:
    pure = ev("Qh Jh 9h", "d", NINES)
    impure = ev("Ah Kh Tc", "d", NINES)
    assert pure.pure and not impure.pure
    assert impure.category is pure.category is SetCategory.FLUSH
    assert pure > impure


def test_ch_e5_trips_by_rank() -> None:
    aces = ev("As Ah Tc", "d")
    kings = ev("Ks Kh Kd", "d")
    assert aces.category is kings.category is SetCategory.THREE_OF_A_RANK
    assert aces.rank is Rank.ACE and not aces.pure
    assert aces > kings


def test_ch_e6_clubs_trump_moves_the_wild_card_to_ten_of_spades() -> None:
    queens = ev("Ts Qh Qd", "c", turned="Kc")
    clubs = ev("Tc Ac Jc", "c", turned="Kc")
    assert queens.wild == Card.of("Ts")
    assert queens.category is SetCategory.THREE_OF_A_RANK and queens.rank is Rank.QUEEN
    assert clubs.category is SetCategory.FLUSH and clubs.pure and clubs.suit is Suit.CLUBS
    assert clubs.wild_role is WildRole.ABSENT
    assert clubs > queens


def test_ch_e7_wild_card_standing_as_itself_is_pure() -> None:
    clubs = ev("Tc Ac Kc", "h")
    tens = ev("Tc Th Td", "h")
    hearts = ev("Tc Th Jh", "h")
    assert (clubs.category, clubs.pure, clubs.wild_role) == (
        SetCategory.FLUSH,
        True,
        WildRole.ITSELF,
    )
    assert (tens.category, tens.pure, tens.rank) == (SetCategory.THREE_OF_A_RANK, True, Rank.TEN)
    assert tens.wild_role is WildRole.ITSELF
    assert (hearts.category, hearts.pure, hearts.suit) == (SetCategory.FLUSH, False, Suit.HEARTS)
    assert hearts.stands_for is not None and hearts.stands_for.suit is Suit.HEARTS


def test_ch_e8_no_set() -> None:
    hand = ev("Qh Jd Tc", "d")
    assert hand.category is SetCategory.NONE and not hand.is_set
    assert hand.wild_role is WildRole.UNUSED and hand.key == 0


def test_indicator_only_keeps_ten_of_clubs_wild_unless_it_is_turned() -> None:
    """CH-3 option ``wild_shift=indicator_only``."""
    late = ChlustRules().replace(wild_shift="indicator_only")
    assert ev("Tc Qh Qd", "c", late, turned="Kc").rank is Rank.QUEEN
    assert ev("Ts Qh Qd", "c", late, turned="Kc").category is SetCategory.NONE
    assert ev("Ts Qh Qd", "c", late, turned="Tc").rank is Rank.QUEEN


@pytest.mark.parametrize(
    ("cards", "rules", "field"),
    [
        ("9h Jh Qh", STANDARD, "cards[0]"),  # a nine outside the 20-card deck (CH-1)
        ("8h Jh Qh", NINES, "cards[0]"),
        ("Ah Ah Qh", STANDARD, "cards[1]"),
        ("Ah Kh", STANDARD, "cards"),
        ("Ah Kh Qh Jh", STANDARD, "cards"),
    ],
)
def test_bad_hands_are_input_errors(cards: str, rules: ChlustRules, field: str) -> None:
    with pytest.raises(CardError) as err:
        ev(cards, "h", rules)
    assert err.value.field == field


def test_bad_trump_and_options_are_input_errors() -> None:
    with pytest.raises(CardError, match="trump"):
        evaluate_set("Ah Kh Qh", "x")
    with pytest.raises(RuleError, match="valid values: 20, 24"):
        ChlustRules().replace(deck=28)
    with pytest.raises(RuleError, match="purity"):
        ChlustRules().replace(purity="sometimes")


# --- properties over every hand ------------------------------------------------------------

ALL_RULES = [
    ChlustRules().replace(deck=deck, purity=purity)
    for deck in (20, 24)
    for purity in ("same_suit_only", "within_category", "global")
]


@functools.cache
def all_hands(rules: ChlustRules, trump: Suit) -> tuple[SetValue, ...]:
    return tuple(
        evaluate_set(h, trump, rules) for h in itertools.combinations(rules.card_deck.cards, 3)
    )


def _reference_cmp(a: SetValue, b: SetValue, purity: Purity) -> int:
    """CH-5 written out as a pairwise comparison, independent of the integer key."""

    def sign(x: int) -> int:
        return (x > 0) - (x < 0)

    if not a.is_set or not b.is_set:
        return sign(int(a.is_set) - int(b.is_set))
    if purity is Purity.GLOBAL and a.pure != b.pure:
        return 1 if a.pure else -1
    if a.category != b.category:
        return sign(a.category - b.category)
    if purity is Purity.WITHIN_CATEGORY and a.pure != b.pure:
        return 1 if a.pure else -1
    if a.category is SetCategory.FLUSH:
        assert a.suit and b.suit
        if (a.suit is a.trump) != (b.suit is b.trump):
            return 1 if a.suit is a.trump else -1
        order = "dhsc"  # ♣ > ♠ > ♥ > ♦
        if a.suit != b.suit:
            return sign(order.index(a.suit.value) - order.index(b.suit.value))
        if purity is Purity.SAME_SUIT_ONLY and a.pure != b.pure:
            return 1 if a.pure else -1
        ra = sorted((c.rank for c in a.set_cards), reverse=True)
        rb = sorted((c.rank for c in b.set_cards), reverse=True)
        return sign((ra > rb) - (ra < rb))
    assert a.rank and b.rank
    return sign(a.rank - b.rank)


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.deck}-{r.purity.value}")
@pytest.mark.parametrize("trump", list(Suit), ids=lambda s: s.value)
def test_key_order_matches_ch5_and_sets_never_tie(rules: ChlustRules, trump: Suit) -> None:
    """CH-5: the key agrees with the rules pairwise over every pair of set hands; two disjoint
    sets (hands that can meet in one deal) never tie; every no-set hand ties with the others
    and loses to every set."""
    hands = all_hands(rules, trump)
    sets = [h for h in hands if h.is_set]
    nones = [h for h in hands if not h.is_set]
    assert nones and sets
    assert {h.key for h in nones} == {0}
    assert min(h.key for h in sets) > 0
    for a, b in itertools.combinations(sets, 2):
        expected = _reference_cmp(a, b, rules.purity)
        got = (a.key > b.key) - (a.key < b.key)
        assert got == expected, (a.cards, b.cards)
        assert (a < b) == (b > a) and not (a < b and b < a)
        if not set(a.cards) & set(b.cards):
            assert a.key != b.key, (a.cards, b.cards)


@pytest.mark.parametrize("rules", [ALL_RULES[0], ALL_RULES[3]], ids=["20", "24"])
@pytest.mark.parametrize("trump", list(Suit), ids=lambda s: s.value)
def test_wild_card_rules_ch3_ch4(rules: ChlustRules, trump: Suit) -> None:
    """CH-3/CH-4: the wild card completes a set exactly when the other two cards share a suit
    or a rank; it stands as itself only in tens or its own suit (pure); otherwise it stands
    for a card of the deck outside the hand, and the hand takes the best such set."""
    wild = rules.wild_card(trump)
    for hand in all_hands(rules, trump):
        held = set(hand.cards)
        if wild not in held:
            assert hand.wild_role is WildRole.ABSENT and hand.pure == hand.is_set
            continue
        a, b = sorted(held - {wild})
        assert hand.is_set == (a.rank == b.rank or a.suit == b.suit)
        if not hand.is_set:
            assert hand.wild_role is WildRole.UNUSED
            continue
        itself = (a.rank == b.rank == wild.rank) or (a.suit == b.suit == wild.suit)
        assert hand.pure == itself
        assert hand.wild_role is (WildRole.ITSELF if itself else WildRole.SUBSTITUTE)
        if itself:
            continue
        sub = hand.stands_for
        assert sub is not None and sub in rules.card_deck and sub not in (a, b, wild)
        natural = evaluate_set((a, b, sub), trump, rules)
        assert natural.category is hand.category and natural.pure
        assert sorted(c.rank for c in natural.set_cards) == sorted(c.rank for c in hand.set_cards)
        # The hand takes its best set: no other card in the wild card's place does better.
        for c in rules.card_deck.cards:
            if c not in (a, b, wild):
                assert evaluate_set((a, b, c), trump, rules).key <= natural.key, (hand.cards, c)
