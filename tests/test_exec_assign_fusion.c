/* Assignments whose new value is computed by one elementwise step: the step writes the tensor
 * itself when nothing reads the old value in between (one kernel instead of two), against
 * plain C loops: a lone update, two updates where the second reads the first's new value (as
 * Adam's weight update reads its new moment), an update of a caller's strided tensor, both
 * dtypes; and the old value read between the new value and the assignment (not fused: that
 * read must see the old value). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "exec_test_util.h"

enum { R = 3, C = 5 };

static ng_op_t *matrix_constant(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                const double *v) {
    float f[R * C];
    for (int i = 0; i < R * C; ++i) f[i] = (float)v[i];
    return ng_constant(g, dt, axes, 2, dt == NG_FLOAT32 ? (const void *)f : (const void *)v);
}

static int32_t kernels_of(const ng_computation_t *c) {
    ng_computation_stats_t st = {.struct_size = sizeof st};
    assert_int_equal(ng_computation_stats(c, &st), NG_OK);
    return st.num_kernels;
}

static void read_value(ng_transformer_t *t, const ng_op_t *op, double *out) {
    ng_tensor_t *v = NULL;
    assert_int_equal(ng_transformer_get_value(t, op, &v), NG_OK);
    ex_read(v, out);
    ng_tensor_release(v);
}

/* w <- 2 w + k, run twice: one kernel writing w in place. */
static void test_lone_update(void **state) {
    (void)state;
    for (int d = 0; d < 2; ++d) {
        ng_dtype_t dt = d ? NG_FLOAT64 : NG_FLOAT32;
        double w0[R * C], k[R * C], want[R * C], got[R * C];
        for (int i = 0; i < R * C; ++i) {
            w0[i] = ex_value(i, 1);
            k[i] = ex_value(i, 2) / 2;
            want[i] = 2 * (2 * w0[i] + k[i]) + k[i];
        }
        ng_graph_t *g = ng_graph_create();
        const ng_axis_t *axes[2] = {ng_axis(g, "R", R), ng_axis(g, "C", C)};
        ng_op_t *w = ng_variable(g, dt, axes, 2, matrix_constant(g, dt, axes, w0));
        ng_op_t *update = ng_assign(
            g, w,
            ng_add(g, ng_multiply(g, w, ng_scalar_of(g, dt, 2)), matrix_constant(g, dt, axes, k)));
        ng_transformer_t *t = ng_transformer_create(NULL);
        ng_computation_t *c = ng_computation_create(t, &update, 1, NULL, 0);
        assert_non_null(c);
        assert_int_equal(kernels_of(c), 1);
        for (int run = 0; run < 2; ++run) {
            ng_tensor_t *out = NULL;
            assert_int_equal(ng_computation_run(c, NULL, 0, &out, 1), NG_OK);
            ng_tensor_release(out);
        }
        read_value(t, w, got);
        ex_assert_close(got, want, R * C, ex_tol(dt), "w");
        ng_computation_destroy(c);
        ng_transformer_destroy(t);
        ng_graph_destroy(g);
    }
}

/* m <- m / 2 + x, then w <- w - m (the new m): both written in place, the second step reading
 * the new m from m itself. */
static void test_update_read_by_another(void **state) {
    (void)state;
    for (int d = 0; d < 2; ++d) {
        ng_dtype_t dt = d ? NG_FLOAT64 : NG_FLOAT32;
        double m0[R * C], w0[R * C], x[R * C], m[R * C], w[R * C], got[R * C];
        for (int i = 0; i < R * C; ++i) {
            m0[i] = m[i] = ex_value(i, 3);
            w0[i] = w[i] = ex_value(i, 4);
            x[i] = ex_value(i, 5) / 4;
        }
        ng_graph_t *g = ng_graph_create();
        const ng_axis_t *axes[2] = {ng_axis(g, "R", R), ng_axis(g, "C", C)};
        ng_op_t *mv = ng_variable(g, dt, axes, 2, matrix_constant(g, dt, axes, m0));
        ng_op_t *wv = ng_variable(g, dt, axes, 2, matrix_constant(g, dt, axes, w0));
        ng_op_t *param = ng_placeholder(g, dt, axes, 2, NULL);
        ng_op_t *new_m = ng_add(g, ng_multiply(g, mv, ng_scalar_of(g, dt, 0.5)), param);
        ng_op_t *new_w = ng_subtract(g, wv, new_m);
        ng_op_t *sequence[4] = {new_m, new_w, ng_assign(g, mv, new_m), ng_assign(g, wv, new_w)};
        ng_op_t *step = ng_sequential(g, sequence, 4);
        ng_transformer_t *t = ng_transformer_create(NULL);
        ng_computation_t *c = ng_computation_create(t, &step, 1, &param, 1);
        assert_non_null(c);
        assert_int_equal(kernels_of(c), 2);
        int64_t shape[2] = {R, C};
        ng_tensor_t *input = ex_tensor(dt, shape, 2, x);
        for (int run = 0; run < 2; ++run) {
            ng_tensor_t *out = NULL;
            assert_int_equal(ng_computation_run(c, &input, 1, &out, 1), NG_OK);
            ng_tensor_release(out);
            for (int i = 0; i < R * C; ++i) {
                m[i] = m[i] * 0.5 + x[i];
                w[i] -= m[i];
            }
        }
        read_value(t, mv, got);
        ex_assert_close(got, m, R * C, ex_tol(dt), "m");
        read_value(t, wv, got);
        ex_assert_close(got, w, R * C, ex_tol(dt), "w");
        ng_tensor_release(input);
        ng_computation_destroy(c);
        ng_transformer_destroy(t);
        ng_graph_destroy(g);
    }
}

