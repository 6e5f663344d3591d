"""Chlust bidding (CH-6) as a state machine that refuses illegal actions.

Every player antes ``rules.ante`` (CH-2). From the dealer's left, clockwise, each player folds,
checks (when no bet stands for them), calls (matches the last raise) or raises by
``rules.raise_unit`` (at most ``rules.max_raises`` raises in the round). After a raise everyone
else still in acts again. The round ends when everyone still in has acted and matched the last
raise (then the showdown, CH-7), or as soon as one player is left (who takes the pot).

>>> b = Bidding(3)
>>> b.to_act, b.legal_actions()
(1, (<BidAction.FOLD: 'fold'>, <BidAction.CHECK: 'check'>, <BidAction.RAISE: 'raise'>))
>>> for action in ("raise", "fold", "call"):
...     b.act(action)
>>> b.is_over, b.in_play, b.pot, b.winner
(True, (0, 1), 5, None)
>>> b.act("check")
Traceback (most recent call last):
...
cpsolver.errors.IllegalPlayError: action: the bidding is over (CH-6)
"""

from __future__ import annotations

from dataclasses import dataclass

from cpsolver.errors import Field, IllegalPlayError, InvalidInputError
from cpsolver.rules.base import Choice
from cpsolver.rules.chlust import ChlustRules

__all__ = ["BidAction", "BidRecord", "Bidding", "BiddingState", "parse_bid_action"]


class BidAction(Choice):
    """CH-6 actions."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    RAISE = "raise"


@dataclass(frozen=True, slots=True)
class BidRecord:
    """One action taken: who, what, and the chips it put into the pot."""

    seat: int
    action: BidAction
    paid: int


def parse_bid_action(action: BidAction | str, field: Field = "action") -> BidAction:
    """A :class:`BidAction` from its name (any case, spaces ignored).

    >>> parse_bid_action(" Raise")
    <BidAction.RAISE: 'raise'>
    >>> parse_bid_action("bet", field=("actions", 0))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpsolver.errors.InvalidInputError: actions[0]: unknown action 'bet'; valid actions: fold, ...
    """
    try:
        return BidAction(str(action).strip().lower())
    except ValueError:
        valid = ", ".join(a.value for a in BidAction)
        raise InvalidInputError(
            field, f"unknown action {action!r}; valid actions: {valid}"
        ) from None


@dataclass(frozen=True)
class BiddingState:
    """A snapshot of a bidding round (:meth:`Bidding.state`): what a client needs to show it
    or to act next, as a value (the remote client rebuilds it from the wire)."""

    players: int
    dealer: int
    history: tuple[BidRecord, ...]
    in_play: tuple[int, ...]
    pot: int
    is_over: bool
    to_act: int | None
    winner: int | None
    legal: tuple[BidAction, ...]

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values (:meth:`Bidding.to_dict` plus ``legal``)."""
        return {
            "players": self.players,
            "dealer": self.dealer,
            "history": [
                {"seat": r.seat, "action": r.action.value, "paid": r.paid} for r in self.history
            ],
            "in_play": list(self.in_play),
            "pot": self.pot,
            "is_over": self.is_over,
            "to_act": self.to_act,
            "winner": self.winner,
            "legal": [a.value for a in self.legal],
        }


