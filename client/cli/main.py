"""The root ``cpsolver`` command group, exit codes and error reporting shared by subcommands.

Exit codes: 0 success, 2 bad input (usage errors, bad cards, unknown options), 3 server
unreachable, 1 anything unexpected.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from solver.errors import CpsolverError, InfeasibleError, InvalidInputError

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_UNREACHABLE = 3


class CpsolverGroup(click.Group):
    """A click group that turns library errors into one line on stderr and exit code 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (InvalidInputError, InfeasibleError) as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(EXIT_BAD_INPUT)
        except CpsolverError as exc:  # pragma: no cover - defensive
            click.echo(f"error: {exc}", err=True)
            ctx.exit(1)


@click.group(cls=CpsolverGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cpsolver", prog_name="cpsolver")
def main() -> None:
    """Chinese poker solver, Chlust and Three Leaves: solve, score and evaluate hands."""


def emit_json(payload: object) -> None:
    """Print one JSON document (UTF-8, stable key order as built) and a newline."""
    json.dump(payload, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
