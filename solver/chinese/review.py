"""``review``: a whole hand history rated, hand by hand, and summed up by player.

Each hand of a history is what a player set: rows ``{"back", "middle", "front"}`` (a fouled
set is rated as the foul it is) or a declared natural ``{"cards", "natural": true}``, with an
optional ``id``, ``player`` and ``rules`` (a preset name with ``OPTION=VALUE`` words, ``"eastern
order=strict"``, or an object ``{"preset": ..., OPTION: VALUE}``; the call's rule set when
absent). The format, as JSON lines or CSV, is docs/schemas/hand-history.schema.json.

Every hand is rated as :func:`cpsolver.chinese.rate.rate` rates it, with the same numbers
(tests/test_review.py checks the summary against a loop of ``rate`` calls). With the ``model``
estimator the hands of one rule set go through one batch kernel
(:func:`cpsolver.chinese.search.rate_removal_batch`: the best split and the played rows' value
per hand, on every core by threads); the finer estimators rate hand by hand. A bad hand is
reported in :attr:`Review.errors` with its position and does not stop the review.

A player's :class:`PlayerSummary`: hands, total and mean EV lost per hand (with the 95%
interval of the mean over the hands, a normal approximation), the share of hands played best
(with its Wilson interval), fouls, the worst hands and the mistakes grouped by kind
(:data:`cpsolver.chinese.rate.MISTAKE_KINDS`: how many hands, how many units lost).

>>> history = [
...     {"player": "ann", "back": "As Ks Qs Js Ts", "middle": "9h 9d 9c 2h 2d",
...      "front": "7c 5d 3s"},
...     {"player": "bob", "back": "9h 9d 9c 2h 2d", "middle": "As Ks Qs Js Ts",
...      "front": "7c 5d 3s"},
... ]
>>> result = review(history)
>>> [(p.player, p.hands, p.played_best, p.fouls) for p in result.players]
[('ann', 1, 1, 0), ('bob', 1, 0, 1)]
>>> result.hands[1].mistakes, result.hands[1].ev_lost > 0
(('foul',), True)
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from cpsolver.cards import Card
from cpsolver.checks import iterable_of, whole_number
from cpsolver.chinese.estimator import Estimator, EstimatorLike, resolve_estimator
from cpsolver.chinese.ev_model import (
    declare_ev,
    kernel_pairing,
    model_for,
    total_ev,
)
from cpsolver.chinese.rate import (
    MISTAKE_KINDS,
    PLAYED_BEST,
    Rating,
    foul_rows_ev,
    mistakes_of,
    rate,
)
from cpsolver.chinese.scoring import Seat, read_seat
from cpsolver.chinese.search import COMB3_LISTS, COMB5_LISTS, rate_removal_batch
from cpsolver.chinese.solve import resolve_rules
from cpsolver.errors import CpsolverError, FieldPath, InvalidInputError, Violations
from cpsolver.estimate import wilson_interval
from cpsolver.evaluator.poker import Category, PokerTables, hand_from_class, poker_tables
from cpsolver.gc_pause import collector_paused
from cpsolver.rules import ChineseRules, Row, parse_assignments
from cpsolver.seeds import check_seed

__all__ = [
    "HISTORY_FIELDS",
    "REVIEW_ESTIMATOR",
    "HandError",
    "MistakeTally",
    "PlayerSummary",
    "Review",
    "ReviewedHand",
    "checked_history",
    "hand_from_rating",
    "rate_hands",
    "review",
    "rules_of",
    "summarise",
]

HISTORY_FIELDS = frozenset({"id", "player", "rules", "back", "middle", "front", "cards", "natural"})
"""The fields of one hand of a history (docs/schemas/hand-history.schema.json)."""
REVIEW_ESTIMATOR = Estimator("model")
"""The estimator a review uses when none is named: the table model, whose batch kernel rates a
history's hands on every core (2,000-2,800 hands a second in docs/BENCHMARKS.md, "Reviewing a
history"), where a review by the calibrated default of a single solve or rating goes hand by
hand (10 hands a second there). Name ``calibrated`` to review by it."""
WORST_HANDS = 5
"""How many of a player's worst hands a summary lists."""
_ROWS = (Row.BACK, Row.MIDDLE, Row.FRONT)
_CHUNK = 4096  # hands per kernel call: progress reports between them


