"""Table settlement, RULES CP-7..CP-11: worked examples CP-E1..E12, fouls, naturals, bonuses,
properties on random tables, and every documented input error."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cpsolver
from cpsolver.cards import Card, parse_cards
from cpsolver.chinese.naturals import detect_natural
from cpsolver.chinese.scoring import (
    SCORING_CODES,
    Outcome,
    Seat,
    SettledBy,
    TableResult,
    foul_check,
    row_value_table,
    score,
    settle_pair,
)
from cpsolver.errors import CardError, InvalidInputError, RuleError
from cpsolver.evaluator.poker import strength
from cpsolver.rules.chinese import ChineseRules, Row


def rows(front: str, middle: str, back: str) -> dict[str, str]:
    return {"front": front, "middle": middle, "back": back}


def declared(cards: str) -> dict[str, object]:
    return {"cards": cards, "natural": True}


# A table given by seat names labels seats 0..n-1 in its order; these read the per-seat tuples
# back by name.
def by_name(table: TableResult) -> dict[str, int]:
    return dict(zip(table.seats, table.net, strict=True))


def player(table: TableResult, name: str) -> Seat:
    return table.players[table.seats.index(name)]


def net(table: TableResult, a: str, b: str) -> int:
    return table.between(table.seats.index(a), table.seats.index(b))


# -- CP-E1..E4: validity (CP-5, CP-6) and the wheel (CP-3) seen through the scorer --

E1 = rows("9♠9♦K♣", "9♥9♣K♦5♠2♥", "A♠K♠Q♠J♠3♠")
E2 = rows("9♠9♦K♣", "9♥9♣Q♦J♠10♥", "A♠K♠8♠7♠3♠")
E3 = rows("2♣3♦4♥", "A♥K♦Q♣J♦10♠", "A♠K♠Q♦J♣10♥")
# A valid hand that shares no card with E1..E3, to sit opposite them.
OTHER = rows("2d 3c 4d", "5c 5d 6c 7c 8c", "6d 6h 6s Tc Td")


def test_cp_e1_front_below_middle_on_the_five_card_scale_is_valid() -> None:
    table = score({"P": E1, "Q": OTHER})
    assert not player(table, "P").fouled


def test_cp_e2_front_kicker_beating_middle_fouls() -> None:
    table = score({"P": E2, "Q": OTHER})
    assert player(table, "P").fouled
    assert "front" in player(table, "P").foul_reason


def test_cp_e3_equal_back_and_middle_valid_by_default_foul_under_strict() -> None:
    assert not player(score({"P": E3, "Q": OTHER}), "P").fouled
    strict = score({"P": E3, "Q": OTHER}, order="strict")
    assert player(strict, "P").fouled
    assert "strict" in player(strict, "P").foul_reason


def test_cp_e4_six_high_straight_beats_wheel_unless_wheel_second_highest() -> None:
    players = {
        "P": rows("Qc Jd Tc", "Ks Kd 9c 8d 7h", "6♠5♥4♦3♣2♠"),
        "Q": rows("Qh Jh Td", "Kh Kc 9h 8c 7d", "A♥2♦3♥4♠5♣"),
    }
    table = score(players)
    back = table.pairings[0].rows[0]
    assert (back.row, back.outcome, back.units) == (Row.BACK, Outcome.WIN, 1)
    assert [r.outcome for r in table.pairings[0].rows[1:]] == [Outcome.TIE, Outcome.TIE]
    assert by_name(table)["P"] == 1
    assert by_name(score(players, wheel="second_highest"))["P"] == -1


# -- CP-E5: four players, both scorings --

E5 = {
    "N": rows("Q♠Q♦2♣", "J♠J♦J♥5♣4♦", "9♠8♠7♠4♠2♠"),
    "E": rows("A♥K♦3♣", "10♣10♦6♥6♣K♣", "8♦9♦10♥J♣Q♣"),
    "S": rows("7♦7♣A♣", "5♠5♥5♦9♣8♣", "3♥3♦3♠K♠K♥"),
    "W": rows("2♥2♦4♣", "A♠A♦6♠6♦10♠", "Q♥9♥8♥7♥4♥"),
}


def test_cp_e5_four_player_pairings_and_totals() -> None:
    table = score(E5)
    assert [p.seats for p in table.pairings] == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert table.seats == ("N", "E", "S", "W")
    assert [p.total for p in table.pairings] == [3, 1, 1, -3, -3, 3]
    assert by_name(table) == {"N": 5, "E": -9, "S": 5, "W": -1}
    assert all(p.bonus == 0 and p.settled_by is SettledBy.ROWS for p in table.pairings)


def test_cp_e5_scoop_double() -> None:
    table = score(E5, scoring="scoop_double")
    assert by_name(table) == {"N": 8, "E": -18, "S": 11, "W": -1}


def test_cp_e5_two_four_adds_one_per_majority() -> None:
    # CP-9 two_four: E5 has no royalties, so every row is worth 1 and each pairing's odd total
    # shows a majority in its direction: each pairing total moves one unit away from zero.
    base = [3, 1, 1, -3, -3, 3]
    table = score(E5, scoring="two_four")
    assert [p.total for p in table.pairings] == [t + (1 if t > 0 else -1) for t in base]
    assert by_name(table) == {"N": 8, "E": -12, "S": 6, "W": -2}


# -- CP-E6: royalties and their options --

E6 = {
    "A": rows("8♠8♥8♦", "4♣4♦4♥K♠K♦", "Q♠Q♥Q♦Q♣2♣"),
    "B": rows("A♠A♥3♣", "9♠9♥9♣7♥7♣", "3♠4♠5♠6♠7♠"),
}


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [({}, -4), ({"royalty_mode": "add"}, -5), ({"royalties": "none"}, -1)],
)
def test_cp_e6_royalties(overrides: dict[str, str], expected: int) -> None:
    table = score(E6, **overrides)
    assert by_name(table) == {"A": expected, "B": -expected}


def test_cp_e6_row_detail() -> None:
    pairing = score(E6).pairings[0]
    assert [(r.row, r.outcome, r.units, r.winner) for r in pairing.rows] == [
        (Row.BACK, Outcome.LOSS, -5, 1),
        (Row.MIDDLE, Outcome.LOSS, -2, 1),
        (Row.FRONT, Outcome.WIN, 3, 0),
    ]


# -- CP-E7: a foul pays the other side's row values, and CP-9 bonuses as for a scoop --

E7 = {
    "F": rows("K♠K♦2♥", "Q♠Q♥5♣4♣3♦", "A♠A♦A♣9♠9♦"),
    "V": rows("J♥J♣6♠", "10♥10♣10♦8♥8♣", "7♠7♥7♦7♣3♠"),
}


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({}, 7),
        ({"royalties": "none"}, 3),
        ({"scoring": "scoop_double"}, 14),  # CP-10: bonuses as for a scoop
        ({"scoring": "two_four"}, 8),
        ({"scoring": "two_four", "royalties": "none"}, 4),  # "a scoop is worth 4"
    ],
)
def test_cp_e7_foul(overrides: dict[str, str], expected: int) -> None:
    table = score(E7, **overrides)
    assert player(table, "F").fouled and not player(table, "V").fouled
    assert by_name(table) == {"F": -expected, "V": expected}
    pairing = table.pairings[0]
    assert pairing.settled_by is SettledBy.FOUL
    assert [r.outcome for r in pairing.rows] == [Outcome.LOSS] * 3
    assert any("F fouled" in note for note in pairing.notes)


def test_cp10_two_fouled_players_pay_each_other_nothing() -> None:
    other_foul = rows("Kh Kc 2s", "Qd Qc 8s 6h 5s", "Js Jd Ts 9h 4h")
    table = score({"F": E7["F"], "G": other_foul, "V": E7["V"]}, scoring="two_four")
    assert player(table, "G").fouled
    assert net(table, "F", "G") == 0
    assert table.pairings[0].settled_by is SettledBy.BOTH_FOULED
    assert table.pairings[0].rows == ()
    # Each fouled player pays V the same 7 + 1 (two_four) as in CP-E7.
    assert by_name(table) == {"F": -8, "G": -8, "V": 16}


# -- CP-E8: ties pay nothing --


def test_cp_e8_tied_rows_pay_nothing() -> None:
    table = score(
        {
            "X": rows("Q♠Q♦6♣", "4♣4♦2♠2♦K♣", "7♠8♦9♣10♥J♠"),
            "Y": rows("Q♥Q♣6♦", "5♠5♥3♣3♦A♣", "7♥8♠9♦10♣J♥"),
        }
    )
    assert by_name(table) == {"X": -1, "Y": 1}
    outcomes = [r.outcome for r in table.pairings[0].rows]
    assert outcomes == [Outcome.TIE, Outcome.LOSS, Outcome.TIE]


def test_cp_e8_two_four_single_row_win_is_a_majority() -> None:
    # One row won, two tied: Y won more of the three rows (CP-9 two_four).
    table = score(
        {
            "X": rows("Q♠Q♦6♣", "4♣4♦2♠2♦K♣", "7♠8♦9♣10♥J♠"),
            "Y": rows("Q♥Q♣6♦", "5♠5♥3♣3♦A♣", "7♥8♠9♦10♣J♥"),
        },
        scoring="two_four",
    )
    assert by_name(table) == {"X": -2, "Y": 2}


# -- CP-E9..E12: naturals at the table --

E9_SIX_PAIRS = "2♠2♥5♦5♣7♠7♥9♦9♣J♠J♥K♦K♣A♠"
# Two ordinary hands without E9's cards.
ORD_1 = rows("Ah Ad 3c", "Ks Kh 8c 8d 4s", "Qs Qh Qd Tc Td")
ORD_2 = rows("4c 6d 8h", "Ts Th 6s 6h 3d", "Jc Jd 3h 3s 4d")
# An ordinary hand without the dragon's cards.
ORD_3 = rows("Ah Ad 3h", "Ks Kd 8c 8h 4s", "Qs Qh Qc Tc Td")


def test_cp_e9_six_pairs_collects_three_from_each_ordinary_opponent() -> None:
    table = score({"N": declared(E9_SIX_PAIRS), "E": ORD_1, "S": ORD_2})
    assert net(table, "N", "E") == 3 and net(table, "N", "S") == 3
    assert by_name(table)["N"] == 6
    natural = player(table, "N").natural
    assert natural is not None and natural.name == "six_pairs"
    assert table.pairings[0].settled_by is SettledBy.NATURAL and table.pairings[0].rows == ()


def test_cp11_natural_ignores_bonuses_and_royalty_options() -> None:
    for overrides in ({"scoring": "scoop_double"}, {"scoring": "two_four"}, {"royalties": "none"}):
        table = score({"N": declared(E9_SIX_PAIRS), "E": ORD_1}, **overrides)
        assert by_name(table)["N"] == 3


# Dragon table: N dragon (CP-E10), E declares six pairs, S ordinary, W fouled.
DRAGON = "A♠K♥Q♦J♣10♠9♥8♦7♣6♠5♥4♦3♣2♠"
E_PAIRS = "2h 2d 3h 3d 4h 4c 5d 5c 6h 6d 7h 7d Ah"
S_ROWS = rows("Jh Js 3s", "Ks Kc 9s 9c 2c", "Qs Qh Qc 8s 8h")
W_FOUL = rows("Ac Ad 4s", "Tc Td Kd 9d 8c", "Th Jd 7s 6c 5s")


def test_cp_e10_dragon_collects_thirteen_from_everyone() -> None:
    table = score({"N": declared(DRAGON), "E": declared(E_PAIRS), "S": S_ROWS, "W": W_FOUL})
    assert player(table, "N").natural is not None and player(table, "N").natural.name == "dragon"
    assert player(table, "W").fouled
    assert [net(table, "N", x) for x in "ESW"] == [13, 13, 13]
    # E's natural collects 3 from the ordinary S and from the fouled W (CP-11).
    assert net(table, "E", "S") == 3 and net(table, "E", "W") == 3
    # S collects its three 1-unit rows from the fouled W (CP-10).
    assert net(table, "S", "W") == 3
    assert by_name(table) == {"N": 39, "E": -7, "S": -13, "W": -19}


def test_cp_e10_two_dragons_pay_each_other_nothing() -> None:
    other_dragon = "Ah Kd Qc Js Th 9d 8c 7s 6h 5d 4c 3s 2h"
    table = score({"N": declared(DRAGON), "E": declared(other_dragon)})
    assert by_name(table) == {"N": 0, "E": 0}


E11_STRAIGHTS = "5♣6♦7♥ 4♠5♠6♣7♦8♥ 8♠9♦10♣J♠Q♥"
E12_FLUSHES = "2♥5♥9♥ 3♥4♥7♥J♥K♥ 2♠6♠8♠10♠Q♠"
# Three flushes (8 hearts split 3 + 5, five clubs) without E11's cards.
FLUSHES = "2h 3h 4h / 5h 6h 9h Th Jh / 2c 3c 4c 7c 8c"


def test_cp_e11_higher_natural_collects_its_own_units() -> None:
    table = score({"F": declared(FLUSHES), "S": declared(E11_STRAIGHTS)})
    assert player(table, "F").natural is not None
    assert player(table, "F").natural.name == "three_flushes"
    assert player(table, "S").natural is not None
    assert player(table, "S").natural.name == "three_straights"
    assert by_name(table) == {"F": 3, "S": -3}


def test_cp_e12_three_flushes_declared_although_the_rows_would_foul() -> None:
    as_rows = rows("2♥5♥9♥", "3♥4♥7♥J♥K♥", "2♠6♠8♠10♠Q♠")
    opponent = rows("Ac Ad 3c", "Ks Kd 8c 8d 4s", "Qc Qh Qd Tc Td")
    assert player(score({"P": as_rows, "Q": opponent}), "P").fouled
    table = score({"P": declared(E12_FLUSHES), "Q": opponent})
    assert by_name(table) == {"P": 3, "Q": -3}


def test_cp11_undeclared_natural_plays_its_rows_and_is_reported() -> None:
    # E9's six pairs arranged as rows: declaring is the player's choice.
    six_pairs_rows = rows("As 2s 2h", "9d 9c 7s 7h 5c", "Kd Kc Jh Js 5d")
    table = score({"N": six_pairs_rows, "E": ORD_1})
    seat = player(table, "N")
    assert seat.natural is None
    assert seat.available_natural is not None and seat.available_natural.name == "six_pairs"
    assert table.pairings[0].settled_by is not SettledBy.NATURAL


def test_cp11_declared_natural_can_name_a_lower_natural_but_plays_the_highest() -> None:
    table = score({"N": {"cards": DRAGON, "natural": "three_straights"}, "E": ORD_3})
    assert player(table, "N").natural is not None
    assert player(table, "N").natural.name == "dragon"
    assert by_name(table)["N"] == 13


def test_cp11_natural_object_and_solution_like_objects_are_accepted() -> None:
    natural = detect_natural(parse_cards(DRAGON))
    assert natural is not None

    class Solved:
        def __init__(self, front: str, middle: str, back: str) -> None:
            self.front, self.middle, self.back = front, middle, back
            self.natural = None

    table = score({"N": natural, "E": Solved(ORD_3["front"], ORD_3["middle"], ORD_3["back"])})
    assert by_name(table) == {"N": 13, "E": -13}


# -- the library entry point and JSON shape --


def test_score_is_exported_and_to_dict_shape() -> None:
    table = cpsolver.score(E5, rules="standard")
    assert isinstance(table, TableResult)
    data = table.to_dict()
    assert data["totals"] == {"N": 5, "E": -9, "S": 5, "W": -1}
    first = data["pairings"][0]
    assert first["seats"] == ["N", "E"] and first["total"] == 3
    assert set(first["rows"]) == {"back", "middle", "front"}
    assert first["rows"]["back"] == {"outcome": "win", "winner": "N", "units": 1}
    assert data["players"]["N"]["rows"]["front"]["cards"] == ["Qs", "Qd", "2c"]


def test_rules_players_option_does_not_limit_the_table() -> None:
    # Table size comes from the input (docs/RULES-CHOICES.md): two_four says players=2.
    table = score(E5, rules="two_four")
    assert len(table.pairings) == 6 and sum(table.net) == 0


# -- properties on random tables --

OPTIONS = st.fixed_dictionaries(
    {
        "order": st.sampled_from(["weak", "strict"]),
        "wheel": st.sampled_from(["lowest", "second_highest"]),
        "royalties": st.sampled_from(["standard", "eastern", "none"]),
        "royalty_mode": st.sampled_from(["replace", "add"]),
        "scoring": st.sampled_from(["per_row", "scoop_double", "two_four"]),
    }
)


@st.composite
def random_tables(draw: st.DrawFn) -> dict[str, object]:
    """2-4 seats with random splits (many foul), some valid-by-sorting, some naturals."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    seats = rng.randint(2, 4)
    deck = [Card.from_index(i) for i in range(52)]
    rng.shuffle(deck)
    players: dict[str, object] = {}
    for k, name in enumerate("NESW"[:seats]):
        hand = deck[13 * k : 13 * k + 13]
        natural = detect_natural(hand)
        if natural is not None and rng.random() < 0.7:
            players[name] = {"cards": [str(c) for c in hand], "natural": True}
            continue
        if rng.random() < 0.5:  # sorted by rank: usually valid, sometimes equal rows
            hand = sorted(hand, key=lambda c: c.rank, reverse=True)
        players[name] = {"back": hand[:5], "middle": hand[5:10], "front": hand[10:]}
    return players


