"""The one interface under the client: a :class:`Backend` answers :class:`Call` values.

The per-game sections (:mod:`cpsolver.client.games`) write every public signature once and
turn a call into one of the frozen dataclasses below, one per operation (named after its RPC),
holding the caller's arguments with the rules already resolved. A backend answers it with the
library's types: :class:`cpsolver.client.local.LocalBackend` with the library in this process,
:class:`cpsolver.client.remote.RemoteBackend` with one gRPC call (reading the cards with the
library first, so its errors are the library's). ``Call[T]`` says what the answer is, so
``backend.call(EvaluateSet(...))`` is typed ``SetValue``.

Adding an operation is a dataclass here, a handler in each backend (a method marked
``@answers(TheCall)``) and a method in its section; tests/test_client_backends.py fails while a
backend lacks a handler.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast

from cpsolver.cards import Card, CardsLike, Suit
from cpsolver.chinese import Solution
from cpsolver.chinese.constraints import Constraints
from cpsolver.chinese.deal import Deal as ChineseDeal
from cpsolver.chinese.estimator import Estimator
from cpsolver.chinese.rate import Rating
from cpsolver.chinese.scoring import Seat, TableResult
from cpsolver.chlust import BidAction, BiddingState, PlayAdvice
from cpsolver.chlust import Deal as ChlustDeal
from cpsolver.chlust import DealResult as ChlustDealResult
from cpsolver.chlust import ShowdownOdds as Odds
from cpsolver.chlust.deal import Showdown as Ranking
from cpsolver.errors import CpsolverError
from cpsolver.evaluator.chlust import SetValue
from cpsolver.evaluator.khlyust import KhlyustValue
from cpsolver.evaluator.poker import HandValue
from cpsolver.ofc import Advice as OfcAdvice
from cpsolver.ofc import FantasylandSet, OfcDeal, Position
from cpsolver.ofc import TableResult as OfcTable
from cpsolver.rules import ChineseRules, ChlustRules, OfcRules, ThreeLeavesRules
from cpsolver.three_leaves import Choices, HandAdvice, KhlyustClaim, LegalPlay
from cpsolver.three_leaves import Deal as LeavesDeal
from cpsolver.three_leaves import DealResult as LeavesDealResult
from cpsolver.tricks import Trick

__all__ = [
    "AdviseLeaves",
    "AdviseOpenFace",
    "AdvisePlay",
    "Backend",
    "BatchSolve",
    "Bid",
    "Call",
    "DealHands",
    "DealLeaves",
    "DealOpenFace",
    "DealTables",
    "EvaluateHand",
    "EvaluateKhlyust",
    "EvaluateSet",
    "Exchange",
    "Handlers",
    "LegalPlays",
    "ListLegalLeafPlays",
    "PlayDeal",
    "PlayLeavesDeal",
    "RateArrangement",
    "ResolveLeavesDeal",
    "ScoreOpenFace",
    "ScoreTable",
    "SetFantasyland",
    "Showdown",
    "ShowdownOdds",
    "Solve",
    "ValidateArrangement",
    "answers",
    "dispatch",
    "handlers",
]

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Call(Generic[T_co]):
    """One operation of the solver whose answer is a ``T_co`` (the subclasses are frozen
    dataclasses of its arguments)."""

    __slots__ = ()


class Backend(Protocol):
    """What answers the sections' calls: in-process or over gRPC, with the same types."""

    def call(self, request: Call[T], timeout: float | None = None) -> T:
        """The answer to ``request``; ``timeout`` is the call's deadline in seconds (None:
        the backend's default; in-process there is none)."""
        ...

    def close(self) -> None:
        """Release what the backend holds (a remote backend's channels)."""
        ...


Handler = Callable[[Any, float | None], Any]
Handlers = Mapping[type[Call[Any]], Handler]
F = TypeVar("F", bound=Callable[..., Any])


def answers(kind: type[Call[Any]]) -> Callable[[F], F]:
    """Mark a backend's method as its handler of ``kind`` calls (collected by :func:`handlers`),
    so the call type stands next to the code that answers it."""

    def mark(method: F) -> F:
        method.__dict__["answers"] = kind
        return method

    return mark


