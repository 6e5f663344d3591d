"""``cpsolver chlust ...``: worked examples, JSON, exit code 2 with one line on stderr.

Most cases use click's in-process runner (same code below the entry point, fast); a few run
the installed command in a subprocess (``real=True``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli

CPSOLVER = Path(sys.executable).with_name("cpsolver")


def run(
    *args: str, stdin: str | None = None, real: bool = False
) -> subprocess.CompletedProcess[str]:
    if real:
        return subprocess.run(
            [str(CPSOLVER), "chlust", *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            input=stdin,
        )
    code, out, err = run_cli(["chlust", *args], stdin)
    return subprocess.CompletedProcess(args, code, out, err)


def ok_json(*args: str, stdin: str | None = None, real: bool = False) -> dict[str, object]:
    out = run(*args, "--json", stdin=stdin, real=real)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert isinstance(data, dict)
    return data


def test_evaluate_ch_e1_three_jacks_and_ch_e7_options() -> None:
    data = ok_json("evaluate", "Js Jh Tc", "--trump", "d", real=True)
    assert data["category"] == "three_jacks" and data["pure"] is False
    assert data["wild"] == "Tc" and data["wild_role"] == "substitute"
    clubs = ok_json("evaluate", "10♣ A♣ K♣", "-t", "♥")
    assert (clubs["category"], clubs["pure"], clubs["suit"]) == ("flush", True, "c")
    text = run("evaluate", "Tc", "Th", "Td", "-t", "h")
    assert text.returncode == 0 and "three tens (pure)" in text.stdout


def test_evaluate_purity_option_reaches_the_key() -> None:
    """CH-E2: the impure trump flush beats A♠K♠Q♠ by default, not under within_category."""
    args = ("-t", "d", "--set", "purity=within_category")
    impure = ok_json("evaluate", "Jd Td Tc", *args)["key"]
    spades = ok_json("evaluate", "As Ks Qs", *args)["key"]
    assert spades > impure  # type: ignore[operator]
    assert (
        ok_json("evaluate", "Jd Td Tc", "-t", "d")["key"]
        > ok_json(  # type: ignore[operator]
            "evaluate", "As Ks Qs", "-t", "d"
        )["key"]
    )


def test_showdown_ch_e3_ranking() -> None:
    data = ok_json("showdown", "-t", "h", "As Ks Qs", "Qh Jh Th", "Ac Kc Qc")
    assert data["winner"] == 1
    assert data["ranking"] == [[1], [2], [0]]
    text = run("showdown", "-t", "d", "Qh Jd Tc", "Ad Ks Qs")
    assert text.returncode == 0 and "three tricks are played" in text.stdout


def test_legal_ch_e10() -> None:
    assert ok_json("legal", "Th Kh Ac", "--trick", "Qd Kd Jh", "-t", "h")["legal"] == ["Kh"]
    assert ok_json("legal", "Th Ac Ks", "--trick", "Qd Kd Jh", "-t", "h")["legal"] == ["Th"]
    free = ok_json(
        "legal", "Th Ac Ks", "--trick", "Qd Kd Jh", "-t", "h", "--set", "underruff=may_discard"
    )
    assert sorted(free["legal"]) == ["Ac", "Ks", "Th"]  # type: ignore[arg-type]


CH_E11 = {
    "hands": ["Ah Td Kc", "Kh Ad Js", "Qh Jd Tc"],
    "trump": "s",
    "turned": "Qs",
    "dealer": 0,
    "plays": ["Ah Kh Qh", "Kc Js Tc", "Ad Jd Td"],
}


def test_play_ch_e11_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(CH_E11), encoding="utf-8")
    data = ok_json("play", str(path))
    assert data["tricks_won"] == {"0": 1, "1": 2, "2": 0}
    assert data["winners"] == [1] and data["shares"]["1"] == "1"  # type: ignore[index]
    text = run("play", "-", stdin=json.dumps(CH_E11), real=True)
    assert text.returncode == 0 and "seat 1 takes the pot" in text.stdout


def test_play_illegal_card_exits_2_naming_ch8() -> None:
    bad = dict(CH_E11, plays=["Ah Kh Qh", "Kc Ad Tc", "Js Jd Td"])
    out = run("play", "-", stdin=json.dumps(bad), real=True)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "plays[4]" in lines[0] and "CH-8" in lines[0]


def test_odds_exact_and_monte_carlo() -> None:
    exact = ok_json("odds", "Ad Kd Qd", "-t", "d")
    win: Any = exact["win"]
    assert exact["method"] == "exact" and abs(win["value"] - 670 / 680) < 1e-9
    assert win["low"] == win["value"] == win["high"] and win["exact"] is True
    mc = ok_json("odds", "Ad Kd Qd", "-t", "d", "-k", "3", "--samples", "2000", "--seed", "4")
    assert mc["method"] == "monte_carlo" and mc["seed"] == 4 and "ci95" not in mc
    sampled: Any = mc["win"]
    assert sampled["low"] < sampled["value"] < sampled["high"] and sampled["exact"] is False


def test_advise_and_deal_and_bid() -> None:
    position = {
        "hand": "Qd Qh",
        "trump": "s",
        "seat": 0,
        "seats": [0, 1],
        "history": [{"leader": 0, "cards": "Kd Ac"}],
        "trick": {"leader": 0, "cards": ""},
        "turned": "Js",
    }
    advice = ok_json("advise", "-", stdin=json.dumps(position))
    assert advice["card"] == "Qd" and advice["method"] == "exact"
    dealt = ok_json("deal", "--seed", "1", "-n", "2")
    assert dealt["turned"] == "Ac" and dealt["exchange_seat"] == 0
    bid = ok_json("bid", "raise", "fold", "call", "-n", "3")
    assert bid["is_over"] is True and bid["in_play"] == [0, 1] and bid["pot"] == 5


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (("evaluate", "9h Jh Qh", "-t", "h"), None, "not in the 20-card deck"),
        (("evaluate", "Ah Kh Qh", "-t", "x"), None, "trump"),
        (("evaluate", "Ah Kh", "-t", "h"), None, "expected 3 cards"),
        (("evaluate", "Ah Kh Qh", "-t", "h", "--set", "deck=28"), None, "rules.deck"),
        (("evaluate", "Ah Kh Qh", "-t", "h", "--set", "colour=red"), None, "unknown chlust"),
        (("showdown", "-t", "h", "Ah Kh Qh", "Ah Ks Qs"), None, "hands[1][0]"),
        (("showdown", "-t", "h", "Ah Kh Qh"), None, "2 to 4 hands"),
        (("legal", "Ah Kh", "--trick", "Ah", "-t", "h"), None, "already on the trick"),
        (("play", "-"), "{not json", "input: stdin: not valid JSON at line 1 column 2"),
        (("play", "-"), '{"trump": "s"}', "hands: missing"),
        (("odds", "Ad Kd Qd", "-t", "d", "-k", "4"), None, "opponents"),
        (("bid", "check", "call", "-n", "2"), None, "actions[1]"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    args: tuple[str, ...], stdin: str | None, needle: str
) -> None:
    out = run(*args, stdin=stdin)
    assert out.returncode == 2, out.stdout
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert needle in lines[0]
