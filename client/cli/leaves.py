"""Three Leaves commands: ``cpsolver leaves evaluate|legal|deal|resolve|play|advise``.

A deal for ``resolve`` and ``play`` is one JSON object (a file, ``-`` for stdin, or the JSON
text itself)::

    {"hands": ["As Kh 8d", "Ks 9h Jc", "Ts Ah Qd", "Qs 8c Ac"], "trump_card": "9d",
     "stock": "Js 9s", "dealer": 3, "exchanges": {"1": "9h Jc", "2": "pass"},
     "demand_playout": false, "picks": ["As", "Ks", "8s"], "carried_pot": 0,
     "plays": "As Ks Ts Qs Kh 9h Ah ~8c Qd ~Ac 8d ~Jc", "rules": {"share": 2}}

Only ``hands`` and ``trump_card`` are required; ``players`` defaults to the number of hands.
``play`` also takes ``{"deals": [deal, ...]}``: a session whose pot carries over (TL-6).
A ``~`` before a card plays it face down.

Every command runs in-process, or against a server's ``ThreeLeavesService`` with
``--server HOST:PORT`` (or ``CPSOLVER_SERVER``), with the same output.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import click

from cpsolver.cards import Card, format_cards, parse_card, parse_suit
from cpsolver.client.cli.jsonin import read_json
from cpsolver.client.cli.main import (
    SummaryGroup,
    complete_suits,
    emit_json,
    main,
    remote_options,
    rules_options,
)
from cpsolver.client.cli.options import SEED, option_values
from cpsolver.client.solver import Solver
from cpsolver.errors import CardError, Field, InvalidInputError, field_path
from cpsolver.evaluator.khlyust import evaluate_khlyust
from cpsolver.rules import ThreeLeavesRules, parse_assignments
from cpsolver.three_leaves import Choices, Deal, DealResult, leaf_trick
from cpsolver.three_leaves.advice import DEFAULT_SAMPLES, MAX_SAMPLES, Estimate, check_position
from cpsolver.three_leaves.deal import MAX_CARRIED_POT

__all__ = ["leaves"]

F = TypeVar("F", bound=Callable[..., Any])


_rules_options = rules_options(
    "Override one rule option (repeatable), e.g. --set void=must_trump.", rules=ThreeLeavesRules
)

MAX_POSITION = max(int(v) for v in option_values(ThreeLeavesRules, "players")) - 1
"""The last turn position of the largest table: ``--position`` and ``--dealer`` accept 0 to
this on every leaves command; a smaller table's limit is the library's check."""


def _trump_suit_option(command: F) -> F:
    """``-t`` / ``--trump SUIT``: the trump suit (evaluate, legal)."""
    return click.option(
        "--trump", "-t", required=True, metavar="SUIT",
        help="Trump suit: c d h s, a symbol or a name.", shell_complete=complete_suits,
    )(command)  # fmt: skip


def _position_option(default: int) -> Callable[[F], F]:
    """``--position N``: a turn position, 0 (the assistant) to players - 1 (the dealer)."""
    return click.option(
        "--position", default=default, show_default=True,
        type=click.IntRange(0, MAX_POSITION),
        help="Turn position: 0 is the assistant, who is first in turn, players - 1 the dealer.",
    )  # fmt: skip


def _turned_card(text: str, rules: ThreeLeavesRules) -> Card:
    """The ``--trump`` card of ``advise``: the turned card, e.g. ``9d``. A bare suit is refused
    saying so (the advice counts the turned card out of the other hands, so it needs the rank
    too)."""
    try:
        return parse_card(text, deck=rules.card_deck, field="trump")
    except CardError as exc:
        try:
            suit = parse_suit(text, field="trump")
        except InvalidInputError:
            raise CardError(
                "trump",
                f"expected the turned card that sets trumps, e.g. 9d: {exc.description}",
                token=exc.token,
            ) from None
        raise InvalidInputError(
            "trump",
            f"expected the turned card that sets trumps, e.g. 9{suit.value}, not only its "
            f"suit {text!r}: the advice counts that card out of the other hands",
        ) from None


def _rules(preset: str, assignments: Sequence[str], **defaults: object) -> ThreeLeavesRules:
    overrides: dict[str, object] = dict(defaults)
    overrides.update(parse_assignments(assignments))
    return ThreeLeavesRules.preset(preset, **overrides)


@main.group(cls=SummaryGroup)
def leaves() -> None:
    """Three Leaves (Tri listika, "khlyust", RULES §4): deal, judge, play and advise."""


@leaves.command()
@click.argument("cards", nargs=-1, required=True)
@_trump_suit_option
@_position_option(0)
@_rules_options
@remote_options
def evaluate(
    cards: tuple[str, ...],
    trump: str,
    position: int,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Khlyust class, card points and TL-4 order key of three cards.

    \b
    Example: cpsolver leaves evaluate As Ks 8s --trump s
    """
    rules = _rules(preset, assignments)
    check_position(position, rules)
    value = solver.leaves.evaluate(" ".join(cards), parse_suit(trump, field="trump"), rules)
    if as_json:
        emit_json(
            {
                "cards": [str(c) for c in value.cards],
                "trump": value.trump.value,
                "class": value.khlyust_class.label,
                "is_khlyust": value.is_khlyust,
                "points": value.points,
                "top": value.top.symbol,
                "key": list(value.order_key(position)),
            }
        )
        return
    click.echo(
        f"{format_cards(value.cards, pretty=True)}  trumps {value.trump.symbol}: "
        f"{value.khlyust_class.title}, {value.points} points, top {value.top.symbol}"
    )


