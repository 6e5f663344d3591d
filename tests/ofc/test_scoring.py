"""OFC settlement (RULES OFC-2..OFC-5): the worked examples, one hand-made table per rule, and
random tables against the independent scorer of tests/ofc/reference.py."""

from __future__ import annotations

import random

import pytest

from cpsolver.cards import DECK_52, Card, parse_cards
from cpsolver.errors import CardError, InvalidInputError, RuleError
from cpsolver.ofc import OfcRules, score
from cpsolver.rules import Row
from tests.ofc import reference

E1 = {"back": "2s 2h 2d 2c Ks", "middle": "As Ah Ad Kh Kd", "front": "Qs Qh 3c"}
E2 = {"back": "9s 8s 7s 6s 5s", "middle": "Th Td Tc 3h 3d", "front": "Jc Jd 4s"}
# Middle (T high) beats back (9 high): fouled.
FOULED = {"back": "9c 8c 7d 6d 4h", "middle": "Tc 9d 8d 5h 3s", "front": "Jh 7h 2h"}


def fouled_beside(*boards: dict[str, str]) -> dict[str, list[Card]]:
    """A fouled board (by the reference) of cards none of ``boards`` holds (seeded)."""
    used = {c for b in boards for k in ("back", "middle", "front") for c in parse_cards(b[k])}
    free = [c for c in DECK_52.cards if c not in used]
    rng = random.Random(5)
    while True:
        cards = rng.sample(free, 13)
        board = {"back": cards[:5], "middle": cards[5:10], "front": cards[10:]}
        if reference.fouled(board):
            return board


def test_ofc_e1_royalties_valid_fantasyland() -> None:
    for fantasyland in ("standard", "progressive"):
        table = score({"E1": E1, "X": fouled_beside(E1)}, fantasyland=fantasyland)
        e1 = table.boards[0]
        assert not e1.fouled
        assert e1.royalty_total == 29
        assert dict((r.label, v) for r, v in e1.royalties.items()) == {
            "back": 10,
            "middle": 12,
            "front": 7,
        }
        assert e1.fantasyland == 14


def test_ofc_e2_wins_back_loses_middle_and_front() -> None:
    table = score({"E1": E1, "E2": E2})
    assert table.boards[1].royalty_total == 33
    assert table.net == (-3, 3)
    pair = table.to_dict()["pairings"][0]
    assert pair["rows"] == {"back": -1, "middle": 1, "front": 1}
    assert pair["scoop"] == 0 and pair["royalties"] == -4 and pair["total"] == -3


def test_ofc_e3_fouled_board_pays_six_and_royalties() -> None:
    table = score({"F": fouled_beside(E1), "E1": E1})
    assert table.boards[0].fouled
    assert table.boards[0].royalty_total == 0
    assert table.boards[0].fantasyland == 0
    assert table.net == (-35, 35)


def test_two_fouled_boards_pay_each_other_nothing_but_both_pay_the_third() -> None:
    first = fouled_beside(E1)
    text = {k: " ".join(map(str, v)) for k, v in first.items()}
    table = score([first, fouled_beside(E1, text), E1])
    assert table.boards[0].fouled and table.boards[1].fouled
    assert [p.total for p in table.pairings] == [0, -35, -35]
    assert table.net == (-35, -35, 70)


def test_scoop_is_six_plus_royalty_difference() -> None:
    strong = {"back": "Ac Ad Ah 4c 4d", "middle": "Kc Kd 7h 6c 5d", "front": "Qc Jd 2h"}
    weak = {"back": "Tc Td 8s 7s 2d", "middle": "9c 9d 6h 3c 2c", "front": "8c 5s 3d"}
    table = score({"S": strong, "W": weak})
    assert [b.royalty_total for b in table.boards] == [6, 0]  # back full house 6
    assert table.net == (12, -12)  # 3 rows + 3 scoop + 6


