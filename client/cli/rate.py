"""``cpsolver rate BACK MIDDLE FRONT``: what a player's own arrangement is worth beside the best.

The library's :func:`cpsolver.rate` in-process, the ``RateArrangement`` RPC with ``--server
HOST:PORT`` (or ``CPSOLVER_SERVER``), with the same numbers: the choice's expected units, the
best arrangement's, the EV lost (with its interval where the estimator has one), the rank among
the valid choices and, row by row, the odds and units of the player's rows beside the best's.
``--natural`` rates declaring the natural the 13 cards hold. A fouled arrangement is an answer,
rated as the foul it is (exit 0); bad cards exit 2. The estimator defaults to ``solve``'s
(``budget:100ms``: the calibrated value).
"""

from __future__ import annotations

from typing import Any

import click
from rich.table import Table
from rich.text import Text

from cpsolver.chinese.rate import MISTAKE_KINDS, Rating, RowRating
from cpsolver.chinese.render import rating_html
from cpsolver.client.cli.asking import asked, estimate_options
from cpsolver.client.cli.chinese import SOLVE_ESTIMATOR
from cpsolver.client.cli.main import emit_json, main, remote_options, rules_options
from cpsolver.client.cli.render import (
    alternatives_parts,
    cards_text,
    console,
    html_option,
    number,
    write_html,
)
from cpsolver.client.solver import Solver
from cpsolver.rules import parse_assignments

__all__ = ["rate", "rating_parts"]


@main.command()
@click.argument("cards", nargs=-1, required=True)
@click.option(
    "--natural", "declared", is_flag=True,
    help="Rate declaring the natural the 13 CARDS hold (CP-11) instead of rows.",
)  # fmt: skip
@rules_options("Override one rule option (repeatable), e.g. --set scoring=two_four.")
@estimate_options(SOLVE_ESTIMATOR)
@html_option
@remote_options
def rate(
    cards: tuple[str, ...],
    declared: bool,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    seed: int,
    html: str | None,
    solver: Solver,
    **asking: Any,
) -> None:
    """Rate an arrangement beside the best: EV, EV lost, rank, each row's odds and units.

    BACK and MIDDLE are 5 cards, FRONT 3, each one quoted argument; with --natural, the 13
    cards of a declared natural. A fouled arrangement is rated as a foul (exit 0).

    \b
    Example: cpsolver rate "Ah Kd 9s 9c 2s" "7h 7d 5c 4s Jc" "3h 3d Td"
    """
    overrides: dict[str, Any] = parse_assignments(assignments)
    estimator, count = asked(SOLVE_ESTIMATOR, asking)
    played: object
    if declared:
        played = {"cards": " ".join(cards), "natural": True}
    elif len(cards) == 3:
        played = tuple(cards)
    else:
        raise click.UsageError(
            f"give the rows as three quoted arguments BACK MIDDLE FRONT (got {len(cards)}), "
            "or --natural and the 13 cards"
        )
    rating = solver.chinese.rate(
        played, preset, estimator=estimator, arrangements=count, seed=seed, **overrides
    )
    if html is not None:
        write_html(html, f"cpsolver rate {' / '.join(cards)}", rating_html(rating))
    if as_json:
        emit_json(rating.to_dict())
        return
    out = console()
    for part in rating_parts(rating):
        out.print(part, soft_wrap=isinstance(part, Text))


def _rows_table(title: str, rows: tuple[RowRating, ...]) -> Table:
    table = Table(box=None, pad_edge=False, title=title, title_justify="left")
    for column in ("row", "cards", "hand", "win", "tie", "loss", "units"):
        table.add_column(column, justify="left" if column in ("row", "cards", "hand") else "right")
    for rated in rows:
        table.add_row(
            rated.row.label, cards_text(rated.cards), rated.hand.name, f"{rated.win:.3f}",
            f"{rated.tie:.3f}", f"{rated.loss:.3f}", f"{rated.units:+.3f}",
        )  # fmt: skip
    return table


def _interval(ci: tuple[float, float] | None) -> str:
    return "" if ci is None else f" (95% CI {ci[0]:+.4f} .. {ci[1]:+.4f})"


def rating_parts(rating: Rating) -> list[Table | Text]:
    """The renderables of a rating: the rows side by side, then the EV lines."""
    parts: list[Table | Text] = []
    if rating.natural is not None:
        parts.append(Text(f"played: declared {rating.natural.kind.title} (CP-11)"))
    elif rating.fouled:
        parts.append(Text(f"played: fouled: {rating.foul_reason} (CP-6; pays every row, CP-10)"))
    if rating.best.natural is not None:
        parts.append(Text(f"best: declare {rating.best.natural.kind.title} (CP-11)"))
    if rating.rows:
        parts.append(_rows_table("played, against one opponent who plays rows:", rating.rows))
    parts.append(_rows_table("best:", rating.best_rows))
    # --arrangements N: the next best after it, as solve shows them (the best's alternatives).
    parts.extend(alternatives_parts(rating.best))
    if rating.estimator.kind == "model" and rating.ev_ci95 is not None:
        half = (rating.ev_ci95[1] - rating.ev_ci95[0]) / 2
        spread = f" (model, calibrated to +/-{half:.2f})"
    else:
        spread = _interval(rating.ev_ci95)
    parts.append(Text(f"played: {rating.ev:+.4f} units{spread}"))
    parts.append(Text(f"best:   {rating.best_ev:+.4f} units"))
    lost = f"EV lost: {number(rating.ev_lost)}{_interval(rating.ev_lost_ci95)}"
    parts.append(Text(lost + ("  (played best)" if rating.played_best else "")))
    if rating.rank is not None:
        parts.append(Text(f"rank {rating.rank} of {rating.choices} distinct values"))
    for kind in rating.mistakes:
        parts.append(Text(f"mistake: {kind}: {MISTAKE_KINDS[kind]}"))
    parts.append(Text(f"estimator: {rating.estimator}"))
    return parts
