"""The folds of the table keys (docs/EV.md, "Table keys"): ``royalty_mode`` under
``royalties=none`` is exact, proved by training both modes; the path that trains a rule set
itself rather than its key (``bench.folds``, the measurements of the other folds) at a tiny
size. The measurements themselves (8 trainings, 10,000-deal matches) are ``make folds``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench.folds import CASES, dedicated_path, match, shipped_model, train_dedicated
from cpsolver.chinese.ev_model import (
    PACKAGE_DATA,
    OpponentModel,
    load_model,
    row_values,
    save_model,
    serve,
    table_filename,
)
from cpsolver.chinese.table_keys import table_key
from cpsolver.chinese.training import train
from cpsolver.evaluator.poker import NUM_CLASSES
from cpsolver.rules.chinese import ChineseRules

TINY = {"deals": 300, "iterations": 2, "seed": 17, "min_gain": 0.0}


def _arrays(model: object) -> list[np.ndarray]:
    return [
        getattr(model, name) for name in ("rows", "naturals", "previous_rows", "previous_naturals")
    ]


@pytest.mark.parametrize("scoring", ["per_row", "scoop_double", "two_four"])
def test_royalty_mode_is_an_exact_fold_without_royalties(scoring: str) -> None:
    """Every row is worth 1 under both modes (CP-8), so self-play is the same game: the two
    trainings give bit-identical arrays and gains, and both rule sets share one key."""
    replace = ChineseRules.preset(
        "standard", players=2, royalties="none", royalty_mode="replace", scoring=scoring
    )
    add = replace.replace(royalty_mode="add")
    assert table_key(add) == table_key(replace) == replace
    assert np.array_equal(row_values(add), row_values(replace))
    one, two = train(replace, **TINY), train(add, **TINY)  # type: ignore[arg-type]
    for a, b in zip(_arrays(one), _arrays(two), strict=True):
        assert a is not None and np.array_equal(a, b)
    assert one.meta["gains"] == two.meta["gains"]
    assert one.meta["final_gain"] == two.meta["final_gain"]


def test_the_exactness_check_sees_a_royalty_mode_that_matters() -> None:
    """The same comparison tells the modes apart when there are royalties (so the test above
    can fail): row values differ, and so do the trained arrays."""
    replace = ChineseRules.preset("standard", players=2)
    add = replace.replace(royalty_mode="add")
    assert not np.array_equal(row_values(add), row_values(replace))
    one, two = train(replace, **TINY), train(add, **TINY)  # type: ignore[arg-type]
    assert not np.array_equal(one.rows, two.rows)


def test_the_cases_fold_each_option_for_two_rule_sets_of_different_keys() -> None:
    by_option: dict[str, list[ChineseRules]] = {}
    for case in CASES:
        by_option.setdefault(case.option, []).append(case.rules)
        key = table_key(case.rules)
        # exactly the option named differs from the key (players aside: every key has 2)
        differs = {k for k, v in case.rules.to_dict().items() if v != key.to_dict()[k]}
        assert differs == {case.option}, (case.label, differs)
    assert sorted(by_option) == ["naturals", "order", "players", "wheel"]
    for rule_sets in by_option.values():
        assert len(rule_sets) == 2
        assert table_key(rule_sets[0]) != table_key(rule_sets[1])


def test_a_dedicated_model_trains_the_asked_rule_set_not_its_key(tmp_path: Path) -> None:
    rules = ChineseRules.preset("standard", players=2, wheel="second_highest", order="strict")
    model = train_dedicated(rules, deals=300, iterations=2, min_gain=0.0, seed=5)
    assert model.rules == rules != table_key(rules)
    assert model.meta["dedicated"] is True
    assert "bench.folds" in str(model.meta["command"])
    path = save_model(model, dedicated_path(rules, tmp_path).parent)
    assert path == dedicated_path(rules, tmp_path)
    assert load_model(path).rules == rules  # the file keeps the rule set it was trained for
    # Warm-started from the key's file itself (lowest scale) or from the model served to the
    # rule set (second_highest scale): the warm start is moved onto the asked scale, so both
    # train the same arrays.
    key_model = load_model(PACKAGE_DATA / table_filename(rules), rules)
    assert key_model.rules.wheel_second_highest is False
    served = shipped_model(rules)
    assert not np.array_equal(served.rows, key_model.rows)
    from_key = train(rules, deals=300, iterations=2, seed=5, min_gain=0.0, warm_start=key_model)
    assert np.array_equal(from_key.rows, model.rows)
    assert np.array_equal(from_key.previous_rows, model.previous_rows)  # type: ignore[arg-type]
    # and the other way: a key trained from a second_highest model gets it on its own scale
    key = table_key(rules)
    down = train(key, deals=300, iterations=2, seed=5, min_gain=0.0, warm_start=served)
    plain = train(key, deals=300, iterations=2, seed=5, min_gain=0.0, warm_start=key_model)
    assert np.array_equal(down.rows, plain.rows)


def test_the_fold_match_is_zero_against_itself_and_sees_a_weaker_model() -> None:
    rules = ChineseRules.preset("standard", players=3, order="strict")
    shared = shipped_model(rules)
    assert shared.rules == rules
    key_model = load_model(PACKAGE_DATA / table_filename(rules))
    assert np.array_equal(shared.rows, serve(key_model, rules).rows)
    same = match(rules, shared, shared, 200, seed=3)
    assert same.shape == (200,) and np.all(same == 0.0)
    # a model that expects every class equally often (no self-play) loses to the shipped one
    uniform = OpponentModel(
        rules, np.full((3, NUM_CLASSES), 1.0 / NUM_CLASSES), np.array([1.0, 0, 0, 0, 0])
    )
    result = match(rules, uniform, shared, 400, seed=3)
    half = 1.96 * result.std(ddof=1) / np.sqrt(len(result))
    assert result.mean() + half < 0  # measured: -0.19 +- 0.07
