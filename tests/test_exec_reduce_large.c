/* Reductions and dot at sizes that leave SIMD tails and get split across threads (1 and 2
 * threads): x(A=37, B=29, C=41), every axis subset, sum/max/min/mean and argmax/argmin, float32
 * and float64; dot of (67, 129) by (129, 33) in both storage orders. Inputs are small integers,
 * so sums (|sum| < 2^18) and products' sums are exact even in float32; only mean divides and is
 * checked to 1e-6 relative in float32, 1e-12 in float64. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "exec_test_util.h"

enum { RANK = 3 };
static const int64_t shape[RANK] = {37, 29, 41};
static const char *const names[RANK] = {"A", "B", "C"};
#define NUMEL (37 * 29 * 41)

typedef enum { SUM, MAX, MIN, MEAN, ARGMAX, ARGMIN } reduction_t;

/* Runs result over x on input tx with the given thread count; the output as doubles. */
static void run_threads(ng_op_t *result, ng_op_t *x, ng_tensor_t *tx, int32_t threads,
                        ng_dtype_t dt, double *out, int64_t n) {
    ng_transformer_t *t = ng_transformer_create(NULL);
    assert_int_equal(ng_transformer_set_num_threads(t, threads), NG_OK);
    ng_computation_t *c = ng_computation_create(t, &result, 1, &x, 1);
    if (c == NULL) fail_msg("compile failed: %s", ng_last_error());
    ng_tensor_t *o[1] = {NULL};
    if (ng_computation_run(c, &tx, 1, o, 1) != NG_OK) fail_msg("run failed: %s", ng_last_error());
    assert_int_equal(ng_tensor_dtype(o[0]), dt);
    assert_int_equal(ng_tensor_numel(o[0]), n);
    ex_read(o[0], out);
    ng_tensor_release(o[0]);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
}

/* Reference for the reductions over mask (argmax/argmin take the single axis of the mask). */
static int64_t reference(reduction_t r, const double *x, unsigned mask, double *out) {
    int64_t nout = 1, count = 1;
    for (int d = 0; d < RANK; ++d) {
        if (mask & (1u << d))
            count *= shape[d];
        else
            nout *= shape[d];
    }
    double *best = malloc(sizeof(double) * (size_t)nout);
    for (int64_t o = 0; o < nout; ++o) {
        out[o] = r == MAX ? -INFINITY : r == MIN ? INFINITY : 0;
        best[o] = r == ARGMAX ? -INFINITY : INFINITY;
    }
    for (int64_t i = 0; i < NUMEL; ++i) {
        int64_t idx[RANK], rest = i, o = 0, k = 0;
        for (int d = RANK - 1; d >= 0; --d) {
            idx[d] = rest % shape[d];
            rest /= shape[d];
        }
        for (int d = 0; d < RANK; ++d) {
            if (!(mask & (1u << d)))
                o = o * shape[d] + idx[d];
            else
                k = idx[d];
        }
        switch (r) {
        case SUM:
        case MEAN: out[o] += x[i]; break;
        case MAX: out[o] = x[i] > out[o] ? x[i] : out[o]; break;
        case MIN: out[o] = x[i] < out[o] ? x[i] : out[o]; break;
        case ARGMAX:
            if (x[i] > best[o]) best[o] = x[i], out[o] = (double)k;
            break;
        case ARGMIN:
            if (x[i] < best[o]) best[o] = x[i], out[o] = (double)k;
            break;
        }
    }
    if (r == MEAN)
        for (int64_t o = 0; o < nout; ++o) out[o] /= (double)count;
    free(best);
    return nout;
}

