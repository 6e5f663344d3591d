"""Chinese poker: library values <-> ``cpsolver.v1`` Chinese poker messages, both directions.

The servicer (``cpsolver.server.chinese_poker``) converts requests in and results out; the
typed client (``cpsolver.client.remote``) converts its requests out and the responses back.
Inbound helpers raise the library's :class:`~cpsolver.errors.InvalidInputError` naming the
request field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from google.protobuf.message import Message

from cpsolver.cards import Card
from cpsolver.chinese.constraints import Constraints, MinHand, NaturalPolicy, Pin, Place
from cpsolver.chinese.deal import Deal
from cpsolver.chinese.estimator import Estimator
from cpsolver.chinese.ev import Candidate, RowOdds
from cpsolver.chinese.ev_model import TablesInfo
from cpsolver.chinese.naturals import Natural, NaturalName, detect_natural
from cpsolver.chinese.rate import Rating, RowRating
from cpsolver.chinese.scoring import Outcome, Pairing, RowOutcome, Seat, SettledBy, TableResult
from cpsolver.chinese.solve import Arrangement, EvReport, NaturalSettlement, Solution
from cpsolver.errors import Field, FieldPath, InvalidInputError, field_path
from cpsolver.estimate import Estimate
from cpsolver.evaluator.poker import Category, HandValue
from cpsolver.rules.chinese import ChineseRules, Row
from cpsolver.v1 import chinese_poker_pb2
from cpsolver.wire.cards import card_from_wire, card_to_wire, cards_from_wire, cards_to_wire

__all__ = [
    "MAX_DEALS",
    "arrangement_check_from_wire",
    "constraints_from_wire",
    "constraints_to_wire",
    "deal_from_wire",
    "deal_to_wire",
    "engine_from_wire",
    "hand_from_wire",
    "hand_to_wire",
    "natural_from_wire",
    "player_paths_from_wire",
    "player_paths_to_wire",
    "players_from_wire",
    "rate_paths_from_wire",
    "rate_paths_to_wire",
    "rating_from_wire",
    "rating_to_wire",
    "rows_to_wire",
    "seat_to_wire",
    "solution_from_wire",
    "solution_to_wire",
    "table_from_wire",
    "table_to_wire",
    "tables_from_wire",
    "tables_to_wire",
]

# Deals one DealTables request may ask for: ~50k cards, a few ms. The server refuses more and
# the typed client asks in chunks of this size, so a caller with more still gets them all.
MAX_DEALS = 1_000


_CATEGORY_TO_WIRE = {
    c: chinese_poker_pb2.HandCategory.Value("HAND_CATEGORY_" + c.name) for c in Category
}
_ROW_TO_WIRE = {row: chinese_poker_pb2.Row.Value("ROW_" + row.name) for row in Row}


def hand_to_wire(hand: HandValue) -> chinese_poker_pb2.Hand:
    """The Hand message of an evaluated poker hand or front."""
    return chinese_poker_pb2.Hand(
        cards=cards_to_wire(hand.cards),
        category=_CATEGORY_TO_WIRE[hand.category],
        name=hand.name,
        strength=hand.strength,
        royal=hand.is_royal,
    )


# -- wire <- library results (the servicers) ----------------------------------------------


def _arrangement_to_wire(arrangement: Arrangement) -> chinese_poker_pb2.Arrangement:
    return chinese_poker_pb2.Arrangement(
        back=cards_to_wire(arrangement.back),
        middle=cards_to_wire(arrangement.middle),
        front=cards_to_wire(arrangement.front),
    )


def rows_to_wire(
    hands: Mapping[Row, HandValue], royalties: Mapping[Row, int]
) -> list[chinese_poker_pb2.RowResult]:
    """RowResult messages, front first: each row's hand and the royalty it earns if it wins."""
    return [
        chinese_poker_pb2.RowResult(
            row=_ROW_TO_WIRE[row],
            hand=hand_to_wire(hands[row]),
            royalty=royalties[row],
        )
        for row in (Row.FRONT, Row.MIDDLE, Row.BACK)
    ]


def arrangement_check_to_wire(seat: Seat) -> chinese_poker_pb2.ValidateArrangementResponse:
    """The ValidateArrangementResponse of an arrangement the library checked
    (:func:`cpsolver.chinese.scoring.check_arrangement`: hands, royalties, foul)."""
    assert seat.hands is not None and seat.royalties is not None, "rows, not a natural"
    return chinese_poker_pb2.ValidateArrangementResponse(
        valid=not seat.fouled,
        foul_reason=seat.foul_reason,
        rows=rows_to_wire(seat.hands, seat.royalties),
        royalties=seat.royalty_total,
    )


