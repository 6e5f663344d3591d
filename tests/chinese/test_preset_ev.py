"""Issue 28: the ``ev`` objective under RULES §2.5's presets and rule files.

* The vocabulary's naturals on card indices (``ev_kernel.natural_mask``) agree with the
  naturals module on random and crafted hands, for every natural of CP-15.
* The kernels' settlement (``settle_terms``, ``settle_table_candidates``: what rollouts and the
  calibrated pool settle by) equals ``score`` (the table layer, CP-7..CP-17 with the sweep) on
  random tables under both presets and a rule file using every option.
* ``solve`` answers under ``shisanshui``, ``maubinh`` and a rule file with the default ``ev``
  objective, from a stand-in key that the answer names; the natural rates are the rule set's
  list's; ``declare=auto`` declares; the rollouts' mean agrees with an independent simulation
  of the same tables scored by ``score``.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

from cpsolver import solve
from cpsolver.cards import Card, parse_cards
from cpsolver.chinese import ev_kernel as K
from cpsolver.chinese.ev_model import (
    declare_ev,
    model_for,
    natural_odds,
    natural_rates,
    tables_info,
    total_ev,
)
from cpsolver.chinese.natural_rates import SAMPLE, count_masks, mask_counts
from cpsolver.chinese.naturals import detect_naturals
from cpsolver.chinese.pool import pool_for
from cpsolver.chinese.rollouts import rollout
from cpsolver.chinese.scoring import score
from cpsolver.chinese.table_keys import all_keys, preset_keys, stand_in_key, table_key
from cpsolver.evaluator.poker import evaluate
from cpsolver.rules.chinese import ChineseRules, NaturalName

VOCABULARY = list(NaturalName)
EVERY_NATURAL = ChineseRules().replace(
    naturals=[{"natural": n.value, "units": i + 1} for i, n in enumerate(VOCABULARY)]
)
# A rule file's rule set using every option of §2.5 away from its default.
EVERY_OPTION = ChineseRules.from_toml(
    """
