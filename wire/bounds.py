"""Size bounds every request meets before any work starts (one check for every RPC).

A hostile request can be as large as the message cap allows: 100,000 cards, a 100,000-character
preset name. Without a bound the server spends work proportional to it (one violation per bad
card, each echoing its input) and its error reply outgrows the response cap (issue 15, D3).
:func:`check_bounds` walks a decoded request once and raises on the first field past its bound:

* a repeated field of ``cpsolver.v1.Card``: at most :data:`MAX_CARDS` (a whole deck);
* any other repeated field: at most ``max_items`` (a backstop looser than each field's own
  limit, such as ``--max-batch``, which the servicer checks with its own message);
* a string: at most :data:`MAX_TEXT` characters (presets, seat and rule names are short),
  but a rule file's text (``ChineseRules.rules_toml``): at most :data:`MAX_RULE_FILE`;

The error is a :class:`~cpsolver.wire.status.RequestTooLargeError` naming the field, with the
bound as its QuotaFailure, and never echoes the input.
"""

from __future__ import annotations

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from cpsolver.errors import FieldPath
from cpsolver.wire.status import RequestTooLargeError

__all__ = ["MAX_CARDS", "MAX_RULE_FILE", "MAX_TEXT", "check_bounds"]

MAX_CARDS = 52
MAX_TEXT = 256
MAX_RULE_FILE = 16_384
"""A rule file of every natural, commented, is about 2,000 characters (RULES §2.5)."""
_LONG_TEXT = {"cpsolver.v1.ChineseRules.rules_toml": MAX_RULE_FILE}

_CARD = "cpsolver.v1.Card"


def _too_large(path: FieldPath, what: str, limit: int, got: int) -> RequestTooLargeError:
    return RequestTooLargeError(path, f"at most {limit:,} {what}, got {got:,}", limit=limit)


def check_bounds(message: Message, max_items: int, path: FieldPath = ()) -> None:
    """Raise :class:`RequestTooLargeError` for the first field of ``message`` past its bound.

    >>> from cpsolver.v1 import cards_pb2, chinese_poker_pb2 as pb
    >>> check_bounds(pb.EvaluateHandRequest(cards=[cards_pb2.Card()] * 60), 100)
    Traceback (most recent call last):
    ...
    cpsolver.wire.status.RequestTooLargeError: cards: at most 52 cards, got 60
    """
    for field, value in message.ListFields():
        where = (*path, field.name)
        is_message = field.type == FieldDescriptor.TYPE_MESSAGE
        if field.is_repeated:
            if field.message_type is not None and field.message_type.GetOptions().map_entry:
                if len(value) > max_items:
                    raise _too_large(where, "entries", max_items, len(value))
                continue
            cards = is_message and field.message_type.full_name == _CARD
            limit = MAX_CARDS if cards else max_items
            if len(value) > limit:
                raise _too_large(where, "cards" if cards else "items", limit, len(value))
            if is_message and not cards:
                for index, item in enumerate(value):
                    check_bounds(item, max_items, (*where, index))
            elif field.type == FieldDescriptor.TYPE_STRING:
                for index, text in enumerate(value):
                    if len(text) > MAX_TEXT:
                        raise _too_large((*where, index), "characters", MAX_TEXT, len(text))
        elif is_message:
            check_bounds(value, max_items, where)
        elif field.type == FieldDescriptor.TYPE_STRING:
            limit = _LONG_TEXT.get(field.full_name, MAX_TEXT)
            if len(value) > limit:
                raise _too_large(where, "characters", limit, len(value))
