"""Issue 28: RULES §2.5 (CP-12..CP-17), one test per key of the vocabulary, from RULES.md.

Expected values are worked by hand from the contract (the arithmetic is in each test's
comments); the worked examples CP-E13..CP-E15 are quoted. Every test here names an option or
preset that did not exist before §2.5, so each fails on the code before issue 28.
"""

from __future__ import annotations

import pytest

from cpsolver.cards import parse_cards
from cpsolver.chinese.naturals import detect_natural, detect_naturals, qualifies
from cpsolver.chinese.scoring import pair_terms, score, settle_pair
from cpsolver.errors import RuleError
from cpsolver.rules.chinese import ChineseRules, NaturalName

# CP-E13's table: N wins every row against E, S and W, and no row earns a bonus (N: flush,
# straight, pair of kings; the others a pair or high card in each row).
SWEEP_TABLE = {
    "N": {"back": "Ah Qh 9h 6h 3h", "middle": "9c Td Js Qc Kd", "front": "Ks Kc 2d"},
    "E": {"back": "As Ad 4c 5d 7s", "middle": "Qs Qd 3c 6c 8d", "front": "Jh 4d 2s"},
    "S": {"back": "Th Tc 5s 6d 8c", "middle": "9s 9d 3d 7c Jc", "front": "8h 5h 2h"},
    "W": {"back": "7h 7d 4s 5c 8s", "middle": "Ac Kh 6s 4h Jd", "front": "Ts 3s 2c"},
}
# CP-E6: A wins the front with trips (bonus 3); B the middle (full house, 2) and the back
# (straight flush, 5). A's middle is a full house too (2), its back four of a kind (4).
E6 = [
    {"front": "8s 8h 8d", "middle": "4c 4d 4h Ks Kd", "back": "Qs Qh Qd Qc 2c"},
    {"front": "As Ah 3c", "middle": "9s 9h 9c 7h 7c", "back": "3s 4s 5s 6s 7s"},
]
# CP-E7: F fouls; V holds front J-J (no bonus), middle full house (2), back quads (4).
E7 = [
    {"front": "Ks Kd 2h", "middle": "Qs Qh 5c 4c 3d", "back": "As Ad Ac 9s 9d"},
    {"front": "Jh Jc 6s", "middle": "Th Tc Td 8h 8c", "back": "7s 7h 7d 7c 3s"},
]
CLEAN_DRAGON = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"
DRAGON = "As Kc Qd Js Tc 9d 8s 7c 6d 5s 4c 3d 2s"
SIX_PAIRS = "2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As"  # CP-E9
# Of the 26 cards neither DRAGON nor CLEAN_DRAGON holds.
ORDINARY = {"back": "Ac Ad 8c 8d 3c", "middle": "Td Ts 4d 6c 9s", "front": "Ks Qs Jc"}


def net(players: object, rules: ChineseRules | str, **overrides: object) -> tuple[int, ...]:
    return score(players, rules, **overrides).net  # type: ignore[arg-type]


# -- CP-E13 .. CP-E15 ----------------------------------------------------------------------


def n_pairings(rules: ChineseRules | str, **overrides: object) -> tuple[int, list[int]]:
    """N's total and what N wins from E, S and W (the others' pairings among themselves
    settle too, and are no part of the example)."""
    table = score(SWEEP_TABLE, rules, **overrides)  # type: ignore[arg-type]
    return table.net[0], [table.between(0, other) for other in (1, 2, 3)]


def test_cp_e13_shisanshui_scoop_and_sweep() -> None:
    # 3 per pairing, doubled by the scoop to 6 and by the sweep to 12: N +36.
    assert n_pairings("shisanshui") == (36, [12, 12, 12])
    # Under standard with scoring=scoop_double the same table gives N +18.
    assert n_pairings("standard", scoring="scoop_double") == (18, [6, 6, 6])


def test_cp_e14_maubinh_fixed_foul() -> None:
    # V collects 6 whatever its rows hold (not its 7 of row values, not doubled as a scoop).
    assert net(E7, "maubinh") == (-6, 6)


def test_cp_e15_clean_dragon_under_shisanshui() -> None:
    table = [
        {"cards": CLEAN_DRAGON, "natural": True},
        {"cards": DRAGON, "natural": True},
        ORDINARY,
    ]
    # The clean dragon collects 52 from both; the dragon pays 52 and collects its 26 from the
    # ordinary hand, which pays 52 + 26.
    assert net(table, "shisanshui") == (104, -26, -78)


