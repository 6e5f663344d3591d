"""CP-SAT as an independent certificate (issue 8): on random seeded hands, for every objective,
for constrained and for 13-of-N solves, ``engine="cpsat"`` reaches the same optimum value as
the default engine. CP-SAT takes seconds per hand, so this suite uses a few hands; the
>= 200-hand agreement run per objective is ``bench/engines.py``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import pytest

from cpsolver import InfeasibleError, InvalidInputError, Row, evaluate, solve
from cpsolver.cards import Card
from cpsolver.chinese.constraints import Constraints
from cpsolver.chinese.cpsat import _scale, solve_cpsat
from cpsolver.chinese.objectives import RowTables, get_objective, objective_names, royalty_units
from cpsolver.evaluator.poker import NUM_CLASSES
from cpsolver.rules import ChineseRules

pytestmark = pytest.mark.slow


def deal(seed: int, n: int) -> list[Card]:
    return [Card.from_index(i) for i in random.Random(seed).sample(range(52), n)]


def assert_same_optimum(cards: list[Card], **kwargs: object) -> None:
    # The table model's optimum: a cpsat solve values splits by it (the calibrated default of
    # an exact solve re-scores the model's best against the pool, which cpsat does not).
    exact = solve(cards, estimator="model", **kwargs)  # type: ignore[arg-type]
    cpsat = solve(cards, engine="cpsat", **kwargs)  # type: ignore[arg-type]
    assert cpsat.value == pytest.approx(exact.value, rel=1e-12, abs=1e-12)  # ev: float sums
    b, m, f = evaluate(cpsat.back), evaluate(cpsat.middle), evaluate(cpsat.front)
    assert b >= m >= f  # CP-6
    assert sorted(cpsat.back + cpsat.middle + cpsat.front + cpsat.discarded) == sorted(cards)


@pytest.mark.parametrize("objective", objective_names())
@pytest.mark.parametrize(("seed", "order"), [(1, "weak"), (2, "strict")])
def test_both_engines_reach_the_same_optimum(objective: str, seed: int, order: str) -> None:
    """Every registered objective, 13 cards, both CP-6 orders (``ev`` under ``strict`` is
    served by the ``weak`` table key, with the strict foul test on both engines)."""
    assert_same_optimum(deal(seed, 13), objective=objective, order=order)


@pytest.mark.parametrize("seed", [2, 3, 6, 7])
def test_ev_models_are_valid_and_reach_the_exact_optimum(seed: int) -> None:
    """The scaled ``ev`` objective stays inside CP-SAT's integer range on hands whose tables
    made a bound of ``3 * max|v|`` overflow (all four answered MODEL_INVALID), and the
    optimum is the default engine's, bit for bit (the band sweep of the cpsat module doc)."""
    cards = deal(seed, 13)
    exact = solve(cards, objective="ev", estimator="model")
    assert solve(cards, objective="ev", engine="cpsat").value == exact.value


def test_the_scale_bounds_the_sum_of_the_coefficients() -> None:
    """``_scale`` bounds the objective's absolute sum (what CP-SAT checks for overflow), not
    its largest coefficient: the largest power of two ``S`` with ``S * sum|v| <= 2**53``;
    integers stay unscaled only while their sum fits."""
    halves = [np.full(286, 0.5), np.full(1287, 0.5), np.full(1287, -0.5)]  # 13 cards' subsets
    assert _scale(halves) == 2.0**42  # 1,430 * 2**42 <= 2**53 < 1,430 * 2**43
    assert _scale([np.full(2860, 2.0**40)]) == 1.0  # integers, sum below 2**53: exact
    assert _scale([np.full(2860, 2.0**50)]) == 2.0**-9  # 2,860 * 2**50 > 2**53: scaled


@pytest.mark.parametrize(
    ("seed", "template"),
    [(11, "{0}=front {1}=middle {2}!=back {3}=back"), (12, "{0}=front {2}!=back middle>=pair")],
)
def test_same_optimum_under_constraints(seed: int, template: str) -> None:
    cards = deal(seed, 13)
    text = template.format(*cards)
    try:
        exact = solve(cards, objective="royalties", constraints=text)
    except InfeasibleError:
        with pytest.raises(InfeasibleError):
            solve(cards, objective="royalties", constraints=text, engine="cpsat")
        return
    cpsat = solve(cards, objective="royalties", constraints=text, engine="cpsat")
    assert cpsat.value == exact.value
    parsed = Constraints.parse(text)
    for pin in parsed.pins:
        assert pin.card in cpsat.arrangement.row(pin.place.row)
    for pin in parsed.forbids:
        assert pin.card not in cpsat.arrangement.row(pin.place.row)
    for minimum in parsed.minimums:
        assert cpsat.hands[minimum.row].category >= minimum.category  # type: ignore[operator]


@pytest.mark.parametrize(("seed", "n"), [(21, 14), (22, 15)])
def test_same_optimum_choosing_13_of_n(seed: int, n: int) -> None:
    cards = deal(seed, n)
    assert_same_optimum(cards, objective="royalties", constraints=f"{cards[0]}=back")


def test_cpsat_proves_infeasibility() -> None:
    with pytest.raises(InfeasibleError):
        solve("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s", engine="cpsat", constraints="front>=trips")


@dataclass(frozen=True)
class Fractional:
    """A test objective with non-integer per-row values: royalty units plus a fraction of the
    strength class, divided by 7 (so the CP-SAT model must scale and round)."""

    name: str = "fractional"
    description: str = "royalties and strength over 7 (test only)"
    additive: bool = True

    def row_tables(self, rules: ChineseRules) -> RowTables:
        base = get_objective("strength").row_tables(rules)
        cls = np.arange(NUM_CLASSES, dtype=np.float64)
        rows = []
        for row in (Row.BACK, Row.MIDDLE, Row.FRONT):
            units = royalty_units(rules, row, base.poker).astype(np.float64)
            rows.append((units * 3.0 + cls / 7917.0 + 0.1 * (row == Row.BACK)) / 7.0)
        return RowTables(self.name, rules, rows[0], rows[1], rows[2], base.poker)


def test_fractional_values_are_scaled_and_ties_resolved_exactly() -> None:
    """Rounded coefficients, then the band sweep: the exact optimum value, bit for bit."""
    cards = deal(31, 13)
    rules = ChineseRules()
    tables = Fractional().row_tables(rules)
    idx = np.array(sorted(c.index for c in cards), dtype=np.int64)
    masks = Constraints().masks(sorted(cards, key=lambda c: c.index), tables.poker)
    found = solve_cpsat(idx, tables, masks, strict=False)
    assert found.scale > 1.0  # the model did have to scale
    assert found.value == solve(cards, rules, Fractional()).value


def test_cpsat_engine_options_are_checked() -> None:
    hand = deal(41, 13)
    with pytest.raises(InvalidInputError, match="valid engines: exact, cpsat"):
        solve(hand, engine="gurobi")
    with pytest.raises(InvalidInputError, match="no alternatives"):
        solve(hand, engine="cpsat", alternatives=1)


def test_cpsat_is_deterministic() -> None:
    cards = deal(51, 13)
    text = f"{cards[0]}=front {cards[1]}=front {cards[2]}=middle"
    try:
        first = solve(cards, engine="cpsat", constraints=text)
    except InfeasibleError:
        pytest.fail("pick another seed: these constraints should be feasible")
    second = solve(cards, engine="cpsat", constraints=text)
    assert (first.back, first.middle, first.front) == (second.back, second.middle, second.front)
