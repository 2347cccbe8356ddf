"""The library's allocator for large blocks (tensors, arenas, persistent values), from C functions.

Python functions are refused on purpose. The library calls an allocator from its worker threads,
concurrently, for every tensor and arena, and frees a block through the allocator that made it —
possibly after the interpreter has shut down (a tensor released by a library thread or at process
exit), when calling into Python crashes. A Python callback would also take the GIL on every
allocation of every kernel thread. C functions (from a shared library loaded with ctypes) have
none of these problems, so this binding installs those and keeps them referenced for the rest of
the process, as the library requires of an allocator that has made memory.
"""
from __future__ import annotations

import ctypes
from typing import Any, List, Optional

from . import _capi
from ._errors import check
from ._lib import lib

_ALLOCATE = dict(_capi.ng_allocator_t._fields_)["allocate"]
_DEALLOCATE = dict(_capi.ng_allocator_t._fields_)["deallocate"]
_installed: List[Any] = []  # never dropped: memory made by an allocator is freed through it


def _c_function(f: Any, proto: Any, what: str) -> Any:
    if isinstance(f, ctypes._CFuncPtr):  # type: ignore[attr-defined]
        if isinstance(getattr(f, "_objects", None), dict) and any(
                type(o).__name__ == "CThunkObject" for o in f._objects.values()):
            raise TypeError(
                "nanograph: the allocator's %s is a Python function; the library calls its allocator "
                "from worker threads and possibly after the interpreter has shut down, so give a C "
                "function (an attribute of a ctypes.CDLL, or its address)" % what)
        address = ctypes.cast(f, ctypes.c_void_p).value
    elif isinstance(f, int) and not isinstance(f, bool):
        address = f
    else:
        raise TypeError("nanograph: the allocator's %s must be a C function pointer (a ctypes.CDLL "
                        "attribute) or an address, got %r" % (what, type(f).__name__))
    if not address:
        raise ValueError("nanograph: the allocator's %s is NULL" % what)
    return proto(address)


def allocator(allocate: Any, deallocate: Any, ctx: Optional[int]) -> Any:
    """An ng_allocator_t of C functions (Python functions refused), kept referenced for the rest of
    the process: memory an allocator made is freed through it, however late."""
    if allocate is None or deallocate is None:
        raise ValueError("nanograph: give both allocate and deallocate (or neither)")
    a = _capi.ng_allocator_t()
    a.struct_size = ctypes.sizeof(a)
    a.allocate = _c_function(allocate, _ALLOCATE, "allocate")
    a.deallocate = _c_function(deallocate, _DEALLOCATE, "deallocate")
    a.ctx = ctx
    _installed.append((allocate, deallocate, a))
    return a


def set_allocator(allocate: Any = None, deallocate: Any = None, ctx: Optional[int] = None) -> None:
    """Installs C functions as the library's allocator for large blocks, process-wide:
    `void *allocate(size_t bytes, size_t alignment, void *ctx)` and
    `void deallocate(void *p, size_t bytes, size_t alignment, void *ctx)`, given as attributes of
    a ctypes.CDLL (or addresses), with `ctx` an address passed to both. set_allocator() with no
    arguments restores the default (posix_memalign and free).

    Memory made before stays with the allocator that made it; the binding keeps every installed
    function referenced for the rest of the process. Python functions raise TypeError (see the
    module's description for why)."""
    if allocate is None and deallocate is None:
        check(lib.set_allocator(None))
        return
    check(lib.set_allocator(ctypes.byref(allocator(allocate, deallocate, ctx))))