def test_equal_rows_pay_nothing_and_break_the_scoop() -> None:
    a = {"back": "Ac Kd Qh Jc 9d", "middle": "Tc 8d 7h 5c 4d", "front": "6c 3d 2h"}
    b = {"back": "As Kh Qd Js 9c", "middle": "Th 8s 7c 5d 3c", "front": "6d 4h 2c"}
    table = score({"A": a, "B": b})
    assert table.to_dict()["pairings"][0]["rows"] == {"back": 0, "middle": 1, "front": -1}
    assert table.net == (0, 0)


ROYALTY_BOARDS = [
    # (back, middle, front), royalties (back, middle, front) by hand from OFC-3
    (("5c 6d 7h 8s 9c", "Ac Ad Kh Ks 2c", "4d 3h 2d"), (2, 0, 0)),
    (("Ac 2d 3h 4s 5c", "Kc Kd Qh Qs 3c", "7d 3s 2s"), (2, 0, 0)),
    (("2h 7h 9h Jh Kh", "Tc Jd Qc Ks Ac", "6c 6d 2c"), (4, 4, 1)),
    (("4c 4d 4h 9s 9c", "2d 5d 8d Td Qd", "Ac Ad 2h"), (6, 8, 9)),
    (("Jc Jd Jh Js 2c", "6c 6d 6h 3s 3c", "Kc Kd 2h"), (10, 12, 8)),
    (("5h 6h 7h 8h 9h", "3c 3d 3h 3s Ac", "Qc Qd 2h"), (15, 20, 7)),
    (("Th Jh Qh Kh Ah", "Ad 2d 3d 4d 5d", "Jc Jd 2h"), (25, 30, 6)),
    (("Tc Jc Qc Kc Ac", "Ts Js Qs Ks As", "2c 2d 2h"), (25, 50, 10)),
    (("Ac Ad Ah 4s 7c", "7d 7h 7s Ks 2c", "Tc Td 2h"), (0, 2, 5)),
    (("Ac Ad Ah 4s 4c", "Kc Kd Kh 2s 3c", "9c 9d 9h"), (6, 2, 17)),
    (("Kc Kd Kh Ks 3c", "Qc Qd Qh Qs 5c", "Ac Ad Ah"), (10, 20, 22)),
    (("2s 5s 8s Ts Qs", "4c 4d 4h 9s 7c", "3c 3d 3h"), (4, 2, 11)),
    (("Ac Ad Ah Kc Kd", "Qc Qd Qh Js Jd", "5c 5d As"), (6, 12, 0)),
    (("Ac Ad Ah Kc Kd", "Qc Qd Qh Js Jd", "7c 7d 2h"), (6, 12, 2)),
    (("Ac Ad Ah Kc Kd", "Qc Qd Qh Js Jd", "8c 8d 2h"), (6, 12, 3)),
    (("Ac Ad Ah Kc Kd", "Qc Qd Qh Js Jd", "9c 9d 2h"), (6, 12, 4)),
]


@pytest.mark.parametrize(("rows", "expected"), ROYALTY_BOARDS)
def test_every_royalty_of_ofc3(rows: tuple[str, str, str], expected: tuple[int, int, int]) -> None:
    board = dict(zip(("back", "middle", "front"), rows, strict=True))
    result = score({"A": board, "B": fouled_beside(board)}).boards[0]
    assert not result.fouled, result.foul_reason
    got = tuple(result.royalties[row] for row in (Row.BACK, Row.MIDDLE, Row.FRONT))
    assert got == expected
    assert result.royalty_total == sum(expected)


@pytest.mark.parametrize(
    ("front", "standard", "progressive"),
    [
        ("Jc Jd Ah", 0, 0),
        ("Qc Qd 2h", 14, 14),
        ("Kc Kd 2h", 14, 15),
        ("Ac Ad 2h", 14, 16),
        ("2c 2d 2h", 14, 17),
        ("9c 9d 9h", 14, 17),
    ],
)
def test_fantasyland_entry_by_the_front(front: str, standard: int, progressive: int) -> None:
    board = {"back": "Ts Js Qs Ks As", "middle": "3s 3h 3d 3c 4c", "front": front}
    for option, cards in (("standard", standard), ("progressive", progressive)):
        assert (
            score({"A": board, "B": fouled_beside(board)}, fantasyland=option).boards[0].fantasyland
            == cards
        )


