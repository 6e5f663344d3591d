"""OFC surfaces answer alike (issue 31): the library, the CLI (``cpsolver ofc ...``, run
in-process through click) and ``OpenFaceService`` on a real server process (``cpsolver serve``,
the shared ``grpc_server`` fixture), for scoring, fantasyland sets and deals; bad input is one
error naming the field on each (exit code 2, INVALID_ARGUMENT with field violations)."""

from __future__ import annotations

import json
from pathlib import Path

import grpc
import pytest
from helpers import run_cli, violations, wire

from cpsolver import ofc
from cpsolver.ofc.deal import deal
from cpsolver.v1 import cards_pb2, open_face_pb2, open_face_pb2_grpc

E1 = {"back": "2s 2h 2d 2c Ks", "middle": "As Ah Ad Kh Kd", "front": "Qs Qh 3c"}
E2 = {"back": "9s 8s 7s 6s 5s", "middle": "Th Td Tc 3h 3d", "front": "Jc Jd 4s"}
FOULED = {"back": "9c 8c 7d 6d 4h", "middle": "Js 9d 8d 5h 3s", "front": "7h 5d 4d"}
FL_HAND = "As Ah Ad Kh Kd Ks Qs Jh Th 9c 8c 7c 6c 2d"


@pytest.fixture(scope="module")
def stub(grpc_channel: grpc.Channel) -> open_face_pb2_grpc.OpenFaceServiceStub:
    return open_face_pb2_grpc.OpenFaceServiceStub(grpc_channel)


def _board(rows: dict[str, str], fantasyland: bool = False) -> open_face_pb2.OpenFaceBoard:
    return open_face_pb2.OpenFaceBoard(
        back=wire(rows["back"]),
        middle=wire(rows["middle"]),
        front=wire(rows["front"]),
        fantasyland=fantasyland,
    )


def _to_lists(rows: dict[str, str]) -> dict[str, list[str]]:
    return {k: v.split() for k, v in rows.items()}


def test_score_alike_on_every_surface(
    tmp_path: Path, stub: open_face_pb2_grpc.OpenFaceServiceStub
) -> None:
    players = {"A": E1, "B": E2, "C": FOULED}
    library = ofc.score(players)
    # OFC-E2 and E3 by hand: A-B -3 for B... A: -3 from B, +35 from C; B: +3, +6+33 from C
    assert library.net == (32, 42, -74)

    file = tmp_path / "table.json"
    file.write_text(
        json.dumps({"rules": "pineapple", "players": {k: _to_lists(v) for k, v in players.items()}})
    )
    code, out, err = run_cli(["ofc", "score", str(file), "--json"])
    assert code == 0, err
    document = json.loads(out)
    assert document == library.to_dict()
    assert document["totals"] == {"A": 32, "B": 42, "C": -74}
    assert [document["players"][s]["fantasyland"] for s in "ABC"] == [14, 0, 0]
    assert [document["players"][s]["royalties"] for s in "ABC"] == [29, 33, 0]

    reply = stub.ScoreOpenFace(
        open_face_pb2.ScoreOpenFaceRequest(
            players=[
                open_face_pb2.OpenFaceSeat(seat=name, board=_board(rows))
                for name, rows in players.items()
            ]
        )
    )
    assert [(p.seat, p.net, p.royalties, p.fouled, p.fantasyland) for p in reply.players] == [
        ("A", 32, 29, False, 14),
        ("B", 42, 33, False, 0),
        ("C", -74, 0, True, 0),
    ]
    assert [p.total for p in reply.pairings] == [p.total for p in library.pairings]
    # OFC-E2: E1 loses the back to the straight flush, wins the middle and the front
    assert (reply.pairings[0].back, reply.pairings[0].middle, reply.pairings[0].front) == (-1, 1, 1)


