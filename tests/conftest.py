"""Shared fixtures: all 5-card and 3-card hands of the 52-card deck as index arrays."""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
import pytest


def _combinations(n: int, k: int) -> npt.NDArray[np.int8]:
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(n), k)), dtype=np.int8
    )
    return flat.reshape(-1, k)


@pytest.fixture(scope="session")
def all_five_card_hands() -> npt.NDArray[np.int8]:
    """Every 5-card hand as card indices (index = 4 * (rank - 2) + suit), ascending."""
    return _combinations(52, 5)


@pytest.fixture(scope="session")
def all_three_card_hands() -> npt.NDArray[np.int8]:
    """Every 3-card hand as card indices, ascending."""
    return _combinations(52, 3)
