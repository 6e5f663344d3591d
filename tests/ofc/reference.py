"""An independent, straightforward OFC scorer written from RULES §5 (and CP-3..CP-6) for the
tests: its own hand classifier (rank counts, flush, straight), its own royalty tables and its
own settlement. It shares nothing with cpsolver but the card objects."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cpsolver.cards import Card

HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL, QUADS, STRAIGHT_FLUSH = range(9)


def hand_key(cards: Sequence[Card]) -> tuple[int, ...]:
    """(category, ranks...) comparable on one scale for 5-card rows and 3-card fronts (CP-5:
    a front's missing kickers rank below any card, here -1)."""
    ranks = sorted((int(c.rank) for c in cards), reverse=True)
    counts = Counter(ranks)
    grouped = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    padded = tuple(grouped) + (-1,) * (5 - len(grouped))
    if len(cards) == 5:
        flush = len({c.suit for c in cards}) == 1
        distinct = len(counts) == 5
        top = None
        if distinct and ranks[0] - ranks[4] == 4:
            top = ranks[0]
        if distinct and ranks == [14, 5, 4, 3, 2]:
            top = 5
        if top is not None:
            return (STRAIGHT_FLUSH if flush else STRAIGHT, top)
        if flush:
            return (FLUSH, *ranks)
        category = {
            (4, 1): QUADS, (3, 2): FULL, (3, 1, 1): TRIPS, (2, 2, 1): TWO_PAIR,
            (2, 1, 1, 1): PAIR, (1, 1, 1, 1, 1): HIGH,
        }[tuple(shape)]  # fmt: skip
        return (category, *padded)
    category = {(3,): TRIPS, (2, 1): PAIR, (1, 1, 1): HIGH}[tuple(shape)]
    return (category, *padded)


BACK_ROYALTY = {STRAIGHT: 2, FLUSH: 4, FULL: 6, QUADS: 10, STRAIGHT_FLUSH: 15}
MIDDLE_ROYALTY = {TRIPS: 2, STRAIGHT: 4, FLUSH: 8, FULL: 12, QUADS: 20, STRAIGHT_FLUSH: 30}


def royalty(row: str, cards: Sequence[Card]) -> int:
    key = hand_key(cards)
    if row == "front":
        if key[0] == TRIPS:
            return 10 + key[1] - 2  # three 2s 10 .. three aces 22
        if key[0] == PAIR and key[1] >= 6:
            return key[1] - 5  # sixes 1 .. aces 9
        return 0
    if key == (STRAIGHT_FLUSH, 14):
        return 25 if row == "back" else 50
    table = BACK_ROYALTY if row == "back" else MIDDLE_ROYALTY
    return table.get(key[0], 0)


def fouled(board: dict[str, Sequence[Card]]) -> bool:
    back, middle, front = (hand_key(board[r]) for r in ("back", "middle", "front"))
    return not (back >= middle >= front)


def royalties(board: dict[str, Sequence[Card]]) -> int:
    if fouled(board):
        return 0
    return sum(royalty(r, board[r]) for r in ("back", "middle", "front"))


def fantasyland(
    board: dict[str, Sequence[Card]], *, progressive: bool, in_fantasyland: bool, stay: str
) -> int:
    if fouled(board):
        return 0
    front = hand_key(board["front"])
    middle = hand_key(board["middle"])[0]
    back = hand_key(board["back"])[0]
    if in_fantasyland:
        keeps = front[0] == TRIPS or back >= QUADS
        if stay == "default":
            keeps = keeps or middle >= FULL
        elif stay == "quads_middle":
            keeps = keeps or middle >= QUADS
        return 14 if keeps else 0
    if front[0] == TRIPS:
        return 17 if progressive else 14
    if front[0] == PAIR and front[1] >= 12:
        return {12: 14, 13: 15, 14: 16}[front[1]] if progressive else 14
    return 0


def pair_units(a: dict[str, Sequence[Card]], b: dict[str, Sequence[Card]]) -> int:
    """Units a wins from b (OFC-4)."""
    fa, fb = fouled(a), fouled(b)
    if fa and fb:
        return 0
    if fa:
        return -6 - royalties(b)
    if fb:
        return 6 + royalties(a)
    won = 0
    for row in ("back", "middle", "front"):
        ka, kb = hand_key(a[row]), hand_key(b[row])
        won += (ka > kb) - (ka < kb)
    bonus = 3 if won == 3 else -3 if won == -3 else 0
    return won + bonus + royalties(a) - royalties(b)


def totals(boards: Sequence[dict[str, Sequence[Card]]]) -> list[int]:
    net = [0] * len(boards)
    for i in range(len(boards)):
        for j in range(len(boards)):
            if i != j:
                net[i] += pair_units(boards[i], boards[j])
    return net
