"""A worker's memory is bounded by the table keys, not by the rule sets it has served (issue 15).

Every derived array (the opponent model's distributions on a strength scale, its card-removal
form and kernel tables, row values, the strength and royalty objectives' tables) is cached by
what it depends on, so the 432 rule sets share 30 models. Before, each rule set kept its own
copies (~0.7 MB each): a client that walked through the rule sets grew every worker by
~300 MB, which the hostile fuzz read as a leak.
"""

from __future__ import annotations

import json
import subprocess
import sys

from cpsolver.chinese.ev_model import model_for
from cpsolver.chinese.objectives import get_objective
from cpsolver.rules import ChineseRules

# Measured in a fresh interpreter after warm_up() (which preloads every key): solving under all
# 432 rule sets with three objectives and a few rollouts each.
SCRIPT = """
import json, os
from pathlib import Path
from cpsolver import solve
from cpsolver.chinese.table_keys import all_rule_sets
from cpsolver.warmup import warm_up

def rss_kb():
    for line in Path(f"/proc/{os.getpid()}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

warm_up(parallel=False)
hand = "As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"
before = rss_kb()
for rules in all_rule_sets():
    for objective in ("ev", "strength", "royalties"):
        solve(hand, rules, objective=objective)
    solve(hand, rules, rollouts=4, seed=1, top=2)
print(json.dumps({"before": before, "after": rss_kb()}))
"""

BOUND_KB = 12 * 1024  # allocator noise and small per-rule-set objects; was ~320 MB


def test_serving_every_rule_set_after_warm_up_keeps_memory_flat() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300, check=True
    )
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    growth = figures["after"] - figures["before"]
    print(f"RSS {figures['before']} -> {figures['after']} kB (+{growth} kB) over 432 rule sets")
    assert growth <= BOUND_KB, figures


def test_rule_sets_of_one_key_and_scale_share_the_model_arrays() -> None:
    four = model_for(ChineseRules.preset("standard"))
    variants = [
        ChineseRules.preset("standard", players=2),
        ChineseRules.preset("standard", order="strict", naturals=False),
    ]
    for rules in variants:
        model = model_for(rules)
        assert model.rules == rules
        assert model.rows is four.rows
        assert model.removal is four.removal
        assert model.tables is four.tables
    other_scale = model_for(ChineseRules.preset("standard", wheel="second_highest"))
    assert other_scale.removal is not four.removal  # another strength scale: its own arrays
    assert not (other_scale.rows == four.rows).all()


def test_royalties_none_shares_across_royalty_modes_but_not_across_schedules() -> None:
    replace = model_for(ChineseRules.preset("standard", royalties="none"))
    add = model_for(ChineseRules.preset("standard", royalties="none", royalty_mode="add"))
    assert add.removal is replace.removal  # every row worth 1 in both modes (CP-8)
    eastern = model_for(ChineseRules.preset("eastern"))
    assert eastern.removal is not model_for(ChineseRules.preset("standard")).removal


def test_objective_tables_share_arrays_across_rule_sets() -> None:
    strength, royalties = get_objective("strength"), get_objective("royalties")
    a, b = ChineseRules.preset("standard"), ChineseRules.preset("two_four")
    assert strength.row_tables(a).back is strength.row_tables(b).back
    assert strength.row_tables(b).rules == b  # each rule set keeps its own tables object
    eastern = ChineseRules.preset("eastern")
    assert royalties.row_tables(a).back is royalties.row_tables(a.replace(players=2)).back
    assert royalties.row_tables(a).back is not royalties.row_tables(eastern).back
