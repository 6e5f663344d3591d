"""JSON input of the CLI: one reader and one wording for every command that reads JSON
(``batch``, ``score``, ``chlust play``, ``leaves resolve|play``).

A document that is not JSON is one :class:`~cpsolver.errors.InvalidInputError` at the field
``input``, naming where it came from (the path as given, ``stdin`` or ``the command line``) and
the position (line and column, counted from 1 as editors count them) and what the decoder
expected::

    input: deal.json: not valid JSON at line 1 column 12: Expecting ',' delimiter

``cpsolver batch`` reads its input line by line with :func:`bounded_lines`, so a line longer
than :data:`MAX_LINE_BYTES` is that line's error and is never held in memory whole.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from typing import IO, Any

import click

from cpsolver.errors import InvalidInputError

__all__ = [
    "FIELD",
    "INLINE",
    "MAX_LINE_BYTES",
    "STDIN",
    "bounded_lines",
    "decode_json",
    "open_input",
    "read_json",
    "read_text",
    "where",
]

FIELD = "input"
"""The field every JSON input error names."""
STDIN = "stdin"
"""How an error names standard input (``-``)."""
INLINE = "the command line"
"""How an error names JSON given as the argument itself."""
MAX_LINE_BYTES = 65_536
"""The longest line ``cpsolver batch`` reads, in bytes without the line break (a hand with an
``id`` is well under 1 KB); a longer line is that line's error (docs/CLI-JSON.md)."""


def where(source: str) -> str:
    """How an error names ``source``: ``stdin`` for ``-`` (or click's ``<stdin>``), else the
    path as given."""
    return STDIN if source in ("-", "<stdin>") else source


def decode_json(text: str, source: str, *, line: int = 1, column: int = 1) -> Any:
    """``text`` decoded, or the one :class:`InvalidInputError` for JSON that is not valid.
    ``source`` names where the text came from (:func:`where`); ``line`` and ``column`` are
    where the text starts in it (a line of a file: the line's number and its indentation + 1).

    >>> decode_json('{"a": 1}', "deal.json")
    {'a': 1}
    >>> decode_json('{"hands": 3', "deal.json")
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: input: deal.json: not valid JSON at line 1 column 12: \
Expecting ',' delimiter
    >>> decode_json("{x", "hands.jsonl", line=7, column=3)
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: input: hands.jsonl: not valid JSON at line 7 column 4: \
Expecting property name enclosed in double quotes
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        at_line = line + exc.lineno - 1
        at_column = exc.colno + (column - 1 if exc.lineno == 1 else 0)
        raise InvalidInputError(
            FIELD,
            f"{where(source)}: not valid JSON at line {at_line} column {at_column}: {exc.msg}",
        ) from None
    except RecursionError:  # nesting deeper than the decoder goes
        raise InvalidInputError(FIELD, f"{where(source)}: JSON nested too deeply") from None


def open_input(source: str, *, inline: bool = False) -> IO[bytes]:
    """The input ``source`` opened for reading bytes: the file, or stdin for ``-`` (left open
    when the stream is closed). Every command reads its input through here, so a file that
    cannot be opened is one :class:`InvalidInputError` at ``input`` in one wording
    (``input: deal.json: no such file``); ``inline``: where JSON text would also have done,
    a missing file says so.

    >>> open_input("")
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: input: '': an empty path; give a file, or - for stdin
    """
    hint = " (give a path, - or the JSON itself)" if inline else ""
    if source == "-":
        stream: IO[bytes] = click.open_file("-", "rb")  # closing it leaves stdin open
        return stream
    if not source:
        # Path("") is the current directory: "cannot read: Is a directory" named nothing.
        why = hint or "; give a file, or - for stdin"
        raise InvalidInputError(FIELD, f"'': an empty path{why}")
    try:
        return open(source, "rb")  # the caller closes it (with ...)
    except FileNotFoundError:
        raise InvalidInputError(FIELD, f"{where(source)}: no such file{hint}") from None
    except OSError as exc:
        raise InvalidInputError(
            FIELD, f"{where(source)}: cannot read: {exc.strerror or exc}"
        ) from None


def read_text(source: str, *, inline: bool = False) -> str:
    """The text of the file ``source`` (``-``: stdin); an :class:`InvalidInputError` at
    ``input`` when it cannot be read or is not UTF-8 (``inline``: where JSON text would also
    have done, a missing file says so). A byte order mark at the start (Windows Notepad saves
    one) is dropped, as :func:`bounded_lines` drops it."""
    with open_input(source, inline=inline) as stream:
        try:
            data = stream.read()
        except OSError as exc:
            raise InvalidInputError(
                FIELD, f"{where(source)}: cannot read: {exc.strerror or exc}"
            ) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidInputError(FIELD, f"{where(source)}: not UTF-8 text: {exc.reason}") from None


def read_json(source: str, *, inline: bool = False) -> Any:
    """The JSON document of the file ``source`` (``-``: stdin), or with ``inline`` of
    ``source`` itself when it starts with ``{`` or ``[`` (a deal given on the command line)."""
    if inline and source.lstrip().startswith(("{", "[")):
        return decode_json(source, INLINE)
    return decode_json(read_text(source, inline=inline), source)


def bounded_lines(
    stream: IO[bytes], limit: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, bytes | None]]:
    """``(number, line)`` for each line of ``stream`` (from 1, the line break removed), and
    ``(number, None)`` for a line longer than ``limit`` bytes, whose rest is read and dropped
    a chunk at a time: memory stays bounded by ``limit`` whatever the input.

    >>> import io
    >>> list(bounded_lines(io.BytesIO(b"As Ks\\n" + b"x" * 10 + b"\\n\\nlast"), limit=8))
    [(1, b'As Ks'), (2, None), (3, b''), (4, b'last')]
    >>> list(bounded_lines(io.BytesIO(b"\\xef\\xbb\\xbfAs Ks\\n")))
    [(1, b'As Ks')]
    """
    number = 0
    while True:
        chunk = stream.readline(limit + 1)
        if not chunk:
            return
        number += 1
        if number == 1 and chunk.startswith(codecs.BOM_UTF8):
            # A byte order mark (Windows Notepad writes one) is no part of the first line; its
            # 3 bytes are read again from the line, so the line may still hold ``limit`` bytes.
            more = b"" if chunk.endswith(b"\n") else stream.readline(len(codecs.BOM_UTF8))
            chunk = chunk[len(codecs.BOM_UTF8) :] + more
        if chunk.endswith(b"\n"):
            yield number, chunk[:-1].removesuffix(b"\r")
            continue
        if len(chunk) <= limit:  # the last line, without a line break
            yield number, chunk
            continue
        while chunk and not chunk.endswith(b"\n"):  # too long: drop the rest of the line
            chunk = stream.readline(limit + 1)
        yield number, None
