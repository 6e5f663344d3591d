"""Issue 32: the calibrated estimate is the default of every surface that solves or rates one
hand (the library's ``solve``, ``solve_many`` and ``rate``, the typed clients, gRPC, ``cpsolver
batch``); where the pool cannot settle a call (constraints, 13 of 14 to 17 cards, the CP-SAT
engine) the default is the table model's answer, while a *named* ``calibrated`` there is
refused; a review of a history keeps the table model (its batch kernel)."""

from __future__ import annotations

import json

import grpc
import pytest
from click.testing import CliRunner
from helpers import wire

from cpsolver import InvalidInputError, rate, solve
from cpsolver.chinese import solve_many
from cpsolver.chinese.estimator import Estimator
from cpsolver.chinese.review import review
from cpsolver.client import LocalSolver, RemoteSolver
from cpsolver.client.cli import main
from cpsolver.v1 import chinese_poker_pb2 as pb
from cpsolver.v1 import chinese_poker_pb2_grpc as pb_grpc

HAND = "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h"  # docs/EV.md's: the two estimates differ
OTHER = "2c 3d 4h Ah Kd Qc Jd Ts As Ks Qd Jc Th"
CALIBRATED, MODEL = Estimator("calibrated"), Estimator("model")
ROWS = ("As Ad Kh Kd 2h", "Qs Jh Th 9c 8c", "7d 5s 4s")


def test_the_library_defaults_to_the_calibrated_estimate() -> None:
    default, named = solve(HAND), solve(HAND, estimator="calibrated")
    model = solve(HAND, estimator="model")
    assert default == named and default.analysis is not None
    assert default.analysis.estimator == CALIBRATED and default.analysis.ci95 is not None
    assert default.ev != model.ev  # a default of the table model would fail here
    assert solve_many([HAND, OTHER]) == [solve(HAND), solve(OTHER)]
    assert solve_many([HAND]) != solve_many([HAND], estimator="model")
    assert LocalSolver().chinese.solve(HAND) == default
    played = rate(ROWS)
    assert played.estimator == CALIBRATED and played.ev_lost_ci95 is not None
    assert played == rate(ROWS, estimator="calibrated") != rate(ROWS, estimator="model")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"constraints": "As=back Ad=back"},
        {"engine": "cpsat"},
        {"objective": "strength"},
    ],
    ids=["constraints", "cpsat", "strength"],
)
def test_where_the_pool_cannot_settle_the_default_is_the_table_model(
    kwargs: dict[str, str],
) -> None:
    default = solve(HAND, **kwargs)  # type: ignore[arg-type]
    assert default == solve(HAND, estimator="model", **kwargs)  # type: ignore[arg-type]
    if kwargs.get("objective") != "strength":  # the estimate is the ev objective's
        with pytest.raises(InvalidInputError, match="calibrated needs the ev objective"):
            solve(HAND, estimator="calibrated", **kwargs)  # type: ignore[arg-type]


def test_thirteen_of_more_cards_default_to_the_table_model() -> None:
    cards = HAND + " 3c 6d"
    chosen = solve(cards)
    assert chosen == solve(cards, estimator="model") and len(chosen.discarded) == 2
    with pytest.raises(InvalidInputError, match="calibrated needs"):
        solve(cards, estimator="calibrated")


def test_a_review_defaults_to_the_table_model() -> None:
    hand = {"player": "p", "back": ROWS[0], "middle": ROWS[1], "front": ROWS[2]}
    reviewed = review([hand])
    assert reviewed.hands[0].ev == pytest.approx(rate(ROWS, estimator="model").ev, abs=1e-9)
    assert reviewed.hands[0].ev != pytest.approx(rate(ROWS).ev, abs=1e-6)


def test_the_cli_batch_defaults_to_the_calibrated_estimate() -> None:
    out = CliRunner().invoke(main, ["batch", "-"], input=HAND + "\n")
    assert out.exit_code == 0, out.output
    record = json.loads(out.stdout.splitlines()[0])
    assert record["solution"]["estimator"] == "calibrated"
    assert record["solution"]["ev"] == solve(HAND).ev


def test_the_wire_defaults_to_the_calibrated_estimate(
    remote: RemoteSolver, grpc_channel: grpc.Channel
) -> None:
    stub = pb_grpc.ChinesePokerServiceStub(grpc_channel)
    plain = stub.Solve(pb.SolveRequest(cards=wire(HAND)), timeout=60)
    assert plain.estimator == "calibrated" and plain.value == solve(HAND).ev
    assert remote.chinese.solve(HAND) == solve(HAND)
    # Constrained: the empty estimator is the table model's answer, "calibrated" is refused.
    pins = pb.SolveConstraints(
        pins=[pb.CardPlace(card=wire("As")[0], place=pb.PLACE_BACK)]
    )  # fmt: skip
    pinned = stub.Solve(pb.SolveRequest(cards=wire(HAND), constraints=pins), timeout=60)
    assert pinned.value == solve(HAND, constraints="As=back", estimator="model").value
    with pytest.raises(grpc.RpcError) as refused:
        stub.Solve(
            pb.SolveRequest(cards=wire(HAND), constraints=pins, estimator="calibrated"),
            timeout=60,
        )
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    # The typed client sends the default as the empty field, so it falls back as in-process.
    assert remote.chinese.solve(HAND, constraints="As=back") == solve(HAND, constraints="As=back")
