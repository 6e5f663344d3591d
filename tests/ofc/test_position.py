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
