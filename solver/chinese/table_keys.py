"""Which trained opponent model serves a rule set: the *table key* (docs/EV.md, "Table keys").

RULES §2 has 432 rule sets (players 2-4 x order x wheel x royalties x royalty_mode x scoring x
naturals). Training one model per rule set is neither needed nor affordable, so a rule set is
served by the model of its **key**, the canonical rule set :func:`table_key` maps it to. The
options folded, and why:

* ``players`` -> 2. Settlement is pairwise (CP-7, CP-9) and the model treats pairings as
  independent: every EV is ``(players - 1) * (...)`` (``total_ev``, ``declare_ev``), so the
  policy's argmax, hence self-play, does not depend on the player count. Training deals
  ``players`` independent hands per deal and histograms them all: a run at 4 players samples
  the same distributions as one at 2 players with twice the deals. 2 is the canonical value
  because its deals are the cheapest (no wasted card dealing, the duplicate check settles one
  pairing per seat instead of three).
* ``royalty_mode`` when ``royalties=none``: exactly equivalent, every row value is 1 under
  both modes (CP-8), so the key keeps ``replace``.
* ``order`` -> ``weak``, ``wheel`` -> ``lowest``, ``naturals`` -> on. These change rare hands
  only; the exact rule is still applied where the solver plays (the asked rule set's foul
  test, strength scale and natural rule). ``wheel=second_highest`` orders strength classes
  differently, so a ``lowest`` model's distributions are *permuted* onto the other scale
  (:func:`wheel_permutation`: the wheel straight's probability moves to its new class). With
  ``naturals`` off the EV ignores natural rates (``total_ev`` uses "no natural"), so a model
  trained with naturals on serves both. Whether a dedicated model (self-play under the
  exact rule set) gains over the shared one is measured by duplicate matches
  (``bench.folds``, ``make folds``; the table is in docs/EV.md).

What remains: royalties {standard, eastern} x royalty_mode {replace, add} x scoring {per_row,
scoop_double, two_four} = 12 keys, plus royalties none x 3 scorings: :data:`KEY_COUNT` = 15.

>>> key = table_key(ChineseRules.preset("standard", players=3, order="strict"))
>>> key.players, key.order.value, key.wheel.value, key.naturals, key.royalties.value
(2, 'weak', 'lowest', True, 'standard')
>>> len(all_keys()), len(all_rule_sets()), len({table_key(r) for r in all_rule_sets()})
(15, 432, 15)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt

from cpsolver.evaluator.poker import Category, poker_tables
from cpsolver.rules.chinese import (
    BonusHand,
    BonusPaid,
    ChineseRules,
    Order,
    Row,
    Royalties,
    RoyaltyMode,
    Scoring,
    Wheel,
)

__all__ = [
    "CANONICAL_PLAYERS",
    "KEY_COUNT",
    "all_keys",
    "all_rule_sets",
    "differing",
    "is_legacy",
    "nearest_key",
    "one_rule_set_per_key",
    "permute_rows",
    "preset_keys",
    "rows_on_scale",
    "shipped_keys",
    "stand_in_key",
    "table_key",
    "wheel_permutation",
]

CANONICAL_PLAYERS = 2
"""The player count of every key (module doc: the cheapest deals; the model does not depend
on it)."""

KEY_COUNT = 15


@lru_cache(maxsize=256)
def table_key(rules: ChineseRules) -> ChineseRules:
    """The canonical rule set whose trained model serves ``rules`` (module doc). Cached: rule
    sets are frozen, and every ``ev`` solve asks for its key twice (model, pool)."""
    mode = RoyaltyMode.REPLACE if rules.royalties is Royalties.NONE else rules.royalty_mode
    return rules.replace(
        players=CANONICAL_PLAYERS,
        order=Order.WEAK,
        wheel=Wheel.LOWEST,
        naturals=True,
        royalty_mode=mode,
    )


LEGACY_ROYALTIES = (Royalties.STANDARD, Royalties.EASTERN, Royalties.NONE)
"""CP-8's named schedules (a rule file's own table, §2.5, is none of them)."""
LEGACY_SCORINGS = (Scoring.PER_ROW, Scoring.SCOOP_DOUBLE, Scoring.TWO_FOUR)
"""CP-9's scorings (without §2.5's ``scoop_bonus:N``)."""


def all_rule_sets() -> list[ChineseRules]:
    """Every rule set of RULES §2.1-2.2's options (432), in a fixed order."""
    return [
        ChineseRules(
            players=p, order=o, wheel=w, royalties=r, royalty_mode=m, scoring=s, naturals=n
        )
        for p, o, w, r, m, s, n in itertools.product(
            (2, 3, 4), Order, Wheel, LEGACY_ROYALTIES, RoyaltyMode, LEGACY_SCORINGS, (True, False)
        )
    ]


def all_keys() -> list[ChineseRules]:
    """The :data:`KEY_COUNT` keys, in a fixed order (royalties, royalty_mode, scoring)."""
    keys: list[ChineseRules] = []
    for rules in all_rule_sets():
        key = table_key(rules)
        if key not in keys:
            keys.append(key)
    return keys


