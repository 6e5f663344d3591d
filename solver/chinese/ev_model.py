"""The opponent model of the expected-value objective (RULES §2.3) and its data files.

**What is stored.** For one rule set: for each row (front, middle, back) the probability
``rows[r, c]`` that an opponent who plays rows (does not declare a natural) sets strength class
``c`` in row ``r``, and ``naturals[k]``, the probability that an opponent declares natural
``k`` (index 0: no natural; 1 dragon, 2 three flushes, 3 three straights, 4 six pairs, CP-11).
The distributions come from self-play (:mod:`cpsolver.chinese.training`): opponents arrange as
the solver does.

**What is derived** (:func:`row_tables`), per row and class ``c`` of ours: ``WIN`` =
P(their class < c), ``TIE`` = P(equal), ``VALUE`` = the units our row collects when it wins
(CP-8), ``PAID`` = expected units we pay = sum over stronger classes of P times *their* row
value (their royalties), and ``ADD = VALUE * WIN - PAID``.

**EV of a split against one opponent** (:func:`pairing_ev`), rows treated as independent:

* ``per_row``: ``ADD[front] + ADD[middle] + ADD[back]``; exact given the marginals, because
  the expectation of a sum is the sum of expectations.
* ``two_four``: the rows plus P(we win more rows) - P(they win more), from the product of the
  three rows' win/tie/loss probabilities (an approximation: an opponent's rows are correlated).
* ``scoop_double``: the rows plus P(scoop) times our row units, minus the opponent's expected
  scoop units, again with independent rows (approximation).

Then ``EV = (players - 1) * ((1 - q) * rows_ev - sum_k naturals[k] * units_k)`` with ``q`` the
chance an opponent declares a natural (no rows compared, CP-11): pairings are treated as
independent, and the tables ignore card removal (our 13 cards change what opponents can hold).
Opponents never foul (they arrange as we do). Rollouts (:mod:`cpsolver.chinese.rollouts`) measure
what these approximations cost.

**Files.** A rule set is served by the model of its *table key*
(:func:`cpsolver.chinese.table_keys.table_key`: players, order, wheel and naturals folded), one
``.npz`` per key, named ``chinese-ev-<fingerprint>.npz`` after the key's
:meth:`ChineseRules.fingerprint`, holding a JSON header (format name and version, the rule set
it was trained under, training parameters and the SHA-256 of the arrays) and the arrays
``rows``, ``naturals`` and the previous training iteration's ``previous_rows``,
``previous_naturals``. :func:`model_for` serves the asked rule set from its key's model
(:func:`serve`: the asked rules, the key's distributions on the asked strength scale). A file
that cannot be read, whose checksum fails, or whose rule set has another key is refused with
:class:`TablesError` naming the file, as is a file the package's manifest (``tables.json``)
lists but that is absent; a key without a file raises :class:`MissingTablesError`, whose
message gives the ``cpsolver train`` command that makes one.

**Which files answer.** The package's own files (``solver/data``), unless the user names
directories of their own in ``$CPSOLVER_TABLES``: those are searched first
(:func:`table_search_path`). ``cpsolver train`` writes to ``$XDG_DATA_HOME/cpsolver`` by
default, a directory that is *not* searched unless named there, so training never changes
an answer behind the user's back. Every ``ev`` answer says which file it came from
(:func:`tables_info`, ``Solution.tables``).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cpsolver.chinese.ev_kernel import (
    F_ADD,
    F_PAID,
    F_TIE,
    F_VALUE,
    F_WIN,
    MODE_ADDITIVE,
    MODE_SCOOP,
    MODE_TWO_FOUR,
    NUM_FIELDS,
)
from cpsolver.chinese.natural_rates import natural_rates as list_rates
from cpsolver.chinese.removal import RemovalModel
from cpsolver.chinese.scoring import pair_terms, row_value_table, settle
from cpsolver.chinese.search import PAIR_ROWS, PAIR_SCOOP_BONUS
from cpsolver.chinese.table_keys import (
    differing,
    permute_rows,
    shipped_keys,
    stand_in_key,
    table_key,
)
from cpsolver.errors import CpsolverError, InvalidInputError
from cpsolver.evaluator.poker import NUM_CLASSES
from cpsolver.rules.chinese import ChineseRules, Scoring, Sweep, Wheel

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MANIFEST",
    "NATURAL_NAMES",
    "TABLES_ENV",
    "MissingTablesError",
    "OpponentModel",
    "TablesError",
    "TablesInfo",
    "clear_cache",
    "declare_ev",
    "kernel_mode",
    "kernel_pairing",
    "load_model",
    "model_for",
    "natural_code",
    "natural_name",
    "natural_odds",
    "natural_rates",
    "package_manifest",
    "pairing_ev",
    "preload",
    "row_tables",
    "row_values",
    "row_values_view",
    "rows_ev_span",
    "save_model",
    "serve",
    "table_filename",
    "table_search_path",
    "tables_info",
    "total_ev",
    "user_tables_dir",
]

FORMAT = "cpsolver-chinese-ev-tables"
FORMAT_VERSION = 1
NATURAL_NAMES = ("none", "dragon", "three_flushes", "three_straights", "six_pairs")
PACKAGE_DATA = Path(__file__).resolve().parent.parent / "data"


TABLES_ENV = "CPSOLVER_TABLES"
"""Directories of the user's own table files (``os.pathsep``-separated), searched before the
package's; unset, only the shipped tables answer."""


