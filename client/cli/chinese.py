"""Chinese poker commands: ``evaluate`` (and ``solve``, ``score``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click
from rich.text import Text

from cpsolver.chinese.constrained import ENGINES
from cpsolver.chinese.constraints import Constraints, NaturalPolicy
from cpsolver.chinese.estimator import Estimator
from cpsolver.chinese.objectives import DEFAULT_OBJECTIVE, objective_names
from cpsolver.chinese.render import solution_html
from cpsolver.client.cli.asking import asked, estimate_options
from cpsolver.client.cli.main import (
    complete_objectives,
    emit_json,
    main,
    remote_options,
    rules_options,
)
from cpsolver.client.cli.render import (
    cards_text,
    console,
    html_option,
    solution_tables,
    write_html,
)
from cpsolver.client.solver import Solver
from cpsolver.rules import parse_assignments

SOLVE_ESTIMATOR = Estimator("budget", 100)
"""``cpsolver solve``'s estimator when none is named, ``budget:100ms``: a person (or a script
paying a process start-up of half a second) is waiting, so the printed EV is the calibrated
one (docs/EV.md), as the library's and the server's default ``calibrated`` is."""


def _assignments(
    example: str,
) -> Callable[[click.Context, click.Parameter, tuple[str, ...]], tuple[str, ...]]:
    """A check of ``--pin``, ``--forbid`` and ``--min``: each value is an assignment. Without
    one, ``--pin Ks`` reached the library as a card with an empty place: "unknown place ''"."""

    def check(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> Any:
        for value in values:
            if "=" not in value:
                raise click.BadParameter(
                    f"expected {param.metavar}, e.g. {example}; got {value!r}", ctx, param
                )
        return values

    return check


@main.command()
@click.argument("cards", nargs=-1, required=True)
@rules_options("Override one rule option (repeatable); only wheel affects evaluation.")
@remote_options
def evaluate(
    cards: tuple[str, ...],
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Evaluate a 5-card hand or a 3-card front.

    \b
    Example: cpsolver evaluate "Jh Js 4c 4d Jd"
    """
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
@rules_options("Override one rule option (repeatable), e.g. --set order=strict.", with_json=False)
@click.option(
    "--objective",
    default=DEFAULT_OBJECTIVE,
    show_default=True,
    help=f"What to maximise: {', '.join(objective_names())}.",
    shell_complete=complete_objectives,
)
@click.option(
    "--pin",
    "pins",
    multiple=True,
    callback=_assignments("As=front"),
    metavar="CARD=ROW",
    help="Pin a card to a row: front, middle, back (or discard, with more than 13 cards).",
)
@click.option(
    "--forbid",
    "forbids",
    multiple=True,
    callback=_assignments("As=back"),
    metavar="CARD=ROW",
    help="Keep a card out of a row (or --forbid As=discard: keep it).",
)
@click.option(
    "--min",
    "minimums",
    multiple=True,
    callback=_assignments("front=pair"),
    metavar="ROW=HAND",
    help="Minimum hand in a row: a category (front=pair), a strength class or a hand.",
)
@click.option(
    "--natural",
    "natural_policy",
    type=click.Choice([p.value for p in NaturalPolicy]),
    default=NaturalPolicy.AUTO.value,
    show_default=True,
    help="Declare a natural when held (auto), always (force) or never (forbid).",
)
@click.option(
    "--engine",
    type=click.Choice(ENGINES),
    default="exact",
    show_default=True,
    help="exact (fast) or cpsat (OR-Tools CP-SAT, about a second or more per hand).",
)
@estimate_options(SOLVE_ESTIMATOR)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@html_option
@remote_options
def solve(
    cards: tuple[str, ...],
    preset: str,
    assignments: tuple[str, ...],
    objective: str,
    pins: tuple[str, ...],
    forbids: tuple[str, ...],
    minimums: tuple[str, ...],
    natural_policy: str,
    engine: str,
    seed: int,
    as_json: bool,
    html: str | None,
    solver: Solver,
    **asking: Any,
) -> None:
    """Arrange 13 cards into back, middle and front (or keep the best 13 of 14 to 17).

    \b
    Example: cpsolver solve "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s" --pin As=front
    """
    overrides: dict[str, Any] = parse_assignments(assignments)
    constraints = Constraints.parse(
        pins=list(pins), forbids=list(forbids), minimums=list(minimums), natural=natural_policy
    )
    extra: dict[str, Any] = {}
    if constraints != Constraints():
        extra["constraints"] = constraints
    if engine != "exact":
        extra["engine"] = engine
    estimator, count = asked(SOLVE_ESTIMATOR, asking)
    solution = solver.solve(
        " ".join(cards),
        preset,
        objective,
        estimator=estimator,
        arrangements=count,
        seed=seed,
        **extra,
        **overrides,
    )
    if html is not None:
        write_html(html, f"cpsolver solve {' '.join(cards)}", solution_html(solution))
    if as_json:
        emit_json(solution.to_dict())
        return
    out = console()
    for part in solution_tables(solution):
        # A sentence (the EV and its interval) stays on one line, as scripts and docs read it.
        out.print(part, soft_wrap=isinstance(part, Text))
    if solution.discarded:
        out.print(Text.assemble("discarded: ", cards_text(solution.discarded)))
