"""ChlustService over the network: every call goes to a real ``cpsolver serve`` (issue 6).

Expectations come from RULES.md worked examples (CH-E1, CH-E3, CH-E10, CH-E11) and hand
counts; errors must be INVALID_ARGUMENT with a google.rpc.BadRequest naming the field
(zero-based indexes)."""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from helpers import SUIT_TO_WIRE, violations, wire

from cpsolver.cards import Card
from cpsolver.v1 import cards_pb2, chlust_pb2, chlust_pb2_grpc

SERVICE = "cpsolver.v1.ChlustService"


def text(cards: list[cards_pb2.Card]) -> str:
    suits = {v: k for k, v in SUIT_TO_WIRE.items()}
    return " ".join(
        str(Card.of(f"{'0023456789TJQKA'[c.rank]}{suits[c.suit].value}")) for c in cards
    )


def hands(*texts: str) -> list[chlust_pb2.ChlustHand]:
    return [chlust_pb2.ChlustHand(cards=wire(t)) for t in texts]


@pytest.fixture(scope="module")
def stub(grpc_channel: grpc.Channel) -> chlust_pb2_grpc.ChlustServiceStub:
    return chlust_pb2_grpc.ChlustServiceStub(grpc_channel)


def test_chlust_service_is_healthy(grpc_channel: grpc.Channel) -> None:
    health = health_pb2_grpc.HealthStub(grpc_channel)
    reply = health.Check(health_pb2.HealthCheckRequest(service=SERVICE), timeout=5)
    assert reply.status == health_pb2.HealthCheckResponse.SERVING


def test_evaluate_set_ch_e1(stub: chlust_pb2_grpc.ChlustServiceStub) -> None:
    reply = stub.EvaluateSet(
        chlust_pb2.EvaluateSetRequest(cards=wire("Js Jh Tc"), trump=cards_pb2.SUIT_DIAMONDS),
        timeout=30,
    )
    s = reply.set
    assert s.category == chlust_pb2.CHLUST_SET_CATEGORY_THREE_JACKS
    assert not s.pure and s.wild_role == chlust_pb2.WILD_ROLE_SUBSTITUTE
    assert text([s.wild]) == "Tc" and s.rank == cards_pb2.RANK_JACK
    flush = stub.EvaluateSet(
        chlust_pb2.EvaluateSetRequest(cards=wire("Ad Kd Qd"), trump=cards_pb2.SUIT_DIAMONDS),
        timeout=30,
    ).set
    assert s.key > flush.key and flush.suit == cards_pb2.SUIT_DIAMONDS


def test_evaluate_set_purity_option_ch_e2(stub: chlust_pb2_grpc.ChlustServiceStub) -> None:
    rules = chlust_pb2.ChlustRules(purity=chlust_pb2.ChlustRules.PURITY_WITHIN_CATEGORY)

    def key(cards: str) -> int:
        request = chlust_pb2.EvaluateSetRequest(
            cards=wire(cards), trump=cards_pb2.SUIT_DIAMONDS, rules=rules
        )
        return stub.EvaluateSet(request, timeout=30).set.key

    assert key("As Ks Qs") > key("Jd Td Tc")


def test_showdown_ch_e3(stub: chlust_pb2_grpc.ChlustServiceStub) -> None:
    reply = stub.Showdown(
        chlust_pb2.ShowdownRequest(
            hands=hands("As Ks Qs", "Qh Jh Th", "Ac Kc Qc"), trump=cards_pb2.SUIT_HEARTS
        ),
        timeout=30,
    )
    assert reply.HasField("winner") and reply.winner == 1 and not reply.needs_tricks
    assert [list(g.seats) for g in reply.ranking] == [[1], [2], [0]]
    none = stub.Showdown(
        chlust_pb2.ShowdownRequest(hands=hands("Qh Jd Tc", "Ad Ks Qs"), trump=2), timeout=30
    )
    assert not none.HasField("winner") and none.needs_tricks


