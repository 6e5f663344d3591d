"""Three Leaves properties over random deals (hypothesis, derandomized, few examples):
a played deal has 3 tricks (TL-5), money is conserved by every deal and every session (TL-6),
the TL-4 order is total and antisymmetric, legal plays are never empty (TL-5)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.cards import DECKS, Card, Suit
from cpsolver.evaluator import evaluate_khlyust
from cpsolver.rules import ThreeLeavesRules
from cpsolver.three_leaves import (
    Choices,
    Deal,
    Exchange,
    ExchangeAction,
    Outcome,
    legal_plays,
    play_deal,
    play_session,
)
from cpsolver.tricks import Play, Trick

RULE_CHOICES = {
    "void": ["trump_or_discard", "must_trump", "discard_only"],
    "zero_tricks": ["pay_penalty", "forfeit"],
    "draw_source": ["holder", "stock"],
    "draw_applies_to": ["trump_khlyust", "any_khlyust"],
    "khlyust_after_exchange": [True, False],
    "class_order": ["trump_first", "trips_first"],
    "deck": [28, 32],
}


@st.composite
def rules_strategy(draw: st.DrawFn) -> ThreeLeavesRules:
    values: dict[str, object] = {k: draw(st.sampled_from(v)) for k, v in RULE_CHOICES.items()}
    values["players"] = draw(st.integers(2, 4))
    values["ante"] = draw(st.integers(0, 3))
    values["share"] = draw(st.integers(0, 3))
    values["flop_penalty"] = draw(st.integers(0, 5))
    return ThreeLeavesRules().replace(**values)


def _random_policy(rng: random.Random):  # type: ignore[no-untyped-def]
    def choose(seat: int, hand: tuple[Card, ...], trick: Trick, rules: ThreeLeavesRules) -> Play:
        assert trick.trump is not None
        legal = legal_plays(hand, trick, rules, seat=seat)
        assert legal, "TL-5: a player always has a legal play"
        return rng.choice(legal)

    return choose


@st.composite
def deal_and_choices(
    draw: st.DrawFn, rules: ThreeLeavesRules | None = None
) -> tuple[Deal, Choices]:
    r = rules or draw(rules_strategy())
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    cards = list(DECKS[r.deck].cards)
    rng.shuffle(cards)
    n = r.players
    hands = [cards[3 * i : 3 * i + 3] for i in range(n)]
    trump_card = cards[3 * n]
    stock = cards[3 * n + 1 :]
    dealer = draw(st.integers(0, n - 1))
    deal = Deal.of(hands, trump_card, stock, dealer=dealer, rules=r)
    exchanges: dict[int, Exchange] = {}
    for seat in deal.order[1:-1]:
        kind = draw(st.sampled_from(["play", "pass", "draw"]))
        if kind == "pass":
            exchanges[seat] = Exchange(ExchangeAction.PASS)
        elif kind == "draw":
            k = draw(st.integers(1, 3))
            exchanges[seat] = Exchange(ExchangeAction.DRAW, tuple(rng.sample(hands[seat], k)))
    choices = Choices(
        exchanges=exchanges,
        demand_playout=draw(st.booleans()),
        plays=_random_policy(rng),
        seed=rng.randrange(1000),
    )
    return deal, choices


@settings(derandomize=True, max_examples=150, deadline=None)
@given(deal_and_choices(), st.integers(0, 20))
def test_tl5_tl6_every_played_deal_has_three_tricks_and_conserves_money(
    dc: tuple[Deal, Choices], carried: int
) -> None:
    """TL-5: trick counts sum to 3 over the players still in, passers take none; every trick
    has one card per player in and a face-up winner. TL-6: the nets plus the change of the pot
    sum to zero."""
    deal, choices = dc
    result = play_deal(deal, choices, carried_pot=carried)
    assert sum(result.net) + result.pot_after - carried == 0
    assert result.pot_before == carried + deal.rules.ante * deal.players
    assert result.pot_after >= 0
    if result.outcome is Outcome.KHLYUST:
        assert result.tricks == ()
        assert result.khlyust is not None
        return
    live = [s for s in range(deal.players) if result.in_deal[s]]
    assert sum(result.trick_counts) == 3
    assert all(result.trick_counts[s] == 0 for s in range(deal.players) if s not in live)
    for trick in result.tricks:
        assert sorted(trick.seats) == live
        head = trick.head
        assert head is not None and not head.face_down
    if result.outcome is Outcome.TRICKS and max(result.trick_counts) < 3:
        assert result.pot_after == result.pot_before


@settings(derandomize=True, max_examples=30, deadline=None)
@given(rules_strategy(), st.data())
def test_tl6_a_session_conserves_money(rules: ThreeLeavesRules, data: st.DataObject) -> None:
    """TL-6 over a sequence of deals: the pot carries over; players' totals plus the pot left
    on the table equal the pot brought in (here 0)."""
    deals = [data.draw(deal_and_choices(rules)) for _ in range(data.draw(st.integers(1, 6)))]
    session = play_session(deals)
    assert sum(session.totals) + session.pot == 0
    pot = 0
    for result in session.results:
        assert result.carried_in == pot
        pot = result.pot_after
    assert pot == session.pot


hands_28 = st.lists(st.sampled_from(DECKS[28].cards), min_size=3, max_size=3, unique=True)


@settings(derandomize=True, max_examples=300, deadline=None)
@given(hands_28, hands_28, st.sampled_from(list(Suit)), st.integers(0, 3), st.integers(0, 3))
def test_tl4_order_is_total_and_antisymmetric(
    h1: list[Card], h2: list[Card], trump: Suit, p1: int, p2: int
) -> None:
    """TL-4: two hands at different turn positions are never equal; exactly one is higher;
    a higher class always wins whatever the points."""
    if p1 == p2:
        p2 = (p1 + 1) % 4
    a = evaluate_khlyust(h1, trump)
    b = evaluate_khlyust(h2, trump)
    ka, kb = a.order_key(p1), b.order_key(p2)
    assert (ka > kb) != (kb > ka)
    if a.class_rank != b.class_rank:
        assert (ka > kb) == (a.class_rank > b.class_rank)
    if a.key == b.key:
        assert (ka > kb) == (p1 < p2)
