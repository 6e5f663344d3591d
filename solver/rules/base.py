"""Machinery shared by every game's rule set: typed options, presets, overrides by name.

A rule set is a frozen dataclass whose fields are the options of RULES.md. Each field's type
says what it accepts (a :class:`Choice` enum, ``bool``, or ``int`` with bounds in the field
metadata), so validation, the list of valid values in error messages, parsing ``NAME=VALUE``
text from a CLI and the canonical form used for hashing all come from one declaration.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import typing
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, ClassVar, Self

from cpsolver.errors import Field, FieldViolation, RuleError, field_path

__all__ = ["Choice", "RuleSet", "int_option", "parse_assignments"]


class Choice(enum.StrEnum):
    """Base of the options that take one of a few named values (the value is the name)."""


def int_option(
    default: int,
    low: int,
    high: int,
    doc: str,
    *,
    choices: tuple[int, ...] = (),
    narrower: str = "",
) -> Any:
    """A dataclass field for an integer option accepting ``low..high`` (or only ``choices``);
    ``narrower`` says where another option narrows the range (a rule set's cross-field check
    enforces it), and an out-of-range value's error says it too."""
    meta: dict[str, Any] = {"range": (low, high), "doc": doc}
    if choices:
        meta["choices"] = choices
    if narrower:
        meta["narrower"] = narrower
    return dataclasses.field(default=default, metadata=meta)


def parse_assignments(items: Iterable[str], field: Field = "set") -> dict[str, str]:
    """``["order=strict", "players=2"]`` -> ``{"order": "strict", "players": "2"}``.

    >>> parse_assignments(["order=strict", " players = 2 "])
    {'order': 'strict', 'players': '2'}
    """
    result: dict[str, str] = {}
    for i, item in enumerate(items):
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RuleError((*field_path(field), i), f"expected OPTION=VALUE, got {item!r}")
        result[name.strip()] = value.strip()
    return result


_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}


class RuleSet:
    """Mixin for a game's frozen dataclass of options.

    Subclasses set ``GAME`` (a short name used in hashes and messages) and ``PRESETS`` (name ->
    overrides of the defaults), and may override :meth:`_check` for cross-field constraints.
    """

    GAME: ClassVar[str]
    PRESETS: ClassVar[Mapping[str, Mapping[str, object]]]
    DEFAULT_PRESET: ClassVar[str] = "standard"
    """The preset a caller gets by naming none (OFC's is ``pineapple``)."""
    DATA_FIELDS: ClassVar[frozenset[str]] = frozenset()
    """Fields that hold an option's data (set through that option's own forms, never by name)."""

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        """Names of every option, in declaration order."""
        return tuple(
            f.name
            for f in dataclasses.fields(cls)  # type: ignore[arg-type]
            if f.name not in cls.DATA_FIELDS
        )

    def __post_init__(self) -> None:
        # Every rule set is built here, whatever the way (the constructor, .preset(),
        # .replace(), dataclasses.replace), so an invalid one never exists: solving under
        # ChineseRules(players=0) answered, ChlustRules(deck=99) failed later with a KeyError.
        # Each value goes through the same reading as .replace() (one check of each option):
        # its errors, every one at once, then the cross-field constraints of _check.
        problems: list[FieldViolation] = []
        for name, kind, meta, data in _option_fields(type(self)):
            value = getattr(self, name)
            if type(value) is kind and kind is not int:
                continue  # a member of the option's enum, or a bool: valid as it is (fast path)
            try:
                typed = self._read_data(name, value) if data else _coerce(name, value, kind, meta)
            except RuleError as exc:
                problems.extend(exc.violations)
                continue
            if typed is not value:
                # Text for a typed option ("strict"), as .replace() takes it: the typed value
                # is kept, so comparisons by identity (rules.order is Order.STRICT) hold.
                object.__setattr__(self, name, typed)
        if problems:
            raise RuleError(violations=problems)
        self._check()

    def _read_data(self, name: str, value: object) -> object:
        """The canonical value of the data field ``name`` (:attr:`DATA_FIELDS`) as the
        constructor got it; raise :class:`RuleError` naming ``rules.<name>`` for a bad one."""
        return value

    def _read_option(self, name: str, raw: object) -> dict[str, object] | None:
        """The fields an option written as data sets (a game's own forms, e.g. a table); None
        for an option read from its type. Raise :class:`RuleError` for a bad value."""
        return None

    @classmethod
    def preset(cls, name: str | None = None, /, **overrides: object) -> Self:
        """The named preset (None: :attr:`DEFAULT_PRESET`) with ``overrides`` applied; unknown
        names list the valid ones."""
        name = name or cls.DEFAULT_PRESET
        if name not in cls.PRESETS:
            valid = ", ".join(cls.PRESETS)
            raise RuleError("rules.preset", f"unknown preset {name!r}; valid presets: {valid}")
        values = dict(cls.PRESETS[name])
        values.update(overrides)
        return cls().replace(**values)

    @classmethod
    def resolve(cls, rules: Self | str | None = None, /, **overrides: object) -> Self:
        """Accept a rule set, a preset name or None (:attr:`DEFAULT_PRESET`), then apply
        overrides."""
        if rules is None or isinstance(rules, str):
            return cls.preset(rules or cls.DEFAULT_PRESET, **overrides)
        if not isinstance(rules, cls):
            # "an OfcRules", not "a OfcRules"; and what came instead (a dict, a number)
            article = "an" if cls.__name__[0] in "AEIOU" else "a"
            raise RuleError(
                "rules",
                f"expected {article} {cls.__name__} or a preset name, got {type(rules).__name__}",
            )
        return rules.replace(**overrides) if overrides else rules

    def replace(self, **overrides: object) -> Self:
        """A copy with options changed by name; values may be typed or text (``"strict"``)."""
        fields = {
            f.name: f
            for f in dataclasses.fields(self)  # type: ignore[arg-type]
            if f.name not in self.DATA_FIELDS
        }
        hints = _type_hints(type(self))
        changes: dict[str, object] = {}
        problems: list[FieldViolation] = []
        for name, raw in overrides.items():
            if name in fields:
                try:
                    special = self._read_option(name, raw)
                except RuleError as exc:
                    problems.extend(exc.violations)
                    continue
                if special is not None:
                    changes.update(special)
                    continue
            if name not in fields:
                valid = ", ".join(fields)
                problems.append(
                    FieldViolation(
                        f"rules.{name}",
                        f"unknown {self.GAME} option {name!r}; valid options: {valid}",
                    )
                )
                continue
            try:
                changes[name] = _coerce(name, raw, hints[name], fields[name].metadata)
            except RuleError as exc:
                problems.extend(exc.violations)
        if problems:
            raise RuleError(violations=problems)
        # The new rule set checks itself (__post_init__), its cross-field constraints too.
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]

    def _check(self) -> None:
        """Cross-field constraints; raise :class:`RuleError`."""

    def to_dict(self) -> dict[str, object]:
        """Options as plain JSON values (enum names as strings)."""
        out: dict[str, object] = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, enum.Enum) else value
        return out

    def fingerprint(self) -> str:
        """A short stable hash of the game and every option (names data files, caches)."""
        return _fingerprint(self)

    def describe(self) -> str:
        """``name=value`` pairs for every option, for logs and reports."""
        return " ".join(f"{k}={_text(v)}" for k, v in self.to_dict().items())


