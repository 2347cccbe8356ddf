"""Shapes, index iteration and jagged tensors, against values worked out by hand and by NumPy;
segment ops fed from a jagged tensor's values and row splits."""
import itertools

import numpy as np
import pytest

import nanograph as ng


def test_smooth_shape_describes_its_extents_and_iterates_like_ndindex():
    s = ng.Shape([2, 3, 4])
    assert (s.kind, s.ndim, s.size, len(s), s.smooth_rank) == ("smooth", 3, 24, 2, 3)
    assert s.dims == (2, 3, 4)
    assert str(s) == "(2, 3, 4)"
    assert list(s) == list(np.ndindex(2, 3, 4))
    assert [s.is_jagged(m) for m in range(3)] == [False, False, False]
    assert s.row_splits(1).tolist() == [0, 3, 6]  # implicit splits of a uniform mode
    assert s == ng.Shape([2, 3, 4]) and s != ng.Shape([2, 4, 3])
    scalar = ng.Shape([])
    assert (scalar.ndim, scalar.size, list(scalar)) == (0, 1, [()])
    empty = ng.Shape([0, 2])
    assert (empty.size, empty.dims, list(empty)) == (0, (0, 2), [])


def test_jagged_shape_from_splits_and_lengths():
    s = ng.Shape.jagged(3, [0, 2, 2, 5])
    assert s == ng.Shape.from_row_lengths([2, 0, 3])
    assert (s.kind, s.ndim, s.size, s.smooth_rank) == ("jagged", 2, 5, 1)
    assert str(s) == "(3, [2 0 3])"
    assert [s.extent([i]) for i in range(3)] == [2, 0, 3]
    assert (s.is_jagged(0), s.is_jagged(1)) == (False, True)
    assert s.row_splits(1).tolist() == [0, 2, 2, 5]
    assert s.row_lengths().tolist() == [2, 0, 3]
    assert list(s) == [(0, 0), (0, 1), (2, 0), (2, 1), (2, 2)]
    # splits that are all equal rows make a uniform mode: the shape is smooth
    assert ng.Shape.jagged(2, [0, 3, 6]) == ng.Shape([2, 3])
    # rank 3 with a uniform inner mode, and smooth matrices of different extents
    r = ng.Shape.jagged(2, [0, 1, 3], 4)
    assert (str(r), r.size, r.smooth_rank) == ("(2, [1 2], 4)", 12, 2)  # each row a (k, 4) matrix
    m = ng.Shape.jagged(2, [0, 2, 3], [0, 3, 6, 8])
    assert (m.size, m.smooth_rank, m.is_jagged(2)) == (8, 2, True)


def test_slices_remember_their_origin_and_iterate_absolute_indices():
    s = ng.Shape.from_row_lengths([2, 0, 3])
    tail = s[1:3]
    assert (str(tail), tail.origin) == ("(2, [0 3])", (1, 0))
    assert list(tail) == [(1, 0), (1, 1), (1, 2)]
    assert list(tail.indices(absolute=True)) == [(2, 0), (2, 1), (2, 2)]
    row = s[2]
    assert (str(row), row.origin, row.ndim) == ("(3)", (2, 0), 1)
    assert list(row.indices(absolute=True)) == [(2, 0), (2, 1), (2, 2)]
    assert row.indices(absolute=True).index_length == 2
    elem = s[2, 1]
    assert (elem.ndim, elem.size, elem.origin) == (0, 1, (2, 1))
    it = s.indices()
    assert (next(it), next(it)) == ((0, 0), (0, 1))
    it.reset()
    assert next(it) == (0, 0)
    it.close()
    with pytest.raises(ng.ClosedError):
        next(it)
    import copy

    twin = copy.copy(s)
    del s
    assert str(twin) == "(3, [2 0 3])" and copy.deepcopy(twin) == twin


def test_nested_shape_keeps_the_partition_until_flattened():
    n = ng.Shape.nested(ng.Shape([2]), [ng.Shape([2, 2]), ng.Shape([1, 3])])
    assert (n.kind, n.ndim, n.size) == ("nested", 3, 7)
    assert n.outer == ng.Shape([2])
    assert n.elements == [ng.Shape([2, 2]), ng.Shape([1, 3])]
    flat = n.flatten()
    assert flat.kind == "jagged" and str(flat) == "(2, [2 1], [2 2 3])"
    assert list(n) == list(flat) == [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 0, 2)]


