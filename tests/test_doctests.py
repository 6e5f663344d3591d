"""The docstring examples of every module in the ``cpsolver`` namespace, run as doctests.

pytest's ``--doctest-modules`` would import ``solver/cards.py`` by its file path, as a second
module ``solver.cards`` beside the installed ``cpsolver.cards``; walking the installed namespace
runs each example against the module users import. Only modules that have examples are listed,
so every case here can fail.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import cpsolver

FLAGS = 0  # as pytest ran them: exact output


def _module_names() -> list[str]:
    names = [cpsolver.__name__]
    for info in pkgutil.walk_packages(cpsolver.__path__, prefix="cpsolver."):
        names.append(info.name)
    # Sub-packages mapped from other folders (client/, server/, wire/) are found through their
    # parent's __path__ only in a wheel; walk them explicitly so an editable install sees the
    # same list.
    for package in ("cpsolver.client", "cpsolver.server", "cpsolver.wire"):
        module = importlib.import_module(package)
        names.append(package)
        names.extend(i.name for i in pkgutil.walk_packages(module.__path__, prefix=package + "."))
    return sorted(set(names))


def _with_examples() -> list[str]:
    finder = doctest.DocTestFinder()
    found = []
    for name in _module_names():
        if name.startswith("cpsolver.v1"):
            continue  # generated code
        module = importlib.import_module(name)
        if any(test.examples for test in finder.find(module, name)):
            found.append(name)
    return found


MODULES = _with_examples()


def test_the_walk_finds_the_documented_modules() -> None:
    """The walk reaches the library, the client and the server (a walk that finds nothing would
    pass every doctest vacuously)."""
    assert {"cpsolver", "cpsolver.cards", "cpsolver.client"} <= set(MODULES)
    assert len(MODULES) >= 20


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, attempted = doctest.testmod(module, optionflags=FLAGS, verbose=False, report=True)
    assert attempted > 0
    assert failures == 0, f"{failures} of {attempted} examples in {name} failed (output above)"
