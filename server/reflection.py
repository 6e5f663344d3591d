"""Server reflection, ``grpc.reflection.v1`` and ``grpc.reflection.v1alpha``, with comments.

grpcio-reflection serves the descriptors of the process's default pool, which the generated
modules fill without source info, so a reflection client (``grpcurl describe``) saw bare
fields; and it offers only ``v1alpha``. Here the files come from ``descriptors.binpb``, the
descriptor set with source info that ``make protos`` writes beside the generated code
(``protos/generate.py``, package data of ``cpsolver.v1``), and the same servicer answers both
versions: ``grpc.reflection.v1`` is ``v1alpha`` renamed, message for message and field for
field (the same bytes on the wire), so it is registered with v1alpha's codecs under v1's name,
and its descriptor (v1alpha's, renamed) is in the pool for clients that describe it.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources
from typing import Any

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_health.v1 import health_pb2
from grpc_reflection.v1alpha import reflection, reflection_pb2, reflection_pb2_grpc

__all__ = ["SERVICE_NAMES", "enable_reflection", "served_files"]

V1ALPHA = reflection.SERVICE_NAME  # grpc.reflection.v1alpha.ServerReflection
V1 = "grpc.reflection.v1.ServerReflection"
SERVICE_NAMES = (V1, V1ALPHA)
DESCRIPTORS = "descriptors.binpb"


def _v1_file() -> descriptor_pb2.FileDescriptorProto:
    """grpc/reflection/v1/reflection.proto: v1alpha's file with the package renamed."""
    alpha = descriptor_pb2.FileDescriptorProto.FromString(reflection_pb2.DESCRIPTOR.serialized_pb)
    old, new = alpha.package, "grpc.reflection.v1"
    v1 = descriptor_pb2.FileDescriptorProto()
    v1.CopyFrom(alpha)
    v1.name = "grpc/reflection/v1/reflection.proto"
    v1.package = new
    v1.ClearField("options")

    def rename(name: str) -> str:
        return name.replace(f".{old}.", f".{new}.", 1)

    def fix(message: descriptor_pb2.DescriptorProto) -> None:
        for field in message.field:
            if field.type_name:
                field.type_name = rename(field.type_name)
        for nested in message.nested_type:
            fix(nested)

    for message in v1.message_type:
        fix(message)
    for service in v1.service:
        for method in service.method:
            method.input_type = rename(method.input_type)
            method.output_type = rename(method.output_type)
    return v1


def served_files() -> dict[str, bytes]:
    """Every file the reflection serves, by name, as serialized ``FileDescriptorProto``s: the
    project's protos and their imports with source info, health and both reflections."""
    data = (resources.files("cpsolver.v1") / DESCRIPTORS).read_bytes()
    files = {
        f.name: f.SerializeToString()
        for f in descriptor_pb2.FileDescriptorSet.FromString(data).file
    }
    for module in (health_pb2, reflection_pb2):
        files.setdefault(module.DESCRIPTOR.name, module.DESCRIPTOR.serialized_pb)
    v1 = _v1_file()
    files[v1.name] = v1.SerializeToString()
    return files


class _Servicer(reflection.ReflectionServicer):  # type: ignore[misc]
    """grpcio-reflection's servicer, answering files with the stored bytes (source info kept:
    the library re-serializes pool descriptors, which drops it)."""

    def __init__(self, service_names: Iterable[str], files: dict[str, bytes]) -> None:
        pool = descriptor_pool.DescriptorPool()
        added: set[str] = set()

        def add(name: str) -> None:  # dependencies first
            if name in added:
                return
            proto = descriptor_pb2.FileDescriptorProto.FromString(files[name])
            for dependency in proto.dependency:
                add(dependency)
            pool.AddSerializedFile(files[name])
            added.add(name)

        for name in files:
            add(name)
        super().__init__(service_names, pool=pool)
        self._files = files

    def _response(self, file: Any, request: Any) -> Any:
        names: list[str] = []

        def walk(d: Any) -> None:
            if d.name not in names:
                names.append(d.name)
                for dependency in d.dependencies:
                    walk(dependency)

        walk(file)
        return reflection_pb2.ServerReflectionResponse(
            file_descriptor_response=reflection_pb2.FileDescriptorResponse(
                file_descriptor_proto=[self._files[name] for name in names]
            ),
            original_request=request,
        )

    def _file_by_filename(self, request: Any, filename: str) -> Any:
        try:
            return self._response(self._pool.FindFileByName(filename), request)
        except KeyError:
            return super()._file_by_filename(request, filename)  # the library's NOT_FOUND

    def _file_containing_symbol(self, request: Any, fully_qualified_name: str) -> Any:
        try:
            return self._response(
                self._pool.FindFileContainingSymbol(fully_qualified_name), request
            )
        except KeyError:
            return super()._file_containing_symbol(request, fully_qualified_name)

    def _file_containing_extension(
        self, request: Any, containing_type: str, extension_number: int
    ) -> Any:
        try:
            message = self._pool.FindMessageTypeByName(containing_type)
            extension = self._pool.FindExtensionByNumber(message, extension_number)
            file = self._pool.FindFileContainingSymbol(extension.full_name)
        except KeyError:
            return super()._file_containing_extension(request, containing_type, extension_number)
        return self._response(file, request)


def enable_reflection(service_names: Iterable[str], server: grpc.Server) -> None:
    """Serve reflection v1 and v1alpha on ``server`` for ``service_names`` (the reflection
    services list themselves too)."""
    servicer = _Servicer([*service_names, *SERVICE_NAMES], served_files())
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    v1 = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(V1, {"ServerReflectionInfo": v1}),)
    )
