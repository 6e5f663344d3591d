"""The gRPC service over the network (issue 4): every call goes to a real ``cpsolver serve``.

Results are compared with the library's; errors must be INVALID_ARGUMENT with a
google.rpc.BadRequest naming the field (zero-based indexes, as google.rpc.BadRequest documents).
"""

from __future__ import annotations

import json

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)
from helpers import SUIT_TO_WIRE, violations, wire

from cpsolver import evaluate
from cpsolver.cards import Card
from cpsolver.v1 import cards_pb2, chinese_poker_pb2, chinese_poker_pb2_grpc

SERVICE = "cpsolver.v1.ChinesePokerService"
WHEEL_SECOND = chinese_poker_pb2.ChineseRules.WHEEL_SECOND_HIGHEST


def from_wire(cards: list[cards_pb2.Card]) -> list[Card]:
    suits = {v: k for k, v in SUIT_TO_WIRE.items()}
    return [Card.of(f"{'0023456789TJQKA'[c.rank]}{suits[c.suit].value}") for c in cards]


@pytest.fixture(scope="module")
def stub(grpc_channel: grpc.Channel) -> chinese_poker_pb2_grpc.ChinesePokerServiceStub:
    return chinese_poker_pb2_grpc.ChinesePokerServiceStub(grpc_channel)


# --- EvaluateHand -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["Jh Js 4c 4d Jd", "Qs Qd 2c", "As Ks Qs Js Ts", "Ah 2d 3h 4s 5c", "9s 9d Kc", "2c 3d 4h"],
)
def test_evaluate_hand_equals_library(stub, text: str) -> None:
    """EvaluateHand returns the library's evaluation (CP-3, CP-4, CP-5 scale)."""
    expected = evaluate(text)
    hand = stub.EvaluateHand(chinese_poker_pb2.EvaluateHandRequest(cards=wire(text))).hand
    assert hand.strength == expected.strength
    assert hand.name == expected.name
    assert chinese_poker_pb2.HandCategory.Name(hand.category) == (
        "HAND_CATEGORY_" + expected.category.name
    )
    assert hand.royal == expected.is_royal
    assert from_wire(list(hand.cards)) == list(expected.cards)


def test_evaluate_hand_wheel_option_cp_e4(stub) -> None:
    """CP-E4: 6-high straight beats the wheel; with wheel=second_highest it loses."""

    def strength(text: str, wheel: int = 0) -> int:
        rules = chinese_poker_pb2.ChineseRules(wheel=wheel)
        request = chinese_poker_pb2.EvaluateHandRequest(cards=wire(text), rules=rules)
        return stub.EvaluateHand(request).hand.strength

    six_high, wheel = "6s 5h 4d 3c 2s", "Ah 2d 3h 4s 5c"
    assert strength(six_high) > strength(wheel)
    assert strength(six_high, WHEEL_SECOND) < strength(wheel, WHEEL_SECOND)


# --- errors: INVALID_ARGUMENT with BadRequest field violations ----------------------------


@pytest.mark.parametrize(
    ("cards", "rules", "field", "says"),
    [
        ([*wire("As Ks Qs Js"), *wire("As")], None, "cards[4]", "duplicate"),
        (wire("As Ks Qs Js"), None, "cards", "expected 3 or 5 cards, got 4"),
        ([*wire("As Ks Qs Js"), cards_pb2.Card(rank=cards_pb2.RANK_TWO)], None, "cards[4].suit",
         "required"),
        ([*wire("As Ks"), cards_pb2.Card(rank=15, suit=1)], None, "cards[2].rank", "unknown"),
        (wire("As Ks Qs"), chinese_poker_pb2.ChineseRules(preset="house"), "rules.preset",
         "valid presets: standard"),
        (wire("As Ks Qs"), chinese_poker_pb2.ChineseRules(players=5), "rules.players", "2 to 4"),
        (wire("As Ks Qs"), chinese_poker_pb2.ChineseRules(order=9), "rules.order", "unknown"),
    ],
)  # fmt: skip
def test_bad_input_is_invalid_argument_naming_the_field(stub, cards, rules, field, says) -> None:
    """Bad or duplicate cards, wrong counts, unknown options -> INVALID_ARGUMENT + BadRequest."""
    request = chinese_poker_pb2.EvaluateHandRequest(cards=cards, rules=rules)
    with pytest.raises(grpc.RpcError) as caught:
        stub.EvaluateHand(request)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    found = violations(caught.value)
    assert field in found, found
    assert says in found[field]


def test_every_bad_card_is_reported(stub) -> None:
    """Two unusable cards give a violation each, not just the first."""
    cards = [cards_pb2.Card(), *wire("Ks Qs Js"), cards_pb2.Card(suit=cards_pb2.SUIT_HEARTS)]
    with pytest.raises(grpc.RpcError) as caught:
        stub.EvaluateHand(chinese_poker_pb2.EvaluateHandRequest(cards=cards))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert set(violations(caught.value)) == {"cards[0].rank", "cards[0].suit", "cards[4].rank"}


# --- health, reflection, access log -------------------------------------------------------


def test_health_serving_per_service(grpc_channel) -> None:
    health = health_pb2_grpc.HealthStub(grpc_channel)
    for name in ("", SERVICE):
        reply = health.Check(health_pb2.HealthCheckRequest(service=name), timeout=5)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
    with pytest.raises(grpc.RpcError) as caught:
        health.Check(health_pb2.HealthCheckRequest(service="no.such.Service"), timeout=5)
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND


def test_reflection_lists_and_describes_services(grpc_channel) -> None:
    database = ProtoReflectionDescriptorDatabase(grpc_channel)
    services = set(database.get_services())
    assert {SERVICE, "grpc.health.v1.Health"} <= services
    proto = database.FindFileContainingSymbol(SERVICE)
    methods = {m.name for s in proto.service for m in s.method}
    assert {"Solve", "BatchSolve", "EvaluateHand", "ValidateArrangement", "ScoreTable"} <= methods


def test_one_access_log_line_per_call(grpc_server, stub) -> None:
    """Each call logs one JSON line with method, status and latency."""
    stub.EvaluateHand(chinese_poker_pb2.EvaluateHandRequest(cards=wire("2c 2d 2h")))
    with pytest.raises(grpc.RpcError):
        stub.EvaluateHand(chinese_poker_pb2.EvaluateHandRequest(cards=wire("2c 2d")))
    import time

    time.sleep(0.2)  # the server writes the line after the response
    records = [json.loads(line) for line in list(grpc_server.stderr) if '"event": "rpc"' in line]
    evaluate_calls = [r for r in records if r["method"].endswith("/EvaluateHand")]
    statuses = {r["status"] for r in evaluate_calls}
    assert {"OK", "INVALID_ARGUMENT"} <= statuses
    assert all(isinstance(r["latency_ms"], float) and r["latency_ms"] >= 0 for r in evaluate_calls)
