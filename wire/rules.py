"""Rule sets of every game <-> their rules messages (``ChineseRules``, ``ChlustRules``,
``ThreeLeavesRules``).

A game's rules message has a ``preset`` string and one field per library option with the
option's name; an enum field's unset (``*_UNSPECIFIED``) value and an unset ``optional`` scalar
keep the preset's value. The functions here therefore work for any game whose message follows
that pattern; the values themselves are checked by the library's rule set.
"""

from __future__ import annotations

from typing import Any, TypeVar

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from cpsolver.errors import FieldViolation, InvalidInputError
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
    overrides: dict[str, Any] = {}
    problems: list[FieldViolation] = []
    for desc in message.DESCRIPTOR.fields:
        if desc.name == "preset":
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
    if problems:
        raise InvalidInputError(violations=problems)
    preset = getattr(message, "preset", "") or "standard"
    return kind.preset(preset, **overrides)


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
        if desc.enum_type is not None:
            name = f"{_enum_prefix(desc.enum_type.name)}_{str(value).upper()}"
            setattr(message, desc.name, desc.enum_type.values_by_name[name].number)
        else:
            setattr(message, desc.name, value)
    return message
