"""Errors keep their meaning across the wire.

1. The status mapping of ``cpsolver.wire.status`` both ways, without a server: every library
   exception class comes back as itself with its attributes.
2. Every RPC that names a field: the same bad input in-process (the library) and on the wire
   (a raw stub of the real server). The BadRequest field is the library's path with list
   indexes from 0, as the library's text shows it, and the request's names
   (``hands[1].cards[0]`` for the library's ``hands[1][0]``), the description is the
   library's, and an ErrorInfo names the class and carries its attributes. The expected
   paths are written out here, not computed with the code under test.
3. The typed client raises what an in-process call raises: the same class, attributes
   (``vars``) and text, for each game, with inputs the client cannot check before sending (the
   server finds the error).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from helpers import SUIT_TO_WIRE, wire

import cpsolver
from cpsolver import CardError, IllegalPlayError, InfeasibleError, InvalidInputError, RuleError
from cpsolver.cards import Suit, parse_cards
from cpsolver.chinese import solve
from cpsolver.chinese.ev_model import MissingTablesError
from cpsolver.chinese.scoring import check_arrangement, score
from cpsolver.chlust import advise_play, deal, parse_hands, play_deal
from cpsolver.chlust import showdown as chlust_showdown
from cpsolver.chlust.advice import showdown_odds
from cpsolver.client import LocalSolver, RemoteSolver
from cpsolver.errors import CpsolverError, FieldViolation
from cpsolver.evaluator.chlust import evaluate_set
from cpsolver.evaluator.khlyust import evaluate_khlyust
from cpsolver.evaluator.poker import evaluate
from cpsolver.rules import ChlustRules
from cpsolver.three_leaves import Choices, Deal, advise_hand, leaf_trick
from cpsolver.three_leaves import play_deal as play_leaves
from cpsolver.tricks import Trick
from cpsolver.v1 import (
    cards_pb2,
    chinese_poker_pb2,
    chinese_poker_pb2_grpc,
    chlust_pb2,
    chlust_pb2_grpc,
    three_leaves_pb2,
    three_leaves_pb2_grpc,
)
from cpsolver.wire.status import (
    REASONS,
    RequestTooLargeError,
    exception_from_status,
    parse_wire_path,
    status_from_exception,
    wire_path,
)

HAND = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"
TL_E6 = ["As Kh 8d", "Ks 9h Jc", "Ts Ah Qd", "Qs 8c Ac"]
TL_E6_PLAYS = "As Ks Ts Qs Kh 9h Ah ~8c Qd ~Ac 8d ~Jc"
CH_E11 = ["Ah Td Kc", "Kh Ad Js", "Qh Jd Tc"]
FOUR_IN_FRONT = "As=front Ks=front Qs=front Js=front"


def same(a: BaseException, b: BaseException) -> None:
    """The same class, the same attributes (violations with their paths, token, rule...) and
    the same text."""
    assert type(a) is type(b), (type(a), type(b))
    assert vars(a) == vars(b)
    assert str(a) == str(b)


def raised(call: Callable[[], object]) -> CpsolverError:
    with pytest.raises(CpsolverError) as caught:
        call()
    return caught.value


# -- 1. the mapping, both ways -----------------------------------------------------------


def _library_exceptions() -> set[type[CpsolverError]]:
    """Every exception class the library defines for its callers' input (the classes a server
    can raise for a request), found by importing each module."""
    for info in pkgutil.walk_packages(cpsolver.__path__, prefix="cpsolver."):
        importlib.import_module(info.name)
    found: set[type[CpsolverError]] = set()
    todo: list[type[CpsolverError]] = [InvalidInputError, InfeasibleError]
    while todo:
        kind = todo.pop()
        if kind.__module__.startswith("cpsolver.") and "wire" not in kind.__module__:
            found.add(kind)
        todo.extend(kind.__subclasses__())
    return found


def test_every_library_input_error_has_an_error_info_reason() -> None:
    """A new exception class in the library gets a line in wire.status (else a remote caller
    would get its base class)."""
    library = _library_exceptions()
    assert {CardError, RuleError, IllegalPlayError, MissingTablesError} <= library
    assert library <= set(REASONS.values())


ROUND_TRIPS = [
    InvalidInputError(("rules", "players"), "must be 2, 3 or 4, got 5"),
    InvalidInputError(violations=[FieldViolation(("cards", 0, "rank"), "rank is required"),
                                  FieldViolation(("cards", 4, "suit"), "suit is required")]),
    CardError(("hands", 1, 2), "duplicate card 'As' (also cards[0])", token="As", position=2),
    CardError("cards", "expected 13 cards, got 12"),
    RuleError("rules.order", "unknown value 'sideways'"),
    IllegalPlayError(("plays", 4), "seat 1 may not play Ad", rule="CH-8"),
    MissingTablesError("rules", "no trained expected-value tables for this rule set"),
    RequestTooLargeError("requests", "at most 3 hands per batch, got 4", limit=3),
    InvalidInputError("", "no field: the whole request"),
]  # fmt: skip


@pytest.mark.parametrize("error", ROUND_TRIPS, ids=lambda e: type(e).__name__)
def test_status_round_trip_keeps_class_and_attributes(error: InvalidInputError) -> None:
    back = exception_from_status(status_from_exception(error))
    assert back is not None
    same(back, error)


def test_infeasible_round_trip() -> None:
    error = InfeasibleError("no valid arrangement satisfies the constraints")
    back = exception_from_status(status_from_exception(error))
    assert back is not None
    same(back, error)


def test_a_bug_is_internal_and_says_nothing() -> None:
    status = status_from_exception(KeyError("secret"))
    assert status.code == grpc.StatusCode.INTERNAL.value[0]
    assert "secret" not in status.message and not status.details
    assert exception_from_status(status) is None


def test_details_are_the_standard_ones() -> None:
    """BadRequest (0-based paths), ErrorInfo (reason, domain, attributes as text) and, for a
    request over a server's limit, QuotaFailure with the limit as a number."""
    sent = CardError(("hands", 1, 2), "duplicate card 'As'", token="As", position=2)
    status = status_from_exception(sent)
    bad, info = error_details_pb2.BadRequest(), error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(bad) and status.details[1].Unpack(info)
    assert [(v.field, v.description) for v in bad.field_violations] == [
        ("hands[1][2]", "duplicate card 'As'")
    ]
    assert (info.reason, info.domain) == ("CARD_ERROR", "cpsolver")
    assert dict(info.metadata) == {"token": "As", "position": "2"}
    assert status.message == "hands[1][2]: duplicate card 'As'"
    capped = status_from_exception(RequestTooLargeError("requests", "at most 3", limit=3))
    quota = error_details_pb2.QuotaFailure()
    assert capped.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert capped.details[2].Unpack(quota)
    assert [(v.subject, v.quota_value) for v in quota.violations] == [("requests", 3)]