def test_score_reads_rules_and_fantasyland_flags(tmp_path: Path) -> None:
    """A board set in fantasyland stays by the stay clause only: E1 (quads behind) stays; with
    --rules given on the command line it wins over the file's."""
    file = tmp_path / "table.json"
    stay = {**_to_lists(E1), "fantasyland": True}
    file.write_text(json.dumps({"rules": "classic", "players": {"A": stay, "B": _to_lists(E2)}}))
    code, out, err = run_cli(["ofc", "score", str(file), "--json"])
    assert code == 0, err
    document = json.loads(out)
    assert document["rules"]["variant"] == "classic"
    assert document["players"]["A"]["fantasyland"] == 14
    code, out, _ = run_cli(["ofc", "score", str(file), "--json", "--rules", "pineapple"])
    assert json.loads(out)["rules"]["variant"] == "pineapple"
    code, out, _ = run_cli(["ofc", "score", str(file)])
    assert code == 0 and "A: -3 units, royalties 29; fantasyland next hand, 14 cards" in out


def test_fantasyland_alike_on_every_surface(stub: open_face_pb2_grpc.OpenFaceServiceStub) -> None:
    library = ofc.fantasyland(FL_HAND, fantasyland_value=10)
    code, out, err = run_cli(["ofc", "fantasyland", FL_HAND, "--fantasyland-value", "10", "--json"])
    assert code == 0, err
    assert json.loads(out) == library.to_dict()
    assert set(json.loads(out)) >= {
        "back", "middle", "front", "discarded", "royalties", "stays", "value"
    }  # fmt: skip
    reply = stub.SetFantasyland(
        open_face_pb2.SetFantasylandRequest(cards=wire(FL_HAND), fantasyland_value=10)
    )
    assert reply.back == wire(" ".join(map(str, library.back)))
    assert reply.middle == wire(" ".join(map(str, library.middle)))
    assert reply.front == wire(" ".join(map(str, library.front)))
    assert reply.discarded == wire(" ".join(map(str, library.discarded)))
    assert (reply.royalties, reply.stays, reply.value) == (
        library.royalties,
        library.stays,
        library.value,
    )
    code, out, _ = run_cli(["ofc", "fantasyland", FL_HAND, "--fantasyland-value", "10"])
    assert code == 0 and f"royalties {library.royalties}" in out


def test_progressive_seventeen_cards_on_every_surface(
    stub: open_face_pb2_grpc.OpenFaceServiceStub,
) -> None:
    hand = "As Ah Ad Kh Kd Ks Qs Jh Th 9c 8c 7c 6c 2d 3d 4d 5d"
    library = ofc.fantasyland(hand, fantasyland="progressive", fantasyland_value=20)
    code, out, err = run_cli(
        ["ofc", "fantasyland", hand, "--set", "fantasyland=progressive",
         "--fantasyland-value", "20", "--json"]
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out) == library.to_dict()
    rules = open_face_pb2.OpenFaceRules(
        fantasyland=open_face_pb2.OpenFaceRules.FANTASYLAND_PROGRESSIVE
    )
    reply = stub.SetFantasyland(
        open_face_pb2.SetFantasylandRequest(rules=rules, cards=wire(hand), fantasyland_value=20)
    )
    assert reply.value == library.value and len(reply.discarded) == 4


def test_fantasyland_ev_alike_on_every_surface(
    stub: open_face_pb2_grpc.OpenFaceServiceStub, remote: object
) -> None:
    """The ev objective, seeded: the same set, value and stderr from the library, the CLI
    (in-process and with --server), the RPC and the typed client; two players, V = 5."""
    library = ofc.fantasyland(
        FL_HAND, objective="ev", fantasyland_value=5, samples=48, seed=2, players=2
    )
    assert library.objective == "ev" and library.samples == 48 and library.opponents == 1
    args = ["ofc", "fantasyland", FL_HAND, "--objective", "ev", "--fantasyland-value", "5",
            "--samples", "48", "--seed", "2", "--set", "players=2"]  # fmt: skip
    code, out, err = run_cli([*args, "--json"])
    assert code == 0, err
    assert json.loads(out) == library.to_dict()
    rules = open_face_pb2.OpenFaceRules(players=2)
    reply = stub.SetFantasyland(
        open_face_pb2.SetFantasylandRequest(
            rules=rules, cards=wire(FL_HAND), objective="ev", fantasyland_value=5, samples=48,
            seed=2,
        )
    )  # fmt: skip
    assert reply.back == wire(" ".join(map(str, library.back)))
    assert reply.front == wire(" ".join(map(str, library.front)))
    assert reply.discarded == wire(" ".join(map(str, library.discarded)))
    assert (reply.value, reply.stderr, reply.samples, reply.seed) == (
        library.value, library.stderr, 48, 2
    )  # fmt: skip
    assert (reply.opponents, reply.candidates, reply.policy) == (
        1, library.candidates, "fill:8"
    )  # fmt: skip
    typed = remote.ofc.fantasyland(  # type: ignore[attr-defined]
        FL_HAND, objective="ev", fantasyland_value=5, samples=48, seed=2, players=2
    )
    assert typed == library
    code, out, _ = run_cli(args)
    assert code == 0
    assert f"value {library.value:+.2f} ± {library.stderr:.2f} (V = 5)" in out
    assert "ev against 1 opponent (fill:8), 48 deals (seed 2)" in out


