"""The client's per-game sections, each written once over a :class:`~cpsolver.client.calls.Backend`.

A :class:`~cpsolver.client.Solver` has one section per game, ``solver.chinese``,
``solver.chlust`` and ``solver.leaves``, with the same names for the same ideas (``deal``,
``evaluate``, legal plays, ``play_deal``, ``advise``...) as the library's packages
(docs/API.md "One vocabulary"). A section resolves the rules (a rule-set object, a preset name
or None, plus rule options by name) and hands the call to its backend; the backend answers with
the library's types, in-process or over gRPC.

>>> from cpsolver.client import connect
>>> with connect(None) as solver:
...     solver.chlust.evaluate("As Ks Qs", "s").name, solver.leaves.evaluate("As Ks Qs", "s").points
('trump flush A-K-Q ♠ (pure)', 18)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from cpsolver.cards import Card, CardsLike, Suit
from cpsolver.chinese import Solution
from cpsolver.chinese.constraints import Constraints
from cpsolver.chinese.deal import Deal as ChineseDeal
from cpsolver.chinese.estimator import EstimatorLike, resolve_count, resolve_estimator
from cpsolver.chinese.rate import Rating
from cpsolver.chinese.scoring import Seat, TableResult
from cpsolver.chlust import BidAction, BiddingState, PlayAdvice, ShowdownOdds
from cpsolver.chlust import Deal as ChlustDeal
from cpsolver.chlust import DealResult as ChlustDealResult
from cpsolver.chlust.advice import (
    DEFAULT_ADVICE_SAMPLES,
    DEFAULT_EXACT_LIMIT,
    DEFAULT_ODDS_SAMPLES,
)
from cpsolver.chlust.deal import Showdown
from cpsolver.client import calls
from cpsolver.client.calls import Backend
from cpsolver.client.compat import seed_first
from cpsolver.errors import CpsolverError, Violations
from cpsolver.evaluator.chlust import SetValue
from cpsolver.evaluator.khlyust import KhlyustValue
from cpsolver.evaluator.poker import HandValue
from cpsolver.ofc import Advice as OfcAdvice
from cpsolver.ofc import FantasylandSet, OfcDeal, Position, read_position
from cpsolver.ofc import TableResult as OfcTable
from cpsolver.ofc.advice import DEFAULT_FILLS, check_advice_options
from cpsolver.rules import ChineseRules, ChlustRules, OfcRules, ThreeLeavesRules
from cpsolver.seeds import check_seed
from cpsolver.three_leaves import (
    Choices,
    HandAdvice,
    KhlyustClaim,
    LegalPlay,
    SessionResult,
    play_session,
)
from cpsolver.three_leaves import Deal as LeavesDeal
from cpsolver.three_leaves import DealResult as LeavesDealResult
from cpsolver.three_leaves.advice import DEFAULT_SAMPLES as DEFAULT_LEAVES_SAMPLES
from cpsolver.tricks import Trick

__all__ = ["ChinesePoker", "Chlust", "OpenFace", "Section", "ThreeLeaves"]


class Section:
    """One game's methods over ``backend`` (every method also takes ``timeout=``, the call's
    deadline in seconds: None is the backend's default, and in-process there is none)."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend


