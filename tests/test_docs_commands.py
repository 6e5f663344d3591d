"""The ```` ```sh ```` and ```` ```text ```` blocks of README.md and docs/*.md: checked line by
line, since they cannot run as written in a test (a server that stays up, `make test` itself,
docker, kubectl, a Ray cluster). tests/test_docs_examples.py runs the other kinds.

Each command line (comments and ``\\`` continuations aside) must be one this test knows:

- ``cpsolver COMMAND ...`` (a synopsis or an example): every ``--option`` it names is one of
  the command's options (click's own list, so a renamed or removed option fails here);
- ``make TARGET``: a target of the Makefile;
- ``pip install ...``: every ``cpsolver[EXTRA]`` / ``.[EXTRA]`` names extras of pyproject.toml;
- ``python -m MODULE ...``: its options are in the module's ``--help``; a ``--dry-run`` line
  is run, and each ``cpsolver`` command it prints is checked as above;
- ``grpcurl``: run against a real server by tests/test_docs_grpcurl.py;
- ``curl`` (docs/DEPLOY.md): run against Envoy in front of real servers by tests/test_edge.py;
- ``docker``, ``kubectl``, ``ray start``: need a container runtime, a cluster or several
  machines, so they are not run here; the files they name must exist.

A ```` ```text diagram ```` block is a picture: the folders it starts its lines with must exist.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import click
import pytest

from cpsolver.client.cli.main import main as cli

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(sh|text)([^\n]*)\n(.*?)^```[ \t]*$", re.S | re.M)
NOT_RUNNABLE = {"docker", "kubectl", "ray"}  # see the module docstring


@dataclass(frozen=True)
class Line:
    where: str
    text: str


def _blocks() -> list[tuple[str, str, str]]:
    found = []
    for path in PAGES:
        text = path.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            where = f"{path.relative_to(ROOT)}:{line}"
            found.append((where, match.group(2).strip(), match.group(3)))
    return found


BLOCKS = _blocks()


def _lines() -> list[Line]:
    lines = []
    for where, options, body in BLOCKS:
        if options == "diagram" or "file=" in options:
            continue  # pictures (below) and input files (tests/test_docs_examples.py)
        block: list[Line] = []
        for raw in body.replace("\\\n", " ").splitlines():
            text = re.sub(r"(^|\s)#.*$", "", raw).strip()  # comments: `make x   # = ...`
            if text and raw[:1].isspace() and block:  # an indented line goes on (a synopsis)
                block[-1] = Line(where, f"{block[-1].text} {text}")
            elif text:
                block.append(Line(where, text))
        lines += block
    return lines


LINES = _lines()


def test_the_blocks_are_found() -> None:
    programs = {shlex.split(line.text)[0] for line in LINES}
    assert {"cpsolver", "make", "pip", "python", "grpcurl", "docker", "kubectl"} <= programs
    assert any(options == "diagram" for _, options, _ in BLOCKS)


def _command(words: list[str]) -> click.Command:
    """The click command a ``cpsolver`` line runs (``cpsolver chlust odds ...``)."""
    command: click.Command = cli
    for word in words[1:]:
        if not isinstance(command, click.Group) or word.startswith("-"):
            break
        with click.Context(command) as ctx:
            sub = command.get_command(ctx, word)
        if sub is None:
            break
        command = sub
    return command


def _check_cpsolver(text: str) -> None:
    words = shlex.split(text.split("|")[0].split(">")[0])
    command = _command(words)
    known = {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}
    known |= {"--help", "-h"}
    named = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", text.split("|")[0]))
    assert named, f"a cpsolver line names options: {text!r}"
    assert named <= known, (text, sorted(named - known))


def _targets() -> set[str]:
    makefile = (ROOT / "Makefile").read_text()
    return set(re.findall(r"^([a-z][\w-]*):", makefile, re.M))


def _extras() -> set[str]:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return set(pyproject["project"]["optional-dependencies"])


@pytest.mark.parametrize("line", LINES, ids=lambda line: f"{line.where}:{line.text[:40]}")
def test_command_line_is_one_that_works_here(line: Line) -> None:
    words = shlex.split(line.text)
    program = words[0]
    if program == "cpsolver":
        _check_cpsolver(line.text)
    elif program == "make":
        assert set(words[1:]) <= _targets(), line.text
    elif program == "pip":
        assert words[1] == "install", line.text
        extras = [e for w in words[2:] for e in re.findall(r"\[([\w,]+)\]", w)]
        for group in extras:
            assert set(group.split(",")) <= _extras(), line.text
        assert any(w == "cpsolver" or w.startswith(("cpsolver[", ".[")) for w in words[2:])
    elif program == "python":
        assert words[1] == "-m", line.text
        shown = subprocess.run(
            [sys.executable, "-m", words[2], "--help"], capture_output=True, text=True, timeout=120
        )
        assert shown.returncode == 0, shown.stderr
        for option in re.findall(r"--[a-z][a-z0-9-]*", line.text):
            assert option in shown.stdout, (line.text, option)
    elif program == "grpcurl":
        # tests/test_docs_grpcurl.py runs every grpcurl line of API.md's sh blocks.
        assert line.where.startswith("docs/API.md:"), line
    elif program == "curl":
        # tests/test_edge.py runs every curl line of DEPLOY.md's sh blocks against Envoy.
        assert line.where.startswith("docs/DEPLOY.md:"), line
    elif program in NOT_RUNNABLE:
        for path in re.findall(r"(?:-f|--file)\s+(\S+)", line.text):
            assert (ROOT / path).exists(), (line.text, path)
    else:
        raise AssertionError(f"{line.where}: a command this test does not know: {line.text!r}")


def test_the_dry_run_plan_prints_train_commands_that_exist() -> None:
    """EV.md: ``python -m cpsolver.chinese.make_tables --dry-run`` prints the 18 cpsolver train
    commands (the 17 shipped keys, the first twice: cold, then restarted from its own file);
    each is checked against ``cpsolver train``'s options."""
    assert any("make_tables --dry-run" in line.text for line in LINES)
    done = subprocess.run(
        [sys.executable, "-m", "cpsolver.chinese.make_tables", "--dry-run"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    commands = [line for line in done.stdout.splitlines() if line.strip()]
    assert len(commands) == 18 and all(c.startswith("cpsolver train ") for c in commands)
    for command in commands:
        _check_cpsolver(command)


def test_diagram_folders_exist() -> None:
    for where, options, body in BLOCKS:
        if options != "diagram":
            continue
        folders = re.findall(r"^([\w/]+/)\S*\s", body, re.M)
        assert folders, where
        for folder in folders:
            assert (ROOT / folder).is_dir(), (where, folder)
