"""Training and bulk solving on a Ray cluster: the ``cpsolver[cluster]`` extra (docs/EV.md).

``cpsolver train --ray ADDRESS`` runs the deal chunks of each self-play pass as Ray tasks
(:func:`ray_map`); ``cpsolver batch --ray ADDRESS`` and :func:`solve_many` solve chunks of
hands as Ray tasks (:class:`RaySolver`), ``cpsolver review FILE --ray ADDRESS`` and
:func:`review` rate chunks of a hand history (:meth:`RaySolver.review`). ``ADDRESS`` is
what ``ray.init`` takes: ``auto`` (the cluster this machine belongs to, e.g. after
``ray start --head``), ``HOST:6379`` or ``ray://HOST:10001``; ``local`` starts a private
single-machine Ray for the command.

**Same answers as one machine.** Training's chunks carry their own seeds
(``SeedSequence((seed, pass, chunk))``) and their results are summed in task order, whichever
worker computed them, so tables are bit-for-bit those of a local run with the same seed, for
any number of workers. Batches keep input order: chunk results are collected in submission
order, and each hand is solved by :func:`cpsolver.solve`, the single-hand path a server uses
(``solve_many`` answers identically; tests/test_solve_many_ev.py). A review's chunks are
rated by :func:`cpsolver.chinese.review.rate_hands` (a hand's numbers do not depend on its
chunk) and summed up on the driver by :func:`~cpsolver.chinese.review.summarise`: the
in-process review, to the bit.

**Kernels on workers.** Ray workers are fresh Python processes. They run only the serial
kernels (the pairing batch scan of training, the single-hand scans of ``solve``), never the
multi-threaded batch kernel (a review chunk runs the rating kernel on one thread), and one
numba thread each (``NUMBA_NUM_THREADS=1``: Ray gives a
task one CPU); ``CPSOLVER_KERNEL_CACHE`` / ``NUMBA_CACHE_DIR`` and the table directories
(``CPSOLVER_TABLES``, ``XDG_DATA_HOME``) are passed on, so workers load the compiled kernels
from the same cache instead of compiling them. Every node needs the same cpsolver installed
with the ``cluster`` extra.

Ray is imported only here, and only when a command asks for it; without the extra the command
fails with :class:`~cpsolver.errors.MissingExtraError` (exit code 4).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from cpsolver.cards import Card, CardsLike, parse_cards
from cpsolver.errors import CpsolverError
from cpsolver.extras import require
from cpsolver.kernel_cache import KERNEL_CACHE_ENV
from cpsolver.rules.chinese import ChineseRules

if TYPE_CHECKING:
    from cpsolver.chinese.estimator import EstimatorLike
    from cpsolver.chinese.review import Review

__all__ = [
    "PASSED_ENV",
    "RaySolver",
    "connect",
    "ray_map",
    "ray_mapper",
    "review",
    "solve_many",
]

PASSED_ENV = (KERNEL_CACHE_ENV, "NUMBA_CACHE_DIR", "CPSOLVER_TABLES", "XDG_DATA_HOME")
"""Environment variables of the driver passed on to the workers (module doc)."""

CHUNK = 256
"""Hands per Ray task of a batch."""
REVIEW_CHUNK = 2048
"""Hands per Ray task of a review (a hand takes well under a millisecond there)."""


def _ray() -> Any:
    require("cluster", "running on Ray (--ray)")
    import ray

    return ray


def connect(address: str, *, num_cpus: int | None = None) -> Any:
    """Join (or, for ``local``, start, with ``num_cpus`` CPUs) a Ray cluster once per process;
    return the ``ray`` module. The workers get one numba thread and the driver's kernel cache
    and tables."""
    ray = _ray()
    if ray.is_initialized():
        return ray
    env = {name: os.environ[name] for name in PASSED_ENV if os.environ.get(name)}
    env["NUMBA_NUM_THREADS"] = "1"
    # ``address="local"`` is passed as such: without an address ray.init joins the cluster
    # named by /tmp/ray/ray_current_cluster, which a crashed or stopped cluster leaves behind.
    options: dict[str, Any] = {
        "address": address,
        "runtime_env": {"env_vars": env},
        "include_dashboard": False,
        "log_to_driver": False,
    }
    if address == "local" and num_cpus is not None:
        options["num_cpus"] = num_cpus
    ray.init(**options)
    return ray


def _call(fn: Callable[[tuple[Any, ...]], Any], *args: Any) -> Any:
    """The body of a Ray task: ``fn(args)`` (Ray resolves object references among ``args``)."""
    return fn(tuple(args))


_SHARED = (int, float, str, bool, type(None), tuple, ChineseRules)


def ray_map(
    fn: Callable[[tuple[Any, ...]], Any],
    tasks: Iterable[tuple[Any, ...]],
    *,
    workers: int | None = None,
) -> Iterator[Any]:
    """``map(fn, tasks)`` with each call a Ray task; results in task order (a
    :data:`cpsolver.chinese.training.ChunkMap`). At most ``workers`` tasks run at once (None:
    as many as the cluster schedules). Large arguments shared by the tasks (the models) are
    put in the object store once per call, not once per task."""
    ray = _ray()
    remote = ray.remote(num_cpus=1)(_call)
    stored: dict[int, Any] = {}
    keep: list[Any] = []  # the objects whose ids key ``stored`` stay alive meanwhile

    def arg(value: Any) -> Any:
        if isinstance(value, _SHARED):
            return value
        if id(value) not in stored:
            keep.append(value)
            stored[id(value)] = ray.put(value)
        return stored[id(value)]

    window: deque[Any] = deque()
    for task in tasks:
        window.append(remote.remote(fn, *(arg(a) for a in task)))
        if workers is not None and len(window) >= workers:
            yield ray.get(window.popleft())
    while window:
        yield ray.get(window.popleft())


def ray_mapper(workers: int | None = None) -> Callable[..., Iterator[Any]]:
    """:func:`ray_map` with at most ``workers`` tasks at once, as a training ``chunk_map``."""

    def mapped(
        fn: Callable[[tuple[Any, ...]], Any], tasks: Iterable[tuple[Any, ...]]
    ) -> Iterator[Any]:
        return ray_map(fn, tasks, workers=workers)

    return mapped


def _solve_chunk(
    hands: list[tuple[Card, ...]],
    rules: ChineseRules,
    objective: str,
    estimator: str,
    arrangements: int,
    seed: int = 0,
) -> list[Any]:
    from cpsolver.chinese.solve import solve

    return [
        solve(list(h), rules, objective, estimator=estimator, arrangements=arrangements, seed=seed)
        for h in hands
    ]


def _review_chunk(
    items: list[tuple[int, int | None, object]],
    rules: ChineseRules,
    estimator: str,
    seed: int,
) -> tuple[list[Any], list[Any]]:
    from cpsolver.chinese.review import rate_hands

    return rate_hands(
        [item for _, _, item in items], rules, estimator=estimator, seed=seed, threads=1,
        indices=[index for index, _, _ in items], lines=[line for _, line, _ in items],
    )  # fmt: skip


class RaySolver:
    """``solve_batch`` (the :class:`cpsolver.client.local.Solver` method ``cpsolver batch``
    uses) on a Ray cluster: chunks of :data:`CHUNK` hands as tasks, at most ``in_flight`` at
    once, results in input order. Hands are parsed here, so a bad hand yields its exception in
    place without reaching the cluster."""

    def __init__(self, address: str, *, in_flight: int | None = None, chunk: int = CHUNK) -> None:
        self._ray = connect(address)
        cpus = int(self._ray.cluster_resources().get("CPU", 1))
        self.in_flight = in_flight or max(2, 2 * cpus)
        self.chunk = chunk
        self._remote = self._ray.remote(num_cpus=1)(_solve_chunk)
        self._review = self._ray.remote(num_cpus=1)(_review_chunk)

    def solve_batch(
        self,
        hands: Iterable[CardsLike],
        rules: ChineseRules | str | None = "standard",
        objective: str | None = None,
        *,
        estimator: EstimatorLike | None = None,
        arrangements: int | None = None,
        seed: int = 0,
        alternatives: int | None = None,
        budget_ms: int | None = None,
        timeout: float | None = None,
        **overrides: Any,
    ) -> Iterator[Any]:
        """One Solution or exception per hand, in input order (``estimator``, ``arrangements``
        and ``seed`` each hand's, as in :func:`cpsolver.solve`, ``alternatives`` and
        ``budget_ms`` their deprecated names; ``timeout`` is not used)."""
        from cpsolver.chinese.estimator import resolve_count, resolve_estimator
        from cpsolver.chinese.ev import EvObjective
        from cpsolver.chinese.ev_model import model_for
        from cpsolver.chinese.objectives import DEFAULT_OBJECTIVE, get_objective
        from cpsolver.seeds import check_seed

        # Before any task is sent: the library's errors, raised here.
        asked = str(resolve_estimator(estimator, budget_ms=budget_ms))
        count = resolve_count(arrangements, alternatives=alternatives)
        check_seed(seed)
        resolved = ChineseRules.resolve(rules, **overrides)
        name = objective or DEFAULT_OBJECTIVE
        if isinstance(get_objective(name), EvObjective):
            model_for(resolved)  # an untrained rule set fails here, as in-process
        rules_ref = self._ray.put(resolved)
        pending: deque[tuple[list[Any], Any]] = deque()  # (results with None holes, task)

        def submit(chunk: list[Any]) -> None:
            good = [h for h in chunk if not isinstance(h, CpsolverError)]
            task = self._remote.remote(good, rules_ref, name, asked, count, seed) if good else None
            pending.append((chunk, task))

        def drain(one: bool) -> Iterator[Any]:
            while pending and (not one or len(pending) >= self.in_flight):
                chunk, task = pending.popleft()
                solved = iter(self._ray.get(task) if task is not None else ())
                for item in chunk:
                    yield item if isinstance(item, CpsolverError) else next(solved)
                if one:
                    return

        chunk: list[Any] = []
        for hand in hands:
            try:
                chunk.append(tuple(parse_cards(hand, count=13)))
            except CpsolverError as exc:
                chunk.append(exc)
            if len(chunk) >= self.chunk:
                submit(chunk)
                chunk = []
                yield from drain(one=True)
        if chunk:
            submit(chunk)
        yield from drain(one=False)

    def review(
        self,
        history: Iterable[object],
        rules: ChineseRules | str | None = "standard",
        *,
        estimator: EstimatorLike | None = None,
        seed: int = 0,
        progress: Callable[[int], None] | None = None,
        lines: Iterable[int | None] | None = None,
        chunk: int = REVIEW_CHUNK,
        **overrides: Any,
    ) -> Review:
        """:func:`cpsolver.review` with chunks of ``chunk`` hands as Ray tasks, at most
        ``in_flight`` at once (same arguments; the same :class:`Review`). A reader's error in
        ``history`` (a :class:`~cpsolver.errors.CpsolverError` in place of a hand) stays here;
        the rule set, estimator and seed are checked before any task is sent."""
        from cpsolver.chinese.estimator import resolve_estimator
        from cpsolver.chinese.review import (
            REVIEW_ESTIMATOR,
            HandError,
            checked_history,
            summarise,
        )
        from cpsolver.chinese.solve import resolve_rules
        from cpsolver.seeds import check_seed

        default = resolve_rules(rules, overrides)
        chosen = resolve_estimator(estimator, default=REVIEW_ESTIMATOR).chosen(None)
        check_seed(seed)
        history = checked_history(history, progress=progress)
        rules_ref = self._ray.put(default)
        hands: list[Any] = []
        errors: list[Any] = []
        pending: deque[tuple[int, Any]] = deque()

        def drain(keep: int) -> None:
            while len(pending) > keep:
                size, task = pending.popleft()
                rated, bad = self._ray.get(task)
                hands.extend(rated)
                errors.extend(bad)
                if progress is not None:
                    progress(size)

        numbers = iter(lines) if lines is not None else None
        part: list[tuple[int, int | None, object]] = []
        for index, item in enumerate(history):
            line = next(numbers, None) if numbers is not None else None
            if isinstance(item, CpsolverError):
                errors.append(HandError(index, line, None, item))
                if progress is not None:
                    progress(1)
                continue
            part.append((index, line, item))
            if len(part) >= chunk:
                pending.append((len(part), self._review.remote(part, rules_ref, str(chosen), seed)))
                part = []
                drain(self.in_flight)
        if part:
            pending.append((len(part), self._review.remote(part, rules_ref, str(chosen), seed)))
        drain(0)
        return summarise(hands, errors, chosen)


def solve_many(
    hands: Iterable[CardsLike],
    rules: ChineseRules | str | None = "standard",
    objective: str | None = None,
    *,
    address: str = "auto",
    estimator: EstimatorLike | None = None,
    arrangements: int | None = None,
    seed: int = 0,
    budget_ms: int | None = None,
    **overrides: Any,
) -> list[Any]:
    """:func:`cpsolver.solve_many` on a Ray cluster: the same Solutions in the same order
    (``estimator``, ``arrangements`` and ``seed`` as there). Bad cards raise as there, with the
    field ``hands[i]``, before anything is submitted."""
    checked = [parse_cards(h, count=13, field=("hands", i)) for i, h in enumerate(hands)]
    solver = RaySolver(address)
    return list(
        solver.solve_batch(
            checked,
            rules,
            objective,
            estimator=estimator,
            arrangements=arrangements,
            seed=seed,
            budget_ms=budget_ms,
            **overrides,
        )
    )


def review(
    history: Iterable[object],
    rules: ChineseRules | str | None = "standard",
    *,
    address: str = "auto",
    estimator: EstimatorLike | None = None,
    seed: int = 0,
    **overrides: Any,
) -> Review:
    """:func:`cpsolver.review` on a Ray cluster (:meth:`RaySolver.review`): the same
    :class:`~cpsolver.chinese.review.Review`, hand for hand and in the summaries."""
    return RaySolver(address).review(history, rules, estimator=estimator, seed=seed, **overrides)