def preset_keys() -> list[ChineseRules]:
    """The keys of RULES §2.5's named presets (CP-16: ``shisanshui``, ``maubinh``), in
    :attr:`ChineseRules.PRESETS` order: trained and shipped like :func:`all_keys`, tables and
    pool (issue 28), so a preset answers from its own key, not a stand-in.

    >>> [k.fingerprint() for k in preset_keys()] == [
    ...     table_key(ChineseRules.preset(p)).fingerprint() for p in ("shisanshui", "maubinh")]
    True
    """
    keys: list[ChineseRules] = []
    for name in ChineseRules.PRESETS:
        key = table_key(ChineseRules.preset(name))
        if key not in _legacy_keys() and key not in keys:
            keys.append(key)
    return keys


def shipped_keys() -> list[ChineseRules]:
    """Every key whose tables and opponent pool the package ships: :func:`all_keys`, then
    :func:`preset_keys`.

    >>> len(shipped_keys()) == KEY_COUNT + len(preset_keys()) == 17
    True
    """
    return all_keys() + preset_keys()


def one_rule_set_per_key(seed: int) -> list[ChineseRules]:
    """For each key of :func:`all_keys` (in that order), one of the rule sets it serves, drawn
    with ``random.Random(seed)``: a sample that reaches every key's file and, across keys,
    the folded options' values too (the benchmarks' and tests' sample of rule sets).

    >>> sample = one_rule_set_per_key(13)
    >>> len(sample), [table_key(r) for r in sample] == all_keys()
    (15, True)
    """
    members: dict[ChineseRules, list[ChineseRules]] = {key: [] for key in all_keys()}
    for rules in all_rule_sets():
        members[table_key(rules)].append(rules)
    rng = random.Random(seed)
    return [rng.choice(rule_sets) for rule_sets in members.values()]


def nearest_key(key: ChineseRules, trained: Iterable[ChineseRules]) -> ChineseRules | None:
    """Of the ``trained`` keys, the one to warm-start ``key`` from: the fewest differing
    options, ties broken by preferring the same scoring, then the same royalties (a scoring
    changes every pairing; a royalty schedule only the rare royalty hands); None when
    ``trained`` holds nothing else."""
    best: tuple[int, int, int, int] | None = None
    found: ChineseRules | None = None
    for index, other in enumerate(trained):
        other = table_key(other)
        if other == key:
            continue
        rank = (
            sum(
                getattr(key, f) != getattr(other, f)
                for f in ("royalties", "royalty_mode", "scoring")
            ),
            other.scoring is not key.scoring,
            other.royalties is not key.royalties,
            index,
        )
        if best is None or rank < best:
            best, found = rank, other
    return found


def is_legacy(rules: ChineseRules) -> bool:
    """True for a rule set of RULES §2.1-2.2 (§2.5's options at their defaults): one of the 432.

    >>> eastern, maubinh = ChineseRules.preset("eastern", players=3), ChineseRules.preset("maubinh")
    >>> is_legacy(eastern), is_legacy(maubinh)
    (True, False)
    """
    if rules.royalty_table is not None or rules.natural_table is not None:
        return False
    legacy = ChineseRules(
        players=rules.players, order=rules.order, wheel=rules.wheel, royalties=rules.royalties,
        royalty_mode=rules.royalty_mode, scoring=rules.scoring, naturals=rules.naturals,
    )  # fmt: skip
    return legacy == rules


def stand_in_key(key: ChineseRules) -> ChineseRules:
    """The trained key that stands in for ``key`` when ``key`` has no tables (a rule file of
    RULES §2.5: a bonus table of its own, ``scoop_bonus:N``, a sweep, ... ): ``key`` itself
    when it is one of :func:`shipped_keys`, else the nearest of them: the key of §2.1-2.2 with
    the named royalty schedule whose row values differ least from its own
    (``bonus_paid=always``: the values of its bonuses paid apart), ``scoop_double`` for
    ``scoop_bonus:N`` (``per_row`` for N = 0) and §2.5's other options at their defaults, or
    a preset's key (:func:`preset_keys`) when fewer options tell that one apart (a table's
    variant of a preset: its royalties, naturals and sweep, another scoring or penalty);
    docs/EV.md, "Stand-in tables".

    >>> shisanshui = table_key(ChineseRules.preset("shisanshui"))
    >>> stand_in_key(shisanshui) == shisanshui  # shipped: its own key
    True
    >>> hall = table_key(ChineseRules.preset("shisanshui", scoring="scoop_bonus:3"))
    >>> stand_in_key(hall) == shisanshui
    True
    >>> swept = stand_in_key(ChineseRules.preset("eastern", sweep="double", players=4))
    >>> swept.royalties.value, swept.scoring.value, swept in all_keys()
    ('eastern', 'per_row', True)
    """
    key = table_key(key)
    if key in _shipped_keys():
        return key
    scoring = key.scoring
    if scoring is Scoring.SCOOP_BONUS:
        scoring = Scoring.SCOOP_DOUBLE if key.scoop_bonus else Scoring.PER_ROW
    mode = key.royalty_mode
    named = min(
        LEGACY_ROYALTIES,
        key=lambda r: (
            _bonus_distance(key, ChineseRules(royalties=r, royalty_mode=mode)),
            LEGACY_ROYALTIES.index(r),
        ),
    )
    found = table_key(ChineseRules(royalties=named, royalty_mode=mode, scoring=scoring))
    fewest = _options_apart(key, found)
    for preset in preset_keys():  # ties keep the key of §2.1-2.2
        apart = _options_apart(key, preset)
        if apart < fewest:
            found, fewest = preset, apart
    return found