# -- CP-12 row bonuses ---------------------------------------------------------------------


def test_royalties_table_replaces_the_whole_table() -> None:
    own = {"middle": {"full_house": 5}, "back": {"royal_flush": 20}}
    # CP-E6 under it: A wins the front with trips, not listed: 1. B wins the middle with a
    # full house, 5, and the back with a (not royal) straight flush, not listed: 1. A -5.
    assert net(E6, "standard", royalties=own) == (-5, 5)
    royal = [
        {"front": "2c 3d 5h", "middle": "4c 4d 6h 7s 9c", "back": "As Ks Qs Js Ts"},
        {"front": "2d 3h 6c", "middle": "5c 5d 8h 9s Jc", "back": "Ac Ad Qd Jd 9h"},
    ]
    # The royal flush wins the back for 20; B wins the middle (fives over fours) and the
    # front (6-3-2 over 5-3-2), 1 each, as nothing there is listed: 20 - 1 - 1.
    assert net(royal, "standard", royalties=own) == (18, -18)


def test_royalty_mode_add_on_a_table() -> None:
    own = {"middle": {"full_house": 5}}
    # B: middle 1 + 5; back 1 (straight flush not listed); A: front 1. A: 1 - 6 - 1 = -6.
    assert net(E6, "standard", royalties=own, royalty_mode="add") == (-6, 6)


def test_bonus_paid_always() -> None:
    # Rows 1 each: A +1 - 1 - 1 = -1; bonuses A 3 + 2 + 4 = 9, B 0 + 2 + 5 = 7: A -1 + 2 = +1.
    assert net(E6, "standard", bonus_paid="always") == (1, -1)
    # royalty_mode has no effect under always.
    assert net(E6, "standard", bonus_paid="always", royalty_mode="add") == (1, -1)
    # A fouled player earns none and pays the other's: V 3 rows + 2 + 4 = 9.
    assert net(E7, "standard", bonus_paid="always") == (-9, 9)


# -- CP-13 scoop and sweep -----------------------------------------------------------------


def test_scoring_scoop_bonus() -> None:
    n_e = {"N": SWEEP_TABLE["N"], "E": SWEEP_TABLE["E"]}
    assert net(n_e, "standard", scoring="scoop_bonus:4") == (7, -7)  # 3 + 4
    assert net(E6, "standard", scoring="scoop_bonus:4") == (-4, 4)  # 2-1: no scoop
    assert net(E7, "standard", scoring="scoop_bonus:2") == (-9, 9)  # a foul is a scoop: 7 + 2


def test_sweep_double() -> None:
    # per_row: N's three pairings of 3 each doubled once: +18.
    assert n_pairings("standard", sweep="double") == (18, [6, 6, 6])
    # Only at a table of 3 or 4.
    n_e = {"N": SWEEP_TABLE["N"], "E": SWEEP_TABLE["E"]}
    assert net(n_e, "standard", sweep="double", scoring="scoop_double") == (6, -6)
    # At 3: N scoops E and S (3, doubled, doubled again): 12 each.
    three = {k: SWEEP_TABLE[k] for k in ("N", "E", "S")}
    assert score(three, "standard", sweep="double", scoring="scoop_double").net[0] == 24
    # Not when one opponent is not scooped: E's front (pair of aces) beats N's pair of kings,
    # so N wins 2 rows of 3 against E: N scoops only S and W, and nothing is doubled again.
    beaten = {
        "N": SWEEP_TABLE["N"],
        "E": {"back": "8s 8d 8c 5d 5c", "middle": "7h 7d 7s 3c 4c", "front": "As Ad 2s"},
        "S": {"back": "Th Tc 5s 6d 4d", "middle": "9s 9d 3d 6c Jc", "front": "8h 5h 2h"},
    }
    table = score(beaten, "standard", sweep="double")
    # N: front lost (-1), middle won (1), back lost to the full house (-1) against E.
    assert [table.between(0, other) for other in (1, 2)] == [-1, 3]


def test_naturals_scooped() -> None:
    table = [{"cards": SIX_PAIRS, "natural": True}, ORDINARY]
    assert net(table, "standard", scoring="scoop_double") == (3, -3)
    assert net(table, "standard", scoring="scoop_double", naturals_scooped=True) == (6, -6)
    assert net(table, "standard", scoring="scoop_bonus:2", naturals_scooped=True) == (5, -5)


