"""The fold proofs of the table keys (issue 13 item 2; docs/EV.md, "Table keys").

A rule set is served by the model of its table key (``players`` -> 2, ``order`` -> weak,
``wheel`` -> lowest with the distributions permuted, ``naturals`` -> on). For each folded
option this trains a **dedicated** model for two affected rule sets - self-play under the
exact rule set asked, not its key - warm-started from the key's shipped file with the
parameters of ``make tables`` (``--deals 40000 --iterations 16 --min-gain 0.001 --seed 2026``;
at the rule set's own player count, which is 2 except for the ``players`` rows), and plays a
duplicate match (``bench.matches.duplicate``: the dedicated model's ``ev`` policy in one seat,
the shipped model's in the others, every seat in turn) under that rule set: both with card
removal, as ``solve`` plays. The figure is the dedicated model's gain in units per deal and
its 95% CI; the fold holds when the CI's upper end is <= 0.005 (issue 13).

A *control* row (:data:`CONTROLS`) retrains a key itself the same way (40,000 deals of 2,
warm-started from its shipped file) and plays it under a rule set of the key: the part of a
gain that comes from more training of the key rather than from the folded option; the
dedicated model of that rule set is then also played against this retrained key.

The dedicated models are written under ``--out`` (one directory per rule set, named by its
fingerprint; never on the tables' search path) and reused when present; they are not shipped.
``royalty_mode`` under ``royalties=none`` is exact and proved by a test instead
(``tests/test_folds.py``: both modes train to bit-identical arrays).

    python -m bench.folds --out build/folds          # the 8 rule sets and the control (make folds)
    python -m bench.folds --only wheel --match-deals 2000
    python -m bench.folds --only players --case "standard players=3"   # that row alone
    python -m bench.folds --file OLD.npz                # only that file's match
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bench.matches import duplicate, mean_ci
from cpsolver.chinese import ev_kernel as K
from cpsolver.chinese.ev_model import (
    PACKAGE_DATA,
    OpponentModel,
    load_model,
    save_model,
    serve,
    table_filename,
)
from cpsolver.chinese.make_tables import DEFAULTS
from cpsolver.chinese.table_keys import differing, table_key
from cpsolver.chinese.training import deal_hands, play_policy, train
from cpsolver.rules.chinese import ChineseRules

TARGET = 0.005
"""The most the dedicated model may gain over the shared one, units/deal (upper 95% end)."""


@dataclass(frozen=True)
class Case:
    """One affected rule set of a folded option: the match is played under ``rules``, the
    dedicated model trained under ``trained`` (default: ``rules`` itself; a *control* trains
    the key itself the same way, to tell the fold apart from the extra training)."""

    option: str
    rules: ChineseRules
    trained: ChineseRules | None = None

    @property
    def training_rules(self) -> ChineseRules:
        """The rule set the dedicated model's self-play runs under."""
        return self.rules if self.trained is None else self.trained

    @property
    def label(self) -> str:
        """The rule set as preset and options (for the table)."""
        return _label(self.rules)


def _label(rules: ChineseRules) -> str:
    options = {"players": rules.players, **differing(rules)}
    return "standard " + " ".join(
        f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items()
    )


def _rules(**options: object) -> ChineseRules:
    return ChineseRules.preset("standard", **{"players": 2, **options})


CASES = (
    # one rule set per option first (the cheapest deals), then the second ones
    Case("order", _rules(order="strict")),
    Case("wheel", _rules(wheel="second_highest")),
    Case("naturals", _rules(naturals=False)),
    Case("players", _rules(players=3)),
    Case("order", _rules(royalties="eastern", order="strict")),
    Case("wheel", _rules(royalties="none", wheel="second_highest")),
    Case("naturals", _rules(royalty_mode="add", naturals=False)),
    Case("players", _rules(royalties="none", players=4)),
)
"""The affected rule sets: for each folded option two rule sets of different keys (until
2026-12-03 the ``standard`` key's file was trained at 4 players, the others' at 2, so the
``players`` rows tested the fold in both directions; every key file is trained at 2 now)."""

CONTROLS = (
    # the standard key itself retrained as the dedicated models are (40,000 deals of 2, warm-
    # started from its shipped file), played under players=3: how much of the players=3 row
    # is the extra training rather than the player count
    Case("control", _rules(players=3), trained=_rules()),
)
"""Controls: a key retrained like a dedicated model, matched under a rule set it serves."""


def shipped_model(rules: ChineseRules) -> OpponentModel:
    """The shipped (shared) model serving ``rules``: the key's file in the package data,
    served to the asked rule set exactly as ``model_for`` does (read from the package, not
    from the search path, so a user's own tables cannot stand in)."""
    key_model = load_model(PACKAGE_DATA / table_filename(rules), rules)
    return serve(key_model, rules)


def dedicated_path(rules: ChineseRules, out: Path) -> Path:
    """Where the dedicated model of ``rules`` is written (a directory per rule set)."""
    return out / rules.fingerprint() / table_filename(rules)