@dataclass(frozen=True, slots=True)
class TablesInfo:
    """Which table file answered an ``ev`` solve: the table ``key`` (the fingerprint of the
    key's rule set, :func:`cpsolver.chinese.table_keys.table_key`), the ``file``'s name, and
    whether it is one the package ships (``shipped``) or the user's, from a directory of
    ``$CPSOLVER_TABLES`` (then ``directory`` names it; None for a shipped file).

    >>> info = tables_info(ChineseRules.preset("standard"))
    >>> info.file == f"chinese-ev-{info.key}.npz", info.describe() == f"{info.file} (shipped)"
    (True, True)
    """

    key: str
    file: str
    shipped: bool
    directory: str | None = None
    stand_in_for: str | None = None

    @property
    def stand_in(self) -> bool:
        """True when the rule set's own table key is not trained and the file is that of the
        nearest trained key (:func:`~cpsolver.chinese.table_keys.stand_in_key`), standing in
        for ``stand_in_for``: its distributions, the rule set's own settlement."""
        return self.stand_in_for is not None

    @property
    def source(self) -> str:
        """``shipped`` or ``user``."""
        return "shipped" if self.shipped else "user"

    def describe(self) -> str:
        """One line for people: ``chinese-ev-<key>.npz (shipped)`` or ``... (user's, DIR)``."""
        where = "shipped" if self.shipped else f"user's, {self.directory}"
        if self.stand_in_for is not None:
            where += f"; stand-in for the untrained key {self.stand_in_for}"
        return f"{self.file} ({where})"

    def to_dict(self) -> dict[str, Any]:
        """JSON form (``cpsolver solve --json``'s ``tables``; ``stand_in_for`` only for a
        stand-in)."""
        out: dict[str, Any] = {
            "key": self.key,
            "file": self.file,
            "source": self.source,
            "directory": self.directory,
        }
        if self.stand_in_for is not None:
            out["stand_in_for"] = self.stand_in_for
        return out


class TablesError(CpsolverError):
    """A table file is damaged, of an unknown format, or made for another rule set."""


class MissingTablesError(InvalidInputError):
    """No trained opponent model exists for this rule set (the message says how to make one)."""


