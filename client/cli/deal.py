"""``cpsolver deal``: seeded random Chinese poker hands to try things with.

The deals are :func:`cpsolver.chinese.deal.deals` (CP-1: seats N, E, S, W, 13 cards each; the same
seed gives the same hands). In-process by default; with ``--server HOST:PORT`` (or
``CPSOLVER_SERVER``) the server's ``DealTables`` deals them, with the same output. Without
``--seed`` the seed is picked here and shown (in the output, or on stderr with ``--json`` or
``--lines``), so it is known and sent to the server either way. ``--rules PRESET|FILE`` (and
``--set``) name the table's rule set: its ``players`` is the default seat count, and a seat
holding a natural of its list (CP-11, CP-15) is marked (a ``natural`` column; ``naturals`` in
``--json``).
"""

from __future__ import annotations

import secrets
from typing import Any

import click
from rich.table import Table

from cpsolver.cards import Card
from cpsolver.chinese.deal import check_deal_request
from cpsolver.chinese.naturals import Natural, detect_natural
from cpsolver.client.cli.main import emit_json, main, remote_options, rules_options
from cpsolver.client.cli.options import SEED
from cpsolver.client.cli.render import cards_text, console
from cpsolver.client.solver import Solver
from cpsolver.rules import ChineseRules, parse_assignments

__all__ = ["CHUNK"]

CHUNK = 1000  # deals asked for (and printed) at a time, so --count may be large


@main.command()
@click.option(
    "--seed", type=SEED, default=None,
    help="Seed of the shuffle (same seed, same hands) [default: a random one, shown].",
)  # fmt: skip
@click.option(
    "--players", type=click.IntRange(2, 4), default=None,
    help="Seats to deal (N, E, S, W) [default: the rule set's players, 4].",
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
@rules_options("Override one rule option (repeatable), e.g. --set players=3.", with_json=False)
@remote_options
def deal(
    seed: int | None,
    players: int | None,
    count: int,
    as_json: bool,
    lines: bool,
    preset: str,
    assignments: tuple[str, ...],
    solver: Solver,
) -> None:
    """Deal seeded random Chinese poker hands, 13 cards a seat (CP-1).

    \b
    Example: cpsolver deal --seed 7 --players 4
    """
    if as_json and lines:
        raise click.BadOptionUsage("--lines", "--json and --lines exclude each other")
    rules = ChineseRules.resolve(preset, **parse_assignments(assignments))
    players = players or rules.players
    if seed is None:
        seed = secrets.randbelow(2**31)
        if lines or as_json:
            click.echo(f"deal: seed {seed}", err=True)
    check_deal_request(seed, players, count)  # before any output: bad input prints nothing
    out = console()
    for start in range(seed, seed + count, CHUNK):
        dealt = solver.deal(start, players=players, count=min(CHUNK, seed + count - start))
        for one in dealt:
            naturals = _naturals(one.by_seat(), rules)
            if as_json:
                document: dict[str, Any] = one.to_dict()
                if naturals:
                    document["naturals"] = {s: n.to_dict() for s, n in naturals.items()}
                emit_json(document)
            elif lines:
                for cards in one.hands:
                    click.echo(" ".join(str(c) for c in cards))
            else:
                out.print(f"seed {one.seed}")
                table = Table(box=None, pad_edge=False)
                table.add_column("seat")
                table.add_column("cards")
                if naturals:
                    table.add_column("natural")
                for s, cards in one.by_seat().items():
                    held = naturals.get(s)
                    marks = (
                        [f"{held.kind.title} ({held.units})" if held else ""] if naturals else []
                    )
                    table.add_row(s, cards_text(cards), *marks)
                out.print(table)


def _naturals(hands: dict[str, tuple[Card, ...]], rules: ChineseRules) -> dict[str, Natural]:
    """The seats holding a natural of the rule set's list, with the highest one each holds."""
    found = {s: detect_natural(list(cards), rules) for s, cards in hands.items()}
    return {s: n for s, n in found.items() if n is not None}
