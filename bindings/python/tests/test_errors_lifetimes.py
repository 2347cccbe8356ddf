"""Errors become exceptions of the status's class with the library's message; handles are freed by
close(), `with` and the garbage collector, in any order."""
import gc
import threading

import numpy as np
import pytest

import nanograph as ng


def test_each_status_has_its_class():
    g = ng.Graph()
    N3, N4 = g.axis("N", 3), g.axis("N", 4)
    a, b = g.placeholder(ng.float32, [N3]), g.placeholder(ng.float32, [N4])
    with pytest.raises(ng.AxesError) as e:
        a + b
    assert e.value.status == 2 and e.value.status_name == "NG_ERR_AXES"
    assert "ng_add" in str(e.value) and "N(3)" in str(e.value) and "N(4)" in str(e.value)
    assert isinstance(e.value, ng.Error) and isinstance(e.value, ValueError)
    # The graph remembers its first construction error.
    assert g.status == 2 and "ng_add" in g.error
    i = g.placeholder(ng.int32, [N3])
    with pytest.raises(ng.DTypeError) as e:
        a + i
    assert "ng_add" in e.value.message
    with pytest.raises(ng.InvalidArgumentError):
        g.axis("", 3)
    with pytest.raises(ng.NotFoundError):
        g.find("no such op")
    with pytest.raises(ng.UnsupportedError):
        ng.Transformer("gpu")
    t = ng.Transformer()
    with pytest.raises(ng.StateError):
        t.computation([a * 2])  # a is neither a parameter nor has a value
    with pytest.raises(ng.NotFoundError):
        t.get_value(a)


def test_run_errors_name_the_problem():
    g = ng.Graph()
    x = g.placeholder(ng.float32, [g.axis("N", 4)])
    f = ng.Transformer().computation(x * 2, [x])
    with pytest.raises(ng.AxesError):
        f(np.zeros(3, np.float32))
    with pytest.raises(ng.InvalidArgumentError) as e:
        f.run([])  # one input is needed
    assert "ng_computation_run" in str(e.value)
    np.testing.assert_array_equal(f(np.ones(4, np.float32)), [2, 2, 2, 2])
    np.testing.assert_array_equal(f([1, 2, 3, 4]), [2, 4, 6, 8])  # converted to the dtype


def test_closed_handles_raise_instead_of_crashing():
    g = ng.Graph()
    x = g.placeholder(ng.float32, [g.axis("N", 2)])
    y = x * 2
    f = ng.Transformer().computation(y, [x])
    g.close()
    g.close()  # twice is fine
    with pytest.raises(ng.ClosedError):
        y + 1
    with pytest.raises(ng.ClosedError):
        x.name
    assert "closed" in repr(y)
    # The computation holds its own copy of the graph.
    np.testing.assert_array_equal(f(np.array([1, 2], np.float32)), [2, 4])
    f.close()
    with pytest.raises(ng.ClosedError):
        f(np.zeros(2, np.float32))


def test_context_managers():
    with ng.Graph() as g, ng.Transformer() as t:
        x = g.placeholder(ng.float32, [g.axis("N", 2)])
        with t.computation(x + 1, [x]) as f:
            np.testing.assert_array_equal(f(np.zeros(2, np.float32)), [1, 1])
    with pytest.raises(ng.ClosedError):
        t.num_threads
    with pytest.raises(ng.ClosedError):
        f(np.zeros(2, np.float32))


@pytest.mark.parametrize("order", [0, 1, 2, 3])
def test_any_order_of_collection(order):
    g = ng.Graph()
    x = g.placeholder(ng.float32, [g.axis("N", 2)])
    t = ng.Transformer()
    f = t.computation(x + 1, [x])
    out = f(np.ones(2, np.float32))
    objs = {"graph": g, "x": x, "t": t, "f": f}
    names = [["graph", "x", "t", "f"], ["f", "t", "x", "graph"], ["t", "graph", "f", "x"],
             ["x", "f", "graph", "t"]][order]
    del g, x, t, f
    for n in names:  # nothing here is in a cycle: each del frees at once, in this order
        del objs[n]
    gc.collect()
    np.testing.assert_array_equal(out, [2, 2])  # results outlive everything


def test_ops_keep_their_graph_alive():
    def build():
        g = ng.Graph()
        return g.placeholder(ng.float32, [g.axis("N", 3)])

    x = build()
    gc.collect()
    assert x.shape == (3,) and x.graph.status == 0


def test_errors_belong_to_their_thread():
    failures = []

    def worker(k):
        # One graph per thread: a graph is built from one thread at a time.
        gk = ng.Graph()
        p = gk.placeholder(ng.float32, [gk.axis("K%d" % k, 3)])
        q = gk.placeholder(ng.float32, [gk.axis("K%d" % k, 4)])
        r = gk.placeholder(ng.float32, [gk.axis("M", 2)])
        for _ in range(300):
            try:
                p + q
                failures.append("no error")
            except ng.AxesError as e:
                if "K%d(3)" % k not in str(e):
                    failures.append(str(e))
            if (p + r).shape != (3, 2):  # a success in between clears the thread's error
                failures.append("shape")

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert failures == []


def test_version():
    assert ng.version() == "%d.%d.%d" % divmod_version(ng.version_number())


def divmod_version(n):
    return n // 10000, n // 100 % 100, n % 100