def arrangement_check_from_wire(
    message: chinese_poker_pb2.ValidateArrangementResponse,
    rows: Mapping[Row, Sequence[Card]],
    rules: ChineseRules,
) -> Seat:
    """The library's :class:`Seat` of a ValidateArrangementResponse for ``rows`` (the
    request's, which the response does not repeat): the hands, royalties and foul the server
    found; the natural the 13 cards make (CP-11) is a rule fact, read with the library."""
    by_row = {Row[chinese_poker_pb2.Row.Name(r.row).removeprefix("ROW_")]: r for r in message.rows}
    hands = {row: hand_from_wire(r.hand) for row, r in by_row.items()}
    royalties = {row: r.royalty for row, r in by_row.items()}
    ordered = {row: tuple(rows[row]) for row in (Row.BACK, Row.MIDDLE, Row.FRONT)}
    cards = ordered[Row.BACK] + ordered[Row.MIDDLE] + ordered[Row.FRONT]
    available = detect_natural(cards, rules) if rules.naturals and len(set(cards)) == 13 else None
    return Seat(
        "",
        cards,
        MappingProxyType(ordered),
        MappingProxyType(hands),
        not message.valid,
        message.foul_reason,
        None,
        available,
        MappingProxyType(royalties),
    )


def _rows_to_wire(arrangement: Arrangement) -> list[chinese_poker_pb2.RowResult]:
    return rows_to_wire(arrangement.hands, arrangement.royalties)


def _natural_to_wire(natural: Natural, *, declared: bool = True) -> chinese_poker_pb2.Natural:
    return chinese_poker_pb2.Natural(
        kind=chinese_poker_pb2.NaturalKind.Value("NATURAL_KIND_" + natural.kind.name),
        name=natural.name,
        units=natural.units,
        declared=declared,
        groups=[
            chinese_poker_pb2.CardGroup(cards=cards_to_wire(group)) for group in natural.groups
        ],
    )


_PLACE_FROM_WIRE = {chinese_poker_pb2.Place.Value(f"PLACE_{p.name}"): p for p in Place}
_POLICY_FROM_WIRE = {
    chinese_poker_pb2.NaturalPolicy.Value("NATURAL_POLICY_UNSPECIFIED"): NaturalPolicy.AUTO,
    **{chinese_poker_pb2.NaturalPolicy.Value(f"NATURAL_POLICY_{p.name}"): p for p in NaturalPolicy},
}
_ENGINE_FROM_WIRE = {
    chinese_poker_pb2.Engine.Value("ENGINE_UNSPECIFIED"): "exact",
    chinese_poker_pb2.Engine.Value("ENGINE_EXACT"): "exact",
    chinese_poker_pb2.Engine.Value("ENGINE_CPSAT"): "cpsat",
}


def _card_place_from_wire(message: chinese_poker_pb2.CardPlace, field: FieldPath) -> Pin:
    card = cards_from_wire([message.card], (*field, "card"))[0]
    place = _PLACE_FROM_WIRE.get(message.place)
    if place is None:
        reason = "is required" if message.place == 0 else f"has unknown value {message.place}"
        raise InvalidInputError((*field, "place"), f"place {reason}")
    return Pin(card, place)


def _minimum_from_wire(message: chinese_poker_pb2.RowMinimum, field: FieldPath) -> MinHand:
    if message.row not in (1, 2, 3):
        raise InvalidInputError(
            (*field, "row"), "row is required (ROW_FRONT, ROW_MIDDLE, ROW_BACK)"
        )
    row = Row[chinese_poker_pb2.Row.Name(message.row).removeprefix("ROW_")]
    bound = message.WhichOneof("bound")
    if bound is None:
        raise InvalidInputError((*field, "bound"), "set category or strength")
    if bound == "category" and message.category not in _CATEGORY_FROM_WIRE:
        raise InvalidInputError((*field, "category"), "category is required")
    try:
        if bound == "category":
            return MinHand(row, category=_CATEGORY_FROM_WIRE[message.category])
        return MinHand(row, strength=message.strength)
    except InvalidInputError as exc:  # the library names its "minimum"; the wire the bound
        raise InvalidInputError((*field, bound), exc.description) from None


