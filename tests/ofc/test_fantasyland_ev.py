"""The fantasyland ``ev`` objective (OFC-6, issue 31): every candidate's value recomputed from
the simulated opponents' boards by the independent scorer of tests/ofc/reference.py, the
answer the best of them, never fouled, never below the ``royalties`` answer on the same deals,
the same for the same seed; bad input named by field; the call's deadline kept."""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence

import pytest

from cpsolver.budget import BudgetExceededError, call_budget
from cpsolver.cards import DECK_52, Card, parse_cards
from cpsolver.errors import InvalidInputError
from cpsolver.ofc import fantasyland
from cpsolver.ofc.fantasyland import EvEstimate, FantasylandSet, estimate_ev
from tests.ofc import reference

Board = dict[str, Sequence[Card]]

HAND = "As Ah Ad Kh Kd Ks Qs Jh Th 9c 8c 7c 6c 2d"


def _board(found: FantasylandSet) -> Board:
    return {"back": found.back, "middle": found.middle, "front": found.front}


def _opponents(estimate: EvEstimate) -> list[list[Board]]:
    """The opponents' boards of every deal as the reference reads them."""
    out = []
    for deal in estimate.opponent_boards.tolist():
        boards = []
        for slots in deal:
            cards = [Card.from_index(i) for i in slots]
            boards.append({"back": cards[:5], "middle": cards[5:10], "front": cards[10:]})
        out.append(boards)
    return out


def _reference_value(
    found: FantasylandSet, deals: list[list[Board]], value: float, stay: str
) -> tuple[float, float]:
    """(mean units against the deals' boards + V when the set stays, standard error),
    by the reference scorer alone."""
    board = _board(found)
    units = [sum(reference.pair_units(board, other) for other in deal) for deal in deals]
    stays = reference.fantasyland(board, progressive=False, in_fantasyland=True, stay=stay) > 0
    se = statistics.stdev(units) / math.sqrt(len(units)) if len(units) > 1 else 0.0
    return statistics.fmean(units) + (value if stays else 0.0), se


def _check_deals(cards: Sequence[Card], deals: list[list[Board]], opponents: int) -> None:
    """Every deal is a real one: each opponent a complete board of cards the hand does not
    hold, no card twice at the table."""
    for deal in deals:
        assert len(deal) == opponents
        placed = [c for b in deal for row in ("back", "middle", "front") for c in b[row]]
        assert len(placed) == 13 * opponents == len(set(placed))
        assert not set(placed) & set(cards)


@pytest.mark.parametrize(
    ("hand", "value", "overrides"),
    [
        (HAND, 0.0, {}),
        (HAND, 15.0, {}),
        ("Qc 8d 9s Ah 9h Kc Ad Js 9c 9d Tc 7s 7c Jh", 20.0, {"players": 2}),
        ("2c 3d 5h 7s 9c Jd Kh 4c 6d 8h Ts Qc Ah 3s", 0.0, {"stay": "no_middle"}),
        ("As Ah Ad Kh Kd Ks Qs Jh Th 9c 8c 7c 6c 2d 3d", 8.0, {"fantasyland": "progressive"}),
    ],
)
def test_every_candidate_equals_the_reference_on_the_same_deals(
    hand: str, value: float, overrides: dict[str, object]
) -> None:
    """Each candidate's value and stderr, recomputed from the deals' boards by the reference
    scorer, are the library's; the answer is the best (the first of equal values), and it is
    fantasyland(objective="ev")'s."""
    cards = parse_cards(hand)
    stay = str(overrides.get("stay", "default"))
    estimate = estimate_ev(cards, fantasyland_value=value, samples=40, seed=7, **overrides)
    deals = _opponents(estimate)
    opponents = 1 if overrides.get("players") == 2 else 2
    assert len(deals) == 40
    _check_deals(cards, deals, opponents)
    assert len(estimate.candidates) >= 2
    values = []
    for found in estimate.candidates:
        assert sorted(found.back + found.middle + found.front + found.discarded) == sorted(cards)
        assert not reference.fouled(_board(found))
        assert found.royalties == reference.royalties(_board(found))
        expected, se = _reference_value(found, deals, value, stay)
        assert found.value == pytest.approx(expected, abs=1e-9)
        assert found.stderr == pytest.approx(se, abs=1e-9)
        assert (found.samples, found.seed, found.opponents) == (40, 7, opponents)
        values.append(expected)
    best = max(range(len(values)), key=lambda i: (values[i], -i))
    assert estimate.best_index == best
    assert (
        fantasyland(cards, objective="ev", fantasyland_value=value, samples=40, seed=7, **overrides)
        == estimate.best
    )