@dataclass(frozen=True, eq=False)
class OpponentModel:
    """Opponents' row-class distributions and natural rates for one rule set (module doc)."""

    rules: ChineseRules
    rows: npt.NDArray[np.float64]
    naturals: npt.NDArray[np.float64]
    previous_rows: npt.NDArray[np.float64] | None = None
    previous_naturals: npt.NDArray[np.float64] | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_distribution("rows", self.rows, (3, NUM_CLASSES))
        _check_distribution("naturals", self.naturals, (len(NATURAL_NAMES),))
        if self.previous_rows is not None:
            _check_distribution("previous_rows", self.previous_rows, (3, NUM_CLASSES))
        if self.previous_naturals is not None:
            _check_distribution("previous_naturals", self.previous_naturals, (5,))

    @property
    def tables(self) -> npt.NDArray[np.float64]:
        """The kernel's per-row tables, shape ``(3, NUM_FIELDS, NUM_CLASSES)`` (cached)."""
        source = self.__dict__.get("_derived_from")
        if source is not None:
            return source.tables  # type: ignore[no-any-return]
        cached = self.__dict__.get("_tables")
        if cached is None:
            cached = row_tables(self.rules, self.rows)
            cached.setflags(write=False)
            object.__setattr__(self, "_tables", cached)
        return cached

    @property
    def removal(self) -> RemovalModel:
        """The model in the card-removal kernels' form (:mod:`cpsolver.chinese.removal`,
        cached): what the default ``ev`` objective scores with."""
        source = self.__dict__.get("_derived_from")
        if source is not None:
            return source.removal  # type: ignore[no-any-return]
        cached = self.__dict__.get("_removal")
        if cached is None:
            cached = RemovalModel.of(
                self.rows, _row_values(self.rules),
                wheel_second_highest=self.rules.wheel_second_highest,
            )  # fmt: skip
            object.__setattr__(self, "_removal", cached)
        return cached

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        for derived in ("_tables", "_removal", "_derived_from"):  # rebuilt on demand (keeps
            state.pop(derived, None)  # pickles small)
        return state

    def under(self, rules: ChineseRules) -> OpponentModel:
        """The same opponents under ``rules``, a rule set whose rows are worth the same (CP-8)
        on the same strength scale: the arrays and the derived tables are shared, not copied
        (every rule set a worker serves costs a few hundred bytes, not a megabyte).

        >>> model = model_for(ChineseRules.preset("standard"))
        >>> heads_up = model.under(ChineseRules.preset("standard", players=2))
        >>> heads_up.rules.players, heads_up.tables is model.tables
        (2, True)
        >>> model.under(ChineseRules.preset("eastern"))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: the rows of this rule set are worth other units (CP-8): ...
        """
        if rules.wheel_second_highest != self.rules.wheel_second_highest:
            raise ValueError("another strength scale (wheel): the model's classes do not apply")
        if not np.array_equal(_row_values(rules), _row_values(self.rules)):
            raise ValueError(
                "the rows of this rule set are worth other units (CP-8): its model's tables "
                "do not apply"
            )
        if rules == self.rules:
            return self
        model = OpponentModel(
            rules, self.rows, self.naturals, self.previous_rows, self.previous_naturals, self.meta
        )
        object.__setattr__(model, "_derived_from", self)
        return model

    def previous(self) -> OpponentModel:
        """The model of the training iteration before this one (for the matches benchmark)."""
        if self.previous_rows is None or self.previous_naturals is None:
            raise TablesError("this model does not store its previous iteration")
        return OpponentModel(self.rules, self.previous_rows, self.previous_naturals)


def _check_distribution(name: str, array: npt.NDArray[np.float64], shape: tuple[int, ...]) -> None:
    if array.shape != shape:
        raise TablesError(f"{name}: shape {array.shape}, expected {shape}")
    if not np.all(np.isfinite(array)) or np.any(array < 0):
        raise TablesError(f"{name}: probabilities must be finite and non-negative")
    sums = array.sum(axis=-1)
    if not np.allclose(sums, 1.0, atol=1e-9):
        raise TablesError(f"{name}: each distribution must sum to 1 (sums {sums})")


def row_values(rules: ChineseRules) -> npt.NDArray[np.float64]:
    """``values[row, cls]``: units a row of class ``cls`` collects when it wins (CP-8).

    >>> v = row_values(ChineseRules())
    >>> from cpsolver.evaluator.poker import evaluate
    >>> v[1, evaluate("Jh Js 4c 4d Jd").strength], v[2, evaluate("Jh Js 4c 4d Jd").strength]
    (np.float64(2.0), np.float64(1.0))
    """
    return _row_values(rules).copy()


def row_values_view(rules: ChineseRules) -> npt.NDArray[np.float64]:
    """:func:`row_values` without the copy (read-only, cached per rule set)."""
    return _row_values(rules)


# By what the values depend on (CP-8: the royalty schedule, or a rule file's own table, and
# mode; who pays a bonus; the strength scale), not by rule set: 432 rule sets share 10 arrays
# (issue 15: a worker's memory stays bounded). The key must name the table itself, not only
# ``royalties``: every rule file's table is ``royalties=custom``, and keyed by that alone they
# all got the first custom table's values (a server's warm-up: the shisanshui preset's).
_ROW_VALUES: dict[tuple[object, ...], npt.NDArray[np.float64]] = {}


