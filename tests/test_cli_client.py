"""The ``cpsolver`` CLI through a subprocess (issue 5): in-process and against a real server with
the same output, golden answers from RULES.md worked examples, the JSON schemas of
docs/CLI-JSON.md, tty vs piped output, batch with bad lines, deal, completion, exit codes
(0 ok, 2 bad input, 3 server unreachable).
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import socket
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import jsonschema
import pytest
from helpers import run_cli

from cpsolver import parse_cards

CPSOLVER = Path(sys.executable).with_name("cpsolver")
SCHEMAS = Path(__file__).resolve().parent.parent / "docs" / "schemas"
ANSI = re.compile(r"\x1b\[[0-9;]*m")

DRAGON = "As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s"  # CP-E10
SIX_PAIRS = "2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As"  # CP-E9
HAND = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"


def env(**extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    base.pop("CPSOLVER_SERVER", None)
    return {**base, "COLUMNS": "120", **extra}


def run(
    *args: str,
    stdin: str | None = None,
    extra_env: dict[str, str] | None = None,
    real: bool = False,
) -> subprocess.CompletedProcess[str]:
    """``cpsolver ARGS``: the installed command in a subprocess when ``real``, else click's
    in-process runner (same code path below the entry point; keeps the suite fast)."""
    if real:
        return subprocess.run(
            [str(CPSOLVER), *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
            env=env(**(extra_env or {})),
        )
    code, out, err = run_cli(args, stdin, env={"COLUMNS": "120", **(extra_env or {})})
    return subprocess.CompletedProcess(args, code, out, err)


def validator(name: str) -> jsonschema.protocols.Validator:
    """A validator of docs/schemas/NAME.schema.json (references resolved in that folder)."""
    from referencing import Registry, Resource

    schemas = {p.name: json.loads(p.read_text()) for p in SCHEMAS.glob("*.schema.json")}
    registry = Registry().with_resources(
        [(s["$id"], Resource.from_contents(s)) for s in schemas.values()]
    )
    schema = schemas[f"{name}.schema.json"]
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, registry=registry)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- basics -------------------------------------------------------------------------------


def test_version_and_help() -> None:
    out = run("--version", real=True)
    assert out.returncode == 0 and version("cpsolver") in out.stdout
    helped = run("--help")
    assert helped.returncode == 0
    for command in ("solve", "batch", "evaluate", "deal", "serve", "completion"):
        assert command in helped.stdout
    assert "3 server unreachable" in " ".join(helped.stdout.split())


def test_completion_script_uses_clicks_mechanism() -> None:
    out = run("completion", "bash", real=True)
    assert out.returncode == 0
    assert "_CPSOLVER_COMPLETE=bash_complete" in out.stdout
    # the script answers: ask for completions the way bash would
    words = run(
        real=True,
        extra_env={
            "_CPSOLVER_COMPLETE": "bash_complete",
            "COMP_WORDS": "cpsolver ba",
            "COMP_CWORD": "1",
        },
    )
    assert "batch" in words.stdout


# --- solve / evaluate: golden answers, in-process and remote ------------------------------


def test_solve_output_is_the_same_in_process_and_remote(server: str) -> None:
    """Human and JSON output do not depend on where the hand was solved (--server or
    CPSOLVER_SERVER); CP-E10: the dragon is declared for 13 units (JSON schema checked)."""
    human = ["solve", HAND, "--alternatives", "3"]
    as_json = ["solve", DRAGON, "--rules", "eastern", "--alternatives", "2", "--json"]
    for args in (human, as_json):
        local = run(*args, real=args is human)
        remote = run(*args, "--server", server, real=args is human)
        assert local.returncode == remote.returncode == 0, remote.stderr
        assert local.stdout == remote.stdout
    data = json.loads(remote.stdout)
    validator("solve").validate(data)
    assert (data["natural"]["name"], data["natural"]["units"]) == ("dragon", 13)
    rows = data["arrangement"]
    assert sorted(rows["back"] + rows["middle"] + rows["front"]) == sorted(DRAGON.split())
    assert len(data["alternatives"]) == 2
    via_env = run(*as_json, extra_env={"CPSOLVER_SERVER": server})
    assert via_env.stdout == local.stdout


def test_solve_human_output_shows_rows_royalties_and_alternatives() -> None:
    """Rows aligned with hand names and CP-8 royalties (royal flush back 5, full house middle
    2), the value, and an alternatives table."""
    out = run("solve", HAND, "--alternatives", "2")
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    back = next(x for x in lines if x.startswith("back"))
    middle = next(x for x in lines if x.startswith("middle"))
    front = next(x for x in lines if x.startswith("front"))
    assert "A♠ K♠ Q♠ J♠ T♠" in back and "royal flush" in back and back.rstrip().endswith("5")
    assert "full house" in middle and middle.rstrip().endswith("2")
    assert front.rstrip().endswith("0")
    # the rows are aligned: each column starts at the same offset on every row
    assert back.index("A♠") == middle.index("9") == front.index("7")
    assert "royalty units 7" in out.stdout
    assert "alternatives" in out.stdout and re.search(r"^\s*2\s", out.stdout, re.M)


@pytest.mark.parametrize(
    ("where", "wheel", "wheel_wins"),
    [("local", "lowest", False), ("remote", "second_highest", True)],
)
def test_evaluate_wheel_option_cp_e4(where: str, wheel: str, wheel_wins: bool, server: str) -> None:
    """CP-E4: 6-5-4-3-2 beats A-2-3-4-5, and loses to it under wheel=second_highest."""
    extra = ["--server", server] if where == "remote" else []
    check = validator("evaluate")

    def strength(cards: str, *more: str) -> int:
        out = run("evaluate", cards, "--json", *more, *extra)
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        check.validate(data)
        assert data["category"] == "straight"
        return int(data["strength"])

    option = ("--set", f"wheel={wheel}")
    assert (strength("Ah 2d 3h 4s 5c", *option) > strength("6s 5h 4d 3c 2s", *option)) == wheel_wins


@pytest.mark.parametrize("where", ["local", "remote"])
def test_bad_input_exits_2_with_the_same_line(where: str, server: str) -> None:
    """Wrong count and unknown options: exit 2 and one line on stderr naming the field."""
    extra = ["--server", server] if where == "remote" else []
    out = run("solve", "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d", *extra)
    assert out.returncode == 2
    assert out.stderr.strip() == "error: cards: expected 13 cards, got 12"
    out = run("solve", HAND, "--set", "order=sideways", *extra)
    assert out.returncode == 2 and out.stderr.startswith("error: ") and "order" in out.stderr


def test_unreachable_server_exits_3() -> None:
    """Nothing listens on the port: exit 3, one line on stderr, after the client's retries."""
    address = f"127.0.0.1:{closed_port()}"
    for args in (["solve", HAND], ["batch", "-"]):
        out = run(*args, "--server", address, "--timeout", "5", stdin=HAND + "\n", real=True)
        assert out.returncode == 3, out.stderr
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: server unreachable")


