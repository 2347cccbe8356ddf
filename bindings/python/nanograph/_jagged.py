"""Jagged host tensors: a Shape and its values packed in row-major order, never padded."""
from __future__ import annotations

import ctypes
import weakref
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from ._errors import AxesError, check, check_ptr, raise_last
from ._lib import lib
from ._shape import Shape
from ._tensor import (DType, DTypeLike, Tensor, _lend, _lent, _lent_lock, _release_lent, as_dtype,
                      as_tensor, dtype_from_code)


def _shape_of_rows(rows: Sequence[np.ndarray]) -> Shape:
    """The shape of rows stacked along a new mode 0: mode k+1 has, at every position of mode k,
    the rows' extent k (row splits; the library makes a mode uniform when they all agree)."""
    ndim = {r.ndim for r in rows}
    if len(ndim) > 1:
        raise ValueError("nanograph.Jagged: the rows have different ranks %s" % sorted(ndim))
    r = ndim.pop() if ndim else 1
    modes = []
    for k in range(r):
        # each row has prod(shape[:k]) positions of mode k, each with shape[k] children
        lengths = np.concatenate([np.full(int(np.prod(x.shape[:k])), x.shape[k], np.int64) for x in rows]) \
            if rows else np.zeros(0, np.int64)
        modes.append(np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64))
    return Shape.jagged(len(rows), *modes)


