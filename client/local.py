"""The :class:`Solver` protocol and its in-process implementation, :class:`LocalSolver`.

A bot codes against :class:`Solver` and picks the implementation with one line:

>>> from cpsolver.client import connect
>>> with connect(None) as solver:          # in-process; connect("host:50051") for a server
...     solution = solver.solve("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s")
>>> from cpsolver import Row
>>> solution.hands[Row.BACK].name
'royal flush'

Both implementations return the library's types and raise the library's exceptions.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, Protocol, Self, runtime_checkable

from cpsolver.cards import Card, CardsLike, Suit, parse_cards, parse_suit
from cpsolver.chinese import Solution, solve, solve_many
from cpsolver.chinese.constraints import Constraints
from cpsolver.chinese.deal import Deal as ChineseDeal
from cpsolver.chinese.deal import deals
from cpsolver.chinese.objectives import DEFAULT_OBJECTIVE
from cpsolver.chinese.scoring import Seat, TableResult, check_arrangement, score
from cpsolver.chlust import (
    BidAction,
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
from cpsolver.chlust.advice import (
    DEFAULT_ADVICE_SAMPLES,
    DEFAULT_EXACT_LIMIT,
    DEFAULT_ODDS_SAMPLES,
)
from cpsolver.chlust.deal import Showdown, exchange_seat, one_card, parse_hands, showdown
from cpsolver.client.compat import seed_first
from cpsolver.errors import CpsolverError, InvalidInputError
from cpsolver.evaluator.chlust import SetValue, evaluate_set
from cpsolver.evaluator.khlyust import KhlyustValue, evaluate_khlyust
from cpsolver.evaluator.poker import HandValue, evaluate
from cpsolver.rules import ChineseRules, ChlustRules, ThreeLeavesRules
from cpsolver.three_leaves import (
    Choices,
    HandAdvice,
    KhlyustClaim,
    LegalPlay,
    SessionResult,
    advise_hand,
    best_khlyust,
    legal_on_trick,
    play_session,
)
from cpsolver.three_leaves import Deal as LeavesDeal
from cpsolver.three_leaves import DealResult as LeavesDealResult
from cpsolver.three_leaves import play_deal as play_leaves_deal
from cpsolver.three_leaves.advice import DEFAULT_SAMPLES as DEFAULT_LEAVES_SAMPLES
from cpsolver.tricks import Trick

__all__ = ["LocalSolver", "Solver"]

LOCAL_CHUNK = 256  # hands per solve_many call in solve_batch


@runtime_checkable
class Solver(Protocol):
    """What a bot needs from the solver, in-process or remote (same types either way)."""

    def solve(
        self,
        cards: CardsLike,
        rules: ChineseRules | str | None = "standard",
        objective: str | None = None,
        *,
        alternatives: int = 0,
        constraints: Constraints | str | Iterable[str] | None = None,
        engine: str = "exact",
        rollouts: int = 0,
        seed: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> Solution:
        """The best arrangement of 13 cards, or the best 13 of 14-17 (see
        :func:`cpsolver.solve`: ``constraints`` and ``engine`` as there; ``rollouts`` and
        ``seed`` select the expected-value objective's rollout mode; ``overrides`` are rule
        options by name)."""
        ...

    def solve_batch(
        self,
        hands: Iterable[CardsLike],
        rules: ChineseRules | str | None = "standard",
        objective: str | None = None,
        *,
        alternatives: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> Iterator[Solution | CpsolverError]:
        """One Solution or exception per hand, in input order."""
        ...

    def evaluate(
        self,
        cards: CardsLike,
        rules: ChineseRules | str | None = "standard",
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> HandValue:
        """Evaluate a 5-card hand or 3-card front (see :func:`solver.evaluate`)."""
        ...

    def score(
        self,
        players: Mapping[str, object],
        rules: ChineseRules | str | None = "standard",
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> TableResult:
        """Settle a table of 2-4 players (see :func:`solver.score`)."""
        ...

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
        """``count`` seeded Chinese poker deals, seeds ``seed``, ``seed + 1``, ... (CP-1,
        ``cpsolver.chinese.deal.deals``; 4 players by default); the same seed gives the same
        hands either way. ``seed`` may be passed by name; the old ``deal(players, *, seed)``
        warns (:mod:`cpsolver.client.compat`)."""
        ...

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
        ...

    def chlust_exchange(
        self,
        hands: Sequence[CardsLike],
        turned: Card | str,
        rules: ChlustRules | str | None = None,
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> tuple[int | None, ChlustDeal]:
        """The seat that may exchange its lowest trump for the turned trump ace (CH-2), or
        None, and the hands and turned card after it (remote: ``Exchange``)."""
        ...

    def chlust_evaluate(
        self,
        cards: CardsLike,
        trump: Suit | str,
        rules: ChlustRules | str | None = None,
        *,
        turned: Card | str | None = None,
        timeout: float | None = None,
        **overrides: Any,
    ) -> SetValue:
        """Judge a 3-card Chlust hand (CH-3..CH-5, ``cpsolver.chlust.evaluate_set``)."""
        ...

    def chlust_showdown(
        self,
        hands: Sequence[CardsLike],
        trump: Suit | str,
        rules: ChlustRules | str | None = None,
        *,
        turned: Card | str | None = None,
        timeout: float | None = None,
        **overrides: Any,
    ) -> Showdown:
        """Rank 2-4 Chlust hands (CH-7, ``cpsolver.chlust.showdown``)."""
        ...

    def chlust_legal(
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
        ``cpsolver.chlust.legal_plays``)."""
        ...

    def chlust_play(
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
        """Play a whole Chlust deal (CH-8, CH-9, ``cpsolver.chlust.play_deal``)."""
        ...

    def chlust_odds(
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
        ...

    def chlust_advise(
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
        ...

    def chlust_deal(
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
        """The Chlust deal numbered ``seed`` (CH-2, ``cpsolver.chlust.deal``; players default
        to the rules'). The old ``chlust_deal(players, rules, *, seed)`` warns."""
        ...

    def chlust_bid(
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
        ...

    def leaves_evaluate(
        self,
        cards: CardsLike,
        trump: Suit | str,
        rules: ThreeLeavesRules | str | None = None,
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> KhlyustValue:
        """Judge three cards under a trump suit (TL-4, ``solver.evaluate_khlyust``)."""
        ...

    def leaves_legal(
        self,
        hand: CardsLike,
        trick: Trick,
        rules: ThreeLeavesRules | str | None = None,
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> tuple[LegalPlay, ...]:
        """The legal plays of ``hand`` on ``trick`` (TL-5; ``trick.trump`` is trumps; build it
        with ``cpsolver.three_leaves.leaf_trick``) and whether each heads the trick."""
        ...

    def leaves_resolve(
        self, deal: LeavesDeal, *, timeout: float | None = None
    ) -> tuple[KhlyustClaim | None, tuple[KhlyustClaim, ...]]:
        """The khlyust check of a dealt deal (TL-4): the best khlyust (None: none) and every
        khlyust in turn order (``cpsolver.three_leaves.best_khlyust``)."""
        ...

    def leaves_play(
        self,
        deal: LeavesDeal,
        choices: Choices | None = None,
        *,
        carried_pot: int = 0,
        timeout: float | None = None,
    ) -> LeavesDealResult:
        """Play and settle one deal (TL-2..TL-6, ``cpsolver.three_leaves.play_deal``)."""
        ...

    def leaves_session(
        self,
        deals: Sequence[tuple[LeavesDeal, Choices | None]],
        *,
        carried_pot: int = 0,
        timeout: float | None = None,
    ) -> SessionResult:
        """Play deals in order, carrying the pot over (TL-6, ``play_session``)."""
        ...

    def leaves_advise(
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
        ...

    def close(self) -> None:
        """Release resources (a channel for a remote solver)."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class LocalSolver:
    """The library in this process; ``timeout`` arguments are accepted and ignored."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Nothing to release."""

    def solve(
        self,
        cards: CardsLike,
        rules: ChineseRules | str | None = "standard",
        objective: str | None = None,
        *,
        alternatives: int = 0,
        constraints: Constraints | str | Iterable[str] | None = None,
        engine: str = "exact",
        rollouts: int = 0,
        seed: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> Solution:
        """:func:`solver.solve` (``rollouts`` and ``seed`` are passed on)."""
        return solve(
            cards,
            rules,
            objective or DEFAULT_OBJECTIVE,
            alternatives=alternatives,
            constraints=constraints,
            engine=engine,
            rollouts=rollouts,
            seed=seed,
            **overrides,
        )

    def solve_batch(
        self,
        hands: Iterable[CardsLike],
        rules: ChineseRules | str | None = "standard",
        objective: str | None = None,
        *,
        alternatives: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> Iterator[Solution | CpsolverError]:
        """:func:`solver.solve_many` in chunks; a bad hand yields its exception, in place.

        >>> hands = ["As Ks", "2c 3c 4c 5c 6c 7d 8d 9d Td Jd Qh Kh Ah"]
        >>> results = list(LocalSolver().solve_batch(hands))
        >>> from cpsolver import Row
        >>> str(results[0]), results[1].hands[Row.FRONT].name
        ('cards: expected 13 cards, got 2', 'high card, A-K-Q')
        """
        resolved = ChineseRules.resolve(rules, **overrides)
        name = objective or DEFAULT_OBJECTIVE
        chunk: list[CardsLike] = []
        for hand in hands:
            chunk.append(hand)
            if len(chunk) >= LOCAL_CHUNK:
                yield from self._chunk(chunk, resolved, name, alternatives)
                chunk = []
        yield from self._chunk(chunk, resolved, name, alternatives)

    @staticmethod
    def _chunk(
        hands: list[CardsLike], rules: ChineseRules, objective: str, alternatives: int
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
        if good and alternatives == 0:
            solved = solve_many([hands[i] for i in good], rules, objective)
            for i, solution in zip(good, solved, strict=True):
                results[i] = solution
        else:
            for i in good:
                try:
                    results[i] = solve(hands[i], rules, objective, alternatives=alternatives)
                except CpsolverError as exc:
                    results[i] = exc
        for result in results:
            assert result is not None
            yield result

    def evaluate(
        self,
        cards: CardsLike,
        rules: ChineseRules | str | None = "standard",
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> HandValue:
        """:func:`solver.evaluate` with the rule set's ``wheel``."""
        resolved = ChineseRules.resolve(rules, **overrides)
        return evaluate(cards, wheel_second_highest=resolved.wheel_second_highest)

    def score(
        self,
        players: Mapping[str, object],
        rules: ChineseRules | str | None = "standard",
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> TableResult:
        """:func:`solver.score`."""
        return score(players, rules, **overrides)

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
        """``cpsolver.chinese.deal.deals`` (CP-1)."""
        start, n = seed_first("deal", seed, legacy, players)
        if legacy:
            raise TypeError(f"deal() got unexpected keyword arguments {sorted(legacy)}")
        return deals(start, 4 if n is None else n, count)

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
        """``cpsolver.chinese.scoring.check_arrangement`` (CP-6)."""
        return check_arrangement(back, middle, front, rules, **overrides)

    def chlust_exchange(
        self,
        hands: Sequence[CardsLike],
        turned: Card | str,
        rules: ChlustRules | str | None = None,
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> tuple[int | None, ChlustDeal]:
        """``cpsolver.chlust.exchange_seat`` and ``Deal.exchange`` (CH-2)."""
        resolved = ChlustRules.resolve(rules, **overrides)
        card = one_card(turned, resolved, "turned")
        parsed = parse_hands(hands, resolved, exclude=(card,))
        seat = exchange_seat(parsed, card, resolved)
        dealt = ChlustDeal(parsed, card, 0, ())
        return seat, dealt if seat is None else dealt.exchange(seat, resolved)

    def chlust_evaluate(
        self,
        cards: CardsLike,
        trump: Suit | str,
        rules: ChlustRules | str | None = None,
        *,
        turned: Card | str | None = None,
        timeout: float | None = None,
        **overrides: Any,
    ) -> SetValue:
        """``cpsolver.chlust.evaluate_set``."""
        resolved = ChlustRules.resolve(rules, **overrides)
        card = parse_cards([turned], field="turned")[0] if turned is not None else None
        return evaluate_set(cards, trump, resolved, turned=card, field="cards")

    def chlust_showdown(
        self,
        hands: Sequence[CardsLike],
        trump: Suit | str,
        rules: ChlustRules | str | None = None,
        *,
        turned: Card | str | None = None,
        timeout: float | None = None,
        **overrides: Any,
    ) -> Showdown:
        """``cpsolver.chlust.showdown`` (CH-7)."""
        return showdown(hands, trump, ChlustRules.resolve(rules, **overrides), turned=turned)

    def chlust_legal(
        self,
        hand: CardsLike,
        trump: Suit | str,
        rules: ChlustRules | str | None = None,
        *,
        trick: CardsLike = (),
        timeout: float | None = None,
        **overrides: Any,
    ) -> tuple[Card, ...]:
        """``cpsolver.chlust.legal_plays`` (CH-8) on a trick of ``trick`` cards so far."""
        resolved = ChlustRules.resolve(rules, **overrides)
        suit = parse_suit(trump, field="trump") if isinstance(trump, str) else trump
        cards = parse_cards(trick, deck=resolved.card_deck, count=(0, 1, 2, 3), field="trick")
        return legal_cards(hand, Trick.of(suit, 0, cards), resolved)

    def chlust_play(
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
        """``cpsolver.chlust.play_deal`` (CH-8, CH-9)."""
        resolved = ChlustRules.resolve(rules, **overrides)
        return play_deal(hands, trump, plays, resolved, dealer=dealer, folded=folded, turned=turned)

    def chlust_odds(
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
        """``cpsolver.chlust.showdown_odds`` (CH-7)."""
        return showdown_odds(
            hand,
            trump,
            ChlustRules.resolve(rules, **overrides),
            opponents=opponents,
            turned=turned,
            dead=dead,
            exact_limit=exact_limit,
            samples=samples,
            seed=seed,
        )

    def chlust_advise(
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
        """``cpsolver.chlust.advise_play``."""
        return advise_play(
            hand,
            trick,
            ChlustRules.resolve(rules, **overrides),
            seat=seat,
            seats=seats,
            history=history,
            turned=turned,
            samples=samples,
            seed=seed,
        )

    def chlust_deal(
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
        """``cpsolver.chlust.deal`` (CH-2)."""
        start, n = seed_first("chlust_deal", seed, overrides, players)
        resolved = ChlustRules.resolve(overrides.pop("rules", rules), **overrides)
        return deal_chlust(start, resolved, players=n or None, dealer=dealer)

    def chlust_bid(
        self,
        actions: Sequence[BidAction | str],
        players: int | None = None,
        rules: ChlustRules | str | None = None,
        *,
        dealer: int = 0,
        timeout: float | None = None,
        **overrides: Any,
    ) -> BiddingState:
        """A ``cpsolver.chlust.Bidding`` round after ``actions`` (CH-6), as a snapshot."""
        bidding = Bidding(players, ChlustRules.resolve(rules, **overrides), dealer=dealer)
        for i, action in enumerate(actions):
            try:
                bidding.act(action)
            except InvalidInputError as exc:
                raise exc.prefixed(("actions", i)) from None
        return bidding.state()

    def leaves_evaluate(
        self,
        cards: CardsLike,
        trump: Suit | str,
        rules: ThreeLeavesRules | str | None = None,
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> KhlyustValue:
        """``cpsolver.evaluator.khlyust.evaluate_khlyust`` with the rules' deck and class order."""
        resolved = ThreeLeavesRules.resolve(rules, **overrides)
        suit = parse_suit(trump, field="trump") if isinstance(trump, str) else trump
        return evaluate_khlyust(
            cards, suit, deck=resolved.card_deck, class_ranking=resolved.class_ranking
        )

    def leaves_legal(
        self,
        hand: CardsLike,
        trick: Trick,
        rules: ThreeLeavesRules | str | None = None,
        *,
        timeout: float | None = None,
        **overrides: Any,
    ) -> tuple[LegalPlay, ...]:
        """``cpsolver.three_leaves.legal_on_trick`` (TL-5)."""
        resolved = ThreeLeavesRules.resolve(rules, **overrides)
        cards = parse_cards(hand, deck=resolved.card_deck, count=(1, 2, 3), field="hand")
        return legal_on_trick(cards, trick, rules=resolved)

    def leaves_resolve(
        self, deal: LeavesDeal, *, timeout: float | None = None
    ) -> tuple[KhlyustClaim | None, tuple[KhlyustClaim, ...]]:
        """``cpsolver.three_leaves.best_khlyust`` over the deal's hands."""
        return best_khlyust(
            deal.hands, deal.trump, deal.dealer, deal.players, deal.rules
        )

    def leaves_play(
        self,
        deal: LeavesDeal,
        choices: Choices | None = None,
        *,
        carried_pot: int = 0,
        timeout: float | None = None,
    ) -> LeavesDealResult:
        """``cpsolver.three_leaves.play_deal``."""
        return play_leaves_deal(deal, choices, carried_pot=carried_pot)

    def leaves_session(
        self,
        deals: Sequence[tuple[LeavesDeal, Choices | None]],
        *,
        carried_pot: int = 0,
        timeout: float | None = None,
    ) -> SessionResult:
        """``cpsolver.three_leaves.play_session``."""
        return play_session(deals, carried_pot=carried_pot)

    def leaves_advise(
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
        """``cpsolver.three_leaves.advise_hand``."""
        return advise_hand(
            hand,
            trump_card,
            position=position,
            rules=ThreeLeavesRules.resolve(rules, **overrides),
            samples=samples,
            seed=seed,
            carried_pot=carried_pot,
            odds=odds,
            tricks=tricks,
            exchange=exchange,
        )
