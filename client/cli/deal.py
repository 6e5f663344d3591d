"""``cpsolver deal``: seeded random Chinese poker hands to try things with.

The deals are :func:`cpsolver.chinese.deal.deals` (CP-1: seats N, E, S, W, 13 cards each; the same
seed gives the same hands). In-process by default; with ``--server HOST:PORT`` (or
``CPSOLVER_SERVER``) the server's ``DealTables`` deals them, with the same output. Without
``--seed`` the seed is picked here and shown (in the output, or on stderr with ``--json`` or
``--lines``), so it is known and sent to the server either way.
"""

from __future__ import annotations

import secrets

import click
from rich.table import Table

from cpsolver.chinese.deal import MAX_SEED, check_deal_request
from cpsolver.client.cli.main import emit_json, main, remote_options
from cpsolver.client.cli.render import cards_text, console
from cpsolver.client.solver import Solver

__all__ = ["CHUNK"]

CHUNK = 1000  # deals asked for (and printed) at a time, so --count may be large


@main.command()
@click.option(
    "--seed", type=click.IntRange(0, MAX_SEED), default=None,
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
    help="Print bare hands, one per line (input for cpsolver batch).",
)  # fmt: skip
@remote_options
def deal(
    seed: int | None, players: int, count: int, as_json: bool, lines: bool, solver: Solver
) -> None:
    """Deal seeded random Chinese poker hands, 13 cards a seat (CP-1).

    \b
    Example: cpsolver deal --seed 7 --players 4
    """
    if as_json and lines:
        raise click.UsageError("--json and --lines exclude each other")
    if seed is None:
        seed = secrets.randbelow(2**31)
        if lines or as_json:
            click.echo(f"deal: seed {seed}", err=True)
    check_deal_request(seed, players, count)  # before any output: bad input prints nothing
    out = console()
    for start in range(seed, seed + count, CHUNK):
        dealt = solver.deal(start, players=players, count=min(CHUNK, seed + count - start))
        for one in dealt:
            if as_json:
                emit_json(one.to_dict())
            elif lines:
                for cards in one.hands:
                    click.echo(" ".join(str(c) for c in cards))
            else:
                out.print(f"seed {one.seed}")
                table = Table(box=None, pad_edge=False)
                table.add_column("seat")
                table.add_column("cards")
                for s, cards in one.by_seat().items():
                    table.add_row(s, cards_text(cards))
                out.print(table)