def test_fantasyland_ev_bad_input_and_deadline_on_every_surface(
    stub: open_face_pb2_grpc.OpenFaceServiceStub,
) -> None:
    """Bad samples, samples without ev and an unknown objective are one field error each
    (exit 2, INVALID_ARGUMENT); a million deals stop short of the call's deadline."""
    code, out, err = run_cli(["ofc", "fantasyland", FL_HAND, "--objective", "ev", "--samples",
                              "0"])  # fmt: skip
    assert code == 2 and out == ""
    assert "samples: expected a whole number from 1 to 1,000,000, got 0" in err
    code, _, err = run_cli(["ofc", "fantasyland", FL_HAND, "--samples", "10"])
    assert code == 2 and "samples: only the ev objective simulates deals" in err
    with pytest.raises(grpc.RpcError) as raised:
        stub.SetFantasyland(
            open_face_pb2.SetFantasylandRequest(cards=wire(FL_HAND), objective="ev", samples=0)
        )
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert set(violations(raised.value)) == {"samples"}
    with pytest.raises(grpc.RpcError) as raised:
        stub.SetFantasyland(
            open_face_pb2.SetFantasylandRequest(cards=wire(FL_HAND), objective="best")
        )
    assert violations(raised.value) == {
        "objective": "unknown objective 'best'; valid: royalties, ev"
    }
    with pytest.raises(grpc.RpcError) as raised:
        stub.SetFantasyland(open_face_pb2.SetFantasylandRequest(cards=wire(FL_HAND), samples=10))
    assert set(violations(raised.value)) == {"samples"}
    classic4 = open_face_pb2.OpenFaceRules(preset="classic", players=4)
    with pytest.raises(grpc.RpcError) as raised:
        stub.SetFantasyland(
            open_face_pb2.SetFantasylandRequest(rules=classic4, cards=wire(FL_HAND), objective="ev")
        )
    assert set(violations(raised.value)) == {"rules.players"}
    reply = stub.SetFantasyland(
        open_face_pb2.SetFantasylandRequest(cards=wire(FL_HAND), objective="ev",
                                            samples=1_000_000),
        timeout=3.0,
    )  # fmt: skip
    assert 0 < reply.samples < 1_000_000 and reply.objective == "ev"


def test_deal_alike_on_every_surface(stub: open_face_pb2_grpc.OpenFaceServiceStub) -> None:
    library = deal(11)
    code, out, err = run_cli(["ofc", "deal", "--seed", "11", "--json"])
    assert code == 0, err
    document = json.loads(out)
    assert document == library.to_dict()
    # 3 seats, 5 + 4 x 3 cards each, 51 different cards
    cards = [c for seat in document["seats"].values() for street in seat for c in street]
    assert [len(s) for s in document["seats"]["N"]] == [5, 3, 3, 3, 3]
    assert len(cards) == len(set(cards)) == 51
    reply = stub.DealOpenFace(open_face_pb2.DealOpenFaceRequest(seed=11))
    assert [s.seat for s in reply.seats] == ["N", "E", "S"]
    assert [[str(c) for c in _cards(st.cards)] for st in reply.seats[0].streets] == document[
        "seats"
    ]["N"]
    code, out, _ = run_cli(["ofc", "deal", "--seed", "11", "--rules", "classic"])
    assert code == 0 and out.startswith("seed 11: streets of 5 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1")
    assert [line.count(" | ") for line in out.splitlines()[1:]] == [8, 8, 8]


