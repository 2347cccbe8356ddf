/* Reductions through the transformer over every subset of the axes of a 3-d tensor x(A, B, C),
 * against scalar loops: sum, max, min, mean, prod in float32, float64, int32 and int64; argmax
 * and argmin along each axis (first index on ties); reductions fused with elementwise producers
 * (sum((x - y)^2)); strided inputs. Inputs are small integers, so sums, extrema and products are
 * exact in every dtype; only mean divides, checked to ex_tol (1e-5 relative for float32). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "exec_test_util.h"

enum { RANK = 3, NUMEL = 3 * 4 * 5 };
static const int64_t shape[RANK] = {3, 4, 5};
static const char *const names[RANK] = {"A", "B", "C"};

typedef enum { SUM, MAX, MIN, MEAN, PROD } reduction_t;
static const char *const reduction_names[] = {"sum", "max", "min", "mean", "prod"};

static ng_op_t *build(ng_graph_t *g, reduction_t r, ng_op_t *x, const ng_axis_t *const *axes,
                      int32_t n) {
    switch (r) {
    case SUM: return ng_sum(g, x, axes, n);
    case MAX: return ng_max(g, x, axes, n);
    case MIN: return ng_min(g, x, axes, n);
    case MEAN: return ng_mean(g, x, axes, n);
    case PROD: return ng_prod(g, x, axes, n);
    }
    return NULL;
}

/* Reference: out over the axes not in `reduced` (mask of A, B, C), in x's order. */
static int64_t naive_reduce(reduction_t r, const double *x, unsigned reduced, double *out) {
    int64_t nout = 1, count = 1;
    for (int d = 0; d < RANK; ++d) {
        if (reduced & (1u << d))
            count *= shape[d];
        else
            nout *= shape[d];
    }
    for (int64_t o = 0; o < nout; ++o)
        out[o] = r == PROD ? 1 : (r == MAX ? -INFINITY : r == MIN ? INFINITY : 0);
    for (int64_t i = 0; i < NUMEL; ++i) {
        int64_t idx[RANK], rest = i, o = 0;
        for (int d = RANK - 1; d >= 0; --d) {
            idx[d] = rest % shape[d];
            rest /= shape[d];
        }
        for (int d = 0; d < RANK; ++d)
            if (!(reduced & (1u << d))) o = o * shape[d] + idx[d];
        switch (r) {
        case SUM:
        case MEAN: out[o] += x[i]; break;
        case MAX: out[o] = x[i] > out[o] ? x[i] : out[o]; break;
        case MIN: out[o] = x[i] < out[o] ? x[i] : out[o]; break;
        case PROD: out[o] *= x[i]; break;
        }
    }
    if (r == MEAN)
        for (int64_t o = 0; o < nout; ++o) out[o] /= (double)count;
    return nout;
}

/* Values for prod stay small: a few 2s and -1s among 1s (|product| <= 2^9). */
static double prod_value(int64_t i) {
    return i % 7 == 0 ? 2 : i % 5 == 0 ? -1 : 1;
}

/* Runs reduction r of x (values v, dtype dt) over the axes of mask `reduced`, listed in the
 * order given by `order` (a permutation of 0..2 filtered by the mask), and compares. */
static void check_reduction(reduction_t r, ng_dtype_t dt, unsigned reduced, const int *order,
                            int use_n0) {
    double v[NUMEL], want[NUMEL], got[NUMEL];
    for (int64_t i = 0; i < NUMEL; ++i)
        v[i] = r == PROD ? prod_value(i) : ex_value(i, (int)reduced);
    int64_t nout = naive_reduce(r, v, reduced, want);

    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *axes[RANK], *listed[RANK];
    for (int d = 0; d < RANK; ++d) axes[d] = ng_axis(g, names[d], shape[d]);
    int32_t n = 0;
    for (int k = 0; k < RANK; ++k)
        if (reduced & (1u << order[k])) listed[n++] = axes[order[k]];
    ng_op_t *x = ng_placeholder(g, dt, axes, RANK, NULL);
    ng_op_t *red = build(g, r, x, use_n0 ? NULL : listed, use_n0 ? 0 : n);
    assert_non_null(red);
    assert_int_equal(ng_op_rank(red), RANK - n);
    ng_tensor_t *tx = ex_tensor(dt, shape, RANK, v);
    ex_run_read(g, red, &x, &tx, 1, dt, got, nout);
    char what[64];
    snprintf(what, sizeof what, "%s %s mask %u%s", reduction_names[r], ng_dtype_name(dt), reduced,
             use_n0 ? " (n=0)" : "");
    ex_assert_close(got, want, nout, r == MEAN ? ex_tol(dt) : 0, what);
    ng_tensor_release(tx);
    ng_graph_destroy(g);
}

