"""Open-face Chinese poker values <-> ``cpsolver.v1`` open_face messages, both directions.

The server's ``OpenFaceService`` reads requests and writes responses with these functions.
Library field paths are moved to the request's: a table's seat ``players.A.back[1]`` (by
name, as the library names it) is the request's ``players[0].board.back[1]``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import MappingProxyType

from cpsolver.cards import Card
from cpsolver.errors import FieldPath, InvalidInputError, Violations
from cpsolver.evaluator.poker import evaluate
from cpsolver.ofc.advice import Advice, RankedPlacement
from cpsolver.ofc.board import ROWS, Board
from cpsolver.ofc.deal import OfcDeal
from cpsolver.ofc.fantasyland import FantasylandSet
from cpsolver.ofc.position import Placement, Position
from cpsolver.ofc.scoring import BoardResult, PairSettlement, SeatPair, TableResult
from cpsolver.rules.chinese import Row
from cpsolver.rules.ofc import OfcRules
from cpsolver.v1 import open_face_pb2 as pb
from cpsolver.wire.cards import card_from_wire, cards_from_wire, cards_to_wire
from cpsolver.wire.rules import rules_from_wire, rules_to_wire
from cpsolver.wire.status import paths_moved

__all__ = [
    "advice_from_wire",
    "advice_to_wire",
    "advise_request",
    "board_to_wire",
    "deal_from_wire",
    "deal_to_wire",
    "fantasyland_from_wire",
    "fantasyland_to_wire",
    "position_from_request",
    "rules_of",
    "table_from_request",
    "table_from_wire",
    "table_paths",
    "table_to_wire",
]


def rules_of(request: object) -> OfcRules:
    """The rule set of a request's ``rules`` field (unset: pineapple)."""
    return rules_from_wire(request.rules, OfcRules)  # type: ignore[attr-defined]


def table_from_request(request: pb.ScoreOpenFaceRequest) -> dict[str, Board]:
    """The seats of a ScoreOpenFace request by name (unnamed seats: N, E, S, W by position),
    their boards' cards read (every unreadable card reported). Names must be unique."""
    from cpsolver.chinese.deal import SEATS

    named = any(seat.seat for seat in request.players)
    table: dict[str, Board] = {}
    for i, seat in enumerate(request.players):
        name = seat.seat if named else (SEATS[i] if i < len(SEATS) else str(i))
        if named and not name:
            raise InvalidInputError(("players", i, "seat"), "name every seat or none")
        if name in table:
            raise InvalidInputError(("players", i, "seat"), f"seat {name!r} is named twice")
        base = ("players", i, "board")
        rows = {
            row.label: cards_from_wire(getattr(seat.board, row.label), (*base, row.label))
            for row in ROWS
        }
        table[name] = Board(
            rows["back"], rows["middle"], rows["front"], in_fantasyland=seat.board.fantasyland
        )
    return table


@contextmanager
def table_paths(names: list[str]) -> Iterator[None]:
    """Move the library's ``players.NAME...`` paths to the request's ``players[i].board...``
    while the table is scored."""

    def move(path: FieldPath) -> FieldPath:
        if len(path) >= 2 and path[0] == "players" and path[1] in names:
            return ("players", names.index(str(path[1])), "board", *path[2:])
        return path

    with paths_moved(move):
        yield


def table_to_wire(table: TableResult) -> pb.ScoreOpenFaceResponse:
    """The ScoreOpenFace response of a settled table."""
    players = []
    for name, board, net in zip(table.seats, table.boards, table.net, strict=True):
        royalty = {row.label: value for row, value in board.royalties.items()}
        players.append(
            pb.ScoredOpenFaceBoard(
                seat=name,
                royalties=board.royalty_total,
                back_royalty=royalty["back"],
                middle_royalty=royalty["middle"],
                front_royalty=royalty["front"],
                fouled=board.fouled,
                foul_reason=board.foul_reason,
                fantasyland=board.fantasyland,
                net=net,
            )
        )
    pairings = []
    for pair in table.pairings:
        s = pair.settlement
        pairings.append(
            pb.OpenFacePairing(
                first_seat=table.seats[pair.seats[0]],
                second_seat=table.seats[pair.seats[1]],
                back=s.rows[0],
                middle=s.rows[1],
                front=s.rows[2],
                scoop=s.scoop,
                royalties=s.royalties,
                total=s.total,
            )
        )
    return pb.ScoreOpenFaceResponse(
        players=players, pairings=pairings, rules=rules_to_wire(table.rules, pb.OpenFaceRules)
    )


