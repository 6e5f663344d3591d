"""Playing a Three Leaves deal to its end (TL-2..TL-6) and settling it.

:func:`play_deal` applies every rule to a deal's facts and the players' choices
(:mod:`cpsolver.three_leaves.deal`), refusing an illegal choice with
:class:`~cpsolver.errors.IllegalPlayError` naming the rule, and returns a :class:`DealResult`
with the money each player gained or lost; money is conserved: the players' nets plus the pot
left on the table sum to the pot carried in.

>>> deal = Deal.of(
...     hands=["As Kh 8d", "Ks 9h Jc", "Ts Ah Qd", "Qs 8c Ac"], trump_card="9d", stock="")
>>> result = play_deal(deal, Choices.of(
...     plays="As Ks Ts Qs  Kh 9h Ah ~8c  Qd ~Ac 8d ~Jc"))
>>> result.trick_counts, result.pot_after, result.net
((1, 0, 2, 0), 4, (-1, -2, 1, -2))
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cpsolver.cards import Card, format_cards
from cpsolver.checks import instance_of
from cpsolver.errors import IllegalPlayError, InvalidInputError, Violations
from cpsolver.evaluator.khlyust import KhlyustClass, card_points
from cpsolver.rules.three_leaves import DrawAppliesTo, DrawSource, ThreeLeavesRules, ZeroTricks
from cpsolver.three_leaves.deal import (
    Choices,
    Deal,
    Exchange,
    ExchangeAction,
    KhlyustClaim,
    best_khlyust,
    check_play_limits,
)
from cpsolver.three_leaves.play import TRICKS_PER_DEAL, play_violation
from cpsolver.tricks import Trick

__all__ = [
    "DealResult",
    "Outcome",
    "Payment",
    "check_play_request",
    "play_deal",
    "play_tricks",
]


class Outcome(enum.Enum):
    """How a deal ended."""

    KHLYUST = "khlyust"  # the best khlyust took the pot without play (TL-4)
    PLAYOUT = "playout"  # a plain khlyust was played out on demand (TL-4)
    TRICKS = "tricks"  # no khlyust: three tricks were played (TL-5, TL-6)


@dataclass(frozen=True, slots=True)
class Payment:
    """Money moving between players (not the pot): ``payer`` -> ``payee``, with the reason."""

    payer: int
    payee: int
    amount: int
    reason: str
    card: Card | None = None


@dataclass(frozen=True)
class DealResult:
    """Everything that happened in a deal and what it did to the money.

    Per-seat values are tuples indexed by seat: ``exchanges[seat]`` is the seat's TL-3
    choice (None for the dealer, the assistant, and when a khlyust ended the deal before the
    exchange); ``net[seat]`` is the seat's gain in the deal including its ante (negative: paid);
    ``pot_before`` includes this deal's antes; ``pot_after`` is what stays for the next deal.
    ``sum(net) + pot_after - carried_in == 0``.
    """

    deal: Deal
    outcome: Outcome
    khlyust: KhlyustClaim | None
    khlyusts: tuple[KhlyustClaim, ...]
    exchanges: tuple[Exchange | None, ...]
    in_deal: tuple[bool, ...]
    hands_played: tuple[tuple[Card, ...], ...]
    tricks: tuple[Trick, ...]
    trick_counts: tuple[int, ...]
    carried_in: int
    pot_before: int
    pot_taken: tuple[int, ...]
    pot_after: int
    payments: tuple[Payment, ...]
    net: tuple[int, ...]
    notes: tuple[str, ...]

    @property
    def pot_winner(self) -> int | None:
        """The seat that took the whole pot, if any."""
        for seat, amount in enumerate(self.pot_taken):
            if amount and amount == self.pot_before:
                return seat
        return None

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values."""
        k = self.khlyust
        return {
            "outcome": self.outcome.value,
            "trump": self.deal.trump.value,
            "dealer": self.deal.dealer,
            "assistant": self.deal.assistant,
            "khlyust": None if k is None else k.to_dict(),
            "khlyusts": [c.to_dict() for c in self.khlyusts],
            "exchanges": {str(s): str(e) for s, e in enumerate(self.exchanges) if e is not None},
            "in_deal": list(self.in_deal),
            "hands_played": [[str(c) for c in h] for h in self.hands_played],
            "tricks": [
                {
                    "leader": t.leader,
                    "plays": [
                        {"seat": p.seat, "card": str(p.card), "face_down": p.face_down}
                        for p in t.plays
                    ],
                    "winner": t.winner,
                }
                for t in self.tricks
            ],
            "trick_counts": list(self.trick_counts),
            "carried_in": self.carried_in,
            "pot_before": self.pot_before,
            "pot_taken": list(self.pot_taken),
            "pot_after": self.pot_after,
            "payments": [
                {
                    "payer": p.payer,
                    "payee": p.payee,
                    "amount": p.amount,
                    "reason": p.reason,
                    **({"card": str(p.card)} if p.card else {}),
                }
                for p in self.payments
            ],
            "net": list(self.net),
            "notes": list(self.notes),
        }


