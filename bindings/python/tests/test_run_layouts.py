"""Inputs of every layout NumPy makes are read at their values, and the arrays a call returns are
views of their own results: the run path lends arrays by their buffer when it can and views new
results by the layout the library promises for them."""
import numpy as np
import pytest

import nanograph as ng


def _weighted_sum():
    """f(x, w) = x * w + 1 over R x C, and the sum of each row of x."""
    g = ng.Graph()
    R, C = g.axis("R", 3), g.axis("C", 4)
    x, w = g.placeholder(ng.float32, [R, C]), g.placeholder(ng.float32, [R, C])
    f = ng.Transformer().computation([x * w + 1.0, ng.sum(x, C)], [x, w])
    return f


def _expected(xv, wv):
    x, w = np.asarray(xv, np.float64), np.asarray(wv, np.float64)
    return x * w + 1.0, x.sum(axis=1)


def _layouts():
    base = np.arange(12, dtype=np.float32).reshape(3, 4) - 5.5
    read_only = np.frombuffer(base.tobytes(), np.float32).reshape(3, 4)
    assert not read_only.flags.writeable
    raw = np.zeros(12 * 4 + 1, np.uint8)
    misaligned = raw[1:].view(np.float32).reshape(3, 4)  # 1 byte past a float boundary
    misaligned[...] = base
    misaligned_read_only = np.frombuffer(b"\0" + base.tobytes(), np.float32, 12, 1).reshape(3, 4)
    assert not misaligned_read_only.flags.writeable
    # Rows 17 bytes apart: a stride that is no whole number of floats.
    odd_rows = np.zeros(3 * 17, np.uint8)
    for r in range(3):
        odd_rows[r * 17:r * 17 + 16] = np.frombuffer(base[r].tobytes(), np.uint8)
    odd_stride = np.lib.stride_tricks.as_strided(odd_rows[:16].view(np.float32), (3, 4), (17, 4))
    wide = np.zeros((3, 8), np.float32)
    wide[:, ::2] = base
    transposed = np.ascontiguousarray(base.T).T
    assert not transposed.flags.c_contiguous
    return {
        "c_contiguous": base,
        "read_only": read_only,
        "misaligned": misaligned,
        "misaligned_read_only": misaligned_read_only,
        "odd_row_stride": odd_stride,
        "every_other_column": wide[:, ::2],
        "transposed": transposed,
        "float64_converted": base.astype(np.float64),
        "nested_lists": base.tolist(),
    }


@pytest.mark.parametrize("layout", sorted(_layouts()))
def test_every_input_layout_is_read_at_its_values(layout):
    f = _weighted_sum()
    xv = _layouts()[layout]
    wv = np.array([[2, -1, 0.5, 3]] * 3, np.float32)
    got, rows = f(xv, wv)
    want, want_rows = _expected(xv, wv)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    np.testing.assert_allclose(rows, want_rows, rtol=1e-6)
    # The same inputs through run(), in either position.
    t, r = f.run([wv, xv])
    np.testing.assert_allclose(t.read(), _expected(wv, xv)[0], rtol=1e-6)
    np.testing.assert_allclose(r.read(), np.asarray(wv, np.float64).sum(axis=1), rtol=1e-6)


def test_length_one_dimension_with_any_stride():
    g = ng.Graph()
    A, B = g.axis("A", 1), g.axis("B", 3)
    x = g.placeholder(ng.float32, [A, B])
    f = ng.Transformer().computation(x * 2.0, [x])
    base = np.array([1, 2, 3, 4], np.float32)
    # NumPy calls this C-contiguous: a stride of 4 floats on a dimension of length 1 never steps.
    odd = np.lib.stride_tricks.as_strided(base, shape=(1, 3), strides=(16, 4))
    assert odd.flags.c_contiguous
    np.testing.assert_array_equal(f(odd), [[2, 4, 6]])


def test_results_are_views_that_outlive_later_calls():
    f = _weighted_sum()
    ones = np.ones((3, 4), np.float32)
    first, first_rows = f(ones, ones)
    second, second_rows = f(ones * 3, ones)
    # A view keeps its result tensor: the next call cannot recycle its memory under it.
    np.testing.assert_array_equal(first, np.full((3, 4), 2, np.float32))
    np.testing.assert_array_equal(first_rows, np.full(3, 4, np.float32))
    np.testing.assert_array_equal(second, np.full((3, 4), 4, np.float32))
    np.testing.assert_array_equal(second_rows, np.full(3, 12, np.float32))
    assert first.flags.c_contiguous and first.flags.writeable and first.dtype == np.float32
    assert first.strides == (16, 4) and first_rows.strides == (4,)
    # Dropping the views lets the memory be recycled; the values of a new call are still right.
    del first, first_rows, second, second_rows
    again, again_rows = f(ones * 2, ones)
    np.testing.assert_array_equal(again, np.full((3, 4), 3, np.float32))
    np.testing.assert_array_equal(again_rows, np.full(3, 8, np.float32))


def test_results_of_every_rank_and_dtype_view_their_values():
    g = ng.Graph()
    N, M = g.axis("N", 2), g.axis("M", 3)
    x = g.placeholder(ng.int32, [N, M])
    total = ng.sum(x)  # rank 0
    flags = ng.greater(x, 2)  # bool, rank 2
    wide = ng.cast(x, ng.float64) * 0.5
    f = ng.Transformer().computation([total, flags, wide], [x])
    xv = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
    t, b, w = f(xv)
    assert t.shape == () and t.dtype == np.int32 and int(t) == 21
    assert b.dtype == np.bool_ and b.shape == (2, 3)
    np.testing.assert_array_equal(b, xv > 2)
    assert w.dtype == np.float64 and w.strides == (24, 8)
    np.testing.assert_array_equal(w, xv / 2.0)


def test_run_counts_that_do_not_match_raise_and_release_what_they_took():
    f = _weighted_sum()
    ones = np.ones((3, 4), np.float32)
    with pytest.raises(ng.InvalidArgumentError, match="ng_computation_run"):
        f.run([ones])
    with pytest.raises(ng.InvalidArgumentError, match="ng_computation_run"):
        f.run([ones, ones, ones])
    with pytest.raises(ng.InvalidArgumentError, match="ng_computation_run"):
        f.run([ones, ones], outputs=[None, None, None])
    with pytest.raises(ng.InvalidArgumentError, match="ng_computation_run"):
        f.run([ones, ones], outputs=[None])
    got, _ = f(ones, ones)  # the computation still runs
    np.testing.assert_array_equal(got, np.full((3, 4), 2, np.float32))
