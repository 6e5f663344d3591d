"""cpsolver.chlust.deal: deal(seed, rules, *, players, dealer), the games' one order."""

from __future__ import annotations

import warnings

import pytest

from cpsolver.chlust import ChlustRules, deal


def test_the_deal_numbered_seed_in_the_one_argument_order() -> None:
    nines = ChlustRules.preset("nines")
    d = deal(5, nines, players=3, dealer=1)
    assert d == deal(seed=5, rules=nines, players=3, dealer=1)  # seed by name too
    assert len(d.hands) == 3 and len(d.stock) == 24 - 10 and d.dealer == 1
    assert len(deal(5).hands) == ChlustRules().players  # the rules' players by default
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        deal(5, "nines", players=2)


def test_the_old_order_warns_and_deals_the_same() -> None:
    with pytest.warns(DeprecationWarning, match=r"deal\(players, rules, \*, seed\)"):
        old = deal(3, "nines", seed=5, dealer=1)
    assert old == deal(5, "nines", players=3, dealer=1)
    with pytest.warns(DeprecationWarning):
        assert deal(2, seed=9) == deal(9, players=2)


def test_bad_calls_are_type_errors() -> None:
    with pytest.raises(TypeError, match="missing the seed"):
        deal(players=3)
    with pytest.raises(TypeError, match="rules must be"):
        deal(5, 3)
    with pytest.raises(TypeError, match="unexpected keyword"):
        deal(5, sed=3)
