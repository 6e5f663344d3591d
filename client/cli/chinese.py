"""Chinese poker commands: ``evaluate`` (and ``solve``, ``score``)."""

from __future__ import annotations

import click

from client.cli.main import emit_json, main
from solver.cards import format_cards
from solver.evaluator.poker import evaluate as evaluate_hand


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