@dataclass(frozen=True, slots=True)
class ReviewedHand:
    """One hand of a history, rated: ``index`` (0-based position in the history), ``line``
    (the input line, when read from a file), ``id`` and ``player`` as given; ``cards`` (13,
    ascending); ``rows`` (the played rows, back, middle, front; None for a declared natural),
    ``natural`` (the natural declared, else None); ``fouled``; ``ev`` and ``best_ev`` (expected
    units of the choice and of the best); ``ev_lost``; ``mistakes``; ``best_natural`` (the
    natural the best choice declares, else None) and ``best_rows`` (the best arrangement's
    rows, back, middle, front, as ``rate`` finds them; None when the best declares)."""

    index: int
    line: int | None
    id: Any
    player: str
    cards: tuple[Card, ...]
    rows: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]] | None
    natural: str | None
    fouled: bool
    ev: float
    best_ev: float
    ev_lost: float
    mistakes: tuple[str, ...]
    best_natural: str | None = None
    best_rows: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]] | None = None

    @property
    def played_best(self) -> bool:
        """True when the choice is worth the best's."""
        return self.ev_lost <= PLAYED_BEST

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "index": self.index,
            "line": self.line,
            "id": self.id,
            "player": self.player,
            "played": (
                {"natural": self.natural}
                if self.rows is None
                else {
                    r.label: [str(c) for c in cards]
                    for r, cards in zip(_ROWS, self.rows, strict=True)
                }
            ),
            "fouled": self.fouled,
            "ev": self.ev,
            "best_ev": self.best_ev,
            "ev_lost": self.ev_lost,
            "played_best": self.played_best,
            "mistakes": list(self.mistakes),
            "best_natural": self.best_natural,
            "best": (
                {"natural": self.best_natural}
                if self.best_rows is None
                else {
                    r.label: [str(c) for c in cards]
                    for r, cards in zip(_ROWS, self.best_rows, strict=True)
                }
            ),
        }


@dataclass(frozen=True, slots=True)
class HandError:
    """A hand that could not be rated: its ``index``, ``line``, ``id`` and the error."""

    index: int
    line: int | None
    id: Any
    error: CpsolverError

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the message and its field violations."""
        violations = getattr(self.error, "violations", ())
        return {
            "index": self.index,
            "line": self.line,
            "id": self.id,
            "message": str(self.error),
            "violations": [{"field": v.field, "description": v.description} for v in violations],
        }


@dataclass(frozen=True, slots=True)
class MistakeTally:
    """Hands showing one kind of mistake and the units they lost together."""

    hands: int
    ev_lost: float

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"hands": self.hands, "ev_lost": self.ev_lost}


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's hands summed up (module doc); ``player`` is "" for hands without one, and
    the overall summary's is ``"*"``."""

    player: str
    hands: int
    total_lost: float
    mean_lost: float
    mean_lost_ci95: tuple[float, float] | None
    played_best: int
    played_best_ci95: tuple[float, float]
    fouls: int
    worst: tuple[ReviewedHand, ...]
    mistakes: Mapping[str, MistakeTally] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def played_best_share(self) -> float:
        """The share of hands played best."""
        return self.played_best / self.hands if self.hands else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "player": self.player,
            "hands": self.hands,
            "total_ev_lost": self.total_lost,
            "mean_ev_lost": self.mean_lost,
            "mean_ev_lost_ci95": None if self.mean_lost_ci95 is None else list(self.mean_lost_ci95),
            "played_best": self.played_best,
            "played_best_share": self.played_best_share,
            "played_best_ci95": list(self.played_best_ci95),
            "fouls": self.fouls,
            "worst": [h.to_dict() for h in self.worst],
            "mistakes": {kind: t.to_dict() for kind, t in self.mistakes.items()},
        }


