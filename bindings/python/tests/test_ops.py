"""Ops built with Python operators and nanograph functions, against NumPy computed by hand."""
import numpy as np
import pytest

import nanograph as ng

RNG = np.random.default_rng(7)


@pytest.fixture()
def env():
    g = ng.Graph()
    A, B = g.axis("A", 2), g.axis("B", 3)
    x = g.placeholder(ng.float32, [A, B])
    y = g.placeholder(ng.float32, [A, B])
    xv = RNG.uniform(0.5, 2.0, (2, 3)).astype(np.float32)
    yv = RNG.uniform(0.5, 2.0, (2, 3)).astype(np.float32)
    t = ng.Transformer()

    def run(*ops):
        return t.computation(list(ops), [x, y])(xv, yv)

    yield g, A, B, x, y, xv, yv, run
    t.close()
    g.close()


def test_binary_operators(env):
    g, A, B, x, y, xv, yv, run = env
    got = run(x + y, x - y, x * y, x / y, x ** y, -x, x + 1, 2 * x, 1 - x, 3 / x, x ** 2, abs(x - y))
    want = [xv + yv, xv - yv, xv * yv, xv / yv, xv ** yv, -xv, xv + 1, 2 * xv, 1 - xv, 3 / xv,
            xv ** 2, abs(xv - yv)]
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_comparisons_give_bool(env):
    g, A, B, x, y, xv, yv, run = env
    got = run(x < y, x <= y, x > y, x >= y, x == x, x != y, x > 1)
    want = [xv < yv, xv <= yv, xv > yv, xv >= yv, xv == xv, xv != yv, xv > 1]
    for a, b in zip(got, want):
        assert a.dtype == np.bool_
        np.testing.assert_array_equal(a, b)


def test_unary_functions(env):
    g, A, B, x, y, xv, yv, run = env
    fns = {"exp": np.exp, "log": np.log, "sqrt": np.sqrt, "square": np.square,
           "reciprocal": np.reciprocal, "tanh": np.tanh, "sin": np.sin, "cos": np.cos,
           "sign": np.sign, "absolute": np.abs, "negative": np.negative,
           "sigmoid": lambda v: 1 / (1 + np.exp(-v)), "relu": lambda v: np.maximum(v - 1, 0)}
    ops = [getattr(ng, n)(x - 1 if n == "relu" else x) for n in fns]
    for a, (n, f) in zip(run(*ops), fns.items()):
        np.testing.assert_allclose(a, f(xv), rtol=2e-6, err_msg=n)
    sg, = run(ng.stop_gradient(x))
    np.testing.assert_array_equal(sg, xv)


def test_reductions(env):
    g, A, B, x, y, xv, yv, run = env
    got = run(ng.sum(x), ng.sum(x, B), x.sum(A), ng.max(x, A), ng.min(x, [B]), ng.mean(x),
              ng.prod(x, B), ng.variance(x, B), ng.squared_l2(x), ng.l2_norm(x, B), ng.l1_norm(x - 1),
              ng.argmax(x, B), ng.argmin(x, A))
    want = [xv.sum(), xv.sum(1), xv.sum(0), xv.max(0), xv.min(1), xv.mean(), xv.prod(1), xv.var(1),
            (xv ** 2).sum(), np.sqrt((xv ** 2).sum(1)), abs(xv - 1).sum(), xv.argmax(1), xv.argmin(0)]
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=2e-5)
    assert got[-2].dtype == np.int64


def test_dot_and_matmul_contract_shared_axes():
    g = ng.Graph()
    I, J, K = g.axis("I", 2), g.axis("J", 3), g.axis("K", 4)
    a = g.placeholder(ng.float64, [I, J])
    b = g.placeholder(ng.float64, [J, K])
    av, bv = RNG.normal(size=(2, 3)), RNG.normal(size=(3, 4))
    p, q = ng.Transformer().computation([a @ b, ng.dot(b, a)], [a, b])(av, bv)
    np.testing.assert_allclose(p, av @ bv)
    np.testing.assert_allclose(q, (av @ bv).T)  # b's other axis (K) first, then a's (I)


