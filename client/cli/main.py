"""The root ``cpsolver`` command group, exit codes, error reporting and the options every
server-capable subcommand shares (``--server``, ``--token``, ``--timeout``, ``--tls-ca``).

Exit codes: 0 success, 2 bad input (usage errors, bad cards, unknown options), 3 server
unreachable (or no answer within ``--timeout``), 4 a feature whose extra is not installed
(``--server`` and ``serve`` without ``cpsolver[grpc]``, ``--engine cpsat`` without
``cpsolver[cpsat]``: the line says what to install), 5 ``train`` stopped before converging
(:data:`cpsolver.client.cli.train.EXIT_NOT_CONVERGED`), 1 anything else (e.g. a token the
server refuses). A closed output pipe (``cpsolver solve ... | head -1``) is a quiet exit 0.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
from click.core import ParameterSource
from click.exceptions import NoArgsIsHelpError, NoSuchCommand

from cpsolver.client.cli.options import (
    SUIT_LETTERS,
    complete_objectives,
    complete_presets,
    complete_suits,
    rules_options,
)
from cpsolver.client.errors import DeadlineExceededError, RemoteError, ServerUnavailableError
from cpsolver.client.solver import Solver
from cpsolver.errors import CpsolverError, InfeasibleError, InvalidInputError, MissingExtraError

F = TypeVar("F", bound=Callable[..., Any])

__all__ = [  # the shared options are defined in .options, re-exported for the commands
    "SUIT_LETTERS",
    "complete_objectives",
    "complete_presets",
    "complete_suits",
    "emit_json",
    "main",
    "open_solver",
    "remote_options",
    "rules_options",
    "usage_line",
]

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_UNREACHABLE = 3
EXIT_MISSING_EXTRA = 4


class SummaryGroup(click.Group):
    """A click group whose command list shows each command's whole first sentence (wrapped
    when long), never cut at the line's end or at an "e.g." as click's listing does."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=sys.maxsize)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _option_name(param: click.Parameter) -> str:
    """How a line names a parameter: an option by its long name (``--trump``, not ``-t``), an
    argument by its metavar (``CARDS``)."""
    if isinstance(param, click.Option) and param.opts:
        return max(param.opts, key=len)
    return param.human_readable_name


def _sentence(text: str) -> str:
    """click's message as a line's reason: one line (a choice's help lists its values on
    lines of their own), without the closing full stop the library's reasons never have."""
    return " ".join(text.split()).removesuffix(".")


def _did_you_mean(possibilities: list[str] | None) -> str:
    return f"; did you mean {' or '.join(sorted(possibilities))}?" if possibilities else ""


def usage_line(exc: click.UsageError) -> str:
    """A click usage error as the one documented line, ``error: FIELD: REASON``
    (docs/CLI-JSON.md, "Exit codes and errors"): the field is the option (its long name) or
    argument at fault, ``usage`` when the error is about the command line as a whole, which
    then points to the command's help.

    >>> usage_line(click.NoSuchOption("--sed", possibilities=["--seed"]))
    'error: --sed: no such option; did you mean --seed?'
    >>> usage_line(click.BadParameter("-1 is not in the range 0<=x<=9.", param_hint="--seed"))
    'error: --seed: -1 is not in the range 0<=x<=9'
    """
    ctx = exc.ctx
    hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
    if isinstance(exc, click.BadParameter):
        param = exc.param
        if exc.param_hint is not None:
            hints = [exc.param_hint] if isinstance(exc.param_hint, str) else exc.param_hint
            field = " / ".join(hints)
        elif param is not None:
            field = _option_name(param)
        else:
            field = "usage"
        if isinstance(exc, click.MissingParameter):
            extra = param.type.get_missing_message(param=param, ctx=ctx) if param else None
            reason = "missing" + (f": {exc.message}" if exc.message else "")
            reason += f"; {extra}" if extra else ""
        else:
            reason = exc.message
        reason = _sentence(reason)
        if (
            ctx is not None
            and param is not None
            and param.name is not None
            and param.envvar
            and ctx.get_parameter_source(param.name) is ParameterSource.ENVIRONMENT
        ):
            names = [param.envvar] if isinstance(param.envvar, str) else list(param.envvar)
            used = next((n for n in names if n in os.environ), names[0])
            reason += f" (env var: '{used}')"  # the value came from there, not the line
        return f"error: {field}: {reason}"
    if isinstance(exc, click.NoSuchOption):
        possible = _did_you_mean(exc.possibilities)
        return f"error: {exc.option_name}: no such option{possible or hint}"
    if isinstance(exc, NoSuchCommand):
        possible = _did_you_mean(exc.possibilities)
        return f"error: {exc.command_name}: no such command{possible or hint}"
    if isinstance(exc, click.BadOptionUsage):
        # click's own ("Option '--seed' requires an argument.") name the option twice.
        reason = exc.message.removeprefix(f"Option {exc.option_name!r} ")
        return f"error: {exc.option_name}: {_sentence(reason)}"
    return f"error: usage: {_sentence(exc.message)}{hint}"


