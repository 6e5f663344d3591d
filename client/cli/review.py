"""``cpsolver review FILE``: a hand history rated hand by hand and summed up by player.

The input (a file or stdin) is the hand-history format of docs/schemas/hand-history.schema.json,
as JSON lines (one hand an object per line) or CSV (a header row naming the columns ``id``,
``player``, ``rules``, ``back``, ``middle``, ``front``, ``cards``, ``natural``; an empty cell is
an absent field); blank lines and lines starting with ``#`` are skipped, line numbers still
count them. In-process the hands go through :func:`cpsolver.chinese.review.review` (the
``model`` estimator: one batch kernel per rule set, on every core); with ``--server`` each hand
is a ``RateArrangement`` call (several at a time), summed up by the same
:func:`~cpsolver.chinese.review.summarise`; with ``--ray ADDRESS`` chunks of hands are Ray
tasks (:meth:`cpsolver.cluster.RaySolver.review`, the ``cluster`` extra), the same review.
A progress bar shows on a terminal. Output: a table per player (``--json``: one document,
docs/CLI-JSON.md). Bad lines are listed on stderr with their line numbers (the first
:data:`SHOWN_ERRORS` with their reasons) and make the exit code 2; a first line that is neither
JSON nor a CSV header of the fields' names, and input without hands, are refused whole.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from cpsolver.cards import Card
from cpsolver.chinese.render import review_html
from cpsolver.chinese.review import (
    HISTORY_FIELDS,
    REVIEW_ESTIMATOR,
    HandError,
    PlayerSummary,
    Review,
    ReviewedHand,
    hand_from_rating,
    review,
    rules_of,
    summarise,
)
from cpsolver.client.cli.asking import asked, estimate_options
from cpsolver.client.cli.jsonin import FIELD, bounded_lines, decode_json, open_input, where
from cpsolver.client.cli.main import EXIT_BAD_INPUT, emit_json, main, remote_options, rules_options
from cpsolver.client.cli.render import cards_text, console, html_option, write_html
from cpsolver.client.local import LocalSolver
from cpsolver.client.solver import Solver
from cpsolver.errors import CpsolverError, InvalidInputError
from cpsolver.rules import ChineseRules, parse_assignments

__all__ = ["SHOWN_ERRORS", "read_history", "review_parts"]

SHOWN_ERRORS = 20
"""The bad lines whose reasons and numbers go to stderr (as many as batch's summary lists);
``--json`` lists every one."""

_CSV_TRUE = frozenset({"true", "yes", "1"})


def read_history(stream: IO[bytes], source: str = "-") -> Iterator[tuple[int, object]]:
    """``(line number, hand)`` of a history, JSON lines or CSV (module doc); a line that cannot
    be read is its :class:`InvalidInputError` in place of the hand."""
    lines = bounded_lines(stream)
    header: list[str] | None = None
    for number, raw in lines:
        if raw is None:
            yield number, InvalidInputError(FIELD, "line longer than 65,536 bytes; not read")
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield (
                number,
                InvalidInputError(
                    FIELD, f"{where(source)}: line {number} is not UTF-8 text: {exc.reason}"
                ),
            )
            continue
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if header is None and stripped.startswith("{"):
            column = len(text) - len(text.lstrip()) + 1
            try:
                yield number, decode_json(stripped, source, line=number, column=column)
            except InvalidInputError as exc:
                yield number, exc
            continue
        row = next(csv.reader(io.StringIO(stripped)))
        if header is None:
            header = _header(row, number, source)
            continue
        yield number, _csv_hand(header, row, number, source)


def _header(row: list[str], number: int, source: str) -> list[str]:
    """The columns a CSV header names, checked: the first line that is not JSON is taken for
    the header, so a line of cards, or any text that is not a history, is refused here, whole
    (every line under it would be read by its names), rather than rated as no hands at all."""
    header = [cell.strip() for cell in row]
    unknown = [name for name in header if name not in HISTORY_FIELDS]
    twice = sorted({name for name in header if header.count(name) > 1})
    if not unknown and not twice:
        return header
    if unknown:
        names = ", ".join(repr(name) for name in unknown)
        what = f"unknown column{'s' if len(unknown) > 1 else ''} {names}"
    else:
        what = f"column{'s' if len(twice) > 1 else ''} {', '.join(map(repr, twice))} named twice"
    columns = ", ".join(sorted(HISTORY_FIELDS))
    raise InvalidInputError(
        FIELD,
        f"{where(source)}: line {number} is not a hand history's CSV header: {what}; a history "
        f"is JSON lines, one object a hand, or CSV under a header of columns from {columns}",
    )


def _csv_hand(header: list[str], row: list[str], number: int, source: str) -> object:
    if len(row) != len(header):
        return InvalidInputError(
            FIELD,
            f"{where(source)}: line {number} has {len(row)} cells, the header {len(header)}",
        )
    hand: dict[str, object] = {}
    for name, cell in zip(header, row, strict=True):
        value = cell.strip()
        if not value:
            continue
        if name == "natural":
            hand[name] = True if value.lower() in _CSV_TRUE else value
        else:
            hand[name] = value
    return hand


def _count(file: str) -> int | None:
    if file == "-" or not os.path.isfile(file):
        return None
    with open(file, "rb") as handle:
        total = sum(
            1
            for _, raw in bounded_lines(handle)
            if raw is None or (raw.strip() and not raw.lstrip().startswith(b"#"))
        )
    return total


@main.command("review")
@click.argument("file", default="-", metavar="[FILE|-]")
@rules_options("Override one rule option (repeatable) for hands that name no rules.")
@estimate_options(
    REVIEW_ESTIMATOR,
    "of each hand",
    unused_count="review rates each hand against the best alone and shows no other "
    "arrangements (rate BACK MIDDLE FRONT --arrangements N does)",
)
@click.option(
    "--worst", type=click.IntRange(0, 100), default=5, show_default=True,
    help="How many of each player's worst hands the table lists.",
)  # fmt: skip
@click.option(
    "--ray", "ray_address", default=None, metavar="ADDRESS",
    help="Rate on a Ray cluster: auto, HOST:PORT, ray://HOST:10001 or local (cpsolver[cluster]).",
)  # fmt: skip
@html_option
@remote_options
def review_command(
    file: str,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    seed: int,
    worst: int,
    ray_address: str | None,
    html: str | None,
    solver: Solver,
    **asking: Any,
) -> None:
    """Rate every hand of a history and sum it up by player.

    FILE holds JSON lines or CSV: the rows a player set, optional player, rules and id
    (docs/schemas/hand-history.schema.json). Per player: EV lost per hand, share played
    best, worst hands, mistakes by kind. A progress bar shows on a terminal; bad lines are
    listed on stderr with their reasons and make the exit code 2.

    \b
    Example: cpsolver review history.jsonl --json
    """
    overrides: dict[str, Any] = parse_assignments(assignments)
    estimator, _ = asked(REVIEW_ESTIMATOR, asking)  # the count: deprecated, unused here
    default = ChineseRules.resolve(preset, **overrides)
    ray = None
    if ray_address is not None:
        if not isinstance(solver, LocalSolver):
            raise InvalidInputError("ray", "--ray and --server exclude each other")
        from cpsolver.cluster import RaySolver

        ray = RaySolver(ray_address)
    total = _count(file)
    stream = open_input(file)
    with stream:
        entries = list(read_history(stream, file))
    if not entries:  # an empty file or stdin (or a header alone) is no history to sum up
        raise InvalidInputError(FIELD, f"{where(file)}: no hands in the input")
    err = console(stderr=True)
    progress = Progress(
        TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=err, transient=True, disable=not err.is_terminal,
        redirect_stdout=False, redirect_stderr=False,
    )  # fmt: skip
    with progress:
        task = progress.add_task("reviewing", total=total or len(entries))

        def advance(n: int) -> None:
            progress.advance(task, n)

        if ray is not None:
            result = ray.review(
                [hand for _, hand in entries], default, estimator=estimator, seed=seed,
                progress=advance, lines=[number for number, _ in entries],
            )  # fmt: skip
        elif isinstance(solver, LocalSolver):
            result = review(
                [hand for _, hand in entries], default, estimator=estimator, seed=seed,
                progress=advance, lines=[number for number, _ in entries],
            )  # fmt: skip
        else:
            result = _remote(solver, entries, default, estimator, seed, advance)
    if html is not None:
        write_html(html, f"cpsolver review {file}", review_html(result, worst=worst))
    if as_json:
        emit_json(result.to_dict())
    else:
        out = console()
        for part in review_parts(result, worst=worst):
            out.print(part, soft_wrap=isinstance(part, Text))
    if result.errors:
        # Each bad line's reason: the text report has no place for them and --json's "errors"
        # goes to a file; the first SHOWN_ERRORS, as the summary lists their line numbers.
        for error in result.errors[:SHOWN_ERRORS]:
            click.echo(f"line {error.line}: {error.error}", err=True)
        shown = ", ".join(str(e.line) for e in result.errors[:SHOWN_ERRORS])
        more = ", ..." if len(result.errors) > SHOWN_ERRORS else ""
        click.echo(
            f"review: {len(result.hands)} of {len(result.hands) + len(result.errors)} hands "
            f"rated; {len(result.errors)} bad line{'s' if len(result.errors) > 1 else ''} "
            f"({shown}{more})",
            err=True,
        )
        raise SystemExit(EXIT_BAD_INPUT)


def _remote(
    solver: Solver,
    entries: list[tuple[int, object]],
    default: ChineseRules,
    estimator: Any,
    seed: int,
    advance: Callable[[int], None],
) -> Review:
    """Each hand a RateArrangement call, two at a time (the server admits a few calls per
    worker), summed up as in-process. Bad input is that hand's error; any other failure (the
    server unreachable or overloaded) stops the review with its own message and exit code."""

    def one(index: int, number: int, hand: object) -> ReviewedHand | HandError:
        hand_id = hand.get("id") if isinstance(hand, dict) else None
        try:
            if isinstance(hand, CpsolverError):
                raise hand
            if not isinstance(hand, dict):
                raise InvalidInputError((), "expected an object with back, middle, front")
            played = {k: v for k, v in hand.items() if k not in ("id", "player", "rules")}
            player = hand.get("player") or ""
            if not isinstance(player, str):
                raise InvalidInputError("player", f"expected text, got {type(player).__name__}")
            rules = rules_of(hand.get("rules"), default)
            rating = solver.chinese.rate(played, rules, estimator=estimator, seed=seed)
            return hand_from_rating(rating, index, number, hand_id, player)
        except InvalidInputError as exc:
            return HandError(index, number, hand_id, exc)
        except CpsolverError as exc:
            if isinstance(hand, CpsolverError):  # a reader's error for this line
                return HandError(index, number, hand_id, exc)
            raise
        finally:
            advance(1)

    with ThreadPoolExecutor(2) as pool:
        done = list(pool.map(lambda e: one(e[0], e[1][0], e[1][1]), enumerate(entries)))
    hands = [d for d in done if isinstance(d, ReviewedHand)]
    errors = [d for d in done if isinstance(d, HandError)]
    from cpsolver.chinese.estimator import Estimator

    assert isinstance(estimator, Estimator)
    return summarise(hands, errors, estimator.chosen(None))


def _choice(rows: tuple[tuple[Card, ...], ...] | None, natural: str | None) -> Text:
    """Rows as ``back / middle / front`` cards, or the natural declared."""
    if rows is None:
        return Text(f"natural: {natural}")
    return Text(" / ").join(cards_text(row) for row in rows)


def _fmt(value: float) -> str:
    return f"{value:.3f}"


def _ci(ci: tuple[float, float] | None) -> str:
    return "" if ci is None else f"{ci[0]:.3f} .. {ci[1]:.3f}"


def _summary_table(summaries: list[PlayerSummary]) -> Table:
    table = Table(box=None, pad_edge=False, title="EV lost by player (units per hand)",
                  title_justify="left")  # fmt: skip
    for column in ("player", "hands", "total", "mean", "95% CI", "played best", "fouls"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for s in summaries:
        table.add_row(
            s.player or "(none)" if s.player != "*" else "all", str(s.hands),
            _fmt(s.total_lost), _fmt(s.mean_lost), _ci(s.mean_lost_ci95),
            f"{s.played_best_share:.1%}", str(s.fouls),
        )  # fmt: skip
    return table


def review_parts(result: Review, *, worst: int = 5) -> list[Table | Text]:
    """The renderables of a review: the summary by player, mistakes by kind, worst hands."""
    summaries = list(result.players)
    if len(summaries) != 1:
        summaries.append(result.overall)
    parts: list[Table | Text] = [_summary_table(summaries)]
    kinds = Table(box=None, pad_edge=False, title="mistakes by kind", title_justify="left")
    for column in ("player", "mistake", "hands", "EV lost"):
        kinds.add_column(column, justify="right" if column in ("hands", "EV lost") else "left")
    for s in summaries:
        for kind, tally in s.mistakes.items():
            kinds.add_row(s.player if s.player != "*" else "all", kind, str(tally.hands),
                          _fmt(tally.ev_lost))  # fmt: skip
    parts.append(kinds)
    if worst:
        table = Table(box=None, pad_edge=False, title="worst hands", title_justify="left")
        for column in ("player", "line", "EV lost", "played, best, mistakes"):
            table.add_column(column, justify="right" if column in ("line", "EV lost") else "left")
        for s in result.players:
            for hand in s.worst[:worst]:
                shown = Text("\n").join(
                    [
                        Text("played ") + _choice(hand.rows, hand.natural),
                        Text("best   ") + _choice(hand.best_rows, hand.best_natural),
                        Text(", ".join(hand.mistakes)),
                    ]
                )
                table.add_row(
                    s.player, "" if hand.line is None else str(hand.line), _fmt(hand.ev_lost),
                    shown,
                )  # fmt: skip
        parts.append(table)
    parts.append(Text(f"estimator: {result.estimator}"))
    return parts