def fantasyland_to_wire(found: FantasylandSet) -> pb.SetFantasylandResponse:
    """The SetFantasyland response of a set."""
    return pb.SetFantasylandResponse(
        back=cards_to_wire(found.back),
        middle=cards_to_wire(found.middle),
        front=cards_to_wire(found.front),
        discarded=cards_to_wire(found.discarded),
        royalties=found.royalties,
        stays=found.stays,
        value=found.value,
        fantasyland_value=found.fantasyland_value,
        objective=found.objective,
        stderr=found.stderr,
        samples=found.samples,
        seed=found.seed,
        opponents=found.opponents,
        candidates=found.candidates,
        policy=found.policy,
    )


def position_from_request(request: pb.AdviseOpenFaceRequest) -> dict[str, object]:
    """The position of an AdviseOpenFace request as :func:`cpsolver.ofc.read_position`
    reads it (the request's field names are the library's, so are the error paths); every
    unreadable card is reported at once."""
    found = Violations()
    board: dict[str, object] = {"fantasyland": request.board.fantasyland}
    hand: tuple[object, ...] = ()
    dead: tuple[object, ...] = ()
    with found.check():
        hand = cards_from_wire(request.hand, "hand")
    for row in ROWS:
        with found.check():
            board[row.label] = cards_from_wire(
                getattr(request.board, row.label), ("board", row.label)
            )
    opponents = []
    for i, other in enumerate(request.opponents):
        seat: dict[str, object] = {"fantasyland": other.fantasyland}
        for row in ROWS:
            with found.check():
                seat[row.label] = cards_from_wire(
                    getattr(other, row.label), ("opponents", i, row.label)
                )
        opponents.append(seat)
    with found.check():
        dead = cards_from_wire(request.dead, "dead")
    found.raise_any()
    return {
        "street": request.street,
        "hand": hand,
        "board": board,
        "opponents": opponents,
        "dead": dead,
    }


def advice_to_wire(advice: Advice) -> pb.AdviseOpenFaceResponse:
    """The AdviseOpenFace response of an advice."""
    return pb.AdviseOpenFaceResponse(
        ranked=[
            pb.OpenFacePlacementAdvice(
                back=cards_to_wire(r.placement.back),
                middle=cards_to_wire(r.placement.middle),
                front=cards_to_wire(r.placement.front),
                discard=cards_to_wire(r.placement.discard),
                value=r.value,
                stderr=r.stderr,
                foul=r.foul,
                fantasyland=r.fantasyland,
                samples=r.samples,
            )
            for r in advice.ranked
        ],
        exact=advice.exact,
        fantasyland_value=advice.fantasyland_value,
        policy=advice.policy,
        seed=advice.seed,
        elapsed_ms=advice.elapsed_ms,
    )


def deal_to_wire(dealt: OfcDeal) -> pb.DealOpenFaceResponse:
    """The DealOpenFace response of a deal."""
    return pb.DealOpenFaceResponse(
        seed=dealt.seed,
        seats=[
            pb.OpenFaceSeatDeal(
                seat=seat,
                streets=[pb.OpenFaceStreet(cards=cards_to_wire(s)) for s in streets],
            )
            for seat, streets in zip(dealt.seats, dealt.streets, strict=True)
        ],
    )


# -- the client's direction ---------------------------------------------------------------


def board_to_wire(board: Board) -> pb.OpenFaceBoard:
    """The OpenFaceBoard message of a board."""
    return pb.OpenFaceBoard(
        back=cards_to_wire(board.back),
        middle=cards_to_wire(board.middle),
        front=cards_to_wire(board.front),
        fantasyland=board.in_fantasyland,
    )


