"""Advice for Three Leaves bots: khlyust odds, the chance of three tricks, what to exchange.

What is exact and what is sampled:

* :func:`khlyust_odds` is **exact** (enumeration of the unseen cards; inclusion-exclusion over
  the opponents with counts of disjoint hands).
* :func:`trick_odds` plays the three tricks with :func:`~cpsolver.three_leaves.play.greedy_policy`
  for everyone on the dealt hands. With one opponent it enumerates every opponent hand
  (**exact**); otherwise it samples seeded deals (**Monte Carlo**, 95% Wilson intervals).
* :func:`exchange_advice` compares standing, passing and every discard by the expected money
  of the rest of the deal (pot taken, shares, penalties; the ante already paid is not
  counted), over seeded samples of the other hands and the stock (**Monte Carlo**, 95% normal
  intervals, the same samples for every option). Other players who could exchange are
  assumed to stand; with the khlyust check made right after the deal (the default), hands
  holding a khlyust are excluded, since the exchange step is reached only without one.

>>> odds = khlyust_odds("As Kh 8d", trump_card="9d")
>>> round(odds.holding["trump_khlyust"], 4), odds.method
(0.0068, 'exact')
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np
import numpy.typing as npt

from cpsolver.budget import check_budget
from cpsolver.cards import Card, CardsLike, format_cards, parse_card, parse_cards
from cpsolver.errors import InvalidInputError
from cpsolver.estimate import Z95, Estimate, wilson_interval
from cpsolver.evaluator.khlyust import KhlyustClass, KhlyustValue, evaluate_khlyust
from cpsolver.rules.three_leaves import ThreeLeavesRules
from cpsolver.seeds import check_seed
from cpsolver.three_leaves.deal import (
    MAX_CARRIED_POT,
    Choices,
    Deal,
    Exchange,
    ExchangeAction,
)
from cpsolver.three_leaves.engine import Outcome, play_deal, play_tricks
from cpsolver.three_leaves.play import greedy_policy

__all__ = [
    "DEFAULT_SAMPLES",
    "MAX_SAMPLES",
    "Estimate",
    "ExchangeOption",
    "KhlyustOdds",
    "TrickOdds",
    "check_advice_limits",
    "check_position",
    "exchange_advice",
    "khlyust_odds",
    "trick_odds",
    "wilson_interval",
]


def _proportion(successes: int, n: int, exact: bool) -> Estimate:
    p = successes / n if n else 0.0
    if exact:
        return Estimate(p, p, p, True)
    low, high = wilson_interval(successes, n)
    return Estimate(p, low, high, False)


def _mean(values: Sequence[float]) -> Estimate:
    n = len(values)
    m = sum(values) / n
    var = sum((v - m) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return Estimate(m, m - half, m + half, False)


def _setup(
    hand: CardsLike, trump_card: Card | str, rules: ThreeLeavesRules | str | None
) -> tuple[ThreeLeavesRules, tuple[Card, ...], Card, list[Card]]:
    r = ThreeLeavesRules.resolve(rules)
    deck = r.card_deck
    mine = parse_cards(hand, deck=deck, count=3, field="hand")
    turned = (
        trump_card
        if isinstance(trump_card, Card)
        else parse_card(trump_card, deck=deck, field="trump_card")
    )
    if turned in mine:
        raise InvalidInputError("trump_card", f"{turned} is also in the hand")
    unseen = [c for c in deck.cards if c not in mine and c != turned]
    return r, mine, turned, unseen


DEFAULT_SAMPLES = 400
"""Sampled deals of :func:`advise_hand` and :func:`exchange_advice` (library, clients, CLI)."""
MAX_SAMPLES = 20_000
"""Most sampled deals one :func:`trick_odds`, :func:`exchange_advice` or :func:`advise_hand`
call plays (the CLI's ``--samples`` range and the server's)."""


def _check_samples(samples: int, seed: int, least: int) -> None:
    if not least <= samples <= MAX_SAMPLES:
        raise InvalidInputError("samples", f"must be {least} to {MAX_SAMPLES}, got {samples}")
    check_seed(seed)


def check_advice_limits(
    *,
    position: int,
    rules: ThreeLeavesRules | str | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    carried_pot: int = 0,
) -> None:
    """Raise :class:`InvalidInputError` naming the field unless :func:`advise_hand` accepts it:
    ``position`` a turn position of ``rules``, ``samples`` 2 to :data:`MAX_SAMPLES`, ``seed`` 0
    to :data:`~cpsolver.seeds.MAX_SEED`, ``carried_pot`` 0 to
    :data:`~cpsolver.three_leaves.deal.MAX_CARRIED_POT` (the remote client checks with it before
    sending, so both give the same error).

    >>> check_advice_limits(position=1, samples=MAX_SAMPLES + 1)
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: samples: must be 2 to 20000, got 20001
    """
    check_position(position, ThreeLeavesRules.resolve(rules))
    _check_samples(samples, seed, 2)
    if not 0 <= carried_pot <= MAX_CARRIED_POT:
        raise InvalidInputError("carried_pot", f"must be 0 to {MAX_CARRIED_POT}, got {carried_pot}")


def check_position(position: int, rules: ThreeLeavesRules) -> int:
    """``position`` when it is a turn position of ``rules`` (0, the assistant, to
    ``players - 1``, the dealer); else :class:`InvalidInputError` naming ``position``.

    >>> check_position(3, ThreeLeavesRules(players=2))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: position: must be 0 (assistant) to 1 (dealer) ..., got 3
    """
    if not 0 <= position < rules.players:
        raise InvalidInputError(
            "position",
            f"must be 0 (assistant) to {rules.players - 1} (dealer) for "
            f"{rules.players} players, got {position}",
        )
    return position


# --------------------------------------------------------------------------------------------
# Khlyust odds (exact)


@dataclass(frozen=True)
class KhlyustOdds:
    """Exact khlyust probabilities (TL-4).

    ``holding``: class label -> probability that a hand dealt from the cards other than the
    turned trump card is of that class. ``hand``: the given hand's value. ``facing_any``: the
    probability that at least one opponent holds a khlyust; ``beaten``: that some opponent's
    khlyust ranks above the hand under TL-4 (seat tie-break included).
    """

    holding: Mapping[str, float]
    hand: KhlyustValue
    position: int
    facing_any: float
    beaten: float
    method: str = "exact"

    def __post_init__(self) -> None:
        # Read-only like the rest of the frozen answer (a caller could rewrite the odds).
        object.__setattr__(self, "holding", MappingProxyType(dict(self.holding)))

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values."""
        return {
            "holding": dict(self.holding),
            "hand": {
                "cards": [str(c) for c in self.hand.cards],
                "class": self.hand.khlyust_class.label,
                "points": self.hand.points,
            },
            "position": self.position,
            "facing_any": self.facing_any,
            "beaten": self.beaten,
            "method": self.method,
        }


