"""Solve over gRPC with constraints, 13 of N and the engine choice (issue 8), against the real
server (``cpsolver serve`` in a subprocess): same answers as the library, FAILED_PRECONDITION
for infeasible constraints, INVALID_ARGUMENT with field paths for malformed ones.
"""

from __future__ import annotations

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from cpsolver import InfeasibleError, Row, parse_cards, solve
from cpsolver.cards import Card
from cpsolver.client.remote import RemoteSolver
from cpsolver.v1 import cards_pb2, chinese_poker_pb2, chinese_poker_pb2_grpc
from cpsolver.wire.cards import card_from_wire, card_to_wire

HAND = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"
pb = chinese_poker_pb2


def wire(text: str) -> list[cards_pb2.Card]:
    return [card_to_wire(c) for c in parse_cards(text)]


def place(card: str, where: str) -> pb.CardPlace:
    return pb.CardPlace(card=card_to_wire(Card.of(card)), place=f"PLACE_{where.upper()}")


def row_cards(arrangement: pb.Arrangement, row: str) -> set[str]:
    return {str(card_from_wire(c)) for c in getattr(arrangement, row)}


@pytest.fixture(scope="module")
def stub(grpc_channel: grpc.Channel) -> chinese_poker_pb2_grpc.ChinesePokerServiceStub:
    return chinese_poker_pb2_grpc.ChinesePokerServiceStub(grpc_channel)


def test_pins_forbids_and_minimums_reach_the_solver(
    stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub,
) -> None:
    request = pb.SolveRequest(
        cards=wire(HAND),
        objective="OBJECTIVE_ROYALTIES",
        constraints=pb.SolveConstraints(
            pins=[place("As", "front")],
            forbids=[place("Ks", "back")],
            minimums=[pb.RowMinimum(row="ROW_BACK", category="HAND_CATEGORY_FULL_HOUSE")],
        ),
    )
    response = stub.Solve(request, timeout=60)
    expected = solve(HAND, objective="royalties", constraints="As=front Ks!=back back>=full_house")
    assert response.value == expected.value
    assert "As" in row_cards(response.arrangement, "front")
    assert "Ks" not in row_cards(response.arrangement, "back")
    assert row_cards(response.arrangement, "back") == {str(c) for c in expected.back}


def test_thirteen_of_n_reports_the_discarded_cards(
    stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub,
) -> None:
    cards = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s Ac Ad"
    response = stub.Solve(pb.SolveRequest(cards=wire(cards)), timeout=60)
    expected = solve(cards)
    assert response.value == expected.value
    assert [card_from_wire(c) for c in response.discarded] == list(expected.discarded)
    assert len(response.discarded) == 2


def test_cpsat_engine_over_the_wire(stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub) -> None:
    constraints = pb.SolveConstraints(pins=[place("As", "front"), place("Ks", "front")])
    exact = stub.Solve(pb.SolveRequest(cards=wire(HAND), constraints=constraints), timeout=60)
    cpsat = stub.Solve(
        pb.SolveRequest(cards=wire(HAND), constraints=constraints, engine="ENGINE_CPSAT"),
        timeout=120,
    )
    assert cpsat.value == exact.value


def test_infeasible_constraints_are_failed_precondition(
    stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub,
) -> None:
    request = pb.SolveRequest(
        cards=wire(HAND),
        constraints=pb.SolveConstraints(
            minimums=[pb.RowMinimum(row="ROW_FRONT", category="HAND_CATEGORY_THREE_OF_A_KIND")]
        ),
    )
    with pytest.raises(grpc.RpcError) as err:
        stub.Solve(request, timeout=60)
    assert err.value.code() is grpc.StatusCode.FAILED_PRECONDITION
    assert "no valid arrangement" in (err.value.details() or "")
    request = pb.SolveRequest(
        cards=wire(HAND), constraints=pb.SolveConstraints(natural="NATURAL_POLICY_FORCE")
    )
    with pytest.raises(grpc.RpcError) as err:
        stub.Solve(request, timeout=60)
    assert err.value.code() is grpc.StatusCode.FAILED_PRECONDITION


@pytest.mark.parametrize(
    ("constraints", "field"),
    [
        (pb.SolveConstraints(pins=[pb.CardPlace(card=card_to_wire(Card.of("As")))]), "place"),
        (pb.SolveConstraints(minimums=[pb.RowMinimum(row="ROW_FRONT")]), "bound"),
        (
            pb.SolveConstraints(
                minimums=[pb.RowMinimum(row="ROW_FRONT", category="HAND_CATEGORY_FLUSH")]
            ),
            "category",
        ),
        (pb.SolveConstraints(pins=[place("Ah", "front")]), "pins"),
    ],
)
def test_malformed_constraints_are_invalid_argument(
    stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub,
    constraints: pb.SolveConstraints,
    field: str,
) -> None:
    with pytest.raises(grpc.RpcError) as err:
        stub.Solve(pb.SolveRequest(cards=wire(HAND), constraints=constraints), timeout=60)
    assert err.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    status = rpc_status.from_call(err.value)  # type: ignore[arg-type]
    assert status is not None
    fields = []
    for detail in status.details:
        bad = error_details_pb2.BadRequest()
        if detail.Unpack(bad):
            fields += [v.field for v in bad.field_violations]
    assert any(f.startswith("constraints") and field in f for f in fields), fields


def test_typed_client_sends_constraints_and_engine(grpc_server) -> None:  # type: ignore[no-untyped-def]
    cards = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s Ac Ad"
    text = "Ac=front 3s!=discard front>=pair"
    local = solve(cards, constraints=text)
    with RemoteSolver(grpc_server.address, timeout=60) as client:
        remote = client.solve(cards, constraints=text)
    assert remote.value == local.value
    assert remote.discarded == local.discarded
    assert Card.of("Ac") in remote.front and Card.of("3s") not in remote.discarded
    assert remote.hands[Row.FRONT].category >= local.hands[Row.FRONT].category


def test_a_hand_minimum_travels_as_its_strength_under_the_rules_wheel(remote) -> None:  # type: ignore[no-untyped-def]
    """The wire has no hand bound: the typed client sends the hand's strength class, which the
    library computes under the solve's wheel. With ``wheel=second_highest`` the wheel straight
    ranks above the six-high one, so these cards cannot meet ``middle>=5s4h3d2cAh``; under the
    default wheel the six-high straight can (a bound computed with the default wheel would
    make the remote solve feasible where the local one is not)."""
    cards = "As Ks Qs 9s 7s 2c 3d 4h 5d 6c Kd Qd Jh"
    bound = "middle>=5s4h3d2cAh"
    local = solve(cards, objective="strength", constraints=bound)
    assert remote.solve(cards, objective="strength", constraints=bound) == local
    with pytest.raises(InfeasibleError) as here:
        solve(cards, objective="strength", wheel="second_highest", constraints=bound)
    with pytest.raises(InfeasibleError) as there:
        remote.solve(cards, objective="strength", wheel="second_highest", constraints=bound)
    assert str(there.value) == str(here.value)
