"""Where a command's JSON input comes from: a SOURCE argument that is a file path, ``-`` for
stdin, or the JSON text itself (it starts with ``{`` or ``[``). ``leaves play|resolve`` and
``chlust play|advise`` take their input this way."""

from __future__ import annotations

import sys
from pathlib import Path

from cpsolver.errors import Field, InvalidInputError

__all__ = ["read_source"]


def read_source(source: str, field: Field) -> tuple[str, str]:
    """The text of ``source`` and where it came from, for messages: the path, ``stdin`` or
    ``the command line``. A missing or unreadable file is an :class:`InvalidInputError` on
    ``field``.

    >>> read_source('{"hands": []}', "deal")
    ('{"hands": []}', 'the command line')
    >>> read_source("no-such-file.json", "deal")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: deal: no such file 'no-such-file.json' (give a path, ...)
    """
    if source == "-":
        return sys.stdin.read(), "stdin"
    if source.lstrip().startswith(("{", "[")):
        return source, "the command line"
    path = Path(source)
    if not path.is_file():
        raise InvalidInputError(field, f"no such file {source!r} (give a path, - or JSON)")
    try:
        return path.read_text(encoding="utf-8"), source
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(field, f"cannot read {source!r}: {exc}") from None
