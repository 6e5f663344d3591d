"""How an ``ev`` solve estimates expected units: one parameter, ``estimator``, on every surface.

The ``ev`` objective (RULES §2.3) can value a split four ways, cheapest first:

========================  ==================================================================
``model``                 the first-order opponent tables (card removal by row class; about
                          0.3 ms): for callers who want the cheapest answer
``calibrated``            the best candidates re-scored against the importance-weighted
                          opponent pool (card removal beyond first order; about 1 ms): the
                          default of the library, the CLI's batch and the server
``rollouts:N``            the best candidates re-scored by simulating N opponent deals from
                          the unseen cards (``seed`` makes them reproducible)
``budget:Nms``            a time budget of N milliseconds: the finest of the above that fits
                          it (:func:`budget_mode`); ``cpsolver solve`` spends ``budget:100ms``
========================  ==================================================================

The same text names the same estimator in the library (``solve(cards,
estimator="rollouts:2000")``), the CLI (``--estimator rollouts:2000``) and the gRPC API
(``SolveRequest.estimator``); :class:`Estimator` is its typed value. How many arrangements come
back is the other parameter, ``arrangements`` (the best and the next best, :func:`resolve_count`).

>>> Estimator.parse("rollouts:2000"), str(Estimator.parse("budget:50"))
(Estimator(kind='rollouts', amount=2000), 'budget:50ms')
>>> Estimator.parse("budget:50ms").chosen(), Estimator.parse("budget:5ms").chosen()
(Estimator(kind='calibrated', amount=0), Estimator(kind='model', amount=0))
>>> Estimator.parse("rollout:10")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cpsolver.errors.InvalidInputError: estimator: unknown estimator 'rollout:10'; expected model, ...
"""

from __future__ import annotations

import functools
import re
import warnings
from dataclasses import dataclass
from typing import Literal

from cpsolver.chinese.rollouts import MAX_ROLLOUTS
from cpsolver.errors import FieldViolation, InvalidInputError

__all__ = [
    "CALIBRATED_COST_MS",
    "DEFAULT_ESTIMATOR",
    "ESTIMATOR_KINDS",
    "MAX_ARRANGEMENTS",
    "MAX_BUDGET_MS",
    "Estimator",
    "EstimatorLike",
    "budget_mode",
    "resolve_count",
    "resolve_estimator",
]

EstimatorKind = Literal["model", "calibrated", "rollouts", "budget"]
ESTIMATOR_KINDS: tuple[EstimatorKind, ...] = ("model", "calibrated", "rollouts", "budget")

MAX_BUDGET_MS = 600_000
"""The largest time budget, ``budget:600000ms`` (ten minutes; no estimator needs more)."""
MAX_ARRANGEMENTS = 101
"""Most arrangements one solve returns: the best and 100 next best."""
CALIBRATED_COST_MS = 10
"""The time budget, in milliseconds, from which a budget buys the ``calibrated`` estimator
(:func:`budget_mode`): about twice the median of ``solve(cards, estimator="calibrated")`` on
this project's busy 2-core reference machine (3.5-5.7 ms, docs/BENCHMARKS.md), so a loaded
machine still fits it."""

_FORMS = (
    f"model, calibrated, rollouts:N (1 to {MAX_ROLLOUTS} deals) "
    f"or budget:Nms (0 to {MAX_BUDGET_MS} ms)"
)
_TEXT = re.compile(r"(?P<kind>[a-z]+)(?::(?P<amount>[0-9]+)(?P<unit>ms)?)?")


@dataclass(frozen=True, slots=True)
class Estimator:
    """One way to estimate an ``ev`` split's expected units: ``kind`` with its ``amount``
    (deals for ``rollouts``, milliseconds for ``budget``, else 0). Its text (``str``) is the
    form every surface takes and :meth:`parse` reads back."""

    kind: EstimatorKind
    amount: int = 0

    def __post_init__(self) -> None:
        problem = _amount_problem(self.kind, self.amount)
        if problem:
            raise InvalidInputError("estimator", problem)

    @classmethod
    def parse(cls, text: str) -> Estimator:
        """The estimator named by ``text`` (``model``, ``calibrated``, ``rollouts:N``,
        ``budget:Nms``; ``budget:N`` is milliseconds too); :class:`InvalidInputError` naming
        ``estimator`` otherwise."""
        if not isinstance(text, str):
            raise InvalidInputError(
                "estimator", f"expected a text such as 'calibrated', got {type(text).__name__}"
            )
        return _parse_text(text)

    def __str__(self) -> str:
        if self.kind == "rollouts":
            return f"rollouts:{self.amount}"
        if self.kind == "budget":
            return f"budget:{self.amount}ms"
        return self.kind

    def chosen(self, seconds_left: float | None = None) -> Estimator:
        """The estimator that runs: a budget's choice (:func:`budget_mode`, at most half of
        ``seconds_left`` when a deadline is known), else this one."""
        if self.kind != "budget":
            return self
        return Estimator(budget_mode(self.amount, seconds_left))

    @property
    def rollouts(self) -> int:
        """Opponent deals to simulate (0 unless ``rollouts:N``)."""
        return self.amount if self.kind == "rollouts" else 0

    @property
    def is_model(self) -> bool:
        """True when nothing beyond the first-order tables is asked (``model``, or a budget of
        0 ms)."""
        return self.kind == "model" or (self.kind == "budget" and self.amount == 0)