def _disjoint_tuples(groups: Sequence[Sequence[int]]) -> int:
    """Ordered tuples (one hand per group, hands as bitmasks) that are pairwise disjoint."""
    if not all(groups):
        return 0
    if len(groups) == 1:
        return len(groups[0])
    arrays = [np.array(g, dtype=np.int64) for g in groups]

    def disjoint(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        result: npt.NDArray[np.int64] = ((a[:, None] & b[None, :]) == 0).astype(np.int64)
        return result

    if len(groups) == 2:
        return int(disjoint(arrays[0], arrays[1]).sum())
    if len(groups) == 3:
        d01 = disjoint(arrays[0], arrays[1])
        d02 = disjoint(arrays[0], arrays[2])
        d12 = disjoint(arrays[1], arrays[2])
        return int((d01 * (d02 @ d12.T)).sum())
    raise ValueError("at most 3 opponents")


def khlyust_odds(
    hand: CardsLike,
    trump_card: Card | str,
    *,
    position: int = 0,
    rules: ThreeLeavesRules | str | None = None,
) -> KhlyustOdds:
    """Exact odds of holding and facing a khlyust, for ``hand`` at turn ``position``
    (0 = assistant, players-1 = dealer), the other hands dealt from the unseen cards.

    >>> odds = khlyust_odds("Ah Th 8h", trump_card="9c", rules="two_players")
    >>> odds.hand.khlyust_class.label, 0 < odds.beaten < odds.facing_any < 1
    ('plain_khlyust', True)
    """
    r, mine, turned, unseen = _setup(hand, trump_card, rules)
    pos = check_position(position, r)
    trump = turned.suit
    ranking = r.class_ranking
    # Holding: every 3-card hand from the deck without the turned card.
    pool = [c for c in r.card_deck.cards if c != turned]
    counts = dict.fromkeys((c.label for c in KhlyustClass), 0)
    total = 0
    for h in itertools.combinations(pool, 3):
        counts[
            evaluate_khlyust(h, trump, deck=r.card_deck, class_ranking=ranking).khlyust_class.label
        ] += 1
        total += 1
    holding = {k: v / total for k, v in counts.items()}
    me = evaluate_khlyust(mine, trump, deck=r.card_deck, class_ranking=ranking)
    my_key = me.order_key(pos)
    bit = {c: 1 << i for i, c in enumerate(unseen)}
    opponents = [p for p in range(r.players) if p != pos]
    any_k: list[int] = []
    beating: dict[int, list[int]] = {p: [] for p in opponents}
    for h in itertools.combinations(unseen, 3):
        v = evaluate_khlyust(h, trump, deck=r.card_deck, class_ranking=ranking)
        if not v.is_khlyust:
            continue
        mask = bit[h[0]] | bit[h[1]] | bit[h[2]]
        any_k.append(mask)
        for p in opponents:
            if not me.is_khlyust or v.order_key(p) > my_key:
                beating[p].append(mask)

    def union(groups: dict[int, list[int]]) -> float:
        # P(at least one opponent's hand is in its group), inclusion-exclusion.
        u = len(unseen)
        result = 0.0
        for size in range(1, len(opponents) + 1):
            ways = math.perm(u, 3 * size) // (math.factorial(3) ** size)
            for subset in itertools.combinations(opponents, size):
                hits = _disjoint_tuples([groups[p] for p in subset])
                result += (-1) ** (size + 1) * hits / ways
        return result

    facing = union({p: any_k for p in opponents})
    beaten = union(beating)
    return KhlyustOdds(holding, me, pos, facing, beaten)


# --------------------------------------------------------------------------------------------
# Trick odds


@dataclass(frozen=True)
class TrickOdds:
    """Chance of the hand's trick counts with everyone playing the greedy policy (TL-5)."""

    three_tricks: Estimate
    two_or_more: Estimate
    expected_tricks: Estimate
    samples: int
    method: str
    seed: int | None

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values."""
        return {
            "three_tricks": self.three_tricks.to_dict(),
            "two_or_more": self.two_or_more.to_dict(),
            "expected_tricks": self.expected_tricks.to_dict(),
            "samples": self.samples,
            "method": self.method,
            "seed": self.seed,
        }


def _deal_for(
    r: ThreeLeavesRules,
    pos: int,
    mine: tuple[Card, ...],
    others: Sequence[Sequence[Card]],
    turned: Card,
    stock: Sequence[Card],
) -> Deal:
    n = r.players
    dealer = n - 1  # turn position p is seat p
    hands: list[Sequence[Card]] = list(others)
    hands.insert(pos, mine)
    return Deal(r, dealer, tuple(tuple(h) for h in hands), turned, tuple(stock))


def trick_odds(
    hand: CardsLike,
    trump_card: Card | str,
    *,
    position: int = 0,
    rules: ThreeLeavesRules | str | None = None,
    samples: int = 2000,
    seed: int = 0,
) -> TrickOdds:
    """Chance that ``hand`` at turn ``position`` takes 3 tricks (and 2 or more), everyone
    playing the dealt hands with the greedy policy. Exact with one opponent.

    >>> odds = trick_odds("Ad Kd Qd", trump_card="9d", rules="two_players")
    >>> odds.method, odds.three_tricks.value == 1.0
    ('exact', True)
    """
    r, mine, turned, unseen = _setup(hand, trump_card, rules)
    pos = check_position(position, r)
    _check_samples(samples, seed, 1)
    k = r.players - 1
    worlds: list[list[list[Card]]]
    if k == 1:
        worlds = [[list(h)] for h in itertools.combinations(unseen, 3)]
        method, used_seed = "exact", None
    else:
        rng = random.Random(seed)
        worlds = []
        for _ in range(samples):
            check_budget()  # a server call stops when its caller gives up
            cards = rng.sample(unseen, 3 * k)
            worlds.append([cards[3 * i : 3 * i + 3] for i in range(k)])
        method, used_seed = "monte_carlo", seed
    three = two = 0
    tricks: list[float] = []
    choices = Choices(plays=greedy_policy)
    for others in worlds:
        check_budget()  # a server call stops when its caller gives up
        deal = _deal_for(r, pos, mine, others, turned, ())
        t = play_tricks(deal, choices)[1][pos]
        three += t == 3
        two += t >= 2
        tricks.append(float(t))
    n = len(worlds)
    exact = method == "exact"
    mean = (
        Estimate(sum(tricks) / n, sum(tricks) / n, sum(tricks) / n, True)
        if exact
        else _mean(tricks)
    )
    return TrickOdds(
        _proportion(three, n, exact), _proportion(two, n, exact), mean, n, method, used_seed
    )


# --------------------------------------------------------------------------------------------
# Exchange advice


@dataclass(frozen=True)
class ExchangeOption:
    """One TL-3 choice and its expected outcome over the samples."""

    action: str  # "stand", "pass" or "discard"
    discard: tuple[Card, ...]
    expected_money: Estimate
    three_tricks: Estimate
    khlyust: Estimate = field(default_factory=lambda: Estimate(0.0, 0.0, 0.0, True))

    @property
    def label(self) -> str:
        """``stand``, ``pass`` or ``discard 8c 9d``."""
        return self.action if not self.discard else f"discard {format_cards(self.discard)}"

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values."""
        return {
            "action": self.action,
            "discard": [str(c) for c in self.discard],
            "expected_money": self.expected_money.to_dict(),
            "three_tricks": self.three_tricks.to_dict(),
            "khlyust": self.khlyust.to_dict(),
        }


def exchange_advice(
    hand: CardsLike,
    trump_card: Card | str,
    *,
    position: int = 1,
    rules: ThreeLeavesRules | str | None = None,
    carried_pot: int = 0,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
) -> tuple[ExchangeOption, ...]:
    """Rank standing, passing and every discard of 1-3 cards by expected money (TL-3).

    ``position`` is the turn position (0 assistant .. players-1 dealer); only the players
    between them choose. Options come best first.

    >>> options = exchange_advice("As Ah 9c", "8d", position=1, samples=60, seed=1)
    >>> len(options), [o.expected_money.value for o in options if o.action == "pass"]
    (9, [0.0])
    """
    r, mine, turned, unseen = _setup(hand, trump_card, rules)
    pos = check_position(position, r)
    if pos in (0, r.players - 1):
        role = "assistant" if pos == 0 else "dealer"
        raise InvalidInputError(
            "position", f"position {pos} is the {role}, who must play the cards dealt (TL-3)"
        )
    _check_samples(samples, seed, 2)
    if not 0 <= carried_pot <= MAX_CARRIED_POT:
        raise InvalidInputError("carried_pot", f"must be 0 to {MAX_CARRIED_POT}, got {carried_pot}")
    me = evaluate_khlyust(mine, turned.suit, deck=r.card_deck, class_ranking=r.class_ranking)
    if me.is_khlyust:
        raise InvalidInputError(
            "hand",
            f"{format_cards(mine)} is a {me.khlyust_class.title}: the deal is settled "
            "by the khlyust check before the exchange (TL-4)",
        )
    k = r.players - 1
    rng = random.Random(seed)
    worlds: list[tuple[list[list[Card]], list[Card]]] = []
    attempts = 0
    while len(worlds) < samples:
        check_budget()  # a server call stops when its caller gives up
        attempts += 1
        if attempts > 50 * samples:
            raise InvalidInputError("hand", "could not sample deals without a khlyust")
        cards = rng.sample(unseen, len(unseen))
        others = [cards[3 * i : 3 * i + 3] for i in range(k)]
        if any(evaluate_khlyust(o, turned.suit, deck=r.card_deck).is_khlyust for o in others):
            continue  # the deal would have ended at the khlyust check
        worlds.append((others, cards[3 * k :]))
    options: list[tuple[str, tuple[Card, ...]]] = [("stand", ()), ("pass", ())]
    for size in (1, 2, 3):
        options += [("discard", d) for d in itertools.combinations(mine, size)]
    results = []
    for action, discard in options:
        if action == "pass":
            zero = Estimate(0.0, 0.0, 0.0, True)
            results.append(ExchangeOption(action, discard, zero, zero, zero))
            continue
        exchange = (
            Exchange(ExchangeAction.DRAW, discard) if discard else Exchange(ExchangeAction.PLAY)
        )
        money: list[float] = []
        three = made = 0
        for i, (others, stock) in enumerate(worlds):
            check_budget()  # a server call stops when its caller gives up
            deal = _deal_for(r, pos, mine, others, turned, stock)
            result = play_deal(
                deal,
                Choices(exchanges={pos: exchange}, plays=greedy_policy, seed=i),
                carried_pot=carried_pot,
            )
            money.append(float(result.net[pos] + r.ante))
            three += result.trick_counts[pos] == 3
            made += result.outcome is not Outcome.TRICKS and (
                result.khlyust is not None and result.khlyust.seat == pos
            )
        n = len(worlds)
        results.append(
            ExchangeOption(
                action,
                discard,
                _mean(money),
                _proportion(three, n, False),
                _proportion(made, n, False),
            )
        )
    results.sort(key=lambda o: -o.expected_money.value)
    return tuple(results)


@dataclass(frozen=True)
class HandAdvice:
    """The parts of :func:`advise_hand` that were asked for (None: not computed)."""

    odds: KhlyustOdds | None = None
    tricks: TrickOdds | None = None
    exchange: tuple[ExchangeOption, ...] | None = None

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values: ``odds``, ``tricks``, ``exchange``, each only when computed."""
        out: dict[str, object] = {}
        if self.odds is not None:
            out["odds"] = self.odds.to_dict()
        if self.tricks is not None:
            out["tricks"] = self.tricks.to_dict()
        if self.exchange is not None:
            out["exchange"] = [o.to_dict() for o in self.exchange]
        return out


def advise_hand(
    hand: CardsLike,
    trump_card: Card | str,
    rules: ThreeLeavesRules | str | None = None,
    *,
    position: int = 1,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    carried_pot: int = 0,
    odds: bool = True,
    tricks: bool = True,
    exchange: bool = False,
) -> HandAdvice:
    """:func:`khlyust_odds`, :func:`trick_odds` (``samples``, ``seed``) and
    :func:`exchange_advice`, each when asked, in that order; the numbers are checked first
    (:func:`check_advice_limits`: ``samples`` 2 to :data:`MAX_SAMPLES`).

    >>> advice = advise_hand("Ad Kd Qd", "9d", position=0, rules="two_players")
    >>> advice.odds.hand.khlyust_class.label, advice.tricks.method, advice.exchange
    ('trump_khlyust', 'exact', None)
    """
    check_advice_limits(
        position=position, rules=rules, samples=samples, seed=seed, carried_pot=carried_pot
    )
    return HandAdvice(
        khlyust_odds(hand, trump_card, position=position, rules=rules) if odds else None,
        trick_odds(hand, trump_card, position=position, rules=rules, samples=samples, seed=seed)
        if tricks
        else None,
        exchange_advice(
            hand,
            trump_card,
            position=position,
            rules=rules,
            carried_pot=carried_pot,
            samples=samples,
            seed=seed,
        )
        if exchange
        else None,
    )
