"""The second engine: an OR-Tools CP-SAT model of the arrangement (``engine="cpsat"``).

It is slow (about a second per hand) and exists as an independent certificate of the default
engine: the test suite and ``bench/engines.py`` check that both reach the same optimum value.
It shares only the inputs with the default engine (the subset strength classes and the
constraint masks), not the search or the constraint filtering.

**Model.** For N = 13..17 cards: one boolean per 5-card subset allowed in the back, one per
5-card subset allowed in the middle, one per 3-card subset allowed in the front (a subset is
allowed in a row when every card may go there, it holds every card pinned there and its
strength class reaches the row's minimum); exactly one subset per row; every card in at most
one chosen subset (exactly one with 13 cards, and for cards that must be kept); the ordering
constraints of CP-6 on the strength scale as linear constraints,
``sum(class * x_back) >= sum(class * x_middle) (+1 under order=strict)`` and
``sum(class * x_middle) >= sum(class * x_front)``; the objective maximises
``sum(value * x)`` with each subset's per-row value of the objective.

**Scaling, and why ties are handled.** CP-SAT takes integer coefficients.

* The bound. CP-SAT rejects a model (MODEL_INVALID, "possible integer overflow") when the sum
  of a linear expression's ``|coefficient| * max|variable|`` could leave its integer range
  (~2**62): it bounds the expression term by term, not by the one subset per row that the
  constraints allow. So the scale bounds the whole objective, the largest expression (the
  band constraint below is the same one): ``S * sum|v| <= 2**53`` over every coefficient of
  the three rows (~2,860 terms with 13 cards). That also keeps every value of the model's
  objective exact as a float (``objective_value``). A bound of ``3 * max|v|`` (one subset a
  row) overflowed on the ``ev`` tables of some hands.
* When every value in play is an integer and ``sum|v| <= 2**53`` (``strength`` and
  ``royalties``), the coefficients ARE the values (scale 1). The model's objective equals the
  true objective on every arrangement, so its optimum is exactly the true optimum, ties
  included.
* Otherwise (an objective with fractional values, e.g. ``ev``) the values are multiplied by
  ``S = 2**p``, the largest power of two with ``S * sum|v| <= 2**53``, and rounded (with
  ``ev`` on 13 cards ``S`` is ~2**50, so one model unit is ~1e-15 units). Each row's rounding
  error is at most 1/2, so for every arrangement ``|R - S * T| <= 3/2`` (``R`` the model's
  value, ``T`` the true one). If the model's optimum is ``R*`` at arrangement ``a`` and the
  true optimum is at ``t``, then ``R(t) >= S*T(t) - 3/2 >= S*T(a) - 3/2 >= R* - 3``: the true
  optimum lies in the band ``R >= R* - 3``. A second solve enumerates every arrangement in that
  band and keeps the one with the highest true (float) value, first met on ties; so the
  answer is the true optimum whatever the rounding did.

Solver parameters: ``num_workers=1`` and a fixed ``random_seed`` (deterministic), and a time
limit (``time_limit`` seconds; exceeding it raises :class:`SolverTimeoutError`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from cpsolver.budget import TimeLimitError, budget_left, check_budget
from cpsolver.chinese.constraints import RowMasks
from cpsolver.chinese.objectives import RowTables
from cpsolver.chinese.select import subset_classes_n, subset_tables
from cpsolver.errors import InfeasibleError
from cpsolver.extras import require

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = ["CpsatResult", "SolverTimeoutError", "solve_cpsat"]

IntArray = npt.NDArray[np.int64]

DEFAULT_TIME_LIMIT = 120.0
"""Seconds before :func:`solve_cpsat` gives up (raises :class:`SolverTimeoutError`)."""
_EXACT = 2**53


class SolverTimeoutError(TimeLimitError):
    """CP-SAT did not prove an optimum within its time limit."""


@dataclass(frozen=True)
class CpsatResult:
    """The optimum CP-SAT found: (back, middle, front) positions into the sorted cards, the
    true objective value, the integer scale used, the solver's wall time in seconds and its
    deterministic time (CP-SAT's work units, independent of the machine's load)."""

    positions: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    value: float
    scale: float
    wall_time: float
    deterministic_time: float


def _allowed(
    masks: IntArray, cls: IntArray, allowed: tuple[int, ...], row: int, rm: RowMasks
) -> IntArray:
    """Indices of the subsets allowed in ``row`` (plain numpy, independent of the B&B)."""
    ok = cls >= rm.minimum[row]
    for p, places in enumerate(allowed):
        if not (places >> row) & 1:
            ok &= (masks >> p) & 1 == 0
    ok &= (masks & rm.required[row]) == rm.required[row]
    return np.flatnonzero(ok)


def _scale(values: list[npt.NDArray[np.float64]]) -> float:
    """The integer scale of the objective's coefficients ``values`` (every subset's value, by
    row): 1 for integers whose absolute sum is at most 2**53, else the largest power of two
    ``S`` with ``S * sum|v| <= 2**53`` (module doc: the bound is the sum, not the maximum)."""
    everything = np.concatenate(values)
    total = float(np.sum(np.abs(everything)))
    if total == 0.0:
        return 1.0
    if np.all(everything == np.round(everything)) and total <= _EXACT:
        return 1.0
    return float(2.0 ** math.floor(math.log2(_EXACT / total)))


def _check_valid(model: cp_model.CpModel, status: cp_model.CpSolverStatus) -> None:
    """A model CP-SAT rejects is a defect of this module, not a time limit: raise it as one
    (a server answers INTERNAL), with the first line of CP-SAT's reason."""
    from ortools.sat.python import cp_model

    if status == cp_model.MODEL_INVALID:
        reason = model.validate().splitlines()
        raise RuntimeError(f"CP-SAT rejected the model: {reason[0] if reason else '?'}")


