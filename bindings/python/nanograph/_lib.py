"""Finding and loading libnanograph, and calling it through its function table.

The library is searched, in order: the file named by the NANOGRAPH_LIBRARY environment variable;
a libnanograph.so* next to this package (the one `pip install` builds and bundles); one installed
under the Python environment's own prefix (`cmake --install build/release --prefix "$VIRTUAL_ENV"`);
the system loader (LD_LIBRARY_PATH, ldconfig's cache: /usr/local/lib after `sudo ldconfig`).
Every function is called through a ctypes prototype built from the generated declarations in
_capi.py, so no call can go out with a wrong return or argument type.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import pathlib
import sys
from typing import Any, Callable, Dict, Optional

from . import _capi

#: The version of the function table this binding was written against.
API_VERSION = getattr(_capi, "NG_API_VERSION", None)


class LibraryNotFoundError(ImportError):
    """libnanograph could not be found or loaded, or it is too old for this binding."""


def _candidates() -> list:
    found = []
    env = os.environ.get("NANOGRAPH_LIBRARY")
    if env:
        return [env]  # an explicit choice is never second-guessed
    here = pathlib.Path(__file__).resolve().parent
    found += sorted(str(p) for p in here.glob("libnanograph.so*"))
    found += sorted(str(p) for p in here.glob("libnanograph*.dylib"))
    soname = "libnanograph.so.%d" % _capi.NG_VERSION_MAJOR
    prefix = pathlib.Path(sys.prefix) / "lib"
    if (prefix / soname).exists():
        found.append(str(prefix / soname))
    system = ctypes.util.find_library("nanograph")
    if system:
        found.append(system)
    found.append(soname)
    return found


def _load() -> ctypes.CDLL:
    errors = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path)
        except OSError as exc:
            errors.append("%s: %s" % (path, exc))
    raise LibraryNotFoundError(
        "nanograph: cannot load libnanograph (`pip install bindings/python` bundles it; or set "
        "NANOGRAPH_LIBRARY to its path, or LD_LIBRARY_PATH to its directory); tried "
        + "; ".join(errors)
    )


class Library:
    """The loaded library: one attribute per C function, named without its `ng_` prefix."""

    def __init__(self, dll: ctypes.CDLL) -> None:
        self.dll = dll
        self.path = getattr(dll, "_name", "?")
        self.table: Optional[ctypes.Structure] = None
        funcs: Dict[str, Callable[..., Any]] = {}
        if _capi.API_TABLE is not None:
            self.table = self._table(dll)
            for name, _ in _capi.API_TABLE:
                funcs[name] = getattr(self.table, name)
        else:  # headers without a function table: the exported symbols, typed alike
            for name, (restype, argtypes) in _capi.FUNCTIONS.items():
                try:
                    f = getattr(dll, "ng_" + name)
                except AttributeError:
                    continue
                f.restype, f.argtypes = restype, argtypes
                funcs[name] = f
        self.__dict__.update(funcs)
        self.names = frozenset(funcs)

    @staticmethod
    def _table(dll: ctypes.CDLL) -> ctypes.Structure:
        class Table(ctypes.Structure):
            _fields_ = _capi.API_TABLE

        try:
            get_api = dll.ng_get_api
        except AttributeError:
            raise LibraryNotFoundError(
                "nanograph: %s has no ng_get_api: the library is older than this binding"
                % getattr(dll, "_name", "?")
            ) from None
        get_api.restype, get_api.argtypes = ctypes.c_void_p, (ctypes.c_uint32,)
        ptr = get_api(API_VERSION)
        if not ptr:
            last_error = dll.ng_last_error
            last_error.restype, last_error.argtypes = ctypes.c_char_p, ()
            raise LibraryNotFoundError(
                "nanograph: the library does not serve function table version %d: %s"
                % (API_VERSION, (last_error() or b"").decode())
            )
        return ctypes.cast(ptr, ctypes.POINTER(Table)).contents


lib = Library(_load())
