/* Where results land: results are computed straight into their output tensors when that is safe
 * (output forwarding), and through a copy after the run when an output shares memory with an
 * input or another output. Every case checks values against a plain loop, so a forwarding that
 * clobbered an operand still to be read would fail here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "exec_test_util.h"

enum { D = 4 };

/* want = x @ w for D x D row-major matrices. */
static void matmul_reference(const double *x, const double *w, double *want) {
    for (int i = 0; i < D; ++i)
        for (int j = 0; j < D; ++j) {
            want[i * D + j] = 0;
            for (int k = 0; k < D; ++k) want[i * D + j] += x[i * D + k] * w[k * D + j];
        }
}

/* dot(x, w) of two D x D float64 placeholders, compiled; x and w filled from ex_value with the
 * two salts, and want = x @ w by a plain loop. */
typedef struct {
    ng_graph_t *g;
    ng_transformer_t *t;
    ng_computation_t *c;
    ng_tensor_t *x, *w;
    double want[D * D];
} dot_case_t;

static dot_case_t dot_case(int salt_x, int salt_w) {
    dot_case_t k;
    double x[D * D], w[D * D];
    for (int i = 0; i < D * D; ++i) {
        x[i] = ex_value(i, salt_x);
        w[i] = ex_value(i, salt_w);
    }
    matmul_reference(x, w, k.want);
    k.g = ng_graph_create();
    const ng_axis_t *M = ng_axis(k.g, "M", D), *K = ng_axis(k.g, "K", D), *N = ng_axis(k.g, "N", D);
    ng_op_t *px = ng_placeholder(k.g, NG_FLOAT64, (const ng_axis_t *[]){M, K}, 2, NULL);
    ng_op_t *pw = ng_placeholder(k.g, NG_FLOAT64, (const ng_axis_t *[]){K, N}, 2, NULL);
    ng_op_t *d = ng_dot(k.g, px, pw);
    k.t = ng_transformer_create(NULL);
    k.c = ng_computation_create(k.t, &d, 1, (ng_op_t *[]){px, pw}, 2);
    assert_non_null(k.c);
    k.x = ex_tensor(NG_FLOAT64, (int64_t[]){D, D}, 2, x);
    k.w = ex_tensor(NG_FLOAT64, (int64_t[]){D, D}, 2, w);
    return k;
}

static void dot_case_free(dot_case_t *k) {
    ng_tensor_release(k->x);
    ng_tensor_release(k->w);
    ng_computation_destroy(k->c);
    ng_transformer_destroy(k->t);
    ng_graph_destroy(k->g);
}

/* dot(x, w) run with x's own tensor as the output: GEMM must not write C over A while reading
 * it, so the result has to arrive by the copy after the run. */
static void test_output_is_an_input(void **state) {
    (void)state;
    dot_case_t k = dot_case(1, 2);
    double got[D * D];
    ng_tensor_t *out[1] = {k.x};
    assert_int_equal(ng_computation_run(k.c, (ng_tensor_t *[]){k.x, k.w}, 2, out, 1), NG_OK);
    assert_ptr_equal(out[0], k.x);
    ex_read(k.x, got);
    ex_assert_close(got, k.want, D * D, 1e-12, "dot written over its left input");
    dot_case_free(&k);
}

/* A result computed straight into its output in one run and copied in the next (its output is
 * then an input): the second run computes into the computation's own memory, not into the first
 * run's output, which keeps what was written there after the first run. */
static void test_forwarded_then_copied(void **state) {
    (void)state;
    dot_case_t k = dot_case(7, 8);
    double got[D * D], first[D * D];
    ng_tensor_t *given = ng_tensor_create(NG_FLOAT64, (int64_t[]){D, D}, 2);
    ng_tensor_t *out[1] = {given};
    assert_int_equal(ng_computation_run(k.c, (ng_tensor_t *[]){k.x, k.w}, 2, out, 1), NG_OK);
    ex_read(given, first);
    ex_assert_close(first, k.want, D * D, 1e-12, "dot into a given tensor");
    double marks[D * D];
    for (int i = 0; i < D * D; ++i) marks[i] = -1;  // the second run must leave these alone
    assert_int_equal(ng_tensor_write(given, marks, sizeof marks), NG_OK);
    out[0] = k.x;
    assert_int_equal(ng_computation_run(k.c, (ng_tensor_t *[]){k.x, k.w}, 2, out, 1), NG_OK);
    ex_read(k.x, got);
    ex_assert_close(got, k.want, D * D, 1e-12,
                    "dot written over its left input after a run "
                    "that wrote another output");
    ex_read(given, got);
    for (int i = 0; i < D * D; ++i) assert_true(got[i] == -1);
    ng_tensor_release(given);
    dot_case_free(&k);
}

/* The same memory wrapped twice (two storages, one address range): the output is the input read
 * backwards, so writing the output during the run would overwrite elements not yet read (N is
 * far larger than any block a kernel stages, so a blocked kernel would clobber them too). */
