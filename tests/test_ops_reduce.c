/* Reductions, arg-reductions, dot, softmax and the composites (variance, norms, cross
 * entropies): result axes in order and dtypes, the primitive subgraphs composites build, and
 * every error path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "test_graph_util.h"

typedef ng_op_t *(*reduce_fn)(ng_graph_t *, ng_op_t *, const ng_axis_t *const *, int32_t);

static const struct {
    reduce_fn fn;
    const char *name, *type;
} reductions[] = {
    {ng_sum, "ng_sum", "Sum"},    {ng_max, "ng_max", "Max"},    {ng_min, "ng_min", "Min"},
    {ng_mean, "ng_mean", "Mean"}, {ng_prod, "ng_prod", "Prod"},
};
#define NUM_REDUCTIONS (sizeof reductions / sizeof reductions[0])

static void reductions_keep_the_other_axes_in_order(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C, f->H, f->W, f->N);
    for (size_t i = 0; i < NUM_REDUCTIONS; ++i) {
        ng_op_t *r = reductions[i].fn(f->g, x, AXES(f->W, f->C), 2);
        EXPECT_OP(r, reductions[i].type, NG_FLOAT32, "(H(2), N(5))");
        assert_ptr_equal(ng_op_arg(r, 0), x);
        EXPECT_OP(reductions[i].fn(f->g, x, AXES(f->N), 1), reductions[i].type, NG_FLOAT32,
                  "(C(4), H(2), W(3))");
        /* n == 0 reduces everything. */
        EXPECT_OP(reductions[i].fn(f->g, x, NULL, 0), reductions[i].type, NG_FLOAT32, "()");
    }
}

static void reduction_errors(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C, f->N);
    ng_op_t *i32 = PT(f, NG_INT32, f->C), *b = PT(f, NG_BOOL, f->C);
    for (size_t i = 0; i < NUM_REDUCTIONS; ++i) {
        const char *fn = reductions[i].name;
        EXPECT_BUILD_FAILS(reductions[i].fn(f->g, x, AXES(f->W), 1), NG_ERR_AXES, fn, "W(3)");
        check_failure(NG_ERR_AXES, fn, "(C(4), N(5))", NULL);
        EXPECT_BUILD_FAILS(reductions[i].fn(f->g, x, AXES(f->C3), 1), NG_ERR_AXES, fn,
                           "C(4) and C(3)");
        EXPECT_BUILD_FAILS(reductions[i].fn(f->g, x, AXES(f->C, f->C), 2), NG_ERR_AXES, fn,
                           "twice");
        EXPECT_BUILD_FAILS(reductions[i].fn(f->g, x, NULL, 1), NG_ERR_INVALID_ARGUMENT, fn,
                           "axes is NULL");
        EXPECT_BUILD_FAILS(reductions[i].fn(f->g, x, AXES(f->C), -1), NG_ERR_INVALID_ARGUMENT, fn,
                           "negative");
        EXPECT_BUILD_FAILS(reductions[i].fn(f->g, x, AXES(NULL), 1), NG_ERR_INVALID_ARGUMENT, fn,
                           "axes[0] is NULL");
        EXPECT_BUILD_FAILS(reductions[i].fn(f->g, NULL, NULL, 0), NG_ERR_INVALID_ARGUMENT, fn,
                           "x is NULL");
        EXPECT_BUILD_FAILS(reductions[i].fn(f->g, b, NULL, 0), NG_ERR_DTYPE, fn, "bool");
    }
    EXPECT_OP(ng_sum(f->g, i32, NULL, 0), "Sum", NG_INT32, "()");
    EXPECT_BUILD_FAILS(ng_mean(f->g, i32, NULL, 0), NG_ERR_DTYPE, "ng_mean", "int32");
    /* An axis of another graph. */
    ng_graph_t *other = ng_graph_create();
    const ng_axis_t *foreign = ng_axis(other, "C", 4);
    EXPECT_BUILD_FAILS(ng_sum(f->g, x, &foreign, 1), NG_ERR_INVALID_ARGUMENT, "ng_sum",
                       "another graph");
    ng_graph_destroy(other);
}

