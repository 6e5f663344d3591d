"""Fantasyland sets (OFC-5, issue 31): the answer equals a brute force over every 13 of the
cards and every split of them, valued by the independent scorer of tests/ofc/reference.py."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt
import pytest

from cpsolver.cards import DECK_52, Card, parse_cards
from cpsolver.errors import CardError, InvalidInputError
from cpsolver.ofc import fantasyland
from tests.ofc import reference

IntArray = npt.NDArray[np.int64]


@cache
def _local_splits() -> tuple[IntArray, IntArray, IntArray]:
    """Every ordered (back, middle, front) split of 13 local positions, as position lists."""
    backs, middles, fronts = [], [], []
    for front in itertools.combinations(range(13), 3):
        rest = [p for p in range(13) if p not in front]
        for back in itertools.combinations(rest, 5):
            middle = [p for p in rest if p not in back]
            backs.append(back)
            middles.append(middle)
            fronts.append(front)
    return np.array(backs), np.array(middles), np.array(fronts)


@cache
def _local_masks() -> tuple[IntArray, IntArray, IntArray]:
    """The splits of :func:`_local_splits` as bit masks of the 13 local positions."""
    weights = np.int64(1) << np.arange(13, dtype=np.int64)
    return tuple(weights[rows].sum(axis=1) for rows in _local_splits())  # type: ignore[return-value]


def brute_force(cards: Sequence[Card], value: float, stay: str) -> float:
    """max over every 13 of ``cards`` and every valid split of royalties + value * stays."""
    n = len(cards)
    keys: dict[int, tuple[int, ...]] = {}
    sets: dict[int, list[Card]] = {}
    for size in (3, 5):
        for combo in itertools.combinations(range(n), size):
            mask = sum(1 << p for p in combo)
            chosen = [cards[p] for p in combo]
            keys[mask] = reference.hand_key(chosen)
            sets[mask] = chosen
    order = {key: rank for rank, key in enumerate(sorted(set(keys.values())))}
    size = 1 << n
    rank = np.full(size, -1, dtype=np.int64)
    roy_back = np.zeros(size)
    roy_middle = np.zeros(size)
    roy_front = np.zeros(size)
    stay_back = np.zeros(size, dtype=bool)
    stay_middle = np.zeros(size, dtype=bool)
    stay_front = np.zeros(size, dtype=bool)
    for mask, key in keys.items():
        rank[mask] = order[key]
        if len(sets[mask]) == 3:
            roy_front[mask] = reference.royalty("front", sets[mask])
            stay_front[mask] = key[0] == reference.TRIPS
        else:
            roy_back[mask] = reference.royalty("back", sets[mask])
            roy_middle[mask] = reference.royalty("middle", sets[mask])
            stay_back[mask] = key[0] >= reference.QUADS
            lowest = {"default": reference.FULL, "quads_middle": reference.QUADS}.get(stay)
            stay_middle[mask] = lowest is not None and key[0] >= lowest
    # A split's rows as masks of the 13 local positions, each cut into its low 7 and high 6
    # bits; a keep maps them to masks of the n cards by two small tables per keep (the low
    # half's 128 subsets, the high half's 64), which is the same split, found by lookups.
    halves = [(local & 127, local >> 7) for local in _local_masks()]
    subsets = np.arange(128, dtype=np.int64)
    best = -np.inf
    for keep in itertools.combinations(range(n), 13):
        bits = np.int64(1) << np.array(keep, dtype=np.int64)
        low = ((subsets[:, None] >> np.arange(7)) & 1) @ bits[:7]
        high = ((subsets[:64, None] >> np.arange(6)) & 1) @ bits[7:]
        b, m, f = (low[lo] | high[hi] for lo, hi in halves)
        valid = (rank[b] >= rank[m]) & (rank[m] >= rank[f])
        stays = stay_back[b] | stay_middle[m] | stay_front[f]
        values = roy_back[b] + roy_middle[m] + roy_front[f] + value * stays
        best = max(best, float(values[valid].max()))
    return best


def _check(cards: Sequence[Card], value: float, stay: str, progressive: bool = True) -> None:
    found = fantasyland(
        cards,
        fantasyland_value=value,
        fantasyland="progressive" if progressive else "standard",
        stay=stay,
    )
    board = {"back": found.back, "middle": found.middle, "front": found.front}
    # the set is real: the cards, once each, 13 placed, valid, valued as it says
    assert sorted(found.back + found.middle + found.front + found.discarded) == sorted(cards)
    assert not reference.fouled(board)
    stays = reference.fantasyland(board, progressive=False, in_fantasyland=True, stay=stay) > 0
    assert found.stays == stays
    assert found.royalties == reference.royalties(board)
    assert found.value == found.royalties + (value if stays else 0)
    # and the best
    assert found.value == brute_force(cards, value, stay)


def _hand(rng: random.Random, n: int) -> list[Card]:
    """Half the hands from the 28 cards 8-A (big royalties, stays), half from the full deck."""
    short = [c for c in DECK_52.cards if c.rank >= 8]
    return rng.sample(short if rng.random() < 0.5 else list(DECK_52.cards), n)


def test_the_docstring_hand_by_hand() -> None:
    """As Ah Ad in front (22, stays), K-K-K-Q-J in the middle (trips 2) and a 6-T straight
    behind (2): 26 with... the brute force decides; the set is checked like every other."""
    _check(parse_cards("As Ah Ad Kh Kd Ks Qs Jh Th 9c 8c 7c 6c 2d"), 10.0, "default", False)


@pytest.mark.parametrize("seed", range(5))
def test_fourteen_cards_equal_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(20):
        value = rng.choice((0.0, 5.0, 12.5, 30.0))
        stay = rng.choice(("default", "no_middle", "quads_middle"))
        _check(_hand(rng, 14), value, stay, progressive=rng.random() < 0.5)


def test_fifteen_cards_equal_brute_force() -> None:
    rng = random.Random(15)
    for _ in range(12):
        _check(_hand(rng, 15), rng.choice((0.0, 8.0, 25.0)), rng.choice(("default", "no_middle")))


@pytest.mark.slow
@pytest.mark.parametrize("n", [16, 17])
def test_sixteen_and_seventeen_cards_equal_brute_force(n: int) -> None:
    rng = random.Random(n)
    for _ in range(2):
        _check(_hand(rng, n), 15.0, "default")


def test_staying_is_worth_its_value() -> None:
    """Four nines can play behind (10, stays) or be split for more royalties (aces in front,
    trips and two pair elsewhere): with V = 0 the royalties decide, with V = 100 the set stays
    and gives up royalties for it. Both answers are the brute force's values."""
    cards = parse_cards("Qc 8d 9s Ah 9h Kc Ad Js 9c 9d Tc 7s 7c Jh")
    no_value = fantasyland(cards)
    rich = fantasyland(cards, fantasyland_value=100)
    assert not no_value.stays and rich.stays
    assert rich.royalties < no_value.royalties
    assert [str(c) for c in rich.back if c.rank == 9] == ["9c", "9d", "9h", "9s"]
    assert no_value.value == brute_force(cards, 0.0, "default")
    assert rich.value == brute_force(cards, 100.0, "default") == rich.royalties + 100


