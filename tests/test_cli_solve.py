"""``cpsolver solve``: JSON shape, options, exit code 2 on bad input.

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

from cpsolver import evaluate
from cpsolver.client.cli import main

CPSOLVER = Path(sys.executable).with_name("cpsolver")
HAND = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CPSOLVER), "solve", *args], capture_output=True, text=True, timeout=120, check=False
    )


class Result:
    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def invoke(*args: str) -> Result:
    """``cpsolver solve ARGS`` in-process."""
    out = CliRunner().invoke(main, ["solve", *args])
    return Result(out.exit_code, out.stdout, out.stderr)


def test_solve_json_has_the_documented_shape() -> None:
    """Issue 2 item 9: arrangement {back, middle, front}, natural, hands, royalties, value."""
    out = run(HAND, "--json", "--objective", "strength")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    rows = data["arrangement"]
    assert sorted(rows["back"] + rows["middle"] + rows["front"]) == sorted(HAND.split())
    assert evaluate(rows["back"]) >= evaluate(rows["middle"]) >= evaluate(rows["front"])  # CP-6
    assert data["natural"] is None
    assert data["hands"]["back"]["name"] == "royal flush"
    assert data["hands"]["middle"]["category"] == "full_house"
    assert data["royalties"] == {"back": 5, "middle": 2, "front": 0}  # CP-8 standard
    assert isinstance(data["value"], int)


def test_solve_options_reach_the_solver() -> None:
    """--rules, --set and --objective are applied (CP-E3 under order=strict; CP-8 eastern)."""
    cards = "2c 3d 4h Ah Kd Qc Jd Ts As Ks Qd Jc Th"
    weak = json.loads(invoke(cards, "--json", "--objective", "strength").stdout)
    assert weak["hands"]["middle"]["name"] == "straight, ace high"
    strict = json.loads(
        invoke(cards, "--json", "--objective", "strength", "--set", "order=strict").stdout
    )
    assert strict["rules"]["order"] == "strict"
    assert strict["hands"]["middle"]["name"] != "straight, ace high"
    eastern = json.loads(
        invoke(HAND, "--rules", "eastern", "--objective", "royalties", "--json").stdout
    )
    assert eastern["royalties"]["back"] == 7 and eastern["objective"] == "royalties"


def test_solve_reports_a_natural() -> None:
    """CP-E10: a dragon is declared (13 units) in JSON and in the human output."""
    dragon = "As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s"
    data = json.loads(invoke(dragon, "--json").stdout)
    assert data["natural"]["name"] == "dragon" and data["natural"]["units"] == 13
    assert "dragon" in invoke(dragon).stdout


def test_solve_human_output_lists_the_three_rows() -> None:
    """Human output: one line per row with its cards and hand name."""
    out = invoke(HAND, "--objective", "strength")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    back = next(line for line in lines if line.strip().startswith("back"))
    assert "royal flush" in back and "A♠" in back
    assert any("full house, nines over twos" in line for line in lines)
    assert any(line.strip().startswith("front") for line in lines)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3x",), "cards[12]"),
        (("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d",), "expected 13 cards"),
        ((HAND, "--set", "jokers=2"), "rules.jokers"),
        ((HAND, "--set", "order"), "OPTION=VALUE"),
        ((HAND, "--rules", "vegas"), "rules.preset"),
        ((HAND, "--objective", "luck"), "valid objectives: strength, royalties"),
    ],
)
def test_bad_input_exits_2_with_one_line(args: tuple[str, ...], needle: str) -> None:
    """Bad cards, unknown options or objectives: exit code 2 and one clear line on stderr."""
    out = invoke(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3x",), "cards[12]"),
        ((HAND, "--objective", "luck"), "valid objectives: strength, royalties"),
    ],
)
def test_installed_command_exits_2_with_one_line(args: tuple[str, ...], needle: str) -> None:
    """The installed ``cpsolver`` process: exit code 2 and one line on stderr, nothing on stdout."""
    out = run(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0]
