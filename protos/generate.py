"""Generate the Python gRPC code beside the .proto files in ``protos/cpsolver/v1/``.

The generated modules are installed as ``cpsolver.v1`` (pyproject's ``package-dir``), so their
own imports (``from cpsolver.v1 import cards_pb2``) hold. The code is committed;
``tests/test_protos.py`` regenerates it into a temporary directory with the installed
grpcio-tools and fails when the committed files differ (never hand-edit them).
Beside the modules it writes ``descriptors.binpb``: a FileDescriptorSet of the protos and
their imports *with source info* (the comments), installed as package data of ``cpsolver.v1``;
the server's reflection serves its files from it (``cpsolver.server.reflection``), so
``grpcurl describe`` shows the comments (the generated modules keep none).
The same include path builds a descriptor set for ``buf lint`` (``--descriptor-set``), so the
lint sees the well-known imports (``google/rpc/status.proto``) without fetching anything.

    python protos/generate.py                 # regenerate into protos/cpsolver/v1
    python protos/generate.py --out DIR       # regenerate elsewhere (the freshness test)
    python protos/generate.py --descriptor-set FILE
"""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "protos"
DESCRIPTORS = "descriptors.binpb"  # in cpsolver/v1/, the served descriptors with comments
SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py", DESCRIPTORS)


def proto_files() -> list[str]:
    """The project's .proto files, relative to ``protos/`` (sorted: stable output)."""
    return sorted(str(p.relative_to(PROTO_ROOT)) for p in PROTO_ROOT.rglob("*.proto"))


def include_paths() -> list[str]:
    """protos/, protobuf's well-known types (from grpcio-tools) and googleapis-common-protos."""
    import google.rpc  # googleapis-common-protos ships status.proto and error_details.proto
    import grpc_tools

    well_known = resources.files(grpc_tools) / "_proto"
    googleapis = Path(next(iter(google.rpc.__path__))).parent.parent
    return [str(PROTO_ROOT), str(well_known), str(googleapis)]


# Also in the descriptor set, though no .proto of ours imports them: the types of the rich
# error details our errors carry, so a client reading the set (Envoy's gRPC-JSON transcoder
# turning a status into JSON, deploy/envoy/envoy.yaml) can decode them.
DETAIL_TYPES = ["google/rpc/status.proto", "google/rpc/error_details.proto"]


def _protoc(args: list[str], extra: list[str] | None = None) -> None:
    from grpc_tools import protoc

    includes = [f"-I{path}" for path in include_paths()]
    code = protoc.main(["grpc_tools.protoc", *includes, *args, *proto_files(), *(extra or [])])
    if code != 0:
        raise SystemExit(f"protoc failed with exit code {code}")


def generate(out: Path) -> list[Path]:
    """Write the generated modules under ``out`` (``out/cpsolver/v1/*_pb2*.py[i]``) and the
    descriptor set with source info the server's reflection serves
    (``out/cpsolver/v1/descriptors.binpb``)."""
    out.mkdir(parents=True, exist_ok=True)
    _protoc([f"--python_out={out}", f"--pyi_out={out}", f"--grpc_python_out={out}"])
    descriptor_set(out / "cpsolver" / "v1" / DESCRIPTORS)
    return sorted(p for p in (out / "cpsolver").rglob("*") if p.name.endswith(SUFFIXES))


def descriptor_set(path: Path) -> None:
    """Write a FileDescriptorSet with imports and source info (the input of ``buf lint``)."""
    _protoc([f"--descriptor_set_out={path}", "--include_imports", "--include_source_info"],
            DETAIL_TYPES)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=PROTO_ROOT, help="output root (protos/)")
    parser.add_argument("--descriptor-set", type=Path, help="write a descriptor set instead")
    args = parser.parse_args()
    if args.descriptor_set:
        descriptor_set(args.descriptor_set)
        return
    if args.out == PROTO_ROOT:
        # Remove stale modules of deleted protos before writing the new ones.
        for old in (PROTO_ROOT / "cpsolver").rglob("*"):
            if old.name.endswith(SUFFIXES):
                old.unlink()
    for path in generate(args.out):
        print(path.relative_to(args.out), file=sys.stderr)


if __name__ == "__main__":
    main()