class _Ledger:
    def __init__(self, players: int, pot: int) -> None:
        self.net = [0] * players
        self.taken = [0] * players
        self.pot = pot
        self.payments: list[Payment] = []
        self.notes: list[str] = []

    def take(self, seat: int, amount: int) -> None:
        self.taken[seat] += amount
        self.net[seat] += amount
        self.pot -= amount

    def pay(
        self, payer: int, payee: int, amount: int, reason: str, card: Card | None = None
    ) -> None:
        if amount == 0 or payer == payee:
            return
        self.net[payer] -= amount
        self.net[payee] += amount
        self.payments.append(Payment(payer, payee, amount, reason, card))


def check_play_request(deal: object, choices: object, carried_pot: object = 0) -> None:
    """The checks :func:`play_deal` makes before playing, every violation at once: ``deal`` a
    :class:`Deal`, ``choices`` a :class:`Choices` (or None), :func:`check_play_limits` and
    every exchange a seat of the deal's with an :class:`Exchange` (the remote client makes
    them before sending). Unchecked, text in place of the choices failed inside as a bare
    AttributeError.

    >>> two = Deal.of(["As Ks 8s", "9h Jc Qd"], "Ts")
    >>> check_play_request(two, Choices.of(exchanges={2: "pass"}))
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: exchanges.2: no such seat (0 to 1)
    """
    problems = Violations()
    with problems.check():
        instance_of(deal, Deal, "deal", "a Deal (cpsolver.three_leaves.Deal)")
    with problems.check():
        if choices is not None:
            instance_of(choices, Choices, "choices", "a Choices (cpsolver.three_leaves.Choices)")
    seed = choices.seed if isinstance(choices, Choices) else 0
    with problems.check():
        check_play_limits(seed=seed, carried_pot=carried_pot)
    if isinstance(deal, Deal) and isinstance(choices, Choices):
        n = deal.players
        for seat, exchange in choices.exchanges.items():
            where = ("exchanges", str(seat))
            with problems.check():
                if not (isinstance(seat, int) and 0 <= seat < n):
                    raise InvalidInputError(where, f"no such seat (0 to {n - 1})")
            with problems.check():
                instance_of(exchange, Exchange, where, "an Exchange (Choices.of reads text)")
    problems.raise_any()


