"""One settlement (CP-7..CP-11): the plain :func:`cpsolver.chinese.scoring.settle_pair` (the
scorer's) and the numba :func:`cpsolver.chinese.ev_kernel.settle_pair` (rollouts, training) give
the same units for any row classes, CP-6 foul flags, CP-11 naturals, CP-9 scoring mode and
CP-8 royalty option, each with its own row-value table and natural units.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.chinese import ev_kernel as K
from cpsolver.chinese.ev_model import kernel_mode, row_values
from cpsolver.chinese.scoring import SCORING_CODES, row_value_table, settle_pair
from cpsolver.chinese.table_keys import LEGACY_ROYALTIES, LEGACY_SCORINGS
from cpsolver.evaluator.poker import NUM_CLASSES, evaluate
from cpsolver.rules.chinese import ChineseRules, RoyaltyMode, Wheel

# A few classes that collect royalties in some row (CP-8) and so exercise the value tables,
# drawn often enough to give ties (CP-7) too.
_NOTABLE = sorted(
    {
        evaluate(hand).strength
        for hand in (
            "As Ks Qs Js Ts",  # royal flush
            "9h 8h 7h 6h 5h",  # straight flush
            "Ac Ad Ah As 2c",  # quads
            "Jh Js 4c 4d Jd",  # full house
            "2c 5c 9c Jc Kc",  # flush
            "9d Tc Jh Qs Kd",  # straight
            "7c 7d 7h",  # trips front
            "Qc Qd 3h",  # pair front
            "6c 6d 2h",  # small pair front
            "Ac Kd 9h",  # high card front
        )
    }
)
classes = st.one_of(st.sampled_from(_NOTABLE), st.integers(0, NUM_CLASSES - 1))
rows = st.tuples(classes, classes, classes)
rule_sets = st.builds(
    ChineseRules,
    wheel=st.sampled_from(list(Wheel)),
    royalties=st.sampled_from(LEGACY_ROYALTIES),
    royalty_mode=st.sampled_from(list(RoyaltyMode)),
    scoring=st.sampled_from(LEGACY_SCORINGS),  # the kernel's CP-9 (CP-13: issue 28)
)


@settings(derandomize=True, max_examples=400, deadline=None)
@given(
    rules=rule_sets,
    rows_a=rows,
    rows_b=rows,
    foul_a=st.booleans(),
    foul_b=st.booleans(),
    natural_a=st.integers(0, 4),
    natural_b=st.integers(0, 4),
)
def test_plain_and_kernel_settlement_agree_cp7_to_cp11(
    rules: ChineseRules,
    rows_a: tuple[int, int, int],
    rows_b: tuple[int, int, int],
    foul_a: bool,
    foul_b: bool,
    natural_a: int,
    natural_b: int,
) -> None:
    plain = settle_pair(
        rows_a,
        rows_b,
        row_value_table(rules),
        SCORING_CODES[rules.scoring],
        foul_a,
        foul_b,
        natural_a,
        natural_b,
    )
    compiled = K.settle_pair(
        np.array(rows_a, dtype=np.int64),
        np.array(rows_b, dtype=np.int64),
        foul_a,
        foul_b,
        natural_a,
        natural_b,
        row_values(rules),
        kernel_mode(rules),
        K.NATURAL_UNITS,
    )
    assert compiled == plain
    # Zero-sum (CP-9): B's view is the negation of A's.
    assert (
        settle_pair(
            rows_b,
            rows_a,
            row_value_table(rules),
            SCORING_CODES[rules.scoring],
            foul_b,
            foul_a,
            natural_b,
            natural_a,
        )
        == -plain
    )
