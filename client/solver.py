"""The :class:`Solver`: the three games' sections over one backend, in-process or remote.

A bot codes against :class:`Solver` and picks the backend with one line:

>>> from cpsolver.client import connect
>>> with connect(None) as solver:          # in-process; connect("host:50051") for a server
...     solution = solver.solve("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s")
...     deal = solver.chlust.deal(7)
>>> from cpsolver import Row
>>> solution.hands[Row.BACK].name, len(deal.hands)
('royal flush', 4)

Either way the answers are the library's types and the errors the library's exceptions.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from types import TracebackType
from typing import Any, Self

from cpsolver.client.calls import Backend
from cpsolver.client.games import ChinesePoker, Chlust, OpenFace, ThreeLeaves

__all__ = ["Solver"]


class _Renamed:
    """A method of the client before the sections (``solver.chlust_play``): the section's
    method (``solver.chlust.play_deal``) with a DeprecationWarning, kept for one release."""

    def __init__(self, section: str, name: str) -> None:
        self.section = section
        self.name = name
        self.old = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.old = name

    def __get__(self, solver: Solver | None, owner: type | None = None) -> Callable[..., Any]:
        if solver is None:
            return self  # type: ignore[return-value]  # the class attribute, for introspection
        target: Callable[..., Any] = getattr(getattr(solver, self.section), self.name)
        message = (
            f"Solver.{self.old}() is deprecated: use solver.{self.section}.{self.name}() "
            '(docs/API.md "Python client")'
        )

        @functools.wraps(target)
        def renamed(*args: Any, **kwargs: Any) -> Any:
            warnings.warn(message, DeprecationWarning, stacklevel=2)
            return target(*args, **kwargs)

        return renamed


class Solver(ChinesePoker):
    """Chinese poker's methods (``solve``, ``solve_batch``, ``evaluate``, ``score``, ``deal``,
    ``validate``; also as ``solver.chinese``, as the library's root ``cpsolver.solve`` is
    Chinese poker's) and one section per other game, ``solver.chlust``, ``solver.leaves`` and
    ``solver.ofc``, all over ``backend``. A context manager: leaving it closes the backend."""

    def __init__(self, backend: Backend) -> None:
        super().__init__(backend)
        self.chinese = ChinesePoker(backend)
        self.chlust = Chlust(backend)
        self.leaves = ThreeLeaves(backend)
        self.ofc = OpenFace(backend)

    def close(self) -> None:
        """Release the backend's resources (a remote backend's channels)."""
        self.backend.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # The names of the release before the sections (docs/API.md listed them), for one release.
    chlust_deal = _Renamed("chlust", "deal")
    chlust_exchange = _Renamed("chlust", "exchange")
    chlust_evaluate = _Renamed("chlust", "evaluate")
    chlust_showdown = _Renamed("chlust", "showdown")
    chlust_legal = _Renamed("chlust", "legal_cards")
    chlust_play = _Renamed("chlust", "play_deal")
    chlust_odds = _Renamed("chlust", "showdown_odds")
    chlust_advise = _Renamed("chlust", "advise")
    chlust_bid = _Renamed("chlust", "bid")
    leaves_evaluate = _Renamed("leaves", "evaluate")
    leaves_legal = _Renamed("leaves", "legal_plays")
    leaves_resolve = _Renamed("leaves", "resolve")
    leaves_play = _Renamed("leaves", "play_deal")
    leaves_session = _Renamed("leaves", "play_session")
    leaves_advise = _Renamed("leaves", "advise")
