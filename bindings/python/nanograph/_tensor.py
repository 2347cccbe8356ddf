"""Dtypes and host tensors, and zero-copy exchange with NumPy, PyTorch and any DLPack producer."""
from __future__ import annotations

import ctypes
import threading
from typing import Any, Dict, Optional, Sequence, Tuple, Union

import numpy as np

from . import _capi
from ._errors import check, check_ptr
from ._lib import lib


class DType:
    """An element type: nanograph.bool_, int32, int64, uint8, float32, float64."""

    def __init__(self, code: int, numpy: Any) -> None:
        self.code, self.numpy = code, np.dtype(numpy)
        self.typestr = self.numpy.str  # the array interface's name for it
        self.name = lib.dtype_name(code).decode()

    @property
    def itemsize(self) -> int:
        return int(lib.dtype_size(self.code))

    def __repr__(self) -> str:
        return "nanograph." + self.name

    def __eq__(self, other: object) -> bool:
        try:
            return as_dtype(other).code == self.code  # type: ignore[arg-type]
        except TypeError:
            return NotImplemented

    def __hash__(self) -> int:
        return self.code


bool_ = DType(_capi.NG_BOOL, np.bool_)
int32 = DType(_capi.NG_INT32, np.int32)
int64 = DType(_capi.NG_INT64, np.int64)
uint8 = DType(_capi.NG_UINT8, np.uint8)
float32 = DType(_capi.NG_FLOAT32, np.float32)
float64 = DType(_capi.NG_FLOAT64, np.float64)
_BY_CODE = {d.code: d for d in (bool_, int32, int64, uint8, float32, float64)}
_BY_NUMPY = {d.numpy: d for d in _BY_CODE.values()}

DTypeLike = Union[DType, str, type, np.dtype]


def as_dtype(d: Any) -> DType:
    """A DType from a DType, a NumPy dtype or scalar type, a name or a code."""
    if isinstance(d, DType):
        return d
    if isinstance(d, int) and not isinstance(d, bool) and d in _BY_CODE:
        return _BY_CODE[d]
    if d is bool:
        return bool_
    try:
        return _BY_NUMPY[np.dtype(d)]
    except (TypeError, KeyError):
        raise TypeError("nanograph: no dtype for %r" % (d,)) from None


def dtype_from_code(code: int) -> DType:
    return _BY_CODE[code]


# ---- DLPack (0.6, the version NumPy and PyTorch exchange through "dltensor" capsules) ---------


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", _DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", _DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class _DLManagedTensor(ctypes.Structure):
    pass


_DLDeleter = ctypes.CFUNCTYPE(None, ctypes.POINTER(_DLManagedTensor))
_DLManagedTensor._fields_ = [
    ("dl_tensor", _DLTensor),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", _DLDeleter),
]

_K_DL_CPU = 1
_py = ctypes.pythonapi
_py.PyCapsule_New.restype = ctypes.py_object
_py.PyCapsule_New.argtypes = (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)
_py.PyCapsule_IsValid.restype = ctypes.c_int
_py.PyCapsule_GetPointer.restype = ctypes.c_void_p
_py.PyCapsule_SetName.restype = ctypes.c_int
_py.PyCapsule_IsValid.argtypes = (ctypes.c_void_p, ctypes.c_char_p)
_py.PyCapsule_GetPointer.argtypes = (ctypes.c_void_p, ctypes.c_char_p)
_py.PyCapsule_SetName.argtypes = (ctypes.c_void_p, ctypes.c_char_p)


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _capsule_destructor(capsule: int) -> None:
    # A capsule nobody consumed still owns its DLManagedTensor (the DLPack protocol's rule).
    if _py.PyCapsule_IsValid(capsule, b"dltensor"):
        ptr = _py.PyCapsule_GetPointer(capsule, b"dltensor")
        managed = ctypes.cast(ptr, ctypes.POINTER(_DLManagedTensor))
        if managed.contents.deleter:
            managed.contents.deleter(managed)


_CAPSULE_DESTRUCTOR = ctypes.cast(_capsule_destructor, ctypes.c_void_p).value

# Memory lent to the library by ng_tensor_wrap: kept alive until the library's deleter runs.
_lent: Dict[int, Any] = {}
_lent_lock = threading.Lock()
_lent_next = [1]


@ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
def _release_lent(_data: int, ctx: int) -> None:
    with _lent_lock:
        _lent.pop(ctx, None)


