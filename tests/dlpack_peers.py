"""DLPack exchange between nanograph and its peers (NumPy, PyTorch), through ctypes.

Usage: /usr/bin/python3 dlpack_peers.py path/to/libnanograph.so   (or NG_LIBRARY=... in the env)

Every test proves zero copy by writing on one side and reading on the other, and checks that
the producer's deleter runs exactly once (through reference counts or a counting deleter).
"""
import ctypes
import gc
import os
import sys
import unittest

import numpy as np
import torch
import torch.utils.dlpack

LIBRARY_PATH = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NG_LIBRARY", "")
lib = ctypes.CDLL(LIBRARY_PATH)

NG_BOOL, NG_INT32, NG_INT64, NG_UINT8, NG_FLOAT32, NG_FLOAT64 = 1, 2, 3, 4, 5, 6
NG_OK, NG_ERR_DTYPE = 0, 3
NUMPY_DTYPES = {NG_INT32: np.int32, NG_INT64: np.int64, NG_UINT8: np.uint8,
                NG_FLOAT32: np.float32, NG_FLOAT64: np.float64}
TORCH_DTYPES = {NG_INT32: torch.int32, NG_INT64: torch.int64, NG_UINT8: torch.uint8,
                NG_FLOAT32: torch.float32, NG_FLOAT64: torch.float64}


# ---- DLPack 0.6 structures -------------------------------------------------------------------
class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                            ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor)))]

# ---- the C API used here ---------------------------------------------------------------------
c_int64_p = ctypes.POINTER(ctypes.c_int64)
DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)


def declare(name, restype, *argtypes):
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)


declare("ng_tensor_from_data", ctypes.c_void_p, ctypes.c_int32, c_int64_p, ctypes.c_int32, ctypes.c_void_p)
declare("ng_tensor_wrap", ctypes.c_void_p, ctypes.c_int32, c_int64_p, c_int64_p, ctypes.c_int32,
        ctypes.c_void_p, DELETER, ctypes.c_void_p)