static void argmax_and_argmin_give_int64(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C, f->H, f->N);
    ng_op_t *m = ng_argmax(f->g, x, f->H);
    EXPECT_OP(m, "Argmax", NG_INT64, "(C(4), N(5))");
    assert_ptr_equal(ng_op_arg(m, 0), x);
    EXPECT_OP(ng_argmin(f->g, x, f->C), "Argmin", NG_INT64, "(H(2), N(5))");
    EXPECT_OP(ng_argmax(f->g, PT(f, NG_UINT8, f->W), f->W), "Argmax", NG_INT64, "()");
    EXPECT_BUILD_FAILS(ng_argmax(f->g, x, f->W), NG_ERR_AXES, "ng_argmax", "W(3)");
    EXPECT_BUILD_FAILS(ng_argmin(f->g, x, NULL), NG_ERR_INVALID_ARGUMENT, "ng_argmin", "axis");
    EXPECT_BUILD_FAILS(ng_argmin(f->g, x, f->C3), NG_ERR_AXES, "ng_argmin", "C(4) and C(3)");
    EXPECT_BUILD_FAILS(ng_argmax(f->g, PT(f, NG_BOOL, f->C), f->C), NG_ERR_DTYPE, "ng_argmax",
                       "bool");
}

static void dot_contracts_shared_axes(void **state) {
    fixture_t *f = *state;
    /* dot contracts every axis its operands share: dot(w(C, W, H, Y), x(C, W, H, N)) has axes
     * (Y, N). */
    const ng_axis_t *Y = ng_axis(f->g, "Y", 4);
    ng_op_t *w = P(f, f->C, f->W, f->H, Y);
    ng_op_t *x = P(f, f->C, f->W, f->H, f->N);
    ng_op_t *d = ng_dot(f->g, w, x);
    EXPECT_OP(d, "Dot", NG_FLOAT32, "(Y(4), N(5))");
    assert_ptr_equal(ng_op_arg(d, 0), w);
    assert_ptr_equal(ng_op_arg(d, 1), x);
    EXPECT_OP(ng_dot(f->g, x, w), "Dot", NG_FLOAT32, "(N(5), Y(4))");
    /* Shared axes in another order still contract. */
    ng_op_t *x2 = P(f, f->H, f->N, f->C, f->W);
    EXPECT_OP(ng_dot(f->g, w, x2), "Dot", NG_FLOAT32, "(Y(4), N(5))");
    /* Nothing shared: outer product. Everything shared: scalar. */
    EXPECT_OP(ng_dot(f->g, P(f, f->C), P(f, f->N)), "Dot", NG_FLOAT32, "(C(4), N(5))");
    EXPECT_OP(ng_dot(f->g, P(f, f->C, f->N), P(f, f->N, f->C)), "Dot", NG_FLOAT32, "()");
    EXPECT_OP(ng_dot(f->g, PT(f, NG_INT32, f->C), PT(f, NG_INT32, f->C)), "Dot", NG_INT32, "()");

    EXPECT_BUILD_FAILS(ng_dot(f->g, w, P(f, f->C3)), NG_ERR_AXES, "ng_dot", "C(4) and C(3)");
    EXPECT_BUILD_FAILS(ng_dot(f->g, w, PT(f, NG_FLOAT64, f->C)), NG_ERR_DTYPE, "ng_dot", "float64");
    EXPECT_BUILD_FAILS(ng_dot(f->g, PT(f, NG_BOOL, f->C), PT(f, NG_BOOL, f->C)), NG_ERR_DTYPE,
                       "ng_dot", "bool");
    EXPECT_BUILD_FAILS(ng_dot(f->g, NULL, w), NG_ERR_INVALID_ARGUMENT, "ng_dot", "a is NULL");
}

static void softmax_keeps_axes(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C, f->N);
    EXPECT_OP(ng_softmax(f->g, x, AXES(f->C), 1), "Softmax", NG_FLOAT32, "(C(4), N(5))");
    EXPECT_OP(ng_log_softmax(f->g, x, NULL, 0), "LogSoftmax", NG_FLOAT32, "(C(4), N(5))");
    EXPECT_BUILD_FAILS(ng_softmax(f->g, x, AXES(f->H), 1), NG_ERR_AXES, "ng_softmax", "H(2)");
    EXPECT_BUILD_FAILS(ng_log_softmax(f->g, PT(f, NG_INT32, f->C), NULL, 0), NG_ERR_DTYPE,
                       "ng_log_softmax", "int32");
}

