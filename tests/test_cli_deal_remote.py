"""``cpsolver deal`` against a server (issue 5): ``--server HOST:PORT`` gives byte-identical
human, ``--json`` and ``--lines`` output; a seed picked by the CLI is sent and shown; bad input
exits 2 with the same message either way; ``DealTables`` refuses bad requests with
INVALID_ARGUMENT and BadRequest field violations; ``RemoteSolver.deal`` equals
``LocalSolver.deal``. Deals are CP-1's: 2 to 4 seats N, E, S, W, 13 distinct cards each.

The server is the suite's shared ``cpsolver serve`` (``grpc_server``).
"""

from __future__ import annotations

import json
import random

import grpc
import pytest
from helpers import run_cli, violations

from cpsolver import InvalidInputError
from cpsolver.cards import DECK_52, Card
from cpsolver.client import LocalSolver, RemoteSolver
from cpsolver.client.cli import main
from cpsolver.client.remote import DEAL_CHUNK
from cpsolver.seeds import MAX_SEED
from cpsolver.v1 import chinese_poker_pb2, chinese_poker_pb2_grpc
from cpsolver.wire.chinese_poker import MAX_DEALS

SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def run(*args: str) -> tuple[int, str, str]:
    """``cpsolver ARGS`` with click's runner (a remote run still goes over gRPC)."""
    return run_cli(args)


def both_ways(server: str, *args: str) -> tuple[int, str, str]:
    """Run ``deal ARGS`` in-process and with --server: the results are byte-identical."""
    local = run("deal", *args)
    remote = run("deal", *args, "--server", server)
    assert remote == local, args
    return local


def expected_seats(seed: int, players: int) -> list[set[str]]:
    """CP-1 deal of the documented definition: ``random.Random(seed).sample`` of the 52-card
    deck, 13 cards per seat in order N, E, S, W (as sets: the order within a hand aside)."""
    cards = random.Random(seed).sample(DECK_52.cards, 13 * players)
    return [{str(c) for c in cards[13 * i : 13 * (i + 1)]} for i in range(players)]


def is_high_to_low(hand: list[str]) -> bool:
    keys = [(int(Card.of(c).rank), "cdhs".index(c[1])) for c in hand]
    return keys == sorted(keys, reverse=True)


@pytest.mark.parametrize(("players", "seed", "count"), [(4, 7, 1), (3, 0, 3), (2, 123456789, 2)])
def test_deal_same_output_in_process_and_remote_cp1(
    server: str, players: int, seed: int, count: int
) -> None:
    """CP-1: --json, --lines and the human table are byte-identical with --server; each deal
    is 2-4 disjoint hands of 13, high to low, seeds SEED..SEED+COUNT-1."""
    args = ("--seed", str(seed), "--players", str(players), "--count", str(count))
    code, out, err = both_ways(server, *args, "--json")
    assert code == 0 and err == ""
    docs = [json.loads(line) for line in out.splitlines()]
    assert [d["seed"] for d in docs] == list(range(seed, seed + count))
    for doc in docs:
        hands = list(doc["hands"].values())
        assert list(doc["hands"]) == ["N", "E", "S", "W"][:players]
        assert [set(h) for h in hands] == expected_seats(doc["seed"], players)
        assert all(len(h) == 13 and is_high_to_low(h) for h in hands)
        assert len({c for h in hands for c in h}) == 13 * players

    code, lines, _ = both_ways(server, *args, "--lines")
    assert code == 0
    assert lines.splitlines() == [" ".join(h) for d in docs for h in d["hands"].values()]

    code, human, _ = both_ways(server, *args)
    assert code == 0
    for doc in docs:
        assert f"seed {doc['seed']}" in human
        for seat, hand in doc["hands"].items():
            row = " ".join(c[0] + SYMBOLS[c[1]] for c in hand)
            assert f"{seat}     {row}" in human


