"""``cpsolver deal``: seeded random Chinese poker hands to try things with.

A deal is a shuffle of the 52-card deck by :class:`random.Random` seeded with ``--seed``; the
same seed gives the same hands on every machine and Python version that keeps
``random.Random.sample`` stable (CPython has since 3.2). Seats are N, E, S, W (the first
``--players``), 13 cards each (RULES CP-1).
"""

from __future__ import annotations

import random
import secrets

import click
from rich.table import Table

from client.cli.main import emit_json, main
from client.cli.render import cards_text, console
from solver.cards import DECK_52, Card

__all__ = ["SEATS", "deal_hands"]

SEATS = ("N", "E", "S", "W")


def deal_hands(seed: int, players: int = 4) -> dict[str, tuple[Card, ...]]:
    """Seat -> 13 cards (sorted high to low) of the deal numbered ``seed``.

    >>> hands = deal_hands(7, 2)
    >>> list(hands), [len(h) for h in hands.values()], hands == deal_hands(7, 2)
    (['N', 'E'], [13, 13], True)
    >>> set(hands["N"]).isdisjoint(hands["E"])
    True
    """
    if not 2 <= players <= 4:
        raise ValueError(f"players must be 2 to 4, got {players}")
    cards = random.Random(seed).sample(DECK_52.cards, 13 * players)
    return {
        seat: tuple(sorted(cards[13 * i : 13 * (i + 1)], key=_order, reverse=True))
        for i, seat in enumerate(SEATS[:players])
    }


def _order(card: Card) -> tuple[int, int]:
    return (int(card.rank), card.index)


@main.command()
@click.option(
    "--seed", type=click.IntRange(0), default=None,
    help="Seed of the shuffle (same seed, same hands) [default: a random one, shown].",
)  # fmt: skip
@click.option(
    "--players", type=click.IntRange(2, 4), default=4, show_default=True,
    help="Seats to deal (N, E, S, W).",
)  # fmt: skip
@click.option(
    "--count", type=click.IntRange(1), default=1, show_default=True,
    help="Deals to make, with seeds SEED, SEED+1, ...",
)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per deal.")
@click.option(
    "--lines", is_flag=True,
    help="Print bare hands, one per line (input for `cpsolver batch`).",
)  # fmt: skip
def deal(seed: int | None, players: int, count: int, as_json: bool, lines: bool) -> None:
    """Deal seeded random hands, e.g. ``cpsolver deal --seed 7 --players 4``."""
    if as_json and lines:
        raise click.UsageError("--json and --lines exclude each other")
    if seed is None:
        seed = secrets.randbelow(2**31)
        if lines or as_json:
            click.echo(f"deal: seed {seed}", err=True)
    out = console()
    for n in range(seed, seed + count):
        hands = deal_hands(n, players)
        if as_json:
            emit_json(
                {"seed": n, "hands": {s: [str(c) for c in cards] for s, cards in hands.items()}}
            )
        elif lines:
            for cards in hands.values():
                click.echo(" ".join(str(c) for c in cards))
        else:
            out.print(f"seed {n}")
            table = Table(box=None, pad_edge=False)
            table.add_column("seat")
            table.add_column("cards")
            for s, cards in hands.items():
                table.add_row(s, cards_text(cards))
            out.print(table)
