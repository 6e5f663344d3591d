"""The optional parts of the distribution (pyproject's extras) and the check that names a
missing one.

``pip install cpsolver`` is the library and the in-process CLI; ``cpsolver[grpc]`` adds the
remote client and the server (grpcio, protobuf), ``cpsolver[cpsat]`` the OR-Tools engine,
``cpsolver[cluster]`` training and bulk solving on Ray (:mod:`cpsolver.cluster`),
``cpsolver[all]`` every extra. Each entry point of an optional feature calls :func:`require`
before it imports the feature's code, so a missing extra is one
:class:`~cpsolver.errors.MissingExtraError` naming it (one line on the command line), not an
``ImportError`` from deep inside.

>>> EXTRAS["cpsat"]  # what require("cpsat", "the cpsat engine") looks for
('ortools',)
>>> require("gpu", "nothing")
Traceback (most recent call last):
...
ValueError: unknown extra 'gpu'
"""

from __future__ import annotations

import importlib.util

from cpsolver.errors import MissingExtraError

__all__ = ["EXTRAS", "require"]

EXTRAS: dict[str, tuple[str, ...]] = {
    "grpc": (
        "grpc",
        "grpc_health",
        "grpc_reflection",
        "grpc_status",
        "google.protobuf",
        "google.rpc",
    ),
    "cpsat": ("ortools",),
    "cluster": ("ray",),
}
"""Per extra, the modules its distributions provide (pyproject.toml lists the distributions)."""


def require(extra: str, feature: str) -> None:
    """Raise :class:`MissingExtraError` for ``feature`` unless every module of ``extra`` is
    installed. The modules are looked up, not imported (the server checks before it forks)."""
    try:
        modules = EXTRAS[extra]
    except KeyError:
        raise ValueError(f"unknown extra {extra!r}") from None
    for module in modules:
        if not _installed(module):
            raise MissingExtraError(extra, feature, module=module)


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # a parent package (``google``) is missing
        return False
