"""One way to ask (issue 27): ``estimator`` and ``arrangements``, the same name and meaning in
the library, the typed client, the CLI and the gRPC API; a conflict is an error naming both;
the names they replace still work, deprecated. Also defects 3 (the ``royalties`` objective
reported a sort key) and 4 (remote results dropped ``analysis.candidates``).

The gRPC tests talk to a real server process with generated stubs; the expected answers are
the library's, computed in this process.
"""

from __future__ import annotations

import json

import grpc
import pytest

from cpsolver import solve, solve_many
from cpsolver.chinese.estimator import MAX_ARRANGEMENTS, Estimator
from cpsolver.client import LocalSolver, RemoteSolver
from cpsolver.errors import InvalidInputError
from cpsolver.v1 import chinese_poker_pb2, chinese_poker_pb2_grpc
from tests.helpers import run_cli, violations, wire

HAND = "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h"  # docs/EV.md's card-removal example
ROYAL = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"  # 5 + 2 royalty units (CP-8 standard)


@pytest.fixture(scope="module")
def stub(grpc_channel: grpc.Channel) -> chinese_poker_pb2_grpc.ChinesePokerServiceStub:
    return chinese_poker_pb2_grpc.ChinesePokerServiceStub(grpc_channel)


# -- the library ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "amount", "canonical"),
    [
        ("model", "model", 0, "model"),
        ("calibrated", "calibrated", 0, "calibrated"),
        ("rollouts:2000", "rollouts", 2000, "rollouts:2000"),
        ("budget:50ms", "budget", 50, "budget:50ms"),
        ("budget:50", "budget", 50, "budget:50ms"),
        (" Calibrated ", "calibrated", 0, "calibrated"),
    ],
)
def test_estimator_texts_read_and_print_back(
    text: str, kind: str, amount: int, canonical: str
) -> None:
    estimator = Estimator.parse(text)
    assert (estimator.kind, estimator.amount, str(estimator)) == (kind, amount, canonical)
    assert Estimator.parse(str(estimator)) == estimator


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rollout:10", "unknown estimator 'rollout:10'"),
        ("rollouts", "rollouts needs an amount, e.g. 'rollouts:2000'"),
        ("rollouts:0", "rollouts:N takes 1 to 20000 deals, got 0"),
        ("rollouts:20001", "rollouts:N takes 1 to 20000 deals, got 20001"),
        ("rollouts:5ms", "rollouts needs an amount"),
        ("calibrated:3", "calibrated takes no amount"),
        ("budget:600001ms", "budget:Nms takes 0 to 600000 milliseconds, got 600001"),
        ("", "unknown estimator ''"),
    ],
)
def test_a_bad_estimator_names_the_field_and_the_forms(text: str, message: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        solve(HAND, estimator=text)
    assert caught.value.field == "estimator" and message in str(caught.value)


def test_each_estimator_is_what_the_solution_reports() -> None:
    # Issue 32: the default is the calibrated estimate; the table model is named.
    assert solve(HAND).analysis.estimator == Estimator("calibrated")  # type: ignore[union-attr]
    model = solve(HAND, estimator="model")
    assert model.analysis.estimator == Estimator("model")  # type: ignore[union-attr]
    calibrated = solve(HAND, estimator="calibrated")
    assert solve(HAND) == calibrated != model
    assert str(calibrated.analysis.estimator) == "calibrated"  # type: ignore[union-attr]
    assert calibrated.to_dict()["estimator"] == "calibrated"
    # A budget reports what it bought, not itself.
    assert solve(HAND, estimator="budget:50ms") == calibrated
    cheap = solve(HAND, estimator="budget:1ms")
    assert str(cheap.analysis.estimator) == "model"  # type: ignore[union-attr]
    rolled = solve(HAND, estimator="rollouts:40", seed=3)
    assert str(rolled.analysis.estimator) == "rollouts:40"  # type: ignore[union-attr]
    assert rolled.analysis.rollouts == 40  # type: ignore[union-attr]
    assert rolled == solve(HAND, estimator=Estimator("rollouts", 40), seed=3)


@pytest.mark.parametrize("objective", ["ev", "strength", "royalties"])
def test_arrangements_counts_the_best_too(objective: str) -> None:
    for count in (1, 2, 5):
        got = solve(HAND, objective=objective, arrangements=count)
        assert len(got.alternatives) == count - 1
    many = solve_many([HAND, ROYAL], objective=objective, arrangements=3)
    assert many == [solve(h, objective=objective, arrangements=3) for h in (HAND, ROYAL)]


@pytest.mark.parametrize("count", [0, -1, MAX_ARRANGEMENTS + 1])
def test_a_bad_count_names_arrangements(count: int) -> None:
    with pytest.raises(InvalidInputError) as caught:
        solve(HAND, arrangements=count)
    assert caught.value.field == "arrangements"
    assert f"must be 1 to {MAX_ARRANGEMENTS}, got {count}" in str(caught.value)


@pytest.mark.parametrize(
    ("kwargs", "fields"),
    [
        ({"estimator": "calibrated", "rollouts": 100}, ["estimator", "rollouts"]),
        ({"rollouts": 100, "calibrated": True}, ["rollouts", "calibrated"]),
        ({"estimator": "model", "budget_ms": 50}, ["estimator", "budget_ms"]),
        ({"arrangements": 3, "alternatives": 4}, ["arrangements", "alternatives"]),
        ({"top": 3, "alternatives": 5}, ["alternatives", "top"]),
        ({"arrangements": 2, "top": 2}, ["arrangements", "top"]),
    ],
)
def test_naming_a_choice_twice_is_an_error_naming_both(
    kwargs: dict[str, object], fields: list[str]
) -> None:
    calls = (solve,) if "top" in kwargs else (solve, LocalSolver().solve)  # top: library only
    for call in calls:
        with pytest.raises(InvalidInputError) as caught:
            call(HAND, **kwargs)  # type: ignore[operator]
        assert [v.field for v in caught.value.violations] == fields
        assert "twice" in str(caught.value)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ({"rollouts": 40, "seed": 3}, {"estimator": "rollouts:40", "seed": 3}),
        ({"calibrated": True}, {"estimator": "calibrated"}),
        ({"budget_ms": 50}, {"estimator": "budget:50ms"}),
        ({"alternatives": 2}, {"arrangements": 3}),
        ({"top": 4}, {"arrangements": 4}),
    ],
)
def test_the_old_names_warn_and_give_the_same_answer(
    old: dict[str, object], new: dict[str, object]
) -> None:
    with pytest.warns(DeprecationWarning, match="is deprecated; use"):
        before = solve(HAND, **old)  # type: ignore[arg-type]
    assert before == solve(HAND, **new)  # type: ignore[arg-type]


