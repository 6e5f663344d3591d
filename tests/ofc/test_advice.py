"""Street advice (issue 31): the last street equals an exhaustive evaluation by the independent
scorer of tests/ofc/reference.py when the opponents' boards are complete; the legal placements
are every way the rules allow; the simulated streets are seeded, honour their budget and count
fouls and fantasyland; bad input names its field."""

from __future__ import annotations

import itertools
import math
import random
import subprocess
import sys
import time
from collections.abc import Sequence

import pytest

from cpsolver.budget import BudgetExceededError, call_budget
from cpsolver.cards import DECK_52, Card
from cpsolver.errors import CardError, InvalidInputError
from cpsolver.ofc import advise
from cpsolver.ofc.advice import SequentialHalving
from cpsolver.ofc.position import legal_placements, read_position
from tests.ofc import reference

ROWS = ("back", "middle", "front")
SIZES = {"back": 5, "middle": 5, "front": 3}


def _random_last_street(rng: random.Random, opponents: int) -> dict[str, object]:
    """A last-street position (pineapple street 5): 11 cards placed, 3 in hand, the opponents'
    boards complete; boards drawn from a short deck half the time (pairs, trips, fouls), and
    often a queen, king or ace in the front with its pair in hand (fantasyland in reach)."""
    deck = _shuffled_deck(rng, opponents)
    holes = rng.choice([("back", "back"), ("back", "middle"), ("middle", "front"),
                        ("front", "front"), ("back", "front"), ("middle", "middle")])  # fmt: skip
    board: dict[str, list[str]] = {row: [] for row in ROWS}
    hand: list[Card] = []
    if "front" in holes and rng.random() < 0.6:
        rank = rng.choice((12, 13, 14))
        pair = [c for c in deck if c.rank == rank][:2]
        for c in pair:
            deck.remove(c)
        board["front"].append(str(pair[0]))
        hand.append(pair[1])
        _strong_rows_below(rng, deck, board, holes, rank)
    hand, deck = hand + deck[: 3 - len(hand)], deck[3 - len(hand) :]
    rng.shuffle(hand)
    for row in ROWS:
        n = SIZES[row] - holes.count(row) - len(board[row])
        board[row], deck = board[row] + [str(c) for c in deck[:n]], deck[n:]
    others = _complete_boards(deck, opponents)
    return {"street": 5, "hand": [str(c) for c in hand], "board": board, "opponents": others}


def _strong_rows_below(
    rng: random.Random, deck: list[Card], board: dict[str, list[str]], holes: Sequence[str],
    rank: int,
) -> None:  # fmt: skip
    """Under a front of ``rank``, strong rows most of the time: trips in the middle, quads in
    the back (as many as the rows' holes leave room for), taken out of ``deck``."""
    for row, size in (("middle", 3), ("back", 4)):
        room = min(size, SIZES[row] - holes.count(row))
        ranks = [r for r in range(2, 15) if r != rank and sum(c.rank == r for c in deck) >= room]
        chosen = rng.choice(ranks)
        made = [c for c in deck if c.rank == chosen][:room]
        for c in made:
            deck.remove(c)
        board[row] = [str(c) for c in made]


def _brute_force(
    position: dict[str, object], value: float
) -> dict[tuple[frozenset[Card], ...], float]:
    """Every way to fill the board's holes with cards of the hand (pineapple: 2 of 3 into two
    holes; classic: the one card into the one hole), valued by the reference scorer: units
    against each opponent + V when the board enters fantasyland."""
    hand = [Card.of(c) for c in position["hand"]]  # type: ignore[union-attr]
    board = {r: [Card.of(c) for c in position["board"][r]] for r in ROWS}  # type: ignore[index]
    others = [
        {r: [Card.of(c) for c in o[r]] for r in ROWS}
        for o in position["opponents"]  # type: ignore[union-attr]
    ]
    holes = [r for r in ROWS for _ in range(SIZES[r] - len(board[r]))]
    out = {}
    for kept in itertools.permutations(hand, len(holes)):
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