/* The composite's op chain from the result down through first arguments, as types. */
static const char *chain(const ng_op_t *op, int depth) {
    static char text[256];
    text[0] = '\0';
    for (int i = 0; i < depth && op; ++i) {
        strcat(text, i ? " <- " : "");
        strcat(text, ng_op_type(op));
        op = ng_op_num_args(op) > 0 ? ng_op_arg(op, 0) : NULL;
    }
    return text;
}

static void composites_build_primitive_subgraphs(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C, f->N);
    ng_op_t *sq = ng_squared_l2(f->g, x, AXES(f->C), 1);
    EXPECT_OP(sq, "Sum", NG_FLOAT32, "(N(5))");
    assert_string_equal(chain(sq, 3), "Sum <- Square <- Placeholder");
    assert_ptr_equal(ng_op_arg(ng_op_arg(sq, 0), 0), x);

    ng_op_t *l2 = ng_l2_norm(f->g, x, NULL, 0);
    EXPECT_OP(l2, "Sqrt", NG_FLOAT32, "()");
    assert_string_equal(chain(l2, 4), "Sqrt <- Sum <- Square <- Placeholder");

    ng_op_t *l1 = ng_l1_norm(f->g, x, AXES(f->N), 1);
    EXPECT_OP(l1, "Sum", NG_FLOAT32, "(C(4))");
    assert_string_equal(chain(l1, 3), "Sum <- Absolute <- Placeholder");

    /* variance = mean(square(x - mean(x))) */
    ng_op_t *v = ng_variance(f->g, x, AXES(f->N), 1);
    EXPECT_OP(v, "Mean", NG_FLOAT32, "(C(4))");
    assert_string_equal(chain(v, 4), "Mean <- Square <- Subtract <- Placeholder");
    ng_op_t *centered = ng_op_arg(ng_op_arg(v, 0), 0);
    EXPECT_OP(ng_op_arg(centered, 1), "Mean", NG_FLOAT32, "(C(4))");
    assert_ptr_equal(ng_op_arg(ng_op_arg(centered, 1), 0), x);

    EXPECT_BUILD_FAILS(ng_squared_l2(f->g, PT(f, NG_INT32, f->C), NULL, 0), NG_ERR_DTYPE,
                       "ng_squared_l2", "int32");
    EXPECT_BUILD_FAILS(ng_variance(f->g, x, AXES(f->W), 1), NG_ERR_AXES, "ng_variance", "W(3)");
    EXPECT_BUILD_FAILS(ng_l1_norm(f->g, NULL, NULL, 0), NG_ERR_INVALID_ARGUMENT, "ng_l1_norm",
                       "x is NULL");
    EXPECT_BUILD_FAILS(ng_l2_norm(f->g, x, AXES(f->C3), 1), NG_ERR_AXES, "ng_l2_norm",
                       "C(4) and C(3)");
}

static void failed_composites_leave_no_ops_behind(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C, f->N), *t = P(f, f->C, f->N);
    int32_t before = ng_graph_num_ops(f->g);
    assert_null(ng_variance(f->g, x, AXES(f->W), 1));
    assert_null(ng_cross_entropy_binary(f->g, x, PT(f, NG_FLOAT64, f->C), NULL, 0));
    assert_int_equal(ng_graph_num_ops(f->g), before + 1); /* only the float64 placeholder */
    assert_null(ng_cross_entropy_multi(f->g, x, t, AXES(f->H), 1));
    assert_int_equal(ng_graph_num_ops(f->g), before + 1);
}

