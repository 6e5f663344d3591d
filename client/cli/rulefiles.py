"""``cpsolver rules``: Chinese poker rule files (RULES §2.5, docs/RULE-FILES.md).

* ``cpsolver rules check FILE``: read a rule file as every command reads it; a bad file exits 2
  with one line naming the key, the value and what is allowed.
* ``cpsolver rules show PRESET|FILE [--set OPTION=VALUE]``: the resolved rule set as a rule file
  (TOML, every option spelled out), or ``--json``.
* ``cpsolver rules schema``: the rule files' JSON Schema the package ships.
"""

from __future__ import annotations

import json

import click

from cpsolver.client.cli.main import emit_json, main
from cpsolver.rules import ChineseRules, parse_assignments
from cpsolver.rules.files import SCHEMA_FILE, read_rule_file, to_toml

__all__ = ["rules"]


@main.group("rules")
def rules() -> None:
    """Check, show and describe Chinese poker rule files."""


@rules.command("check")
@click.argument("file", type=click.Path(dir_okay=False))
def check(file: str) -> None:
    """Check a rule file (TOML).

    Exit 0 and say what it differs in from the standard rules, or exit 2 with one line naming
    the bad key, its value and what is allowed.

    \b
    Example: cpsolver rules check my-table.toml
    """
    found = read_rule_file(file)
    changed = sorted(k for k, v in found.to_dict(full=True).items() if v != _standard()[k])
    click.echo(f"{file}: a valid rule set ({found.fingerprint()}); differs from standard in: "
               + (", ".join(changed) or "nothing"))  # fmt: skip


def _standard() -> dict[str, object]:
    return ChineseRules().to_dict(full=True)


@rules.command("show")
@click.argument("source", metavar="PRESET|FILE", default="standard")
@click.option(
    "--set", "assignments", multiple=True, metavar="OPTION=VALUE",
    help="Override a rule option (repeatable).",
)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def show(source: str, assignments: tuple[str, ...], as_json: bool) -> None:
    """Print a rule set as a rule file.

    The preset or rule file, resolved (--set first), every option spelled out.

    \b
    Example: cpsolver rules show maubinh --set foul=fixed:4
    """
    resolved = ChineseRules.resolve(source, **parse_assignments(assignments))
    if as_json:
        emit_json(resolved.to_dict(full=True))
        return
    click.echo(to_toml(resolved), nl=False)


@rules.command("schema")
def schema() -> None:
    """Print the rule files' JSON Schema.

    The package ships it as cpsolver/data/chinese-rules.schema.json.
    """
    click.echo(json.dumps(json.loads(SCHEMA_FILE.read_text(encoding="utf-8")), indent=2))
