"""Random ops and Transformer.seed, what a computation says of its parameters and results, and
ng.set_allocator with C functions (compiled here) — Python functions refused."""
import ctypes
import shutil
import subprocess

import numpy as np
import pytest

import nanograph as ng


def _random(n=20000, dtype=ng.float64):
    g = ng.Graph()
    N = g.axis("N", n)
    return g, g.random_uniform([N], -1.0, 3.0, dtype), g.random_normal([N], 2.0, 0.5, dtype)


def test_random_values_are_new_each_run_and_replayed_by_seed():
    g, u, z = _random()
    t = ng.Transformer()
    f = t.computation([u, z])
    u1, z1 = (a.copy() for a in f())
    u2, z2 = (a.copy() for a in f())
    assert not np.array_equal(u1, u2) and not np.array_equal(z1, z2)
    t.seed(0)  # a new transformer has seed 0: the first run again
    u3, z3 = f()
    np.testing.assert_array_equal(u3, u1)
    np.testing.assert_array_equal(z3, z1)
    t.seed(12345)
    u4 = f()[0].copy()
    other = ng.Transformer(num_threads=1)
    other.seed(12345)
    np.testing.assert_array_equal(other.computation([u, z])()[0], u4)  # not the thread count
    assert not np.array_equal(u4, u1)


def test_random_values_have_the_distribution_asked_for():
    g, u, z = _random(200000)
    t = ng.Transformer()
    t.seed(7)
    uu, zz = t.computation([u, z])()
    assert uu.min() >= -1.0 and uu.max() < 3.0
    # uniform on [-1, 3): mean 1, variance 16/12; normal: mean 2, stddev 0.5. 200000 draws put the
    # sample mean within 0.01 with a margin of more than 3 standard errors.
    assert abs(uu.mean() - 1.0) < 0.01 and abs(uu.var() - 16 / 12) < 0.02
    assert abs(zz.mean() - 2.0) < 0.01 and abs(zz.std() - 0.5) < 0.01
    g32 = ng.Graph()
    r = g32.random_normal([g32.axis("K", 3)])
    assert r.dtype == ng.float32 and r.shape == (3,)


def test_random_bad_inputs_raise_the_library_errors():
    g = ng.Graph()
    N = g.axis("N", 3)
    with pytest.raises(ng.InvalidArgumentError, match=r"ng_uniform: the range \[1, 0\) is not"):
        g.random_uniform([N], 1.0, 0.0)
    with pytest.raises(ng.DTypeError, match="ng_normal: random values are float32 or float64, not int32"):
        g.random_normal([N], dtype=ng.int32)
    with pytest.raises(ng.InvalidArgumentError, match="ng_normal"):
        g.random_normal([N], 0.0, -1.0)
    t = ng.Transformer()
    t.seed(2 ** 64 - 1)  # any uint64
    t.close()
    with pytest.raises(ng.ClosedError):
        t.seed(1)


def test_computation_describes_its_params_and_results():
    g = ng.Graph()
    N, M = g.axis("N", 3), g.axis("M", 2)
    x = g.placeholder(ng.float32, [N, M])
    x.name = "x"
    k = g.placeholder(ng.int64, [])
    k.name = "k"
    y = ng.sum(x, M)
    y.name = "row_sums"
    flag = y > 0
    flag.name = "positive"
    f = ng.Transformer().computation([y, ng.transpose(x, [M, N]), flag, ng.sum(x)], [x, k])
    assert f.params == [ng.Signature("x", ng.float32, (("N", 3), ("M", 2))),
                        ng.Signature("k", ng.int64, ())]
    res = f.results
    assert res[0] == ng.Signature("row_sums", ng.float32, (("N", 3),))
    assert (res[1].axes, res[1].shape) == ((("M", 2), ("N", 3)), (2, 3))
    assert (res[2].name, res[2].dtype) == ("positive", ng.bool_)
    assert (res[3].shape, res[3].dtype) == ((), ng.float32)
    # what a run returns has the described shapes and dtypes
    outs = f(np.ones((3, 2), np.float32), np.int64(0))
    assert [(o.shape, o.dtype) for o in outs] == [(r.shape, r.dtype.numpy) for r in res]
    with pytest.raises(ng.InvalidArgumentError, match="ng_computation_param_name: index 5 is outside the 2 parameters"):
        f.param(5)
    with pytest.raises(ng.InvalidArgumentError, match="ng_computation_result_name: index -1"):
        f.result(-1)
    f.close()
    with pytest.raises(ng.ClosedError):
        f.params


ALLOCATOR_C = r"""
#include <stdint.h>
#include <stdlib.h>
typedef struct { int64_t allocations, frees, live_bytes, misaligned; } counts_t;
void *count_allocate(size_t bytes, size_t alignment, void *ctx) {
    counts_t *c = ctx; void *p = NULL;
    if (posix_memalign(&p, alignment, bytes) != 0) return NULL;
    __atomic_add_fetch(&c->allocations, 1, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&c->live_bytes, (int64_t)bytes, __ATOMIC_SEQ_CST);
    if (alignment < 64 || (alignment & (alignment - 1))) __atomic_add_fetch(&c->misaligned, 1, __ATOMIC_SEQ_CST);
    return p;
}
void count_deallocate(void *p, size_t bytes, size_t alignment, void *ctx) {
    counts_t *c = ctx;
    if ((uintptr_t)p % alignment) __atomic_add_fetch(&c->misaligned, 1, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&c->frees, 1, __ATOMIC_SEQ_CST);
    __atomic_sub_fetch(&c->live_bytes, (int64_t)bytes, __ATOMIC_SEQ_CST);
    free(p);
}
"""


