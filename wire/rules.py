"""Rule sets of every game <-> their rules messages (``ChineseRules``, ``ChlustRules``,
``ThreeLeavesRules``).

A game's rules message has a ``preset`` string and one field per library option with the
option's name; an enum field's unset (``*_UNSPECIFIED``) value and an unset ``optional`` scalar
keep the preset's value. The functions here therefore work for any game whose message follows
that pattern; the values themselves are checked by the library's rule set.

An option written as data (Chinese poker's ``scoop_bonus:N``, ``fixed:N``, row-bonus table and
list of naturals, RULES §2.5) has its data in fields named as the rule set's data fields
(``scoop_bonus``, ``foul_units``, ``royalty_table``, ``natural_table``); a ``rules_toml`` field
holds a whole rule file instead (:mod:`cpsolver.rules.files`).
"""

from __future__ import annotations

from typing import Any, TypeVar

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from cpsolver.errors import FieldViolation, InvalidInputError, field_path
from cpsolver.rules.base import RuleSet

__all__ = ["enum_value_name", "rules_from_wire", "rules_to_wire"]

R = TypeVar("R", bound=RuleSet)
M = TypeVar("M", bound=Message)


def _enum_prefix(name: str) -> str:
    """``Order`` -> ``ORDER``, ``RoyaltyMode`` -> ``ROYALTY_MODE`` (buf's ENUM_VALUE_PREFIX)."""
    return "".join(f"_{c}" if c.isupper() else c.upper() for c in name).lstrip("_")


def enum_value_name(message: Message, field: FieldDescriptor, value: int) -> str | None:
    """``ORDER_SECOND_HIGHEST`` -> ``"second_highest"``; None when unset (zero).

    The prefix is the enum's name in UPPER_SNAKE_CASE (buf's ENUM_VALUE_PREFIX rule). An
    unknown number (a newer client) is an input error naming the field.
    """
    if value == 0:
        return None
    enum_type = field.enum_type
    entry = enum_type.values_by_number.get(value)
    if entry is None:
        raise InvalidInputError(field.name, f"unknown value {value}")
    name: str = entry.name
    return name.removeprefix(_enum_prefix(enum_type.name) + "_").lower()


def rules_from_wire(message: Message, kind: type[R], field: str = "rules") -> R:
    """A library rule set from a rules message (preset + the options that are set).

    >>> from cpsolver.rules import ChineseRules
    >>> from cpsolver.v1 import chinese_poker_pb2
    >>> wire = chinese_poker_pb2.ChineseRules(
    ...     preset="two_four", order=chinese_poker_pb2.ChineseRules.ORDER_STRICT)
    >>> rules = rules_from_wire(wire, ChineseRules)
    >>> rules.players, rules.order.value, rules.scoring.value
    (2, 'strict', 'two_four')
    """
    names = {desc.name for desc in message.DESCRIPTOR.fields}
    if "rules_toml" in names and message.rules_toml:
        return _from_toml(message, kind, field)
    overrides: dict[str, Any] = {}
    problems: list[FieldViolation] = []
    for desc in message.DESCRIPTOR.fields:
        if desc.name == "preset" or desc.name in kind.DATA_FIELDS or desc.name == "rules_toml":
            continue
        value = getattr(message, desc.name)
        if desc.enum_type is not None:
            try:
                name = enum_value_name(message, desc, value)
            except InvalidInputError as exc:
                problems.extend(exc.prefixed(field).violations)
                continue
            if name is not None:
                overrides[desc.name] = name
        elif desc.has_presence:
            if message.HasField(desc.name):
                overrides[desc.name] = value
        elif value:
            overrides[desc.name] = value
    problems.extend(_data_from_wire(message, names, overrides, field_path(field)))
    preset = getattr(message, "preset", "") or kind.DEFAULT_PRESET
    try:
        rules = kind.preset(preset, **overrides)
    except InvalidInputError as exc:
        # The library names its own forms (``rules.royalties[0].hand``, ``rules.naturals[1]``,
        # ``rules.scoring`` for ``scoop_bonus:N``): name the message's fields instead.
        moved = exc.with_paths(lambda path: _wire_path(path, message, names, field))
        if not problems:
            raise moved from None
        # What the wire found unreadable was left out of the rule set or read as missing (an
        # unknown row number): the library's word on the same field is the wire's already.
        reported = {v.path for v in problems}
        problems.extend(v for v in moved.violations if v.path not in reported)
    if problems:
        # Every problem at once: the wire's (enum numbers it does not define) with the
        # library's (values), so one round trip shows them all.
        raise InvalidInputError(violations=problems)
    return rules