def play_deal(deal: Deal, choices: Choices | None = None, *, carried_pot: int = 0) -> DealResult:
    """Play one deal to its end (TL-2..TL-6) and settle it.

    Everyone antes ``rules.ante`` into the pot (which starts at ``carried_pot``). Then:
    the khlyust check (TL-4); if none wins, the exchange step (TL-3), with
    ``khlyust_after_exchange`` a second check; then three tricks (TL-5) and TL-6.
    Illegal choices raise :class:`~cpsolver.errors.IllegalPlayError` naming the rule; the seed
    and ``carried_pot`` have documented bounds (:func:`check_play_limits`).
    """
    check_play_request(deal, choices, carried_pot)
    ch = choices or Choices()
    rules = deal.rules
    n = deal.players
    ledger = _Ledger(n, carried_pot + rules.ante * n)
    for seat in range(n):
        ledger.net[seat] -= rules.ante
    pot_before = ledger.pot
    hands = {s: tuple(h) for s, h in enumerate(deal.hands)}
    stock = list(deal.stock)
    in_deal = [True] * n
    exchanges: dict[int, Exchange] = {}
    tricks: tuple[Trick, ...] = ()
    counts = [0] * n

    def finish(
        outcome: Outcome, claim: KhlyustClaim | None, found: tuple[KhlyustClaim, ...]
    ) -> DealResult:
        return DealResult(
            deal,
            outcome,
            claim,
            found,
            tuple(exchanges.get(s) for s in range(n)),
            tuple(in_deal),
            tuple(hands[s] for s in range(n)),
            tricks,
            tuple(counts),
            carried_pot,
            pot_before,
            tuple(ledger.taken),
            ledger.pot,
            tuple(ledger.payments),
            tuple(ledger.net),
            tuple(ledger.notes),
        )

    # TL-4: the khlyust check right after the deal.
    claim, found = best_khlyust(hands, deal.trump, deal.dealer, n, rules)
    if claim is None:
        # TL-3: the exchange step.
        _exchange(deal, ch, hands, stock, in_deal, exchanges)
        if rules.khlyust_after_exchange:
            live = {s: h for s, h in hands.items() if in_deal[s]}
            claim, found = best_khlyust(live, deal.trump, deal.dealer, n, rules)
    if claim is not None:
        cls = claim.value.khlyust_class
        if cls is KhlyustClass.PLAIN and ch.demand_playout:
            tricks, counts = play_tricks(deal, ch, hands, in_deal)
            _settle_playout(rules, claim, counts, in_deal, ledger)
            return finish(Outcome.PLAYOUT, claim, found)
        ledger.take(claim.seat, ledger.pot)
        ledger.notes.append(f"seat {claim.seat}'s {cls.title} takes the pot without play (TL-4)")
        if cls is KhlyustClass.TRUMP or rules.draw_applies_to is DrawAppliesTo.ANY_KHLYUST:
            _payment_round(deal, ch, claim, stock, in_deal, ledger)
        return finish(Outcome.KHLYUST, claim, found)
    tricks, counts = play_tricks(deal, ch, hands, in_deal)
    _settle_tricks(rules, counts, in_deal, ledger)
    return finish(Outcome.TRICKS, None, found)


def _exchange(
    deal: Deal,
    ch: Choices,
    hands: dict[int, tuple[Card, ...]],
    stock: list[Card],
    in_deal: list[bool],
    exchanges: dict[int, Exchange],
) -> None:
    forced = {deal.dealer, deal.assistant}
    for seat in deal.order:
        choice = ch.exchanges.get(seat, Exchange())
        where = ("exchanges", str(seat))
        if seat in forced:
            if choice.action is not ExchangeAction.PLAY:
                role = "dealer" if seat == deal.dealer else "assistant"
                raise IllegalPlayError(
                    where, f"seat {seat} is the {role} and must play the cards dealt", rule="TL-3"
                )
            continue
        exchanges[seat] = choice
        if choice.action is ExchangeAction.PASS:
            in_deal[seat] = False
        elif choice.action is ExchangeAction.DRAW:
            hand = hands[seat]
            for card in choice.discard:
                if card not in hand:
                    raise IllegalPlayError(
                        where,
                        f"seat {seat} cannot discard {card}: holds {format_cards(hand)}",
                        rule="TL-3",
                    )
            k = len(choice.discard)
            if len(stock) < k:
                raise InvalidInputError(
                    "stock", f"seat {seat} draws {k} but only {len(stock)} stock cards are given"
                )
            drawn = tuple(stock[:k])
            del stock[:k]
            hands[seat] = tuple(c for c in hand if c not in choice.discard) + drawn


def _payment_round(
    deal: Deal,
    ch: Choices,
    claim: KhlyustClaim,
    stock: list[Card],
    in_deal: list[bool],
    ledger: _Ledger,
) -> None:
    rules = deal.rules
    n = deal.players
    holder = claim.seat
    payers = [(holder + i) % n for i in range(1, n) if in_deal[(holder + i) % n]]
    if rules.draw_source is DrawSource.STOCK:
        if len(stock) < len(payers):
            raise InvalidInputError(
                "stock",
                f"the payment round draws {len(payers)} stock cards, only {len(stock)} given",
            )
        cards = stock[: len(payers)]
    else:
        held = list(claim.value.cards)
        if not ch.picks:  # None or empty: random picks (as over the wire)
            cards = random.Random(ch.seed).sample(held, len(payers))
        else:
            picks = list(ch.picks)
            if len(picks) != len(payers):
                raise IllegalPlayError(
                    "picks", f"{len(payers)} opponents pick, got {len(picks)} picks", rule="TL-4"
                )
            for i, card in enumerate(picks):
                if card not in held or card in picks[:i]:
                    raise IllegalPlayError(
                        ("picks", i),
                        f"{card} is not one of the holder's remaining cards "
                        f"({format_cards(c for c in held if c not in picks[:i])})",
                        rule="TL-4",
                    )
            cards = picks
    for payer, card in zip(payers, cards, strict=True):
        ledger.pay(payer, holder, card_points(card), "khlyust payment round (TL-4)", card)


