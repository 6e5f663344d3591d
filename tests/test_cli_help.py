"""``--help`` of every command (issue 27, defect 17), walked through the whole click tree, the
server's ``serve`` included: every option says what it is for, every command's summary in its
group's list is its whole first sentence (click cut ``deal  Deal seeded random hands, e.g.`` at
the abbreviation and long ones at the line's end), no reStructuredText markup is printed
literally, ``--rules`` names the game's presets and ``--set`` its options, and the shell
completion offers both (through the installed command, as bash asks it)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from helpers import run_cli

from cpsolver.client.cli import main
from cpsolver.rules import ChineseRules, ChlustRules, ThreeLeavesRules

CPSOLVER = Path(sys.executable).with_name("cpsolver")
# RST a reader would see as-is: inline literals, roles, interpreted text, literal blocks.
RST = re.compile(r"``|:[a-z]+:`|`|::\s*$", re.M)
ABBREVIATION = re.compile(r"\b(e\.g|i\.e|etc|cf|vs)\.$")


def commands(command: click.Command = main, path: tuple[str, ...] = ()) -> Iterator[
    tuple[tuple[str, ...], click.Command]
]:
    """Every command of the tree with its path below ``cpsolver``, groups included."""
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from commands(sub, (*path, name))


TREE = list(commands())


def help_text(path: tuple[str, ...]) -> str:
    """``cpsolver PATH --help`` on an 80-column terminal, as printed."""
    code, out, err = run_cli([*path, "--help"], env={"COLUMNS": "80"})
    assert code == 0, err
    return out


def option_help(text: str, option: str) -> str:
    """The help of ``option`` in a --help text: its line and the indented lines after it."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"  {option} "))
    end = next(
        (i for i in range(start + 1, len(lines)) if re.match(r"  -", lines[i])), len(lines)
    )
    return " ".join(" ".join(lines[start:end]).split())


def first_sentence(command: click.Command) -> str:
    """The summary click derives from the help: the first sentence of the first paragraph."""
    return command.get_short_help_str(limit=sys.maxsize)


def test_the_tree_is_walked() -> None:
    paths = {" ".join(p) for p, _ in TREE}
    assert {"solve", "serve", "validate", "chlust odds", "leaves deal", "leaves advise"} <= paths


@pytest.mark.parametrize(("path", "command"), TREE, ids=[" ".join(p) or "-" for p, _ in TREE])
def test_every_option_has_help_and_no_help_prints_rst(
    path: tuple[str, ...], command: click.Command
) -> None:
    bare = [
        "/".join(p.opts)
        for p in command.params
        if isinstance(p, click.Option) and not p.hidden and not (p.help or "").strip()
    ]
    assert not bare, f"cpsolver {' '.join(path)}: options without help: {bare}"
    text = help_text(path)
    found = RST.findall(text)
    assert not found, f"cpsolver {' '.join(path)} --help prints markup {found}:\n{text}"


GROUPS = [(p, c) for p, c in TREE if isinstance(c, click.Group)]


@pytest.mark.parametrize(("path", "group"), GROUPS, ids=[" ".join(p) or "-" for p, _ in GROUPS])
def test_every_summary_in_a_command_list_is_a_whole_sentence(
    path: tuple[str, ...], group: click.Group
) -> None:
    listed = " ".join(help_text(path).split("\nCommands:\n", 1)[1].split())
    for name, command in sorted(group.commands.items()):
        summary = first_sentence(command)
        where = f"cpsolver {' '.join((*path, name))}"
        assert summary, f"{where}: no help"
        assert not ABBREVIATION.search(summary), f"{where}: summary cut at {summary!r}"
        assert summary.endswith("."), f"{where}: summary {summary!r} is not a sentence"
        assert f"{name} {summary}" in listed, f"{where}: the list shows less than {summary!r}"


@pytest.mark.parametrize(
    ("path", "rules"),
    [
        (("solve",), ChineseRules),
        (("score",), ChineseRules),
        (("chlust", "odds"), ChlustRules),
        (("leaves", "advise"), ThreeLeavesRules),
    ],
)
def test_rules_and_set_name_the_games_presets_and_options(
    path: tuple[str, ...], rules: type[ChineseRules | ChlustRules | ThreeLeavesRules]
) -> None:
    text = help_text(path)
    rules_help, set_help = option_help(text, "--rules"), option_help(text, "--set")
    for preset in rules.PRESETS:
        assert preset in rules_help, (path, preset)
    for option in rules.option_names():
        assert option in set_help, (path, option)


def complete(*words: str) -> list[str]:
    """What bash completion offers for the last of ``words`` (the installed command, asked the
    way the script from ``cpsolver completion bash`` asks it)."""
    env = {
        **{k: v for k, v in os.environ.items() if k != "CPSOLVER_SERVER"},
        "_CPSOLVER_COMPLETE": "bash_complete",
        "COMP_WORDS": " ".join(("cpsolver", *words)),
        "COMP_CWORD": str(len(words)),
    }
    done = subprocess.run(
        [str(CPSOLVER)], capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    # bash_complete prints "type,value" lines
    return [line.split(",", 1)[1] for line in done.stdout.splitlines() if "," in line]


def test_shell_completion_offers_presets_options_and_values() -> None:
    assert complete("leaves", "evaluate", "--rules", "") == list(ThreeLeavesRules.PRESETS)
    assert complete("solve", "--set", "royalty_") == ["royalty_mode=replace", "royalty_mode=add"]
    offered = complete("chlust", "odds", "--set", "")
    assert {word.split("=")[0] for word in offered} == set(ChlustRules.option_names())
    assert complete("leaves", "advise", "--set", "void=") == [
        "void=trump_or_discard",
        "void=must_trump",
        "void=discard_only",
    ]
    assert complete("solve", "--set", "naturals=o") == ["naturals=on", "naturals=off"]
    assert complete("leaves", "deal", "--set", "players=") == [
        "players=2",
        "players=3",
        "players=4",
    ]


def test_the_bash_script_completes_whole_assignments() -> None:
    """Through the script ``cpsolver completion bash`` prints, in bash: bash splits words at
    ``=`` before asking, so --set offers whole OPTION=VALUE words from the option's name."""
    script = (
        'source <(cpsolver completion bash); COMP_WORDS=(cpsolver leaves evaluate --set vo); '
        'COMP_CWORD=4; _cpsolver_completion cpsolver; printf "%s\\n" "${COMPREPLY[@]}"'
    )
    env = {
        **{k: v for k, v in os.environ.items() if k != "CPSOLVER_SERVER"},
        "PATH": f"{CPSOLVER.parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    done = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["void=trump_or_discard", "void=must_trump", "void=discard_only"]
