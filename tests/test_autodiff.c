/* ng_deriv, ng_vjp and ng_variables: values computed by hand, the non-differentiable ops,
 * stop_gradient, numerical safety of the cross entropies, and bad arguments. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "expect_error.h"
#include "nanograph/nanograph.h"

/* Runs a computation of `op` (no parameters) and reads its float64 value into out[0..n). */
static void eval(ng_op_t *op, double *out, size_t n) {
    assert_non_null(op);
    assert_int_equal(ng_op_dtype(op), NG_FLOAT64);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &op, 1, NULL, 0);
    if (!c) fail_msg("compiling failed: %s", ng_last_error());
    ng_tensor_t *value = NULL;
    assert_int_equal(ng_computation_run(c, NULL, 0, &value, 1), NG_OK);
    assert_int_equal(ng_tensor_numel(value), (int64_t)n);
    assert_int_equal(ng_tensor_read(value, out, n * sizeof *out), NG_OK);
    ng_tensor_release(value);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
}

static ng_op_t *const64(ng_graph_t *g, const ng_axis_t *axis, const double *values) {
    return ng_constant(g, NG_FLOAT64, &axis, 1, values);
}

static ng_op_t *sum_all(ng_graph_t *g, ng_op_t *x) {
    return ng_sum(g, x, NULL, 0);
}

static void assert_values(const double *actual, const double *expected, size_t n,
                          double tolerance) {
    for (size_t i = 0; i < n; ++i)
        if (!(fabs(actual[i] - expected[i]) <= tolerance))
            fail_msg("element %zu: %.17g, expected %.17g", i, actual[i], expected[i]);
}

/* d/dx sum(x^2 * 3 + x) = 6x + 1, with the result on x's axes. */
static void test_deriv_by_hand(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 3);
    ng_op_t *x = ng_variable(g, NG_FLOAT64, &n, 1, const64(g, n, (double[]){1, -2, 0.5}));
    ng_op_t *cost =
        sum_all(g, ng_add(g, ng_multiply(g, ng_square(g, x), ng_scalar_of(g, NG_FLOAT64, 3)), x));
    ng_op_t *d = ng_deriv(g, cost, x);
    expect_no_error();
    assert_int_equal(ng_op_rank(d), 1);
    assert_ptr_equal(ng_op_axis(d, 0), n);
    double got[3];
    eval(d, got, 3);
    assert_values(got, (double[]){7, -11, 4}, 3, 1e-12);
    ng_graph_destroy(g);
}

/* Broadcast by name: y = x(A) * w(B) has axes (A, B); d sum(y) / dx = sum over B of w. */
static void test_alignment_sums_broadcast_axes(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *A = ng_axis(g, "A", 2), *B = ng_axis(g, "B", 3);
    ng_op_t *x = const64(g, A, (double[]){1, 2});
    ng_op_t *w = const64(g, B, (double[]){1, 10, 100});
    ng_op_t *cost = sum_all(g, ng_multiply(g, x, w));
    double dx[2], dw[3];
    eval(ng_deriv(g, cost, x), dx, 2);
    eval(ng_deriv(g, cost, w), dw, 3);
    assert_values(dx, (double[]){111, 111}, 2, 0);
    assert_values(dw, (double[]){3, 3, 3}, 3, 0);
    ng_graph_destroy(g);
}

/* The derivative is itself a graph, so it can be differentiated: d/dx sum(d/dx sum(x^3)) = 6x. */
static void test_second_derivative(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 3);
    ng_op_t *x = const64(g, n, (double[]){1, -2, 0.5});
    ng_op_t *first = ng_deriv(g, sum_all(g, ng_multiply(g, x, ng_square(g, x))), x);
    double got[3];
    eval(ng_deriv(g, sum_all(g, first), x), got, 3);
    assert_values(got, (double[]){6, -12, 3}, 3, 1e-12);
    ng_graph_destroy(g);
}