def test_a_status_without_error_info_is_the_base_class() -> None:
    """A server that sends only BadRequest (or a limit without its QuotaFailure) still gives an
    InvalidInputError with the violations."""
    status = status_from_exception(RequestTooLargeError("requests", "too many", limit=3))
    del status.details[1:]
    back = exception_from_status(status)
    assert type(back) is InvalidInputError
    assert back.violations == (FieldViolation("requests", "too many"),)


@pytest.mark.parametrize(
    ("path", "text"),
    [
        (("cards", 4), "cards[4]"),
        (("players", 1, "arrangement", "back", 0), "players[1].arrangement.back[0]"),
        (("hands", 1, "cards", 0, "rank"), "hands[1].cards[0].rank"),
        (("rules", "order"), "rules.order"),
        ((), ""),
    ],
)
def test_wire_paths_index_from_zero_and_read_back(path: tuple[str | int, ...], text: str) -> None:
    assert wire_path(path) == text
    assert parse_wire_path(text) == path


# -- 2. every RPC that names a field: the same input in-process and on the wire -------------


def _cards(text: str) -> list[cards_pb2.Card]:
    """Card messages one token at a time (helpers.wire parses the whole list, so it refuses
    the duplicates these requests carry on purpose)."""
    return [card for token in text.split() for card in wire(token)]


