"""Zero copy both ways: NumPy and PyTorch tensors in, nanograph tensors out."""
import numpy as np
import pytest

import nanograph as ng

torch = pytest.importorskip("torch")


def test_numpy_in_without_copy():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = ng.Tensor(a)
    assert t.shape == (2, 3) and t.strides == (3, 1) and t.data_ptr == a.ctypes.data
    a[0, 0] = 42
    assert t.read()[0, 0] == 42
    del a  # the tensor keeps the array's memory alive
    assert t.read()[1, 2] == 5


def test_strided_numpy_views_keep_their_strides():
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    t = ng.Tensor(a[::-1, ::2])
    assert t.strides == (-4, 2)
    np.testing.assert_array_equal(t.read(), a[::-1, ::2])
    assert t.data_ptr == a[::-1, ::2].ctypes.data


def test_numpy_out_without_copy():
    t = ng.Tensor(np.arange(4, dtype=np.int64))
    v = t.numpy()
    assert v.ctypes.data == t.data_ptr
    v[1] = -7
    assert t.read()[1] == -7
    v2 = np.from_dlpack(t)  # NumPy's own import (read-only in NumPy 1.24) shares it too
    assert v2.ctypes.data == t.data_ptr and v2[1] == -7
    t.close()
    assert v[3] == 3  # the export keeps the memory


def test_torch_in_and_out_without_copy():
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3).t()  # a transposed view
    t = ng.from_dlpack(x)
    assert t.shape == (3, 2) and t.strides == (1, 3) and t.data_ptr == x.data_ptr()
    x[0, 0] = 9
    assert t.read()[0, 0] == 9
    back = torch.from_dlpack(t)
    assert back.data_ptr() == x.data_ptr() and back.stride() == (1, 3)
    back[2, 1] = -1
    assert x[2, 1] == -1


def test_computation_results_and_inputs_through_dlpack():
    g = ng.Graph()
    N = g.axis("N", 5)
    x = g.placeholder(ng.float32, [N])
    f = ng.Transformer().computation([ng.exp(x)], [x])
    xt = torch.linspace(-1, 1, 5)
    out, = f.run([xt])  # a torch tensor as input, shared
    r = torch.from_dlpack(out)
    torch.testing.assert_close(r, torch.exp(xt))
    # In place: the result is written into memory the caller owns.
    dst = np.zeros(5, np.float32)
    f.run([xt.numpy()], [ng.Tensor(dst)])
    np.testing.assert_allclose(dst, np.exp(xt.numpy()), rtol=1e-6)


def test_bool_is_copied_not_exported():
    t = ng.Tensor(np.array([True, False]))
    assert t.dtype == ng.bool_
    with pytest.raises(ng.DTypeError):
        t.__dlpack__()
    np.testing.assert_array_equal(t.numpy(), [True, False])


def test_tensor_views_and_copies():
    t = ng.Tensor(np.arange(6, dtype=np.int32), copy=True)
    assert t.is_contiguous() and t.size == 6 and t.ndim == 1
    m = t.reshape([2, 3])
    np.testing.assert_array_equal(m.T.read(), np.arange(6).reshape(2, 3).T)
    np.testing.assert_array_equal(m.permute([1, 0]).read(), np.arange(6).reshape(2, 3).T)
    np.testing.assert_array_equal(m.slice(1, None, None, -1).read(), [[2, 1, 0], [5, 4, 3]])
    np.testing.assert_array_equal(m.slice(1, -1, 0, -1).read(), [[2, 1], [5, 4]])
    np.testing.assert_array_equal(t.slice(0, 0, 6, 2).broadcast_to([2, 3]).read(), [[0, 2, 4]] * 2)
    c = m.T.copy()
    assert c.is_contiguous() and not m.T.is_contiguous()
    with pytest.raises(ng.UnsupportedError):
        m.T.reshape([6])
    z = ng.Tensor.zeros([2], ng.float64)
    z.write([1.5, 2.5])
    np.testing.assert_array_equal(np.asarray(z), [1.5, 2.5])
    r = z.retain()
    z.close()
    np.testing.assert_array_equal(r.read(), [1.5, 2.5])
