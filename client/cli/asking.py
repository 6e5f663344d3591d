"""The two options every solving command shares: ``--estimator`` and ``--arrangements``.

They are the library's ``estimator`` and ``arrangements`` (:mod:`cpsolver.chinese.estimator`)
and ``SolveRequest.estimator`` / ``arrangements`` on the wire: one name and one meaning on
every surface (docs/API.md, "One way to ask"). The options they replace (``--alternatives``,
``--top``, ``--rollouts``, ``--calibrated``, ``--budget-ms``) still work, hidden from the help
and deprecated; naming the estimate or the count twice is a usage error (exit 2) naming both
options.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click
from click.shell_completion import CompletionItem

from cpsolver.chinese.estimator import (
    MAX_ARRANGEMENTS,
    MAX_BUDGET_MS,
    Estimator,
    resolve_count,
    resolve_estimator,
)
from cpsolver.chinese.rollouts import MAX_ROLLOUTS
from cpsolver.client.cli.options import SEED
from cpsolver.errors import InvalidInputError

__all__ = ["asked", "estimate_options"]

F = TypeVar("F", bound=Callable[..., Any])

_FORMS = {
    "model": "the first-order tables (about 0.3 ms)",
    "calibrated": "re-scored against the weighted opponent pool (about 1 ms)",
    "rollouts:2000": "re-scored by simulating N opponent deals (with --seed)",
    "budget:100ms": "the finest of those that fits N milliseconds",
}


def _complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    return [
        CompletionItem(text, help=why)
        for text, why in _FORMS.items()
        if text.startswith(incomplete)
    ]


class _EstimatorType(click.ParamType[Estimator, "str | Estimator"]):
    name = "ESTIMATOR"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, Estimator):
            return value
        try:
            return Estimator.parse(value)
        except InvalidInputError as exc:
            self.fail(exc.violations[0].description, param, ctx)


def estimate_options(
    default: Estimator, what: str = "", *, unused_count: str | None = None
) -> Callable[[F], F]:
    """``--estimator`` (default ``default``), ``--arrangements``, ``--seed`` and the hidden
    deprecated options they replace; the command reads them with :func:`asked`.
    ``unused_count``: why the command shows no arrangements (``review``): ``--arrangements``
    and its old names are then hidden and deprecated with that reason, still accepted (a
    script that gives one keeps working, warned), never used."""
    each = f" {what}" if what else ""
    # The count's deprecation messages: its old names point to --arrangements, unless the
    # command uses no count at all.
    to_arrangements = unused_count or "Use --arrangements"
    to_plus_one = unused_count or "Use --arrangements N+1"

    def decorate(command: F) -> F:
        options = [
            click.option(
                "--estimator",
                type=_EstimatorType(),
                default=None,
                shell_complete=_complete,
                help=f"ev: how the expected units{each} are estimated: calibrated (re-scored "
                "against the weighted opponent pool, about 1 ms), model (the tables alone, "
                "about 0.3 ms), rollouts:N (re-scored by N simulated deals, with --seed) or "
                f"budget:Nms (the finest that fits N ms). Default: {default}.",
            ),
            click.option(
                "--arrangements",
                type=click.IntRange(1, MAX_ARRANGEMENTS),
                default=None,
                hidden=unused_count is not None,
                deprecated=unused_count or False,
                help=f"How many arrangements to show{each}: the best and the next best "
                f"(1 to {MAX_ARRANGEMENTS}). Default: 1.",
            ),
            click.option(
                "--seed",
                type=SEED,
                default=0,
                show_default=True,
                help="Seed of the rollouts:N estimator's random deals (same seed, same answer).",
            ),
            click.option(
                "--alternatives",
                type=click.IntRange(0, MAX_ARRANGEMENTS - 1),
                default=None,
                hidden=True,
                deprecated=to_plus_one,
                help="Deprecated: --arrangements N+1.",
            ),
            click.option(
                "--top",
                type=click.IntRange(1, MAX_ARRANGEMENTS),
                default=None,
                hidden=True,
                deprecated=to_arrangements,
                help="Deprecated: --arrangements.",
            ),
            click.option(
                "--rollouts",
                type=click.IntRange(0, MAX_ROLLOUTS),
                default=None,
                hidden=True,
                deprecated="Use --estimator rollouts:N",
                help="Deprecated: --estimator rollouts:N.",
            ),
            click.option(
                "--calibrated",
                is_flag=True,
                default=None,
                hidden=True,
                deprecated="Use --estimator calibrated",
                help="Deprecated: --estimator calibrated.",
            ),
            click.option(
                "--budget-ms",
                type=click.IntRange(0, MAX_BUDGET_MS),
                default=None,
                hidden=True,
                deprecated="Use --estimator budget:Nms",
                help="Deprecated: --estimator budget:Nms.",
            ),
        ]
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


_OPTION = {"alternatives": "--alternatives", "top": "--top", "rollouts": "--rollouts",
           "calibrated": "--calibrated", "budget_ms": "--budget-ms",
           "estimator": "--estimator", "arrangements": "--arrangements"}  # fmt: skip


def asked(default: Estimator, options: dict[str, Any]) -> tuple[Estimator, int]:
    """The estimator and the count a command's options name (popped from ``options``):
    ``default`` when no estimator is named. Naming either twice is a usage error naming both
    options."""
    values = {name: options.pop(name) for name in _OPTION}
    try:
        estimator = resolve_estimator(
            values["estimator"],
            rollouts=values["rollouts"],
            calibrated=values["calibrated"],
            budget_ms=values["budget_ms"],
            default=default,
            warn=False,  # click has said it
        )
        count = resolve_count(
            values["arrangements"], alternatives=values["alternatives"], top=values["top"],
            warn=False,
        )  # fmt: skip
    except InvalidInputError as exc:
        named = [_OPTION.get(v.field, v.field) for v in exc.violations]
        if len(named) > 1:
            counting = {"--arrangements", "--alternatives", "--top"} & set(named)
            one = "--arrangements" if counting else "--estimator"
            raise click.UsageError(
                f"{' and '.join(named)} name the same choice twice; give {one} only"
            ) from None
        raise click.BadParameter(exc.violations[0].description, param_hint=named[0]) from None
    return estimator, count
