"""Chinese poker's ``evaluate`` in the games' one vocabulary: the cards, then the rule set.

``cpsolver.evaluate`` is this function (docs/API.md "One vocabulary"), as
``cpsolver.chlust.evaluate`` and ``cpsolver.three_leaves.evaluate`` are the trick games'.
"""

from __future__ import annotations

from cpsolver.cards import CardsLike
from cpsolver.evaluator.poker import HandValue
from cpsolver.evaluator.poker import evaluate as evaluate_poker
from cpsolver.rules import ChineseRules

__all__ = ["evaluate"]


def evaluate(
    cards: CardsLike,
    rules: ChineseRules | str | None = None,
    *,
    wheel_second_highest: bool | None = None,
    **overrides: object,
) -> HandValue:
    """Evaluate a 5-card hand or a 3-card front under ``rules`` (a rule set, a preset name or
    None for the defaults; ``overrides`` are rule options by name, as :func:`cpsolver.solve`
    takes them): the rule set's ``wheel`` (CP-3) ranks A-2-3-4-5.
    ``wheel_second_highest``, when given, overrides the rule set's wheel (the evaluator's own
    keyword, ``cpsolver.evaluator.poker.evaluate``). Raises :class:`~cpsolver.errors.CardError`.

    >>> evaluate("Jh Js 4c 4d Jd").name
    'full house, jacks over fours'
    >>> low, wheel = evaluate("6h 5s 4d 3c 2h"), evaluate("5h 4s 3d 2c Ah")
    >>> wheel < low, evaluate("5h 4s 3d 2c Ah", wheel="second_highest") > low
    (True, True)
    """
    if wheel_second_highest is None:
        wheel_second_highest = ChineseRules.resolve(rules, **overrides).wheel_second_highest
    return evaluate_poker(cards, wheel_second_highest=wheel_second_highest)
