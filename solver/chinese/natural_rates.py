"""How often an opponent holds each natural of a rule set's list (CP-15): the natural rates
of the ``ev`` objective under a list of its own.

The trained tables store the rates of CP-11's four, as self-play declares them. A rule set
with its own list (``shisanshui``, ``maubinh``, a rule file's ``[[naturals]]``) takes its
rates from here: :data:`SAMPLE` seeded random hands, each reduced to the bit mask of the
vocabulary's naturals it makes (:func:`cpsolver.chinese.ev_kernel.natural_mask`), stored as a
histogram of masks (``solver/data/chinese-natural-masks.json``, written by ``python -m
cpsolver.chinese.natural_rates``; tests/test_natural_rates.py checks it against a fresh count
and the dragon's exact rate). A list's rate of code ``k`` is the share of hands whose first
listed natural is entry ``k``: an opponent declares any natural it holds (exactly ``declare=
auto``; under ``choice`` a hand whose rows are worth more than a 3-unit natural would keep
its rows, which these rates do not see: docs/EV.md). Naturals rarer than one in a million
(the clean dragon, twelve royals, three quads) do not occur in the sample: their rate is 0.

>>> from cpsolver.rules.chinese import ChineseRules
>>> rates = natural_rates(ChineseRules.preset("shisanshui"))
>>> len(rates), round(float(rates.sum()), 12), 0.001 < float(rates[12]) < 0.02  # six pairs
(15, 1.0, True)
"""

from __future__ import annotations

import argparse
import json
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cpsolver.chinese import ev_kernel as K
from cpsolver.errors import CpsolverError
from cpsolver.rules.chinese import ChineseRules, NaturalName

__all__ = [
    "FILE",
    "SAMPLE",
    "SEED",
    "clear_cache",
    "count_masks",
    "mask_counts",
    "natural_rates",
]

SAMPLE = 1_000_000
"""Hands in the shipped histogram."""
SEED = 2028
"""Seed of its hands (chunks of 100,000 from ``SeedSequence((SEED, chunk))``)."""
FILE = Path(__file__).resolve().parent.parent / "data" / "chinese-natural-masks.json"
FORMAT = "cpsolver-chinese-natural-masks"
_CHUNK = 100_000


def count_masks(size: int = SAMPLE, seed: int = SEED) -> dict[int, int]:
    """The histogram ``{mask: hands}`` of ``size`` seeded random hands (module doc)."""
    counts: dict[int, int] = {}
    for chunk, start in enumerate(range(0, size, _CHUNK)):
        n = min(_CHUNK, size - start)
        rng = np.random.default_rng(np.random.SeedSequence((seed, chunk)))
        hands = np.sort(np.argsort(rng.random((n, 52)), axis=1)[:, :13], axis=1).astype(np.int8)
        every = np.arange(len(NaturalName), dtype=np.int64)
        masks = np.zeros(n, dtype=np.int64)
        for bit in every:  # natural_codes over one-entry lists gives each bit of the mask
            masks |= (K.natural_codes(hands, every[bit : bit + 1]) > 0).astype(np.int64) << bit
        values, found = np.unique(masks, return_counts=True)
        for mask, count in zip(values.tolist(), found.tolist(), strict=True):
            counts[mask] = counts.get(mask, 0) + count
    return counts


@cache
def mask_counts() -> tuple[int, tuple[tuple[int, int], ...]]:
    """The shipped histogram: ``(hands, ((mask, hands), ...))``."""
    try:
        data = json.loads(FILE.read_text(encoding="utf-8"))
        size = int(data["size"])
        counts = tuple((int(m), int(c)) for m, c in data["counts"].items())
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CpsolverError(f"{FILE}: not a readable natural-mask histogram ({exc})") from exc
    if data.get("format") != FORMAT or sum(c for _, c in counts) != size:
        raise CpsolverError(f"{FILE}: not a {FORMAT} file, or its counts do not add up")
    return size, counts


def clear_cache() -> None:
    """Forget the histogram and the rates made from it (the next use reads the file again)."""
    mask_counts.cache_clear()
    _rates.cache_clear()


def natural_rates(rules: ChineseRules) -> npt.NDArray[np.float64]:
    """``rates[code]`` under ``rules``' list of naturals (index 0: none; module doc)."""
    return _rates(rules.natural_list)


@cache
def _rates(listed: tuple[tuple[NaturalName, int], ...]) -> npt.NDArray[np.float64]:
    size, counts = mask_counts()
    vocabulary = list(NaturalName)
    bits = [vocabulary.index(name) for name, _ in listed]
    rates = np.zeros(len(listed) + 1)
    for mask, count in counts:
        code = next((i + 1 for i, bit in enumerate(bits) if mask >> bit & 1), 0)
        rates[code] += count
    rates /= size
    rates.setflags(write=False)
    return rates


def main(argv: list[str] | None = None) -> int:
    """``python -m cpsolver.chinese.natural_rates [--size N]``: write the shipped histogram."""
    parser = argparse.ArgumentParser(description="Count the naturals of seeded random hands.")
    parser.add_argument("--size", type=int, default=SAMPLE)
    parser.add_argument("--out", type=Path, default=FILE)
    args = parser.parse_args(argv)
    counts = count_masks(args.size)
    data = {
        "format": FORMAT,
        "seed": SEED,
        "size": args.size,
        "bits": [n.value for n in NaturalName],
        "counts": {str(m): counts[m] for m in sorted(counts)},
    }
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{args.out}: {len(counts)} masks over {args.size:,} hands")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