# --- batch --------------------------------------------------------------------------------

BATCH_INPUT = "\n".join(
    [
        "# a comment, then a blank line",
        "",
        HAND,  # line 3
        "As Ks",  # line 4: too few cards
        json.dumps({"cards": DRAGON.split(), "id": "dragon"}),  # line 5
        "{not json",  # line 6
        json.dumps({"cards": SIX_PAIRS, "seat": "N"}),  # line 7: unknown key
        "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d Zz",  # line 8: bad card (13th)
        SIX_PAIRS,  # line 9
    ]
)


def check_batch_lines(stdout: str) -> list[dict[str, object]]:
    check = validator("batch-line")
    records = [json.loads(x) for x in stdout.splitlines()]
    for record in records:
        check.validate(record)
    return records


@pytest.mark.parametrize("where", ["local", "remote"])
def test_batch_skip_reports_every_bad_line(where: str, server: str, tmp_path: Path) -> None:
    extra = ["--server", server] if where == "remote" else []
    source = tmp_path / "hands.txt"
    source.write_text(BATCH_INPUT + "\n")
    out = run("batch", str(source), *extra, real=where == "local")
    assert out.returncode == 2  # some line was bad
    records = check_batch_lines(out.stdout)
    assert [r["line"] for r in records] == [3, 4, 5, 6, 7, 8, 9]  # input order, none lost
    assert [r["ok"] for r in records] == [True, False, True, False, False, False, True]
    assert records[2]["id"] == "dragon" and "id" not in records[0]
    assert records[2]["solution"]["natural"]["name"] == "dragon"  # type: ignore[index]
    assert records[6]["solution"]["natural"]["units"] == 3  # type: ignore[index]  # CP-E9
    assert records[1]["error"]["violations"] == [  # type: ignore[index]
        {"field": "cards", "description": "expected 13 cards, got 2"}
    ]
    assert records[5]["error"]["violations"][0]["field"] == "cards[12]"  # type: ignore[index]
    summary = out.stderr.strip().splitlines()[-1]
    assert "4 bad lines (4, 6, 7, 8)" in summary and "3 of 7" in summary
    if where == "remote":  # the same from stdin, in-process
        local = run("batch", stdin=BATCH_INPUT)
        # A JSON error names where the line came from: the file, or stdin.
        remote = out.stdout.replace(f"{source}: not valid JSON", "stdin: not valid JSON")
        assert (local.stdout, local.stderr) == (remote, out.stderr)


