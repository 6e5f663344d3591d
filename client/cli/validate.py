"""``cpsolver validate BACK MIDDLE FRONT``: check one Chinese poker arrangement (CP-6).

The library's :func:`cpsolver.chinese.scoring.check_arrangement` in-process, the
``ValidateArrangement`` RPC with ``--server HOST:PORT`` (or ``CPSOLVER_SERVER``), with the same
output: each row's hand and royalty, whether the arrangement is fouled and why, and the natural
the 13 cards hold (CP-11). A fouled arrangement is an answer, not an error: exit 0 either way
(bad cards exit 2).
"""

from __future__ import annotations

from typing import Any

import click
from rich.table import Table
from rich.text import Text

from cpsolver.chinese.scoring import Seat
from cpsolver.client.cli.main import emit_json, main, remote_options, rules_options
from cpsolver.client.cli.render import ROWS, cards_text, console
from cpsolver.client.solver import Solver
from cpsolver.rules import parse_assignments

__all__ = ["validate"]


@main.command()
@click.argument("back")
@click.argument("middle")
@click.argument("front")
@rules_options("Override one rule option (repeatable), e.g. --set royalties=none.")
@remote_options
def validate(
    back: str,
    middle: str,
    front: str,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Check an arrangement: its rows' hands and royalties, and whether it fouls (CP-6).

    BACK and MIDDLE are 5 cards, FRONT 3, each one quoted argument. A fouled arrangement
    exits 0 and says why; bad cards exit 2.

    \b
    Example: cpsolver validate "As Ks Qs Js 3s" "9h 9c Kd 5s 2h" "9s 9d Kc"
    """
    overrides: dict[str, Any] = parse_assignments(assignments)
    seat = solver.validate(back, middle, front, preset, **overrides)
    if as_json:
        emit_json(validation_dict(seat))
        return
    out = console()
    assert seat.rows is not None and seat.hands is not None and seat.royalties is not None
    table = Table(box=None, pad_edge=False)
    table.add_column("row")
    table.add_column("cards")
    table.add_column("hand")
    table.add_column("royalty", justify="right")
    for row in ROWS:
        table.add_row(
            row.label, cards_text(seat.rows[row]), seat.hands[row].name, str(seat.royalties[row])
        )
    out.print(table)
    if seat.fouled:
        out.print(Text(f"fouled: {seat.foul_reason} (CP-6; no royalties)"))
    else:
        out.print(Text(f"valid; royalty units {seat.royalty_total}"))
    if seat.available_natural is not None:
        natural = seat.available_natural
        line = Text(f"holds a natural: {natural.kind.title} ({natural.units} units), ")
        for i, group in enumerate(natural.groups):
            if i:
                line.append(" / ")
            line.append_text(cards_text(group))
        out.print(line)


def validation_dict(seat: Seat) -> dict[str, Any]:
    """The ``--json`` document: ``valid``, the rows (cards, hand, category, strength,
    royalty), ``fouled`` and ``foul_reason``, ``royalty_total`` and ``available_natural``
    (docs/CLI-JSON.md)."""
    assert seat.rows is not None and seat.royalties is not None
    payload = seat.to_dict()
    rows = payload["rows"]
    for row in ROWS:
        rows[row.label]["royalty"] = seat.royalties[row]
    return {
        "valid": not seat.fouled,
        "rows": rows,
        "fouled": seat.fouled,
        "foul_reason": payload["foul_reason"],
        "royalty_total": seat.royalty_total,
        "available_natural": payload["available_natural"],
    }