static void test_output_wraps_the_input_memory(void **state) {
    (void)state;
    enum { N = 5001 };
    double data[N], want[N], got[N];
    for (int i = 0; i < N; ++i) data[i] = ex_value(i, 3);
    for (int i = 0; i < N; ++i) want[i] = 2 * data[N - 1 - i];
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *A = ng_axis(g, "A", N);
    ng_op_t *px = ng_placeholder(g, NG_FLOAT64, &A, 1, NULL);
    ng_op_t *reversed = ng_slice(g, px, (const ng_slice_t[]){{N - 1, -1, -1, 0}}, 1);
    assert_non_null(reversed);
    ng_op_t *y = ng_multiply(g, reversed, ng_constant(g, NG_FLOAT64, NULL, 0, (double[]){2}));
    assert_non_null(y);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &y, 1, &px, 1);
    assert_non_null(c);
    const int64_t shape[1] = {N}, strides[1] = {1};
    ng_tensor_t *in = ng_tensor_wrap(NG_FLOAT64, shape, strides, 1, data, NULL, NULL);
    ng_tensor_t *alias = ng_tensor_wrap(NG_FLOAT64, shape, strides, 1, data, NULL, NULL);
    assert_non_null(in);
    assert_non_null(alias);
    ng_tensor_t *out[1] = {alias};
    assert_int_equal(ng_computation_run(c, &in, 1, out, 1), NG_OK);
    ex_read(alias, got);
    ex_assert_close(got, want, N, 0, "reversed input written over itself");
    ng_tensor_release(in);
    ng_tensor_release(alias);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

/* One value asked for twice, and a value with a view of it: each output gets the full value,
 * whether the slots are NULL (new tensors) or given, over several runs. */
static void test_one_value_in_several_outputs(void **state) {
    (void)state;
    enum { R = 3, S = 5 };
    double a[R * S], want[R * S], want_t[S * R], got[R * S];
    for (int i = 0; i < R * S; ++i) {
        a[i] = ex_value(i, 4);
        want[i] = tanh(a[i]);
    }
    for (int r = 0; r < R; ++r)
        for (int s = 0; s < S; ++s) want_t[s * R + r] = want[r * S + s];
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *Ra = ng_axis(g, "R", R), *Sa = ng_axis(g, "S", S);
    ng_op_t *pa = ng_placeholder(g, NG_FLOAT64, (const ng_axis_t *[]){Ra, Sa}, 2, NULL);
    ng_op_t *y = ng_tanh(g, pa);
    ng_op_t *yt = ng_axes_with_order(g, y, (const ng_axis_t *[]){Sa, Ra}, 2);
    ng_op_t *results[3] = {y, y, yt};
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, results, 3, &pa, 1);
    assert_non_null(c);
    ng_tensor_t *ta = ex_tensor(NG_FLOAT64, (int64_t[]){R, S}, 2, a);
    ng_tensor_t *given[3] = {ng_tensor_create(NG_FLOAT64, (int64_t[]){R, S}, 2),
                             ng_tensor_create(NG_FLOAT64, (int64_t[]){R, S}, 2),
                             ng_tensor_create(NG_FLOAT64, (int64_t[]){S, R}, 2)};
    for (int run = 0; run < 4; ++run) {
        const int use_given = run % 2;
        ng_tensor_t *out[3] = {NULL, NULL, NULL};
        if (use_given) memcpy(out, given, sizeof out);
        assert_int_equal(ng_computation_run(c, &ta, 1, out, 3), NG_OK);
        for (int k = 0; k < 3; ++k) {
            char what[48];
            snprintf(what, sizeof what, "run %d output %d", run, k);
            ex_read(out[k], got);
            ex_assert_close(got, k == 2 ? want_t : want, R * S, 1e-15, what);
            if (!use_given) ng_tensor_release(out[k]);
        }
    }
    for (int k = 0; k < 3; ++k) ng_tensor_release(given[k]);
    ng_tensor_release(ta);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

/* A given output that is a strided view (transposed, so not dense) is written through its
 * strides and the memory around it is untouched. */
static void test_strided_output_view(void **state) {
    (void)state;
    dot_case_t k = dot_case(5, 6);
    double got[D * D], base[D * D];
    ng_tensor_t *storage = ng_tensor_create(NG_FLOAT64, (int64_t[]){D, D}, 2);
    ng_tensor_t *view = ng_tensor_transpose(storage);
    assert_non_null(view);
    ng_tensor_t *out[1] = {view};
    assert_int_equal(ng_computation_run(k.c, (ng_tensor_t *[]){k.x, k.w}, 2, out, 1), NG_OK);
    ex_read(view, got);
    ex_assert_close(got, k.want, D * D, 1e-12, "dot into a transposed view");
    ex_read(storage, base);
    for (int i = 0; i < D; ++i)
        for (int j = 0; j < D; ++j) assert_true(fabs(base[j * D + i] - k.want[i * D + j]) <= 1e-12);
    ng_tensor_release(view);
    ng_tensor_release(storage);
    dot_case_free(&k);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_output_is_an_input),
        cmocka_unit_test(test_forwarded_then_copied),
        cmocka_unit_test(test_output_wraps_the_input_memory),
        cmocka_unit_test(test_one_value_in_several_outputs),
        cmocka_unit_test(test_strided_output_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
