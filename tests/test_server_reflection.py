"""Server reflection on a real server (issue 27, #19): ``grpc.reflection.v1`` beside
``v1alpha``, and the files it serves carry the .proto files' comments (source info), so
``grpcurl describe`` shows them.

The v1 client is a raw stub: v1's messages are v1alpha's, renamed, with the same fields and
numbers, so v1alpha's message classes encode v1's bytes; only the method path differs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection_pb2
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)

PROTOS = Path(__file__).resolve().parent.parent / "protos" / "cpsolver" / "v1"
V1 = "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo"
V1ALPHA = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"


def _comment_above(proto: str, declaration: str) -> str:
    """The ``//`` comment lines just above ``declaration`` in ``PROTOS/proto``, as protoc
    stores them (each line without ``//``, newline-terminated)."""
    lines = (PROTOS / proto).read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith(declaration))
    comment: list[str] = []
    for line in reversed(lines[:at]):
        if not line.strip().startswith("//"):
            break
        comment.insert(0, line.strip()[2:] + "\n")
    assert comment, f"no comment above {declaration}"
    return "".join(comment)


def _ask(
    channel: grpc.Channel, path: str, **request: str
) -> reflection_pb2.ServerReflectionResponse:
    call = channel.stream_stream(
        path,
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    (reply,) = call(iter([reflection_pb2.ServerReflectionRequest(**request)]), timeout=30)
    return reply


def _files(
    reply: reflection_pb2.ServerReflectionResponse,
) -> dict[str, descriptor_pb2.FileDescriptorProto]:
    assert reply.WhichOneof("message_response") == "file_descriptor_response", reply
    protos = [
        descriptor_pb2.FileDescriptorProto.FromString(data)
        for data in reply.file_descriptor_response.file_descriptor_proto
    ]
    return {p.name: p for p in protos}


def _comments(file: descriptor_pb2.FileDescriptorProto) -> set[str]:
    return {loc.leading_comments for loc in file.source_code_info.location if loc.leading_comments}


@pytest.fixture(scope="module")
def channel(grpc_channel: grpc.Channel) -> Iterator[grpc.Channel]:
    yield grpc_channel


@pytest.mark.parametrize("path", [V1, V1ALPHA])
def test_both_reflection_versions_list_every_service(channel: grpc.Channel, path: str) -> None:
    reply = _ask(channel, path, list_services="")
    names = {s.name for s in reply.list_services_response.service}
    assert {
        "cpsolver.v1.ChinesePokerService",
        "cpsolver.v1.ChlustService",
        "cpsolver.v1.ThreeLeavesService",
        "cpsolver.v1.OpenFaceService",
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
    } == names


@pytest.mark.parametrize("path", [V1, V1ALPHA])
def test_served_files_carry_the_proto_comments(channel: grpc.Channel, path: str) -> None:
    files = _files(_ask(channel, path, file_containing_symbol="cpsolver.v1.SolveRequest"))
    # The file and its imports, every one with its comments.
    assert {"cpsolver/v1/chinese_poker.proto", "cpsolver/v1/cards.proto",
            "google/rpc/status.proto"} <= set(files)  # fmt: skip
    comments = _comments(files["cpsolver/v1/chinese_poker.proto"])
    assert _comment_above("chinese_poker.proto", "rpc Solve(") in comments
    assert _comment_above("chinese_poker.proto", "message SolveRequest") in comments
    assert _comment_above("cards.proto", "message Card ") in _comments(
        files["cpsolver/v1/cards.proto"]
    )
    leaves = _files(_ask(channel, path, file_by_filename="cpsolver/v1/three_leaves.proto"))
    assert _comment_above("three_leaves.proto", "message LeavesHand") in _comments(
        leaves["cpsolver/v1/three_leaves.proto"]
    )


def test_a_reflection_client_describes_the_api_with_comments(channel: grpc.Channel) -> None:
    """grpcio-reflection's client database (what grpcurl does): a pool built from it resolves
    the services, and the files it got carry their comments."""
    database = ProtoReflectionDescriptorDatabase(channel)
    pool = descriptor_pool.DescriptorPool(database)
    solve = pool.FindServiceByName("cpsolver.v1.ChinesePokerService").methods_by_name["Solve"]
    assert solve.input_type.full_name == "cpsolver.v1.SolveRequest"
    file = database.FindFileContainingSymbol("cpsolver.v1.ChlustService")
    comment = _comment_above("chlust.proto", "service ChlustService")
    assert comment in _comments(file)
    assert re.search(r"\w", comment)


def test_v1_describes_itself_and_unknown_symbols_are_not_found(channel: grpc.Channel) -> None:
    files = _files(_ask(channel, V1, file_containing_symbol="grpc.reflection.v1.ServerReflection"))
    (file,) = files.values()
    assert file.package == "grpc.reflection.v1"
    assert file.service[0].method[0].input_type == ".grpc.reflection.v1.ServerReflectionRequest"
    reply = _ask(channel, V1, file_containing_symbol="cpsolver.v1.NoSuchMessage")
    assert reply.error_response.error_code == grpc.StatusCode.NOT_FOUND.value[0]
