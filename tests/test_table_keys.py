"""Table keys (docs/EV.md): which trained model serves each of RULES §2's 432 rule sets, how a
key's model is served under the exact asked rule set, the package's damaged-file errors, the
warm-start plan of ``make tables`` and ``cpsolver train`` training a key."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest
from helpers import run_cli

from cpsolver import evaluate, solve
from cpsolver.chinese import ev_model
from cpsolver.chinese.ev_kernel import F_VALUE
from cpsolver.chinese.ev_model import (
    MANIFEST,
    PACKAGE_DATA,
    MissingTablesError,
    OpponentModel,
    TablesError,
    load_model,
    model_for,
    package_manifest,
    row_values,
    save_model,
    table_filename,
)
from cpsolver.chinese.make_tables import DEFAULTS, plan, train_keys, write_manifest
from cpsolver.chinese.table_keys import (
    KEY_COUNT,
    all_keys,
    all_rule_sets,
    nearest_key,
    preset_keys,
    shipped_keys,
    table_key,
    wheel_permutation,
)
from cpsolver.evaluator.poker import NUM_CLASSES
from cpsolver.rules.chinese import ChineseRules, Row

HAND = "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h"


@pytest.fixture
def only_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Search only the package's tables (no user files), with an empty model cache."""
    monkeypatch.setenv("CPSOLVER_TABLES", "")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    ev_model.clear_cache()
    yield tmp_path
    ev_model.clear_cache()


def _random_model(rules: ChineseRules, seed: int = 0) -> OpponentModel:
    rng = np.random.default_rng(seed)
    rows = rng.random((3, NUM_CLASSES))
    nat = rng.random(5)
    return OpponentModel(rules, rows / rows.sum(axis=1, keepdims=True), nat / nat.sum())


def test_432_rule_sets_fold_onto_15_keys() -> None:
    rule_sets = all_rule_sets()
    assert len(set(rule_sets)) == 2 * 3 * 2 * 2 * 3 * 2 * 3 * 2 // 2 == 432  # RULES §2
    keys = {table_key(r) for r in rule_sets}
    assert len(keys) == KEY_COUNT == len(all_keys()) == 15
    for key in keys:
        assert (key.players, key.order.value, key.wheel.value, key.naturals) == (
            2, "weak", "lowest", True,
        )  # fmt: skip
        assert table_key(key) == key
    # What changes play keeps keys apart: schedule, mode (with royalties), scoring ...
    base = ChineseRules()
    for change in ({"royalties": "eastern"}, {"royalty_mode": "add"}, {"scoring": "two_four"}):
        assert table_key(base.replace(**change)) != table_key(base)
    # ... and royalty_mode is exactly equivalent without royalties (every row worth 1).
    none = base.replace(royalties="none")
    add = none.replace(royalty_mode="add")
    assert table_key(add) == table_key(none)
    assert np.array_equal(row_values(add), row_values(none))
    assert not np.array_equal(row_values(base.replace(royalty_mode="add")), row_values(base))


def test_wheel_permutation_moves_only_the_wheel_straights() -> None:
    perm = wheel_permutation()
    assert sorted(perm.tolist()) == list(range(NUM_CLASSES))
    moved = {c for c in range(NUM_CLASSES) if perm[c] != c}
    for hand in ("Ah 2d 3c 4s 5h", "Ah 2h 3h 4h 5h"):
        low = evaluate(hand).strength
        high = evaluate(hand, wheel_second_highest=True).strength
        assert perm[low] == high and low in moved
        # just below the ace-high one on the second_highest scale
        royal = "Ah Kh Qh Jh Th" if "2h" in hand and "2d" not in hand else "Ah Kd Qc Js Th"
        assert high == evaluate(royal, wheel_second_highest=True).strength - 1
    for hand in ("6h 5d 4c 3s 2h", "Ah Kd Qc Js 9h", "2c 2d 2h 5s 5c"):  # any other hand:
        low = evaluate(hand).strength  # the same hand, whatever its class number
        assert evaluate(hand, wheel_second_highest=True).name == evaluate(hand).name
        assert perm[low] == evaluate(hand, wheel_second_highest=True).strength


