"""Readers of a caller's plain values (whole numbers, finite numbers, values of one type),
each raising :class:`~cpsolver.errors.InvalidInputError` naming the field and why.

The library's entry points take untrusted values; a value of the wrong type must not reach the
arithmetic inside (``0 <= "x"`` is a bare TypeError, ``"s".index`` an AttributeError far from
the argument that caused it). An entry point reads its plain arguments here, so every game
words the same mistake the same way.

>>> whole_number(3, "players", low=2, high=4)
3
>>> whole_number("x", "carried_pot", low=0)
Traceback (most recent call last):
...
cpsolver.errors.InvalidInputError: carried_pot: expected a whole number, got 'x'
>>> finite_number(float("nan"), "deadline", low=0)
Traceback (most recent call last):
...
cpsolver.errors.InvalidInputError: deadline: expected a finite number >= 0, got nan
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import TypeVar

from cpsolver.errors import Field, InvalidInputError

__all__ = ["finite_number", "instance_of", "iterable_of", "whole_number"]

T = TypeVar("T")


def whole_number(
    value: object, field: Field, *, low: int | None = None, high: int | None = None
) -> int:
    """``value`` when it is a whole number from ``low`` to ``high`` (either bound may be
    None: none); a bool is not a number here (``True`` as a count is a mistake)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidInputError(field, f"expected a whole number, got {value!r}")
    number = int(value)  # numpy's integers are Integral, not int
    if (low is not None and number < low) or (high is not None and number > high):
        if high is None:
            raise InvalidInputError(field, f"must be {low} or more, got {number}")
        if low is None:
            raise InvalidInputError(field, f"must be {high} or less, got {number}")
        raise InvalidInputError(field, f"must be {low} to {high}, got {number}")
    return number


def finite_number(value: object, field: Field, *, low: float | None = None) -> float:
    """``value`` as a float when it is a finite real number (not NaN, not infinite, not a
    bool), at least ``low`` when given."""
    bound = "" if low is None else f" >= {low:g}"
    wrong = InvalidInputError(field, f"expected a finite number{bound}, got {value!r}")
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise wrong
    number = float(value)
    if not math.isfinite(number) or (low is not None and number < low):
        raise wrong
    return number


def instance_of(value: object, kind: type[T], field: Field, what: str) -> T:
    """``value`` when it is a ``kind``; else an error naming ``field``, ``what`` was expected
    (in words: ``"a Deal (cpsolver.three_leaves.Deal)"``) and the type given."""
    if not isinstance(value, kind):
        raise InvalidInputError(field, f"expected {what}, got {_type_name(value)}")
    return value


def iterable_of(value: object, field: Field, what: str) -> Iterable[object]:
    """``value`` when it is a collection to iterate over (a list, a tuple, a generator...),
    not a string (a string iterates over its characters: never a list of anything here)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise InvalidInputError(field, f"expected {what}, got {_type_name(value)}")
    return value


def _type_name(value: object) -> str:
    return "None" if value is None else type(value).__name__
