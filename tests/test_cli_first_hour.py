"""The CLI defects of issue 27 ("the first hour of a new user"), 2 and 11 to 16, each run the
way a user meets it: the installed command on a real pseudo-terminal, click's in-process runner
(the same code below the entry point), and against the suite's real ``cpsolver serve``
(``server``) where the defect crosses the wire. Defect 17 (help) is tests/test_cli_help.py.
"""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import grpc
import pytest
from helpers import run_cli, violations

from cpsolver.client import LocalSolver, RemoteSolver
from cpsolver.rules import ThreeLeavesRules
from cpsolver.three_leaves import deal as deal_leaves

CPSOLVER = Path(sys.executable).with_name("cpsolver")
CLEAN = {k: v for k, v in os.environ.items() if k not in ("CPSOLVER_SERVER", "NO_COLOR")}


def both_ways(server: str, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """ARGS in-process and with --server: the same exit code, stdout and stderr; returns it."""
    local = run_cli(args, stdin)
    remote = run_cli([*args, "--server", server], stdin)
    assert remote == local, (local, remote)
    return local


# --- 2. train: rule text is not markup; --iterations 1 says why no gain was measured ---------


def test_train_prints_the_asked_rules_and_why_one_iteration_measures_no_gain(
    tmp_path: Path,
) -> None:
    args = ["train", "--set", "players=4", "--set", "order=strict", "--deals", "40",
            "--iterations", "1", "--workers", "1", "--out", str(tmp_path)]  # fmt: skip
    done = subprocess.run(
        [str(CPSOLVER), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**CLEAN, "XDG_DATA_HOME": str(tmp_path), "COLUMNS": "400"},
        check=False,
    )
    assert done.returncode == 5, done.stderr
    # rich read "[players=4 order=strict ...]" as a markup tag and printed "(the table key of )"
    assert "(the table key of [players=4 order=strict wheel=lowest" in done.stderr
    # the check's gain is printed; the warning no longer says "no gain measured" after it
    assert "check (stored tables vs previous)" in done.stderr and "gain" in done.stderr
    assert "no gain measured" not in done.stderr
    assert "no gain between two iterations measured: the first is iteration 2's" in done.stderr
    assert "warning: not converged after 1 iteration" in done.stderr


def test_user_text_is_never_read_as_markup(tmp_path: Path) -> None:
    """Seat names are the user's: ``[red]E[/]`` prints as given, in every table."""
    north = {"front": "Qs Qd 2c", "middle": "Js Jd Jh 5c 4d", "back": "9s 8s 7s 4s 2s"}
    east = {"front": "Ah Kd 3c", "middle": "Tc Td 6h 6c Kc", "back": "8d 9d Th Jc Qc"}
    table = {"players": {"[bold]N": north, "[red]E[/]": east}}
    code, out, err = run_cli(["score", "-"], json.dumps(table), env={"COLUMNS": "200"})
    assert code == 0, err
    assert "[red]E[/]" in out and "[bold]N-[red]E[/]" in out


# --- 11. one --position range on every leaves command ---------------------------------------


@pytest.mark.parametrize("position", ["9", "-3", "4"])
@pytest.mark.parametrize(
    "command",
    [
        ("leaves", "evaluate", "As Ah 8s", "--trump", "s"),
        ("leaves", "advise", "As Ah 8s", "--trump", "9s", "--what", "odds"),
    ],
    ids=["evaluate", "advise"],
)
def test_every_leaves_command_refuses_a_position_off_the_table(
    command: tuple[str, ...], position: str
) -> None:
    code, out, err = run_cli([*command, "--position", position])
    assert (code, out) == (2, "")
    assert err == f"error: --position: {position} is not in the range 0<=x<=3\n"


@pytest.mark.parametrize("command", ["evaluate", "advise"])
def test_a_position_beyond_a_smaller_table_is_refused_alike(command: str, server: str) -> None:
    trump = "s" if command == "evaluate" else "9s"
    code, _, err = both_ways(
        server, "leaves", command, "As Ah 8s", "--trump", trump, "--position", "3",
        "--set", "players=2",
    )  # fmt: skip
    assert (code, err) == (
        2,
        "error: position: must be 0 (assistant) to 1 (dealer) for 2 players, got 3\n",
    )


def test_the_last_position_of_a_full_table_is_accepted(server: str) -> None:
    code, out, _ = both_ways(
        server, "leaves", "evaluate", "As Ah 8s", "-t", "s", "--position", "3", "--json"
    )
    assert code == 0 and json.loads(out)["key"][-1] == -3


# --- 12. -t for the trump on every leaves command -----------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("evaluate", "As Ah 8s", "-t", "s"), "A♠ A♥ 8♠  trumps ♠"),
        (("legal", "8d Ac Kh", "-t", "d", "--trick", "As"), "8♦  (takes the lead)"),
        (("advise", "As Ah 8s", "-t", "9s", "--what", "odds"), "hand: no khlyust"),
    ],
)
def test_leaves_takes_t_for_the_trump(args: tuple[str, ...], expected: str) -> None:
    code, out, err = run_cli(["leaves", *args])
    assert code == 0, err
    assert expected in out


