"""Every violation of a bad ``Solve`` at once (issue 27, defect 5).

One bad ``Solve`` (a card without suit, a duplicate As, ``top_k: 500``, ``rollouts: 999999``)
took four round trips, each reply reporting one validation stage. The library's ``solve`` and
``solve_many``, the typed client and the server (``Solve`` and each ``BatchSolve`` item, a real
server on loopback) now report every violation in one error: one INVALID_ARGUMENT whose
google.rpc.BadRequest lists each field.
"""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from helpers import wire

import cpsolver
from cpsolver.client.remote import RemoteSolver
from cpsolver.errors import CardError, InvalidInputError
from cpsolver.v1 import cards_pb2, chinese_poker_pb2, chinese_poker_pb2_grpc

# The fifth card repeats the first; the issue's request also has a card without its suit.
DUPLICATE = "As Kd Qh Jc As 9d 8h 7c 5s 5d 4h 3c 2s"
DUP = "duplicate card 'As' (also cards[0])"
ROLLOUTS = "must be 0 to 20000, got 999999"


def _cards(text: str) -> list[cards_pb2.Card]:
    """Card messages one token at a time (``wire`` refuses the duplicates sent on purpose)."""
    return [card for token in text.split() for card in wire(token)]


def _issue_request() -> chinese_poker_pb2.SolveRequest:
    cards = _cards(DUPLICATE)
    cards[7].ClearField("suit")  # 7c without its suit
    return chinese_poker_pb2.SolveRequest(cards=cards, top_k=500, rollouts=999_999)


def _bad_request(status: Any) -> list[tuple[str, str]]:
    for detail in status.details:
        bad = error_details_pb2.BadRequest()
        if detail.Unpack(bad):
            return [(v.field, v.description) for v in bad.field_violations]
    raise AssertionError("no BadRequest")


# --- the library -------------------------------------------------------------------------


def test_solve_reports_every_violation_in_one_error() -> None:
    hand = DUPLICATE.replace("7c", "7")  # the eighth card without its suit
    with pytest.raises(CardError) as info:
        cpsolver.solve(hand, alternatives=500, rollouts=999_999, engine="fast", order="sideways")
    found = [(v.path, v.description) for v in info.value.violations]
    assert [path for path, _ in found] == [
        ("cards", 4), ("cards", 7), ("rules", "order"), ("rollouts",), ("alternatives",),
        ("engine",),
    ]  # fmt: skip
    assert found[0][1] == DUP and found[3][1] == ROLLOUTS
    assert (info.value.token, info.value.position) == ("As", 4)  # the first problem's


def test_solve_many_reports_every_bad_hand_in_one_error() -> None:
    good = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"
    with pytest.raises(InvalidInputError) as info:
        cpsolver.solve_many([good, DUPLICATE, "As Ks"], objective="luck", budget_ms=-1)
    assert [v.path for v in info.value.violations] == [
        ("objective",),
        ("budget_ms",),
        ("hands", 1, 4),
        ("hands", 2),
    ]


# --- a real server -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def stub(grpc_channel: grpc.Channel) -> chinese_poker_pb2_grpc.ChinesePokerServiceStub:
    return chinese_poker_pb2_grpc.ChinesePokerServiceStub(grpc_channel)


def test_one_solve_reply_lists_every_violation(
    stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub,
) -> None:
    """The issue's request: one round trip, one INVALID_ARGUMENT, four field violations."""
    with pytest.raises(grpc.RpcError) as caught:
        stub.Solve(_issue_request(), timeout=60)
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    status = rpc_status.from_call(caught.value)  # type: ignore[arg-type]
    assert _bad_request(status) == [
        ("cards[4]", DUP),
        ("cards[7].suit", "suit is required"),
        ("rollouts", ROLLOUTS),
        ("top_k", "must be 0 to 100, got 500"),
    ]


def test_readable_cards_are_checked_with_the_other_fields(
    stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub,
) -> None:
    """Every card readable: the library's duplicate is reported with the server's own limit."""
    request = chinese_poker_pb2.SolveRequest(cards=_cards(DUPLICATE), top_k=500, rollouts=999_999)
    with pytest.raises(grpc.RpcError) as caught:
        stub.Solve(request, timeout=60)
    status = rpc_status.from_call(caught.value)  # type: ignore[arg-type]
    assert [field for field, _ in _bad_request(status)] == ["rollouts", "top_k", "cards[4]"]


def test_a_batch_item_lists_every_violation(
    stub: chinese_poker_pb2_grpc.ChinesePokerServiceStub,
) -> None:
    good = chinese_poker_pb2.SolveRequest(cards=_cards("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"))
    replies = list(
        stub.BatchSolve(
            chinese_poker_pb2.BatchSolveRequest(requests=[good, _issue_request()]), timeout=60
        )
    )
    assert [r.status.code for r in replies] == [0, grpc.StatusCode.INVALID_ARGUMENT.value[0]]
    assert [field for field, _ in _bad_request(replies[1].status)] == [
        "cards[4]", "cards[7].suit", "rollouts", "top_k"
    ]  # fmt: skip


def test_the_typed_client_raises_the_librarys_error(server: str) -> None:
    def call(solve: Any) -> InvalidInputError:
        with pytest.raises(InvalidInputError) as info:
            solve(DUPLICATE, engine="fast", constraints="As=top")
        return info.value

    here = call(cpsolver.solve)
    with RemoteSolver(server) as remote:
        there = call(remote.solve)
    assert type(there) is type(here) is CardError
    assert str(there) == str(here)
    assert [v.path for v in here.violations] == [
        ("cards", 4),
        ("constraints", 0),
        ("engine",),
    ]