declare("ng_tensor_create", ctypes.c_void_p, ctypes.c_int32, c_int64_p, ctypes.c_int32)
declare("ng_tensor_release", None, ctypes.c_void_p)
declare("ng_tensor_rank", ctypes.c_int32, ctypes.c_void_p)
declare("ng_tensor_dim", ctypes.c_int64, ctypes.c_void_p, ctypes.c_int32)
declare("ng_tensor_stride", ctypes.c_int64, ctypes.c_void_p, ctypes.c_int32)
declare("ng_tensor_dtype", ctypes.c_int32, ctypes.c_void_p)
declare("ng_tensor_numel", ctypes.c_int64, ctypes.c_void_p)
declare("ng_tensor_data", ctypes.c_void_p, ctypes.c_void_p)
declare("ng_tensor_read", ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
declare("ng_tensor_write", ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
declare("ng_tensor_transpose", ctypes.c_void_p, ctypes.c_void_p)
declare("ng_tensor_slice", ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32, ctypes.c_int64, ctypes.c_int64,
        ctypes.c_int64)
declare("ng_tensor_to_dlpack", ctypes.c_int32, ctypes.c_void_p, ctypes.POINTER(ctypes.POINTER(DLManagedTensor)))
declare("ng_tensor_from_dlpack", ctypes.c_void_p, ctypes.c_void_p)
declare("ng_last_error", ctypes.c_char_p)

# ---- PyCapsules ------------------------------------------------------------------------------
CAPSULE_NAME = b"dltensor"
USED_CAPSULE_NAME = b"used_dltensor"
api = ctypes.pythonapi
CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
api.PyCapsule_New.restype = ctypes.py_object
api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, CAPSULE_DESTRUCTOR]
api.PyCapsule_GetPointer.restype = ctypes.c_void_p
api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_SetName.restype = ctypes.c_int
api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
# The destructor gets a raw PyObject*: these two take it as a plain pointer.
capsule_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_IsValid", api))
capsule_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_GetPointer", api))


@CAPSULE_DESTRUCTOR
def destroy_unconsumed_capsule(capsule):
    # A consumer renames the capsule when it takes the tensor; only an unconsumed one still
    # owns it and must give it back.
    if capsule_is_valid(capsule, CAPSULE_NAME):
        managed = ctypes.cast(capsule_pointer(capsule, CAPSULE_NAME), ctypes.POINTER(DLManagedTensor))
        managed.contents.deleter(managed)


def export_capsule(tensor):
    managed = ctypes.POINTER(DLManagedTensor)()
    status = lib.ng_tensor_to_dlpack(tensor, ctypes.byref(managed))
    assert status == NG_OK, lib.ng_last_error()
    return api.PyCapsule_New(ctypes.cast(managed, ctypes.c_void_p), CAPSULE_NAME, destroy_unconsumed_capsule)


class Exported:
    """A nanograph tensor seen through the Python DLPack protocol (what np.from_dlpack wants)."""

    def __init__(self, tensor):
        self.tensor = tensor

    def __dlpack__(self, stream=None):
        return export_capsule(self.tensor)

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0


def import_capsule(capsule):
    """A nanograph tensor owning the capsule's DLManagedTensor (the capsule is marked used)."""
    tensor = lib.ng_tensor_from_dlpack(api.PyCapsule_GetPointer(capsule, CAPSULE_NAME))
    assert tensor, lib.ng_last_error()
    api.PyCapsule_SetName(capsule, USED_CAPSULE_NAME)
    return tensor


# Deleters and buffers handed to ng_tensor_wrap live as long as the process: a failing test's
# traceback may keep a consumer's array alive past the test, and its release must still find them.
KEEP_ALIVE = []


def counting_wrap(dtype, ctype, values, shape):
    """A nanograph tensor over a ctypes buffer, with a deleter that records its calls."""
    record = []
    deleter = DELETER(lambda data, ctx: record.append(data))
    buffer = (ctype * len(values))(*values)
    KEEP_ALIVE.append((deleter, buffer))
    t = lib.ng_tensor_wrap(dtype, int64_array(shape), None, len(shape), ctypes.addressof(buffer), deleter, None)
    assert t, lib.ng_last_error()
    return t, buffer, record


def int64_array(values):
    return (ctypes.c_int64 * len(values))(*values)


def ng_from_numpy_copy(array, dtype):
    array = np.ascontiguousarray(array, dtype=NUMPY_DTYPES[dtype])
    tensor = lib.ng_tensor_from_data(dtype, int64_array(array.shape), array.ndim, array.ctypes.data)
    assert tensor, lib.ng_last_error()
    return tensor


def ng_read(tensor, dtype):
    shape = [lib.ng_tensor_dim(tensor, i) for i in range(lib.ng_tensor_rank(tensor))]
    out = np.empty(shape, dtype=NUMPY_DTYPES[dtype])
    assert lib.ng_tensor_read(tensor, out.ctypes.data, out.nbytes) == NG_OK, lib.ng_last_error()
    return out


def ng_strides(tensor):
    return tuple(lib.ng_tensor_stride(tensor, i) for i in range(lib.ng_tensor_rank(tensor)))


class NumPyPeer(unittest.TestCase):
    def test_export_to_numpy_shares_memory(self):
        base = np.arange(6, dtype=np.float32).reshape(2, 3)
        t = ng_from_numpy_copy(base, NG_FLOAT32)
        array = np.from_dlpack(Exported(t))  # read-only in NumPy < 2: nanograph does the writing
        self.assertEqual(array.ctypes.data, lib.ng_tensor_data(t))
        np.testing.assert_array_equal(array, base)
        fresh = np.full((2, 3), -7, dtype=np.float32)  # nanograph writes, numpy reads
        self.assertEqual(lib.ng_tensor_write(t, fresh.ctypes.data, fresh.nbytes), NG_OK)
        np.testing.assert_array_equal(array, fresh)
        lib.ng_tensor_release(t)  # the export keeps the memory
        np.testing.assert_array_equal(array, fresh)

    def test_export_of_views_has_numpy_strides(self):
        base = np.arange(20, dtype=np.float64).reshape(4, 5)
        t = ng_from_numpy_copy(base, NG_FLOAT64)
        reversed_cols = lib.ng_tensor_slice(t, 1, 3, 0, -1)
        view = lib.ng_tensor_transpose(reversed_cols)
        array = np.from_dlpack(Exported(view))
        expected = base[:, 3:0:-1].T
        np.testing.assert_array_equal(array, expected)
        self.assertEqual(array.strides, expected.strides)
        fresh = np.arange(100, 112, dtype=np.float64).reshape(3, 4)
        self.assertEqual(lib.ng_tensor_write(view, fresh.ctypes.data, fresh.nbytes), NG_OK)
        np.testing.assert_array_equal(array, fresh)
        self.assertEqual(ng_read(t, NG_FLOAT64)[0, 3], 100)  # view (0, 0) is base (0, 3)
        for handle in (view, reversed_cols, t):
            lib.ng_tensor_release(handle)
        np.testing.assert_array_equal(array, fresh)

    def test_export_of_every_dtype(self):
        for dtype, numpy_dtype in NUMPY_DTYPES.items():
            values = np.array([[0, 1, 2], [3, 4, 5]], dtype=numpy_dtype)
            t = ng_from_numpy_copy(values, dtype)
            array = np.from_dlpack(Exported(t))
            self.assertEqual(array.dtype, numpy_dtype)
            np.testing.assert_array_equal(array, values)
            lib.ng_tensor_release(t)

    def test_import_from_numpy_shares_memory_and_releases_once(self):
        base = np.arange(12, dtype=np.float64).reshape(3, 4)
        strided = base[:, ::2]
        baseline = sys.getrefcount(strided)
        capsule = strided.__dlpack__()
        t = import_capsule(capsule)
        del capsule
        self.assertEqual(sys.getrefcount(strided), baseline + 1)  # held by the import
        self.assertEqual(ng_strides(t), (4, 2))
        self.assertEqual(lib.ng_tensor_data(t), strided.ctypes.data)
        np.testing.assert_array_equal(ng_read(t, NG_FLOAT64), strided)
        element = ctypes.c_double.from_address(lib.ng_tensor_data(t) + 2 * 8)  # (0, 1)
        element.value = -3.5
        self.assertEqual(base[0, 2], -3.5)
        view = lib.ng_tensor_transpose(t)
        lib.ng_tensor_release(t)
        self.assertEqual(sys.getrefcount(strided), baseline + 1)  # the view still holds it
        lib.ng_tensor_release(view)
        self.assertEqual(sys.getrefcount(strided), baseline)  # the deleter ran, once

    def test_import_negative_strides_from_numpy(self):
        base = np.arange(6, dtype=np.int32)
        reversed_view = base[::-1]
        t = import_capsule(reversed_view.__dlpack__())
        self.assertEqual(ng_strides(t), (-1,))
        np.testing.assert_array_equal(ng_read(t, NG_INT32), [5, 4, 3, 2, 1, 0])
        lib.ng_tensor_release(t)

    def test_unconsumed_export_is_given_back(self):
        t, buffer, record = counting_wrap(NG_FLOAT32, ctypes.c_float, [1, 2, 3, 4], [4])
        capsule = export_capsule(t)
        lib.ng_tensor_release(t)
        self.assertEqual(record, [])
        del capsule  # never consumed: the capsule's destructor calls the deleter
        gc.collect()
        self.assertEqual(record, [ctypes.addressof(buffer)])

    def test_wrapped_memory_outlives_the_handle_until_numpy_lets_go(self):
        t, buffer, record = counting_wrap(NG_FLOAT64, ctypes.c_double, range(6), [2, 3])
        array = np.from_dlpack(Exported(t))
        lib.ng_tensor_release(t)
        self.assertEqual(record, [])
        buffer[5] = 9.5  # the caller's memory is what numpy sees
        self.assertEqual(array[1, 2], 9.5)
        del array
        gc.collect()
        self.assertEqual(record, [ctypes.addressof(buffer)])

    def test_bool_export_is_refused(self):
        t = lib.ng_tensor_create(NG_BOOL, int64_array([2]), 1)
        managed = ctypes.POINTER(DLManagedTensor)()
        self.assertEqual(lib.ng_tensor_to_dlpack(t, ctypes.byref(managed)), NG_ERR_DTYPE)
        self.assertFalse(managed)
        self.assertTrue(lib.ng_last_error().startswith(b"ng_tensor_to_dlpack: "))
        lib.ng_tensor_release(t)


class TorchPeer(unittest.TestCase):
    def test_export_to_torch_shares_memory(self):
        base = np.arange(12, dtype=np.float32).reshape(3, 4)
        t = ng_from_numpy_copy(base, NG_FLOAT32)
        rows = lib.ng_tensor_slice(t, 0, 1, 3, 1)  # a view with an offset
        x = torch.utils.dlpack.from_dlpack(export_capsule(rows))
        self.assertEqual(x.data_ptr(), lib.ng_tensor_data(rows))
        self.assertEqual(x.stride(), (4, 1))
        self.assertTrue(torch.equal(x, torch.from_numpy(base[1:3])))
        x[0, 0] = 77  # torch writes, nanograph reads
        self.assertEqual(ng_read(t, NG_FLOAT32)[1, 0], 77)
        lib.ng_tensor_release(rows)
        lib.ng_tensor_release(t)
        self.assertEqual(float(x[0, 0]), 77)  # the export keeps the memory

    def test_export_of_every_dtype(self):
        for dtype, torch_dtype in TORCH_DTYPES.items():
            t = ng_from_numpy_copy(np.array([1, 2, 3]), dtype)
            x = torch.utils.dlpack.from_dlpack(export_capsule(t))
            self.assertEqual(x.dtype, torch_dtype)
            self.assertEqual(x.tolist(), [1, 2, 3])
            lib.ng_tensor_release(t)

    def test_import_from_torch_shares_memory(self):
        x = torch.arange(6, dtype=torch.float64).reshape(2, 3).t()
        t = import_capsule(torch.utils.dlpack.to_dlpack(x))
        self.assertEqual(ng_strides(t), (1, 3))
        np.testing.assert_array_equal(ng_read(t, NG_FLOAT64), x.numpy())
        fresh = np.arange(10, 16, dtype=np.float64).reshape(3, 2)
        self.assertEqual(lib.ng_tensor_write(t, fresh.ctypes.data, fresh.nbytes), NG_OK)
        np.testing.assert_array_equal(x.numpy(), fresh)  # nanograph wrote into torch's memory
        lib.ng_tensor_release(t)

    def test_round_trip_ng_torch_ng(self):
        t, buffer, record = counting_wrap(NG_INT64, ctypes.c_int64, [1, 2, 3, 4], [4])
        x = torch.utils.dlpack.from_dlpack(export_capsule(t))
        back = import_capsule(torch.utils.dlpack.to_dlpack(x))
        self.assertEqual(lib.ng_tensor_data(back), ctypes.addressof(buffer))
        lib.ng_tensor_release(t)
        del x
        gc.collect()
        self.assertEqual(record, [])  # torch's export, held by `back`, holds nanograph's export
        lib.ng_tensor_release(back)
        gc.collect()
        self.assertEqual(record, [ctypes.addressof(buffer)])


if __name__ == "__main__":
    result = unittest.TextTestRunner(verbosity=2).run(unittest.defaultTestLoader.loadTestsFromModule(
        sys.modules[__name__]))
    failed = len(result.failures) + len(result.errors)
    print(f"{result.testsRun - failed} passed, {failed} failed")
    sys.exit(1 if failed or not result.wasSuccessful() else 0)
