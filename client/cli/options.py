"""The options several commands share, defined once: ``--rules PRESET`` and ``--set
OPTION=VALUE`` (their help lists the game's presets and option names; shell completion offers
the presets, the option names and each option's values), ``--json``, the trump suit's
completion and the objectives' completion.

Which game a completion serves is read from the command line being completed (``chlust ...``
and ``leaves ...`` have their own rules; every other command plays Chinese poker); the help is
written for the game the command is declared with.
"""

from __future__ import annotations

import dataclasses
import enum
import typing
from collections.abc import Callable
from typing import Any, TypeVar

import click

from cpsolver.rules import ChineseRules, ChlustRules, OfcRules, ThreeLeavesRules
from cpsolver.rules.base import RuleSet
from cpsolver.seeds import MAX_SEED

F = TypeVar("F", bound=Callable[..., Any])

__all__ = [
    "SEED",
    "SUIT_LETTERS",
    "complete_assignments",
    "complete_objectives",
    "complete_presets",
    "complete_suits",
    "option_values",
    "rules_options",
]


SEED = click.IntRange(0, MAX_SEED)
"""The type of every ``--seed``: the library's one seed range (:mod:`cpsolver.seeds`), so a
seed out of it is a usage error naming the option, never a traceback from the random number
generator that would have received it."""


def _game_rules(ctx: click.Context) -> type[RuleSet]:
    """The rule set class of the command being run or completed."""
    names = set()
    node: click.Context | None = ctx
    while node is not None:
        names.add(node.info_name or "")
        node = node.parent
    if "chlust" in names:
        return ChlustRules
    if "leaves" in names:
        return ThreeLeavesRules
    if "ofc" in names:
        return OfcRules
    return ChineseRules


def option_values(rules: type[RuleSet], name: str) -> tuple[str, ...]:
    """The values ``--set NAME=...`` accepts, as typed (an integer range as its numbers).

    >>> option_values(ChineseRules, "order")
    ('weak', 'strict')
    >>> option_values(ThreeLeavesRules, "players"), option_values(ChineseRules, "naturals")
    (('2', '3', '4'), ('on', 'off'))
    """
    field = {f.name: f for f in dataclasses.fields(rules)}[name]  # type: ignore[arg-type]
    kind = typing.get_type_hints(rules)[name]
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return tuple(str(c.value) for c in kind)
    if kind is bool:
        return ("on", "off")
    choices = field.metadata.get("choices", ())
    if choices:
        return tuple(str(c) for c in choices)
    low, high = field.metadata.get("range", (0, -1))
    return tuple(str(n) for n in range(low, high + 1)) if high - low < 20 else ()


def complete_presets(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of ``--rules``: the presets of the command's game."""
    return [name for name in _game_rules(ctx).PRESETS if name.startswith(incomplete)]


def complete_assignments(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of ``--set``: whole ``OPTION=VALUE`` words for the game's options
    whose name starts with what is typed, and once the ``=`` is typed the option's values
    (bash splits a word at ``=`` before asking, so it gets whole words from the name on)."""
    rules = _game_rules(ctx)
    name, eq, value = incomplete.partition("=")
    if not eq:
        return [
            f"{n}={v}" if v else f"{n}="
            for n in rules.option_names()
            if n.startswith(name)
            for v in option_values(rules, n) or ("",)
        ]
    if name not in rules.option_names():
        return []
    return [f"{name}={v}" for v in option_values(rules, name) if v.startswith(value)]


def complete_objectives(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of ``--objective``: the registered objectives."""
    from cpsolver.chinese.objectives import objective_names

    return [name for name in objective_names() if name.startswith(incomplete)]


SUIT_LETTERS = ("c", "d", "h", "s")


def complete_suits(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of a trump suit (``-t`` / ``--trump``): the suit letters (symbols and
    names are accepted too, but are awkward to type)."""
    return [s for s in SUIT_LETTERS if s.startswith(incomplete.lower())]


def rules_options(
    set_help: str, *, with_json: bool = True, rules: type[RuleSet] = ChineseRules
) -> Callable[[F], F]:
    """Add ``--rules PRESET``, ``--set OPTION=VALUE`` (repeatable, help ``set_help`` followed
    by the option names of ``rules``) and, unless ``with_json`` is false, ``--json``, in that
    order: the options every game command shares."""
    presets = ", ".join(rules.PRESETS)
    names = ", ".join(rules.option_names())

    def decorate(command: F) -> F:
        if with_json:
            command = click.option(
                "--json", "as_json", is_flag=True, help="Print one JSON object."
            )(command)
        command = click.option(
            "--set",
            "assignments",
            multiple=True,
            metavar="OPTION=VALUE",
            help=f"{set_help} OPTION is one of: {names} (a wrong value lists the valid ones; "
            "shell completion offers them).",
            shell_complete=complete_assignments,
        )(command)
        files = rules is ChineseRules  # RULES §2.5: a rule file names a whole rule set
        return click.option(
            "--rules", "preset", default=rules.DEFAULT_PRESET, show_default=True,
            metavar="PRESET|FILE" if files else "PRESET",
            help=f"Rule preset: {presets}"
            + ("; or a rule file (TOML, docs/RULE-FILES.md)" if files else "")
            + "; --set changes single options of it.",
            shell_complete=complete_presets,
        )(command)  # fmt: skip

    return decorate
