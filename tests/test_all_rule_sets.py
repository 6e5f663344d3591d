"""Issue 13: one hand solved with the default objective (``ev``) under each of RULES §2's 432 rule
sets, in-process: the answer is a valid arrangement under that rule set and its EV is finite.

Until every table key ships, the rule sets whose key has no file in the package must fail with
:class:`MissingTablesError` (never anything else), and the number of keys covered must equal
the number of key files shipped: a shipped file that serves nothing, or a key served without
its file, fails the test.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest

from cpsolver import evaluate, parse_cards, solve
from cpsolver.chinese import ev_model
from cpsolver.chinese.ev_model import PACKAGE_DATA, MissingTablesError, table_filename
from cpsolver.chinese.table_keys import all_rule_sets, table_key
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
    missing = 0
    for rules in all_rule_sets():
        if table_filename(rules) not in shipped:
            with pytest.raises(MissingTablesError):
                solve(HAND, rules)
            missing += 1
            continue
        solution = solve(HAND, rules)
        assert solution.objective == "ev" and solution.rules == rules
        assert solution.ev is not None and math.isfinite(solution.ev)
        _assert_valid(solution.front, solution.middle, solution.back, rules)
        covered[table_key(rules)] += 1
    assert sum(covered.values()) + missing == 432
    assert len(covered) == len(shipped)
    for key, count in covered.items():  # each key serves its whole share of the 432
        assert count == (48 if key.royalties.value == "none" else 24)
