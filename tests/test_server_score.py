"""ScoreTable over the network (issue 4): RULES.md worked examples and the library's answers."""

from __future__ import annotations

import grpc
import pytest

from cpsolver.chinese.scoring import score
from cpsolver.v1 import chinese_poker_pb2 as pb
from cpsolver.v1 import chinese_poker_pb2_grpc
from tests.test_server import violations, wire

RULES = pb.ChineseRules
# CP-E5 (front / middle / back).
CP_E5 = {
    "N": ("Qs Qd 2c", "Js Jd Jh 5c 4d", "9s 8s 7s 4s 2s"),
    "E": ("Ah Kd 3c", "Tc Td 6h 6c Kc", "8d 9d Th Jc Qc"),
    "S": ("7d 7c Ac", "5s 5h 5d 9c 8c", "3h 3d 3s Ks Kh"),
    "W": ("2h 2d 4c", "As Ad 6s 6d Ts", "Qh 9h 8h 7h 4h"),
}
CP_E6 = {
    "A": ("8s 8h 8d", "4c 4d 4h Ks Kd", "Qs Qh Qd Qc 2c"),
    "B": ("As Ah 3c", "9s 9h 9c 7h 7c", "3s 4s 5s 6s 7s"),
}
CP_E7 = {
    "F": ("Ks Kd 2h", "Qs Qh 5c 4c 3d", "As Ad Ac 9s 9d"),
    "V": ("Jh Jc 6s", "Th Tc Td 8h 8c", "7s 7h 7d 7c 3s"),
}


def table(rows: dict[str, tuple[str, str, str]], **naturals: str) -> list[pb.TablePlayer]:
    players = []
    for seat, (front, middle, back) in rows.items():
        arrangement = pb.Arrangement(back=wire(back), middle=wire(middle), front=wire(front))
        players.append(pb.TablePlayer(seat=seat, arrangement=arrangement))
    for seat, cards in naturals.items():
        natural = pb.TablePlayer.NaturalDeclaration(cards=wire(cards))
        players.append(pb.TablePlayer(seat=seat, natural=natural))
    return players


@pytest.fixture(scope="module")
def stub(grpc_channel: grpc.Channel) -> chinese_poker_pb2_grpc.ChinesePokerServiceStub:
    return chinese_poker_pb2_grpc.ChinesePokerServiceStub(grpc_channel)


def totals(reply: pb.ScoreTableResponse) -> dict[str, int]:
    return {t.seat: t.units for t in reply.totals}


@pytest.mark.parametrize(
    ("rows", "rules", "expected"),
    [
        (CP_E5, None, {"N": 5, "E": -9, "S": 5, "W": -1}),
        (CP_E5, RULES(scoring=RULES.SCORING_SCOOP_DOUBLE), {"N": 8, "E": -18, "S": 11, "W": -1}),
        (CP_E6, None, {"A": -4, "B": 4}),
        (CP_E6, RULES(royalty_mode=RULES.ROYALTY_MODE_ADD), {"A": -5, "B": 5}),
        (CP_E6, RULES(royalties=RULES.ROYALTIES_NONE), {"A": -1, "B": 1}),
        (CP_E7, None, {"F": -7, "V": 7}),
        (CP_E7, RULES(royalties=RULES.ROYALTIES_NONE), {"F": -3, "V": 3}),
    ],
)
def test_score_table_worked_examples_cp_e5_e6_e7(stub, rows, rules, expected) -> None:
    reply = stub.ScoreTable(pb.ScoreTableRequest(players=table(rows), rules=rules))
    assert totals(reply) == expected
    assert [t.seat for t in reply.totals] == list(rows)  # table order


def test_score_table_pairings_equal_library_cp_e5(stub) -> None:
    reply = stub.ScoreTable(pb.ScoreTableRequest(players=table(CP_E5)))
    library = score({s: {"front": f, "middle": m, "back": b} for s, (f, m, b) in CP_E5.items()})
    names = library.seats
    assert [(p.seat, p.opponent) for p in reply.pairings] == [
        (names[a], names[b]) for a, b in (p.seats for p in library.pairings)
    ]
    for got, want in zip(reply.pairings, library.pairings, strict=True):
        assert got.units == want.total
        assert got.bonus == want.bonus
        assert pb.Settlement.Name(got.settlement) == "SETTLEMENT_" + want.settled_by.name
        assert [(pb.Row.Name(r.row), r.units) for r in got.rows] == [
            ("ROW_" + r.row.name, r.units) for r in want.rows
        ]
    # RULES CP-E5: N-E +3, N-S +1, N-W +1, E-S -3, E-W -3, S-W +3.
    assert [p.units for p in reply.pairings] == [3, 1, 1, -3, -3, 3]


