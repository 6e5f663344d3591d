"""What importing cpsolver loads: never the optional parts (gRPC, protobuf, OR-Tools: extras a
base install lacks; Ray, only for ``--ray``), and not numba until a computation calls a kernel
(``cpsolver.jit``).

Each check runs in a fresh interpreter: this test process has imported everything already.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

WATCHED = ("numba", "grpc", "google.protobuf", "ortools", "ray")
HAND = "As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"
TABLE = {
    "N": {"back": "As Ad Ah Kc Kd", "middle": "Qs Qd Jc Jd 2c", "front": "3c 4d 5h"},
    "S": {"back": "Ts 9s 8s 7s 6s", "middle": "2s 2d 2h 7c 8d", "front": "Kh Qh 4c"},
}


def _loaded(code: str, cwd: Path | None = None) -> set[str]:
    """Which of WATCHED are in sys.modules after running ``code`` in a new interpreter."""
    report = f"import json, sys\nprint(json.dumps([m for m in {WATCHED!r} if m in sys.modules]))"
    probe = f"{code}\n{report}"
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=cwd, check=False
    )
    assert run.returncode == 0, run.stderr
    return set(json.loads(run.stdout.splitlines()[-1]))


@pytest.mark.parametrize(
    "module", ["cpsolver", "cpsolver.client", "cpsolver.client.cli", "cpsolver.cluster"]
)
def test_import_loads_neither_optional_parts_nor_numba(module: str) -> None:
    assert _loaded(f"import {module}") == set()


def test_evaluating_and_scoring_need_no_kernel() -> None:
    code = f"import cpsolver\ncpsolver.evaluate('Qs Qd 2c')\ncpsolver.score({TABLE!r})"
    assert _loaded(code) == set()


def test_the_first_solve_loads_numba_and_rebinds_every_kernel() -> None:
    """After the first solve the module globals are numba's dispatchers (no placeholder left in
    the path of a call), and still no optional part is loaded."""
    code = f"""
import cpsolver
from cpsolver.chinese import ev_kernel, search, select
cpsolver.solve({HAND!r}, objective="strength")
kernels = (search._search, search._batch, select._select, ev_kernel.settle_pair)
kinds = {{type(kernel).__name__ for kernel in kernels}}
assert kinds == {{"CPUDispatcher"}}, kinds
assert search.prange.__module__.startswith("numba"), search.prange
"""
    assert _loaded(code) == {"numba"}


KERNELS = """
from cpsolver.jit import njit

@njit(cache=False)
def inner(x):
    return x + 1

@njit(cache=False)
def outer(x):
    return 2 * inner(x)
"""


def test_a_kernel_held_outside_cpsolver_is_still_compiled_as_its_dispatcher(
    tmp_path: Path,
) -> None:
    """Globals of modules outside cpsolver are not rebound: numba must still type the
    placeholder ``inner`` that ``outer`` calls as inner's dispatcher (``_numba_type_``)."""
    (tmp_path / "kernels.py").write_text(KERNELS)
    code = """
import sys
import kernels
assert "numba" not in sys.modules
assert kernels.outer(20) == 42
assert type(kernels.inner).__name__ == "_Kernel" and kernels.inner(1) == 2
"""
    assert _loaded(code, cwd=tmp_path) == {"numba"}


def test_the_other_games_and_the_client_load_on_first_use() -> None:
    """``import cpsolver`` then ``cpsolver.chlust...`` (as the docs write it) works without
    importing the submodule by name, and loads no optional part; an unknown name is still an
    AttributeError; ``__version__`` is the installed distribution's."""
    code = """
import importlib.metadata
import cpsolver
assert cpsolver.chlust.deal and cpsolver.three_leaves and cpsolver.ofc.advise
assert cpsolver.client.connect
try:
    cpsolver.nope
except AttributeError as error:
    assert "nope" in str(error)
else:
    raise AssertionError("cpsolver.nope resolved")
assert cpsolver.__version__ == importlib.metadata.version("cpsolver"), cpsolver.__version__
"""
    assert _loaded(code) == set()
