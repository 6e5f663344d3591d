"""``cpsolver score`` through a subprocess: files, stdin, options, and exit code 2 on bad input.

Expected figures come from RULES.md's worked examples (CP-E5, CP-E7, CP-E9)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

E5 = {
    "N": {"front": "Q♠Q♦2♣", "middle": "J♠J♦J♥5♣4♦", "back": ["9s", "8s", "7s", "4s", "2s"]},
    "E": {"front": "A♥K♦3♣", "middle": "10♣10♦6♥6♣K♣", "back": "8♦9♦10♥J♣Q♣"},
    "S": {"front": ["7d", "7c", "Ac"], "middle": "5♠5♥5♦9♣8♣", "back": "3♥3♦3♠K♠K♥"},
    "W": {"front": "2♥2♦4♣", "middle": "A♠A♦6♠6♦10♠", "back": "Q♥9♥8♥7♥4♥"},
}
E7 = {
    "F": {"front": "K♠K♦2♥", "middle": "Q♠Q♥5♣4♣3♦", "back": "A♠A♦A♣9♠9♦"},
    "V": {"front": "J♥J♣6♠", "middle": "10♥10♣10♦8♥8♣", "back": "7♠7♥7♦7♣3♠"},
}
SIX_PAIRS = {"cards": "2♠2♥5♦5♣7♠7♥9♦9♣J♠J♥K♦K♣A♠", "natural": True}
ORDINARY = {"front": "Ah Ad 3c", "middle": "Ks Kh 8c 8d 4s", "back": "Qs Qh Qd Tc Td"}


CLI = "from cpsolver.client.cli import main; main(prog_name='cpsolver')"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CLI, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def write(tmp_path: Path, payload: object, name: str = "table.json") -> str:
    path = tmp_path / name
    text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    return str(path)


SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "schemas" / "score.schema.json"


def check_schema(data: object) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    cls(schema).validate(data)


def test_cp_e5_json_from_a_file(tmp_path: Path) -> None:
    result = run("score", write(tmp_path, {"players": E5}), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    check_schema(data)
    assert data["totals"] == {"N": 5, "E": -9, "S": 5, "W": -1}
    assert [p["total"] for p in data["pairings"]] == [3, 1, 1, -3, -3, 3]
    assert data["pairings"][0]["seats"] == ["N", "E"]


def test_cp_e5_scoop_double_from_stdin_with_set() -> None:
    payload = json.dumps({"players": E5})
    result = run("score", "-", "--set", "scoring=scoop_double", "--json", stdin=payload)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["totals"] == {"N": 8, "E": -18, "S": 11, "W": -1}


def test_cp_e7_foul_with_rules_preset(tmp_path: Path) -> None:
    path = write(tmp_path, {"players": E7})
    result = run("score", path, "--json")
    data = json.loads(result.stdout)
    check_schema(data)
    assert data["totals"] == {"F": -7, "V": 7}
    # The two_four preset: royalties none, a foul pays as a scoop: 3 rows + 1.
    result = run("score", path, "--rules", "two_four", "--json")
    assert json.loads(result.stdout)["totals"] == {"F": -4, "V": 4}


def test_cp_e9_declared_natural(tmp_path: Path) -> None:
    result = run("score", write(tmp_path, {"players": {"N": SIX_PAIRS, "E": ORDINARY}}), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    check_schema(data)
    assert data["totals"] == {"N": 3, "E": -3}
    assert data["players"]["N"]["natural"]["name"] == "six_pairs"


def test_human_output_shows_pairings_and_totals(tmp_path: Path) -> None:
    result = run("score", write(tmp_path, {"players": E7}))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "F-V" in out and "fouled" in out and "totals" in out
    assert "+7" in out and "-7" in out


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ('{"players": {', "table.json: not valid JSON at line 1 column 14"),
        ("[1, 2]", 'input: expected a JSON object {"players"'),
        ({"seats": {}}, "seats: unknown key"),
        ({}, "players: missing"),
        (
            {"players": {**E5, "N": {**E5["N"], "back": ["9s", "8s", "7x", "4s", "2s"]}}},
            "players.N.back[2]: unknown suit 'x'",
        ),
        (
            {"players": {"N": E5["N"], "E": {**E5["E"], "front": ["Qs", "Kd", "3c"]}}},
            "players.E.front[0]: duplicate card 'Qs' (also players.N.front[0])",
        ),
        (
            {"players": {"N": {**E5["N"], "front": "Qs Qd"}, "E": E5["E"]}},
            "players.N.front: expected 3 cards, got 2",
        ),
        (
            {"players": {"N": {**E5["N"], "back": 5}, "E": E5["E"]}},
            "players.N.back: expected 5 cards as a list or a string, got int",
        ),
        (
            {"players": {"N": {"cards": E5["N"]["back"], "natural": True}, "E": E5["E"]}},
            "players.N.cards: expected 13 cards, got 5",
        ),
        ({"players": {"N": E5["N"]}}, "players: a table has 2 to 4 players (CP-1), got 1"),
        ({"players": "N E"}, "players: expected the players seat by seat"),
        (
            {"players": [E5["N"], {**E5["E"], "front": ["Qs", "Kd", "3c"]}]},
            "players[1].front[0]: duplicate card 'Qs' (also players[0].front[0])",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path: Path, payload: object, message: str) -> None:
    result = run("score", write(tmp_path, payload))
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert message in lines[0]


def test_players_as_a_list_are_the_seats_in_order(tmp_path: Path) -> None:
    # The library's per-seat shape: seat i is item i, named N, E, S, W; the output is the
    # same as for the object that names them so.
    as_list = run("score", write(tmp_path, {"players": list(E5.values())}), "--json")
    as_object = run("score", write(tmp_path, {"players": E5}, "named.json"), "--json")
    assert as_list.returncode == 0, as_list.stderr
    assert json.loads(as_list.stdout) == json.loads(as_object.stdout)
    assert list(json.loads(as_list.stdout)["totals"]) == ["N", "E", "S", "W"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--set", "bonus=huge"], "rules.bonus: unknown chinese_poker option 'bonus'"),
        (["--set", "scoring=1-7"], "rules.scoring: invalid value '1-7'"),
        (["--set", "scoring"], "expected OPTION=VALUE"),
        (["--rules", "western"], "rules.preset: unknown preset 'western'"),
    ],
)
def test_bad_options_exit_2(tmp_path: Path, options: list[str], message: str) -> None:
    result = run("score", write(tmp_path, {"players": E5}), *options)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr


def test_missing_file_exits_2(tmp_path: Path) -> None:
    result = run("score", str(tmp_path / "nope.json"))
    assert result.returncode == 2
    assert "nope.json: no such file" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_naturals_off_declared_natural_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, {"players": {"N": SIX_PAIRS, "E": ORDINARY}})
    result = run("score", path, "--set", "naturals=off")
    assert result.returncode == 2
    assert "players.N.natural: naturals are off" in result.stderr