@pytest.mark.parametrize(
    ("call", "field", "words"),
    [
        (lambda: fantasyland("As Ks Qs"), "cards", "expected 14 cards, got 3"),
        (
            lambda: fantasyland(" ".join(str(c) for c in DECK_52.cards[:17])),
            "cards",
            "expected 14 cards, got 17",
        ),
        (
            lambda: fantasyland(
                " ".join(str(c) for c in DECK_52.cards[:18]), fantasyland="progressive"
            ),
            "cards",
            "expected 14 to 17 cards, got 18",
        ),
        (
            lambda: fantasyland(" ".join(str(c) for c in DECK_52.cards[:13]) + " 2c"),
            "cards[13]",
            "duplicate card '2c' (also cards[0])",
        ),
        (
            lambda: fantasyland(DECK_52.cards[:14], objective="fastest"),
            "objective",
            "unknown objective 'fastest'",
        ),
        (
            lambda: fantasyland(DECK_52.cards[:14], fantasyland_value=-1),
            "fantasyland_value",
            "expected a number >= 0, got -1",
        ),
        (
            lambda: fantasyland(DECK_52.cards[:14], stay="always"),
            "rules.stay",
            "invalid value 'always'",
        ),
    ],
)
def test_bad_input_names_the_field(call: object, field: str, words: str) -> None:
    with pytest.raises(InvalidInputError) as err:
        call()  # type: ignore[operator]
    assert err.value.field == field
    assert words in str(err.value)
    if field.startswith("cards"):
        assert isinstance(err.value, CardError)