def solve_cpsat(
    idx: IntArray,
    tables: RowTables,
    masks: RowMasks,
    *,
    strict: bool,
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
) -> CpsatResult:
    """The optimum arrangement of the sorted card indices ``idx`` (13..17) by CP-SAT.

    Raises :class:`InfeasibleError` when no valid arrangement satisfies ``masks``,
    :class:`SolverTimeoutError` when no optimum is proved within ``time_limit`` seconds and
    :class:`~cpsolver.errors.MissingExtraError` without OR-Tools (``cpsolver[cpsat]``).

    >>> from cpsolver.chinese.objectives import get_objective
    >>> from cpsolver.chinese.select import no_constraints
    >>> from cpsolver.rules import ChineseRules
    >>> from cpsolver.cards import parse_cards
    >>> idx = np.array(sorted(c.index for c in parse_cards(
    ...     "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s")))
    >>> tables = get_objective("strength").row_tables(ChineseRules())
    >>> found = solve_cpsat(idx, tables, no_constraints(13), strict=False)
    >>> from cpsolver.chinese.search import search
    >>> found.value == search(idx, tables, strict=False).values[0]  # the enumerator agrees
    True
    >>> found.positions[0]  # the royal flush plays in the back
    (8, 9, 10, 11, 12)
    """
    require("cpsat", "the cpsat engine")  # ortools is optional: cpsolver[cpsat]
    from ortools.sat.python import cp_model

    n = len(idx)
    t = subset_tables(n)
    cls5, cls3 = subset_classes_n(idx, tables.poker)
    rows: list[tuple[IntArray, IntArray, npt.NDArray[np.float64], IntArray]] = []
    per_row = (
        (t.mask3, cls3, tables.front),
        (t.mask5, cls5, tables.middle),
        (t.mask5, cls5, tables.back),
    )
    for r, (mk, cls, vals) in enumerate(per_row):
        ids = _allowed(mk, cls, masks.allowed, r, masks)
        if len(ids) == 0:
            raise InfeasibleError(
                "no arrangement satisfies the constraints (CP-SAT: no allowed "
                f"{('front', 'middle', 'back')[r]})"
            )
        # Subsets of the row in decreasing value order (stable).
        rows.append((mk, cls, vals, ids[np.argsort(-vals[cls[ids]], kind="stable")]))
    true_values = [vals[cls[ids]] for _, cls, vals, ids in rows]
    scale = _scale(true_values)

    coefs = [[round(float(v) * scale) for v in tv] for tv in true_values]
    model = cp_model.CpModel()
    xs: list[list[cp_model.IntVar]] = []
    strength: list[cp_model.LinearExpr] = []
    row_value: list[cp_model.LinearExpr] = []
    for r, (_, cls, _, ids) in enumerate(rows):
        xr = [model.new_bool_var(f"x{r}_{i}") for i in range(len(ids))]
        model.add_exactly_one(xr)
        xs.append(xr)
        strength.append(cp_model.LinearExpr.weighted_sum(xr, [int(c) for c in cls[ids]]))
        row_value.append(cp_model.LinearExpr.weighted_sum(xr, coefs[r]))
    by_card: list[list[cp_model.IntVar]] = [[] for _ in range(n)]
    for (masks_r, _, _, ids), xr in zip(rows, xs, strict=True):
        for i, x in zip(ids.tolist(), xr, strict=True):
            bits = int(masks_r[i])
            for p in range(n):
                if (bits >> p) & 1:
                    by_card[p].append(x)
    for p in range(n):
        if (masks.keep >> p) & 1:
            model.add(sum(by_card[p]) == 1)
        elif by_card[p]:
            model.add(sum(by_card[p]) <= 1)
    model.add(strength[2] >= strength[1] + (1 if strict else 0))
    model.add(strength[1] >= strength[0])
    objective = sum(row_value)
    model.maximize(objective)

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed
    # A server call's deadline (cpsolver.budget) shortens the limit: nobody waits past it.
    left = budget_left()
    solver.parameters.max_time_in_seconds = time_limit if left is None else min(time_limit, left)
    status = solver.solve(model)
    wall = solver.wall_time
    work = solver.deterministic_time
    if status == cp_model.INFEASIBLE:
        raise InfeasibleError(
            "no valid arrangement satisfies the constraints (CP-SAT proved it infeasible)"
        )
    _check_valid(model, status)
    if status != cp_model.OPTIMAL:
        check_budget()  # stopped by the call's deadline rather than by its own limit
        raise SolverTimeoutError(
            f"CP-SAT proved no optimum within {time_limit:g} s (status "
            f"{solver.status_name(status)})"
        )

    def chosen(value_of: Callable[[cp_model.IntVar], bool]) -> list[int]:
        return [
            int(ids[next(j for j, x in enumerate(xr) if value_of(x))])
            for (_, _, _, ids), xr in zip(rows, xs, strict=True)
        ]

    def true_value(picks: list[int]) -> float:
        # back + middle + front, in the order every engine and RowTables.value add them.
        f, m, b = (float(vals[cls[i]]) for i, (_, cls, vals, _) in zip(picks, rows, strict=True))
        return b + m + f

    picks = chosen(solver.boolean_value)
    value = true_value(picks)
    if scale != 1.0:
        # Rounded coefficients: sweep the band R >= R* - 3 for the true optimum (docstring).
        best: list[tuple[float, list[int]]] = []

        class Sweep(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                found = chosen(self.boolean_value)
                v = true_value(found)
                if not best or v > best[0][0]:
                    best[:] = [(v, found)]

        best_r = round(solver.objective_value)
        model.clear_objective()  # type: ignore[no-untyped-call]
        model.add(objective >= best_r - 3)
        solver.parameters.enumerate_all_solutions = True
        left = budget_left()
        if left is not None:
            solver.parameters.max_time_in_seconds = min(time_limit, left)
        status = solver.solve(model, Sweep())
        _check_valid(model, status)
        wall += solver.wall_time
        work += solver.deterministic_time
        if status != cp_model.OPTIMAL or not best:
            raise SolverTimeoutError(f"CP-SAT band sweep did not finish within {time_limit:g} s")
        value, picks = best[0]

    f, m, b = picks
    return CpsatResult(
        (
            tuple(int(p) for p in t.comb5[b]),
            tuple(int(p) for p in t.comb5[m]),
            tuple(int(p) for p in t.comb3[f]),
        ),
        value,
        scale,
        wall,
        work,
    )