# --- 13. advise --trump wants the turned card, and says so --------------------------------


def test_advise_given_a_suit_for_trump_asks_for_the_turned_card(server: str) -> None:
    code, out, err = both_ways(server, "leaves", "advise", "As Ah Ad", "--trump", "d")
    assert (code, out) == (2, "")
    assert "unknown rank" not in err
    assert err.startswith("error: trump: expected the turned card that sets trumps, e.g. 9d")
    assert "not only its suit 'd'" in err
    code, _, err = run_cli(["leaves", "advise", "As Ah Ad", "--trump", "Xd"])
    assert code == 2 and "expected the turned card that sets trumps, e.g. 9d: unknown rank" in err
    _, help_text, _ = run_cli(["leaves", "advise", "--help"], env={"COLUMNS": "200"})
    assert "The turned card that sets trumps, e.g. 9d: a rank and a suit, not only the" in (
        " ".join(help_text.split())
    )


# --- 14. chlust play reads inline JSON and checks a short list play by play --------------

CH_E11 = {
    "hands": ["Ah Td Kc", "Kh Ad Js", "Qh Jd Tc"],
    "trump": "s",
    "turned": "Qs",
    "dealer": 0,
    "plays": ["Ah Kh Qh", "Kc Js Tc", "Ad Jd Td"],
}


def test_chlust_play_takes_the_json_inline_from_stdin_or_a_file(
    tmp_path: Path, server: str
) -> None:
    text = json.dumps(CH_E11)
    path = tmp_path / "deal.json"
    path.write_text(text, encoding="utf-8")
    inline = both_ways(server, "chlust", "play", text, "--json")
    assert inline[0] == 0, inline[2]
    assert both_ways(server, "chlust", "play", str(path), "--json") == inline
    assert both_ways(server, "chlust", "play", "-", "--json", stdin=text) == inline
    position = {"hand": "Qd Qh", "trump": "s", "seat": 0, "seats": [0, 1],
                "history": [{"leader": 0, "cards": "Kd Ac"}], "turned": "Js"}  # fmt: skip
    advised = both_ways(server, "chlust", "advise", json.dumps(position), "--json")
    assert advised[0] == 0, advised[2]


def test_chlust_play_checks_a_short_list_play_by_play_as_leaves_play_does(server: str) -> None:
    # Ad does not follow the led heart though seat 1 holds Kh: refused as illegal, not for
    # being 2 plays of 9.
    short = json.dumps({**CH_E11, "plays": "Ah Ad"})
    code, _, err = both_ways(server, "chlust", "play", short)
    assert (code, err) == (
        2,
        "error: plays[1]: seat 1 may not play Ad: must follow suit ♥ (legal: Kh) (CH-8)\n",
    )
    # Three Leaves does the same with its own rule.
    leaves = json.dumps({"hands": ["As Kh 8d", "Ks 9h Jc", "Ts Ah Qd", "Qs 8c Ac"],
                         "trump_card": "9d", "stock": "Js 9s", "plays": "As Kh"})  # fmt: skip
    code, _, err = both_ways(server, "leaves", "play", leaves)
    assert code == 2 and err.startswith("error: plays[1]:") and "(TL-5)" in err
    # A legal short list is refused for its count, naming it.
    legal = json.dumps({**CH_E11, "plays": "Ah Kh Qh"})
    code, _, err = both_ways(server, "chlust", "play", legal)
    assert (code, err) == (2, "error: plays: expected 9 cards (3 tricks of 3 players), got 3\n")


# --- 15. cpsolver validate and leaves deal, in-process and remote -------------------------