def test_score_table_foul_is_reported_cp_e7(stub) -> None:
    reply = stub.ScoreTable(pb.ScoreTableRequest(players=table(CP_E7)))
    fouled = {t.seat: (t.fouled, bool(t.foul_reason)) for t in reply.totals}
    assert fouled == {"F": (True, True), "V": (False, False)}
    assert reply.pairings[0].settlement == pb.SETTLEMENT_FOUL


def test_declared_natural_collects_cp_e9(stub) -> None:
    """Six pairs declared: +3 from each ordinary opponent (CP-E9)."""
    six_pairs = "2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As"
    others = {
        "N": ("3c 4d 6h", "8s 8h Tc Td Qh", "Ah Ac 4s 4h 6c"),
        "E": ("3d 3h 5s", "6d 6s 8c 8d 2d", "Qs Qc Ts Th Ks"),
    }
    reply = stub.ScoreTable(pb.ScoreTableRequest(players=table(others, W=six_pairs)))
    assert totals(reply)["W"] == 6
    natural = next(t.natural for t in reply.totals if t.seat == "W")
    assert pb.NaturalKind.Name(natural.kind) == "NATURAL_KIND_SIX_PAIRS"


@pytest.mark.parametrize(
    ("players", "field", "says"),
    [
        (table({"N": CP_E6["A"]}), "players", "2 to 4"),
        (table({"N": CP_E6["A"], "E": CP_E6["A"]}), "players[1].arrangement.back[0]", "duplicate"),
        (table({"N": CP_E6["A"], "E": ("As Ah", *CP_E6["B"][1:])}),
         "players[1].arrangement.front", "expected 3 cards"),
        ([*table(CP_E6), pb.TablePlayer(seat="A")], "players[2].seat", "appears twice"),
        ([*table(CP_E6), pb.TablePlayer(seat="C")], "players[2]", "arrangement or a natural"),
        (table(CP_E6, C="2d 2h 3d 5h 6d Th Jd Jc Ts Tc Kh Ad 5c"), "players[2].natural",
         "declared a natural"),
    ],
)  # fmt: skip
def test_score_table_bad_input_names_the_field(stub, players, field, says) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        stub.ScoreTable(pb.ScoreTableRequest(players=players))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    found = violations(caught.value)
    assert says in found.get(field, ""), found


# --- ValidateArrangement -------------------------------------------------------------------


def validate(
    stub, front: str, middle: str, back: str, rules=None
) -> pb.ValidateArrangementResponse:
    arrangement = pb.Arrangement(back=wire(back), middle=wire(middle), front=wire(front))
    return stub.ValidateArrangement(
        pb.ValidateArrangementRequest(arrangement=arrangement, rules=rules)
    )


def test_validate_cp_e1_valid_cp_e2_fouled(stub) -> None:
    e1 = validate(stub, "9s 9d Kc", "9h 9c Kd 5s 2h", "As Ks Qs Js 3s")
    assert e1.valid and not e1.foul_reason
    e2 = validate(stub, "9s 9d Kc", "9h 9c Qd Js Th", "As Ks 8s 7s 3s")
    assert not e2.valid
    assert "front" in e2.foul_reason and "middle" in e2.foul_reason


def test_validate_cp_e3_equal_back_and_middle_fouls_only_under_strict(stub) -> None:
    rows = ("2c 3d 4h", "Ah Kd Qc Jd Ts", "As Ks Qd Jc Th")
    assert validate(stub, *rows).valid
    assert not validate(stub, *rows, rules=RULES(order=RULES.ORDER_STRICT)).valid


def test_validate_reports_rows_and_royalties_cp_e6(stub) -> None:
    """CP-E6 player A: trips front (3), full house middle (2), quads back (4)."""
    reply = validate(stub, "8s 8h 8d", "4c 4d 4h Ks Kd", "Qs Qh Qd Qc 2c")
    assert reply.valid
    assert {pb.Row.Name(r.row): r.royalty for r in reply.rows} == {
        "ROW_FRONT": 3, "ROW_MIDDLE": 2, "ROW_BACK": 4,
    }  # fmt: skip
    assert reply.royalties == 9
    eastern = validate(stub, "8s 8h 8d", "4c 4d 4h Ks Kd", "Qs Qh Qd Qc 2c",
                       rules=RULES(royalties=RULES.ROYALTIES_NONE))  # fmt: skip
    assert eastern.royalties == 0


@pytest.mark.parametrize(
    ("rows", "field", "says"),
    [
        (("9s 9d Kc", "9h 9c Kd 5s 2h", "As Ks Qs Js 9s"), "arrangement.front[0]", "duplicate"),
        (("9s 9d", "9h 9c Kd 5s 2h", "As Ks Qs Js 3s"), "arrangement.front", "expected 3 cards"),
    ],
)
def test_validate_bad_input_names_the_field(stub, rows, field, says) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        validate(stub, *rows)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    found = violations(caught.value)
    assert says in found.get(field, ""), found
