"""The registry of served gRPC services: add a game's service here, in one line.

Each game module in ``server/`` defines a servicer (an adapter: wire -> library -> wire, no game
logic) and a :class:`Service` entry. The worker registers every entry, reports its health under
its full name and lists it for reflection. Pattern for a new service (e.g. Chlust):

1. ``protos/cpsolver/v1/chlust.proto``: ``service ChlustService`` with request/response pairs;
   ``make protos`` (commit the generated ``cpsolver/v1/chlust_pb2*.py``);
2. ``wire/chlust.py`` (:mod:`cpsolver.wire.chlust`): the codecs of the game's messages, both
   directions (the typed client reads the responses with the same module);
3. ``server/chlust.py``: ``class ChlustServicer(chlust_pb2_grpc.ChlustServiceServicer)`` whose
   methods convert with the wire codecs, call ``solver`` and raise library exceptions (the
   error interceptor maps them, :mod:`cpsolver.wire.status`), plus ``SERVICE = Service(...)``
   like :data:`cpsolver.server.chinese_poker.SERVICE`;
4. add ``"cpsolver.server.chlust"`` to :data:`SERVICE_MODULES` below;
5. tests in ``tests/test_server_chlust.py`` using the ``grpc_server`` fixture of
   ``tests/conftest.py``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

import grpc

from cpsolver.chinese.solve import MAX_ALTERNATIVES

__all__ = ["SERVICE_MODULES", "Service", "ServiceLimits", "load_services"]


@dataclass(frozen=True)
class ServiceLimits:
    """Per-request limits every servicer enforces (from ``cpsolver serve`` options)."""

    max_batch: int = 10_000  # items in one batch request
    max_top_k: int = MAX_ALTERNATIVES  # runner-up arrangements one Solve may ask for


@dataclass(frozen=True)
class Service:
    """One gRPC service: its full name and how to add its servicer to a server."""

    name: str  # full name, e.g. "cpsolver.v1.ChinesePokerService" (health and reflection)
    add_to_server: Callable[[Any, grpc.Server], None]  # generated add_..._to_server
    make_servicer: Callable[[ServiceLimits], Any]
    # method name -> what its calls' work depends on, read from the request body (the
    # admission control learns a cost per class: cpsolver.server.admission.Classifier);
    # a method not listed is one class
    cost_classes: Mapping[str, Callable[[bytes], Hashable]] = field(default_factory=dict)
    # methods whose work stops at the call's deadline with the answer so far: admitted when
    # one round of their work fits, not their mean (cpsolver.server.admission.ANYTIME_SECONDS)
    anytime_methods: frozenset[str] = frozenset()


# Modules defining a module-level ``SERVICE``; imported in the worker process only.
SERVICE_MODULES: tuple[str, ...] = (
    "cpsolver.server.chinese_poker",
    "cpsolver.server.chlust",
    "cpsolver.server.three_leaves",
    "cpsolver.server.open_face",
)


def load_services() -> list[Service]:
    """Import every service module and return its :class:`Service` entries, in order."""
    return [importlib.import_module(name).SERVICE for name in SERVICE_MODULES]
