"""Bad input at the games' library entry points raises the project's precise errors (an
:class:`InvalidInputError` naming the field and why, ``INVALID_ARGUMENT`` over gRPC), never a
bare TypeError or AttributeError from inside, and an impossible state (a trick with more
cards than the table has players, a seat's exchange given twice) is refused, not answered.
Each case here was reproduced by the auditors against the library before its fix."""

from __future__ import annotations

import math
from collections.abc import Callable

import grpc
import pytest
from helpers import SUIT_TO_WIRE, violations, wire

import cpsolver
from cpsolver import chlust, ofc, three_leaves
from cpsolver.budget import check_deadline
from cpsolver.cards import Card, Suit, parse_cards
from cpsolver.checks import finite_number, whole_number
from cpsolver.errors import CardError, CardTypeError, InvalidInputError
from cpsolver.rules.three_leaves import ThreeLeavesRules
from cpsolver.tricks import Trick, check_trick
from cpsolver.v1 import (
    chinese_poker_pb2,
    chinese_poker_pb2_grpc,
    open_face_pb2,
    open_face_pb2_grpc,
    three_leaves_pb2,
    three_leaves_pb2_grpc,
)

# --- the shared readers ------------------------------------------------------------------


@pytest.mark.parametrize("value", ["x", -1, math.nan, math.inf, -math.inf, True, [1]])
def test_a_deadline_is_a_finite_number_of_seconds(value: object) -> None:
    with pytest.raises(InvalidInputError) as err:
        check_deadline(value)
    assert err.value.field == "deadline"
    assert "expected a finite number >= 0" in str(err.value)


def test_a_deadline_may_be_none_zero_or_more() -> None:
    assert check_deadline(None) is None
    assert check_deadline(0) == 0.0 and check_deadline(1.5) == 1.5


RATED = {"back": "Jh Th 9c 8c 7d", "middle": "As Ad Kh Kd Qs", "front": "5s 4s 2h"}


@pytest.mark.parametrize("value", ["x", -1, math.nan])
def test_rate_refuses_a_deadline_that_is_no_time(value: object) -> None:
    """Unchecked, "x" failed in the rollouts as a bare TypeError and -1 or NaN were taken;
    the deadline's violation comes with the others (rate reports every one at once)."""
    with pytest.raises(InvalidInputError) as err:
        cpsolver.rate(RATED, estimator="rollouts:100", deadline=value, seed=-1)  # type: ignore[arg-type]
    assert [v.field for v in err.value.violations] == ["seed", "deadline"]


@pytest.mark.parametrize("value", ["x", -1])
def test_solve_refuses_a_deadline_that_is_no_time(value: object) -> None:
    hand = "As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"
    with pytest.raises(InvalidInputError) as err:
        cpsolver.solve(hand, estimator="rollouts:100", deadline=value)  # type: ignore[arg-type]
    assert err.value.field == "deadline"


def test_the_readers_name_the_field() -> None:
    with pytest.raises(InvalidInputError, match=r"^pot: expected a whole number, got 1.0$"):
        whole_number(1.0, "pot")
    with pytest.raises(InvalidInputError, match=r"^pot: must be 0 to 3, got 4$"):
        whole_number(4, "pot", low=0, high=3)
    with pytest.raises(InvalidInputError, match=r"^x: expected a finite number, got 'y'$"):
        finite_number("y", "x")


# --- cards -------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, 60, 1.5, ["As"]])
def test_card_of_a_value_that_is_not_text(value: object) -> None:
    with pytest.raises(CardTypeError) as err:
        Card.of(value)  # type: ignore[arg-type]
    assert err.value.field == "card"
    assert "expected one card as text" in str(err.value)


def test_card_from_a_rank_number_and_a_suit_letter() -> None:
    assert Card(14, "s") == Card.of("As")  # type: ignore[arg-type]
    assert Card("T", "♥") == Card.of("Th")  # type: ignore[arg-type]
    assert Card(14, "s").index == 51  # type: ignore[arg-type]