class Bidding:
    """The bidding round of one deal (CH-6); seats 0..players-1 clockwise."""

    def __init__(
        self,
        players: int | None = None,
        rules: ChlustRules | str | None = None,
        *,
        dealer: int = 0,
    ) -> None:
        self.rules = ChlustRules.resolve(rules)
        self.players = self.rules.players if players is None else players
        if not 2 <= self.players <= 4:
            raise InvalidInputError("players", f"must be 2, 3 or 4 (CH-1), got {self.players}")
        if not 0 <= dealer < self.players:
            raise InvalidInputError("dealer", f"must be a seat 0..{self.players - 1}, got {dealer}")
        self.dealer = dealer
        self._in = list(range(self.players))
        self._paid = dict.fromkeys(self._in, 0)
        self._level = 0
        self._raises = 0
        self._history: list[BidRecord] = []
        first = (dealer + 1) % self.players
        # Seats that still have to act, in turn order starting with the next to act.
        self._pending = [(first + i) % self.players for i in range(self.players)]

    @property
    def history(self) -> tuple[BidRecord, ...]:
        """Every action so far."""
        return tuple(self._history)

    @property
    def in_play(self) -> tuple[int, ...]:
        """Seats that have not folded."""
        return tuple(self._in)

    @property
    def raises(self) -> int:
        """Raises made so far."""
        return self._raises

    @property
    def pot(self) -> int:
        """Antes plus everything paid in bidding."""
        return self.rules.ante * self.players + sum(self._paid.values())

    def paid(self, seat: int) -> int:
        """What ``seat`` has paid beyond its ante."""
        return self._paid[seat]

    def to_call(self, seat: int) -> int:
        """What ``seat`` must pay to match the last raise."""
        return self._level - self._paid[seat]

    @property
    def is_over(self) -> bool:
        """True when one player is left or everyone still in has matched the last raise."""
        return len(self._in) == 1 or not self._pending

    @property
    def winner(self) -> int | None:
        """The seat left alone after the others folded (it takes the pot), else None."""
        return self._in[0] if len(self._in) == 1 else None

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is (None when the round is over)."""
        return None if self.is_over else self._pending[0]

    def legal_actions(self) -> tuple[BidAction, ...]:
        """What the player to act may do."""
        seat = self.to_act
        if seat is None:
            return ()
        actions = [BidAction.FOLD]
        actions.append(BidAction.CALL if self.to_call(seat) > 0 else BidAction.CHECK)
        if self._raises < self.rules.max_raises:
            actions.append(BidAction.RAISE)
        return tuple(actions)

    def act(self, action: BidAction | str, *, seat: int | None = None) -> None:
        """Take ``action`` for the player to act; raises :class:`IllegalPlayError` (CH-6)."""
        if self.is_over:
            raise IllegalPlayError("action", "the bidding is over", rule="CH-6")
        current = self._pending[0]
        if seat is not None and seat != current:
            raise IllegalPlayError(
                "seat", f"seat {seat} acts out of turn: seat {current} is to act", rule="CH-6"
            )
        chosen = parse_bid_action(action)
        owed = self.to_call(current)
        if chosen is BidAction.CHECK and owed > 0:
            raise IllegalPlayError(
                "action", f"seat {current} cannot check: a bet of {owed} stands", rule="CH-6"
            )
        if chosen is BidAction.CALL and owed == 0:
            raise IllegalPlayError(
                "action", f"seat {current} cannot call: no bet stands (check)", rule="CH-6"
            )
        if chosen is BidAction.RAISE and self._raises >= self.rules.max_raises:
            raise IllegalPlayError(
                "action",
                f"no more raises: max_raises={self.rules.max_raises} reached",
                rule="CH-6",
            )
        self._pending.pop(0)
        paid = 0
        if chosen is BidAction.FOLD:
            self._in.remove(current)
        elif chosen is BidAction.CALL:
            paid = owed
        elif chosen is BidAction.RAISE:
            self._level += self.rules.raise_unit
            self._raises += 1
            paid = self._level - self._paid[current]
            # Everyone else still in must answer, in turn from the raiser's left.
            self._pending = [
                (current + i) % self.players
                for i in range(1, self.players)
                if (current + i) % self.players in self._in
            ]
        self._paid[current] += paid
        self._history.append(BidRecord(current, chosen, paid))

    def state(self) -> BiddingState:
        """A snapshot of the round.

        >>> b = Bidding(2)
        >>> b.act("raise")
        >>> s = b.state()
        >>> s.to_act, [a.value for a in s.legal], s.pot
        (0, ['fold', 'call', 'raise'], 3)
        """
        return BiddingState(
            self.players,
            self.dealer,
            self.history,
            self.in_play,
            self.pot,
            self.is_over,
            self.to_act,
            self.winner,
            self.legal_actions(),
        )

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values."""
        return {
            "players": self.players,
            "dealer": self.dealer,
            "history": [
                {"seat": r.seat, "action": r.action.value, "paid": r.paid} for r in self._history
            ],
            "in_play": list(self._in),
            "pot": self.pot,
            "is_over": self.is_over,
            "to_act": self.to_act,
            "winner": self.winner,
        }
