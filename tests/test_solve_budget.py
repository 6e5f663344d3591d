"""``solve(cards, estimator="budget:Nms")``: a time budget instead of a named estimator
(issue 14; the ``budget_ms=N`` of issue 14 is its deprecated name since issue 27).

The budget buys the calibrated re-score (the weighted opponent pool) from
``CALIBRATED_COST_MS``; below it, or for an objective with no finer estimate, the answer is the
default one. A deadline (the ``deadline`` argument, or a server call's, which the server runs
inside :func:`cpsolver.budget.call_budget`) caps the budget at half of what is left. The choice
depends only on the arguments, so the answers are compared with the named modes exactly.
Over the wire: tests/test_client_ev.py (same Solution) and the CLI's default below.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cpsolver import solve
from cpsolver.budget import call_budget
from cpsolver.chinese.estimator import CALIBRATED_COST_MS, MAX_BUDGET_MS, Estimator, budget_mode
from cpsolver.client.cli import main
from cpsolver.errors import InvalidInputError

HAND = "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h"  # docs/EV.md's card-removal example


@pytest.mark.parametrize("preset", ["standard", "two_four"])
def test_a_budget_that_fits_buys_the_calibrated_estimate(preset: str) -> None:
    got = solve(HAND, preset, arrangements=3, estimator=f"budget:{CALIBRATED_COST_MS}ms")
    named = solve(HAND, preset, arrangements=3, estimator="calibrated")
    model = solve(HAND, preset, arrangements=3, estimator="model")
    assert got == named
    assert got.analysis is not None and named.analysis is not None
    assert got.analysis.ci95 == named.analysis.ci95 is not None
    assert got.analysis.ev != model.analysis.ev  # type: ignore[union-attr]


@pytest.mark.parametrize("budget", [0, 1, CALIBRATED_COST_MS - 1])
def test_a_budget_too_small_gives_the_table_models_answer(budget: int) -> None:
    got = solve(HAND, estimator=f"budget:{budget}ms")
    assert got == solve(HAND, estimator="model")
    assert got.analysis is not None and got.analysis.ci95 is None


def test_the_deadline_caps_the_budget_at_half_the_time_left() -> None:
    big = 10 * CALIBRATED_COST_MS
    default, calibrated = solve(HAND, estimator="model"), solve(HAND, estimator="calibrated")
    short = (2 * CALIBRATED_COST_MS - 2) / 1000  # half of it is under the calibrated cost
    assert solve(HAND, estimator=f"budget:{big}ms", deadline=short) == default
    assert solve(HAND, estimator=f"budget:{big}ms", deadline=1.0) == calibrated
    # A server call's deadline (the server runs each call inside call_budget) does the same.
    with call_budget(short):
        assert solve(HAND, estimator=f"budget:{big}ms") == default
    with call_budget(5.0):
        assert solve(HAND, estimator=f"budget:{big}ms") == calibrated
    assert budget_mode(big, seconds_left=2 * CALIBRATED_COST_MS / 1000) == "calibrated"
    assert budget_mode(big, seconds_left=short) == "model"


def test_a_budget_does_not_change_an_objective_without_a_finer_estimate() -> None:
    for kwargs in ({"objective": "strength"}, {"constraints": "As=front"}):
        budgeted = solve(HAND, estimator="budget:1000ms", **kwargs)  # type: ignore[arg-type]
        assert budgeted == solve(HAND, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "fields", "message"),
    [
        ({"budget_ms": 100, "rollouts": 50}, ["rollouts", "budget_ms"], "twice"),
        ({"budget_ms": 100, "calibrated": True}, ["calibrated", "budget_ms"], "twice"),
        ({"estimator": "budget:100ms", "rollouts": 50}, ["estimator", "rollouts"], "twice"),
        ({"estimator": "budget:-1ms"}, ["estimator"], "unknown estimator 'budget:-1ms'"),
        ({"budget_ms": -1}, ["budget_ms"], f"must be 0 to {MAX_BUDGET_MS}, got -1"),
        (
            {"estimator": f"budget:{MAX_BUDGET_MS + 1}ms"},
            ["estimator"],
            f"budget:Nms takes 0 to {MAX_BUDGET_MS} milliseconds, got {MAX_BUDGET_MS + 1}",
        ),
    ],
)
def test_bad_budgets_name_the_fields(
    kwargs: dict[str, object], fields: list[str], message: str
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        solve(HAND, **kwargs)  # type: ignore[arg-type]
    assert [v.field for v in caught.value.violations] == fields
    assert message in str(caught.value)


def _cli(*args: str) -> tuple[int, str, str]:
    out = CliRunner().invoke(main, ["solve", HAND, *args])
    return out.exit_code, out.stdout, out.stderr


def test_the_cli_prints_the_calibrated_ev_by_default() -> None:
    """``cpsolver solve`` spends SOLVE_ESTIMATOR, ``budget:100ms``: its headline EV is the
    weighted pool's."""
    code, out, _ = _cli("--json")
    assert code == 0
    data = json.loads(out)
    calibrated = solve(HAND, estimator="calibrated")
    assert data["ev"] == calibrated.ev
    assert data["ev_ci95"] == list(calibrated.analysis.ci95)  # type: ignore[union-attr]
    code, out, _ = _cli()
    assert code == 0 and "weighted opponent pool" in " ".join(out.split())