@lru_cache(maxsize=256)
def _fingerprint(rules: RuleSet) -> str:
    # Rule sets are frozen and hashable; the hash is asked for on every expected-value solve.
    canonical = json.dumps({"game": rules.GAME, **rules.to_dict()}, sort_keys=True)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def _text(value: object) -> str:
    """An option's value for people: ``on``/``off``, a row-bonus table as ``front:
    three_of_a_kind 3; middle: full_house 2, ...`` in brackets, a list of naturals as
    ``[clean_dragon 52, dragon 26, ...]`` (RULES §2.5's data, not Python's reprs).

    >>> _text({"front": {"three_of_a_kind": 3}, "back": {"four_of_a_kind": 4, "straight_flush": 5}})
    '[front: three_of_a_kind 3; back: four_of_a_kind 4, straight_flush 5]'
    >>> _text([{"natural": "dragon", "units": 13}, {"natural": "six_pairs", "units": 3}])
    '[dragon 13, six_pairs 3]'
    """
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, dict):
        rows = (f"{row}: " + ", ".join(f"{k} {v}" for k, v in hands.items())
                for row, hands in value.items() if hands)  # fmt: skip
        return "[" + "; ".join(rows) + "]"
    if isinstance(value, list):
        return "[" + ", ".join(" ".join(str(v) for v in entry.values()) for entry in value) + "]"
    return str(value)


_HINTS: dict[type, dict[str, Any]] = {}


def _type_hints(cls: type) -> dict[str, Any]:
    """``typing.get_type_hints(cls)``, once per class: it evaluates the annotations' strings
    each time (~0.4 ms, a third of a served Solve, when every request resolved its rules)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


_FIELDS: dict[type, tuple[tuple[str, Any, Mapping[str, Any], bool], ...]] = {}


def _option_fields(cls: type[RuleSet]) -> tuple[tuple[str, Any, Mapping[str, Any], bool], ...]:
    """Each field of the rule set class ``cls``: its name, type, metadata and whether it is a
    data field; once per class (every rule set built reads them)."""
    found = _FIELDS.get(cls)
    if found is None:
        hints = _type_hints(cls)
        found = _FIELDS[cls] = tuple(
            (f.name, hints[f.name], f.metadata, f.name in cls.DATA_FIELDS)
            for f in dataclasses.fields(cls)  # type: ignore[arg-type]
        )
    return found


def _coerce(name: str, raw: object, kind: Any, meta: Mapping[str, Any]) -> object:
    field = f"rules.{name}"
    if isinstance(kind, type) and issubclass(kind, Choice):
        if isinstance(raw, kind):
            return raw
        valid = [c.value for c in kind]
        text = str(raw).strip().lower().replace("-", "_")
        if text in valid:
            return kind(text)
        raise RuleError(field, f"invalid value {raw!r}; valid values: {', '.join(valid)}")
    if kind is bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise RuleError(field, f"invalid value {raw!r}; valid values: on, off")
    if kind is int:
        low, high = meta.get("range", (-(2**31), 2**31 - 1))
        try:
            number = int(str(raw).strip()) if not isinstance(raw, int) else raw
        except ValueError:
            number = None
        choices = meta.get("choices", ())
        if choices:
            if isinstance(raw, bool) or number not in choices:
                allowed = ", ".join(str(c) for c in choices)
                raise RuleError(field, f"invalid value {raw!r}; valid values: {allowed}")
            return number
        if isinstance(raw, bool) or number is None or not low <= number <= high:
            narrower = f" ({meta['narrower']})" if "narrower" in meta else ""
            raise RuleError(
                field, f"invalid value {raw!r}; valid values: {low} to {high}{narrower}"
            )
        return number
    raise TypeError(f"option {name} has an unsupported type {kind!r}")
