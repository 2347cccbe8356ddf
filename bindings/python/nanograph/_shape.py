"""Shapes as values — smooth, jagged (rows of different lengths, never padded) and nested — and
iteration over their indices."""
from __future__ import annotations

import ctypes
import weakref
from typing import Any, Iterator, List, Sequence, Tuple, Union

import numpy as np

from . import _capi
from ._errors import check, check_ptr, raise_last
from ._lib import lib

_KINDS = {_capi.NG_SHAPE_SMOOTH: "smooth", _capi.NG_SHAPE_JAGGED: "jagged", _capi.NG_SHAPE_NESTED: "nested"}

#: A mode of Shape.jagged: a uniform extent (int) or row splits (a sequence of ints).
Mode = Union[int, Sequence[int], np.ndarray]


def _int64s(values: Sequence[int]):
    values = [int(v) for v in values]
    return (ctypes.c_int64 * max(len(values), 1))(*values), len(values)


def _int(value: int) -> int:
    """The result of an accessor that returns -1 on failure."""
    if value < 0:
        raise_last()
    return int(value)


class Shape:
    """Which indices exist: a smooth shape (a hyper-rectangle), a jagged one (slices along a mode
    whose extents differ, given by row splits) or a nested one (elements that are shapes).

    Shapes are immutable and compare with ==. `Shape([2, 3])` is smooth; `Shape.jagged(3,
    [0, 2, 2, 5])` has three rows of lengths 2, 0 and 3; `Shape.from_row_lengths([2, 0, 3])`
    says the same. Iterating gives the indices in row-major order (the order of a jagged
    tensor's values) as tuples.
    """

    __slots__ = ("_h", "_finalizer", "__weakref__")

    def __init__(self, extents: Sequence[int] = ()) -> None:
        arr, n = _int64s(extents)
        self._set(check_ptr(lib.shape_smooth(arr, n)))

    def _set(self, handle: int) -> None:
        self._h = handle
        self._finalizer = weakref.finalize(self, lib.shape_release, handle)

    @classmethod
    def _adopt(cls, handle: int) -> "Shape":
        s = cls.__new__(cls)
        s._set(check_ptr(handle))
        return s

    @classmethod
    def jagged(cls, outer: int, *modes: Mode) -> "Shape":
        """A shape whose mode 0 has extent `outer` and whose later modes are each a uniform
        extent (an int) or row splits over the positions of the mode before (a sequence starting
        at 0, never decreasing, one entry more than that mode has positions)."""
        rank = 1 + len(modes)
        splits = (ctypes.POINTER(ctypes.c_int64) * max(rank - 1, 1))()
        counts = (ctypes.c_int64 * max(rank - 1, 1))()
        extents = (ctypes.c_int64 * max(rank - 1, 1))()
        keep = []
        for k, m in enumerate(modes):
            if isinstance(m, (int, np.integer)):
                extents[k] = int(m)
            else:
                arr = np.ascontiguousarray(m, np.int64)
                if arr.ndim != 1:
                    raise ValueError("nanograph.Shape.jagged: row splits must be one-dimensional")
                keep.append(arr)
                splits[k] = arr.ctypes.data_as(ctypes.POINTER(ctypes.c_int64)) if arr.size else _EMPTY
                counts[k] = arr.size
        return cls._adopt(lib.shape_jagged(int(outer), rank, splits, counts, extents))

    @classmethod
    def from_row_lengths(cls, lengths: Sequence[int], *inner: int) -> "Shape":
        """Rows of the given lengths, each element of which has the uniform extents `inner`:
        from_row_lengths([2, 0, 3]) is Shape.jagged(3, [0, 2, 2, 5])."""
        lengths = np.asarray(lengths, np.int64)
        splits = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        return cls.jagged(len(lengths), splits, *inner)

    @classmethod
    def nested(cls, outer: "Shape", elements: Sequence["Shape"]) -> "Shape":
        """A shape whose elements are shapes (all of one rank), in `outer`'s row-major order."""
        elements = list(elements)
        arr = (ctypes.c_void_p * max(len(elements), 1))(*[e.handle for e in elements])
        return cls._adopt(lib.shape_nested(outer.handle, arr, len(elements)))

    @property
    def handle(self) -> int:
        return self._h

    def __copy__(self) -> "Shape":
        """Another Shape object for the same (immutable) shape: one more reference to it."""
        lib.shape_retain(self._h)
        return Shape._adopt(self._h)

    def __deepcopy__(self, memo: Any) -> "Shape":
        return self.__copy__()

    def __reduce__(self) -> Any:
        """Pickles the shape by its structure (an origin is not kept, as == does not compare it)."""
        kind = self.kind
        if kind == "nested":
            return (Shape.nested, (self.outer, self.elements))
        if self.ndim == 0:
            return (Shape, ((),))
        return (Shape.jagged, (self.extent(), *[self.row_splits(m).tolist() for m in range(1, self.ndim)]))

    # ---- what a shape is -------------------------------------------------------------------

    @property
    def kind(self) -> str:
        """"smooth", "jagged" or "nested"."""
        return _KINDS[_int(lib.shape_kind(self._h))]

    @property
    def ndim(self) -> int:
        """The number of modes (for a nested shape: the outer rank plus its elements')."""
        return _int(lib.shape_rank(self._h))

    rank = ndim

    @property
    def size(self) -> int:
        """The number of indices (1 for rank 0)."""
        return _int(lib.shape_numel(self._h))

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("len() of a rank-0 shape")
        return self.extent()

    def extent(self, prefix: Sequence[int] = ()) -> int:
        """The extent of mode len(prefix) in the slice at that index prefix: extent() is mode 0's,
        extent([1]) the length of row 1."""
        arr, n = _int64s(prefix)
        return _int(lib.shape_extent(self._h, arr, n))

    def is_jagged(self, mode: int) -> bool:
        """Whether a mode's extent depends on the indices before it."""
        return bool(_int(lib.shape_mode_is_jagged(self._h, int(mode))))

    @property
    def smooth_rank(self) -> int:
        """The rank of the largest smooth slices (the rank itself for a smooth shape): fixing the
        first ndim - smooth_rank indices always leaves a hyper-rectangle."""
        return _int(lib.shape_smooth_rank(self._h))

    @property
    def dims(self) -> Tuple[int, ...]:
        """The extents of a smooth shape, like a NumPy shape (ValueError for another kind)."""
        if self.kind != "smooth":
            raise ValueError("nanograph.Shape.dims: the shape %s is %s, not smooth" % (self, self.kind))
        if self.size == 0:
            # no index exists to ask an extent at: the description lists the extents
            return tuple(int(e) for e in str(self).strip("()").split(",") if e.strip())
        return tuple(self.extent([0] * k) for k in range(self.ndim))

    def row_splits(self, mode: int) -> np.ndarray:
        """The row splits of mode `mode` (>= 1) over the positions of the mode before it."""
        n = _int(lib.shape_row_splits(self._h, int(mode), None, 0))
        out = np.empty(n, np.int64)
        _int(lib.shape_row_splits(self._h, int(mode), out.ctypes.data_as(ctypes.POINTER(ctypes.c_int64)), n))
        return out

    def row_lengths(self, mode: int = 1) -> np.ndarray:
        """The extents of mode `mode` at each position of the mode before it."""
        return np.diff(self.row_splits(mode))

    @property
    def origin(self) -> Tuple[int, ...]:
        """Where this shape's index (0, ..., 0) is in the shape it was cut from (its root)."""
        n = _int(lib.shape_origin(self._h, None, 0))
        out = (ctypes.c_int64 * max(n, 1))()
        _int(lib.shape_origin(self._h, out, n))
        return tuple(out[:n])

    # ---- comparing, combining, cutting -------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Shape):
            return NotImplemented
        return bool(_int(lib.shape_equal(self._h, other._h)))

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None  # type: ignore[assignment]  # equal shapes need not be the same object

    def broadcast(self, other: "Shape") -> "Shape":
        """The shape of an elementwise op's result on operands of these shapes."""
        return Shape._adopt(lib.shape_broadcast(self._h, other.handle))

    def flatten(self) -> "Shape":
        """A nested shape as one smooth or jagged shape (outer modes first); a copy otherwise."""
        return Shape._adopt(lib.shape_flatten(self._h))

    @property
    def outer(self) -> "Shape":
        """The outer shape of a nested shape."""
        return Shape._adopt(lib.shape_outer(self._h))

    def element(self, i: int) -> "Shape":
        """Element i of a nested shape, in its outer shape's row-major order."""
        return Shape._adopt(lib.shape_element(self._h, int(i)))

    @property
    def elements(self) -> List["Shape"]:
        """Every element of a nested shape."""
        return [self.element(i) for i in range(self.outer.size)]

    def slice(self, start: int, stop: int) -> "Shape":
        """Positions [start, stop) of mode 0, every mode kept; its origin is start."""
        return Shape._adopt(lib.shape_slice(self._h, int(start), int(stop)))

    def at(self, prefix: Sequence[int]) -> "Shape":
        """The slice at a fixed index prefix (the remaining modes); its origin is the prefix."""
        arr, n = _int64s(prefix)
        return Shape._adopt(lib.shape_at(self._h, arr, n))

    def __getitem__(self, key: Any) -> "Shape":
        """s[i] and s[i, j] fix indices (at), s[a:b] keeps positions a..b-1 of mode 0 (slice)."""
        if isinstance(key, slice):
            if key.step not in (None, 1):
                raise ValueError("nanograph.Shape: a slice of a shape has step 1")
            start, stop, _ = key.indices(self.extent())
            return self.slice(start, max(start, stop))
        prefix = key if isinstance(key, tuple) else (key,)
        return self.at(prefix)

    # ---- indices -----------------------------------------------------------------------------

    def indices(self, absolute: bool = False) -> "ShapeIndices":
        """An iterator over the indices in row-major order: tuples of ndim offsets from zero, or
        with absolute=True the origin added (one entry per mode of the root shape)."""
        return ShapeIndices(self, absolute)

    def __iter__(self) -> Iterator[Tuple[int, ...]]:
        return iter(self.indices())

    def __str__(self) -> str:
        n = lib.shape_text(self._h, None, 0)
        if n < 0:
            raise_last()
        buf = ctypes.create_string_buffer(n + 1)
        _int(lib.shape_text(self._h, buf, n + 1))
        return buf.value.decode()

    def __repr__(self) -> str:
        return "nanograph.Shape%s" % (self,) if self.kind != "nested" else "nanograph.Shape(%s)" % (self,)