# -- CP-14 fouls ---------------------------------------------------------------------------


def test_foul_fixed() -> None:
    assert net(E7, "standard", foul="fixed:6") == (-6, 6)
    # A fixed foul pays N and is no scoop.
    assert net(E7, "standard", foul="fixed:6", scoring="scoop_double") == (-6, 6)
    both = [E7[0], {"front": "Qc Qd 2d", "middle": "Jd Js 5d 4d 3h", "back": "Kh Kc 9h 8s 6c"}]
    assert net(both, "standard", foul="fixed:6") == (0, 0)
    # A natural against a fouled hand collects its units, whatever foul says.
    natural = [E7[0], {"cards": "2s 2c 5d 5s 7s 7h Jc Jh Kh Kc 4h 4s 6d", "natural": True}]
    assert net(natural, "standard", foul="fixed:6") == (-3, 3)


# -- CP-15 naturals as a list --------------------------------------------------------------


def test_naturals_list_order_is_the_rank() -> None:
    dragon_hand = "As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s"  # CP-E10: dragon and three straights
    listed = [
        {"natural": "three_straights", "units": 4},
        {"natural": "dragon", "units": 20},
    ]
    rules = ChineseRules().replace(naturals=listed)
    natural = detect_natural(parse_cards(dragon_hand), rules)
    assert natural is not None and (natural.name, natural.units, natural.rank) == (
        "three_straights",
        4,
        1,
    )
    # Six pairs is not listed: no natural.
    assert detect_natural(parse_cards(SIX_PAIRS), rules) is None
    assert net([{"cards": DRAGON, "natural": True}, ORDINARY], rules) == (4, -4)


def test_natural_ties_difference() -> None:
    table = [{"cards": CLEAN_DRAGON, "natural": True}, {"cards": DRAGON, "natural": True}]
    assert net(table, "shisanshui") == (52, -52)
    assert net(table, "shisanshui", natural_ties="difference") == (26, -26)  # 52 - 26
    # Negative when the list ranks a natural of fewer units higher: 3 - 13.
    listed = [{"natural": "six_pairs", "units": 3}, {"natural": "dragon", "units": 13}]
    pairs_vs_dragon = [
        {"cards": SIX_PAIRS.replace("As", "Ah"), "natural": True},
        {"cards": "Ac Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2d", "natural": True},
    ]
    assert net(pairs_vs_dragon, "standard", naturals=listed, natural_ties="difference") == (-10, 10)
    # Equal naturals pay nothing under both.
    same = [
        {"cards": SIX_PAIRS, "natural": True},
        {"cards": "3s 3h 6d 6c 8s 8h Td Tc Qs Qh Ad Ac 4c", "natural": True},
    ]
    assert net(same, "standard", natural_ties="difference") == (0, 0)


def test_declare_auto() -> None:
    rows_of_six_pairs = {"back": "Kd Kc Js Jh As", "middle": "9d 9c 7s 7h 2s", "front": "5d 5c 2h"}
    table = [rows_of_six_pairs, ORDINARY]
    # Under choice, rows given are rows: compared row by row.
    chosen = score(table, "standard")
    assert chosen.pairings[0].settled_by.value != "natural"
    # Under auto the hand is settled as its natural: +3.
    assert net(table, "standard", declare="auto") == (3, -3)
    # ... even when its rows foul.
    fouled = {"back": "5d 5c 2h 9d 9c", "middle": "Kd Kc Js Jh As", "front": "7s 7h 2s"}
    assert net([fouled, ORDINARY], "standard", declare="auto") == (3, -3)
    assert net([fouled, ORDINARY], "maubinh") == (3, -3)


