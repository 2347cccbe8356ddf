"""The generated op builders (nanograph/_ops.py, _graph_builders.py): one wrapper of each
argument pattern the generator knows, run and compared with NumPy; bad input raised as Python
exceptions; and the generators themselves (current, loud on what they cannot read)."""
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

import nanograph as ng

BINDINGS = pathlib.Path(__file__).resolve().parents[2]
INCLUDE = BINDINGS.parent / "include" / "nanograph"


@pytest.fixture()
def g():
    graph = ng.Graph()
    yield graph
    graph.close()


def run(outputs, params=(), inputs=()):
    t = ng.Transformer()
    try:
        return t.computation(list(outputs), list(params))(*inputs)
    finally:
        t.close()


def test_each_argument_pattern(g):
    A, B, C = g.axis("A", 2), g.axis("B", 3), g.axis("C", 4)
    xv = np.array([[1, -2, 3], [4, 5, -6]], np.float32)
    x = g.placeholder(ng.float32, [A, B])
    ops = [
        ng.absolute(x),                                   # op
        ng.subtract(10, x),                               # op, op (a number promoted)
        ng.select(x > 0, x, 0.0),                         # op, op, op
        ng.sum(x, B),                                     # op, axes (one Axis)
        ng.sum(x),                                        # op, axes left out: every axis
        ng.argmax(x, B),                                  # op, axis
        ng.expand_dims(x, C, 1),                          # op, axis, int32
        ng.cast(x, ng.int32),                             # op, dtype
        ng.pad(x, [0, 1], [1, 0]),                        # op, int64 lists sharing a count
        ng.flatten(x, [A, B], "AB"),                      # op, axes, string
        ng.concat([x, x], B),                             # ops, string (an Axis for its name)
        ng.stack([x, x, x], g.axis("S", 3), 2),           # ops, axis, int32
        ng.one_hot(ng.cast(x, ng.int64) + 2, C),          # op, axis, dtype left out: float32
        g.scalar(2.5, ng.float64),                        # dtype, double (method of Graph)
        g.uniform([A], 0.25, 0.5, seed=3),                # axes, doubles, uint64
    ]
    got = run(ops, [x], [xv])
    np.testing.assert_array_equal(got[0], np.abs(xv))
    np.testing.assert_array_equal(got[1], 10 - xv)
    np.testing.assert_array_equal(got[2], np.where(xv > 0, xv, 0))
    np.testing.assert_array_equal(got[3], xv.sum(axis=1))
    assert got[4] == xv.sum()
    np.testing.assert_array_equal(got[5], [2, 1])
    np.testing.assert_array_equal(got[6], np.repeat(xv[:, None, :], 4, axis=1))
    np.testing.assert_array_equal(got[7], xv.astype(np.int32))
    np.testing.assert_array_equal(got[8], np.pad(xv, [(0, 1), (1, 0)]))
    np.testing.assert_array_equal(got[9], xv.reshape(6))
    np.testing.assert_array_equal(got[10], np.concatenate([xv, xv], axis=1))
    np.testing.assert_array_equal(got[11], np.stack([xv, xv, xv], axis=2))
    want = np.zeros((4, 2, 3), np.float32)
    for (i, j), v in np.ndenumerate(xv.astype(np.int64) + 2):
        if 0 <= v < 4:
            want[v, i, j] = 1
    np.testing.assert_array_equal(got[12], want)
    assert got[13].dtype == np.float64 and got[13] == 2.5
    assert got[14].shape == (2,) and np.all((got[14] >= 0.25) & (got[14] < 0.5))


def test_state_and_segment_patterns(g):
    N, S = g.axis("N", 5), g.axis("S", 2)
    v = g.variable(ng.float32, [N], np.arange(5, dtype=np.float32))  # optional op: a value
    before = ng.value_of(v)                                          # op
    step = ng.sequential([before, ng.assign_slice(v, slice(1, 3), 7.0),  # op, slices, op
                          ng.fill(v, 1.5), before])                      # op, double
    splits = g.constant(np.array([0, 2, 5], np.int64), [g.axis("S1", 3)])
    x = g.constant(np.array([1, 2, 3, 4, 5], np.float32), [N])
    seg = ng.segment_sum(x, N, splits, S)                            # op, axis, op, axis
    got = run([step, seg, v])
    np.testing.assert_array_equal(got[0], np.arange(5))
    np.testing.assert_array_equal(got[1], [3, 12])
    np.testing.assert_array_equal(got[2], np.full(5, 1.5))


