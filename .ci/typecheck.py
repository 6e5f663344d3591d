"""mypy over the installed namespace, as ``make lint`` runs it.

The repository's folders become one package, ``cpsolver``, through pyproject's ``package-dir``
(``solver/`` is ``cpsolver``, ``client/`` is ``cpsolver.client``...). mypy cannot follow the
editable install's import hook, so this builds the same tree from symlinks under
``build/typecheck`` (from the same ``package-dir`` table: one source of truth), runs
``mypy -p cpsolver`` there and prints the errors with the repository's own paths.

    python .ci/typecheck.py [MYPY ARGS...]
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = ROOT / "build" / "typecheck"


def build_tree() -> dict[str, Path]:
    """Symlink every mapped folder into ``TREE``; returns tree prefix -> repository folder."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapping: dict[str, str] = config["package-dir"]
    shutil.rmtree(TREE, ignore_errors=True)
    prefixes = {}
    for package, folder in sorted(mapping.items()):  # parents before their sub-packages
        target = TREE.joinpath(*package.split("."))
        source = ROOT / folder
        target.mkdir(parents=True, exist_ok=True)
        for entry in source.iterdir():
            link = target / entry.name
            if entry.name != "__pycache__" and not link.exists():
                link.symlink_to(entry)
        prefixes[str(target.relative_to(ROOT)) + os.sep] = source
    return prefixes


def main() -> int:
    prefixes = build_tree()
    mypy = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")]
    mypy += ["--cache-dir", str(ROOT / ".mypy_cache")]
    run = subprocess.run(
        [*mypy, *sys.argv[1:], "-p", "cpsolver"], cwd=TREE, capture_output=True, text=True
    )
    longest_first = sorted(prefixes.items(), key=lambda item: -len(item[0]))
    for line in (run.stdout + run.stderr).splitlines():
        path = str(TREE.relative_to(ROOT) / line) if not line.startswith(os.sep) else line
        for prefix, source in longest_first:
            if path.startswith(prefix):
                line = str((source / path[len(prefix) :]).relative_to(ROOT))
                break
        print(line)
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