def test_card_of_values_naming_no_rank_and_no_suit() -> None:
    with pytest.raises(CardError) as err:
        Card(15, None)  # type: ignore[arg-type]
    assert [v.field for v in err.value.violations] == ["rank", "suit"]
    with pytest.raises(CardError, match="suit: unknown suit 'x'"):
        Card(14, "x")  # type: ignore[arg-type]


# --- Chlust ------------------------------------------------------------------------------

OVER = Trick.of(Suit.HEARTS, 0, parse_cards("Qd Kd Jh"))


@pytest.mark.parametrize(
    "call",
    [
        lambda: chlust.legal_plays("Th Kh Ac", "Qd Kd Jh"),  # type: ignore[arg-type]
        lambda: chlust.legal_cards("Th Kh Ac", "Qd Kd Jh"),  # type: ignore[arg-type]
        lambda: chlust.can_play("Th Kh Ac", None, "Kh"),  # type: ignore[arg-type]
        lambda: chlust.verify_play("Th Kh Ac", 5, "Kh"),  # type: ignore[arg-type]
        lambda: chlust.advise_play("Th Kh Ac", "Qs", seat=0, seats=[0, 1, 2]),  # type: ignore[arg-type]
    ],
)
def test_chlust_a_trick_that_is_not_a_trick(call: Callable[[], object]) -> None:
    with pytest.raises(InvalidInputError) as err:
        call()
    assert err.value.field == "trick"
    assert "expected a Trick" in str(err.value)


def test_chlust_a_hand_as_text_is_read() -> None:
    assert chlust.can_play("Th Kh Ac", OVER, "Kh") and not chlust.can_play("Th Kh Ac", OVER, "Th")
    with pytest.raises(InvalidInputError) as err:
        chlust.verify_play("Th Kh 1x", OVER, "Kh")
    assert err.value.field == "hand[2]"


def test_chlust_advise_play_history_of_tricks() -> None:
    with pytest.raises(InvalidInputError) as err:
        chlust.advise_play(
            "Th Kh", Trick(Suit.HEARTS, 0), seat=0, seats=[0, 1, 2], history=["Qd Kd Jh"]
        )
    assert err.value.field == "history[0]"


def test_chlust_a_trick_with_a_card_for_each_seat_waits_for_none() -> None:
    """Heads-up, a trick of two cards is complete: no seat is left to play to it."""
    full = Trick.of(Suit.HEARTS, 0, parse_cards("Qd Kd"))
    with pytest.raises(InvalidInputError) as err:
        chlust.legal_cards("Th Kh Ac", full, "heads_up")
    assert err.value.field == "trick"
    assert "at a table of 2 players" in str(err.value)


def test_chlust_a_game_plays_the_table_of_its_hands() -> None:
    """TrickGame's own tricks are not re-read against rules.players: the three hands of
    CH-E11 play under heads_up rules as they always did (reading them as a table of two
    refused the second trick's third card)."""
    hands = ["Ah Td Kc", "Kh Ad Js", "Qh Jd Tc"]
    result = chlust.play_deal(hands, "s", "Ah Kh Qh  Kc Js Tc  Ad Jd Td", "heads_up")
    assert result.tricks_won == (1, 2, 0)


@pytest.mark.parametrize(
    ("tricks", "fields"),
    [
        ((-1, 2, 2), ["tricks_won[0]"]),
        ((5, 5, 5), ["tricks_won[0]", "tricks_won[1]", "tricks_won[2]"]),
        ((1,), ["tricks_won"]),
        ((1, 1, 1, 0, 0, 0), ["tricks_won"]),
        (("a", "b", "c"), ["tricks_won[0]", "tricks_won[1]", "tricks_won[2]"]),
        ((1, 1, 0), ["tricks_won"]),  # two tricks: a deal plays three
        ((1.0, 1, 1), ["tricks_won[0]"]),
        ("111", ["tricks_won"]),
    ],
)
def test_chlust_settle_tricks_of_no_deal(tricks: object, fields: list[str]) -> None:
    with pytest.raises(InvalidInputError) as err:
        chlust.settle_tricks(tricks)  # type: ignore[arg-type]
    assert [v.field for v in err.value.violations] == fields