def _options_apart(a: ChineseRules, b: ChineseRules) -> int:
    """How many options of two rule sets differ (their full TOML forms, key by key)."""
    x, y = a.to_dict(full=True), b.to_dict(full=True)
    return sum(x[k] != y.get(k) for k in x)


def _bonus_distance(key: ChineseRules, named: ChineseRules) -> int:
    """How far apart two rule sets' row values are: the sum over rows and hands of the
    difference of a won row's units (plus a bonus paid apart)."""
    total = 0
    for row in Row:
        for hand in BonusHand:
            category = Category[hand.name] if hand is not BonusHand.ROYAL_FLUSH else None
            royal = category is None
            category = category or Category.STRAIGHT_FLUSH
            if row is Row.FRONT and category > Category.THREE_OF_A_KIND:
                continue
            ours = key.row_value(row, category, royal=royal) + key.bonus_always(
                row, category, royal=royal
            )
            if key.bonus_paid is BonusPaid.ALWAYS:
                ours -= 1 if key.royalty(row, category, royal=royal) else 0
            total += abs(ours - named.row_value(row, category, royal=royal))
    return total


@cache
def _legacy_keys() -> frozenset[ChineseRules]:
    return frozenset(all_keys())


@cache
def _shipped_keys() -> frozenset[ChineseRules]:
    return frozenset(shipped_keys())


@cache
def wheel_permutation() -> npt.NDArray[np.int64]:
    """``perm[c]``: the class on the ``wheel=second_highest`` scale of class ``c`` of the
    ``lowest`` scale (the same hand; only the wheel straights change place).

    >>> perm = wheel_permutation()
    >>> from cpsolver.evaluator.poker import evaluate
    >>> wheel = "Ah 2d 3c 4s 5h"
    >>> int(perm[evaluate(wheel).strength]) == evaluate(wheel, wheel_second_highest=True).strength
    True
    """
    low = poker_tables(False)
    high = poker_tables(True)
    class_of = {key: c for c, key in enumerate(high.keys)}
    straights = (Category.STRAIGHT, Category.STRAIGHT_FLUSH)
    wheel_low, wheel_high = 6, 23  # the wheel's doubled top rank on each scale (poker._key)
    perm = np.empty(len(low.keys), dtype=np.int64)
    for c, key in enumerate(low.keys):
        if len(key) > 1 and key[0] in straights and key[1] == wheel_low:
            key = (key[0], wheel_high, *key[2:])
        perm[c] = class_of[key]
    if sorted(perm.tolist()) != list(range(len(high.keys))):
        raise AssertionError("the two strength scales do not hold the same hands")
    perm.setflags(write=False)
    return perm


def permute_rows(
    rows: npt.NDArray[np.float64], wheel_second_highest: bool
) -> npt.NDArray[np.float64]:
    """Row distributions of a ``lowest`` model moved onto the asked strength scale."""
    if not wheel_second_highest:
        return rows
    out = np.zeros_like(rows)
    out[:, wheel_permutation()] = rows
    return out


def rows_on_scale(
    rows: npt.NDArray[np.float64], *, source_second_highest: bool, target_second_highest: bool
) -> npt.NDArray[np.float64]:
    """Row distributions of a model trained on one strength scale moved onto another (either
    way; the same array when the scales agree): how a model warm-starts a training under the
    other ``wheel`` option.

    >>> rows = np.tile(np.arange(len(wheel_permutation()), dtype=np.float64), (3, 1))
    >>> high = rows_on_scale(rows, source_second_highest=False, target_second_highest=True)
    >>> back = rows_on_scale(high, source_second_highest=True, target_second_highest=False)
    >>> bool(np.array_equal(high, rows)), bool(np.array_equal(high, permute_rows(rows, True)))
    (False, True)
    >>> bool(np.array_equal(back, rows))
    True
    """
    if source_second_highest == target_second_highest:
        return rows
    if target_second_highest:
        return permute_rows(rows, True)
    return np.ascontiguousarray(rows[:, wheel_permutation()])


def differing(rules: ChineseRules) -> dict[str, object]:
    """The options of ``rules`` that differ from the ``standard`` preset (for commands)."""
    default = ChineseRules().to_dict(full=True)
    return {k: v for k, v in rules.to_dict().items() if v != default[k]}
