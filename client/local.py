"""The in-process backend: :class:`LocalBackend` answers the client's calls with the library.

>>> from cpsolver.client import LocalSolver
>>> with LocalSolver() as solver:
...     solver.chlust.legal_cards("As Kh Td", "h", trick="Qh")
(Card('Kh'),)

:class:`LocalSolver` is a :class:`~cpsolver.client.Solver` over it (``connect(None)``);
``timeout`` arguments are accepted and ignored.
"""

from __future__ import annotations

from collections.abc import Iterator

from cpsolver import ofc
from cpsolver.cards import Card, CardsLike, parse_cards, parse_suit
from cpsolver.chinese import Solution, solve, solve_many
from cpsolver.chinese.deal import Deal as ChineseDeal
from cpsolver.chinese.deal import deals
from cpsolver.chinese.hands import evaluate
from cpsolver.chinese.objectives import DEFAULT_OBJECTIVE
from cpsolver.chinese.rate import Rating, rate
from cpsolver.chinese.scoring import Seat, TableResult, check_arrangement, score
from cpsolver.chlust import (
    Bidding,
    BiddingState,
    PlayAdvice,
    ShowdownOdds,
    advise_play,
    legal_cards,
    play_deal,
    showdown_odds,
)
from cpsolver.chlust import Deal as ChlustDeal
from cpsolver.chlust import DealResult as ChlustDealResult
from cpsolver.chlust import deal as deal_chlust
from cpsolver.chlust.deal import Showdown, exchange_seat, one_card, parse_hands, showdown
from cpsolver.client import calls
from cpsolver.client.calls import Call, T, answers, dispatch, handlers
from cpsolver.client.solver import Solver
from cpsolver.errors import CpsolverError, InvalidInputError
from cpsolver.evaluator.chlust import SetValue, evaluate_set
from cpsolver.evaluator.khlyust import KhlyustValue, evaluate_khlyust
from cpsolver.evaluator.poker import HandValue
from cpsolver.three_leaves import Deal as LeavesDeal
from cpsolver.three_leaves import DealResult as LeavesDealResult
from cpsolver.three_leaves import (
    HandAdvice,
    KhlyustClaim,
    LegalPlay,
    advise_hand,
    best_khlyust,
    legal_on_trick,
)
from cpsolver.three_leaves import deal as deal_leaves
from cpsolver.three_leaves import play_deal as play_leaves_deal
from cpsolver.tricks import Trick

__all__ = ["LocalBackend", "LocalSolver", "Solver"]

LOCAL_CHUNK = 256  # hands per solve_many call in a batch


class LocalSolver(Solver):
    """A :class:`~cpsolver.client.Solver` over the library in this process."""

    def __init__(self) -> None:
        super().__init__(LocalBackend())


