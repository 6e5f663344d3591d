"""``rate`` on every surface (issue 29): the library, the CLI (in-process and ``--server``),
the typed client and the raw ``RateArrangement`` RPC of a real server process give the same
numbers; bad input is refused with the field named on each."""

from __future__ import annotations

import json

import grpc
import pytest
from helpers import run_cli, violations, wire

from cpsolver import InvalidInputError, rate
from cpsolver.client import RemoteSolver
from cpsolver.v1 import chinese_poker_pb2 as pb
from cpsolver.v1 import chinese_poker_pb2_grpc as pb_grpc

PLAYED = ("Ah Kd 9s 9c 2s", "7h 7d 5c 4s Jc", "3h 3d Td")  # valid, not the best
FOULED = ("7h 7d 5c 4s Jc", "Ah Kd 9s 9c 2s", "3h 3d Td")  # the middle beats the back
DRAGON = "As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s"
NUMBERS = ("ev", "ev_lost", "ev_lost_ci95", "rank", "choices", "mistakes", "played_best")


def numbers(doc: dict[str, object]) -> dict[str, object]:
    out = {k: doc[k] for k in NUMBERS}
    out["played"] = doc["played"]
    out["best"] = doc["best"]
    return out


def _library(played: object, estimator: str) -> dict[str, object]:
    return json.loads(json.dumps(rate(played, estimator=estimator).to_dict()))


def _ev_doc(doc: dict[str, object]) -> dict[str, object]:
    played = doc["played"]
    assert isinstance(played, dict)
    return {**doc, "ev": played["ev"]}


@pytest.mark.parametrize("estimator", ["model", "calibrated"])
def test_library_cli_client_and_rpc_give_the_same_numbers(
    server: str, remote: RemoteSolver, grpc_channel: grpc.Channel, estimator: str
) -> None:
    stub = pb_grpc.ChinesePokerServiceStub(grpc_channel)
    for played in (PLAYED, FOULED):
        mine = _ev_doc(_library(played, estimator))
        code, out, err = run_cli(["rate", *played, "--json", "--estimator", estimator])
        assert code == 0, err
        local_cli = _ev_doc(json.loads(out))
        code, out, err = run_cli(
            ["rate", *played, "--json", "--estimator", estimator, "--server", server]
        )
        assert code == 0, err
        remote_cli = _ev_doc(json.loads(out))
        client = _ev_doc(
            json.loads(json.dumps(remote.chinese.rate(played, estimator=estimator).to_dict()))
        )
        for other in (local_cli, remote_cli, client):
            assert numbers(other) == numbers(mine)
        request = pb.RateArrangementRequest(
            arrangement=pb.Arrangement(
                back=wire(played[0]), middle=wire(played[1]), front=wire(played[2])
            ),
            estimator=estimator,
        )
        response = stub.RateArrangement(request, timeout=60)
        assert response.value == mine["ev"] and response.ev_lost == mine["ev_lost"]
        assert (response.rank or None) == mine["rank"] and response.fouled == (played is FOULED)
        assert list(response.mistakes) == mine["mistakes"]
        assert response.best.value == mine["best"]["ev"]  # type: ignore[index]


def test_a_declared_natural_over_the_wire(remote: RemoteSolver, grpc_channel: grpc.Channel) -> None:
    mine = rate({"cards": DRAGON, "natural": True}, estimator="model")
    theirs = remote.chinese.rate({"cards": DRAGON, "natural": True}, estimator="model")
    assert theirs.natural is not None and theirs.natural.name == "dragon"
    assert (theirs.ev, theirs.ev_lost, theirs.rank) == (mine.ev, 0.0, 1)
    stub = pb_grpc.ChinesePokerServiceStub(grpc_channel)
    request = pb.RateArrangementRequest(
        natural=pb.TablePlayer.NaturalDeclaration(cards=wire(DRAGON)), estimator="model"
    )
    response = stub.RateArrangement(request, timeout=60)
    assert response.natural.name == "dragon" and response.value == mine.ev
    # Unnamed, the estimator is the calibrated default, as in-process.
    plain = stub.RateArrangement(
        pb.RateArrangementRequest(natural=pb.TablePlayer.NaturalDeclaration(cards=wire(DRAGON))),
        timeout=60,
    )
    default = rate({"cards": DRAGON, "natural": True})
    assert plain.estimator == "calibrated" and plain.value == default.ev


def test_bad_input_is_refused_alike(
    server: str, remote: RemoteSolver, grpc_channel: grpc.Channel
) -> None:
    bad = ("Ah Kd 9s 9c 2s", "7h Ah 5c 4s Jc", "3h 3d Td")  # Ah twice
    with pytest.raises(InvalidInputError) as mine:
        rate(bad)
    with pytest.raises(InvalidInputError) as theirs:
        remote.chinese.rate(bad)
    assert theirs.value.violations == mine.value.violations
    assert mine.value.violations[0].field == "middle[1]"
    code, _, err = run_cli(["rate", *bad])
    assert code == 2 and "middle[1]" in err and "duplicate card 'Ah'" in err
    stub = pb_grpc.ChinesePokerServiceStub(grpc_channel)
    request = pb.RateArrangementRequest(
        arrangement=pb.Arrangement(back=wire(bad[0]), middle=wire(bad[1]), front=wire(bad[2])),
        estimator="rollout:5",
    )
    with pytest.raises(grpc.RpcError) as error:
        stub.RateArrangement(request, timeout=60)
    assert error.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    found = violations(error.value)
    assert "estimator" in found and "arrangement.middle[1]" in found  # every violation
    short = pb.RateArrangementRequest(
        arrangement=pb.Arrangement(back=wire("Ah Kd 9s"), middle=wire(bad[1]), front=wire(bad[2]))
    )
    with pytest.raises(grpc.RpcError) as error:
        stub.RateArrangement(short, timeout=60)
    assert "arrangement.back" in violations(error.value)
    with pytest.raises(grpc.RpcError) as error:
        stub.RateArrangement(pb.RateArrangementRequest(), timeout=60)
    assert error.value.code() is grpc.StatusCode.INVALID_ARGUMENT
