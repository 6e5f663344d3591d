"""The ``cpsolver`` command line. Each game's commands live in their own module."""

from cpsolver.client.cli import (
    batch,
    chinese,
    chlust,
    compile,
    completion,
    deal,
    health,
    leaves,
    scoring,
    serve,
    train,
)
from cpsolver.client.cli.main import main

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
    "scoring",
    "serve",
    "train",
]