def test_softmax_and_cross_entropy(env):
    g, A, B, x, y, xv, yv, run = env
    sm, lsm, ce, bce = run(ng.softmax(x, B), ng.log_softmax(x, B),
                           ng.cross_entropy_multi(ng.softmax(x, B), y, B),
                           ng.cross_entropy_binary(ng.sigmoid(x), y / 4))
    e = np.exp(xv - xv.max(1, keepdims=True))
    ref = e / e.sum(1, keepdims=True)
    np.testing.assert_allclose(sm, ref, rtol=1e-6)
    np.testing.assert_allclose(lsm, np.log(ref), rtol=1e-5)
    np.testing.assert_allclose(ce, -(yv * np.log(ref)).sum(1), rtol=1e-5)
    s, t = 1 / (1 + np.exp(-xv)), yv / 4
    np.testing.assert_allclose(bce, -(t * np.log(s) + (1 - t) * np.log(1 - s)), rtol=1e-5)


def test_select_maximum_cast(env):
    g, A, B, x, y, xv, yv, run = env
    got = run(ng.where(x > y, x, y), ng.maximum(x, y), ng.minimum(x, 1.5), ng.cast(x * 10, ng.int32),
              (x * 10).astype("int64"))
    np.testing.assert_allclose(got[0], np.where(xv > yv, xv, yv))
    np.testing.assert_allclose(got[1], np.maximum(xv, yv))
    np.testing.assert_allclose(got[2], np.minimum(xv, np.float32(1.5)))
    np.testing.assert_array_equal(got[3], (xv * np.float32(10)).astype(np.int32))
    assert got[4].dtype == np.int64


def test_views(env):
    g, A, B, x, y, xv, yv, run = env
    C = g.axis("C", 5)
    B2 = g.axis("B2", 3)
    got = run(x[1], x[:, ::-1], x[..., 1:3], ng.transpose(x, [B, A]), ng.broadcast(x, [C, A, B]),
              ng.cast_axes(x, [A, B2]), ng.expand_dims(x, g.axis("E", 1), 1),
              ng.pad(x, [1, 0], [0, 2]), ng.concat([x, y], "A"), ng.stack([x, y], g.axis("S", 2), 0))
    np.testing.assert_array_equal(got[0], xv[1])
    np.testing.assert_array_equal(got[1], xv[:, ::-1])
    np.testing.assert_array_equal(got[2], xv[:, 1:3])
    np.testing.assert_array_equal(got[3], xv.T)
    np.testing.assert_array_equal(got[4], np.broadcast_to(xv, (5, 2, 3)))
    np.testing.assert_array_equal(got[5], xv)
    np.testing.assert_array_equal(got[6], xv[:, None, :])
    np.testing.assert_array_equal(got[7], np.pad(xv, [(1, 0), (0, 2)]))
    np.testing.assert_array_equal(got[8], np.concatenate([xv, yv], 0))
    np.testing.assert_array_equal(got[9], np.stack([xv, yv], 0))


def test_flatten_unflatten_one_hot():
    g = ng.Graph()
    H, W = g.axis("H", 2), g.axis("W", 3)
    x = g.placeholder(ng.float32, [H, W])
    f = ng.flatten(x, [H, W])
    assert [a.name for a in f.axes] == ["H_W"] and f.axes[0].components == [H, W]
    back = ng.unflatten(f)
    assert back.axes == [H, W]
    K = g.axis("K", 4)
    i = g.placeholder(ng.int32, [W])
    xv = np.arange(6, dtype=np.float32).reshape(2, 3)
    fv, bv, oh = ng.Transformer().computation([f, back, ng.one_hot(i, K)], [x, i])(xv, np.array([0, 3, 9], np.int32))
    np.testing.assert_array_equal(fv, xv.reshape(6))
    np.testing.assert_array_equal(bv, xv)
    # The class axis comes first; index 9 is outside 0..3 and gives a column of zeros.
    np.testing.assert_array_equal(oh, [[1, 0, 0], [0, 0, 0], [0, 0, 0], [0, 1, 0]])


