"""``cpsolver train``: self-play training of the expected-value tables of a rule set's table key
(:mod:`cpsolver.chinese.table_keys`): training any rule set trains its key, whose file then
serves every rule set of the key."""

from __future__ import annotations

import os
import time
from pathlib import Path

import click
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from cpsolver.chinese.ev_model import (
    TABLES_ENV,
    TablesError,
    load_model,
    save_model,
    table_filename,
    table_search_path,
    user_tables_dir,
)
from cpsolver.chinese.table_keys import table_key
from cpsolver.chinese.training import ChunkMap, IterationReport, train
from cpsolver.client.cli.main import main, rules_options
from cpsolver.client.cli.options import SEED
from cpsolver.client.cli.render import console as make_console
from cpsolver.errors import InvalidInputError
from cpsolver.rules.base import parse_assignments
from cpsolver.rules.chinese import ChineseRules

EXIT_NOT_CONVERGED = 5
"""``train`` wrote its tables but stopped at ``--iterations`` before the gain fell below
``--min-gain`` (the other codes are those of :mod:`cpsolver.client.cli.main`)."""


def _default_out() -> Path:
    return user_tables_dir()  # $XDG_DATA_HOME/cpsolver: solve reads it only when asked


@main.command("train")
@rules_options("Override a rule option (repeatable).", with_json=False)
@click.option(
    "--deals",
    default=20_000,
    show_default=True,
    type=click.IntRange(1),
    help="Deals per iteration.",
)
@click.option(
    "--iterations",
    default=10,
    show_default=True,
    type=click.IntRange(1),
    help="Most fictitious-play iterations (stops early once the gain is small).",
)
@click.option(
    "--seed", default=1, show_default=True, type=SEED,
    help="Seed of the self-play deals (the same seed, the same tables).",
)  # fmt: skip
@click.option(
    "--workers",
    default=os.cpu_count() or 1,
    show_default="all cores",
    type=click.IntRange(1),
    help="Worker processes (ignored with --ray).",
)
@click.option(
    "--ray",
    "ray_address",
    default=None,
    metavar="ADDRESS",
    help="Run the deal chunks as tasks on a Ray cluster: auto (this machine's cluster), "
    "HOST:PORT, ray://HOST:10001, or local (a private local Ray). Needs cpsolver[cluster].",
)
@click.option(
    "--warm-start",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="Start self-play from this table file's policy (e.g. the nearest trained key's) "
    "instead of the strength objective.",
)
@click.option(
    "--min-gain",
    default=0.01,
    show_default=True,
    type=float,
    help="Stop once an iteration gains less than this (units/deal) on the previous.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output directory [default: $XDG_DATA_HOME/cpsolver]. Solves read it only when "
    "CPSOLVER_TABLES names it; the shipped tables answer otherwise.",
)
def train_command(
    preset: str,
    assignments: tuple[str, ...],
    deals: int,
    iterations: int,
    seed: int,
    workers: int,
    ray_address: str | None,
    warm_start: Path | None,
    min_gain: float,
    out: Path | None,
) -> None:
    """Train the opponent model of a rule set's table key by self-play and write its file.

    Training any rule set trains its key (players 2, order weak, wheel lowest, naturals on;
    docs/EV.md), whose file serves every rule set of the key. Deterministic for a seed
    (whatever --workers, locally or on --ray). Stopping at --iterations before an iteration
    gains less than --min-gain writes the file, warns and exits 5 (under-trained tables).
    The shipped tables come from make tables (python -m cpsolver.chinese.make_tables); the
    standard key's command:

    \b
      cpsolver train --rules standard --set players=2 --deals 40000 --iterations 16
        --min-gain 0.001 --seed 2026 --out solver/data
    """
    asked = ChineseRules.resolve(preset, **parse_assignments(assignments))
    rules = table_key(asked)
    start_model = None
    if warm_start is not None:
        try:
            start_model = load_model(warm_start)
        except TablesError as exc:
            raise InvalidInputError("warm-start", str(exc)) from None
    chunk_map: ChunkMap | None = None
    if ray_address is not None:
        from cpsolver.cluster import connect, ray_map

        connect(ray_address)
        chunk_map = ray_map
    console = make_console(stderr=True)  # no markup: "[players=4 ...]" prints as given
    served = "" if asked == rules else f" (the table key of [{asked.describe()}])"
    target = f" -> {table_filename(rules)}"
    console.print(Text.assemble("training ", (rules.describe(), "bold"), served, target))
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    start = time.perf_counter()
    last: list[IterationReport] = []  # the last iteration's report (the check pass aside)
    with Progress(*columns, console=console, redirect_stdout=False) as bar:
        task = bar.add_task("self-play", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        def report(rep: IterationReport) -> None:
            gain = (
                ""
                if rep.gain is None
                else f", gain {rep.gain:+.4f} ± {1.96 * (rep.gain_se or 0):.4f}"
            )
            name = (
                "check (stored tables vs previous)" if rep.final else f"iteration {rep.iteration}"
            )
            bar.console.print(f"{name}: {rep.deals} deals, {rep.seconds:.1f} s{gain}")
            if not rep.final:
                last[:] = [rep]

        model = train(
            rules,
            deals=deals,
            iterations=iterations,
            seed=seed,
            workers=workers,
            min_gain=min_gain,
            progress=progress,
            report=report,
            chunk_map=chunk_map,
            warm_start=start_model,
        )
    path = save_model(model, out or _default_out())
    console.print(f"wrote {path} in {time.perf_counter() - start:.0f} s")
    searched = [d.resolve() for d in table_search_path()]
    if path.parent.resolve() not in searched:
        # Training never changes what solve answers unless asked (docs/EV.md, "Table files").
        console.print(
            f"solves still answer from the shipped tables; to use this file: "
            f"{TABLES_ENV}={path.parent} cpsolver solve ...",
            markup=False,
            soft_wrap=True,
        )
    gain = last[0].gain if last else None
    if gain is None or abs(gain) >= min_gain:
        # --iterations ran out before the stopping rule held: the tables work but their
        # policy is still moving, so the solves they drive are not near a fixed point. Say so
        # in the exit status too, for scripts (the file is written all the same).
        # The gain compares two iterations' policies, from iteration 2 on (1 with
        # --warm-start); the closing check's gain printed above compares the stored tables
        # with the last iteration's and says nothing about convergence.
        shown = (
            "no gain between two iterations measured: the first is iteration 2's, or 1's "
            "with --warm-start"
            if gain is None
            else f"last gain {gain:+.4f}, --min-gain {min_gain:g}"
        )
        console.print(
            f"warning: not converged after {iterations} iteration"
            f"{'s' if iterations > 1 else ''} ({shown}): the tables are under-trained; train "
            "again with more --iterations (3 at least)"
        )
        raise SystemExit(EXIT_NOT_CONVERGED)
