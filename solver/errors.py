"""Library exceptions.

Every error caused by a caller's input is an :class:`InvalidInputError` carrying one or more
:class:`FieldViolation` values (which field, why). Adapters turn them into exit code 2 on the
CLI and ``INVALID_ARGUMENT`` with ``google.rpc.BadRequest`` field violations over gRPC, so the
message a user sees is written once, here in the library.

Field paths have one convention. A violation's :attr:`~FieldViolation.path` is a tuple of
field names (``str``: a field, or a mapping's key such as a seat name) and list indexes
(``int``, **0-based**: the position in the list the caller gave, as Python and protobuf index).
Every surface shows a path with those same 0-based indexes: :attr:`FieldViolation.field`, the
text of the error, the CLI, google.rpc.BadRequest over gRPC (``cards[1]`` is the second card),
and so does a description that points at another place (``also cards[0]``; an adapter that
renames the paths renames that place with them, :meth:`InvalidInputError.with_paths`) and
:attr:`CardError.position`. A field given as a string is names separated by dots, never an
index: a path with an index is a tuple.

>>> err = InvalidInputError("rules.players", "must be 2, 3 or 4, got 5")
>>> str(err)
'rules.players: must be 2, 3 or 4, got 5'
>>> err.violations[0].path
('rules', 'players')
>>> dup = InvalidInputError(("hands", 1, 0), "card As is dealt twice (also hands[0][2])")
>>> dup.field, str(dup)
('hands[1][0]', 'hands[1][0]: card As is dealt twice (also hands[0][2])')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Self

__all__ = [
    "CardError",
    "CardTypeError",
    "CpsolverError",
    "Field",
    "FieldPath",
    "FieldViolation",
    "IllegalPlayError",
    "InfeasibleError",
    "InvalidInputError",
    "MissingExtraError",
    "RuleError",
    "Violations",
    "field_path",
    "format_field",
    "parse_field",
]

FieldPath = tuple[str | int, ...]
"""A structured field path: names and 0-based list indexes (the module docstring)."""

Field = str | FieldPath
"""What the constructors take as a field: a :data:`FieldPath` or dotted names (``rules.order``)."""


def field_path(field: Field) -> FieldPath:
    """The structured path of ``field``: a tuple as it is, a string split at its dots.

    >>> field_path("rules.players"), field_path(("cards", 4)), field_path("")
    (('rules', 'players'), ('cards', 4), ())
    >>> field_path("cards[5]")
    Traceback (most recent call last):
    ...
    ValueError: 'cards[5]': a field path with an index is a tuple, e.g. ('cards', 4)
    """
    if isinstance(field, tuple):
        return field
    if "[" in field or "]" in field:
        raise ValueError(f"{field!r}: a field path with an index is a tuple, e.g. ('cards', 4)")
    return tuple(field.split(".")) if field else ()


def format_field(path: FieldPath, *, first: int = 0) -> str:
    """``path`` as text: names joined by dots, each index in brackets counted from ``first``
    (0, the one convention of every message and of the wire).

    >>> format_field(("players", "N", "back", 1)), format_field(("cards", 4))
    ('players.N.back[1]', 'cards[4]')
    """
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part + first}]"
        else:
            text += f".{part}" if text else part
    return text


def parse_field(text: str) -> FieldPath | None:
    """The structured path of ``text`` written as :func:`format_field` writes it (names
    joined by dots, indexes in brackets, no spaces); None for other text.

    >>> parse_field("players[0].back[3]"), parse_field("exchanges.3"), parse_field("the hand")
    (('players', 0, 'back', 3), ('exchanges', '3'), None)
    """
    if not _PATH_TEXT.fullmatch(text):
        return None
    return tuple(name or int(index) for name, index in _PATH_PART.findall(text))


_PATH_TEXT = re.compile(r"[^.\[\]\s()]+(?:\.[^.\[\]\s()]+|\[\d+\])*")
_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
_REFERENCE = re.compile(r"\(also ([^\s()]+)\)")


def _moved_references(description: str, move: Callable[[FieldPath], FieldPath]) -> str:
    """``description`` with each other place it names, ``(also PATH)``, moved by ``move``."""

    def moved(match: re.Match[str]) -> str:
        path = parse_field(match.group(1))
        return match.group(0) if path is None else f"(also {format_field(move(path))})"

    return _REFERENCE.sub(moved, description)


class CpsolverError(Exception):
    """Base class of every exception raised on purpose by the library.

    Errors pickle (a Ray task or another process reports them as raised), whatever their
    constructor takes: the arguments and attributes are restored, no constructor is called.

    >>> import pickle
    >>> err = pickle.loads(pickle.dumps(InvalidInputError(("cards", 1), "not a card")))
    >>> type(err).__name__, str(err), err.violations[0].path
    ('InvalidInputError', 'cards[1]: not a card', ('cards', 1))
    """

    def __reduce__(self) -> tuple[Any, ...]:
        return _restore_error, (type(self), self.args, dict(self.__dict__))


def _restore_error(
    cls: type[CpsolverError], args: tuple[Any, ...], state: dict[str, Any]
) -> CpsolverError:
    """A pickled :class:`CpsolverError` back (its ``__reduce__``)."""
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


@dataclass(frozen=True, slots=True, init=False)
class FieldViolation:
    """One reason a request is invalid: the field's path and a human-readable description.

    >>> FieldViolation(("cards", 1), "duplicate card 'As' (also cards[0])")
    FieldViolation(path=('cards', 1), description="duplicate card 'As' (also cards[0])")
    """

    path: FieldPath
    description: str

    def __init__(self, field: Field, description: str) -> None:
        object.__setattr__(self, "path", field_path(field))
        object.__setattr__(self, "description", description)

    @property
    def field(self) -> str:
        """The path as text (list indexes from 0): ``cards[1]``, ``rules.order``."""
        return format_field(self.path)

    def __str__(self) -> str:
        return f"{self.field}: {self.description}" if self.path else self.description


class InvalidInputError(CpsolverError, ValueError):
    """The caller's input is invalid; ``violations`` says where and why."""

    violations: tuple[FieldViolation, ...]

    def __init__(
        self,
        field: Field = "",
        description: str = "",
        *,
        violations: Iterable[FieldViolation] = (),
    ) -> None:
        found = list(violations)
        if description:
            found.insert(0, FieldViolation(field, description))
        self._set_violations(found)

    def _set_violations(self, violations: Iterable[FieldViolation]) -> None:
        found = tuple(violations)
        if not found:
            raise TypeError(f"{type(self).__name__} needs at least one violation")
        self.violations = found
        Exception.__init__(self, "; ".join(str(v) for v in found))

    @property
    def field(self) -> str:
        """The field of the first violation, as text (:attr:`FieldViolation.field`)."""
        return self.violations[0].field

    @property
    def path(self) -> FieldPath:
        """The structured path of the first violation."""
        return self.violations[0].path

    @property
    def description(self) -> str:
        """The description of the first violation."""
        return self.violations[0].description

    @classmethod
    def of_violations(cls, violations: Iterable[FieldViolation], **attributes: Any) -> Self:
        """An error of this class with exactly ``violations`` and the attributes given (such as
        a :class:`CardError`'s ``token``), the descriptions as they are: how an adapter rebuilds
        an error it received (an :class:`IllegalPlayError`'s descriptions already name the rule).

        >>> err = CardError.of_violations(
        ...     [FieldViolation(("cards", 1), "duplicate card 'As'")], token="As", position=1)
        >>> type(err).__name__, str(err), err.token, err.position
        ('CardError', "cards[1]: duplicate card 'As'", 'As', 1)
        """
        error = cls.__new__(cls)
        error.__dict__.update(attributes)
        error._set_violations(violations)
        return error

    def with_paths(self, move: Callable[[FieldPath], FieldPath]) -> Self:
        """The same error (class, attributes, descriptions) with every path replaced by
        ``move(path)``: how an adapter names the fields of its own request. The other place a
        description names (``(also players.N.back[0])``) is a path of the same request, so it
        is moved too: a message never mixes the library's names with the request's.

        >>> err = InvalidInputError(("cards", 3), "duplicate card 'As' (also cards[0])")
        >>> str(err.prefixed(("hands", 1)))
        "hands[1].cards[3]: duplicate card 'As' (also hands[1].cards[0])"
        """
        clone = type(self).__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone._set_violations(
            FieldViolation(move(v.path), _moved_references(v.description, move))
            for v in self.violations
        )
        return clone

    def prefixed(self, prefix: Field) -> Self:
        """The same error with every field path placed under ``prefix``.

        >>> str(InvalidInputError(("cards", 0), "bad").prefixed(("hands", 2)))
        'hands[2].cards[0]: bad'
        """
        head = field_path(prefix)
        return self.with_paths(lambda path: head + path)


