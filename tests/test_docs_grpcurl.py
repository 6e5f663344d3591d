"""docs/API.md's `grpcurl` lines run against a real server on loopback (issue 17, "every
example in the docs executed").

grpcurl is not in Debian's archive (``apt-cache policy grpcurl`` finds no package), so this
test does what each line asks with the generated descriptors instead: it parses the line as
grpcurl would (``-plaintext``, ``-d JSON``, the address, ``list`` or ``SERVICE/METHOD``),
reads the ``-d`` body into the method's request message with protobuf's JSON parser (the
format grpcurl sends: names of fields and enum values as the .proto spells them), calls the
method on the suite's server (the page's ``127.0.0.1:50051`` replaced by its address) and
turns the answer into JSON as grpcurl prints it. Then every ``"field": value`` the page quotes
in backticks after the block must be in one of the block's answers, and ``list`` must name
every service of the page's Services table.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor_pool, json_format, message_factory
from grpc_health.v1 import health_pb2  # noqa: F401  (registers grpc.health.v1 in the pool)
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from cpsolver.v1 import chinese_poker_pb2, chlust_pb2, three_leaves_pb2  # noqa: F401

PAGE = Path(__file__).resolve().parent.parent / "docs" / "API.md"
TEXT = PAGE.read_text(encoding="utf-8")
FENCE = re.compile(r"^```sh\n(.*?)^```[ \t]*$\n(.*?)(?=^```|^#)", re.S | re.M)
DOC_ADDRESS = "127.0.0.1:50051"


@dataclass(frozen=True)
class Call:
    line: str
    target: str  # "list" or "package.Service/Method"
    body: str | None  # the -d JSON


@dataclass(frozen=True)
class Example:
    calls: tuple[Call, ...]
    prose: str  # the text after the block, up to the next fence or heading


def parse(line: str) -> Call:
    """One grpcurl command line: the options this page uses, then the address and the target."""
    words = shlex.split(line)
    assert words[0] == "grpcurl", line
    body = None
    rest = []
    i = 1
    while i < len(words):
        word = words[i]
        if word == "-plaintext":
            i += 1
        elif word == "-d":
            body = words[i + 1]
            i += 2
        elif word.startswith("-"):
            raise AssertionError(f"an option the test does not know: {word} in {line!r}")
        else:
            rest.append(word)
            i += 1
    assert len(rest) == 2 and rest[0] == DOC_ADDRESS, line
    return Call(line, rest[1], body)


def _examples() -> list[Example]:
    found = []
    for match in FENCE.finditer(TEXT):
        lines = match.group(1).replace("\\\n", " ").splitlines()
        calls = tuple(parse(line) for line in lines if line.startswith("grpcurl"))
        if calls:
            found.append(Example(calls, match.group(2)))
    return found


EXAMPLES = _examples()


def test_the_page_has_its_grpcurl_examples() -> None:
    """A parser that finds nothing would pass vacuously: list, EvaluateHand, Health, Solve."""
    targets = [c.target for e in EXAMPLES for c in e.calls]
    assert targets == [
        "list",
        "cpsolver.v1.ChinesePokerService/EvaluateHand",
        "grpc.health.v1.Health/Check",
        "cpsolver.v1.ChinesePokerService/Solve",
    ]


def _invoke(channel: grpc.Channel, call: Call) -> Any:
    if call.target == "list":
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        (reply,) = stub.ServerReflectionInfo(iter([request]), timeout=30)
        return {"services": [s.name for s in reply.list_services_response.service]}
    service_name, method_name = call.target.split("/")
    method = descriptor_pool.Default().FindServiceByName(service_name).methods_by_name[method_name]
    request_type = message_factory.GetMessageClass(method.input_type)
    response_type = message_factory.GetMessageClass(method.output_type)
    request = json_format.Parse(call.body or "{}", request_type())
    invoke = channel.unary_unary(
        f"/{call.target}",
        request_serializer=request_type.SerializeToString,
        response_deserializer=response_type.FromString,
    )
    return json_format.MessageToDict(invoke(request, timeout=60))


def _pairs(value: Any) -> set[tuple[str, str]]:
    """Every (field, JSON value) in an answer, at any depth; field names without case or
    underscores (grpcurl prints lowerCamelCase, the page may quote the .proto's names)."""
    found: set[tuple[str, str]] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found.add((key.replace("_", "").lower(), json.dumps(item)))
            found |= _pairs(item)
    elif isinstance(value, list):
        for item in value:
            found |= _pairs(item)
    return found


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.calls[-1].target)
def test_grpcurl_example_answers_what_the_page_says(grpc_server: Any, example: Example) -> None:
    channel = grpc_server.channel()
    try:
        answers = [_invoke(channel, call) for call in example.calls]
    finally:
        channel.close()
    quoted = re.findall(r'`"(\w+)": ("[^"`]*"|-?\d+|true|false)`', example.prose)
    assert quoted, "the text after a grpcurl block quotes what the calls answer"
    seen = set().union(*(_pairs(a) for a in answers))
    for key, value in quoted:
        assert (key.replace("_", "").lower(), value) in seen, (key, value, answers)
    for call, answer in zip(example.calls, answers, strict=True):
        if call.target == "list":
            table = TEXT[TEXT.index("### Services") : TEXT.index("Cards are typed")]
            listed = re.findall(r"^\| `([\w.]+)` \|", table, re.M)
            assert len(listed) == 7 and set(listed) <= set(answer["services"])


def test_a_body_that_is_not_the_request_message_fails_the_parse() -> None:
    """The parser is strict, as grpcurl's is: a misspelt field in a page fails this test."""
    with pytest.raises(json_format.ParseError):
        json_format.Parse('{"cardz": []}', chinese_poker_pb2.EvaluateHandRequest())
