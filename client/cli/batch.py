"""``cpsolver batch``: solve many hands, JSON lines out in input order (docs/CLI-JSON.md).

Input (a file or stdin), one hand per line: 13 cards as text (``As Ks Qs ...``) or a JSON
object ``{"cards": "As Ks ..." | ["As", "Ks", ...], "id": <any JSON value, echoed>}``. Blank
lines and lines starting with ``#`` are not hands and are skipped (line numbers still count
them); a line longer than :data:`~cpsolver.client.cli.jsonin.MAX_LINE_BYTES` (64 KiB) is
that line's error, not read whole. Output, one line per hand, in input order::

    {"line": 1, "ok": true, "solution": {... as `cpsolver solve --json` ...}}
    {"line": 2, "ok": false, "error": {"message": "...", "violations": [{"field", "description"}]}}

(plus ``"id"`` when the input line had one). ``--on-error skip`` (the default) writes the error
object and goes on, then prints a summary of the bad lines on stderr; ``--on-error stop`` stops
at the first bad line and reports it on stderr. Either way a bad line makes the exit code 2.
In-process the hands go through :func:`solver.solve_many` in chunks (all cores); with
``--server`` through ``BatchSolve`` streaming; with ``--ray ADDRESS`` as chunk tasks on a Ray
cluster (:class:`cpsolver.cluster.RaySolver`, the ``cluster`` extra), same lines in the same
order.
"""

from __future__ import annotations

import json
import os
import sys
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from cpsolver.chinese.estimator import DEFAULT_ESTIMATOR, Estimator
from cpsolver.chinese.objectives import DEFAULT_OBJECTIVE, get_objective, objective_names
from cpsolver.client.cli.asking import asked, estimate_options
from cpsolver.client.cli.jsonin import (
    FIELD,
    MAX_LINE_BYTES,
    bounded_lines,
    decode_json,
    open_input,
    where,
)
from cpsolver.client.cli.main import (
    EXIT_BAD_INPUT,
    complete_objectives,
    main,
    remote_options,
    rules_options,
)
from cpsolver.client.cli.render import console
from cpsolver.client.local import LocalSolver
from cpsolver.client.solver import Solver
from cpsolver.errors import CpsolverError, InvalidInputError
from cpsolver.rules import parse_assignments
from cpsolver.warmup import warm_up_search

__all__ = ["Line", "read_lines"]

_KEYS = frozenset({"cards", "id"})


@dataclass
class Line:
    """One input hand: its 1-based line number, cards (text or list), id, or why it is bad."""

    number: int
    cards: Any = None
    id: Any = None
    has_id: bool = False
    error: CpsolverError | None = None


def _parse(number: int, text: str, source: str, column: int) -> Line:
    if not text.startswith("{"):
        return Line(number, cards=text)
    try:
        item = decode_json(text, source, line=number, column=column)
    except InvalidInputError as exc:
        return Line(number, error=exc)
    if not isinstance(item, dict):
        return Line(number, error=InvalidInputError("", "expected a JSON object"))
    line = Line(number, cards=item.get("cards"), id=item.get("id"), has_id="id" in item)
    unknown = sorted(set(item) - _KEYS)
    if unknown:
        line.error = InvalidInputError(unknown[0], "unknown key; a line has cards and id")
    elif not isinstance(line.cards, str | list):
        line.error = InvalidInputError("cards", "required: a string or a list of cards")
    return line


def _too_long(limit: int) -> InvalidInputError:
    return InvalidInputError(
        FIELD, f"line longer than {limit:,} bytes, the most a batch line may hold; not read"
    )


def read_lines(
    stream: IO[bytes], source: str = "-", *, limit: int = MAX_LINE_BYTES
) -> Iterator[Line]:
    """The hands of an input stream (blank and ``#`` lines skipped); a line longer than
    ``limit`` bytes, or not UTF-8, is that line's error (never read whole: memory stays
    bounded).

    >>> import io
    >>> [(x.number, x.cards, x.error) for x in read_lines(io.BytesIO(b"# c\\n\\nAs Ks\\n"))]
    [(3, 'As Ks', None)]
    >>> [str(x.error) for x in read_lines(io.BytesIO(b"As Ks Qs Js " * 2), limit=16)]
    ['input: line longer than 16 bytes, the most a batch line may hold; not read']
    """
    for number, raw in bounded_lines(stream, limit):
        if raw is None:
            yield Line(number, error=_too_long(limit))
            continue
        try:
            decoded = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            reason = f"{where(source)}: line {number} is not UTF-8 text: {exc.reason}"
            bad = InvalidInputError(FIELD, reason)
            yield Line(number, error=bad)
            continue
        text = decoded.strip()
        if text and not text.startswith("#"):
            yield _parse(number, text, source, len(decoded) - len(decoded.lstrip()) + 1)


def _error_dict(exc: CpsolverError) -> dict[str, Any]:
    violations = getattr(exc, "violations", ())
    return {
        "message": str(exc),
        "violations": [{"field": v.field, "description": v.description} for v in violations],
    }


def _record(line: Line, result: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"line": line.number}
    if line.has_id:
        record["id"] = line.id
    if isinstance(result, CpsolverError):
        record["ok"] = False
        record["error"] = _error_dict(result)
    else:
        record["ok"] = True
        record["solution"] = result.to_dict()
    return record


