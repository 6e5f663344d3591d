"""Seeded random Chinese poker deals to try things with (CP-1: 2 to 4 seats, 13 cards each).

A deal is a sample of the 52-card deck by :class:`random.Random` seeded with the deal's seed:
the same seed gives the same hands on every machine and Python version that keeps
``random.Random.sample`` stable (CPython has since 3.2). Seats are N, E, S, W (the first
``players``); each hand is sorted high to low (rank, then suit ♠ ♥ ♦ ♣).

>>> d = deal(7, players=2)
>>> d.seats, [len(h) for h in d.hands], d == deal(7, players=2)
(('N', 'E'), [13, 13], True)
>>> set(d.hands[0]).isdisjoint(d.hands[1])
True
>>> [x.seed for x in deals(41, players=3, count=3)]
[41, 42, 43]
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cpsolver.cards import DECK_52, Card
from cpsolver.errors import Field, InvalidInputError
from cpsolver.seeds import MAX_SEED

__all__ = ["MAX_SEED", "SEATS", "Deal", "check_deal_request", "deal", "deals"]

SEATS = ("N", "E", "S", "W")


@dataclass(frozen=True)
class Deal:
    """One seeded deal: ``hands[i]`` is seat ``SEATS[i]``'s 13 cards, high to low."""

    seed: int
    hands: tuple[tuple[Card, ...], ...]

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats dealt, in order (N, E, S, W for four players)."""
        return SEATS[: len(self.hands)]

    def by_seat(self) -> dict[str, tuple[Card, ...]]:
        """Seat name -> its cards, in seat order."""
        return dict(zip(self.seats, self.hands, strict=True))

    def to_dict(self) -> dict[str, object]:
        """``{"seed": n, "hands": {"N": ["As", ...], ...}}`` (``cpsolver deal --json``).

        >>> deal(3, players=2).to_dict()["hands"]["E"][:3]
        ['Ad', 'Qh', 'Qd']
        """
        return {
            "seed": self.seed,
            "hands": {s: [str(c) for c in cards] for s, cards in self.by_seat().items()},
        }


def _whole(value: object, field: Field) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInputError(field, f"expected a whole number, got {value!r}")
    return value


def check_deal_request(seed: int, players: int = 4, count: int = 1) -> None:
    """Raise :class:`InvalidInputError` naming ``seed``, ``players`` or ``count`` unless they
    make a valid request: players 2 to 4 (CP-1), count 1 or more, seeds ``seed`` to
    ``seed + count - 1`` within 0..:data:`MAX_SEED` (a negative seed would silently repeat its
    absolute value's deal in :class:`random.Random`, so it is refused).

    >>> check_deal_request(0, players=5)
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: players: must be 2, 3 or 4 (CP-1), got 5
    """
    problems: list[InvalidInputError] = []
    for name, value in (("seed", seed), ("players", players), ("count", count)):
        try:
            _whole(value, name)
        except InvalidInputError as exc:
            problems.append(exc)
    if not problems:
        if not 2 <= players <= 4:
            problems.append(
                InvalidInputError("players", f"must be 2, 3 or 4 (CP-1), got {players}")
            )
        if count < 1:
            problems.append(InvalidInputError("count", f"must be 1 or more, got {count}"))
        if seed < 0:
            problems.append(InvalidInputError("seed", f"must be 0 or more, got {seed}"))
        elif count >= 1 and seed + count - 1 > MAX_SEED:
            problems.append(
                InvalidInputError(
                    "seed",
                    f"the deals' seeds {seed}..{seed + count - 1} must be at most "
                    f"{MAX_SEED} (cpsolver.seeds.MAX_SEED)",
                )
            )
    if problems:
        raise InvalidInputError(violations=[v for p in problems for v in p.violations])


def _order(card: Card) -> tuple[int, int]:
    return (int(card.rank), card.index)


def deal(seed: int, players: int = 4) -> Deal:
    """The deal numbered ``seed``: ``players`` hands of 13 distinct cards (CP-1)."""
    check_deal_request(seed, players)
    cards = random.Random(seed).sample(DECK_52.cards, 13 * players)
    return Deal(
        seed,
        tuple(
            tuple(sorted(cards[13 * i : 13 * (i + 1)], key=_order, reverse=True))
            for i in range(players)
        ),
    )


def deals(seed: int, players: int = 4, count: int = 1) -> tuple[Deal, ...]:
    """``count`` deals with seeds ``seed``, ``seed + 1``, ... (each as :func:`deal`)."""
    check_deal_request(seed, players, count)
    return tuple(deal(n, players) for n in range(seed, seed + count))