def test_legal_plays_ch_e10(stub: chlust_pb2_grpc.ChlustServiceStub) -> None:
    def legal(hand: str, trick: str) -> str:
        request = chlust_pb2.LegalPlaysRequest(
            hand=wire(hand), trick=wire(trick), trump=cards_pb2.SUIT_HEARTS
        )
        return text(list(stub.LegalPlays(request, timeout=30).legal))

    assert legal("Th Kh Ac", "Qd Kd Jh") == "Kh"
    assert legal("Th Ac Ks", "Qd Kd Jh") == "Th"
    assert legal("Jh As Kc", "Qd") == "Jh"


CH_E11 = ("Ah Td Kc", "Kh Ad Js", "Qh Jd Tc")


def test_play_deal_ch_e11(stub: chlust_pb2_grpc.ChlustServiceStub) -> None:
    reply = stub.PlayDeal(
        chlust_pb2.PlayDealRequest(
            hands=hands(*CH_E11),
            trump=cards_pb2.SUIT_SPADES,
            plays=wire("Ah Kh Qh Kc Js Tc Ad Jd Td"),
            turned=wire("Qs")[0],
        ),
        timeout=30,
    )
    assert [t.winner for t in reply.tricks] == [0, 1, 1]
    assert {s.seat: s.tricks for s in reply.seats} == {0: 1, 1: 2, 2: 0}
    assert list(reply.winners) == [1]
    winner = next(s for s in reply.seats if s.seat == 1)
    assert (winner.share_numerator, winner.share_denominator) == (1, 1)
    assert reply.carried_numerator == 0


def test_play_deal_illegal_play_names_ch8(stub: chlust_pb2_grpc.ChlustServiceStub) -> None:
    request = chlust_pb2.PlayDealRequest(
        hands=hands(*CH_E11), trump=cards_pb2.SUIT_SPADES, plays=wire("Ah Kh Qh Kc Ad Tc Js Jd Td")
    )
    with pytest.raises(grpc.RpcError) as err:
        stub.PlayDeal(request, timeout=30)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    found = violations(err.value)
    assert "plays[4]" in found and "CH-8" in found["plays[4]"]


def test_showdown_odds_exact_and_monte_carlo(stub: chlust_pb2_grpc.ChlustServiceStub) -> None:
    """A♦K♦Q♦ (trumps ♦) loses only to the 10 three-jacks hands of 680 (CH-5)."""
    exact = stub.ShowdownOdds(
        chlust_pb2.ShowdownOddsRequest(
            hand=wire("Ad Kd Qd"), trump=cards_pb2.SUIT_DIAMONDS, opponents=1
        ),
        timeout=60,
    )
    assert exact.method == chlust_pb2.ODDS_METHOD_EXACT and exact.deals == 680
    assert exact.win == pytest.approx(670 / 680)
    mc = stub.ShowdownOdds(
        chlust_pb2.ShowdownOddsRequest(
            hand=wire("Ad Kd Qd"), trump=2, opponents=3, samples=5000, seed=9
        ),
        timeout=60,
    )
    assert mc.method == chlust_pb2.ODDS_METHOD_MONTE_CARLO and mc.seed == 9
    assert mc.win_ci.low <= mc.win <= mc.win_ci.high


@pytest.mark.parametrize(
    ("call", "message", "field"),
    [
        ("EvaluateSet", chlust_pb2.EvaluateSetRequest(cards=wire("9h Jh Qh"), trump=3), "cards[0]"),
        ("EvaluateSet", chlust_pb2.EvaluateSetRequest(cards=wire("Ah Jh Qh")), "trump"),
        (
            "Showdown",
            chlust_pb2.ShowdownRequest(hands=hands("Ah Kh Qh", "Ah Ks Qs"), trump=3),
            "hands[1].cards[0]",
        ),
        (
            "EvaluateSet",
            chlust_pb2.EvaluateSetRequest(
                cards=wire("Ah Jh Qh"), trump=3, rules=chlust_pb2.ChlustRules(deck=28)
            ),
            "rules.deck",
        ),
        (
            "ShowdownOdds",
            chlust_pb2.ShowdownOddsRequest(hand=wire("Ah Jh Qh"), trump=3, opponents=4),
            "opponents",
        ),
    ],
)
def test_bad_requests_are_invalid_argument_with_the_field(
    stub: chlust_pb2_grpc.ChlustServiceStub, call: str, message: object, field: str
) -> None:
    with pytest.raises(grpc.RpcError) as err:
        getattr(stub, call)(message, timeout=30)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field in violations(err.value)