def test_broadcast_follows_numpy_for_smooth_shapes_and_keeps_jagged_ones():
    for a, b in [((3, 1), (4,)), ((2, 1, 5), (3, 1)), ((), (2, 2))]:
        assert ng.broadcast_shapes(ng.Shape(a), ng.Shape(b)).dims == np.broadcast_shapes(a, b)
    j = ng.Shape.jagged(3, [0, 2, 2, 5], 4)
    assert j.broadcast(ng.Shape([4])) == j
    assert ng.Shape([1]).broadcast(j) == j


def test_shape_bad_inputs_raise_the_library_errors():
    with pytest.raises(ng.InvalidArgumentError, match=r"ng_shape_smooth: shape dimension 0 is negative \(-1\)"):
        ng.Shape([-1])
    with pytest.raises(ng.InvalidArgumentError, match="ng_shape_jagged: the row splits of mode 1 decrease"):
        ng.Shape.jagged(3, [0, 2, 1, 5])
    with pytest.raises(ng.InvalidArgumentError, match="ng_shape_jagged: the row splits of mode 1 have 2 entries"):
        ng.Shape.jagged(2, [0, 1])
    s = ng.Shape([2])
    with pytest.raises(ng.InvalidArgumentError, match="ng_shape_extent: mode is 1 but the shape"):
        s.extent([5])
    with pytest.raises(ng.InvalidArgumentError, match="ng_shape_mode_is_jagged: mode is 3"):
        s.is_jagged(3)
    with pytest.raises(ng.InvalidArgumentError, match="ng_shape_row_splits: mode is 0"):
        s.row_splits(0)
    with pytest.raises(ng.InvalidArgumentError, match="ng_shape_at: index 0 is 3 but mode 0 has extent 2"):
        s[3]
    with pytest.raises(ng.InvalidArgumentError, match=r"ng_shape_outer: the shape \(2\) is not nested"):
        s.outer
    with pytest.raises(ng.InvalidArgumentError, match="ng_shape_element: the shape"):
        s.element(0)
    with pytest.raises(ng.AxesError, match="ng_shape_nested: the outer shape"):
        ng.Shape.nested(ng.Shape([2]), [ng.Shape([1])])
    nested = ng.Shape.nested(ng.Shape([1]), [ng.Shape([1])])
    with pytest.raises(ng.UnsupportedError, match="ng_shape_slice: flatten a nested shape"):
        nested[0:1]
    with pytest.raises(ng.InvalidArgumentError, match="ng_shape_element: element 3"):
        nested.element(3)
    with pytest.raises(ng.AxesError, match="ng_shape_broadcast: the shapes"):
        ng.Shape.from_row_lengths([2, 0, 3]).broadcast(ng.Shape([4]))
    with pytest.raises(TypeError):
        len(ng.Shape([]))


ROWS = [np.array([1.0, 2.0], np.float32), np.array([], np.float32), np.array([3.0, 4.0, 5.0], np.float32)]


def test_jagged_from_rows_round_trips_and_views_its_values():
    j = ng.Jagged(ROWS)
    assert (j.dtype, str(j.shape), j.ndim, j.size, len(j)) == (ng.float32, "(3, [2 0 3])", 2, 5, 3)
    np.testing.assert_array_equal(j.values, np.concatenate(ROWS))
    assert j.row_splits().tolist() == [0, 2, 2, 5]
    for got, want in zip(j.tolist(), ROWS):
        np.testing.assert_array_equal(got, want)
    assert j.position([2, 1]) == 3 and j[2, 1] == 4.0
    np.testing.assert_array_equal(j[2].numpy(), ROWS[2])
    v = j.values
    v[0] = 42  # a view: writes are seen by the tensor
    assert j.read()[0] == 42
    j.write(np.arange(5))
    np.testing.assert_array_equal(j.values, np.arange(5, dtype=np.float32))


def test_padded_round_trip_matches_numpy_padding():
    j = ng.Jagged(ROWS)
    padded, mask = j.to_padded()
    want = np.zeros((3, 3), np.float32)
    want_mask = np.zeros((3, 3), bool)
    for i, r in enumerate(ROWS):
        want[i, : len(r)], want_mask[i, : len(r)] = r, True
    np.testing.assert_array_equal(padded, want)
    np.testing.assert_array_equal(mask, want_mask)
    back = ng.Jagged.from_padded(padded, mask)
    assert back.shape == j.shape
    np.testing.assert_array_equal(back.values, j.values)