preset = "shisanshui"
players = 3
bonus_paid = "always"
scoring = "scoop_bonus:2"
foul = "fixed:5"
natural_ties = "difference"
declare = "auto"
naturals_scooped = true
[royalties]
front = { pair = 1, three_of_a_kind = 4 }
back = { four_of_a_kind = 6, royal_flush = 9 }
[[naturals]]
natural = "dragon"
units = 20
[[naturals]]
natural = "six_pairs"
units = 5
[[naturals]]
natural = "three_flushes"
units = 3
"""
)
PRESETS = [ChineseRules.preset("shisanshui"), ChineseRules.preset("maubinh"), EVERY_OPTION]


def _mask_by_module(indices: list[int]) -> int:
    cards = [Card.from_index(i) for i in indices]
    return sum(1 << VOCABULARY.index(n.kind) for n in detect_naturals(cards, EVERY_NATURAL))


CRAFTED = {
    NaturalName.CLEAN_DRAGON: "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah",
    NaturalName.DRAGON: "As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s",
    NaturalName.TWELVE_ROYALS: "Js Jh Jd Qs Qh Qd Qc Ks Kh Kd As Ah Ad",
    NaturalName.THREE_STRAIGHT_FLUSHES: "Ah 2h 3h 4s 5s 6s 7s 8s 9d Td Jd Qd Kd",
    NaturalName.THREE_QUADS: "As Ad Ac Ah Ks Kd Kc Kh Qs Qd Qc Qh 2c",
    NaturalName.ALL_HIGH: "8s 8h 9d 9c Ts Jh Jd Qc Ks Kh Ad Ac Th",
    NaturalName.ALL_LOW: "2s 2h 3d 3c 4s 5h 5d 6c 7s 7h 8d 8c 4h",
    NaturalName.ONE_COLOR: "2s 4s 6s 8s Ts Qs As 3c 5c 7c 9c Jc Kc",
    NaturalName.TWELVE_ONE_COLOR: "2s 4s 6s 8s Ts Qs As 3c 5c 7c 9c Jc Kh",
    NaturalName.TWO_FULL_HOUSES_TRIPS: "2s 2h 2d 7s 7h 7d 9s 9h 9d Kc Kd 4c 4d",
    NaturalName.FOUR_TRIPS: "2s 2h 2d 7s 7h 7d 9s 9h 9d Kc Kd Ks 4d",
    NaturalName.FIVE_PAIRS_TRIPS: "2s 2h 2d 7s 7h 9d 9s Jh Jd Kc Kd 4c 4d",
    NaturalName.SIX_PAIRS: "2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As",
    NaturalName.THREE_STRAIGHTS: "Ah 2c 3d 2s 3c 4h 5s 6d 7c 8d 9s Th Jc",
    NaturalName.THREE_FLUSHES: "2h 5h 9h 3h 4h 7h Jh Kh 2s 6s 8s Ts Qs",
}


@pytest.mark.parametrize("natural", VOCABULARY, ids=lambda n: n.value)
def test_the_kernel_finds_every_natural_of_the_vocabulary(natural: NaturalName) -> None:
    indices = [c.index for c in parse_cards(CRAFTED[natural])]
    mask = K.natural_mask(np.array(indices, dtype=np.int8))
    assert mask >> VOCABULARY.index(natural) & 1, natural
    assert mask == _mask_by_module(indices)


def test_the_kernel_agrees_with_the_naturals_module_on_random_and_lopsided_hands() -> None:
    rng = random.Random(28)
    for i in range(4000):
        if i % 2:
            indices = rng.sample(range(52), 13)
        else:  # few ranks or few suits: where the naturals are
            ranks = rng.sample(range(13), rng.randint(4, 13))
            suits = rng.sample(range(4), rng.randint(1, 4))
            pool = [4 * r + s for r in ranks for s in suits]
            if len(pool) < 13:
                continue
            indices = rng.sample(pool, 13)
        hand = np.array(indices, dtype=np.int8)
        assert K.natural_mask(hand) == _mask_by_module(indices), indices


def test_codes_follow_the_rule_sets_list() -> None:
    hand = np.array([[c.index for c in parse_cards(CRAFTED[NaturalName.DRAGON])]], np.int8)
    for rules, expected in ((ChineseRules(), 1), (ChineseRules.preset("shisanshui"), 2)):
        assert K.natural_codes(hand, K.kernel_terms(rules).order)[0] == expected


def test_the_shipped_natural_histogram_is_a_count_of_its_seeded_hands() -> None:
    """The file holds SAMPLE hands; its first 100,000 (the first chunk) recounted here are a
    sub-sample of it, and its dragon count agrees with the exact rate 4^13 / C(52, 13)."""
    size, counts = mask_counts()
    assert size == SAMPLE
    shipped = dict(counts)
    for mask, count in count_masks(100_000).items():
        assert shipped.get(mask, 0) >= count, mask
    dragon_bit = 1 << VOCABULARY.index(NaturalName.DRAGON)
    dragons = sum(c for m, c in counts if m & dragon_bit)
    expected = SAMPLE * 4**13 / math.comb(52, 13)
    assert abs(dragons - expected) < 4 * math.sqrt(expected)


def _random_table(rng: random.Random, players: int, rules: ChineseRules) -> list[object]:
    """Random seats: rows in random order (some foul), now and then a declared natural."""
    deck = rng.sample(range(52), 13 * players)
    seats: list[object] = []
    for p in range(players):
        cards = [Card.from_index(i) for i in deck[13 * p : 13 * p + 13]]
        if detect_naturals(cards, rules) and rng.random() < 0.8:
            seats.append({"cards": cards, "natural": True})
        else:
            seats.append({"back": cards[:5], "middle": cards[5:10], "front": cards[10:]})
    return seats


def _classes(seat: dict[str, list[Card]], rules: ChineseRules) -> list[int]:
    wheel = rules.wheel_second_highest
    return [
        evaluate(seat[r], wheel_second_highest=wheel).strength for r in ("front", "middle", "back")
    ]


@pytest.mark.parametrize("rules", PRESETS, ids=["shisanshui", "maubinh", "every-option"])
def test_the_kernel_settlement_is_scores(rules: ChineseRules) -> None:
    """Pairings by ``settle_terms`` equal ``score``'s; with fouls and naturals."""
    rng = random.Random(5)
    terms = K.kernel_terms(rules)
    for _ in range(300):
        seats = _random_table(rng, 2, rules)
        table = score(seats, rules)
        a, b = table.players
        u, _ = K.settle_terms(
            np.array(_classes(seats[0], rules) if a.natural is None else [0, 0, 0], np.int64),
            np.array(_classes(seats[1], rules) if b.natural is None else [0, 0, 0], np.int64),
            a.fouled, b.fouled, a.natural.rank if a.natural else 0,
            b.natural.rank if b.natural else 0, *terms.args(),
        )  # fmt: skip
        assert u == table.net[0], seats


# Royalties in every row on both sides, paid win or lose under bonus_paid = "always": random
# tables above rarely hold a back royalty, so these pin each row's term of each side.
ROYALTY_SEATS = [
    {"back": "8s 8h 8d 8c 2c", "middle": "9s 9d 4d 5c 6s", "front": "3s 3h 7d"},
    {"back": "Th Jh Qh Kh Ah", "middle": "2d 2s 4c 5d 6c", "front": "4s 7c Kd"},
    {"back": "As Ad Ac Ks Kc", "middle": "Tc Ts Td 9h 9c", "front": "Qs Qd Qc"},
]


