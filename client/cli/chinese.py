"""Chinese poker commands: ``evaluate`` (and ``solve``, ``score``)."""

from __future__ import annotations

from typing import Any

import click
from rich.text import Text

from client.cli.main import emit_json, main, remote_options
from client.cli.render import cards_text, console, solution_tables
from client.local import LocalSolver, Solver
from solver.chinese.objectives import DEFAULT_OBJECTIVE, objective_names
from solver.chinese.search import warm_up
from solver.rules import parse_assignments


@main.command()
@click.argument("cards", nargs=-1, required=True)
@click.option("--rules", "preset", default="standard", show_default=True, help="Rule preset.")
@click.option(
    "--set",
    "assignments",
    multiple=True,
    metavar="OPTION=VALUE",
    help="Override one rule option (repeatable); only wheel affects evaluation.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@remote_options
def evaluate(
    cards: tuple[str, ...],
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Evaluate a 5-card hand or a 3-card front, e.g. ``cpsolver evaluate "Jh Js 4c 4d Jd"``."""
    overrides: dict[str, Any] = parse_assignments(assignments)
    hand = solver.evaluate(" ".join(cards), preset, **overrides)
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
        console().print(
            Text.assemble(cards_text(hand.cards), f"  {hand.name}  (strength {hand.strength})")
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
@remote_options
def solve(
    cards: tuple[str, ...],
    preset: str,
    assignments: tuple[str, ...],
    objective: str,
    alternatives: int,
    as_json: bool,
    solver: Solver,
) -> None:
    """Arrange 13 cards into back, middle and front, e.g.
    ``cpsolver solve "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"``."""
    overrides: dict[str, Any] = parse_assignments(assignments)
    if isinstance(solver, LocalSolver):
        warm_up(parallel=False)  # one hand: the batch kernel is not needed
    solution = solver.solve(
        " ".join(cards), preset, objective, alternatives=alternatives, **overrides
    )
    if as_json:
        emit_json(solution.to_dict())
        return
    out = console()
    for part in solution_tables(solution):
        out.print(part)
