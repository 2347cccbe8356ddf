"""The README's first program, exactly as written there."""
import numpy as np


def test_first_program():
    import numpy as np, nanograph as ng  # noqa: E401 - as the README writes it
    g = ng.Graph()
    N = g.axis("N", 4)
    x = g.placeholder(ng.float32, [N]); y = g.placeholder(ng.float32, [N])  # noqa: E702
    cost = ng.sum((x - y) ** 2)
    f = ng.Transformer().computation([cost, ng.deriv(cost, x)], [x, y])
    c, dx = f(np.array([1, 2, 3, 4], np.float32), np.zeros(4, np.float32))   # 30.0, [2 4 6 8]
    assert c.shape == () and c.dtype == np.float32 and float(c) == 30.0
    np.testing.assert_array_equal(dx, np.array([2, 4, 6, 8], np.float32))


def test_first_program_again_with_other_values():
    import nanograph as ng
    g = ng.Graph()
    N = g.axis("N", 3)
    x, y = g.placeholder(ng.float32, [N]), g.placeholder(ng.float32, [N])
    cost = ng.sum((x - y) ** 2)
    f = ng.Transformer().computation([cost, ng.deriv(cost, x)], [x, y])
    for xv, yv in [([1, 1, 1], [0, 0, 0]), ([0.5, -2, 3], [1, 1, 1])]:
        c, dx = f(np.array(xv, np.float32), np.array(yv, np.float32))
        d = np.array(xv, np.float64) - np.array(yv, np.float64)
        assert abs(float(c) - (d * d).sum()) < 1e-5
        np.testing.assert_allclose(dx, 2 * d, rtol=1e-6)