@pytest.mark.parametrize("rules", PRESETS, ids=["shisanshui", "maubinh", "every-option"])
def test_the_kernel_settles_royalties_of_every_row_as_score_does(rules: ChineseRules) -> None:
    """Crafted pairings with royalties in each row (quads and a royal flush behind, a pair
    and trips in front), in both seat orders: ``settle_terms`` equals ``score``."""
    terms = K.kernel_terms(rules)
    for i, j in ((0, 1), (1, 0), (2, 1), (1, 2)):
        seats: list[object] = [
            {r: list(parse_cards(ROYALTY_SEATS[k][r])) for r in ("back", "middle", "front")}
            for k in (i, j)
        ]
        table = score(seats, rules)
        u, _ = K.settle_terms(
            np.array(_classes(seats[0], rules), np.int64),  # type: ignore[arg-type]
            np.array(_classes(seats[1], rules), np.int64),  # type: ignore[arg-type]
            False, False, 0, 0, *terms.args(),
        )  # fmt: skip
        assert u == table.net[0], (i, j)


def _arranged(cards: list[Card], rules: ChineseRules) -> dict[str, object]:
    """The seat an opponent plays: ``solve``'s choice (the rollouts' policy)."""
    s = solve(cards, rules)
    if s.natural is not None:
        return {"cards": cards, "natural": True}
    return {"back": list(s.back), "middle": list(s.middle), "front": list(s.front)}


@pytest.mark.parametrize("rules", PRESETS, ids=["shisanshui", "maubinh", "every-option"])
def test_the_table_kernel_with_its_sweep_is_scores_table(rules: ChineseRules) -> None:
    """Deals of 4 (3 under the rule file) arranged by the solver: the candidate's units at the
    table, sweep included, are ``score``'s net of its seat (CP-13, CP-17)."""
    rng = random.Random(9)
    terms = K.kernel_terms(rules)
    swept = 0
    for _ in range(60):
        deck = rng.sample(range(52), 13 * rules.players)
        hands = [
            [Card.from_index(i) for i in deck[13 * p : 13 * p + 13]] for p in range(rules.players)
        ]
        seats = [_arranged(h, rules) for h in hands]
        table = score(seats, rules)
        swept += any(p.sweep for p in table.pairings)
        codes = [p.natural.rank if p.natural else 0 for p in table.players]
        rows = [
            _classes(s, rules) if c == 0 else [0, 0, 0] for s, c in zip(seats, codes, strict=True)
        ]
        out = K.settle_table_candidates(
            np.array(rows[:1], np.int64), np.array(codes[:1], np.int64),
            np.array([rows[1:]], np.int64), np.array([codes[1:]], np.int64), *terms.args(),
        )  # fmt: skip
        assert out[0, 0] == table.net[0], seats
    assert swept, "no deal tested the sweep"


@pytest.mark.parametrize("preset", ["shisanshui", "maubinh"])
def test_presets_answer_from_their_own_shipped_key(preset: str) -> None:
    """Issue 28: the presets' keys are trained and shipped (tables and pool) like the 15 of
    RULES §2.1-2.2, so a preset names its own key, not a stand-in."""
    rules = ChineseRules.preset(preset)
    s = solve("As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h", preset)
    assert s.objective == "ev" and s.tables is not None and not s.tables.stand_in
    assert s.tables.shipped and s.tables.key == table_key(rules).fingerprint()
    assert table_key(rules) in preset_keys() and table_key(rules) not in all_keys()
    assert "stand-in" not in s.tables.describe() and "stand_in_for" not in s.to_dict()["tables"]
    assert tables_info(rules) == s.tables
    assert pool_for(rules).key == table_key(rules)  # its own pool too


@pytest.mark.parametrize(
    ("variant", "standing"),
    [
        ('preset = "shisanshui"\nscoring = "scoop_bonus:3"\n', "shisanshui"),
        # foul=fixed:3 and declare=choice: one option from shisanshui's key, two from maubinh's
        ('preset = "maubinh"\nfoul = "fixed:3"\ndeclare = "choice"\n', "shisanshui"),
        ('preset = "maubinh"\nfoul = "fixed:3"\n', "maubinh"),
        ('preset = "eastern"\nsweep = "double"\n', "eastern"),
    ],
)
def test_an_untrained_key_answers_from_a_named_stand_in(variant: str, standing: str) -> None:
    """A rule file whose key is not trained answers from the nearest shipped key and says so:
    a preset's variant from the preset's key, a variant of §2.1-2.2 from that key."""
    rules = ChineseRules.from_toml(variant)
    s = solve("As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h", rules)
    assert s.objective == "ev" and s.tables is not None and s.tables.stand_in
    assert s.tables.stand_in_for == table_key(rules).fingerprint()
    assert s.tables.key == stand_in_key(table_key(rules)).fingerprint()
    assert stand_in_key(table_key(rules)) == table_key(ChineseRules.preset(standing))
    assert "stand-in" in s.tables.describe()
    assert s.to_dict()["tables"]["stand_in_for"] == s.tables.stand_in_for
    assert tables_info(rules) == s.tables


