"""The client's deprecated call forms, kept for one release (docs/API.md "One vocabulary").

Until this release the client's ``deal`` and ``chlust_deal`` took the players first and the seed
by name (``deal(players, *, seed)``, ``chlust_deal(players, rules, *, seed)``); now, as in the
library, the seed comes first (``deal(seed, *, players)``, ``chlust_deal(seed, rules, *,
players)``). An old call names the seed and passes the players positionally, so it is told
apart without guessing; it warns and answers as before.
"""

from __future__ import annotations

import warnings
from typing import Any

__all__ = ["seed_first"]


def seed_first(
    method: str, first: Any, keywords: dict[str, Any], players: int | None
) -> tuple[int, int | None]:
    """(seed, players) of a call whose first positional argument is ``first`` and whose
    ``seed=`` (if any) is in ``keywords`` (taken out of it). Warns for the old order."""
    named = keywords.pop("seed", None)
    if named is not None and first is not None:
        warnings.warn(
            f"{method}(players, ..., *, seed) is deprecated: the seed comes first, "
            f"{method}(seed, ..., players=...)",
            DeprecationWarning,
            stacklevel=3,
        )
        if players is not None:
            raise TypeError(f"{method}(): players given twice")
        return named, first
    seed = first if named is None else named
    if seed is None:
        raise TypeError(f"{method}() missing the seed")
    return seed, players