def _cards(cards: list[cards_pb2.Card]) -> list[str]:
    from cpsolver.wire.cards import card_from_wire

    return [str(card_from_wire(c)) for c in cards]


def test_bad_input_names_the_field_on_every_surface(
    tmp_path: Path, stub: open_face_pb2_grpc.OpenFaceServiceStub
) -> None:
    twice = {**E2, "front": "Qs Jd 4s"}  # Qs is in A's front
    file = tmp_path / "bad.json"
    file.write_text(json.dumps({"players": {"A": _to_lists(E1), "B": _to_lists(twice)}}))
    code, out, err = run_cli(["ofc", "score", str(file)])
    assert code == 2 and out == ""
    assert "players.B.front[0]: duplicate card 'Qs' (also players.A.front[0])" in err

    with pytest.raises(grpc.RpcError) as raised:
        stub.ScoreOpenFace(
            open_face_pb2.ScoreOpenFaceRequest(
                players=[
                    open_face_pb2.OpenFaceSeat(seat="A", board=_board(E1)),
                    open_face_pb2.OpenFaceSeat(seat="B", board=_board(twice)),
                ]
            )
        )
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "duplicate card 'Qs'" in violations(raised.value)["players[1].board.front[0]"]

    over = {**E2, "front": "Jc Jd 4s 5c"}
    with pytest.raises(grpc.RpcError) as raised:
        stub.ScoreOpenFace(
            open_face_pb2.ScoreOpenFaceRequest(
                players=[
                    open_face_pb2.OpenFaceSeat(seat="A", board=_board(E1)),
                    open_face_pb2.OpenFaceSeat(seat="B", board=_board(over)),
                ]
            )
        )
    assert violations(raised.value) == {"players[1].board.front": "expected 3 cards, got 4"}

    code, _, err = run_cli(["ofc", "fantasyland", FL_HAND + " 3d"])
    assert code == 2 and "cards: expected 14 cards, got 15" in err
    with pytest.raises(grpc.RpcError) as raised:
        stub.SetFantasyland(
            open_face_pb2.SetFantasylandRequest(cards=wire(FL_HAND), fantasyland_value=-2)
        )
    assert violations(raised.value) == {"fantasyland_value": "expected a number >= 0, got -2.0"}
    with pytest.raises(grpc.RpcError) as raised:
        stub.DealOpenFace(
            open_face_pb2.DealOpenFaceRequest(
                rules=open_face_pb2.OpenFaceRules(preset="pineapple", players=4)
            )
        )
    assert "rules.players" in violations(raised.value)


def test_cli_with_server_prints_what_it_prints_in_process(tmp_path: Path, server: str) -> None:
    """``--server`` sends every ofc command to OpenFaceService through the typed client: the
    output is the in-process output, errors too (the same field, exit code 2)."""
    file = tmp_path / "table.json"
    file.write_text(json.dumps({"players": {"A": _to_lists(E1), "B": _to_lists(E2)}}))
    state = tmp_path / "state.json"
    state.write_text(json.dumps(STREET_THREE))
    commands = [
        ["ofc", "advise", str(state), "--samples", "32", "--seed", "9"],
        ["ofc", "play", "--seed", "3", "--samples", "16"],
        ["ofc", "advise", str(state), "--samples", "32", "--json"],
        ["ofc", "score", str(file), "--json"],
        ["ofc", "score", str(file)],
        ["ofc", "fantasyland", FL_HAND, "--fantasyland-value", "10", "--json"],
        ["ofc", "fantasyland", FL_HAND, "--objective", "ev", "--samples", "32", "--seed", "4"],
        ["ofc", "deal", "--seed", "5", "--json"],
        ["ofc", "deal", "--seed", "5", "--rules", "classic", "--set", "players=4"],
        ["ofc", "fantasyland", "As Ks"],
    ]
    for args in commands:
        local = run_cli(args)
        remote = run_cli([*args, "--server", server])
        assert remote == local, args
    assert run_cli(commands[-1])[0] == 2


