"""How a solve, a rating and a review show: plain text (``str``) and self-contained HTML.

:func:`solution_text`, :func:`rating_text` and :func:`review_text` are the ``str()`` of
``Solution``, ``Rating`` and ``Review``: a few readable lines.

:func:`page` writes one HTML document with its style inline and no script, image or font to
fetch (``cpsolver solve|rate|review --html FILE``); the fragments (:func:`solution_html`,
:func:`rating_html`, :func:`review_html`) are what ``Solution._repr_html_``,
``Rating._repr_html_`` and ``Review._repr_html_`` show in a notebook. Cards are drawn as cards
(rank and suit symbol on a white face, hearts and diamonds red), each with ``data-card`` set to
its text (``As``) so a page can be checked card by card; a review's EV lost per hand is an
inline SVG plot.

>>> from cpsolver.cards import parse_cards
>>> cards_html(parse_cards("As Th"))  # doctest: +NORMALIZE_WHITESPACE
'<span class="cards"><span class="card black" data-card="As">A<small>♠</small></span><span
class="card red" data-card="Th">10<small>♥</small></span></span>'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any, TypeAlias

from cpsolver.cards import Card, Suit
from cpsolver.rules import Row

# The values shown are typed Any here: solve, rate and review import this module (lazily, for
# their __str__ and _repr_html_), so it imports none of them.
Solution: TypeAlias = Any
Rating: TypeAlias = Any
RowRating: TypeAlias = Any
Review: TypeAlias = Any

__all__ = [
    "STYLE",
    "cards_html",
    "page",
    "rating_html",
    "rating_text",
    "review_html",
    "review_text",
    "solution_html",
    "solution_text",
]

_ROWS = (Row.BACK, Row.MIDDLE, Row.FRONT)
_RED = frozenset({Suit.HEARTS, Suit.DIAMONDS})
_SYMBOL = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}

STYLE = """
.cpsolver { font-family: system-ui, sans-serif; color: #222; }
.cpsolver table { border-collapse: collapse; margin: 0.4em 0 1em; }
.cpsolver th, .cpsolver td { padding: 0.2em 0.6em; text-align: left; vertical-align: middle; }
.cpsolver th { border-bottom: 1px solid #999; }
.cpsolver td.num, .cpsolver th.num { text-align: right; font-variant-numeric: tabular-nums; }
.cpsolver .card { display: inline-block; min-width: 1.7em; padding: 0.25em 0.2em;
  margin: 0 0.12em; border: 1px solid #888; border-radius: 0.3em; background: #fff;
  box-shadow: 1px 1px 2px rgba(0,0,0,0.25); text-align: center; font-weight: 600; }
.cpsolver .card small { font-size: 1em; margin-left: 0.05em; }
.cpsolver .card.red { color: #c00; }
.cpsolver .card.black { color: #111; }
.cpsolver .bad { color: #b00; }
.cpsolver .good { color: #070; }
.cpsolver figure { margin: 0.5em 0 1em; }
"""


def _rank(card: Card) -> str:
    text = str(card)[:-1]
    return "10" if text == "T" else text


def cards_html(cards: Iterable[Card]) -> str:
    """Cards drawn as cards (module doc)."""
    drawn = "".join(
        f'<span class="card {"red" if c.suit in _RED else "black"}" data-card="{c}">'
        f"{_rank(c)}<small>{_SYMBOL[c.suit]}</small></span>"
        for c in cards
    )
    return f'<span class="cards">{drawn}</span>'


def _num(value: float, digits: int = 4, sign: bool = True) -> str:
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def _table(head: Sequence[str], rows: Iterable[Sequence[str]], numeric: set[int]) -> str:
    num = ' class="num"'
    cells = "".join(
        f"<th{num if i in numeric else ''}>{escape(h)}</th>" for i, h in enumerate(head)
    )
    body = "".join(
        "<tr>"
        + "".join(f"<td{num if i in numeric else ''}>{v}</td>" for i, v in enumerate(r))
        + "</tr>"
        for r in rows
    )
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


def solution_html(solution: Solution) -> str:
    """A solve's answer: the natural declared, the rows, the EV and odds, the alternatives."""
    parts: list[str] = []
    if solution.natural is not None:
        n = solution.natural
        groups = " / ".join(cards_html(g) for g in n.groups)
        parts.append(f"<p>Declares <b>{escape(n.kind.title)}</b> ({n.units} units): {groups}</p>")
        parts.append("<p>Best ordinary arrangement, for reference:</p>")
    arr = solution.arrangement
    parts.append(
        _table(
            ["row", "cards", "hand", "royalty"],
            (
                [
                    row.label,
                    cards_html(arr.row(row)),
                    escape(arr.hands[row].name),
                    str(arr.royalties[row]),
                ]
                for row in _ROWS
            ),
            {3},
        )
    )
    report = solution.analysis
    if report is not None:
        line = f'Expected units at the table: <b class="ev">{_num(report.ev)}</b>'
        if report.ci95 is not None:
            line += f" (95% interval {_num(report.ci95[0])} .. {_num(report.ci95[1])})"
        parts.append(f"<p>{line}; estimator {escape(str(report.estimator))}</p>")
        if report.settlement is None:
            parts.append(
                _table(
                    ["row", "P(win)", "P(tie)", "P(loss)", "units if won"],
                    (
                        [
                            row.label,
                            f"{report.rows[row].win:.3f}",
                            f"{report.rows[row].tie:.3f}",
                            f"{max(report.rows[row].loss, 0.0):.3f}",
                            f"{report.rows[row].value:g}",
                        ]
                        for row in _ROWS
                    ),
                    {1, 2, 3, 4},
                )
            )
    else:
        value = solution.value
        shown = str(int(value)) if float(value).is_integer() else f"{value:.4f}"
        parts.append(f"<p>Value {shown} (objective {escape(solution.objective)})</p>")
    if solution.alternatives:
        parts.append("<p>Alternatives:</p>")
        parts.append(
            _table(
                ["#", "back", "middle", "front", "value", "gap"],
                (
                    [
                        str(i),
                        *(cards_html(alt.row(row)) for row in _ROWS),
                        _num(alt.value),
                        _num(solution.value - alt.value, sign=False),
                    ]
                    for i, alt in enumerate(solution.alternatives, start=1)
                ),
                {0, 4, 5},
            )
        )
    return _wrap("".join(parts))


def _rated_rows(rows: Sequence[RowRating]) -> str:
    return _table(
        ["row", "cards", "hand", "P(win)", "P(tie)", "P(loss)", "royalty", "units"],
        (
            [
                r.row.label,
                cards_html(r.cards),
                escape(r.hand.name),
                f"{r.win:.3f}",
                f"{r.tie:.3f}",
                f"{r.loss:.3f}",
                str(r.royalty),
                _num(r.units, 3),
            ]
            for r in rows
        ),
        {3, 4, 5, 6, 7},
    )


def rating_html(rating: Rating) -> str:
    """A rating: the choice's rows (or natural) beside the best's, the EV table, the loss."""
    parts: list[str] = []
    if rating.natural is not None:
        parts.append(
            f"<p>Played: declared <b>{escape(rating.natural.kind.title)}</b> "
            f"{cards_html(rating.cards)}</p>"
        )
    else:
        state = (
            f'<span class="bad">fouled: {escape(rating.foul_reason)}</span>'
            if rating.fouled
            else "valid"
        )
        parts.append(f"<p>Played ({state}):</p>{_rated_rows(rating.rows)}")
    if rating.best.natural is not None:
        parts.append(
            f"<p>Best: declare <b>{escape(rating.best.natural.kind.title)}</b>; "
            "its best rows, for reference:</p>"
        )
    else:
        parts.append("<p>Best:</p>")
    parts.append(_rated_rows(rating.best_rows))
    lost_ci = ""
    if rating.ev_lost_ci95 is not None:
        lost_ci = (
            f"{_num(rating.ev_lost_ci95[0], sign=False)} .. "
            f"{_num(rating.ev_lost_ci95[1], sign=False)}"
        )
    rank = "" if rating.rank is None else f"{rating.rank} of {rating.choices}"
    parts.append(
        _table(
            ["", "expected units", "95% interval"],
            [
                [
                    "played",
                    f'<span class="ev-played">{_num(rating.ev)}</span>',
                    ""
                    if rating.ev_ci95 is None
                    else f"{_num(rating.ev_ci95[0])} .. {_num(rating.ev_ci95[1])}",
                ],
                ["best", f'<span class="ev-best">{_num(rating.best_ev)}</span>', ""],
                ["EV lost", f'<b class="ev-lost">{_num(rating.ev_lost, sign=False)}</b>', lost_ci],
                ["rank", rank, ""],
            ],
            {1},
        )
    )
    if rating.mistakes:
        items = "".join(f"<li><b>{escape(k)}</b></li>" for k in rating.mistakes)
        parts.append(f"<p>Mistakes:</p><ul>{items}</ul>")
    else:
        parts.append('<p class="good">Played best.</p>')
    parts.append(f"<p>Estimator: {escape(str(rating.estimator))}</p>")
    return _wrap("".join(parts))


def _plot(values: Sequence[float], width: int = 720, height: int = 220) -> str:
    """EV lost per hand as bars, in input order, with the axis in units (inline SVG)."""
    pad_l, pad_b, pad_t = 48, 24, 10
    top = max([v for v in values] + [1e-9])
    inner_w, inner_h = width - pad_l - 8, height - pad_b - pad_t
    step = inner_w / max(len(values), 1)
    bars = []
    for i, v in enumerate(values):
        h = inner_h * v / top
        x = pad_l + i * step
        bars.append(
            f'<rect x="{x:.2f}" y="{pad_t + inner_h - h:.2f}" width="{max(step * 0.8, 0.5):.2f}" '
            f'height="{h:.2f}" fill="#c44"><title>hand {i}: {v:.3f}</title></rect>'
        )
    ticks = []
    for k in range(5):
        value = top * k / 4
        y = pad_t + inner_h - inner_h * k / 4
        ticks.append(
            f'<line x1="{pad_l - 4}" x2="{width - 8}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>'
            f'<text x="{pad_l - 6}" y="{y + 4:.1f}" font-size="11" text-anchor="end">'
            f"{value:.1f}</text>"
        )
    return (
        f'<svg class="ev-lost-plot" xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="EV lost per hand">{"".join(ticks)}{"".join(bars)}'
        f'<text x="{pad_l + inner_w / 2:.0f}" y="{height - 6}" font-size="12" '
        f'text-anchor="middle">hands, in input order ({len(values)})</text></svg>'
    )


def review_html(review: Review, *, worst: int = 5) -> str:
    """A review: the summary by player, the EV lost per hand (SVG), mistakes, worst hands."""
    summaries = [*review.players, review.overall] if len(review.players) != 1 else [*review.players]
    parts = ["<h2>EV lost by player</h2>"]
    parts.append(
        _table(
            [
                "player",
                "hands",
                "total EV lost",
                "mean per hand",
                "95% interval",
                "played best",
                "fouls",
            ],
            (
                [
                    escape(s.player if s.player != "*" else "all"),
                    str(s.hands),
                    _num(s.total_lost, 3, False),
                    _num(s.mean_lost, 3, False),
                    ""
                    if s.mean_lost_ci95 is None
                    else f"{s.mean_lost_ci95[0]:.3f} .. {s.mean_lost_ci95[1]:.3f}",
                    f"{s.played_best_share:.1%}",
                    str(s.fouls),
                ]
                for s in summaries
            ),
            {1, 2, 3, 5, 6},
        )
    )
    parts.append("<h2>EV lost per hand</h2>")
    parts.append(f"<figure>{_plot([h.ev_lost for h in review.hands])}</figure>")
    parts.append("<h2>Mistakes by kind</h2>")
    parts.append(
        _table(
            ["player", "mistake", "hands", "EV lost"],
            (
                [
                    escape(s.player if s.player != "*" else "all"),
                    escape(kind),
                    str(t.hands),
                    _num(t.ev_lost, 3, False),
                ]
                for s in summaries
                for kind, t in s.mistakes.items()
            ),
            {2, 3},
        )
    )
    parts.append("<h2>Worst hands</h2>")
    rows: list[list[str]] = []
    for s in review.players:
        for hand in s.worst[:worst]:
            rows.append(
                [
                    escape(s.player),
                    "" if hand.line is None else str(hand.line),
                    _choice_html(hand.rows, hand.natural),
                    _choice_html(hand.best_rows, hand.best_natural),
                    _num(hand.ev_lost, 3, False),
                    escape(", ".join(hand.mistakes)),
                ]
            )
    parts.append(_table(["player", "line", "played", "best", "EV lost", "mistakes"], rows, {1, 4}))
    if review.errors:
        parts.append(f'<p class="bad">{len(review.errors)} hands could not be read.</p>')
    parts.append(f"<p>Estimator: {escape(str(review.estimator))}</p>")
    return _wrap("".join(parts))


def _choice_html(rows: Iterable[Iterable[Card]] | None, natural: str | None) -> str:
    """Rows drawn as cards, back / middle / front, or the natural declared."""
    if rows is None:
        return f"declared {escape(natural or '')}"
    return " / ".join(cards_html(row) for row in rows)


def _wrap(body: str) -> str:
    return f'<div class="cpsolver"><style>{STYLE}</style>{body}</div>'


def page(title: str, fragment: str) -> str:
    """A whole HTML document around a fragment: UTF-8, inline style, nothing to fetch."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title></head>"
        f'<body><h1 class="cpsolver">{escape(title)}</h1>{fragment}</body></html>\n'
    )


# -- plain text (str) ----------------------------------------------------------------------


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def solution_text(solution: Solution) -> str:
    """``str(Solution)``: the rows, the natural declared, the value.

    >>> from cpsolver import solve
    >>> print(solve("As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s", objective="strength"))
    back    As Ks Qs Js Ts  royal flush (royalty 5)
    middle  9c 9d 9h 2d 2h  full house, nines over twos (royalty 2)
    front   7c 5d 3s        high card, 7-5-3
    value 496226879981 (objective strength)
    """
    arr = solution.arrangement
    lines = []
    if solution.natural is not None:
        n = solution.natural
        lines.append(f"declares {n.kind.title} ({n.units} units); best rows for reference:")
    for row in _ROWS:
        royalty = arr.royalties[row]
        extra = f" (royalty {royalty})" if royalty else ""
        lines.append(f"{row.label:<7} {_cards(arr.row(row)):<15} {arr.hands[row].name}{extra}")
    report = solution.analysis
    if report is not None:
        ci = "" if report.ci95 is None else f" (95% {report.ci95[0]:+.4f} .. {report.ci95[1]:+.4f})"
        lines.append(f"EV {report.ev:+.4f}{ci}, estimator {report.estimator}")
    else:
        value = solution.value
        shown = str(int(value)) if float(value).is_integer() else f"{value:.4f}"
        lines.append(f"value {shown} (objective {solution.objective})")
    return "\n".join(lines)


def rating_text(rating: Rating) -> str:
    """``str(Rating)``: the choice, its EV beside the best's, the loss, rank and mistakes."""
    lines = []
    if rating.natural is not None:
        lines.append(f"played: declared {rating.natural.kind.title}")
    else:
        state = f"fouled: {rating.foul_reason}" if rating.fouled else "valid"
        lines.append(f"played ({state}):")
        for r in rating.rows:
            lines.append(f"  {r.row.label:<7} {_cards(r.cards):<15} {r.hand.name}")
    if rating.best.natural is not None:
        lines.append(f"best: declare {rating.best.natural.kind.title}")
    else:
        lines.append("best:")
        for r in rating.best_rows:
            lines.append(f"  {r.row.label:<7} {_cards(r.cards):<15} {r.hand.name}")
    lines.append(f"EV {rating.ev:+.4f}, best {rating.best_ev:+.4f}, lost {rating.ev_lost:.4f}")
    if rating.rank is not None:
        lines.append(f"rank {rating.rank} of {rating.choices}")
    lines.append("mistakes: " + (", ".join(rating.mistakes) or "none (played best)"))
    return "\n".join(lines)


def review_text(review: Review) -> str:
    """``str(Review)``: one line per player and one over all hands."""
    lines = [
        f"{len(review.hands)} hands rated, {len(review.errors)} bad; estimator {review.estimator}"
    ]
    for s in (*review.players, review.overall):
        name = "all" if s.player == "*" else (s.player or "(none)")
        lines.append(
            f"{name}: {s.hands} hands, EV lost {s.total_lost:.3f} (mean {s.mean_lost:.3f} per "
            f"hand), played best {s.played_best_share:.1%}, fouls {s.fouls}"
        )
    return "\n".join(lines)