def _tl_hands(*texts: str) -> list[three_leaves_pb2.LeavesHand]:
    return [three_leaves_pb2.LeavesHand(cards=_cards(t)) for t in texts]


def _ch_hands(*texts: str) -> list[chlust_pb2.ChlustHand]:
    return [chlust_pb2.ChlustHand(cards=_cards(t)) for t in texts]


def _leaf_plays(text: str) -> list[three_leaves_pb2.LeafPlay]:
    return [
        three_leaves_pb2.LeafPlay(card=wire(t.lstrip("~"))[0], face_down=t.startswith("~"))
        for t in text.split()
    ]


CH = ChlustRules()
SPADES = SUIT_TO_WIRE[Suit.SPADES]
HEARTS = SUIT_TO_WIRE[Suit.HEARTS]
DIAMONDS = SUIT_TO_WIRE[Suit.DIAMONDS]

# (id, service, method, request, the in-process call, wire field, the library's field (its
#  own names, indexes from 0), ErrorInfo reason, ErrorInfo metadata)
RPC_CASES: list[tuple[str, str, str, Any, Callable[[], object], str, str, str, dict[str, str]]]
RPC_CASES = [
    ("Solve", "chinese", "Solve",
     chinese_poker_pb2.SolveRequest(cards=_cards("As Ks As Js Ts 9h 9d 9c 2h 2d 7c 5d 3s")),
     lambda: solve("As Ks As Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"),
     "cards[2]", "cards[2]", "CARD_ERROR", {"token": "As", "position": "2"}),
    ("EvaluateHand", "chinese", "EvaluateHand",
     chinese_poker_pb2.EvaluateHandRequest(cards=_cards("Qs Qd Qs")),
     lambda: evaluate("Qs Qd Qs"),
     "cards[2]", "cards[2]", "CARD_ERROR", {"token": "Qs", "position": "2"}),
    ("ValidateArrangement", "chinese", "ValidateArrangement",
     chinese_poker_pb2.ValidateArrangementRequest(arrangement=chinese_poker_pb2.Arrangement(
         back=_cards("As Ks Qs Js Ts"), middle=_cards("9h 9d 9c 2h 2d"),
         front=_cards("7c 5d Ks"))),
     lambda: check_arrangement("As Ks Qs Js Ts", "9h 9d 9c 2h 2d", "7c 5d Ks"),
     "arrangement.front[2]", "front[2]", "CARD_ERROR", {"token": "Ks", "position": "2"}),
    ("ScoreTable", "chinese", "ScoreTable",
     chinese_poker_pb2.ScoreTableRequest(players=[
         chinese_poker_pb2.TablePlayer(seat="N", arrangement=chinese_poker_pb2.Arrangement(
             back=_cards("9s 8s 7s 4s 2s"), middle=_cards("Js Jd Jh 5c 4d"),
             front=_cards("Qs Qd 2c"))),
         chinese_poker_pb2.TablePlayer(seat="E", arrangement=chinese_poker_pb2.Arrangement(
             back=_cards("Ah Kh Qd Jc Tc"), middle=_cards("Ks Kd 8c 8d 4s"),
             front=_cards("Ad Ac 3c")))]),
     lambda: score({"N": ("9s 8s 7s 4s 2s", "Js Jd Jh 5c 4d", "Qs Qd 2c"),
                    "E": ("Ah Kh Qd Jc Tc", "Ks Kd 8c 8d 4s", "Ad Ac 3c")}),
     "players[1].arrangement.back[2]", "players.E.back[2]", "CARD_ERROR",
     {"token": "Qd", "position": "2"}),
    ("EvaluateSet", "chlust", "EvaluateSet",
     chlust_pb2.EvaluateSetRequest(cards=_cards("Ah 2h Qh"), trump=HEARTS),
     lambda: evaluate_set(parse_cards("Ah 2h Qh"), Suit.HEARTS, CH),
     "cards[1]", "cards[1]", "CARD_ERROR", {"token": "2h", "position": "1"}),
    ("Showdown", "chlust", "Showdown",
     chlust_pb2.ShowdownRequest(hands=_ch_hands("Ah Kh Qh", "Js Ah Qs"), trump=HEARTS),
     lambda: chlust_showdown(["Ah Kh Qh", "Js Ah Qs"], Suit.HEARTS, CH),
     "hands[1].cards[1]", "hands[1][1]", "CARD_ERROR", {"token": "Ah", "position": "1"}),
    ("LegalPlays", "chlust", "LegalPlays",
     chlust_pb2.LegalPlaysRequest(hand=_cards("Ah Kh"), trick=_cards("Qs Qs"), trump=HEARTS),
     lambda: LocalSolver().chlust.legal_cards("Ah Kh", "h", trick="Qs Qs"),
     "trick[1]", "trick[1]", "CARD_ERROR", {"token": "Qs", "position": "1"}),
    ("PlayDeal", "chlust", "PlayDeal",
     chlust_pb2.PlayDealRequest(hands=_ch_hands(*CH_E11), trump=SPADES,
                                plays=_cards("Ah Kh Qh Kc Ad Tc Js Jd Td")),
     lambda: play_deal(CH_E11, Suit.SPADES, "Ah Kh Qh Kc Ad Tc Js Jd Td", CH),
     "plays[4]", "plays[4]", "ILLEGAL_PLAY_ERROR", {"rule": "CH-8"}),
    ("ShowdownOdds", "chlust", "ShowdownOdds",
     chlust_pb2.ShowdownOddsRequest(hand=_cards("Ah Kh Ah"), trump=HEARTS, opponents=1),
     lambda: showdown_odds("Ah Kh Ah", Suit.HEARTS, CH),
     "hand[2]", "hand[2]", "CARD_ERROR", {"token": "Ah", "position": "2"}),
    ("Exchange", "chlust", "Exchange",
     chlust_pb2.ExchangeRequest(hands=_ch_hands("Ah Kh Qh", "Js Ts Kh"),
                                turned=_cards("As")[0]),
     lambda: parse_hands(["Ah Kh Qh", "Js Ts Kh"], CH, exclude=parse_cards("As")),
     "hands[1].cards[2]", "hands[1][2]", "CARD_ERROR", {"token": "Kh", "position": "2"}),
    ("Bid", "chlust", "Bid",
     chlust_pb2.BidRequest(players=2, actions=[chlust_pb2.BID_ACTION_RAISE,
                                               chlust_pb2.BID_ACTION_CHECK]),
     lambda: LocalSolver().chlust.bid(["raise", "check"], players=2),
     "actions[1].action", "actions[1].action", "ILLEGAL_PLAY_ERROR", {"rule": "CH-6"}),
    ("AdvisePlay", "chlust", "AdvisePlay",
     chlust_pb2.AdvisePlayRequest(hand=_cards("Ad Qh"), trump=SPADES, seat=0, seats=[0, 1],
                                  history=[chlust_pb2.TrickRecord(leader=0, cards=_cards("Kd"))],
                                  trick=chlust_pb2.TrickRecord(leader=0)),
     lambda: advise_play(parse_cards("Ad Qh"), Trick(Suit.SPADES, 0), CH, seat=0, seats=[0, 1],
                         history=[Trick.of(Suit.SPADES, 0, parse_cards("Kd"))]),
     "history[0]", "history[0]", "INVALID_INPUT_ERROR", {}),
    ("DealHands", "chlust", "DealHands",
     chlust_pb2.DealHandsRequest(players=2, dealer=5, seed=1),
     lambda: deal(1, CH, players=2, dealer=5),
     "dealer", "dealer", "INVALID_INPUT_ERROR", {}),
    ("EvaluateKhlyust", "leaves", "EvaluateKhlyust",
     three_leaves_pb2.EvaluateKhlyustRequest(cards=_cards("As Ks As"), trump=SPADES),
     lambda: evaluate_khlyust(parse_cards("As Ks As"), Suit.SPADES),
     "cards[2]", "cards[2]", "CARD_ERROR", {"token": "As", "position": "2"}),
    ("ListLegalLeafPlays", "leaves", "ListLegalLeafPlays",
     three_leaves_pb2.ListLegalLeafPlaysRequest(hand=_cards("8d Ac Kh"), trump=DIAMONDS,
                                                trick=_leaf_plays("As Kh")),
     lambda: leaf_trick("8d Ac Kh", "d", "As Kh"),
     "trick[1]", "trick[1]", "INVALID_INPUT_ERROR", {}),
    # The example: the same card in the second and third hands was hands[1] on the
    # wire and "(also in hands[1])"; it is the third hand's second card, hands[2] from 0.
    ("PlayLeavesDeal", "leaves", "PlayLeavesDeal",
     three_leaves_pb2.PlayLeavesDealRequest(hands=_tl_hands("As Kh 8d", "Ks 9h Jc", "Ts Ks Qd"),
                                            trump_card=_cards("9d")[0]),
     lambda: Deal.of(["As Kh 8d", "Ks 9h Jc", "Ts Ks Qd"], "9d"),
     "hands[2].cards[1]", "hands[2][1]", "CARD_ERROR", {"token": "Ks", "position": "1"}),
    ("PlayLeavesDeal-exchange", "leaves", "PlayLeavesDeal",
     three_leaves_pb2.PlayLeavesDealRequest(
         hands=_tl_hands(*TL_E6), trump_card=_cards("9d")[0], plays=_leaf_plays(TL_E6_PLAYS),
         exchanges=[three_leaves_pb2.LeavesExchange(
             seat=3, action=three_leaves_pb2.LeavesExchange.ACTION_PASS)]),
     lambda: play_leaves(Deal.of(TL_E6, "9d"), Choices.of(exchanges={3: "pass"},
                                                          plays=TL_E6_PLAYS)),
     "exchanges[0]", "exchanges.3", "ILLEGAL_PLAY_ERROR", {"rule": "TL-3"}),
    ("PlayLeavesDeal-play", "leaves", "PlayLeavesDeal",
     three_leaves_pb2.PlayLeavesDealRequest(
         hands=_tl_hands(*TL_E6), trump_card=_cards("9d")[0],
         plays=_leaf_plays("As Jc Ts Qs Kh 9h Ah ~8c Qd ~Ac 8d ~Ks")),
     lambda: play_leaves(Deal.of(TL_E6, "9d"),
                         Choices.of(plays="As Jc Ts Qs Kh 9h Ah ~8c Qd ~Ac 8d ~Ks")),
     "plays[1]", "plays[1]", "ILLEGAL_PLAY_ERROR", {"rule": "TL-5"}),
    ("AdviseLeaves", "leaves", "AdviseLeaves",
     three_leaves_pb2.AdviseLeavesRequest(hand=_cards("As Kh As"), trump_card=_cards("9d")[0]),
     lambda: advise_hand("As Kh As", "9d"),
     "hand[2]", "hand[2]", "CARD_ERROR", {"token": "As", "position": "2"}),
    ("ResolveLeavesDeal", "leaves", "ResolveLeavesDeal",
     three_leaves_pb2.ResolveLeavesDealRequest(hands=_tl_hands("As Kh 8d", "8d 9h Jc"),
                                               trump_card=_cards("9d")[0]),
     lambda: Deal.of(["As Kh 8d", "8d 9h Jc"], "9d"),
     "hands[1].cards[0]", "hands[1][0]", "CARD_ERROR", {"token": "8d", "position": "0"}),
]  # fmt: skip


