/* Runs that repeat: a computation given the same tensors as in its last run skips the checks it
 * made then (dtypes, shapes, strides, and whether an output overlaps an input). These tests
 * change one tensor at a time between runs, by a new tensor, a view of other memory, another
 * dtype or shape, or an output that becomes an input, and check after every run that the change
 * was seen: by the values, against plain loops, or by the refusal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "exec_test_util.h"

enum { N = 37 }; /* not a whole number of vectors: every run takes a vector loop's tail too */

/* y = x + 2 * w over one axis of N float32 values. */
typedef struct {
    ng_graph_t *g;
    ng_transformer_t *t;
    ng_computation_t *c;
} add_case_t;

static add_case_t add_case(void) {
    add_case_t k;
    k.g = ng_graph_create();
    const ng_axis_t *A = ng_axis(k.g, "A", N);
    ng_op_t *x = ng_placeholder(k.g, NG_FLOAT32, &A, 1, NULL);
    ng_op_t *w = ng_placeholder(k.g, NG_FLOAT32, &A, 1, NULL);
    ng_op_t *two = ng_constant(k.g, NG_FLOAT32, NULL, 0, (float[]){2});
    ng_op_t *y = ng_add(k.g, x, ng_multiply(k.g, two, w));
    assert_non_null(y);
    k.t = ng_transformer_create(NULL);
    k.c = ng_computation_create(k.t, &y, 1, (ng_op_t *[]){x, w}, 2);
    assert_non_null(k.c);
    return k;
}

static void add_case_free(add_case_t *k) {
    ng_computation_destroy(k->c);
    ng_transformer_destroy(k->t);
    ng_graph_destroy(k->g);
}

static void fill(double *v, int salt) {
    for (int i = 0; i < N; ++i) v[i] = ex_value(i, salt);
}

/* Runs k on (x, w) into *out (given, or NULL for a new tensor) and checks y against a loop over
 * the values x and w hold. */
static void run_and_check(add_case_t *k, ng_tensor_t *x, ng_tensor_t *w, ng_tensor_t **out,
                          const char *what) {
    double xv[N], wv[N], want[N], got[N];
    ex_read(x, xv);
    ex_read(w, wv);
    for (int i = 0; i < N; ++i) want[i] = xv[i] + 2 * wv[i];
    assert_int_equal(ng_computation_run(k->c, (ng_tensor_t *[]){x, w}, 2, out, 1), NG_OK);
    ex_read(*out, got);
    ex_assert_close(got, want, N, 0, what);
}

/* The same tensors run after run, with new values written into them in between: each run reads
 * the values of its own moment, into the given output and into new ones. */
static void test_same_tensors_new_values(void **state) {
    (void)state;
    add_case_t k = add_case();
    double v[N];
    fill(v, 1);
    ng_tensor_t *x = ex_tensor(NG_FLOAT32, (int64_t[]){N}, 1, v);
    fill(v, 2);
    ng_tensor_t *w = ex_tensor(NG_FLOAT32, (int64_t[]){N}, 1, v);
    ng_tensor_t *given = ng_tensor_create(NG_FLOAT32, (int64_t[]){N}, 1);
    for (int run = 0; run < 3; ++run) {
        float values[N];
        for (int i = 0; i < N; ++i) values[i] = (float)ex_value(i, 10 + run);
        assert_int_equal(ng_tensor_write(x, values, sizeof values), NG_OK);
        ng_tensor_t *out = given;
        run_and_check(&k, x, w, &out, "y into the same given output");
        assert_ptr_equal(out, given);
    }
    for (int run = 0; run < 2; ++run) {
        ng_tensor_t *out = NULL;
        run_and_check(&k, x, w, &out, "y into a new output");
        ng_tensor_release(out);
    }
    ng_tensor_release(given);
    ng_tensor_release(w);
    ng_tensor_release(x);
    add_case_free(&k);
}

/* Runs into new outputs that the caller keeps: each run makes its own tensor, in other memory
 * than the last run's, and computes into it; the tensors of earlier runs keep their values. */