# The vocabulary: one hand that makes each natural, one that narrowly does not.
VOCABULARY = [
    ("clean_dragon", CLEAN_DRAGON, "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh As"),
    ("dragon", DRAGON, "As Ac Qd Js Tc 9d 8s 7c 6d 5s 4c 3d 2s"),
    (
        "twelve_royals",
        "Js Jh Jd Jc Qs Qh Qd Qc Ks Kh Kd As Ah",
        "Js Jh Jd Jc Qs Qh Qd Qc Ks Kh Kd As Th",
    ),
    (
        "three_straight_flushes",
        "Ah 2h 3h 4s 5s 6s 7s 8s 8d 9d Td Jd Qd",
        "Ah 2h 3h 4s 5s 6s 7s 8s 8d 9d Td Jd Qc",
    ),
    (
        "three_quads",
        "As Ah Ad Ac 7s 7h 7d 7c 3s 3h 3d 3c 2d",
        "As Ah Ad Ac 7s 7h 7d 7c 3s 3h 3d 4c 2d",
    ),
    (
        "all_high",
        "8s 8h 9d 9c Ts Jh Qd Kc As Ah Kd Qc Jc",
        "8s 8h 9d 9c Ts Jh Qd Kc As Ah Kd Qc 7c",
    ),
    ("all_low", "2s 2h 3d 3c 4s 5h 6d 7c 8s 8h 7d 6c 5c", "2s 2h 3d 3c 4s 5h 6d 7c 8s 8h 7d 6c 9c"),
    (
        "one_color",
        "2h 3h 4d 5d 6h 7d 8h 9d Th Jd Qh Kd Ah",
        "2h 3h 4d 5d 6h 7d 8h 9d Th Jd Qh Kd As",
    ),
    (
        "twelve_one_color",
        "2h 3h 4d 5d 6h 7d 8h 9d Th Jd Qh Kd As",
        "2h 3h 4d 5d 6h 7d 8h 9d Th Jd Qh Kc As",
    ),
    (
        "two_full_houses_trips",
        "2s 2h 2d 5s 5h 5d 9s 9h Ks Kh Kd 4s 4h",
        "2s 2h 2d 5s 5h 5d 9s 9h Ks Kh Kd 4s 3h",
    ),
    (
        "four_trips",
        "2s 2h 2d 5s 5h 5d 9s 9h 9d Ks Kh Kd 4h",
        "2s 2h 2d 5s 5h 5d 9s 9h 9d Ks Kh Qd 4h",
    ),
    (
        "five_pairs_trips",
        "2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc Ks",
        "2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Qc Ks",
    ),
    ("six_pairs", SIX_PAIRS, "2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Qc As"),
    (
        "three_straights",
        "5c 6d 7h 4s 5s 6c 7d 8h 8s 9d Tc Js Qh",
        "5c 6d 7h 4s 5s 6c 7d 8h 8s 9d Tc Js Kh",
    ),
    (
        "three_flushes",
        "2h 5h 9h 3h 4h 7h Jh Kh 2s 6s 8s Ts Qs",
        "2h 5h 9h 3h 4h 7h Jh Kh 2s 6s 8s Ts Qd",
    ),
]


def test_the_vocabulary_has_fifteen_naturals() -> None:
    assert sorted(n for n, _, _ in VOCABULARY) == sorted(n.value for n in NaturalName)
    assert len(NaturalName) == 15


@pytest.mark.parametrize(("name", "makes", "misses"), VOCABULARY, ids=[v[0] for v in VOCABULARY])
def test_each_natural_of_the_vocabulary(name: str, makes: str, misses: str) -> None:
    natural = NaturalName(name)
    assert qualifies(parse_cards(makes), natural)
    assert not qualifies(parse_cards(misses), natural)
    # Listed alone, it settles for its units against an ordinary hand.
    rules = ChineseRules().replace(naturals=[{"natural": name, "units": 7}])
    hand = parse_cards(makes)
    others = [
        c
        for c in parse_cards(
            "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac "
            "2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad "
            "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As "
            "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"
        )
        if c not in hand
    ]
    # An ordinary opponent of 13 of the other cards, rows sorted weak to strong (valid or
    # not does not matter: a natural collects its units from a fouled hand too).
    opponent = {"front": others[:3], "middle": others[3:8], "back": others[8:13]}
    assert net([{"cards": makes, "natural": name}, opponent], rules) == (7, -7)


def test_naturals_grouping_of_split_naturals() -> None:
    found = detect_naturals(
        parse_cards("Ah 2h 3h 4s 5s 6s 7s 8s 8d 9d Td Jd Qd"),
        ChineseRules.preset("shisanshui"),
    )
    assert [n.name for n in found][:1] == ["three_straight_flushes"]
    groups = found[0].groups
    assert [len(g) for g in groups] == [3, 5, 5]
    assert all(len({c.suit for c in g}) == 1 for g in groups)


