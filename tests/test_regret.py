"""bench/regret.py (issue 32, "Distance from optimal"): the regret of a choice against the best
of the top 20 by rollouts, on a few seeded hands with few rollouts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.calibration import hands_for
from bench.regret import FRESH_SEED, choices, key, regret
from cpsolver.cards import Card
from cpsolver.chinese.ev import analyse
from cpsolver.chinese.rollouts import rollout
from cpsolver.rules.chinese import ChineseRules

N = 60
PRESETS = ("standard", "two_four")


def _hands(count: int = 3) -> list[list[Card]]:
    return [[Card.from_index(i) for i in h] for h in hands_for(7, count)]


@pytest.mark.parametrize("preset", PRESETS)
def test_regret_on_the_same_rollouts_is_never_negative(preset: str) -> None:
    rules = ChineseRules.preset(preset)
    for i, cards in enumerate(_hands()):
        chosen = choices(cards, rules, ("calibrated", "model"))
        found = regret(cards, rules, chosen, n=N, seed=i, fresh=N)
        assert set(found["same"]) == set(found["fresh"]) == {"calibrated", "model"}
        # the best of the top 20 and the choices includes each choice: it dominates it
        assert all(value >= 0.0 for value in found["same"].values())
        assert found["outside_top"] == []  # both estimators choose among the table's top 10


@pytest.mark.parametrize("preset", PRESETS)
def test_a_policy_that_picks_the_best_by_the_same_rollouts_has_no_regret(preset: str) -> None:
    rules = ChineseRules.preset(preset)
    for i, cards in enumerate(_hands()):
        best = rollout(cards, rules, n=N, seed=i, candidates=analyse(cards, rules, top=20))[0]
        found = regret(cards, rules, {"best": best}, n=N, seed=i, fresh=N)
        assert found["same"] == {"best": 0.0}
        assert found["fresh"] == {"best": 0.0}
        assert found["pick"] == [*best.classes, best.natural]


def test_a_worse_choice_has_regret_and_the_fresh_rollouts_are_independent() -> None:
    rules = ChineseRules.preset("two_four")
    cards = _hands(1)[0]
    candidates = analyse(cards, rules, top=20)
    scored = rollout(cards, rules, n=N, seed=3, candidates=candidates)
    worst = scored[-1]
    found = regret(cards, rules, {"worst": worst}, n=N, seed=3, fresh=N)
    assert found["same"]["worst"] == pytest.approx(scored[0].score - worst.score)
    assert found["same"]["worst"] > 0.0
    # the fresh regret: the same difference on the deals of another seed
    pick = next(c for c in scored if [*c.classes, c.natural] == found["pick"])
    again = rollout(cards, rules, n=N, seed=3 ^ FRESH_SEED, candidates=[pick, worst])
    fresh = {key(c): c.score for c in again}
    assert found["fresh"]["worst"] == fresh[key(pick)] - fresh[key(worst)]


def test_a_candidates_rollout_mean_does_not_depend_on_the_others_scored() -> None:
    # Common random numbers: what makes a choice added to the top 20 comparable with them.
    rules = ChineseRules.preset("standard")
    cards = _hands(1)[0]
    candidates = analyse(cards, rules, top=20)
    everyone = {key(c): c.score for c in rollout(cards, rules, n=N, seed=5, candidates=candidates)}
    alone = rollout(cards, rules, n=N, seed=5, candidates=candidates[7:9])
    assert {key(c): c.score for c in alone} == {key(c): everyone[key(c)] for c in alone}


def test_a_run_split_with_first_has_the_whole_runs_rows(tmp_path: Path) -> None:
    """``--first N``: a run in two parts (hands 0-1, then from hand 2) writes, together, the
    lines of the whole run (hand ``i``'s rollouts are seeded by ``i``, not by its place in the
    part), but their times."""

    def run(out: Path, *extra: str) -> list[dict[str, object]]:
        subprocess.run(
            [sys.executable, "-m", "bench.regret", "--hands", "3", "--rollouts", "20",
             "--rules", "two_four", "--seed", "4", "--out", str(out), *extra],
            check=True, capture_output=True, cwd=Path(__file__).resolve().parent.parent,
        )  # fmt: skip
        rows = [json.loads(line) for line in out.read_text().splitlines()]
        for row in rows:
            row.pop("seconds")
        return rows

    whole = run(tmp_path / "whole.jsonl")
    first = run(tmp_path / "a.jsonl", "--hands", "2")
    rest = run(tmp_path / "b.jsonl", "--first", "2")
    assert len(whole) == 3 and len(rest) == 1
    assert first + rest == whole
