"""``cpsolver compile DIR``: compile every kernel into a cache directory (for container images).

The kernels compile on first use (20-30 s here); an image runs this at build time and sets
``CPSOLVER_KERNEL_CACHE=DIR`` (see :mod:`cpsolver.kernel_cache`), so a server started from it
is ready in seconds, even on a read-only root filesystem. The work runs in a fresh Python
process: the cache directory has to be chosen before numba defines any kernel, and this
process has already imported the library.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import click

from cpsolver.client.cli.main import main
from cpsolver.kernel_cache import KERNEL_CACHE_ENV


@main.command("compile")
@click.argument(
    "directory", type=click.Path(file_okay=False, writable=True, path_type=Path),
    envvar=KERNEL_CACHE_ENV,
)  # fmt: skip
def compile_kernels(directory: Path) -> None:
    """Compile every search kernel and load every table once, caching the kernels in DIRECTORY
    (env CPSOLVER_KERNEL_CACHE). Processes started later with CPSOLVER_KERNEL_CACHE=DIRECTORY
    load them instead of compiling (read-only is fine: it is copied to $TMPDIR first)."""
    directory.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(directory.resolve())}
    env.pop(KERNEL_CACHE_ENV, None)
    start = time.perf_counter()
    # Progress lines of the child (step/total what) go straight to our stderr.
    run = subprocess.run([sys.executable, "-m", "cpsolver.warmup"], env=env, check=False)
    if run.returncode != 0:
        raise click.ClickException(f"compiling failed (exit code {run.returncode})")
    files = [p for p in directory.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in files)
    click.echo(
        f"{len(files)} cached kernel files ({size / 1e6:.1f} MB) in {directory} "
        f"after {time.perf_counter() - start:.1f} s; serve with {KERNEL_CACHE_ENV}={directory}"
    )