def test_batch_stop_stops_at_the_first_bad_line() -> None:
    out = run("batch", "--on-error", "stop", stdin=BATCH_INPUT)
    assert out.returncode == 2
    assert [r["line"] for r in check_batch_lines(out.stdout)] == [3]
    assert out.stderr.strip() == "error: line 4: cards: expected 13 cards, got 2"


def test_deal_feeds_batch_and_is_seeded() -> None:
    """Same seed, same hands; 4 x 13 distinct cards; bare lines are batch input."""
    first = run("deal", "--seed", "7", "--players", "4", "--json")
    assert first.returncode == 0
    data = json.loads(first.stdout)
    validator("deal").validate(data)
    cards = [c for hand in data["hands"].values() for c in hand]
    assert len(set(cards)) == 52 and len(parse_cards(cards)) == 52
    lines = run("deal", "--seed", "7", "--count", "2", "--lines").stdout
    assert lines.splitlines()[:4] == [" ".join(h) for h in data["hands"].values()]
    assert lines.splitlines()[4:] != lines.splitlines()[:4]  # seed 8 is another deal
    solved = run("batch", stdin=lines)
    assert solved.returncode == 0 and len(check_batch_lines(solved.stdout)) == 8


# --- tty vs piped -------------------------------------------------------------------------