class LocalBackend:
    """The library in this process (one handler per call; ``timeout`` is ignored)."""

    def __init__(self) -> None:
        self._handlers = handlers(self)

    def call(self, request: Call[T], timeout: float | None = None) -> T:
        """The library's answer to ``request``."""
        return dispatch(self._handlers, request, timeout)

    def close(self) -> None:
        """Nothing to release."""

    # -- Chinese poker ----------------------------------------------------------------------

    @staticmethod
    @answers(calls.Solve)
    def _solve(r: calls.Solve, timeout: float | None) -> Solution:
        return solve(
            r.cards,
            r.rules,
            r.objective or DEFAULT_OBJECTIVE,
            estimator=r.estimator,
            arrangements=r.arrangements,
            constraints=r.constraints,
            engine=r.engine,
            seed=r.seed,
        )

    @answers(calls.BatchSolve)
    def _batch_solve(
        self, r: calls.BatchSolve, timeout: float | None
    ) -> Iterator[Solution | CpsolverError]:
        """:func:`cpsolver.solve_many` in chunks; a bad hand yields its exception, in place."""
        name = r.objective or DEFAULT_OBJECTIVE
        chunk: list[CardsLike] = []
        for hand in r.hands:
            chunk.append(hand)
            if len(chunk) >= LOCAL_CHUNK:
                yield from self._chunk(chunk, r, name)
                chunk = []
        yield from self._chunk(chunk, r, name)

    @staticmethod
    def _chunk(
        hands: list[CardsLike], r: calls.BatchSolve, objective: str
    ) -> Iterator[Solution | CpsolverError]:
        results: list[Solution | CpsolverError | None] = []
        good: list[int] = []
        for hand in hands:
            try:
                cards = parse_cards(hand, count=13)
            except CpsolverError as exc:
                results.append(exc)
                continue
            results.append(None)
            good.append(len(results) - 1)
            hands[len(results) - 1] = cards
        if good:  # solve_many: the parallel batch search when the call allows it
            solved = solve_many(
                [hands[i] for i in good],
                r.rules,
                objective,
                estimator=r.estimator,
                arrangements=r.arrangements,
                seed=r.seed,
            )
            for i, solution in zip(good, solved, strict=True):
                results[i] = solution
        for result in results:
            assert result is not None
            yield result

    @staticmethod
    @answers(calls.EvaluateHand)
    def _evaluate_hand(r: calls.EvaluateHand, timeout: float | None) -> HandValue:
        return evaluate(r.cards, r.rules)

    @staticmethod
    @answers(calls.ScoreTable)
    def _score_table(r: calls.ScoreTable, timeout: float | None) -> TableResult:
        return score(r.players, r.rules)

    @staticmethod
    @answers(calls.DealTables)
    def _deal_tables(r: calls.DealTables, timeout: float | None) -> tuple[ChineseDeal, ...]:
        return deals(r.seed, r.players, r.count)

    @staticmethod
    @answers(calls.ValidateArrangement)
    def _validate(r: calls.ValidateArrangement, timeout: float | None) -> Seat:
        return check_arrangement(r.back, r.middle, r.front, r.rules)

    @staticmethod
    @answers(calls.RateArrangement)
    def _rate(r: calls.RateArrangement, timeout: float | None) -> Rating:
        return rate(
            r.played, r.rules, estimator=r.estimator, arrangements=r.arrangements, seed=r.seed
        )

    # -- Chlust -----------------------------------------------------------------------------

    @staticmethod
    @answers(calls.Exchange)
    def _exchange(r: calls.Exchange, timeout: float | None) -> tuple[int | None, ChlustDeal]:
        card = one_card(r.turned, r.rules, "turned")
        parsed = parse_hands(r.hands, r.rules, exclude=(card,))
        seat = exchange_seat(parsed, card, r.rules)
        dealt = ChlustDeal(parsed, card, 0, ())
        return seat, dealt if seat is None else dealt.exchange(seat, r.rules)

    @staticmethod
    @answers(calls.EvaluateSet)
    def _evaluate_set(r: calls.EvaluateSet, timeout: float | None) -> SetValue:
        card = parse_cards([r.turned], field="turned")[0] if r.turned is not None else None
        return evaluate_set(r.cards, r.trump, r.rules, turned=card, field="cards")

    @staticmethod
    @answers(calls.Showdown)
    def _showdown(r: calls.Showdown, timeout: float | None) -> Showdown:
        return showdown(r.hands, r.trump, r.rules, turned=r.turned)

    @staticmethod
    @answers(calls.LegalPlays)
    def _legal_plays(r: calls.LegalPlays, timeout: float | None) -> tuple[Card, ...]:
        suit = parse_suit(r.trump, field="trump") if isinstance(r.trump, str) else r.trump
        cards = parse_cards(r.trick, deck=r.rules.card_deck, count=(0, 1, 2, 3), field="trick")
        return legal_cards(r.hand, Trick.of(suit, 0, cards), r.rules)

    @staticmethod
    @answers(calls.PlayDeal)
    def _play_deal(r: calls.PlayDeal, timeout: float | None) -> ChlustDealResult:
        return play_deal(
            r.hands, r.trump, r.plays, r.rules, dealer=r.dealer, folded=r.folded, turned=r.turned
        )

    @staticmethod
    @answers(calls.ShowdownOdds)
    def _showdown_odds(r: calls.ShowdownOdds, timeout: float | None) -> ShowdownOdds:
        return showdown_odds(
            r.hand,
            r.trump,
            r.rules,
            opponents=r.opponents,
            turned=r.turned,
            dead=r.dead,
            exact_limit=r.exact_limit,
            samples=r.samples,
            seed=r.seed,
        )

    @staticmethod
    @answers(calls.AdvisePlay)
    def _advise_play(r: calls.AdvisePlay, timeout: float | None) -> PlayAdvice:
        return advise_play(
            r.hand,
            r.trick,
            r.rules,
            seat=r.seat,
            seats=r.seats,
            history=r.history,
            turned=r.turned,
            samples=r.samples,
            seed=r.seed,
        )

    @staticmethod
    @answers(calls.DealHands)
    def _deal_hands(r: calls.DealHands, timeout: float | None) -> ChlustDeal:
        return deal_chlust(r.seed, r.rules, players=r.players, dealer=r.dealer)

    @staticmethod
    @answers(calls.Bid)
    def _bid(r: calls.Bid, timeout: float | None) -> BiddingState:
        """A ``cpsolver.chlust.Bidding`` round after the actions (CH-6), as a snapshot."""
        bidding = Bidding(r.players, r.rules, dealer=r.dealer)
        for i, action in enumerate(r.actions):
            try:
                bidding.act(action)
            except InvalidInputError as exc:
                raise exc.prefixed(("actions", i)) from None
        return bidding.state()

    # -- Three Leaves -----------------------------------------------------------------------

    @staticmethod
    @answers(calls.EvaluateKhlyust)
    def _evaluate_khlyust(r: calls.EvaluateKhlyust, timeout: float | None) -> KhlyustValue:
        suit = parse_suit(r.trump, field="trump") if isinstance(r.trump, str) else r.trump
        return evaluate_khlyust(
            r.cards, suit, deck=r.rules.card_deck, class_ranking=r.rules.class_ranking
        )

    @staticmethod
    @answers(calls.ListLegalLeafPlays)
    def _legal_leaf_plays(
        r: calls.ListLegalLeafPlays, timeout: float | None
    ) -> tuple[LegalPlay, ...]:
        cards = parse_cards(r.hand, deck=r.rules.card_deck, count=(1, 2, 3), field="hand")
        return legal_on_trick(cards, r.trick, rules=r.rules)

    @staticmethod
    @answers(calls.DealLeaves)
    def _deal_leaves(r: calls.DealLeaves, timeout: float | None) -> LeavesDeal:
        return deal_leaves(r.seed, r.rules, dealer=r.dealer)

    @staticmethod
    @answers(calls.ResolveLeavesDeal)
    def _resolve_leaves(
        r: calls.ResolveLeavesDeal, timeout: float | None
    ) -> tuple[KhlyustClaim | None, tuple[KhlyustClaim, ...]]:
        d = r.deal
        return best_khlyust(d.hands, d.trump, d.dealer, d.players, d.rules)

    @staticmethod
    @answers(calls.PlayLeavesDeal)
    def _play_leaves(r: calls.PlayLeavesDeal, timeout: float | None) -> LeavesDealResult:
        return play_leaves_deal(r.deal, r.choices, carried_pot=r.carried_pot)

    @staticmethod
    @answers(calls.AdviseLeaves)
    def _advise_leaves(r: calls.AdviseLeaves, timeout: float | None) -> HandAdvice:
        return advise_hand(
            r.hand,
            r.trump_card,
            position=r.position,
            rules=r.rules,
            samples=r.samples,
            seed=r.seed,
            carried_pot=r.carried_pot,
            odds=r.odds,
            tricks=r.tricks,
            exchange=r.exchange,
        )

    # -- open-face Chinese poker -------------------------------------------------------------

    @staticmethod
    @answers(calls.ScoreOpenFace)
    def _score_open_face(r: calls.ScoreOpenFace, timeout: float | None) -> ofc.TableResult:
        return ofc.score(r.players, r.rules)

    @staticmethod
    @answers(calls.SetFantasyland)
    def _set_fantasyland(r: calls.SetFantasyland, timeout: float | None) -> ofc.FantasylandSet:
        return ofc.fantasyland(
            r.cards,
            rules=r.rules,
            objective=r.objective,
            fantasyland_value=r.fantasyland_value,
            samples=r.samples,
            seed=r.seed,
        )

    @staticmethod
    @answers(calls.AdviseOpenFace)
    def _advise_open_face(r: calls.AdviseOpenFace, timeout: float | None) -> ofc.Advice:
        return ofc.advise(
            r.position,
            budget_ms=r.budget_ms,
            samples=r.samples,
            seed=r.seed,
            fantasyland_value=r.fantasyland_value,
            fills=r.fills,
        )

    @staticmethod
    @answers(calls.DealOpenFace)
    def _deal_open_face(r: calls.DealOpenFace, timeout: float | None) -> ofc.OfcDeal:
        return ofc.deal(r.seed, r.rules)