def train_dedicated(
    rules: ChineseRules,
    *,
    deals: int,
    iterations: int,
    min_gain: float,
    seed: int,
    workers: int = 1,
    warm_start: OpponentModel | None = None,
) -> OpponentModel:
    """Self-play under ``rules`` itself (not its key), warm-started from ``warm_start``
    (default: the shipped model serving ``rules``); the file's command names this module."""
    start = shipped_model(rules) if warm_start is None else warm_start
    model = train(
        rules, deals=deals, iterations=iterations, seed=seed, workers=workers,
        min_gain=min_gain, warm_start=start,
    )  # fmt: skip
    meta = dict(model.meta)
    meta["command"] = (
        f"python -m bench.folds (dedicated model of [{rules.describe()}], not its key; "
        f"--deals {deals} --iterations {iterations} --min-gain {min_gain:g} --seed {seed}, "
        f"warm start {table_filename(start.rules)} served to the rule set)"
    )
    meta["dedicated"] = True
    return replace(model, meta=meta)


def match(
    rules: ChineseRules, a: OpponentModel, b: OpponentModel, deals: int, seed: int
) -> npt.NDArray[np.float64]:
    """A duplicate match under ``rules``: ``a``'s ``ev`` policy in one seat, ``b``'s in the
    others, every seat in turn on the same seeded deals; ``a``'s units per deal."""
    rng = np.random.default_rng(np.random.SeedSequence((seed, 0xF01D)))
    hands = deal_hands(rng, deals, rules.players).reshape(-1, 13)
    return duplicate(rules, play_policy(hands, rules, a), play_policy(hands, rules, b), deals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("build/folds"))
    parser.add_argument("--deals", type=int, default=DEFAULTS["deals"])
    parser.add_argument("--iterations", type=int, default=DEFAULTS["iterations"])
    parser.add_argument("--min-gain", type=float, default=DEFAULTS["min_gain"])
    parser.add_argument("--seed", type=int, default=DEFAULTS["seed"], help="training seed")
    parser.add_argument("--match-deals", type=int, default=10_000)
    parser.add_argument("--match-seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--only",
        nargs="*",
        choices=sorted({c.option for c in (*CASES, *CONTROLS)}),
        help="these options (or the control)",
    )
    parser.add_argument(
        "--case",
        action="append",
        default=[],
        choices=sorted({c.label for c in (*CASES, *CONTROLS)}),
        help="only the rule sets so labelled (with --only: of those options too)",
    )
    parser.add_argument(
        "--file",
        type=Path,
        action="append",
        default=[],
        help="also play this table file as the dedicated model of the rule set it was trained "
        "for (e.g. an earlier shipped file trained under a folded option)",
    )
    args = parser.parse_args()
    K.warm_up()
    print(
        "| rule set | option | key trained at | dedicated: iterations, s | deals "
        "| dedicated - shared, units/deal | 95% CI | met (upper <= 0.005) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for file in args.file:
        model = load_model(file)
        rules = model.rules
        res = match(rules, model, shipped_model(rules), args.match_deals, args.match_seed)
        _row(f"{_label(rules)} ({file.name})", "file", rules, model, "-", res, args.match_deals)
    for case in (*CASES, *CONTROLS):
        if (args.only or args.file) and case.option not in (args.only or []):
            continue  # with --file, only the cases --only names
        if args.case and case.label not in args.case:
            continue
        rules, training = case.rules, case.training_rules
        assert table_key(rules) != rules, "an affected rule set is never its own key"
        shared = shipped_model(rules)
        path = dedicated_path(training, args.out)
        start = time.perf_counter()
        if path.is_file():
            dedicated = load_model(path)
            if dedicated.rules != training:
                raise SystemExit(f"{path}: trained for [{dedicated.rules.describe()}]")
            trained = "reused"
        else:
            dedicated = train_dedicated(
                training, deals=args.deals, iterations=args.iterations,
                min_gain=args.min_gain, seed=args.seed, workers=args.workers,
            )  # fmt: skip
            save_model(dedicated, path.parent)
            trained = f"{time.perf_counter() - start:.0f}"
        dedicated = serve(dedicated, rules)
        res = match(rules, dedicated, shared, args.match_deals, args.match_seed)
        option = case.option
        if case.trained is not None:
            option += f" (key trained as [{_label(case.trained)}])"
        _row(case.label, option, rules, dedicated, trained, res, args.match_deals)
        if case.trained is not None and dedicated_path(rules, args.out).is_file():
            # the dedicated model of the rule set against the key retrained the same way:
            # the fold alone, the extra training on both sides
            own = load_model(dedicated_path(rules, args.out))
            res = match(rules, own, dedicated, args.match_deals, args.match_seed)
            option = f"{case.option}: dedicated vs the key retrained so"
            _row(case.label, option, rules, own, "reused", res, args.match_deals)


@cache
def _key_players(rules: ChineseRules) -> int:
    """How many players the shipped file of ``rules``' key was trained at (read once)."""
    return load_model(PACKAGE_DATA / table_filename(rules)).rules.players


def _row(
    label: str,
    option: str,
    rules: ChineseRules,
    dedicated: OpponentModel,
    seconds: str,
    res: npt.NDArray[np.float64],
    deals: int,
) -> None:
    mean, half = mean_ci(res)
    key_players = _key_players(rules)
    print(
        f"| {label} | {option} | {key_players} players "
        f"| {dedicated.meta.get('iterations_run')}, {seconds} | {deals} "
        f"| {mean:+.4f} | [{mean - half:+.4f}, {mean + half:+.4f}] "
        f"| {'yes' if mean + half <= TARGET else 'NO'} |",
        flush=True,
    )


if __name__ == "__main__":
    main()