# The wire's description where it names another place (a duplicate card's "also"): that
# place as the request's field, as the violation's own path is (elsewhere the library's).
WIRE_DESCRIPTIONS = {
    "ValidateArrangement": "duplicate card 'Ks' (also arrangement.back[1])",
    "ScoreTable": "duplicate card 'Qd' (also players[0].arrangement.front[1])",
    "Showdown": "duplicate card 'Ah' (also hands[0].cards[0])",
    "Exchange": "duplicate card 'Kh' (also hands[0].cards[1])",
    "PlayLeavesDeal": "duplicate card 'Ks' (also hands[1].cards[0])",
    "ResolveLeavesDeal": "duplicate card '8d' (also hands[0].cards[2])",
}


@pytest.fixture(scope="module")
def stubs(grpc_channel: grpc.Channel) -> dict[str, Any]:
    return {
        "chinese": chinese_poker_pb2_grpc.ChinesePokerServiceStub(grpc_channel),
        "chlust": chlust_pb2_grpc.ChlustServiceStub(grpc_channel),
        "leaves": three_leaves_pb2_grpc.ThreeLeavesServiceStub(grpc_channel),
    }


def _details(error: grpc.RpcError) -> tuple[list[tuple[str, str]], error_details_pb2.ErrorInfo]:
    """(field, description) of the BadRequest and the ErrorInfo of a failed call, read with
    protobuf alone."""
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None
    fields: list[tuple[str, str]] = []
    info = error_details_pb2.ErrorInfo()
    for detail in status.details:
        bad = error_details_pb2.BadRequest()
        if detail.Unpack(bad):
            fields += [(v.field, v.description) for v in bad.field_violations]
        elif not detail.Unpack(info):
            raise AssertionError(f"unexpected detail {detail.type_url}")
    return fields, info