def test_a_fouled_board_with_queens_in_front_does_not_enter() -> None:
    board = {"back": "Ac Kc 9h 7c 4d", "middle": "Tc Ts 7h 5c 2d", "front": "Qc Qd 2h"}
    result = score({"A": board, "B": fouled_beside(board)}).boards[0]
    assert result.fouled and result.fantasyland == 0


STAY_BOARDS = {
    # name: (board, stays under default, no_middle, quads_middle)
    "front trips": (
        {"back": "Ts Js Qs Ks As", "middle": "4s 4h 4d 4c 5c", "front": "3c 3d 3h"},
        (True, True, True),
    ),
    "middle full house": (
        {"back": "Ac Ad Ah 4s 4c", "middle": "6c 6d 6h 3s 3c", "front": "Qc Qd 2h"},
        (True, False, False),
    ),
    # a valid board with quads in the middle has quads or better behind: it stays anyway
    "middle quads": (
        {"back": "Kc Kd Kh Ks 2c", "middle": "6c 6d 6h 6s 3c", "front": "Ac Qd 2h"},
        (True, True, True),
    ),
    "back quads": (
        {"back": "Jc Jd Jh Js 2c", "middle": "Tc 9d 8h 7s 6d", "front": "4c 3d 2h"},
        (True, True, True),
    ),
    "queens in front only": (
        {"back": "As Ks Qs Js 9s", "middle": "Tc Td 7h 5c 2d", "front": "Qc Qd 2h"},
        (False, False, False),
    ),
}


@pytest.mark.parametrize("name", STAY_BOARDS)
def test_staying_in_fantasyland(name: str) -> None:
    board, expected = STAY_BOARDS[name]
    board = {**board, "fantasyland": True}
    for option, stays in zip(("default", "no_middle", "quads_middle"), expected, strict=True):
        for progressive in ("standard", "progressive"):
            result = score(
                {"A": board, "B": fouled_beside(board)}, stay=option, fantasyland=progressive
            )
            assert result.boards[0].fantasyland == (14 if stays else 0), (option, progressive)


def test_classic_allows_four_pineapple_three() -> None:
    fourth = {"back": "Ac Kc Qc 8c 5c", "middle": "9d 8d 7d 6d 4d", "front": "5d 7h 6h"}
    boards = [E1, E2, fourth, fouled_beside(E1, E2, fourth)]
    with pytest.raises(InvalidInputError) as err:
        score(boards)
    assert err.value.field == "players" and "2 to 3" in err.value.description
    table = score(boards, "classic")
    assert len(table.net) == 4 and sum(table.net) == 0
    with pytest.raises(RuleError) as rule_err:
        OfcRules.preset("pineapple", players=4)
    assert rule_err.value.field == "rules.players"


