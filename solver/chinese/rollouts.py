"""Rollout mode: re-score candidate splits by simulating the table (RULES §2.3, card removal).

For the top candidates by table EV, draw ``n`` seeded deals of the other players' hands from
the 39 cards the player does not hold, arrange every opponent hand with the trained policy (the
EV objective of the same model, natural declarations included), settle each candidate at that
table under the whole rule set (CP-7..CP-17: :func:`cpsolver.chinese.ev_kernel.settle_terms`,
the arrays of the one settlement, then the sweep) and average. Every candidate meets the
*same* deals (common random numbers), so the differences between candidates are measured
much more precisely than their levels. Each candidate gets its mean and a 95% confidence
interval (normal approximation).

``n`` is capped at :data:`MAX_ROLLOUTS`, the seed is 0 to :data:`cpsolver.seeds.MAX_SEED` and a
``deadline`` (seconds) stops the simulation early; the number of deals actually played is
reported per candidate.

>>> from cpsolver.rules.chinese import ChineseRules
>>> from cpsolver.chinese.ev import analyse
>>> hand = "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h"
>>> a = rollout(hand, ChineseRules(), n=40, seed=7, top=3)
>>> b = rollout(hand, ChineseRules(), n=40, seed=7, top=3)
>>> [c.rollout_ev for c in a] == [c.rollout_ev for c in b] and a[0].rollouts == 40
True
"""

from __future__ import annotations

import time
import warnings

import numpy as np

from cpsolver.budget import call_cancelled
from cpsolver.cards import CardsLike
from cpsolver.chinese import ev_kernel as K
from cpsolver.chinese.ev import Candidate, analyse, hand_array
from cpsolver.chinese.ev_model import OpponentModel, model_for, natural_code
from cpsolver.chinese.training import play_policy
from cpsolver.errors import InvalidInputError
from cpsolver.rules.chinese import ChineseRules
from cpsolver.seeds import MAX_SEED, check_seed

__all__ = ["BATCH", "MAX_ROLLOUTS", "rollout"]

MAX_ROLLOUTS = 20_000
"""Most opponent deals one call simulates (also the CLI's ``--rollouts`` range and the server's)."""
BATCH = 100  # deals simulated between deadline checks


def __getattr__(name: str) -> int:
    # MAX_ROLLOUT_SEED was a second constant for the one seed range; kept for one release
    # because earlier docstrings and `__all__` published it.
    if name == "MAX_ROLLOUT_SEED":
        warnings.warn(
            "cpsolver.chinese.rollouts.MAX_ROLLOUT_SEED is deprecated: "
            "use cpsolver.seeds.MAX_SEED (one seed range for every game)",
            DeprecationWarning,
            stacklevel=2,
        )
        return MAX_SEED
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def rollout(
    cards: CardsLike,
    rules: ChineseRules,
    *,
    n: int,
    seed: int,
    top: int = 10,
    deadline: float | None = None,
    model: OpponentModel | None = None,
    candidates: list[Candidate] | None = None,
) -> list[Candidate]:
    """Candidates with rollout means and 95% CIs, best rollout mean first (module doc)."""
    if not 1 <= n <= MAX_ROLLOUTS:
        raise InvalidInputError("rollouts", f"must be 1 to {MAX_ROLLOUTS}, got {n}")
    check_seed(seed)
    model = model or model_for(rules)
    _, hand = hand_array(cards)
    if candidates is None:
        candidates = analyse(cards, rules, top=top, model=model)
    unseen = np.array(sorted(set(range(52)) - {int(c) for c in hand}), dtype=np.int8)
    terms = K.kernel_terms(rules)
    codes = np.array([natural_code(rules, c.natural) if c.natural else 0 for c in candidates])
    rows = np.array([c.classes for c in candidates], dtype=np.int64).reshape(-1, 3)
    opponents = rules.players - 1
    rng = np.random.default_rng(np.random.SeedSequence((seed, 0x5EED)))
    sums = np.zeros(len(candidates))
    squares = np.zeros(len(candidates))
    played = 0
    start = time.perf_counter()
    while played < n:
        batch = min(BATCH, n - played)
        keys = rng.random((batch, unseen.size))
        order = np.argsort(keys, axis=1)[:, : 13 * opponents]
        hands = unseen[order].reshape(batch * opponents, 13)
        opp_rows, opp_nat = play_policy(hands, rules, model)
        units = K.settle_table_candidates(
            rows, codes.astype(np.int64), opp_rows.reshape(batch, opponents, 3),
            opp_nat.reshape(batch, opponents), *terms.args(),
        )  # fmt: skip
        sums += units.sum(axis=1)
        squares += (units * units).sum(axis=1)
        played += batch
        if deadline is not None and time.perf_counter() - start > deadline:
            break
        if call_cancelled():  # a server call whose caller went away (cpsolver.budget)
            break
    out = []
    for i, c in enumerate(candidates):
        # Plain floats: numpy's scalars would leak into Solution.ev, its interval and JSON.
        mean = float(sums[i]) / played
        var = max(float(squares[i]) / played - mean * mean, 0.0) * played / max(played - 1, 1)
        out.append(c.with_rollout(mean, 1.96 * (var / played) ** 0.5, played))
    out.sort(key=lambda c: -c.score)
    return out