def test_deal_random_seed_is_picked_by_the_cli_and_shown(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --seed the CLI picks the seed, shows it (stderr with --json/--lines, in the
    table otherwise) and sends it, so the server's deal is the same."""
    monkeypatch.setattr("cpsolver.client.cli.deal.secrets.randbelow", lambda bound: 424242)
    code, out, err = both_ways(server, "--json", "--players", "2")
    assert code == 0 and err == "deal: seed 424242\n"
    assert json.loads(out)["seed"] == 424242
    _, human, herr = both_ways(server, "--players", "2")
    assert human.startswith("seed 424242\n") and herr == ""


def test_deal_more_than_one_request_of_deals_same_remote(server: str) -> None:
    """A --count above the server's per-request cap is asked for in chunks: same lines."""
    count = DEAL_CHUNK + 3
    code, lines, _ = both_ways(server, "--seed", "5", "--count", str(count), "--lines")
    assert code == 0 and len(lines.splitlines()) == 4 * count
    last = lines.splitlines()[-4:]
    assert [set(h.split()) for h in last] == expected_seats(5 + count - 1, 4)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--seed", str(MAX_SEED), "--count", "2"), "error: seed: the deals' seeds"),
        (("--players", "5", "--seed", "1"), "error: --players: 5 is not in the range"),
        (("--count", "0", "--seed", "1"), "error: --count: 0 is not in the range"),
        (("--seed", "-3"), "error: --seed: -3 is not in the range"),
        (("--json", "--lines", "--seed", "1"), "error: --lines: --json and --lines exclude"),
    ],
)
def test_deal_bad_input_exits_2_the_same_remote(
    server: str, args: tuple[str, ...], needle: str
) -> None:
    """Bad players (CP-1: 2 to 4), counts and seeds: exit 2, nothing on stdout, the same
    message in-process and with --server."""
    code, out, err = both_ways(server, *args)
    assert code == 2 and out == ""
    assert needle in err


def test_remote_deal_equals_local_deal(remote: RemoteSolver) -> None:
    """RemoteSolver.deal returns the library's Deal values (equality), chunked past the cap,
    and raises the library's InvalidInputError with the same violations."""
    local = LocalSolver()
    for players, seed, count in ((4, 7, 1), (2, 0, 5), (3, 99, DEAL_CHUNK + 1)):
        got = remote.deal(seed, players=players, count=count)
        assert got == local.deal(seed, players=players, count=count)
        assert len(got) == count and got[-1].seed == seed + count - 1
    for players, seed, count in ((5, 1, 1), (4, -1, 1), (4, 1, 0), (4, MAX_SEED, 2)):
        with pytest.raises(InvalidInputError) as mine:
            local.deal(seed, players=players, count=count)
        with pytest.raises(InvalidInputError) as theirs:
            remote.deal(seed, players=players, count=count)
        assert theirs.value.violations == mine.value.violations


@pytest.mark.parametrize(
    ("request_fields", "field", "needle"),
    [
        ({"players": 5}, "players", "must be 2, 3 or 4 (CP-1), got 5"),
        ({"players": 1}, "players", "got 1"),
        ({"count": -2}, "count", "must be 1 or more"),
        ({"count": MAX_DEALS + 1}, "count", f"at most {MAX_DEALS:,} deals per request"),
        ({"seed": MAX_SEED, "count": 2}, "seed", f"must be at most {MAX_SEED}"),
    ],
)
def test_deal_tables_rpc_refuses_bad_requests(
    grpc_channel: grpc.Channel, request_fields: dict[str, int], field: str, needle: str
) -> None:
    """DealTables: INVALID_ARGUMENT with a BadRequest naming players (CP-1), count (the cap
    of deals per request) or seed; an unset players/count means 4 seats, one deal."""
    stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(grpc_channel)  # type: ignore[no-untyped-call]
    with pytest.raises(grpc.RpcError) as caught:
        stub.DealTables(chinese_poker_pb2.DealTablesRequest(**request_fields), timeout=30)
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
    found = violations(caught.value)
    assert field in found and needle in found[field], found
    default = stub.DealTables(chinese_poker_pb2.DealTablesRequest(seed=3), timeout=30)
    assert len(default.tables) == 1 and [h.seat for h in default.tables[0].hands] == [
        "N",
        "E",
        "S",
        "W",
    ]


def test_only_serve_train_and_completion_run_locally_only() -> None:
    """Issue 5: every other command (and subcommand) takes --server; these refuse it
    (docs/API.md says why: they start the server, write or read local files, print a shell
    script)."""
    import click

    def local_only(command: click.Command, path: str) -> set[str]:
        if isinstance(command, click.Group):
            return {
                name
                for sub, child in command.commands.items()
                for name in local_only(child, f"{path} {sub}".strip())
            }
        return set() if any(p.name == "server" for p in command.params) else {path}

    assert local_only(main, "") == {
        "serve", "train", "completion", "compile", "rules check", "rules show", "rules schema"
    }
    code, _, err = run("completion", "bash", "--server", "127.0.0.1:1")
    assert code == 2 and err.startswith("error: --server: no such option")