def test_a_rule_file_answers_on_every_surface_of_the_library(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('preset = "maubinh"\nfoul = "fixed:4"\nscoring = "scoop_bonus:3"\n')
    s = solve("As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h", str(path))
    assert s.tables is not None and s.tables.stand_in and s.analysis is not None
    assert json.loads(json.dumps(s.to_dict()))["tables"]["stand_in_for"]


@pytest.mark.parametrize("rules", PRESETS, ids=["shisanshui", "maubinh", "every-option"])
def test_natural_rates_and_values_follow_the_rule_sets_list(rules: ChineseRules) -> None:
    """The opponents' rates are the list's (rates of held naturals, first listed counted); a
    declaration's EV and the split's natural term are CP-15's settlement written here."""
    model = model_for(rules)
    rates = natural_rates(model)
    assert len(rates) == len(rules.natural_list) + 1 and rates.sum() == pytest.approx(1.0)
    units = rules.natural_units
    difference = rules.natural_ties.value == "difference"
    scooped = rules.naturals_scooped
    n = rules.players - 1

    def amount(a: int, b: int) -> float:  # CP-15 / CP-17 from RULES.md
        if a == b:
            return 0.0
        if b == 0 or (a and a < b):
            x = units[a] - (units[b] if difference and b else 0)
            sign = 1
        else:
            x = -(units[b] - (units[a] if difference and a else 0))
            sign = -1
        if scooped:
            scoring = rules.scoring.value
            x = (
                2 * x
                if scoring == "scoop_double"
                else x + sign * rules.scoop_bonus
                if scoring == "scoop_bonus:N"
                else x
            )
        return float(x)

    for code in range(1, len(units)):
        expected = n * sum(rates[k] * amount(code, k) for k in range(len(rates)))
        assert declare_ev(model, code) == pytest.approx(expected, abs=1e-12)
        win, tie, loss = natural_odds(model, code)
        assert loss == pytest.approx(1.0 - win - tie, abs=1e-12)
        assert win == pytest.approx(rates[0] + rates[code + 1 :].sum())
        assert tie == pytest.approx(rates[code])
    rows_ev = 0.7
    expected = n * (rates[0] * rows_ev + sum(rates[k] * amount(0, k) for k in range(1, len(rates))))
    assert total_ev(model, rows_ev) == pytest.approx(expected, abs=1e-12)


def test_declare_auto_declares_what_choice_may_decline() -> None:
    """A three-flush hand whose rows are worth more than 3 units: ``choice`` plays rows where
    ``declare=auto`` must declare (CP-15)."""
    hand = "Ah Kh Qh Jh Th 9s 8s 7s 6s 5s 2c 3c 5c"  # two straight flushes and a flush front
    auto = solve(hand, ChineseRules.preset("maubinh"))
    choice = solve(hand, ChineseRules.preset("maubinh", declare="choice"))
    assert auto.natural is not None and auto.natural.name == "three_flushes"
    assert choice.natural is None
    assert auto.value < choice.value


@pytest.mark.parametrize("rules", PRESETS[:2], ids=["shisanshui", "maubinh"])
def test_rollouts_agree_with_an_independent_simulation_by_score(rules: ChineseRules) -> None:
    """The rollout mean of the best candidate against the mean of ``score``'s net over deals of
    the other 39 cards arranged by the solver (another seed): within their combined 99.9%
    interval."""
    hand = "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h"
    cards = list(parse_cards(hand))
    best = rollout(cards, rules, n=600, seed=3, top=1)[0]
    assert best.rollout_ev is not None and best.rollout_ci is not None
    ours = {"back": list(best.back), "middle": list(best.middle), "front": list(best.front)}
    unseen = [i for i in range(52) if i not in {c.index for c in cards}]
    rng = random.Random(77)
    nets = []
    for _ in range(300):
        deal = rng.sample(unseen, 13 * (rules.players - 1))
        others = [
            _arranged([Card.from_index(i) for i in deal[13 * p : 13 * p + 13]], rules)
            for p in range(rules.players - 1)
        ]
        nets.append(score([ours, *others], rules).net[0])
    mean = sum(nets) / len(nets)
    sd = (sum((x - mean) ** 2 for x in nets) / (len(nets) - 1)) ** 0.5
    rollout_se = (best.rollout_ci[1] - best.rollout_ev) / 1.96
    assert abs(mean - best.rollout_ev) < 3.3 * math.hypot(sd / len(nets) ** 0.5, rollout_se)
