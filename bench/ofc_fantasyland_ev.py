"""Benchmark of the fantasyland ``ev`` objective (issue 31; not a test):
``python -m bench.ofc_fantasyland_ev [--hands N] [--samples N] [--seed S] [--value V]``.

A seeded duplicate match, ``ev`` against ``royalties``: for each of ``--hands`` seeded deals a
fantasyland seat is dealt 14 cards and the other ``--players - 1`` seats their streets
(OFC-1) from the rest of the deck. The fantasyland hand is set twice, by
``cpsolver.ofc.fantasyland(cards, fantasyland_value=V)`` (``royalties``) and by
``objective="ev"`` (``--samples`` deals, its own seed per hand, the same V); the other seats
play their streets once by the fill policy (``cpsolver.ofc.advice.policy_placement``, its
defaults: the policy the ``ev`` objective assumes; the fantasyland board is face down, so
their positions hold it as an empty board), and both sets are settled (OFC-4, ``ofc.score``)
against the same finished boards, plus V when the set stays. Reported: the mean difference
``ev - royalties`` in units per hand with a 95% interval (the issue's target with V = 0: above
zero), how often the two sets differ, each objective's mean units and stays, the mean of the
``ev`` estimates beside the units its sets won (the estimate's optimism: the best of noisy
means), and the wall time of an ``ev`` set (median and p90, in one process whose kernels are
loaded). docs/BENCHMARKS.md records a run.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time

from cpsolver.cards import DECK_52, Card
from cpsolver.ofc import Board, FantasylandSet, OfcRules, fantasyland, score
from cpsolver.ofc.advice import policy_placement
from cpsolver.ofc.position import Position


def play_out(streets: list[list[list[Card]]], rules: OfcRules, seed: int) -> list[Board]:
    """The non-fantasyland seats' hands, street by street, each placing by the fill policy;
    each sees the fantasyland seat as an empty board and its own discards as dead."""
    seats = len(streets)
    boards = [Board() for _ in range(seats)]
    dead: list[list[Card]] = [[] for _ in range(seats)]
    for street in range(len(rules.streets)):
        for p in range(seats):
            others = (Board(), *(boards[q] for q in range(seats) if q != p))
            position = Position(
                rules, street + 1, tuple(streets[p][street]), boards[p], others, tuple(dead[p])
            )
            placement = policy_placement(position, seed=seed * 131 + street * 7 + p)
            boards[p] = placement.on(boards[p])
            dead[p].extend(placement.discard)
    return boards


def settle(found: FantasylandSet, boards: list[Board], rules: OfcRules, value: float) -> float:
    """The set's units against the finished boards, plus V when it stays."""
    mine = Board(found.back, found.middle, found.front, in_fantasyland=True)
    table = score([mine, *boards], rules)
    return table.net[0] + (value if table.boards[0].fantasyland > 0 else 0.0)


def _interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--samples", type=int, default=500, help="deals of each ev set")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--value", type=float, default=0.0, help="V, the value of staying")
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args(argv)
    rules = OfcRules.preset("pineapple", players=args.players)
    opponents = args.players - 1
    per_seat = sum(rules.streets)
    deck = list(DECK_52.cards)
    fantasyland(deck[:14], objective="ev", samples=8)  # kernels loaded
    print(
        f"fantasyland ev vs royalties, duplicate: {args.hands} hands (seed {args.seed}), "
        f"{opponents} opponents (fill policy), ev {args.samples} deals a set, V = {args.value:g}; "
        f"cpus {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}"
    )
    rng = random.Random(args.seed)
    diffs, ev_units, roy_units, estimates, times = [], [], [], [], []
    differ = ev_stays = roy_stays = 0
    started = time.perf_counter()
    for h in range(args.hands):
        cards = rng.sample(deck, 14 + opponents * per_seat)
        hand, rest = cards[:14], cards[14:]
        streets = []
        for p in range(opponents):
            own = rest[p * per_seat : (p + 1) * per_seat]
            cut = [0]
            for size in rules.streets:
                cut.append(cut[-1] + size)
            streets.append([own[cut[t] : cut[t + 1]] for t in range(len(rules.streets))])
        by_royalties = fantasyland(hand, rules=rules, fantasyland_value=args.value)
        clock = time.perf_counter()
        by_ev = fantasyland(
            hand, rules=rules, objective="ev", fantasyland_value=args.value,
            samples=args.samples, seed=args.seed * 100_003 + h,
        )  # fmt: skip
        times.append((time.perf_counter() - clock) * 1e3)
        boards = play_out(streets, rules, args.seed + h)
        ev = settle(by_ev, boards, rules, args.value)
        roy = settle(by_royalties, boards, rules, args.value)
        diffs.append(ev - roy)
        ev_units.append(ev)
        roy_units.append(roy)
        estimates.append(by_ev.value)
        rows = (by_ev.back, by_ev.middle, by_ev.front)
        differ += rows != (by_royalties.back, by_royalties.middle, by_royalties.front)
        ev_stays += by_ev.stays
        roy_stays += by_royalties.stays
        if (h + 1) % 250 == 0:
            mean, half = _interval(diffs)
            elapsed = time.perf_counter() - started
            print(f"  {h + 1} hands: ev - royalties {mean:+.3f} [{mean - half:+.3f}, "
                  f"{mean + half:+.3f}], {elapsed:.0f} s", flush=True)  # fmt: skip
    n = args.hands
    mean, half = _interval(diffs)
    ev_mean, ev_half = _interval(ev_units)
    roy_mean, roy_half = _interval(roy_units)
    ordered = sorted(times)
    print(f"ev - royalties: {mean:+.3f} units/hand, 95% CI [{mean - half:+.3f}, "
          f"{mean + half:+.3f}]")  # fmt: skip
    print(f"sets differ: {differ / n:.1%} of hands; stays: ev {ev_stays / n:.1%}, "
          f"royalties {roy_stays / n:.1%}")  # fmt: skip
    print(f"units/hand: ev {ev_mean:+.2f} [±{ev_half:.2f}], royalties {roy_mean:+.2f} "
          f"[±{roy_half:.2f}]; ev's own estimate {statistics.fmean(estimates):+.2f}")  # fmt: skip
    print(f"ev set: median {statistics.median(times):.0f} ms, p90 "
          f"{ordered[int(0.9 * (len(ordered) - 1))]:.0f} ms; {time.perf_counter() - started:.0f} s "
          f"in all; load average at the end {os.getloadavg()[0]:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
