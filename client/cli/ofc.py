"""Open-face Chinese poker commands: ``cpsolver ofc score|fantasyland|advise|play|deal``
(RULES §5).

``score`` reads a table of finished boards (a file, ``-`` for stdin)::

    {"rules": "pineapple", "players": {"A": {"back": [...], "middle": [...], "front": [...]},
     "B": {..., "fantasyland": true}}}

``rules`` (a preset name) is optional; ``--rules`` given on the command line wins over it.
Every command runs in-process (the library's :mod:`cpsolver.ofc`), or against a server's
``OpenFaceService`` with ``--server HOST:PORT`` (or ``CPSOLVER_SERVER``), with the same output.
Bad input exits with code 2 and one line on stderr naming the field (``players.A.back[2]``,
indexes from 0).
"""

from __future__ import annotations

import math
import secrets
from typing import Any

import click
from click.core import ParameterSource

from cpsolver.cards import Card, format_cards
from cpsolver.client.cli.jsonin import read_json
from cpsolver.client.cli.main import SummaryGroup, emit_json, main, remote_options, rules_options
from cpsolver.client.cli.options import SEED
from cpsolver.client.cli.render import console as make_console
from cpsolver.client.solver import Solver
from cpsolver.errors import InvalidInputError
from cpsolver.ofc.advice import DEFAULT_FANTASYLAND_VALUE, DEFAULT_FILLS, check_advice_options
from cpsolver.ofc.board import ROWS, Board
from cpsolver.ofc.fantasyland import DEFAULT_EV_SAMPLES, OBJECTIVES
from cpsolver.rules import OfcRules, parse_assignments

__all__ = ["ofc"]

_rules_options = rules_options(
    "Override one rule option (repeatable), e.g. --set fantasyland=progressive.",
    rules=OfcRules,
)


@main.group(cls=SummaryGroup)
def ofc() -> None:
    """Open-face Chinese poker (Pineapple, classic): score, fantasyland sets, street advice."""


