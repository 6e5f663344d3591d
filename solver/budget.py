"""A call's time budget, which the library's long loops check (sampling, search, CP-SAT).

In-process nothing sets a budget and nothing changes. The server runs every call inside
:func:`call_budget` with the call's deadline and a "still wanted?" test (the gRPC context's
``is_active``), so a sampled or iterative computation whose caller gave up (deadline passed,
cancelled, server shutting down) stops at its next check with :class:`BudgetExceededError`
instead of burning a worker's core for nothing (issue 15, D5). One mechanism for every
loop: each calls :func:`check_budget` between units of work, and a solver with its own time
limit asks :func:`budget_left`.

>>> with call_budget(0.0):
...     check_budget()
Traceback (most recent call last):
...
cpsolver.budget.BudgetExceededError: the call's deadline passed while it was being computed
>>> check_budget()  # outside a budget: never raises
>>> budget_left() is None
True
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from cpsolver.checks import finite_number
from cpsolver.errors import CpsolverError, Field

__all__ = [
    "BudgetExceededError",
    "TimeLimitError",
    "budget_left",
    "call_budget",
    "call_cancelled",
    "check_budget",
    "check_deadline",
]

_ACTIVE_EVERY = 0.01  # seconds between two calls of the "still wanted?" test (it takes a lock)


class TimeLimitError(CpsolverError):
    """A computation stopped at a time limit, its own (CP-SAT's) or its call's; a server
    answers DEADLINE_EXCEEDED (:mod:`cpsolver.wire.status`), never INTERNAL."""


class BudgetExceededError(TimeLimitError):
    """The computation outlived its call: the deadline passed or the caller went away."""


class _Budget:
    __slots__ = ("checked", "ends", "wanted")

    def __init__(self, ends: float | None, wanted: Callable[[], bool] | None) -> None:
        self.ends, self.wanted, self.checked = ends, wanted, time.monotonic()


_local = threading.local()  # a thread runs one call at a time (gRPC's thread pool)


@contextmanager
def call_budget(seconds: float | None, wanted: Callable[[], bool] | None = None) -> Iterator[None]:
    """Inside the block, :func:`check_budget` raises once ``seconds`` have passed (None: no
    deadline) or ``wanted()`` is false (the caller cancelled)."""
    previous = getattr(_local, "budget", None)
    ends = None if seconds is None else time.monotonic() + max(seconds, 0.0)
    _local.budget = _Budget(ends, wanted)
    try:
        yield
    finally:
        _local.budget = previous


def check_deadline(deadline: object, field: Field = "deadline") -> float | None:
    """``deadline`` (seconds an entry point may take, None: no limit of its own) when it is a
    finite number >= 0; else :class:`~cpsolver.errors.InvalidInputError` naming ``field``.
    Every entry point that takes a ``deadline`` reads it here before any work: unread, a
    string failed deep in the rollouts as a bare TypeError and -1 or NaN were silently taken.

    >>> check_deadline(None), check_deadline(0), check_deadline(2.5)
    (None, 0.0, 2.5)
    >>> check_deadline(-1)
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: deadline: expected a finite number >= 0, got -1
    """
    return None if deadline is None else finite_number(deadline, field, low=0)


def budget_left() -> float | None:
    """Seconds left in the current call's budget (None: no deadline, or no budget)."""
    budget: _Budget | None = getattr(_local, "budget", None)
    if budget is None or budget.ends is None:
        return None
    return max(budget.ends - time.monotonic(), 0.0)


def check_budget() -> None:
    """Raise :class:`BudgetExceededError` when the current call's budget is spent; cheap
    (a clock read), so loops call it between units of work."""
    budget: _Budget | None = getattr(_local, "budget", None)
    if budget is None:
        return
    now = time.monotonic()
    if budget.ends is not None and now >= budget.ends:
        raise BudgetExceededError("the call's deadline passed while it was being computed")
    if budget.wanted is not None and now - budget.checked >= _ACTIVE_EVERY:
        budget.checked = now
        if not budget.wanted():
            raise BudgetExceededError("the call was cancelled while it was being computed")


def call_cancelled() -> bool:
    """True when the current call's caller went away (a loop with a deadline of its own, such
    as the rollouts, stops early rather than raise: its partial answer is simply dropped)."""
    budget: _Budget | None = getattr(_local, "budget", None)
    return budget is not None and budget.wanted is not None and not budget.wanted()