def test_finer_estimators_need_the_ev_objective_on_plain_hands() -> None:
    for kwargs in ({"objective": "strength"}, {"constraints": "As=front"}):
        with pytest.raises(InvalidInputError, match="calibrated needs the ev objective"):
            solve(HAND, estimator="calibrated", **kwargs)  # type: ignore[arg-type]
        # A budget is only an upper bound: it never fails for want of a finer estimate.
        budgeted = solve(HAND, estimator="budget:100ms", **kwargs)  # type: ignore[arg-type]
        assert budgeted == solve(HAND, **kwargs)  # type: ignore[arg-type]


# -- defect 3: the royalties objective reports units, not its search key ----------------------


def test_royalties_objective_reports_units() -> None:
    best = solve(ROYAL, objective="royalties", arrangements=3)
    assert best.value == 7 == best.arrangement.royalty_total
    assert [alt.value for alt in best.alternatives] == [
        alt.royalty_total for alt in best.alternatives
    ]
    code, out, _ = run_cli(["solve", ROYAL, "--objective", "royalties", "--arrangements", "3"])
    assert code == 0
    assert "value 7 (objective: royalties); royalty units 7" in out
    table = out.split("alternatives:")[1].splitlines()[2:]
    assert [line.split()[-2:] for line in table] == [["5", "2"], ["5", "2"]]  # royalties, gap
    assert max(len(word) for word in out.split()) < 20  # no 12-digit sort key anywhere
    data = json.loads(run_cli(["solve", ROYAL, "--objective", "royalties", "--json"])[1])
    assert data["value"] == 7


# -- the CLI ----------------------------------------------------------------------------------


def _json(*args: str) -> dict[str, object]:
    code, out, err = run_cli(["solve", HAND, *args, "--json"])
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def test_the_cli_takes_the_same_estimator_and_count() -> None:
    got = _json("--estimator", "rollouts:40", "--seed", "3", "--arrangements", "3")
    expected = solve(HAND, estimator="rollouts:40", seed=3, arrangements=3)
    assert got == json.loads(json.dumps(expected.to_dict()))
    assert got["estimator"] == "rollouts:40"
    assert len(got["alternatives"]) == 2  # type: ignore[arg-type]
    # The CLI's own default is a budget of 100 ms, which buys the library's default.
    assert _json()["ev"] == solve(HAND, estimator="budget:100ms").ev == solve(HAND).ev
    assert _json("--estimator", "model")["ev"] == solve(HAND, estimator="model").ev


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--top", "3", "--alternatives", "5"], "--alternatives and --top name the same choice"),
        (["--rollouts", "100", "--calibrated"], "--rollouts and --calibrated name the same"),
        (["--budget-ms", "50", "--calibrated"], "--calibrated and --budget-ms name the same"),
        (["--estimator", "calibrated", "--rollouts", "9"], "--estimator and --rollouts name"),
        (["--arrangements", "2", "--top", "2"], "--arrangements and --top name the same"),
        (["--estimator", "rollouts:0"], "rollouts:N takes 1 to 20000 deals, got 0"),
        (["--arrangements", "0"], "error: --arrangements: 0 is not in the range 1<=x<=101"),
    ],
)
def test_the_cli_refuses_a_choice_named_twice(args: list[str], message: str) -> None:
    code, out, err = run_cli(["solve", HAND, *args])
    assert code == 2 and out == ""
    assert message in " ".join(err.split())


