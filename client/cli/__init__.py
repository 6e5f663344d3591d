"""The ``cpsolver`` command line. Each game's commands live in their own module; ``serve`` is
the server's own (registered through an entry point, see :func:`.main.add_registered_commands`)."""

from cpsolver.client.cli import (
    batch,
    chinese,
    chlust,
    compile,
    completion,
    deal,
    health,
    leaves,
    ofc,
    rate,
    review,
    rulefiles,
    scoring,
    train,
    validate,
)
from cpsolver.client.cli.main import add_registered_commands, main

add_registered_commands()

__all__ = [
    "batch",
    "chinese",
    "chlust",
    "compile",
    "completion",
    "deal",
    "health",
    "leaves",
    "main",
    "ofc",
    "rate",
    "review",
    "rulefiles",
    "scoring",
    "train",
    "validate",
]