@settings(derandomize=True, max_examples=150, deadline=None)
@given(random_tables(), OPTIONS)
def test_cp7_totals_sum_to_zero_and_settle_pair_agrees(
    players: dict[str, object], options: dict[str, str]
) -> None:
    table = score(players, **options)
    assert sum(table.net) == 0
    rules = ChineseRules.preset("standard", **options)
    values = row_value_table(rules)
    code = SCORING_CODES[rules.scoring]
    wheel = rules.wheel_second_highest

    def fast_args(number: int) -> tuple[tuple[int, ...], bool, int]:
        seat = table.players[number]
        if seat.natural is not None:
            return (0, 0, 0), False, seat.natural.rank
        assert seat.rows is not None
        classes = tuple(
            strength(seat.rows[row], wheel_second_highest=wheel)
            for row in (Row.FRONT, Row.MIDDLE, Row.BACK)
        )
        fouled = foul_check(*classes, strict=rules.strict_order)
        assert fouled == seat.fouled
        return classes, fouled, 0

    for pairing in table.pairings:
        a, b = pairing.seats
        (ra, fa, na), (rb, fb, nb) = fast_args(a), fast_args(b)
        assert settle_pair(ra, rb, values, code, fa, fb, na, nb) == pairing.total
        assert settle_pair(rb, ra, values, code, fb, fa, nb, na) == -pairing.total
        assert pairing.total == pairing.bonus + sum(r.units for r in pairing.rows) or (
            pairing.settled_by is SettledBy.NATURAL
        )


