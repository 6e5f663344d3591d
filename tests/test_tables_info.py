"""Which expected-value tables answer, and every answer says which (issue 27, #1).

``cpsolver train`` writes to the user's data directory, which ``solve`` reads only when the
user names it in ``CPSOLVER_TABLES``: training never shadows the shipped tables. Every ``ev``
answer names its table file (key, file, shipped or the user's): the library's
``Solution.tables``, the CLI's ``tables:`` line and ``--json`` key, and ``SolveResponse.tables``
(checked through the typed remote client and ``cpsolver solve --server`` against real servers
on loopback, which must report what in-process solves report).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import cpsolver
from cpsolver.chinese import TablesInfo, ev_model
from cpsolver.chinese.table_keys import table_key
from cpsolver.client import connect
from cpsolver.rules import ChineseRules

CLI = [sys.executable, "-c", "from cpsolver.client.cli import main; main()"]
HAND = "Ks Qd Jd Th Tc 8d 7s 7c 5d 4d 3h 3c 2s"  # issue 27's hand: the tables change its split
KEY = table_key(ChineseRules()).fingerprint()
FILE = f"chinese-ev-{KEY}.npz"
SHIPPED = TablesInfo(KEY, FILE, True, None)


def _env(**extra: str) -> dict[str, str]:
    unset = ("CPSOLVER_SERVER", "CPSOLVER_TABLES", "NO_COLOR")
    return {**{k: v for k, v in os.environ.items() if k not in unset}, **extra}


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args], capture_output=True, text=True, env=env, timeout=300, check=False
    )


def _solve_json(env: dict[str, str], *extra: str) -> dict[str, object]:
    done = _run(["solve", HAND, "--json", *extra], env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def _solve_text(env: dict[str, str], *extra: str) -> str:
    done = _run(["solve", HAND, *extra], env)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """An XDG data directory after ``cpsolver train --deals 100 --iterations 1`` (an
    under-trained table of the standard key, in ``DIR/cpsolver``), and train's stderr."""
    data = tmp_path_factory.mktemp("xdg")
    args = ["train", "--deals", "100", "--iterations", "1", "--workers", "1"]
    done = _run(args, _env(XDG_DATA_HOME=str(data)))
    assert done.returncode == 5, done.stderr  # written, under-trained
    assert [p.name for p in (data / "cpsolver").iterdir()] == [FILE]
    return data, done.stderr


@pytest.fixture
def fresh_cache() -> Iterator[None]:
    ev_model.clear_cache()
    yield
    ev_model.clear_cache()


def test_training_does_not_change_what_solve_answers(
    trained: tuple[Path, str], tmp_path: Path
) -> None:
    data, _ = trained
    before = _solve_json(_env(XDG_DATA_HOME=str(tmp_path)))  # a data directory never trained
    after = _solve_json(_env(XDG_DATA_HOME=str(data)))
    assert after == before
    # The tables alone (no re-score), as issue 27 ran it: the under-trained file answered a
    # different split (front T♣ T♥ K♠ for 7♣ 7♠ K♠) when solve searched where train writes.
    table_only = _solve_json(_env(XDG_DATA_HOME=str(data)), "--estimator", "model")
    assert table_only == _solve_json(_env(XDG_DATA_HOME=str(tmp_path)), "--estimator", "model")
    assert table_only["arrangement"]["front"] == ["7c", "7s", "Ks"]
    assert after["tables"] == {"key": KEY, "file": FILE, "source": "shipped", "directory": None}
    text = _solve_text(_env(XDG_DATA_HOME=str(data)))
    assert f"\ntables: {FILE} (shipped)\n" in text


def test_train_says_how_to_use_its_file(trained: tuple[Path, str]) -> None:
    data, stderr = trained
    assert f"CPSOLVER_TABLES={data / 'cpsolver'} cpsolver solve" in stderr


def test_opting_in_answers_from_the_users_file_and_says_so(trained: tuple[Path, str]) -> None:
    data, _ = trained
    user = data / "cpsolver"
    shipped = _solve_json(_env(), "--estimator", "model")
    opted = _solve_json(_env(CPSOLVER_TABLES=str(user)), "--estimator", "model")
    assert opted["tables"] == {
        "key": KEY, "file": FILE, "source": "user", "directory": str(user.resolve()),
    }  # fmt: skip
    assert opted["rows"] != shipped["rows"]  # the user's model answered (its row odds)
    text = _solve_text(_env(CPSOLVER_TABLES=str(user)))
    assert f"\ntables: {FILE} (user's, {user.resolve()})\n" in text


def test_the_library_names_the_tables_of_every_ev_answer(
    trained: tuple[Path, str], monkeypatch: pytest.MonkeyPatch, fresh_cache: None
) -> None:
    user = trained[0] / "cpsolver"
    monkeypatch.delenv("CPSOLVER_TABLES", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(trained[0]))  # where train wrote: not read
    shipped = cpsolver.solve(HAND)
    assert shipped.tables == SHIPPED and shipped.tables.source == "shipped"
    assert [s.tables for s in cpsolver.solve_many([HAND, HAND])] == [SHIPPED, SHIPPED]
    assert cpsolver.solve(HAND, constraints="Ks=front").tables == SHIPPED
    assert cpsolver.solve(HAND, objective="strength").tables is None
    monkeypatch.setenv("CPSOLVER_TABLES", str(user))
    ev_model.clear_cache()
    opted = cpsolver.solve(HAND)
    assert opted.tables == TablesInfo(KEY, FILE, False, str(user.resolve()))
    assert opted.tables.describe() == f"{FILE} (user's, {user.resolve()})"
    assert opted.analysis != shipped.analysis


@pytest.mark.parametrize("opt_in", [False, True], ids=["shipped", "user"])
def test_a_server_reports_its_tables_as_in_process_does(
    trained: tuple[Path, str],
    opt_in: bool,
    serve_grpc,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
    fresh_cache: None,
) -> None:
    tables = str(trained[0] / "cpsolver") if opt_in else ""
    env = _env(CPSOLVER_TABLES=tables)
    monkeypatch.setenv("CPSOLVER_TABLES", tables)
    local = cpsolver.solve(HAND)
    expected = TablesInfo(KEY, FILE, not opt_in, str(Path(tables).resolve()) if opt_in else None)
    assert local.tables == expected
    with serve_grpc("--workers", "1", env={"CPSOLVER_TABLES": tables}) as server:
        with connect(server.address, timeout=60) as remote:
            answer = remote.solve(HAND)
            assert answer.tables == expected
            assert answer.arrangement == local.arrangement
            assert remote.solve(HAND, objective="strength").tables is None
        for extra in ([], ["--json"]):
            in_process = _run(["solve", HAND, *extra], env)
            served = _run(["solve", HAND, *extra, "--server", server.address], env)
            assert served.returncode == in_process.returncode == 0, served.stderr
            assert served.stdout == in_process.stdout
            assert "tables" in served.stdout