class Violations:
    """The errors of several independent checks, raised together as one error, so a caller
    with several mistakes learns of all of them at once (issue 27, D5: a bad ``Solve`` took
    one round trip per validation stage).

    Each check runs in :meth:`check`, which keeps an :class:`InvalidInputError` instead of
    letting it through; :meth:`raise_any` raises them as one error: the class and attributes of
    the first (a :class:`CardError` keeps its ``token`` and ``position``) with every violation,
    in the order the checks ran. A value a failed check was to produce is unset, so the checks
    must not depend on each other.

    >>> found = Violations()
    >>> with found.check():
    ...     raise CardError(("cards", 1), "duplicate card 'As' (also cards[0])", token="As",
    ...                     position=1)
    >>> with found.check():
    ...     raise InvalidInputError("rollouts", "must be 0 to 20000, got 999999")
    >>> found.raise_any()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.CardError: cards[1]: duplicate card 'As' (also cards[0]); rollouts: must ...
    """

    def __init__(self) -> None:
        self.errors: list[InvalidInputError] = []

    def __bool__(self) -> bool:
        return bool(self.errors)

    def check(self) -> Self:
        """A context that runs a check, keeping the :class:`InvalidInputError` it raises
        (``with found.check(): ...``)."""
        return self

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, _: Any) -> bool:
        if isinstance(exc, InvalidInputError):
            self.errors.append(exc)
            return True
        return False

    def add(self, error: InvalidInputError) -> None:
        """Keep ``error`` as if a check had raised it."""
        self.errors.append(error)

    def raise_any(self) -> None:
        """Raise the errors kept so far as one (nothing when there are none)."""
        if not self.errors:
            return
        first, *rest = self.errors
        if not rest:
            raise first
        combined = first.with_paths(lambda path: path)
        combined._set_violations(v for e in self.errors for v in e.violations)
        raise combined


