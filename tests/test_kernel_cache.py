"""Cold start: ``cpsolver compile DIR`` fills a kernel cache, and a server started with
``CPSOLVER_KERNEL_CACHE=DIR`` loads it, read-only as in a container, without compiling.

Read-only is real here: the server runs under ``setpriv`` without the capabilities that let
root write anywhere (CAP_DAC_OVERRIDE...), so a ``chmod a-w`` directory is read-only to it, as
the image's root filesystem is to a non-root container user.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import NO_OVERRIDE, clean_env, running_server
from helpers import wire

from cpsolver.v1 import chinese_poker_pb2, chinese_poker_pb2_grpc

CPSOLVER = Path(sys.executable).with_name("cpsolver")
HAND = "As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


def test_compile_reports_every_step(kernel_cache: Path) -> None:
    """``cpsolver compile`` said what it did, step by step (the fixture kept its output)."""
    log = (kernel_cache.parent / "compile.log").read_text()
    steps = [line for line in log.splitlines() if re.match(r"\d+/\d+ ", line)]
    assert steps[0].startswith("1/5 ") and steps[-1].startswith("5/5 "), log
    assert "cached kernel files" in log and str(kernel_cache) in log


def test_compile_caches_every_kernel_module(kernel_cache: Path) -> None:
    names = {Path(f).name.split(".")[0] for f in _files(kernel_cache) if f.endswith(".nbi")}
    assert {"search", "select", "ev_kernel", "simulate"} <= names


def test_a_server_loads_a_read_only_cache_without_compiling(kernel_cache: Path) -> None:
    before = _files(kernel_cache)
    # NUMBA_DEBUG_CACHE: numba prints where it loads (or saves) each kernel, on stdout.
    env = clean_env(CPSOLVER_KERNEL_CACHE=str(kernel_cache), NUMBA_DEBUG_CACHE="1")
    with (
        running_server(
            "--workers", "1", "--log-format", "json", env=env, wrap=NO_OVERRIDE
        ) as server,
        server.channel() as channel,
    ):
        stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel)
        request = chinese_poker_pb2.SolveRequest(cards=wire(HAND))
        assert len(stub.Solve(request, timeout=60).arrangement.back) == 5
    messages = [json.loads(line).get("msg", "") for line in server.stderr]
    used = [m for m in messages if m.startswith("kernel cache: ")]
    assert len(used) == 1, used
    copy = Path(used[0].removeprefix("kernel cache: "))
    assert copy != kernel_cache and "cpsolver-kernels-" in copy.name
    steps = [
        "warm-up 1/5: building the evaluator tables",
        "warm-up 2/5: compiling the search kernels",
        "warm-up 3/5: compiling the expected-value kernels",
        "warm-up 4/5: loading the expected-value tables of every rule set",
        "warm-up 5/5: compiling the open-face kernels",
    ]
    before_fork = " (before forking the workers)"
    progress = [m for m in messages if re.match(r"warm-up \d/5: ", m)]
    # The supervisor loads what is safe to fork with, then the worker the rest.
    assert progress == [s + before_fork for s in steps] + steps
    assert _files(kernel_cache) == before
    cache_lines = [line for line in server.stdout if line.startswith("[cache]")]
    loaded = [line for line in cache_lines if line.startswith("[cache] data loaded from ")]
    assert len(loaded) >= 10, cache_lines[:5]
    assert all(str(copy) in line for line in loaded), [x for x in loaded if str(copy) not in x]
    assert not any("saved" in line for line in cache_lines), "a kernel was compiled"
    assert not copy.exists(), "the private copy outlives the server"


def _configure(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = "from cpsolver.kernel_cache import configure; print(configure())"
    return subprocess.run(
        [*NO_OVERRIDE, sys.executable, "-c", code], env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip


def test_a_writable_cache_is_used_in_place_and_numba_cache_dir_wins(tmp_path: Path) -> None:
    run = _configure(clean_env(CPSOLVER_KERNEL_CACHE=str(tmp_path)))
    assert run.stdout.strip() == str(tmp_path), run.stderr
    run = _configure(clean_env(CPSOLVER_KERNEL_CACHE=str(tmp_path), NUMBA_CACHE_DIR="/elsewhere"))
    assert run.stdout.strip() == "/elsewhere", run.stderr


def test_a_read_only_cache_is_copied_into_tmpdir(tmp_path: Path) -> None:
    baked, tmp = tmp_path / "baked", tmp_path / "tmp"
    (baked / "sub").mkdir(parents=True)
    (baked / "sub" / "kernel.nbi").write_bytes(b"index")
    tmp.mkdir()
    subprocess.run(["chmod", "-R", "a-w", str(baked)], check=True)
    code = (
        "import os; from pathlib import Path; from cpsolver.kernel_cache import configure; "
        "copy = configure(); print(copy); print((copy / 'sub' / 'kernel.nbi').read_bytes()); "
        "print(os.access(copy / 'sub', os.W_OK))"
    )
    run = subprocess.run(
        [*NO_OVERRIDE, sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
        env=clean_env(CPSOLVER_KERNEL_CACHE=str(baked), TMPDIR=str(tmp)),
    )  # fmt: skip
    copy, content, writable = run.stdout.split()
    assert Path(copy).parent == tmp and content == "b'index'" and writable == "True", run.stderr
    assert not Path(copy).exists(), "the copy is removed when its process exits"
    subprocess.run(["chmod", "-R", "u+w", str(baked)], check=True)


def test_no_writable_temporary_directory_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Every temporary directory read-only (cannot be arranged for root here: mkdtemp fails)."""
    from cpsolver import kernel_cache

    def refuse(*args: object, **kwargs: object) -> str:
        raise PermissionError(13, "Permission denied", "/tmp")

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("CPSOLVER_KERNEL_CACHE", str(tmp_path / "baked"))
    monkeypatch.setattr(kernel_cache, "_writable", lambda path: False)
    monkeypatch.setattr(kernel_cache.tempfile, "mkdtemp", refuse)
    with pytest.raises(RuntimeError, match=r"is read-only and no temporary directory .* TMPDIR"):
        kernel_cache.configure()
