"""User input never produces INTERNAL (issue 4): random requests get OK or INVALID_ARGUMENT.

Hypothesis builds arbitrary (mostly malformed) requests: any numbers for ranks, suits and rule
enums (including unknown ones), any card counts, presets, top_k values; every call goes over
the network to the shared server.
"""

from __future__ import annotations

import grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpsolver.v1 import cards_pb2, chinese_poker_pb2, chinese_poker_pb2_grpc

ALLOWED = {grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT}

cards = st.lists(
    st.builds(
        cards_pb2.Card,
        rank=st.integers(min_value=-3, max_value=16),
        suit=st.integers(min_value=-1, max_value=6),
    ),
    max_size=15,
)
enum_number = st.integers(min_value=-1, max_value=5)
rules = st.builds(
    chinese_poker_pb2.ChineseRules,
    preset=st.sampled_from(["", "standard", "two_four", "eastern", "house", "STANDARD"]),
    players=st.one_of(st.none(), st.integers(min_value=-2, max_value=6)),
    order=enum_number,
    wheel=enum_number,
    royalties=enum_number,
    royalty_mode=enum_number,
    scoring=enum_number,
    naturals=st.one_of(st.none(), st.booleans()),
)
solve_requests = st.builds(
    chinese_poker_pb2.SolveRequest,
    cards=cards,
    rules=rules,
    objective=enum_number,
    top_k=st.integers(min_value=-2, max_value=200),
)


def _code(call) -> grpc.StatusCode:  # type: ignore[no-untyped-def]
    try:
        call()
    except grpc.RpcError as exc:
        return exc.code()
    return grpc.StatusCode.OK


@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(request=solve_requests)
def test_solve_never_internal(grpc_channel, request) -> None:
    stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(grpc_channel)
    assert _code(lambda: stub.Solve(request, timeout=10)) in ALLOWED


@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(hand=cards, wire_rules=rules)
def test_evaluate_hand_never_internal(grpc_channel, hand, wire_rules) -> None:
    stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(grpc_channel)
    request = chinese_poker_pb2.EvaluateHandRequest(cards=hand, rules=wire_rules)
    assert _code(lambda: stub.EvaluateHand(request, timeout=10)) in ALLOWED


@settings(max_examples=20, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(items=st.lists(solve_requests, max_size=5))
def test_batch_items_never_internal(grpc_channel, items) -> None:
    """Each streamed item's own status is OK or INVALID_ARGUMENT too."""
    stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(grpc_channel)
    replies = list(stub.BatchSolve(chinese_poker_pb2.BatchSolveRequest(requests=items), timeout=30))
    assert [r.index for r in replies] == list(range(len(items)))
    assert {r.status.code for r in replies} <= {0, grpc.StatusCode.INVALID_ARGUMENT.value[0]}