@settings(derandomize=True, max_examples=60, deadline=None)
@given(random_tables(), OPTIONS)
def test_cp7_seat_order_only_flips_signs(
    players: dict[str, object], options: dict[str, str]
) -> None:
    forward = score(players, **options)
    backward = score(dict(reversed(list(players.items()))), **options)
    assert by_name(forward) == by_name(backward)
    for name_a in players:
        for name_b in players:
            if name_a != name_b:
                assert net(forward, name_a, name_b) == -net(backward, name_b, name_a)


def test_cp10_fouled_hand_earns_nothing_even_with_stronger_rows() -> None:
    # F's rows beat a weak valid hand row by row, but F is fouled: it pays all three rows.
    weak = rows("2c 3d 5h", "2d 3c 5s 7h 8s", "4c 4d 6s 9h Ts")
    strong_foul = rows("Ah Ad Kc", "Qh Qd 7c 6c 3s", "Kh Kd Js Jh 2s")
    table = score({"F": strong_foul, "V": weak})
    assert player(table, "F").fouled
    assert by_name(table) == {"F": -3, "V": 3}


# -- documented input errors --


@pytest.mark.parametrize(
    ("players", "field", "words"),
    [
        ({"N": rows("Qs Xd 2c", "Js Jd Jh 5c 4d", "9s 8s 7s 4s 2s"), "E": ORD_2},
         "players.N.front[1]", "unknown rank 'X'"),
        ({"N": {"front": ["Qs", "Qx", "2c"], "middle": "Js Jd Jh 5c 4d",
                "back": "9s 8s 7s 4s 2s"}, "E": ORD_2},
         "players.N.front[1]", "unknown suit"),
        ({"N": rows("Qs Qd", "Js Jd Jh 5c 4d", "9s 8s 7s 4s 2s"), "E": ORD_2},
         "players.N.front", "expected 3 cards, got 2"),
        ({"N": rows("Qs Qd 2c", "Js Jd Jh 5c 4d 3d", "9s 8s 7s 4s 2s"), "E": ORD_2},
         "players.N.middle", "expected 5 cards, got 6"),
        ({"N": rows("Qs Qd 2c", "Js Jd Jh 5c 4d", "9s 8s 7s 4s 2s"),
          "E": rows("Ah Ad 3c", "Ks Kh 8c 8d 4s", "Qs Qh Qc Tc Td")},
         "players.E.back[0]", "duplicate card 'Qs' (also players.N.front[0])"),
        ({"N": rows("Qs Qd 2c", "Js Jd Jh 5c 4d", "9s 8s 7s 4s Qd"), "E": ORD_2},
         "players.N.front[1]", "duplicate card 'Qd' (also players.N.back[4])"),
        ({"N": declared("2s 3h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As"), "E": ORD_1},
         "players.N.natural", "none of dragon"),
        ({"N": declared(E9_SIX_PAIRS + " Ah"), "E": ORD_1},
         "players.N.cards", "expected 13 cards, got 14"),
        ({"N": {"cards": E9_SIX_PAIRS}, "E": ORD_1}, "players.N.natural", "give rows"),
        ({"N": {"cards": E9_SIX_PAIRS, "natural": "dragon"}, "E": ORD_1},
         "players.N.natural", "qualify as six_pairs"),
        ({"N": {"front": "Qs Qd 2c", "middle": "Js Jd Jh 5c 4d"}, "E": ORD_2},
         "players.N.back", "missing row"),
        ({"N": {**ORD_2, "side": "x"}, "E": ORD_1}, "players.N.side", "unknown field"),
        ({"N": 42, "E": ORD_1}, "players.N", "expected rows"),
        ({"N": ORD_1}, "players", "2 to 4 players (CP-1), got 1"),
        ({n: ORD_1 for n in "ABCDE"}, "players", "2 to 4 players (CP-1), got 5"),
    ],
)  # fmt: skip
def test_bad_input_names_the_field(players: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        score(players)
    assert info.value.field == field
    assert words in str(info.value)


def test_card_errors_are_card_errors() -> None:
    with pytest.raises(CardError):
        score({"N": rows("Qs Qd 2c", "Js Jd Jh 5c 4d", "9s 8s 7s 4s Qd"), "E": ORD_2})


def test_declared_natural_under_naturals_off_is_an_error() -> None:
    with pytest.raises(InvalidInputError, match=r"players\.N\.natural: naturals are off"):
        score({"N": declared(E9_SIX_PAIRS), "E": ORD_1}, naturals="off")


def test_unknown_option_lists_valid_options() -> None:
    with pytest.raises(RuleError, match="valid options: players, order"):
        score(E5, bonus="huge")
    with pytest.raises(RuleError, match="valid values: per_row, scoop_double, two_four"):
        score(E5, scoring="1-7")


def test_solver_solutions_can_be_scored_directly() -> None:
    """A Solution from cpsolver.solve sits at the table as its rows, or as its declared natural."""
    rows_hand = cpsolver.solve("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s")
    natural_hand = cpsolver.solve("Ah Kh Qh Jh Th 9s 8c 7h 6c 5h 4c 3h 2c")
    assert rows_hand.natural is None and natural_hand.natural is not None
    table = score({"N": rows_hand, "E": natural_hand})
    assert player(table, "N").rows is not None and not player(table, "N").fouled
    assert by_name(table) == {"N": -13, "E": 13}


# -- one per-seat shape: seats 0..n-1 and tuples indexed by seat, as in the trick games --


def test_a_list_of_players_sits_seat_by_seat_named_like_a_deal() -> None:
    """A sequence is the table seat by seat (seat i = item i), named N, E, S, W as
    cpsolver.chinese.deal.SEATS; it settles exactly as the same players given by those names."""
    listed = score(list(E5.values()))
    named = score(E5)
    assert listed.seats == named.seats == ("N", "E", "S", "W")
    assert listed.net == named.net == (5, -9, 5, -1)  # CP-E5
    assert [p.seats for p in listed.pairings] == [p.seats for p in named.pairings]
    assert [p.total for p in listed.pairings] == [3, 1, 1, -3, -3, 3]
    assert listed.to_dict() == named.to_dict()
    assert listed.inputs == tuple(E5.values())
    assert [listed.between(0, b) for b in (1, 2, 3)] == [3, 1, 1]
    assert listed.between(3, 2) == -3
    with pytest.raises(KeyError):
        listed.between(0, 0)


def test_named_seats_keep_their_names_and_number_the_seats_in_order() -> None:
    table = score({"B": E6["B"], "A": E6["A"]})
    assert table.seats == ("B", "A") and table.net == (4, -4)
    assert [r.winner for r in table.pairings[0].rows] == [0, 0, 1]
    assert table.to_dict()["pairings"][0]["rows"]["front"]["winner"] == "A"


def test_the_old_totals_mapping_warns_and_answers_by_name() -> None:
    """TableResult.totals was a mapping of seat name (docs/API.md printed it): one release more,
    with a DeprecationWarning pointing at ``net``."""
    table = score(E6)
    with pytest.warns(DeprecationWarning, match=r"TableResult\.net"):
        totals = table.totals
    assert dict(totals) == {"A": -4, "B": 4}


@pytest.mark.parametrize(
    ("players", "field", "words"),
    [
        ([rows("Qs Xd 2c", "Js Jd Jh 5c 4d", "9s 8s 7s 4s 2s"), ORD_2],
         "players[0].front[1]", "unknown rank 'X'"),
        ([rows("Qs Qd 2c", "Js Jd Jh 5c 4d", "9s 8s 7s 4s 2s"),
          rows("Ah Ad 3c", "Ks Kh 8c 8d 4s", "Qs Qh Qc Tc Td")],
         "players[1].back[0]", "duplicate card 'Qs' (also players[0].front[0])"),
        ([ORD_1, {"cards": E9_SIX_PAIRS}], "players[1].natural", "give rows"),
        ([ORD_1, 42], "players[1]", "expected rows"),
        ([ORD_1], "players", "2 to 4 players (CP-1), got 1"),
        ([ORD_1] * 5, "players", "2 to 4 players (CP-1), got 5"),
        ("As Ks", "players", "seat by seat"),
        (42, "players", "seat by seat"),
    ],
)  # fmt: skip
def test_bad_list_input_names_the_seat_by_position(
    players: object, field: str, words: str
) -> None:
    with pytest.raises(InvalidInputError) as info:
        score(players)  # type: ignore[arg-type]
    assert info.value.field == field
    assert words in str(info.value)


def test_players_as_an_option_is_the_rule_option_not_the_table() -> None:
    """``score(table, players=2)`` sets the rule option, as every other override does; it
    raised TypeError ("got multiple values for argument 'players'")."""
    table = {"N": S_ROWS, "S": W_FOUL}
    assert cpsolver.score(table, players=2) == cpsolver.score(table, ChineseRules(players=2))


def test_a_table_prints_in_a_few_lines() -> None:
    """str(TableResult) was its dataclass repr (20,000 characters for a table of four): now a
    line a seat (net units, how it played) and one a pairing with its notes. CP-E10's dragon
    collects 13 from each; W's foul pays S its three rows (CP-10)."""
    table = cpsolver.score({"N": declared(DRAGON), "S": S_ROWS, "W": W_FOUL})
    lines = str(table).splitlines()
    assert lines[:2] == ["N +26 (natural: dragon)", "S -10 (rows)"]
    assert lines[2].startswith("W -16 (fouled: the front (pair of aces")
    assert lines[3].startswith("N-S: N +13 (N declares dragon: 13 units")
    assert lines[4].startswith("N-W: N +13 (")
    assert lines[5].startswith("S-W: S +3 (W fouled (") and len(lines) == 6