class Jagged:
    """A jagged tensor: rows whose extents differ, stored as one packed array of values.

    `Jagged([np.array([1, 2]), np.array([]), np.array([3, 4, 5])])` has shape (3, [2 0 3]);
    `Jagged.from_row_splits(values, [0, 2, 2, 5])` says the same without copying the values.
    `values` is a NumPy view of the packed values, `row_splits(mode)` the splits of a mode,
    `to_padded()` a dense array and its mask, `tolist()` the rows again.
    """

    __slots__ = ("_h", "_finalizer", "__weakref__")

    def __init__(self, rows: Sequence[Any], dtype: Optional[DTypeLike] = None) -> None:
        dt = None if dtype is None else as_dtype(dtype).numpy
        arrays = [np.asarray(r, dt) for r in rows]
        if dt is None:
            dt = np.result_type(*arrays) if arrays else np.dtype(np.float32)
            if dt == np.float64 and not any(isinstance(r, np.ndarray) for r in rows):
                dt = np.dtype(np.float32)  # Python floats become float32, as in Graph.constant
        arrays = [a.astype(dt, copy=False) for a in arrays]
        shape = _shape_of_rows(arrays)
        values = np.concatenate([a.ravel() for a in arrays]) if arrays else np.zeros(0, dt)
        self._set(_wrap(shape, values))

    def _set(self, handle: int) -> None:
        self._h = handle
        self._finalizer = weakref.finalize(self, lib.jagged_release, handle)

    @classmethod
    def _adopt(cls, handle: int) -> "Jagged":
        j = cls.__new__(cls)
        j._set(check_ptr(handle))
        return j

    @classmethod
    def zeros(cls, shape: Shape, dtype: DTypeLike = "float32") -> "Jagged":
        """A zero-filled jagged tensor of a smooth or jagged shape."""
        return cls._adopt(lib.jagged_create(as_dtype(dtype).code, shape.handle))

    @classmethod
    def from_data(cls, shape: Shape, values: Any, dtype: Optional[DTypeLike] = None, copy: bool = False) -> "Jagged":
        """A jagged tensor of `shape` over packed row-major values: shared with a contiguous,
        aligned NumPy array (which the tensor keeps alive), copied otherwise or with copy=True."""
        arr = np.asarray(values, None if dtype is None else as_dtype(dtype).numpy)
        if arr.size != shape.size:  # the C functions take a bare pointer: the count is checked here
            raise AxesError("nanograph.Jagged: the shape %s has %d elements but %d values were given"
                            % (shape, shape.size, arr.size), AxesError.status)
        if copy or not _packed(arr):
            arr = np.ascontiguousarray(arr).ravel()
            return cls._adopt(lib.jagged_from_data(as_dtype(arr.dtype).code, shape.handle,
                                                   arr.ctypes.data or None))
        return cls._adopt(_wrap(shape, arr.reshape(-1)))

    @classmethod
    def from_row_splits(cls, values: Any, *row_splits: Sequence[int], dtype: Optional[DTypeLike] = None) -> "Jagged":
        """Rows given by row splits over values (outermost splits first, as nested row splits):
        from_row_splits(v, [0, 2, 2, 5]) has rows v[0:2], v[2:2], v[2:5]. Trailing dimensions of
        `values` become uniform modes. The values are shared when they are packed."""
        arr = np.asarray(values, None if dtype is None else as_dtype(dtype).numpy)
        if not row_splits:
            raise ValueError("nanograph.Jagged.from_row_splits: give the row splits of at least one mode")
        first = np.asarray(row_splits[0], np.int64)
        shape = Shape.jagged(max(len(first) - 1, 0), *row_splits, *arr.shape[1:])
        return cls.from_data(shape, arr, dtype)

    @classmethod
    def from_values(cls, shape: Shape, values: Any) -> "Jagged":
        """A jagged tensor over the elements of a rank-1 Tensor (or array): writes through one
        are seen through the other."""
        t = as_tensor(values)
        return cls._adopt(lib.jagged_from_values(shape.handle, t.handle))

    @classmethod
    def from_padded(cls, padded: Any, mask: Any) -> "Jagged":
        """The jagged tensor a padded array and its bool mask describe (the values are copied):
        every row ends after its last True entry."""
        p = as_tensor(np.asarray(padded)) if not isinstance(padded, Tensor) else padded
        m = as_tensor(np.asarray(mask)) if not isinstance(mask, Tensor) else mask
        return cls._adopt(lib.jagged_from_padded(p.handle, m.handle))

    @property
    def handle(self) -> int:
        return self._h

    def __reduce__(self) -> Any:
        """Pickles the shape and a packed copy of the values."""
        return (Jagged.from_data, (self.shape, self.read()))

    def retain(self) -> "Jagged":
        """A second handle to the same jagged tensor (one more reference; closing either leaves
        the other working)."""
        lib.jagged_retain(self._live())
        return Jagged._adopt(self._h)

    def close(self) -> None:
        """Drops this handle's reference (views of the values keep them alive)."""
        self._finalizer()

    def __enter__(self) -> "Jagged":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ---- description -----------------------------------------------------------------------

    @property
    def dtype(self) -> DType:
        code = lib.jagged_dtype(self._live())
        if code == 0:
            raise_last()
        return dtype_from_code(code)

    @property
    def shape(self) -> Shape:
        """The shape (a view's shape carries its origin in the tensor it was cut from)."""
        return Shape._adopt(lib.jagged_shape(self._live()))

    @property
    def ndim(self) -> int:
        return self.shape.ndim

    @property
    def size(self) -> int:
        return self.shape.size

    def __len__(self) -> int:
        return len(self.shape)

    def _live(self) -> int:
        if not self._finalizer.alive:
            from ._errors import ClosedError

            raise ClosedError("nanograph: the jagged tensor is closed")
        return self._h

    # ---- values --------------------------------------------------------------------------------

    def values_tensor(self) -> Tensor:
        """The values as a rank-1 Tensor sharing their memory (DLPack, ng.Tensor methods)."""
        return Tensor._adopt(check_ptr(lib.jagged_values(self._live())))

    @property
    def values(self) -> np.ndarray:
        """The packed values in row-major order: a writable NumPy view of their memory."""
        return self.values_tensor().numpy()

    def row_splits(self, mode: int = 1) -> np.ndarray:
        """The row splits of a mode (>= 1) over the positions of the mode before it."""
        return Tensor._adopt(check_ptr(lib.jagged_row_splits(self._live(), int(mode)))).numpy()

    def position(self, index: Sequence[int]) -> int:
        """Where the element at `index` (one entry per mode) is among the values."""
        arr = (ctypes.c_int64 * max(len(index), 1))(*[int(i) for i in index])
        p = lib.jagged_position(self._live(), arr, len(index))
        if p < 0:
            raise_last()
        return int(p)

    def __getitem__(self, key: Any) -> Any:
        """j[i, j, ...] with one index per mode is an element; fewer indices give a view of the
        slice there, j[a:b] a view of positions a..b-1 of mode 0."""
        if isinstance(key, slice):
            if key.step not in (None, 1):
                raise ValueError("nanograph.Jagged: a slice of a jagged tensor has step 1")
            start, stop, _ = key.indices(len(self))
            return self.slice(start, max(start, stop))
        prefix = key if isinstance(key, tuple) else (key,)
        if len(prefix) == self.ndim:
            return self.values[self.position(prefix)]
        return self.at(prefix)

    def slice(self, start: int, stop: int) -> "Jagged":
        """A view of positions [start, stop) of mode 0."""
        return Jagged._adopt(lib.jagged_slice(self._live(), int(start), int(stop)))

    def at(self, prefix: Sequence[int]) -> "Jagged":
        """A view of the slice at an index prefix (the first len(prefix) indices fixed)."""
        arr = (ctypes.c_int64 * max(len(prefix), 1))(*[int(i) for i in prefix])
        return Jagged._adopt(lib.jagged_at(self._live(), arr, len(prefix)))

    def read(self) -> np.ndarray:
        """A copy of the values, packed in row-major order."""
        out = np.empty(self.size, self.dtype.numpy)
        check(lib.jagged_read(self._live(), out.ctypes.data or None, out.nbytes))
        return out

    def write(self, values: Any) -> None:
        """Copies packed row-major values in (seen by every view of them)."""
        src = np.ascontiguousarray(np.asarray(values, self.dtype.numpy)).ravel()
        check(lib.jagged_write(self._live(), src.ctypes.data or None, src.nbytes))

    def to_padded(self) -> Tuple[np.ndarray, np.ndarray]:
        """A dense array padded with zeros to each mode's largest extent, and the bool mask of
        the elements that exist."""
        padded, mask = ctypes.c_void_p(), ctypes.c_void_p()
        check(lib.jagged_to_padded(self._live(), ctypes.byref(padded), ctypes.byref(mask)))
        return Tensor._adopt(padded.value).numpy(), Tensor._adopt(mask.value).numpy()

    def numpy(self) -> np.ndarray:
        """The values as an array of the shape's extents, for a smooth shape (a view; ValueError
        for a jagged shape: use values, to_padded() or tolist())."""
        s = self.shape
        if s.kind != "smooth":
            raise ValueError("nanograph.Jagged.numpy: the shape %s is jagged; use .values, "
                             ".to_padded() or .tolist()" % (s,))
        return self.values.reshape(s.dims)

    def tolist(self) -> List[Any]:
        """The rows: NumPy arrays where the slices are smooth, lists of rows where not."""
        if self.ndim == 0:
            return self.values[0].item()
        out = []
        for i in range(len(self)):
            row = self.at([i])
            out.append(row.numpy() if row.shape.kind == "smooth" else row.tolist())
        return out

    def __repr__(self) -> str:
        if not self._finalizer.alive:
            return "nanograph.Jagged(<closed>)"
        return "nanograph.Jagged(shape=%s, dtype=%s, values=%s)" % (
            self.shape, self.dtype.name, np.array2string(self.read(), threshold=20))


def _packed(arr: np.ndarray) -> bool:
    return arr.flags.c_contiguous and arr.ctypes.data % max(arr.itemsize, 1) == 0


def _wrap(shape: Shape, values: np.ndarray) -> int:
    """A jagged tensor handle over packed values, which it keeps alive until the library's
    deleter runs."""
    values = values if _packed(values) else np.ascontiguousarray(values)
    key = _lend(values)
    h = lib.jagged_wrap(as_dtype(values.dtype).code, shape.handle, values.ctypes.data or None,
                        _release_lent, key)
    if not h:
        with _lent_lock:
            _lent.pop(key, None)
        raise_last()
    return h
