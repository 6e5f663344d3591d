"""``make run`` (issue 27, #18): it installs what serving needs and nothing else, its first
start compiles every kernel once (not once in the supervisor and again in each worker), and
the commands its ready line prints run as printed.

``make -n`` prints the Makefile's commands without running them (nothing is installed by
these tests); the server is started with the very command ``make run`` runs (with ``PORT=0``),
from this test run's venv.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import clean_env, running_server

ROOT = Path(__file__).resolve().parent.parent
VENV = Path(sys.executable).parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
# What issue 27 found in make run's venv, none of which serving needs.
NOT_FOR_SERVING = {"ray", "pytest", "kubernetes-validate", "pandas", "ortools", "mypy", "ruff"}


def _dry_run(target: str, **variables: str) -> list[str]:
    assigned = [f"{name}={value}" for name, value in variables.items()]
    done = subprocess.run(
        ["make", "-n", "-C", str(ROOT), target, *assigned],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return [line for line in done.stdout.splitlines() if not line.startswith("make")]


def _installed_extras(commands: list[str]) -> set[str]:
    """The extras of every ``pip install -e '.[...]'`` among ``commands``."""
    extras: set[str] = set()
    for line in commands:
        if "pip install" in line:
            for group in re.findall(r"\.\[([\w,]+)\]", line):
                extras.update(group.split(","))
    return extras


def _requirements(extras: set[str]) -> set[str]:
    """The distributions the package and ``extras`` pull in (extras of extras followed)."""
    names: set[str] = set()
    todo = list(extras)
    seen: set[str] = set()
    requirements = list(PYPROJECT["project"]["dependencies"])
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for requirement in PYPROJECT["project"]["optional-dependencies"][extra]:
            nested = re.fullmatch(r"cpsolver\[([\w,]+)\]", requirement)
            if nested:
                todo.extend(nested.group(1).split(","))
            else:
                requirements.append(requirement)
    for requirement in requirements:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement)
        assert name is not None
        names.add(name.group(0).lower())
    return names


def test_make_run_installs_what_serving_needs_and_no_test_tools(tmp_path: Path) -> None:
    fresh = str(tmp_path / "venv")  # no venv yet: make would create and fill it
    run = _dry_run("run", VENV=fresh)
    extras = _installed_extras(run)
    assert extras == {"grpc"}, run
    assert not _requirements(extras) & NOT_FOR_SERVING
    assert {"grpcio", "grpcio-reflection", "grpcio-health-checking"} <= _requirements(extras)
    # make test still installs everything, the test tools included.
    assert _installed_extras(_dry_run("test", VENV=fresh)) == {"all", "test"}
    assert {"ray", "pytest"} <= _requirements({"all", "test"})


def _make_run_command() -> str:
    """The command ``make run`` runs to serve (this venv's cpsolver), on a free port."""
    (line,) = [c for c in _dry_run("run", VENV=str(VENV), PORT="0") if " serve " in c]
    assert "--port 0" in line and line.startswith(str(VENV)), line
    return line


def test_the_commands_to_try_run_as_printed(tmp_path: Path) -> None:
    """The ready line's commands, run by a shell in another directory with PATH as a user's
    (without the venv's bin: make run does not activate it), succeed against the server."""
    path = os.pathsep.join(
        p for p in os.environ.get("PATH", "").split(os.pathsep) if Path(p) != VENV / "bin"
    )
    env = {**clean_env(), "PATH": path}
    args = [*shlex.split(_make_run_command()), "--workers", "1"]
    server = subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert server.stderr is not None
        ready = None
        for line in server.stderr:  # JSON log lines (stderr is not a terminal)
            event = json.loads(line)
            if event.get("event") == "ready":
                ready = event
                break
        assert ready is not None, "the server exited before it was ready"
        commands = ready["try"]
        assert len(commands) >= 2
        for command in commands:
            done = subprocess.run(
                ["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True,
                timeout=120, check=False,
            )  # fmt: skip
            assert done.returncode == 0, (command, done.stdout, done.stderr)
            assert done.stdout.strip(), command
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.communicate()
    outputs = "\n".join(commands)
    assert " solve --server " in outputs and " health --server " in outputs


def _saved(stdout: list[str]) -> list[str]:
    """The cache files numba wrote (NUMBA_DEBUG_CACHE: one line per kernel compiled)."""
    return [line.split(" to ", 1)[1] for line in stdout if line.startswith("[cache] data saved to")]


@pytest.mark.slow
def test_a_first_start_compiles_each_kernel_once(tmp_path: Path) -> None:
    """An empty kernel cache and two workers: the supervisor compiles what it may load, a
    process of its own the parallel kernels, and the workers compile nothing."""
    cache = tmp_path / "kernels"
    env = clean_env(NUMBA_CACHE_DIR=str(cache), NUMBA_DEBUG_CACHE="1")
    for start in ("first", "second"):
        with running_server("--workers", "2", "--log-format", "json", env=env) as server:
            pass
        events = [json.loads(line) for line in server.stderr if line.startswith("{")]
        warm = [e for e in events if "kernels_compiled" in e]
        assert len(warm) == 2, [e.get("msg") for e in events]  # one per worker
        assert [e["kernels_compiled"] for e in warm] == [0, 0], start
        saved = _saved(server.stdout)  # the supervisor's and the workers' (not the helper's)
        assert len(saved) == len(set(saved)), "a kernel was compiled twice"
        helper = [e for e in events if "parallel kernels once" in e.get("msg", "")]
        if start == "first":
            assert saved and len(helper) == 1
            assert all(e["kernels_loaded"] >= 2 for e in warm)  # the helper's, from the cache
        else:
            assert saved == [] and helper == []  # everything loaded from the cache
    indexes = {p.name.split("-")[0] for p in cache.rglob("*.nbi")}
    assert {"search._batch", "search._batch_removal_parallel"} <= indexes
