"""Exceptions: one class per status code, all under nanograph.Error, each carrying the library's
message (which names the C function and the offending value)."""
from __future__ import annotations

from typing import Dict, NoReturn, Type

from . import _capi
from ._lib import lib


class Error(Exception):
    """A nanograph call failed. `status` is the C status code, `message` the library's text."""

    status = -1

    def __init__(self, message: str, status: int = -1) -> None:
        super().__init__(message)
        self.message = message
        if status != -1:
            self.status = status

    @property
    def status_name(self) -> str:
        """The C name of the status ("NG_ERR_AXES", ...)."""
        return lib.status_string(self.status).decode()


class InvalidArgumentError(Error, ValueError):
    """A NULL handle, a negative or overflowing size, a bad option (NG_ERR_INVALID_ARGUMENT)."""

    status = _capi.NG_ERR_INVALID_ARGUMENT


class AxesError(Error, ValueError):
    """Axes or shapes that do not match (NG_ERR_AXES)."""

    status = _capi.NG_ERR_AXES


class DTypeError(Error, TypeError):
    """A dtype that is unknown or not allowed here (NG_ERR_DTYPE)."""

    status = _capi.NG_ERR_DTYPE


class OutOfMemoryError(Error, MemoryError):
    """An allocation failed (NG_ERR_OUT_OF_MEMORY)."""

    status = _capi.NG_ERR_OUT_OF_MEMORY


class NotFoundError(Error, LookupError):
    """A name or key that does not exist (NG_ERR_NOT_FOUND)."""

    status = _capi.NG_ERR_NOT_FOUND


class UnsupportedError(Error, NotImplementedError):
    """Valid, but not supported (NG_ERR_UNSUPPORTED)."""

    status = _capi.NG_ERR_UNSUPPORTED


class StateError(Error, RuntimeError):
    """The object is not in a state that allows the call (NG_ERR_STATE)."""

    status = _capi.NG_ERR_STATE


class IOError(Error, OSError):  # noqa: A001 - the status is NG_ERR_IO
    """Reading or writing a file failed (NG_ERR_IO)."""

    status = _capi.NG_ERR_IO


class FormatError(Error, ValueError):
    """Data that does not follow its format (NG_ERR_FORMAT)."""

    status = _capi.NG_ERR_FORMAT


class InternalError(Error, RuntimeError):
    """A bug in nanograph (NG_ERR_INTERNAL): please report it with the message."""

    status = _capi.NG_ERR_INTERNAL


class ClosedError(Error, ValueError):
    """A handle used after close() (raised by the binding; the C library is not called)."""


BY_STATUS: Dict[int, Type[Error]] = {
    cls.status: cls
    for cls in (
        InvalidArgumentError,
        AxesError,
        DTypeError,
        OutOfMemoryError,
        NotFoundError,
        UnsupportedError,
        StateError,
        IOError,
        FormatError,
        InternalError,
    )
}


def raise_last() -> NoReturn:
    """Raises the calling thread's last error. Python threads are OS threads, and ctypes calls run
    on the calling thread, so the thread-local message read here is the failed call's."""
    status = lib.last_status()
    message = (lib.last_error() or b"").decode("utf-8", "replace")
    raise BY_STATUS.get(status, Error)(message or "nanograph: unknown error", status)


def check(status: int) -> None:
    """Raises for a status other than NG_OK."""
    if status != _capi.NG_OK:
        message = (lib.last_error() or b"").decode("utf-8", "replace")
        raise BY_STATUS.get(status, Error)(message, status)


def check_ptr(ptr):
    """Returns a handle, or raises the thread's last error when it is NULL."""
    if not ptr:
        raise_last()
    return ptr