def test_row_splits_with_inner_dims_and_nested_splits_share_values():
    values = np.arange(10, dtype=np.int64).reshape(5, 2)
    j = ng.Jagged.from_row_splits(values, [0, 2, 2, 5])
    assert str(j.shape) == "(3, [2 0 3], 2)"
    rows = j.tolist()
    np.testing.assert_array_equal(rows[0], values[0:2])
    assert rows[1].shape == (0, 2)
    np.testing.assert_array_equal(rows[2], values[2:5])
    values[0, 0] = -1  # shared, not copied
    assert j.values[0] == -1
    copied = ng.Jagged.from_data(j.shape, values, copy=True)
    values[0, 0] = 0
    assert copied.values[0] == -1
    nested = ng.Jagged.from_row_splits(np.arange(6), [0, 2, 3], [0, 1, 3, 6])
    assert str(nested.shape) == "(2, [2 1], [1 2 3])"
    assert [r.tolist() for r in nested.tolist()[0]] == [[0], [1, 2]]
    np.testing.assert_array_equal(nested.tolist()[1], [[3, 4, 5]])


def test_views_zeros_and_values_over_a_tensor():
    j = ng.Jagged(ROWS)
    tail = j[1:3]
    assert (str(tail.shape), tail.shape.origin) == ("(2, [0 3])", (1, 0))
    np.testing.assert_array_equal(tail.values, ROWS[2])
    tail.values[:] = 7  # views share the values
    np.testing.assert_array_equal(j.values, [1, 2, 7, 7, 7])
    z = ng.Jagged.zeros(ng.Shape.from_row_lengths([1, 2]), ng.int32)
    assert z.dtype == ng.int32 and z.read().tolist() == [0, 0, 0]
    t = ng.Tensor(np.array([1.0, 2.0, 3.0]))
    over = ng.Jagged.from_values(ng.Shape.from_row_lengths([1, 2]), t)
    over.values[2] = 9.0
    assert t.read().tolist() == [1.0, 2.0, 9.0]
    m = ng.Jagged([np.ones((2, 3)), np.zeros((1, 2))])  # smooth matrices of different extents
    assert (str(m.shape), m.shape.smooth_rank) == ("(2, [2 1], [3 3 2])", 2)
    assert [r.shape for r in m.tolist()] == [(2, 3), (1, 2)]
    second = m.retain()
    with m:
        pass
    with pytest.raises(ng.ClosedError):
        m.values
    assert second.size == 8  # its own reference


def test_jagged_bad_inputs_raise_the_library_errors():
    j = ng.Jagged([[1.0, 2.0], [3.0]])
    with pytest.raises(ng.InvalidArgumentError, match="ng_jagged_position: index 1 is 1 but mode 1 has extent 1"):
        j.position([1, 1])
    with pytest.raises(ng.InvalidArgumentError, match=r"ng_jagged_slice: the range \[1, 3\) is not within mode 0"):
        j.slice(1, 3)
    with pytest.raises(ng.InvalidArgumentError, match="ng_jagged_write: src_bytes is 8"):
        j.write([1, 2])
    with pytest.raises(ng.InvalidArgumentError, match="ng_jagged_row_splits: mode is 2"):
        j.row_splits(2)
    with pytest.raises(ng.InvalidArgumentError, match="ng_jagged_at: an index prefix of 3 entries"):
        j.at([0, 0, 0])
    with pytest.raises(ng.UnsupportedError, match="ng_jagged_create: shape is nested"):
        ng.Jagged.zeros(ng.Shape.nested(ng.Shape([1]), [ng.Shape([2])]))
    with pytest.raises(ng.AxesError, match=r"ng_jagged_from_values: the shape \(3\) has 3 elements"):
        ng.Jagged.from_values(ng.Shape([3]), np.ones(2))
    with pytest.raises(ng.InvalidArgumentError, match="ng_jagged_from_padded: the mask is not the mask"):
        ng.Jagged.from_padded(np.ones((2, 2)), np.array([[False, True], [True, True]]))
    with pytest.raises(ng.DTypeError, match="ng_jagged_from_padded: the mask is float64, not bool"):
        ng.Jagged.from_padded(np.ones((2, 2)), np.ones((2, 2)))
    with pytest.raises(ng.AxesError, match="ng_jagged_from_padded: the mask has shape"):
        ng.Jagged.from_padded(np.ones((2, 2)), np.ones((2, 3), bool))
    # the C functions take the values as a bare pointer: the binding checks their count first
    with pytest.raises(ng.AxesError, match="has 5 elements but 4 values"):
        ng.Jagged.from_row_splits(np.arange(4.0), [0, 2, 5])
    with pytest.raises(ng.AxesError, match="has 5 elements but 4 values"):
        ng.Jagged.from_data(ng.Shape.from_row_lengths([2, 3]), np.arange(4.0), copy=True)
    with pytest.raises(ValueError, match="different ranks"):
        ng.Jagged([np.ones(2), np.ones((1, 1))])
    with pytest.raises(ValueError, match="is jagged"):
        j.numpy()