def test_typed_client_deal_takes_its_rules_by_name(remote: object) -> None:
    """solver.ofc.deal(seed, rules="classic") as cpsolver.ofc.deal takes it: the rules were
    positional-only in the client, and rules= fell into the overrides (a RuleError)."""
    from cpsolver.client import connect

    expected = deal(7, rules="classic")
    with connect() as local:
        assert local.ofc.deal(7, rules="classic") == expected
    assert remote.ofc.deal(7, rules="classic") == expected  # type: ignore[attr-defined]


def test_typed_client_errors_name_the_callers_fields(remote: object) -> None:
    """A card placed twice is found by the library on the client; a table the server refuses
    names the caller's seat, not the wire's path."""
    from cpsolver.errors import CardError

    with pytest.raises(CardError) as err:
        remote.ofc.score({"A": E1, "B": {**E2, "front": "Qs Jd 4s"}})  # type: ignore[attr-defined]
    assert err.value.field == "players.B.front[0]"
    table = remote.ofc.score({"A": E1, "B": E2})  # type: ignore[attr-defined]
    assert table == ofc.score({"A": E1, "B": E2})


# -- street advice ---------------------------------------------------------------------------

LAST_STREET = {
    "street": 5,
    "hand": ["Qd", "2c", "7h"],
    "board": {"back": ["As", "Ad", "Ac", "9s", "9d"], "middle": ["Ks", "Kd", "4c", "4d"],
              "front": ["Qs", "3h"]},
    "opponents": [{"back": ["Ts", "9h", "8c", "7d", "6s"], "middle": ["Jh", "Jd", "5c", "5d", "2s"],
                   "front": ["Th", "Td", "3c"]}],
}  # fmt: skip
STREET_THREE = {
    "street": 3,
    "hand": ["Qs", "Qd", "2c"],
    "board": {"back": ["As", "Ad", "9c"], "middle": ["Jc", "5h"], "front": ["3d", "8s"]},
    "opponents": [{"back": ["2s", "3s", "4s"], "middle": ["Jd", "Jh"], "front": ["8d", "8h"]},
                  {"back": ["Kc", "Kd"], "middle": ["7c", "7h", "6d"], "front": ["Tc", "Ts"]}],
    "dead": ["4c"],
}  # fmt: skip


def _advise_request(
    position: dict[str, object], **options: object
) -> open_face_pb2.AdviseOpenFaceRequest:
    board = position["board"]
    return open_face_pb2.AdviseOpenFaceRequest(
        street=position["street"],  # type: ignore[arg-type]
        hand=wire(" ".join(position["hand"])),  # type: ignore[arg-type]
        board=_board({r: " ".join(board.get(r, [])) for r in ("back", "middle", "front")}),  # type: ignore[union-attr]
        opponents=[
            _board({r: " ".join(o.get(r, [])) for r in ("back", "middle", "front")})
            for o in position["opponents"]  # type: ignore[union-attr]
        ],
        dead=wire(" ".join(position.get("dead", []))),  # type: ignore[arg-type]
        **options,  # type: ignore[arg-type]
    )


def test_advise_alike_on_every_surface(
    tmp_path: Path, stub: open_face_pb2_grpc.OpenFaceServiceStub, remote: object
) -> None:
    """The last street (exact: 2 x K-K-4-4 beats J-J-5-5, Q-Q in front enters fantasyland:
    1 + 1 + 1 + 3 + (13 - 7) + V = 22 with V = 10) and a simulated street 3 (seeded, so the
    same on every surface), through the library, the CLI, the RPC and the typed client."""
    for position, options in ((LAST_STREET, {}), (STREET_THREE, {"samples": 48, "seed": 3})):
        library = ofc.advise(position, fantasyland_value=10, **options)
        file = tmp_path / "state.json"
        file.write_text(json.dumps({"rules": "pineapple", **position}))
        args = ["ofc", "advise", str(file), "--fantasyland-value", "10", "--json"]
        if options:
            args += ["--samples", "48", "--seed", "3"]
        code, out, err = run_cli(args)
        assert code == 0, err
        document = json.loads(out)
        assert document == library.to_dict()
        assert set(document) >= {"place", "discard", "value", "fantasyland_value", "alternatives"}
        reply = stub.AdviseOpenFace(_advise_request(position, fantasyland_value=10, **options))
        assert [r.value for r in reply.ranked] == [r.value for r in library.ranked]
        assert [_cards(r.discard) for r in reply.ranked] == [
            [str(c) for c in r.placement.discard] for r in library.ranked
        ]
        assert reply.exact == library.exact and reply.fantasyland_value == 10
        typed = remote.ofc.advise(position, fantasyland_value=10, **options)  # type: ignore[attr-defined]
        assert typed == library
    last = ofc.advise(LAST_STREET, fantasyland_value=10)
    assert last.exact and last.best.value == 22.0
    assert str(last.best.placement) == "middle 2c, front Qd, discard 7h"


