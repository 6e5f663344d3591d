"""The wheel as an embedder installs it: ``pip wheel``, a fresh venv without extras, then the
same wheel with ``[grpc]``.

A bot backend that has its own ``server.py`` and ``client/`` package embeds cpsolver from its
own directory: nothing of the distribution may land at the top level of site-packages (RECORD)
or shadow the backend's modules, the base install must solve and score without gRPC or
OR-Tools, each feature of a missing extra must fail with one line naming the extra, and with
``[grpc]`` a real ``cpsolver serve`` must give the in-process answer through
``cpsolver.client.connect``.

Slow: one build and two installs (from the registry or pip's cache), and numba compiling the
kernels afresh in the new environment.
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
VERSION = PYPROJECT["project"]["version"]
DIST_INFO = f"cpsolver-{VERSION}.dist-info"
EXTRA_DISTRIBUTIONS = {
    "grpcio",
    "grpcio-health-checking",
    "grpcio-reflection",
    "grpcio-status",
    "protobuf",
    "googleapis-common-protos",
    "ortools",
}
HAND = "As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"

BACKEND_SERVER = '''"""The bot backend's own server module."""
OWNER = "bot"
'''
BACKEND_CLIENT = '''"""The bot backend's own client package."""
OWNER = "bot"
'''

# Run from the backend's directory (its own server.py and client/ first on sys.path): solve and
# score in-process, and through cpsolver.client.connect(ADDRESS) when one is given.
BOT = """
import json, sys

import cpsolver
from cpsolver.client import connect
from cpsolver.errors import MissingExtraError

HAND = {hand!r}
address = sys.argv[1] if len(sys.argv) > 1 else None


def answers(solver):
    solution = solver.solve(HAND, objective="strength")
    table = solver.score(
        {{"N": solution, "S": {{"back": "Ah Ad Ac 2h 2d", "middle": "Ks Qs Js Ts 8s",
                             "front": "Kh Kc 4c"}}}}
    )
    return {{"solution": solution.to_dict(), "table": table.to_dict()}}


result = {{"local": answers(connect(None))}}
try:
    with connect(address or "127.0.0.1:1") as remote:
        result["remote"] = answers(remote) if address else None
        if address:  # the server has no [cpsat]: the same MissingExtraError comes back
            try:
                remote.solve(HAND, objective="strength", engine="cpsat")
            except MissingExtraError as exc:
                result["remote_cpsat"] = [str(exc), exc.extra, exc.feature]
except MissingExtraError as exc:
    result["connect_error"] = [str(exc), exc.extra, isinstance(exc, ImportError)]
# cpsolver imported neither of the backend's modules, and they are still the backend's own.
result["imported_backend"] = sorted({{"server", "client"}} & set(sys.modules))
import client, server
result["owners"] = [server.OWNER, client.OWNER]
print(json.dumps(result))
"""


@dataclass
class Venv:
    root: Path
    wheel: Path
    backend: Path

    @property
    def python(self) -> str:
        return str(self.root / "bin" / "python")

    def pip(self, *args: str) -> str:
        # The test environment's pip installs into the venv (--python): no pip inside it needed.
        run = subprocess.run(
            [sys.executable, "-m", "pip", "--python", self.python, *args],
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0, run.stdout + run.stderr
        return run.stdout

    def installed(self) -> set[str]:
        listed = json.loads(self.pip("list", "--format", "json"))
        return {entry["name"].lower() for entry in listed}

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``args`` run in the backend's directory (``python`` and ``cpsolver`` are the venv's)."""
        command = [str(self.root / "bin" / args[0]), *args[1:]]
        return subprocess.run(command, capture_output=True, text=True, cwd=self.backend)

    def bot(self, address: str | None = None) -> dict[str, object]:
        run = self.run("python", "bot.py", *([address] if address else []))
        assert run.returncode == 0, run.stderr
        answer: dict[str, object] = json.loads(run.stdout.splitlines()[-1])
        return answer


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Built from a copy of the tree: a build in place leaves build/ behind, whose stale files a
    # later wheel could pick up.
    source = tmp_path_factory.mktemp("source") / "cpsolver"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache",
            ".hypothesis", "*.nbi", "*.nbc",
        ),
    )  # fmt: skip
    out = tmp_path_factory.mktemp("wheel")
    run = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), source],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    (out / "build.log").write_text(run.stdout + run.stderr)  # what pip printed, --quiet
    (built,) = out.glob("cpsolver-*.whl")
    return built


def test_the_build_warns_about_nothing_in_the_packages_configuration(wheel: Path) -> None:
    """pyproject's explicit ``packages`` covers every importable folder of the mapped trees
    (issue 27: ``Package 'cpsolver.data' is absent from the packages configuration``, about
    45 lines per install, through ``pip --quiet``)."""
    log = (wheel.parent / "build.log").read_text()
    assert "absent from the `packages` configuration" not in log, log


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Iterator[Venv]:
    """A fresh venv with the wheel installed without extras, and the backend's directory.
    The tests below run in file order: the ones without extras, then the one adding [grpc]."""
    root = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    backend = tmp_path_factory.mktemp("backend")
    (backend / "server.py").write_text(BACKEND_SERVER)
    (backend / "client").mkdir()
    (backend / "client" / "__init__.py").write_text(BACKEND_CLIENT)
    (backend / "bot.py").write_text(BOT.format(hand=HAND))
    env = Venv(root, wheel, backend)
    env.pip("install", "--quiet", str(wheel))
    yield env


def test_the_wheel_holds_every_module_under_cpsolver_only(wheel: Path) -> None:
    """Every .py file of the folders pyproject maps (package-dir) is in the wheel at its import
    path, so a sub-package missing from pyproject's explicit ``packages`` fails here."""
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = set()
    for package, folder in PYPROJECT["tool"]["setuptools"]["package-dir"].items():
        base = ROOT / folder
        for path in base.rglob("*.py"):
            if "__pycache__" not in path.parts:
                expected.add("/".join([*package.split("."), *path.relative_to(base).parts]))
    assert len(expected) > 50  # the folders were found
    assert sorted(expected - names) == []
    assert {"cpsolver/py.typed", "cpsolver/client/py.typed", "cpsolver/server/py.typed"} <= names
    assert "cpsolver/v1/descriptors.binpb" in names  # what reflection serves (comments)
    tables = sorted(p.name for p in (ROOT / "solver" / "data").glob("*.npz"))
    assert tables and all(f"cpsolver/data/{name}" in names for name in tables)
    assert {name.split("/")[0] for name in names} == {"cpsolver", DIST_INFO}


def test_base_install_solves_and_scores_without_grpc_or_ortools(venv: Venv) -> None:
    installed = venv.installed()
    assert {"cpsolver", "numpy", "numba", "click", "rich"} <= installed
    assert sorted(installed & EXTRA_DISTRIBUTIONS) == []

    # RECORD: the package, its dist-info and the console script, nothing else at the top level.
    (record,) = venv.root.glob(f"lib/python*/site-packages/{DIST_INFO}/RECORD")
    with record.open(newline="") as handle:
        paths = [row[0] for row in csv.reader(handle)]
    tops = {path.split("/")[0] for path in paths if not path.startswith("../")}
    assert tops == {"cpsolver", DIST_INFO}
    assert [path for path in paths if path.startswith("../")] == ["../../../bin/cpsolver"]

    answer = venv.bot()
    local = answer["local"]
    assert local["solution"]["arrangement"] == {  # type: ignore[index]
        "back": ["5s", "4h", "3c", "2s", "As"],  # the wheel, as README's example finds
        "middle": ["9d", "9s", "Kd", "Qh", "Jc"],
        "front": ["8h", "7c", "5d"],
    }
    assert local["table"]["totals"] == {"N": -3, "S": 3}  # type: ignore[index]
    assert answer["connect_error"] == [
        "the gRPC client needs the grpc extra: pip install 'cpsolver[grpc]'",
        "grpc",
        True,
    ]
    assert answer["imported_backend"] == []
    assert answer["owners"] == ["bot", "bot"]


@pytest.mark.parametrize(
    ("args", "extra", "feature"),
    [
        (("solve", HAND, "--server", "127.0.0.1:1"), "grpc", "the gRPC client"),
        (("serve", "--port", "0"), "grpc", "cpsolver serve"),
        (("health", "--server", "127.0.0.1:1"), "grpc", "cpsolver health"),  # issue 27, D9
        (("solve", HAND, "--engine", "cpsat", "--objective", "strength"), "cpsat",
         "the cpsat engine"),
        (("train", "--ray", "auto", "--deals", "1"), "cluster", "running on Ray (--ray)"),
    ],
)  # fmt: skip
def test_a_missing_extra_is_one_line_and_exit_4(
    venv: Venv, args: tuple[str, ...], extra: str, feature: str
) -> None:
    run = venv.run("cpsolver", *args)
    assert (run.returncode, run.stdout) == (4, "")
    assert (
        run.stderr == f"error: {feature} needs the {extra} extra: pip install 'cpsolver[{extra}]'\n"
    )


@pytest.mark.parametrize("module", ["cpsolver.v1", "cpsolver.v1.chinese_poker_pb2"])
def test_the_generated_code_without_protobuf_names_the_extra(venv: Venv, module: str) -> None:
    """Issue 27, D9: not a bare ``No module named 'google'`` from inside the generated code."""
    code = (
        "import importlib, sys\n"
        "try:\n"
        f"    importlib.import_module({module!r})\n"
        "except ImportError as exc:\n"
        "    print(type(exc).__name__, exc, sep=': ')\n"
    )
    run = venv.run("python", "-c", code)
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout == (
        "MissingExtraError: the generated gRPC code (cpsolver.v1) needs the grpc extra: "
        "pip install 'cpsolver[grpc]'\n"
    )


def test_grpc_extra_serves_the_in_process_answer(venv: Venv, serve_grpc) -> None:  # type: ignore[no-untyped-def]
    venv.pip("install", "--quiet", f"{venv.wheel}[grpc]")
    installed = venv.installed()
    assert {"grpcio", "protobuf", "grpcio-status"} <= installed
    assert "ortools" not in installed
    # Started from the backend's directory too (its server.py first on sys.path).
    with serve_grpc("--workers", "1", python=venv.python, cwd=str(venv.backend)) as server:
        answer = venv.bot(server.address)
    assert answer["remote"] == answer["local"]
    assert answer["remote_cpsat"] == [
        "the cpsat engine needs the cpsat extra: pip install 'cpsolver[cpsat]'",
        "cpsat",
        "the cpsat engine",
    ]
    assert answer["imported_backend"] == []
    assert answer["owners"] == ["bot", "bot"]
