"""Distance from optimal: the regret of our choice against a best response (issue 32).

For seeded random hands, per rule set: the top 20 arrangements by the table model (card
removal; the natural declaration too when the hand has one) and each estimator's choice
(``solve(cards, estimator=E)``: ``calibrated`` and ``model``) are re-scored by N rollouts
(:func:`cpsolver.chinese.rollouts.rollout`: the opponents dealt from the 39 unseen cards and
arranged by the library's own policy, the table model's, settled by the whole rule set; every
candidate meets the same deals, common random numbers). A hand's regret is the best of those
rollout means minus the choice's: what a best response among the top 20 gains over our choice
against our own policy (RULES §2.3). Reported with a 95% interval over hands.

A best-of-20 over noisy means is biased upward (the largest of 20 noisy values exceeds the
largest true value on average), so the regret on the same rollouts (``same``) is an upper
bound of the regret against the true best of the 20 in expectation. The pick is therefore
valued again, beside each choice, by ``--fresh`` rollouts of an independent seed: that regret
(``fresh``) is unbiased for what playing the pick instead gains, a lower bound in expectation
(the pick may not be the true best). The true regret against the best of the top 20 lies
between the two; their difference bounds the selection bias.

``--out FILE`` writes one JSON line per hand as it finishes; ``--summarise FILE`` prints the
table from such a file. The result depends on the seed only: hand ``i`` of the seeded list has
rollout seed ``seed * 1,000,003 + i``, so ``--first N`` (start at hand ``N``) splits a run into
parts, one per core, whose lines together are the whole run's.

    python -m bench.regret --hands 300 --rollouts 3000 --seed 1 --rules standard two_four
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from bench.calibration import hands_for
from bench.matches import mean_ci
from cpsolver.cards import Card
from cpsolver.chinese import ev_kernel as K
from cpsolver.chinese.ev import Candidate, analyse
from cpsolver.chinese.ev_model import model_for
from cpsolver.chinese.rollouts import rollout
from cpsolver.chinese.solve import solve
from cpsolver.rules.chinese import ChineseRules, Declare

TOP = 20
ESTIMATORS = ("calibrated", "model")
FRESH_SEED = 0xF8E5  # mixed into the fresh rollouts' seed: independent of the first ones

Key = tuple[tuple[int, int, int], str | None]


def key(c: Candidate) -> Key:
    """What identifies a candidate: its rows' classes and its natural declaration."""
    return c.classes, c.natural


def choices(
    cards: Sequence[Card], rules: ChineseRules, estimators: Iterable[str]
) -> dict[str, Candidate]:
    """Each estimator's choice for ``cards``: the first candidate of its ``solve``'s analysis."""
    out = {}
    for name in estimators:
        analysis = solve(cards, rules, estimator=name).analysis
        assert analysis is not None
        out[name] = analysis.candidates[0]
    return out


def regret(
    cards: Sequence[Card],
    rules: ChineseRules,
    chosen: Mapping[str, Candidate],
    *,
    n: int,
    seed: int,
    fresh: int = 0,
    top: int = TOP,
) -> dict[str, Any]:
    """One hand's regrets (module doc): ``same[name]`` = the best rollout mean of the top
    ``top`` and the choices minus ``chosen[name]``'s, on the same ``n`` rollouts of ``seed``;
    with ``fresh``, ``fresh[name]`` = the pick's mean minus the choice's on ``fresh`` rollouts
    of an independent seed."""
    model = model_for(rules)
    candidates = analyse(cards, rules, top=top, model=model)
    if rules.declare is Declare.AUTO and any(c.natural for c in candidates):
        candidates = [c for c in candidates if c.natural]  # CP-15: a natural held is declared
    top_keys = {key(c) for c in candidates}
    extra = {key(c): c for c in chosen.values() if key(c) not in top_keys}
    candidates += extra.values()
    scored = rollout(cards, rules, n=n, seed=seed, candidates=candidates, model=model)
    value = {key(c): c.score for c in scored}
    pick = scored[0]  # the best rollout mean: the best response's choice
    out: dict[str, Any] = {
        "same": {name: value[key(pick)] - value[key(c)] for name, c in chosen.items()},
        "outside_top": sorted(name for name, c in chosen.items() if key(c) in extra),
        "pick": [*pick.classes, pick.natural],
        "pick_value": pick.score,
    }
    if fresh:
        again = {key(pick): pick} | {key(c): c for c in chosen.values()}
        rescored = rollout(
            cards, rules, n=fresh, seed=seed ^ FRESH_SEED, candidates=list(again.values()),
            model=model,
        )  # fmt: skip
        fresh_value = {key(c): c.score for c in rescored}
        out["fresh"] = {
            name: fresh_value[key(pick)] - fresh_value[key(c)] for name, c in chosen.items()
        }
    return out