@pytest.mark.parametrize(
    ("board", "field", "words"),
    [
        ({**E2, "front": "Jc Jd"}, "players.B.front", "expected 3 cards"),
        ({**E2, "back": "9s 8s 7s 6s 5s 4s"}, "players.B.back", "expected 5 cards"),
        ({**E2, "middle": "Th Td Tc 3h Ks"}, "players.B.middle[4]", "also players.A.back[4]"),
        ({**E2, "front": "Jc Jd 1x"}, "players.B.front[2]", "unknown rank"),
        ({"back": E2["back"], "middle": E2["middle"]}, "players.B.front", "missing row"),
        ({**E2, "side": "2c"}, "players.B.side", "unknown field"),
        ({**E2, "fantasyland": "yes"}, "players.B.fantasyland", "true or false"),
    ],
)
def test_bad_boards_name_the_field(board: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        score({"A": E1, "B": board})
    assert err.value.field == field
    assert words in str(err.value)


def test_a_card_twice_is_a_card_error_naming_both_places() -> None:
    with pytest.raises(CardError) as err:
        score([E1, {**E2, "front": "Qs Jd 4s"}])
    assert str(err.value) == "players[1].front[0]: duplicate card 'Qs' (also players[0].front[0])"


def _random_board(rng: random.Random, cards: list[Card]) -> dict[str, list[Card]]:
    return {"back": cards[:5], "middle": cards[5:10], "front": cards[10:13]}


def _sorted_board(
    rng: random.Random, cards: list[Card], *, strong_front: bool
) -> dict[str, list[Card]]:
    """A plausible board: the first of up to 30 (``strong_front``: 200) shuffles the reference
    finds valid (stronger five-card row behind) and, with ``strong_front``, with a pair of
    queens or better in front; else the first valid one, else the last one tried."""
    first_valid = None
    for _ in range(200 if strong_front else 30):
        rng.shuffle(cards)
        a, b = list(cards[:5]), list(cards[5:10])
        if reference.hand_key(a) < reference.hand_key(b):
            a, b = b, a
        board = {"back": a, "middle": b, "front": list(cards[10:13])}
        if not reference.fouled(board):
            first_valid = first_valid or board
            enters = reference.fantasyland(
                board, progressive=False, in_fantasyland=False, stay="default"
            )
            if not strong_front or enters:
                return board
    return first_valid or board


@pytest.mark.parametrize("seed", range(4))
def test_random_tables_match_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    short = [c for c in DECK_52.cards if c.rank >= 8]  # 28 cards: pairs, trips, fantasylands
    checked = {"royalties": 0, "fantasyland": 0, "fouled": 0, "valid": 0}
    for _ in range(400):
        kind = rng.randrange(2)
        if kind == 0:
            players, deck = 2, short
        else:
            players, deck = rng.choice((2, 3)), list(DECK_52.cards)
        dealt = rng.sample(deck, 13 * players)
        boards = []
        for p in range(players):
            hand = dealt[13 * p : 13 * (p + 1)]
            boards.append(
                _sorted_board(rng, hand, strong_front=kind == 0)
                if rng.random() < 0.7
                else _random_board(rng, hand)
            )
        flags = [rng.random() < 0.3 for _ in boards]
        progressive = rng.random() < 0.5
        stay = rng.choice(("default", "no_middle", "quads_middle"))
        spec = [
            {"back": b["back"], "middle": b["middle"], "front": b["front"], "fantasyland": f}
            for b, f in zip(boards, flags, strict=True)
        ]
        table = score(spec, fantasyland="progressive" if progressive else "standard", stay=stay)
        assert list(table.net) == reference.totals(boards)
        for board, flag, result in zip(boards, flags, table.boards, strict=True):
            assert result.fouled == reference.fouled(board)
            assert result.royalty_total == reference.royalties(board)
            assert result.fantasyland == reference.fantasyland(
                board, progressive=progressive, in_fantasyland=flag, stay=stay
            )
            checked["royalties"] += result.royalty_total > 0
            checked["fantasyland"] += result.fantasyland > 0
            checked["fouled"] += result.fouled
            checked["valid"] += not result.fouled
    # the tables exercised every branch
    assert all(n >= 20 for n in checked.values()), checked


def test_players_as_an_option_is_the_rule_option_not_the_table() -> None:
    """``score(table, players=2)`` sets the rule option, as every other override does; it
    raised TypeError ("got multiple values for argument 'players'")."""
    table = {"E1": E1, "E2": E2}
    assert score(table, players=2) == score(table, OfcRules().replace(players=2))


def test_a_table_size_out_of_range_says_pineapples_own() -> None:
    """The field's range (2 to 4, regular OFC) was all the error said, for pineapple too."""
    with pytest.raises(RuleError, match=r"valid values: 2 to 4 \(pineapple: 2 or 3\)$"):
        OfcRules().replace(players=5)