def test_a_served_model_has_the_asked_rules_and_the_key_distributions_on_its_scale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CPSOLVER_TABLES", str(tmp_path))
    ev_model.clear_cache()
    asked = ChineseRules().replace(
        players=3, order="strict", wheel="second_highest", royalty_mode="add", naturals=False
    )
    key = table_key(asked)
    save_model(_random_model(key, seed=3), tmp_path)
    served = model_for(asked)
    trained = load_model(tmp_path / table_filename(asked))
    assert served.rules == asked and trained.rules == key
    wheel = "Ah 2d 3c 4s 5h"
    low, high = evaluate(wheel).strength, evaluate(wheel, wheel_second_highest=True).strength
    assert served.rows[2, high] == trained.rows[2, low]
    assert np.allclose(np.sort(served.rows, axis=1), np.sort(trained.rows, axis=1))
    # The exact rule applies: add-mode row values (a back quad collects 1 + 4).
    quads = evaluate("7s 7h 7d 7c 3s", wheel_second_highest=True).strength
    assert served.tables[Row.BACK, F_VALUE, quads] == 5.0
    solution = solve(HAND, asked)
    assert solution.rules == asked and math.isfinite(solution.ev or math.nan)
    ev_model.clear_cache()


def test_players_scale_the_ev_and_keep_the_choice(only_package: Path) -> None:
    """Settlement is pairwise: the same key serves 2, 3 and 4 players, EV x (players - 1)."""
    by_players = {p: solve(HAND, "standard", players=p) for p in (2, 3, 4)}
    two = by_players[2].ev
    assert two is not None
    for p, s in by_players.items():
        assert s.ev == pytest.approx((p - 1) * two, rel=1e-12)
        assert (s.front, s.middle, s.back) == (by_players[2].front, by_players[2].middle,
                                               by_players[2].back)  # fmt: skip


def test_naturals_off_never_declares_under_a_naturals_on_key(only_package: Path) -> None:
    six_pairs = "2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As"  # CP-E9
    assert solve(six_pairs, "standard").natural is not None
    off = solve(six_pairs, "standard", naturals=False)
    assert off.natural is None and math.isfinite(off.ev or math.nan)


