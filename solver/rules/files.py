"""Rule files: a Chinese poker rule set written in TOML (RULES §2.5, docs/RULE-FILES.md).

A rule file names a preset to start from (``preset = "shisanshui"``; ``standard`` when absent)
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

import json
import tomllib
from pathlib import Path

from cpsolver.errors import RuleError
from cpsolver.rules.chinese import ChineseRules

__all__ = ["PRESET_KEY", "load_rules", "read_rule_file", "read_rules_text", "to_toml"]

PRESET_KEY = "preset"


def read_rules_text(text: str, field: str = "rules") -> ChineseRules:
    """The rule set a rule file's text describes (module doc)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleError(field, f"not a TOML rule file: {exc}") from exc
    preset = data.pop(PRESET_KEY, "standard")
    if not isinstance(preset, str):
        raise RuleError(f"{field}.preset", f"invalid value {preset!r}; expected a preset's name")
    return ChineseRules.preset(preset, **data)


def read_rule_file(path: str | Path) -> ChineseRules:
    """The rule set of the rule file at ``path``; an unreadable file is a :class:`RuleError`
    naming it."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleError("rules", f"cannot read the rule file {str(path)!r}: {exc}") from exc
    return read_rules_text(text)


def load_rules(name: str) -> ChineseRules:
    """``--rules`` and ``solve(rules=...)``: a preset's name, or else the path of a rule file
    (a name with ``.toml``, ``/`` or an existing file).

    >>> load_rules("shisanshui").sweep.value
    'double'
    >>> load_rules("shisansui")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.RuleError: rules.preset: unknown preset 'shisansui'; valid presets: ...
    """
    if name in ChineseRules.PRESETS:
        return ChineseRules.preset(name)
    if name.endswith(".toml") or "/" in name or Path(name).is_file():
        return read_rule_file(name)
    valid = ", ".join(ChineseRules.PRESETS)
    raise RuleError(
        "rules.preset", f"unknown preset {name!r}; valid presets: {valid}, or a rule file's path"
    )


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