@functools.lru_cache(maxsize=256)
def _parse_text(text: str) -> Estimator:
    """:meth:`Estimator.parse` of a text, remembered: every call of every surface names its
    estimator by text (a few microseconds of regular expression each); an error is raised
    again each time (not remembered), and what is remembered is bounded."""
    match = _TEXT.fullmatch(text.strip().lower())
    kind = match["kind"] if match else ""
    if kind not in ESTIMATOR_KINDS or match is None:
        raise InvalidInputError("estimator", f"unknown estimator {text!r}; expected {_FORMS}")
    amount, unit = match["amount"], match["unit"]
    if kind in ("model", "calibrated"):
        if amount is not None:
            raise InvalidInputError("estimator", f"{kind} takes no amount, got {text!r}")
        return Estimator(kind)
    if amount is None or (unit and kind != "budget"):
        example = "rollouts:2000" if kind == "rollouts" else "budget:50ms"
        raise InvalidInputError(
            "estimator", f"{kind} needs an amount, e.g. {example!r}; got {text!r}"
        )
    return Estimator(kind, int(amount))


EstimatorLike = Estimator | str
"""An :class:`Estimator` or its text."""


def _amount_problem(kind: str, amount: int) -> str:
    if kind not in ESTIMATOR_KINDS:
        return f"unknown estimator {kind!r}; expected {_FORMS}"
    if kind == "rollouts" and not 1 <= amount <= MAX_ROLLOUTS:
        return f"rollouts:N takes 1 to {MAX_ROLLOUTS} deals, got {amount}"
    if kind == "budget" and not 0 <= amount <= MAX_BUDGET_MS:
        return f"budget:Nms takes 0 to {MAX_BUDGET_MS} milliseconds, got {amount}"
    if kind in ("model", "calibrated") and amount:
        return f"{kind} takes no amount, got {amount}"
    return ""


DEFAULT_ESTIMATOR = Estimator("calibrated")
"""What every surface uses when no estimator is named (issue 32): the calibrated estimate, whose
printed EV is right (docs/BENCHMARKS.md) at about 1 ms a hand. Where the pool cannot settle a
call (constraints, 13 of 14 to 17 cards, ``engine="cpsat"``: rows it does not choose whole)
an unnamed estimator is the table model's, as :func:`cpsolver.solve` says; naming
``calibrated`` there is an error."""


def budget_mode(
    budget_ms: int, seconds_left: float | None = None
) -> Literal["calibrated", "model"]:
    """The estimator a time budget of ``budget_ms`` milliseconds buys: ``"calibrated"``
    when :data:`CALIBRATED_COST_MS` fits, else ``"model"``. With ``seconds_left`` (a call's
    deadline: ``solve``'s ``deadline``, or the server call's, :func:`cpsolver.budget.
    budget_left`) the budget is at most half of what is left, so the answer still arrives in
    time. A function of its arguments, not of a clock reading: the same budget gives the same
    answer on every machine.

    >>> budget_mode(0), budget_mode(CALIBRATED_COST_MS), budget_mode(1000, seconds_left=0.01)
    ('model', 'calibrated', 'model')
    """
    usable = float(budget_ms)
    if seconds_left is not None:
        usable = min(usable, seconds_left * 1000.0 / 2)
    return "calibrated" if usable >= CALIBRATED_COST_MS else "model"


def _deprecated(old: str, new: str) -> None:
    warnings.warn(
        f"{old} is deprecated; use {new} (docs/API.md, 'One way to ask')",
        DeprecationWarning,
        stacklevel=4,
    )


