"""The vocabulary's argument order (docs/API.md "One vocabulary"): the subject, then ``rules``
positionally (or by name), then keyword-only options. ``ofc.fantasyland`` and
``three_leaves.advise_hand`` took ``rules`` by name only (a positional preset raised
TypeError)."""

from __future__ import annotations

import pytest

from cpsolver import ofc, three_leaves
from cpsolver.errors import RuleError

FANTASYLAND = "As Ad Kh Kd Qs Qc Jh Jd Ts 9s 8s 7s 6s 2c"


def test_fantasyland_takes_its_rules_second() -> None:
    assert ofc.fantasyland(FANTASYLAND, "pineapple") == ofc.fantasyland(
        FANTASYLAND, rules="pineapple"
    )


def test_estimate_ev_takes_its_rules_second() -> None:
    """OFC.md gives estimate_ev fantasyland()'s arguments; it kept rules keyword-only (a
    positional preset raised TypeError) after fantasyland took them second."""
    positional = ofc.estimate_ev(FANTASYLAND, "pineapple", samples=8, seed=1)
    named = ofc.estimate_ev(FANTASYLAND, rules="pineapple", samples=8, seed=1)
    assert positional.candidates == named.candidates
    assert (positional.opponent_boards == named.opponent_boards).all()


def test_advise_hand_takes_its_rules_after_the_trump_card() -> None:
    positional = three_leaves.advise_hand("Ah Kh 8c", "9h", "standard", samples=200, seed=1)
    named = three_leaves.advise_hand("Ah Kh 8c", "9h", rules="standard", samples=200, seed=1)
    assert positional == named


def test_a_rules_argument_of_the_wrong_type_is_named_with_what_came() -> None:
    """The error read "expected a OfcRules or a preset name", the article wrong and the
    type given left out."""
    with pytest.raises(RuleError) as caught:
        ofc.deal(1, {"variant": "classic"})  # type: ignore[arg-type]
    assert str(caught.value) == "rules: expected an OfcRules or a preset name, got dict"
    with pytest.raises(RuleError, match=r"^rules: expected a ThreeLeavesRules .*, got int$"):
        three_leaves.deal(1, 3)  # type: ignore[arg-type]