class ChinesePoker(Section):
    """Chinese poker (RULES.md §2; remote: ``ChinesePokerService``)."""

    def solve(
        self,
        cards: CardsLike,
        rules: ChineseRules | str | None = "standard",
        objective: str | None = None,
        *,
        estimator: EstimatorLike | None = None,
        arrangements: int | None = None,
        constraints: Constraints | str | Iterable[str] | None = None,
        engine: str = "exact",
        seed: int = 0,
        alternatives: int | None = None,
        rollouts: int | None = None,
        calibrated: bool | None = None,
        budget_ms: int | None = None,
        timeout: float | None = None,
        **overrides: Any,
    ) -> Solution:
        """The best arrangement of 13 cards, or the best 13 of 14-17, as :func:`cpsolver.solve`
        finds it: ``estimator`` (``model``, ``calibrated``, ``rollouts:N`` with ``seed``,
        ``budget:Nms``: remote, never more than half the time left before ``timeout``),
        ``arrangements``, ``constraints`` and ``engine`` as there, and their deprecated names
        (``alternatives``, ``rollouts``, ``calibrated``, ``budget_ms``); ``overrides`` are rule
        options by name."""
        resolved = ChineseRules.resolve(rules, **overrides)
        asked = resolve_estimator(
            estimator, rollouts=rollouts, calibrated=calibrated, budget_ms=budget_ms
        )
        count = resolve_count(arrangements, alternatives=alternatives)
        check_seed(seed)
        request = calls.Solve(cards, resolved, objective, asked, count, constraints, engine, seed)
        return self.backend.call(request, timeout)

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
    ) -> Iterator[Solution | CpsolverError]:
        """One Solution or exception per hand, in input order (a bad hand does not stop the
        batch; ``estimator``, ``arrangements`` and ``seed`` are each hand's, as in
        :meth:`solve`; remote: ``timeout`` is the deadline of each ``BatchSolve`` call).

        >>> from cpsolver import Row
        >>> from cpsolver.client import connect
        >>> hands = ["As Ks", "2c 3c 4c 5c 6c 7d 8d 9d Td Jd Qh Kh Ah"]
        >>> results = list(connect(None).chinese.solve_batch(hands))
        >>> str(results[0]), results[1].hands[Row.FRONT].name
        ('cards: expected 13 cards, got 2', 'high card, A-K-Q')
        """
        resolved = ChineseRules.resolve(rules, **overrides)
        asked = resolve_estimator(estimator, budget_ms=budget_ms)
        count = resolve_count(arrangements, alternatives=alternatives)
        check_seed(seed)
        return self.backend.call(
            calls.BatchSolve(hands, resolved, objective, asked, count, seed), timeout
        )

    def evaluate(
        self,
        cards: CardsLike,
        rules: ChineseRules | str | None = "standard",
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> HandValue:
        """Evaluate a 5-card hand or 3-card front with the rule set's wheel
        (:func:`cpsolver.evaluate`)."""
        resolved = ChineseRules.resolve(rules, **overrides)
        return self.backend.call(calls.EvaluateHand(cards, resolved), timeout)

    def score(
        self,
        players: Sequence[object] | Mapping[str, object],
        /,
        rules: ChineseRules | str | None = "standard",
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> TableResult:
        """Settle a table of 2-4 players, seat by seat (a list, or a mapping of seat name;
        :func:`cpsolver.score`; remote: the players are read here with the library, the server
        settles them). ``players`` is positional only, so the rule option of that name can be
        an override: ``score(table, players=2)``."""
        resolved = ChineseRules.resolve(rules, **overrides)
        return self.backend.call(calls.ScoreTable(players, resolved), timeout)

    def deal(
        self,
        seed: int | None = None,
        /,
        *,
        players: int | None = None,
        count: int = 1,
        timeout: float | None = None,
        **legacy: Any,
    ) -> tuple[ChineseDeal, ...]:
        """``count`` seeded deals, seeds ``seed``, ``seed + 1``, ... (CP-1,
        ``cpsolver.chinese.deal.deals``; 4 players by default); the same seed gives the same
        hands either way. ``seed`` may be passed by name; the old ``deal(players, *, seed)``
        warns (:mod:`cpsolver.client.compat`)."""
        start, n = seed_first("deal", seed, legacy, players)
        if legacy:
            raise TypeError(f"deal() got unexpected keyword arguments {sorted(legacy)}")
        return self.backend.call(calls.DealTables(start, 4 if n is None else n, count), timeout)

    def validate(
        self,
        back: CardsLike,
        middle: CardsLike,
        front: CardsLike,
        rules: ChineseRules | str | None = "standard",
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> Seat:
        """Check one arrangement (CP-6): its rows' hands, royalties and foul
        (``cpsolver.chinese.scoring.check_arrangement``; remote: ``ValidateArrangement``)."""
        resolved = ChineseRules.resolve(rules, **overrides)
        return self.backend.call(calls.ValidateArrangement(back, middle, front, resolved), timeout)

    def rate(
        self,
        played: object,
        rules: ChineseRules | str | None = "standard",
        *,
        estimator: EstimatorLike | None = None,
        arrangements: int | None = None,
        seed: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> Rating:
        """Rate a player's choice beside the best, as :func:`cpsolver.rate` (rows ``(back,
        middle, front)`` or a mapping of them, a Solution, or a declared natural ``{"cards",
        "natural": true}``; ``estimator``, ``arrangements`` and ``seed`` as in :meth:`solve`;
        remote: ``RateArrangement``).

        >>> from cpsolver.client import connect
        >>> r = connect(None).chinese.rate(("As Ks Qs Js Ts", "9h 9d 9c 2h 2d", "7c 5d 3s"))
        >>> r.ev_lost, r.rank
        (0.0, 1)
        """
        resolved = ChineseRules.resolve(rules, **overrides)
        found = Violations()
        with found.check():
            asked = resolve_estimator(estimator)
        with found.check():
            count = resolve_count(arrangements)
        with found.check():
            check_seed(seed)
        found.raise_any()
        return self.backend.call(
            calls.RateArrangement(played, resolved, asked, count, seed), timeout
        )


class Chlust(Section):
    """Chlust (RULES.md §3; ``cpsolver.chlust`` types; remote: ``ChlustService``)."""

    def deal(
        self,
        seed: int | None = None,
        rules: ChlustRules | str | None = None,
        /,
        *,
        players: int | None = None,
        dealer: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> ChlustDeal:
        """The deal numbered ``seed`` (CH-2, ``cpsolver.chlust.deal``; players default to the
        rules'). The old ``deal(players, rules, *, seed)`` warns."""
        start, n = seed_first("chlust.deal", seed, overrides, players)
        resolved = ChlustRules.resolve(overrides.pop("rules", rules), **overrides)
        # None is "the rules' players"; 0 is a count, refused as the library refuses it.
        return self.backend.call(calls.DealHands(start, resolved, n, dealer), timeout)

    def exchange(
        self,
        hands: Sequence[CardsLike],
        turned: Card | str,
        rules: ChlustRules | str | None = None,
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> tuple[int | None, ChlustDeal]:
        """The seat that may exchange its lowest trump for the turned trump ace (CH-2), or
        None, and the hands and turned card after it (``exchange_seat``, ``Deal.exchange``)."""
        resolved = ChlustRules.resolve(rules, **overrides)
        return self.backend.call(calls.Exchange(hands, turned, resolved), timeout)

    def evaluate(
        self,
        cards: CardsLike,
        trump: Suit | str,
        rules: ChlustRules | str | None = None,
        *,
        turned: Card | str | None = None,
        timeout: float | None = None,
        **overrides: Any,
    ) -> SetValue:
        """Judge a 3-card hand (CH-3..CH-5, ``cpsolver.chlust.evaluate``)."""
        resolved = ChlustRules.resolve(rules, **overrides)
        return self.backend.call(calls.EvaluateSet(cards, trump, resolved, turned), timeout)

    def showdown(
        self,
        hands: Sequence[CardsLike],
        trump: Suit | str,
        rules: ChlustRules | str | None = None,
        *,
        turned: Card | str | None = None,
        timeout: float | None = None,
        **overrides: Any,
    ) -> Showdown:
        """Rank 2-4 hands (CH-7, ``cpsolver.chlust.showdown``)."""
        resolved = ChlustRules.resolve(rules, **overrides)
        return self.backend.call(calls.Showdown(hands, trump, resolved, turned), timeout)

    def legal_cards(
        self,
        hand: CardsLike,
        trump: Suit | str,
        rules: ChlustRules | str | None = None,
        *,
        trick: CardsLike = (),
        timeout: float | None = None,
        **overrides: Any,
    ) -> tuple[Card, ...]:
        """The cards ``hand`` may play to a trick of ``trick`` cards so far (CH-8,
        ``cpsolver.chlust.legal_cards``)."""
        resolved = ChlustRules.resolve(rules, **overrides)
        return self.backend.call(calls.LegalPlays(hand, trump, trick, resolved), timeout)

    def play_deal(
        self,
        hands: Sequence[CardsLike | None],
        trump: Suit | str,
        plays: CardsLike | Sequence[CardsLike],
        rules: ChlustRules | str | None = None,
        *,
        dealer: int = 0,
        folded: Sequence[int] = (),
        turned: Card | str | None = None,
        timeout: float | None = None,
        **overrides: Any,
    ) -> ChlustDealResult:
        """Play and settle a whole deal (CH-8, CH-9, ``cpsolver.chlust.play_deal``)."""
        resolved = ChlustRules.resolve(rules, **overrides)
        request = calls.PlayDeal(hands, trump, plays, resolved, dealer, folded, turned)
        return self.backend.call(request, timeout)

    def showdown_odds(
        self,
        hand: CardsLike,
        trump: Suit | str,
        rules: ChlustRules | str | None = None,
        *,
        opponents: int = 1,
        turned: Card | str | None = None,
        dead: CardsLike = (),
        exact_limit: int = DEFAULT_EXACT_LIMIT,
        samples: int = DEFAULT_ODDS_SAMPLES,
        seed: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> ShowdownOdds:
        """Showdown odds of a hand (CH-7, ``cpsolver.chlust.showdown_odds``)."""
        resolved = ChlustRules.resolve(rules, **overrides)
        request = calls.ShowdownOdds(
            hand, trump, resolved, opponents, turned, dead, exact_limit, samples, seed
        )
        return self.backend.call(request, timeout)

    def advise(
        self,
        hand: CardsLike,
        trick: Trick,
        rules: ChlustRules | str | None = None,
        *,
        seat: int,
        seats: Sequence[int],
        history: Sequence[Trick] = (),
        turned: Card | str | None = None,
        samples: int = DEFAULT_ADVICE_SAMPLES,
        seed: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> PlayAdvice:
        """The card to play by expected tricks (``cpsolver.chlust.advise_play``)."""
        resolved = ChlustRules.resolve(rules, **overrides)
        request = calls.AdvisePlay(
            hand, trick, resolved, seat, seats, history, turned, samples, seed
        )
        return self.backend.call(request, timeout)

    def bid(
        self,
        actions: Sequence[BidAction | str],
        players: int | None = None,
        rules: ChlustRules | str | None = None,
        *,
        dealer: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> BiddingState:
        """Replay a bidding round from its actions (CH-6, ``cpsolver.chlust.Bidding``); an
        illegal action raises naming ``actions[i]``."""
        resolved = ChlustRules.resolve(rules, **overrides)
        return self.backend.call(calls.Bid(actions, players, resolved, dealer), timeout)


class ThreeLeaves(Section):
    """Three Leaves (RULES.md §4; ``cpsolver.three_leaves`` types; remote:
    ``ThreeLeavesService``)."""

    def evaluate(
        self,
        cards: CardsLike,
        trump: Suit | str,
        rules: ThreeLeavesRules | str | None = None,
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> KhlyustValue:
        """Judge three cards under a trump suit (TL-4, ``cpsolver.three_leaves.evaluate``)."""
        resolved = ThreeLeavesRules.resolve(rules, **overrides)
        return self.backend.call(calls.EvaluateKhlyust(cards, trump, resolved), timeout)

    def legal_plays(
        self,
        hand: CardsLike,
        trick: Trick,
        rules: ThreeLeavesRules | str | None = None,
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> tuple[LegalPlay, ...]:
        """The plays ``hand`` may make to ``trick`` (TL-5, ``legal_on_trick``; build the trick
        with ``cpsolver.three_leaves.leaf_trick``)."""
        resolved = ThreeLeavesRules.resolve(rules, **overrides)
        return self.backend.call(calls.ListLegalLeafPlays(hand, trick, resolved), timeout)

    def deal(
        self,
        seed: int,
        rules: ThreeLeavesRules | str | None = None,
        /,
        *,
        dealer: int | None = None,
        timeout: float | None = None,
        **overrides: Any,
    ) -> LeavesDeal:
        """The deal numbered ``seed`` (TL-2, ``cpsolver.three_leaves.deal``; the dealer
        defaults to the last seat): the same seed and rules give the same deal either way."""
        resolved = ThreeLeavesRules.resolve(rules, **overrides)
        return self.backend.call(calls.DealLeaves(seed, resolved, dealer), timeout)

    def resolve(
        self, deal: LeavesDeal, *, timeout: float | None = None
    ) -> tuple[KhlyustClaim | None, tuple[KhlyustClaim, ...]]:
        """The best khlyust of the deal, if any, and every one shown (TL-4,
        ``cpsolver.three_leaves.best_khlyust``)."""
        return self.backend.call(calls.ResolveLeavesDeal(deal), timeout)

    def play_deal(
        self,
        deal: LeavesDeal,
        choices: Choices | None = None,
        *,
        carried_pot: int = 0,
        timeout: float | None = None,
    ) -> LeavesDealResult:
        """Play and settle a deal (TL-2..TL-6, ``cpsolver.three_leaves.play_deal``; remote:
        the plays must be listed, a play policy runs in-process only)."""
        return self.backend.call(calls.PlayLeavesDeal(deal, choices, carried_pot), timeout)

    def play_session(
        self,
        deals: Sequence[tuple[LeavesDeal, Choices | None]],
        *,
        carried_pot: int = 0,
        timeout: float | None = None,
    ) -> SessionResult:
        """Play deals in order, carrying the pot over (TL-6, ``play_session``): one
        :meth:`play_deal` each (remote: one ``PlayLeavesDeal`` each, ``timeout`` each)."""

        def play(deal: LeavesDeal, choices: Choices | None, pot: int) -> LeavesDealResult:
            return self.play_deal(deal, choices, carried_pot=pot, timeout=timeout)

        return play_session(deals, carried_pot=carried_pot, play=play)

    def advise(
        self,
        hand: CardsLike,
        trump_card: Card | str,
        rules: ThreeLeavesRules | str | None = None,
        *,
        position: int = 1,
        samples: int = DEFAULT_LEAVES_SAMPLES,
        seed: int = 0,
        carried_pot: int = 0,
        odds: bool = True,
        tricks: bool = True,
        exchange: bool = False,
        timeout: float | None = None,
        **overrides: Any,
    ) -> HandAdvice:
        """Khlyust odds, trick odds and exchange advice for a hand, each when asked
        (``cpsolver.three_leaves.advise_hand``)."""
        resolved = ThreeLeavesRules.resolve(rules, **overrides)
        request = calls.AdviseLeaves(
            hand, trump_card, resolved, position, samples, seed, carried_pot, odds, tricks, exchange
        )
        return self.backend.call(request, timeout)


class OpenFace(Section):
    """Open-face Chinese poker (RULES.md §5; ``cpsolver.ofc`` types; remote:
    ``OpenFaceService``)."""

    def score(
        self,
        players: Sequence[object] | Mapping[str, object],
        /,
        rules: OfcRules | str | None = None,
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> OfcTable:
        """Settle a table of finished boards (OFC-4, ``cpsolver.ofc.score``; ``players``
        positional only, as in :meth:`ChinesePoker.score`: ``players=2`` is the rule option)."""
        resolved = OfcRules.resolve(rules, **overrides)
        return self.backend.call(calls.ScoreOpenFace(players, resolved), timeout)

    def fantasyland(
        self,
        cards: CardsLike,
        rules: OfcRules | str | None = None,
        *,
        objective: str = "royalties",
        fantasyland_value: float = 0.0,
        samples: int | None = None,
        seed: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> FantasylandSet:
        """The best set of a fantasyland hand (OFC-5, ``cpsolver.ofc.fantasyland``;
        ``samples`` and ``seed`` serve the ``ev`` objective)."""
        resolved = OfcRules.resolve(rules, **overrides)
        return self.backend.call(
            calls.SetFantasyland(cards, resolved, objective, fantasyland_value, samples, seed),
            timeout,
        )

    def advise(
        self,
        position: Mapping[str, object] | Position,
        rules: OfcRules | str | None = None,
        *,
        budget_ms: float | None = None,
        samples: int | None = None,
        seed: int = 0,
        fantasyland_value: float | None = None,
        fills: int = DEFAULT_FILLS,
        timeout: float | None = None,
        **overrides: Any,
    ) -> OfcAdvice:
        """Every legal placement of a street's hand ranked by expected units
        (``cpsolver.ofc.advise``); the position is read here, with the library's errors."""
        found = Violations()
        read: Position | None = None
        with found.check():
            read = read_position(position, rules, **overrides)
        with found.check():
            check_advice_options(budget_ms, samples, seed, fantasyland_value, fills)
        found.raise_any()
        assert read is not None
        call = calls.AdviseOpenFace(read, budget_ms, samples, seed, fantasyland_value, fills)
        return self.backend.call(call, timeout)

    def deal(
        self,
        seed: int,
        /,
        # rules by name too, as cpsolver.ofc.deal and docs/API.md's deal(seed, rules=None)
        # take it: positional-only, rules="classic" fell into the overrides ("rules.rules:
        # unknown ofc option")
        rules: OfcRules | str | None = None,
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> OfcDeal:
        """The deal numbered ``seed`` (OFC-1, ``cpsolver.ofc.deal``): the same seed and rules
        give the same deal either way."""
        resolved = OfcRules.resolve(rules, **overrides)
        return self.backend.call(calls.DealOpenFace(seed, resolved), timeout)