def test_chlust_settle_tricks_in_deal() -> None:
    with pytest.raises(InvalidInputError) as err:
        chlust.settle_tricks((2, 1, 0), in_deal=(True, False, True))
    assert str(err.value) == "tricks_won[1]: seat 1 is out of the deal but took 1"
    with pytest.raises(InvalidInputError) as err:
        chlust.settle_tricks((3, 0, 0), in_deal=(True, False, False))
    assert err.value.field == "in_deal"
    # one deal's tricks still settle (CH-9)
    assert chlust.settle_tricks((2, 0, 1), in_deal=(True, False, True))[0] == (0,)


def test_a_trick_seat_outside_the_table() -> None:
    trick = Trick.of(Suit.HEARTS, 5, parse_cards("Qd"))
    with pytest.raises(InvalidInputError) as err:
        check_trick(trick, 4)
    assert [v.field for v in err.value.violations] == ["trick.leader"]


# --- Three Leaves ------------------------------------------------------------------------

TWO = three_leaves.Deal.of(["As Ks 8s", "9h Jc Qd"], "Ts")
TL_E6 = ["As Kh 8d", "Ks 9h Jc", "Ts Ah Qd", "Qs 8c Ac"]


def test_leaves_play_deal_bad_values() -> None:
    with pytest.raises(InvalidInputError, match=r"^carried_pot: expected a whole number, got 'x'$"):
        three_leaves.play_deal(TWO, None, carried_pot="x")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError) as err:
        three_leaves.play_deal(TWO, "As Ks")  # type: ignore[arg-type]
    assert err.value.field == "choices" and "got str" in str(err.value)
    with pytest.raises(InvalidInputError) as err:
        three_leaves.play_deal("As Ks 8s", None, carried_pot=-1)  # type: ignore[arg-type]
    assert [v.field for v in err.value.violations] == ["deal", "carried_pot"]


def test_leaves_play_session_bad_entries() -> None:
    with pytest.raises(InvalidInputError, match=r"^deals\[0\]: expected a \(deal, choices\) pair"):
        three_leaves.play_session([5])  # type: ignore[list-item]
    with pytest.raises(InvalidInputError) as err:
        three_leaves.play_session([(TWO, "x"), (5, None)], carried_pot="y")  # type: ignore[list-item]
    assert [v.field for v in err.value.violations] == ["carried_pot", "deals[0][1]", "deals[1][0]"]
    with pytest.raises(InvalidInputError, match=r"^deals: expected a list"):
        three_leaves.play_session(5)  # type: ignore[arg-type]


def test_leaves_a_trick_with_more_cards_than_seats() -> None:
    """Four players: a trick of four cards is complete, and five cards mean a seat 4 (the
    fifth), which the table does not have."""
    with pytest.raises(InvalidInputError) as err:
        three_leaves.leaf_trick("8d Ac Kh", "d", "As Ks Qs Js Ts")
    assert err.value.field == "trick" and "at a table of 4 players" in str(err.value)
    rules = ThreeLeavesRules()
    five = Trick.of(Suit.DIAMONDS, 0, parse_cards("As Ks Qs Js Ts"))
    for call in (
        lambda: three_leaves.legal_on_trick(parse_cards("8d Ac Kh"), five, rules=rules),
        lambda: three_leaves.legal_plays(parse_cards("8d Ac Kh"), five, rules),
        lambda: three_leaves.can_play(parse_cards("8d Ac Kh"), five, "8d", rules),
    ):
        with pytest.raises(InvalidInputError) as err:
            call()
        assert [v.field for v in err.value.violations] == ["trick.plays[4]", "trick"]