def run_in_pty(*args: str, extra_env: dict[str, str] | None = None) -> str:
    """Run cpsolver with stdout and stderr on a pseudo-terminal; return what it wrote."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [str(CPSOLVER), *args],
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=slave,
        env=env(TERM="xterm-256color", **(extra_env or {})),
    )
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            break
        try:
            data = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace")


def test_colours_on_a_terminal_plain_when_piped() -> None:
    """Red hearts and diamonds on a terminal; no escape codes when piped or with NO_COLOR."""
    args = ("evaluate", "Ah Kd Qs Jc Th")
    on_tty = run_in_pty(*args)
    assert "\x1b[" in on_tty and "31" in on_tty  # red
    assert ANSI.sub("", on_tty).split() == run(*args).stdout.split()
    piped = run(*args, real=True)
    assert "\x1b" not in piped.stdout and "A♥ K♦ Q♠ J♣ T♥" in piped.stdout
    no_color = run_in_pty(*args, extra_env={"NO_COLOR": "1"})
    assert not re.search(r"\x1b\[[0-9;]*3[1-7]m", no_color)


def test_batch_progress_only_on_a_terminal(tmp_path: Path) -> None:
    source = tmp_path / "hands.txt"
    source.write_text(HAND + "\n")
    piped = run("batch", str(source), real=True)
    assert piped.stderr == "" and "\x1b" not in piped.stdout
    on_tty = run_in_pty("batch", str(source))
    assert "solving" in on_tty  # rich's progress bar (then the result line)
    assert '"line": 1' in on_tty


# --- score: CP-E5 golden, in-process and remote -------------------------------------------

CP_E5 = {
    "players": {
        "N": {"front": "Qs Qd 2c", "middle": "Js Jd Jh 5c 4d", "back": "9s 8s 7s 4s 2s"},
        "E": {"front": "Ah Kd 3c", "middle": "Tc Td 6h 6c Kc", "back": "8d 9d Th Jc Qc"},
        "S": {"front": "7d 7c Ac", "middle": "5s 5h 5d 9c 8c", "back": "3h 3d 3s Ks Kh"},
        "W": {"front": "2h 2d 4c", "middle": "As Ad 6s 6d Ts", "back": "Qh 9h 8h 7h 4h"},
    }
}


@pytest.mark.parametrize("where", ["local", "remote"])
def test_score_cp_e5(where: str, server: str) -> None:
    """CP-E5: pairings N-E +3, N-S +1, N-W +1, E-S -3, E-W -3, S-W +3; totals N +5, E -9,
    S +5, W -1; with scoring=scoop_double N +8, E -18, S +11, W -1."""
    extra = ["--server", server] if where == "remote" else []
    table = json.dumps(CP_E5)
    out = run("score", "-", "--json", *extra, stdin=table)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["totals"] == {"N": 5, "E": -9, "S": 5, "W": -1}
    nets = {"-".join(p["seats"]): p["total"] for p in data["pairings"]}
    assert nets == {"N-E": 3, "N-S": 1, "N-W": 1, "E-S": -3, "E-W": -3, "S-W": 3}
    doubled = json.loads(run("score", "-", "--json", "--set", "scoring=scoop_double", *extra,
                             stdin=table).stdout)  # fmt: skip
    assert doubled["totals"] == {"N": 8, "E": -18, "S": 11, "W": -1}
    human = run("score", "-", *extra, stdin=table)
    totals = human.stdout[human.stdout.index("totals") :]
    assert re.findall(r"^\s*([NESW])\s+([+-]\d+)\s*$", totals, re.M) == [
        ("N", "+5"), ("E", "-9"), ("S", "+5"), ("W", "-1"),
    ]  # fmt: skip
    if where == "remote":
        assert human.stdout == run("score", "-", stdin=table).stdout
        assert out.stdout == run("score", "-", "--json", stdin=table).stdout
    # The players seat by seat (a list: N, E, S, W) settle the same table.
    seat_by_seat = json.dumps({"players": list(CP_E5["players"].values())})
    assert run("score", "-", "--json", *extra, stdin=seat_by_seat).stdout == out.stdout


# --- chlust: in-process and against the server's ChlustService -----------------------------


@pytest.mark.parametrize("where", ["local", "remote"])
def test_chlust_showdown_cp_examples(where: str, server: str) -> None:
    """CH-E1: trumps diamonds, J♠J♥10♣ (three jacks, impure) beats A♦K♦Q♦; CH-E2 under
    purity=within_category the spades win; CH-E8: Q♥J♦10♣ is no set. Same output either way."""
    extra = ["--server", server] if where == "remote" else []
    out = run("chlust", "showdown", "-t", "d", "Js Jh Tc", "Ad Kd Qd", "--json", *extra)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["winner"] == 0 and data["ranking"] == [[0], [1]]
    assert data["hands"][0]["category"] == "three_jacks" and data["hands"][0]["pure"] is False
    args = ["chlust", "showdown", "-t", "d", "Jd Td Tc", "As Ks Qs", "--json"]
    within = json.loads(run(*args, "--set", "purity=within_category", *extra).stdout)
    assert within["winner"] == 1 and json.loads(run(*args, *extra).stdout)["winner"] == 0
    none = run("chlust", "evaluate", "Qh Jd Tc", "-t", "s", *extra)
    assert none.returncode == 0 and "no set" in none.stdout
    bad = run("chlust", "evaluate", "Js Jh 9c", "-t", "d", *extra)
    assert bad.returncode == 2 and bad.stderr.startswith("error: cards[2]: card '9c'")
    if where == "remote":
        human = ["chlust", "showdown", "-t", "d", "Js Jh Tc", "Ad Kd Qd"]
        assert run(*human, *extra).stdout == run(*human).stdout
        assert out.stdout == run(*out.args[:-2]).stdout  # type: ignore[index]