/* A wrt the cost does not reach, and one reached only through stop_gradient, give zeros. */
static void test_unreached_and_stopped_give_zeros(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 2), *m = ng_axis(g, "M", 3);
    ng_op_t *x = const64(g, n, (double[]){1, 2});
    ng_op_t *other = const64(g, m, (double[]){1, 2, 3});
    ng_op_t *cost = sum_all(g, ng_multiply(g, x, ng_stop_gradient(g, x)));
    double dx[2], dother[3];
    eval(ng_deriv(g, cost, x), dx, 2); /* x * const(x): 1 * x, not 2x */
    assert_values(dx, (double[]){1, 2}, 2, 0);
    ng_op_t *d_other = ng_deriv(g, cost, other);
    assert_ptr_equal(ng_op_axis(d_other, 0), m);
    eval(d_other, dother, 3);
    assert_values(dother, (double[]){0, 0, 0}, 3, 0);
    ng_op_t *only_stopped = sum_all(g, ng_stop_gradient(g, ng_square(g, x)));
    eval(ng_deriv(g, only_stopped, x), dx, 2);
    assert_values(dx, (double[]){0, 0}, 2, 0);
    ng_graph_destroy(g);
}

/* Comparisons, sign, argmax and casts to integers are piecewise constant: nothing flows back
 * through them, while the rest of the expression still differentiates. */
static void test_piecewise_constant_ops_contribute_zero(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 4);
    ng_op_t *x = const64(g, n, (double[]){-1.5, 2.5, 0.5, -0.25});
    ng_op_t *zero = ng_scalar_of(g, NG_FLOAT64, 0);
    ng_op_t *positive = ng_cast(g, ng_greater(g, x, zero), NG_FLOAT64);
    ng_op_t *truncated = ng_cast(g, ng_cast(g, x, NG_INT32), NG_FLOAT64);
    ng_op_t *index = ng_cast(g, ng_argmax(g, x, n), NG_FLOAT64);
    /* cost = sum(mask * x + sign(x) + trunc(x)) + argmax: d/dx = mask */
    ng_op_t *terms = ng_add(g, ng_add(g, ng_multiply(g, positive, x), ng_sign(g, x)), truncated);
    ng_op_t *cost = ng_add(g, sum_all(g, terms), index);
    double dx[4];
    eval(ng_deriv(g, cost, x), dx, 4);
    assert_values(dx, (double[]){0, 1, 1, 0}, 4, 0);
    ng_graph_destroy(g);
}

/* max over tied elements shares the adjoint equally; so does maximum(a, b) on a tie. */
static void test_ties(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 4);
    ng_op_t *x = const64(g, n, (double[]){1, 3, 3, 2});
    double dx[4];
    eval(ng_deriv(g, ng_max(g, x, NULL, 0), x), dx, 4);
    assert_values(dx, (double[]){0, 0.5, 0.5, 0}, 4, 0);
    ng_op_t *y = const64(g, n, (double[]){1, 0, 3, 5});
    ng_op_t *cost = sum_all(g, ng_maximum(g, x, y));
    double dy[4];
    eval(ng_deriv(g, cost, x), dx, 4);
    eval(ng_deriv(g, cost, y), dy, 4);
    assert_values(dx, (double[]){0.5, 1, 0.5, 0}, 4, 0);
    assert_values(dy, (double[]){0.5, 0, 0.5, 1}, 4, 0);
    ng_graph_destroy(g);
}

/* Softmax cross-entropy at logits of +-5000: finite, and exactly softmax - t = onehot(argmax) - t.
 */
static void test_cross_entropy_extreme_logits(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *c = ng_axis(g, "C", 3);
    ng_op_t *logits = const64(g, c, (double[]){5000, -5000, 0});
    ng_op_t *t = const64(g, c, (double[]){0.25, 0.5, 0.25});
    ng_op_t *loss = ng_cross_entropy_multi(g, ng_softmax(g, logits, &c, 1), t, &c, 1);
    double value, d[3];
    eval(loss, &value, 1);
    assert_true(isfinite(value));
    /* -sum t * log_softmax = -(0.25 * 0 + 0.5 * -10000 + 0.25 * -5000) */
    assert_values(&value, (double[]){6250}, 1, 1e-9);
    eval(ng_deriv(g, loss, logits), d, 3);
    assert_values(d, (double[]){0.75, -0.5, -0.25}, 3, 1e-12);

    ng_op_t *x = const64(g, c, (double[]){5000, -5000, 0});
    ng_op_t *bce = sum_all(g, ng_cross_entropy_binary(g, ng_sigmoid(g, x), t, NULL, 0));
    eval(bce, &value, 1);
    assert_true(isfinite(value));
    eval(ng_deriv(g, bce, x), d, 3); /* sigmoid(x) - t, also at x = 0 */
    assert_values(d, (double[]){0.75, -0.5, 0.25}, 3, 1e-12);
    ng_graph_destroy(g);
}