def _results(
    lines: Iterator[Line], solver: Solver, rules: str, objective: str, asking: dict[str, Any],
    overrides: dict[str, Any],
) -> Iterator[tuple[Line, Any]]:  # fmt: skip
    """(line, Solution or exception) in input order; bad lines never reach the solver."""
    pending: deque[Line] = deque()

    def hands() -> Iterator[Any]:
        for line in lines:
            pending.append(line)
            if line.error is None:
                yield line.cards

    solved = solver.solve_batch(hands(), rules, objective, **asking, **overrides)
    for result in solved:
        while pending[0].error is not None:
            bad = pending.popleft()
            yield bad, bad.error
        yield pending.popleft(), result
    while pending:
        bad = pending.popleft()
        yield bad, bad.error


def _check_estimate(objective: str, estimator: Estimator) -> None:
    """Refuse, before any line is read, a named estimate the objective cannot have (every
    batch line has 13 cards and no constraints, so the objective alone decides), by the
    library's own check: over ``--server`` each chunk would otherwise be refused on its own."""
    from cpsolver.chinese.ev import EvObjective
    from cpsolver.chinese.solve import refuse_finer_estimate

    if not isinstance(get_objective(objective), EvObjective):
        refuse_finer_estimate(estimator)


def _count(file: str) -> int | None:
    if file == "-" or not os.path.isfile(file):
        return None
    with open(file, "rb") as handle:
        return sum(
            1
            for _, raw in bounded_lines(handle)
            if raw is None or (raw.strip() and not raw.lstrip().startswith(b"#"))
        )


@main.command()
@click.argument("file", default="-", metavar="[FILE|-]")
@rules_options("Override one rule option (repeatable), e.g. --set order=strict.", with_json=False)
@click.option(
    "--objective", default=DEFAULT_OBJECTIVE, show_default=True,
    help=f"What to maximise: {', '.join(objective_names())}.",
    shell_complete=complete_objectives,
)  # fmt: skip
@estimate_options(DEFAULT_ESTIMATOR, "of each hand")
@click.option(
    "--on-error", type=click.Choice(["skip", "stop"]), default="skip", show_default=True,
    help="A bad line: write its error object and go on (skip), or stop there (stop).",
)  # fmt: skip
@click.option(
    "--ray", "ray_address", default=None, metavar="ADDRESS",
    help="Solve on a Ray cluster: auto, HOST:PORT, ray://HOST:10001 or local (cpsolver[cluster]).",
)  # fmt: skip
@remote_options
def batch(
    file: str,
    preset: str,
    assignments: tuple[str, ...],
    objective: str,
    seed: int,
    on_error: str,
    ray_address: str | None,
    solver: Solver,
    **asking: Any,
) -> None:
    """Solve hands read from FILE or stdin (one per line: cards, or JSON with "cards" and
    "id"); write one JSON line per hand, in input order. A progress bar shows on a terminal.
    Bad lines are reported with their line numbers; any bad line makes the exit code 2."""
    overrides: dict[str, Any] = parse_assignments(assignments)
    estimator, count = asked(DEFAULT_ESTIMATOR, asking)
    _check_estimate(objective, estimator)
    if ray_address is not None:
        if not isinstance(solver, LocalSolver):
            raise InvalidInputError("ray", "--ray and --server exclude each other")
        from cpsolver.cluster import RaySolver

        solver = RaySolver(ray_address)  # type: ignore[assignment]
    total = _count(file)
    stream = open_input(file)
    if isinstance(solver, LocalSolver):
        warm_up_search()  # not for Ray: the workers load their own (serial) kernels
    err = console(stderr=True)
    progress = Progress(
        TextColumn("solving"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=err, transient=True, disable=not err.is_terminal,
        # rich redirects stdout through its console by default: with stderr on a terminal
        # the JSON lines would go to the screen, not to ``> out.jsonl``.
        redirect_stdout=False, redirect_stderr=False,
    )  # fmt: skip
    bad: list[int] = []
    done = 0
    with stream, progress:
        task = progress.add_task("solving", total=total)
        results = _results(
            read_lines(stream, file), solver, preset, objective,
            {"estimator": estimator, "arrangements": count, "seed": seed}, overrides,
        )  # fmt: skip
        for line, result in results:
            if isinstance(result, CpsolverError) and on_error == "stop":
                sys.stdout.flush()
                click.echo(f"error: line {line.number}: {result}", err=True)
                raise SystemExit(EXIT_BAD_INPUT)
            if isinstance(result, CpsolverError):
                bad.append(line.number)
            sys.stdout.write(json.dumps(_record(line, result), ensure_ascii=False) + "\n")
            done += 1
            progress.advance(task)
    sys.stdout.flush()
    if bad:
        shown = ", ".join(map(str, bad[:20])) + (", ..." if len(bad) > 20 else "")
        click.echo(
            f"batch: {done - len(bad)} of {done} hands solved; {len(bad)} bad "
            f"line{'s' if len(bad) > 1 else ''} ({shown}) written as error objects",
            err=True,
        )
        raise SystemExit(EXIT_BAD_INPUT)