_NO_DELETER = _capi.FUNCTIONS["tensor_wrap"][1][5]()  # a NULL deleter: the caller keeps the memory


def _lend(obj: Any) -> int:
    with _lent_lock:
        key = _lent_next[0]
        _lent_next[0] += 1
        _lent[key] = obj
    return key


def take_bytes(ptr: ctypes.c_void_p, size: ctypes.c_size_t) -> bytes:
    """Copies memory the library handed out into Python bytes and frees it with ng_free."""
    try:
        return ctypes.string_at(ptr.value, size.value) if ptr.value else b""
    finally:
        lib.free(ptr)


def _int64s(values: Sequence[int]):
    return (ctypes.c_int64 * len(values))(*values)


class Tensor:
    """A nanograph host tensor: a dtype, a shape, strides and shared, reference-counted storage.

    Create one from a NumPy array (`Tensor(array)`, zero copy for aligned arrays), from any DLPack
    producer (`from_dlpack`), or get one from a computation. `numpy()` and `np.from_dlpack(t)`
    view its memory without copying; the memory lives as long as any view or export of it.
    """

    __slots__ = ("_h", "__weakref__")

    def __init__(self, data: Any = None, dtype: Optional[DTypeLike] = None, *, copy: bool = False):
        if data is None:
            raise TypeError("Tensor(data): give a NumPy array or anything np.asarray accepts")
        arr = np.asarray(data, dtype=None if dtype is None else as_dtype(dtype).numpy)
        self._h = _wrap_numpy(arr, copy)

    @classmethod
    def _adopt(cls, handle: int) -> "Tensor":
        """Takes ownership of one reference of a C tensor handle."""
        t = cls.__new__(cls)
        t._h = handle
        return t

    @classmethod
    def zeros(cls, shape: Sequence[int], dtype: DTypeLike = "float32") -> "Tensor":
        shape = list(shape)
        return cls._adopt(check_ptr(lib.tensor_create(as_dtype(dtype).code, _int64s(shape), len(shape))))

    @property
    def handle(self) -> int:
        if not self._h:
            from ._errors import ClosedError

            raise ClosedError("nanograph: the tensor is closed")
        return self._h

    def close(self) -> None:
        """Drops this handle's reference (views and exports keep the memory)."""
        h, self._h = self._h, None
        if h:
            lib.tensor_release(h)

    def __del__(self) -> None:
        h = getattr(self, "_h", None)
        if h and lib is not None:
            self._h = None
            lib.tensor_release(h)

    def __enter__(self) -> "Tensor":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def dtype(self) -> DType:
        code = lib.tensor_dtype(self.handle)
        if code == 0:
            from ._errors import raise_last

            raise_last()
        return _BY_CODE[code]

    @property
    def ndim(self) -> int:
        return int(lib.tensor_rank(self.handle))

    @property
    def shape(self) -> Tuple[int, ...]:
        h = self.handle
        return tuple(int(lib.tensor_dim(h, i)) for i in range(lib.tensor_rank(h)))

    @property
    def strides(self) -> Tuple[int, ...]:
        """Strides in elements (not bytes, unlike NumPy)."""
        h = self.handle
        return tuple(int(lib.tensor_stride(h, i)) for i in range(lib.tensor_rank(h)))

    @property
    def size(self) -> int:
        return int(lib.tensor_numel(self.handle))

    @property
    def data_ptr(self) -> int:
        return lib.tensor_data(self.handle) or 0

    def is_contiguous(self) -> bool:
        return lib.tensor_is_contiguous(self.handle) == 1

    def copy(self) -> "Tensor":
        return Tensor._adopt(check_ptr(lib.tensor_copy(self.handle)))

    def reshape(self, shape: Sequence[int]) -> "Tensor":
        shape = list(shape)
        return Tensor._adopt(check_ptr(lib.tensor_reshape(self.handle, _int64s(shape), len(shape))))

    def permute(self, order: Sequence[int]) -> "Tensor":
        order = list(order)
        arr = (ctypes.c_int32 * len(order))(*order)
        return Tensor._adopt(check_ptr(lib.tensor_permute(self.handle, arr, len(order))))

    @property
    def T(self) -> "Tensor":
        return Tensor._adopt(check_ptr(lib.tensor_transpose(self.handle)))

    def slice(self, dim: int, start: Optional[int] = None, stop: Optional[int] = None, step: int = 1) -> "Tensor":
        """A view of dimension `dim` sliced like Python's [start:stop:step] (None: an open end)."""
        lo, hi = -(2 ** 63), 2 ** 63 - 1
        if start is None:
            start = hi if step < 0 else 0
        if stop is None:
            stop = lo if step < 0 else hi
        return Tensor._adopt(check_ptr(lib.tensor_slice(self.handle, dim, start, stop, step)))

    def broadcast_to(self, shape: Sequence[int]) -> "Tensor":
        shape = list(shape)
        return Tensor._adopt(check_ptr(lib.tensor_broadcast(self.handle, _int64s(shape), len(shape))))

    def retain(self) -> "Tensor":
        """A second handle to the same tensor (one more reference)."""
        lib.tensor_retain(self.handle)
        return Tensor._adopt(self._h)

    def read(self) -> np.ndarray:
        """A dense copy of the elements, as a new NumPy array."""
        out = np.empty(self.shape, self.dtype.numpy)
        check(lib.tensor_read(self.handle, out.ctypes.data, out.nbytes))
        return out

    def write(self, values: Any) -> None:
        """Copies values (broadcast NumPy style to this shape) into the tensor's storage."""
        src = np.ascontiguousarray(np.broadcast_to(np.asarray(values, self.dtype.numpy), self.shape))
        check(lib.tensor_write(self.handle, src.ctypes.data, src.nbytes))

    def serialize(self) -> bytes:
        """The tensor as a TensorFlow TensorProto message (dtype, shape, the elements it shows in
        row-major order, whatever its strides)."""
        data, size = ctypes.c_void_p(), ctypes.c_size_t()
        check(lib.tensor_serialize(self.handle, ctypes.byref(data), ctypes.byref(size)))
        return take_bytes(data, size)

    def __reduce__(self) -> Any:
        """Pickles the tensor as its TensorProto bytes (dense; views become their own tensors)."""
        return (Tensor.deserialize, (self.serialize(),))

    @classmethod
    def deserialize(cls, data: Any) -> "Tensor":
        """A new dense tensor from a TensorFlow TensorProto message (bytes-like). Damaged or
        hostile bytes raise FormatError, never crash."""
        buf = bytes(data)
        return cls._adopt(check_ptr(lib.tensor_deserialize(buf, len(buf))))

    def numpy(self) -> np.ndarray:
        """A writable NumPy view of the tensor's memory, without copying; the view holds a
        reference to the tensor, so the memory lives as long as the array."""
        h = self.handle
        dt = _BY_CODE[lib.tensor_dtype(h)]
        rank, dim, stride = lib.tensor_rank(h), lib.tensor_dim, lib.tensor_stride
        shape = tuple([dim(h, i) for i in range(rank)])
        size = dt.numpy.itemsize
        return view_array(h, dt, shape, tuple([stride(h, i) * size for i in range(rank)]))

    def __array__(self, dtype: Any = None) -> np.ndarray:
        arr = self.numpy()
        return arr if dtype is None else arr.astype(dtype, copy=False)

    def __dlpack__(self, stream: Any = None) -> Any:
        if stream is not None:
            raise BufferError("nanograph tensors live on the CPU: stream must be None")
        out = ctypes.c_void_p()
        check(lib.tensor_to_dlpack(self.handle, ctypes.byref(out)))
        return _py.PyCapsule_New(out.value, b"dltensor", _CAPSULE_DESTRUCTOR)

    def __dlpack_device__(self) -> Tuple[int, int]:
        return (_K_DL_CPU, 0)

    def __repr__(self) -> str:
        if not self._h:
            return "nanograph.Tensor(<closed>)"
        return "nanograph.Tensor(%s, dtype=%s)" % (np.array2string(self.read()), self.dtype.name)


