"""Three Leaves deals in sequence, the pot carried from each to the next (TL-6)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from cpsolver.checks import instance_of, iterable_of
from cpsolver.errors import InvalidInputError, Violations
from cpsolver.three_leaves.deal import Choices, Deal, check_play_limits
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
    pairs = _read_session(deals, carried_pot)
    results: list[DealResult] = []
    pot = carried_pot
    totals = [0] * pairs[0][0].players if pairs else []
    for i, (deal, choices) in enumerate(pairs):
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


def _read_session(deals: object, carried_pot: object) -> list[tuple[Deal, Choices | None]]:
    """The session's deals as ``(deal, choices)`` pairs, checked before any is played, every
    violation at once: each entry a pair of a :class:`Deal` and a :class:`Choices` (or None),
    every deal with the first one's players, ``carried_pot`` within its bounds. Unchecked, an
    entry that is not a pair failed inside as a bare TypeError."""
    problems = Violations()
    with problems.check():
        check_play_limits(carried_pot=carried_pot)
    pairs: list[tuple[Deal, Choices | None]] = []
    players = 0  # the first deal's
    for i, entry in enumerate(iterable_of(deals, "deals", "a list of (deal, choices) pairs")):
        if not isinstance(entry, (tuple, list)) or len(entry) != 2:
            got = "None" if entry is None else type(entry).__name__
            problems.add(
                InvalidInputError(("deals", i), f"expected a (deal, choices) pair, got {got}")
            )
            continue
        deal, choices = entry
        with problems.check():
            if choices is not None:
                instance_of(choices, Choices, ("deals", i, 1), _CHOICES)
        with problems.check():
            instance_of(deal, Deal, ("deals", i, 0), _DEAL)
            players = players or deal.players
            if deal.players != players:
                raise InvalidInputError(
                    ("deals", i), f"has {deal.players} players, the session {players}"
                )
            pairs.append((deal, choices))
    problems.raise_any()
    return pairs


_PAIR = "a (deal, choices) pair"
_DEAL = "a Deal (cpsolver.three_leaves.Deal)"
_CHOICES = "a Choices (cpsolver.three_leaves.Choices) or None"
