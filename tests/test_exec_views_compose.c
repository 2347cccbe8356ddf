/* Graph-level views feeding compute ops: dot of a reversed/strided slice (the operand must be
 * read through its strides or packed), reductions and softmax of sliced and transposed views,
 * elementwise ops of a padded view with a transposed one, at sizes with SIMD tails. References
 * are index loops over the original values; inputs are small integers, so dot, sums and
 * elementwise results are exact; softmax is checked to 1e-5 (float32). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "exec_test_util.h"

enum { M = 19, K = 23, NN = 11 };

/* dot(slice(a(M, K), M reversed, K every 2nd from 1), b(K', N)) with K' = the sliced length. */
static void test_dot_of_sliced_operand(void **state) {
    (void)state;
    const int64_t KS = (K - 1) / 2; /* indices 1, 3, ..., K-2: 11 of them */
    double a[M * K], b[11 * NN], want[M * NN], got[M * NN];
    for (int i = 0; i < M * K; ++i) a[i] = ex_value(i, 1);
    for (int i = 0; i < KS * NN; ++i) b[i] = ex_value(i, 2);
    for (int m = 0; m < M; ++m)
        for (int n = 0; n < NN; ++n) {
            double s = 0;
            for (int k = 0; k < KS; ++k) s += a[(M - 1 - m) * K + 1 + 2 * k] * b[k * NN + n];
            want[m * NN + n] = s;
        }
    const ng_dtype_t dtypes[] = {NG_FLOAT32, NG_FLOAT64, NG_INT32};
    for (size_t di = 0; di < 3; ++di) {
        ng_dtype_t dt = dtypes[di];
        ng_graph_t *g = ng_graph_create();
        const ng_axis_t *Ma = ng_axis(g, "M", M), *Ka = ng_axis(g, "K", K);
        const ng_axis_t *Ks = ng_axis(g, "K", KS), *Na = ng_axis(g, "N", NN);
        ng_op_t *pa = ng_placeholder(g, dt, (const ng_axis_t *[]){Ma, Ka}, 2, NULL);
        ng_op_t *pb = ng_placeholder(g, dt, (const ng_axis_t *[]){Ks, Na}, 2, NULL);
        ng_slice_t spec[2] = {{M - 1, -1, -1, 0}, {1, K - 1, 2, 0}};
        ng_op_t *sa = ng_slice(g, pa, spec, 2);
        assert_int_equal(ng_axis_length(ng_op_axis(sa, 1)), KS);
        ng_op_t *d = ng_dot(g, sa, pb);
        ng_tensor_t *in[2] = {ex_tensor(dt, (int64_t[]){M, K}, 2, a),
                              ex_tensor(dt, (int64_t[]){KS, NN}, 2, b)};
        ex_run_read(g, d, (ng_op_t *[]){pa, pb}, in, 2, dt, got, M * NN);
        ex_assert_close(got, want, M * NN, 0, "dot of a sliced operand");
        /* The same slice as b's partner in the other order: dot(b, sa) is (N, M). */
        double want_t[NN * M], got_t[NN * M];
        for (int m = 0; m < M; ++m)
            for (int n = 0; n < NN; ++n) want_t[n * M + m] = want[m * NN + n];
        ex_run_read(g, ng_dot(g, pb, sa), (ng_op_t *[]){pa, pb}, in, 2, dt, got_t, M * NN);
        ex_assert_close(got_t, want_t, M * NN, 0, "dot(b, sliced a)");
        ng_tensor_release(in[0]);
        ng_tensor_release(in[1]);
        ng_graph_destroy(g);
    }
}

