"""Chinese poker rule set (RULES §2): options, presets, overrides, royalties (CP-8)."""

from __future__ import annotations

import pytest

from cpsolver.errors import RuleError
from cpsolver.evaluator.poker import Category
from cpsolver.rules import ChineseRules, Order, Row, Royalties, RoyaltyMode, Scoring, Wheel
from cpsolver.rules.base import parse_assignments


def test_defaults_are_rules_md_defaults() -> None:
    rules = ChineseRules()
    assert rules.players == 4  # CP-1
    assert rules.order is Order.WEAK  # CP-6
    assert rules.wheel is Wheel.LOWEST  # CP-3
    assert rules.royalties is Royalties.STANDARD  # CP-8
    assert rules.royalty_mode is RoyaltyMode.REPLACE  # CP-8
    assert rules.scoring is Scoring.PER_ROW  # CP-9
    assert rules.naturals is True  # CP-11
    assert ChineseRules.preset("standard") == rules


def test_presets() -> None:
    two_four = ChineseRules.preset("two_four")
    assert (two_four.players, two_four.scoring, two_four.royalties, two_four.naturals) == (
        2,
        Scoring.TWO_FOUR,
        Royalties.NONE,
        False,
    )
    assert ChineseRules.preset("eastern").royalties is Royalties.EASTERN


def test_overrides_by_name_accept_text() -> None:
    rules = ChineseRules.preset("two_four", players="3", naturals="on", wheel="second-highest")
    assert (rules.players, rules.naturals, rules.wheel) == (3, True, Wheel.SECOND_HIGHEST)
    assert ChineseRules.resolve(None, order="strict").strict_order


def test_unknown_option_lists_valid_ones() -> None:
    with pytest.raises(RuleError) as info:
        ChineseRules.preset("standard", colour="red")
    assert info.value.field == "rules.colour"
    assert "valid options: players, order, wheel, royalties, royalty_mode" in str(info.value)


@pytest.mark.parametrize(
    ("option", "value", "valid"),
    [
        ("royalties", "asian", "standard, eastern, none"),
        ("scoring", "1-6", "per_row, scoop_double, two_four"),
        ("players", "5", "2 to 4"),
        ("naturals", "maybe", "on, off"),
    ],
)
def test_bad_values_list_the_valid_ones(option: str, value: str, valid: str) -> None:
    with pytest.raises(
        RuleError, match=f"rules.{option}: invalid value '{value}'; valid values: {valid}"
    ):
        ChineseRules.preset("standard", **{option: value})


def test_unknown_preset() -> None:
    with pytest.raises(
        RuleError,
        match=r"unknown preset 'vegas'; valid presets: standard, two_four, eastern, shisanshui, "
        r"maubinh$",
    ):
        ChineseRules.preset("vegas")
    with pytest.raises(RuleError, match=r"valid presets: .*maubinh, or a rule file's path"):
        ChineseRules.resolve("vegas")


def test_all_problems_reported_at_once() -> None:
    with pytest.raises(RuleError) as info:
        ChineseRules.preset("standard", players=9, order="x")
    assert [v.field for v in info.value.violations] == ["rules.players", "rules.order"]


def test_fingerprint_changes_with_any_option() -> None:
    base = ChineseRules()
    prints = {base.fingerprint()}
    for name, value in [("players", 3), ("order", "strict"), ("wheel", "second_highest"),
                        ("royalties", "none"), ("royalty_mode", "add"), ("scoring", "two_four"),
                        ("naturals", False)]:  # fmt: skip
        prints.add(base.replace(**{name: value}).fingerprint())
    assert len(prints) == 8
    assert ChineseRules().fingerprint() == base.fingerprint()


# CP-8 royalty table, transcribed from RULES.md: (row, category, royal) -> (standard, eastern).
ROYALTY_TABLE = [
    (Row.FRONT, Category.THREE_OF_A_KIND, False, 3, 3),
    (Row.MIDDLE, Category.FULL_HOUSE, False, 2, 2),
    (Row.MIDDLE, Category.FOUR_OF_A_KIND, False, 4, 8),
    (Row.MIDDLE, Category.STRAIGHT_FLUSH, False, 5, 10),
    (Row.MIDDLE, Category.STRAIGHT_FLUSH, True, 5, 14),
    (Row.BACK, Category.FOUR_OF_A_KIND, False, 4, 4),
    (Row.BACK, Category.STRAIGHT_FLUSH, False, 5, 5),
    (Row.BACK, Category.STRAIGHT_FLUSH, True, 5, 7),
    (Row.BACK, Category.FULL_HOUSE, False, 0, 0),
    (Row.FRONT, Category.PAIR, False, 0, 0),
]


@pytest.mark.parametrize(("row", "category", "royal", "standard", "eastern"), ROYALTY_TABLE)
def test_cp8_royalties(
    row: Row, category: Category, royal: bool, standard: int, eastern: int
) -> None:
    assert ChineseRules().royalty(row, category, royal=royal) == standard
    assert ChineseRules.preset("eastern").royalty(row, category, royal=royal) == eastern
    assert ChineseRules(royalties=Royalties.NONE).royalty(row, category, royal=royal) == 0


def test_cp8_row_value_modes() -> None:
    replace = ChineseRules()
    add = ChineseRules(royalty_mode=RoyaltyMode.ADD)
    assert replace.row_value(Row.BACK, Category.FOUR_OF_A_KIND) == 4
    assert add.row_value(Row.BACK, Category.FOUR_OF_A_KIND) == 5
    assert (
        replace.row_value(Row.BACK, Category.FLUSH) == add.row_value(Row.BACK, Category.FLUSH) == 1
    )


def test_parse_assignments_errors() -> None:
    assert parse_assignments(["order=strict"]) == {"order": "strict"}
    with pytest.raises(RuleError, match=r"set\[0\]: expected OPTION=VALUE, got 'order'"):
        parse_assignments(["order"])