@pytest.mark.parametrize(
    ("service", "method", "request_", "local", "field", "shown", "reason", "metadata", "said"),
    [(*case[1:], WIRE_DESCRIPTIONS.get(case[0])) for case in RPC_CASES],
    ids=[case[0] for case in RPC_CASES],
)
def test_the_same_bad_input_in_process_and_on_the_wire(
    stubs: dict[str, Any],
    service: str,
    method: str,
    request_: Any,
    local: Callable[[], object],
    field: str,
    shown: str,
    reason: str,
    metadata: dict[str, str],
    said: str | None,
) -> None:
    here = raised(local)
    assert isinstance(here, InvalidInputError)
    assert here.field == shown  # the library's text: indexes from 0, its own names
    with pytest.raises(grpc.RpcError) as caught:
        getattr(stubs[service], method)(request_, timeout=60)
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    fields, info = _details(caught.value)
    assert fields[0] == (field, said or here.description)
    assert len(fields) == len(here.violations)  # every violation, as in-process
    assert (info.reason, info.domain, dict(info.metadata)) == (reason, "cpsolver", metadata)
    assert {k: str(getattr(here, k)) for k in metadata} == metadata


def test_batch_items_name_fields_of_their_own_request(stubs: dict[str, Any]) -> None:
    """BatchSolve: a bad hand's status names the field in its SolveRequest, as Solve does."""
    bad = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 5d"
    requests = [chinese_poker_pb2.SolveRequest(cards=_cards(h)) for h in (HAND, bad)]
    replies = list(stubs["chinese"].BatchSolve(
        chinese_poker_pb2.BatchSolveRequest(requests=requests), timeout=60
    ))  # fmt: skip
    here = raised(lambda: solve(bad))
    assert replies[0].status.code == 0
    status = replies[1].status
    bad_request, info = error_details_pb2.BadRequest(), error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(bad_request) and status.details[1].Unpack(info)
    assert [(v.field, v.description) for v in bad_request.field_violations] == [
        ("cards[12]", here.description)
    ]
    assert (info.reason, dict(info.metadata)) == ("CARD_ERROR", {"token": "5d", "position": "12"})


