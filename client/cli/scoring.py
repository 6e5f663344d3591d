"""``cpsolver score``: settle a Chinese poker table from a JSON file (RULES CP-7..CP-11).

Input: ``{"players": {"N": {"back": [...], "middle": [...], "front": [...]},
"E": {"cards": [13 cards], "natural": true}, ...}}``, or ``"players"`` as a list seat by seat
(named N, E, S, W); card lists may also be strings (``"As Ks Qs Js Ts"``). Output with
``--json``: ``{"totals": {...}, "pairings": [...], "players": {...}, "rules": {...}}``;
otherwise rich tables. Bad input exits with code 2 and one line on stderr naming the field
(``players.N.back[2]``, 1-based card positions).
"""

from __future__ import annotations

from typing import Any

import click
from rich.table import Table

from cpsolver.cards import format_cards
from cpsolver.chinese.scoring import Outcome, Pairing, SettledBy, TableResult
from cpsolver.client.cli.jsonin import read_json
from cpsolver.client.cli.main import emit_json, main, remote_options, rules_options
from cpsolver.client.cli.render import console as make_console
from cpsolver.client.solver import Solver
from cpsolver.errors import InvalidInputError
from cpsolver.rules.base import parse_assignments
from cpsolver.rules.chinese import Row

_ROWS = (Row.BACK, Row.MIDDLE, Row.FRONT)


@main.command("score")
@click.argument("file", metavar="FILE|-")
@rules_options("Override one rule option (repeatable), e.g. --set scoring=two_four.")
@remote_options
def score_command(
    file: str, preset: str, assignments: tuple[str, ...], as_json: bool, solver: Solver
) -> None:
    """Settle a table of 2-4 players read from FILE (or stdin with -).

    FILE holds {"players": {"N": {"back": [...], "middle": [...], "front": [...]},
    "E": {"cards": [13 cards], "natural": true}, ...}}, or the players as a list seat by
    seat (named N, E, S, W).
    """
    overrides: dict[str, Any] = parse_assignments(assignments)
    document = _load(file)
    table = solver.score(_players(document), preset, **overrides)
    if as_json:
        emit_json(table.to_dict())
    else:
        _print_table(table)


def _load(file: str) -> Any:
    """Read and decode the JSON input; every failure is an InvalidInputError."""
    return read_json(file)


def _players(document: Any) -> Any:
    if not isinstance(document, dict):
        raise InvalidInputError("input", 'expected a JSON object {"players": {...}}')
    unknown = sorted(set(document) - {"players"})
    if unknown:
        raise InvalidInputError(unknown[0], "unknown key; the input has one key, players")
    if "players" not in document:
        raise InvalidInputError("players", "missing: the input needs a players object")
    # Its shape (a list seat by seat, or an object by seat name; 2-4 players) is the library's
    # to check, as for every other caller of score.
    return document["players"]


def _print_table(table: TableResult) -> None:
    console = make_console()
    seats = Table(title="players", box=None, show_header=True)
    seats.add_column("seat")
    for row in _ROWS:
        seats.add_column(row.label)
    seats.add_column("status")
    for name, seat in zip(table.seats, table.players, strict=True):
        if seat.natural is not None:
            groups = " / ".join(format_cards(g, pretty=True) for g in seat.natural.groups)
            seats.add_row(name, groups, "", "", f"natural: {seat.natural.kind.title}")
            continue
        assert seat.rows is not None and seat.hands is not None
        cells = [
            f"{format_cards(seat.rows[row], pretty=True)}\n{seat.hands[row].name}" for row in _ROWS
        ]
        status = f"fouled: {seat.foul_reason}" if seat.fouled else "valid"
        if seat.available_natural is not None:
            status += f" (holds {seat.available_natural.kind.title}, not declared)"
        seats.add_row(name, *cells, status)
    console.print(seats)

    pairings = Table(title="pairings (units for the first seat)", box=None, show_header=True)
    pairings.add_column("pairing")
    for row in _ROWS:
        pairings.add_column(row.label, justify="right")
    pairings.add_column("bonus", justify="right")
    pairings.add_column("total", justify="right")
    pairings.add_column("notes")
    for pairing in table.pairings:
        pairings.add_row(
            f"{table.seats[pairing.seats[0]]}-{table.seats[pairing.seats[1]]}",
            *_row_cells(pairing, table.seats),
            _signed(pairing.bonus),
            _signed(pairing.total),
            "; ".join(pairing.notes),
        )
    console.print(pairings)

    totals = Table(title="totals", box=None, show_header=True)
    totals.add_column("seat")
    totals.add_column("units", justify="right")
    for name, units in zip(table.seats, table.net, strict=True):
        totals.add_row(name, _signed(units))
    console.print(totals)


def _row_cells(pairing: Pairing, names: tuple[str, ...]) -> list[str]:
    if pairing.settled_by in (SettledBy.NATURAL, SettledBy.BOTH_FOULED) or not pairing.rows:
        return ["-"] * 3  # a natural, two fouls, or a fixed foul (CP-14): no rows compared
    cells = []
    for outcome in pairing.rows:
        if outcome.outcome is Outcome.TIE:
            cells.append("tie")
        else:
            assert outcome.winner is not None  # a won or lost row has a winner
            cells.append(f"{_signed(outcome.units)} {names[outcome.winner]}")
    return cells


def _signed(units: int) -> str:
    return f"{units:+d}" if units else "0"
