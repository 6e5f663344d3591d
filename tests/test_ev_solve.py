"""The ``ev`` objective through ``solve`` and the CLI (RULES §2.3, CP-6, CP-11).

Table EV equals the direct expectation over the stored distributions; ``ev`` is the default;
it never fouls; a natural is declared only when that is worth more (CP-11); rollouts are
reproducible for a seed, capped and bounded by a deadline; the CLI trains and solves.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver import InvalidInputError, Row, evaluate, solve
from cpsolver.cards import Card
from cpsolver.chinese.ev_model import (
    PACKAGE_DATA,
    OpponentModel,
    declare_ev,
    kernel_pairing,
    model_for,
    pairing_ev,
    table_filename,
    total_ev,
)
from cpsolver.chinese.make_tables import write_manifest
from cpsolver.chinese.removal import removal_weights_reference
from cpsolver.chinese.rollouts import MAX_ROLLOUTS, rollout
from cpsolver.rules.chinese import ChineseRules

CPSOLVER = Path(sys.executable).with_name("cpsolver")
HAND = "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h"


@pytest.mark.parametrize("preset", ["standard", "two_four", "eastern", "shisanshui", "maubinh"])
def test_ev_is_the_default_and_equals_the_direct_expectation(preset: str) -> None:
    """§2.3: the reported EV is (players - 1) x the expectation over the stored rows as seen
    by a player holding these cards (card removal: numpy reference weights, then the 27-outcome
    Python enumeration of ``pairing_ev``, with §2.5's sweep under the presets of CP-16; the
    reference weights are on the ``wheel=lowest`` scale, so ``maubinh`` is taken with it)."""
    rules = ChineseRules.preset(preset, **({"wheel": "lowest"} if preset == "maubinh" else {}))
    model = model_for(rules)
    rng = random.Random(3)
    for _ in range(3):
        hand = rng.sample(range(52), 13)
        cards = [Card.from_index(i) for i in hand]
        rows = model.rows * removal_weights_reference(hand)
        seen = OpponentModel(rules, rows / rows.sum(axis=1, keepdims=True), model.naturals)
        s = solve(cards, rules, estimator="model", arrangements=3)
        assert s.objective == "ev" and s.analysis is not None
        shown = s.alternatives if s.natural else (s.arrangement, *s.alternatives)
        for arr in shown:
            classes = [arr.hands[r].strength for r in (Row.FRONT, Row.MIDDLE, Row.BACK)]
            rows_ev = pairing_ev(seen, *classes, kernel_pairing(model))
            assert arr.value == pytest.approx(total_ev(model, rows_ev))
        assert all(alt.value <= s.value for alt in s.alternatives)
        for odds in s.analysis.rows.values():
            assert odds.win + odds.tie + odds.loss == pytest.approx(1.0)


@settings(max_examples=25, derandomize=True, deadline=None)
@given(
    st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True),
    st.sampled_from(["standard", "two_four", "eastern"]),
)
def test_ev_never_returns_a_fouled_split(hand: list[int], preset: str) -> None:
    """CP-6 with the shipped tables: back >= middle > front, and the rows partition the hand."""
    cards = [Card.from_index(i) for i in hand]
    s = solve(cards, preset, alternatives=3)
    for arr in (s.arrangement, *s.alternatives):
        assert sorted(arr.back + arr.middle + arr.front) == sorted(cards)
        assert evaluate(arr.back) >= evaluate(arr.middle) > evaluate(arr.front)


def test_natural_is_declared_by_ev_cp11() -> None:
    """CP-11: a dragon is declared; six pairs holding two sets of quads plays its rows, which
    earn more (two quads royalties) than the 3 units of the natural."""
    dragon = solve("As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s")
    assert dragon.natural is not None and dragon.natural.name == "dragon"
    quads = "As Ah Ad Ac Ks Kh Kd Kc Qs Qh Js Jh 2c"
    rules = ChineseRules()
    s = solve(quads, top=3)
    assert s.natural is None
    assert s.hands[Row.BACK].category.label == "four_of_a_kind"
    assert s.hands[Row.MIDDLE].category.label == "four_of_a_kind"
    assert s.analysis is not None
    declare = [c for c in s.analysis.candidates if c.natural == "six_pairs"]
    assert declare and declare[0].ev == pytest.approx(declare_ev(model_for(rules), 4))
    assert declare[0].ev < s.value
    data = s.to_dict()
    assert any(alt.get("natural") == "six_pairs" and alt["gap"] > 0 for alt in data["alternatives"])


def test_json_has_ev_rows_and_alternatives_with_gaps() -> None:
    data = solve(HAND, top=4).to_dict()
    assert data["objective"] == "ev"
    assert data["ev"] == pytest.approx(data["value"])
    assert set(data["rows"]) == {"front", "middle", "back"}
    assert len(data["alternatives"]) == 3
    gaps = [alt["gap"] for alt in data["alternatives"]]
    assert all(g >= 0 for g in gaps) and gaps == sorted(gaps)


def test_rollouts_reproduce_for_a_seed_and_differ_across_seeds() -> None:
    rules = ChineseRules()
    a = rollout(HAND, rules, n=150, seed=11, top=4)
    b = rollout(HAND, rules, n=150, seed=11, top=4)
    c = rollout(HAND, rules, n=150, seed=12, top=4)
    assert [x.rollout_ev for x in a] == [x.rollout_ev for x in b]
    assert [x.rollout_ev for x in a] != [x.rollout_ev for x in c]
    assert all(x.rollouts == 150 and x.rollout_ci is not None for x in a)
    assert all(x.rollout_ci[0] <= x.rollout_ev <= x.rollout_ci[1] for x in a if x.rollout_ci)
    assert [x.score for x in a] == sorted((x.score for x in a), reverse=True)


def test_rollouts_are_capped_and_honour_a_deadline() -> None:
    rules = ChineseRules()
    with pytest.raises(InvalidInputError, match="rollouts"):
        rollout(HAND, rules, n=MAX_ROLLOUTS + 1, seed=1)
    quick = rollout(HAND, rules, n=MAX_ROLLOUTS, seed=1, top=2, deadline=0.01)
    assert 100 <= quick[0].rollouts < MAX_ROLLOUTS
    with pytest.raises(InvalidInputError, match="rollouts:10 needs the ev objective"):
        solve(HAND, objective="strength", rollouts=10)


def test_rollout_mean_agrees_with_table_ev_on_average() -> None:
    """Across random hands the simulated and the table EV of the choice agree on average
    (card removal moves single hands, not the mean): a check of both computations."""
    rules = ChineseRules.preset("two_four")
    rng = random.Random(8)
    diffs = []
    for _ in range(12):
        cards = [Card.from_index(i) for i in rng.sample(range(52), 13)]
        best = rollout(cards, rules, n=300, seed=2, top=1)[0]
        assert best.rollout_ev is not None
        diffs.append(best.rollout_ev - best.ev)
    assert abs(sum(diffs) / len(diffs)) < 0.35


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CPSOLVER), *args], capture_output=True, text=True, timeout=300, check=False, env=env
    )


def test_cli_solve_reports_ev_and_rollouts_reproducibly() -> None:
    out = run("solve", HAND, "--json", "--rollouts", "60", "--seed", "5", "--top", "3")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["objective"] == "ev" and data["rollouts"] == 60
    assert len(data["alternatives"]) == 2 and len(data["ev_ci95"]) == 2
    assert all("ci95" in alt for alt in data["alternatives"])
    again = json.loads(
        run("solve", HAND, "--json", "--rollouts", "60", "--seed", "5", "--top", "3").stdout
    )
    assert again["ev"] == data["ev"]
    human = run("solve", HAND, "--top", "2")
    assert "expected units" in human.stdout and "P(win)" in human.stdout


SLIM_CLI = (
    "import sys; from pathlib import Path; from cpsolver.chinese import ev_model; "
    "ev_model.PACKAGE_DATA = Path(sys.argv[1]); sys.argv[1:2] = []; "
    "from cpsolver.client.cli import main; main()"
)  # the real CLI over a package directory without one key (a slimmed installation)


def test_cli_train_then_solve_an_untrained_rule_set(tmp_path: Path) -> None:
    env = {**os.environ, "CPSOLVER_TABLES": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "x")}
    solve_args = ("solve", HAND, "--rules", "two_four", "--set", "scoring=scoop_double")
    shipped = run(*solve_args, "--json", env=env)  # the package serves every key
    assert shipped.returncode == 0, shipped.stderr
    # A package without this key's file and manifest entry: exit 2 and the command to train it.
    package = tmp_path / "package"
    shutil.copytree(PACKAGE_DATA, package)
    (package / table_filename(ChineseRules.preset("two_four", scoring="scoop_double"))).unlink()
    write_manifest(package)
    missing = subprocess.run(
        [sys.executable, "-c", SLIM_CLI, str(package), *solve_args],
        capture_output=True, text=True, timeout=300, check=False, env=env,
    )  # fmt: skip
    assert missing.returncode == 2, missing.stderr
    assert (
        "cpsolver train --rules standard --set players=2 --set royalties=none "
        "--set scoring=scoop_double" in missing.stderr
    )
    trained = run(
        "train", "--set", "scoring=scoop_double", "--rules", "two_four", "--deals", "60",
        "--iterations", "1", "--seed", "1", "--workers", "1", "--out", str(tmp_path), env=env,
    )  # fmt: skip
    # One iteration cannot converge: the file is written, the exit code says under-trained.
    assert trained.returncode == 5, trained.stderr
    assert "wrote" in trained.stderr
    # The user's file is the table key's, searched before the package's: it serves the trained
    # rule set (with its own, different values) and the others of its key.
    mine = run(*solve_args, "--json", env=env)
    assert mine.returncode == 0, mine.stderr
    assert json.loads(mine.stdout)["ev"] != json.loads(shipped.stdout)["ev"]
    for extra in (("--set", "order=strict"), ("--set", "players=4", "--set", "naturals=true")):
        ok = run(*solve_args, *extra, "--json", env=env)
        assert ok.returncode == 0, ok.stderr
        assert json.loads(ok.stdout)["rules"]["scoring"] == "scoop_double"
        option, value = extra[-1].split("=")
        assert str(json.loads(ok.stdout)["rules"][option]).lower() == value


def test_a_declared_natural_reports_its_settlement_not_the_unused_rows() -> None:
    """Issue 14: declaring (CP-11), the report gives the natural's settlement against one
    opponent from the model's natural rates, and the CLI shows it instead of row odds."""
    hand = "2h 5h 9h 3h 4h 7h Jh Kh 2s 6s 8s Ts Qs"  # CP-E12 three flushes
    s = solve(hand, estimator="model")
    assert s.natural is not None and s.analysis is not None
    settled = s.analysis.settlement
    assert settled is not None and settled.name == "three_flushes" and settled.units == 3
    rates = model_for(ChineseRules()).naturals  # none, dragon, flushes, straights, six pairs
    assert settled.win == pytest.approx(rates[0] + rates[3] + rates[4])
    assert settled.tie == pytest.approx(rates[2])
    assert settled.loss == pytest.approx(rates[1], abs=1e-12)
    assert s.ev == pytest.approx(3 * (3 * settled.win - 13 * settled.loss))
    plain = solve("As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h", estimator="model")
    assert plain.analysis is not None and plain.analysis.settlement is None
    shown = run("solve", hand, env={**os.environ, "COLUMNS": "100"})
    assert shown.returncode == 0, shown.stderr
    assert "declaring three flushes, against one opponent:" in shown.stdout
    assert "P(win)" not in shown.stdout
    as_json = run("solve", hand, "--json")
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout)["natural_settlement"] == settled.to_dict()


