"""docs/API.md's "One vocabulary" table names things that exist: every library name it gives
resolves, every RPC is a method of its service, and the argument order it shows is the
function's."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
import typing
from pathlib import Path

import pytest

from cpsolver.v1 import chinese_poker_pb2, chlust_pb2, three_leaves_pb2

ROOT = Path(__file__).resolve().parent.parent
TEXT = (ROOT / "docs" / "API.md").read_text()
TABLE = TEXT[TEXT.index("<!-- vocabulary -->") : TEXT.index("<!-- /vocabulary -->")]
CODE = re.findall(r"`([^`]+)`", TABLE)
LIBRARY = sorted({c for c in CODE if c.startswith("cpsolver.")})
RPCS = sorted({c for c in CODE if re.fullmatch(r"\w+Service\.\w+", c)})
SERVICES = {
    d.name: d
    for m in (chinese_poker_pb2, chlust_pb2, three_leaves_pb2)
    for d in m.DESCRIPTOR.services_by_name.values()
}


def _resolve(dotted: str) -> object:
    """What ``from a.b import c`` gives: attributes first, a submodule only when no attribute
    has the name (``cpsolver.chlust.deal`` is the function the package exports)."""
    parts = dotted.split("(")[0].split(".")
    target: object = importlib.import_module(parts[0])
    for i, name in enumerate(parts[1:], start=2):
        if hasattr(target, name):
            target = getattr(target, name)
        elif isinstance(target, type) and dataclasses.is_dataclass(target):
            # A field of a result (Deal.hands): a class without slots has no class attribute.
            fields = {f.name: f for f in dataclasses.fields(target)}
            assert name in fields, f"{target.__name__} has no field {name}"
            target = fields[name]
        else:
            target = importlib.import_module(".".join(parts[:i]))
    return target


def _signatures(target: object) -> list[list[str]]:
    overloads = typing.get_overloads(target)  # type: ignore[arg-type]
    return [list(inspect.signature(f).parameters) for f in (*overloads, target)]  # type: ignore[arg-type]


def test_the_table_lists_every_idea_in_every_game() -> None:
    ideas = [line.split("|")[1].strip() for line in TABLE.splitlines() if line.startswith("| ")]
    assert ideas[1:] == [
        "rule set",
        "seat",
        "per-seat values",
        "seed",
        "deal (seeded)",
        "a deal's facts",
        "evaluate",
        "legal plays",
        "check a play",
        "play a deal",
        "settle",
        "advise",
    ]
    assert len(LIBRARY) > 25 and len(RPCS) > 12


@pytest.mark.parametrize("dotted", LIBRARY)
def test_every_library_name_exists_with_the_arguments_shown(dotted: str) -> None:
    target = _resolve(dotted)
    if "(" not in dotted:
        return
    shown = [a.strip().split("=")[0] for a in dotted.split("(", 1)[1].rstrip(")").split(",")]
    names = [a for a in shown if a and a != "*"]
    forms = _signatures(target)
    assert any([p for p in params if p in names] == names for params in forms), (forms, names)


@pytest.mark.parametrize("rpc", RPCS)
def test_every_rpc_exists(rpc: str) -> None:
    service, method = rpc.split(".")
    assert method in SERVICES[service].methods_by_name


def test_per_seat_values_are_tuples_indexed_by_seat_in_every_game() -> None:
    """The "per-seat values" row: each result field it names is a tuple annotated per seat."""
    row = next(line for line in TABLE.splitlines() if line.startswith("| per-seat values"))
    fields = [c for c in re.findall(r"`([^`]+)`", row) if c.startswith("cpsolver.")]
    assert len(fields) >= 6
    for dotted in fields:
        owner = _resolve(dotted.rsplit(".", 1)[0])
        assert isinstance(owner, type)
        hints = typing.get_type_hints(owner)
        hint = hints[dotted.rsplit(".", 1)[1]]
        assert typing.get_origin(hint) is tuple, (dotted, hint)
        assert typing.get_args(hint)[-1] is Ellipsis, (dotted, hint)  # one item per seat