@pytest.mark.parametrize("seed", range(3))
def test_ev_never_fouls_and_never_loses_to_royalties_on_its_own_deals(seed: int) -> None:
    """Random hands (half from the 8-A cards: big royalties, stays): the ev set is valid, and
    the royalties answer, rescored by the reference on the very deals the ev answer met,
    is never worth more."""
    rng = random.Random(seed)
    short = [c for c in DECK_52.cards if c.rank >= 8]
    for _ in range(6):
        cards = rng.sample(short if rng.random() < 0.5 else list(DECK_52.cards), 14)
        value = rng.choice((0.0, 10.0, 30.0))
        estimate = estimate_ev(cards, fantasyland_value=value, samples=24, seed=seed)
        ev = estimate.best
        assert not reference.fouled(_board(ev))
        royalties = fantasyland(cards, fantasyland_value=value)
        rescored, _ = _reference_value(royalties, _opponents(estimate), value, "default")
        assert ev.value >= rescored - 1e-9
        assert ev.objective == "ev" and royalties.objective == "royalties"


def test_the_same_seed_gives_the_same_answer() -> None:
    one = estimate_ev(HAND, samples=64, seed=3)
    two = estimate_ev(HAND, samples=64, seed=3)
    other = estimate_ev(HAND, samples=64, seed=4)
    assert one.candidates == two.candidates and one.best_index == two.best_index
    assert (one.opponent_boards == two.opponent_boards).all()
    assert not (one.opponent_boards == other.opponent_boards).all()
    # a deal depends on its seed alone: the first 32 deals of 64 are the 32 deals of 32
    half = estimate_ev(HAND, samples=32, seed=3)
    assert (half.opponent_boards == one.opponent_boards[:32]).all()
    # the order the cards are given in does not matter
    shuffled = " ".join(reversed(HAND.split()))
    assert fantasyland(shuffled, objective="ev", samples=64, seed=3) == one.best


def test_royalties_stays_the_default_and_unchanged() -> None:
    found = fantasyland(HAND, fantasyland_value=10)
    assert found.objective == "royalties" and found.value == 35.0
    assert (found.stderr, found.samples, found.candidates, found.policy) == (0.0, 0, 0, "")
    assert set(found.to_dict()) == {
        "back", "middle", "front", "discarded", "royalties", "stays", "value",
        "fantasyland_value", "objective",
    }  # fmt: skip
    ev = fantasyland(HAND, objective="ev", samples=8)
    assert set(ev.to_dict()) - set(found.to_dict()) == {
        "stderr", "samples", "seed", "opponents", "candidates", "policy"
    }  # fmt: skip
    assert ev.to_dict()["policy"] == "fill:8" and ev.to_dict()["samples"] == 8


@pytest.mark.parametrize(
    ("kwargs", "field", "words"),
    [
        ({"objective": "ev", "samples": 0}, "samples", "from 1 to 1,000,000, got 0"),
        ({"objective": "ev", "samples": 2.5}, "samples", "expected a whole number"),
        ({"objective": "ev", "samples": True}, "samples", "expected a whole number"),
        ({"samples": 100}, "samples", "only the ev objective simulates deals"),
        ({"objective": "ev", "seed": -1}, "seed", "must be 0 to"),
        ({"objective": "EV"}, "objective", "unknown objective 'EV'; valid: royalties, ev"),
        (
            {"objective": "ev", "variant": "classic", "players": 4},
            "rules.players",
            "3 opponents are dealt 39 cards beside the 14 of the fantasyland hand: 53",
        ),
    ],
)
def test_bad_input_names_the_field(kwargs: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        fantasyland(HAND, **kwargs)  # type: ignore[arg-type]
    assert err.value.field == field
    assert words in str(err.value)


def test_ev_keeps_the_calls_deadline() -> None:
    """A million deals inside a 0.4 s budget stop short of it with the answer so far; a
    budget already spent raises, as every sampled loop does."""
    fantasyland(HAND, objective="ev", samples=32)  # kernels loaded
    started = time.perf_counter()
    with call_budget(0.4):
        found = fantasyland(HAND, objective="ev", samples=1_000_000)
    assert time.perf_counter() - started < 0.4
    assert 32 <= found.samples < 1_000_000 and found.samples % 32 == 0
    assert not reference.fouled(_board(found))
    with call_budget(0.0), pytest.raises(BudgetExceededError):
        fantasyland(HAND, objective="ev", samples=64)