def test_request_limits_send_a_quota_failure(stubs: dict[str, Any]) -> None:
    """The per-call limits (BatchSolve hands, DealTables deals) come with a QuotaFailure whose
    quota_value is the limit, beside the BadRequest naming the field."""
    calls = [
        (
            lambda: list(stubs["chinese"].BatchSolve(chinese_poker_pb2.BatchSolveRequest(
                requests=[chinese_poker_pb2.SolveRequest()] * 10_001), timeout=60)),
            "requests", 10_000,
        ),
        (
            lambda: stubs["chinese"].DealTables(
                chinese_poker_pb2.DealTablesRequest(seed=1, count=1001), timeout=60),
            "count", 1000,
        ),
    ]  # fmt: skip
    for call, field, limit in calls:
        with pytest.raises(grpc.RpcError) as caught:
            call()
        status = rpc_status.from_call(caught.value)  # type: ignore[arg-type]
        assert status is not None
        quota = error_details_pb2.QuotaFailure()
        assert any(d.Unpack(quota) for d in status.details)
        assert [(v.subject, v.quota_value) for v in quota.violations] == [(field, limit)]


# -- 3. the typed client raises what in-process raises ---------------------------------------


@pytest.fixture(scope="module")
def both(remote: RemoteSolver) -> tuple[LocalSolver, RemoteSolver]:
    return LocalSolver(), remote


