"""The client's per-game sections over both backends (issue 17): the same test runs in-process
(``LocalBackend``) and against the suite's real ``cpsolver serve`` on loopback
(``RemoteBackend``), and every answer is compared with the library's own function, not with
the other backend. Bad input raises the library's error either way. The names before the
sections (``solver.chlust_play``...) still answer, with a DeprecationWarning, for one release.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

import cpsolver.chlust as chlust
import cpsolver.three_leaves as leaves
from cpsolver import InvalidInputError, evaluate, parse_cards, score, solve
from cpsolver.cards import Card, Suit
from cpsolver.chinese.deal import deals
from cpsolver.chinese.scoring import check_arrangement
from cpsolver.client import LocalBackend, LocalSolver, RemoteSolver, Solver, calls, connect
from cpsolver.client.games import ChinesePoker, Chlust, ThreeLeaves
from cpsolver.errors import CardError, IllegalPlayError
from cpsolver.rules import ChlustRules
from cpsolver.tricks import Trick


@pytest.fixture(params=["local", "remote"])
def solver(request: pytest.FixtureRequest) -> Iterator[Solver]:
    """A Solver in-process, then one of the suite's shared server (``remote`` fixture)."""
    if request.param == "local":
        with LocalSolver() as local:
            yield local
    else:
        yield request.getfixturevalue("remote")


def _failure(call: Any, *args: Any, **kwargs: Any) -> InvalidInputError:
    with pytest.raises(InvalidInputError) as caught:
        call(*args, **kwargs)
    return caught.value


# --- Chinese poker ---------------------------------------------------------------------


HAND = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"
OTHER = "8c 8d 6h 6s 4c 4d 3h 5h Kc Qd Jh Tc 2c"


def test_chinese_section_answers_as_the_library(solver: Solver) -> None:
    assert solver.chinese.solve(HAND, objective="royalties") == solve(HAND, "standard", "royalties")
    assert solver.solve(HAND, objective="royalties") == solver.chinese.solve(
        HAND, objective="royalties"
    )  # Chinese poker's methods are on the solver itself too
    batch = list(solver.chinese.solve_batch([HAND, "As Ks", OTHER], objective="strength"))
    assert batch[0] == solve(HAND, "standard", "strength")
    assert isinstance(batch[1], CardError) and batch[2] == solve(OTHER, "standard", "strength")
    assert solver.chinese.evaluate("Jh Js 4c 4d Jd") == evaluate("Jh Js 4c 4d Jd")
    wheel = solver.chinese.evaluate("Ah 2s 3d 4c 5h", wheel="second_highest")
    assert wheel == evaluate("Ah 2s 3d 4c 5h", wheel_second_highest=True)
    players = {"N": batch[0], "E": batch[2]}
    assert solver.chinese.score(players, "two_four") == score(players, "two_four")
    seat_by_seat = [batch[0], batch[2]]  # seats 0 and 1, named N and E
    assert solver.chinese.score(seat_by_seat) == score(seat_by_seat)
    assert solver.chinese.deal(5, players=3, count=2) == deals(5, 3, 2)
    rows = ("As Ks Qs Js Ts", "9h 9d 9c 2h 2d", "7c 5d 3s")
    assert solver.chinese.validate(*rows) == check_arrangement(*rows, "standard")


def test_chinese_section_raises_the_library_errors(solver: Solver) -> None:
    dup = HAND.replace("3s", "As")
    mine = _failure(solve, dup)
    assert _failure(solver.chinese.solve, dup).violations == mine.violations
    assert _failure(solver.chinese.evaluate, "Ah Ah 2c").violations == (
        _failure(evaluate, "Ah Ah 2c").violations
    )
    with pytest.raises(TypeError, match="missing the seed"):
        solver.chinese.deal(players=3)


# --- Chlust ----------------------------------------------------------------------------


CH_E11 = (["Ah Td Kc", "Kh Ad Js", "Qh Jd Tc"], "s", ["Ah Kh Qh", "Kc Js Tc", "Ad Jd Td"])