def test_the_cli_old_flags_still_work_and_say_what_replaced_them() -> None:
    code, out, err = run_cli(["solve", HAND, "--alternatives", "2", "--json"])
    assert code == 0
    assert "The option 'alternatives' is deprecated. Use --arrangements N+1" in err
    assert json.loads(out) == _json("--arrangements", "3")
    help_text = run_cli(["solve", "--help"])[1]
    assert "--estimator" in help_text and "--arrangements" in help_text
    for old in ("--alternatives", "--top", "--rollouts", "--calibrated", "--budget-ms"):
        assert old not in help_text  # one way to ask in the help


def test_batch_takes_the_same_options() -> None:
    lines = f"{HAND}\n{ROYAL}\n"
    code, out, _ = run_cli(
        ["batch", "-", "--estimator", "calibrated", "--arrangements", "2"], stdin=lines
    )
    assert code == 0
    records = [json.loads(line)["solution"] for line in out.splitlines()]
    expected = [solve(h, estimator="calibrated", arrangements=2) for h in (HAND, ROYAL)]
    assert records == [json.loads(json.dumps(e.to_dict())) for e in expected]


# -- gRPC: a real server, generated stubs ----------------------------------------------------


def test_the_wire_takes_the_same_estimator_and_count(
    stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub,
) -> None:
    request = chinese_poker_pb2.SolveRequest(
        cards=wire(HAND), estimator="rollouts:40", seed=3, arrangements=3
    )
    response = stub.Solve(request, timeout=60)
    expected = solve(HAND, estimator="rollouts:40", seed=3, arrangements=3)
    assert response.estimator == "rollouts:40" and response.rollouts == 40
    assert response.value == expected.ev and len(response.alternatives) == 2
    budget = stub.Solve(
        chinese_poker_pb2.SolveRequest(cards=wire(HAND), estimator="budget:50ms"), timeout=60
    )
    assert budget.estimator == "calibrated" and budget.calibrated
    assert budget.value == solve(HAND, estimator="calibrated").ev
    plain = stub.Solve(chinese_poker_pb2.SolveRequest(cards=wire(HAND)), timeout=60)
    assert plain.estimator == "calibrated" and plain.value == solve(HAND).ev
    model = stub.Solve(
        chinese_poker_pb2.SolveRequest(cards=wire(HAND), estimator="model"), timeout=60
    )
    assert model.estimator == "model" and model.value == solve(HAND, estimator="model").ev
    strength = stub.Solve(
        chinese_poker_pb2.SolveRequest(
            cards=wire(ROYAL), objective=chinese_poker_pb2.OBJECTIVE_ROYALTIES
        ),
        timeout=60,
    )
    assert strength.value == 7 and strength.estimator == ""


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"estimator": "calibrated", "rollouts": 9}, {"estimator", "rollouts"}),
        ({"rollouts": 9, "budget_ms": 50}, {"rollouts", "budget_ms"}),
        ({"calibrated": True, "estimator": "model"}, {"estimator", "calibrated"}),
        ({"arrangements": 3, "top_k": 2}, {"arrangements", "top_k"}),
        ({"estimator": "rollouts:999999"}, {"estimator"}),
        ({"arrangements": 500}, {"arrangements"}),
    ],
)
def test_the_wire_refuses_a_choice_named_twice(
    stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub,
    fields: dict[str, object],
    expected: set[str],
) -> None:
    request = chinese_poker_pb2.SolveRequest(cards=wire(HAND), **fields)  # type: ignore[arg-type]
    with pytest.raises(grpc.RpcError) as caught:
        stub.Solve(request, timeout=60)
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert set(violations(caught.value)) == expected


def test_the_deprecated_wire_fields_still_work(
    stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub,
) -> None:
    old = stub.Solve(
        chinese_poker_pb2.SolveRequest(cards=wire(HAND), calibrated=True, top_k=2), timeout=60
    )
    new = stub.Solve(
        chinese_poker_pb2.SolveRequest(cards=wire(HAND), estimator="calibrated", arrangements=3),
        timeout=60,
    )
    assert old == new and len(new.alternatives) == 2 and new.estimator == "calibrated"


# -- defect 4: remote results carry every candidate -------------------------------------------


@pytest.mark.parametrize("estimator", ["model", "calibrated", "rollouts:30"])
def test_remote_results_carry_the_candidates(remote: RemoteSolver, estimator: str) -> None:
    here = solve(HAND, estimator=estimator, seed=2, arrangements=2)
    there = remote.solve(HAND, estimator=estimator, seed=2, arrangements=2)
    assert here.analysis is not None and there.analysis is not None
    assert len(here.analysis.candidates) >= 2
    assert there.analysis.candidates == here.analysis.candidates
    assert there == here
    # Equality sees the candidates: a result without them is not the same result.
    from dataclasses import replace

    assert replace(there, analysis=replace(there.analysis, candidates=())) != here
