"""Chinese poker commands: ``evaluate`` (and ``solve``, ``score``)."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from client.cli.main import emit_json, main
from solver.cards import format_cards
from solver.chinese.objectives import DEFAULT_OBJECTIVE, objective_names
from solver.chinese.search import warm_up
from solver.chinese.solve import Arrangement
from solver.chinese.solve import solve as solve_hand
from solver.evaluator.poker import evaluate as evaluate_hand
from solver.rules import Row, parse_assignments


@main.command()
@click.argument("cards", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def evaluate(cards: tuple[str, ...], as_json: bool) -> None:
    """Evaluate a 5-card hand or a 3-card front, e.g. ``cpsolver evaluate "Jh Js 4c 4d Jd"``."""
    hand = evaluate_hand(" ".join(cards))
    if as_json:
        emit_json(
            {
                "cards": [str(c) for c in hand.cards],
                "category": hand.category.label,
                "name": hand.name,
                "strength": hand.strength,
            }
        )
    else:
        click.echo(
            f"{format_cards(hand.cards, pretty=True)}  {hand.name}  (strength {hand.strength})"
        )


@main.command()
@click.argument("cards", nargs=-1, required=True)
@click.option("--rules", "preset", default="standard", show_default=True, help="Rule preset.")
@click.option(
    "--set",
    "assignments",
    multiple=True,
    metavar="OPTION=VALUE",
    help="Override one rule option (repeatable), e.g. --set order=strict.",
)
@click.option(
    "--objective",
    default=DEFAULT_OBJECTIVE,
    show_default=True,
    help=f"What to maximise: {', '.join(objective_names())}.",
)
@click.option(
    "--alternatives",
    default=0,
    show_default=True,
    type=click.IntRange(0, 50),
    help="Also show this many next-best arrangements.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def solve(
    cards: tuple[str, ...],
    preset: str,
    assignments: tuple[str, ...],
    objective: str,
    alternatives: int,
    as_json: bool,
) -> None:
    """Arrange 13 cards into back, middle and front, e.g.
    ``cpsolver solve "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"``."""
    overrides = parse_assignments(assignments)
    warm_up()
    solution = solve_hand(
        " ".join(cards), preset, objective, alternatives=alternatives, **overrides
    )
    if as_json:
        emit_json(solution.to_dict())
        return
    console = Console()
    if solution.natural is not None:
        natural = solution.natural
        console.print(
            f"natural: [bold]{natural.kind.title}[/bold] ({natural.units} units), declared: "
            + " / ".join(format_cards(g, pretty=True) for g in natural.groups)
        )
        console.print("best ordinary arrangement, for reference:")
    console.print(_rows_table(solution.arrangement, f"{solution.objective} = "))
    for i, alt in enumerate(solution.alternatives, start=1):
        console.print(_rows_table(alt, f"alternative {i}: {solution.objective} = "))


def _rows_table(arrangement: Arrangement, caption: str) -> Table:
    table = Table(box=None, show_header=True, caption=f"{caption}{_fmt(arrangement.value)}")
    table.add_column("row")
    table.add_column("cards")
    table.add_column("hand")
    table.add_column("royalty", justify="right")
    for row in (Row.BACK, Row.MIDDLE, Row.FRONT):
        cards = arrangement.row(row)
        table.add_row(
            row.label,
            format_cards(cards, pretty=True),
            arrangement.hands[row].name,
            str(arrangement.royalties[row]),
        )
    return table


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.4f}"
