"""Constraints on a solve (issue 8): pins, barred rows, minimum hands, the natural policy.

The optimum under constraints is checked against a brute force over every split
(``split_oracle``); results never foul (CP-6); infeasible constraints raise InfeasibleError
(exit code 2 on the CLI).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from split_oracle import best_values, search_key

from cpsolver import Category, InfeasibleError, InvalidInputError, Row, evaluate, solve
from cpsolver.cards import Card, parse_cards
from cpsolver.chinese.constraints import Constraints, MinHand, NaturalPolicy, Place
from cpsolver.chinese.objectives import get_objective
from cpsolver.evaluator.poker import NUM_CLASSES, poker_tables
from cpsolver.rules import ChineseRules

CPSOLVER = Path(sys.executable).with_name("cpsolver")
HAND = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"
SIX_PAIRS = "2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As"
DRAGON = "As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s"
ROW_NAMES = {Row.FRONT: "front", Row.MIDDLE: "middle", Row.BACK: "back"}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CPSOLVER), "solve", *args], capture_output=True, text=True, timeout=300, check=False
    )


def assert_valid(sol: object, strict: bool = False) -> None:
    """CP-6: back >= middle >= front (back > middle under order=strict)."""
    b, m, f = evaluate(sol.back), evaluate(sol.middle), evaluate(sol.front)  # type: ignore[attr-defined]
    assert b >= m >= f
    if strict:
        assert b > m


# ---------------------------------------------------------------------------------------------
# Parsing.


def test_parse_text_forms_and_canonical_string() -> None:
    c = Constraints.parse("Kd != back, As=front  front>=pair natural=force")
    assert [str(p) for p in c.pins] == ["As=front"]
    assert [(str(p.card), p.place) for p in c.forbids] == [("Kd", Place.BACK)]
    assert c.minimums == (MinHand(Row.FRONT, category=Category.PAIR),)
    assert c.natural is NaturalPolicy.FORCE
    assert str(c) == "As=front Kd!=back front>=pair natural=force"
    assert Constraints.parse(str(c)) == c


def test_constraints_are_immutable_and_order_insensitive() -> None:
    a = Constraints.parse("As=front Kd=back Qh!=middle")
    b = Constraints.parse("Qh!=middle, Kd=back, As=front")
    assert a == b and hash(a) == hash(b)
    with pytest.raises(AttributeError):
        a.natural = NaturalPolicy.FORBID  # type: ignore[misc]


def test_minimum_bounds_category_strength_or_hand() -> None:
    c = Constraints.parse("front>=trips middle>=4000 back>=QsQdQh2c2d")
    by_row = {m.row: m for m in c.minimums}
    assert by_row[Row.FRONT].category is Category.THREE_OF_A_KIND
    assert by_row[Row.MIDDLE].strength == 4000
    poker = poker_tables()
    assert by_row[Row.BACK].threshold(poker) == evaluate("Qs Qd Qh 2c 2d").strength


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("As=top", "unknown place 'top'"),
        ("Xs=front", "constraints[0]"),
        ("top>=pair", "unknown row 'top'"),
        ("front>=straight", "cannot be a straight"),
        ("front>=lucky", "cannot read the bound 'lucky'"),
        ("middle>=9999", "strength must be 0..7916"),
        ("natural=sometimes", "unknown natural policy 'sometimes'"),
        ("As", "cannot read 'As'"),
    ],
)
def test_bad_constraint_text_is_invalid_input(text: str, needle: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        Constraints.parse(text)
    assert needle in str(err.value)


@pytest.mark.parametrize(
    ("row", "category"),
    [
        (row, category)
        for row in Row
        for category in Category
        if row is not Row.FRONT or category <= Category.THREE_OF_A_KIND
    ],
)
def test_category_threshold_is_exactly_the_category_bound(row: Row, category: Category) -> None:
    """CP-3..CP-5: on the one scale, class >= threshold <=> category >= bound, per row kind."""
    poker = poker_tables()
    threshold = MinHand(row, category=category).threshold(poker)
    classes = [c for c in range(NUM_CLASSES) if bool(poker.is_front[c]) == (row is Row.FRONT)]
    for c in classes:
        assert (c >= threshold) == (poker.category[c] >= category)


# ---------------------------------------------------------------------------------------------
# Solves against the brute force.


def test_aces_stay_in_front() -> None:
    """'Best arrangement if the aces must stay in front' (issue 8)."""
    cards = parse_cards("As Ad 9h 9d 9c 5h 5d Kc Qc Jc 8c 4c 2s")
    sol = solve(cards, objective="royalties", constraints="As=front Ad=front")
    assert {str(c) for c in sol.front} >= {"As", "Ad"}
    assert sol.hands[Row.FRONT].category is Category.PAIR
    assert_valid(sol)
    tables = get_objective("royalties").row_tables(ChineseRules())
    ace_s, ace_d = Card.of("As"), Card.of("Ad")
    expected = best_values(cards, tables, strict=False, pins={ace_s: "front", ace_d: "front"})
    assert search_key(sol, tables) == expected[0]


@st.composite
def constrained_hands(draw: st.DrawFn) -> tuple[list[Card], dict, dict, dict, bool]:
    idx = draw(st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True))
    cards = [Card.from_index(i) for i in idx]
    pins = {
        cards[i]: draw(st.sampled_from(["front", "middle", "back"]))
        for i in draw(st.lists(st.integers(0, 12), max_size=3, unique=True))
    }
    forbids = {
        cards[i]: {draw(st.sampled_from(["front", "middle", "back"]))}
        for i in draw(st.lists(st.integers(0, 12), max_size=2, unique=True))
        if cards[i] not in pins
    }
    minimum = {}
    if draw(st.booleans()):
        row = draw(st.sampled_from(["front", "middle", "back"]))
        top = Category.THREE_OF_A_KIND if row == "front" else Category.FLUSH
        minimum[row] = draw(st.integers(0, int(top)))
    return cards, pins, forbids, minimum, draw(st.booleans())


@settings(max_examples=40, deadline=None, derandomize=True)
@given(constrained_hands(), st.sampled_from(["strength", "royalties"]))
def test_constrained_optimum_matches_brute_force(
    case: tuple[list[Card], dict, dict, dict, bool], objective: str
) -> None:
    """The optimum meets every constraint, never fouls (CP-6) and equals the brute force;
    InfeasibleError exactly when the brute force finds nothing."""
    cards, pins, forbids, min_category, strict = case
    text = [f"{c}={r}" for c, r in pins.items()]
    text += [f"{c}!={r}" for c, rs in forbids.items() for r in rs]
    text += [f"{r}>={Category(v).label}" for r, v in min_category.items()]
    rules = ChineseRules.resolve("standard", order="strict" if strict else "weak")
    tables = get_objective(objective).row_tables(rules)
    expected = best_values(
        cards, tables, strict=strict, pins=pins, forbids=forbids, min_category=min_category
    )
    if not expected:
        with pytest.raises(InfeasibleError):
            solve(cards, rules, objective, constraints=text)
        return
    sol = solve(cards, rules, objective, constraints=text)
    assert search_key(sol, tables) == expected[0]
    assert_valid(sol, strict)
    assert sorted(sol.back + sol.middle + sol.front) == sorted(cards)
    for card, row in pins.items():
        assert card in sol.arrangement.row(Row[row.upper()])
    for card, rows in forbids.items():
        for row in rows:
            assert card not in sol.arrangement.row(Row[row.upper()])
    for row, category in min_category.items():
        assert sol.hands[Row[row.upper()]].category >= category


def test_alternatives_under_constraints_match_brute_force() -> None:
    cards = parse_cards(HAND)
    tables = get_objective("royalties").row_tables(ChineseRules())
    expected = best_values(cards, tables, strict=False, pins={Card.of("9h"): "front"}, top=4)
    sol = solve(cards, objective="royalties", constraints="9h=front", alternatives=3)
    assert [search_key(a, tables) for a in (sol, *sol.alternatives)] == expected
    for arrangement in (sol.arrangement, *sol.alternatives):
        assert Card.of("9h") in arrangement.front


def test_constraints_that_hold_anyway_keep_the_optimum_value() -> None:
    free = solve(HAND, estimator="model")  # a constrained solve's values are the model's
    pinned = solve(HAND, constraints=[f"{c}=back" for c in free.back])
    assert (pinned.back, pinned.middle, pinned.front) == (free.back, free.middle, free.front)
    # The constrained scan adds the rows' EV terms in another order: equal up to rounding.
    assert pinned.value == pytest.approx(free.value, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# Infeasible and invalid constraints.


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("As=front As=back", "pinned to both"),
        ("As=front As!=front", "both pinned to and kept out of front"),
        ("As=front Ks=front Qs=front Js=front", "4 cards are pinned to the front"),
        ("As!=front As!=middle As!=back", "kept out of every row"),
        ("front>=trips", "no valid arrangement"),
        ("As=discard", "discard pile"),
        ("As=front Ks=front Qs=front back>=straight_flush", "no back hand meets them"),
    ],
)
def test_infeasible_constraints_raise(text: str, needle: str) -> None:
    with pytest.raises(InfeasibleError) as err:
        solve(HAND, constraints=text)
    assert needle in str(err.value)


def test_constraint_on_a_card_not_held_is_invalid_input() -> None:
    with pytest.raises(InvalidInputError) as err:
        solve(HAND, constraints="Ah=front")
    assert "Ah is not among the cards" in str(err.value)


# ---------------------------------------------------------------------------------------------
# Naturals (CP-11).


def test_natural_policy_auto_force_forbid() -> None:
    assert solve(SIX_PAIRS).natural is not None
    assert solve(SIX_PAIRS).natural.name == "six_pairs"  # type: ignore[union-attr]
    assert solve(SIX_PAIRS, constraints="natural=force").natural.name == "six_pairs"  # type: ignore[union-attr]
    assert solve(SIX_PAIRS, constraints="natural=forbid").natural is None
    assert solve(DRAGON, constraints="natural=force").natural.name == "dragon"  # type: ignore[union-attr]


def test_forcing_a_natural_the_hand_lacks_is_infeasible() -> None:
    with pytest.raises(InfeasibleError, match="hold no natural"):
        solve(HAND, constraints="natural=force")
    with pytest.raises(InfeasibleError, match="naturals off"):
        solve(SIX_PAIRS, "two_four", constraints="natural=force")


def test_natural_with_row_constraints_keeps_constrained_rows() -> None:
    sol = solve(SIX_PAIRS, constraints="As=front natural=force")
    assert sol.natural is not None and Card.of("As") in sol.front
    assert_valid(sol)


# ---------------------------------------------------------------------------------------------
# CLI.


def test_cli_pin_forbid_min_natural_flags() -> None:
    out = run(
        HAND, "--pin", "As=front", "--forbid", "Ks=back", "--min", "back=full_house", "--json"
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert "As" in data["arrangement"]["front"]
    assert "Ks" not in data["arrangement"]["back"]
    assert data["hands"]["back"]["category"] in ("full_house", "four_of_a_kind", "straight_flush")
    assert evaluate(data["arrangement"]["back"]) >= evaluate(data["arrangement"]["middle"])
    assert evaluate(data["arrangement"]["middle"]) >= evaluate(data["arrangement"]["front"])
    out = run(SIX_PAIRS, "--natural", "forbid", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["natural"] is None


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--min", "front=trips"), "no valid arrangement"),
        (("--pin", "As=front", "--pin", "As=back"), "pinned to both"),
        (("--natural", "force"), "no natural"),
        (("--pin", "As=top"), "unknown place 'top'"),
        (("--pin", "Ah=front"), "not among the cards"),
    ],
)
def test_cli_infeasible_or_bad_constraints_exit_2(args: tuple[str, ...], needle: str) -> None:
    out = run(HAND, *args)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], out.stderr
