"""Advice for Chlust bots: showdown odds (CH-5, CH-7) and the card to play (CH-8).

* :func:`showdown_odds` - the probability that a hand wins the showdown against ``k``
  opponents holding random hands from the unseen cards, by exact enumeration when the number of
  deals is at most ``exact_limit``, else by seeded Monte Carlo with a 95% Wilson interval; the
  result says which (``method``).
* :func:`advise_play` - the card to play in a trick position: for each legal card the expected
  number of tricks the player takes in the deal, over the hands the others may hold (all of
  them when few enough, else a seeded sample), each deal played out double-dummy with the
  others playing against the player (a "paranoid" search; see ``docs/RULES-CHOICES.md``).

>>> odds = showdown_odds("Js Jh Tc", "d", opponents=1)
>>> odds.method, odds.win == 1.0
('exact', True)
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

import numpy as np

from cpsolver.budget import check_budget
from cpsolver.cards import Card, CardsLike, Suit, parse_cards, parse_suit
from cpsolver.checks import iterable_of
from cpsolver.chlust.deal import one_card
from cpsolver.chlust.play import duty
from cpsolver.errors import InvalidInputError
from cpsolver.estimate import Estimate, wilson_interval
from cpsolver.evaluator.chlust import evaluate_parsed
from cpsolver.rules.chlust import ChlustRules, Underruff
from cpsolver.seeds import check_seed
from cpsolver.tricks import Trick, check_trick

__all__ = [
    "DEFAULT_ADVICE_SAMPLES",
    "DEFAULT_EXACT_LIMIT",
    "DEFAULT_ODDS_SAMPLES",
    "MAX_ADVICE_SAMPLES",
    "MAX_EXACT_LIMIT",
    "MAX_ODDS_SAMPLES",
    "PlayAdvice",
    "ShowdownOdds",
    "advise_play",
    "check_advice_limits",
    "check_odds_limits",
    "showdown_odds",
    "wilson_interval",
]

# Defaults of the library, the typed clients and the CLI (one place, so they cannot drift).
DEFAULT_ODDS_SAMPLES = 20_000
"""Monte Carlo samples of :func:`showdown_odds` when not enumerated exactly."""
DEFAULT_EXACT_LIMIT = 300_000
"""Opponent deals :func:`showdown_odds` enumerates exactly before it samples instead."""
DEFAULT_ADVICE_SAMPLES = 200
"""Sampled deals :func:`advise_play` plays out per legal card."""

# Work caps per call: the same in-process, on the CLI (their --help ranges) and on a server.
MAX_ODDS_SAMPLES = 1_000_000
"""Most Monte Carlo samples one :func:`showdown_odds` call draws (about a second)."""
MAX_EXACT_LIMIT = 2_000_000
"""Largest ``exact_limit`` of :func:`showdown_odds` (opponent deals enumerated exactly)."""
MAX_ADVICE_SAMPLES = 5_000
"""Most sampled deals one :func:`advise_play` call plays out (each a double-dummy search)."""


def check_odds_limits(*, opponents: int, samples: int, exact_limit: int, seed: int) -> None:
    """Raise :class:`InvalidInputError` naming the field unless :func:`showdown_odds` accepts
    it: ``opponents`` 1 to 3 (CH-1), ``samples`` 1 to :data:`MAX_ODDS_SAMPLES`,
    ``exact_limit`` 0 to :data:`MAX_EXACT_LIMIT`, ``seed`` 0 to
    :data:`~cpsolver.seeds.MAX_SEED`. The remote client checks with it before sending.

    >>> check_odds_limits(opponents=3, samples=MAX_ODDS_SAMPLES, exact_limit=0, seed=0)
    >>> check_odds_limits(opponents=1, samples=MAX_ODDS_SAMPLES + 1, exact_limit=0, seed=0)
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: samples: must be 1 to 1000000, got 1000001
    """
    if not 1 <= opponents <= 3:
        raise InvalidInputError("opponents", f"must be 1, 2 or 3 (CH-1), got {opponents}")
    if not 1 <= samples <= MAX_ODDS_SAMPLES:
        raise InvalidInputError("samples", f"must be 1 to {MAX_ODDS_SAMPLES}, got {samples}")
    if not 0 <= exact_limit <= MAX_EXACT_LIMIT:
        raise InvalidInputError("exact_limit", f"must be 0 to {MAX_EXACT_LIMIT}, got {exact_limit}")
    check_seed(seed)


def check_advice_limits(
    *, samples: int, seed: int, seat: int = 0, seats: Sequence[int] = (0, 1)
) -> None:
    """Raise :class:`InvalidInputError` naming the field unless :func:`advise_play` accepts it:
    ``seats`` 2 to 4 distinct seats 0 to 3 (CH-1) with ``seat`` among them, ``samples`` 2 to
    :data:`MAX_ADVICE_SAMPLES` (a sampled mean's 95% interval needs two), ``seed`` 0 to
    :data:`~cpsolver.seeds.MAX_SEED`. The remote client checks with it before sending.

    >>> check_advice_limits(samples=1, seed=0)
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: samples: must be 2 to 5000, got 1
    """
    order = tuple(seats)
    if not 2 <= len(order) <= 4 or len(set(order)) != len(order):
        raise InvalidInputError("seats", f"expected 2 to 4 distinct seats, got {list(order)}")
    if not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= 3 for s in order):
        raise InvalidInputError("seats", f"expected seat numbers 0 to 3 (CH-1), got {list(order)}")
    if seat not in order:
        raise InvalidInputError("seat", f"seat {seat} is not among the seats still in {order}")
    if not 2 <= samples <= MAX_ADVICE_SAMPLES:
        raise InvalidInputError("samples", f"must be 2 to {MAX_ADVICE_SAMPLES}, got {samples}")
    check_seed(seed)


@dataclass(frozen=True)
class ShowdownOdds:
    """Showdown outcome probabilities for one hand against ``opponents`` random hands.

    ``win``: the hand holds the best set; ``tricks``: nobody holds a set (CH-7, tricks are
    played); ``lose``: an opponent holds a better set. ``method`` is ``exact`` (``deals`` is
    the number of ordered opponent deals enumerated; every interval is a point) or
    ``monte_carlo`` (``deals`` samples drawn with ``seed``; ``ci95`` holds the 95% Wilson
    interval of each probability). :attr:`estimates` gives each probability as an
    :class:`~cpsolver.estimate.Estimate`, the shape of :meth:`to_dict`.
    """

    win: float
    lose: float
    tricks: float
    method: str
    deals: int
    ci95: Mapping[str, tuple[float, float]]
    seed: int | None
    opponents: int

    def __post_init__(self) -> None:
        # Read-only like the rest of the frozen answer (a caller could rewrite the interval).
        object.__setattr__(self, "ci95", MappingProxyType(dict(self.ci95)))

    @property
    def estimates(self) -> dict[str, Estimate]:
        """``win``, ``lose`` and ``tricks`` with their 95% intervals (points when exact).

        >>> showdown_odds("Ad Kd Qd", "d", opponents=1).estimates["tricks"]
        Estimate(value=0.0, low=0.0, high=0.0, exact=True)
        """
        values = {"win": self.win, "lose": self.lose, "tricks": self.tricks}
        if self.method == "exact":
            return {k: Estimate.point(v) for k, v in values.items()}
        return {k: Estimate(v, *self.ci95[k], False) for k, v in values.items()}

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values: ``win``, ``lose`` and ``tricks`` are estimate objects
        ``{value, low, high, exact}``."""
        return {
            **{k: e.to_dict() for k, e in self.estimates.items()},
            "method": self.method,
            "deals": self.deals,
            "seed": self.seed,
            "opponents": self.opponents,
        }


@lru_cache(maxsize=64)
def _triple_keys(
    unseen: tuple[Card, ...], trump: Suit, wild: Card, rules: ChlustRules
) -> dict[int, int]:
    """Key of every 3-card subset of ``unseen``, by bitmask over the positions in ``unseen``."""
    keys: dict[int, int] = {}
    for a, b, c in itertools.combinations(range(len(unseen)), 3):
        value = evaluate_parsed((unseen[a], unseen[b], unseen[c]), trump, wild, rules)
        keys[(1 << a) | (1 << b) | (1 << c)] = value.key
    return keys


def showdown_odds(
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
) -> ShowdownOdds:
    """Probability that ``hand`` wins the showdown (CH-7) against ``opponents`` random hands
    (``samples``, ``exact_limit`` and ``seed`` within :func:`check_odds_limits`).

    The opponents' cards come uniformly from the cards not in ``hand``, not the ``turned``
    card and not in ``dead`` (cards known to be elsewhere). Two disjoint sets never tie
    (CH-5), so win + lose + tricks = 1.

    >>> odds = showdown_odds("Ad Kd Qd", "d", opponents=1)
    >>> odds.method, round(odds.win, 4), odds.tricks
    ('exact', 0.9853, 0.0)
    """
    check_odds_limits(opponents=opponents, samples=samples, exact_limit=exact_limit, seed=seed)
    rules = ChlustRules.resolve(rules)
    if opponents > rules.players - 1:  # the table's other seats, at most (CH-1)
        raise InvalidInputError(
            "opponents", f"at most {rules.players - 1} at a table of {rules.players} "
            f"(rules.players), got {opponents}"
        )  # fmt: skip
    trump = parse_suit(trump, field="trump")
    held = parse_cards(hand, deck=rules.card_deck, count=3, field="hand")
    turned_card = None if turned is None else one_card(turned, rules, "turned")
    excluded = set(held)
    if turned_card is not None:
        if turned_card in excluded:
            raise InvalidInputError("turned", f"card {turned_card} is also in the hand")
        excluded.add(turned_card)
    for card in parse_cards(dead, deck=rules.card_deck, field="dead") if dead else ():
        if card in excluded:
            raise InvalidInputError("dead", f"card {card} is also in the hand or turned")
        excluded.add(card)
    unseen = tuple(c for c in rules.card_deck.cards if c not in excluded)
    if 3 * opponents > len(unseen):
        raise InvalidInputError(
            "opponents", f"{opponents} hands need {3 * opponents} cards; {len(unseen)} unseen"
        )
    wild = rules.wild_card(trump, turned_card)
    mine = evaluate_parsed(held, trump, wild, rules)
    keys = _triple_keys(unseen, trump, wild, rules)
    # The hand's fate depends only on whether some opponent holds a "bad" hand: a better set
    # when the hand is a set, any set when it is not.
    threshold = mine.key if mine.is_set else 0
    bad = {mask for mask, key in keys.items() if key > threshold}
    total = math.prod(math.comb(len(unseen) - 3 * i, 3) for i in range(opponents))
    if total <= exact_limit:
        good = tuple(mask for mask in keys if mask not in bad)
        clean = _count_clean(good, tuple(bad), len(unseen), opponents, 0)
        p_clean, p_dirty = clean / total, (total - clean) / total
        method, deals, used_seed = "exact", total, None
        interval = (p_clean, p_clean)
    else:
        p_clean, interval = _sample_clean(unseen, bad, opponents, samples, seed)
        p_dirty = 1 - p_clean
        method, deals, used_seed = "monte_carlo", samples, seed
    nothing = (0.0, 0.0)
    complement = (p_dirty, p_dirty) if method == "exact" else (1 - interval[1], 1 - interval[0])
    if mine.is_set:
        ci = {"win": interval, "lose": complement, "tricks": nothing}
        return ShowdownOdds(p_clean, p_dirty, 0.0, method, deals, ci, used_seed, opponents)
    ci = {"win": nothing, "lose": complement, "tricks": interval}
    return ShowdownOdds(0.0, p_dirty, p_clean, method, deals, ci, used_seed, opponents)


def _count_clean(
    good: tuple[int, ...], bad: tuple[int, ...], size: int, depth: int, used: int
) -> int:
    """Ordered ``depth``-tuples of pairwise disjoint masks from ``good`` avoiding ``used``
    (``good`` and ``bad`` partition the 3-subsets of ``size`` cards)."""
    if depth == 1:
        if len(bad) < len(good):
            free = size - used.bit_count()
            return math.comb(free, 3) - sum(1 for m in bad if not m & used)
        return sum(1 for m in good if not m & used)
    check_budget()  # a server call stops when its caller gives up
    return sum(_count_clean(good, bad, size, depth - 1, used | m) for m in good if not m & used)


_CHUNK = 50_000  # Monte Carlo samples drawn per numpy batch (bounded memory)


def _sample_clean(
    unseen: tuple[Card, ...], bad: set[int], opponents: int, samples: int, seed: int
) -> tuple[float, tuple[float, float]]:
    """Monte Carlo estimate of P(no opponent holds a bad hand) and its 95% interval."""
    n = len(unseen)
    table = np.zeros((n, n, n), dtype=np.bool_)
    for mask in bad:
        a, b, c = (i for i in range(n) if mask >> i & 1)
        for x, y, z in itertools.permutations((a, b, c)):
            table[x, y, z] = True
    rng = np.random.default_rng(seed)
    hits = 0
    for start in range(0, samples, _CHUNK):
        check_budget()  # a server call stops when its caller gives up (a chunk is ~20 ms)
        size = min(_CHUNK, samples - start)
        order = rng.permuted(np.tile(np.arange(n, dtype=np.int8), (size, 1)), axis=1)
        hit = np.zeros(size, dtype=np.bool_)
        for j in range(opponents):
            hit |= table[order[:, 3 * j], order[:, 3 * j + 1], order[:, 3 * j + 2]]
        hits += int(hit.sum())
    clean = samples - hits
    return clean / samples, wilson_interval(clean, samples)


@dataclass(frozen=True)
class PlayAdvice:
    """The card to play and the expected tricks (in the whole deal) of every legal card.

    ``method`` is ``exact`` (every hand the others may hold, ``deals`` of them) or
    ``monte_carlo`` (``deals`` samples drawn with ``seed``; ``ci95`` holds the half-width of
    the 95% normal interval of each mean). :attr:`estimates` gives each mean as an
    :class:`~cpsolver.estimate.Estimate`, the shape of ``expected`` in :meth:`to_dict`.
    """

    card: Card
    expected: Mapping[Card, float]
    ci95: Mapping[Card, float]
    method: str
    deals: int
    seed: int | None

    def __post_init__(self) -> None:
        # Read-only like the rest of the frozen answer.
        object.__setattr__(self, "expected", MappingProxyType(dict(self.expected)))
        object.__setattr__(self, "ci95", MappingProxyType(dict(self.ci95)))

    @property
    def estimates(self) -> dict[Card, Estimate]:
        """Every legal card's expected tricks with its 95% interval (a point when exact)."""
        if self.method == "exact":
            return {c: Estimate.point(v) for c, v in self.expected.items()}
        return {c: Estimate.around(v, self.ci95[c]) for c, v in self.expected.items()}

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values: ``expected`` maps each card to an estimate object
        ``{value, low, high, exact}``."""
        return {
            "card": str(self.card),
            "expected": {str(c): e.to_dict() for c, e in self.estimates.items()},
            "method": self.method,
            "deals": self.deals,
            "seed": self.seed,
        }


def advise_play(
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
) -> PlayAdvice:
    """The legal card with the most expected tricks for ``seat`` (CH-8, CH-9); ``seats``,
    ``samples`` and ``seed`` within :func:`check_advice_limits`.

    ``hand`` is what ``seat`` still holds, ``trick`` the trick in progress (its ``trump`` is
    trumps), ``seats`` the seats still in, in clockwise order, ``history`` the completed tricks.
    The others' hands are drawn from the unseen cards, consistent with the suits they showed
    void in (a player who did not follow holds none of the led suit; one who neither followed
    nor trumped when bound to trump holds no trump).

    >>> from cpsolver.cards import Suit
    >>> advice = advise_play("Ah Td Kc", Trick(Suit.SPADES, 0), seat=0, seats=[0, 1, 2])
    >>> advice.card in advice.expected, advice.method
    (True, 'monte_carlo')
    """
    check_advice_limits(samples=samples, seed=seed, seat=seat, seats=seats)
    rules = ChlustRules.resolve(rules)
    # Tricks, their seats checked against ``seats`` below (the seats still in)
    check_trick(trick, None)
    history = tuple(
        check_trick(done, None, ("history", i))
        for i, done in enumerate(iterable_of(history, "history", "a list of the completed tricks"))
    )
    trump = trick.trump
    if trump is None:
        raise InvalidInputError("trick.trump", "a Chlust trick needs a trump suit")
    order = tuple(seats)
    if len(history) > 2:
        raise InvalidInputError("history", "three tricks are already complete")
    for i, t in enumerate(history):
        if len(t) != len(order) or set(t.seats) != set(order):
            raise InvalidInputError(("history", i), "a complete trick has one card per seat")
    if set(trick.seats) - set(order) or seat in trick.seats:
        raise InvalidInputError("trick", f"seat {seat} is not to play to this trick")
    expected_leader = history[-1].winner if history else None
    if expected_leader is not None and trick.leader != expected_leader:
        raise InvalidInputError("trick", f"seat {expected_leader} leads after {history[-1]}")
    if _next_seat(trick, order) != seat:
        raise InvalidInputError("seat", f"seat {_next_seat(trick, order)} is to play, not {seat}")
    size = 3 - len(history)
    held = parse_cards(hand, deck=rules.card_deck, count=size, field="hand")
    seen = [c for t in history for c in t.cards] + list(trick.cards)
    turned_card = None if turned is None else one_card(turned, rules, "turned")
    known = set(held)
    for card in [*seen, *([turned_card] if turned_card else [])]:
        if card in known:
            raise InvalidInputError("hand", f"card {card} is both held and seen")
        known.add(card)
    unseen = [c for c in rules.card_deck.cards if c not in known]
    need = {s: size - (1 if s in trick.seats else 0) for s in order if s != seat}
    voids = _voids(history, trick, rules)
    candidates = duty(sorted(held), trick, rules)[0]

    worlds, method = _worlds(unseen, need, voids, samples, seed)
    totals = {c: [] for c in candidates}  # type: dict[Card, list[int]]
    already = sum(1 for t in history if t.winner == seat)
    for world in worlds:
        check_budget()  # a server call stops when its caller gives up
        world[seat] = tuple(held)
        for card in candidates:
            hands = dict(world)
            hands[seat] = tuple(c for c in held if c != card)
            totals[card].append(already + _after(hands, trick.play(seat, card), order, seat, rules))
    expected = {c: sum(v) / len(v) for c, v in totals.items()}
    ci = {c: _half_width(v) if method == "monte_carlo" else 0.0 for c, v in totals.items()}
    best = max(candidates, key=lambda c: (expected[c], -candidates.index(c)))
    return PlayAdvice(
        best, expected, ci, method, len(worlds), seed if method == "monte_carlo" else None
    )


def _half_width(values: list[int]) -> float:
    n = len(values)
    if n < 2:
        return float("inf")
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return 1.959963984540054 * math.sqrt(var / n)


def _next_seat(trick: Trick, order: tuple[int, ...]) -> int:
    if not trick.plays:
        return trick.leader
    i = order.index(trick.plays[-1].seat)
    return order[(i + 1) % len(order)]


def _voids(history: Sequence[Trick], trick: Trick, rules: ChlustRules) -> dict[int, set[Suit]]:
    """Suits each seat has shown void in (CH-8 makes a non-follower void in the led suit, and
    one who neither followed nor trumped void in trumps unless free to discard)."""
    voids: dict[int, set[Suit]] = {}
    for t in [*history, trick]:
        for k in range(1, len(t.plays)):
            before = Trick(t.trump, t.leader, t.plays[:k])
            play = t.plays[k]
            led = before.led_suit
            if led is None or play.card.suit is led:
                continue
            voids.setdefault(play.seat, set()).add(led)
            head = before.head
            if t.trump is not None and play.card.suit is not t.trump and head is not None:
                free = head.card.suit is t.trump and rules.underruff is Underruff.MAY_DISCARD
                if not free:
                    voids[play.seat].add(t.trump)
    return voids


def _worlds(
    unseen: list[Card],
    need: dict[int, int],
    voids: dict[int, set[Suit]],
    samples: int,
    seed: int,
) -> tuple[list[dict[int, tuple[Card, ...]]], str]:
    """Every consistent deal of the unseen cards to the others when there are at most
    ``samples`` ways, else ``samples`` seeded random consistent deals."""
    seats = list(need)
    ways = 1
    left = len(unseen)
    for s in seats:
        ways *= math.comb(left, need[s])
        left -= need[s]
    if ways <= samples:
        found: list[dict[int, tuple[Card, ...]]] = []
        _enumerate(unseen, seats, need, voids, {}, found)
        if found:
            return found, "exact"
    rng = random.Random(seed)
    worlds: list[dict[int, tuple[Card, ...]]] = []
    attempts = 0
    while len(worlds) < samples:
        check_budget()  # a server call stops when its caller gives up
        attempts += 1
        pool = unseen[:]
        rng.shuffle(pool)
        world: dict[int, tuple[Card, ...]] = {}
        strict = attempts <= 50 * samples  # give up on void constraints if they never fit
        for s in seats:
            banned = voids.get(s, set()) if strict else set()
            pick = [c for c in pool if c.suit not in banned][: need[s]]
            if len(pick) < need[s]:
                break
            world[s] = tuple(pick)
            pool = [c for c in pool if c not in pick]
        else:
            worlds.append(world)
    return worlds, "monte_carlo"


def _enumerate(
    pool: list[Card],
    seats: list[int],
    need: dict[int, int],
    voids: dict[int, set[Suit]],
    partial: dict[int, tuple[Card, ...]],
    out: list[dict[int, tuple[Card, ...]]],
) -> None:
    if not seats:
        out.append(dict(partial))
        return
    s, rest = seats[0], seats[1:]
    banned = voids.get(s, set())
    allowed = [c for c in pool if c.suit not in banned]
    for combo in itertools.combinations(allowed, need[s]):
        partial[s] = combo
        _enumerate([c for c in pool if c not in combo], rest, need, voids, partial, out)
    partial.pop(s, None)


def _after(
    hands: dict[int, tuple[Card, ...]],
    trick: Trick,
    order: tuple[int, ...],
    me: int,
    rules: ChlustRules,
) -> int:
    """Tricks ``me`` takes from this position on, double-dummy, the others against ``me``."""
    if len(trick) == len(order):
        winner = trick.winner
        gained = 1 if winner == me else 0
        if not any(hands.values()):
            return gained
        return gained + _after(hands, Trick(trick.trump, winner), order, me, rules)
    seat = _next_seat(trick, order)
    legal = duty(hands[seat], trick, rules)[0]
    results = []
    for card in legal:
        rest = dict(hands)
        rest[seat] = tuple(c for c in hands[seat] if c != card)
        results.append(_after(rest, trick.play(seat, card), order, me, rules))
    return max(results) if seat == me else min(results)