static void test_large_reductions_every_subset(void **state) {
    (void)state;
    double *x = malloc(sizeof(double) * NUMEL), *want = malloc(sizeof(double) * NUMEL),
           *got = malloc(sizeof(double) * NUMEL);
    for (int64_t i = 0; i < NUMEL; ++i) x[i] = ex_value(i * 31 + i / 41, 0);
    const ng_dtype_t dtypes[] = {NG_FLOAT32, NG_FLOAT64};
    for (size_t di = 0; di < 2; ++di) {
        ng_dtype_t dt = dtypes[di];
        ng_graph_t *g = ng_graph_create();
        const ng_axis_t *axes[RANK];
        for (int d = 0; d < RANK; ++d) axes[d] = ng_axis(g, names[d], shape[d]);
        ng_op_t *px = ng_placeholder(g, dt, axes, RANK, NULL);
        ng_tensor_t *tx = ex_tensor(dt, shape, RANK, x);
        for (int r = SUM; r <= ARGMIN; ++r)
            for (unsigned mask = 1; mask < (1u << RANK); ++mask) {
                const ng_axis_t *listed[RANK];
                int32_t n = 0;
                for (int d = 0; d < RANK; ++d)
                    if (mask & (1u << d)) listed[n++] = axes[d];
                if ((r == ARGMAX || r == ARGMIN) && n != 1) continue;
                ng_op_t *op = r == SUM      ? ng_sum(g, px, listed, n)
                              : r == MAX    ? ng_max(g, px, listed, n)
                              : r == MIN    ? ng_min(g, px, listed, n)
                              : r == MEAN   ? ng_mean(g, px, listed, n)
                              : r == ARGMAX ? ng_argmax(g, px, listed[0])
                                            : ng_argmin(g, px, listed[0]);
                int64_t nout = reference((reduction_t)r, x, mask, want);
                for (int32_t threads = 1; threads <= 2; ++threads) {
                    run_threads(op, px, tx, threads, r >= ARGMAX ? NG_INT64 : dt, got, nout);
                    char what[64];
                    snprintf(what, sizeof what, "reduction %d %s mask %u threads %d", r,
                             ng_dtype_name(dt), mask, threads);
                    ex_assert_close(got, want, nout,
                                    r == MEAN ? (dt == NG_FLOAT32 ? 1e-6 : 1e-12) : 0, what);
                }
            }
        ng_tensor_release(tx);
        ng_graph_destroy(g);
    }
    free(x);
    free(want);
    free(got);
}

/* dot(a(M, K), b(K, N)) and dot(a(K, M), b(N, K)) at sizes beyond one SIMD/BLAS block. */
static void test_large_dot(void **state) {
    (void)state;
    enum { M = 67, K = 129, NN = 33 };
    double *a = malloc(sizeof(double) * M * K), *b = malloc(sizeof(double) * K * NN);
    double *at = malloc(sizeof(double) * M * K), *bt = malloc(sizeof(double) * K * NN);
    double *want = malloc(sizeof(double) * M * NN), *got = malloc(sizeof(double) * M * NN);
    for (int i = 0; i < M * K; ++i) a[i] = ex_value(i, 1);
    for (int i = 0; i < K * NN; ++i) b[i] = ex_value(i, 2);
    for (int m = 0; m < M; ++m)
        for (int k = 0; k < K; ++k) at[k * M + m] = a[m * K + k];
    for (int k = 0; k < K; ++k)
        for (int n = 0; n < NN; ++n) bt[n * K + k] = b[k * NN + n];
    for (int m = 0; m < M; ++m)
        for (int n = 0; n < NN; ++n) {
            double s = 0;
            for (int k = 0; k < K; ++k) s += a[m * K + k] * b[k * NN + n];
            want[m * NN + n] = s;
        }
    const ng_dtype_t dtypes[] = {NG_FLOAT32, NG_FLOAT64, NG_INT32};
    for (size_t di = 0; di < 3; ++di)
        for (int transposed = 0; transposed < 2; ++transposed) {
            ng_dtype_t dt = dtypes[di];
            ng_graph_t *g = ng_graph_create();
            const ng_axis_t *Ma = ng_axis(g, "M", M), *Ka = ng_axis(g, "K", K),
                            *Na = ng_axis(g, "N", NN);
            const ng_axis_t *a_axes[2] = {transposed ? Ka : Ma, transposed ? Ma : Ka};
            const ng_axis_t *b_axes[2] = {transposed ? Na : Ka, transposed ? Ka : Na};
            ng_op_t *pa = ng_placeholder(g, dt, a_axes, 2, NULL),
                    *pb = ng_placeholder(g, dt, b_axes, 2, NULL);
            ng_op_t *d = ng_dot(g, pa, pb);
            ng_tensor_t *in[2] = {
                ex_tensor(dt, transposed ? (int64_t[]){K, M} : (int64_t[]){M, K}, 2,
                          transposed ? at : a),
                ex_tensor(dt, transposed ? (int64_t[]){NN, K} : (int64_t[]){K, NN}, 2,
                          transposed ? bt : b)};
            ex_run_read(g, d, (ng_op_t *[]){pa, pb}, in, 2, dt, got, M * NN);
            ex_assert_close(got, want, M * NN, 0,
                            transposed ? "large dot, transposed operands" : "large dot");
            ng_tensor_release(in[0]);
            ng_tensor_release(in[1]);
            ng_graph_destroy(g);
        }
    free(a);
    free(b);
    free(at);
    free(bt);
    free(want);
    free(got);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_large_reductions_every_subset),
        cmocka_unit_test(test_large_dot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