static void cross_entropy_multi_of_softmax_uses_log_softmax(void **state) {
    fixture_t *f = *state;
    ng_op_t *logits = P(f, f->C, f->N), *t = P(f, f->C, f->N);
    ng_op_t *y = ng_softmax(f->g, logits, AXES(f->C), 1);
    ng_op_t *ce = ng_cross_entropy_multi(f->g, y, t, AXES(f->C), 1);
    EXPECT_OP(ce, "Negative", NG_FLOAT32, "(N(5))");
    assert_string_equal(chain(ce, 3), "Negative <- Sum <- Multiply");
    ng_op_t *product = ng_op_arg(ng_op_arg(ce, 0), 0);
    assert_ptr_equal(ng_op_arg(product, 0), t);
    ng_op_t *log_y = ng_op_arg(product, 1);
    EXPECT_OP(log_y, "LogSoftmax", NG_FLOAT32, "(C(4), N(5))");
    assert_ptr_equal(ng_op_arg(log_y, 0), logits);

    /* Not a softmax: plain log. n == 0 sums everything. */
    ng_op_t *plain = ng_cross_entropy_multi(f->g, logits, t, NULL, 0);
    EXPECT_OP(plain, "Negative", NG_FLOAT32, "()");
    EXPECT_OP(ng_op_arg(ng_op_arg(ng_op_arg(plain, 0), 0), 1), "Log", NG_FLOAT32, "(C(4), N(5))");

    EXPECT_BUILD_FAILS(ng_cross_entropy_multi(f->g, y, P(f, f->C3), NULL, 0), NG_ERR_AXES,
                       "ng_cross_entropy_multi", "C(4) and C(3)");
    EXPECT_BUILD_FAILS(ng_cross_entropy_multi(f->g, y, NULL, NULL, 0), NG_ERR_INVALID_ARGUMENT,
                       "ng_cross_entropy_multi", "t is NULL");
    EXPECT_BUILD_FAILS(
        ng_cross_entropy_multi(f->g, PT(f, NG_INT32, f->C), PT(f, NG_INT32, f->C), NULL, 0),
        NG_ERR_DTYPE, "ng_cross_entropy_multi", "int32");
}

/* Counts ops of a type upstream of op (each op once). */
static int count_upstream(const ng_op_t *op, const char *type, const ng_op_t **seen, int *nseen) {
    for (int i = 0; i < *nseen; ++i)
        if (seen[i] == op) return 0;
    seen[(*nseen)++] = op;
    int count = strcmp(ng_op_type(op), type) == 0;
    for (int32_t i = 0; i < ng_op_num_args(op); ++i)
        count += count_upstream(ng_op_arg(op, i), type, seen, nseen);
    return count;
}

static int count_type(const ng_op_t *op, const char *type) {
    const ng_op_t *seen[128];
    int nseen = 0;
    return count_upstream(op, type, seen, &nseen);
}

static void cross_entropy_binary_of_sigmoid_uses_logits(void **state) {
    fixture_t *f = *state;
    ng_op_t *logits = P(f, f->N), *t = P(f, f->N);
    ng_op_t *y = ng_sigmoid(f->g, logits);
    /* n == 0: elementwise. */
    ng_op_t *ce = ng_cross_entropy_binary(f->g, y, t, NULL, 0);
    EXPECT_OP(ce, "Add", NG_FLOAT32, "(N(5))");
    assert_int_equal(count_type(ce, "Sigmoid"), 0); /* built from the logits, not from y */
    assert_int_equal(count_type(ce, "Maximum"), 1);
    assert_int_equal(count_type(ce, "Absolute"), 1);
    assert_int_equal(count_type(ce, "Exp"), 1);
    assert_int_equal(count_type(ce, "Log"), 1);

    ng_op_t *summed = ng_cross_entropy_binary(f->g, y, t, AXES(f->N), 1);
    EXPECT_OP(summed, "Sum", NG_FLOAT32, "()");

    /* Probabilities: -(t log y + (1 - t) log(1 - y)), two logs. */
    ng_op_t *p = P(f, f->N);
    ng_op_t *plain = ng_cross_entropy_binary(f->g, p, t, NULL, 0);
    EXPECT_OP(plain, "Negative", NG_FLOAT32, "(N(5))");
    assert_int_equal(count_type(plain, "Log"), 2);
    EXPECT_BUILD_FAILS(ng_cross_entropy_binary(f->g, y, PT(f, NG_FLOAT64, f->N), NULL, 0),
                       NG_ERR_DTYPE, "ng_cross_entropy_binary", "float64");
    EXPECT_BUILD_FAILS(ng_cross_entropy_binary(f->g, y, t, AXES(f->C), 1), NG_ERR_AXES,
                       "ng_cross_entropy_binary", "C(4)");
}

#define T(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(reductions_keep_the_other_axes_in_order),
        T(reduction_errors),
        T(argmax_and_argmin_give_int64),
        T(dot_contracts_shared_axes),
        T(softmax_keeps_axes),
        T(composites_build_primitive_subgraphs),
        T(failed_composites_leave_no_ops_behind),
        T(cross_entropy_multi_of_softmax_uses_log_softmax),
        T(cross_entropy_binary_of_sigmoid_uses_logits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
