"""The layers import only downwards (docs/ARCHITECTURE.md).

``solver/`` (``cpsolver``) is the library: no gRPC, no protobuf, nothing above it.
``wire/`` (``cpsolver.wire``) holds the codecs and the error mapping that ``client/`` and
``server/`` share; it imports the library and the generated code, never the client or the
server. ``server/`` never imports ``client/``, and ``client/`` never imports ``server/``: the
``cpsolver serve`` command is the server's (``server/cli.py``), added to the CLI through the
entry point group ``cpsolver.commands``. Only ``client/remote.py`` talks gRPC, so the
in-process client (``connect(None)``, ``LocalSolver``, the CLI without ``--server``) never loads
protobuf or the wire layer.

Every ``import`` statement counts, also those inside functions (the lazy ones).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {
    package: ROOT / folder
    for package, folder in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
        "setuptools"
    ]["package-dir"].items()
}

TRANSPORT = (
    "grpc",
    "grpc_status",
    "grpc_health",
    "grpc_reflection",
    "google.protobuf",
    "google.rpc",
)
# (folder's package, banned import prefixes, {file: allowed prefixes and why})
RULES: list[tuple[str, tuple[str, ...], dict[str, tuple[tuple[str, ...], str]]]] = [
    (
        "cpsolver",
        ("cpsolver.client", "cpsolver.server", "cpsolver.wire", "cpsolver.v1", *TRANSPORT),
        {},
    ),
    ("cpsolver.wire", ("cpsolver.client", "cpsolver.server"), {}),
    ("cpsolver.server", ("cpsolver.client",), {}),
    (
        "cpsolver.client",
        ("cpsolver.server", "cpsolver.wire", "cpsolver.v1", *TRANSPORT),
        {
            "remote.py": (("cpsolver.wire", "cpsolver.v1", *TRANSPORT), "the gRPC client"),
        },
    ),
]


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in the file, relative imports included as written."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, "." * node.level + (node.module or "")))
    return found


def _matches(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _files(package: str) -> list[Path]:
    """The package's own source files (not those of sub-packages mapped from other folders)."""
    folder = FOLDERS[package]
    others = [f for p, f in FOLDERS.items() if p != package and f.is_relative_to(folder)]
    return sorted(p for p in folder.rglob("*.py") if not any(p.is_relative_to(o) for o in others))


@pytest.mark.parametrize(("package", "banned", "allowed"), RULES, ids=[r[0] for r in RULES])
def test_layers_import_only_downwards(
    package: str, banned: tuple[str, ...], allowed: dict[str, tuple[tuple[str, ...], str]]
) -> None:
    files = _files(package)
    assert len(files) >= 5, f"found only {files} for {package}"
    wrong = []
    for path in files:
        name = path.relative_to(FOLDERS[package]).as_posix()
        exempt = allowed.get(name, ((), ""))[0]
        for line, module in _imports(path):
            assert not module.startswith("."), f"{name}:{line}: relative import {module}"
            if _matches(module, banned) and not _matches(module, exempt):
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {module}")
    assert not wrong, "imports against the layering:\n" + "\n".join(wrong)


def test_the_guard_sees_lazy_imports(tmp_path: Path) -> None:
    """An import inside a function is found (the client's remote imports are all lazy)."""
    source = tmp_path / "lazy.py"
    source.write_text("def f():\n    from cpsolver.server.main import serve\n")
    assert _imports(source) == [(2, "cpsolver.server.main")]
    assert _matches("cpsolver.server.main", ("cpsolver.server",))
    assert not _matches("cpsolver.serverless", ("cpsolver.server",))


def test_in_process_client_loads_no_wire_code() -> None:
    """``connect(None)`` solves, scores and plays without loading protobuf, gRPC, the wire
    layer or the server (checked in a fresh interpreter)."""
    script = (
        "import sys\n"
        "from cpsolver.client import connect\n"
        "s = connect(None)\n"
        "s.evaluate('Qs Qd 2c')\n"
        "s.solve('As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s', objective='strength')\n"
        "s.chlust.evaluate('Ah Kh Qh', 'h')\n"
        "s.leaves.evaluate('As Ks Qs', 's')\n"
        "loaded = sorted(m for m in sys.modules if m.startswith(("
        "'grpc', 'google.protobuf', 'google.rpc', 'cpsolver.wire', 'cpsolver.server',"
        " 'cpsolver.v1')))\n"
        "print(loaded)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True
    )
    assert run.stdout.strip() == "[]", run.stdout


def _private_imports(path: Path) -> list[tuple[int, str, str]]:
    """(line, module, name) of every ``from cpsolver.X import _name`` in the file (dunders
    aside): a module's ``_private`` names are its own."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cpsolver"):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append((node.lineno, node.module or "", alias.name))
    return found


def test_no_module_imports_another_modules_private_names() -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: from {module} import {name}"
        for package in FOLDERS
        for path in _files(package)
        for line, module, name in _private_imports(path)
    ]
    assert not wrong, "private names imported across modules:\n" + "\n".join(wrong)


def test_the_private_import_guard_sees_lazy_ones(tmp_path: Path) -> None:
    source = tmp_path / "lazy.py"
    source.write_text(
        "from cpsolver.cards import Card, __all__\n"
        "def f():\n    from cpsolver.chinese.search import _WEIGHTS\n"
    )
    assert _private_imports(source) == [(3, "cpsolver.chinese.search", "_WEIGHTS")]


def _module_name(package: str, path: Path) -> str:
    parts = path.relative_to(FOLDERS[package]).with_suffix("").parts
    return ".".join((package, *parts)).removesuffix(".__init__")


def test_the_solver_modules_import_no_cycle() -> None:
    """No two library modules import each other, lazily or not (``search`` warmed ``select``
    up while ``select`` imported ``search``; :mod:`cpsolver.warmup` above both does it now)."""
    graph: dict[str, set[str]] = {}
    for path in _files("cpsolver"):
        name = _module_name("cpsolver", path)
        graph[name] = {m for _, m in _imports(path) if m.startswith("cpsolver.") and m != name}
    both = sorted(
        f"{a} <-> {b}" for a, deps in graph.items() for b in deps if a < b and a in graph.get(b, ())
    )
    assert not both, "modules importing each other:\n" + "\n".join(both)
