"""Where the compiled search kernels are cached: ``CPSOLVER_KERNEL_CACHE``, read-only is fine.

The kernels are numba functions compiled on first use (20-30 s on this project's 2-core
machine) and cached on disk (``cache=True``), by default in ``__pycache__`` beside the installed
code. A container image carries the cache instead: ``cpsolver compile DIR`` fills ``DIR`` at
build time and ``CPSOLVER_KERNEL_CACHE=DIR`` points every later process at it, so a server is
ready in seconds. numba only uses a cache directory it can write to (it checks by creating a
file), and an image's root filesystem is read-only in production, so a read-only ``DIR`` is
copied once to a private temporary directory (``$TMPDIR``, an ``emptyDir`` in Kubernetes) and
used from there; the copy is made before any kernel is defined and inherited by the server's
forked workers through ``NUMBA_CACHE_DIR``.

:mod:`cpsolver.jit` calls :func:`configure` right before it imports numba (the first time a
kernel is needed), so the directory is chosen before numba defines any kernel; a server's
supervisor calls it before forking, so its workers share one copy. An explicit
``NUMBA_CACHE_DIR`` wins (it is numba's own setting).
"""

from __future__ import annotations

import atexit
import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path

__all__ = ["KERNEL_CACHE_ENV", "configure"]

KERNEL_CACHE_ENV = "CPSOLVER_KERNEL_CACHE"

log = logging.getLogger("cpsolver.kernel_cache")


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return False
    return True


def _make_writable(root: Path) -> None:
    for folder, _, files in os.walk(root):
        os.chmod(folder, 0o700)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o600)


def _remove_copy(path: Path, owner: int) -> None:
    """Remove the private copy when the process that made it exits (not its forked workers,
    which inherit the handler)."""
    if os.getpid() == owner:
        shutil.rmtree(path, ignore_errors=True)


def configure() -> Path | None:
    """Point numba at the kernel cache named by ``CPSOLVER_KERNEL_CACHE`` (idempotent); return
    the directory numba caches in, or None for numba's default (``__pycache__``).

    A writable directory is used as it is; a read-only one is copied to a private temporary
    directory first. Raises :class:`RuntimeError` when neither can be written (numba could not
    cache a kernel at all).
    """
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return Path(chosen)
    baked = os.environ.get(KERNEL_CACHE_ENV)
    if not baked:
        return None
    source = Path(baked)
    target = source
    if not _writable(source):
        try:
            target = Path(tempfile.mkdtemp(prefix="cpsolver-kernels-"))
            atexit.register(_remove_copy, target, os.getpid())
            if source.is_dir():
                shutil.copytree(source, target, dirs_exist_ok=True)
                _make_writable(target)  # copytree keeps the read-only modes; numba must write
        except OSError as exc:
            raise RuntimeError(
                f"{KERNEL_CACHE_ENV}={baked} is read-only and no temporary directory can be "
                f"written to copy it to ({exc}); mount a writable /tmp or set TMPDIR"
            ) from exc
        log.info("kernel cache %s is read-only: using a copy in %s", source, target)
    os.environ["NUMBA_CACHE_DIR"] = str(target)  # read by numba at import; inherited by forks
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:  # numba was imported before us: set its setting directly
        numba_config.CACHE_DIR = str(target)  # type: ignore[attr-defined]
    return target