def test_chlust_section_answers_as_the_library(solver: Solver) -> None:
    rules = ChlustRules.resolve(None)
    assert solver.chlust.deal(11, "nines", players=3, dealer=1) == chlust.deal(
        11, "nines", players=3, dealer=1
    )
    seat, after = solver.chlust.exchange(["Kh Qh Jh", "Td Ah As", "Ks Qs Js"], "Ad")
    assert seat == 1 and after.turned == Card.of("Td")
    assert solver.chlust.evaluate("Ah Kh Qh", "h", turned="Jh") == chlust.evaluate(
        "Ah Kh Qh", "h", rules, turned=Card.of("Jh")
    )
    hands = ["Ah Kh Qh", "As Ks Qs"]
    assert solver.chlust.showdown(hands, "h") == chlust.showdown(hands, "h", rules)
    trick = Trick.of(Suit.HEARTS, 0, parse_cards("Qd Kd Jh"))
    assert (
        solver.chlust.legal_cards("Th Kh Ac", "h", trick="Qd Kd Jh")
        == chlust.legal_cards("Th Kh Ac", trick, rules)
        == parse_cards("Kh")
    )
    played = solver.chlust.play_deal(*CH_E11, turned="Qs")
    assert played == chlust.play_deal(*CH_E11, rules, turned="Qs")
    assert played.winners == (1,)
    odds = solver.chlust.showdown_odds("Ad Kd Qd", "d")
    assert odds == chlust.showdown_odds("Ad Kd Qd", "d", rules)
    assert odds.deals == 680
    record = Trick.of(Suit.SPADES, 0, parse_cards("Qh Ah"), seats=[0, 1])
    options = {"seat": 2, "seats": [0, 1, 2, 3], "samples": 30, "seed": 3}
    assert solver.chlust.advise("Ad Kh Ts", record, **options) == chlust.advise_play(
        "Ad Kh Ts", record, rules, **options
    )
    bidding = chlust.Bidding(3, rules)
    for action in ("raise", "fold", "call"):
        bidding.act(action)
    assert solver.chlust.bid(["raise", "fold", "call"], 3) == bidding.state()


def test_chlust_section_raises_the_library_errors(solver: Solver) -> None:
    illegal = (CH_E11[0], "s", "Ah Kh Qh Kc Ad Tc Js Jd Td")  # seat 1 must trump the clubs
    caught = _failure(solver.chlust.play_deal, *illegal)
    assert isinstance(caught, IllegalPlayError)
    assert caught.violations == _failure(chlust.play_deal, *illegal).violations
    bad = _failure(solver.chlust.bid, ["check", "bet"], 2)
    assert bad.violations[0].field == "actions[1].action"  # from 0, as the path
    assert "players" in str(_failure(solver.chlust.deal, 1, players=7))


# --- Three Leaves ----------------------------------------------------------------------


TL_E6 = (["As Kh 8d", "Ks 9h Jc", "Ts Ah Qd", "Qs 8c Ac"], "9d")
TL_E6_PLAYS = "As Ks Ts Qs  Kh 9h Ah ~8c  Qd ~Ac 8d ~Jc"


def test_three_leaves_section_answers_as_the_library(solver: Solver) -> None:
    assert solver.leaves.evaluate("As Ks 8s", "s") == leaves.evaluate("As Ks 8s", "s", None)
    dealt = leaves.deal(7, "three_players", dealer=0)
    assert solver.leaves.deal(7, "three_players", dealer=0) == dealt
    hand, trick = leaves.leaf_trick("8d Ac Kh", "d", "As ~8c")
    assert solver.leaves.legal_plays(hand, trick) == leaves.legal_on_trick(hand, trick)
    deal = leaves.Deal.of(*TL_E6)
    assert solver.leaves.resolve(deal) == leaves.best_khlyust(
        deal.hands, deal.trump, deal.dealer, deal.players, deal.rules
    )
    choices = leaves.Choices.of(plays=TL_E6_PLAYS)
    result = solver.leaves.play_deal(deal, choices, carried_pot=2)
    assert result == leaves.play_deal(deal, choices, carried_pot=2)
    session = solver.leaves.play_session([(deal, choices), (deal, choices)], carried_pot=2)
    assert session == leaves.play_session([(deal, choices), (deal, choices)], carried_pot=2)
    options = {"samples": 20, "seed": 3, "exchange": True}
    assert solver.leaves.advise("8s 9h Jc", "9d", **options) == leaves.advise_hand(
        "8s 9h Jc", "9d", **options
    )


def test_three_leaves_section_raises_the_library_errors(solver: Solver) -> None:
    deal = leaves.Deal.of(*TL_E6)
    bad = leaves.Choices.of(plays="As Jc Ts Qs")
    caught = _failure(solver.leaves.play_deal, deal, bad)
    assert isinstance(caught, IllegalPlayError) and caught.rule == "TL-5"
    assert caught.violations == _failure(leaves.play_deal, deal, bad).violations
    assert "position" in str(_failure(solver.leaves.advise, "8s 9h Jc", "9d", position=4))
    assert _failure(solver.leaves.deal, 1, "two_players", dealer=2).violations == (
        _failure(leaves.deal, 1, "two_players", dealer=2).violations
    )