def test_advise_bad_input_names_the_field_on_every_surface(
    tmp_path: Path, stub: open_face_pb2_grpc.OpenFaceServiceStub, remote: object
) -> None:
    wrong_street = {**STREET_THREE, "street": 4}
    file = tmp_path / "state.json"
    file.write_text(json.dumps(wrong_street))
    code, out, err = run_cli(["ofc", "advise", str(file)])
    assert code == 2 and out == ""
    assert "street: street 4 comes after 9 cards placed (OFC-1), the board holds 7" in err
    with pytest.raises(grpc.RpcError) as raised:
        stub.AdviseOpenFace(_advise_request(wrong_street))
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert violations(raised.value) == {
        "street": "street 4 comes after 9 cards placed (OFC-1), the board holds 7"
    }
    twice = {**STREET_THREE, "hand": ["Qs", "Qd", "Kc"]}  # Kc is on opponents[1].back
    with pytest.raises(grpc.RpcError) as raised:
        stub.AdviseOpenFace(_advise_request(twice, samples=0, fills=99))
    found = violations(raised.value)
    assert "duplicate card 'Kc'" in found["opponents[1].back[0]"]
    assert set(found) == {"opponents[1].back[0]", "samples", "fills"}
    from cpsolver.errors import InvalidInputError

    with pytest.raises(InvalidInputError) as err_typed:
        remote.ofc.advise(twice, samples=0)  # type: ignore[attr-defined]
    assert [v.field for v in err_typed.value.violations] == ["opponents[1].back[0]", "samples"]
    file.write_text(
        json.dumps(
            {
                **STREET_THREE,
                "board": {"back": ["As"], "middle": [], "front": ["3d", "8s", "9d", "Td"]},
            }
        )
    )
    code, _, err = run_cli(["ofc", "advise", str(file)])
    assert code == 2 and "board.front: a front holds at most 3 cards (OFC-1), got 4" in err


def test_advise_honours_the_deadline(stub: open_face_pb2_grpc.OpenFaceServiceStub) -> None:
    """A million samples without a budget stop short of the call's deadline with the answer
    so far; a budget of 150 ms is kept too; a deadline too short for one round is
    DEADLINE_EXCEEDED, never INTERNAL."""
    street_one = {"street": 1, "hand": ["As", "Kd", "7c", "7h", "2s"], "board": {},
                  "opponents": [{}, {}]}  # fmt: skip
    reply = stub.AdviseOpenFace(_advise_request(street_one, samples=1_000_000), timeout=4.0)
    assert len(reply.ranked) == 232 and not reply.exact
    assert reply.elapsed_ms < 4000 and max(r.samples for r in reply.ranked) < 1_000_000
    reply = stub.AdviseOpenFace(_advise_request(street_one, budget_ms=150), timeout=30)
    assert len(reply.ranked) == 232 and reply.elapsed_ms < 3000
    with pytest.raises(grpc.RpcError) as raised:
        stub.AdviseOpenFace(_advise_request(street_one, samples=1_000_000), timeout=0.001)
    assert raised.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def test_play_plays_a_whole_hand_street_by_street() -> None:
    """Every seat places its own dealt cards, 5 then 2 of 3 a street, and the table is
    settled as cpsolver.ofc.score settles the final boards."""
    code, out, err = run_cli(["ofc", "play", "--seed", "4", "--samples", "16", "--json"])
    assert code == 0, err
    document = json.loads(out)
    dealt = deal(4)
    assert [[m["seat"] for m in street] for street in document["streets"]] == [["N", "E", "S"]] * 5
    for street, moves in enumerate(document["streets"]):
        for p, move in enumerate(moves):
            assert move["hand"] == [str(c) for c in dealt.streets[p][street]]
            placed = [c for row in move["place"].values() for c in row]
            assert sorted(placed + move["discard"]) == sorted(move["hand"])
            assert len(placed) == (5 if street == 0 else 2)
    boards = {
        seat: {
            row: document["players"][seat]["rows"][row]["cards"]
            for row in ("back", "middle", "front")
        }
        for seat in ("N", "E", "S")
    }
    assert ofc.score(boards).to_dict()["totals"] == document["totals"]
    assert sum(document["totals"].values()) == 0
    code, out, _ = run_cli(["ofc", "play", "--seed", "4", "--samples", "16"])
    assert code == 0 and out.startswith("seed 4: pineapple, 3 players")


