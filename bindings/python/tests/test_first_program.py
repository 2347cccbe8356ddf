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


def _readme_block(heading):
    import pathlib
    import re

    text = (pathlib.Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = text.split("## " + heading + "\n", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_readme_shapes_and_jagged_block_runs_as_written():
    import nanograph as ng

    env = {"np": np, "ng": ng}
    exec(_readme_block("Shapes and jagged tensors"), env)
    s, j, k = env["s"], env["j"], env["k"]
    assert (str(s), s.size, s.extent([2]), s.row_splits(1).tolist()) == ("(3, [2 0 3])", 5, 3, [0, 2, 2, 5])
    assert list(s[1:3].indices(absolute=True)) == [(2, 0), (2, 1), (2, 2)]
    assert j.values.tolist() == [1, 2, 3, 4, 5] and k.shape == j.shape
    assert [r.tolist() for r in ng.Jagged.from_padded(*j.to_padded()).tolist()] == [[1, 2], [], [3, 4, 5]]


def test_readme_computation_description_block_runs_as_written():
    import nanograph as ng

    g = ng.Graph()
    N = g.axis("N", 4)
    x, y = g.placeholder(ng.float32, [N]), g.placeholder(ng.float32, [N])
    x.name, y.name = "x", "y"
    env = {"np": np, "ng": ng, "x": x, "y": y, "cost": ng.sum((x - y) ** 2)}
    exec(_readme_block("What a computation takes and returns"), env)
    assert env["f"].params[0] == ng.Signature("x", ng.float32, (("N", 4),))
    assert env["f"].results[1].shape == (4,)
