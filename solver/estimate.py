"""Estimates with a 95% interval, shared by the Chlust and Three Leaves advice.

Every probability or mean an advice function reports is an :class:`Estimate`: its value, the
low and high ends of its 95% interval and whether it is exact (then ``low == high == value``).
Their ``to_dict`` is the one JSON shape ``{"value", "low", "high", "exact"}`` of both games
(``estimate`` in ``docs/schemas/games-common.schema.json``).

>>> Estimate.point(0.25).to_dict()
{'value': 0.25, 'low': 0.25, 'high': 0.25, 'exact': True}
>>> Estimate.around(1.5, 0.25).to_dict()
{'value': 1.5, 'low': 1.25, 'high': 1.75, 'exact': False}
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Z95", "Estimate", "wilson_interval"]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """A probability or mean with its 95% interval (``low == high == value`` when exact)."""

    value: float
    low: float
    high: float
    exact: bool

    @classmethod
    def point(cls, value: float) -> Estimate:
        """An exact value: its interval is the point itself."""
        return cls(value, value, value, True)

    @classmethod
    def around(cls, value: float, half_width: float) -> Estimate:
        """A sampled value with the symmetric interval ``value -/+ half_width``."""
        return cls(value, value - half_width, value + half_width, False)

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values."""
        return {"value": self.value, "low": self.low, "high": self.high, "exact": self.exact}


def wilson_interval(successes: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion; it always holds ``successes / n`` (its
    ends are pinned to 0 and 1 when no or every trial succeeded).

    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    >>> wilson_interval(0, 10)[0], wilson_interval(10, 10)[1]
    (0.0, 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)
