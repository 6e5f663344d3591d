"""Duplicate matches between arrangement policies (issue 3 evidence; docs/BENCHMARKS.md).

Each deal gives every seat 13 cards. Player A takes one seat and player B every other seat;
A moves through all seats on the same deal ("seats rotated"), so every hand is played once by
A against the same opponents' hands played by B, and the luck of the deal cancels. A deal's
result is A's mean units over its seats (CP-7..CP-11, nobody fouls: every policy here returns
valid splits). We report the mean over deals and its 95% confidence interval.

Policies: ``ev`` (the shipped tables with card removal; naturals declared by EV),
``previous`` (the same with the previous training iteration's tables), ``full-deck tables``
(the shipped tables without card removal: the objective before issue 14), ``baseline
tables`` (with ``--baseline DIR``: other table files, without card removal), ``strength``
(strongest back, then middle, then front), ``percentile`` (maximise the sum of each row's
percentile rank among all 5-card hands, or all 3-card fronts for the front) and
``calibrated`` (``solve(cards, calibrated=True)``: the ``ev`` top 10 re-scored against the
weighted opponent pool, issue 14; played only when named), and ``calibrated, whole pool`` (the
same with every pool hand summed: what the first pass of issue 32 changes). The
deterministic policies always declare a natural, as ``solve`` does for them. ``--player NAME``
puts another policy than ``ev`` in seat A. ``stand-in`` (issue 28): under a rule set of RULES
§2.5 whose own key is trained (its file named by ``CPSOLVER_TABLES``), the shipped stand-in
key's opponents served to it (what answers while its key is untrained, docs/EV.md).

    python -m bench.matches --deals 10000 --seed 1
    python -m bench.matches --rules standard --set players=2 --rivals strength percentile
    python -m bench.matches --player calibrated --rivals ev
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from math import comb
from pathlib import Path

import numba as nb
import numpy as np
import numpy.typing as npt

from cpsolver.cards import Card
from cpsolver.chinese import ev_kernel as K
from cpsolver.chinese.ev import Candidate
from cpsolver.chinese.ev_model import (
    kernel_mode,
    load_model,
    model_for,
    natural_code,
    row_values,
    serve,
    table_filename,
    tables_info,
)
from cpsolver.chinese.pool import calibrate, calibrate_many, calibrated_candidates_many
from cpsolver.chinese.search import search_pairing_batch
from cpsolver.chinese.table_keys import is_legacy, stand_in_key, table_key
from cpsolver.chinese.training import deal_hands, play_policy
from cpsolver.evaluator.poker import MULTISET_WEIGHTS, NUM_CLASSES, poker_tables
from cpsolver.rules.chinese import ChineseRules

Policy = Callable[[npt.NDArray[np.int8]], tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]


def class_counts(wheel_second_highest: bool = False) -> npt.NDArray[np.int64]:
    """How many of the 2,598,960 five-card hands and 22,100 fronts fall in each class."""
    t = poker_tables(wheel_second_highest)
    counts = np.zeros(NUM_CLASSES, dtype=np.int64)
    for k, weights in ((5, None), (3, None)):
        del weights
        combos = np.fromiter(
            itertools.chain.from_iterable(itertools.combinations(range(52), k)), dtype=np.int64
        ).reshape(-1, k)
        ranks = combos >> 2
        index = sum(MULTISET_WEIGHTS[j][ranks[:, j]].astype(np.int64) for j in range(k))
        if k == 3:
            cls = t.front3[index]
        else:
            suits = combos & 3
            flush = (suits == suits[:, :1]).all(axis=1)
            mask = np.bitwise_or.reduce(1 << ranks, axis=1)
            cls = np.where(flush, t.flush5[mask], t.nonflush5[index])
        counts += np.bincount(cls, minlength=NUM_CLASSES)
    assert counts.sum() == comb(52, 5) + comb(52, 3)
    return counts


def percentile_tables(rules: ChineseRules) -> npt.NDArray[np.float64]:
    """Additive tables: each row's percentile rank (share of weaker hands + half the ties)."""
    t = poker_tables(rules.wheel_second_highest)
    counts = class_counts(rules.wheel_second_highest).astype(np.float64)
    tables = np.zeros((3, K.NUM_FIELDS, NUM_CLASSES))
    for r, mask in enumerate((t.is_front, ~t.is_front, ~t.is_front)):
        c = np.where(mask, counts, 0.0)
        below = np.cumsum(c) - c
        tables[r, K.F_ADD] = np.where(mask, (below + c / 2) / c.sum(), -1e9)
    return tables