/* new = 2 w, then other = w + 1 reads the OLD w, then w <- new: the new value must not be
 * written into w before `other` has read it. */
static void test_old_value_read_in_between(void **state) {
    (void)state;
    for (int d = 0; d < 2; ++d) {
        ng_dtype_t dt = d ? NG_FLOAT64 : NG_FLOAT32;
        double w0[R * C], want_w[R * C], want_other[R * C], got[R * C];
        for (int i = 0; i < R * C; ++i) {
            w0[i] = ex_value(i, 6);
            want_w[i] = 2 * w0[i];
            want_other[i] = w0[i] + 1;
        }
        ng_graph_t *g = ng_graph_create();
        const ng_axis_t *axes[2] = {ng_axis(g, "R", R), ng_axis(g, "C", C)};
        ng_op_t *w = ng_variable(g, dt, axes, 2, matrix_constant(g, dt, axes, w0));
        ng_op_t *new_w = ng_multiply(g, w, ng_scalar_of(g, dt, 2));
        ng_op_t *other = ng_add(g, w, ng_scalar_of(g, dt, 1));
        ng_op_t *sequence[4] = {new_w, other, ng_assign(g, w, new_w), other};
        ng_op_t *step = ng_sequential(g, sequence, 4);
        ng_transformer_t *t = ng_transformer_create(NULL);
        ng_computation_t *c = ng_computation_create(t, &step, 1, NULL, 0);
        assert_non_null(c);
        assert_true(kernels_of(c) >= 3); /* new value, other, copy into w */
        ng_tensor_t *out = NULL;
        assert_int_equal(ng_computation_run(c, NULL, 0, &out, 1), NG_OK);
        ex_read(out, got);
        ng_tensor_release(out);
        ex_assert_close(got, want_other, R * C, ex_tol(dt), "other");
        read_value(t, w, got);
        ex_assert_close(got, want_w, R * C, ex_tol(dt), "w");
        ng_computation_destroy(c);
        ng_transformer_destroy(t);
        ng_graph_destroy(g);
    }
}

/* The assigned tensor is the caller's input, a transposed view: written in place through its
 * strides. */
static void test_update_of_strided_caller_tensor(void **state) {
    (void)state;
    for (int d = 0; d < 2; ++d) {
        ng_dtype_t dt = d ? NG_FLOAT64 : NG_FLOAT32;
        double stored[R * C], want[R * C], got[R * C];
        for (int i = 0; i < R * C; ++i) stored[i] = ex_value(i, 7); /* (C, R) row-major */
        for (int r = 0; r < R; ++r)
            for (int col = 0; col < C; ++col) want[r * C + col] = 3 * stored[col * R + r] - 1;
        ng_graph_t *g = ng_graph_create();
        const ng_axis_t *axes[2] = {ng_axis(g, "R", R), ng_axis(g, "C", C)};
        ng_op_t *param = ng_placeholder(g, dt, axes, 2, NULL);
        ng_op_t *update = ng_assign(
            g, param,
            ng_subtract(g, ng_multiply(g, param, ng_scalar_of(g, dt, 3)), ng_scalar_of(g, dt, 1)));
        int64_t shape[2] = {C, R};
        ng_tensor_t *whole = ex_tensor(dt, shape, 2, stored);
        ng_tensor_t *view = ng_tensor_transpose(whole);
        assert_non_null(view);
        ng_transformer_t *t = ng_transformer_create(NULL);
        ng_computation_t *c = ng_computation_create(t, &update, 1, &param, 1);
        assert_non_null(c);
        ng_tensor_t *out = NULL;
        assert_int_equal(ng_computation_run(c, &view, 1, &out, 1), NG_OK);
        ex_read(out, got);
        ex_assert_close(got, want, R * C, ex_tol(dt), "result");
        ng_tensor_release(out);
        ex_read(view, got);
        ex_assert_close(got, want, R * C, ex_tol(dt), "caller tensor");
        ng_tensor_release(view);
        ng_tensor_release(whole);
        ng_computation_destroy(c);
        ng_transformer_destroy(t);
        ng_graph_destroy(g);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lone_update),
        cmocka_unit_test(test_update_read_by_another),
        cmocka_unit_test(test_old_value_read_in_between),
        cmocka_unit_test(test_update_of_strided_caller_tensor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
