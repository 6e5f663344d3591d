"""``cpsolver leaves``: TL worked examples end to end, JSON shapes, ``--set`` options, and exit
code 2 with one line on stderr for bad input.

A few cases run the installed ``cpsolver`` in a subprocess (the real entry point, exit code and
stderr); the rest use click's in-process runner to keep the suite fast.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpsolver.client.cli import main

CPSOLVER = Path(sys.executable).with_name("cpsolver")

TL_E6 = {
    "hands": ["As Kh 8d", "Ks 9h Jc", "Ts Ah Qd", "Qs 8c Ac"],
    "trump_card": "9d",
    "plays": "As Ks Ts Qs  Kh 9h Ah ~8c  Qd ~Ac 8d ~Jc",
}


class Result:
    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def run(*args: str, stdin: str | None = None) -> Result:
    """``cpsolver leaves ARGS`` in-process."""
    out = CliRunner().invoke(main, ["leaves", *args], input=stdin)
    return Result(out.exit_code, out.stdout, out.stderr)


def run_installed(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``cpsolver leaves ARGS`` through the installed command in a subprocess."""
    return subprocess.run(
        [str(CPSOLVER), "leaves", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
        check=False,
    )


def test_evaluate_tl_e1_json() -> None:
    """TL-E1: A♠K♠8♠ under spades is a trump khlyust of 23 points."""
    proc = run_installed("evaluate", "As Ks 8s", "--trump", "♠", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert (data["class"], data["points"], data["top"]) == ("trump_khlyust", 23, "A")


def test_evaluate_deck_option_via_set() -> None:
    """TL-1: 7s exist only with --set deck=32."""
    assert run("evaluate", "7h 8h 9h", "--trump", "c").returncode == 2
    proc = run("evaluate", "7h 8h 9h", "--trump", "c", "--set", "deck=32", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["points"] == 24


def test_legal_tl_e5_and_void_option() -> None:
    """TL-E5 / TL-5: void in ♠ with 8♦A♣K♥ (trumps ♦): the 8♦ face up takes the lead, any
    card face down; with void=must_trump only the 8♦."""
    proc = run("legal", "8d Ac Kh", "--trump", "d", "--trick", "As", "--json")
    assert proc.returncode == 0, proc.stderr
    plays = {
        (p["card"], p["face_down"], p["heads_trick"]) for p in json.loads(proc.stdout)["plays"]
    }
    assert plays == {
        ("8d", False, True),
        ("8d", True, False),
        ("Ac", True, False),
        ("Kh", True, False),
    }
    proc = run("legal", "8d Ac Kh", "--trump", "d", "--trick", "As", "--set", "void=must_trump")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["8♦", "(takes", "the", "lead)"]


def test_play_tl_e6_from_stdin() -> None:
    """TL-E6: tricks to A, C, C; the pot (4) stays; C collects the share from B and D."""
    proc = run_installed("play", "-", "--json", "--set", "share=3", stdin=json.dumps(TL_E6))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert [t["winner"] for t in data["tricks"]] == [0, 2, 2]
    assert data["trick_counts"] == [1, 0, 2, 0]
    assert data["pot_after"] == 4
    assert data["net"] == [-1, -4, 5, -4]


def test_play_session_conserves_money(tmp_path: Path) -> None:
    """TL-6: two deals, the carried pot of the first is taken by TL-E1's trump khlyust in the
    second: totals plus the pot left sum to 0."""
    tl_e1 = {
        "hands": ["9h Jc Qd", "As Ks 8s", "Th Jd 9c", "Qh Kc 8d"],
        "trump_card": "Js",
        "picks": ["As", "Ks", "8s"],
    }
    path = tmp_path / "session.json"
    path.write_text(json.dumps({"deals": [TL_E6, tl_e1]}), encoding="utf-8")
    proc = run("play", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["pot"] == 0
    assert sum(data["totals"]) == 0
    # B: -1 -2 (share to C) in deal 1; -1 + pot 8 + 23 in deal 2.
    assert data["totals"][1] == -1 - 1 + (-1 + 8 + 23)


def test_resolve_tl_e7_plain_khlyust() -> None:
    """TL-E7: H (the assistant) holds the plain khlyust A♥K♥8♥ and may be challenged."""
    deal = {"hands": ["Ah Kh 8h", "Qh Jh 9d", "Th Ks 8c", "9h Kd Ac"], "trump_card": "Qs"}
    proc = run("resolve", json.dumps(deal), "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["winner"] == 0
    assert data["khlyusts"][0]["class"] == "plain_khlyust"
    assert "play-out" in data["verdict"]


def test_advise_json_is_seeded() -> None:
    """Advice: exact odds, seeded sampled trick and exchange odds (same seed, same answer)."""
    args = ("advise", "8s 9h Jc", "--trump", "9d", "--samples", "60", "--seed", "4", "--json")
    first = run(*args)
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert data["odds"]["method"] == "exact"
    assert data["tricks"]["method"] == "monte_carlo"
    assert len(data["exchange"]) == 9
    assert run(*args).stdout == first.stdout


def test_bad_input_exits_2_through_the_installed_command() -> None:
    """The real entry point: an illegal play (TL-5) exits 2 with one line on stderr."""
    bad = json.dumps({**TL_E6, "plays": "As Jc Ts Qs"})
    proc = run_installed("play", "-", stdin=bad)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "must follow suit" in lines[0] and "TL-5" in lines[0]


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (("evaluate", "As Ks", "--trump", "s"), None, "expected 3 cards"),
        (("evaluate", "As Ks 8s", "--trump", "x"), None, "unknown suit"),
        (("evaluate", "As Ks 8s", "--trump", "s", "--set", "void=never"), None, "rules.void"),
        (("play", "-"), '{"hands": 3', "input: stdin: not valid JSON at line 1 column 12"),
        (("play", "-"), json.dumps({**TL_E6, "plays": "As Jc Ts Qs"}), "TL-5"),
        (("play", "/nonexistent/deal.json"), None, "no such file"),
        (("resolve", "-"), json.dumps({"hands": ["As Kh 8d"]}), "trump_card: is required"),
        (
            ("advise", "8s 9h Jc", "--trump", "9d", "--what", "exchange", "--position", "0"),
            None,
            "must play the cards dealt",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(
    args: tuple[str, ...], stdin: str | None, message: str
) -> None:
    """Bad input: exit 2 and one clear line on stderr naming the problem."""
    proc = run(*args, stdin=stdin)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], proc.stderr