class Counts(ctypes.Structure):
    _fields_ = [(n, ctypes.c_int64) for n in ("allocations", "frees", "live_bytes", "misaligned")]


_COUNTS = Counts()  # referenced for the rest of the process, as the installed allocator's ctx


@pytest.fixture(scope="module")
def counting_allocator(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to build the test allocator")
    d = tmp_path_factory.mktemp("allocator")
    (d / "count.c").write_text(ALLOCATOR_C)
    subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", str(d / "libcount.so"), str(d / "count.c")], check=True)
    return ctypes.CDLL(str(d / "libcount.so"))


def test_c_allocator_provides_tensors_runs_and_gets_every_block_back(counting_allocator):
    dll = counting_allocator
    ng.set_allocator(dll.count_allocate, dll.count_deallocate, ctypes.addressof(_COUNTS))
    try:
        t = ng.Tensor.zeros([1000], ng.float64)
        assert _COUNTS.allocations == 1 and t.data_ptr % 64 == 0
        g = ng.Graph()
        N = g.axis("N", 1000)
        x = g.placeholder(ng.float64, [N])
        v = g.variable(ng.float64, [N], initial_value=g.scalar(2.0, ng.float64))
        f = ng.Transformer().computation(ng.sum(v * ng.exp(x)), x)
        assert f.run([t])[0].read() == 2000.0  # sum of 2 * exp(0)
        assert _COUNTS.allocations >= 3  # the input, the variable's value, arena or output
    finally:
        ng.set_allocator()  # the default again; blocks made before still go back to the counter
    made = _COUNTS.allocations
    later = ng.Tensor.zeros([1000], ng.float64)
    assert _COUNTS.allocations == made
    del later, t, f, v, x, g
    import gc

    gc.collect()
    assert _COUNTS.frees == _COUNTS.allocations and _COUNTS.live_bytes == 0
    assert _COUNTS.misaligned == 0


def test_python_functions_are_refused_as_allocators(counting_allocator):
    proto = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p)
    py_alloc = proto(lambda size, alignment, ctx: None)
    with pytest.raises(TypeError, match="allocate is a Python function"):
        ng.set_allocator(py_alloc, counting_allocator.count_deallocate)
    with pytest.raises(TypeError, match="must be a C function pointer"):
        ng.set_allocator(lambda *a: None, counting_allocator.count_deallocate)
    with pytest.raises(ValueError, match="give both allocate and deallocate"):
        ng.set_allocator(counting_allocator.count_allocate)
    with pytest.raises(ValueError, match="deallocate is NULL"):
        ng.set_allocator(counting_allocator.count_allocate, 0)


_T_COUNTS = Counts()


@pytest.mark.skipif("transformer_set_allocator" not in ng.lib.names, reason="no per-transformer allocator")
def test_a_transformer_allocator_gets_its_values_arenas_and_outputs(counting_allocator):
    dll = counting_allocator
    g = ng.Graph()
    N = g.axis("N", 1000)
    x = g.placeholder(ng.float64, [N])
    v = g.variable(ng.float64, [N], initial_value=g.scalar(2.0, ng.float64))
    t = ng.Transformer()
    t.set_allocator(dll.count_allocate, dll.count_deallocate, ctypes.addressof(_T_COUNTS))
    mine = ng.Tensor(np.zeros(1000))  # made by the caller: not the transformer's allocator
    assert _T_COUNTS.allocations == 0
    f = t.computation(ng.sum(v * ng.exp(x)), x)
    assert float(f(mine)) == 2000.0  # sum of 2 * exp(0)
    assert _T_COUNTS.allocations >= 2  # the variable's value, the arena, the output
    assert _T_COUNTS.misaligned == 0
    other = ng.Transformer()  # another transformer keeps the process-wide allocator
    before = _T_COUNTS.allocations
    other.computation(ng.sum(v * ng.exp(x)), x)(mine)
    assert _T_COUNTS.allocations == before
    t.set_allocator()  # back to the process-wide allocator for blocks made from now on
    f2 = t.computation(ng.sum(x), x)
    f2(mine)
    assert _T_COUNTS.allocations == before
    del f, f2, t, other
    import gc

    gc.collect()
    assert _T_COUNTS.frees == _T_COUNTS.allocations and _T_COUNTS.live_bytes == 0


@pytest.mark.skipif("transformer_set_allocator" not in ng.lib.names, reason="no per-transformer allocator")
def test_transformer_allocator_bad_inputs(counting_allocator):
    t = ng.Transformer()
    proto = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p)
    with pytest.raises(TypeError, match="deallocate is a Python function"):
        t.set_allocator(counting_allocator.count_allocate, proto(lambda *a: None))
    with pytest.raises(ValueError, match="give both allocate and deallocate"):
        t.set_allocator(None, counting_allocator.count_deallocate)
    t.close()
    with pytest.raises(ng.ClosedError):
        t.set_allocator()
