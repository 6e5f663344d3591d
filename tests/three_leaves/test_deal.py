"""cpsolver.three_leaves.deal: the seeded deal, evaluate in the game's vocabulary, Choices."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cpsolver.cards import Card
from cpsolver.errors import CardError, InvalidInputError
from cpsolver.rules import ThreeLeavesRules
from cpsolver.three_leaves import Choices, Deal, deal, evaluate, greedy_policy, play_deal


def test_a_seeded_deal_is_a_deal_of_the_rules_deck() -> None:
    rules = ThreeLeavesRules(players=3, deck=32)
    d = deal(11, rules)
    assert d == deal(11, rules) and d != deal(12, rules)
    dealt = [c for h in d.hands for c in h] + [d.trump_card, *d.stock]
    assert sorted(dealt, key=lambda c: c.index) == sorted(
        rules.card_deck.cards, key=lambda c: c.index
    )
    assert d.dealer == 2 and deal(11, rules, dealer=0).dealer == 0
    # The facts check out as Deal.of's, and the deal plays (every seat plays the cards dealt).
    again = Deal.of([list(h) for h in d.hands], d.trump_card, d.stock, dealer=d.dealer, rules=rules)
    assert again == d
    result = play_deal(d, Choices(plays=greedy_policy))
    assert result.deal is d and sum(result.net) + result.pot_after == 0


def test_deal_refuses_bad_seeds_and_dealers() -> None:
    with pytest.raises(InvalidInputError, match=r"^seed: "):
        deal(-1)
    with pytest.raises(InvalidInputError, match=r"^dealer: must be a seat 0 to 3"):
        deal(1, dealer=4)


def test_evaluate_uses_the_rules_deck_and_class_order() -> None:
    trips_first = ThreeLeavesRules().replace(class_order="trips_first")
    trump = evaluate("Jd Td 8d", "d")
    trips = evaluate("8s 8h 8c", "d")
    assert trump.key > trips.key  # trump_first [default]
    assert evaluate("Jd Td 8d", "d", trips_first).key < evaluate("8s 8h 8c", "d", trips_first).key
    with pytest.raises(CardError):
        evaluate("7s 7h 7d", "c")  # 28 cards by default
    assert evaluate("7s 7h 7d", "c", ThreeLeavesRules(deck=32)).cards[0] == Card.of("7s")


def test_choices_default_to_the_28_card_deck_like_everything_else() -> None:
    with pytest.raises(CardError, match="28-card deck"):
        Choices.of(plays="7s")
    assert Choices.of(plays="7s", rules=ThreeLeavesRules(deck=32)).plays == (
        (Card.of("7s"), False),
    )


def test_the_old_game_module_warns_and_still_has_its_names() -> None:
    """cpsolver.three_leaves.game (which docs/API.md named until now) warns when imported, in a
    fresh interpreter, and still gives the names it had."""
    script = (
        "import warnings\n"
        "warnings.simplefilter('error')\n"
        "try:\n"
        "    import cpsolver.three_leaves.game\n"
        "except DeprecationWarning as w:\n"
        "    print('warned:', w)\n"
        "warnings.simplefilter('ignore')\n"
        "from cpsolver.three_leaves.game import MAX_SEED, check_play_limits, play_deal, Choices\n"
        "from cpsolver.three_leaves import play_deal as new\n"
        "print(play_deal is new)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert run.stdout.splitlines() == [
        "warned: cpsolver.three_leaves.game is deprecated: import from cpsolver.three_leaves "
        "(or its modules play, deal, engine, session)",
        "True",
    ]
