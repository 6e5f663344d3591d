"""One seed range for every game: a seed is a whole number from 0 to :data:`MAX_SEED`.

A seed names a shuffle or a sample stream (``random.Random(seed)``): a deal (Chinese poker,
Chlust, Three Leaves), the Monte Carlo samples of the advice and the odds, the rollouts of the
``ev`` objective, Three Leaves' random picks. Negative seeds are refused everywhere
(``random.Random`` would silently repeat the absolute value's stream), and every seed field on
the wire is a ``uint64``, so the range is the same in-process, on the command line and over
gRPC.

>>> check_seed(MAX_SEED)
>>> check_seed(-1, "deal.seed")
Traceback (most recent call last):
...
cpsolver.errors.InvalidInputError: deal.seed: must be 0 to 18446744073709551615, got -1
"""

from __future__ import annotations

from cpsolver.errors import Field, InvalidInputError

__all__ = ["MAX_SEED", "check_seed"]

MAX_SEED = 2**64 - 1
"""The largest seed (a ``uint64`` on the wire)."""


def check_seed(seed: int, field: Field = "seed") -> None:
    """Raise :class:`InvalidInputError` naming ``field`` unless ``seed`` is a whole number from
    0 to :data:`MAX_SEED`."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidInputError(field, f"expected a whole number, got {seed!r}")
    if not 0 <= seed <= MAX_SEED:
        raise InvalidInputError(field, f"must be 0 to {MAX_SEED}, got {seed}")
