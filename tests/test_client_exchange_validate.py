"""The typed client's ValidateArrangement and Exchange methods: the same library values and
errors in-process and against a real server (the ``remote`` fixture: ``cpsolver serve``)."""

from __future__ import annotations

import inspect

import pytest

from cpsolver import InvalidInputError, Row, parse_cards
from cpsolver.cards import Card
from cpsolver.client import LocalSolver, RemoteSolver, Solver

LOCAL = LocalSolver()
CP_E1 = ("As Ks Qs Js 3s", "9h 9c Kd 5s 2h", "9s 9d Kc")  # valid (RULES CP-E1)
CP_E2 = ("As Ks 8s 7s 3s", "9h 9c Qd Js Th", "9s 9d Kc")  # fouled: the front beats the middle


def test_validate_a_valid_and_a_fouled_arrangement(remote: RemoteSolver) -> None:
    for rows, fouled in ((CP_E1, False), (CP_E2, True)):
        mine = LOCAL.validate(*rows)
        theirs = remote.validate(*rows)
        assert theirs.fouled is mine.fouled is fouled
        assert theirs == mine
    assert "front" in remote.validate(*CP_E2).foul_reason
    royal = remote.validate("As Ks Qs Js Ts", "9h 9d 9c 2h 2d", "7c 5d 3s")
    assert royal.royalty_total == 7 and royal.hands is not None
    assert royal.hands[Row.BACK].name == "royal flush"


def test_validate_refuses_the_same_bad_input(remote: RemoteSolver) -> None:
    bad = ("As Ks Qs Js 3s", "9h 9c Kd 5s As", "9s 9d Kc")  # As twice
    with pytest.raises(InvalidInputError) as mine:
        LOCAL.validate(*bad)
    with pytest.raises(InvalidInputError) as theirs:
        remote.validate(*bad)
    assert theirs.value.violations == mine.value.violations
    assert "duplicate card 'As'" in str(theirs.value)


def test_exchange_the_turned_trump_ace(remote: RemoteSolver) -> None:
    """CH-2: the holder of the lowest trump (T with 20 cards) takes the turned trump ace."""
    hands = ["Kh Qh Jh", "Td Ah As", "Ks Qs Js"]
    for solver in (LOCAL, remote):
        seat, after = solver.chlust.exchange(hands, "Ad")
        assert seat == 1
        assert set(after.hands[1]) == set(parse_cards("Ad Ah As"))
        assert after.turned == Card.of("Td") and after.hands[0] == parse_cards("Kh Qh Jh")
    assert remote.chlust.exchange(hands, "Ad") == LOCAL.chlust.exchange(hands, "Ad")


def test_no_exchange_without_a_turned_ace(remote: RemoteSolver) -> None:
    hands = ["Kh Qh Jh", "Td Ah As"]
    for solver in (LOCAL, remote):
        seat, after = solver.chlust.exchange(hands, "Kd")
        assert seat is None and after.turned == Card.of("Kd")
        assert after.hands == (parse_cards("Kh Qh Jh"), parse_cards("Td Ah As"))


def test_exchange_refuses_the_same_bad_input(remote: RemoteSolver) -> None:
    bad = ["Kh Qh Jh", "Td Ah Kh"]  # Kh in two hands
    with pytest.raises(InvalidInputError) as mine:
        LOCAL.chlust.exchange(bad, "Ad")
    with pytest.raises(InvalidInputError) as theirs:
        remote.chlust.exchange(bad, "Ad")
    assert theirs.value.violations == mine.value.violations


@pytest.mark.parametrize("solver_class", [Solver, LocalSolver, RemoteSolver])
def test_constraints_and_engine_are_declared_parameters(solver_class: type) -> None:
    """``constraints`` and ``engine`` are keyword parameters of solve (they went through
    ``**overrides`` before), so a misspelling is a TypeError, not a rule-option error."""
    params = inspect.signature(solver_class.solve).parameters
    for name in ("constraints", "engine"):
        assert params[name].kind is inspect.Parameter.KEYWORD_ONLY, name
    assert params["engine"].default == "exact"


def test_solve_with_constraints_is_the_same_remote(remote: RemoteSolver) -> None:
    hand = "As Ks Qs Js 9h 9d 9c 2h 2d 7c 5d 3s 4c"
    wanted = "As=front Ks!=back"
    mine = LOCAL.solve(hand, objective="royalties", constraints=wanted)
    assert Card.of("As") in mine.front and Card.of("Ks") not in mine.back
    assert remote.solve(hand, objective="royalties", constraints=wanted) == mine


def test_deals_take_the_seed_first_and_the_old_order_warns(remote: RemoteSolver) -> None:
    """deal(seed, *, players) and chlust.deal(seed, rules, *, players), as the library's; the
    order the docs used until now (players first, the seed by name) warns, same answer."""
    for solver in (LOCAL, remote):
        new = solver.deal(41, players=3, count=2)
        assert [d.seed for d in new] == [41, 42] and len(new[0].hands) == 3
        assert solver.deal(seed=41, players=3, count=2) == new
        with pytest.warns(DeprecationWarning, match=r"deal\(players, \.\.\., \*, seed\)"):
            assert solver.deal(3, seed=41, count=2) == new
        dealt = solver.chlust.deal(11, "nines", players=3, dealer=1)
        assert len(dealt.hands) == 3 and dealt.dealer == 1
        with pytest.warns(DeprecationWarning, match=r"chlust\.deal\(players"):
            assert solver.chlust.deal(3, "nines", seed=11, dealer=1) == dealt
        with pytest.warns(DeprecationWarning):
            assert solver.chlust.deal(3, rules="nines", seed=11, dealer=1) == dealt
    assert remote.deal(41, players=3, count=2) == LOCAL.deal(41, players=3, count=2)
    with pytest.raises(TypeError, match="missing the seed"):
        LOCAL.deal(players=3)
