"""CLI defects of issue 17 ("CLI defects found on the way"), each run the way a user meets it:
a real pipe closed by its reader, stderr on a pseudo-terminal, the installed entry point."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import grpc
from helpers import run_cli, violations, wire

CLI = [sys.executable, "-c", "from cpsolver.client.cli import main; main()"]
ENV = {k: v for k, v in os.environ.items() if k not in ("CPSOLVER_SERVER", "NO_COLOR")}
HAND = "Ks Qd Jd Th Tc 8d 7s 7c 5d 4d 3h 3c 2s"


def _closed_pipe(*args: str, read_first_line: bool) -> subprocess.CompletedProcess[str]:
    """``cpsolver ARGS | head -1``: read one line (or none) and close the read end while the
    command still has output to write."""
    proc = subprocess.Popen(
        [*CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, text=True
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline() if read_first_line else ""
    proc.stdout.close()
    stderr = proc.stderr.read()
    return subprocess.CompletedProcess(proc.args, proc.wait(timeout=120), first, stderr)


def test_a_reader_that_closes_the_pipe_early_is_a_quiet_exit_0() -> None:
    # Before any output (solve computes first, then writes into the closed pipe) ...
    solved = _closed_pipe("solve", HAND, read_first_line=False)
    assert (solved.returncode, solved.stderr) == (0, "")
    # ... and in the middle of a stream longer than the pipe's buffer.
    dealt = _closed_pipe("deal", "--seed", "1", "--count", "3000", "--lines", read_first_line=True)
    assert len(dealt.stdout.split()) == 13
    assert (dealt.returncode, dealt.stderr) == (0, "")


def test_batch_writes_its_results_to_the_redirected_stdout_with_stderr_on_a_terminal(
    tmp_path: Path,
) -> None:
    """``cpsolver batch FILE > out.jsonl`` in a terminal: the progress bar (stderr) is drawn,
    and every result line lands in the file, none on the terminal."""
    hands = tmp_path / "hands.txt"
    hands.write_text(f"{HAND}\nAs Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    leader, follower = pty.openpty()
    try:
        with out.open("w", encoding="utf-8") as stdout:
            proc = subprocess.Popen(
                [*CLI, "batch", str(hands)], stdout=stdout, stderr=follower, env=ENV
            )
            os.close(follower)
            screen = b""
            while True:
                try:
                    chunk = os.read(leader, 4096)
                except OSError:  # EIO: the terminal's last writer closed it
                    break
                if not chunk:
                    break
                screen += chunk
            assert proc.wait(timeout=120) == 0
    finally:
        os.close(leader)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["line"] for line in lines] == [1, 2]
    assert b'"ev"' not in screen and b"{" not in screen


def test_train_says_when_it_stopped_before_converging(tmp_path: Path) -> None:
    """--iterations 1 cannot meet --min-gain (3 iterations at least): the file is written,
    a warning says the tables are under-trained and the exit code is 5."""
    env = {**ENV, "XDG_DATA_HOME": str(tmp_path)}
    args = ["train", "--deals", "40", "--iterations", "1", "--workers", "1", "--out", str(tmp_path)]
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 5, done.stderr
    assert "wrote" in done.stderr
    assert "warning: not converged after 1 iteration" in done.stderr
    assert "under-trained" in done.stderr
    assert list(tmp_path.glob("chinese-ev-*.npz"))


# --- Three Leaves --------------------------------------------------------------------------


def test_a_lone_deals_missing_key_is_named_as_the_input_has_it() -> None:
    """The input has no ``deal`` key: its keys are the top-level fields."""
    assert run_cli(["leaves", "resolve", "{}"]) == (2, "", "error: hands: is required\n")
    code, _, err = run_cli(["leaves", "play", '{"hands": ["As Kh 8d"]}'])
    assert (code, err) == (2, "error: trump_card: is required\n")
    # in a session the deal's place is part of the path
    code, _, err = run_cli(["leaves", "play", '{"deals": [{"hands": ["As Kh 8d"]}]}'])
    assert (code, err) == (2, "error: deals[0].trump_card: is required\n")


def test_advise_all_says_why_a_khlyust_hand_gets_no_exchange_advice() -> None:
    """--what exchange refuses a khlyust (exit 2); --what all gives the rest and says why the
    exchange part is missing, in text and JSON, never silently."""
    args = ["leaves", "advise", "As Ah Ad", "--trump", "9d", "--samples", "20"]
    code, out, err = run_cli(args)
    assert (code, err) == (0, "")
    reason = "three of a rank: the deal is settled by the khlyust check before the exchange (TL-4)"
    assert out.splitlines()[-1] == f"no exchange advice: {reason}"
    code, out, _ = run_cli([*args, "--json"])
    data = json.loads(out)
    assert "exchange" not in data and data["exchange_skipped"] == reason
    code, _, err = run_cli([*args, "--what", "exchange"])
    assert code == 2 and reason in err
    code, out, _ = run_cli(["leaves", "advise", "As Kh 8d", "--trump", "9d", "--position", "0",
                            "--samples", "20"])  # fmt: skip
    assert out.splitlines()[-1] == (
        "no exchange advice: position 0 is the assistant, who must play the cards dealt (TL-3)"
    )


def test_leaves_advise_takes_the_trump_card_as_trump_like_every_command() -> None:
    base = ["leaves", "advise", "As Kh 8d", "--what", "odds"]
    code, out, err = run_cli([*base, "--trump", "9d"])
    assert (code, err) == (0, "") and out.startswith("hand: no khlyust")
    # the old spelling still works, with a warning (docs and scripts used it)
    old = run_cli([*base, "--trump-card", "9d"])
    assert old == (0, out, "warning: --trump-card is deprecated, use --trump\n")
    assert "--trump-card" not in run_cli(["leaves", "advise", "--help"])[1]
    code, _, err = run_cli(base)
    assert (code, err) == (2, "error: --trump: missing: the turned card, e.g. 9d\n")


# --- every bad token ---------------------------------------------------------------------


def test_a_bad_hand_reports_every_bad_token_in_order(server: str) -> None:
    """In-process and through a server (one BadRequest violation each, rebuilt by the typed
    client): the same line."""
    hand = "Ks Qd Jd Th Tc 8d 7s 7c 5d 4d 2s Ks 1x"
    expected = (
        "error: cards[11]: duplicate card 'Ks' (also cards[0]); cards[12]: unknown rank '1' in "
        "'1x'; ranks are 2-9, T (or 10), J, Q, K, A\n"
    )
    assert run_cli(["solve", hand]) == (2, "", expected)
    assert run_cli(["solve", hand, "--server", server]) == (2, "", expected)


def test_the_report_is_bounded() -> None:
    from cpsolver.cards import MAX_CARD_PROBLEMS, parse_cards
    from cpsolver.errors import CardError

    try:
        parse_cards(" ".join(["Zz"] * (MAX_CARD_PROBLEMS + 7)))
    except CardError as exc:
        assert len(exc.violations) == MAX_CARD_PROBLEMS + 1
        assert str(exc.violations[-1]) == "cards: and 7 more bad cards"
        # the CardError's token and position are the first problem's (ErrorInfo on the wire)
        assert (exc.token, exc.position) == ("Zz", 0)
        # how to write a card is said once, not per token
        assert str(exc).count("ranks are") == 1
    else:
        raise AssertionError("no CardError")


# --- shell completion of option values -----------------------------------------------------


def _complete(line: str) -> list[str]:
    """What bash's completion function gets for ``line`` (the last word being completed),
    asked the way the script of `cpsolver completion bash` asks."""
    words = line.split(" ")
    env = {**ENV, "_CPSOLVER_COMPLETE": "bash_complete", "COMP_WORDS": line,
           "COMP_CWORD": str(len(words) - 1)}  # fmt: skip
    # the installed command: click names the variable after the program (_CPSOLVER_COMPLETE)
    program = [str(Path(sys.executable).with_name("cpsolver"))]
    done = subprocess.run(program, capture_output=True, text=True, env=env, timeout=60, check=True)
    return [item.partition(",")[2] for item in done.stdout.split()]


def test_completion_completes_presets_objectives_and_trumps() -> None:
    assert _complete("cpsolver solve x --rules ") == [
        "standard", "two_four", "eastern", "shisanshui", "maubinh"
    ]
    assert _complete("cpsolver batch --rules e") == ["eastern"]
    assert _complete("cpsolver chlust evaluate x --rules ") == ["standard", "nines", "heads_up"]
    assert _complete("cpsolver leaves play x --rules t") == ["two_players", "three_players"]
    assert _complete("cpsolver solve x --objective ") == ["strength", "royalties", "ev"]
    assert _complete("cpsolver batch --objective r") == ["royalties"]
    assert _complete("cpsolver chlust odds x -t ") == ["c", "d", "h", "s"]
    assert _complete("cpsolver leaves legal x --trump H") == ["h"]


# --- batch: the same bytes in-process and with --server ------------------------------------


def test_batch_prints_the_same_bytes_in_process_and_remote_on_a_last_bit_near_tie(
    server: str,
) -> None:
    """In-process `batch` runs solve_many (the batch kernel), a server solves each hand with
    solve (the single-hand kernel): the line of this hand differed (issue 17)."""
    hands = "Ah Kc Qs Td Tc 9c 7s 7d 6h 6d 5s 4h 2c\n" + HAND + "\n"
    local = run_cli(["batch", "-"], stdin=hands)
    remote = run_cli(["batch", "-", "--server", server], stdin=hands)
    assert local[0] == 0 and len(local[1].splitlines()) == 2
    assert remote == local


def _option_pairs(command: str) -> set[tuple[str, str]]:
    words = command.split()
    return {(words[i], words[i + 1]) for i in range(len(words) - 1) if words[i].startswith("--")}


def test_train_help_names_the_command_the_makefile_runs() -> None:
    """The shipped standard key's command in `cpsolver train --help` is the one `make tables`
    runs (the help said --iterations 10 --seed 1); make tables runs the make_tables plan."""
    from cpsolver.chinese.make_tables import DEFAULTS, plan

    makefile = (Path(__file__).parent.parent / "Makefile").read_text(encoding="utf-8")
    tables = re.search(r"^tables: .*\n\t(.*)$", makefile, re.M)
    assert (
        tables is not None
        and "-m cpsolver.chinese.make_tables --out solver/data" in tables.group(1)
    )
    first = plan()[0].command(out=Path("solver/data"), **DEFAULTS)  # type: ignore[arg-type]
    code, out, _ = run_cli(["train", "--help"])
    text = " ".join(out.split())
    shown = re.search(r"cpsolver train (--rules standard.*?--out solver/data)", text)
    assert code == 0 and shown is not None
    assert _option_pairs(shown.group(1)) == _option_pairs(first)


# --- one field-path convention, as docs/API.md states it ------------------------------------


def test_the_field_path_convention_api_md_states_holds(grpc_channel: Any) -> None:
    """The defect (issue 27, D6): ``cards[1]: duplicate card 'As' (also card 1)`` mixed a
    0-based index and a 1-based number, and ErrorInfo said ``position: "2"``. The rule
    docs/API.md states (indexes from 0 everywhere: the path, the description's other place,
    ErrorInfo's position) is checked with the page's own example, in the library, the CLI and
    a real server's google.rpc.BadRequest and ErrorInfo."""
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    from cpsolver import CardError, solve
    from cpsolver.v1 import chinese_poker_pb2, chinese_poker_pb2_grpc

    page = (Path(__file__).parent.parent / "docs" / "API.md").read_text(encoding="utf-8")
    rule = " ".join(page[page.index("**Field paths**") : page.index("**ErrorInfo**")].split())
    said = "duplicate card 'As' (also cards[0])"
    assert f'"cards[4]: {said}"' in rule and '`("cards", 4)`' in rule and "`cards[4]`" in rule
    hand = "As Kd Qh Jc As 9d 8h 7c 5s 5d 4h 3c 2s"  # the fifth card repeats the first
    try:
        solve(hand)
    except CardError as exc:
        assert str(exc) == f"cards[4]: {said}"
        assert (exc.violations[0].path, exc.position, exc.token) == (("cards", 4), 4, "As")
    else:
        raise AssertionError("no CardError")
    assert run_cli(["solve", hand]) == (2, "", f"error: cards[4]: {said}\n")
    stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(grpc_channel)
    request = chinese_poker_pb2.SolveRequest(cards=[c for t in hand.split() for c in wire(t)])
    try:
        stub.Solve(request, timeout=30)
    except grpc.RpcError as error:
        assert violations(error) == {"cards[4]": said}
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
        assert status is not None
        info = error_details_pb2.ErrorInfo()
        assert any(detail.Unpack(info) for detail in status.details)
        assert dict(info.metadata) == {"token": "As", "position": "4"}
    else:
        raise AssertionError("the server accepted a duplicate card")