def play_tricks(
    deal: Deal,
    choices: Choices,
    hands: Mapping[int, tuple[Card, ...]] | None = None,
    in_deal: Sequence[bool] | None = None,
) -> tuple[tuple[Trick, ...], list[int]]:
    """Play the three tricks of TL-5 (the assistant leads) and return them with the trick
    count of every seat. ``hands`` default to the dealt ones and ``in_deal`` to everyone.

    >>> d = Deal.of(["Ah Kh 8h", "Qh Jh 9d"], "Qs")
    >>> play_tricks(d, Choices.of(plays="Ah Qh  Kh Jh  8h ~9d"))[1]
    [3, 0]
    """
    ch = choices
    hands = dict(enumerate(deal.hands)) if hands is None else hands
    in_deal = [True] * deal.players if in_deal is None else in_deal
    rules = deal.rules
    n = deal.players
    live = [s for s in deal.order if in_deal[s]]
    holding = {s: list(hands[s]) for s in live}
    counts = [0] * n
    tricks: list[Trick] = []
    scripted = None if callable(ch.plays) else list(ch.plays)
    needed = TRICKS_PER_DEAL * len(live)

    def miscount() -> InvalidInputError:
        got = len(scripted or ())
        return InvalidInputError(
            "plays", f"{len(live)} players in the deal make {needed} plays, got {got}"
        )

    leader = deal.assistant
    index = 0
    for _ in range(TRICKS_PER_DEAL):
        trick = Trick(deal.trump, leader)
        start = live.index(leader)
        for seat in live[start:] + live[:start]:
            hand = tuple(holding[seat])
            if scripted is not None:
                if index >= len(scripted):
                    raise miscount()
                card, down = scripted[index]
            else:
                assert callable(ch.plays)
                chosen = ch.plays(seat, hand, trick, rules)
                card, down = chosen.card, chosen.face_down
            index += 1
            reason = play_violation(
                hand, trick.led_suit, deal.trump, card, down, rules.void, f"seat {seat}"
            )
            if reason is not None:
                raise IllegalPlayError(("plays", index - 1), reason, rule="TL-5")
            trick = trick.play(seat, card, face_down=down)
            holding[seat].remove(card)
        leader = trick.winner
        counts[leader] += 1
        tricks.append(trick)
    if scripted is not None and index != len(scripted):
        raise miscount()
    return tuple(tricks), counts


def _settle_tricks(
    rules: ThreeLeavesRules, counts: Sequence[int], in_deal: Sequence[bool], ledger: _Ledger
) -> None:
    """TL-6."""
    for seat, c in enumerate(counts):
        if c == TRICKS_PER_DEAL:
            ledger.take(seat, ledger.pot)
            ledger.notes.append(f"seat {seat} took 3 tricks and the pot (TL-6)")
            return
    ledger.notes.append("nobody took 3 tricks: the pot stays (TL-6)")
    for seat, c in enumerate(counts):
        if c == 2:
            for other, oc in enumerate(counts):
                if in_deal[other] and oc == 0 and other != seat:
                    ledger.pay(other, seat, rules.share, "share: 2 tricks against none (TL-6)")


def _settle_playout(
    rules: ThreeLeavesRules,
    claim: KhlyustClaim,
    counts: Sequence[int],
    in_deal: Sequence[bool],
    ledger: _Ledger,
) -> None:
    """TL-4's play-out: 3 tricks the pot, 1-2 half (rounded down), 0 per ``zero_tricks``."""
    holder = claim.seat
    got = counts[holder]
    if got == TRICKS_PER_DEAL:
        ledger.take(holder, ledger.pot)
        ledger.notes.append(f"khlyust holder seat {holder} took 3 tricks: the pot (TL-4)")
    elif got > 0:
        ledger.take(holder, ledger.pot // 2)
        ledger.notes.append(f"khlyust holder seat {holder} took {got}: half the pot (TL-4)")
    elif rules.zero_tricks is ZeroTricks.FORFEIT:
        ledger.notes.append(f"khlyust holder seat {holder} took none: forfeits (TL-4)")
    else:
        ledger.take(holder, ledger.pot)
        ledger.notes.append(f"khlyust holder seat {holder} took none: pot and penalty (TL-4)")
        for other in range(len(counts)):
            if other != holder and in_deal[other]:
                ledger.pay(holder, other, rules.flop_penalty, "flop penalty (TL-4)")