def constraints_from_wire(
    message: chinese_poker_pb2.SolveConstraints, field: Field = "constraints"
) -> Constraints:
    """The library's :class:`Constraints` of a SolveConstraints message (field paths name the
    offending entry, e.g. ``constraints.pins[1].place`` on the wire for the second pin)."""
    base = field_path(field)
    pins = [_card_place_from_wire(p, (*base, "pins", i)) for i, p in enumerate(message.pins)]
    forbids = [
        _card_place_from_wire(p, (*base, "forbids", i)) for i, p in enumerate(message.forbids)
    ]
    minimums = [
        _minimum_from_wire(m, (*base, "minimums", i)) for i, m in enumerate(message.minimums)
    ]
    natural = _POLICY_FROM_WIRE.get(message.natural)
    if natural is None:
        raise InvalidInputError((*base, "natural"), f"has unknown value {message.natural}")
    return Constraints(tuple(pins), tuple(forbids), tuple(minimums), natural)


def engine_from_wire(engine: int) -> str:
    """The library's engine name of an Engine value."""
    name = _ENGINE_FROM_WIRE.get(engine)
    if name is None:
        raise InvalidInputError("engine", f"has unknown value {engine}")
    return name


def constraints_to_wire(
    constraints: Constraints, rules: ChineseRules
) -> chinese_poker_pb2.SolveConstraints:
    """The SolveConstraints message of library constraints for a solve under ``rules`` (the
    typed client sends it; a hand bound goes as its strength class under the rules' wheel)."""
    message = chinese_poker_pb2.SolveConstraints(
        pins=[
            chinese_poker_pb2.CardPlace(card=card_to_wire(p.card), place=f"PLACE_{p.place.name}")
            for p in constraints.pins
        ],
        forbids=[
            chinese_poker_pb2.CardPlace(card=card_to_wire(p.card), place=f"PLACE_{p.place.name}")
            for p in constraints.forbids
        ],
        natural=f"NATURAL_POLICY_{constraints.natural.name}",
    )
    for given in constraints.minimums:
        m = given.with_strength(wheel_second_highest=rules.wheel_second_highest)
        entry = message.minimums.add(row=f"ROW_{m.row.name}")
        if m.category is not None:
            entry.category = chinese_poker_pb2.HandCategory.Value(
                f"HAND_CATEGORY_{m.category.name}"
            )
        else:
            assert m.strength is not None
            entry.strength = m.strength
    return message


def solution_to_wire(solution: Solution) -> chinese_poker_pb2.SolveResponse:
    """The SolveResponse of a library Solution."""
    best = solution.arrangement
    objective_name = "OBJECTIVE_" + solution.objective.upper()
    known = objective_name in chinese_poker_pb2.Objective.DESCRIPTOR.values_by_name
    objective = objective_name if known else "OBJECTIVE_UNSPECIFIED"
    response = chinese_poker_pb2.SolveResponse(
        arrangement=_arrangement_to_wire(best),
        rows=_rows_to_wire(best),
        royalties=best.royalty_total,
        objective=objective,
        value=best.value,
        natural=_natural_to_wire(solution.natural) if solution.natural else None,
        alternatives=[
            chinese_poker_pb2.Alternative(
                arrangement=_arrangement_to_wire(alt),
                value=alt.value,
                gap=best.value - alt.value,
            )
            for alt in solution.alternatives
        ],
        discarded=cards_to_wire(solution.discarded),
        tables=None if solution.tables is None else tables_to_wire(solution.tables),
    )
    report = solution.analysis
    if report is not None:  # the ev objective: odds, intervals, rollouts, undeclared naturals
        for result in response.rows:
            odds = report.rows[Row[chinese_poker_pb2.Row.Name(result.row).removeprefix("ROW_")]]
            result.odds.CopyFrom(_odds_to_wire(odds))
        if report.estimate is not None:  # rollouts' CI, or the model's calibration bound
            interval = (report.estimate.low, report.estimate.high)
            response.value_interval.CopyFrom(_interval(interval))
        response.rollouts = report.rollouts
        # An interval without rollouts is the calibrated pool's (not the model's bound).
        response.calibrated = report.estimator.kind == "calibrated"
        response.estimator = str(report.estimator)
        # A hand's candidates share rows (the same HandValue objects): each made once.
        made: dict[int, chinese_poker_pb2.Hand] = {}
        response.candidates.extend(_candidate_to_wire(c, made) for c in report.candidates)
        if report.settlement is not None:
            s = report.settlement
            response.natural_settlement.CopyFrom(
                chinese_poker_pb2.NaturalSettlement(
                    units=s.units, win=s.win, tie=s.tie, loss=s.loss
                )
            )
        for alt, ci in zip(response.alternatives, report.alternatives_ci95, strict=False):
            if ci is not None:
                alt.value_interval.CopyFrom(_interval(ci))
        for name, ev, ci in report.naturals:
            extra = response.alternatives.add(
                natural=chinese_poker_pb2.NaturalKind.Value("NATURAL_KIND_" + name.upper()),
                value=ev,
                gap=report.ev - ev,
            )
            if ci is not None:
                extra.value_interval.CopyFrom(_interval(ci))
    return response


