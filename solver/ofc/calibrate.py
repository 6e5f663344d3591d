"""Make the fill policy's row counts (:mod:`cpsolver.ofc.rows`) by self-play:
``python -m cpsolver.ofc.calibrate [--hands N] [--seed S] [--out FILE]``."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cpsolver.evaluator.poker import NUM_CLASSES
from cpsolver.ofc.advice import policy_placement
from cpsolver.ofc.board import Board
from cpsolver.ofc.deal import deal
from cpsolver.ofc.position import Position
from cpsolver.ofc.rows import COUNTS_FILE
from cpsolver.ofc.scoring import evaluate_board
from cpsolver.rules.ofc import OfcRules

__all__ = ["calibrate", "main"]


def calibrate(hands: int, seed: int) -> npt.NDArray[np.int64]:
    """Rows of each class (``[r, cls]``, rows back, middle, front) in the unfouled boards of
    ``hands`` seeded self-play hands at a 3-player pineapple table, every seat playing the
    fill policy as it stands."""
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
    """Write the counts (default: the shipped file)."""
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
