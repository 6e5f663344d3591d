"""Every example in README.md and docs/*.md runs, and prints what the page shows (issue 17,
"Documentation that runs"). The fence's info string says what a block is:

- ```` ```python ````: run. A block with ``>>>`` prompts is a doctest (exact output, as
  tests/test_doctests.py runs the modules' docstrings); a block without is a script that must
  run to the end without an exception. Either runs against the installed ``cpsolver``.
- ```` ```console ````: a terminal session. Each ``$ cpsolver ...`` line (``\\`` continues it;
  pipes and redirections are bash's) is run in a scratch directory, one per page and shared by
  the page's commands in order, with the installed ``cpsolver`` first on PATH; the lines up to
  the next ``$`` are its whole output, stdout then stderr, compared line by line (trailing
  spaces aside). A ``.venv/bin/cpsolver`` prefix is accepted as ``cpsolver``.
- ```` ```json file=NAME ```` (or any kind with ``file=``): an input file, written as NAME in
  the page's scratch directory before its console commands run (so a page can show a file and
  the command that reads it).
- ```` ```json output=NAME schema=SCHEMA ````: what a console command of the page writes to
  NAME (``... --json > NAME``), shown laid out for reading: the command is run and the file it
  writes must hold the same JSON values (one or more, as JSON lines), each valid against
  docs/schemas/SCHEMA.schema.json. A ``json`` block is one of these two: a shape sketch with
  ``...`` cannot drift unnoticed.
- ```` ```toml file=NAME ````: a rule file (docs/RULE-FILES.md), written like any ``file=``
  block; a page's console commands check it (``cpsolver rules check NAME``).
- ```` ```sh ````, ```` ```text ````: checked, not run as written (tests/test_docs_commands.py):
  a ``cpsolver`` synopsis's options must be the command's, ``make`` targets the Makefile's,
  ``pip install`` extras pyproject's, ``grpcurl`` lines are run by tests/test_docs_grpcurl.py;
  commands that need docker, kubectl or a Ray cluster are listed there as not runnable here.

A fence without an info string fails the test below: every block says which kind it is.
docs/DEPLOY.md's console block (``cpsolver serve`` with a bad variable: exit 2, usage on stderr)
is owned by tests/test_deploy.py, which runs it with the server's environment; it is skipped
here so exactly one test owns it.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
KINDS = {"python", "console", "sh", "json", "text", "toml"}
OWNED_ELSEWHERE = {("docs/DEPLOY.md", "console")}  # tests/test_deploy.py
BIN = Path(sys.executable).parent  # the venv's bin: the installed `cpsolver` entry point
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```[ \t]*$", re.S | re.M)


@dataclass(frozen=True)
class Block:
    page: str  # relative to the repository
    line: int  # of the opening fence
    kind: str
    options: dict[str, str]
    body: str


def _blocks() -> list[Block]:
    found = []
    for path in PAGES:
        text = path.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            info = match.group(1).split()
            kind = info[0] if info else ""
            options = dict(item.partition("=")[::2] for item in info[1:])
            line = text.count("\n", 0, match.start()) + 1
            found.append(Block(str(path.relative_to(ROOT)), line, kind, options, match.group(2)))
    return found


BLOCKS = _blocks()


def _id(block: Block) -> str:
    return f"{block.page}:{block.line}"


def test_every_block_says_what_it_is() -> None:
    unmarked = [_id(b) for b in BLOCKS if b.kind not in KINDS]
    assert unmarked == [], f"fences without a known info string ({sorted(KINDS)})"
    sketches = [
        _id(b) for b in BLOCKS if b.kind == "json" and not {"file", "output"} & set(b.options)
    ]
    assert sketches == [], "a json block is an input file= or a command's output= (schema=)"
    loose = [_id(b) for b in BLOCKS if b.kind == "toml" and "file" not in b.options]
    assert loose == [], "a toml block is a rule file= that the page's commands check"


def test_the_runner_finds_the_examples() -> None:
    """A parser that finds nothing would pass every case vacuously."""
    kinds = [b.kind for b in BLOCKS]
    assert kinds.count("console") >= 5 and kinds.count("python") >= 4
    pages = {b.page for b in BLOCKS if b.kind in ("console", "python")}
    assert {"README.md", "docs/API.md", "docs/EV.md", "docs/CHLUST.md"} <= pages
    assert "docs/THREE-LEAVES.md" in pages


# --- python -------------------------------------------------------------------------------


PYTHON = [b for b in BLOCKS if b.kind == "python"]


@pytest.mark.parametrize("block", PYTHON, ids=_id)
def test_python_block_runs(block: Block) -> None:
    name = _id(block)
    if ">>>" in block.body:
        test = doctest.DocTestParser().get_doctest(block.body, {}, name, block.page, block.line)
        assert test.examples
        runner = doctest.DocTestRunner(optionflags=0)
        runner.run(test)
        failed, attempted = runner.summarize(verbose=False)
        assert failed == 0, f"{failed} of {attempted} examples of {name} failed (output above)"
    else:
        code = compile(block.body, name, "exec")
        exec(code, {"__name__": "__docs__"})  # the page's own example, as a reader runs it


# --- console ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    block: Block
    command: str
    expected: str


def _commands() -> list[Command]:
    commands = []
    for block in BLOCKS:
        if block.kind != "console" or (block.page, block.kind) in OWNED_ELSEWHERE:
            continue
        lines = block.body.splitlines()
        i = 0
        while i < len(lines):
            assert lines[i].startswith("$ "), f"{_id(block)}: output before a command"
            command = lines[i][2:]
            while command.endswith("\\"):
                i += 1
                command = command + "\n" + lines[i]  # bash reads the backslash-newline
            i += 1
            output = []
            while i < len(lines) and not lines[i].startswith("$ "):
                output.append(lines[i])
                i += 1
            commands.append(Command(block, command, "\n".join(output)))
    return commands


COMMANDS = _commands()
SCRATCH: dict[str, Path] = {}  # page -> its scratch directory, shared by its commands in order


def _scratch(page: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    if page not in SCRATCH:
        directory = tmp_path_factory.mktemp(Path(page).stem)
        for block in BLOCKS:
            if block.page == page and "file" in block.options:
                (directory / block.options["file"]).write_text(block.body, encoding="utf-8")
        SCRATCH[page] = directory
    return SCRATCH[page]


def _env() -> dict[str, str]:
    """The environment the pages' commands run in: the installed cpsolver, in-process."""
    env = {k: v for k, v in os.environ.items() if k not in ("CPSOLVER_SERVER", "NO_COLOR")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["COLUMNS"] = "80"  # rich wraps tables to the terminal width: the pages show 80
    return env


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def test_the_readme_quickstart_shows_deal_solve_evaluate() -> None:
    """Issue 5: the README's quickstart shows three commands with their real output."""
    readme = [c.command.split()[1] for c in COMMANDS if c.block.page == "README.md"]
    assert readme[:3] == ["deal", "solve", "evaluate"]


@pytest.mark.parametrize(
    "example", COMMANDS, ids=lambda c: f"{_id(c.block)}:{c.command.split(chr(10))[0][:40]}"
)
def test_console_command_prints_what_the_page_shows(
    example: Command, tmp_path_factory: pytest.TempPathFactory
) -> None:
    command = re.sub(r"(^|\| *)\.venv/bin/cpsolver\b", r"\1cpsolver", example.command)
    words = shlex.split(command.split("|")[0].split(">")[0])
    program = next(w for w in words if "=" not in w)  # VAR=value prefixes aside
    assert program == "cpsolver", f"{command!r}: only cpsolver commands are run"
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        cwd=_scratch(example.block.page, tmp_path_factory),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert _lines(done.stdout + done.stderr) == _lines(example.expected), f"exit {done.returncode}"


# --- json output ------------------------------------------------------------------------------


OUTPUTS = [b for b in BLOCKS if b.kind == "json" and "output" in b.options]
SCHEMAS = ROOT / "docs" / "schemas"


def _json_values(text: str) -> list[object]:
    """The JSON values of a text, one after another (a document, or JSON lines)."""
    decoder = json.JSONDecoder()
    values, i = [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return values
        value, i = decoder.raw_decode(text, i)
        values.append(value)


def _validator(name: str) -> Any:
    """docs/schemas/NAME.schema.json, its $refs resolved across the folder."""
    from referencing import Registry, Resource

    schemas = {p.name: json.loads(p.read_text()) for p in SCHEMAS.glob("*.schema.json")}
    registry: Registry[Any] = Registry().with_resources(
        [(s["$id"], Resource.from_contents(s)) for s in schemas.values()]
    )
    schema = schemas[f"{name}.schema.json"]
    return jsonschema.validators.validator_for(schema)(schema, registry=registry)


def test_the_json_outputs_are_found() -> None:
    assert len(OUTPUTS) >= 7 and all("schema" in b.options for b in OUTPUTS)


@pytest.mark.parametrize("block", OUTPUTS, ids=_id)
def test_json_block_is_its_commands_real_output_and_valid(block: Block, tmp_path: Path) -> None:
    name = block.options["output"]
    writers = [
        c for c in COMMANDS
        if c.block.page == block.page and re.search(rf">\s*{re.escape(name)}\s*$", c.command)
    ]  # fmt: skip
    assert len(writers) == 1, f"one console command of {block.page} writes {name}"
    for other in BLOCKS:
        if other.page == block.page and "file" in other.options:
            (tmp_path / other.options["file"]).write_text(other.body, encoding="utf-8")
    subprocess.run(
        ["bash", "-c", writers[0].command],
        cwd=tmp_path,
        env=_env(),
        timeout=300,
        capture_output=True,
        check=False,
    )
    written = _json_values((tmp_path / name).read_text(encoding="utf-8"))
    shown = _json_values(block.body)
    assert written == shown
    validator = _validator(block.options["schema"])
    for value in shown:
        validator.validate(value)
