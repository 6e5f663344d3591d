"""Hostile requests for every RPC the server serves (issue 15): the fuzz test and ``make soak``.

Requests are generated from the services' descriptors, so a new RPC is fuzzed without a line
here. Each request is one of: a message with random, mostly extreme field values (int32 and
int64 bounds, unknown enum numbers, long strings, repeated fields up to a few hundred items,
nested messages), the serialized bytes of such a message mutated (truncated, bytes flipped or
inserted), or random bytes. Generation is seeded (``random.Random``), so a run is repeatable.

:func:`fire` sends a bounded number of them to a server on loopback and counts the status
codes; :func:`rss_kb` reads a process's resident memory.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from google.protobuf.descriptor import Descriptor, FieldDescriptor, MethodDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

__all__ = ["FireResult", "HostileRequest", "fire", "hostile_requests", "methods", "rss_kb"]

_INTS = (0, 1, -1, 2, 3, 4, 5, 13, 52, 100, 5000, 2**31 - 1, -(2**31), 2**15)
_INT64S = (*_INTS, 2**63 - 1, -(2**63), 2**40)
_UINTS = (0, 1, 2, 3, 13, 100, 2**32 - 1, 2**31)
_UINT64S = (*_UINTS, 2**64 - 1)
_STRINGS = ("", "standard", "eastern", "two_four", "x" * 300, "é\u0000\uffff", "North", "0")


def methods() -> list[MethodDescriptor]:
    """Every unary-request RPC of the cpsolver services (the 23 of issue 15)."""
    from cpsolver.v1 import chinese_poker_pb2, chlust_pb2, three_leaves_pb2

    found = []
    for module in (chinese_poker_pb2, chlust_pb2, three_leaves_pb2):
        for service in module.DESCRIPTOR.services_by_name.values():
            found.extend(m for m in service.methods if not m.client_streaming)
    return found


def _scalar(rng: random.Random, fd: FieldDescriptor) -> Any:
    t = fd.type
    if t == FieldDescriptor.TYPE_ENUM:
        numbers = [v.number for v in fd.enum_type.values]
        return rng.choice([*numbers, *numbers, -1, 99, 2**31 - 1])
    if t == FieldDescriptor.TYPE_BOOL:
        return rng.random() < 0.5
    if t in (FieldDescriptor.TYPE_STRING,):
        return rng.choice(_STRINGS)
    if t == FieldDescriptor.TYPE_BYTES:
        return rng.randbytes(rng.randrange(8))
    if t in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return rng.choice((0.0, -1.0, 1e300, float("nan"), float("inf"), 0.5))
    if t in (FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_FIXED32):
        return rng.choice(_UINTS)
    if t in (FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED64):
        return rng.choice(_UINT64S)
    if t in (
        FieldDescriptor.TYPE_INT64,
        FieldDescriptor.TYPE_SINT64,
        FieldDescriptor.TYPE_SFIXED64,
    ):
        return rng.choice(_INT64S)
    return rng.choice(_INTS)


def _fill(rng: random.Random, message: Message, depth: int) -> None:
    for fd in message.DESCRIPTOR.fields:
        if rng.random() < 0.35:
            continue  # leave it unset
        if fd.is_repeated:
            count = rng.choice((0, 1, 2, 3, 5, 13, 14, 60, 300)) if depth < 3 else 1
            if fd.message_type is not None:
                if fd.message_type.GetOptions().map_entry:
                    continue
                target = getattr(message, fd.name)
                for _ in range(count if depth < 2 else min(count, 13)):
                    _fill(rng, target.add(), depth + 1)
            else:
                getattr(message, fd.name).extend(_scalar(rng, fd) for _ in range(count))
        elif fd.message_type is not None:
            if depth < 4:
                _fill(rng, getattr(message, fd.name), depth + 1)
        else:
            try:
                setattr(message, fd.name, _scalar(rng, fd))
            except (ValueError, TypeError):
                continue  # a value the field's type cannot hold (protobuf checks it)


def _mutate(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return rng.randbytes(rng.randrange(1, 16))
    chosen = rng.randrange(3)
    if chosen == 0:
        return data[: rng.randrange(len(data))]  # truncated
    if chosen == 1:
        flipped = bytearray(data)
        for _ in range(rng.randrange(1, 4)):
            flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
        return bytes(flipped)
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.randbytes(rng.randrange(1, 6)) + data[at:]


@dataclass(frozen=True)
class HostileRequest:
    """One generated call: the full method name, the request bytes, how it was made."""

    method: str
    body: bytes
    kind: str  # "message", "mutated" or "random"


def hostile_requests(seed: int) -> Iterator[HostileRequest]:
    """An endless, repeatable stream of hostile requests over every RPC of :func:`methods`."""
    rng = random.Random(seed)
    chosen = methods()
    classes: dict[Descriptor, type[Message]] = {}
    while True:
        method = rng.choice(chosen)
        name = f"/{method.containing_service.full_name}/{method.name}"
        kind = rng.choices(("message", "mutated", "random"), (6, 3, 1))[0]
        if kind == "random":
            yield HostileRequest(name, rng.randbytes(rng.randrange(1, 64)), kind)
            continue
        cls = classes.setdefault(method.input_type, GetMessageClass(method.input_type))
        message = cls()
        _fill(rng, message, 0)
        body = message.SerializeToString()
        yield HostileRequest(name, _mutate(rng, body) if kind == "mutated" else body, kind)


@dataclass
class FireResult:
    """What :func:`fire` saw: calls by status code (and by method for the unexpected ones)."""

    codes: Counter[str] = field(default_factory=Counter)
    bad: list[tuple[str, str, str]] = field(default_factory=list)  # (method, code, details)
    seconds: float = 0.0

    @property
    def calls(self) -> int:
        return sum(self.codes.values())


UNEXPECTED = {"INTERNAL", "UNKNOWN"}


def fire(
    address: str,
    count: int,
    *,
    seed: int = 15,
    timeout: float = 2.0,
    max_seconds: float = 60.0,
    in_flight: int = 8,
    channels: int = 2,
) -> FireResult:
    """Send ``count`` hostile requests (stopping early after ``max_seconds``) to ``address``,
    ``in_flight`` at a time over ``channels`` connections; count the codes."""
    result = FireResult()
    pool = [
        grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(channels)
    ]
    slots = threading.Semaphore(in_flight)
    lock = threading.Lock()
    started = time.monotonic()
    stream = hostile_requests(seed)

    def done(request: HostileRequest, future: grpc.Future) -> None:
        exc = future.exception()
        code = "OK" if exc is None else exc.code().name  # type: ignore[union-attr]
        with lock:
            result.codes[code] += 1
            if code in UNEXPECTED:
                result.bad.append((request.method, code, exc.details() or ""))  # type: ignore[union-attr]
        slots.release()

    try:
        for index in range(count):
            if time.monotonic() - started > max_seconds:
                break
            request = next(stream)
            slots.acquire()
            call = pool[index % channels].unary_unary(
                request.method, request_serializer=None, response_deserializer=None
            )
            future = call.future(request.body, timeout=timeout)
            future.add_done_callback(lambda f, r=request: done(r, f))
        for _ in range(in_flight):
            slots.acquire()  # every call answered
    finally:
        for channel in pool:
            channel.close()
    result.seconds = time.monotonic() - started
    return result


def rss_kb(pid: int) -> int:
    """Resident memory of process ``pid`` (kB)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise ValueError(f"no VmRSS for pid {pid}")