def _wire_path(
    path: tuple[str | int, ...], message: Message, names: set[str], field: str
) -> tuple[str | int, ...]:
    """The field path in the rules message of a library violation's ``path``.

    >>> from cpsolver.v1 import chinese_poker_pb2 as pb
    >>> wire = pb.ChineseRules(royalty_table=[pb.ChineseRules.RowBonus(row=1, hand="pair")],
    ...                        scoop_bonus=3)
    >>> names = {d.name for d in wire.DESCRIPTOR.fields}
    >>> _wire_path(("rules", "royalties", 0, "hand"), wire, names, "rules")
    ('rules', 'royalty_table', 0, 'hand')
    >>> _wire_path(("rules", "scoring"), wire, names, "rules")
    ('rules', 'scoop_bonus')
    >>> _wire_path(("rules", "naturals", 1, "units"), wire, names, "rules")
    ('rules', 'natural_table', 1, 'units')
    """
    if not path or path[0] != "rules":
        return path
    rest = path[1:]
    # The table's entries go to the library as (row, hand, units) entries in the message's
    # order (_data_from_wire), so the library's index is the message's.
    for table, option in (("royalty_table", "royalties"), ("natural_table", "naturals")):
        if table in names and len(rest) >= 2 and rest[0] == option and isinstance(rest[1], int):
            return (field, table, *rest[1:])
    if rest == ("scoring",) and "scoop_bonus" in names and message.HasField("scoop_bonus"):
        return (field, "scoop_bonus")
    if rest == ("foul",) and "foul_units" in names and message.HasField("foul_units"):
        return (field, "foul_units")
    return (field, *rest)


def _from_toml(message: Message, kind: type[R], field: str) -> R:
    from cpsolver.rules.files import read_rules_text

    others = [
        d.name
        for d in message.DESCRIPTOR.fields
        if d.name != "rules_toml"
        and (message.HasField(d.name) if d.has_presence else bool(getattr(message, d.name)))
    ]
    if others:
        raise InvalidInputError(
            f"{field}.{others[0]}", "give the rule set as rules_toml or as fields, not both"
        )
    head = field_path(field)
    try:
        rules = read_rules_text(message.rules_toml, field)
    except InvalidInputError as exc:
        # The library names a text that is no rule file at all (not TOML, nested too deeply)
        # by the rule set's field; here that text is the message's rules_toml.
        raise exc.with_paths(lambda path: (*head, "rules_toml") if path == head else path) from None
    if not isinstance(rules, kind):
        raise InvalidInputError(f"{field}.rules_toml", "a rule file of another game")
    return rules