static void test_reductions_over_every_subset(void **state) {
    (void)state;
    static const int forward[RANK] = {0, 1, 2}, backward[RANK] = {2, 1, 0};
    const ng_dtype_t dtypes[] = {NG_FLOAT32, NG_FLOAT64, NG_INT32, NG_INT64};
    for (int r = SUM; r <= PROD; ++r)
        for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d) {
            if (r == MEAN && (dtypes[d] == NG_INT32 || dtypes[d] == NG_INT64)) continue;
            for (unsigned mask = 1; mask < (1u << RANK); ++mask) {
                check_reduction((reduction_t)r, dtypes[d], mask, forward, 0);
                check_reduction((reduction_t)r, dtypes[d], mask, backward, 0);
            }
            check_reduction((reduction_t)r, dtypes[d], (1u << RANK) - 1, forward, 1);
        }
}

/* argmax/argmin along each axis: int64 indices of the first extreme (values repeat, so ties
 * occur), the other axes kept in order. */
static void test_argmax_argmin_along_each_axis(void **state) {
    (void)state;
    const ng_dtype_t dtypes[] = {NG_FLOAT32, NG_FLOAT64, NG_INT32, NG_INT64};
    for (size_t di = 0; di < sizeof dtypes / sizeof dtypes[0]; ++di)
        for (int axis = 0; axis < RANK; ++axis)
            for (int is_max = 0; is_max < 2; ++is_max) {
                double v[NUMEL], want[NUMEL], got[NUMEL];
                for (int64_t i = 0; i < NUMEL; ++i) v[i] = ex_value(i * 3, axis);
                /* Reference: walk the axis, keep the first strict improvement. */
                int64_t stride = 1;
                for (int d = axis + 1; d < RANK; ++d) stride *= shape[d];
                int64_t outer = NUMEL / (stride * shape[axis]), o = 0;
                for (int64_t hi = 0; hi < outer; ++hi)
                    for (int64_t lo = 0; lo < stride; ++lo, ++o) {
                        int64_t best = 0;
                        for (int64_t k = 1; k < shape[axis]; ++k) {
                            double cand = v[(hi * shape[axis] + k) * stride + lo];
                            double cur = v[(hi * shape[axis] + best) * stride + lo];
                            if (is_max ? cand > cur : cand < cur) best = k;
                        }
                        want[o] = (double)best;
                    }
                ng_graph_t *g = ng_graph_create();
                const ng_axis_t *axes[RANK];
                for (int d = 0; d < RANK; ++d) axes[d] = ng_axis(g, names[d], shape[d]);
                ng_op_t *x = ng_placeholder(g, dtypes[di], axes, RANK, NULL);
                ng_op_t *arg = is_max ? ng_argmax(g, x, axes[axis]) : ng_argmin(g, x, axes[axis]);
                assert_non_null(arg);
                ng_tensor_t *tx = ex_tensor(dtypes[di], shape, RANK, v);
                ex_run_read(g, arg, &x, &tx, 1, NG_INT64, got, o);
                char what[64];
                snprintf(what, sizeof what, "%s %s axis %s", is_max ? "argmax" : "argmin",
                         ng_dtype_name(dtypes[di]), names[axis]);
                ex_assert_close(got, want, o, 0, what);
                ng_tensor_release(tx);
                ng_graph_destroy(g);
            }
}

/* sum((x - y)^2) over every subset, y aligned by name though stored as (C, A, B): the producer
 * chain may be fused into the reduction, the values must not change. */