def _row_values(rules: ChineseRules) -> npt.NDArray[np.float64]:
    key = (rules.royalties, rules.royalty_table, rules.royalty_mode, rules.bonus_paid,
           rules.wheel_second_highest)  # fmt: skip
    found = _ROW_VALUES.get(key)
    if found is None:
        # The settlement's own table (one source for the rule), as floats for the kernels.
        found = np.array(row_value_table(rules), dtype=np.float64)
        found.setflags(write=False)
        _ROW_VALUES[key] = found
    return found


def row_tables(rules: ChineseRules, rows: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Per-row tables ``(3, NUM_FIELDS, NUM_CLASSES)`` derived from the distributions."""
    values = _row_values(rules)
    out = np.zeros((3, NUM_FIELDS, NUM_CLASSES))
    for r in range(3):
        d = rows[r]
        below = np.concatenate(([0.0], np.cumsum(d)[:-1]))
        weighted = d * values[r]
        above_paid = np.concatenate((np.cumsum(weighted[::-1])[::-1][1:], [0.0]))
        out[r, F_WIN] = below
        out[r, F_TIE] = d
        out[r, F_VALUE] = values[r]
        out[r, F_PAID] = above_paid
        out[r, F_ADD] = values[r] * below - above_paid
    return out


def kernel_mode(rules: ChineseRules) -> int:
    """The kernel mode that combines row tables under this rule set's CP-9 scoring
    (``scoop_bonus:N``, CP-13, is scanned in the scoop mode: docs/EV.md)."""
    return {
        Scoring.PER_ROW: MODE_ADDITIVE,
        Scoring.TWO_FOUR: MODE_TWO_FOUR,
        Scoring.SCOOP_DOUBLE: MODE_SCOOP,
        Scoring.SCOOP_BONUS: MODE_SCOOP,
    }[rules.scoring]


def kernel_pairing(model: OpponentModel) -> npt.NDArray[np.float64]:
    """The pairing mode the split kernels combine the row tables by under the model's rule set
    (:data:`cpsolver.chinese.search.MODE_FIELDS`): the scoop rule (CP-9, CP-13's
    ``scoop_bonus:N``) and, at a table of 3 or 4 under ``sweep=double``, the sweep:
    ``e = players - 2`` other opponents; ``we = (1 - q)^e`` (``q`` an opponent's natural
    rate: our scoop of each of them is independent given our cards); ``they = (1 - q)^e *
    prod_r E[F_r^(e+1)] / E[F_r]``, the chance that an opponent who scooped us scoops the
    ``e`` others too, its rows independent (``F_r(x)``: the chance its row of class ``x`` beats
    another's, under the full-deck distributions). Cached per rule set.

    >>> kernel_pairing(model_for(ChineseRules())).tolist()
    [0.0, 0.0, 0.0, 0.0, 0.0]
    >>> mode = kernel_pairing(model_for(ChineseRules.preset("shisanshui")))
    >>> mode[:3].tolist(), bool(0.9 < mode[3] < 1.0), bool(0.05 < mode[4] < 0.2)
    ([2.0, 0.0, 2.0], True, True)
    """
    found = model.__dict__.get("_pairing")
    if found is None:
        found = _kernel_pairing(model)
        found.setflags(write=False)
        object.__setattr__(model, "_pairing", found)
    return found


def _kernel_pairing(model: OpponentModel) -> npt.NDArray[np.float64]:
    rules = model.rules
    kind = {
        Scoring.PER_ROW: MODE_ADDITIVE,
        Scoring.TWO_FOUR: MODE_TWO_FOUR,
        Scoring.SCOOP_DOUBLE: MODE_SCOOP,
        Scoring.SCOOP_BONUS: PAIR_SCOOP_BONUS,
    }[rules.scoring]
    bonus = float(rules.scoop_bonus)
    e = rules.players - 2 if rules.sweep is Sweep.DOUBLE else 0
    if e <= 0:
        return np.array([kind, bonus, 0.0, 0.0, 0.0])
    if kind == MODE_ADDITIVE:
        kind = PAIR_ROWS  # per-row units from the fields, so that the sweep can be priced
    plays = float(natural_rates(model)[0])
    # P(an opponent who scooped us scoops the e others too): a scooper is strong, so not
    # s^e but, rows independent, prod_r E[F_r^(e+1)] / E[F_r] with F_r(x) the chance its row
    # r of class x beats another's (the rows' distributions, full deck).
    sweeps = 1.0
    for r in range(3):
        d = model.rows[r]
        beats = np.cumsum(d) - d  # F(x) = P(another's row is weaker)
        sweeps *= float((d * beats ** (e + 1)).sum()) / float((d * beats).sum())
    return np.array([kind, bonus, float(e), plays**e, plays**e * sweeps])


def pairing_ev(
    model: OpponentModel,
    front: int,
    middle: int,
    back: int,
    mode: npt.NDArray[np.float64] | None = None,
) -> float:
    """Expected units of rows (front, middle, back classes) against one opponent who plays
    rows, straight from the distributions (plain Python; the kernels must agree).

    Enumerates the 27 win/tie/loss outcomes of the three rows as independent events; the
    sweep (CP-13) as :func:`kernel_pairing` prices it (``mode``: that of another model, e.g.
    the full-deck one when ``model`` is reweighted for the cards held).
    """
    rules = model.rules
    values = _row_values(rules)
    win, tie, loss, paid_if_lost = [], [], [], []
    for r, c in enumerate((front, middle, back)):
        d = model.rows[r]
        w = float(d[:c].sum())
        t = float(d[c])
        lo = 1.0 - w - t
        above = float((d[c + 1 :] * values[r, c + 1 :]).sum())
        win.append(w)
        tie.append(t)
        loss.append(lo)
        # Expected units we pay on this row given that we lose it.
        paid_if_lost.append(above / lo if lo > 0 else 0.0)
    ours = [float(values[r, c]) for r, c in enumerate((front, middle, back))]
    total = 0.0
    swept = scooped_in = p_scoop = 0.0
    for outcome in np.ndindex(3, 3, 3):  # 0 win, 1 tie, 2 loss per row
        p = 1.0
        units = 0.0
        won = lost = 0
        ours_sum = theirs_sum = 0.0
        for r, o in enumerate(outcome):
            p *= (win, tie, loss)[o][r]
            if o == 0:
                won += 1
                ours_sum += ours[r]
            elif o == 2:
                lost += 1
                theirs_sum += paid_if_lost[r]
        if p == 0.0:
            continue
        units = ours_sum - theirs_sum
        if rules.scoring is Scoring.TWO_FOUR:
            units += 1.0 if won > lost else (-1.0 if lost > won else 0.0)
        elif rules.scoring is Scoring.SCOOP_DOUBLE:
            units += ours_sum if won == 3 else (-theirs_sum if lost == 3 else 0.0)
        elif rules.scoring is Scoring.SCOOP_BONUS:
            units += rules.scoop_bonus if won == 3 else (-rules.scoop_bonus if lost == 3 else 0)
        total += p * units
        if won == 3:
            swept += p * units
            p_scoop += p
        elif lost == 3:
            scooped_in -= p * units
    mode = kernel_pairing(model) if mode is None else mode
    if mode[2] > 0:
        total += swept * p_scoop ** mode[2] * mode[3] - scooped_in * mode[4]
    return total


def natural_rates(model: OpponentModel) -> npt.NDArray[np.float64]:
    """``rates[code]``: the chance an opponent declares natural ``code`` of the model's rule
    set (index 0: none). CP-11's four: the trained rates of self-play; a list of the rule
    set's own (CP-15): :mod:`cpsolver.chinese.natural_rates` (any natural held is declared);
    ``naturals=off``: ``[1.0]``."""
    rules = model.rules
    if not rules.naturals:
        return _NO_NATURALS
    if rules.natural_table is None:
        return model.naturals
    return list_rates(rules)


_NO_NATURALS = np.ones(1)
_NO_NATURALS.setflags(write=False)


@cache
def _natural_amounts(rules: ChineseRules) -> tuple[tuple[float, ...], ...]:
    """``amounts[a][b]``: what a hand declaring natural ``a`` (0: playing rows) wins from one
    declaring ``b`` (0: rows), by the one settlement (``scoring.settle``: units, ties, scoop)."""
    terms = pair_terms(rules)
    count = len(rules.natural_units)
    rows = (0, 0, 0)
    return tuple(
        tuple(float(settle(rows, rows, terms, natural_a=a, natural_b=b)[0]) for b in range(count))
        for a in range(count)
    )


def total_ev(model: OpponentModel, rows_ev: float) -> float:
    """EV at the table of a split whose per-opponent row EV is ``rows_ev`` (module doc): rows
    against an opponent who plays rows, what each natural an opponent declares takes from us."""
    opponents, plays_rows, against_naturals = _total_ev_terms(model)
    return opponents * (plays_rows * rows_ev - against_naturals)


def rows_ev_span(model: OpponentModel, units: float) -> float:
    """The per-opponent row EV difference that makes a difference of ``units`` in
    :func:`total_ev` (affine in the row EV, of slope opponents x P(an opponent plays rows));
    infinite when the rows decide nothing."""
    opponents, plays_rows, _ = _total_ev_terms(model)
    slope = opponents * plays_rows
    return units / slope if slope > 0 else math.inf


def _total_ev_terms(model: OpponentModel) -> tuple[int, float, float]:
    """:func:`total_ev`'s constants of ``model``, made once per model (a solve asks for ten
    candidates' totals): the opponents, P(an opponent plays rows) and what their naturals
    take from us."""
    cached = model.__dict__.get("_total_ev_terms")
    if cached is None:
        rates = natural_rates(model)
        q = 1.0 - float(rates[0])
        paid = -np.array(_natural_amounts(model.rules)[0][1:])
        cached = (model.rules.players - 1, 1.0 - q, float((rates[1:] * paid).sum()))
        object.__setattr__(model, "_total_ev_terms", cached)
    return cached


def natural_odds(model: OpponentModel, code: int) -> tuple[float, float, float]:
    """Against one opponent, declaring natural ``code`` (its rank in the rule set's list):
    P(win) (they declare none or a lower natural: we collect), P(tie) (the same natural),
    P(loss) (a higher one: we pay), from the model's natural rates (CP-11, CP-15).

    >>> m = model_for(ChineseRules())
    >>> win, tie, loss = natural_odds(m, 1)   # a dragon loses to nothing
    >>> round(loss, 12), round(win + tie, 12)
    (0.0, 1.0)
    """
    rates = natural_rates(model)
    win = float(rates[0]) + float(sum(rates[k] for k in range(code + 1, len(rates))))
    tie = float(rates[code])
    return win, tie, max(0.0, 1.0 - win - tie)


def declare_ev(model: OpponentModel, code: int) -> float:
    """EV at the table of declaring natural ``code`` (its rank in the rule set's list; CP-11's
    1 dragon .. 4 six pairs), settled against each natural an opponent may declare (CP-15's
    ``natural_ties``, ``naturals_scooped``)."""
    rates = natural_rates(model)
    amounts = _natural_amounts(model.rules)[code]
    per = float(rates[0]) * amounts[0]
    for k in range(1, len(rates)):
        if k != code:
            per += float(rates[k]) * amounts[k]
    return (model.rules.players - 1) * per


def natural_code(rules: ChineseRules, name: str) -> int:
    """The code (1-based rank in ``rules``' list) of the natural named ``name``.

    >>> natural_code(ChineseRules.preset("shisanshui"), "six_pairs")
    12
    """
    for code, (natural, _) in enumerate(rules.natural_list, start=1):
        if natural.value == name:
            return code
    raise ValueError(f"{name!r} is not in this rule set's list of naturals")


def natural_name(rules: ChineseRules, code: int) -> str:
    """The name of natural ``code`` of ``rules``' list (the inverse of :func:`natural_code`)."""
    return rules.natural_list[code - 1][0].value


# ----------------------------------------------------------------------------- files


def table_filename(rules: ChineseRules) -> str:
    """``chinese-ev-<fingerprint of the table key>.npz``: one file per key
    (:func:`cpsolver.chinese.table_keys.table_key`), shared by every rule set of the key."""
    return f"chinese-ev-{table_key(rules).fingerprint()}.npz"


def table_search_path() -> list[Path]:
    """Directories searched for table files, first match wins.

    The user's directories of ``$CPSOLVER_TABLES`` (``os.pathsep``-separated) when set, then
    the tables shipped in the package (``solver/data``). Where ``cpsolver train`` writes by
    default (:func:`user_tables_dir`) is not searched unless ``$CPSOLVER_TABLES`` names it:
    training never shadows the shipped tables unless the user asks for it.
    """
    dirs = [Path(p) for p in os.environ.get(TABLES_ENV, "").split(os.pathsep) if p]
    dirs.append(PACKAGE_DATA)
    return dirs


def user_tables_dir() -> Path:
    """Where ``cpsolver train`` writes without ``--out``: ``$XDG_DATA_HOME/cpsolver`` (default
    ``~/.local/share/cpsolver``); read by solves only with ``CPSOLVER_TABLES`` naming it."""
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "cpsolver"


def _digest(arrays: Mapping[str, npt.NDArray[np.float64]]) -> str:
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name], dtype="<f8")
        h.update(name.encode())
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def save_model(model: OpponentModel, directory: str | Path) -> Path:
    """Write the model's file into ``directory`` (created if needed); returns its path."""
    arrays = {"rows": model.rows, "naturals": model.naturals}
    if model.previous_rows is not None and model.previous_naturals is not None:
        arrays["previous_rows"] = model.previous_rows
        arrays["previous_naturals"] = model.previous_naturals
    header = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "fingerprint": model.rules.fingerprint(),
        "rules": model.rules.to_dict(),
        "sha256": _digest(arrays),
        "training": dict(model.meta),
    }
    path = Path(directory) / table_filename(model.rules)
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = np.frombuffer(json.dumps(header, sort_keys=True).encode(), dtype=np.uint8)
    tmp = path.with_suffix(".tmp.npz")
    stored = {k: np.asarray(v, "<f8") for k, v in arrays.items()}
    np.savez_compressed(tmp, header=raw, **stored)  # type: ignore[arg-type]
    tmp.replace(path)
    return path


def load_model(path: str | Path, rules: ChineseRules | None = None) -> OpponentModel:
    """Read and verify a table file; with ``rules``, refuse a file whose rule set has another
    table key. The model's ``rules`` are those it was trained under (its header)."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(bytes(data["header"]).decode())
            arrays = {k: np.array(data[k], dtype=np.float64) for k in data.files if k != "header"}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, UnicodeDecodeError) as exc:
        raise TablesError(f"{path}: not a readable table file ({exc})") from exc
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise TablesError(f"{path}: not a {FORMAT} file")
    if header.get("version") != FORMAT_VERSION:
        raise TablesError(
            f"{path}: format version {header.get('version')}, this solver reads {FORMAT_VERSION}"
        )
    if header.get("sha256") != _digest(arrays):
        raise TablesError(f"{path}: checksum mismatch, the file is damaged")
    try:
        stored = ChineseRules().replace(**header["rules"])
    except (InvalidInputError, KeyError, TypeError) as exc:
        raise TablesError(f"{path}: unreadable rule set in header ({exc})") from exc
    if stored.fingerprint() != header.get("fingerprint"):
        raise TablesError(f"{path}: header fingerprint does not match its rule set")
    if rules is not None and table_key(rules) != table_key(stored):
        raise TablesError(
            f"{path}: tables were trained for [{stored.describe()}], whose table key is not "
            f"that of [{rules.describe()}]"
        )
    if "rows" not in arrays or "naturals" not in arrays:
        raise TablesError(f"{path}: missing arrays")
    return OpponentModel(
        stored,
        arrays["rows"],
        arrays["naturals"],
        arrays.get("previous_rows"),
        arrays.get("previous_naturals"),
        header.get("training", {}),
    )


MANIFEST = "tables.json"
"""The list of table files the package ships (``solver/data/tables.json``, written by
:mod:`cpsolver.chinese.make_tables`): a listed file that is absent is a damaged installation
(:class:`TablesError`), not an untrained key."""

_LOADED: dict[str, OpponentModel] = {}  # per rule set: light, shares _SCALED's arrays
_SCALED: dict[str, OpponentModel] = {}  # per table key and strength scale
_KEYS_LOADED: dict[str, OpponentModel] = {}  # per table key, as stored
_KEYS_INFO: dict[str, TablesInfo] = {}  # per table key: the file it was read from


def clear_cache() -> None:
    """Forget every loaded model (the next :func:`model_for` reads the files again)."""
    _LOADED.clear()
    _SCALED.clear()
    _KEYS_LOADED.clear()
    _KEYS_INFO.clear()


def tables_info(rules: ChineseRules) -> TablesInfo:
    """The table file that serves ``rules`` (loading it as :func:`model_for` does, so the
    same errors): what ``Solution.tables`` reports."""
    key = table_key(rules)
    found = _KEYS_INFO.get(key.fingerprint())
    if found is None:
        _key_model(rules, key)
        found = _KEYS_INFO[key.fingerprint()]
    return found


def package_manifest() -> dict[str, Any]:
    """The package's table manifest: ``{"files": {name: {"key": rules dict}}}`` (empty when
    the package ships no manifest)."""
    path = PACKAGE_DATA / MANIFEST
    if not path.is_file():
        return {"files": {}}
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise TablesError(f"{path}: not a readable table manifest ({exc})") from exc
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        raise TablesError(f'{path}: not a table manifest (no "files" object)')
    return manifest


def serve(model: OpponentModel, rules: ChineseRules) -> OpponentModel:
    """The model of ``rules`` from the trained model of its key: the asked rule set (so row
    values, scoring, order and natural rule are exactly its own) with the key's distributions,
    moved onto the asked strength scale (:func:`~cpsolver.chinese.table_keys.permute_rows`)."""
    if model.rules == rules:
        return model
    wheel = rules.wheel_second_highest
    if model.rules.wheel_second_highest:
        raise TablesError("a table key is always trained with wheel=lowest")
    previous = model.previous_rows
    meta = dict(model.meta)
    meta["trained_for"] = model.rules.to_dict()
    return OpponentModel(
        rules,
        permute_rows(model.rows, wheel),
        model.naturals,
        None if previous is None else permute_rows(previous, wheel),
        model.previous_naturals,
        meta,
    )


def model_for(rules: ChineseRules) -> OpponentModel:
    """The model for ``rules``, served by the trained model of its table key (:func:`serve`),
    loaded lazily from the search path and cached.

    Raises :class:`MissingTablesError` when no directory holds the key's file, and
    :class:`TablesError` naming the file when a file is damaged or a file the package lists
    in its manifest is absent."""
    found = _LOADED.get(rules.fingerprint())
    if found is not None:
        return found
    # One served model per key and strength scale holds the arrays; each rule set's model
    # shares them (432 rule sets fit in the memory of 30).
    key = table_key(rules)
    scale = key.replace(wheel=rules.wheel)
    base = _SCALED.get(scale.fingerprint())
    if base is None:
        base = serve(_key_model(rules, key), scale)
        _SCALED[scale.fingerprint()] = base
    model = base.under(rules)
    _LOADED[rules.fingerprint()] = model
    return model


def preload() -> int:
    """Load every trained table key on both strength scales, with the card-removal form the
    default objective scores with, so no request pays a first use (a server worker calls it
    before it accepts calls, and its memory is then flat: every rule set shares these
    models, :meth:`OpponentModel.under`). Keys without tables are skipped (their calls say so).
    Returns how many models were loaded (34 with every key shipped: :func:`~cpsolver.chinese.
    table_keys.shipped_keys`, the presets' included).

    >>> preload()
    34
    """
    loaded = 0
    for key in shipped_keys():
        for wheel in Wheel:
            try:
                model_for(key.replace(wheel=wheel)).removal  # noqa: B018 - built and cached
            except MissingTablesError:
                continue
            loaded += 1
    return loaded


def _key_model(rules: ChineseRules, key: ChineseRules) -> OpponentModel:
    found = _KEYS_LOADED.get(key.fingerprint())
    if found is not None:
        return found
    name = table_filename(key)
    for directory in table_search_path():
        path = directory / name
        if path.is_file():
            model = load_model(path, key)
            shipped = directory == PACKAGE_DATA
            _KEYS_INFO[key.fingerprint()] = TablesInfo(
                key.fingerprint(), name, shipped, None if shipped else str(directory.resolve())
            )
            _KEYS_LOADED[key.fingerprint()] = model
            return model
    stand_in = stand_in_key(key)
    if stand_in != key:
        # A rule set of §2.5 whose key is not trained: the nearest trained key's opponents,
        # settled under the rule set's own options (docs/EV.md, "Stand-in tables").
        model = _key_model(rules, stand_in)
        found_info = _KEYS_INFO[stand_in.fingerprint()]
        _KEYS_INFO[key.fingerprint()] = replace(found_info, stand_in_for=key.fingerprint())
        _KEYS_LOADED[key.fingerprint()] = model
        return model
    if name in package_manifest()["files"]:
        raise TablesError(
            f"{PACKAGE_DATA / name}: the package lists this table file but it is missing "
            "(a damaged installation: reinstall cpsolver)"
        )
    command = " ".join(["cpsolver train --rules standard", *_sets(rules)])
    raise MissingTablesError(
        "rules",
        f"no trained expected-value tables for this rule set [{rules.describe()}]: its table "
        f"key [{key.describe()}] is not trained; train them with `{command}` (trains the key, "
        f"written to ~/.local/share/cpsolver) and solve with {TABLES_ENV}=~/.local/share/"
        "cpsolver, or use --objective strength",
    )


def _sets(rules: ChineseRules) -> list[str]:
    return [f"--set {k}={_option_text(v)}" for k, v in differing(rules).items()]


def _option_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