def _same_both_ways(
    both: tuple[LocalSolver, RemoteSolver], call: Callable[[Any], object]
) -> CpsolverError:
    here = raised(lambda: call(both[0]))
    there = raised(lambda: call(both[1]))
    same(there, here)
    return here


CHINESE_CASES: list[tuple[str, Callable[[Any], object], type[CpsolverError]]] = [
    ("infeasible constraints",
     lambda s: s.solve(HAND, objective="strength", constraints=FOUR_IN_FRONT), InfeasibleError),
    ("duplicate card", lambda s: s.solve("As As Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"), CardError),
    ("unknown option value", lambda s: s.solve(HAND, order="sideways"), RuleError),
    ("same card at two seats",
     lambda s: s.score({"N": ("9s 8s 7s 4s 2s", "Js Jd Jh 5c 4d", "Qs Qd 2c"),
                        "E": ("Ah Kh Qd Jc Tc", "Ks Kd 8c 8d 4s", "Ad Ac 3c")}),
     CardError),
]  # fmt: skip
CHLUST_CASES: list[tuple[str, Callable[[Any], object], type[CpsolverError]]] = [
    ("illegal play", lambda s: s.chlust.play_deal(CH_E11, "s", "Ah Kh Qh Kc Ad Tc Js Jd Td"),
     IllegalPlayError),
    ("a card in two hands", lambda s: s.chlust.showdown(["Ah Kh Qh", "Js Ah Qs"], "h"),
     CardError),
    ("a card outside the deck", lambda s: s.chlust.evaluate("Ah 2h Qh", "h"), CardError),
    ("illegal bid", lambda s: s.chlust.bid(["raise", "check"], players=2), IllegalPlayError),
]  # fmt: skip
LEAVES_CASES: list[tuple[str, Callable[[Any], object], type[CpsolverError]]] = [
    ("illegal play", lambda s: s.leaves.play_deal(Deal.of(TL_E6, "9d"), Choices.of(
        plays="As Jc Ts Qs Kh 9h Ah ~8c Qd ~Ac 8d ~Ks")), IllegalPlayError),
    ("the dealer exchanges", lambda s: s.leaves.play_deal(Deal.of(TL_E6, "9d"), Choices.of(
        exchanges={1: "pass", 3: "pass"}, plays="As Ts Qs Kh Ah ~8c Qd ~Ac 8d")),
     IllegalPlayError),
    ("picks not held", lambda s: s.leaves.play_deal(
        Deal.of(["9h Jc Qd", "As Ks 8s", "Th Jd 9c", "Qh Kc 8d"], "Js"),
        Choices.of(picks="As Ks 9h")), IllegalPlayError),
    ("a card outside the deck", lambda s: s.leaves.evaluate("7s Ks 8s", "s"), CardError),
]  # fmt: skip


