"""The garbage collector paused while a batch builds its answers (cpsolver.gc_pause).

A calibrated ``solve_many`` of 1,024 hands spent about a third of its time in collections
that found nothing (docs/BENCHMARKS.md); these tests pin that the batch runs without them and
that the collector comes back as the caller left it.
"""

from __future__ import annotations

import gc
import random
import threading
from collections.abc import Iterator

import pytest

from cpsolver.chinese import solve_many
from cpsolver.chinese.review import rate_hands
from cpsolver.gc_pause import collector_paused

NAMES = ["23456789TJQKA"[i // 4] + "cdhs"[i % 4] for i in range(52)]


def _hands(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(NAMES[c] for c in rng.sample(range(52), 13)) for _ in range(count)]


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generations of the collections that start while the test runs."""
    started: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(info["generation"])

    gc.callbacks.append(count)
    try:
        yield started
    finally:
        gc.callbacks.remove(count)


@pytest.mark.parametrize("estimator", ["calibrated", "model"])
def test_a_batch_runs_without_collections(collections: list[int], estimator: str) -> None:
    hands = _hands(160)
    solve_many(hands[:8], estimator=estimator)  # warm: tables, pools, name caches
    assert gc.isenabled()
    gc.collect()
    collections.clear()
    solutions = solve_many(hands, estimator=estimator)
    during = len(collections)  # no allocation: the next one may start a collection
    assert len(solutions) == len(hands)
    # at most the one the batch's end starts (the collector back on, its count high)
    assert during <= 1, f"{during} collections during the batch"
    assert gc.isenabled()
    # the objects the batch made are counted still: the collector runs on, after it
    del solutions
    _ = [[i] for i in range(10_000)]
    assert collections, "the collector did not run again after the batch"


def test_the_collector_comes_back_after_an_error() -> None:
    with pytest.raises(ValueError), collector_paused():
        assert not gc.isenabled()
        raise ValueError("boom")
    assert gc.isenabled()


def test_a_collector_the_caller_disabled_stays_disabled() -> None:
    gc.disable()
    try:
        solve_many(_hands(4))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_overlapping_batches_end_with_the_one_that_paused() -> None:
    """The thread that paused the collector enables it, whatever other batches still run."""
    first_in, second_out, first_may_leave = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def first() -> None:
        with collector_paused():
            first_in.set()
            first_may_leave.wait(10)

    def second() -> None:
        first_in.wait(10)
        with collector_paused():
            seen["inside"] = gc.isenabled()
        seen["after_second"] = gc.isenabled()
        second_out.set()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    assert second_out.wait(10)
    first_may_leave.set()
    for t in threads:
        t.join(10)
    assert seen == {"inside": False, "after_second": False}
    assert gc.isenabled()


def test_a_review_runs_without_collections(collections: list[int]) -> None:
    history = [
        {"back": " ".join(h.split()[:5]), "middle": " ".join(h.split()[5:10]),
         "front": " ".join(h.split()[10:])}
        for h in _hands(2000, seed=11)
    ]  # fmt: skip
    rate_hands(history[:8])
    gc.collect()
    collections.clear()
    rated, errors = rate_hands(history)
    during = len(collections)
    assert (len(rated), len(errors)) == (2000, 0)
    assert during <= 1, f"{during} collections during the review"
    assert gc.isenabled()
