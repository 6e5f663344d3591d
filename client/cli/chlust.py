"""Chlust commands: ``cpsolver chlust evaluate|showdown|legal|play|odds|advise|deal|bid``.

Every command takes ``--rules PRESET``, ``--set OPTION=VALUE`` (repeatable, RULES §3 options),
``--json`` and ``--server HOST:PORT`` (or ``CPSOLVER_SERVER``: the same output from a server's
``ChlustService``). Bad input exits with code 2 and one line on stderr (see ``.main``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from cpsolver.cards import Card, format_cards, parse_cards, parse_suit
from cpsolver.chlust.advice import (
    DEFAULT_ADVICE_SAMPLES,
    DEFAULT_EXACT_LIMIT,
    DEFAULT_ODDS_SAMPLES,
    MAX_ADVICE_SAMPLES,
    MAX_EXACT_LIMIT,
    MAX_ODDS_SAMPLES,
)
from cpsolver.chlust.deal import one_card
from cpsolver.client.cli.jsonin import read_json
from cpsolver.client.cli.main import (
    SummaryGroup,
    complete_suits,
    emit_json,
    main,
    remote_options,
    rules_options,
)
from cpsolver.client.cli.options import SEED
from cpsolver.client.solver import Solver
from cpsolver.errors import Field, InvalidInputError, field_path
from cpsolver.rules import ChlustRules, parse_assignments
from cpsolver.tricks import Trick

F = TypeVar("F", bound=Callable[..., Any])


# The options every chlust command shares: --rules, --set, --json.
_common = rules_options(
    "Override one rule option (repeatable), e.g. --set purity=global.", rules=ChlustRules
)

_SEED_HELP = "Seed of the Monte Carlo samples (the same seed gives the same answer)."
_DEALER_HELP = "The dealer's seat, 0 to players - 1 (play starts on the dealer's left)."
# Ranges the help shows and click checks: the most a table of 4 (CH-1) allows; the rules'
# players narrow them, checked by the library.
_DEALER = click.IntRange(0, 3)


def _rules(preset: str, assignments: tuple[str, ...], extra: Any = None) -> ChlustRules:
    overrides: dict[str, object] = {}
    if extra is not None:
        if not isinstance(extra, dict):
            raise InvalidInputError("rules", "expected an object of OPTION: VALUE")
        overrides.update(extra)
    overrides.update(parse_assignments(assignments))
    return ChlustRules.preset(preset, **overrides)


def _trump_option(func: F) -> F:
    func = click.option(
        "--turned", default=None, help="The turned card that set trumps (for wild_shift)."
    )(func)
    return click.option(
        "--trump", "-t", required=True, help="Trump suit: c d h s, ♣ ♦ ♥ ♠ or a name.",
        shell_complete=complete_suits,
    )(func)  # fmt: skip


@main.group(cls=SummaryGroup)
def chlust() -> None:
    """Chlust (Silesian poker, RULES §3): sets, showdown, tricks, odds and advice."""


@chlust.command("evaluate")
@click.argument("cards", nargs=-1, required=True)
@_trump_option
@_common
@remote_options
def evaluate_cmd(
    cards: tuple[str, ...],
    trump: str,
    turned: str | None,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Judge a 3-card hand under a trump suit (CH-3, CH-4).

    \b
    Example: cpsolver chlust evaluate "Js Jh Tc" --trump d
    """
    rules = _rules(preset, assignments)
    value = solver.chlust.evaluate(" ".join(cards), trump, rules, turned=_turned(turned, rules))
    if as_json:
        emit_json(value.to_dict())
    else:
        click.echo(f"{format_cards(value.cards, pretty=True)}  {value.name}  (key {value.key})")