_EMPTY = (ctypes.c_int64 * 1)()  # a valid pointer for an empty splits array


class ShapeIndices:
    """The indices of a shape in row-major order, as tuples; `reset()` starts again."""

    __slots__ = ("_h", "_finalizer", "_buf", "_n", "shape", "__weakref__")

    def __init__(self, shape: Shape, absolute: bool = False) -> None:
        mode = _capi.NG_INDEX_ABSOLUTE if absolute else _capi.NG_INDEX_RELATIVE
        self._h = check_ptr(lib.shape_iter_create(shape.handle, mode))
        self._finalizer = weakref.finalize(self, lib.shape_iter_destroy, self._h)
        self._n = _int(lib.shape_iter_index_length(self._h))
        self._buf = (ctypes.c_int64 * max(self._n, 1))()
        self.shape = shape

    @property
    def index_length(self) -> int:
        """The number of entries of each index."""
        return self._n

    def close(self) -> None:
        self._finalizer()

    def reset(self) -> None:
        """Starts again from the first index."""
        check(lib.shape_iter_reset(self._handle()))

    def _handle(self) -> int:
        if not self._finalizer.alive:
            from ._errors import ClosedError

            raise ClosedError("nanograph: the index iterator is closed")
        return self._h

    def __iter__(self) -> "ShapeIndices":
        return self

    def __next__(self) -> Tuple[int, ...]:
        r = lib.shape_iter_next(self._handle(), self._buf, max(self._n, 1))
        if r == 1:
            return tuple(self._buf[: self._n])
        if r == 0:
            raise StopIteration
        raise_last()


def broadcast_shapes(a: Shape, b: Shape) -> Shape:
    """The shape of an elementwise op's result on operands of shapes a and b."""
    return a.broadcast(b)

