"""Positions of street advice (OFC-1/2): read from their JSON form and written back."""

from __future__ import annotations

import pytest

from cpsolver.errors import InvalidInputError
from cpsolver.ofc.position import read_position


def test_a_position_reads_back_from_its_json_form() -> None:
    """``Position.to_dict`` writes the rules as their options; ``read_position`` reads that
    form back to the same position (before, it refused any "rules" but a preset name)."""
    pos = read_position(
        {"street": 2, "hand": "Qd 2c 7h",
         "board": {"back": "As Ad", "middle": "Ks", "front": "Qs 3h"},
         "opponents": [{"back": "2s 3s 4s", "middle": "5s 6s"}, {}]},
        "pineapple", fantasyland="progressive",
    )  # fmt: skip
    again = read_position(pos.to_dict())
    assert again == pos and again.rules.fantasyland.value == "progressive"
    with pytest.raises(InvalidInputError) as caught:
        read_position({**pos.to_dict(), "rules": {"fantasyland": "sometimes"}})
    assert "fantasyland" in str(caught.value)


def test_too_many_cards_given_never_counts_a_negative_unseen() -> None:
    """Street 4 with every one of the 52 cards given: 15 still to deal and the opponents'
    4 face-down discards, 0 unseen. The error said "only -4 are left unseen" (the discards
    subtracted from the unseen count); it names the counts apart."""
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    spec = {
        "street": 4,
        "hand": deck[0:3],
        "board": {"back": deck[3:7], "middle": deck[7:10], "front": deck[10:12]},
        "opponents": [
            {"back": deck[12:16], "middle": deck[16:19], "front": deck[19:21]},
            {"back": deck[21:25], "middle": deck[25:28], "front": deck[28:30]},
        ],
        "dead": deck[30:],
    }
    with pytest.raises(InvalidInputError) as caught:
        read_position(spec)
    assert str(caught.value) == (
        "dead: 15 cards are still to be dealt and the opponents discarded 4 face down "
        "(OFC-1), but only 0 are left unseen: too many cards given"
    )
    # 3 dead cards leave exactly 15 + 4: that position adds up
    read_position({**spec, "dead": deck[30:33]})
    with pytest.raises(InvalidInputError, match="but only 18 are left unseen"):
        read_position({**spec, "dead": deck[30:34]})


def test_an_opponent_of_one_card_is_one_card_not_one_cards() -> None:
    """An opponent's board no street ends with said "1 cards placed"."""
    with pytest.raises(InvalidInputError) as caught:
        read_position({"street": 1, "hand": "As Kd 7c 7h 2s", "opponents": [{"back": "Qs"}]})
    assert str(caught.value) == (
        "opponents[0]: 1 card placed: no street ends there (OFC-1: 0, 5, 7, 9, 11, 13)"
    )


def test_a_classic_street_expects_one_card_not_one_cards() -> None:
    """Classic's streets 2-9 deal one card; a hand of two said "expected 1 cards"."""
    with pytest.raises(InvalidInputError) as caught:
        read_position(
            {"rules": "classic", "street": 2, "hand": "As Kd",
             "board": {"back": "2c 3c 4c 5c 6c"}, "opponents": [{}]}
        )  # fmt: skip
    assert str(caught.value) == "hand: expected 1 card, got 2"