def test_halving_plans_equal_phases_of_the_time_left() -> None:
    plan = SequentialHalving(1.0)
    assert not plan.due(0.2, 200)  # the plan: 0.8 s in ceil(log2(200)) = 8 phases of 0.1 s
    assert not plan.due(0.29, 200)
    assert plan.due(0.31, 200)  # 100 go on: 0.69 s in 7 phases
    assert not plan.due(0.40, 100)
    assert plan.due(0.41, 100)
    assert not plan.due(0.5, 2)  # two left: no halving, the rest of the time goes to both
    assert not SequentialHalving(None).due(100.0, 200)  # no time limit: never


def test_a_timed_street_one_gives_its_deals_to_the_closest_placements() -> None:
    position = {"street": 1, "hand": "Ks Kd 9c 5h 2s", "opponents": [{}, {}]}
    advise(position, samples=1)  # the kernels loaded before the clock runs
    timed = advise(position, budget_ms=2000, seed=3)
    samples = sorted(r.samples for r in timed.ranked)
    # sequential halving: the last phase simulates the two best by mean (three when a half
    # rounds up), which met the most deals; spread over every placement not pruned, 2 s
    # leaves 5-8 placements at the most deals here
    assert timed.best.samples == max(samples) > 2 * samples[len(samples) // 2]
    assert samples.count(max(samples)) <= 3
    # without a time limit nothing is halved: every placement not pruned meets every deal
    untimed = advise(position, samples=64, seed=3)
    assert max(r.samples for r in untimed.ranked) == 64
    assert sum(r.samples == 64 for r in untimed.ranked) > 2


def test_a_fresh_process_spends_its_budget_on_deals_not_on_loading() -> None:
    # a one-shot CLI call is a process's first advice: its kernels load before its clock runs
    code = (
        "from cpsolver.ofc import advise\n"
        "a = advise({'street': 1, 'hand': 'As Kd 7c 7h 2s', 'opponents': [{}, {}]},"
        " budget_ms=1000, seed=1)\n"
        "print(a.best.samples)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    assert int(out.stdout) > 8  # more than the first round (8 deals over 232 placements)


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


# -- classic (RULES OFC-1: 5 cards, then 8 streets of 1 card, placed; no discard) -----------


def _random_classic_board(
    rng: random.Random, deck: list[Card], holes: Sequence[str]
) -> tuple[dict[str, list[str]], list[Card]]:
    """A board with one empty slot per entry of ``holes``; often a queen, king or ace in a
    front with a hole (its pair may come later: fantasyland in reach) over trips and quads."""
    board: dict[str, list[str]] = {row: [] for row in ROWS}
    if "front" in holes and rng.random() < 0.6:
        rank = rng.choice((12, 13, 14))
        card = next(c for c in deck if c.rank == rank)
        deck.remove(card)
        board["front"].append(str(card))
        _strong_rows_below(rng, deck, board, holes, rank)
    for row in ROWS:
        n = SIZES[row] - holes.count(row) - len(board[row])
        board[row] += [str(c) for c in deck[:n]]
        del deck[:n]
    return board, deck


def _complete_boards(deck: list[Card], n: int) -> list[dict[str, list[str]]]:
    others = []
    for _ in range(n):
        other: dict[str, list[str]] = {}
        for row in ROWS:
            other[row] = [str(c) for c in deck[: SIZES[row]]]
            del deck[: SIZES[row]]
        others.append(other)
    return others


def _shuffled_deck(rng: random.Random, opponents: int) -> list[Card]:
    short = [c for c in DECK_52.cards if c.rank >= 7]
    deck = list(short if rng.random() < 0.5 and opponents == 1 else DECK_52.cards)
    rng.shuffle(deck)
    return deck


def _random_classic_last_street(rng: random.Random, opponents: int) -> dict[str, object]:
    """Classic street 9: 12 cards placed, 1 in hand, the 1-3 opponents' boards complete; the
    card in hand pairs the front's queen, king or ace when it is the hole, often."""
    deck = _shuffled_deck(rng, opponents)
    hole = rng.choice(ROWS)
    board, deck = _random_classic_board(rng, deck, [hole])
    hand = deck.pop(0)
    if hole == "front" and board["front"] and rng.random() < 0.7:
        rank = Card.of(board["front"][0]).rank
        pair = [c for c in deck if c.rank == rank]
        if pair:
            deck.remove(pair[0])
            deck.append(hand)
            hand = pair[0]
    others = _complete_boards(deck, opponents)
    return {"street": 9, "hand": [str(hand)], "board": board, "opponents": others}


@pytest.mark.parametrize("seed", range(4))
def test_classic_last_street_equals_exhaustive_evaluation(seed: int) -> None:
    """Classic's last street (street 9, one card, no discard) against 1-3 complete opponents:
    exact, the one legal placement valued as the reference scorer values the board."""
    rng = random.Random(100 + seed)
    for _ in range(15):
        opponents = rng.choice((1, 2, 3))
        position = _random_classic_last_street(rng, opponents)
        value = rng.choice((0.0, 8.0, 15.5))
        advice = advise(position, "classic", fantasyland_value=value)
        expected = _brute_force(position, value)
        assert advice.exact and len(expected) == 1
        got = {
            tuple(frozenset(r.placement.row(row_enum)) for row_enum in _row_enums()): r.value
            for r in advice.ranked
        }
        assert got == expected
        (only,) = advice.ranked
        assert only.placement.discard == () and only.samples == 1 and only.stderr == 0.0
        final = {
            row: only.placement.on(advice.position.board).row(e)
            for row, e in zip(ROWS, _row_enums(), strict=True)
        }
        assert only.foul == float(reference.fouled(final))
        fl = reference.fantasyland(final, progressive=False, in_fantasyland=False, stay="default")
        assert only.fantasyland == float(fl > 0)


def _classic_expectation(
    position: dict[str, object], value: float
) -> dict[str, tuple[float, float]]:
    """Classic street 8 against complete opponents, from first principles: the card in hand
    goes into one of the two holes, the one card still to come (any unseen card, equally
    likely) into the other; each placement's mean value over every such card, and its
    standard deviation."""
    hand = Card.of(position["hand"][0])  # type: ignore[index]
    board = {r: [Card.of(c) for c in position["board"][r]] for r in ROWS}  # type: ignore[index]
    others = [
        {r: [Card.of(c) for c in o[r]] for r in ROWS}
        for o in position["opponents"]  # type: ignore[union-attr]
    ]
    seen = {
        hand,
        *(c for r in ROWS for c in board[r]),
        *(c for o in others for r in ROWS for c in o[r]),
    }
    unseen = [c for c in DECK_52.cards if c not in seen]
    holes = [r for r in ROWS if len(board[r]) < SIZES[r]]
    out = {}
    for row in holes:
        now = {r: board[r] + ([hand] if r == row else []) for r in ROWS}
        (last,) = [r for r in ROWS for _ in range(SIZES[r] - len(now[r]))]
        values = []
        for card in unseen:
            final = {r: now[r] + ([card] if r == last else []) for r in ROWS}
            units = sum(reference.pair_units(final, o) for o in others)
            fl = reference.fantasyland(
                final, progressive=False, in_fantasyland=False, stay="default"
            )
            values.append(units + (value if fl else 0.0))
        mean = sum(values) / len(values)
        out[row] = (mean, math.sqrt(sum((v - mean) ** 2 for v in values) / len(values)))
    return out


def test_classic_street_eight_agrees_with_the_exact_expectation() -> None:
    """One card to place, one still to come to the player, the opponents complete: the
    simulated value of each placement is within four standard errors of the exact mean over
    every card that can come (the own last card is forced into the last hole). The standard
    error is the exact distribution's, over the deals the placement was simulated: a rare
    card may not come in 32 deals, when the sample's own spread is 0."""
    rng = random.Random(8)
    checked = 0
    for _ in range(12):
        opponents = rng.choice((1, 2))
        deck = _shuffled_deck(rng, opponents)
        holes = rng.sample(ROWS, 2)
        board, deck = _random_classic_board(rng, deck, holes)
        hand = deck.pop(0)
        others = _complete_boards(deck, opponents)
        position = {"street": 8, "hand": [str(hand)], "board": board, "opponents": others}
        advice = advise(
            position, "classic", fantasyland_value=10.0, samples=400, seed=rng.randrange(99)
        )
        expected = _classic_expectation(position, 10.0)
        assert not advice.exact and len(advice.ranked) == len(expected) == 2
        for r in advice.ranked:
            (row,) = [
                label for label, e in zip(ROWS, _row_enums(), strict=True) if r.placement.row(e)
            ]
            assert r.placement.discard == () and r.samples >= 32
            mean, sd = expected[row]
            assert abs(r.value - mean) <= 4 * sd / math.sqrt(r.samples) + 1e-9, (position, r, mean)
            checked += r.samples > 100
    assert checked > 0  # some placements were simulated long enough to be a close check


def test_classic_placements_are_one_card_into_a_row_with_room() -> None:
    first = read_position({"street": 1, "hand": "As Kd 7c 7h 2s", "opponents": [{}]}, "classic")
    assert len(legal_placements(first)) == 232 == _count_placements((5, 5, 3), 5, 5)
    boards = [
        ({"back": "2c 3c 4c 5c 6c", "middle": "7d", "front": ""}, (0, 4, 3)),
        ({"back": "2c 3c", "middle": "7d 8d 9d Td Jd", "front": "Qh Qs"}, (3, 0, 1)),
        ({"back": "2c 3c 4c 5c 6c", "middle": "7d 8d 9d Td Jd", "front": "Qh Qs"}, (0, 0, 1)),
    ]
    for board, room in boards:
        placed = sum(len(v.split()) for v in board.values())
        position = read_position(
            {"street": placed - 3, "hand": "Ah", "board": board, "opponents": [{}]}, "classic"
        )
        placements = legal_placements(position)
        assert len(placements) == _count_placements(room, 1, 1) == sum(r > 0 for r in room)
        for p in placements:
            assert p.discard == () and len(p.back) + len(p.middle) + len(p.front) == 1
            assert p.on(position.board).size == placed + 1


def test_classic_reads_its_own_streets_and_table() -> None:
    """Classic's boards grow by one card a street: an opponent's board of 6 cards is a
    street's end there, not in pineapple; 4 seats are a classic table, not a pineapple one;
    a 4-seat classic table on street 1 needs every card of the deck."""
    six = {"back": "2s 3s 4s", "middle": "5d 6d", "front": "7h"}
    position = {"street": 2, "hand": "Qd", "board": {"back": "As Ad", "middle": "Kc Kd",
                "front": "9h"}, "opponents": [six]}  # fmt: skip
    advice = advise(position, "classic", samples=16)
    assert len(advice.ranked) == 3 and not advice.exact
    with pytest.raises(InvalidInputError) as err:
        advise({**position, "hand": "Qd Qh Qs"}, "pineapple")
    assert "opponents[0]" in [v.field for v in err.value.violations]
    full = {"street": 1, "hand": "As Kd 7c 7h 2s", "opponents": [{}, {}, {}]}
    assert len(advise(full, "classic", samples=8).ranked) == 232
    with pytest.raises(InvalidInputError) as err:
        advise(full, "pineapple", samples=8)
    assert [v.field for v in err.value.violations] == ["opponents"]
    with pytest.raises(InvalidInputError) as err:
        advise({**full, "dead": ["Qc"]}, "classic", samples=8)
    assert [v.field for v in err.value.violations] == ["dead"]
    cases = [
        ({**position, "street": 10}, "street"),
        ({**position, "hand": "Qd Qh"}, "hand"),
        ({**position, "street": 3}, "street"),
    ]
    for bad, field in cases:
        with pytest.raises(InvalidInputError) as err:
            advise(bad, "classic")
        assert field in [v.field for v in err.value.violations], (field, str(err.value))
