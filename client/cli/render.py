"""Human output shared by the commands: cards with suit symbols (hearts and diamonds red,
clubs and spades plain) and tables, through rich.

Styling is on for a terminal and off when the output is piped; ``NO_COLOR`` (set and not empty,
https://no-color.org) turns off every escape code, bold included (rich alone drops only the
colours), and ``FORCE_COLOR`` forces styling on a pipe. The text is the same either way, so piped
output is the terminal output without escape codes. Text is never read as rich markup: a rule
set's ``[players=4 ...]`` or a seat named ``[b]`` prints as given.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cpsolver.cards import Card, Suit
from cpsolver.chinese import Solution
from cpsolver.chinese.solve import Arrangement
from cpsolver.rules import Row

__all__ = [
    "alternatives_parts",
    "cards_text",
    "console",
    "html_option",
    "number",
    "signed",
    "solution_tables",
    "write_html",
]

ROWS = (Row.BACK, Row.MIDDLE, Row.FRONT)
F = TypeVar("F", bound=Callable[..., Any])


def html_option(command: F) -> F:
    """``--html FILE``: also write the answer as a self-contained HTML page
    (:mod:`cpsolver.chinese.render`); the command receives it as ``html``."""
    return click.option(
        "--html", "html", default=None, metavar="FILE",
        help="Also write the answer as a self-contained HTML page (cards, rows, EV table).",
    )(command)  # fmt: skip


def write_html(path: str, title: str, fragment: str) -> None:
    """Write :func:`cpsolver.chinese.render.page` of ``fragment`` to ``path`` (UTF-8)."""
    from cpsolver.chinese.render import page
    from cpsolver.errors import InvalidInputError

    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(page(title, fragment))
    except OSError as exc:
        raise InvalidInputError("html", f"cannot write {path!r}: {exc.strerror}") from None


_RED = frozenset({Suit.HEARTS, Suit.DIAMONDS})


class _Console(Console):
    """rich's console, leaving a closed pipe to the root command (one quiet exit for every
    writer: rich's own handler exits 1)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


def console(*, stderr: bool = False) -> Console:
    """A rich console with no automatic highlighting (numbers stay plain), no markup (user and
    rule text print as given) and no escape codes at all under ``NO_COLOR``."""
    # rich's own NO_COLOR handling keeps bold and the other attributes; no colour system means
    # no style is rendered at all.
    plain = bool(os.environ.get("NO_COLOR"))
    return _Console(
        stderr=stderr,
        highlight=False,
        soft_wrap=False,
        markup=False,
        color_system=None if plain else "auto",
    )


def cards_text(cards: Iterable[Card]) -> Text:
    """``A♠ K♥`` with the red suits styled red.

    >>> cards_text([Card.of("As"), Card.of("Kh")]).plain
    'A♠ K♥'
    """
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        text.append(card.pretty, style="bold red" if card.suit in _RED else "bold")
    return text


def number(value: float) -> str:
    """An objective value: integers plainly, fractions to 4 decimals.

    >>> number(7.0), number(1.23456)
    ('7', '1.2346')
    """
    return str(int(value)) if float(value).is_integer() else f"{value:.4f}"


def signed(units: int) -> str:
    """``+5``, ``-9``, ``0``."""
    return f"{units:+d}" if units else "0"


def _rows_table(arrangement: Arrangement, title: str | None = None) -> Table:
    table = Table(box=None, title=title, title_justify="left", pad_edge=False)
    table.add_column("row")
    table.add_column("cards")
    table.add_column("hand")
    table.add_column("royalty", justify="right")
    for row in ROWS:
        table.add_row(
            row.label,
            cards_text(arrangement.row(row)),
            arrangement.hands[row].name,
            str(arrangement.royalties[row]),
        )
    return table


def solution_tables(solution: Solution) -> list[Table | Text]:
    """The renderables of a solution: a natural line, the rows, the value, the alternatives."""
    out: list[Table | Text] = []
    natural = solution.natural
    if natural is not None:
        line = Text.assemble(
            "natural: ", (natural.kind.title, "bold"), f" ({natural.units} units), declared: "
        )
        for i, group in enumerate(natural.groups):
            if i:
                line.append(" / ")
            line.append_text(cards_text(group))
        out.append(line)
        out.append(Text("best ordinary arrangement, for reference:"))
    out.append(_rows_table(solution.arrangement))
    out.append(
        Text(
            f"value {number(solution.value)} (objective: {solution.objective}); "
            f"royalty units {solution.arrangement.royalty_total}"
        )
    )
    if solution.analysis is not None:
        out.extend(_ev_parts(solution))
    if solution.tables is not None:  # which table file answered (docs/EV.md, "Table files")
        out.append(Text(f"tables: {solution.tables.describe()}"))
    out.extend(alternatives_parts(solution))
    return out


def alternatives_parts(solution: Solution) -> list[Table | Text]:
    """The next-best arrangements (``--arrangements N``: N - 1 of them) with their value and
    their gap to the best; nothing when there are none."""
    if not solution.alternatives:
        return []
    table = Table(box=None, pad_edge=False)
    table.add_column("#", justify="right")
    for row in ROWS:
        table.add_column(row.label)
    table.add_column(solution.objective, justify="right")
    table.add_column("gap", justify="right")
    for i, alt in enumerate(solution.alternatives, start=1):
        table.add_row(
            str(i),
            *(cards_text(alt.row(row)) for row in ROWS),
            number(alt.value),
            number(solution.value - alt.value),
        )
    return [Text("alternatives:"), table]


def _ev_parts(solution: Solution) -> list[Table | Text]:
    """The ``ev`` objective's report: per-row odds against one opponent (or, for a declared
    natural, how it settles), EV and its interval."""
    report = solution.analysis
    assert report is not None
    line = f"expected units at the table: {report.ev:+.4f}"
    if report.ci95 is not None:
        low, high = report.ci95
        source = f"{report.rollouts} rollouts" if report.rollouts else "weighted opponent pool"
        line += f" (95% CI {low:+.4f} .. {high:+.4f}, {source})"
    elif report.estimate is not None:
        half = (report.estimate.high - report.estimate.low) / 2
        line += f" (model, calibrated to +/-{half:.2f})"
    if report.settlement is not None:
        s = report.settlement
        title = s.name.replace("_", " ")
        return [
            Text(f"declaring {title}, against one opponent:"),
            Text(
                f"collects {s.units} units with P {s.win:.4f}, ties the same natural "
                f"{s.tie:.4f}, pays a higher one {s.loss:.4f}"
            ),
            Text(line),
        ]
    table = Table(box=None, pad_edge=False, title="against one opponent", title_justify="left")
    for column in ("row", "P(win)", "P(tie)", "P(loss)", "units if won"):
        table.add_column(column, justify="left" if column == "row" else "right")
    for row in ROWS:
        odds = report.rows[row]
        table.add_row(
            row.label,
            f"{odds.win:.3f}",
            f"{odds.tie:.3f}",
            f"{max(odds.loss, 0.0):.3f}",
            number(odds.value),
        )
    parts: list[Table | Text] = [table, Text(line)]
    for name, ev, _ in report.naturals:
        parts.append(Text(f"declaring {name.replace('_', ' ')} instead: {ev:+.4f}"))
    return parts