/* sum over K and max over M of a transposed, reversed view; softmax over M of the transpose. */
static void test_reductions_and_softmax_of_views(void **state) {
    (void)state;
    double a[M * K], sum_k[M], max_m[K], got[M * K];
    for (int i = 0; i < M * K; ++i) a[i] = ex_value(i * 3, 4);
    for (int m = 0; m < M; ++m) {
        sum_k[m] = 0;
        for (int k = 0; k < K; ++k) sum_k[m] += a[m * K + k];
    }
    for (int k = 0; k < K; ++k) {
        max_m[k] = -INFINITY;
        for (int m = 0; m < M; ++m) max_m[k] = a[m * K + k] > max_m[k] ? a[m * K + k] : max_m[k];
    }
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *Ma = ng_axis(g, "M", M), *Ka = ng_axis(g, "K", K);
    ng_op_t *pa = ng_placeholder(g, NG_FLOAT32, (const ng_axis_t *[]){Ma, Ka}, 2, NULL);
    ng_op_t *t = ng_axes_with_order(g, pa, (const ng_axis_t *[]){Ka, Ma}, 2); /* (K, M) */
    ng_slice_t rev[2] = {{K - 1, -1, -1, 0}, {M - 1, -1, -1, 0}};
    ng_op_t *tr = ng_slice(g, t, rev, 2); /* tr[k][m] = a[M-1-m][K-1-k] */
    ng_tensor_t *in = ex_tensor(NG_FLOAT32, (int64_t[]){M, K}, 2, a);
    double want[M * K];
    for (int m = 0; m < M; ++m) want[m] = sum_k[M - 1 - m];
    ex_run_read(g, ng_sum(g, tr, &Ka, 1), &pa, &in, 1, NG_FLOAT32, got, M);
    ex_assert_close(got, want, M, 0, "sum over K of the reversed transpose");
    for (int k = 0; k < K; ++k) want[k] = max_m[K - 1 - k];
    ex_run_read(g, ng_max(g, tr, &Ma, 1), &pa, &in, 1, NG_FLOAT32, got, K);
    ex_assert_close(got, want, K, 0, "max over M of the reversed transpose");
    /* softmax over M of t (K, M): for each k, over m of a[m][k]. */
    for (int k = 0; k < K; ++k) {
        double s = 0;
        for (int m = 0; m < M; ++m) s += exp(a[m * K + k] - max_m[k]);
        for (int m = 0; m < M; ++m) want[k * M + m] = exp(a[m * K + k] - max_m[k]) / s;
    }
    ex_run_read(g, ng_softmax(g, t, &Ma, 1), &pa, &in, 1, NG_FLOAT32, got, M * K);
    ex_assert_close(got, want, M * K, 1e-5, "softmax over M of the transpose");
    ng_tensor_release(in);
    ng_graph_destroy(g);
}

/* pad(x(M, K)) + transpose of y(K+2, M): the padded view aligned with a transposed operand. */
static void test_elementwise_of_pad_and_transpose(void **state) {
    (void)state;
    const ng_dtype_t dtypes[] = {NG_FLOAT32, NG_INT64};
    for (size_t di = 0; di < 2; ++di) {
        ng_dtype_t dt = dtypes[di];
        double x[M * K], y[(K + 2) * M], want[M * (K + 2)], got[M * (K + 2)];
        for (int i = 0; i < M * K; ++i) x[i] = ex_value(i, 5);
        for (int i = 0; i < (K + 2) * M; ++i) y[i] = 100 * ex_value(i, 6);
        for (int m = 0; m < M; ++m)
            for (int k = 0; k < K + 2; ++k) {
                double xp = (k >= 2) ? x[m * K + k - 2] : 0; /* two zeros before K */
                want[m * (K + 2) + k] = xp - y[k * M + m];
            }
        ng_graph_t *g = ng_graph_create();
        const ng_axis_t *Ma = ng_axis(g, "M", M), *Ka = ng_axis(g, "K", K),
                        *Kp = ng_axis(g, "K", K + 2);
        ng_op_t *px = ng_placeholder(g, dt, (const ng_axis_t *[]){Ma, Ka}, 2, NULL);
        ng_op_t *py = ng_placeholder(g, dt, (const ng_axis_t *[]){Kp, Ma}, 2, NULL);
        ng_op_t *r = ng_subtract(g, ng_pad(g, px, (int64_t[]){0, 2}, (int64_t[]){0, 0}, 2), py);
        ng_tensor_t *in[2] = {ex_tensor(dt, (int64_t[]){M, K}, 2, x),
                              ex_tensor(dt, (int64_t[]){K + 2, M}, 2, y)};
        ex_run_read(g, r, (ng_op_t *[]){px, py}, in, 2, dt, got, M * (K + 2));
        ex_assert_close(got, want, M * (K + 2), 0, "pad(x) - y");
        ng_tensor_release(in[0]);
        ng_tensor_release(in[1]);
        ng_graph_destroy(g);
    }
}

