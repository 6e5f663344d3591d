"""Plumbing shared by the CLI and gRPC tests (imported directly, like ``split_oracle``).

- ``run_cli``: ``cpsolver ARGS`` with click's in-process runner (same code below the entry
  point as the installed command; a ``--server`` run still goes over gRPC to a real server).
- ``wire``: card messages built independently of the server's converter.
- ``violations``: the google.rpc.BadRequest field violations of a failed gRPC call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import grpc
from click.testing import CliRunner
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from cpsolver.cards import Suit, parse_cards
from cpsolver.client.cli import main
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