def test_the_ev_comes_with_an_estimate_in_the_shape_of_the_other_games() -> None:
    """Issue 14: ``{value, low, high, exact}``; never exact; the rollouts' CI with rollouts,
    else, for the table model, the calibration bound of the rule set's scoring."""
    hand = "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h"
    for preset, bound in (("standard", 0.50), ("two_four", 0.20)):
        report = solve(hand, preset, estimator="model").analysis
        assert report is not None and report.estimate is not None
        e = report.estimate.to_dict()
        assert e == {"value": report.ev, "low": e["low"], "high": e["high"], "exact": False}
        assert e["low"] == pytest.approx(report.ev - bound) and e["high"] == pytest.approx(
            report.ev + bound
        )
    sampled = solve(hand, rollouts=200, seed=3).analysis
    assert sampled is not None and sampled.estimate is not None and sampled.ci95 is not None
    assert (sampled.estimate.low, sampled.estimate.high) == sampled.ci95
    assert sampled.estimate.value == sampled.ev and not sampled.estimate.exact


def test_hand_array_of_cards_is_the_parsed_hand_array() -> None:
    """hand_array's shortcut for 13 Cards (what solve passes on) gives what parsing the text
    gives, and 13 Cards with a duplicate still get parse_cards' error naming it."""
    import numpy as np

    from cpsolver.cards import Card
    from cpsolver.chinese.ev import hand_array
    from cpsolver.errors import CardError

    rng = random.Random(3)
    for _ in range(50):
        cards = [Card.from_index(i) for i in rng.sample(range(52), 13)]
        ordered, array = hand_array(cards)
        want_ordered, want_array = hand_array(" ".join(str(c) for c in cards))
        assert ordered == want_ordered
        assert array.dtype == want_array.dtype == np.int8
        assert array.tolist() == want_array.tolist() == sorted(c.index for c in cards)
        assert hand_array(tuple(cards))[1].tolist() == array.tolist()
    twice = [*cards[:12], cards[0]]
    with pytest.raises(CardError, match=r"cards\[12\]: duplicate card"):
        hand_array(twice)
