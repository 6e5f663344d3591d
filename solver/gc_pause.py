"""The cyclic garbage collector paused while a batch builds its answers.

A batch call (``solve_many``, a review) keeps every answer it makes until it returns: a
thousand Solutions are some hundred thousand small objects, all alive. The collector counts
them as they are made and, believing the heap grows, walks the young generations again and
again and the whole heap every few hundred hands, finding nothing to free (the answers hold no
cycles). That walk cost a calibrated ``solve_many`` of 1,024 hands about a third of its time
(docs/BENCHMARKS.md). Paused for the call, the collector runs once afterwards, on the next
allocation, over what the call left.

The pause is the calling thread's only while it holds it: the thread that found the collector
enabled disables it and enables it again when its batch ends, whatever other batches still
run (they then run with the collector on), so overlapping batches in a server never keep it
off for good. A collector the caller had disabled stays disabled.

>>> import gc
>>> with collector_paused():
...     gc.isenabled()
False
>>> gc.isenabled()
True
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Disable the cyclic garbage collector for the ``with`` block if it is enabled, and enable
    it again when the block ends (module doc)."""
    owner = gc.isenabled()
    if owner:
        gc.disable()
    try:
        yield
    finally:
        if owner:
            gc.enable()