def handlers(backend: object) -> dict[type[Call[Any]], Handler]:
    """``backend``'s methods marked with :func:`answers`, by the call type each answers."""
    table: dict[type[Call[Any]], Handler] = {}
    for name in dir(type(backend)):
        kind = getattr(getattr(type(backend), name), "answers", None)
        if isinstance(kind, type) and issubclass(kind, Call):
            if kind in table:
                raise TypeError(f"{type(backend).__name__} answers {kind.__name__} twice")
            table[kind] = getattr(backend, name)
    return table


def dispatch(table: Handlers, request: Call[T], timeout: float | None) -> T:
    """``table[type(request)](request, timeout)``: a backend's :meth:`Backend.call`."""
    handler = table.get(type(request))
    if handler is None:
        raise NotImplementedError(f"this backend has no handler for {type(request).__name__}")
    return cast("T", handler(request, timeout))


# -- Chinese poker (ChinesePokerService) ----------------------------------------------------


@dataclass(frozen=True)
class Solve(Call[Solution]):
    """``cpsolver.solve`` (remote: ``Solve``)."""

    cards: CardsLike
    rules: ChineseRules
    objective: str | None
    estimator: Estimator
    arrangements: int
    constraints: Constraints | str | Iterable[str] | None
    engine: str
    seed: int


@dataclass(frozen=True)
class BatchSolve(Call[Iterator[Solution | CpsolverError]]):
    """``cpsolver.solve_many`` in chunks, one result or exception per hand in order (remote:
    ``BatchSolve`` streaming)."""

    hands: Iterable[CardsLike]
    rules: ChineseRules
    objective: str | None
    estimator: Estimator
    arrangements: int
    seed: int = 0


@dataclass(frozen=True)
class EvaluateHand(Call[HandValue]):
    """``cpsolver.evaluate`` with the rule set's wheel (remote: ``EvaluateHand``)."""

    cards: CardsLike
    rules: ChineseRules


@dataclass(frozen=True)
class ScoreTable(Call[TableResult]):
    """``cpsolver.score`` (remote: ``ScoreTable``)."""

    players: Sequence[object] | Mapping[str, object]
    rules: ChineseRules


@dataclass(frozen=True)
class ScoreOpenFace(Call[OfcTable]):
    """``cpsolver.ofc.score`` (remote: ``OpenFaceService.ScoreOpenFace``)."""

    players: Sequence[object] | Mapping[str, object]
    rules: OfcRules


@dataclass(frozen=True)
class SetFantasyland(Call[FantasylandSet]):
    """``cpsolver.ofc.fantasyland`` (remote: ``OpenFaceService.SetFantasyland``)."""

    cards: CardsLike
    rules: OfcRules
    objective: str
    fantasyland_value: float
    samples: int | None = None
    seed: int = 0


@dataclass(frozen=True)
class AdviseOpenFace(Call[OfcAdvice]):
    """``cpsolver.ofc.advise`` (remote: ``OpenFaceService.AdviseOpenFace``); the position
    read with the rules already."""

    position: Position
    budget_ms: float | None
    samples: int | None
    seed: int
    fantasyland_value: float | None
    fills: int


@dataclass(frozen=True)
class DealOpenFace(Call[OfcDeal]):
    """``cpsolver.ofc.deal`` (remote: ``OpenFaceService.DealOpenFace``)."""

    seed: int
    rules: OfcRules


@dataclass(frozen=True)
class DealTables(Call[tuple[ChineseDeal, ...]]):
    """``cpsolver.chinese.deal.deals`` (remote: ``DealTables``, in chunks)."""

    seed: int
    players: int
    count: int


@dataclass(frozen=True)
class ValidateArrangement(Call[Seat]):
    """``cpsolver.chinese.scoring.check_arrangement`` (remote: ``ValidateArrangement``)."""

    back: CardsLike
    middle: CardsLike
    front: CardsLike
    rules: ChineseRules


@dataclass(frozen=True)
class RateArrangement(Call[Rating]):
    """``cpsolver.rate`` (remote: ``RateArrangement``)."""

    played: object
    rules: ChineseRules
    estimator: Estimator
    arrangements: int
    seed: int


# -- Chlust (ChlustService) -----------------------------------------------------------------


@dataclass(frozen=True)
class Exchange(Call[tuple[int | None, ChlustDeal]]):
    """The trump-ace exchange: ``exchange_seat`` and ``Deal.exchange`` (remote: ``Exchange``)."""

    hands: Sequence[CardsLike]
    turned: Card | str
    rules: ChlustRules


@dataclass(frozen=True)
class EvaluateSet(Call[SetValue]):
    """``cpsolver.chlust.evaluate`` (remote: ``EvaluateSet``)."""

    cards: CardsLike
    trump: Suit | str
    rules: ChlustRules
    turned: Card | str | None