@pytest.mark.parametrize(
    ("call", "kind"), [c[1:] for c in CHINESE_CASES], ids=[c[0] for c in CHINESE_CASES]
)
def test_chinese_poker_errors_are_the_same_remotely(
    both: tuple[LocalSolver, RemoteSolver], call: Callable[[Any], object], kind: type
) -> None:
    assert type(_same_both_ways(both, call)) is kind


@pytest.mark.parametrize(
    ("call", "kind"), [c[1:] for c in CHLUST_CASES], ids=[c[0] for c in CHLUST_CASES]
)
def test_chlust_errors_are_the_same_remotely(
    both: tuple[LocalSolver, RemoteSolver], call: Callable[[Any], object], kind: type
) -> None:
    assert type(_same_both_ways(both, call)) is kind


@pytest.mark.parametrize(
    ("call", "kind"), [c[1:] for c in LEAVES_CASES], ids=[c[0] for c in LEAVES_CASES]
)
def test_three_leaves_errors_are_the_same_remotely(
    both: tuple[LocalSolver, RemoteSolver], call: Callable[[Any], object], kind: type
) -> None:
    assert type(_same_both_ways(both, call)) is kind


def test_remote_paths_are_the_librarys() -> None:
    """The paths the remote cases above compare: a card in two Chlust hands is hands[1][1]
    (the wire's hands[1].cards[1]), the dealer's exchange exchanges.3 (the wire's
    exchanges[1]: its place in the request's list)."""
    showdown_error = raised(lambda: LocalSolver().chlust.showdown(["Ah Kh Qh", "Js Ah Qs"], "h"))
    assert showdown_error.path == ("hands", 1, 1)  # type: ignore[attr-defined]
    exchange = raised(
        lambda: LocalSolver().leaves.play_deal(
            Deal.of(TL_E6, "9d"),
            Choices.of(exchanges={1: "pass", 3: "pass"}, plays="As Ts Qs Kh Ah ~8c Qd ~Ac 8d"),
        )
    )
    assert str(exchange) == (
        "exchanges.3: seat 3 is the dealer and must play the cards dealt (TL-3)"
    )


def test_constraint_paths_name_the_entry_from_zero(stubs: dict[str, Any]) -> None:
    """A wire-only error (a pin without its place) names the entry as the request lists it:
    the second pin is pins[1] (it was shifted to pins[0], built 0-based and then converted)."""
    pins = [
        chinese_poker_pb2.CardPlace(card=wire("As")[0], place=chinese_poker_pb2.PLACE_BACK),
        chinese_poker_pb2.CardPlace(card=wire("Ks")[0]),
    ]
    request = chinese_poker_pb2.SolveRequest(
        cards=wire(HAND), constraints=chinese_poker_pb2.SolveConstraints(pins=pins)
    )
    with pytest.raises(grpc.RpcError) as caught:
        stubs["chinese"].Solve(request, timeout=60)
    fields, info = _details(caught.value)
    assert fields == [("constraints.pins[1].place", "place is required")]
    assert info.reason == "INVALID_INPUT_ERROR"