static void test_new_outputs_kept(void **state) {
    (void)state;
    enum { RUNS = 3 };
    add_case_t k = add_case();
    double v[N], want[RUNS][N], got[N];
    fill(v, 8);
    ng_tensor_t *x = ex_tensor(NG_FLOAT32, (int64_t[]){N}, 1, v);
    fill(v, 9);
    ng_tensor_t *w = ex_tensor(NG_FLOAT32, (int64_t[]){N}, 1, v);
    ng_tensor_t *outs[RUNS];
    for (int run = 0; run < RUNS; ++run) {
        float values[N];
        for (int i = 0; i < N; ++i) values[i] = (float)ex_value(i, 20 + run);
        assert_int_equal(ng_tensor_write(x, values, sizeof values), NG_OK);
        outs[run] = NULL;
        run_and_check(&k, x, w, &outs[run], "y into a new output that is kept");
        ex_read(outs[run], want[run]);
        for (int earlier = 0; earlier < run; ++earlier)
            assert_ptr_not_equal(ng_tensor_data(outs[run]), ng_tensor_data(outs[earlier]));
    }
    for (int run = 0; run < RUNS; ++run) {
        ex_read(outs[run], got);
        ex_assert_close(got, want[run], N, 0, "y of an earlier run, after the later runs");
        ng_tensor_release(outs[run]);
    }
    ng_tensor_release(w);
    ng_tensor_release(x);
    add_case_free(&k);
}

/* Right after a successful run, an input or output of another shape or dtype is refused, even
 * one made in the place of a released tensor of that run. */
static void test_other_tensors_refused(void **state) {
    (void)state;
    add_case_t k = add_case();
    double v[N + 1];
    for (int i = 0; i <= N; ++i) v[i] = ex_value(i, 3);
    ng_tensor_t *x = ex_tensor(NG_FLOAT32, (int64_t[]){N}, 1, v);
    ng_tensor_t *w = ex_tensor(NG_FLOAT32, (int64_t[]){N}, 1, v);
    ng_tensor_t *out = ng_tensor_create(NG_FLOAT32, (int64_t[]){N}, 1);
    ng_tensor_t *slot = out;

    run_and_check(&k, x, w, &slot, "y before a longer output");
    ng_tensor_t *longer_output = ng_tensor_create(NG_FLOAT32, (int64_t[]){N + 1}, 1);
    slot = longer_output;
    ex_assert_error(ng_computation_run(k.c, (ng_tensor_t *[]){x, w}, 2, &slot, 1), NG_ERR_AXES,
                    "ng_computation_run");
    ng_tensor_release(longer_output);

    slot = out;
    run_and_check(&k, x, w, &slot, "y before a longer input");
    ng_tensor_t *longer = ex_tensor(NG_FLOAT32, (int64_t[]){N + 1}, 1, v);
    ex_assert_error(ng_computation_run(k.c, (ng_tensor_t *[]){longer, w}, 2, &slot, 1), NG_ERR_AXES,
                    "ng_computation_run");
    ng_tensor_release(longer);

    run_and_check(&k, x, w, &slot, "y before an input of float64");
    ng_tensor_t *doubles = ex_tensor(NG_FLOAT64, (int64_t[]){N}, 1, v);
    ex_assert_error(ng_computation_run(k.c, (ng_tensor_t *[]){x, doubles}, 2, &slot, 1),
                    NG_ERR_DTYPE, "ng_computation_run");
    ng_tensor_release(doubles);

    /* x released and another tensor made right after it, whose handle may take its place. */
    run_and_check(&k, x, w, &slot, "y before x is made again");
    ng_tensor_release(x);
    x = ex_tensor(NG_FLOAT32, (int64_t[]){N + 1}, 1, v);
    ex_assert_error(ng_computation_run(k.c, (ng_tensor_t *[]){x, w}, 2, &slot, 1), NG_ERR_AXES,
                    "ng_computation_run");
    ng_tensor_release(x);
    x = ex_tensor(NG_FLOAT32, (int64_t[]){N}, 1, v);
    run_and_check(&k, x, w, &slot, "y after the refusals");
    ng_tensor_release(out);
    ng_tensor_release(w);
    ng_tensor_release(x);
    add_case_free(&k);
}

enum { R = 5, C = 7 };

/* y = x + 2 * w over (R, C) float64 values, run on x, then on a transposed view of other memory
 * with x's shape (other strides: the plan is made again), then on x again. */