class _ArrayView:
    """Presents a tensor's memory to NumPy (the array interface) and owns one reference to it."""

    __slots__ = ("tensor", "__array_interface__")

    def __init__(self, tensor: Tensor, dt: DType, shape: Tuple[int, ...],
                 strides: Optional[Tuple[int, ...]], data: int) -> None:
        self.tensor = tensor
        self.__array_interface__ = {
            "version": 3,
            "shape": shape,
            "typestr": dt.typestr,
            "strides": strides,
            "data": (data, False),
        }


def view_array(handle: int, dt: DType, shape: Tuple[int, ...],
               strides: Optional[Tuple[int, ...]]) -> np.ndarray:
    """A NumPy view of tensor `handle`, whose dtype, shape and byte strides (None: row-major) the
    caller knows; the view takes a reference of its own."""
    if 0 in shape:
        return np.empty(shape, dt.numpy)
    lib.tensor_retain(handle)
    return np.asarray(_ArrayView(Tensor._adopt(handle), dt, shape, strides, lib.tensor_data(handle)))


def _wrap_numpy(arr: np.ndarray, copy: bool) -> int:
    """A tensor handle over a NumPy array's memory (kept alive by the tensor), or over a copy."""
    dt = as_dtype(arr.dtype)
    size = arr.itemsize
    aligned = arr.ctypes.data % size == 0 and all(s % size == 0 for s in arr.strides)
    if copy or not aligned:
        arr = np.ascontiguousarray(arr)
        return check_ptr(lib.tensor_from_data(dt.code, _int64s(arr.shape), arr.ndim, arr.ctypes.data or None))
    shape = _int64s(arr.shape)
    strides = _int64s([s // size for s in arr.strides])
    key = _lend(arr)
    ptr = lib.tensor_wrap(dt.code, shape, strides, arr.ndim, arr.ctypes.data or None,
                          _release_lent, key)
    if not ptr:
        with _lent_lock:
            _lent.pop(key, None)
        check_ptr(ptr)
    return ptr


_layouts: Dict[Tuple[int, Tuple[int, ...], Tuple[int, ...]], Tuple[Any, Any]] = {}


def _layout(itemsize: int, shape: Tuple[int, ...], strides: Tuple[int, ...]):
    """ctypes arrays of a shape and of its strides in elements, cached: a run's inputs usually
    have the same layout every time."""
    key = (itemsize, shape, strides)
    found = _layouts.get(key)
    if found is None:
        if len(_layouts) > 256:
            _layouts.clear()
        found = _layouts[key] = (_int64s(shape), _int64s([s // itemsize for s in strides]))
    return found


_char, _addressof = ctypes.c_char, ctypes.addressof


def borrow_numpy(arr: np.ndarray, code: int = 0) -> int:
    """A tensor handle over a NumPy array's memory that does not keep the array alive: for a call
    during which the caller holds the array. `code`: the array's dtype code, when the caller
    knows it."""
    size = arr.itemsize
    strides = arr.strides
    try:
        # A writable C-contiguous array's start, read off its buffer: the array interface builds
        # a dictionary, which made this function a quarter of a small run's cost from Python.
        data = _addressof(_char.from_buffer(arr))
        misplaced = data % size  # dims of length 1 may have any stride: never stepped over
    except (TypeError, ValueError):  # read-only, strided or empty
        data = arr.__array_interface__["data"][0]
        misplaced = data % size or any(s % size for s in strides)
    if misplaced:
        return _wrap_numpy(np.ascontiguousarray(arr), False)
    shape, st = _layout(size, arr.shape, strides)
    code = code or _BY_NUMPY[arr.dtype].code
    return check_ptr(lib.tensor_wrap(code, shape, st, arr.ndim, data or None, _NO_DELETER, None))


def from_dlpack(obj: Any) -> Tensor:
    """A Tensor sharing the memory of any DLPack producer (NumPy array, PyTorch CPU tensor, ...)."""
    if hasattr(obj, "__dlpack__"):
        capsule = obj.__dlpack__()
    else:
        capsule = obj  # a capsule already
    if not _py.PyCapsule_IsValid(id(capsule), b"dltensor"):
        raise TypeError("nanograph.from_dlpack: expected a DLPack producer or an unused capsule")
    ptr = _py.PyCapsule_GetPointer(id(capsule), b"dltensor")
    handle = check_ptr(lib.tensor_from_dlpack(ptr))
    # The tensor owns the DLManagedTensor now: the renamed capsule no longer deletes it.
    _py.PyCapsule_SetName(id(capsule), b"used_dltensor")
    return Tensor._adopt(handle)


def serialize(value: Any) -> bytes:
    """A Tensor, array or DLPack producer as a TensorFlow TensorProto message."""
    return as_tensor(value).serialize()


def deserialize(data: Any) -> np.ndarray:
    """The array a TensorFlow TensorProto message holds (a NumPy view of a new tensor)."""
    return Tensor.deserialize(data).numpy()


def as_tensor(value: Any, dtype: Optional[DType] = None) -> Tensor:
    """value as a Tensor: a Tensor as is, a DLPack producer shared, anything else via NumPy."""
    if isinstance(value, Tensor):
        return value
    if dtype is None and hasattr(value, "__dlpack__") and not isinstance(value, np.ndarray):
        return from_dlpack(value)
    return Tensor(value, dtype)
