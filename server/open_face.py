"""``cpsolver.v1.OpenFaceService``: adapters from the wire to ``cpsolver.ofc``.

No game logic: every method converts the request with :mod:`cpsolver.wire.open_face`, calls
the library and converts the result back; library exceptions propagate to the error
interceptor (INVALID_ARGUMENT with the request's field paths).
"""

from __future__ import annotations

from collections.abc import Hashable

import grpc

from cpsolver.ofc import advise, deal, fantasyland, score
from cpsolver.ofc.advice import DEFAULT_FILLS
from cpsolver.server.services import Service, ServiceLimits
from cpsolver.v1 import open_face_pb2 as pb
from cpsolver.v1 import open_face_pb2_grpc as pb_grpc
from cpsolver.wire.cards import cards_from_wire
from cpsolver.wire.open_face import (
    advice_to_wire,
    deal_to_wire,
    fantasyland_to_wire,
    position_from_request,
    rules_of,
    table_from_request,
    table_paths,
    table_to_wire,
)

__all__ = ["SERVICE", "OpenFaceServicer"]


class OpenFaceServicer(pb_grpc.OpenFaceServiceServicer):
    """Open-face Chinese poker over gRPC (RULES.md §5)."""

    def __init__(self, limits: ServiceLimits) -> None:
        self._limits = limits

    def ScoreOpenFace(
        self, request: pb.ScoreOpenFaceRequest, context: grpc.ServicerContext
    ) -> pb.ScoreOpenFaceResponse:
        rules = rules_of(request)
        table = table_from_request(request)
        with table_paths(list(table)):
            return table_to_wire(score(table, rules))

    def SetFantasyland(
        self, request: pb.SetFantasylandRequest, context: grpc.ServicerContext
    ) -> pb.SetFantasylandResponse:
        rules = rules_of(request)
        cards = cards_from_wire(request.cards, "cards")
        found = fantasyland(
            cards,
            rules=rules,
            objective=request.objective or "royalties",
            fantasyland_value=request.fantasyland_value,
            samples=request.samples if request.HasField("samples") else None,
            seed=request.seed,
        )
        return fantasyland_to_wire(found)

    def DealOpenFace(
        self, request: pb.DealOpenFaceRequest, context: grpc.ServicerContext
    ) -> pb.DealOpenFaceResponse:
        return deal_to_wire(deal(request.seed, rules_of(request)))

    def AdviseOpenFace(
        self, request: pb.AdviseOpenFaceRequest, context: grpc.ServicerContext
    ) -> pb.AdviseOpenFaceResponse:
        rules = rules_of(request)
        advice = advise(
            position_from_request(request),
            rules,
            budget_ms=request.budget_ms if request.HasField("budget_ms") else None,
            samples=request.samples if request.HasField("samples") else None,
            seed=request.seed,
            fantasyland_value=(
                request.fantasyland_value if request.HasField("fantasyland_value") else None
            ),
            fills=request.fills if request.HasField("fills") else DEFAULT_FILLS,
        )
        return advice_to_wire(advice)


def _advice_cost_class(body: bytes) -> Hashable:
    # Street 1 ranks ~232 placements, later streets a handful: what an advice's work depends
    # on is its street, its budget and sample count, and how many seats are simulated.
    request = pb.AdviseOpenFaceRequest.FromString(body)
    return (
        request.street,
        request.budget_ms if request.HasField("budget_ms") else None,
        request.samples if request.HasField("samples") else None,
        len(request.opponents),
    )


def _fantasyland_cost_class(body: bytes) -> Hashable:
    # `royalties` is an exact search of a few ms; `ev` simulates `samples` deals of every
    # other seat's hand: its work grows with them and with the table's size.
    request = pb.SetFantasylandRequest.FromString(body)
    objective = request.objective or "royalties"
    if objective != "ev":
        return (objective, len(request.cards))
    return (
        objective,
        request.samples if request.HasField("samples") else None,
        request.rules.players if request.rules.HasField("players") else None,
        request.rules.preset,
        request.rules.variant,
    )


SERVICE = Service(
    name=pb.DESCRIPTOR.services_by_name["OpenFaceService"].full_name,
    add_to_server=pb_grpc.add_OpenFaceServiceServicer_to_server,
    make_servicer=OpenFaceServicer,
    cost_classes={
        "AdviseOpenFace": _advice_cost_class,
        "SetFantasyland": _fantasyland_cost_class,
    },
    # advice and the `ev` fantasyland set stop at the call's deadline with their answer so
    # far (docs/OFC.md); a `royalties` set's class costs ~2 ms, under the one round an
    # anytime call is admitted with (admission.ANYTIME_SECONDS), so it is admitted as before
    anytime_methods=frozenset({"AdviseOpenFace", "SetFantasyland"}),
)
