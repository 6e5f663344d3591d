"""Three Leaves deals in sequence, the pot carried from each to the next (TL-6)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from cpsolver.errors import InvalidInputError
from cpsolver.three_leaves.deal import Choices, Deal
from cpsolver.three_leaves.engine import DealResult, play_deal

__all__ = ["SessionResult", "play_session"]


@dataclass(frozen=True)
class SessionResult:
    """Deals played in sequence: each result, every player's running total and the pot left."""

    results: tuple[DealResult, ...]
    totals: tuple[int, ...]
    pot: int

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values."""
        return {
            "deals": [r.to_dict() for r in self.results],
            "totals": list(self.totals),
            "pot": self.pot,
        }


def play_session(
    deals: Iterable[tuple[Deal, Choices | None]],
    *,
    carried_pot: int = 0,
    play: Callable[[Deal, Choices | None, int], DealResult] | None = None,
) -> SessionResult:
    """Play deals in order, carrying the pot from each to the next (TL-6).

    ``play(deal, choices, carried_pot)`` plays one deal (default :func:`play_deal`; the remote
    client passes a call to its server).

    >>> d = Deal.of(["As Ks 8s", "9h Jc Qd"], "Ts")
    >>> s = play_session([(d, Choices.of(picks="Ks")), (d, Choices.of(picks="As"))])
    >>> s.totals, s.pot
    ((17, -17), 0)
    """
    results: list[DealResult] = []
    pot = carried_pot
    totals: list[int] = []
    for i, (deal, choices) in enumerate(deals):
        if totals and len(totals) != deal.players:
            raise InvalidInputError(
                ("deals", i), f"has {deal.players} players, the session {len(totals)}"
            )
        totals = totals or [0] * deal.players
        try:
            if play is None:
                result = play_deal(deal, choices, carried_pot=pot)
            else:
                result = play(deal, choices, pot)
        except InvalidInputError as exc:
            raise exc.prefixed(("deals", i)) from None
        results.append(result)
        totals = [t + d for t, d in zip(totals, result.net, strict=True)]
        pot = result.pot_after
    return SessionResult(tuple(results), tuple(totals), pot)
