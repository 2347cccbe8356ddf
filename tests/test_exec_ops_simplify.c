/* Constant folding and algebraic simplification, observed through ng_computation_stats: the
 * plan of a simplifiable expression must have exactly the nodes and kernels of its simplified
 * form (x + 0, x * 1, x - 0, x / 1, log(exp x), -(-x) cost what x costs; an op of constants
 * costs what one constant costs), and the values must stay right. Kernel counts alone cannot
 * tell (fusion makes square(x + 0) one kernel either way), so nodes are compared too, and a
 * control (square(x + x)) shows the node count does see an extra op. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "exec_test_util.h"

enum { N = 5 };

/* The plan of a computation of `result` over placeholder x; also checks its value. */
static ng_computation_stats_t plan_of(ng_op_t *result, ng_op_t *x, const double *want,
                                      const char *what) {
    assert_non_null(result);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &result, 1, &x, 1);
    if (c == NULL) fail_msg("%s: compile failed: %s", what, ng_last_error());
    ng_computation_stats_t st = {.struct_size = sizeof st};
    assert_int_equal(ng_computation_stats(c, &st), NG_OK);
    double xv[N] = {0.5, -1.25, 2, 3.5, -4}, got[N];
    ng_tensor_t *tx = ex_tensor(NG_FLOAT64, (int64_t[]){N}, 1, xv);
    ng_tensor_t *out[1] = {NULL};
    assert_int_equal(ng_computation_run(c, &tx, 1, out, 1), NG_OK);
    ex_read(out[0], got);
    ex_assert_close(got, want, N, 1e-15, what);
    ng_tensor_release(out[0]);
    ng_tensor_release(tx);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    return st;
}

static void assert_same_plan(ng_computation_stats_t got, ng_computation_stats_t want,
                             const char *what) {
    if (got.num_nodes != want.num_nodes || got.num_kernels != want.num_kernels)
        fail_msg("%s: %d nodes, %d kernels; want %d nodes, %d kernels", what, got.num_nodes,
                 got.num_kernels, want.num_nodes, want.num_kernels);
}

static void test_identities_cost_what_x_costs(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *ax = ng_axis(g, "N", N);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT64, &ax, 1, NULL);
    double xv[N] = {0.5, -1.25, 2, 3.5, -4}, sq[N];
    for (int i = 0; i < N; ++i) sq[i] = xv[i] * xv[i];
    /* Baseline: square(x), one elementwise kernel at most. */
    ng_computation_stats_t base = plan_of(ng_square(g, x), x, sq, "square(x)");
    double sq2[N];
    for (int i = 0; i < N; ++i) sq2[i] = 4 * sq[i];
    ng_computation_stats_t control =
        plan_of(ng_square(g, ng_add(g, x, x)), x, sq2, "square(x + x)");
    assert_true(control.num_nodes > base.num_nodes);
    ng_op_t *zero = ng_scalar_of(g, NG_FLOAT64, 0), *one = ng_scalar_of(g, NG_FLOAT64, 1);
    struct {
        const char *what;
        ng_op_t *op;
    } same[] = {
        {"square(x + 0)", ng_square(g, ng_add(g, x, zero))},
        {"square(0 + x)", ng_square(g, ng_add(g, zero, x))},
        {"square(x - 0)", ng_square(g, ng_subtract(g, x, zero))},
        {"square(x * 1)", ng_square(g, ng_multiply(g, x, one))},
        {"square(1 * x)", ng_square(g, ng_multiply(g, one, x))},
        {"square(x / 1)", ng_square(g, ng_divide(g, x, one))},
        {"square(log(exp(x)))", ng_square(g, ng_log(g, ng_exp(g, x)))},
        {"square(-(-x))", ng_square(g, ng_negative(g, ng_negative(g, x)))},
        {"square(stop_gradient(x))", ng_square(g, ng_stop_gradient(g, x))},
        {"square(cast(x, float64))", ng_square(g, ng_cast(g, x, NG_FLOAT64))},
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; ++i) {
        assert_same_plan(plan_of(same[i].op, x, sq, same[i].what), base, same[i].what);
    }
    ng_graph_destroy(g);
}

/* x * (2 + 3) costs what x * 5 costs: the constant subexpression is folded at compile time. */
static void test_constant_subexpressions_fold(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *ax = ng_axis(g, "N", N);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT64, &ax, 1, NULL);
    double xv[N] = {0.5, -1.25, 2, 3.5, -4}, want[N];
    for (int i = 0; i < N; ++i) want[i] = xv[i] * 5;
    ng_computation_stats_t plain =
        plan_of(ng_multiply(g, x, ng_scalar_of(g, NG_FLOAT64, 5)), x, want, "x * 5");
    ng_op_t *five = ng_add(g, ng_scalar_of(g, NG_FLOAT64, 2), ng_scalar_of(g, NG_FLOAT64, 3));
    assert_same_plan(plan_of(ng_multiply(g, x, five), x, want, "x * (2 + 3)"), plain,
                     "x * (2 + 3)");
    /* A vector constant computed from constants costs what the literal result costs. */
    double cv[N] = {1, 2, 3, 4, 5};
    ng_op_t *c = ng_constant(g, NG_FLOAT64, &ax, 1, cv);
    for (int i = 0; i < N; ++i) want[i] = xv[i] + 2 * cv[i];
    ng_computation_stats_t with_constant =
        plan_of(ng_add(g, x, ng_add(g, c, c)), x, want, "x + (c + c)");
    ng_op_t *c2 = ng_constant(g, NG_FLOAT64, &ax, 1, (double[]){2, 4, 6, 8, 10});
    assert_same_plan(with_constant, plan_of(ng_add(g, x, c2), x, want, "x + 2c"), "x + (c + c)");
    ng_graph_destroy(g);
}

/* ng_computation_stats rejects NULL arguments, naming itself. */
static void test_stats_bad_arguments(void **state) {
    (void)state;
    ng_computation_stats_t st = {.struct_size = sizeof st};
    ex_assert_error(ng_computation_stats(NULL, &st), NG_ERR_INVALID_ARGUMENT,
                    "ng_computation_stats");
    ng_graph_t *g = ng_graph_create();
    ng_op_t *s = ng_scalar(g, 1);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &s, 1, NULL, 0);
    assert_non_null(c);
    ex_assert_error(ng_computation_stats(c, NULL), NG_ERR_INVALID_ARGUMENT, "ng_computation_stats");
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identities_cost_what_x_costs),
        cmocka_unit_test(test_constant_subexpressions_fold),
        cmocka_unit_test(test_stats_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