def _data_from_wire(
    message: Message, names: set[str], overrides: dict[str, Any], field: tuple[str | int, ...]
) -> list[FieldViolation]:
    """The data of Chinese poker's options written as data (module doc), into ``overrides``
    in the forms the rule set reads (which then checks the values); the problems only the wire
    can have (an enum number it does not define), each on its own field."""
    if overrides.get("scoring") == "scoop_bonus" or (
        "scoop_bonus" in names and message.HasField("scoop_bonus")
    ):
        overrides["scoring"] = f"scoop_bonus:{message.scoop_bonus}"
    if overrides.get("foul") == "fixed" or (
        "foul_units" in names and message.HasField("foul_units")
    ):
        overrides["foul"] = f"fixed:{message.foul_units}"
    problems: list[FieldViolation] = []
    if "royalty_table" in names and (
        len(message.royalty_table) or overrides.get("royalties") == "custom"
    ):
        # Entries, not a {row: {hand: units}} table: the library checks each entry's row, hand
        # and units on its own and names them by index, the message's own (an entry without
        # a row was read as a row named 'unspecified'; a bad hand hid its units' problem).
        entries = []
        for i, entry in enumerate(message.royalty_table):
            path = (*field, "royalty_table", i, "row")
            row = None
            if entry.row:  # ROW_UNSPECIFIED: the library says the row is missing
                row = _enum_name(entry, "row", "ROW_", path, problems)
            entries.append((row, entry.hand, entry.units))
        overrides["royalties"] = tuple(entries)
    if "natural_table" in names and len(message.natural_table):
        naturals = []
        for i, entry in enumerate(message.natural_table):
            path = (*field, "natural_table", i, "natural")
            name = None  # NATURAL_KIND_UNSPECIFIED: the library says the natural is missing
            if entry.natural:
                name = _enum_name(entry, "natural", "NATURAL_KIND_", path, problems)
            naturals.append({"natural": name, "units": entry.units})
        overrides["naturals"] = naturals
    return problems


def _enum_name(
    entry: Message, field: str, prefix: str, path: tuple[str | int, ...],
    problems: list[FieldViolation],
) -> str | None:  # fmt: skip
    number = getattr(entry, field)
    value = entry.DESCRIPTOR.fields_by_name[field].enum_type.values_by_number.get(number)
    if value is None:
        problems.append(FieldViolation(path, f"unknown value {number}"))
        return None
    return str(value.name).removeprefix(prefix).lower()


def rules_to_wire(rules: RuleSet, message_type: type[M]) -> M:
    """The rules message of a library rule set, every option spelled out (no preset needed).

    >>> from cpsolver.rules import ChineseRules
    >>> from cpsolver.v1 import chinese_poker_pb2
    >>> wire = rules_to_wire(ChineseRules.preset("two_four"), chinese_poker_pb2.ChineseRules)
    >>> rules_from_wire(wire, ChineseRules) == ChineseRules.preset("two_four")
    True
    """
    message: M = message_type()
    values = rules.to_dict()
    for desc in message.DESCRIPTOR.fields:
        if desc.name == "preset" or desc.name not in values:
            continue
        value = values[desc.name]
        if isinstance(value, str) and ":" in value:  # scoop_bonus:N, fixed:N
            value, units = value.split(":")
            data = "scoop_bonus" if desc.name == "scoring" else "foul_units"
            setattr(message, data, int(units))
        if isinstance(value, dict):  # a row-bonus table
            row_enum = message.DESCRIPTOR.fields_by_name["royalty_table"].message_type
            for row, hands in value.items():
                for hand, units in hands.items():
                    number = (
                        row_enum.fields_by_name["row"]
                        .enum_type.values_by_name[f"ROW_{row.upper()}"]
                        .number
                    )
                    message.royalty_table.add(row=number, hand=hand, units=units)
            value = "custom"
        if isinstance(value, list):  # a list of naturals
            kinds = message.DESCRIPTOR.fields_by_name["natural_table"].message_type
            for entry in value:
                number = (
                    kinds.fields_by_name["natural"]
                    .enum_type.values_by_name["NATURAL_KIND_" + entry["natural"].upper()]
                    .number
                )
                message.natural_table.add(natural=number, units=entry["units"])
            value = True
        if desc.enum_type is not None:
            name = f"{_enum_prefix(desc.enum_type.name)}_{str(value).upper()}"
            setattr(message, desc.name, desc.enum_type.values_by_name[name].number)
        else:
            setattr(message, desc.name, value)
    return message