/* A float32 detour keeps the derivative path; the result has wrt's dtype. */
static void test_cast_between_floats(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 2);
    ng_op_t *x = const64(g, n, (double[]){0.5, -1});
    ng_op_t *y = ng_cast(g, ng_multiply(g, ng_cast(g, x, NG_FLOAT32), ng_scalar(g, 3)), NG_FLOAT64);
    double dx[2];
    eval(ng_deriv(g, sum_all(g, y), x), dx, 2);
    assert_values(dx, (double[]){3, 3}, 2, 0);
    ng_graph_destroy(g);
}

/* Sequential's value is its last element's: the assignment before it is not differentiated. */
static void test_sequential(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 2);
    ng_op_t *x = ng_variable(g, NG_FLOAT64, &n, 1, const64(g, n, (double[]){1, 2}));
    ng_op_t *p = ng_persistent_tensor(g, NG_FLOAT64, NULL, 0, NULL);
    ng_op_t *ops[2] = {ng_assign(g, p, sum_all(g, x)), sum_all(g, ng_square(g, x))};
    double dx[2];
    eval(ng_deriv(g, ng_sequential(g, ops, 2), x), dx, 2);
    assert_values(dx, (double[]){2, 4}, 2, 0);
    ng_graph_destroy(g);
}

/* An assignment on the path is a side effect, not a function: a clear error. */
static void test_assign_on_path_is_unsupported(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 2);
    ng_op_t *x = ng_variable(g, NG_FLOAT64, &n, 1, NULL);
    ng_op_t *p = ng_persistent_tensor(g, NG_FLOAT64, &n, 1, NULL);
    ng_op_t *cost = sum_all(g, ng_assign(g, p, ng_square(g, x)));
    assert_null(ng_deriv(g, cost, x));
    expect_error(NG_ERR_UNSUPPORTED, "ng_deriv", "Assign");
    assert_int_equal(ng_graph_status(g), NG_ERR_UNSUPPORTED);
    ng_graph_destroy(g);
}

/* The derivative with respect to an intermediate op, not only a leaf. */
static void test_wrt_intermediate(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 2);
    ng_op_t *y = ng_add(g, const64(g, n, (double[]){1, 2}), ng_scalar_of(g, NG_FLOAT64, 1));
    double dy[2];
    eval(ng_deriv(g, sum_all(g, ng_square(g, y)), y), dy, 2);
    assert_values(dy, (double[]){4, 6}, 2, 0);
    ng_graph_destroy(g);
}

/* vjp: y = 3x over (A, B), error given over (B, A): the result is 3 * error, on x's axes. */
static void test_vjp(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *A = ng_axis(g, "A", 2), *B = ng_axis(g, "B", 3);
    const ng_axis_t *ab[2] = {A, B}, *ba[2] = {B, A};
    ng_op_t *x = ng_constant(g, NG_FLOAT64, ab, 2, (double[]){1, 2, 3, 4, 5, 6});
    ng_op_t *y = ng_multiply(g, x, ng_scalar_of(g, NG_FLOAT64, 3));
    ng_op_t *error = ng_constant(g, NG_FLOAT64, ba, 2, (double[]){1, 2, 3, 4, 5, 6}); /* e[b][a] */
    ng_op_t *d = ng_vjp(g, y, error, x);
    expect_no_error();
    assert_ptr_equal(ng_op_axis(d, 0), A);
    double got[6];
    eval(d, got, 6);
    assert_values(got, (double[]){3, 9, 15, 6, 12, 18}, 6, 0);
    ng_graph_destroy(g);
}

static void test_vjp_bad_error(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *A = ng_axis(g, "A", 2), *B = ng_axis(g, "B", 2);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT64, &A, 1, NULL);
    ng_op_t *y = ng_exp(g, x);
    assert_null(ng_vjp(g, y, ng_placeholder(g, NG_FLOAT64, &B, 1, NULL), x));
    expect_error(NG_ERR_AXES, "ng_vjp", "error");
    assert_null(ng_vjp(g, y, ng_placeholder(g, NG_FLOAT32, &A, 1, NULL), x));
    expect_error(NG_ERR_DTYPE, "ng_vjp", "float32");
    assert_null(ng_vjp(g, y, NULL, x));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_vjp", "error");
    ng_graph_destroy(g);
}