def _interval(ci: tuple[float, float]) -> chinese_poker_pb2.Interval:
    return chinese_poker_pb2.Interval(low=ci[0], high=ci[1])


def _odds_to_wire(odds: RowOdds) -> chinese_poker_pb2.RowOdds:
    return chinese_poker_pb2.RowOdds(win=odds.win, tie=odds.tie, loss=odds.loss, units=odds.value)


_CANDIDATE_ROWS = (Row.FRONT, Row.MIDDLE, Row.BACK)  # the order of Candidate.rows and .hands


def _candidate_to_wire(
    candidate: Candidate, made: dict[int, chinese_poker_pb2.Hand] | None = None
) -> chinese_poker_pb2.ScoredCandidate:
    """A ScoredCandidate: the rows with their hands, royalties and odds, or the natural
    (``made``: the Hand messages of the hands already sent, by ``id``, shared by the
    candidates of one response)."""
    made = {} if made is None else made
    message = chinese_poker_pb2.ScoredCandidate(
        model_value=candidate.ev, rollouts=candidate.rollouts
    )
    if candidate.natural is not None:
        message.natural = chinese_poker_pb2.NaturalKind.Value(
            "NATURAL_KIND_" + candidate.natural.upper()
        )
    rows = (
        zip(_CANDIDATE_ROWS, candidate.hands, candidate.rows, strict=True)
        if candidate.hands
        else ()
    )
    for row, hand, odds in rows:  # a natural declaration has no rows
        sent = made.get(id(hand))
        if sent is None:
            sent = made[id(hand)] = hand_to_wire(hand)
        message.rows.add(
            row=_ROW_TO_WIRE[row], hand=sent, royalty=odds.royalty, odds=_odds_to_wire(odds)
        )
    if candidate.rollout_ev is not None and candidate.rollout_ci is not None:
        message.value = candidate.rollout_ev
        message.value_interval.CopyFrom(_interval(candidate.rollout_ci))
    return message


def _candidate_from_wire(message: chinese_poker_pb2.ScoredCandidate) -> Candidate:
    """The library's :class:`~cpsolver.chinese.ev.Candidate` of a ScoredCandidate."""
    by_row = {Row[chinese_poker_pb2.Row.Name(r.row).removeprefix("ROW_")]: r for r in message.rows}
    rows = [by_row[row] for row in _CANDIDATE_ROWS if row in by_row]
    hands = tuple(hand_from_wire(r.hand) for r in rows)
    natural = None
    if message.natural:
        name = chinese_poker_pb2.NaturalKind.Name(message.natural)
        natural = name.removeprefix("NATURAL_KIND_").lower()
    rescored = message.HasField("value_interval")
    front, middle, back = (h.cards for h in hands) if hands else ((), (), ())
    return Candidate(
        front,
        middle,
        back,
        natural,
        message.model_value,
        (hands[0].strength, hands[1].strength, hands[2].strength) if hands else (-1, -1, -1),
        tuple(RowOdds(r.odds.win, r.odds.tie, r.odds.loss, r.odds.units, r.royalty) for r in rows),
        message.value if rescored else None,
        (message.value_interval.low, message.value_interval.high) if rescored else None,
        message.rollouts,
        hands,
    )


_SOURCE = chinese_poker_pb2.TablesInfo.Source


def tables_to_wire(tables: TablesInfo) -> chinese_poker_pb2.TablesInfo:
    """The TablesInfo message of the table file that answered a solve.

    >>> tables = TablesInfo("d52117d2242c7fb4", "chinese-ev-d52117d2242c7fb4.npz", False, "/t")
    >>> tables_from_wire(tables_to_wire(tables)) == tables
    True
    >>> stand_in = TablesInfo("09da11e935db9381", "chinese-ev-09da11e935db9381.npz", True, None,
    ...                       "5964ed6d1367bf59")
    >>> tables_from_wire(tables_to_wire(stand_in)) == stand_in
    True
    """
    return chinese_poker_pb2.TablesInfo(
        key=tables.key,
        file=tables.file,
        source=_SOURCE.SOURCE_SHIPPED if tables.shipped else _SOURCE.SOURCE_USER,
        directory=tables.directory or "",
        stand_in_for=tables.stand_in_for or "",
    )


def tables_from_wire(message: chinese_poker_pb2.TablesInfo) -> TablesInfo:
    """The library's :class:`TablesInfo` of a TablesInfo message."""
    shipped = message.source == _SOURCE.SOURCE_SHIPPED
    directory = None if shipped else message.directory
    return TablesInfo(message.key, message.file, shipped, directory, message.stand_in_for or None)


