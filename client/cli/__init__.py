"""The ``cpsolver`` command line. Each game's commands live in their own module."""

from client.cli import chinese, serve
from client.cli.main import main

__all__ = ["chinese", "main", "serve"]
