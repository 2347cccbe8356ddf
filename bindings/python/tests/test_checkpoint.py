"""Transformer.save/load: checkpoints of persistent values and of the random generator."""
import numpy as np
import pytest

import nanograph as ng

if "transformer_save" not in ng.lib.names:
    pytest.skip("the library has no checkpoints", allow_module_level=True)


def _model(n=3, dtype=ng.float32):
    """cost = sum((x . w - y)^2) with w a variable named "w", trained by Adam (persistent state)."""
    g = ng.Graph()
    B, K = g.axis("B", 4), g.axis("K", n)
    x, y = g.placeholder(dtype, [B, K]), g.placeholder(dtype, [B])
    w = g.variable(dtype, [K], initial_value=g.constant(np.arange(1, n + 1), [K], dtype=dtype))
    w.name = "w"
    cost = ng.sum((ng.dot(x, w) - y) ** 2)
    noise = g.random_uniform([B], 0.0, 1.0, dtype)
    noise.name = "noise"
    return g, x, y, w, ng.adam(cost, 0.1), noise


XS = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
YS = np.array([1, -1, 2, 0], np.float32)


def test_a_loaded_checkpoint_continues_training_exactly(tmp_path):
    g, x, y, w, step, noise = _model()
    t = ng.Transformer()
    train = t.computation(step, [x, y])
    draw = t.computation(noise)
    for _ in range(3):
        train(XS, YS)
    draw()
    path = tmp_path / "model.ckpt"
    t.save(path)
    saved_w = t.get_value(w).copy()
    train(XS, YS)
    want_next = (t.get_value(w).copy(), draw().copy())

    g2, x2, y2, w2, step2, noise2 = _model()  # the same graph in a "new process"
    t2 = ng.Transformer()
    train2, draw2 = t2.computation(step2, [x2, y2]), t2.computation(noise2)
    t2.load(str(path))
    np.testing.assert_array_equal(t2.get_value(w2), saved_w)
    assert not np.array_equal(saved_w, [1, 2, 3])  # training moved it
    train2(XS, YS)  # Adam's moments came back too: the same step as the original's
    np.testing.assert_array_equal(t2.get_value(w2), want_next[0])
    np.testing.assert_array_equal(draw2(), want_next[1])  # and the generator's state


def test_checkpoint_bad_inputs_raise_the_library_errors(tmp_path):
    g, x, y, w, step, noise = _model()
    t = ng.Transformer()
    t.computation(step, [x, y])(XS, YS)
    with pytest.raises(ng.IOError, match="ng_transformer_load: .*missing.ckpt"):
        t.load(tmp_path / "missing.ckpt")
    (tmp_path / "junk.ckpt").write_bytes(b"not a checkpoint at all")
    with pytest.raises(ng.FormatError, match="ng_transformer_load"):
        t.load(tmp_path / "junk.ckpt")
    with pytest.raises(ng.IOError, match="ng_transformer_save: .*no/such/dir"):
        t.save(tmp_path / "no" / "such" / "dir" / "m.ckpt")
    path = tmp_path / "m.ckpt"
    t.save(path)
    before = t.get_value(w).copy()
    _, x4, y4, _, step4, _ = _model(n=4)
    t4 = ng.Transformer()
    c4 = t4.computation(step4, [x4, y4])  # noqa: F841 - alive while loading
    with pytest.raises(ng.AxesError, match="ng_transformer_load: .*w"):
        t4.load(path)
    _, x64, y64, _, step64, _ = _model(dtype=ng.float64)
    t64 = ng.Transformer()
    c64 = t64.computation(step64, [x64, y64])  # noqa: F841
    with pytest.raises(ng.DTypeError, match="ng_transformer_load: .*w"):
        t64.load(path)
    lonely = ng.Transformer()  # knows no tensor: the checkpoint's values have nowhere to go
    with pytest.raises(ng.NotFoundError, match="ng_transformer_load"):
        lonely.load(path)
    np.testing.assert_array_equal(t.get_value(w), before)