def test_bad_input_raises(g):
    A, B = g.axis("A", 2), g.axis("B", 3)
    x = g.placeholder(ng.float32, [A, B])
    with pytest.raises(ValueError, match="pad: lists of lengths"):
        ng.pad(x, [0, 1], [1])
    with pytest.raises(ng.AxesError, match="reshape"):
        ng.reshape(x, [g.axis("P", 5)])
    with pytest.raises(ng.DTypeError):
        ng.add(x, g.placeholder(ng.float64, [A]))
    with pytest.raises(TypeError, match="expected an Op"):
        ng.exp(2.0)
    with pytest.raises(TypeError, match="expected an Axis"):
        ng.argmax(x, "B")
    assert g.status != 0 and "reshape" in g.error  # the graph's first error: the library's


def test_generated_files_are_current():
    r = subprocess.run([sys.executable, str(BINDINGS / "generate.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def _headers_with(tmp_path, extra):
    inc = tmp_path / "include"
    shutil.copytree(INCLUDE, inc)
    (inc / "zz_extra.h").write_text(extra)
    return inc


def test_generator_fails_on_a_signature_it_does_not_know(tmp_path):
    inc = _headers_with(tmp_path, "/**\n * @brief A builder of a new shape.\n * @param g The graph."
                        "\n * @param p Points.\n */\n"
                        "NG_API ng_op_t *ng_weird(ng_graph_t *g, const float *p);\n")
    r = subprocess.run([sys.executable, str(BINDINGS / "generate.py"), "--check", "--include",
                        str(inc)], capture_output=True, text=True)
    assert r.returncode == 2
    assert "ng_weird" in r.stderr and "EXCLUDED" in r.stderr


def test_generator_fails_on_a_builder_without_its_doc_comment(tmp_path):
    inc = _headers_with(tmp_path, "NG_API ng_op_t *ng_bare(ng_graph_t *g, ng_op_t *x);\n")
    r = subprocess.run([sys.executable, str(BINDINGS / "generate.py"), "--check", "--include",
                        str(inc)], capture_output=True, text=True)
    assert r.returncode == 2 and "ng_bare" in r.stderr


def test_check_lists_a_stale_file(tmp_path):
    inc = _headers_with(tmp_path, "/**\n * @brief x twice.\n * @param g The graph.\n"
                        " * @param x The operand.\n * @return The new op.\n */\n"
                        "NG_API ng_op_t *ng_twice(ng_graph_t *g, ng_op_t *x);\n")
    r = subprocess.run([sys.executable, str(BINDINGS / "generate.py"), "--check", "--include",
                        str(inc)], capture_output=True, text=True)
    assert r.returncode == 1
    for path in ("python/nanograph/_ops.py", "go/ops_generated.go",
                 "rust/nanograph/src/ops_generated.rs", "julia/src/ops_generated.jl"):
        assert path in r.stderr


def test_raw_generator_arguments(tmp_path):
    script = BINDINGS / "python" / "generate.py"
    out = tmp_path / "capi.py"
    r = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "usage" in r.stdout
    r = subprocess.run([sys.executable, str(script), "--include", str(tmp_path / "none"),
                        "--output", str(out)], capture_output=True, text=True)
    assert r.returncode == 2 and "no such folder" in r.stderr and not out.exists()


def test_raw_generator_reads_split_macros_and_requires_them(tmp_path):
    script = BINDINGS / "python" / "generate.py"
    inc = tmp_path / "include"
    inc.mkdir()
    # NG_VERSION_MAJOR as clang-format may leave it: the value on the line after the name.
    (inc / "base.h").write_text("#define NG_API_VERSION 2\n#define NG_VERSION_MAJOR \\\n"
                                "    7 /**< The major version. */\n#define NG_VERSION_MINOR 1\n"
                                "#define NG_VERSION_PATCH 0\n")
    out = tmp_path / "capi.py"
    r = subprocess.run([sys.executable, str(script), "--include", str(inc), "--output", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "\nNG_VERSION_MAJOR = 7\n" in out.read_text()
    (inc / "base.h").write_text("#define NG_API_VERSION 2\n#define NG_VERSION_MINOR 1\n")
    r = subprocess.run([sys.executable, str(script), "--include", str(inc), "--output", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "NG_VERSION_MAJOR, NG_VERSION_PATCH" in r.stderr
    (inc / "base.h").write_text("#define NG_API_VERSION 2\n#define NG_VERSION_MAJOR (1 + 1)\n")
    r = subprocess.run([sys.executable, str(script), "--include", str(inc), "--output", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "NG_VERSION_MAJOR" in r.stderr and "not a number or string" in r.stderr
