"""Library exceptions.

Every error caused by a caller's input is an :class:`InvalidInputError` carrying one or more
:class:`FieldViolation` values (which field, why). Adapters turn them into exit code 2 on the
CLI and ``INVALID_ARGUMENT`` with ``google.rpc.BadRequest`` field violations over gRPC, so the
message a user sees is written once, here in the library.

>>> err = InvalidInputError("rules.players", "must be 2, 3 or 4, got 5")
>>> str(err)
'rules.players: must be 2, 3 or 4, got 5'
>>> err.violations[0].field
'rules.players'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "CardError",
    "CpsolverError",
    "FieldViolation",
    "IllegalPlayError",
    "InfeasibleError",
    "InvalidInputError",
    "RuleError",
]


class CpsolverError(Exception):
    """Base class of every exception raised on purpose by the library."""


@dataclass(frozen=True, slots=True)
class FieldViolation:
    """One reason a request is invalid: the field path and a human-readable description."""

    field: str
    description: str

    def __str__(self) -> str:
        return f"{self.field}: {self.description}" if self.field else self.description


class InvalidInputError(CpsolverError, ValueError):
    """The caller's input is invalid; ``violations`` says where and why."""

    def __init__(
        self,
        field: str = "",
        description: str = "",
        *,
        violations: Iterable[FieldViolation] = (),
    ) -> None:
        found = list(violations)
        if description:
            found.insert(0, FieldViolation(field, description))
        if not found:
            raise TypeError("InvalidInputError needs at least one violation")
        self.violations: tuple[FieldViolation, ...] = tuple(found)
        super().__init__("; ".join(str(v) for v in self.violations))

    @property
    def field(self) -> str:
        """The field of the first violation."""
        return self.violations[0].field

    @property
    def description(self) -> str:
        """The description of the first violation."""
        return self.violations[0].description

    def prefixed(self, prefix: str) -> InvalidInputError:
        """The same error with every field path placed under ``prefix`` (``prefix.field``)."""
        moved = [
            FieldViolation(f"{prefix}.{v.field}" if v.field else prefix, v.description)
            for v in self.violations
        ]
        clone = type(self).__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.violations = tuple(moved)
        Exception.__init__(clone, "; ".join(str(v) for v in moved))
        return clone


class CardError(InvalidInputError):
    """A card token could not be read, is repeated, is outside the deck, or the count is wrong.

    ``token`` is the offending text (empty for a count error) and ``position`` its 1-based
    place among the cards (0 when the whole list is at fault).
    """

    def __init__(self, field: str, description: str, *, token: str = "", position: int = 0):
        super().__init__(field, description)
        self.token = token
        self.position = position


class RuleError(InvalidInputError):
    """An unknown rule option or preset, or a value the option does not accept."""


class IllegalPlayError(InvalidInputError):
    """A play or action that the game's rules forbid; ``rule`` names the rule (e.g. ``CH-8``)."""

    def __init__(self, field: str, description: str, *, rule: str) -> None:
        super().__init__(field, f"{description} ({rule})")
        self.rule = rule


class InfeasibleError(CpsolverError):
    """A well-formed request that has no answer, e.g. constraints no valid split satisfies."""