def test_segment_ops_on_a_jagged_tensor_match_per_row_numpy():
    rng = np.random.default_rng(3)
    rows = [rng.standard_normal(n).astype(np.float32) for n in (3, 1, 4, 2)]
    j = ng.Jagged(rows)
    g = ng.Graph()
    flat, seg = g.axis("T", j.size), g.axis("S", len(j))
    splits_axis = g.axis("S1", len(j) + 1)
    x = g.placeholder(ng.float32, [flat])
    splits = g.placeholder(ng.int64, [splits_axis])
    f = ng.Transformer().computation(
        [ng.segment_sum(x, flat, splits, seg), ng.segment_max(x, flat, splits, seg),
         ng.segment_softmax(x, flat, splits, seg)], [x, splits])
    sums, maxes, soft = f(j.values, j.row_splits())
    np.testing.assert_allclose(sums, [r.sum() for r in rows], rtol=1e-5)
    np.testing.assert_array_equal(maxes, [r.max() for r in rows])
    want = np.concatenate([np.exp(r - r.max()) / np.exp(r - r.max()).sum() for r in rows])
    np.testing.assert_allclose(soft, want, rtol=1e-5)
    # the result, back as a jagged tensor of the input's shape
    back = ng.Jagged.from_data(j.shape, soft)
    for got, r in zip(back.tolist(), rows):
        np.testing.assert_allclose(got.sum(), 1.0, rtol=1e-5)
        assert got.shape == r.shape


def test_iteration_visits_the_values_in_order():
    j = ng.Jagged([np.arange(3), np.arange(10, 12)])
    seen = [j.values[j.position(i)] for i in j.shape]
    assert seen == j.values.tolist()
    assert list(itertools.islice(j.shape.indices(), 4)) == [(0, 0), (0, 1), (0, 2), (1, 0)]


def test_shapes_jagged_and_tensors_pickle():
    import pickle

    for s in (ng.Shape([2, 3]), ng.Shape([]), ng.Shape.from_row_lengths([2, 0, 3]),
              ng.Shape.jagged(2, [0, 2, 3], [0, 1, 3, 6]),
              ng.Shape.nested(ng.Shape([2]), [ng.Shape([2, 2]), ng.Shape([1, 3])])):
        back = pickle.loads(pickle.dumps(s))
        assert back == s and back.kind == s.kind and str(back) == str(s)
    j = ng.Jagged(ROWS)
    back = pickle.loads(pickle.dumps(j[1:3]))
    assert str(back.shape) == "(2, [0 3])" and back.shape.origin == (0, 0)
    np.testing.assert_array_equal(back.values, ROWS[2])
    t = ng.Tensor(np.arange(6, dtype=np.int32).reshape(2, 3)).T
    tb = pickle.loads(pickle.dumps(t))
    assert tb.dtype == ng.int32 and tb.is_contiguous()
    np.testing.assert_array_equal(tb.numpy(), np.arange(6).reshape(2, 3).T)


def test_views_outlive_their_jagged_tensor_and_threads_share_shapes():
    import gc
    import threading

    j = ng.Jagged([np.arange(3.0), np.arange(2.0)])
    values, row, shape = j.values, j[1], j.shape
    del j
    gc.collect()
    assert values.tolist() == [0, 1, 2, 0, 1] and row.values.tolist() == [0, 1]
    assert str(shape) == "(2, [3 2])"

    errors = []

    def work(k):
        try:
            for _ in range(200):
                s = ng.Shape.from_row_lengths([k, 1, k + 1])
                jj = ng.Jagged.from_data(s, np.full(s.size, k, np.int64))
                assert jj.tolist()[2].tolist() == [k] * (k + 1) and shape.size == 5
        except Exception as e:  # reported on the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