@pytest.mark.parametrize(
    ("option", "field"), [(["--samples", "0"], "samples"), (["--budget-ms", "-1"], "budget_ms")]
)
def test_play_refuses_bad_options_before_printing_anything(option: list[str], field: str) -> None:
    """A bad --samples or --budget-ms is bad input of the whole command: exit 2 with one
    line naming it, and no header (it was printed first, the options checked only at the
    first decision)."""
    code, out, err = run_cli(["ofc", "play", "--seed", "4", *option])
    assert code == 2
    assert out == ""
    assert err.startswith(f"error: {field}: ") and err.count("\n") == 1


CLASSIC_LAST = {
    "street": 9,
    "hand": ["Qd"],
    "board": {"back": ["As", "Ad", "Ac", "9s", "9d"], "middle": ["Ks", "Kd", "4c", "4d", "7h"],
              "front": ["Qs", "3h"]},
    "opponents": [{"back": ["Ts", "9h", "8c", "7d", "6s"], "middle": ["Jh", "Jd", "5c", "5d", "2s"],
                   "front": ["Th", "Td", "3c"]}],
}  # fmt: skip
CLASSIC_STREET_FOUR = {
    "street": 4,
    "hand": ["Qh"],
    "board": {"back": ["As", "Ad", "9c"], "middle": ["Jc", "5h"], "front": ["3d", "8s"]},
    "opponents": [{"back": ["2s", "3s", "4s"], "middle": ["Jd", "Jh", "Qc"], "front": ["8d"]},
                  {"back": ["Kc", "Kd"], "middle": ["7c", "7h", "6d"], "front": ["Tc", "Ts"]},
                  {"back": ["6c", "6s", "6h", "Ah"], "middle": ["2c"], "front": ["Kh", "Ks"]}],
}  # fmt: skip