def resolve_estimator(
    estimator: EstimatorLike | None,
    *,
    rollouts: int | None = None,
    calibrated: bool | None = None,
    budget_ms: int | None = None,
    default: Estimator = DEFAULT_ESTIMATOR,
    warn: bool = True,
) -> Estimator:
    """The one estimator a call names: ``estimator`` (an :class:`Estimator` or its text), or
    one of the deprecated names it replaces (``rollouts=N``, ``calibrated=True``,
    ``budget_ms=N``; a :class:`DeprecationWarning` when ``warn``), or ``default`` when none is
    given. Naming it twice is an :class:`InvalidInputError` with a violation for each name.

    >>> resolve_estimator(None), resolve_estimator("model")
    (Estimator(kind='calibrated', amount=0), Estimator(kind='model', amount=0))
    >>> try:
    ...     resolve_estimator("calibrated", rollouts=100, warn=False)
    ... except InvalidInputError as error:
    ...     for violation in error.violations:
    ...         print(violation)
    estimator: names the estimate twice with rollouts; give estimator only, e.g. 'rollouts:100'
    rollouts: names the estimate twice with estimator; give estimator only, e.g. 'rollouts:100'
    """
    named: list[tuple[str, Estimator]] = []
    if estimator is not None:
        value = estimator if isinstance(estimator, Estimator) else Estimator.parse(estimator)
        named.append(("estimator", value))
    if rollouts:  # 0 is "not asked" (the old API's default)
        _check_int("rollouts", rollouts, 0, MAX_ROLLOUTS)
        named.append(("rollouts", Estimator("rollouts", rollouts)))
    if calibrated:
        named.append(("calibrated", Estimator("calibrated")))
    if budget_ms:
        _check_int("budget_ms", budget_ms, 0, MAX_BUDGET_MS)
        named.append(("budget_ms", Estimator("budget", budget_ms)))
    if len(named) > 1:
        names = [name for name, _ in named]
        hint = str(named[-1][1])
        raise InvalidInputError(
            violations=[
                FieldViolation(
                    name,
                    f"names the estimate twice with {' and '.join(n for n in names if n != name)}"
                    f"; give estimator only, e.g. {hint!r}",
                )
                for name in names
            ]
        )
    if not named:
        return default
    name, value = named[0]
    if warn and name != "estimator":
        _deprecated(name, f"estimator={str(value)!r}")
    return value


def resolve_count(
    arrangements: int | None,
    *,
    alternatives: int | None = None,
    top: int | None = None,
    warn: bool = True,
    alternatives_name: str = "alternatives",
) -> int:
    """How many arrangements a call asks for (the best first, 1 to :data:`MAX_ARRANGEMENTS`):
    ``arrangements``, or one of the deprecated names it replaces (``alternatives=N``, the
    runner-ups only: N + 1; ``top=K``: K), 1 when none is given. Naming it twice is an
    :class:`InvalidInputError` with a violation for each name (``alternatives_name``: what the
    caller calls ``alternatives``, e.g. the wire's ``top_k``).

    >>> resolve_count(None), resolve_count(3), resolve_count(None, alternatives=2, warn=False)
    (1, 3, 3)
    >>> resolve_count(0)
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: arrangements: must be 1 to 101, got 0
    """
    named: list[tuple[str, int]] = []
    if arrangements is not None:
        _check_int("arrangements", arrangements, 1, MAX_ARRANGEMENTS)
        named.append(("arrangements", arrangements))
    if alternatives:  # 0 is "not asked" (the old API's default)
        _check_int(alternatives_name, alternatives, 0, MAX_ARRANGEMENTS - 1)
        named.append((alternatives_name, alternatives + 1))
    if top is not None:
        _check_int("top", top, 1, MAX_ARRANGEMENTS)
        named.append(("top", top))
    if len(named) > 1:
        names = [name for name, _ in named]
        raise InvalidInputError(
            violations=[
                FieldViolation(
                    name,
                    f"asks for the count twice with {' and '.join(n for n in names if n != name)}"
                    f"; give arrangements only, e.g. {named[-1][1]}",
                )
                for name in names
            ]
        )
    if not named:
        return 1
    name, count = named[0]
    if warn and name != "arrangements":
        _deprecated(name, f"arrangements={count}")
    return count


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(name, f"expected a whole number, got {type(value).__name__}")
    if not low <= value <= high:
        raise InvalidInputError(name, f"must be {low} to {high}, got {value}")
