"""``make tables``: train every table key (:mod:`cpsolver.chinese.table_keys`) and write the
package's table files and manifest (docs/EV.md, "The shipped tables").

``python -m cpsolver.chinese.make_tables`` (what ``make tables`` runs) trains the shipped keys
(:func:`~cpsolver.chinese.table_keys.shipped_keys`: the :data:`~cpsolver.chinese.table_keys.
KEY_COUNT` keys of RULES §2.1-2.2, then the presets' of §2.5; ``--missing``: only those without
a file in ``--out``, warm-started from the files there) in the order of :func:`plan`: the first,
``standard`` (royalties standard, replace, per_row), from the ``strength`` policy, then once
more warm-started from its own file (:data:`RESTART`); every other
key **warm-started** from the nearest key already trained
(:func:`~cpsolver.chinese.table_keys.nearest_key`), which starts self-play close to its fixed
point and saves iterations. Each training is the one ``cpsolver train`` runs, with these
parameters (the defaults below; every file records its command):

    cpsolver train --rules standard --set players=2 [--set OPTION=VALUE ...] --deals 40000 \\
        --iterations 16 --min-gain 0.001 --seed 2026 --out solver/data [--warm-start FILE]

40,000 deals of 2 players are 80,000 hands per iteration, as many as the earlier presets'
20,000 deals of 4. ``--ray ADDRESS`` trains on a Ray cluster: the keys whose warm start is
ready train at the same time, and every pass's deal chunks are Ray tasks; the files are the
same bit for bit as a local run's. ``--dry-run`` prints the plan's commands; ``--only N``
trains the first N steps of the plan (e.g. for a timing). The manifest ``tables.json`` lists
the files the directory then holds (:data:`cpsolver.chinese.ev_model.MANIFEST`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cpsolver.chinese.ev_model import (
    MANIFEST,
    PACKAGE_DATA,
    OpponentModel,
    load_model,
    save_model,
    table_filename,
)
from cpsolver.chinese.table_keys import (
    differing,
    is_legacy,
    nearest_key,
    shipped_keys,
    table_key,
)
from cpsolver.chinese.training import ChunkMap, IterationReport, train
from cpsolver.rules.chinese import ChineseRules

__all__ = ["DEFAULTS", "Step", "main", "plan", "train_keys", "write_manifest"]

DEFAULTS = {"deals": 40_000, "iterations": 16, "min_gain": 0.001, "seed": 2026}
"""The parameters of the shipped tables."""

RESTART = True
"""Train the cold key a second time, warm-started from its own file (same parameters). Cold,
the self-play's blend of every earlier iteration moves slowly near the fixed point: the cold
``standard`` key stopped at a closing check of +0.0011 +/- 0.0020 units/deal yet played only
+0.0010 [-0.0011, +0.0031] better than the 20,000-deals-of-4 file it replaced, and that key
retrained once from its own file gained +0.0050 [+0.0019, +0.0081] at 3 players
(docs/EV.md, "Table keys"). Every other key starts warm already."""


@dataclass(frozen=True)
class Step:
    """One training of the plan: the key, and the key it warm-starts from (None: cold)."""

    key: ChineseRules
    warm_start: ChineseRules | None

    def command(self, *, deals: int, iterations: int, min_gain: float, seed: int, out: Path) -> str:
        """The equivalent ``cpsolver train`` command line (a preset's key from its preset)."""
        base, changes = "standard", differing(self.key)
        for name in ChineseRules.PRESETS:
            preset = ChineseRules.preset(name)
            if not is_legacy(preset) and table_key(preset) == self.key:
                base = name
                full = preset.to_dict(full=True)
                changes = {k: v for k, v in self.key.to_dict(full=True).items() if v != full[k]}
        sets = " ".join(f"--set {k}={_text(v)}" for k, v in changes.items())
        line = (
            f"cpsolver train --rules {base} {sets} --deals {deals} --iterations {iterations} "
            f"--min-gain {min_gain:g} --seed {seed} --out {out}"
        )
        if self.warm_start is not None:
            line += f" --warm-start {out / table_filename(self.warm_start)}"
        return line


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def plan(
    keys: Sequence[ChineseRules] | None = None, *, trained: Sequence[ChineseRules] = ()
) -> list[Step]:
    """The training order of ``keys`` (default :func:`~cpsolver.chinese.table_keys.
    shipped_keys`): the first key cold, then once more warm-started from itself (the
    *restart*, see :data:`RESTART`), then repeatedly the untrained key nearest to a trained
    one (ties in that order), warm-started from that nearest key. Keys already ``trained``
    (``--missing``: their files exist) are not trained again, only started from."""
    done = [table_key(k) for k in trained]
    todo = [table_key(k) for k in (keys if keys is not None else shipped_keys())]
    todo = [k for k in todo if k not in done]
    steps: list[Step] = []
    if todo and not done:
        first = todo.pop(0)
        steps.append(Step(first, None))
        if RESTART:
            steps.append(Step(first, first))
    while todo:
        trained_now = done + [s.key for s in steps]
        best = min(
            range(len(todo)),
            key=lambda i: (_distance(todo[i], nearest_key(todo[i], trained_now)), i),
        )
        key = todo.pop(best)
        steps.append(Step(key, nearest_key(key, trained_now)))
    return steps


def _distance(a: ChineseRules, b: ChineseRules | None) -> int:
    if b is None:
        return 99
    return sum(getattr(a, f) != getattr(b, f) for f in ("royalties", "royalty_mode", "scoring"))


def write_manifest(directory: Path) -> Path:
    """Write ``tables.json`` listing the key files ``directory`` holds (name -> key)."""
    files = {}
    for path in sorted(directory.glob("chinese-ev-*.npz")):
        model = load_model(path)
        files[path.name] = {"key": table_key(model.rules).to_dict()}
    manifest = {"format": "cpsolver-chinese-ev-manifest", "files": files}
    target = directory / MANIFEST
    target.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return target


Log = Callable[[str], None]


def train_keys(
    steps: Sequence[Step],
    out: Path,
    *,
    deals: int,
    iterations: int,
    min_gain: float,
    seed: int,
    workers: int = 1,
    chunk_map: ChunkMap | None = None,
    log: Log = print,
) -> dict[str, bool]:
    """Train ``steps`` into ``out`` (a warm start read from ``out``, where the earlier step
    wrote it); returns per file name whether its training converged. With ``chunk_map`` (Ray)
    the steps run concurrently, each once its warm start is written."""
    out.mkdir(parents=True, exist_ok=True)
    converged: dict[str, bool] = {}
    done = [threading.Event() for _ in steps]
    failures: list[BaseException] = []

    def run(index: int) -> None:
        step = steps[index]
        name = table_filename(step.key)
        start_model: OpponentModel | None = None
        if step.warm_start is not None:
            source = table_filename(step.warm_start)
            writers = [i for i in range(index) if table_filename(steps[i].key) == source]
            if writers:  # the last earlier step that writes it (a restart: its own cold run)
                done[writers[-1]].wait()
            start_model = load_model(out / source, step.warm_start)
        start = time.perf_counter()
        reports: list[IterationReport] = []
        model = train(
            step.key, deals=deals, iterations=iterations, seed=seed, workers=workers,
            min_gain=min_gain, report=reports.append, chunk_map=chunk_map,
            warm_start=start_model,
        )  # fmt: skip
        save_model(model, out)
        done[index].set()
        last = [r for r in reports if not r.final][-1]
        ok = last.gain is not None and abs(last.gain) < min_gain
        converged[name] = ok
        log(
            f"{name} [{step.key.describe()}]: {len(reports) - 1} iterations, "
            f"{time.perf_counter() - start:.0f} s{'' if ok else ', NOT converged'}"
        )

    if chunk_map is None:
        for index in range(len(steps)):
            run(index)
        return converged

    def guarded(index: int) -> None:
        try:
            run(index)
        except BaseException as exc:  # reported below; the waiting steps must not hang
            failures.append(exc)
        finally:
            done[index].set()

    threads = [threading.Thread(target=guarded, args=(i,), daemon=True) for i in range(len(steps))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return converged


def main(argv: Sequence[str] | None = None) -> int:
    """Command line (module doc); exit 0, or 5 when a training stopped before converging."""
    parser = argparse.ArgumentParser(prog="python -m cpsolver.chinese.make_tables")
    parser.add_argument("--out", type=Path, default=PACKAGE_DATA)
    parser.add_argument("--deals", type=int, default=DEFAULTS["deals"])
    parser.add_argument("--iterations", type=int, default=DEFAULTS["iterations"])
    parser.add_argument("--min-gain", type=float, default=DEFAULTS["min_gain"])
    parser.add_argument("--seed", type=int, default=DEFAULTS["seed"])
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--ray", metavar="ADDRESS", default=None)
    parser.add_argument("--only", type=int, default=None, metavar="N")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument(
        "--missing", action="store_true",
        help="train only the keys without a file in --out, warm-started from those there",
    )  # fmt: skip
    args = parser.parse_args(argv)
    trained = [k for k in shipped_keys() if (args.out / table_filename(k)).is_file()]
    steps = plan(trained=trained if args.missing else ())[: args.only]
    params = {
        "deals": args.deals,
        "iterations": args.iterations,
        "min_gain": args.min_gain,
        "seed": args.seed,
    }
    for step in steps:
        print(step.command(out=args.out, **params), flush=True)
    if args.dry_run:
        return 0
    chunk_map: ChunkMap | None = None
    if args.ray:
        from cpsolver.cluster import connect, ray_map

        connect(args.ray)
        chunk_map = ray_map
    start = time.perf_counter()
    converged = train_keys(
        steps, args.out, workers=args.workers, chunk_map=chunk_map,
        log=lambda line: print(line, flush=True), **params,
    )  # fmt: skip
    write_manifest(args.out)
    print(f"{len(steps)} steps in {time.perf_counter() - start:.0f} s", flush=True)
    late = sorted(name for name, ok in converged.items() if not ok)
    if late:
        print(f"not converged: {', '.join(late)}", file=sys.stderr)
        return 5
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
