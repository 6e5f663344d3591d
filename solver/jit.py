"""Compiled kernels that cost nothing until a computation needs one.

``import cpsolver`` stays cheap for a program that only parses cards, evaluates hands or scores
tables: importing numba alone takes 0.2-0.5 s. So the kernel modules decorate with
:func:`njit` from here instead of ``numba.njit``. A decorated function is held in a placeholder
until any kernel is first called (or its numba dispatcher is asked for, :func:`dispatcher`);
then numba is imported, every placeholder gets its numba dispatcher (``numba.njit`` with the
same options, hence the same on-disk cache), and every module global of ``cpsolver`` that held a
placeholder (or :data:`prange`) is rebound to the numba object. From then on Python callers
call numba's dispatchers directly, at no extra cost, and kernels that call kernels resolve them
from their module's globals, as numba does, when they compile. Kernels decorated after that
point go to numba straight away.

A placeholder kept elsewhere (``from module import kernel`` before the first call) keeps
working: calling it forwards to the dispatcher, and numba types it as its dispatcher
(``_numba_type_``), so compiled code may call it too.

>>> @njit(cache=False)
... def twice(x: int) -> int:
...     return 2 * x
>>> twice(21)
42
>>> type(dispatcher(twice)).__name__
'CPUDispatcher'
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

__all__ = ["compile_counts", "dispatcher", "in_cache", "njit", "prange", "signatures"]

_F = TypeVar("_F", bound=Callable[..., Any])

_LOCK = threading.Lock()
_pending: list[_Kernel] = []
_numba: Any = None
"""The numba module, once loaded."""
_dispatchers: list[Any] = []
"""Every numba dispatcher made for a kernel, for :func:`compile_counts`."""


class _Kernel:
    """A kernel not yet handed to numba: the Python function and its ``numba.njit`` options."""

    def __init__(self, func: Callable[..., Any], options: dict[str, Any]) -> None:
        self.__wrapped__ = func
        self.__name__ = func.__name__
        self.__qualname__ = func.__qualname__
        self.__module__ = func.__module__
        self.__doc__ = func.__doc__
        self.options = options
        self.compiled: Any = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return dispatcher(self)(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        # Only numba's own attributes (signatures, compile, _numba_type_...) are forwarded:
        # introspection of dunder names (inspect, doctest, copy) must not load numba.
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(dispatcher(self), name)

    def __repr__(self) -> str:
        return f"<kernel {self.__module__}.{self.__qualname__}, not compiled yet>"


class _Prange:
    """``numba.prange`` before numba is loaded: ``range`` in plain Python."""

    def __call__(self, *args: int) -> range:
        return range(*args)


prange: Callable[..., range] = _Prange()
"""``numba.prange`` for kernels (``for i in prange(n)`` in a ``parallel=True`` kernel)."""


def njit(**options: Any) -> Callable[[_F], _F]:
    """``numba.njit(**options)``, applied when a kernel is first needed (module docstring)."""

    def decorate(func: _F) -> _F:
        with _LOCK:
            if _numba is not None:
                made = _numba.njit(**options)(func)
                _dispatchers.append(made)
                return cast(_F, made)
            kernel = _Kernel(func, options)
            _pending.append(kernel)
            return cast(_F, kernel)

    return decorate


def dispatcher(kernel: Callable[..., Any]) -> Any:
    """The numba dispatcher of ``kernel`` (loading numba first if needed), for what only numba
    offers: ``compile``, ``signatures``..."""
    if isinstance(kernel, _Kernel):
        if kernel.compiled is None:
            _load()
        return kernel.compiled
    return kernel


def compile_counts() -> tuple[int, int]:
    """(signatures compiled, signatures loaded from numba's on-disk cache) by every kernel so
    far, from numba's dispatcher statistics; (0, 0) before numba is loaded. A forked process
    starts with its parent's counts (a worker logs the difference its warm-up made)."""
    compiled = loaded = 0
    with _LOCK:
        made = list(_dispatchers)
    for kernel in made:
        stats = kernel.stats
        compiled += sum(stats.cache_misses.values())
        loaded += sum(stats.cache_hits.values())
    return compiled, loaded


def signatures() -> dict[str, int]:
    """How many signatures each kernel has compiled or loaded from numba's cache in this
    process, by ``module.qualified_name``; empty before numba is loaded. What a warm-up left
    out shows as a kernel whose count grows on a later call (tests/test_warmup.py)."""
    with _LOCK:
        made = list(_dispatchers)
    return {
        f"{kernel.py_func.__module__}.{kernel.py_func.__qualname__}": len(kernel.signatures)
        for kernel in made
    }


def in_cache(kernel: Callable[..., Any]) -> bool:
    """Whether numba's on-disk cache holds ``kernel`` compiled from its current source, asked
    without loading it (so a process that forks may ask about a ``parallel=True`` kernel).
    False when numba's cache layout cannot be read (the caller then compiles)."""
    try:
        index = dispatcher(kernel)._cache._cache_file._load_index()
    except Exception:  # numba internals: no cache, another layout
        return False
    return bool(index)


def _load() -> None:
    global _numba
    with _LOCK:
        if _numba is not None:
            return
        from cpsolver.kernel_cache import configure

        configure()  # numba's cache directory is chosen before numba reads it and caches anything
        import numba
        from numba.core.compiler_lock import global_compiler_lock

        made = {id(k): numba.njit(**k.options)(k.__wrapped__) for k in _pending}
        placeholder = prange  # this module's own global is rebound below
        # numba compiles under this lock: no kernel compiles (and resolves its globals) until
        # every global is rebound.
        with global_compiler_lock:
            for name, module in list(sys.modules.items()):
                if name != "cpsolver" and not name.startswith("cpsolver."):
                    continue
                namespace = vars(module)
                for key, value in list(namespace.items()):
                    if isinstance(value, _Kernel) and id(value) in made:
                        namespace[key] = made[id(value)]
                    elif value is placeholder:
                        namespace[key] = numba.prange
            for kernel in _pending:
                kernel.compiled = made[id(kernel)]
            _dispatchers.extend(made.values())
            _pending.clear()
            _numba = numba