class CardError(InvalidInputError):
    """A card token could not be read, is repeated, is outside the deck, or the count is wrong.

    ``token`` is the offending text (empty for a count error) and ``position`` its index among
    the cards, from 0 as the field shows it (``cards[1]``: 1), or -1 when the whole list is at
    fault (a count error).
    """

    token: str
    position: int

    def __init__(self, field: Field, description: str, *, token: str = "", position: int = -1):
        super().__init__(field, description)
        self.token = token
        self.position = position


class CardTypeError(CardError, TypeError):
    """Cards given as a value of the wrong type (``solve(12345)``): a :class:`CardError`, so
    it is reported like any bad card (exit 2, ``INVALID_ARGUMENT``), and a :class:`TypeError`,
    what Python raises for an argument of the wrong type.

    >>> str(CardTypeError("cards", "expected a string of cards or a list of cards, got int"))
    'cards: expected a string of cards or a list of cards, got int'
    """


class RuleError(InvalidInputError):
    """An unknown rule option or preset, or a value the option does not accept."""


class IllegalPlayError(InvalidInputError):
    """A play or action that the game's rules forbid; ``rule`` names the rule (e.g. ``CH-8``)."""

    rule: str

    def __init__(self, field: Field, description: str, *, rule: str) -> None:
        super().__init__(field, f"{description} ({rule})")
        self.rule = rule


class InfeasibleError(CpsolverError):
    """A well-formed request that has no answer, e.g. constraints no valid split satisfies."""


class MissingExtraError(CpsolverError, ImportError):
    """A feature needs an optional part of the distribution (an extra) that is not installed.

    ``extra`` names it (``grpc``, ``cpsat``), ``feature`` is what needed it and ``name`` (as on
    any ``ImportError``) the module found missing. The message is the one line to act on:

    >>> str(MissingExtraError("grpc", "the gRPC client", module="grpc"))
    "the gRPC client needs the grpc extra: pip install 'cpsolver[grpc]'"
    """

    def __init__(self, extra: str, feature: str, *, module: str | None = None) -> None:
        self.extra = extra
        self.feature = feature
        super().__init__(f"{feature} needs the {extra} extra: pip install 'cpsolver[{extra}]'")
        self.name = module
