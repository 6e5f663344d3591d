"""Compile or load every kernel and table before the first request needs them.

A server worker runs :func:`warm_up` before it accepts calls, ``cpsolver compile DIR`` runs it
to fill a kernel cache for a container image (:mod:`cpsolver.kernel_cache`). The steps are
named so a cold start can say what it is doing and how far it got (compiling the search
kernels takes 20-30 s the first time here, loading them from the cache about a second).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

__all__ = [
    "SAMPLE_HAND",
    "SEARCH_STEP",
    "parallel_kernels_cached",
    "steps",
    "warm_up",
    "warm_up_open_face",
    "warm_up_parallel",
    "warm_up_search",
]

SAMPLE_HAND = "As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"

log = logging.getLogger("cpsolver")

Progress = Callable[[int, int, str], None]
"""Called before each step with (step number from 1, number of steps, what the step does)."""


def warm_up_search(*, parallel: bool = True) -> None:
    """Load (or compile) the arranger's kernels: the exact search's
    (:func:`cpsolver.chinese.search.warm_up`, ``parallel`` as there) and the constrained
    search's (:func:`cpsolver.chinese.select.warm_up`). This module sits above both, so neither
    imports the other to warm it up."""
    from cpsolver.chinese import search, select

    search.warm_up(parallel=parallel)
    select.warm_up()


def warm_up_open_face() -> None:
    """Load (or compile) open-face Chinese poker's kernels and tables: street advice's
    simulation and fill policy (:func:`cpsolver.ofc.advice.warm_up`: both fantasyland options;
    the exact last street and the classic variant run the same kernels), a fantasyland set
    (the 13-of-N search on the rule set's royalty tables; one deal of the ``ev`` objective,
    the other seats' hands played out) and a table settled. All are
    fork-safe (no ``parallel=True`` kernel), so a server's supervisor loads them before it
    forks and every worker inherits them."""
    from cpsolver.ofc.advice import warm_up as warm_up_advice
    from cpsolver.ofc.fantasyland import fantasyland
    from cpsolver.ofc.scoring import score

    warm_up_advice()
    fantasyland("As Ah Ad Kh Kd Ks Qs Jh Th 9c 8c 7c 6c 2d", fantasyland_value=1.0)
    fantasyland("As Ah Ad Kh Kd Ks Qs Jh Th 9c 8c 7c 6c 2d", objective="ev", samples=1)
    score(
        [
            {"back": "2s 2h 2d 2c Ks", "middle": "As Ah Ad Kh Kd", "front": "Qs Qh 3c"},
            {"back": "9s 8s 7s 6s 5s", "middle": "Th Td Tc 3h 3d", "front": "Jc Jd 4s"},
        ]
    )


def warm_up_parallel() -> None:
    """Compile (or load) the ``parallel=True`` batch kernels into numba's cache, with the
    serial search kernels they call (loaded from the cache when a process compiled them
    before). ``cpsolver serve`` runs it in a process of its own (``python -m cpsolver.warmup
    --parallel``), which never forks: its workers then load the kernels instead of each
    compiling them."""
    from cpsolver.chinese import search

    search.warm_up(parallel=True)


def parallel_kernels_cached() -> bool:
    """Whether numba's cache holds every parallel batch kernel, asked without loading any (a
    process that forks asks: :func:`cpsolver.jit.in_cache`)."""
    from cpsolver.chinese.search import parallel_kernels
    from cpsolver.jit import in_cache

    return all(in_cache(kernel) for kernel in parallel_kernels())


SEARCH_STEP = "compiling the search kernels"
"""The step after which the serial search kernels are in numba's cache (what
:func:`warm_up_parallel`'s kernels call)."""


def steps(*, parallel: bool = True) -> list[tuple[str, Callable[[], object]]]:
    """The warm-up steps in order, as (what it does, the call). ``parallel`` loads the
    multi-threaded batch kernel too: a process that forks afterwards passes False (see
    :func:`cpsolver.chinese.search.warm_up`)."""
    from cpsolver.chinese import ev_kernel, ev_model, pool, solve, solve_many
    from cpsolver.chinese.removal import class_shapes
    from cpsolver.errors import CpsolverError
    from cpsolver.evaluator.poker import poker_tables
    from cpsolver.rules import ChineseRules

    def tables() -> None:
        # Every key on both scales (~0.5 s, ~25 MB): no request waits for a file, and a
        # worker's memory does not creep up as new rule sets arrive.
        log.info("loaded %d expected-value models", ev_model.preload())
        # The opponent pools of calibrated=True (issue 14; ~1.3 MB each): loaded now for the
        # same reason, and their two kernels compiled or read from the cache.
        log.info("loaded %d opponent pools", pool.preload())
        pool.pool_weights(pool.pool_for(ChineseRules()), SAMPLE_HAND)  # rate's foul value
        for preset in ChineseRules.PRESETS:  # each scoring mode's kernels on real tables
            try:
                solve(SAMPLE_HAND, preset, estimator="model")
                solve(SAMPLE_HAND, preset)  # the calibrated default
                # solve_many's calibrated batch kernel (one hand: no thread is started)
                solve_many([SAMPLE_HAND], preset, estimator="calibrated")
            except CpsolverError as exc:  # e.g. a preset without tables: its calls will say so
                log.warning("warm-up of preset %s: %s", preset, exc)

    return [
        # Both wheel scales: the evaluator's tables and card removal's class shapes (~60 ms
        # together on a scale's first use, more than a request should wait).
        (
            "building the evaluator tables",
            lambda: [(poker_tables(wheel), class_shapes(wheel)) for wheel in (False, True)],
        ),
        (SEARCH_STEP, lambda: warm_up_search(parallel=parallel)),
        ("compiling the expected-value kernels", lambda: ev_kernel.warm_up(parallel=parallel)),
        ("loading the expected-value tables of every rule set", tables),
        ("compiling the open-face kernels", warm_up_open_face),
    ]


def warm_up(progress: Progress | None = None, *, parallel: bool = True) -> float:
    """Run every step of :func:`steps`, telling ``progress`` before each; return the seconds.

    >>> seen = []
    >>> seconds = warm_up(lambda step, total, what: seen.append((step, total)))
    >>> seen == [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)] and seconds > 0
    True
    """
    start = time.perf_counter()
    todo = steps(parallel=parallel)
    for number, (what, call) in enumerate(todo, start=1):
        if progress is not None:
            progress(number, len(todo), what)
        call()
    return time.perf_counter() - start


def main() -> None:
    """``python -m cpsolver.warmup``: warm up with progress on stderr (``cpsolver compile`` runs
    this in a fresh process, so the cache directory is set before any kernel is defined);
    ``--parallel``: only :func:`warm_up_parallel` (``cpsolver serve``'s helper process)."""
    import sys

    from cpsolver.kernel_cache import configure

    if sys.argv[1:] == ["--parallel"]:
        start = time.perf_counter()
        warm_up_parallel()
        print(f"parallel kernels ready in {time.perf_counter() - start:.1f} s", file=sys.stderr)
        return

    def progress(step: int, total: int, what: str) -> None:
        print(f"{step}/{total} {what}", file=sys.stderr, flush=True)

    seconds = warm_up(progress)
    print(f"done in {seconds:.1f} s; cache: {configure() or 'beside the code'}", file=sys.stderr)


if __name__ == "__main__":
    main()
