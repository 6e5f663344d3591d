"""Seeded open-face deals (RULES OFC-1): every seat's cards, street by street.

A deal is a sample of the 52-card deck by :class:`random.Random` seeded with the deal's seed,
cut in order: street 1 to every seat (5 cards each), then street 2 to every seat, and so on
(pineapple: 3 cards a street, classic: 1). The same seed and rules give the same deal on every
machine, in-process, on the command line and over gRPC. Seats are N, E, S, W (the first
``rules.players``). A fantasyland seat's 14-17 cards are not dealt here: a deal is the hand
everyone plays street by street.

>>> d = deal(7)
>>> d.seats, [len(s) for s in d.streets[0]]
(('N', 'E', 'S'), [5, 3, 3, 3, 3])
>>> " ".join(map(str, d.streets[0][0]))
'7c 4d 8d Qd 2s'
>>> deal(7, "classic").streets[1][1:3]
((Card('8h'),), (Card('Qh'),))
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from cpsolver.cards import DECK_52, Card
from cpsolver.chinese.deal import SEATS
from cpsolver.rules.ofc import OfcRules
from cpsolver.seeds import check_seed

__all__ = ["OfcDeal", "deal"]


@dataclass(frozen=True, slots=True)
class OfcDeal:
    """A seeded deal: ``streets[seat][street]`` holds the cards the seat gets on that street
    (streets from 0), in the order dealt."""

    seed: int
    rules: OfcRules
    streets: tuple[tuple[tuple[Card, ...], ...], ...]

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats dealt: N, E, S (W)."""
        return SEATS[: len(self.streets)]

    def to_dict(self) -> dict[str, Any]:
        """``{"seed": n, "rules": {...}, "seats": {"N": [[5 cards], [3 cards], ...], ...}}``."""
        return {
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "seats": {
                seat: [[str(c) for c in street] for street in streets]
                for seat, streets in zip(self.seats, self.streets, strict=True)
            },
        }


def deal(seed: int, rules: OfcRules | str | None = "pineapple", **overrides: object) -> OfcDeal:
    """The deal numbered ``seed`` for ``rules.players`` seats (errors name ``seed`` or
    ``rules.*``)."""
    ruleset = OfcRules.resolve(rules, **overrides)
    check_seed(seed)
    players = ruleset.players
    sizes = ruleset.streets
    cards = random.Random(seed).sample(DECK_52.cards, players * sum(sizes))
    streets: list[list[tuple[Card, ...]]] = [[] for _ in range(players)]
    at = 0
    for size in sizes:
        for seat in range(players):
            streets[seat].append(tuple(cards[at : at + size]))
            at += size
    return OfcDeal(seed, ruleset, tuple(tuple(s) for s in streets))