# -- library <- wire (the typed client, client/remote.py, converts responses back) ----------

_CATEGORY_FROM_WIRE = {
    chinese_poker_pb2.HandCategory.Value("HAND_CATEGORY_" + c.name): c for c in Category
}


def hand_from_wire(hand: chinese_poker_pb2.Hand) -> HandValue:
    """The library's :class:`HandValue` of a Hand message (inverse of :func:`hand_to_wire`).

    >>> from cpsolver.evaluator.poker import evaluate
    >>> hand = evaluate("Jh Js 4c 4d Jd")
    >>> back = hand_from_wire(hand_to_wire(hand))
    >>> back == hand, back.name, back.cards == hand.cards, back.category is hand.category
    (True, 'full house, jacks over fours', True, True)
    """
    return HandValue(
        strength=hand.strength,
        category=_CATEGORY_FROM_WIRE[hand.category],
        cards=tuple(card_from_wire(c) for c in hand.cards),
        name=hand.name,
        is_royal=hand.royal,
    )


def _library_arrangement(
    arrangement: chinese_poker_pb2.Arrangement,
    hands: Mapping[Row, HandValue] | None,
    value: float,
    rules: ChineseRules,
) -> Arrangement:
    """An :class:`Arrangement` from wire rows; the library gives royalties and row values, and
    evaluates the hands the server did not send (an alternative's)."""
    if hands is not None:
        return Arrangement.of(hands, value, rules)
    back, middle, front = (
        tuple(card_from_wire(c) for c in getattr(arrangement, row.label)) for row in _DISPLAY_ROWS
    )
    return Arrangement.of_rows(back, middle, front, value, rules)


_DISPLAY_ROWS = (Row.BACK, Row.MIDDLE, Row.FRONT)


def natural_from_wire(
    natural: chinese_poker_pb2.Natural, rules: ChineseRules | None = None
) -> Natural:
    """The library's :class:`Natural` of a Natural message, ranked in ``rules``' list of
    naturals (CP-11's by default)."""
    kind = NaturalName[
        chinese_poker_pb2.NaturalKind.Name(natural.kind).removeprefix("NATURAL_KIND_")
    ]
    groups = tuple(tuple(card_from_wire(c) for c in group.cards) for group in natural.groups)
    listed = [n for n, _ in (rules or ChineseRules()).natural_list]
    rank = listed.index(kind) + 1 if kind in listed else 0
    return Natural(kind, groups, natural.units, rank)


def solution_from_wire(response: chinese_poker_pb2.SolveResponse, rules: ChineseRules) -> Solution:
    """The library's :class:`Solution` of a SolveResponse to a request made with ``rules``.

    Royalties and row values follow from ``rules`` and the rows' hands
    (:meth:`Arrangement.of`); an alternative's hands, which the wire does not carry, are
    evaluated by the library (:meth:`Arrangement.of_rows`).
    """
    hands = {
        Row[chinese_poker_pb2.Row.Name(r.row).removeprefix("ROW_")]: hand_from_wire(r.hand)
        for r in response.rows
    }
    best = _library_arrangement(
        response.arrangement, hands if len(hands) == 3 else None, response.value, rules
    )
    objective = chinese_poker_pb2.Objective.Name(response.objective).removeprefix("OBJECTIVE_")
    natural = natural_from_wire(response.natural, rules) if response.HasField("natural") else None
    plain = [alt for alt in response.alternatives if not alt.natural]
    alternatives = tuple(
        _library_arrangement(alt.arrangement, None, alt.value, rules) for alt in plain
    )
    report = None
    if all(r.HasField("odds") for r in response.rows) and len(response.rows) == 3:
        odds = {
            Row[chinese_poker_pb2.Row.Name(r.row).removeprefix("ROW_")]: r.odds
            for r in response.rows
        }
        rows = {
            row: RowOdds(o.win, o.tie, o.loss, float(best.row_values[row]), best.royalties[row])
            for row, o in odds.items()
        }
        interval = _interval_from_wire(response, "value_interval")
        settlement = None
        if response.HasField("natural_settlement") and natural is not None:
            w = response.natural_settlement
            settlement = NaturalSettlement(natural.kind.label, w.units, w.win, w.tie, w.loss)
        report = EvReport(
            response.value,
            MappingProxyType({row: rows[row] for row in _DISPLAY_ROWS}),
            interval if response.estimator not in ("", "model") or response.rollouts else None,
            response.rollouts,
            tuple(_interval_from_wire(alt, "value_interval") for alt in plain),
            tuple(
                (
                    chinese_poker_pb2.NaturalKind.Name(alt.natural)
                    .removeprefix("NATURAL_KIND_")
                    .lower(),
                    alt.value,
                    _interval_from_wire(alt, "value_interval"),
                )
                for alt in response.alternatives
                if alt.natural
            ),
            tuple(_candidate_from_wire(c) for c in response.candidates),
            settlement=settlement,
            estimate=None if interval is None else Estimate(response.value, *interval, False),
            estimator=Estimator.parse(response.estimator or "model"),
        )
    discarded = tuple(sorted((card_from_wire(c) for c in response.discarded), key=_card_index))
    tables = tables_from_wire(response.tables) if response.HasField("tables") else None
    return Solution(
        best, objective.lower(), rules, natural, alternatives, discarded, analysis=report,
        tables=tables,
    )  # fmt: skip


