"""13 of N (issue 8): 14 to 17 cards, keep the best 13 under the same rules and objectives.

Checked against brute force over all C(N, 13) choices of kept cards, each solved by the
13-card enumerator (``cpsolver.chinese.search``, itself checked against a brute force over all
72,072 splits in tests/chinese/test_search.py), and, with constraints, against ``split_oracle``.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from split_oracle import best_values, search_key

from cpsolver import CardError, InfeasibleError, Row, evaluate, solve
from cpsolver.cards import Card, parse_cards
from cpsolver.chinese.objectives import get_objective
from cpsolver.chinese.search import search
from cpsolver.chinese.select import no_constraints, select_positions
from cpsolver.rules import ChineseRules

CPSOLVER = Path(sys.executable).with_name("cpsolver")


def brute_force(cards: list[Card], objective: str, strict: bool, top: int = 1) -> list[float]:
    """Best distinct values over every 13 of the cards, each by the 13-card enumerator."""
    tables = get_objective(objective).row_tables(
        ChineseRules.resolve("standard", order="strict" if strict else "weak")
    )
    values: set[float] = set()
    for kept in itertools.combinations(sorted(c.index for c in cards), 13):
        values.update(search(np.array(kept), tables, strict=strict, top_k=top).values)
    return sorted(values, reverse=True)[:top]


def deal(rng: random.Random, n: int) -> list[Card]:
    return [Card.from_index(i) for i in rng.sample(range(52), n)]


@pytest.mark.parametrize("objective", ["strength", "royalties"])
@pytest.mark.parametrize("n", [14, 15, 16, 17])
def test_selection_equals_brute_force_over_all_subsets(objective: str, n: int) -> None:
    rng = random.Random(1000 + n)
    for i in range(3 if n < 17 else 1):
        cards = deal(rng, n)
        strict = i % 2 == 1
        rules = ChineseRules.resolve("standard", order="strict" if strict else "weak")
        sol = solve(cards, rules, objective)
        tables = get_objective(objective).row_tables(rules)
        assert search_key(sol, tables) == brute_force(cards, objective, strict)[0]
        kept = sol.back + sol.middle + sol.front
        assert len(kept) == 13 and len(sol.discarded) == n - 13
        assert sorted(kept + sol.discarded) == sorted(cards)
        b, m, f = evaluate(sol.back), evaluate(sol.middle), evaluate(sol.front)
        assert b >= m >= f and (b > m or not strict)  # CP-6


def test_alternatives_of_a_selection_equal_brute_force() -> None:
    cards = deal(random.Random(7), 15)
    sol = solve(cards, objective="royalties", arrangements=5)
    tables = get_objective("royalties").row_tables(ChineseRules())
    assert [search_key(a, tables) for a in (sol, *sol.alternatives)] == brute_force(
        cards, "royalties", False, top=5
    )


def test_branch_and_bound_on_13_cards_equals_the_enumerator() -> None:
    """Same optimum value as the 36,036-split enumerator on many 13-card hands."""
    rng = random.Random(13)
    for objective in ("strength", "royalties"):
        for strict in (False, True):
            tables = get_objective(objective).row_tables(
                ChineseRules.resolve("standard", order="strict" if strict else "weak")
            )
            for _ in range(150):
                idx = np.array(sorted(rng.sample(range(52), 13)), dtype=np.int64)
                found = select_positions(idx, tables, no_constraints(13), strict=strict, top_k=3)
                assert list(found.values) == list(
                    search(idx, tables, strict=strict, top_k=3).values
                )


@st.composite
def constrained_selection(draw: st.DrawFn) -> tuple[list[Card], dict, dict]:
    n = draw(st.integers(14, 15))
    idx = draw(st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True))
    cards = [Card.from_index(i) for i in idx]
    places = ["front", "middle", "back", "discard"]
    pins = {
        cards[i]: draw(st.sampled_from(places))
        for i in draw(st.lists(st.integers(0, n - 1), max_size=3, unique=True))
    }
    forbids = {
        cards[i]: {draw(st.sampled_from(places))}
        for i in draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True))
        if cards[i] not in pins
    }
    return cards, pins, forbids


@settings(max_examples=20, deadline=None, derandomize=True)
@given(constrained_selection())
def test_constrained_selection_matches_brute_force(case: tuple[list[Card], dict, dict]) -> None:
    """Pins (to rows and to the discard pile) and barred places on 14-15 cards."""
    cards, pins, forbids = case
    tables = get_objective("royalties").row_tables(ChineseRules())
    expected = best_values(cards, tables, strict=False, pins=pins, forbids=forbids)
    text = [f"{c}={p}" for c, p in pins.items()]
    text += [f"{c}!={p}" for c, ps in forbids.items() for p in ps]
    if not expected:
        with pytest.raises(InfeasibleError):
            solve(cards, objective="royalties", constraints=text)
        return
    sol = solve(cards, objective="royalties", constraints=text)
    assert search_key(sol, tables) == expected[0]
    for card, place in pins.items():
        if place == "discard":
            assert card in sol.discarded
        else:
            assert card in sol.arrangement.row(Row[place.upper()])
    for card, places in forbids.items():
        for place in places:
            if place == "discard":
                assert card not in sol.discarded
            else:
                assert card not in sol.arrangement.row(Row[place.upper()])


def test_selection_ignores_input_order() -> None:
    cards = deal(random.Random(3), 16)
    a = solve(cards)
    b = solve(list(reversed(cards)))
    assert (a.back, a.middle, a.front, a.discarded) == (b.back, b.middle, b.front, b.discarded)


def test_fantasyland_example_takes_trips_in_front_over_a_middle_full_house() -> None:
    """17 cards: royal flush (5 units in the back, CP-8 standard), nines full (2 in the
    middle) or nines in front (3) with a wheel in the middle (0): 5 + 0 + 3 beats 5 + 2 + 0."""
    cards = parse_cards("As Ks Qs Js Ts 9h 9d 9c 2h 2d Ac Ad 7c 5d 3s 4h 6h")
    sol = solve(cards, objective="royalties")
    assert sol.hands[Row.BACK].name == "royal flush"
    assert sol.hands[Row.FRONT].name.startswith("three nines")
    assert sum(sol.royalties.values()) == 8 == sol.value  # the value is the units (issue 27)
    tables = get_objective("royalties").row_tables(ChineseRules())
    assert search_key(sol, tables) == brute_force(list(cards), "royalties", False)[0]


def test_forced_natural_picks_13_cards_that_hold_one() -> None:
    """natural=force with 14 cards: keep 13 that make a natural (CP-11), here six pairs."""
    cards = parse_cards("2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As 3d")
    sol = solve(cards, constraints="natural=force")
    assert sol.natural is not None and sol.natural.name == "six_pairs"
    assert len(sol.discarded) == 1
    with pytest.raises(InfeasibleError, match="no 13 of the cards hold a natural"):
        solve("As Ks Qs Js 9h 9d 9c 2h 2d 7c 5d 3s 4h 8c", constraints="natural=force")


@pytest.mark.parametrize("n", [12, 18])
def test_card_counts_outside_13_to_17_are_rejected(n: int) -> None:
    with pytest.raises(CardError, match="expected 13 cards"):
        solve([Card.from_index(i) for i in range(n)])


def test_cli_solve_17_cards_reports_discarded() -> None:
    cards = "As Ks Qs Js Ts 9h 9d 9c 2h 2d Ac Ad 7c 5d 3s 4h 6h"
    out = subprocess.run(
        [str(CPSOLVER), "solve", cards, "--pin", "6h=front", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    rows = data["arrangement"]
    kept = rows["back"] + rows["middle"] + rows["front"]
    assert "6h" in rows["front"] and len(data["discarded"]) == 4
    assert sorted(kept + data["discarded"]) == sorted(cards.split())