@dataclass(frozen=True, slots=True)
class Review:
    """A history reviewed: every hand rated (``hands``, in input order), the hands that could
    not be (``errors``), a summary per player (``players``, by name) and over all hands
    (``overall``), and the ``estimator`` that valued them."""

    hands: tuple[ReviewedHand, ...]
    errors: tuple[HandError, ...]
    players: tuple[PlayerSummary, ...]
    overall: PlayerSummary
    estimator: Estimator

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``cpsolver review --json`` (docs/CLI-JSON.md)."""
        return {
            "estimator": str(self.estimator),
            "overall": self.overall.to_dict(),
            "players": [p.to_dict() for p in self.players],
            "hands": [h.to_dict() for h in self.hands],
            "errors": [e.to_dict() for e in self.errors],
        }

    def __str__(self) -> str:
        """One line per player and one over all hands
        (:func:`cpsolver.chinese.render.review_text`)."""
        from cpsolver.chinese.render import review_text

        return review_text(self)

    def _repr_html_(self) -> str:
        """The review drawn as HTML in a notebook: summary, EV lost per hand, worst hands."""
        from cpsolver.chinese.render import review_html

        return review_html(self)


def rules_of(value: object, default: ChineseRules, path: FieldPath = ("rules",)) -> ChineseRules:
    """A hand's ``rules``: None (``default``), a preset name with ``OPTION=VALUE`` words, or
    an object ``{"preset": NAME, OPTION: VALUE, ...}``.

    >>> rules_of("standard scoring=two_four", ChineseRules()).scoring.value
    'two_four'
    >>> rules_of({"preset": "eastern"}, ChineseRules()).royalties.value
    'eastern'
    >>> rules_of("nope", ChineseRules())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.RuleError: rules.preset: unknown preset 'nope'; valid presets: ...
    """
    if value is None:
        return default
    try:
        if isinstance(value, str):
            words = value.split()
            if not words:
                return default
            preset = words[0] if "=" not in words[0] else None
            rest = words[1:] if preset is not None else words
            return resolve_rules(preset or "standard", parse_assignments(tuple(rest)))
        if isinstance(value, Mapping):
            options = {str(k): v for k, v in value.items() if k != "preset"}
            preset = value.get("preset", "standard")
            return ChineseRules.resolve(preset, **options)
    except InvalidInputError as exc:
        raise exc.with_paths(lambda found: _under(path, found)) from None
    raise InvalidInputError(
        path, f"expected a preset name with OPTION=VALUE words or an object, got {value!r}"
    )


def _under(path: FieldPath, found: FieldPath) -> FieldPath:
    """A rule set's error path placed at the hand's ``path``: the library already names the
    rule set ``rules`` (``rules.preset``, ``rules.players``), which ``path`` replaces (prefixing
    it gave ``rules.rules.preset``); an ``OPTION=VALUE`` word that does not parse
    (parse_assignments' ``set[i]``) is a fault of the rules text, ``path`` itself.

    >>> _under(("rules",), ("rules", "preset")), _under(("rules",), ("set", 1))
    (('rules', 'preset'), ('rules',))
    """
    if found[:1] == ("rules",):
        return (*path, *found[1:])
    return path


@dataclass(frozen=True, slots=True)
class _Read:
    index: int
    line: int | None
    id: Any
    player: str
    rules: ChineseRules
    seat: Seat


def _read(index: int, line: int | None, item: object, default: ChineseRules) -> _Read | HandError:
    hand_id = None
    if isinstance(item, CpsolverError):  # a reader's error for this hand (e.g. bad JSON)
        return HandError(index, line, None, item)
    try:
        if not isinstance(item, Mapping):
            raise InvalidInputError(
                (), "expected an object with back, middle, front (or cards, natural)"
            )
        hand_id = item.get("id")
        unknown = sorted(set(map(str, item)) - HISTORY_FIELDS)
        if unknown:
            valid = ", ".join(sorted(HISTORY_FIELDS))
            raise InvalidInputError(unknown[0], f"unknown field; a hand has {valid}")
        player = item.get("player")
        if player is None:
            player = ""
        if not isinstance(player, str):
            raise InvalidInputError("player", f"expected text, got {type(player).__name__}")
        rules = rules_of(item.get("rules"), default)
        played = {
            k: v for k, v in item.items() if k in ("back", "middle", "front", "cards", "natural")
        }
        seat = read_seat(played, rules)
    except CpsolverError as exc:
        return HandError(index, line, hand_id, exc)
    return _Read(index, line, hand_id, player, rules, seat)


def review(
    history: Iterable[object],
    rules: ChineseRules | str | None = "standard",
    *,
    estimator: EstimatorLike | None = None,
    seed: int = 0,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    lines: Iterable[int | None] | None = None,
    **overrides: Any,
) -> Review:
    """Rate every hand of ``history`` (mappings of the history format, module doc) and sum
    them up by player. ``rules`` (with ``overrides``) is the rule set of hands that name none;
    ``estimator`` and ``seed`` as in :func:`cpsolver.rate` (default :data:`REVIEW_ESTIMATOR`,
    ``model``); ``threads``: how many threads the batch kernel runs on (default: the cores
    this process may use);
    ``progress(n)`` is called as hands are done (``n`` more each time); ``lines``: each hand's
    input line, reported with it. An item that is a :class:`~cpsolver.errors.CpsolverError`
    (a reader's, e.g. a line that is not JSON) is reported as that hand's error.
    :func:`cpsolver.cluster.review` does the same on a Ray cluster."""
    chosen = resolve_estimator(estimator, default=REVIEW_ESTIMATOR).chosen(None)
    rated, errors = rate_hands(
        history, rules, estimator=chosen, seed=seed, threads=threads, progress=progress,
        lines=lines, **overrides,
    )  # fmt: skip
    return summarise(rated, errors, chosen)


def checked_history(
    history: object, *, progress: object = None, threads: object = None
) -> Iterable[object]:
    """``history`` once it, ``progress`` and ``threads`` are what a review takes (a collection
    of hands, not text; a callable or None; a whole number >= 1 or None), every violation at
    once: unread, None or a number failed in the loop over the hands as a bare TypeError, as
    did a text ``threads`` in the kernel and a text ``progress`` at the first hand rated."""
    problems = Violations()
    with problems.check():
        history = iterable_of(history, "history", "a list of hands")
    if progress is not None and not callable(progress):
        problems.add(InvalidInputError(
            "progress", f"expected a function of the hands done, got {type(progress).__name__}"
        ))  # fmt: skip
    if threads is not None:
        with problems.check():
            whole_number(threads, "threads", low=1)
    problems.raise_any()
    assert isinstance(history, Iterable)
    return history


def rate_hands(
    history: Iterable[object],
    rules: ChineseRules | str | None = "standard",
    *,
    estimator: EstimatorLike | None = None,
    seed: int = 0,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    lines: Iterable[int | None] | None = None,
    indices: Iterable[int] | None = None,
    **overrides: Any,
) -> tuple[list[ReviewedHand], list[HandError]]:
    """The hands of ``history`` rated, and the ones that could not be, before any summing up
    (:func:`review`'s arguments; ``indices``: each hand's position in the whole history,
    default 0, 1, ...: a part of a history rated elsewhere, e.g. a Ray task's chunk, keeps
    its positions). A hand's numbers do not depend on the other hands rated with it."""
    default = resolve_rules(rules, overrides)
    chosen = resolve_estimator(estimator, default=REVIEW_ESTIMATOR).chosen(None)
    check_seed(seed)
    history = checked_history(history, progress=progress, threads=threads)
    if threads is None:
        threads = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    with collector_paused():  # the hands read and rated are many small objects, all kept
        return _rate_all(history, default, chosen, seed, threads, progress, lines, indices)


def _rate_all(
    history: Iterable[object],
    default: ChineseRules,
    chosen: Estimator,
    seed: int,
    threads: int,
    progress: Callable[[int], None] | None,
    lines: Iterable[int | None] | None,
    indices: Iterable[int] | None,
) -> tuple[list[ReviewedHand], list[HandError]]:
    """:func:`rate_hands`' work, its arguments checked."""
    read: list[_Read] = []
    errors: list[HandError] = []
    numbers = iter(lines) if lines is not None else None
    positions = iter(indices) if indices is not None else None
    for count, item in enumerate(history):
        index = next(positions) if positions is not None else count
        line = next(numbers, None) if numbers is not None else None
        found = _read(index, line, item, default)
        if isinstance(found, HandError):
            errors.append(found)
        else:
            read.append(found)
    if errors and progress is not None:
        progress(len(errors))
    if chosen.kind == "model":
        rated = _batch(read, threads, progress)
    else:
        rated = []
        for r in read:
            rating = rate(_played(r.seat), r.rules, estimator=chosen, seed=seed)
            rated.append(hand_from_rating(rating, r.index, r.line, r.id, r.player))
            if progress is not None:
                progress(1)
    return rated, errors


def _played(seat: Seat) -> object:
    if seat.natural is not None:
        return seat.natural
    assert seat.rows is not None
    return tuple(seat.rows[row] for row in _ROWS)


def _rows(seat: Seat) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]] | None:
    if seat.hands is None:  # the rows as the hands order them (as a Rating shows them)
        return None
    return (seat.hands[Row.BACK].cards, seat.hands[Row.MIDDLE].cards, seat.hands[Row.FRONT].cards)