static void test_fused_squared_difference(void **state) {
    (void)state;
    const ng_dtype_t dtypes[] = {NG_FLOAT32, NG_FLOAT64};
    for (size_t di = 0; di < 2; ++di)
        for (unsigned mask = 1; mask < (1u << RANK); ++mask) {
            double x[NUMEL], y_cab[NUMEL], sq[NUMEL], want[NUMEL], got[NUMEL];
            for (int64_t i = 0; i < NUMEL; ++i) x[i] = ex_value(i, 1);
            for (int64_t i = 0; i < NUMEL; ++i) y_cab[i] = ex_value(i, 2);
            for (int64_t a = 0; a < 3; ++a)
                for (int64_t b = 0; b < 4; ++b)
                    for (int64_t c = 0; c < 5; ++c) {
                        double d = x[(a * 4 + b) * 5 + c] - y_cab[(c * 3 + a) * 4 + b];
                        sq[(a * 4 + b) * 5 + c] = d * d;
                    }
            int64_t nout = naive_reduce(SUM, sq, mask, want);
            ng_graph_t *g = ng_graph_create();
            const ng_axis_t *axes[RANK], *listed[RANK];
            for (int d = 0; d < RANK; ++d) axes[d] = ng_axis(g, names[d], shape[d]);
            const ng_axis_t *cab[RANK] = {axes[2], axes[0], axes[1]};
            int32_t n = 0;
            for (int k = 0; k < RANK; ++k)
                if (mask & (1u << k)) listed[n++] = axes[k];
            ng_op_t *px = ng_placeholder(g, dtypes[di], axes, RANK, NULL);
            ng_op_t *py = ng_placeholder(g, dtypes[di], cab, RANK, NULL);
            ng_op_t *s = ng_sum(g, ng_square(g, ng_subtract(g, px, py)), listed, n);
            ng_op_t *params[2] = {px, py};
            ng_tensor_t *tx = ex_tensor(dtypes[di], shape, RANK, x);
            ng_tensor_t *ty = ex_tensor(dtypes[di], (int64_t[]){5, 3, 4}, RANK, y_cab);
            ng_tensor_t *inputs[2] = {tx, ty};
            ex_run_read(g, s, params, inputs, 2, dtypes[di], got, nout);
            ex_assert_close(got, want, nout, 0, "sum((x-y)^2)");
            ng_tensor_release(tx);
            ng_tensor_release(ty);
            ng_graph_destroy(g);
        }
}

/* The input is a permuted view of a (C, B, A) buffer: reductions read it through its strides. */
static void test_reduce_strided_input(void **state) {
    (void)state;
    double cba[NUMEL], x[NUMEL], want[NUMEL], got[NUMEL];
    for (int64_t i = 0; i < NUMEL; ++i) cba[i] = ex_value(i, 9);
    for (int64_t a = 0; a < 3; ++a)
        for (int64_t b = 0; b < 4; ++b)
            for (int64_t c = 0; c < 5; ++c) x[(a * 4 + b) * 5 + c] = cba[(c * 4 + b) * 3 + a];
    for (unsigned mask = 1; mask < (1u << RANK); ++mask) {
        int64_t nout = naive_reduce(MAX, x, mask, want);
        ng_graph_t *g = ng_graph_create();
        const ng_axis_t *axes[RANK], *listed[RANK];
        for (int d = 0; d < RANK; ++d) axes[d] = ng_axis(g, names[d], shape[d]);
        int32_t n = 0;
        for (int d = 0; d < RANK; ++d)
            if (mask & (1u << d)) listed[n++] = axes[d];
        ng_op_t *px = ng_placeholder(g, NG_FLOAT32, axes, RANK, NULL);
        ng_op_t *m = ng_max(g, px, listed, n);
        ng_tensor_t *base = ex_tensor(NG_FLOAT32, (int64_t[]){5, 4, 3}, RANK, cba);
        ng_tensor_t *view = ng_tensor_permute(base, (int32_t[]){2, 1, 0}, RANK);
        assert_non_null(view);
        ex_run_read(g, m, &px, &view, 1, NG_FLOAT32, got, nout);
        ex_assert_close(got, want, nout, 0, "max of a permuted view");
        ng_tensor_release(view);
        ng_tensor_release(base);
        ng_graph_destroy(g);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reductions_over_every_subset),
        cmocka_unit_test(test_argmax_argmin_along_each_axis),
        cmocka_unit_test(test_fused_squared_difference),
        cmocka_unit_test(test_reduce_strided_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