def table_from_wire(
    response: pb.ScoreOpenFaceResponse,
    rules: OfcRules,
    names: tuple[str, ...],
    boards: tuple[Board, ...],
) -> TableResult:
    """The library's TableResult of a ScoreOpenFace response for the boards sent (the rows'
    hand names are evaluated here; every figure is the server's)."""
    results = []
    for name, board, scored in zip(names, boards, response.players, strict=True):
        royalties = {
            Row.BACK: scored.back_royalty,
            Row.MIDDLE: scored.middle_royalty,
            Row.FRONT: scored.front_royalty,
        }
        results.append(
            BoardResult(
                name,
                board,
                MappingProxyType({row: evaluate(board.row(row)) for row in ROWS}),
                scored.fouled,
                scored.foul_reason,
                MappingProxyType(royalties),
                scored.fantasyland,
            )
        )
    pairings = []
    for pair in response.pairings:
        first, second = names.index(pair.first_seat), names.index(pair.second_seat)
        settlement = PairSettlement(
            (pair.back, pair.middle, pair.front), pair.scoop, pair.royalties
        )
        pairings.append(SeatPair((first, second), settlement))
    net = tuple(p.net for p in response.players)
    return TableResult(rules, names, tuple(results), tuple(pairings), net)


def fantasyland_from_wire(response: pb.SetFantasylandResponse) -> FantasylandSet:
    """The library's FantasylandSet of a SetFantasyland response."""
    return FantasylandSet(
        tuple(card_from_wire(c) for c in response.back),
        tuple(card_from_wire(c) for c in response.middle),
        tuple(card_from_wire(c) for c in response.front),
        tuple(card_from_wire(c) for c in response.discarded),
        response.royalties,
        response.stays,
        response.value,
        response.fantasyland_value,
        response.objective,
        response.stderr,
        response.samples,
        response.seed,
        response.opponents,
        response.candidates,
        response.policy,
    )


def deal_from_wire(response: pb.DealOpenFaceResponse, rules: OfcRules) -> OfcDeal:
    """The library's OfcDeal of a DealOpenFace response."""
    streets = tuple(
        tuple(tuple(card_from_wire(c) for c in street.cards) for street in seat.streets)
        for seat in response.seats
    )
    return OfcDeal(response.seed, rules, streets)


def advise_request(
    position: Position,
    *,
    budget_ms: float | None,
    samples: int | None,
    seed: int,
    fantasyland_value: float | None,
    fills: int,
) -> pb.AdviseOpenFaceRequest:
    """The AdviseOpenFace request of a position read by the library."""
    request = pb.AdviseOpenFaceRequest(
        rules=rules_to_wire(position.rules, pb.OpenFaceRules),
        street=position.street,
        hand=cards_to_wire(position.hand),
        board=board_to_wire(position.board),
        opponents=[board_to_wire(b) for b in position.opponents],
        dead=cards_to_wire(position.dead),
        seed=seed,
        fills=fills,
    )
    if budget_ms is not None:
        request.budget_ms = budget_ms
    if samples is not None:
        request.samples = samples
    if fantasyland_value is not None:
        request.fantasyland_value = fantasyland_value
    return request


def advice_from_wire(response: pb.AdviseOpenFaceResponse, position: Position) -> Advice:
    """The library's Advice of an AdviseOpenFace response for the position sent."""

    def cards(field: object) -> tuple[Card, ...]:
        return tuple(card_from_wire(c) for c in field)  # type: ignore[attr-defined]

    ranked = tuple(
        RankedPlacement(
            Placement(cards(r.back), cards(r.middle), cards(r.front), cards(r.discard)),
            r.value,
            r.stderr,
            r.foul,
            r.fantasyland,
            r.samples,
        )
        for r in response.ranked
    )
    return Advice(
        position,
        ranked,
        response.exact,
        response.fantasyland_value,
        response.policy,
        response.seed,
        response.elapsed_ms,
    )