def hand_from_rating(
    rating: Rating, index: int, line: int | None = None, id: Any = None, player: str = ""
) -> ReviewedHand:
    """The :class:`ReviewedHand` of a :class:`~cpsolver.chinese.rate.Rating` (a history's
    hand rated elsewhere, e.g. by a server's ``RateArrangement``)."""
    rows = None
    if rating.natural is None:
        by_row = {r.row: r.cards for r in rating.rows}
        rows = (by_row[Row.BACK], by_row[Row.MIDDLE], by_row[Row.FRONT])
    best_rows = None
    if rating.best.natural is None:
        best = {r.row: r.cards for r in rating.best_rows}
        best_rows = (best[Row.BACK], best[Row.MIDDLE], best[Row.FRONT])
    return ReviewedHand(
        index, line, id, player, rating.cards, rows,
        None if rating.natural is None else rating.natural.name, rating.fouled, rating.ev,
        rating.best_ev, rating.ev_lost, rating.mistakes,
        None if rating.best.natural is None else rating.best.natural.name, best_rows,
    )  # fmt: skip


def _batch(
    read: list[_Read], threads: int, progress: Callable[[int], None] | None
) -> list[ReviewedHand]:
    """The ``model`` estimator's review: one kernel call per rule set and chunk."""
    out: list[ReviewedHand | None] = [None] * len(read)
    groups: dict[ChineseRules, list[int]] = {}
    for k, r in enumerate(read):
        groups.setdefault(r.rules, []).append(k)
    for rules, members in groups.items():
        model = model_for(rules)
        poker = poker_tables(rules.wheel_second_highest)
        mode = kernel_pairing(model)
        for start in range(0, len(members), _CHUNK):
            chunk = members[start : start + _CHUNK]
            hands = np.empty((len(chunk), 13), dtype=np.int64)
            given = np.full((len(chunk), 3), -1, dtype=np.int64)
            for j, k in enumerate(chunk):
                seat = read[k].seat
                hands[j] = [c.index for c in seat.cards]
                if seat.hands is not None and not seat.fouled:
                    given[j] = [seat.hands[row].strength for row in _ROWS]
            found = rate_removal_batch(
                hands, given, model.removal, poker, mode=mode, strict=rules.strict_order,
                threads=threads,
            )  # fmt: skip
            best_values = found.best.tolist()
            best_classes = found.classes.tolist()
            given_values = found.given.tolist()
            lost_rows = found.lost_rows.tolist()
            subsets = found.subsets.tolist()
            for j, k in enumerate(chunk):
                r = read[k]
                out[k] = _batch_hand(
                    r, model, rules, poker, best_values[j], best_classes[j], given_values[j],
                    lost_rows[j], subsets[j],
                )  # fmt: skip
            if progress is not None:
                progress(len(chunk))
    return [h for h in out if h is not None]