# --- the shape: one interface, one signature per method -------------------------------


def test_every_call_has_a_handler_in_both_backends(remote: RemoteSolver) -> None:
    """A call added to :mod:`cpsolver.client.calls` without a handler fails here."""
    every = set(calls.Call.__subclasses__())
    assert len(every) == 26  # 22 + the four of OpenFaceService
    for backend in (LocalBackend(), remote.backend):
        assert set(backend._handlers) == every, type(backend).__name__

    class Unknown(calls.Call[int]):
        pass

    with pytest.raises(NotImplementedError, match="Unknown"):
        LocalBackend().call(Unknown())


def test_the_sections_are_the_only_public_signatures() -> None:
    """LocalSolver and RemoteSolver add no game method of their own: each is a Solver over a
    backend, so a game method's signature is written once, in its section."""
    for section in (ChinesePoker, Chlust, ThreeLeaves):
        for name, _ in inspect.getmembers(section, inspect.isfunction):
            if not name.startswith("_"):
                assert name not in vars(LocalSolver) and name not in vars(RemoteSolver), name
    solver = connect(None)
    assert isinstance(solver.chinese, ChinesePoker) and isinstance(solver.chlust, Chlust)
    assert isinstance(solver.leaves, ThreeLeaves) and solver.chlust.backend is solver.backend


# --- the names before the sections (docs/API.md used them): one release, with a warning --


RENAMED = {
    "chlust_deal": "chlust.deal",
    "chlust_exchange": "chlust.exchange",
    "chlust_evaluate": "chlust.evaluate",
    "chlust_showdown": "chlust.showdown",
    "chlust_legal": "chlust.legal_cards",
    "chlust_play": "chlust.play_deal",
    "chlust_odds": "chlust.showdown_odds",
    "chlust_advise": "chlust.advise",
    "chlust_bid": "chlust.bid",
    "leaves_evaluate": "leaves.evaluate",
    "leaves_legal": "leaves.legal_plays",
    "leaves_resolve": "leaves.resolve",
    "leaves_play": "leaves.play_deal",
    "leaves_session": "leaves.play_session",
    "leaves_advise": "leaves.advise",
}


def _old_calls() -> dict[str, tuple[tuple[Any, ...], dict[str, Any]]]:
    deal = leaves.Deal.of(*TL_E6)
    choices = leaves.Choices.of(plays=TL_E6_PLAYS)
    hand, trick = leaves.leaf_trick("8d Ac Kh", "d", "As ~8c")
    record = Trick.of(Suit.SPADES, 0, parse_cards("Qh Ah"), seats=[0, 1])
    return {
        "chlust_deal": ((11, "nines"), {"players": 3}),
        "chlust_exchange": ((["Kh Qh Jh", "Td Ah As"], "Ad"), {}),
        "chlust_evaluate": (("Ah Kh Qh", "h"), {}),
        "chlust_showdown": ((["Ah Kh Qh", "As Ks Qs"], "h"), {}),
        "chlust_legal": (("Th Kh Ac", "h"), {"trick": "Qd Kd Jh"}),
        "chlust_play": (CH_E11, {"turned": "Qs"}),
        "chlust_odds": (("Ad Kd Qd", "d"), {}),
        "chlust_advise": (("Ad Kh Ts", record), {"seat": 2, "seats": [0, 1, 2, 3], "samples": 9}),
        "chlust_bid": ((["raise", "fold", "call"], 3), {}),
        "leaves_evaluate": (("As Ks 8s", "s"), {}),
        "leaves_legal": ((hand, trick), {}),
        "leaves_resolve": ((deal,), {}),
        "leaves_play": ((deal, choices), {"carried_pot": 2}),
        "leaves_session": (([(deal, choices)],), {}),
        "leaves_advise": (("8s 9h Jc", "9d"), {"samples": 9, "tricks": False}),
    }


@pytest.mark.parametrize("old", sorted(RENAMED))
def test_the_old_method_names_warn_and_answer_as_the_new(solver: Solver, old: str) -> None:
    args, kwargs = _old_calls()[old]
    section, name = RENAMED[old].split(".")
    with pytest.warns(DeprecationWarning, match=rf"Solver\.{old}\(\).*solver\.{section}\.{name}"):
        answer = getattr(solver, old)(*args, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new names do not warn
        assert answer == getattr(getattr(solver, section), name)(*args, **kwargs)


def test_the_old_names_are_every_name_the_docs_listed() -> None:
    """Each ``chlust_``/``leaves_`` name of the last release is kept, and only those."""
    kept = {n for n in vars(Solver) if n.startswith(("chlust_", "leaves_"))}
    assert kept == set(RENAMED)