def test_leaves_a_trick_that_is_not_a_trick() -> None:
    with pytest.raises(InvalidInputError) as err:
        three_leaves.legal_plays(parse_cards("8d Ac Kh"), "As")  # type: ignore[arg-type]
    assert err.value.field == "trick" and "expected a Trick" in str(err.value)


def test_leaves_a_seat_exchanges_once() -> None:
    with pytest.raises(InvalidInputError) as err:
        three_leaves.Choices.of(exchanges={1: "pass", "1": "play"})
    assert err.value.field == "exchanges.1" and "seat 1 has two exchanges" in str(err.value)
    with pytest.raises(InvalidInputError, match=r"^exchanges.x: expected a whole number"):
        three_leaves.Choices.of(exchanges={"x": "pass"})


# --- Three Leaves over gRPC --------------------------------------------------------------


@pytest.fixture(scope="module")
def leaves(grpc_channel: grpc.Channel) -> three_leaves_pb2_grpc.ThreeLeavesServiceStub:
    return three_leaves_pb2_grpc.ThreeLeavesServiceStub(grpc_channel)


def _plays(text: str) -> list[three_leaves_pb2.LeafPlay]:
    return [three_leaves_pb2.LeafPlay(card=wire(t)[0]) for t in text.split()]


def test_grpc_list_legal_leaf_plays_on_a_trick_of_five_at_four(
    leaves: three_leaves_pb2_grpc.ThreeLeavesServiceStub,
) -> None:
    with pytest.raises(grpc.RpcError) as raised:
        leaves.ListLegalLeafPlays(
            three_leaves_pb2.ListLegalLeafPlaysRequest(
                hand=wire("8d Ac Kh"),
                trump=SUIT_TO_WIRE[Suit.DIAMONDS],
                trick=_plays("As Ks Qs Js Ts"),
            )
        )
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    found = violations(raised.value)
    assert list(found) == ["trick"] and "at a table of 4 players" in found["trick"]


def test_grpc_play_leaves_deal_a_seat_twice_in_exchanges(
    leaves: three_leaves_pb2_grpc.ThreeLeavesServiceStub,
) -> None:
    action = three_leaves_pb2.LeavesExchange
    with pytest.raises(grpc.RpcError) as raised:
        leaves.PlayLeavesDeal(
            three_leaves_pb2.PlayLeavesDealRequest(
                hands=[three_leaves_pb2.LeavesHand(cards=wire(h)) for h in TL_E6],
                trump_card=wire("9d")[0],
                exchanges=[
                    action(seat=1, action=action.ACTION_PASS),
                    action(seat=1, action=action.ACTION_PLAY),
                ],
            )
        )
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert violations(raised.value) == {
        "exchanges[1]": "seat 1 has two exchanges (also exchanges[0])"
    }


# --- a card given twice: one format in every game, the request's fields on the wire ------

# Qs is in the first player's front and in the second's (Chinese poker and OFC alike)
FIRST = {"back": "2s 2h 2d 2c Ks", "middle": "As Ah Ad Kh Kd", "front": "Qs Qh 3c"}
SECOND = {"back": "9s 8s 7s 6s 5s", "middle": "Th Td Tc 3h 3d", "front": "Qs Jd 4s"}
TWICE = "duplicate card 'Qs' (also players[0].front[0])"


def test_chinese_and_ofc_name_the_other_place_alike() -> None:
    """Chinese poker said "(also N's front[0])", OFC "(also players[0].front[0])"."""
    for score in (cpsolver.score, ofc.score):
        with pytest.raises(CardError) as err:
            score([FIRST, SECOND])
        assert str(err.value) == f"players[1].front[0]: {TWICE}"
        with pytest.raises(CardError) as err:
            score({"N": FIRST, "E": SECOND})
        assert str(err.value) == "players.E.front[0]: duplicate card 'Qs' (also players.N.front[0])"


