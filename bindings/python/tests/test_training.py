"""Optimizers, initializers, state and persistent values."""
import numpy as np
import pytest

import nanograph as ng


def _problem(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(64, 3)).astype(np.float32)
    w_true = np.array([1.5, -2.0, 0.5], np.float32)
    return X, X @ w_true + 0.25, w_true


@pytest.mark.parametrize("opt", ["sgd", "momentum", "adam"])
def test_linear_regression_converges(opt):
    X, Y, w_true = _problem()
    g = ng.Graph()
    B, F = g.axis("B", 64), g.axis("F", 3)
    x, y = g.placeholder(ng.float32, [B, F]), g.placeholder(ng.float32, [B])
    w = g.variable(ng.float32, [F], g.normal([F], 0.0, 0.1, seed=1))
    b = g.variable(ng.float32, [])
    cost = ng.mean((ng.dot(x, w) + b - y) ** 2)
    lr = g.persistent_tensor(ng.float32, [], g.scalar(0.1 if opt != "adam" else 0.05))
    step = {"sgd": lambda: ng.sgd(cost, lr), "momentum": lambda: ng.sgd(cost, lr, momentum=0.5),
            "adam": lambda: ng.adam(cost, lr)}[opt]()
    t = ng.Transformer()
    train = t.computation(step, [x, y])
    first = float(train(X, Y))
    for _ in range(300):
        last = float(train(X, Y))
    assert last < first * 1e-3
    np.testing.assert_allclose(t.get_value(w), w_true, atol=2e-2)
    assert abs(float(t.get_value(b)) - 0.25) < 2e-2
    t.set_value(lr, 0.0)  # a learning rate of 0 freezes the weights without recompiling
    before = t.get_value(w)
    train(X, Y)
    np.testing.assert_array_equal(t.get_value(w), before)


def test_deriv_against_central_differences():
    g = ng.Graph()
    N = g.axis("N", 4)
    x = g.placeholder(ng.float64, [N])
    cost = ng.sum(ng.tanh(x) * ng.exp(x / 3))
    f = ng.Transformer().computation([cost, ng.deriv(cost, x)], [x])
    xv = np.array([-1.0, 0.2, 0.7, 1.3])
    _, d = f(xv)
    h = 1e-6
    for i in range(4):
        e = np.zeros(4)
        e[i] = h
        num = (float(f(xv + e)[0]) - float(f(xv - e)[0])) / (2 * h)
        assert abs(d[i] - num) < 1e-6


def test_vjp():
    g = ng.Graph()
    N = g.axis("N", 3)
    x, e = g.placeholder(ng.float64, [N]), g.placeholder(ng.float64, [N])
    v = ng.Transformer().computation(ng.vjp(x * x, e, x), [x, e])
    np.testing.assert_allclose(v([1.0, 2.0, 3.0], [1.0, 0.5, -1.0]), [2.0, 2.0, -6.0])


def test_initializers_and_assignable_tensors():
    g = ng.Graph()
    I, O = g.axis("I", 50), g.axis("O", 40)
    inits = [g.uniform([I, O], -0.5, 0.5, seed=1), g.normal([I, O], 1.0, 0.1, seed=2),
             g.glorot_uniform([I, O], [I], seed=3), g.he_normal([I, O], [I], seed=4, dtype=ng.float64)]
    u, n, gl, he = ng.Transformer().computation(inits)()
    assert u.min() >= -0.5 and u.max() < 0.5 and abs(u.mean()) < 0.05
    assert abs(n.mean() - 1.0) < 0.02 and abs(n.std() - 0.1) < 0.02
    assert abs(gl).max() <= np.sqrt(6 / 90) + 1e-7
    assert he.dtype == np.float64 and abs(he.std() - np.sqrt(2 / 50)) < 0.02
    a = g.assignable_tensor(ng.float32, [I], ng.PERSISTENT | ng.INPUT)
    assert a.flags == ng.PERSISTENT | ng.INPUT and a.type == "Placeholder"


def test_assign_and_sequential_keep_state():
    g = ng.Graph()
    count = g.persistent_tensor(ng.int32, [], g.scalar(0, ng.int32))
    tick = ng.sequential([ng.assign(count, count + 1), count * 10])
    t = ng.Transformer(num_threads=1)
    assert t.num_threads == 1
    f = t.computation(tick)
    assert [int(f()) for _ in range(3)] == [10, 20, 30]
    assert int(t.get_value(count)) == 3
    stats = f.stats()
    assert stats["num_kernels"] >= 1 and f.num_params == 0 and f.num_results == 1


def test_fill_assign_slice_value_of():
    g = ng.Graph()
    N = g.axis("N", 4)
    v = g.persistent_tensor(ng.float32, [N])
    before = ng.value_of(v)
    step = ng.sequential([ng.fill(v, 1.0), ng.assign_slice(v, slice(1, 3), 5.0), ng.value_of(v)])
    t = ng.Transformer()
    f = t.computation([step])
    got, = f()
    np.testing.assert_array_equal(got, [1, 5, 5, 1])
    np.testing.assert_array_equal(t.get_value(v), [1, 5, 5, 1])
    assert before.type != ""


def test_initial_values_given_as_arrays_take_the_tensor_axes():
    g = ng.Graph()
    M, K = g.axis("M", 2), g.axis("K", 3)
    w = g.variable(ng.float32, [M, K], initial_value=np.arange(6).reshape(2, 3))
    b = g.persistent_tensor(ng.float64, [K], initial_value=[1.5, 2.5, 3.5])
    s = g.variable(ng.float32, [M, K], initial_value=0.25)  # a scalar fills every element
    t = ng.Transformer()
    f = t.computation([w + 0, b + 0, s + 0])
    wv, bv, sv = f()
    np.testing.assert_array_equal(wv, np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(bv, [1.5, 2.5, 3.5])
    np.testing.assert_array_equal(sv, np.full((2, 3), 0.25, np.float32))
    with pytest.raises(ValueError):
        g.variable(ng.float32, [M], initial_value=[1, 2, 3])  # 3 values for an axis of length 2
