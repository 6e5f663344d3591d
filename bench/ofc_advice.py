"""Benchmark of OFC street advice (issue 31; not a test): ``python -m bench.ofc_advice``.

Four parts, each printed with its parameters (seeded; the load average is shown):

* ``policy``: the fill policy every simulated seat plays (:mod:`cpsolver.ofc.simulate`):
  its time per decision, and a duplicate match against the greedy baseline of the issue
  (below), ``--hands`` seeded deals at a 2-player pineapple table, each played twice with the
  seats swapped: the fill policy's mean units per hand with a 95% interval, and each policy's
  foul rate and fantasyland entry rate.
* ``fantasyland``: what a fantasyland hand is worth (the default V of advice), see
  :func:`fantasyland_worth`.
* ``advice``: ``cpsolver.ofc.advise`` under its default time budget on ``--positions``
  positions per street (3-player pineapple, seat N's decision, the boards built by the fill
  policy on seeded deals): the wall time, and how stable the answer is: the share of runs
  (two seeds) choosing the move a long reference run (``--reference`` deals per placement, no
  time limit) ranks first, and the mean regret: the reference's value of its best move minus
  its value of the move chosen.

The greedy baseline (issue 31: "highest immediate hand strength without fouling"): every
legal placement whose rows, as they stand, are in order (back >= middle >= front by made
hand: category, then the ranks grouped), scored by the sum over rows of 15 x category + the
top grouped rank; the highest is played (if none is in order, the highest of all).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from cpsolver.cards import Card
from cpsolver.evaluator.poker import evaluate
from cpsolver.ofc import Board, OfcRules, advise, deal, fantasyland, score
from cpsolver.ofc import advice as advice_module
from cpsolver.ofc.advice import policy_placement
from cpsolver.ofc.position import Placement, Position, legal_placements
from cpsolver.ofc.scoring import evaluate_board, settle_pair
from cpsolver.rules.chinese import Row

Policy = Callable[[Position, int], Placement]


def _made(cards: Sequence[Card]) -> tuple[int, ...]:
    """(category, grouped ranks...) of a row as it stands; a full row by the evaluator."""
    if len(cards) == 5:
        key = evaluate(cards).category
        counts = Counter(c.rank for c in cards)
        grouped = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
        return (int(key), *grouped)
    counts = Counter(c.rank for c in cards)
    shape = sorted(counts.values(), reverse=True)
    grouped = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    category = {4: 7, 3: 3, 2: 2 if shape[1:2] == [2] else 1}.get(shape[0], 0) if shape else 0
    return (category, *grouped)


def greedy(position: Position, _seed: int) -> Placement:
    """The greedy baseline (module docstring)."""
    best: tuple[tuple[int, int], Placement] | None = None
    for placement in legal_placements(position):
        board = placement.on(position.board)
        keys = [_made(board.row(row)) for row in (Row.BACK, Row.MIDDLE, Row.FRONT)]
        in_order = keys[0] >= keys[1] >= keys[2]
        score = sum(15 * k[0] + (k[1] if len(k) > 1 else 0) for k in keys)
        rank = (int(in_order), score)
        if best is None or rank > best[0]:
            best = (rank, placement)
    assert best is not None
    return best[1]


def fill(position: Position, seed: int) -> Placement:
    """The fill policy (its defaults: 8 completions a decision, V = 10)."""
    return policy_placement(position, seed=seed)


def play(dealt_streets: Sequence[Sequence[Sequence[Card]]], policies: Sequence[Policy],
         rules: OfcRules, seed: int) -> list[Board]:  # fmt: skip
    """One hand, every seat placing street by street in seat order; its own discards are the
    dead cards it knows."""
    seats = len(policies)
    boards = [Board() for _ in range(seats)]
    dead: list[list[Card]] = [[] for _ in range(seats)]
    for street in range(len(rules.streets)):
        for p in range(seats):
            others = tuple(boards[q] for q in range(seats) if q != p)
            position = Position(rules, street + 1, tuple(dealt_streets[p][street]), boards[p],
                                others, tuple(dead[p]))  # fmt: skip
            placement = policies[p](position, seed * 131 + street * 7 + p)
            boards[p] = placement.on(boards[p])
            dead[p].extend(placement.discard)
    return boards


def advice_policy(samples: Sequence[int]) -> Policy:
    """The advice itself as a seat's policy: ``advise`` with ``samples[0]`` deals per
    placement on street 1 and ``samples[1]`` later, no time limit (so a seeded match is
    reproducible on any machine), its best placement played."""

    def policy(position: Position, seed: int) -> Placement:
        n = samples[0] if position.street == 1 else samples[-1]
        return advise(position, samples=n, seed=seed).best.placement

    return policy


def match(hands: int, seed: int, player: str = "fill", samples: Sequence[int] = (16, 32)) -> None:
    """A duplicate match of ``player`` (``fill``: the fill policy; ``advice``: the advice at
    ``samples`` deals per placement, :func:`advice_policy`) against the greedy baseline."""
    rules = OfcRules.preset("pineapple", players=2)
    ours = fill if player == "fill" else advice_policy(samples)
    units: list[float] = []
    fouls = {player: 0, "greedy": 0}
    entries = {player: 0, "greedy": 0}
    started = time.perf_counter()
    for h in range(hands):
        dealt = deal(seed + h, rules)
        total = 0
        for order in ((player, "greedy"), ("greedy", player)):
            policies = [greedy if name == "greedy" else ours for name in order]
            boards = play(dealt.streets, policies, rules, seed + h)
            results = [evaluate_board(b, rules) for b in boards]
            a, b = results
            won = settle_pair(a.classes, a.fouled, a.royalty_total, b.classes, b.fouled,
                              b.royalty_total).total  # fmt: skip
            total += won if order[0] == player else -won
            for name, r in zip(order, results, strict=True):
                fouls[name] += r.fouled
                entries[name] += r.fantasyland > 0
        units.append(total / 2)
        if (h + 1) % 250 == 0:  # a long match says where it is (and what it has so far)
            print(f"  {h + 1} deals, {statistics.mean(units):+.3f} units/hand so far, "
                  f"{time.perf_counter() - started:.0f} s", flush=True)  # fmt: skip
    seconds = time.perf_counter() - started
    mean = statistics.mean(units)
    half = 1.96 * statistics.stdev(units) / math.sqrt(len(units))
    what = "fill policy" if player == "fill" else f"advice (samples {'/'.join(map(str, samples))})"
    print(f"duplicate match, {hands} deals x 2 (seeds {seed}..{seed + hands - 1}), 2 players, "
          f"{seconds:.0f} s")  # fmt: skip
    print(f"  {what} vs greedy: {mean:+.3f} units/hand, 95% CI [{mean - half:+.3f}, "
          f"{mean + half:+.3f}]")  # fmt: skip
    for name in (player, "greedy"):
        n = 2 * hands
        print(f"  {name:<6} fouls {fouls[name] / n:.1%}, fantasyland entries "
              f"{entries[name] / n:.1%}")  # fmt: skip


def fantasyland_worth(hands: int, seed: int) -> None:
    """What a fantasyland hand is worth against two seats playing streets by the fill policy:
    the fantasyland seat sets 14 cards by the ``royalties`` objective with V = 0 (its board
    is face down: the others' positions leave it out); E = its mean units, s = its share of
    stays; V = E / (1 - s), the value of entering with every stay counted."""
    rules = OfcRules()
    rng = random.Random(seed)
    deck = [Card.from_index(i) for i in range(52)]
    units: list[float] = []
    stays = 0
    for h in range(hands):
        cards = rng.sample(deck, 14 + 2 * 17)
        fl_cards, rest = cards[:14], cards[14:]
        best = fantasyland(fl_cards, rules=rules)
        fl_board = Board(best.back, best.middle, best.front, in_fantasyland=True)
        streets = [[rest[17 * p : 17 * p + 5]] + [rest[17 * p + 5 + 3 * t : 17 * p + 8 + 3 * t]
                    for t in range(4)] for p in range(2)]  # fmt: skip
        boards = play(streets, [fill, fill], rules, seed + h)
        table = score({"F": fl_board, "A": boards[0], "B": boards[1]}, rules)
        units.append(table.net[0])
        stays += table.boards[0].fantasyland > 0
    mean = statistics.mean(units)
    half = 1.96 * statistics.stdev(units) / math.sqrt(len(units))
    share = stays / hands
    print(f"fantasyland hand vs two fill-policy seats, {hands} hands (seed {seed}): "
          f"E = {mean:+.2f} units [{mean - half:+.2f}, {mean + half:+.2f}], stays {share:.1%}, "
          f"V = E / (1 - s) = {mean / (1 - share):.1f}")  # fmt: skip


def policy_speed(seed: int) -> None:
    rules = OfcRules()
    rng = random.Random(seed)
    per_street: dict[int, list[float]] = {}
    for h in range(60):
        dealt = deal(rng.getrandbits(32), rules)
        boards = [Board() for _ in range(3)]
        for street in range(5):
            for p in range(3):
                others = tuple(boards[q] for q in range(3) if q != p)
                position = Position(rules, street + 1, dealt.streets[p][street], boards[p],
                                    others)  # fmt: skip
                start = time.perf_counter()
                placement = fill(position, h)
                per_street.setdefault(street + 1, []).append(time.perf_counter() - start)
                boards[p] = placement.on(boards[p])
    print(
        "fill policy, one decision (Python call included), median ms by street:",
        ", ".join(f"{s}: {statistics.median(v) * 1e3:.3f}" for s, v in per_street.items()),
    )


def positions(street: int, count: int, seed: int) -> list[Position]:
    """Seat N's decision on ``street`` at a 3-player table, the earlier streets played by the
    fill policy on seeded deals."""
    rules = OfcRules()
    out = []
    for k in range(count):
        dealt = deal(seed + 1000 * street + k, rules)
        boards = [Board() for _ in range(3)]
        dead: list[list[Card]] = [[] for _ in range(3)]
        for s in range(street - 1):
            for p in range(3):
                others = tuple(boards[q] for q in range(3) if q != p)
                pos = Position(rules, s + 1, dealt.streets[p][s], boards[p], others,
                               tuple(dead[p]))  # fmt: skip
                placement = fill(pos, k)
                boards[p] = placement.on(boards[p])
                dead[p].extend(placement.discard)
        out.append(Position(rules, street, dealt.streets[0][street - 1], boards[0],
                            (boards[1], boards[2]), tuple(dead[0])))  # fmt: skip
    return out


def advice(
    count: int, reference: int, seed: int, streets: Sequence[int], compare_halving: bool
) -> None:
    """Advice under the default budget against a long reference run (module doc). With
    ``compare_halving``, each position is also advised with the halving of
    :class:`cpsolver.ofc.advice.SequentialHalving` switched off (the code before it), the two runs
    interleaved, so both rows come from the same minutes of this shared machine."""
    print(f"advice under the default budget, {count} positions per street (seed {seed}), "
          f"reference {reference} deals per placement:")  # fmt: skip
    print(f"{'street':>6} {'variant':>12} {'median ms':>10} {'max ms':>7} "
          f"{'same as reference':>18} {'mean regret':>12} {'samples (best)':>15}")  # fmt: skip
    variants = ("halving", "no halving") if compare_halving else ("default",)
    for street in streets:
        found: dict[str, tuple[list[float], list[bool], list[float], list[int]]] = {
            v: ([], [], [], []) for v in variants
        }
        for position in positions(street, count, seed):
            ref = advise(position, samples=reference, seed=99)
            value = {r.placement: r.value for r in ref.ranked}
            for run_seed in (1, 2):
                for variant in variants:
                    times, same, regrets, samples = found[variant]
                    with _halving_off(variant == "no halving"):
                        start = time.perf_counter()
                        got = advise(position, seed=run_seed)
                        times.append((time.perf_counter() - start) * 1e3)
                    same.append(got.best.placement == ref.best.placement)
                    regrets.append(ref.best.value - value[got.best.placement])
                    samples.append(got.best.samples)
        for variant in variants:
            times, same, regrets, samples = found[variant]
            print(f"{street:>6} {variant:>12} {statistics.median(times):>10.0f} "
                  f"{max(times):>7.0f} {sum(same) / len(same):>18.0%} "
                  f"{statistics.mean(regrets):>12.3f} "
                  f"{statistics.median(samples):>15.0f}")  # fmt: skip


@contextlib.contextmanager
def _halving_off(off: bool) -> Iterator[None]:
    """The advice without its halving (a benchmark's A/B switch, not an option of the
    library): every plan says "not yet"."""
    if not off:
        yield
        return
    original = advice_module.SequentialHalving.due
    advice_module.SequentialHalving.due = lambda self, elapsed, active: False  # type: ignore[method-assign]
    try:
        yield
    finally:
        advice_module.SequentialHalving.due = original  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "part", choices=("policy", "fantasyland", "advice", "advice-match", "all"), nargs="?",
        default="all",
    )  # fmt: skip
    parser.add_argument(
        "--advice-samples", type=int, nargs=2, default=[16, 32], metavar=("STREET1", "LATER"),
        help="advice-match: deals per placement on street 1 and later (no time limit)",
    )  # fmt: skip
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--reference", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument(
        "--streets", type=int, nargs="+", default=[1, 2, 3, 4, 5], help="advice: streets"
    )
    parser.add_argument(
        "--compare-halving", action="store_true",
        help="advice: also run each position without the halving, interleaved",
    )  # fmt: skip
    args = parser.parse_args(argv)
    print(f"cpus: {os.cpu_count()}; load average {os.getloadavg()[0]:.1f}")
    advise({"street": 1, "hand": "As Kd 7c 7h 2s", "opponents": [{}, {}]}, samples=1)  # load
    if args.part in ("policy", "all"):
        policy_speed(args.seed)
        match(args.hands, args.seed)
    if args.part == "advice-match":
        match(args.hands, args.seed, "advice", args.advice_samples)
    if args.part in ("fantasyland", "all"):
        fantasyland_worth(args.hands // 2, args.seed)
    if args.part in ("advice", "all"):
        advice(args.positions, args.reference, args.seed, args.streets, args.compare_halving)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
