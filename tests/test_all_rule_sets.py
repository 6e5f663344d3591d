"""Issue 13: one hand solved with the default objective (``ev``) under each of RULES §2's 432 rule
sets, in-process: the answer is a valid arrangement under that rule set and its EV is finite.

Every table key ships (15 files, docs/EV.md "The shipped tables"): the number of keys covered
must equal the number of key files shipped, so a shipped file that serves nothing, or a key
served without its file, fails the test.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest
from helpers import run_cli

from cpsolver import evaluate, parse_cards, solve
from cpsolver.chinese import ev_model
from cpsolver.chinese.ev_model import PACKAGE_DATA, table_filename
from cpsolver.chinese.table_keys import (
    all_rule_sets,
    one_rule_set_per_key,
    preset_keys,
    table_key,
)
from cpsolver.client import RemoteSolver
from cpsolver.client.cli.chinese import SOLVE_ESTIMATOR
from cpsolver.rules.chinese import ChineseRules

# A wheel (so wheel=second_highest changes the rows' strengths), two pairs, no natural.
HAND = "Ah 2d 3c 4s 5h 5d 9c 9s Kh Kd Qs Jh 7c"


@pytest.fixture
def only_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CPSOLVER_TABLES", "")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    ev_model.clear_cache()


def _assert_valid(front: tuple, middle: tuple, back: tuple, rules: ChineseRules) -> None:
    """CP-2 and CP-6 checked with the evaluator alone (not the solver's foul test)."""
    assert (len(front), len(middle), len(back)) == (3, 5, 5)
    assert sorted(c.index for c in (*front, *middle, *back)) == sorted(
        c.index for c in parse_cards(HAND)
    )
    wheel = rules.wheel_second_highest
    f, m, b = (
        evaluate(list(row), wheel_second_highest=wheel).strength for row in (front, middle, back)
    )
    assert b >= m >= f
    if rules.strict_order:
        assert b > m


def test_every_rule_set_solves_with_the_default_objective(only_package: None) -> None:
    shipped = {p.name for p in PACKAGE_DATA.glob("chinese-ev-*.npz")}
    covered: Counter[ChineseRules] = Counter()
    for rules in all_rule_sets():
        assert table_filename(rules) in shipped, rules
        solution = solve(HAND, rules)
        assert solution.objective == "ev" and solution.rules == rules
        assert solution.ev is not None and math.isfinite(solution.ev)
        _assert_valid(solution.front, solution.middle, solution.back, rules)
        covered[table_key(rules)] += 1
    assert sum(covered.values()) == 432
    assert len(covered) == 15
    # the package ships these 15 and the presets' keys of RULES 2.5 (issue 28)
    assert {table_filename(k) for k in covered} | {
        table_filename(k) for k in preset_keys()
    } == shipped
    for key, count in covered.items():  # each key serves its whole share of the 432
        assert count == (48 if key.royalties.value == "none" else 24)


SAMPLE = one_rule_set_per_key(13)  # one rule set per key, the same sample as bench.rule_sets


def _set_args(rules: ChineseRules) -> list[str]:
    args = []
    for name, value in rules.to_dict().items():
        args += ["--set", f"{name}={str(value).lower()}"]
    return args


def test_a_sample_of_rule_sets_through_the_cli_and_a_real_server(remote: RemoteSolver) -> None:
    """Issue 13: the sample (one rule set of each key) solved by ``cpsolver solve --json`` and
    by a real server over loopback gives the in-process answer: the same split and EV (the
    CLI's, with its default time budget: the calibrated re-score, issue 14)."""
    assert len(SAMPLE) == 15 and len({table_key(r) for r in SAMPLE}) == 15
    assert {r.players for r in SAMPLE} == {2, 3, 4}  # the draw crosses the shared options
    for rules in SAMPLE:
        here = solve(HAND, rules)
        cli = solve(HAND, rules, estimator=SOLVE_ESTIMATOR)
        assert cli.analysis is not None and cli.analysis.ci95 is not None  # the pool's
        code, out, err = run_cli(
            ["solve", HAND, "--rules", "standard", *_set_args(rules), "--json"]
        )
        assert code == 0, err
        printed = json.loads(out)
        assert ChineseRules(**printed["rules"]) == rules
        assert printed["ev"] == pytest.approx(cli.ev, abs=1e-9)
        for name, row in (("front", cli.front), ("middle", cli.middle), ("back", cli.back)):
            assert sorted(printed["arrangement"][name]) == sorted(str(c) for c in row)
        there = remote.solve(HAND, rules)
        assert there.rules == rules and there.objective == "ev"
        assert (there.front, there.middle, there.back) == (here.front, here.middle, here.back)
        assert there.ev == pytest.approx(here.ev, abs=1e-9)