@leaves.command()
@click.argument("hand", nargs=-1, required=True)
@_trump_suit_option
@click.option(
    "--trick",
    "trick_text",
    default="",
    help='Plays already on the trick in order, e.g. "As ~8c" (empty: you lead).',
)
@_rules_options
@remote_options
def legal(
    hand: tuple[str, ...],
    trump: str,
    trick_text: str,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Legal plays of HAND on a trick (TL-5).

    \b
    Example: cpsolver leaves legal 8d Ac Kh --trump d --trick As
    """
    rules = _rules(preset, assignments)
    cards, trick = leaf_trick(" ".join(hand), trump, trick_text, rules=rules)
    plays = solver.leaves.legal_plays(cards, trick, rules)
    if as_json:
        rows = [
            {"card": str(p.play.card), "face_down": p.play.face_down, "heads_trick": p.heads_trick}
            for p in plays
        ]
        emit_json({"led": trick.led_suit.value if trick.led_suit else None, "plays": rows})
        return
    for p in plays:  # suit symbols, as every other text output shows cards
        mark = "~" if p.play.face_down else ""
        note = "  (takes the lead)" if p.heads_trick else ""
        click.echo(f"{mark}{p.play.card.pretty}{note}")


def _load(source: str) -> Any:
    return read_json(source, inline=True)


def _whole(value: Any, field: Field) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInputError(field, f"expected a whole number, got {value!r}")
    return value


def _deal(
    data: Any, preset: str, assignments: Sequence[str], field: Field = ()
) -> tuple[Deal, Choices, int]:
    """The deal, choices and carried pot of one JSON deal. ``field`` is where the deal sits in
    the input: nowhere for a lone deal (its keys are top-level fields: ``hands``, not
    ``deal.hands``), ``deals[i]`` in a session."""
    if not isinstance(data, Mapping):
        raise InvalidInputError(field, "expected a JSON object with hands and trump_card")
    for key in ("hands", "trump_card"):
        if key not in data:
            raise InvalidInputError((*field_path(field), key), "is required")
    hands = data["hands"]
    if not isinstance(hands, list):
        raise InvalidInputError((*field_path(field), "hands"), "expected a list of 3-card hands")
    extra = data.get("rules", {})
    if not isinstance(extra, Mapping):
        raise InvalidInputError(
            (*field_path(field), "rules"), "expected an object of OPTION: VALUE"
        )
    defaults: dict[str, object] = {"players": len(hands), **extra}
    rules = _rules(preset, assignments, **defaults)
    try:
        deal = Deal.of(
            hands,
            data["trump_card"],
            data.get("stock", ()),
            dealer=data.get("dealer"),
            rules=rules,
        )
        exchanges = data.get("exchanges", {})
        if not isinstance(exchanges, Mapping):
            raise InvalidInputError("exchanges", "expected an object seat -> play/pass/cards")
        try:
            ex = {int(k): v for k, v in exchanges.items()}
        except ValueError:
            raise InvalidInputError("exchanges", "keys are seat numbers") from None
        choices = Choices.of(
            exchanges=ex,
            demand_playout=bool(data.get("demand_playout", False)),
            picks=data.get("picks"),
            plays=data.get("plays", ()),
            seed=_whole(data.get("seed", 0), "seed"),
            rules=rules,
        )
    except InvalidInputError as exc:
        raise exc.prefixed(field) from None
    carried = data.get("carried_pot", 0)
    if not isinstance(carried, int) or carried < 0:
        raise InvalidInputError(
            (*field_path(field), "carried_pot"), "expected a whole number 0 or more"
        )
    return deal, choices, carried


@leaves.command()
@click.option(
    "--seed", required=True, type=SEED,
    help="Seed of the shuffle (the same seed and rules give the same deal).",
)  # fmt: skip
@click.option(
    "--dealer", default=None, type=click.IntRange(0, MAX_POSITION),
    help="The dealer's seat, 0 to players - 1 (play starts on the dealer's left).  "
    "[default: the last seat]",
)  # fmt: skip
@_rules_options
@remote_options
def deal(
    seed: int,
    dealer: int | None,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Deal a seeded hand (TL-2): three cards each, the turned trump card and the stock.

    The --json output is a deal that resolve and play read (add the choices and plays).

    \b
    Example: cpsolver leaves deal --seed 7 --json > deal.json
    """
    rules = _rules(preset, assignments)
    dealt = solver.leaves.deal(seed, rules, dealer=dealer)
    if as_json:
        emit_json(
            {
                "hands": [[str(c) for c in h] for h in dealt.hands],
                "trump_card": str(dealt.trump_card),
                "trump": dealt.trump.value,
                "stock": [str(c) for c in dealt.stock],
                "dealer": dealt.dealer,
                "assistant": dealt.assistant,
            }
        )
        return
    for seat, hand in enumerate(dealt.hands):
        role = {dealt.assistant: "  (assistant)", dealt.dealer: "  (dealer)"}.get(seat, "")
        click.echo(f"seat {seat}: {format_cards(hand, pretty=True)}{role}")
    click.echo(f"turned: {dealt.trump_card.pretty} (trumps {dealt.trump.symbol})")
    click.echo(f"stock: {format_cards(dealt.stock, pretty=True)}")


@leaves.command()
@click.argument("source")
@_rules_options
@remote_options
def resolve(
    source: str, preset: str, assignments: tuple[str, ...], as_json: bool, solver: Solver
) -> None:
    """The khlyust check of a dealt deal (TL-4): every khlyust, the best and what it wins.

    SOURCE is a JSON file, - (stdin) or the JSON text itself (the deal's keys in this
    module's help: cpsolver leaves play --help).
    """
    deal, _, _ = _deal(_load(source), preset, assignments)
    best, found = solver.leaves.resolve(deal)
    verdict = "no khlyust: exchange and play tricks (TL-3, TL-5)"
    if best is not None:
        cls = best.value.khlyust_class.label
        verdict = {
            "three_of_a_rank": "takes the pot; may not be challenged",
            "trump_khlyust": "takes the pot, then the payment round",
            "plain_khlyust": "takes the pot unless an opponent demands a play-out",
        }[cls]
        if cls != "trump_khlyust" and deal.rules.draw_applies_to.value == "any_khlyust":
            verdict += " (with the payment round if it takes the pot without play)"
    payload = {
        "trump": deal.trump.value,
        "assistant": deal.assistant,
        "dealer": deal.dealer,
        "khlyusts": [c.to_dict() for c in found],
        "winner": None if best is None else best.seat,
        "verdict": verdict,
    }
    if as_json:
        emit_json(payload)
        return
    click.echo(f"trumps {deal.trump.symbol}, assistant seat {deal.assistant}")
    for c in found:
        click.echo(
            f"seat {c.seat}: {format_cards(c.value.cards, pretty=True)}  "
            f"{c.value.khlyust_class.title}, {c.value.points} points"
        )
    prefix = "" if best is None else f"seat {best.seat} "
    click.echo(prefix + verdict)


def _echo_result(result: DealResult) -> None:
    click.echo(f"outcome: {result.outcome.value}")
    for note in result.notes:
        click.echo(f"  {note}")
    for i, trick in enumerate(result.tricks, start=1):
        shown = " ".join(
            f"{p.seat}:{'~' if p.face_down else ''}{p.card.pretty}" for p in trick.plays
        )
        click.echo(f"  trick {i}: {shown} -> seat {trick.winner}")
    for p in result.payments:
        click.echo(f"  seat {p.payer} pays seat {p.payee} {p.amount}: {p.reason}")
    click.echo(
        f"  tricks {list(result.trick_counts)}  net {list(result.net)}  "
        f"pot {result.pot_before} -> {result.pot_after}"
    )


@leaves.command()
@click.argument("source")
@_rules_options
@remote_options
def play(
    source: str, preset: str, assignments: tuple[str, ...], as_json: bool, solver: Solver
) -> None:
    """Play a whole deal (or a session of deals) from JSON and settle it (TL-2..TL-6).

    SOURCE is a JSON file, - (stdin) or the JSON text itself: {"hands": ["As Kh 8d", ...],
    "trump_card": "9d", "stock": "Js 9s", "dealer": 3, "exchanges": {"1": "9h Jc"},
    "demand_playout": false, "picks": [...], "carried_pot": 0, "plays": "As Ks Ts Qs ...",
    "rules": {"share": 2}}; only hands and trump_card are required; {"deals": [deal, ...]}
    is a session whose pot carries over. A ~ before a card plays it face down. The plays are
    checked one by one: an illegal play is refused naming the rule.
    """
    data = _load(source)
    if isinstance(data, Mapping) and "deals" in data:
        items = data["deals"]
        if not isinstance(items, list) or not items:
            raise InvalidInputError("deals", "expected a non-empty list of deals")
        parsed = [_deal(d, preset, assignments, ("deals", i)) for i, d in enumerate(items)]
        deals = [(d, c) for d, c, _ in parsed]
        session = solver.leaves.play_session(deals, carried_pot=parsed[0][2])
        if as_json:
            emit_json(session.to_dict())
            return
        for i, result in enumerate(session.results, start=1):
            click.echo(f"deal {i}:")
            _echo_result(result)
        click.echo(f"totals {list(session.totals)}  pot left {session.pot}")
        return
    deal, choices, carried = _deal(data, preset, assignments)
    result = solver.leaves.play_deal(deal, choices, carried_pot=carried)
    if as_json:
        emit_json(result.to_dict())
        return
    _echo_result(result)


def _est(e: Estimate) -> str:
    if e.exact:
        return f"{e.value:.4f} (exact)"
    return f"{e.value:.4f} [{e.low:.4f}, {e.high:.4f}]"


@leaves.command()
@click.argument("hand", nargs=-1, required=True)
@click.option(
    "--trump",
    "-t",
    "trump_card",
    default=None,
    metavar="CARD",
    help="The turned card that sets trumps, e.g. 9d: a rank and a suit, not only the suit "
    "(the advice counts that card out of the other hands). Required.",
)
@click.option(
    "--trump-card",
    "old_trump_card",
    default=None,
    hidden=True,
    help="Deprecated spelling of --trump (every other command names it --trump).",
)
@_position_option(1)
@click.option(
    "--samples", default=DEFAULT_SAMPLES, show_default=True, type=click.IntRange(2, MAX_SAMPLES),
    help="Deals sampled for the trick odds and the exchange advice (Monte Carlo).",
)  # fmt: skip
@click.option(
    "--seed", default=0, show_default=True, type=SEED,
    help="Seed of the sampled deals (the same seed gives the same advice).",
)  # fmt: skip
@click.option(
    "--carried-pot", default=0, show_default=True, type=click.IntRange(0, MAX_CARRIED_POT),
    help="Pot carried over from the previous deal (TL-6): it raises what a khlyust wins.",
)  # fmt: skip
@click.option(
    "--what",
    type=click.Choice(["odds", "tricks", "exchange", "all"]),
    default="all",
    show_default=True,
    help="Which advice: the khlyust odds, the chance of 3 tricks, the exchange options, or all "
    "that apply to the position.",
)
@_rules_options
@remote_options
def advise(
    hand: tuple[str, ...],
    trump_card: str | None,
    old_trump_card: str | None,
    position: int,
    samples: int,
    seed: int,
    carried_pot: int,
    what: str,
    preset: str,
    assignments: tuple[str, ...],
    as_json: bool,
    solver: Solver,
) -> None:
    """Advice for a hand: khlyust odds, chance of 3 tricks, which cards to exchange.

    The khlyust odds are exact, the rest seeded Monte Carlo with 95% intervals. --trump is the
    turned card (it sets the trump suit and is in the stock).

    \b
    Example: cpsolver leaves advise As Kh 8d --trump 9d
    """
    if old_trump_card is not None:
        click.echo("warning: --trump-card is deprecated, use --trump", err=True)
        if trump_card is not None and trump_card != old_trump_card:
            raise click.BadOptionUsage(
                "--trump", "--trump and --trump-card disagree; give --trump only"
            )
        trump_card = old_trump_card
    if trump_card is None:  # not required=True: the deprecated --trump-card may stand for it
        raise click.BadOptionUsage("--trump", "missing: the turned card, e.g. 9d")
    rules = _rules(preset, assignments)
    cards = " ".join(hand)
    turned = _turned_card(trump_card, rules)
    exchange = what == "exchange"
    skipped = ""  # why --what all gives no exchange advice (said, never silently dropped)
    if what == "all":
        value = evaluate_khlyust(cards, turned.suit, deck=rules.card_deck, field="hand")
        if value.is_khlyust:
            skipped = (
                f"{value.khlyust_class.title}: the deal is settled by the khlyust check before "
                "the exchange (TL-4)"
            )
        elif position in (0, rules.players - 1):
            role = "assistant" if position == 0 else "dealer"
            skipped = f"position {position} is the {role}, who must play the cards dealt (TL-3)"
        exchange = not skipped
    advice = solver.leaves.advise(
        cards,
        turned,
        rules,
        position=position,
        samples=samples,
        seed=seed,
        carried_pot=carried_pot,
        odds=what in ("odds", "all"),
        tricks=what in ("tricks", "all"),
        exchange=exchange,
    )
    if as_json:
        payload = advice.to_dict()
        if skipped:
            payload["exchange_skipped"] = skipped
        emit_json(payload)
        return
    odds, tricks, options = advice.odds, advice.tricks, advice.exchange
    if odds is not None:
        click.echo(
            f"hand: {odds.hand.khlyust_class.title}; a random hand is a khlyust with p="
            f"{1 - odds.holding['none']:.4f}; facing a khlyust {odds.facing_any:.4f}, "
            f"beaten by one {odds.beaten:.4f} (exact)"
        )
    if tricks is not None:
        click.echo(
            f"3 tricks {_est(tricks.three_tricks)}; 2+ tricks {_est(tricks.two_or_more)} "
            f"({tricks.method}, {tricks.samples} deals, greedy play)"
        )
    if options is not None:
        click.echo(f"exchange options by expected money ({samples} samples, seed {seed}):")
        for o in options:
            m = o.expected_money
            click.echo(f"  {o.label:<22} {m.value:+.3f} [{m.low:+.3f}, {m.high:+.3f}]")
    if skipped:
        click.echo(f"no exchange advice: {skipped}")
