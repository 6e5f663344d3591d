"""The typed client returns the ``ev`` objective's report (RULES §2.3) as the library does:
per-row P(win)/P(tie)/P(loss) with the units and royalty of each row (CP-7, CP-8), the EV,
alternatives with their EV and interval, undeclared naturals (CP-11) and, with rollouts or the
calibrated pool, the deal count and 95% intervals - equal to the in-process Solution, over the
real server.
"""

from __future__ import annotations

import pytest

from cpsolver import solve
from cpsolver.chinese.estimator import CALIBRATED_COST_MS
from cpsolver.client import LocalSolver, RemoteSolver
from cpsolver.errors import InvalidInputError

CASES = [
    # (hand, preset, keyword arguments)
    ("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s", "standard", {}),
    ("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s", "standard", {"estimator": "rollouts:60", "seed": 7}),
    ("2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As", "standard", {}),  # CP-E9 six pairs
    ("2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As", "standard", {"estimator": "rollouts:40", "seed": 3}),
    ("As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s", "eastern", {}),  # CP-E10 dragon
    # The table model, named (the default is calibrated since issue 32).
    ("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s", "standard", {"estimator": "model"}),
    ("As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s", "eastern", {"estimator": "model"}),
    ("2c 3d 4h Ah Kd Qc Jd Ts As Ks Qd Jc Th", "two_four", {"estimator": "rollouts:40", "seed": 1}),
    # Six pairs held but not declared (quads play better, CP-11): an undeclared natural entry.
    ("As Ad Ac Ah Ks Kd Kc Kh Qs Qd Js Jd 9s", "standard", {}),
    ("As Ad Ac Ah Ks Kd Kc Kh Qs Qd Js Jd 9s", "standard", {"estimator": "rollouts:40", "seed": 5}),
    # The weighted opponent pool (issue 14): SolveRequest.estimator reaches the same code.
    ("As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h", "standard", {"estimator": "calibrated"}),
    ("2c 3d 4h Ah Kd Qc Jd Ts As Ks Qd Jc Th", "two_four", {"estimator": "calibrated"}),
    # A time budget (SolveRequest.estimator "budget:Nms") that buys the calibrated re-score,
    # and one that does not: the server chooses as the library does (the 60 s deadline leaves room).
    ("As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h", "standard", {"estimator": "budget:100ms"}),
    ("As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h", "standard", {"estimator": "budget:5ms"}),
]


@pytest.mark.parametrize(("hand", "preset", "kwargs"), CASES)
def test_remote_ev_solution_equals_the_library(
    remote: RemoteSolver, hand: str, preset: str, kwargs: dict[str, str | int]
) -> None:
    """Every EV field survives the wire: odds, EV, intervals, rollouts, alternatives, naturals."""
    expected = solve(hand, preset, arrangements=3, **kwargs)  # type: ignore[arg-type]
    got = remote.solve(hand, preset, arrangements=3, **kwargs)  # type: ignore[arg-type]
    assert expected.objective == "ev" and expected.analysis is not None
    assert got.analysis is not None
    assert got.analysis.rows == expected.analysis.rows
    assert got.analysis.ev == expected.analysis.ev == got.ev
    assert got.analysis.ci95 == expected.analysis.ci95
    asked = str(kwargs.get("estimator", "calibrated"))
    finer = asked != "model" and asked != f"budget:{CALIBRATED_COST_MS - 5}ms"
    assert (expected.analysis.ci95 is not None) == finer
    assert got.analysis.estimator == expected.analysis.estimator
    assert got.analysis.candidates == expected.analysis.candidates != ()  # issue 27, defect 4
    assert got.analysis.rollouts == expected.analysis.rollouts
    assert got.analysis.alternatives_ci95 == expected.analysis.alternatives_ci95
    assert got.analysis.naturals == expected.analysis.naturals
    assert (len(expected.analysis.naturals) > 0) == hand.startswith("As Ad Ac Ah")
    assert got.analysis.settlement == expected.analysis.settlement
    assert (expected.analysis.settlement is not None) == (expected.natural is not None)
    assert got.analysis.estimate == expected.analysis.estimate is not None
    assert got == expected
    assert got.to_dict() == expected.to_dict()


def test_remote_batch_spends_the_budget_per_hand(remote: RemoteSolver) -> None:
    """BatchSolve items carry the estimator: each hand as ``solve(hand, estimator=...)``, a bad
    hand as its error in place, as the in-process backend answers; a bad estimator is the
    call's error, raised before anything is sent, on both backends alike."""
    hands = [
        "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h",
        "As Ks",
        "2c 3d 4h Ah Kd Qc Jd Ts As Ks Qd Jc Th",
    ]
    got = list(remote.solve_batch(hands, estimator="budget:50ms"))
    calibrated = solve(hands[0], estimator="calibrated")
    assert got[0] == solve(hands[0], estimator="budget:50ms") == calibrated
    assert got[2] == solve(hands[2], estimator="budget:50ms")
    assert isinstance(got[1], InvalidInputError) and "expected 13 cards" in str(got[1])
    here = list(LocalSolver().solve_batch(hands, estimator="budget:50ms"))
    assert [got[0], got[2]] == [here[0], here[2]] and str(got[1]) == str(here[1])
    two = list(remote.solve_batch(hands[:1], arrangements=2, estimator="rollouts:30", seed=4))
    assert two == [solve(hands[0], arrangements=2, estimator="rollouts:30", seed=4)]
    assert len(two[0].alternatives) == 1  # type: ignore[union-attr]
    errors = []
    for solver in (remote, LocalSolver()):
        with pytest.raises(InvalidInputError) as caught:
            list(solver.solve_batch(hands[:1], estimator="budget:50ms", budget_ms=50))
        errors.append([v.field for v in caught.value.violations])
    assert errors == [["estimator", "budget_ms"]] * 2