def _batch_hand(
    r: _Read,
    model: Any,
    rules: ChineseRules,
    poker: PokerTables,
    best_value: float,
    best_classes: list[int],
    given_value: float,
    lost_rows: float,
    subsets: list[int],
) -> ReviewedHand:
    seat = r.seat
    split_ev = total_ev(model, best_value)
    held = seat.natural if seat.natural is not None else seat.available_natural
    natural_ev = None
    if held is not None and rules.naturals:
        natural_ev = declare_ev(model, held.rank)
    best_natural = natural_ev is not None and natural_ev > split_ev
    best_ev = natural_ev if best_natural and natural_ev is not None else split_ev
    if seat.natural is not None:
        assert natural_ev is not None
        ev = natural_ev
    elif seat.fouled:
        ev = total_ev(model, foul_rows_ev(lost_rows, rules))
    else:
        ev = total_ev(model, given_value)
    lost = max(0.0, best_ev - ev)
    played_classes = None
    if seat.hands is not None and not seat.fouled:
        played_classes = (
            seat.hands[Row.BACK].strength, seat.hands[Row.MIDDLE].strength,
            seat.hands[Row.FRONT].strength,
        )  # fmt: skip
    best_royalties = 0
    for row, cls in zip(_ROWS, best_classes, strict=True):
        category = Category(int(poker.category[cls]))
        best_royalties += rules.royalty(row, category, royal=bool(poker.is_royal[cls]))
    mistakes = mistakes_of(
        played_classes,
        seat.royalty_total,
        seat.natural is not None,
        None if best_natural else (best_classes[0], best_classes[1], best_classes[2]),
        best_royalties,
        seat.fouled,
        lost,
    )
    cards = tuple(sorted(seat.cards, key=lambda c: c.index))
    best_rows = None
    if not best_natural:  # the kernel's best split, its rows ordered as a hand shows them
        wheel = rules.wheel_second_highest
        back, middle, front = (
            hand_from_class(
                [cards[p] for p in positions[subset]], cls, wheel_second_highest=wheel
            ).cards
            for positions, subset, cls in zip(
                (COMB5_LISTS, COMB5_LISTS, COMB3_LISTS), subsets, best_classes, strict=True
            )
        )
        best_rows = (back, middle, front)
    return ReviewedHand(
        r.index, r.line, r.id, r.player, cards, _rows(seat),
        None if seat.natural is None else seat.natural.name, seat.fouled, ev, best_ev, lost,
        mistakes, held.name if best_natural and held is not None else None, best_rows,
    )  # fmt: skip


