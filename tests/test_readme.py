"""The README's quickstart (issue 5: "three example commands with their real output") shows
what the CLI prints today: each ``$ cpsolver ...`` line of its console block is run and its
output compared line by line (trailing spaces aside)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
CLI = [sys.executable, "-c", "from cpsolver.client.cli import main; main()"]


def console_examples() -> list[tuple[str, str]]:
    """``(command, expected output)`` for each ``$ cpsolver`` line of the console blocks."""
    examples: list[tuple[str, str]] = []
    for block in re.findall(r"```console\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            examples.append((command, output))
    return examples


def test_readme_has_the_three_quickstart_examples() -> None:
    commands = [command.split()[1] for command, _ in console_examples()]
    assert commands[:3] == ["deal", "solve", "evaluate"]


@pytest.mark.parametrize(("command", "expected"), console_examples(), ids=lambda v: v[:40])
def test_readme_example_prints_what_the_readme_shows(command: str, expected: str) -> None:
    args = shlex.split(command)
    assert args[0] == "cpsolver"
    out = subprocess.run(
        [*CLI, *args[1:]], capture_output=True, text=True, timeout=120, check=False
    )
    assert out.returncode == 0, out.stderr

    def lines(text: str) -> list[str]:
        return [line.rstrip() for line in text.strip("\n").splitlines()]

    assert lines(out.stdout) == lines(expected)
