"""A small Chinese poker bot: deal a 4-player table, arrange every hand, settle the table.

It talks to the solver only through ``client.Solver``, so one argument decides where the work
happens::

    python examples/bot.py --seed 7                           # the library, in this process
    python examples/bot.py --seed 7 --server 127.0.0.1:50051  # a `cpsolver serve` server

Both print the same thing. The deal is a seeded shuffle (same seed, same table).
"""

from __future__ import annotations

import argparse
import sys

from cpsolver import Row, Solution, format_cards
from cpsolver.client import Solver, connect


def play(solver: Solver, seed: int, rules: str = "standard") -> int:
    """Play one table with ``solver`` and print it; returns 0."""
    # The same seeded deal as `cpsolver deal --seed SEED` (DealTables when remote).
    hands = solver.deal(seed, players=4)[0].by_seat()
    # One call for the whole table (BatchSolve streaming when remote).
    results = list(solver.solve_batch(hands.values(), rules))
    plays: dict[str, Solution] = {}
    for seat, result in zip(hands, results, strict=True):
        if not isinstance(result, Solution):
            raise result  # cannot happen with a fresh deal; a library error otherwise
        plays[seat] = result
    print(f"table {seed} ({rules})")
    for seat, solution in plays.items():
        if solution.natural is not None:
            print(f"  {seat}: declares {solution.natural.kind.title} ({solution.natural.units})")
            continue
        rows = "  |  ".join(
            f"{format_cards(solution.arrangement.row(row), pretty=True)}"
            f" ({solution.hands[row].name})"
            for row in (Row.BACK, Row.MIDDLE, Row.FRONT)
        )
        print(f"  {seat}: {rows}")
    # Seat by seat, as dealt: the table's seats are numbers 0..3, named N, E, S, W.
    table = solver.score(list(plays.values()), rules)
    print("settlement")
    for pairing in table.pairings:
        first, second = (table.seats[seat] for seat in pairing.seats)
        print(f"  {first}-{second}: {pairing.total:+d}")
    by_seat = zip(table.seats, table.net, strict=True)
    print("totals  " + "  ".join(f"{name} {units:+d}" for name, units in by_seat))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7, help="deal number (default 7)")
    parser.add_argument("--rules", default="standard", help="rule preset (default standard)")
    parser.add_argument("--server", default=None, help="HOST:PORT of a cpsolver server")
    parser.add_argument("--timeout", type=float, default=30.0, help="per-call deadline, seconds")
    args = parser.parse_args(argv)
    with connect(args.server, timeout=args.timeout) as solver:  # None: in-process
        return play(solver, args.seed, args.rules)


if __name__ == "__main__":
    sys.exit(main())