def test_classic_advice_alike_on_every_surface(
    tmp_path: Path, stub: open_face_pb2_grpc.OpenFaceServiceStub, remote: object
) -> None:
    """Classic (OFC-1: one card a street, placed, no discard; 4 seats): the last street,
    exact (the full house beats the straight, K-K-4-4-7 J-J-5-5-2, Q-Q T-T: a scoop, 6, plus
    royalties 6 + 0 + 7 against 2 + 0 + 5, plus V = 10 as Q-Q enters fantasyland: 22), and a
    simulated
    street 4 at a 4-seat table, through the library, the CLI (the file's "rules" and
    --rules), the RPC (the preset and the variant) and the typed client."""
    library = ofc.advise(CLASSIC_LAST, "classic", fantasyland_value=10)
    assert library.exact and [r.value for r in library.ranked] == [22.0]
    assert str(library.best.placement) == "front Qd"
    for position, options in (
        (CLASSIC_LAST, {}),
        (CLASSIC_STREET_FOUR, {"samples": 48, "seed": 3}),
    ):
        library = ofc.advise(position, "classic", fantasyland_value=10, **options)
        assert all(r.placement.discard == () for r in library.ranked)
        extra = ["--samples", "48", "--seed", "3"] if options else []
        file = tmp_path / "state.json"
        for document, flags in (
            ({"rules": "classic", **position}, []),
            (position, ["--rules", "classic"]),
        ):
            file.write_text(json.dumps(document))
            args = ["ofc", "advise", str(file), "--fantasyland-value", "10", "--json", *flags]
            code, out, err = run_cli([*args, *extra])
            assert code == 0, err
            assert json.loads(out) == library.to_dict()
            assert json.loads(out)["discard"] == []
        for rules in (
            open_face_pb2.OpenFaceRules(preset="classic"),
            open_face_pb2.OpenFaceRules(variant=open_face_pb2.OpenFaceRules.VARIANT_CLASSIC),
        ):
            reply = stub.AdviseOpenFace(
                _advise_request(position, rules=rules, fantasyland_value=10, **options)
            )
            assert [r.value for r in reply.ranked] == [r.value for r in library.ranked]
            assert [list(r.discard) for r in reply.ranked] == [[] for _ in library.ranked]
            assert reply.exact == library.exact
        typed = remote.ofc.advise(position, "classic", fantasyland_value=10, **options)  # type: ignore[attr-defined]
        assert typed == library
    code, out, err = run_cli(["ofc", "advise", str(file), "--rules", "classic", "--top", "2",
                              "--samples", "48", "--seed", "3"])  # fmt: skip
    assert code == 0, err
    assert out.splitlines()[0].startswith("street 4: 3 placements (simulated")
    assert "discard" not in out
    file.write_text(json.dumps({"rules": "classic", **CLASSIC_LAST}))
    code, out, err = run_cli(["ofc", "advise", str(file), "--fantasyland-value", "10"])
    assert code == 0, err
    assert out.splitlines() == [
        "street 9: 1 placement (exact; fantasyland worth 10)",
        "  1. +22.00  foul 0%  fantasyland 100%  front Q♦",
    ]


def test_classic_advice_bad_input_names_the_field_on_every_surface(
    tmp_path: Path, stub: open_face_pb2_grpc.OpenFaceServiceStub
) -> None:
    """Under classic a street is one card: three cards in hand are refused by field, street
    10 does not exist; the same position is fine under classic and refused under pineapple."""
    three = {**CLASSIC_STREET_FOUR, "hand": ["Qh", "2d", "3c"]}
    file = tmp_path / "state.json"
    file.write_text(json.dumps({"rules": "classic", **three}))
    code, out, err = run_cli(["ofc", "advise", str(file)])
    assert code == 2 and out == ""
    assert "hand: expected 1 card" in err, err
    classic = open_face_pb2.OpenFaceRules(preset="classic")
    with pytest.raises(grpc.RpcError) as raised:
        stub.AdviseOpenFace(_advise_request(three, rules=classic))
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert set(violations(raised.value)) == {"hand"}
    with pytest.raises(grpc.RpcError) as raised:
        stub.AdviseOpenFace(_advise_request({**CLASSIC_LAST, "street": 10}, rules=classic))
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert violations(raised.value) == {"street": "classic has streets 1 to 9 (OFC-1), got 10"}
    file.write_text(json.dumps(CLASSIC_STREET_FOUR))  # three opponents: not a pineapple table
    code, out, err = run_cli(["ofc", "advise", str(file), "--samples", "8"])
    assert code == 2 and "opponents: pineapple has 1 to 2 opponents (OFC-1), got 3" in err, err


def test_fantasyland_cost_classes_and_anytime() -> None:
    """The admission control learns royalties sets apart from ev sets, and ev sets by their
    samples and table; SetFantasyland is an anytime method (its ev sets stop at the deadline)."""
    from cpsolver.server.open_face import SERVICE

    classify = SERVICE.cost_classes["SetFantasyland"]

    def cls(**fields: object) -> object:
        request = open_face_pb2.SetFantasylandRequest(cards=wire(FL_HAND), **fields)  # type: ignore[arg-type]
        return classify(request.SerializeToString())

    royalties = cls()
    assert royalties == cls(objective="royalties", fantasyland_value=10)
    ev = cls(objective="ev")
    assert len({royalties, ev, cls(objective="ev", samples=100)}) == 3
    two = cls(objective="ev", rules=open_face_pb2.OpenFaceRules(players=2))
    assert two != ev
    assert "SetFantasyland" in SERVICE.anytime_methods