def test_every_game_words_a_card_given_twice_alike() -> None:
    with pytest.raises(
        CardError, match=r"^hands\[1\]\[0\]: duplicate card 'As' \(also hands\[0\]\[0\]\)$"
    ):
        three_leaves.Deal.of(["As Kh 8d", "As 9h Jc"], "9d")
    with pytest.raises(
        CardError, match=r"^hands\[1\]\[1\]: duplicate card 'Ah' \(also hands\[0\]\[0\]\)$"
    ):
        chlust.showdown(["Ah Kh Qh", "Js Ah Qs"], "h")


def _wire_rows(rows: dict[str, str]) -> dict[str, object]:
    return {row: wire(rows[row]) for row in ("back", "middle", "front")}


def test_grpc_names_the_other_place_as_the_request_does(grpc_channel: grpc.Channel) -> None:
    """Over gRPC the other place is a field of the request, as the violation's own path is
    (OFC said "(also players.N.back[0])", Chinese poker "(also N's front[0])")."""
    arranged = chinese_poker_pb2.Arrangement
    with pytest.raises(grpc.RpcError) as raised:
        chinese_poker_pb2_grpc.ChinesePokerServiceStub(grpc_channel).ScoreTable(
            chinese_poker_pb2.ScoreTableRequest(
                players=[
                    chinese_poker_pb2.TablePlayer(
                        seat=seat,
                        arrangement=arranged(**_wire_rows(rows)),
                    )
                    for seat, rows in (("N", FIRST), ("E", SECOND))
                ]
            )
        )
    assert violations(raised.value) == {
        "players[1].arrangement.front[0]": "duplicate card 'Qs' (also "
        "players[0].arrangement.front[0])"
    }
    board = open_face_pb2.OpenFaceBoard
    with pytest.raises(grpc.RpcError) as raised:
        open_face_pb2_grpc.OpenFaceServiceStub(grpc_channel).ScoreOpenFace(
            open_face_pb2.ScoreOpenFaceRequest(
                players=[
                    open_face_pb2.OpenFaceSeat(
                        seat=seat,
                        board=board(**_wire_rows(rows)),
                    )
                    for seat, rows in (("A", FIRST), ("B", SECOND))
                ]
            )
        )
    assert violations(raised.value) == {
        "players[1].board.front[0]": "duplicate card 'Qs' (also players[0].board.front[0])"
    }


# --- rate: every violation of the arrangement at once ----------------------------------


@pytest.mark.parametrize(
    ("rows", "said"),
    [
        (
            {"back": "As Ks Qs Js", "middle": "9h 9d 9c 2h 2d 7c", "front": "5d 3s 4h"},
            [("back", "expected 5 cards, got 4"), ("middle", "expected 5 cards, got 6")],
        ),
        (
            {"back": "As Ks Qs Js Ts", "middle": "As 9d 9c 2h 2d", "front": "7c 7c 3s"},
            [
                ("middle[0]", "duplicate card 'As' (also back[0])"),
                ("front[1]", "duplicate card '7c' (also front[0])"),
            ],
        ),
        (  # a row that cannot be read still shows its cards that can
            {"back": "As Ks Qs Js Ts", "middle": "9h 9d 9c 2h 1x", "front": "As 3d 4d"},
            [
                ("middle[4]", "unknown rank '1' in '1x'; ranks are 2-9, T (or 10), J, Q, K, A"),
                ("front[0]", "duplicate card 'As' (also back[0])"),
            ],
        ),
        (
            {"back": "As Ks Qs Js Ts", "middle": "As 9d 9c 2h Ks", "front": "Qs 3d 4d"},
            [
                ("middle[0]", "duplicate card 'As' (also back[0])"),
                ("middle[4]", "duplicate card 'Ks' (also back[1])"),
                ("front[0]", "duplicate card 'Qs' (also back[2])"),
            ],
        ),
    ],
)
def test_rate_reports_every_violation_of_the_rows(
    rows: dict[str, str], said: list[tuple[str, str]]
) -> None:
    with pytest.raises(CardError) as err:
        cpsolver.rate(rows)
    assert [(v.field, v.description) for v in err.value.violations] == said