def _interval_from_wire(message: Message, name: str) -> tuple[float, float] | None:
    if not message.HasField(name):
        return None
    interval = getattr(message, name)
    return (interval.low, interval.high)


def _card_index(card: Card) -> int:
    return card.index


# -- rating a player's choice (RateArrangement) ----------------------------------------


def _rated_row_to_wire(rated: RowRating) -> chinese_poker_pb2.RatedRow:
    return chinese_poker_pb2.RatedRow(
        row=chinese_poker_pb2.Row.Value(f"ROW_{rated.row.name}"),
        hand=hand_to_wire(rated.hand),
        royalty=rated.royalty,
        odds=chinese_poker_pb2.RowOdds(
            win=rated.win, tie=rated.tie, loss=rated.loss, units=rated.value
        ),
        expected_units=rated.units,
    )


def _rated_row_from_wire(message: chinese_poker_pb2.RatedRow) -> RowRating:
    row = Row[chinese_poker_pb2.Row.Name(message.row).removeprefix("ROW_")]
    hand = hand_from_wire(message.hand)
    o = message.odds
    return RowRating(
        row, hand.cards, hand, o.win, o.tie, o.loss, o.units, message.royalty,
        message.expected_units,
    )  # fmt: skip


_ROW_NAMES = frozenset({"back", "middle", "front"})


def rate_paths_to_wire(path: FieldPath) -> FieldPath:
    """A path of :func:`cpsolver.rate`'s errors named on RateArrangementRequest: the rows
    under ``arrangement``, a declared natural's ``cards`` under ``natural``.

    >>> rate_paths_to_wire(("back", 1)), rate_paths_to_wire(("cards", 0))
    (('arrangement', 'back', 1), ('natural', 'cards', 0))
    """
    if path and path[0] in _ROW_NAMES:
        return ("arrangement", *path)
    if path and path[0] == "cards":
        return ("natural", *path)
    return path


def rate_paths_from_wire(path: FieldPath) -> FieldPath:
    """:func:`rate_paths_to_wire` undone (the typed client names the library's arguments).

    >>> rate_paths_from_wire(("arrangement", "back", 1)), rate_paths_from_wire(("natural",))
    (('back', 1), ('natural',))
    """
    if len(path) > 1 and path[0] in ("arrangement", "natural"):
        return path[1:]
    return path


def rating_to_wire(rating: Rating) -> chinese_poker_pb2.RateArrangementResponse:
    """The RateArrangementResponse of a :class:`Rating`."""
    response = chinese_poker_pb2.RateArrangementResponse(
        rows=[_rated_row_to_wire(r) for r in rating.rows],
        fouled=rating.fouled,
        foul_reason=rating.foul_reason,
        value=rating.ev,
        best=solution_to_wire(rating.best),
        best_rows=[_rated_row_to_wire(r) for r in rating.best_rows],
        ev_lost=rating.ev_lost,
        rank=rating.rank or 0,
        choices=rating.choices,
        mistakes=list(rating.mistakes),
        estimator=str(rating.estimator),
    )
    if rating.natural is not None:
        response.natural.CopyFrom(_natural_to_wire(rating.natural))
    if rating.ev_ci95 is not None:
        response.value_interval.CopyFrom(_interval(rating.ev_ci95))
    if rating.ev_lost_ci95 is not None:
        response.ev_lost_interval.CopyFrom(_interval(rating.ev_lost_ci95))
    if rating.available_natural is not None:
        declared = rating.natural is not None
        response.available_natural.CopyFrom(
            _natural_to_wire(rating.available_natural, declared=declared)
        )
    return response


