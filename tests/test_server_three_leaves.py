"""ThreeLeavesService against the real server (``cpsolver serve`` in a subprocess): the TL
worked examples over the wire, equality with the library, INVALID_ARGUMENT with field
violations naming the rule for an illegal play."""

from __future__ import annotations

import grpc
import pytest
from helpers import SUIT_TO_WIRE, violations, wire

from cpsolver.cards import Suit
from cpsolver.three_leaves import khlyust_odds
from cpsolver.v1 import three_leaves_pb2, three_leaves_pb2_grpc


def plays(text: str) -> list[three_leaves_pb2.LeafPlay]:
    out = []
    for token in text.split():
        down = token.startswith("~")
        out.append(three_leaves_pb2.LeafPlay(card=wire(token.lstrip("~"))[0], face_down=down))
    return out


@pytest.fixture(scope="module")
def stub(grpc_channel: grpc.Channel) -> three_leaves_pb2_grpc.ThreeLeavesServiceStub:
    return three_leaves_pb2_grpc.ThreeLeavesServiceStub(grpc_channel)


TL_E6 = ["As Kh 8d", "Ks 9h Jc", "Ts Ah Qd", "Qs 8c Ac"]


def _deal(hands: list[str], trump_card: str, play_text: str = "", **kw: object):  # type: ignore[no-untyped-def]
    return three_leaves_pb2.PlayLeavesDealRequest(
        hands=[three_leaves_pb2.LeavesHand(cards=wire(h)) for h in hands],
        trump_card=wire(trump_card)[0],
        plays=plays(play_text),
        **kw,
    )


def test_tl_e1_evaluate_and_payment_round(
    stub: three_leaves_pb2_grpc.ThreeLeavesServiceStub,
) -> None:
    """TL-E1 over the wire: A♠K♠8♠ under spades is a trump khlyust of 23 points; it takes the
    pot and the opponents pay 11, 4 and 8 in the order they pick."""
    reply = stub.EvaluateKhlyust(
        three_leaves_pb2.EvaluateKhlyustRequest(
            cards=wire("As Ks 8s"), trump=SUIT_TO_WIRE[Suit.SPADES]
        )
    )
    assert reply.khlyust.khlyust_class == three_leaves_pb2.KHLYUST_CLASS_TRUMP
    assert reply.khlyust.points == 23
    result = stub.PlayLeavesDeal(
        _deal(
            ["9h Jc Qd", "As Ks 8s", "Th Jd 9c", "Qh Kc 8d"],
            "Js",
            picks=wire("As Ks 8s"),
        )
    )
    assert result.outcome == three_leaves_pb2.LEAVES_OUTCOME_KHLYUST
    assert result.khlyust_seat == 1
    assert [(p.payer, p.amount) for p in result.payments] == [(2, 11), (3, 4), (0, 8)]


def test_tl_e6_deal_and_illegal_play(stub: three_leaves_pb2_grpc.ThreeLeavesServiceStub) -> None:
    """TL-E6 over the wire: tricks A, C, C; the pot stays; C collects the share from B and D.
    B discarding J♣ on the A♠ lead while holding K♠ is INVALID_ARGUMENT naming TL-5."""
    result = stub.PlayLeavesDeal(_deal(TL_E6, "9d", "As Ks Ts Qs Kh 9h Ah ~8c Qd ~Ac 8d ~Jc"))
    assert [t.winner for t in result.tricks] == [0, 2, 2]
    assert list(result.trick_counts) == [1, 0, 2, 0]
    assert result.pot_after == 4
    assert list(result.net) == [-1, -2, 1, -2]
    with pytest.raises(grpc.RpcError) as info:
        stub.PlayLeavesDeal(_deal(TL_E6, "9d", "As Jc Ts Qs Kh 9h Ah ~8c Qd ~Ac 8d ~Ks"))
    assert info.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    found = violations(info.value)
    assert any("TL-5" in d and "must follow suit" in d for d in found.values()), found


def test_tl_e5_legal_plays(stub: three_leaves_pb2_grpc.ThreeLeavesServiceStub) -> None:
    """TL-E5: trumps ♦, A♠ led, void with 8♦A♣K♥: 8♦ face up heads the trick; any card may go
    face down; a face-down card never heads it."""
    reply = stub.ListLegalLeafPlays(
        three_leaves_pb2.ListLegalLeafPlaysRequest(
            hand=wire("8d Ac Kh"), trump=SUIT_TO_WIRE[Suit.DIAMONDS], trick=plays("As")
        )
    )
    got = {(p.play.card.rank, p.play.face_down, p.heads_trick) for p in reply.plays}
    assert got == {(8, False, True), (8, True, False), (14, True, False), (13, True, False)}


def test_advice_equals_the_library_and_bad_input(
    stub: three_leaves_pb2_grpc.ThreeLeavesServiceStub,
) -> None:
    """The exact odds over the wire equal the library's; a card outside the 28-card deck is
    INVALID_ARGUMENT naming the field."""
    reply = stub.AdviseLeaves(
        three_leaves_pb2.AdviseLeavesRequest(
            hand=wire("As Kh 8c"), trump_card=wire("9d")[0], samples=50, seed=1
        )
    )
    odds = khlyust_odds("As Kh 8c", "9d")
    assert reply.facing_any == pytest.approx(odds.facing_any)
    assert reply.beaten == pytest.approx(odds.beaten)
    assert reply.trick_method == "monte_carlo"
    with pytest.raises(grpc.RpcError) as info:
        stub.EvaluateKhlyust(
            three_leaves_pb2.EvaluateKhlyustRequest(
                cards=wire("7s Ks 8s"), trump=SUIT_TO_WIRE[Suit.SPADES]
            )
        )
    assert info.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert any("28-card deck" in d for d in violations(info.value).values())
