"""Training and bulk solving on Ray (``cpsolver[cluster]``, docs/EV.md): on a real local Ray
started here with 2 CPUs, the tables are bit for bit those of a local run with the same seed
whatever the number of workers, and a batch gives the same lines in the same order."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from helpers import run_cli

from cpsolver.chinese.training import CHUNK, train
from cpsolver.client.local import LocalSolver
from cpsolver.rules.chinese import ChineseRules


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    import ray  # the cluster extra is part of make setup's [all]

    from cpsolver.cluster import connect

    assert not ray.is_initialized()
    connect("local", num_cpus=2)
    yield ray
    ray.shutdown()


def test_chunks_run_in_ray_workers_with_one_numba_thread(local_ray: Any) -> None:
    from cpsolver.cluster import ray_map

    def _pid(_: tuple[Any, ...]) -> tuple[int, str | None]:  # pickled by value (nested)
        return os.getpid(), os.environ.get("NUMBA_NUM_THREADS")

    seen = list(ray_map(_pid, [(i,) for i in range(6)], workers=2))
    assert len(seen) == 6
    assert os.getpid() not in {pid for pid, _ in seen}
    assert {threads for _, threads in seen} == {"1"}


def test_training_on_ray_is_bit_for_bit_the_local_training(local_ray: Any) -> None:
    from cpsolver.cluster import ray_mapper

    rules = ChineseRules(players=2, scoring="scoop_double")
    deals = 2 * CHUNK + 40  # three chunks, the last one short
    kwargs: dict[str, Any] = {"deals": deals, "iterations": 1, "seed": 7, "min_gain": 0.0}
    local = train(rules, workers=1, **kwargs)
    for workers in (1, 2):
        on_ray = train(rules, chunk_map=ray_mapper(workers), **kwargs)
        for name in ("rows", "naturals", "previous_rows", "previous_naturals"):
            assert np.array_equal(getattr(on_ray, name), getattr(local, name)), (workers, name)
        assert on_ray.meta["gains"] == local.meta["gains"]
        assert on_ray.meta["final_gain"] == local.meta["final_gain"]
    other = train(rules, chunk_map=ray_mapper(2), **{**kwargs, "seed": 8})
    assert not np.array_equal(other.rows, local.rows)


HANDS = [
    "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2h",
    "As Ks",  # bad: 2 cards
    "2c 3c 4c 5c 6c 7d 8d 9d Td Jd Qh Kh Ah",
    "Ah 2d 3c 4s 5h 5d 9c 9s Kh Kd Qs Jh 7c",
    "2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As",  # six pairs: declares
    "Ah Kc Qs Td Tc 9c 7s 7d 6h 6d 5s 4h 2c",
    "As Ad Kh Kd Qs Jh Th 9c 8c 7d 5s 4s 2x",  # bad card
]


def test_batch_on_ray_gives_the_same_lines_in_the_same_order(local_ray: Any) -> None:
    from cpsolver.cluster import RaySolver

    def dicts(results: Iterator[Any]) -> list[Any]:
        return [r.to_dict() if hasattr(r, "to_dict") else str(r) for r in results]

    for rules in ("standard", "two_four"):
        local = dicts(LocalSolver().solve_batch(HANDS, rules))
        remote = dicts(RaySolver("local", chunk=2, in_flight=2).solve_batch(HANDS, rules))
        assert remote == local
        assert isinstance(local[1], str) and "expected 13 cards" in local[1]
    stdin = "\n".join(HANDS) + "\n"
    here = run_cli(["batch", "-"], stdin=stdin)
    there = run_cli(["batch", "-", "--ray", "auto"], stdin=stdin)
    assert there == here and here[0] == 2  # two bad lines, reported the same way
    assert [json.loads(line)["line"] for line in there[1].splitlines()] == list(range(1, 8))


def test_solve_many_on_ray_equals_solve_many(local_ray: Any) -> None:
    from cpsolver import solve_many
    from cpsolver.cluster import solve_many as solve_many_on_ray

    good = [h for i, h in enumerate(HANDS) if i not in (1, 6)]
    assert [s.to_dict() for s in solve_many_on_ray(good, address="auto")] == [
        s.to_dict() for s in solve_many(good)
    ]
    from cpsolver.errors import CardError

    with pytest.raises(CardError) as here:
        solve_many(HANDS[:2])
    with pytest.raises(CardError) as there:
        solve_many_on_ray(HANDS[:2], address="auto")
    assert there.value.path == here.value.path == ("hands", 1)
    assert str(there.value) == str(here.value)


def test_ray_and_server_exclude_each_other() -> None:
    assert run_cli(["batch", "-", "--ray", "auto", "--server", "127.0.0.1:1"], stdin="") == (
        2, "", "error: ray: --ray and --server exclude each other\n",
    )  # fmt: skip


def test_without_the_extra_ray_commands_say_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cpsolver import extras

    real = extras._installed
    monkeypatch.setattr(extras, "_installed", lambda module: module != "ray" and real(module))
    line = (
        "error: running on Ray (--ray) needs the cluster extra: pip install 'cpsolver[cluster]'\n"
    )
    assert run_cli(["train", "--ray", "auto", "--deals", "1"]) == (4, "", line)
    assert run_cli(["batch", "-", "--ray", "auto"], stdin="") == (4, "", line)