def rating_from_wire(
    response: chinese_poker_pb2.RateArrangementResponse, rules: ChineseRules
) -> Rating:
    """The library's :class:`Rating` of a RateArrangementResponse to a request made with
    ``rules``."""
    rows = tuple(_rated_row_from_wire(r) for r in response.rows)
    natural = natural_from_wire(response.natural) if response.HasField("natural") else None
    cards = natural.cards if natural is not None else tuple(c for r in rows for c in r.cards)
    available = (
        natural_from_wire(response.available_natural)
        if response.HasField("available_natural")
        else None
    )
    return Rating(
        tuple(sorted(cards, key=_card_index)),
        rules,
        Estimator.parse(response.estimator or "model"),
        rows,
        natural,
        response.fouled,
        response.foul_reason,
        response.value,
        _interval_from_wire(response, "value_interval"),
        solution_from_wire(response.best, rules),
        tuple(_rated_row_from_wire(r) for r in response.best_rows),
        response.ev_lost,
        _interval_from_wire(response, "ev_lost_interval"),
        response.rank or None,
        response.choices,
        tuple(response.mistakes),
        available,
    )


# -- table scoring (ScoreTable) ----------------------------------------------------------


def players_from_wire(players: Iterable[chinese_poker_pb2.TablePlayer]) -> dict[str, object]:
    """The library's ``players`` mapping of :func:`cpsolver.score` from TablePlayer messages
    (what only the wire can get wrong is checked here, naming ``players[i]``)."""
    result: dict[str, object] = {}
    for position, player in enumerate(players):
        where: FieldPath = ("players", position)
        if not player.seat:
            raise InvalidInputError((*where, "seat"), "a seat name is required")
        if player.seat in result:
            raise InvalidInputError((*where, "seat"), f"seat {player.seat!r} appears twice")
        play = player.WhichOneof("play")
        if play == "natural":
            result[player.seat] = {
                "cards": cards_from_wire(player.natural.cards, (*where, "natural", "cards")),
                "natural": True,
            }
        elif play == "arrangement":
            rows = player.arrangement
            result[player.seat] = {
                row.label: cards_from_wire(
                    getattr(rows, row.label), (*where, "arrangement", row.label)
                )
                for row in _DISPLAY_ROWS
            }
        else:
            raise InvalidInputError(where, "give an arrangement or a natural declaration")
    return result


# The library names a player's fields by seat (players.N.back[1]), with the fields of the
# mapping :func:`cpsolver.score` takes; the wire by position, with TablePlayer's fields.
_PLAYER_FIELDS: dict[str, tuple[str, ...]] = {
    "back": ("arrangement", "back"),
    "middle": ("arrangement", "middle"),
    "front": ("arrangement", "front"),
    "cards": ("natural", "cards"),
    "natural": ("natural",),
}
_WIRE_PLAYER_FIELDS = {wire: name for name, wire in _PLAYER_FIELDS.items()}


def player_paths_to_wire(path: FieldPath, seats: Sequence[str]) -> FieldPath:
    """A path of :func:`cpsolver.score`'s players (``players.E.back[1]``) as the path in a
    ScoreTableRequest whose players sit in ``seats`` order (``players[1].arrangement.back[1]``
    on the wire).

    >>> player_paths_to_wire(("players", "E", "back", 1), ["N", "E"])
    ('players', 1, 'arrangement', 'back', 1)
    """
    if len(path) < 2 or path[0] != "players" or path[1] not in seats:
        return path
    head: FieldPath = ("players", list(seats).index(str(path[1])))
    rest = path[2:]
    if rest and isinstance(rest[0], str) and rest[0] in _PLAYER_FIELDS:
        return (*head, *_PLAYER_FIELDS[rest[0]], *rest[1:])
    return (*head, *rest)


def player_paths_from_wire(path: FieldPath, seats: Sequence[str | int]) -> FieldPath:
    """The inverse of :func:`player_paths_to_wire`; ``seats`` are the library's keys of the
    players in request order (names for a mapping, ``0..n-1`` for a sequence).

    >>> player_paths_from_wire(("players", 1, "natural", "cards", 3), ["N", "E"])
    ('players', 'E', 'cards', 3)
    """
    if len(path) < 2 or path[0] != "players" or not isinstance(path[1], int):
        return path
    if not 0 <= path[1] < len(seats):
        return path
    head: FieldPath = ("players", seats[path[1]])
    rest = path[2:]
    for size in (2, 1):
        name = _WIRE_PLAYER_FIELDS.get(tuple(str(p) for p in rest[:size]))
        if name is not None and len(rest) >= size:
            return (*head, name, *rest[size:])
    return (*head, *rest)