def test_chlust_rules_message_carries_every_option() -> None:
    """RULES §3: every ChlustRules option (and only those) has a wire field, plus `preset`, and
    each enum value selects the library value of the same name."""
    from cpsolver.rules import ChlustRules, Choice
    from cpsolver.wire.rules import rules_from_wire

    fields = chlust_pb2.ChlustRules.DESCRIPTOR.fields_by_name
    assert set(fields) == {"preset", *ChlustRules.option_names()}
    for name in ChlustRules.option_names():
        default = getattr(ChlustRules(), name)
        if not isinstance(default, Choice):
            continue
        seen = set()
        for value in fields[name].enum_type.values:
            if value.number:
                rules = rules_from_wire(chlust_pb2.ChlustRules(**{name: value.number}), ChlustRules)
                seen.add(getattr(rules, name))
                assert value.name.endswith("_" + getattr(rules, name).value.upper())
        assert seen == set(type(default))
    wire_rules = chlust_pb2.ChlustRules(preset="nines", players=2, max_raises=1)
    assert rules_from_wire(wire_rules, ChlustRules) == ChlustRules.preset(
        "nines", players=2, max_raises=1
    )


def test_exchange_ch_e9(stub: chlust_pb2_grpc.ChlustServiceStub) -> None:
    """CH-E9: A♦ turned; the holder of 10♦A♥A♠ exchanges 10♦ for A♦."""
    reply = stub.Exchange(
        chlust_pb2.ExchangeRequest(hands=hands("Kh Qh Js", "Td Ah As"), turned=wire("Ad")[0]),
        timeout=30,
    )
    assert reply.HasField("seat") and reply.seat == 1
    assert sorted(text(list(reply.hands[1].cards)).split()) == ["Ad", "Ah", "As"]
    assert text([reply.turned]) == "Td"
    nobody = stub.Exchange(
        chlust_pb2.ExchangeRequest(hands=hands("Kh Qh Js", "Td Ah As"), turned=wire("Kd")[0]),
        timeout=30,
    )
    assert not nobody.HasField("seat") and text([nobody.turned]) == "Kd"


def test_bid_ch6(stub: chlust_pb2_grpc.ChlustServiceStub) -> None:
    a = chlust_pb2
    reply = stub.Bid(
        a.BidRequest(players=3, actions=[a.BID_ACTION_RAISE, a.BID_ACTION_FOLD, a.BID_ACTION_CALL]),
        timeout=30,
    )
    assert reply.over and list(reply.in_play) == [0, 1] and reply.pot == 5
    assert [r.seat for r in reply.history] == [1, 2, 0]
    assert not reply.HasField("to_act") and not reply.HasField("winner")
    with pytest.raises(grpc.RpcError) as err:
        stub.Bid(a.BidRequest(players=2, actions=[a.BID_ACTION_CALL]), timeout=30)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    found = violations(err.value)
    assert "CH-6" in found["actions[0].action"]


def test_advise_play_takes_the_sure_trick(stub: chlust_pb2_grpc.ChlustServiceStub) -> None:
    """Seat 1 showed void in ♦ and ♠ (trumps): leading Q♦ is a sure trick and keeps the lead."""
    reply = stub.AdvisePlay(
        chlust_pb2.AdvisePlayRequest(
            hand=wire("Qd Qh"),
            trump=cards_pb2.SUIT_SPADES,
            seat=0,
            seats=[0, 1],
            history=[chlust_pb2.TrickRecord(leader=0, cards=wire("Kd Ac"))],
            trick=chlust_pb2.TrickRecord(leader=0),
            turned=wire("Js")[0],
            samples=500,
        ),
        timeout=60,
    )
    assert text([reply.card]) == "Qd" and reply.method == chlust_pb2.ODDS_METHOD_EXACT
    values = {text([v.card]): v.tricks for v in reply.values}
    assert set(values) == {"Qd", "Qh"} and values["Qd"] > values["Qh"]