def test_reshape():
    g = ng.Graph()
    x = g.placeholder(ng.float32, [g.axis("A", 2), g.axis("B", 6)])
    r = ng.reshape(ng.transpose(x, [x.axes[1], x.axes[0]]), [g.axis("P", 3), g.axis("Q", 4)])
    xv = np.arange(12, dtype=np.float32).reshape(2, 6)
    (rv,) = ng.Transformer().computation([r], [x])(xv)
    np.testing.assert_array_equal(rv, xv.T.reshape(3, 4))


def test_constants_and_scalars():
    g = ng.Graph()
    N = g.axis("N", 3)
    c = g.constant([1.0, 2.0, 3.0], [N])
    d = g.constant(np.array([1, 2, 3], np.int64), [N])
    assert c.dtype == ng.float32 and d.dtype == ng.int64 and c.type == "Constant"
    assert c.flags & ng.CONSTANT
    s = g.scalar(2.5)
    i = g.scalar(7, ng.int32)
    r = ng.Transformer().computation([c * s, d + 1, i * 2])()
    np.testing.assert_array_equal(r[0], [2.5, 5, 7.5])
    np.testing.assert_array_equal(r[1], [2, 3, 4])
    assert int(r[2]) == 14


def test_graph_queries_and_attributes():
    g = ng.Graph()
    N = g.axis("N", 2)
    assert g.axis("N", 2) == N and N.name == "N" and N.length == 2 and len(N) == 2
    x = g.placeholder(ng.float32, [N])
    w = g.variable(ng.float32, [N], g.uniform([N], -1, 1, seed=3))
    y = ng.tanh(w * x)
    y.name = "out"
    assert g.find("out").same(y) and y.type == "Tanh" and y.shape == (2,) and y.ndim == 1
    assert [o.name for o in ng.variables(y)] == [w.name]
    assert [o.name for o in ng.placeholders(y)] == [x.name]
    assert len(y.args) == 1 and y.args[0].same(y.args[0])
    assert w.initial_value is not None and x.initial_value is None
    assert w.flags == ng.PERSISTENT | ng.TRAINABLE and x.flags == ng.PERSISTENT | ng.INPUT
    y.set_metadata("role", "output")
    assert y.metadata("role") == "output" and y.metadata("absent") is None
    assert [o.name for o in g.select("role", "output")] == ["out"]
    assert [o.name for o in g.select("role")] == ["out"]
    z = x + 1
    z.add_control_dep(y)
    assert [d.name for d in z.control_deps] == ["out"]
    assert len(g) == len(g.ops) and g.status == 0 and g.error == ""
    text = g.dot([y])
    assert text.startswith("digraph") and "out" in text


def test_write_dot(tmp_path):
    g = ng.Graph()
    x = g.placeholder(ng.float32, [g.axis("N", 2)])
    path = tmp_path / "g.dot"
    g.write_dot(str(path), [ng.exp(x)])
    assert "Exp" in path.read_text()
    with pytest.raises(ng.IOError) as e:
        g.write_dot(str(tmp_path / "missing" / "g.dot"))
    assert "missing" in str(e.value)


def test_segment_ops():
    g = ng.Graph()
    F, S, K = g.axis("F", 5), g.axis("S", 2), g.axis("K", 3)
    x = g.placeholder(ng.float32, [F])
    splits = g.constant(np.array([0, 2, 5], np.int64), [K])
    s = ng.segment_sum(x, F, splits, S)
    got = ng.Transformer().computation([s, ng.segment_max(x, F, splits, S), ng.segment_mean(x, F, splits, S),
                                        ng.segment_gather(s, S, splits, F)], [x])(np.arange(1, 6, dtype=np.float32))
    np.testing.assert_array_equal(got[0], [3, 12])
    np.testing.assert_array_equal(got[1], [2, 5])
    np.testing.assert_allclose(got[2], [1.5, 4])
    np.testing.assert_array_equal(got[3], [3, 3, 12, 12, 12])
