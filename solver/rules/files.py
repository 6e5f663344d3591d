"""Rule files: a Chinese poker rule set written in TOML (RULES §2.5, docs/RULE-FILES.md).

A rule file (read by :meth:`ChineseRules.from_toml`, the rule set's own) names a preset to
start from (``preset = "shisanshui"``; ``standard`` when absent)
and overrides options by their names, in the forms :meth:`ChineseRules.replace` reads:
``scoring = "scoop_bonus:2"``, ``foul = "fixed:6"``, a ``[royalties]`` table ``{row = {hand =
units}}`` (it replaces the whole table) or ``royalties = "eastern"``, ``[[naturals]]`` entries
``natural``/``units`` highest first or ``naturals = false``. It is read with the standard
library's :mod:`tomllib`; every problem is a :class:`~cpsolver.errors.RuleError` naming the
key (``rules.naturals[0].units``), the value and what is allowed. :func:`to_toml` writes a
rule set back, every option spelled out, as ``cpsolver rules show`` prints it.

>>> rules = read_rules_text('preset = "maubinh"\\nfoul = "fixed:4"\\n')
>>> rules.foul_units, rules.sweep.value
(4, 'double')
>>> read_rules_text(to_toml(rules)) == rules
True
>>> read_rules_text('players = 5')
Traceback (most recent call last):
...
cpsolver.errors.RuleError: rules.players: invalid value 5; valid values: 2 to 4
"""

from __future__ import annotations

import dataclasses
import json
import typing
from pathlib import Path

from cpsolver.rules.chinese import ChineseRules

__all__ = [
    "PRESET_KEY",
    "SCHEMA_FILE",
    "load_rules",
    "read_rule_file",
    "read_rules_text",
    "rule_file_schema",
    "to_toml",
]

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "data" / "chinese-rules.schema.json"
"""The rule files' JSON Schema as the package ships it (:func:`rule_file_schema`, written by
``python -m cpsolver.rules.files``)."""

PRESET_KEY = "preset"


def read_rules_text(text: str, field: str = "rules") -> ChineseRules:
    """The rule set a rule file's text describes (:meth:`ChineseRules.from_toml`)."""
    return ChineseRules.from_toml(text, field)


def read_rule_file(path: str | Path) -> ChineseRules:
    """The rule set of the rule file at ``path`` (:meth:`ChineseRules.from_file`)."""
    return ChineseRules.from_file(path)


def load_rules(name: str) -> ChineseRules:
    """A preset's name or a rule file's path (:meth:`ChineseRules.load`).

    >>> load_rules("shisanshui").sweep.value
    'double'
    """
    return ChineseRules.load(name)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(value)  # a TOML basic string is JSON's (the values are plain ASCII)


def to_toml(rules: ChineseRules) -> str:
    """The rule set as a rule file: every option, the royalties' table and the naturals'
    list spelled out (no preset needed to read it back).

    >>> print(to_toml(ChineseRules.preset("two_four")))  # doctest: +ELLIPSIS
    players = 2
    order = "weak"
    ...
    naturals = false
    ...
    """
    values = rules.to_dict(full=True)
    royalties = values.pop("royalties")
    naturals = values.pop("naturals")
    lines: list[str] = []
    for name, value in values.items():
        lines.append(f"{name} = {_value(value)}")
    if isinstance(royalties, str):
        lines.append(f"royalties = {_value(royalties)}")
    if not isinstance(naturals, list):
        lines.append(f"naturals = {_value(naturals)}")
    if isinstance(royalties, dict):
        lines += ["", "[royalties]"]
        for row, hands in royalties.items():
            cells = ", ".join(f"{hand} = {units}" for hand, units in hands.items())
            lines.append(f"{row} = {{ {cells} }}" if cells else f"{row} = {{}}")
    if isinstance(naturals, list):
        for entry in naturals:
            lines += ["", "[[naturals]]", f"natural = {_value(entry['natural'])}"]
            lines.append(f"units = {entry['units']}")
    return "\n".join(lines) + "\n"


def rule_file_schema() -> dict[str, object]:
    """The JSON Schema of a rule file (its TOML read as JSON), from the rule set's own
    declarations: every option and its values, the hands of each row, the 15 naturals. The
    library's reading is the authority (cross-field rules, the error messages); the schema
    serves editors and other tools.

    >>> schema = rule_file_schema()
    >>> sorted(schema["properties"])[:4]
    ['bonus_paid', 'declare', 'foul', 'natural_ties']
    >>> schema["properties"]["naturals"]["oneOf"][1]["items"]["properties"]["natural"]["enum"][0]
    'clean_dragon'
    """
    from cpsolver.rules.base import Choice
    from cpsolver.rules.chinese import (
        FRONT_HANDS,
        MAX_UNITS,
        BonusHand,
        NaturalName,
        Royalties,
        Scoring,
    )

    units = {"type": "integer", "minimum": 0, "maximum": MAX_UNITS}
    properties: dict[str, object] = {
        PRESET_KEY: {"enum": list(ChineseRules.PRESETS), "description": "The preset to start from."}
    }
    hints = typing.get_type_hints(ChineseRules)
    for field in dataclasses.fields(ChineseRules):
        name = field.name
        if name in ChineseRules.DATA_FIELDS:
            continue
        kind = hints[name]
        if name == "scoring":
            plain = [s.value for s in Scoring if s is not Scoring.SCOOP_BONUS]
            properties[name] = {
                "type": "string",
                "pattern": "^(" + "|".join(plain) + "|scoop_bonus:[0-9]+)$",
            }
        elif name == "foul":
            properties[name] = {"type": "string", "pattern": "^(scooped|fixed:[0-9]+)$"}
        elif name == "royalties":
            rows = {
                row: {
                    "type": "object",
                    "properties": {h.value: units for h in hands},
                    "additionalProperties": False,
                }
                for row, hands in (
                    ("front", FRONT_HANDS), ("middle", tuple(BonusHand)), ("back", tuple(BonusHand))
                )
            }  # fmt: skip
            properties[name] = {
                "oneOf": [
                    {"enum": [r.value for r in Royalties if r is not Royalties.CUSTOM]},
                    {"type": "object", "properties": rows, "additionalProperties": False},
                ]
            }
        elif name == "naturals":
            entry = {
                "type": "object",
                "required": ["natural", "units"],
                "properties": {"natural": {"enum": [n.value for n in NaturalName]}, "units": units},
                "additionalProperties": False,
            }
            properties[name] = {"oneOf": [{"type": "boolean"}, {"type": "array", "items": entry}]}
        elif isinstance(kind, type) and issubclass(kind, Choice):
            properties[name] = {"enum": [c.value for c in kind]}
        elif kind is bool:
            properties[name] = {"type": "boolean"}
        else:
            low, high = field.metadata["range"]
            properties[name] = {"type": "integer", "minimum": low, "maximum": high}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://cpsolver.dev/schemas/chinese-rules.schema.json",
        "title": "cpsolver Chinese poker rule file (RULES §2.5)",
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }


if __name__ == "__main__":  # python -m cpsolver.rules.files: rewrite the shipped schema
    SCHEMA_FILE.write_text(json.dumps(rule_file_schema(), indent=2) + "\n", encoding="utf-8")