class CpsolverGroup(SummaryGroup):
    """A click group that turns library errors, and click's own usage errors, into one line
    on stderr and an exit code."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        # NO_COLOR (https://no-color.org) reaches click's own styled lines too (a deprecated
        # option's warning is red): a context without colour strips them, as the rendering
        # does (render.console).
        if os.environ.get("NO_COLOR") and "color" not in extra:
            extra["color"] = False
        try:
            return super().make_context(info_name, args, parent, **extra)
        except NoArgsIsHelpError:
            raise  # no arguments at all: the help, as click shows it
        except click.UsageError as exc:  # the root's own options (cpsolver --bogus)
            click.echo(usage_line(exc), err=True)
            raise click.exceptions.Exit(exc.exit_code) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
            # Flush here, inside the handler: output buffered to the end would otherwise meet
            # a closed pipe at interpreter exit, past every handler.
            sys.stdout.flush()
            return result
        except NoArgsIsHelpError:
            raise  # a group named without a command (cpsolver chlust): its help
        except click.UsageError as exc:
            # click would print the usage, a "Try --help" line and "Error: Invalid value for
            # ...": the documented form of every error is one line (exit code 2 either way).
            click.echo(usage_line(exc), err=True)
            ctx.exit(exc.exit_code)
        except BrokenPipeError:
            # The reader closed the pipe (``cpsolver ... | head -1``): it has what it wanted.
            # Quiet exit 0, with stdout pointed at /dev/null so the final flush cannot raise
            # again (click's own handler would exit 1).
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(EXIT_OK)
        except (InvalidInputError, InfeasibleError) as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(EXIT_BAD_INPUT)
        except (ServerUnavailableError, DeadlineExceededError) as exc:
            click.echo(f"error: server unreachable: {exc}", err=True)
            ctx.exit(EXIT_UNREACHABLE)
        except RemoteError as exc:
            click.echo(f"error: server: {exc}", err=True)
            ctx.exit(1)
        except MissingExtraError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(EXIT_MISSING_EXTRA)
        except CpsolverError as exc:  # pragma: no cover - defensive
            click.echo(f"error: {exc}", err=True)
            ctx.exit(1)


@click.group(cls=CpsolverGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cpsolver", prog_name="cpsolver")
def main() -> None:
    """Chinese poker solver, open-face Chinese poker (ofc), Chlust and Three Leaves: solve,
    score and evaluate hands.

    Commands run in this process; with --server HOST:PORT (or CPSOLVER_SERVER) they call a
    server started by cpsolver serve instead, with the same output. Exit codes: 0 ok, 2 bad
    input, 3 server unreachable, 4 an extra is missing (pip install 'cpsolver[grpc]' for
    --server and serve), 5 train stopped before converging, 1 other errors; a closed output
    pipe exits 0. Shell completion: cpsolver completion --help.
    """


COMMANDS_GROUP = "cpsolver.commands"


def add_registered_commands() -> None:
    """Add the commands other parts of the distribution register in the entry point group
    ``cpsolver.commands`` (pyproject.toml): ``serve`` belongs to ``cpsolver.server``, which
    this way adds it to the CLI without the client importing the server."""
    from importlib.metadata import entry_points

    for entry in entry_points(group=COMMANDS_GROUP):
        if entry.name not in main.commands:
            main.add_command(entry.load(), entry.name)


def remote_options(command: F) -> F:
    """Add ``--server``, ``--token``, ``--timeout`` and ``--tls-ca`` to a command; the command
    receives a ``solver`` argument (:class:`client.Solver`: in-process or remote) instead."""

    @click.option(
        "--server", envvar="CPSOLVER_SERVER", default=None, metavar="HOST:PORT",
        help="Call this cpsolver server instead of solving in-process (env CPSOLVER_SERVER).",
    )  # fmt: skip
    @click.option(
        "--token", envvar="CPSOLVER_TOKEN", default=None,
        help="Bearer token for the server (env CPSOLVER_TOKEN).",
    )  # fmt: skip
    @click.option(
        "--timeout", type=click.FloatRange(0, min_open=True), default=30.0, show_default=True,
        help="Deadline of each server call, in seconds.",
    )  # fmt: skip
    @click.option(
        "--tls-ca", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
        envvar="CPSOLVER_TLS_CA",
        help="Use TLS trusting this PEM CA bundle (env CPSOLVER_TLS_CA).",
    )  # fmt: skip
    @functools.wraps(command)
    def wrapper(
        *args: Any,
        server: str | None,
        token: str | None,
        timeout: float,
        tls_ca: Path | None,
        **kwargs: Any,
    ) -> Any:
        with open_solver(server, token=token, timeout=timeout, tls_ca=tls_ca) as solver:
            return command(*args, solver=solver, **kwargs)

    return wrapper  # type: ignore[return-value]


def open_solver(
    server: str | None,
    *,
    token: str | None = None,
    timeout: float = 30.0,
    tls_ca: Path | None = None,
) -> Solver:
    """The solver a command uses: in-process without ``server``, else a remote client."""
    from cpsolver.client import connect

    if not server:
        return connect(None)
    return connect(server, token=token, timeout=timeout, root_certificates=tls_ca)


def emit_json(payload: object) -> None:
    """Print one JSON document (UTF-8, stable key order as built) and a newline."""
    json.dump(payload, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