@dataclass(frozen=True)
class Showdown(Call[Ranking]):
    """``cpsolver.chlust.showdown`` (remote: ``Showdown``)."""

    hands: Sequence[CardsLike]
    trump: Suit | str
    rules: ChlustRules
    turned: Card | str | None


@dataclass(frozen=True)
class LegalPlays(Call[tuple[Card, ...]]):
    """``cpsolver.chlust.legal_cards`` on a trick of ``trick`` cards (remote: ``LegalPlays``)."""

    hand: CardsLike
    trump: Suit | str
    trick: CardsLike
    rules: ChlustRules


@dataclass(frozen=True)
class PlayDeal(Call[ChlustDealResult]):
    """``cpsolver.chlust.play_deal`` (remote: ``PlayDeal``)."""

    hands: Sequence[CardsLike | None]
    trump: Suit | str
    plays: CardsLike | Sequence[CardsLike]
    rules: ChlustRules
    dealer: int
    folded: Sequence[int]
    turned: Card | str | None


@dataclass(frozen=True)
class ShowdownOdds(Call[Odds]):
    """``cpsolver.chlust.showdown_odds`` (remote: ``ShowdownOdds``)."""

    hand: CardsLike
    trump: Suit | str
    rules: ChlustRules
    opponents: int
    turned: Card | str | None
    dead: CardsLike
    exact_limit: int
    samples: int
    seed: int


@dataclass(frozen=True)
class AdvisePlay(Call[PlayAdvice]):
    """``cpsolver.chlust.advise_play`` (remote: ``AdvisePlay``)."""

    hand: CardsLike
    trick: Trick
    rules: ChlustRules
    seat: int
    seats: Sequence[int]
    history: Sequence[Trick]
    turned: Card | str | None
    samples: int
    seed: int


@dataclass(frozen=True)
class DealHands(Call[ChlustDeal]):
    """``cpsolver.chlust.deal`` (remote: ``DealHands``); ``players`` None: the rules'."""

    seed: int
    rules: ChlustRules
    players: int | None
    dealer: int


@dataclass(frozen=True)
class Bid(Call[BiddingState]):
    """A ``cpsolver.chlust.Bidding`` round replayed from its actions (remote: ``Bid``)."""

    actions: Sequence[BidAction | str]
    players: int | None
    rules: ChlustRules
    dealer: int


# -- Three Leaves (ThreeLeavesService) ------------------------------------------------------


@dataclass(frozen=True)
class EvaluateKhlyust(Call[KhlyustValue]):
    """``cpsolver.three_leaves.evaluate`` (remote: ``EvaluateKhlyust``)."""

    cards: CardsLike
    trump: Suit | str
    rules: ThreeLeavesRules


@dataclass(frozen=True)
class ListLegalLeafPlays(Call[tuple[LegalPlay, ...]]):
    """``cpsolver.three_leaves.legal_on_trick`` (remote: ``ListLegalLeafPlays``)."""

    hand: CardsLike
    trick: Trick
    rules: ThreeLeavesRules


@dataclass(frozen=True)
class DealLeaves(Call[LeavesDeal]):
    """``cpsolver.three_leaves.deal`` (remote: ``DealLeaves``); ``dealer`` None: the last
    seat."""

    seed: int
    rules: ThreeLeavesRules
    dealer: int | None


@dataclass(frozen=True)
class ResolveLeavesDeal(Call[tuple[KhlyustClaim | None, tuple[KhlyustClaim, ...]]]):
    """``cpsolver.three_leaves.best_khlyust`` over a deal (remote: ``ResolveLeavesDeal``)."""

    deal: LeavesDeal


@dataclass(frozen=True)
class PlayLeavesDeal(Call[LeavesDealResult]):
    """``cpsolver.three_leaves.play_deal`` (remote: ``PlayLeavesDeal``)."""

    deal: LeavesDeal
    choices: Choices | None
    carried_pot: int


@dataclass(frozen=True)
class AdviseLeaves(Call[HandAdvice]):
    """``cpsolver.three_leaves.advise_hand`` (remote: ``AdviseLeaves``)."""

    hand: CardsLike
    trump_card: Card | str
    rules: ThreeLeavesRules
    position: int
    samples: int
    seed: int
    carried_pot: int
    odds: bool
    tricks: bool
    exchange: bool
