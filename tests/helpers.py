"""Plumbing shared by the CLI and gRPC tests (imported directly, like ``split_oracle``).

- ``run_cli``: ``cpsolver ARGS`` with click's in-process runner (same code below the entry
  point as the installed command; a ``--server`` run still goes over gRPC to a real server).
- ``wire``: card messages built independently of the server's converter.
- ``violations``: the google.rpc.BadRequest field violations of a failed gRPC call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import grpc
import numpy as np
from click.testing import CliRunner
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from cpsolver.cards import Suit, parse_cards
from cpsolver.chinese import scoring
from cpsolver.chinese.ev_model import OpponentModel
from cpsolver.chinese.training import play_policy
from cpsolver.client.cli import main
from cpsolver.rules.chinese import ChineseRules
from cpsolver.v1 import cards_pb2

# Unset in every in-process run: no colour codes, no server picked up from the environment.
CLEAN_ENV: dict[str, str | None] = {"NO_COLOR": None, "CPSOLVER_SERVER": None}


def run_cli(
    args: Sequence[str],
    stdin: str | None = None,
    env: Mapping[str, str | None] | None = None,
) -> tuple[int, str, str]:
    """``cpsolver ARGS`` in-process: (exit code, stdout, stderr). ``env`` is added to
    ``CLEAN_ENV``; an exception other than click's ``SystemExit`` is raised again, so a crash
    is never mistaken for an exit code."""
    result = CliRunner(env={**CLEAN_ENV, **(env or {})}).invoke(main, list(args), input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


SUIT_TO_WIRE = {
    Suit.CLUBS: cards_pb2.SUIT_CLUBS,
    Suit.DIAMONDS: cards_pb2.SUIT_DIAMONDS,
    Suit.HEARTS: cards_pb2.SUIT_HEARTS,
    Suit.SPADES: cards_pb2.SUIT_SPADES,
}


def wire(text: str) -> list[cards_pb2.Card]:
    """Card messages built independently of the server's converter."""
    return [cards_pb2.Card(rank=int(c.rank), suit=SUIT_TO_WIRE[c.suit]) for c in parse_cards(text)]


def violations(error: grpc.RpcError) -> dict[str, str]:
    """field -> description of the BadRequest detail of a failed call."""
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None, "no google.rpc.Status in the trailers"
    found: dict[str, str] = {}
    for detail in status.details:
        bad = error_details_pb2.BadRequest()
        if detail.Unpack(bad):
            found.update({v.field: v.description for v in bad.field_violations})
    return found


def simulate_split(
    cards: str,
    rules: ChineseRules,
    model: OpponentModel,
    classes: tuple[int, int, int],
    deals: int,
    seed: int,
) -> tuple[float, float]:
    """(mean, standard error) of the units the split ``classes`` of ``cards`` wins at the
    table over ``deals`` simulated deals: the opponents dealt from the unseen cards, arranged
    by ``model``'s policy and settled with the library's own ``settle_pair`` (the code
    ``score`` uses), an independent check of the ``ev`` values (tests/test_card_removal.py,
    tests/test_pool.py)."""
    hand = [c.index for c in parse_cards(cards)]
    unseen = np.array(sorted(set(range(52)) - set(hand)), dtype=np.int8)
    opponents = rules.players - 1
    rng = np.random.default_rng(seed)
    order = np.argsort(rng.random((deals, unseen.size)), axis=1)[:, : 13 * opponents]
    opp_rows, opp_nat = play_policy(unseen[order].reshape(-1, 13), rules, model)
    values = scoring.row_value_table(rules)
    code = scoring.SCORING_CODES[rules.scoring]
    units = np.zeros(deals)
    for d in range(deals):
        for o in range(opponents):
            k = d * opponents + o
            nat = int(opp_nat[k]) if rules.naturals else 0
            units[d] += scoring.settle_pair(
                classes, tuple(int(x) for x in opp_rows[k]), values, code, natural_b=nat
            )
    return float(units.mean()), float(units.std(ddof=1) / np.sqrt(deals))
