"""Every game's rule set checks itself when it is built, not only through ``.preset()`` and
``.replace()``: ``ChineseRules(players=0)`` was solved (EV 1.0214), ``ChineseRules(order="zz")``
too, ``ChineseRules(players="x")`` failed with a TypeError deep in the EV model and
``ChlustRules(deck=99)`` / ``ThreeLeavesRules(deck=5)`` with a KeyError when the deck was read.
The constructor's error is ``.replace()``'s own (one check of each option)."""

from __future__ import annotations

from typing import Any

import pytest

from cpsolver.errors import RuleError
from cpsolver.rules import (
    ChineseRules,
    ChlustRules,
    OfcRules,
    Order,
    RuleSet,
    Scoring,
    ThreeLeavesRules,
)
from cpsolver.rules.chinese import BonusHand, Foul, NaturalName, Row, Royalties

HAND = "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h"


@pytest.mark.parametrize(
    ("kind", "options", "field", "valid"),
    [
        (ChineseRules, {"players": 0}, "rules.players", "2 to 4"),
        (ChineseRules, {"players": 9}, "rules.players", "2 to 4"),
        (ChineseRules, {"players": "x"}, "rules.players", "2 to 4"),
        (ChineseRules, {"players": True}, "rules.players", "2 to 4"),
        (ChineseRules, {"order": "zz"}, "rules.order", "weak, strict"),
        (ChlustRules, {"deck": 99}, "rules.deck", "20, 24"),
        (ChlustRules, {"max_raises": -1}, "rules.max_raises", "0 to 100"),
        (ThreeLeavesRules, {"deck": 5}, "rules.deck", "28, 32"),
        (ThreeLeavesRules, {"void": "sometimes"}, "rules.void", "trump_or_discard"),
        (OfcRules, {"players": 9}, "rules.players", "2 to 4"),
    ],
)
def test_an_invalid_option_is_the_error_replace_raises(
    kind: type[RuleSet], options: dict[str, Any], field: str, valid: str
) -> None:
    with pytest.raises(RuleError) as built:
        kind(**options)
    with pytest.raises(RuleError) as replaced:
        kind().replace(**options)
    assert built.value.field == field
    assert f"valid values: {valid}" in built.value.description
    assert str(built.value) == str(replaced.value)


def test_every_invalid_option_is_reported_at_once() -> None:
    with pytest.raises(RuleError) as info:
        ChineseRules(players=9, order="zz", wheel=3)  # type: ignore[arg-type]
    assert [v.field for v in info.value.violations] == [
        "rules.players",
        "rules.order",
        "rules.wheel",
    ]


def test_cross_field_constraints_hold_for_the_constructor() -> None:
    with pytest.raises(RuleError, match=r"rules\.players: pineapple is played by 2 or 3"):
        OfcRules(players=4)
    assert OfcRules(players=4, variant="classic").players == 4  # type: ignore[arg-type]
    with pytest.raises(RuleError, match=r"rules\.scoring: a scoop bonus goes with"):
        ChineseRules(scoop_bonus=3)
    with pytest.raises(RuleError, match=r"rules\.royalties: royalties=custom goes with"):
        ChineseRules(royalties=Royalties.CUSTOM)


def test_an_option_given_as_text_is_kept_typed() -> None:
    # As .replace() reads it; stored as text, `rules.order is Order.STRICT` was False and the
    # rule set played the weak order it did not describe.
    rules = ChineseRules(order="strict", players="3")  # type: ignore[arg-type]
    assert rules.order is Order.STRICT and rules.strict_order and rules.players == 3
    assert rules == ChineseRules.preset("standard", order="strict", players=3)
    assert ChlustRules(deck="24").deck == 24  # type: ignore[arg-type]


def test_an_option_written_as_data_takes_its_typed_form_in_the_constructor() -> None:
    # .replace(naturals=...) also reads a list of naturals: the constructor's naturals is
    # on/off only (the list is natural_table), so its error lists those two.
    with pytest.raises(
        RuleError, match=r"^rules\.naturals: invalid value 'maybe'; valid values: on, off$"
    ):
        ChineseRules(naturals="maybe")  # type: ignore[arg-type]
    assert ChineseRules(scoring=Scoring.SCOOP_BONUS, scoop_bonus=3).to_dict()["scoring"] == (
        "scoop_bonus:3"
    )


def test_the_data_fields_are_read_as_their_options_data() -> None:
    with pytest.raises(RuleError) as info:
        ChineseRules(
            scoring=Scoring.SCOOP_BONUS,
            scoop_bonus=-1,
            foul=Foul.FIXED,
            foul_units="x",  # type: ignore[arg-type]
        )
    assert [v.field for v in info.value.violations] == ["rules.scoop_bonus", "rules.foul_units"]
    with pytest.raises(RuleError) as info:
        ChineseRules(
            royalties=Royalties.CUSTOM,
            royalty_table=(
                (Row.FRONT, BonusHand.FLUSH, 3),
                (Row.MIDDLE, BonusHand.PAIR, -1),
                ("top", "pair", 1),
                (Row.BACK, BonusHand.PAIR, 2),
                (Row.BACK, BonusHand.PAIR, 2),
            ),
        )
    assert [(v.field, v.description.split(";")[0]) for v in info.value.violations] == [
        ("rules.royalty_table[0].hand", "unknown hand 'flush' for the front"),
        ("rules.royalty_table[1].units", "invalid value -1"),
        ("rules.royalty_table[2].row", "unknown row 'top'"),
        ("rules.royalty_table[4].hand", "pair is listed twice for the back"),
    ]
    with pytest.raises(RuleError, match=r"rules\.natural_table\[1\]\.natural: unknown natural"):
        ChineseRules(natural_table=((NaturalName.DRAGON, 13), ("bogus", 2)))  # type: ignore[arg-type]
    with pytest.raises(RuleError, match=r"rules\.natural_table: an empty list of naturals"):
        ChineseRules(natural_table=())
    # A valid table is kept in the reader's form (row then hand order): equal to the same
    # table given to .replace().
    table = ((Row.BACK, BonusHand.PAIR, 3), (Row.FRONT, BonusHand.PAIR, 2))
    built = ChineseRules(royalties=Royalties.CUSTOM, royalty_table=table)
    assert built.royalty_table == tuple(reversed(table))
    assert built == ChineseRules().replace(royalties={"front": {"pair": 2}, "back": {"pair": 3}})


def test_a_bad_table_given_to_replace_is_an_error_naming_the_entry() -> None:
    # The (row, hand, units) form of .replace(royalties=...) read its entries unchecked
    # (Row(5): a bare ValueError).
    with pytest.raises(RuleError, match=r"rules\.royalties\[0\]\.row: unknown row 5"):
        ChineseRules().replace(royalties=((5, "pair", 3),))


def test_solve_never_sees_an_invalid_rule_set() -> None:
    import cpsolver

    with pytest.raises(RuleError, match=r"^rules\.players: invalid value 0"):
        cpsolver.solve(HAND, ChineseRules(players=0))