# -- CP-16 presets -------------------------------------------------------------------------

REGIONAL_BONUSES = {
    "front": {"three_of_a_kind": 3},
    "middle": {"full_house": 2, "four_of_a_kind": 8, "straight_flush": 10},
    "back": {"four_of_a_kind": 4, "straight_flush": 5},
}


def test_preset_shisanshui() -> None:
    assert ChineseRules.preset("shisanshui").to_dict(full=True) == {
        "players": 4,
        "order": "weak",
        "wheel": "lowest",
        "royalties": REGIONAL_BONUSES,
        "royalty_mode": "replace",
        "scoring": "scoop_double",
        "naturals": [
            {"natural": n, "units": u}
            for n, u in [
                ("clean_dragon", 52),
                ("dragon", 26),
                ("twelve_royals", 24),
                ("three_straight_flushes", 22),
                ("three_quads", 20),
                ("all_high", 15),
                ("all_low", 12),
                ("one_color", 10),
                ("two_full_houses_trips", 8),
                ("four_trips", 6),
                ("five_pairs_trips", 5),
                ("six_pairs", 4),
                ("three_straights", 3),
                ("three_flushes", 3),
            ]
        ],
        "bonus_paid": "on_win",
        "sweep": "double",
        "foul": "scooped",
        "natural_ties": "push",
        "declare": "choice",
        "naturals_scooped": False,
    }


def test_preset_maubinh() -> None:
    assert ChineseRules.preset("maubinh").to_dict(full=True) == {
        "players": 4,
        "order": "weak",
        "wheel": "second_highest",
        "royalties": REGIONAL_BONUSES,
        "royalty_mode": "replace",
        "scoring": "scoop_double",
        "naturals": [
            {"natural": n, "units": u}
            for n, u in [
                ("clean_dragon", 24),
                ("dragon", 12),
                ("five_pairs_trips", 3),
                ("six_pairs", 3),
                ("three_flushes", 3),
                ("three_straights", 3),
            ]
        ],
        "bonus_paid": "on_win",
        "sweep": "double",
        "foul": "fixed:6",
        "natural_ties": "push",
        "declare": "auto",
        "naturals_scooped": False,
    }


def test_taiwan_values_are_an_override() -> None:
    preset = ChineseRules.preset("shisanshui")
    taiwan = preset.replace(
        naturals=[
            {"natural": "clean_dragon", "units": 108},
            {"natural": "dragon", "units": 36},
            *({"natural": n.value, "units": u} for n, u in preset.natural_list[2:]),
        ]
    )
    table = [{"cards": CLEAN_DRAGON, "natural": True}, ORDINARY]
    assert net(table, taiwan) == (108, -108)


# -- the fast settlement reads the same rule set ------------------------------------------


def test_fast_settlement_under_the_presets() -> None:
    shisanshui = pair_terms(ChineseRules.preset("shisanshui"))
    # A royal flush in the middle under shisanshui earns the straight flush's 10 (no royal
    # entry), doubled by a scoop.
    from cpsolver.evaluator.poker import evaluate

    def cls(text: str) -> int:
        return evaluate(text).strength

    a = (cls("2c 3d 5h"), cls("As Ks Qs Js Ts"), cls("9h 9d 9c 9s 2d"))
    b = (cls("2d 3h 4c"), cls("Kh Qh 8d 7d 4s"), cls("Kc Kd 8c 7c 3s"))
    # back quads 4 + middle royal flush 10 + front 1 = 15, doubled: 30.
    assert settle_pair(a, b, shisanshui) == 30


def test_bad_values_name_key_value_and_what_is_allowed() -> None:
    with pytest.raises(
        RuleError,
        match=r"rules\.foul: invalid value 'fixed:-1'; valid values: "
        r"scooped, fixed:N \(N 0 to 10000\)",
    ):
        ChineseRules().replace(foul="fixed:-1")
    with pytest.raises(
        RuleError, match=r"rules\.naturals\[0\]\.natural: unknown natural 'dragonn'"
    ):
        ChineseRules().replace(naturals=[{"natural": "dragonn", "units": 3}])
    with pytest.raises(RuleError, match=r"rules\.royalties\.front\.straight: unknown hand"):
        ChineseRules().replace(royalties={"front": {"straight": 2}})