def test_grpc_rate_arrangement_reports_every_violation(grpc_channel: grpc.Channel) -> None:
    stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(grpc_channel)
    for rows, said in [
        (
            {"back": "As Ks Qs Js", "middle": "9h 9d 9c 2h 2d 7c", "front": "5d 3s 4h"},
            {
                "arrangement.back": "expected 5 cards, got 4",
                "arrangement.middle": "expected 5 cards, got 6",
            },
        ),
        (
            {"back": "As Ks Qs Js Ts", "middle": "As 9d 9c 2h 2d", "front": "7c 8c 3s"},
            {"arrangement.middle[0]": "duplicate card 'As' (also arrangement.back[0])"},
        ),
    ]:
        arrangement = chinese_poker_pb2.Arrangement(**{k: wire(v) for k, v in rows.items()})
        with pytest.raises(grpc.RpcError) as raised:
            stub.RateArrangement(chinese_poker_pb2.RateArrangementRequest(arrangement=arrangement))
        assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert violations(raised.value) == said


def test_chlust_showdowns_and_odds_keep_to_the_tables_players() -> None:
    """``rules.players`` bounds a showdown's hands and the odds' opponents (CH-1), as Three
    Leaves refuses hands beyond its table; 3 hands or 3 opponents at a table of 2 were
    answered."""
    two = cpsolver.ChlustRules().replace(players=2)
    with pytest.raises(InvalidInputError, match=r"^hands: Chlust needs 2 to 2 hands"):
        cpsolver.chlust.showdown(["As Ks Qs", "Qh Jh Th", "Ac Kc Qc"], "h", two)
    with pytest.raises(InvalidInputError, match=r"^opponents: at most 1 at a table of 2"):
        cpsolver.chlust.showdown_odds("As Ks Qs", "h", two, opponents=3)
    assert len(cpsolver.chlust.showdown(["As Ks Qs", "Qh Jh Th"], "h", two).ranking) == 2


def test_frozen_advice_answers_hold_read_only_mappings() -> None:
    """The answers are frozen, yet their intervals and odds were plain dicts a caller could
    rewrite (``odds.ci95["win"] = (0, 0)`` succeeded); their JSON is unchanged."""
    import json

    odds = cpsolver.chlust.showdown_odds("As Ks Qs", "h", opponents=3, seed=1)
    advice = cpsolver.chlust.advise_play(
        "Ah Td Kc", Trick(Suit.SPADES, 0), seat=0, seats=[0, 1, 2],
        samples=200, seed=0,
    )  # fmt: skip
    khlyust = cpsolver.three_leaves.khlyust_odds("Ah Kh 8c", "9h")
    for mapping in (odds.ci95, advice.expected, advice.ci95, khlyust.holding):
        with pytest.raises(TypeError):
            mapping[next(iter(mapping))] = 0  # type: ignore[index]
    for answer in (odds, advice, khlyust):
        assert json.loads(json.dumps(answer.to_dict())) == answer.to_dict()


@pytest.mark.parametrize("hands", [[], ["As Ks Ts"]])
def test_grpc_play_leaves_deal_without_a_table_of_hands_names_hands(
    leaves: three_leaves_pb2_grpc.ThreeLeavesServiceStub, hands: list[str]
) -> None:
    """An empty request (or one hand) was refused as 'rules.players: invalid value 0', a field
    the caller never set: the table size is taken from the hands only when they make one."""
    with pytest.raises(grpc.RpcError) as raised:
        leaves.PlayLeavesDeal(
            three_leaves_pb2.PlayLeavesDealRequest(
                hands=[three_leaves_pb2.LeavesHand(cards=wire(h)) for h in hands],
                trump_card=wire("9d")[0],
            )
        )
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert list(violations(raised.value)) == ["hands"], violations(raised.value)
