"""docs/API.md and README.md describe the command line and the wire that exist (issue 27, #20):

- the API.md command table lists exactly the commands of the real click tree (``chlust`` and
  ``leaves`` with every subcommand), and its "In-process or remote" paragraph sorts them as
  the commands do: no ``--server`` option is local only, a ``--server`` with a default server is
  remote only, one without is in-process or remote; README's Quickstart says the same;
- every message, enum, service or RPC name API.md writes in backticks exists in the protos
  (a name that is not in the protos must at least be a class of the library or a builtin).
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import click
import pytest
from google.protobuf import descriptor

ROOT = Path(__file__).resolve().parent.parent
API = (ROOT / "docs" / "API.md").read_text()
README = (ROOT / "README.md").read_text()


def _cli() -> click.Group:
    from cpsolver.client.cli import main

    return main


def _leaves(group: click.Group, prefix: str = "") -> dict[str, click.Command]:
    """Every runnable command by its full name (``chlust odds``), groups descended."""
    found: dict[str, click.Command] = {}
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found.update(_leaves(command, f"{prefix}{name} "))
        else:
            found[prefix + name] = command
    return found


def _kind(command: click.Command) -> str:
    server = next((p for p in command.params if p.name == "server"), None)
    if server is None:
        return "local"
    return "remote" if server.default else "both"


def _kinds() -> dict[str, str]:
    """Each runnable command's kind (``_kind``); a group whose commands all run locally only
    (``rules``: check, show and schema read and print local files) is named once, as the
    pages name it."""
    kinds = {name: _kind(command) for name, command in _leaves(_cli()).items()}
    for name, command in _cli().commands.items():
        if isinstance(command, click.Group):
            mine = {k: v for k, v in kinds.items() if k.startswith(name + " ")}
            if set(mine.values()) == {"local"}:
                kinds = {k: v for k, v in kinds.items() if k not in mine}
                kinds[name] = "local"
    return kinds


def _section(text: str, start: str, end: str) -> str:
    begin = text.index(start)
    return text[begin : text.index(end, begin)]


# -- the command table -----------------------------------------------------------------------


def _table_commands() -> dict[str, set[str]]:
    """The API.md command table: top-level name -> subcommands (``a|b|c``; empty for none)."""
    table = _section(API, "## Command line", "**In-process or remote.**")
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    commands: dict[str, set[str]] = {}
    for row in rows:
        synopsis = re.match(r"\| `([^`]+)`", row)
        assert synopsis is not None, row
        words = synopsis.group(1).replace("\\|", "|").split()
        name = words[0]
        subcommands: set[str] = set()
        if len(words) > 1 and re.fullmatch(r"[a-z]+(\|[a-z]+)+", words[1]):
            group = _cli().commands.get(name)
            if isinstance(group, click.Group):  # else `completion bash|zsh|fish`: a choice
                subcommands = set(words[1].split("|"))
        assert name not in commands, f"{name} has two rows"
        commands[name] = subcommands
    return commands


def test_the_command_table_lists_every_command_of_the_cli() -> None:
    tree = {
        name: set(command.commands) if isinstance(command, click.Group) else set()
        for name, command in _cli().commands.items()
    }
    assert _table_commands() == tree


# -- local, remote or both -------------------------------------------------------------------


def _names(text: str) -> set[str]:
    return set(re.findall(r"`([a-z]+)`", text))


def test_api_md_says_which_commands_run_locally_remotely_or_both() -> None:
    paragraph = _section(API, "**In-process or remote.**", "**Output.**")
    both_part, count, rest = re.split(r"(\w+) commands run\s+locally only", paragraph, maxsplit=1)
    local_part, remote_part = rest.split("remote only", 1)
    remote_part = remote_part.split("For the others", 1)[0]
    local = {name for name in _names(local_part) if name in _cli().commands}
    remote = {name for name in _names(remote_part) if name in _cli().commands}
    kinds = _kinds()
    assert local == {name for name, kind in kinds.items() if kind == "local"}
    assert remote == {name for name, kind in kinds.items() if kind == "remote"}
    # The in-process-or-remote list names the plain commands and each group's subcommands.
    listed = _names(both_part)
    for name, kind in kinds.items():
        if kind == "both":
            assert set(name.split()) <= listed, name
    assert count == ["One", "Two", "Three", "Four", "Five", "Six"][len(local) - 1]


def test_readme_says_which_commands_run_locally_remotely_or_both() -> None:
    flat = " ".join(README.split())  # the sentence as read, however its lines wrap
    sentence = _section(flat, "every command but ", "with the same output")
    local_part, rest = sentence.split("(local only)", 1)
    remote_part, both_part = rest.split("(a server's only)", 1)
    kinds = _kinds()
    assert _names(local_part) == {name for name, kind in kinds.items() if kind == "local"}
    assert _names(remote_part) == {name for name, kind in kinds.items() if kind == "remote"}
    plain = {name for name, kind in kinds.items() if kind == "both" and " " not in name}
    groups = {name.split()[0] for name, kind in kinds.items() if kind == "both" and " " in name}
    assert _names(both_part) == plain | groups


# -- wire names ------------------------------------------------------------------------------


def _proto_names() -> set[str]:
    """Short names of every message, enum, service and method the server speaks."""
    from grpc_health.v1 import health_pb2
    from grpc_reflection.v1alpha import reflection_pb2

    from cpsolver.v1 import (
        cards_pb2,
        chinese_poker_pb2,
        chlust_pb2,
        open_face_pb2,
        three_leaves_pb2,
    )

    names: set[str] = set()

    def message(d: descriptor.Descriptor) -> None:
        names.add(d.name)
        for nested in d.nested_types:
            message(nested)
        names.update(e.name for e in d.enum_types)

    for module in (cards_pb2, chinese_poker_pb2, chlust_pb2, three_leaves_pb2, open_face_pb2,
                   health_pb2, reflection_pb2):  # fmt: skip
        file = module.DESCRIPTOR
        for d in file.message_types_by_name.values():
            message(d)
        names.update(file.enum_types_by_name)
        for service in file.services_by_name.values():
            names.add(service.name)
            names.update(service.methods_by_name)
    return names


def _library_classes() -> set[str]:
    import cpsolver

    names = {name for name in dir(builtins) if isinstance(getattr(builtins, name), type)}
    import cpsolver.client
    import cpsolver.server
    import cpsolver.wire

    modules = [
        info.name
        for package in (cpsolver, cpsolver.client, cpsolver.server, cpsolver.wire)
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
    ]
    for name in modules:
        if name.startswith("cpsolver.v1") or name.endswith("__main__"):
            continue
        module = importlib.import_module(name)
        names.update(n for n, v in vars(module).items() if inspect.isclass(v))
    return names


# A backticked name: `Name`, `Name.field`, `Name.method(...)`, `Name {fields}`.
NAME = re.compile(r"([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(\.\w+)*(\(.*\))?( \{.*\})?")
CARD = re.compile(r"[2-9TJQKA][cdhs]")


def _api_names() -> list[str]:
    found = []
    for code in re.findall(r"`([^`\n]+)`", API):
        match = NAME.fullmatch(code)
        if match and not CARD.fullmatch(code):
            found.append(match.group(1))
    return sorted(set(found))


def _wire_names() -> list[str]:
    """The names API.md gives as the wire's own: the vocabulary table's wire column, the
    services table, and every ``*Request`` / ``*Response``."""
    table = _section(API, "<!-- vocabulary -->", "<!-- /vocabulary -->")
    wire = [line.rstrip(" |").rsplit("|", 1)[1] for line in table.splitlines()[3:]]
    services = _section(API, "### Services", "Cards are typed")
    names = [c for cell in wire for c in re.findall(r"`([A-Z]\w+)", cell)]
    names += re.findall(r"`(?:cpsolver\.v1\.)?([A-Z]\w+)`", services)
    names += [n for n in _api_names() if n.endswith(("Request", "Response"))]
    return sorted(set(names))


def test_the_wire_names_are_found() -> None:
    names = _wire_names()
    assert {"DealtTable", "SolveRequest", "ThreeLeavesService", "PlayLeavesDeal"} <= set(names)


@pytest.mark.parametrize("name", _wire_names())
def test_every_wire_name_api_md_gives_exists_in_the_protos(name: str) -> None:
    assert name in _proto_names(), f"docs/API.md names {name}, which no .proto defines"


def test_every_other_name_api_md_gives_exists() -> None:
    known = _proto_names() | _library_classes()
    missing = [name for name in _api_names() if name not in known]
    assert not missing, (
        f"docs/API.md names what neither the protos nor the library define: {missing}"
    )