/* One computation run again and again with inputs of other strides (dense, transposed view,
 * reversed view, dense again): each run must follow its own input's layout, in its GEMM, its
 * reduction and its elementwise step (whose kernels are planned for the strides of each
 * compilation). */
static void test_rerun_with_other_input_strides(void **state) {
    (void)state;
    enum { R = 5, S = 7 };
    double a[R * S], v[S], want[R], got[R], at[S * R], ar[R * S], want_p[R * S], got_p[R * S];
    for (int i = 0; i < R * S; ++i) a[i] = ex_value(i, 7);
    for (int i = 0; i < S; ++i) v[i] = ex_value(i, 8);
    for (int r = 0; r < R; ++r)
        for (int s = 0; s < S; ++s) {
            at[s * R + r] = a[r * S + s];
            ar[r * S + (S - 1 - s)] = a[r * S + s]; /* each row stored backwards */
        }
    for (int r = 0; r < R; ++r) {
        want[r] = 0;
        for (int s = 0; s < S; ++s) want[r] += a[r * S + s] * v[s];
        for (int s = 0; s < S; ++s) want_p[r * S + s] = a[r * S + s] * v[s];
    }
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *Ra = ng_axis(g, "R", R), *Sa = ng_axis(g, "S", S);
    ng_op_t *pa = ng_placeholder(g, NG_FLOAT64, (const ng_axis_t *[]){Ra, Sa}, 2, NULL);
    ng_op_t *pv = ng_placeholder(g, NG_FLOAT64, &Sa, 1, NULL);
    ng_op_t *res[3] = {ng_dot(g, pa, pv), ng_sum(g, ng_multiply(g, pa, pv), &Sa, 1),
                       ng_multiply(g, pa, pv)};
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, res, 3, (ng_op_t *[]){pa, pv}, 2);
    assert_non_null(c);
    ng_tensor_t *dense = ex_tensor(NG_FLOAT64, (int64_t[]){R, S}, 2, a);
    ng_tensor_t *tbase = ex_tensor(NG_FLOAT64, (int64_t[]){S, R}, 2, at);
    ng_tensor_t *transposed = ng_tensor_transpose(tbase);
    ng_tensor_t *rbase = ex_tensor(NG_FLOAT64, (int64_t[]){R, S}, 2, ar);
    ng_tensor_t *reversed = ng_tensor_slice(rbase, 1, INT64_MAX, INT64_MIN, -1);
    ng_tensor_t *tv = ex_tensor(NG_FLOAT64, (int64_t[]){S}, 1, v);
    ng_tensor_t *layouts[4] = {dense, transposed, reversed, dense};
    for (int run = 0; run < 4; ++run) {
        ng_tensor_t *out[3] = {NULL, NULL, NULL};
        assert_int_equal(ng_computation_run(c, (ng_tensor_t *[]){layouts[run], tv}, 2, out, 3),
                         NG_OK);
        for (int k = 0; k < 2; ++k) {
            ex_read(out[k], got);
            char what[48];
            snprintf(what, sizeof what, "run %d result %d", run, k);
            ex_assert_close(got, want, R, 0, what);
            ng_tensor_release(out[k]);
        }
        ex_read(out[2], got_p);
        char what[48];
        snprintf(what, sizeof what, "run %d product", run);
        ex_assert_close(got_p, want_p, R * S, 0, what);
        ng_tensor_release(out[2]);
    }
    ng_tensor_release(tv);
    ng_tensor_release(reversed);
    ng_tensor_release(rbase);
    ng_tensor_release(transposed);
    ng_tensor_release(tbase);
    ng_tensor_release(dense);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dot_of_sliced_operand),
        cmocka_unit_test(test_reductions_and_softmax_of_views),
        cmocka_unit_test(test_elementwise_of_pad_and_transpose),
        cmocka_unit_test(test_rerun_with_other_input_strides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