def seat_to_wire(seat: Seat) -> chinese_poker_pb2.TablePlayer:
    """What a scored seat played, as a TablePlayer (rows, or the declared natural's cards)."""
    if seat.natural is not None or seat.rows is None:
        return chinese_poker_pb2.TablePlayer(
            seat=seat.name,
            natural=chinese_poker_pb2.TablePlayer.NaturalDeclaration(
                cards=cards_to_wire(seat.cards)
            ),
        )
    rows = seat.rows
    return chinese_poker_pb2.TablePlayer(
        seat=seat.name,
        arrangement=chinese_poker_pb2.Arrangement(
            back=cards_to_wire(rows[Row.BACK]),
            middle=cards_to_wire(rows[Row.MIDDLE]),
            front=cards_to_wire(rows[Row.FRONT]),
        ),
    )


def table_to_wire(table: TableResult) -> chinese_poker_pb2.ScoreTableResponse:
    """The ScoreTableResponse of a settled table."""
    names = table.seats
    totals = [
        chinese_poker_pb2.SeatTotal(
            seat=name,
            units=units,
            fouled=seat.fouled,
            foul_reason=seat.foul_reason,
            natural=_natural_to_wire(seat.natural) if seat.natural else None,
            available_natural=(
                _natural_to_wire(seat.available_natural, declared=False)
                if seat.available_natural
                else None
            ),
        )
        for name, seat, units in zip(names, table.players, table.net, strict=True)
    ]
    pairings = [
        chinese_poker_pb2.Pairing(
            seat=names[p.seats[0]],
            opponent=names[p.seats[1]],
            units=p.total,
            rows=[
                chinese_poker_pb2.Pairing.RowOutcome(
                    row=chinese_poker_pb2.Row.Value("ROW_" + r.row.name),
                    outcome=chinese_poker_pb2.Outcome.Value("OUTCOME_" + r.outcome.name),
                    units=r.units,
                )
                for r in p.rows
            ],
            bonus=p.bonus,
            settlement=chinese_poker_pb2.Settlement.Value("SETTLEMENT_" + p.settled_by.name),
            notes=list(p.notes),
        )
        for p in table.pairings
    ]
    return chinese_poker_pb2.ScoreTableResponse(totals=totals, pairings=pairings)


def table_from_wire(
    response: chinese_poker_pb2.ScoreTableResponse,
    rules: ChineseRules,
    seats: Sequence[Seat],
    inputs: Sequence[object],
) -> TableResult:
    """The library's :class:`TableResult` of a ScoreTableResponse: pairings and units from the
    server (which names the seats: its seat numbers are the request's order), ``seats`` as the
    caller read them (:func:`cpsolver.chinese.scoring.read_seats`), ``inputs`` the players as
    given, seat by seat."""
    names = tuple(seat.name for seat in seats)
    number = {name: i for i, name in enumerate(names)}
    pairings = []
    for p in response.pairings:
        rows = []
        first, second = number[p.seat], number[p.opponent]
        for r in p.rows:
            outcome = Outcome[chinese_poker_pb2.Outcome.Name(r.outcome).removeprefix("OUTCOME_")]
            winner = {Outcome.WIN: first, Outcome.LOSS: second}.get(outcome)
            row = Row[chinese_poker_pb2.Row.Name(r.row).removeprefix("ROW_")]
            rows.append(RowOutcome(row, outcome, r.units, winner))
        settled = chinese_poker_pb2.Settlement.Name(p.settlement).removeprefix("SETTLEMENT_")
        pairings.append(
            Pairing(
                (first, second),
                SettledBy[settled],
                tuple(rows),
                p.bonus,
                p.units,
                tuple(p.notes),
            )
        )
    units = {t.seat: t.units for t in response.totals}
    return TableResult(
        rules,
        names,
        tuple(seats),
        tuple(pairings),
        tuple(units[name] for name in names),
        tuple(inputs),
    )


def deal_to_wire(deal: Deal) -> chinese_poker_pb2.DealtTable:
    """The DealtTable message of a seeded Chinese poker deal."""
    return chinese_poker_pb2.DealtTable(
        seed=deal.seed,
        hands=[
            chinese_poker_pb2.DealtHand(seat=seat, cards=cards_to_wire(cards))
            for seat, cards in zip(deal.seats, deal.hands, strict=True)
        ],
    )


def deal_from_wire(message: chinese_poker_pb2.DealtTable) -> Deal:
    """The library's :class:`~cpsolver.chinese.deal.Deal` of a DealtTable (trusted: the server's).

    >>> from cpsolver.chinese.deal import deal
    >>> deal_from_wire(deal_to_wire(deal(5, players=3))) == deal(5, players=3)
    True
    """
    return Deal(
        message.seed, tuple(tuple(card_from_wire(c) for c in h.cards) for h in message.hands)
    )
