"""``cpsolver completion SHELL``: print the shell completion script (click's own mechanism).

The script is what ``_CPSOLVER_COMPLETE=bash_source cpsolver`` prints; this command only
saves remembering the variable. Install for bash with
``eval "$(cpsolver completion bash)"`` in ``~/.bashrc`` (zsh: ``~/.zshrc``; fish:
``cpsolver completion fish > ~/.config/fish/completions/cpsolver.fish``).
"""

from __future__ import annotations

import click
from click.shell_completion import get_completion_class

from cpsolver.client.cli.main import main

SHELLS = ("bash", "zsh", "fish")


@main.command()
@click.argument("shell", type=click.Choice(SHELLS))
def completion(shell: str) -> None:
    """Print the completion script for SHELL (bash, zsh or fish).

    It completes commands, options, --rules presets and --set options and values. Enable it
    in ~/.bashrc (zsh: ~/.zshrc) or in fish's completions:

    \b
      eval "$(cpsolver completion bash)"
      cpsolver completion fish > ~/.config/fish/completions/cpsolver.fish
    """
    cls = get_completion_class(shell)
    assert cls is not None  # every SHELLS entry is one of click's built-in shells
    script = cls(main, {}, "cpsolver", "_CPSOLVER_COMPLETE").source()
    click.echo(script)