def test_validate_checks_an_arrangement_in_process_and_remote(server: str) -> None:
    code, out, _ = both_ways(server, "validate", "As Ks Qs Js 3s", "9h 9c Kd 5s 2h", "9s 9d Kc")
    assert code == 0
    assert out.splitlines()[-1] == "valid; royalty units 0"
    # CP-E2: the front's K kicker beats the middle's Q - fouled, exit 0, the reason shown
    code, out, _ = both_ways(
        server, "validate", "As Ks 8s 7s 3s", "9h 9c Qd Js Th", "9s 9d Kc", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["valid"] is False and data["fouled"] is True
    assert data["foul_reason"] == (
        "the front (pair of nines, K kicker) beats the middle (pair of nines, Q-J-T kickers)"
    )
    assert data["rows"]["back"]["hand"] == "flush, A-K-8-7-3"
    # royalties (CP-8): a royal flush back under the standard rules
    code, out, _ = both_ways(
        server, "validate", "As Ks Qs Js Ts", "9h 9d 9c 2h 2d", "7c 5d 3s", "--json"
    )
    assert json.loads(out)["royalty_total"] == 7
    code, out, err = both_ways(server, "validate", "As Ks Qs Js 3s", "9h 9c Kd 5s 2h", "9s 9d As")
    assert (code, out) == (2, "")
    assert err == "error: front[2]: duplicate card 'As' (also back[0])\n"


def test_leaves_deal_in_process_and_remote_is_the_librarys_deal(server: str) -> None:
    code, out, _ = both_ways(server, "leaves", "deal", "--seed", "7", "--json")
    assert code == 0
    data = json.loads(out)
    dealt = deal_leaves(7)
    assert data["hands"] == [[str(c) for c in h] for h in dealt.hands]
    assert (data["trump_card"], data["dealer"], data["assistant"]) == (
        str(dealt.trump_card), 3, 0,
    )  # fmt: skip
    assert data["stock"] == [str(c) for c in dealt.stock]
    # the deal is input for resolve and play as it is
    resolved = both_ways(server, "leaves", "resolve", out.strip())
    assert resolved[0] == 0 and resolved[1].startswith("trumps ")
    three = json.loads(
        both_ways(server, "leaves", "deal", "--seed", "7", "--rules", "three_players",
                  "--dealer", "1", "--json")[1]
    )  # fmt: skip
    assert len(three["hands"]) == 3 and three["dealer"] == 1 and three["assistant"] == 2
    code, human, _ = both_ways(server, "leaves", "deal", "--seed", "7")
    assert human.splitlines()[0].endswith("(assistant)") and "turned: " in human
    code, _, err = both_ways(
        server, "leaves", "deal", "--seed", "7", "--dealer", "3", "--set", "players=2"
    )
    assert (code, err) == (2, "error: dealer: must be a seat 0 to 1, got 3\n")
    code, _, err = run_cli(["leaves", "deal", "--seed", "7", "--dealer", "4"])
    assert code == 2 and err == "error: --dealer: 4 is not in the range 0<=x<=3\n"


def test_the_typed_clients_deal_the_same_three_leaves_deal(remote: RemoteSolver) -> None:
    cases: list[tuple[int, ThreeLeavesRules | str | None, int | None]] = [
        (0, None, None),
        (2**64 - 1, "two_players", 0),
        (5, ThreeLeavesRules(players=3, deck=32), 2),
    ]
    for seed, rules, dealer in cases:
        local = LocalSolver().leaves.deal(seed, rules, dealer=dealer)
        assert remote.leaves.deal(seed, rules, dealer=dealer) == local
        assert local == deal_leaves(seed, rules, dealer=dealer)
    for bad, field in (({"dealer": 4}, "dealer"), ({"seed": -1}, "seed")):
        kwargs: dict[str, Any] = {"seed": 1, **bad}
        seed = kwargs.pop("seed")
        for client in (LocalSolver(), remote):
            with pytest.raises(Exception) as caught:
                client.leaves.deal(seed, **kwargs)
            assert getattr(caught.value, "field", None) == field, caught.value


def test_the_deal_leaves_rpc_answers_and_names_a_bad_field(grpc_channel: grpc.Channel) -> None:
    from cpsolver.v1 import three_leaves_pb2, three_leaves_pb2_grpc

    stub = three_leaves_pb2_grpc.ThreeLeavesServiceStub(grpc_channel)
    reply = stub.DealLeaves(three_leaves_pb2.DealLeavesRequest(seed=7), timeout=30)
    dealt = deal_leaves(7)
    assert len(reply.hands) == 4 and reply.dealer == 3 and reply.assistant == 0
    assert len(reply.stock) == len(dealt.stock)
    with pytest.raises(grpc.RpcError) as caught:
        stub.DealLeaves(three_leaves_pb2.DealLeavesRequest(seed=7, dealer=9), timeout=30)
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert violations(caught.value) == {"dealer": "must be a seat 0 to 3, got 9"}


# --- 16. NO_COLOR: no escape codes at all on a terminal -----------------------------------


def run_on_terminal(*args: str, **extra_env: str) -> str:
    """The installed command with stdout and stderr on a pseudo-terminal: what it wrote."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [str(CPSOLVER), *args],
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        env={**CLEAN, "TERM": "xterm-256color", "COLUMNS": "120", **extra_env},
    )
    os.close(follower)
    chunks = []
    try:
        while select.select([leader], [], [], 120)[0]:
            try:
                data = os.read(leader, 4096)
            except OSError:  # EIO: the command closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        assert proc.wait(timeout=60) == 0
    finally:
        os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.parametrize(
    "args",
    [
        ("evaluate", "Ah Kd Qs Jc Th"),
        ("deal", "--seed", "7"),
        ("solve", "Ks Qd Jd Th Tc 8d 7s 7c 5d 4d 3h 3c 2s", "--budget-ms", "0"),
        ("validate", "As Ks Qs Js 3s", "9h 9c Kd 5s 2h", "9s 9d Kc"),
    ],
    ids=lambda args: args[0],
)
def test_no_color_prints_no_escape_codes_on_a_terminal(args: tuple[str, ...]) -> None:
    styled = run_on_terminal(*args)
    assert "\x1b[1m" in styled or "\x1b[1;" in styled  # bold cards on a terminal
    plain = run_on_terminal(*args, NO_COLOR="1")
    assert "\x1b" not in plain, repr(plain[:200])
    assert "♠" in plain
