"""What a finished row is worth to the fill policy (:mod:`cpsolver.ofc.simulate`): ``2 p - 1``
per row and strength class, ``p`` the share of the rows of that kind it beats (ties half)
among the unfouled boards the policy itself finishes in self-play (3-player pineapple).

The counts are data, made once by :func:`calibrate` and shipped
(``cpsolver/data/ofc-row-counts.npz``; ``python -m cpsolver.ofc.rows --hands 3000 --seed 31``
writes it again); every class keeps a small share of the uniform prior (the C(52, 5) hands, or
C(52, 3) fronts, it beats), so a class self-play never met still has a place in the order.
Against rows of random hands (the prior alone) a pair of aces behind is worth +0.80; against
what OFC boards finish with it is worth -0.4: the policy then builds its back and middle
as strong as players do (docs/BENCHMARKS.md measures both).

>>> from cpsolver.evaluator.poker import evaluate
>>> v = row_values()
>>> round(float(v[0, evaluate("As Ks Qs Js Ts").strength]), 3)
1.0
>>> aces, trips = evaluate("As Ah 5c 7d 9h").strength, evaluate("5s 5h 5c 7d 9h").strength
>>> float(v[0, aces]) < 0 < float(v[0, trips])
True
"""

from __future__ import annotations

import argparse
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cpsolver.evaluator.poker import NUM_CLASSES

__all__ = ["COUNTS_FILE", "PRIOR_SHARE", "calibrate", "row_values"]

COUNTS_FILE = Path(__file__).resolve().parent.parent / "data" / "ofc-row-counts.npz"
"""The shipped self-play counts: arrays ``back``, ``middle``, ``front`` (rows of each class)."""

PRIOR_SHARE = 0.01
"""The weight of the uniform prior, as a share of each row's self-play count."""

FloatArray = npt.NDArray[np.float64]


@cache
def row_values() -> FloatArray:
    """``[r, cls]`` (rows back, middle, front): the policy's score of a row (see above)."""
    from cpsolver.ofc.simulate import uniform_row_counts

    prior = uniform_row_counts()
    out = np.empty((3, NUM_CLASSES), dtype=np.float64)
    with np.load(COUNTS_FILE) as data:
        counts = [data[name].astype(np.float64) for name in ("back", "middle", "front")]
    for r in range(3):
        weight = PRIOR_SHARE * counts[r].sum() / prior[r].sum()
        c = counts[r] + weight * prior[r]
        below = np.cumsum(c) - c
        out[r] = 2 * (below + c / 2) / c.sum() - 1
    out.setflags(write=False)
    return out


def calibrate(hands: int, seed: int) -> npt.NDArray[np.int64]:
    """Rows of each class (``[r, cls]``) in the unfouled boards of ``hands`` seeded self-play
    hands at a 3-player pineapple table, every seat playing the fill policy as it stands."""
    from cpsolver.ofc.advice import policy_placement
    from cpsolver.ofc.board import Board
    from cpsolver.ofc.deal import deal
    from cpsolver.ofc.position import Position
    from cpsolver.ofc.scoring import evaluate_board
    from cpsolver.rules.ofc import OfcRules

    rules = OfcRules()
    counts = np.zeros((3, NUM_CLASSES), dtype=np.int64)
    for h in range(hands):
        dealt = deal(seed + h, rules)
        boards = [Board() for _ in dealt.seats]
        for street in range(len(rules.streets)):
            for p in range(len(boards)):
                others = tuple(b for q, b in enumerate(boards) if q != p)
                position = Position(rules, street + 1, dealt.streets[p][street], boards[p], others)
                boards[p] = policy_placement(position, seed=seed + h).on(boards[p])
        for board in boards:
            result = evaluate_board(board, rules)
            if not result.fouled:
                for r, cls in enumerate(result.classes):
                    counts[r, cls] += 1
    return counts


def main(argv: list[str] | None = None) -> None:
    """``python -m cpsolver.ofc.rows [--hands N] [--seed S] [--out FILE]``."""
    parser = argparse.ArgumentParser(description="Count the fill policy's finished rows.")
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--out", type=Path, default=COUNTS_FILE)
    args = parser.parse_args(argv)
    counts = calibrate(args.hands, args.seed)
    np.savez_compressed(
        args.out, back=counts[0], middle=counts[1], front=counts[2],
        hands=args.hands, seed=args.seed,
    )  # fmt: skip
    print(f"{args.out}: {int(counts[0].sum())} unfouled boards of {3 * args.hands}")


if __name__ == "__main__":
    main()