def summary(rows: list[dict[str, Any]]) -> list[str]:
    """Markdown rows, one per rule set and estimator, from per-hand results."""
    lines = []
    by_rules: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_rules.setdefault(row["rules"], []).append(row)
    for preset, hands in by_rules.items():
        for name in hands[0]["same"]:
            same = np.array([h["same"][name] for h in hands])
            m, half = mean_ci(same)
            cells = [
                preset, name, str(len(hands)), f"{hands[0]['rollouts']:,}",
                f"**{m:.4f}** [{m - half:.4f}, {m + half:.4f}]",
            ]  # fmt: skip
            if all("fresh" in h for h in hands):
                fresh = np.array([h["fresh"][name] for h in hands])
                f, fhalf = mean_ci(fresh)
                cells += [
                    f"{hands[0]['fresh_rollouts']:,}",
                    f"**{f:+.4f}** [{f - fhalf:+.4f}, {f + fhalf:+.4f}]",
                    f"{m - f:+.4f}",
                ]
            else:
                cells += ["-", "-", "-"]
            cells += [
                f"{np.mean(same > 0):.0%}",
                str(sum(name in h["outside_top"] for h in hands)),
                f"{np.median([h['seconds'] for h in hands]):.1f}",
            ]
            lines.append("| " + " | ".join(cells) + " |")
    return lines


HEADER = [
    "| rules | choice | hands | rollouts | regret, same rollouts (upper) [95% CI] | fresh "
    "rollouts | regret, fresh rollouts (lower) [95% CI] | same - fresh (selection bias, at "
    "most) | hands with regret > 0 | choice outside the top 20 | s/hand |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument(
        "--first", type=int, default=0,
        help="start at this hand of the seeded list (a run split in parts: the same rows)",
    )  # fmt: skip
    parser.add_argument("--rollouts", type=int, default=3000)
    parser.add_argument("--fresh", type=int, help="fresh rollouts (default: --rollouts; 0: none)")
    parser.add_argument("--top", type=int, default=TOP)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="*", default=["standard", "two_four"])
    parser.add_argument("--estimators", nargs="*", default=list(ESTIMATORS))
    parser.add_argument("--out", type=Path, help="JSON lines, one per hand")
    parser.add_argument("--summarise", type=Path, metavar="FILE", help="the table of an --out FILE")
    args = parser.parse_args()
    if args.summarise:
        print(
            "\n".join(
                HEADER + summary(list(map(json.loads, args.summarise.read_text().splitlines())))
            )
        )
        return
    fresh = args.rollouts if args.fresh is None else args.fresh
    print(f"command: python -m bench.regret {' '.join(sys.argv[1:])}")
    print(f"started {_now()}, load average {os.getloadavg()[0]:.2f}", flush=True)
    K.warm_up()
    rows = []
    for preset in args.rules:
        rules = ChineseRules.preset(preset)
        for i, hand in enumerate(hands_for(args.seed, args.hands)):
            if i < args.first:
                continue
            cards = [Card.from_index(c) for c in hand]
            start = time.perf_counter()
            chosen = choices(cards, rules, args.estimators)
            found = regret(
                cards, rules, chosen, n=args.rollouts, seed=args.seed * 1_000_003 + i,
                fresh=fresh, top=args.top,
            )  # fmt: skip
            row = {
                "rules": preset, "hand": hand, "rollouts": args.rollouts,
                "fresh_rollouts": fresh, **found, "seconds": time.perf_counter() - start,
            }  # fmt: skip
            rows.append(row)
            if args.out:
                with args.out.open("a") as f:
                    f.write(json.dumps(row) + "\n")
    print(f"finished {_now()}, load average {os.getloadavg()[0]:.2f}")
    print("\n".join(HEADER + summary(rows)))


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


if __name__ == "__main__":
    main()