def additive_policy(rules: ChineseRules, tables: npt.NDArray[np.float64]) -> Policy:
    """Maximise additive tables; declare any natural (as solve does for these objectives)."""
    poker = poker_tables(rules.wheel_second_highest)

    def play(hands: npt.NDArray[np.int8]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        _, classes = search_pairing_batch(
            hands, tables, poker, mode=K.MODE_ADDITIVE, strict=rules.strict_order
        )
        natural = np.zeros(len(hands), dtype=np.int64)
        if rules.naturals and rules.natural_table is None:
            natural = np.array([K.natural_code(h) for h in hands], dtype=np.int64)
        elif rules.naturals:  # RULES §2.5: the rule set's own list, ranked as it lists them
            order = K.kernel_terms(rules).order
            natural = K.natural_codes(np.ascontiguousarray(hands, dtype=np.int8), order)
        return np.ascontiguousarray(classes[:, ::-1]), natural

    return play


CALIBRATED_CHUNK = 256  # hands a thread of the calibrated policy scores at once


def calibrated_policy(rules: ChineseRules, *, whole: bool = False) -> Policy:
    """``solve(cards, estimator="calibrated")``'s choice for each hand (module doc), its
    candidates re-scored as ``solve_many`` does (chunks on two threads, each chunk's scans and
    pool sums one call: the same values as ``calibrate`` hand by hand); ``whole``: with every
    pool hand summed, not the first pass when it decides (``calibrated, whole pool``)."""
    model = model_for(rules)

    def scored_chunk(cards: list[list[Card]]) -> list[list[Candidate]]:
        found = calibrated_candidates_many(cards, rules, model=model)
        if whole:
            return [calibrate(c, rules, f, whole=True) for c, f in zip(cards, found, strict=True)]
        return calibrate_many(cards, rules, found)

    def play(hands: npt.NDArray[np.int8]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        cards = [[Card.from_index(int(c)) for c in hand] for hand in hands]
        chunks = [cards[a : a + CALIBRATED_CHUNK] for a in range(0, len(cards), CALIBRATED_CHUNK)]
        with ThreadPoolExecutor(2) as threads:
            scored = [s for part in threads.map(scored_chunk, chunks) for s in part]
        rows = np.zeros((hands.shape[0], 3), dtype=np.int64)
        natural = np.zeros(hands.shape[0], dtype=np.int64)
        for i, candidates in enumerate(scored):
            rows[i] = next(c for c in candidates if c.natural is None).classes
            best = candidates[0].natural
            natural[i] = natural_code(rules, best) if best else 0
        return rows, natural

    return play


def policies(rules: ChineseRules, baseline: Path | None = None) -> dict[str, Policy]:
    """The policies compared, by name (``baseline``: a directory of other table files, played
    without card removal as ``baseline tables``)."""
    model = model_for(rules)
    previous = model.previous()
    strength = np.zeros((3, K.NUM_FIELDS, NUM_CLASSES))
    cls = np.arange(NUM_CLASSES, dtype=np.float64)
    strength[0, K.F_ADD], strength[1, K.F_ADD], strength[2, K.F_ADD] = (
        cls,
        cls * NUM_CLASSES,
        cls * NUM_CLASSES**2,
    )
    extra: dict[str, Policy] = {}
    key = table_key(rules)
    stand_in = stand_in_key(key)
    if stand_in != key and not tables_info(rules).stand_in:
        # The rule set's own key is trained (CPSOLVER_TABLES): its stand-in, for comparison.
        standing = serve(model_for(stand_in), rules)
        extra["stand-in"] = lambda h: play_policy(h, rules, standing)
    if baseline is not None:
        other = load_model(baseline / table_filename(rules), rules)
        extra["baseline tables"] = lambda h: play_policy(h, rules, other, card_removal=False)
    return extra | {
        "ev": lambda h: play_policy(h, rules, model),
        "previous": lambda h: play_policy(h, rules, previous),
        "full-deck tables": lambda h: play_policy(h, rules, model, card_removal=False),
        "strength": additive_policy(rules, strength),
        "percentile": additive_policy(rules, percentile_tables(rules)),
        "calibrated": calibrated_policy(rules),
        "calibrated, whole pool": calibrated_policy(rules, whole=True),
    }


@nb.njit(cache=True)
def _duplicate(
    rows_a: npt.NDArray[np.int64],
    nat_a: npt.NDArray[np.int64],
    rows_b: npt.NDArray[np.int64],
    nat_b: npt.NDArray[np.int64],
    values: npt.NDArray[np.float64],
    scoring: int,
    units: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]:
    deals, p = nat_a.shape
    out = np.zeros(deals)
    for d in range(deals):
        for seat in range(p):
            for o in range(p):
                if o != seat:
                    out[d] += K.settle_pair(
                        rows_a[d, seat], rows_b[d, o], False, False, nat_a[d, seat],
                        nat_b[d, o], values, scoring, units,
                    )  # fmt: skip
    return out / p


def mean_ci(values: npt.ArrayLike) -> tuple[float, float]:
    """The mean of per-deal (or per-hand) figures and the half-width of its 95% confidence
    interval (normal approximation: 1.96 standard errors), as every table here reports them.

    >>> mean, half = mean_ci([1.0, 3.0])  # standard error 1
    >>> mean, round(half, 6)
    (2.0, 1.96)
    """
    a = np.asarray(values, dtype=np.float64)
    return float(a.mean()), 1.96 * float(a.std(ddof=1)) / float(np.sqrt(len(a)))


def duplicate(
    rules: ChineseRules,
    a: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]],
    b: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]],
    deals: int,
) -> npt.NDArray[np.float64]:
    """A's mean units per deal over its seats (A in one seat, B in the others), per deal; a
    rule set of RULES §2.5 settles each table whole (ev_kernel.settle_table_candidates: its
    own settlement, the sweep included)."""
    p = rules.players
    if not is_legacy(rules):
        rows_a, nat_a = a[0].reshape(deals, p, 3), a[1].reshape(deals, p)
        rows_b, nat_b = b[0].reshape(deals, p, 3), b[1].reshape(deals, p)
        terms = K.kernel_terms(rules).args()
        out = np.zeros(deals)
        for seat in range(p):
            others = [o for o in range(p) if o != seat]
            for d in range(deals):
                out[d] += K.settle_table_candidates(
                    rows_a[d, seat : seat + 1], nat_a[d, seat : seat + 1],
                    rows_b[d, others][None], nat_b[d, others][None], *terms,
                )[0, 0]  # fmt: skip
        return out / p
    return _duplicate(  # type: ignore[no-any-return]
        a[0].reshape(deals, p, 3), a[1].reshape(deals, p), b[0].reshape(deals, p, 3),
        b[1].reshape(deals, p), row_values(rules), kernel_mode(rules), K.NATURAL_UNITS,
    )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="*", default=["standard", "two_four"])
    parser.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="change an option of every --rules preset (repeatable), e.g. --set players=2",
    )
    parser.add_argument(
        "--baseline", type=Path, help="directory of older table files to play (no card removal)"
    )
    parser.add_argument("--rivals", nargs="*", help="play only these rivals (default: all of them)")
    parser.add_argument("--player", default="ev", help="the policy in seat A (default ev)")
    args = parser.parse_args()
    K.warm_up()
    me = args.player
    print(f"| rules | {me} vs | deals | mean units/deal for {me} | 95% CI |")
    print("|---|---|---|---|---|")
    if any("=" not in item for item in args.sets):
        parser.error("--set takes OPTION=VALUE")
    overrides = dict(item.split("=", 1) for item in args.sets)
    for preset in args.rules:
        rules = ChineseRules.resolve(preset, **overrides)
        label = " ".join([preset, *args.sets])
        rng = np.random.default_rng(np.random.SeedSequence((args.seed, 0xBE)))
        hands = deal_hands(rng, args.deals, rules.players).reshape(-1, 13)
        played = {}
        wanted = {me, *(args.rivals or [])}
        for name, policy in policies(rules, args.baseline).items():
            if (args.rivals and name not in wanted) or (
                name.startswith("calibrated") and name not in wanted
            ):
                continue
            start = time.perf_counter()
            played[name] = policy(hands)
            print(
                f"<!-- {label} {name}: arranged {len(hands)} hands in "
                f"{time.perf_counter() - start:.1f} s -->"
            )
        rivals = ["ev", "strength", "percentile", "previous", "full-deck tables", "calibrated",
                  "calibrated, whole pool"]  # fmt: skip
        rivals += ["baseline tables"] if args.baseline else []
        rivals += ["stand-in"] if "stand-in" in played else []
        for rival in [r for r in rivals if r in played and r != me]:
            mean, half = mean_ci(duplicate(rules, played[me], played[rival], args.deals))
            print(
                f"| {label} ({rules.players} players) | {rival} | {args.deals} | "
                f"{mean:+.4f} | [{mean - half:+.4f}, {mean + half:+.4f}] |"
            )


if __name__ == "__main__":
    main()
