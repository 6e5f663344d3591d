"""examples/bot.py plays a full 4-player table through the client (issue 5), in-process and
against the real server, with the same output; its settlement is the library's."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from cpsolver import score, solve
from cpsolver.chinese.deal import deal

BOT = Path(__file__).resolve().parent.parent / "examples" / "bot.py"
SEATS = ("N", "E", "S", "W")


def run_bot(*args: str) -> str:
    out = subprocess.run(
        [sys.executable, str(BOT), *args], capture_output=True, text=True, timeout=180, check=False
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.parametrize("seed", [7])
def test_bot_plays_a_table_in_process_and_remote(seed: int, grpc_server) -> None:  # type: ignore[no-untyped-def]
    local = run_bot("--seed", str(seed))
    remote = run_bot("--seed", str(seed), "--server", grpc_server.address)
    assert local == remote
    totals = dict(re.findall(r"([NESW]) ([+-]?\d+)", local.splitlines()[-1]))
    assert list(totals) == list(SEATS)
    assert sum(int(v) for v in totals.values()) == 0  # CP-7: a table's totals sum to zero
    # the settlement is the library's for the same deal (cpsolver.chinese.deal, as
    # `cpsolver deal --seed`) and the library's arrangements
    table = score([solve(cards) for cards in deal(seed, 4).hands])
    assert tuple(int(v) for v in totals.values()) == table.net
    pairings = re.findall(r"^  ([NESW])-([NESW]): ([+-]\d+)$", local, re.M)
    assert len(pairings) == 6
    for a, b, units in pairings:
        assert table.between(SEATS.index(a), SEATS.index(b)) == int(units)
