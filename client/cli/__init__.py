"""The ``cpsolver`` command line. Each game's commands live in their own module."""

from client.cli import batch, chinese, completion, deal, serve
from client.cli.main import main

__all__ = ["batch", "chinese", "completion", "deal", "main", "serve"]