static void test_view_with_other_strides(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *axes[2] = {ng_axis(g, "R", R), ng_axis(g, "C", C)};
    ng_op_t *px = ng_placeholder(g, NG_FLOAT64, axes, 2, NULL);
    ng_op_t *pw = ng_placeholder(g, NG_FLOAT64, axes, 2, NULL);
    ng_op_t *two = ng_constant(g, NG_FLOAT64, NULL, 0, (double[]){2});
    ng_op_t *y = ng_add(g, px, ng_multiply(g, two, pw));
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &y, 1, (ng_op_t *[]){px, pw}, 2);
    assert_non_null(c);
    double xv[R * C], wv[R * C], tv[R * C], want[R * C], got[R * C];
    for (int i = 0; i < R * C; ++i) {
        xv[i] = ex_value(i, 4);
        wv[i] = ex_value(i, 5);
        tv[i] = ex_value(i, 6);  // (C, R), row-major
    }
    ng_tensor_t *x = ex_tensor(NG_FLOAT64, (int64_t[]){R, C}, 2, xv);
    ng_tensor_t *w = ex_tensor(NG_FLOAT64, (int64_t[]){R, C}, 2, wv);
    ng_tensor_t *columns = ex_tensor(NG_FLOAT64, (int64_t[]){C, R}, 2, tv);
    ng_tensor_t *view = ng_tensor_transpose(columns);
    assert_non_null(view);
    ng_tensor_t *given = ng_tensor_create(NG_FLOAT64, (int64_t[]){R, C}, 2);
    ng_tensor_t *inputs[3] = {x, view, x};
    for (int run = 0; run < 3; ++run) {
        for (int r = 0; r < R; ++r)
            for (int col = 0; col < C; ++col) {
                const double a = run == 1 ? tv[col * R + r] : xv[r * C + col];
                want[r * C + col] = a + 2 * wv[r * C + col];
            }
        ng_tensor_t *out = given;
        assert_int_equal(ng_computation_run(c, (ng_tensor_t *[]){inputs[run], w}, 2, &out, 1),
                         NG_OK);
        ex_read(given, got);
        ex_assert_close(got, want, R * C, 0, run == 1 ? "y of the transposed view" : "y of x");
    }
    ng_tensor_release(given);
    ng_tensor_release(view);
    ng_tensor_release(columns);
    ng_tensor_release(w);
    ng_tensor_release(x);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

/* y = 2 * x read backwards. Run into an output of its own (computed straight into it), then with
 * that output as the input too (computing into it would overwrite elements not yet read, so the
 * run must copy), then as at first. Only the input changes between the runs. */
static void test_output_becomes_the_input(void **state) {
    (void)state;
    enum { L = 3001 };  // longer than any block a kernel stages
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *A = ng_axis(g, "A", L);
    ng_op_t *px = ng_placeholder(g, NG_FLOAT64, &A, 1, NULL);
    ng_op_t *reversed = ng_slice(g, px, (const ng_slice_t[]){{L - 1, -1, -1, 0}}, 1);
    ng_op_t *y = ng_multiply(g, reversed, ng_constant(g, NG_FLOAT64, NULL, 0, (double[]){2}));
    assert_non_null(y);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &y, 1, &px, 1);
    assert_non_null(c);
    static double v[L], want[L], got[L];
    for (int i = 0; i < L; ++i) v[i] = ex_value(i, 7);
    ng_tensor_t *x = ex_tensor(NG_FLOAT64, (int64_t[]){L}, 1, v);
    ng_tensor_t *o = ng_tensor_create(NG_FLOAT64, (int64_t[]){L}, 1);
    ng_tensor_t *inputs[3] = {x, o, x};
    for (int run = 0; run < 3; ++run) {
        ex_read(inputs[run], got);
        for (int i = 0; i < L; ++i) want[i] = 2 * got[L - 1 - i];
        ng_tensor_t *out = o;
        assert_int_equal(ng_computation_run(c, &inputs[run], 1, &out, 1), NG_OK);
        ex_read(o, got);
        ex_assert_close(got, want, L, 0,
                        run == 1 ? "y written over its input" : "y into an output of its own");
    }
    ng_tensor_release(o);
    ng_tensor_release(x);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_tensors_new_values),
        cmocka_unit_test(test_new_outputs_kept),
        cmocka_unit_test(test_other_tensors_refused),
        cmocka_unit_test(test_view_with_other_strides),
        cmocka_unit_test(test_output_becomes_the_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
