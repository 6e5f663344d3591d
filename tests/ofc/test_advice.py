"""Street advice (issue 31): the last street equals an exhaustive evaluation by the independent
scorer of tests/ofc/reference.py when the opponents' boards are complete; the legal placements
are every way the rules allow; the simulated streets are seeded, honour their budget and count
fouls and fantasyland; bad input names its field."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence

import pytest

from cpsolver.budget import BudgetExceededError, call_budget
from cpsolver.cards import DECK_52, Card
from cpsolver.errors import CardError, InvalidInputError
from cpsolver.ofc import advise
from cpsolver.ofc.position import legal_placements, read_position
from tests.ofc import reference

ROWS = ("back", "middle", "front")
SIZES = {"back": 5, "middle": 5, "front": 3}


def _random_last_street(rng: random.Random, opponents: int) -> dict[str, object]:
    """A last-street position (pineapple street 5): 11 cards placed, 3 in hand, the opponents'
    boards complete; boards drawn from a short deck half the time (pairs, trips, fouls), and
    often a queen, king or ace in the front with its pair in hand (fantasyland in reach)."""
    short = [c for c in DECK_52.cards if c.rank >= 7]
    deck = list(short if rng.random() < 0.5 and opponents == 1 else DECK_52.cards)
    rng.shuffle(deck)
    holes = rng.choice([("back", "back"), ("back", "middle"), ("middle", "front"),
                        ("front", "front"), ("back", "front"), ("middle", "middle")])  # fmt: skip
    board: dict[str, list[str]] = {row: [] for row in ROWS}
    hand: list[Card] = []
    if "front" in holes and rng.random() < 0.6:
        rank = rng.choice((12, 13, 14))
        pair = [c for c in deck if c.rank == rank][:2]
        deck = [c for c in deck if c not in pair]
        board["front"].append(str(pair[0]))
        hand.append(pair[1])
        # strong rows below it most of the time: trips in the middle, quads in the back
        for row, size in (("middle", 3), ("back", 4)):
            room = min(size, SIZES[row] - holes.count(row))
            ranks = [
                r for r in range(2, 15) if r != rank and sum(c.rank == r for c in deck) >= room
            ]
            chosen = rng.choice(ranks)
            made = [c for c in deck if c.rank == chosen][:room]
            deck = [c for c in deck if c not in made]
            board[row] = [str(c) for c in made]
    hand, deck = hand + deck[: 3 - len(hand)], deck[3 - len(hand) :]
    rng.shuffle(hand)
    for row in ROWS:
        n = SIZES[row] - holes.count(row) - len(board[row])
        board[row], deck = board[row] + [str(c) for c in deck[:n]], deck[n:]
    others = []
    for _ in range(opponents):
        other: dict[str, list[str]] = {}
        for row in ROWS:
            other[row], deck = [str(c) for c in deck[: SIZES[row]]], deck[SIZES[row] :]
        others.append(other)
    return {"street": 5, "hand": [str(c) for c in hand], "board": board, "opponents": others}


def _brute_force(
    position: dict[str, object], value: float
) -> dict[tuple[frozenset[Card], ...], float]:
    """Every way to keep 2 of the 3 cards and fill the two holes, valued by the reference
    scorer: units against each opponent + V when the board enters fantasyland."""
    hand = [Card.of(c) for c in position["hand"]]  # type: ignore[union-attr]
    board = {r: [Card.of(c) for c in position["board"][r]] for r in ROWS}  # type: ignore[index]
    others = [
        {r: [Card.of(c) for c in o[r]] for r in ROWS}
        for o in position["opponents"]  # type: ignore[union-attr]
    ]
    holes = [r for r in ROWS for _ in range(SIZES[r] - len(board[r]))]
    out = {}
    for kept in itertools.permutations(hand, 2):
        final = {r: list(board[r]) for r in ROWS}
        for card, row in zip(kept, holes, strict=True):
            final[row].append(card)
        units = sum(reference.pair_units(final, o) for o in others)
        fl = reference.fantasyland(final, progressive=False, in_fantasyland=False, stay="default")
        key = tuple(frozenset(final[r]) - frozenset(board[r]) for r in ROWS)
        out[key] = units + (value if fl else 0.0)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_last_street_equals_exhaustive_evaluation(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(15):
        opponents = rng.choice((1, 2))
        position = _random_last_street(rng, opponents)
        value = rng.choice((0.0, 8.0, 15.5))
        advice = advise(position, fantasyland_value=value)
        expected = _brute_force(position, value)
        assert advice.exact
        got = {
            tuple(frozenset(r.placement.row(row_enum)) for row_enum in _row_enums()): r.value
            for r in advice.ranked
        }
        assert got == expected
        assert advice.best.value == max(expected.values())
        values = [r.value for r in advice.ranked]
        assert values == sorted(values, reverse=True)
        for r in advice.ranked:
            final = {
                row: r.placement.on(advice.position.board).row(e)
                for row, e in zip(ROWS, _row_enums(), strict=True)
            }
            assert r.foul == float(reference.fouled(final))
            assert r.samples == 1 and r.stderr == 0.0


def _row_enums():  # type: ignore[no-untyped-def]
    from cpsolver.rules.chinese import Row

    return (Row.BACK, Row.MIDDLE, Row.FRONT)


def _count_placements(room: Sequence[int], n: int, keep: int) -> int:
    """Placements counted from first principles: discards, then each kept card to a row
    with room (rows of distinct cards are distinct placements)."""
    total = 0
    for _kept in itertools.combinations(range(n), keep):
        for rows in itertools.product(range(3), repeat=keep):
            if all(rows.count(r) <= room[r] for r in range(3)):
                total += 1
    return total


def test_legal_placements_are_every_way_the_rules_allow() -> None:
    first = read_position({"street": 1, "hand": "As Kd 7c 7h 2s", "opponents": [{}]})
    placements = legal_placements(first)
    # 3^5 = 243 ways, less the 11 with 4 or 5 cards in the 3-card front
    assert len(placements) == 243 - 11 == _count_placements((5, 5, 3), 5, 5)
    assert len(set(placements)) == len(placements)
    late = read_position({
        "street": 4, "hand": "As Kd 7c",
        "board": {"back": "2c 2d 2h 3s 3d", "middle": "4c 5c", "front": "8h 9h"},
        "opponents": [{"back": "Jc Jd", "middle": "Qc Qd Qh", "front": "Tc Ts"}],
        "dead": ["4d", "5d"],
    })  # fmt: skip
    placements = legal_placements(late)
    assert len(placements) == _count_placements((0, 3, 1), 3, 2) == 3 * (1 + 2)
    for p in placements:
        assert len(p.discard) == 1 and not p.back and len(p.front) <= 1


def test_simulated_street_is_seeded_and_counts_fouls_and_fantasyland() -> None:
    position = {
        "street": 4, "hand": "Qs Qd 2c",
        "board": {"back": "As Ad Ah 9c 9d", "middle": "Jc Js 5h", "front": "3d"},
        "opponents": [{"back": "2s 3s 4s", "middle": "Jd Jh 6c 7c", "front": "8d 8h"}],
        "dead": ["3c", "3h"],
    }  # fmt: skip
    one = advise(position, samples=96, seed=5)
    two = advise(position, samples=96, seed=5)
    assert one == two
    other = advise(position, samples=96, seed=6)
    assert [r.value for r in other.ranked] != [r.value for r in one.ranked]
    assert not one.exact and one.best.samples == 96
    by_place = {str(r.placement): r for r in one.ranked}
    # Q-Q completes the front over J-J in the middle: the middle's last two cards must pair
    # it up (no jack is left) or the board fouls; when it does not foul it enters fantasyland
    risky = by_place["front Qd Qs, discard 2c"]
    assert 0 < risky.foul < 1
    assert risky.fantasyland == pytest.approx(1 - risky.foul)
    # Q-Q in the middle completes J-J-Q-Q-5 under A-A-A-9-9; the front (3d and two cards)
    # cannot reach three of a kind (no 3 left) so it can never foul
    safe = by_place["middle Qd Qs, discard 2c"]
    assert safe.foul == 0.0
    for r in one.ranked:
        assert 0 <= r.foul <= 1 and 0 <= r.fantasyland <= 1 and r.samples >= 32


def test_the_budget_is_honoured() -> None:
    position = {"street": 1, "hand": "As Kd 7c 7h 2s", "opponents": [{}, {}]}
    started = time.perf_counter()
    advice = advise(position, budget_ms=100, samples=1_000_000, seed=1)
    elapsed = time.perf_counter() - started
    assert elapsed < 3.0  # one round past the budget at most (a first round over 232 placements)
    assert advice.best.samples < 1_000_000
    with call_budget(0.0), pytest.raises(BudgetExceededError):
        advise(position, samples=1_000_000, seed=1)


def test_bad_input_names_the_field() -> None:
    ok_board = {"back": "As Ks", "middle": "Qd Jd", "front": "2c"}
    cases = [
        ({"street": 2, "hand": "3c 4c", "board": ok_board, "opponents": [{}]}, "hand"),
        ({"street": 3, "hand": "3c 4c 5c", "board": ok_board, "opponents": [{}]}, "street"),
        ({"street": 2, "hand": "3c 4c As", "board": ok_board, "opponents": [{}]}, "board.back[0]"),
        (
            {
                "street": 2,
                "hand": "3c 4c 5c",
                "board": {**ok_board, "front": "2c 2d 2h 2s"},
                "opponents": [{}],
            },
            "board.front",
        ),
        (
            {
                "street": 2,
                "hand": "3c 4c 5c",
                "board": ok_board,
                "opponents": [{"back": "6c 6d", "middle": "7c"}],
            },
            "opponents[0]",
        ),
        ({"street": 2, "hand": "3c 4c 5c", "board": ok_board, "opponents": []}, "opponents"),
        ({"street": 9, "hand": "3c 4c 5c", "board": ok_board, "opponents": [{}]}, "street"),
        (
            {"street": 2, "hand": "3c 4c 5c", "board": ok_board, "opponents": [{}], "dead": ["3c"]},
            "dead[0]",
        ),
        (
            {"street": 2, "hand": "3c 4c 5c", "board": ok_board, "opponents": [{}], "seat": 1},
            "seat",
        ),
    ]
    for position, field in cases:
        with pytest.raises(InvalidInputError) as err:
            advise(position)
        assert field in [v.field for v in err.value.violations], (field, str(err.value))
    good = {"street": 2, "hand": "3c 4c 5c", "board": ok_board, "opponents": [{}]}
    with pytest.raises(InvalidInputError) as err:
        advise(good, budget_ms=0, samples=0, fantasyland_value=-1, seed=-1, fills=0)
    fields = [v.field for v in err.value.violations]
    assert fields == ["budget_ms", "samples", "seed", "fantasyland_value", "fills"]
    with pytest.raises(CardError) as card:
        advise({**good, "hand": "3c 4c 4c"})
    assert card.value.violations[0].field == "hand[2]"
