"""TensorProto interchange with TensorFlow itself, through ctypes on the built libnanograph.so.

Usage: python3 tensorproto_tf.py path/to/libnanograph.so

Bytes written by ng_tensor_serialize are read by TensorFlow (tf.make_ndarray, tf.io.parse_tensor)
and messages TensorFlow writes (tf.make_tensor_proto, including its one-value form) are read by
ng_tensor_deserialize; the values are compared element by element. Prints SKIP and exits with 77
(CTest's skip code here) when TensorFlow is not installed: CI does not install it.
"""
import ctypes
import sys
import unittest

try:
    import numpy as np
    import tensorflow as tf
except ImportError as e:  # TensorFlow is large and not a Debian package: optional
    print(f"SKIP: TensorFlow is not installed for {sys.executable} ({e})")
    sys.exit(77)

lib = ctypes.CDLL(sys.argv[1])
lib.ng_tensor_from_data.restype = ctypes.c_void_p
lib.ng_tensor_from_data.argtypes = [ctypes.c_int32, ctypes.POINTER(ctypes.c_int64), ctypes.c_int32,
                                    ctypes.c_void_p]
lib.ng_tensor_deserialize.restype = ctypes.c_void_p
lib.ng_tensor_deserialize.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
lib.ng_tensor_serialize.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                                    ctypes.POINTER(ctypes.c_size_t)]
lib.ng_tensor_transpose.restype = ctypes.c_void_p
lib.ng_tensor_transpose.argtypes = [ctypes.c_void_p]
for name in ("ng_tensor_dtype", "ng_tensor_rank"):
    getattr(lib, name).argtypes = [ctypes.c_void_p]
lib.ng_tensor_dim.restype = ctypes.c_int64
lib.ng_tensor_dim.argtypes = [ctypes.c_void_p, ctypes.c_int32]
lib.ng_tensor_read.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
lib.ng_tensor_release.argtypes = [ctypes.c_void_p]
lib.ng_free.argtypes = [ctypes.c_void_p]
lib.ng_last_error.restype = ctypes.c_char_p

NUMPY = {1: np.bool_, 2: np.int32, 3: np.int64, 4: np.uint8, 5: np.float32, 6: np.float64}
CODES = {np.dtype(v): k for k, v in NUMPY.items()}


def to_ng(array):
    array = np.ascontiguousarray(array)
    shape = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
    t = lib.ng_tensor_from_data(CODES[array.dtype], shape, array.ndim,
                                array.ctypes.data_as(ctypes.c_void_p))
    assert t, lib.ng_last_error()
    return t


def from_ng(t):
    dtype = NUMPY[lib.ng_tensor_dtype(t)]
    shape = tuple(lib.ng_tensor_dim(t, i) for i in range(lib.ng_tensor_rank(t)))
    out = np.zeros(shape, dtype=dtype)
    assert lib.ng_tensor_read(t, out.ctypes.data_as(ctypes.c_void_p), out.nbytes) == 0
    return out


def serialize(t):
    data, size = ctypes.c_void_p(), ctypes.c_size_t()
    assert lib.ng_tensor_serialize(t, ctypes.byref(data), ctypes.byref(size)) == 0
    message = ctypes.string_at(data, size.value)
    lib.ng_free(data)
    return message


def deserialize(message):
    t = lib.ng_tensor_deserialize(message, len(message))
    assert t, lib.ng_last_error()
    try:
        return from_ng(t)
    finally:
        lib.ng_tensor_release(t)


def samples():
    rng = np.random.default_rng(7)
    for dtype in NUMPY.values():
        for shape in [(), (5,), (2, 3), (2, 3, 4), (0, 3)]:
            if dtype == np.bool_:
                yield rng.integers(0, 2, shape).astype(dtype)
            elif np.issubdtype(dtype, np.integer):
                info = np.iinfo(dtype)
                yield rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
            else:
                yield (rng.standard_normal(shape) * 1e3).astype(dtype)


class TensorProtoWithTensorFlow(unittest.TestCase):
    def test_tensorflow_reads_what_nanograph_writes(self):
        for array in samples():
            t = to_ng(array)
            message = serialize(t)
            lib.ng_tensor_release(t)
            proto = tf.make_tensor_proto(np.zeros(1))  # a TensorProto instance to parse into
            proto.ParseFromString(message)
            np.testing.assert_array_equal(tf.make_ndarray(proto), array)
            parsed = tf.io.parse_tensor(message, out_type=tf.as_dtype(array.dtype))
            np.testing.assert_array_equal(parsed.numpy(), array)

    def test_views_serialize_their_logical_content(self):
        array = np.arange(12, dtype=np.float32).reshape(3, 4)
        t = to_ng(array)
        view = lib.ng_tensor_transpose(t)
        message = serialize(view)
        lib.ng_tensor_release(view)
        lib.ng_tensor_release(t)
        np.testing.assert_array_equal(tf.io.parse_tensor(message, tf.float32).numpy(), array.T)

    def test_nanograph_reads_what_tensorflow_writes(self):
        for array in samples():
            message = tf.make_tensor_proto(array).SerializeToString()
            got = deserialize(message)
            self.assertEqual(got.dtype, array.dtype)
            np.testing.assert_array_equal(got, array)
            message = tf.io.serialize_tensor(tf.constant(array)).numpy()
            np.testing.assert_array_equal(deserialize(message), array)

    def test_one_value_fills_the_shape(self):
        for value, dtype in [(2.5, np.float32), (-1.25, np.float64), (7, np.int32),
                             (200, np.uint8), (1 << 40, np.int64), (True, np.bool_)]:
            proto = tf.make_tensor_proto(value, dtype=tf.as_dtype(dtype), shape=[2, 3])
            self.assertEqual(proto.tensor_content, b"")  # the typed, one-value form
            got = deserialize(proto.SerializeToString())
            np.testing.assert_array_equal(got, np.full((2, 3), value, dtype=dtype))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
