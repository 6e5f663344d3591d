"""Training and bulk solving on Ray (``cpsolver[cluster]``, docs/EV.md): on a real local Ray
with 2 CPUs, the tables are bit for bit those of a local run with the same seed whatever the
number of workers, and a batch gives the same lines in the same order.

The Ray side runs in a fresh interpreter (``tests/ray_driver.py``, once for the module): it
starts a private Ray with its own temporary directory, does the work and reports it; the
tests do the same work here without Ray and compare. ``ray.init`` in this process timed out
waiting for its GCS server in full runs (never alone), and a stale
``/tmp/ray/ray_current_cluster`` of another run made it join a dead cluster; a subprocess
with ``RAY_TMPDIR`` of its own depends on neither.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import run_cli
from test_review import history

from cpsolver import solve_many
from cpsolver.chinese.review import review
from cpsolver.chinese.training import CHUNK, train
from cpsolver.client.local import LocalSolver
from cpsolver.errors import CardError
from cpsolver.rules.chinese import ChineseRules

DRIVER = Path(__file__).with_name("ray_driver.py")
RULES = {"players": 2, "scoring": "scoop_double"}
TRAIN: dict[str, Any] = {"deals": 2 * CHUNK + 40, "iterations": 1, "min_gain": 0.0}
"""Three chunks, the last one short: small enough for seconds, enough for chunk order."""
SEED = 7
TRAININGS = [("one_worker", 1, SEED), ("two_workers", 2, SEED), ("other_seed", 2, SEED + 1)]
HANDS = [
    "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h",
    "As Ks",  # bad: 2 cards
    "2c 3c 4c 5c 6c 7d 8d 9d Td Jd Qh Kh Ah",
    "Ah 2d 3c 4s 5h 5d 9c 9s Kh Kd Qs Jh 7c",
    "2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As",  # six pairs: declares
    "Ah Kc Qs Td Tc 9c 7s 7d 6h 6d 5s 4h 2c",
    "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2x",  # bad card
]
GOOD = [h for i, h in enumerate(HANDS) if i not in (1, 6)]
BATCH_RULES = ("standard", "two_four")
STDIN = "\n".join(HANDS) + "\n"
HISTORY: list[Any] = [
    *history(30, 41),
    {"player": "p1", "back": "As Ks Qs Js Tx", "middle": "9h 9d 9c 2h 2d", "front": "7c 5d 3s"},
    *history(8, 42),
]
"""A history with a bad card (rated in a Ray worker: its error comes back in place)."""
REVIEW_STDIN = "\n".join(json.dumps(h) for h in HISTORY[:20]) + "\n{not json\n" + "\n".join(
    json.dumps(h) for h in HISTORY[20:]
)
DRIVER_TIMEOUT = 400.0
STARTS = 2
START_TIMEOUTS = ("The current node timed out during startup", "Timed out waiting for file")
"""Ray gives its raylet a fixed 30 s (not configurable) to register, and the raylet its
dashboard agent (a Python process) as long to start: on a 2-core machine loaded by other work
that has run out (the driver's log shows which). Such a start is tried once more, in a new
driver: Ray's processes die with the driver that started them."""


@dataclass(frozen=True)
class OnRay:
    """What the driver reported, and the directory of its trained tables."""

    report: dict[str, Any]
    out: Path

    def arrays(self, name: str) -> dict[str, np.ndarray[Any, Any]]:
        with np.load(self.out / f"{name}.npz") as data:
            return {k: data[k] for k in data.files}


@pytest.fixture(scope="module")
def on_ray(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OnRay]:
    """Run tests/ray_driver.py once (a local 2-CPU Ray in a fresh interpreter)."""
    pytest.importorskip("ray")  # the cluster extra is part of make setup's [all]
    out = tmp_path_factory.mktemp("ray_out")
    spec = {
        "train": {"rules": RULES, **TRAIN},
        "trainings": TRAININGS,
        "hands": HANDS,
        "batch_rules": BATCH_RULES,
        "stdin": STDIN,
        "good": GOOD,
        "bad": HANDS[:2],
        "review": {"history": HISTORY, "stdin": REVIEW_STDIN},
    }
    # Ray's session files and sockets under a short directory of this run's own (socket paths
    # have a length limit; tmp_path's can exceed it).
    with tempfile.TemporaryDirectory(prefix="ray", dir="/tmp") as ray_tmp:
        # What a crashed or stopped cluster leaves: ``local`` must start a Ray all the same
        # (ray.init without an address would try to join this one).
        (Path(ray_tmp) / "ray").mkdir()
        (Path(ray_tmp) / "ray" / "ray_current_cluster").write_text("127.0.0.1:1\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
        env.update(
            RAY_TMPDIR=ray_tmp,
            # Ray waits 30 s for its GCS server; a loaded 2-core machine has needed more.
            RAY_gcs_server_port_wait_time_s="120",
            RAY_USAGE_STATS_ENABLED="0",
        )
        for attempt in range(1, STARTS + 1):
            run = subprocess.run(
                [sys.executable, str(DRIVER), str(out)],
                input=json.dumps(spec), capture_output=True, text=True, env=env,
                timeout=DRIVER_TIMEOUT,
            )  # fmt: skip
            started = not any(m in run.stderr for m in START_TIMEOUTS)
            if run.returncode == 0 or started or attempt == STARTS:
                break
    assert run.returncode == 0, f"start {attempt} of {STARTS}:\n{run.stderr[-4000:]}"
    yield OnRay(json.loads(run.stdout.splitlines()[-1]), out)


def test_the_driver_ran_a_two_cpu_ray(on_ray: OnRay) -> None:
    assert on_ray.report["cpus"] == 2.0


def test_chunks_run_in_ray_workers_with_one_numba_thread(on_ray: OnRay) -> None:
    seen = on_ray.report["chunks"]
    assert len(seen) == 6
    assert not {pid for pid, _ in seen} & {os.getpid(), on_ray.report["driver"]}
    assert {threads for _, threads in seen} == {"1"}


def test_training_on_ray_is_bit_for_bit_the_local_training(on_ray: OnRay) -> None:
    local = train(ChineseRules(**RULES), workers=1, seed=SEED, **TRAIN)
    for name in ("one_worker", "two_workers"):
        arrays = on_ray.arrays(name)
        for array, value in arrays.items():
            assert value.dtype == getattr(local, array).dtype, (name, array)
            assert np.array_equal(value, getattr(local, array)), (name, array)
        meta = on_ray.report["training"][name]
        assert meta["gains"] == local.meta["gains"]
        assert meta["final_gain"] == local.meta["final_gain"]
    assert not np.array_equal(on_ray.arrays("other_seed")["rows"], local.rows)  # seeds matter


def test_batch_on_ray_gives_the_same_results_in_the_same_order(on_ray: OnRay) -> None:
    for rules in BATCH_RULES:
        local = [
            str(r) if isinstance(r, Exception) else r.to_dict()
            for r in LocalSolver().solve_batch(HANDS, rules)
        ]
        assert on_ray.report["batch"][rules] == json.loads(json.dumps(local))
        assert isinstance(local[1], str) and "expected 13 cards" in local[1]


def test_batch_on_ray_spends_the_budget_per_hand(on_ray: OnRay) -> None:
    """The estimator and the count reach the workers: each hand's calibrated answer with one
    alternative, as in-process."""
    local = [
        str(r) if isinstance(r, Exception) else r.to_dict()
        for r in LocalSolver().solve_batch(HANDS, estimator="budget:50ms", arrangements=2)
    ]
    assert on_ray.report["batch_budget"] == json.loads(json.dumps(local))
    solved = [r for r in local if not isinstance(r, str)]
    assert solved and all(r["ev_ci95"] is not None for r in solved)  # the pool's interval


def test_cli_batch_on_ray_prints_the_same_lines(on_ray: OnRay) -> None:
    here = run_cli(["batch", "-"], stdin=STDIN)
    assert tuple(on_ray.report["cli"]) == here and here[0] == 2  # two bad lines, same report
    assert [json.loads(line)["line"] for line in here[1].splitlines()] == list(range(1, 8))


def test_review_on_ray_equals_the_review_here(on_ray: OnRay) -> None:
    """Chunks of 7 hands on two workers, summed up on the driver: every hand, error and
    summary as one process reviews them; a hand's bad card is reported from its worker."""
    local = json.loads(json.dumps(review(HISTORY).to_dict()))
    assert on_ray.report["review"] == local
    assert [e["index"] for e in local["errors"]] == [30]
    assert "back[4]" in local["errors"][0]["message"] and len(local["hands"]) == 38
    assert local["overall"]["worst"] and local["overall"]["fouls"] > 0
    calibrated = review(HISTORY[:6], estimator="calibrated").to_dict()
    assert on_ray.report["review_calibrated"] == json.loads(json.dumps(calibrated))
    assert calibrated["estimator"] == "calibrated"


def test_cli_review_on_ray_prints_the_same_review(on_ray: OnRay) -> None:
    here = run_cli(["review", "-", "--json"], stdin=REVIEW_STDIN)
    assert tuple(on_ray.report["review_cli"]) == here and here[0] == 2  # the bad lines
    doc = json.loads(here[1])
    assert [e["line"] for e in doc["errors"]] == [21, 32]  # not JSON; the bad card
    assert "2 bad lines (21, 32)" in here[2]


def test_solve_many_on_ray_equals_solve_many(on_ray: OnRay) -> None:
    local = json.loads(json.dumps([s.to_dict() for s in solve_many(GOOD)]))
    assert on_ray.report["solve_many"] == local
    with pytest.raises(CardError) as here:
        solve_many(HANDS[:2])
    assert on_ray.report["solve_many_error"] == [
        "CardError", list(here.value.path), str(here.value),
    ]  # fmt: skip


@pytest.mark.parametrize("command", ["batch", "review"])
def test_ray_and_server_exclude_each_other(command: str) -> None:
    assert run_cli([command, "-", "--ray", "auto", "--server", "127.0.0.1:1"], stdin="") == (
        2, "", "error: ray: --ray and --server exclude each other\n",
    )  # fmt: skip


MISSING = "error: running on Ray (--ray) needs the cluster extra: pip install 'cpsolver[cluster]'\n"


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["train", "--ray", "auto", "--deals", "1"], None),
        (["batch", "-", "--ray", "auto"], ""),
        (["batch", "-", "--ray", "local"], "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h\n"),
        (["review", "-", "--ray", "local"], "{}\n"),
    ],
)
def test_without_ray_the_ray_commands_say_what_to_install(
    args: list[str], stdin: str | None
) -> None:
    """In a fresh interpreter where ``ray`` cannot be imported (``sys.modules["ray"] = None``:
    ``import ray`` raises ImportError and ``find_spec`` finds nothing, as without the extra):
    one line and exit code 4 (MissingExtraError), before anything of Ray starts.
    tests/test_packaging.py checks ``train --ray`` in a venv without the extras too."""
    code = "import sys; sys.modules['ray'] = None\nfrom cpsolver.client.cli import main; main()"
    run = subprocess.run(
        [sys.executable, "-c", code, *args], input=stdin, capture_output=True, text=True,
        env={**os.environ, "NO_COLOR": "1"}, timeout=120,
    )  # fmt: skip
    assert (run.returncode, run.stdout, run.stderr) == (4, "", MISSING)