@ofc.command("score")
@click.argument("file", metavar="FILE|-")
@_rules_options
@remote_options
@click.pass_context
def score_command(
    ctx: click.Context,
    file: str,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Settle a table of 2-3 (classic 2-4) finished boards read from FILE (or stdin with -).

    FILE holds {"rules": "pineapple", "players": {"A": {"back": [...], "middle": [...],
    "front": [...]}, ...}}; a board set in fantasyland this hand adds "fantasyland": true.
    """
    overrides: dict[str, Any] = parse_assignments(assignments)
    document = read_json(file)
    if not isinstance(document, dict):
        raise InvalidInputError("input", 'expected a JSON object {"players": {...}}')
    unknown = sorted(set(document) - {"players", "rules"})
    if unknown:
        raise InvalidInputError(unknown[0], "unknown key; valid keys: players, rules")
    if "players" not in document:
        raise InvalidInputError("players", "missing: the input needs a players object")
    if ctx.get_parameter_source("preset") is ParameterSource.DEFAULT and "rules" in document:
        preset = document["rules"]
        if not isinstance(preset, str):
            raise InvalidInputError("rules", f"expected a preset name, got {preset!r}")
    table = solver.ofc.score(document["players"], preset, **overrides)
    if as_json:
        emit_json(table.to_dict())
        return
    console = make_console()
    for name, board, net in zip(table.seats, table.boards, table.net, strict=True):
        if board.fouled:
            status = f"fouled: {board.foul_reason}"
        elif board.fantasyland:
            status = f"fantasyland next hand, {board.fantasyland} cards"
        else:
            status = "valid"
        console.print(f"{name}: {net:+d} units, royalties {board.royalty_total}; {status}")
        for row in ROWS:
            cards = format_cards(board.board.row(row), pretty=True)
            console.print(
                f"  {row.label:<7} {cards:<15} {board.hands[row].name} ({board.royalties[row]})"
            )


@ofc.command("fantasyland")
@click.argument("cards", nargs=-1, required=True)
@click.option(
    "--objective", type=click.Choice(OBJECTIVES), default="royalties", show_default=True,
    help="royalties: the royalties plus V when the set stays in fantasyland (exact); ev: the "
    "expected units against the table (its hands played out on seeded deals) plus V when the "
    "set stays.",
)  # fmt: skip
@click.option(
    "--fantasyland-value", "value", type=float, default=DEFAULT_FANTASYLAND_VALUE, metavar="V",
    help="What staying in fantasyland is worth, in units (>= 0): the next hand is a "
    "fantasyland hand, as for advise's V, with advise's default (OFC-6 counts it; 0: the "
    f"set's own value alone) [default: {DEFAULT_FANTASYLAND_VALUE:g}].",
)  # fmt: skip
@click.option(
    "--samples", type=int, default=None, metavar="N",
    help=f"ev: deals simulated [default: {DEFAULT_EV_SAMPLES}].",
)  # fmt: skip
@click.option(
    "--seed", type=SEED, default=0, show_default=True,
    help="ev: seed of the simulated deals.",
)  # fmt: skip
@_rules_options
@remote_options
def fantasyland_command(
    cards: tuple[str, ...],
    objective: str,
    value: float,
    samples: int | None,
    seed: int,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Set a fantasyland hand: the best 13 of 14 (progressive 14-17) CARDS.

    \b
    Example: cpsolver ofc fantasyland "As Ah Ad Kh Kd Ks Qs Jh Th 9c 8c 7c 6c 2d" \\
        --fantasyland-value 10 [--objective ev --samples 500 --seed 1]
    """
    overrides: dict[str, Any] = parse_assignments(assignments)
    if not math.isfinite(value):
        raise InvalidInputError("fantasyland_value", f"expected a number >= 0, got {value}")
    found = solver.ofc.fantasyland(
        " ".join(cards),  # one quoted argument or the cards one by one, as solve takes them
        preset,
        objective=objective,
        fantasyland_value=value,
        samples=samples,
        seed=seed,
        **overrides,
    )
    if as_json:
        emit_json(found.to_dict())
        return
    console = make_console()
    for label, row in (("back", found.back), ("middle", found.middle), ("front", found.front)):
        console.print(f"{label:<9} {format_cards(row, pretty=True)}")
    console.print(f"{'discard':<9} {format_cards(found.discarded, pretty=True)}")
    stays = "stays in fantasyland" if found.stays else "leaves fantasyland"
    if found.objective != "ev":
        console.print(
            f"royalties {found.royalties}, {stays}; value {found.value:g} "
            f"(V = {found.fantasyland_value:g})"
        )
        return
    console.print(
        f"royalties {found.royalties}, {stays}; value {found.value:+.2f} ± {found.stderr:.2f} "
        f"(V = {found.fantasyland_value:g})"
    )
    console.print(
        f"ev against {found.opponents} opponent{'' if found.opponents == 1 else 's'} "
        f"({found.policy}), {found.samples} deals (seed {found.seed}), "
        f"{found.candidates} candidate sets"
    )


@ofc.command("advise")
@click.argument("file", metavar="STATE.json|-")
@click.option(
    "--budget-ms", type=float, default=None, metavar="N",
    help="Time budget in ms [default: 1000 on street 1, 200 later; none with --samples].",
)  # fmt: skip
@click.option(
    "--samples", type=int, default=None, metavar="N",
    help="Deals simulated per placement at most [default: 5000].",
)  # fmt: skip
@click.option(
    "--seed", type=SEED, default=0, show_default=True,
    help="Seed of the simulated deals.",
)  # fmt: skip
@click.option(
    "--fantasyland-value", "value", type=float, default=None, metavar="V",
    help=f"What entering fantasyland is worth, in units [default: {DEFAULT_FANTASYLAND_VALUE:g}].",
)  # fmt: skip
@click.option(
    "--top", type=click.IntRange(1), default=10, show_default=True,
    help="Placements shown (without --json).",
)  # fmt: skip
@_rules_options
@remote_options
@click.pass_context
def advise_command(
    ctx: click.Context,
    file: str,
    budget_ms: float | None,
    samples: int | None,
    seed: int,
    value: float | None,
    top: int,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Rank every legal placement of a street's hand by expected units (STATE.json or -).

    STATE.json holds {"rules": "pineapple", "street": 1-5 (classic 1-9), "hand": [...],
    "board": {...}, "opponents": [{...}], "dead": [...]}: exact when nothing is left to deal,
    else simulated.
    """
    overrides: dict[str, Any] = parse_assignments(assignments)
    document = read_json(file)
    if not isinstance(document, dict):
        raise InvalidInputError("input", 'expected a JSON object {"street": ..., "hand": ...}')
    position = dict(document)
    rules: str | None = None
    if ctx.get_parameter_source("preset") is not ParameterSource.DEFAULT or "rules" not in position:
        position.pop("rules", None)
        rules = preset
    advice = solver.ofc.advise(
        position,
        rules,
        budget_ms=budget_ms,
        samples=samples,
        seed=seed,
        fantasyland_value=value,
        **overrides,
    )
    if as_json:
        emit_json(advice.to_dict())
        return
    console = make_console()
    how = "exact" if advice.exact else f"simulated, policy {advice.policy}, seed {advice.seed}"
    console.print(
        f"street {advice.position.street}: {len(advice.ranked)} placement"
        f"{'' if len(advice.ranked) == 1 else 's'} ({how}; "
        f"fantasyland worth {advice.fantasyland_value:g})"
    )
    for i, r in enumerate(advice.ranked[:top], 1):
        place = ", ".join(
            f"{row.label} {format_cards(r.placement.row(row), pretty=True)}"
            for row in ROWS
            if r.placement.row(row)
        )
        if r.placement.discard:
            place += f"; discard {format_cards(r.placement.discard, pretty=True)}"
        spread = "" if advice.exact else f" ± {r.stderr:.2f}"
        console.print(
            f"{i:>3}. {r.value:+.2f}{spread}  foul {r.foul:.0%}  fantasyland "
            f"{r.fantasyland:.0%}  {place}"
        )


@ofc.command("play")
@click.option(
    "--seed", type=SEED, default=None,
    help="Seed of the deal (same seed, same cards) [default: a random one, shown].",
)  # fmt: skip
@click.option(
    "--budget-ms", type=float, default=None, metavar="N",
    help="Each decision's time budget in ms [default: advise's, by street].",
)  # fmt: skip
@click.option(
    "--samples", type=int, default=None, metavar="N",
    help="Deals simulated per placement at most in each decision (with no --budget-ms: "
    "no time limit, the same play every run).",
)  # fmt: skip
@_rules_options
@remote_options
def play_command(
    seed: int | None,
    budget_ms: float | None,
    samples: int | None,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Play a whole seeded hand, every seat placing by street advice, street by street."""
    # The options go to every decision's advice; checked only there, a bad --samples or
    # --budget-ms was refused after the header had been printed (and with --json after the
    # seed note), so a caller got partial output before the exit 2.
    check_advice_options(budget_ms, samples, 0, None, DEFAULT_FILLS)
    if seed is None:
        seed = secrets.randbelow(2**31)
        if as_json:
            click.echo(f"play: seed {seed}", err=True)
    overrides: dict[str, Any] = parse_assignments(assignments)
    dealt = solver.ofc.deal(seed, preset, **overrides)
    rules = dealt.rules
    seats = dealt.seats
    boards = [Board() for _ in seats]
    dead: list[list[Card]] = [[] for _ in seats]
    streets: list[list[dict[str, Any]]] = []
    console = None if as_json else make_console()
    if console is not None:
        console.print(f"seed {seed}: {rules.variant.value}, {len(seats)} players")
    for street in range(len(rules.streets)):
        moves = []
        for p, seat in enumerate(seats):
            others = [boards[q].to_dict() for q in range(len(seats)) if q != p]
            hand = dealt.streets[p][street]
            advice = solver.ofc.advise(
                {
                    "street": street + 1,
                    "hand": [str(c) for c in hand],
                    "board": boards[p].to_dict(),
                    "opponents": others,
                    "dead": [str(c) for c in dead[p]],
                },
                rules,
                budget_ms=budget_ms,
                samples=samples,
                seed=seed,
            )
            best = advice.best
            boards[p] = best.placement.on(boards[p])
            dead[p].extend(best.placement.discard)
            moves.append({"seat": seat, "hand": [str(c) for c in hand], **best.to_dict()})
            if console is not None:
                place = ", ".join(
                    f"{row.label} {format_cards(best.placement.row(row), pretty=True)}"
                    for row in ROWS
                    if best.placement.row(row)
                )
                if best.placement.discard:
                    place += f"; discard {format_cards(best.placement.discard, pretty=True)}"
                console.print(
                    f"street {street + 1} {seat}: {format_cards(hand, pretty=True)} -> {place} "
                    f"({best.value:+.2f})"
                )
        streets.append(moves)
    table = solver.ofc.score(dict(zip(seats, boards, strict=True)), rules)
    if as_json:
        emit_json({"seed": seed, "rules": rules.to_dict(), "streets": streets, **table.to_dict()})
        return
    assert console is not None
    for name, board, net in zip(table.seats, table.boards, table.net, strict=True):
        rows = " / ".join(format_cards(board.board.row(row), pretty=True) for row in ROWS)
        status = "fouled" if board.fouled else f"royalties {board.royalty_total}"
        if board.fantasyland:
            status += f", fantasyland next hand ({board.fantasyland} cards)"
        console.print(f"{name}: {net:+d} units  {rows}  ({status})")


@ofc.command("deal")
@click.option(
    "--seed", type=SEED, default=None,
    help="Seed of the shuffle (same seed, same deal) [default: a random one, shown].",
)  # fmt: skip
@_rules_options
@remote_options
def deal_command(
    seed: int | None, preset: str, assignments: tuple[str, ...], as_json: bool, solver: Solver
) -> None:
    """Deal a seeded open-face hand: every seat's cards street by street (OFC-1)."""
    if seed is None:
        seed = secrets.randbelow(2**31)
        if as_json:
            click.echo(f"deal: seed {seed}", err=True)
    overrides: dict[str, Any] = parse_assignments(assignments)
    dealt = solver.ofc.deal(seed, preset, **overrides)
    if as_json:
        emit_json(dealt.to_dict())
        return
    console = make_console()
    console.print(
        f"seed {dealt.seed}: streets of {' + '.join(map(str, dealt.rules.streets))} cards"
    )
    for seat, streets in zip(dealt.seats, dealt.streets, strict=True):
        console.print(f"{seat}  " + " | ".join(format_cards(s, pretty=True) for s in streets))