def test_missing_package_file_is_a_tables_error_naming_it(
    only_package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = only_package / "data"
    shutil.copytree(PACKAGE_DATA, data)
    monkeypatch.setattr(ev_model, "PACKAGE_DATA", data)
    name = table_filename(ChineseRules.preset("eastern"))
    (data / name).unlink()
    with pytest.raises(TablesError, match=f"{data / name}.*missing") as err:
        model_for(ChineseRules.preset("eastern"))
    assert not isinstance(err.value, MissingTablesError)
    # A key the package does not list (a slimmed package: file and manifest entry gone) is not a
    # damaged package: it keeps its own error, which says how to train it.
    untrained = ChineseRules.preset("two_four", scoring="scoop_double")
    (data / table_filename(untrained)).unlink()
    write_manifest(data)
    with pytest.raises(MissingTablesError, match="cpsolver train"):
        model_for(untrained)


def test_corrupt_package_file_is_a_tables_error_naming_it(
    only_package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = only_package / "data"
    shutil.copytree(PACKAGE_DATA, data)
    monkeypatch.setattr(ev_model, "PACKAGE_DATA", data)
    path = data / table_filename(ChineseRules())
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 3 : len(raw) // 3 + 64] = bytes(64)
    path.write_bytes(bytes(raw))
    with pytest.raises(TablesError, match=str(path)):
        solve(HAND)
    (data / MANIFEST).write_text("{not json", encoding="utf-8")
    path.unlink()
    with pytest.raises(TablesError, match=str(data / MANIFEST)):
        model_for(ChineseRules())


def test_nearest_key_prefers_one_option_away_then_the_same_scoring() -> None:
    standard = table_key(ChineseRules())
    add_scoop = table_key(ChineseRules(royalty_mode="add", scoring="scoop_double"))
    scoop = table_key(ChineseRules(scoring="scoop_double"))
    add = table_key(ChineseRules(royalty_mode="add"))
    assert nearest_key(add_scoop, [standard]) == standard
    assert nearest_key(add_scoop, [standard, add, scoop]) == scoop  # same scoring wins the tie
    assert nearest_key(standard, [standard]) is None


def test_make_tables_plan_trains_every_key_once_each_from_a_trained_one() -> None:
    steps = plan()
    assert len(steps) == len(shipped_keys()) + 1 == KEY_COUNT + 3
    assert {s.key for s in steps} == set(shipped_keys()) > set(all_keys())
    assert steps[0].key == table_key(ChineseRules()) and steps[0].warm_start is None
    # the cold key once more, from its own file (the restart); then every other key once
    assert steps[1].key == steps[1].warm_start == steps[0].key
    seen = {steps[0].key}
    for step in steps[2:]:
        assert step.warm_start in seen and step.key not in seen  # from a key trained before
        seen.add(step.key)
    line = steps[1].command(out=Path("solver/data"), **DEFAULTS)  # type: ignore[arg-type]
    assert "--deals 40000 --iterations 16 --min-gain 0.001 --seed 2026" in line
    assert f"--warm-start solver/data/{table_filename(steps[1].warm_start)}" in line


def test_make_tables_missing_trains_only_the_keys_without_a_file() -> None:
    """``make_tables --missing``: with the 15 keys of §2.1-2.2 trained, only the presets'
    keys, each warm-started from one trained before it; their commands start from the
    preset (its list of naturals is not a ``--set``)."""
    steps = plan(trained=all_keys())
    assert [s.key for s in steps] == preset_keys()
    seen = set(all_keys())
    for step in steps:
        assert step.warm_start in seen
        seen.add(step.key)
    line = steps[0].command(out=Path("solver/data"), **DEFAULTS)  # type: ignore[arg-type]
    assert line.startswith("cpsolver train --rules shisanshui --set players=2 ")
    assert plan(trained=shipped_keys()) == []


def test_make_tables_trains_keys_with_a_warm_start_and_writes_the_manifest(
    tmp_path: Path,
) -> None:
    steps = plan()[:2]
    converged = train_keys(
        steps, tmp_path, deals=300, iterations=1, min_gain=0.0, seed=4, log=lambda _: None
    )
    assert set(converged) == {table_filename(s.key) for s in steps}
    write_manifest(tmp_path)
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    assert sorted(manifest["files"]) == sorted(converged)
    second = load_model(tmp_path / table_filename(steps[1].key))
    assert second.rules == steps[1].key
    assert second.meta["warm_start"] == steps[0].key.to_dict()
    assert "--warm-start" in str(second.meta["command"])
    # The warm start changed the run: from the strength policy instead, other tables.
    from cpsolver.chinese.training import train

    cold = train(steps[1].key, deals=300, iterations=1, min_gain=0.0, seed=4)
    assert not np.array_equal(cold.rows, second.rows)


def test_make_tables_restart_waits_for_its_cold_run_when_steps_run_concurrently(
    tmp_path: Path,
) -> None:
    """With a chunk map (Ray) the steps run concurrently, each once its warm start is written;
    the restart warm-starts from the file its own cold step writes, so it must wait for that
    step (not for itself), and start from what that step wrote."""
    steps = plan()[:3]
    assert steps[1].warm_start == steps[0].key == steps[1].key
    runs = {"restart": tmp_path / "restart", "serial": tmp_path / "serial"}
    params = {"deals": 300, "iterations": 1, "min_gain": 0.0, "seed": 4, "log": lambda _: None}
    train_keys(steps, runs["restart"], chunk_map=map, **params)  # type: ignore[arg-type]
    train_keys(steps, runs["serial"], **params)  # type: ignore[arg-type]
    for name in {table_filename(s.key) for s in steps}:
        concurrent, serial = (load_model(d / name) for d in runs.values())
        assert np.array_equal(concurrent.rows, serial.rows), name
    from cpsolver.chinese.training import train

    restarted = load_model(runs["serial"] / table_filename(steps[0].key))
    assert restarted.meta["warm_start"] == steps[0].key.to_dict()
    cold = train(steps[0].key, deals=300, iterations=1, min_gain=0.0, seed=4)
    assert not np.array_equal(cold.rows, restarted.rows)


def test_cli_train_trains_the_key_of_the_asked_rule_set(tmp_path: Path) -> None:
    code, _, err = run_cli(
        ["train", "--set", "players=3", "--set", "order=strict", "--set", "scoring=two_four",
         "--deals", "250", "--iterations", "1", "--min-gain", "0", "--seed", "3",
         "--workers", "1", "--out", str(tmp_path)],
    )  # fmt: skip
    assert code in (0, 5), err
    key = table_key(ChineseRules(players=3, order="strict", scoring="two_four"))
    files = list(tmp_path.glob("chinese-ev-*.npz"))
    assert [f.name for f in files] == [table_filename(key)]
    assert load_model(files[0]).rules == key
    assert "table key of" in err
    code, _, err = run_cli(["train", "--warm-start", str(tmp_path / "nothing.npz"),
                            "--deals", "10", "--out", str(tmp_path)])  # fmt: skip
    assert code == 2 and "warm-start" in err and "nothing.npz" in err


def test_package_manifest_is_read(only_package: Path) -> None:
    assert set(package_manifest()["files"]) == {
        p.name for p in PACKAGE_DATA.glob("chinese-ev-*.npz")
    }