@chlust.command("showdown")
@click.argument("hands", nargs=-1, required=True)
@_trump_option
@_common
@remote_options
def showdown_cmd(
    hands: tuple[str, ...],
    trump: str,
    turned: str | None,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Rank 2-4 hands at the showdown (CH-7), one quoted argument each.

    \b
    Example: cpsolver chlust showdown -t d "Js Jh Tc" "Ad Kd Qd"
    """
    rules = _rules(preset, assignments)
    result = solver.chlust.showdown(list(hands), trump, rules, turned=_turned(turned, rules))
    if as_json:
        emit_json(result.to_dict())
        return
    place = 1
    for group in result.ranking:
        for seat in group:
            value = result.value_of(seat)
            click.echo(
                f"{place}. seat {seat}: {format_cards(value.cards, pretty=True)}  {value.name}"
            )
        place += len(group)
    if result.winner is None:
        click.echo("no set: three tricks are played (CH-7)")
    else:
        click.echo(f"winner: seat {result.winner}")


@chlust.command("legal")
@click.argument("hand", nargs=-1, required=True)
@click.option("--trick", "played", default="", help="Cards already on the trick, in order.")
@_trump_option
@_common
@remote_options
def legal_cmd(
    hand: tuple[str, ...],
    played: str,
    trump: str,
    turned: str | None,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Cards a hand may play to a trick (CH-8).

    \b
    Example: cpsolver chlust legal "Th Kh Ac" --trick "Qd Kd Jh" -t h
    """
    rules = _rules(preset, assignments)
    suit = parse_suit(trump, field="trump")
    cards = parse_cards(played, deck=rules.card_deck, count=(0, 1, 2, 3), field="trick")
    legal = solver.chlust.legal_cards(" ".join(hand), suit, rules, trick=cards)
    if as_json:
        emit_json(
            {
                "trump": suit.value,
                "trick": [str(c) for c in cards],
                "legal": [str(c) for c in legal],
            }
        )
    else:
        click.echo(format_cards(legal, pretty=True))


@chlust.command("play")
@click.argument("source")
@_common
@remote_options
def play_cmd(
    source: str, preset: str, assignments: tuple[str, ...], as_json: bool, solver: Solver
) -> None:
    """Play a whole deal from JSON and settle it (CH-8, CH-9).

    SOURCE is a JSON file, - (stdin) or the JSON text itself: {"hands": ["Ah Td Kc", ...],
    "trump": "s", "plays": ["Ah Kh Qh", ...], "dealer": 0, "folded": [], "turned": "Qs",
    "rules": {"trick_tie": "split"}}. The plays are checked one by one: an illegal play is
    refused naming CH-8, even in a list too short for the three tricks.
    """
    spec = _load(source)
    rules = _rules(preset, assignments, spec.get("rules"))
    hands = _require(spec, "hands", list)
    result = solver.chlust.play_deal(
        hands,
        _require(spec, "trump", str),
        _require(spec, "plays", (list, str)),
        rules,
        dealer=_optional(spec, "dealer", int, 0),
        folded=_optional(spec, "folded", list, []),
        turned=_optional(spec, "turned", str, None),
    )
    if as_json:
        emit_json(result.to_dict())
        return
    for i, trick in enumerate(result.tricks, start=1):
        plays = ", ".join(f"{p.seat} {p.card.pretty}" for p in trick.plays)
        click.echo(f"trick {i}: {plays} -> seat {trick.winner}")
    won = ", ".join(f"seat {s}: {result.tricks_won[s]}" for s in result.seats)
    click.echo(f"tricks: {won}")
    shares = [
        f"seat {s} takes {'the pot' if f == 1 else f'{f} of the pot'}"
        for s, f in enumerate(result.shares)
        if f
    ]
    if result.carried:
        shares.append(f"{'the pot' if result.carried == 1 else result.carried} stays (CH-9)")
    click.echo("; ".join(shares))


@chlust.command("odds")
@click.argument("hand", nargs=-1, required=True)
@click.option(
    "--opponents", "-k", default=1, show_default=True, type=click.IntRange(1, 3),
    help="Opponents in the showdown, 1 to 3 (CH-1), each dealt a random hand.",
)  # fmt: skip
@click.option("--dead", default="", help="Cards known to be out of the opponents' hands.")
@click.option(
    "--samples",
    default=DEFAULT_ODDS_SAMPLES,
    show_default=True,
    type=click.IntRange(1, MAX_ODDS_SAMPLES),
    help="Monte Carlo samples when the deals are too many to enumerate.",
)
@click.option("--seed", default=0, show_default=True, type=SEED, help=_SEED_HELP)
@click.option(
    "--exact-limit",
    default=DEFAULT_EXACT_LIMIT,
    show_default=True,
    type=click.IntRange(0, MAX_EXACT_LIMIT),
    help="Enumerate exactly when there are at most this many opponent deals.",
)
@_trump_option
@_common
@remote_options
def odds_cmd(
    hand: tuple[str, ...],
    opponents: int,
    dead: str,
    samples: int,
    seed: int,
    exact_limit: int,
    trump: str,
    turned: str | None,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Probability that a hand wins the showdown against k opponents (CH-7).

    Exact when the opponents' deals are few enough (--exact-limit), else Monte Carlo with 95%
    intervals.

    \b
    Example: cpsolver chlust odds "Ad Kd Qd" -t d -k 2
    """
    rules = _rules(preset, assignments)
    odds = solver.chlust.showdown_odds(
        " ".join(hand),
        trump,
        rules,
        opponents=opponents,
        turned=turned,
        dead=dead,
        exact_limit=exact_limit,
        samples=samples,
        seed=seed,
    )
    if as_json:
        emit_json(odds.to_dict())
        return
    how = (
        f"exact over {odds.deals} deals"
        if odds.method == "exact"
        else f"Monte Carlo, {odds.deals} samples, seed {odds.seed}"
    )
    click.echo(f"win {odds.win:.4f}  lose {odds.lose:.4f}  tricks {odds.tricks:.4f}  ({how})")
    if odds.method == "monte_carlo":
        for name, (low, high) in odds.ci95.items():
            click.echo(f"  95% CI {name}: {low:.4f} .. {high:.4f}")


@chlust.command("advise")
@click.argument("source")
@click.option(
    "--samples",
    default=DEFAULT_ADVICE_SAMPLES,
    show_default=True,
    type=click.IntRange(2, MAX_ADVICE_SAMPLES),
    help="Deals sampled when the hands the others may hold are too many to enumerate.",
)
@click.option("--seed", default=0, show_default=True, type=SEED, help=_SEED_HELP)
@_common
@remote_options
def advise_cmd(
    source: str,
    samples: int,
    seed: int,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """The card to play by expected tricks, from a JSON position.

    SOURCE is a JSON file, - (stdin) or the JSON text itself: {"hand": "Ad Qh", "trump": "s",
    "seat": 0, "seats": [0, 1], "history": [{"leader": 0, "cards": "Kd Ac"}],
    "trick": {"leader": 0, "cards": ""}, "turned": "Js"} (seats clockwise).
    """
    spec = _load(source)
    rules = _rules(preset, assignments, spec.get("rules"))
    suit = parse_suit(_require(spec, "trump", str), field="trump")
    seats = _require(spec, "seats", list)

    def trick_of(entry: Any, field: Field) -> Trick:
        if not isinstance(entry, dict):
            raise InvalidInputError(field, "expected an object with leader and cards")
        cards = parse_cards(
            entry.get("cards", ""), deck=rules.card_deck, field=(*field_path(field), "cards")
        )
        leader = entry.get("leader")
        if not isinstance(leader, int) or leader not in seats:
            raise InvalidInputError(
                (*field_path(field), "leader"), f"expected one of the seats {seats}"
            )
        order = seats[seats.index(leader) :] + seats[: seats.index(leader)]
        return Trick.of(suit, leader, cards, seats=order[: len(cards)])

    past = _optional(spec, "history", list, [])
    history = [trick_of(t, ("history", i)) for i, t in enumerate(past)]
    trick = trick_of(spec.get("trick", {"leader": seats[0] if seats else 0}), "trick")
    advice = solver.chlust.advise(
        _require(spec, "hand", (str, list)),
        trick,
        rules,
        seat=_require(spec, "seat", int),
        seats=seats,
        history=history,
        turned=_optional(spec, "turned", str, None),
        samples=samples,
        seed=seed,
    )
    if as_json:
        emit_json(advice.to_dict())
        return
    how = (
        f"exact over {advice.deals} deals"
        if advice.method == "exact"
        else f"Monte Carlo, {advice.deals} samples, seed {advice.seed}"
    )
    click.echo(f"play {advice.card.pretty}  ({how})")
    for card, value in sorted(advice.expected.items(), key=lambda kv: -kv[1]):
        extra = f" ± {advice.ci95[card]:.3f}" if advice.method == "monte_carlo" else ""
        click.echo(f"  {card.pretty}: {value:.3f} expected tricks{extra}")


@chlust.command("deal")
@click.option(
    "--players", "-n", default=None, type=click.IntRange(2, 4),
    help="Players, 2 to 4 (CH-1) [default: the rules' players].",
)  # fmt: skip
@click.option("--dealer", default=0, show_default=True, type=_DEALER, help=_DEALER_HELP)
@click.option(
    "--seed", required=True, type=SEED,
    help="Seed of the shuffle (the same seed gives the same deal).",
)  # fmt: skip
@_common
@remote_options
def deal_cmd(
    players: int | None,
    dealer: int,
    seed: int,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Deal a seeded hand (CH-2): three cards each and the turned trump card.

    \b
    Example: cpsolver chlust deal --seed 3
    """
    rules = _rules(preset, assignments)
    dealt = solver.chlust.deal(seed, rules, players=players, dealer=dealer)
    exchange = dealt.exchange_seat(rules)
    if as_json:
        emit_json(
            {
                "hands": [[str(c) for c in h] for h in dealt.hands],
                "turned": str(dealt.turned),
                "trump": dealt.trump.value,
                "dealer": dealt.dealer,
                "stock": [str(c) for c in dealt.stock],
                "exchange_seat": exchange,
            }
        )
        return
    for seat, hand in enumerate(dealt.hands):
        click.echo(f"seat {seat}: {format_cards(hand, pretty=True)}")
    click.echo(f"turned: {dealt.turned.pretty} (trumps {dealt.trump.symbol})")
    if exchange is not None:
        click.echo(f"seat {exchange} may exchange its lowest trump for the ace (CH-2)")


@chlust.command("bid")
@click.argument("actions", nargs=-1)
@click.option(
    "--players", "-n", default=None, type=click.IntRange(2, 4),
    help="Players, 2 to 4 (CH-1) [default: the rules' players].",
)  # fmt: skip
@click.option("--dealer", default=0, show_default=True, type=_DEALER, help=_DEALER_HELP)
@_common
@remote_options
def bid_cmd(
    actions: tuple[str, ...],
    players: int | None,
    dealer: int,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Run a bidding round (CH-6) from ACTIONS in turn order: fold, check, call, raise."""
    rules = _rules(preset, assignments)
    bidding = solver.chlust.bid(actions, players, rules, dealer=dealer)
    if as_json:
        emit_json(bidding.to_dict())
        return
    click.echo(f"pot {bidding.pot}; in play: {', '.join(map(str, bidding.in_play))}")
    if bidding.winner is not None:
        click.echo(f"seat {bidding.winner} takes the pot")
    elif bidding.is_over:
        click.echo("bidding over: showdown (CH-7)")
    else:
        legal = ", ".join(a.value for a in bidding.legal)
        click.echo(f"seat {bidding.to_act} to act: {legal}")


def _turned(turned: str | None, rules: ChlustRules) -> Card | None:
    return None if turned is None else one_card(turned, rules, "turned")


def _load(source: str) -> dict[str, Any]:
    spec = read_json(source, inline=True)
    if not isinstance(spec, dict):
        raise InvalidInputError("file", "expected a JSON object")
    return spec


def _require(spec: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in spec:
        raise InvalidInputError(key, "missing")
    return _optional(spec, key, kind, None)


def _optional(spec: dict[str, Any], key: str, kind: type | tuple[type, ...], default: Any) -> Any:
    value = spec.get(key, default)
    if value is default:
        return value
    if not isinstance(value, kind) or isinstance(value, bool):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise InvalidInputError(key, f"expected {names}, got {type(value).__name__}")
    return value