def summarise(
    hands: Iterable[ReviewedHand],
    errors: Iterable[HandError] = (),
    estimator: Estimator | None = None,
) -> Review:
    """The :class:`Review` of rated hands: a summary per player and over all (module doc)."""
    ordered = tuple(sorted(hands, key=lambda h: h.index))
    by_player: dict[str, list[ReviewedHand]] = {}
    for hand in ordered:
        by_player.setdefault(hand.player, []).append(hand)
    players = tuple(_summary(name, by_player[name]) for name in sorted(by_player))
    return Review(
        ordered,
        tuple(sorted(errors, key=lambda e: e.index)),
        players,
        _summary("*", list(ordered)),
        estimator or Estimator("model"),
    )


def _summary(player: str, hands: list[ReviewedHand]) -> PlayerSummary:
    n = len(hands)
    losses = [h.ev_lost for h in hands]
    total = math.fsum(losses)
    mean = total / n if n else 0.0
    ci = None
    if n >= 2:
        var = math.fsum((x - mean) ** 2 for x in losses) / (n - 1)
        half = 1.96 * math.sqrt(var / n)
        ci = (mean - half, mean + half)
    best = sum(1 for h in hands if h.played_best)
    tallies: dict[str, list[float]] = {}
    for h in hands:
        for kind in h.mistakes:
            tallies.setdefault(kind, []).append(h.ev_lost)
    mistakes = {
        kind: MistakeTally(len(tallies[kind]), math.fsum(tallies[kind]))
        for kind in MISTAKE_KINDS
        if kind in tallies
    }
    worst = tuple(
        sorted((h for h in hands if not h.played_best), key=lambda h: (-h.ev_lost, h.index))[
            :WORST_HANDS
        ]
    )
    return PlayerSummary(
        player, n, total, mean, ci, best, wilson_interval(best, n) if n else (0.0, 1.0),
        sum(1 for h in hands if h.fouled), worst, MappingProxyType(mistakes),
    )  # fmt: skip
