"""Issue 28: RULES §2.5's vocabulary only adds to §2.1-2.2, so the 432 rule sets keep their
answers. ``fixtures/legacy_rule_sets.json`` was captured by ``fixtures/make_legacy_rule_sets.py``
on main before the vocabulary existed (17351c0): seeded random tables scored under every rule
set, random pairings through the fast settlement, and solves (``ev`` and ``strength``) of random
and natural hands under one rule set per table key and the presets. Each must answer the same.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpsolver.chinese.scoring import (
    SCORING_CODES,
    pair_terms,
    row_value_table,
    score,
    settle_pair,
)
from cpsolver.chinese.solve import solve
from cpsolver.chinese.table_keys import all_rule_sets
from cpsolver.rules.chinese import ChineseRules

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "legacy_rule_sets.json").read_text())


def _rules(data: dict[str, object]) -> ChineseRules:
    return ChineseRules().replace(**data)


def test_the_fixture_covers_every_legacy_rule_set_and_they_keep_their_form() -> None:
    recorded = {json.dumps(e["rules"], sort_keys=True) for e in FIXTURE["score"]}
    assert recorded == {json.dumps(r.to_dict(), sort_keys=True) for r in all_rule_sets()}
    assert len(recorded) == 432


def test_432_rule_sets_score_the_recorded_tables_as_before() -> None:
    for entry in FIXTURE["score"]:
        rules = _rules(entry["rules"])
        assert list(score(entry["players"], rules).net) == entry["net"], entry


def test_the_fast_settlement_answers_as_before() -> None:
    for entry in FIXTURE["settle_pair"]:
        rules = _rules(entry["rules"])
        a, b, fa, fb, na, nb = entry["args"]
        legacy = settle_pair(
            a, b, row_value_table(rules), SCORING_CODES[rules.scoring], fa, fb, na, nb
        )
        assert legacy == entry["units"], entry
        # The rule set's own terms (the form every §2.5 rule set settles by) agree.
        assert settle_pair(a, b, pair_terms(rules), 0, fa, fb, na, nb) == entry["units"], entry


@pytest.mark.parametrize("index", range(0, len(FIXTURE["solve"]), 1))
def test_solves_choose_as_before(index: int) -> None:
    entry = FIXTURE["solve"][index]
    # Captured when the table model was the default estimator (issue 32 made it calibrated).
    s = solve(entry["cards"], _rules(entry["rules"]), entry["objective"], estimator="model")
    got = {
        "back": " ".join(map(str, s.back)),
        "middle": " ".join(map(str, s.middle)),
        "front": " ".join(map(str, s.front)),
        "natural": None if s.natural is None else s.natural.name,
        "ev": None if s.ev is None else round(s.ev, 9),
    }
    assert got == {k: entry[k] for k in got}