static void test_deriv_bad_arguments(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create(), *other = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 2);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT64, &n, 1, NULL);
    ng_op_t *cost = sum_all(g, ng_square(g, x));

    assert_null(ng_deriv(g, ng_square(g, x), x));
    expect_error(NG_ERR_AXES, "ng_deriv", "scalar");
    assert_null(ng_deriv(NULL, cost, x));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_deriv", "g");
    assert_null(ng_deriv(g, NULL, x));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_deriv", "cost");
    assert_null(ng_deriv(g, cost, NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_deriv", "wrt");
    assert_null(ng_deriv(g, cost, (ng_op_t *)(void *)n)); /* an axis handle is not an op */
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_deriv", "wrt");
    ng_op_t *foreign = ng_placeholder(other, NG_FLOAT64, NULL, 0, NULL);
    assert_null(ng_deriv(g, cost, foreign));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_deriv", "wrt");
    ng_op_t *ints = ng_placeholder(g, NG_INT32, &n, 1, NULL);
    assert_null(ng_deriv(g, cost, ints));
    expect_error(NG_ERR_DTYPE, "ng_deriv", "int32");
    assert_null(ng_deriv(g, ng_sum(g, ints, NULL, 0), ints));
    expect_error(NG_ERR_DTYPE, "ng_deriv", "int32");
    ng_graph_destroy(g);
    ng_graph_destroy(other);
}

/* variables(): the trainable variables a value depends on, in the order first reached:
 * tanh(dot(x, w) + b) gives [w, b]. */
static void test_variables(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *C = ng_axis(g, "C", 4), *Y = ng_axis(g, "Y", 3), *N = ng_axis(g, "N", 2);
    const ng_axis_t *x_axes[2] = {C, N}, *w_axes[2] = {C, Y};
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, x_axes, 2, NULL);
    ng_op_t *w = ng_variable(g, NG_FLOAT32, w_axes, 2, NULL);
    ng_op_t *b = ng_variable(g, NG_FLOAT32, &Y, 1, NULL);
    ng_variable(g, NG_FLOAT32, &Y, 1, NULL); /* not upstream */
    ng_op_t *y = ng_tanh(g, ng_add(g, ng_dot(g, w, x), b));
    ng_op_t *found[4] = {NULL, NULL, NULL, NULL};
    assert_int_equal(ng_variables(y, NULL, 0), 2);
    assert_int_equal(ng_variables(y, found, 4), 2);
    assert_ptr_equal(found[0], w);
    assert_ptr_equal(found[1], b);
    assert_null(found[2]);
    ng_op_t *one[1] = {NULL};
    assert_int_equal(ng_variables(y, one, 1), 2);
    assert_ptr_equal(one[0], w);
    assert_int_equal(ng_variables(x, found, 4), 0);
    assert_int_equal(ng_variables(w, found, 4), 1);

    assert_int_equal(ng_variables(NULL, found, 4), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_variables", "op");
    assert_int_equal(ng_variables(y, found, -1), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_variables", "cap");
    assert_int_equal(ng_variables(y, NULL, 2), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_variables", "out");
    ng_graph_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deriv_by_hand),
        cmocka_unit_test(test_alignment_sums_broadcast_axes),
        cmocka_unit_test(test_second_derivative),
        cmocka_unit_test(test_unreached_and_stopped_give_zeros),
        cmocka_unit_test(test_piecewise_constant_ops_contribute_zero),
        cmocka_unit_test(test_ties),
        cmocka_unit_test(test_cross_entropy_extreme_logits),
        cmocka_unit_test(test_cast_between_floats),
        cmocka_unit_test(test_sequential),
        cmocka_unit_test(test_assign_on_path_is_unsupported),
        cmocka_unit_test(test_wrt_intermediate),
        cmocka_unit_test(test_vjp),
        cmocka_unit_test(test_vjp_bad_error),
        cmocka_unit_test(test_deriv_bad_arguments),
        cmocka_unit_test(test_variables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
