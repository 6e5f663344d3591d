"""Solve and BatchSolve over the network (issue 4): answers equal the library's, per-item status.

Cards on the wire are built by the tests' own converter (tests/test_server.py), not the server's.
"""

from __future__ import annotations

import json
import random
import signal
import time

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from cpsolver import solve
from cpsolver.cards import Card, format_cards
from cpsolver.rules import Row
from cpsolver.v1 import chinese_poker_pb2, chinese_poker_pb2_grpc
from tests.test_server import from_wire, violations, wire

RULES = chinese_poker_pb2.ChineseRules
STOPPED = ("DEADLINE_EXCEEDED", "CANCELLED")
ROWS = {Row.FRONT: "ROW_FRONT", Row.MIDDLE: "ROW_MIDDLE", Row.BACK: "ROW_BACK"}


def random_hands(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [
        format_cards(Card.from_index(i) for i in rng.sample(range(52), 13)) for _ in range(count)
    ]


@pytest.fixture(scope="module")
def stub(grpc_channel: grpc.Channel) -> chinese_poker_pb2_grpc.ChinesePokerServiceStub:
    return chinese_poker_pb2_grpc.ChinesePokerServiceStub(grpc_channel)


def assert_same_solution(response: chinese_poker_pb2.SolveResponse, expected) -> None:
    """The wire answer describes exactly the library's Solution."""
    assert from_wire(list(response.arrangement.back)) == list(expected.back)
    assert from_wire(list(response.arrangement.middle)) == list(expected.middle)
    assert from_wire(list(response.arrangement.front)) == list(expected.front)
    assert response.value == pytest.approx(expected.value)
    assert response.royalties == sum(expected.royalties.values())
    assert chinese_poker_pb2.Objective.Name(response.objective) == (
        "OBJECTIVE_" + expected.objective.upper()
    )
    by_row = {chinese_poker_pb2.Row.Name(r.row): r for r in response.rows}
    for row, name in ROWS.items():
        assert by_row[name].hand.strength == expected.hands[row].strength
        assert by_row[name].hand.name == expected.hands[row].name
        assert by_row[name].royalty == expected.royalties[row]
    if expected.natural is None:
        assert not response.HasField("natural")
    else:
        assert response.natural.units == expected.natural.units
        assert chinese_poker_pb2.NaturalKind.Name(response.natural.kind) == (
            "NATURAL_KIND_" + expected.natural.kind.name
        )
    assert len(response.alternatives) == len(expected.alternatives)
    for alt, exp in zip(response.alternatives, expected.alternatives, strict=True):
        assert from_wire(list(alt.arrangement.back)) == list(exp.back)
        assert alt.value == pytest.approx(exp.value)
        assert alt.gap == pytest.approx(expected.value - exp.value)


@pytest.mark.parametrize(
    ("wire_rules", "objective", "library"),
    [
        (None, 0, {}),
        (RULES(preset="two_four"), 0, {"rules": "two_four"}),
        (RULES(order=RULES.ORDER_STRICT), chinese_poker_pb2.OBJECTIVE_STRENGTH,
         {"order": "strict", "objective": "strength"}),
        (RULES(wheel=RULES.WHEEL_SECOND_HIGHEST), chinese_poker_pb2.OBJECTIVE_STRENGTH,
         {"wheel": "second_highest", "objective": "strength"}),
        (RULES(preset="eastern"), chinese_poker_pb2.OBJECTIVE_ROYALTIES,
         {"rules": "eastern", "objective": "royalties"}),
        (None, chinese_poker_pb2.OBJECTIVE_STRENGTH, {"objective": "strength"}),
    ],
)  # fmt: skip
def test_solve_equals_library(stub, wire_rules, objective, library) -> None:
    for text in random_hands(8, seed=4):
        request = chinese_poker_pb2.SolveRequest(
            cards=wire(text), rules=wire_rules, objective=objective, top_k=2
        )
        assert_same_solution(stub.Solve(request), solve(text, alternatives=2, **library))


@pytest.mark.parametrize(
    ("text", "kind", "units"),
    [
        ("As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s", "NATURAL_KIND_DRAGON", 13),  # CP-E10
        ("2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As", "NATURAL_KIND_SIX_PAIRS", 3),  # CP-E9
    ],
)
def test_solve_reports_naturals_cp_e9_e10(stub, text: str, kind: str, units: int) -> None:
    response = stub.Solve(chinese_poker_pb2.SolveRequest(cards=wire(text)))
    assert chinese_poker_pb2.NaturalKind.Name(response.natural.kind) == kind
    assert response.natural.units == units
    assert sorted(c for g in response.natural.groups for c in from_wire(list(g.cards))) == sorted(
        Card.of(t) for t in text.split()
    )
    assert_same_solution(response, solve(text))


HAND = wire(random_hands(1, 1)[0])


@pytest.mark.parametrize(
    ("request_", "field", "says"),
    [
        (chinese_poker_pb2.SolveRequest(cards=HAND[:12]), "cards",
         "expected 13 cards, got 12"),
        (chinese_poker_pb2.SolveRequest(cards=[*HAND[:12], HAND[0]]), "cards[12]", "duplicate"),
        (chinese_poker_pb2.SolveRequest(cards=HAND, objective=42),
         "objective", "unknown value 42"),
        (chinese_poker_pb2.SolveRequest(cards=HAND, top_k=-1),
         "top_k", "must be 0 to"),
        (chinese_poker_pb2.SolveRequest(cards=HAND,
                                        rules=RULES(royalties=17)), "rules.royalties", "unknown"),
    ],
)  # fmt: skip
def test_solve_bad_input_names_the_field(stub, request_, field: str, says: str) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        stub.Solve(request_)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    found = violations(caught.value)
    assert says in found.get(field, ""), found


# --- BatchSolve ------------------------------------------------------------------------------


def test_batch_solve_streams_in_order_with_per_item_status(stub) -> None:
    """One bad hand does not fail the batch: it gets its own INVALID_ARGUMENT status."""
    hands = random_hands(6, seed=9)
    requests = [chinese_poker_pb2.SolveRequest(cards=wire(h)) for h in hands]
    requests[2].cards.pop()  # 12 cards
    requests[4].cards[3].CopyFrom(requests[4].cards[0])  # duplicate
    replies = list(stub.BatchSolve(chinese_poker_pb2.BatchSolveRequest(requests=requests)))
    assert [r.index for r in replies] == list(range(6))
    for i, reply in enumerate(replies):
        if i in (2, 4):
            assert reply.status.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
            assert not reply.HasField("response")
            continue
        assert reply.status.code == 0
        assert_same_solution(reply.response, solve(hands[i]))
    bad = rpc_status.to_status(replies[2].status)
    assert bad.code == grpc.StatusCode.INVALID_ARGUMENT
    details = {}
    for item in (replies[2], replies[4]):
        request_errors = []
        for any_detail in item.status.details:
            request_error = error_details_pb2.BadRequest()
            if any_detail.Unpack(request_error):  # beside it: the ErrorInfo naming the class
                request_errors.append(request_error)
        assert len(request_errors) == 1, item.status
        details.update({v.field: v.description for v in request_errors[0].field_violations})
    assert "expected 13 cards, got 12" in details["cards"]
    assert "duplicate" in details["cards[3]"]


def test_batch_over_the_limit_is_invalid_argument(stub) -> None:
    requests = [chinese_poker_pb2.SolveRequest()] * 10_001
    with pytest.raises(grpc.RpcError) as caught:
        list(stub.BatchSolve(chinese_poker_pb2.BatchSolveRequest(requests=requests)))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "at most 10000" in violations(caught.value)["requests"]


def test_batch_deadline_stops_the_work(grpc_server, stub) -> None:
    """A short deadline ends in DEADLINE_EXCEEDED and the server stops solving that batch."""
    requests = [chinese_poker_pb2.SolveRequest(cards=wire(h)) for h in random_hands(3000, 5)]
    start = time.perf_counter()
    with pytest.raises(grpc.RpcError) as caught:
        for _ in stub.BatchSolve(
            chinese_poker_pb2.BatchSolveRequest(requests=requests), timeout=0.3
        ):
            pass
    assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert time.perf_counter() - start < 2.0
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        records = [json.loads(x) for x in list(grpc_server.stderr) if '"event": "rpc"' in x]
        stopped = [
            r for r in records if r["method"].endswith("/BatchSolve") and r["status"] in STOPPED
        ]
        if stopped:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the server never logged the batch as stopped")
    # 3000 hands take seconds; the server gave up soon after the 0.3 s deadline.
    assert max(r["latency_ms"] for r in stopped) < 2000


def test_sigterm_lets_the_call_in_flight_finish(serve_grpc) -> None:
    """SIGTERM during a BatchSolve: every item still arrives, then the server exits 0."""
    hands = random_hands(400, seed=11)
    requests = [chinese_poker_pb2.SolveRequest(cards=wire(h)) for h in hands]
    with serve_grpc("--workers", "1", "--grace", "30") as server:
        stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(server.channel())
        stream = stub.BatchSolve(chinese_poker_pb2.BatchSolveRequest(requests=requests), timeout=60)
        first = next(stream)
        server.proc.send_signal(signal.SIGTERM)
        rest = list(stream)
        replies = [first, *rest]
        assert [r.index for r in replies] == list(range(len(hands)))
        assert all(r.status.code == 0 for r in replies)
        assert server.proc.wait(timeout=30) == 0
        with pytest.raises(grpc.RpcError):
            stub.Solve(chinese_poker_pb2.SolveRequest(cards=wire(hands[0])), timeout=2)


def test_short_deadline_on_a_long_rollout_frees_the_worker(serve_grpc) -> None:
    """20,000 rollouts take many seconds; a 0.5 s deadline ends the call in DEADLINE_EXCEEDED,
    the server stops the rollouts right after it (access log latency) and keeps serving."""
    hand = wire("As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s")
    with serve_grpc("--workers", "1") as server:
        stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(server.channel())
        long = chinese_poker_pb2.SolveRequest(
            cards=hand, objective=chinese_poker_pb2.OBJECTIVE_EV, rollouts=20_000, seed=1
        )
        with pytest.raises(grpc.RpcError) as caught:
            stub.Solve(long, timeout=0.5)
        assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        start = time.perf_counter()
        quick = stub.Solve(chinese_poker_pb2.SolveRequest(cards=hand), timeout=30)
        assert quick.rows
        assert time.perf_counter() - start < 5.0
        time.sleep(0.3)
        records = [json.loads(x) for x in list(server.stderr) if '"event": "rpc"' in x]
        stopped = [r for r in records if r["status"] == "DEADLINE_EXCEEDED"]
        assert len(stopped) == 1, records
        # The rollouts stopped soon after the 0.5 s deadline, not after 20,000 deals.
        assert stopped[0]["latency_ms"] < 3000, stopped


def test_rollouts_reproduce_for_a_seed(stub) -> None:
    """Same seed, same rollout answer (issue 3), over the wire."""
    hand = wire("As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s")
    request = chinese_poker_pb2.SolveRequest(
        cards=hand, objective=chinese_poker_pb2.OBJECTIVE_EV, rollouts=200, seed=7
    )
    first, second = stub.Solve(request, timeout=60), stub.Solve(request, timeout=60)
    assert first.rollouts == second.rollouts == 200
    assert first.value == second.value
    assert first.value_interval.low <= first.value <= first.value_interval.high