def test_the_cli_budget_flag_and_named_estimates() -> None:
    code, out, _ = _cli("--estimator", "budget:0ms", "--json")
    assert code == 0 and json.loads(out)["ev"] == solve(HAND, estimator="model").ev
    assert json.loads(out)["estimator"] == "model"
    code, out, _ = _cli("--estimator", "rollouts:40", "--seed", "3", "--json")
    assert code == 0 and json.loads(out)["rollouts"] == 40
    assert json.loads(out)["estimator"] == "rollouts:40"
    code, _, err = _cli("--budget-ms", "100", "--rollouts", "40")  # the deprecated names
    assert code == 2 and "--rollouts and --budget-ms name the same choice twice" in err
    code, _, err = _cli("--estimator", "budget:-5ms")
    assert code == 2 and "--estimator" in err


BATCH = [HAND, "As Ks", "2c 3d 4h Ah Kd Qc Jd Ts As Ks Qd Jc Th"]  # a bad hand in the middle


def _one_by_one(budget_ms: int) -> list[object]:
    out: list[object] = []
    for hand in BATCH:
        try:
            out.append(solve(hand, estimator=f"budget:{budget_ms}ms"))
        except InvalidInputError as exc:
            out.append(str(exc))
    return out


def test_solve_many_and_the_local_batch_spend_the_budget_per_hand() -> None:
    from cpsolver.chinese import solve_many
    from cpsolver.client import LocalSolver

    good = [BATCH[0], BATCH[2]]
    calibrated = [solve(h, estimator="calibrated") for h in good]
    assert solve_many(good, estimator=f"budget:{CALIBRATED_COST_MS}ms") == calibrated
    assert solve_many(good, estimator=f"budget:{CALIBRATED_COST_MS - 1}ms") == solve_many(
        good, estimator="model"
    )
    with pytest.raises(InvalidInputError, match=r"^estimator: budget:Nms takes 0 to"):
        solve_many(good, estimator=f"budget:{MAX_BUDGET_MS + 1}ms")
    got = [
        r if not isinstance(r, Exception) else str(r)
        for r in LocalSolver().solve_batch(BATCH, estimator="budget:50ms")
    ]
    assert got == _one_by_one(50)
    assert got[0] == calibrated[0] and "expected 13 cards" in str(got[1])


def test_the_cli_batch_takes_a_budget() -> None:
    lines = "\n".join(BATCH) + "\n"
    out = CliRunner().invoke(main, ["batch", "-", "--estimator", "budget:50ms"], input=lines)
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert out.exit_code == 2  # the bad line
    assert [r["ok"] for r in records] == [True, False, True]
    assert records[0]["solution"]["ev"] == solve(HAND, estimator="calibrated").ev
    assert records[0]["solution"]["ev_ci95"] is not None
    plain = CliRunner().invoke(main, ["batch", "-"], input=lines)  # default: calibrated
    assert json.loads(plain.stdout.splitlines()[0])["solution"]["ev"] == solve(HAND).ev
    assert solve(HAND).analysis.estimator == Estimator("calibrated")  # type: ignore[union-attr]
