/* Elementwise builders: axes aligned by name (in both operand orders), dtypes without silent
 * promotion, comparisons give bool, explicit cast, select, and every error path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "test_graph_util.h"

typedef ng_op_t *(*binary_fn)(ng_graph_t *, ng_op_t *, ng_op_t *);
typedef ng_op_t *(*unary_fn)(ng_graph_t *, ng_op_t *);

static const struct {
    binary_fn fn;
    const char *name, *type;
    int comparison;
} binaries[] = {
    {ng_add, "ng_add", "Add", 0},
    {ng_subtract, "ng_subtract", "Subtract", 0},
    {ng_multiply, "ng_multiply", "Multiply", 0},
    {ng_divide, "ng_divide", "Divide", 0},
    {ng_power, "ng_power", "Power", 0},
    {ng_maximum, "ng_maximum", "Maximum", 0},
    {ng_minimum, "ng_minimum", "Minimum", 0},
    {ng_equal, "ng_equal", "Equal", 1},
    {ng_not_equal, "ng_not_equal", "NotEqual", 1},
    {ng_less, "ng_less", "Less", 1},
    {ng_less_equal, "ng_less_equal", "LessEqual", 1},
    {ng_greater, "ng_greater", "Greater", 1},
    {ng_greater_equal, "ng_greater_equal", "GreaterEqual", 1},
};
#define NUM_BINARIES (sizeof binaries / sizeof binaries[0])

static const struct {
    unary_fn fn;
    const char *name, *type;
    int float_only;
} unaries[] = {
    {ng_negative, "ng_negative", "Negative", 0},
    {ng_absolute, "ng_absolute", "Absolute", 0},
    {ng_sign, "ng_sign", "Sign", 0},
    {ng_exp, "ng_exp", "Exp", 1},
    {ng_log, "ng_log", "Log", 1},
    {ng_sqrt, "ng_sqrt", "Sqrt", 1},
    {ng_square, "ng_square", "Square", 0},
    {ng_reciprocal, "ng_reciprocal", "Reciprocal", 1},
    {ng_sigmoid, "ng_sigmoid", "Sigmoid", 1},
    {ng_relu, "ng_relu", "Relu", 0},
    {ng_sin, "ng_sin", "Sin", 1},
    {ng_cos, "ng_cos", "Cos", 1},
    {ng_tanh, "ng_tanh", "Tanh", 1},
};
#define NUM_UNARIES (sizeof unaries / sizeof unaries[0])

/* Binary ops align their operands' axes by name: (C, H, W, N) - (W, H) has rank 4, in a's order. */
static void binary_aligns_by_name_in_both_orders(void **state) {
    fixture_t *f = *state;
    ng_op_t *a = P(f, f->C, f->H, f->W, f->N);
    ng_op_t *b = P(f, f->W, f->H);
    for (size_t i = 0; i < NUM_BINARIES; ++i) {
        ng_dtype_t want = binaries[i].comparison ? NG_BOOL : NG_FLOAT32;
        ng_op_t *ab = binaries[i].fn(f->g, a, b);
        EXPECT_OP(ab, binaries[i].type, want, "(C(4), H(2), W(3), N(5))");
        assert_int_equal(ng_op_num_args(ab), 2);
        assert_ptr_equal(ng_op_arg(ab, 0), a);
        assert_ptr_equal(ng_op_arg(ab, 1), b);
        /* The other order: b's axes first, then a's others. */
        EXPECT_OP(binaries[i].fn(f->g, b, a), binaries[i].type, want, "(W(3), H(2), C(4), N(5))");
    }
}

static void binary_of_disjoint_axes_is_an_outer_combination(void **state) {
    fixture_t *f = *state;
    ng_op_t *c = P(f, f->C), *n = P(f, f->N);
    EXPECT_OP(ng_add(f->g, c, n), "Add", NG_FLOAT32, "(C(4), N(5))");
    EXPECT_OP(ng_add(f->g, n, c), "Add", NG_FLOAT32, "(N(5), C(4))");
    /* A scalar broadcasts against anything, on either side. */
    ng_op_t *s = ng_scalar(f->g, 2.0);
    EXPECT_OP(ng_multiply(f->g, s, c), "Multiply", NG_FLOAT32, "(C(4))");
    EXPECT_OP(ng_multiply(f->g, c, s), "Multiply", NG_FLOAT32, "(C(4))");
}

static void binary_refuses_equal_names_of_unequal_lengths(void **state) {
    fixture_t *f = *state;
    ng_op_t *a = P(f, f->C, f->N), *b = P(f, f->C3);
    for (size_t i = 0; i < NUM_BINARIES; ++i) {
        EXPECT_BUILD_FAILS(binaries[i].fn(f->g, a, b), NG_ERR_AXES, binaries[i].name,
                           "axes C(4) and C(3) share a name but not a length");
        EXPECT_BUILD_FAILS(binaries[i].fn(f->g, b, a), NG_ERR_AXES, binaries[i].name,
                           "axes C(3) and C(4) share a name but not a length");
    }
    /* The graph keeps the first error, the one of ng_add. */
    assert_int_equal(ng_graph_status(f->g), NG_ERR_AXES);
    assert_string_equal(ng_graph_error(f->g),
                        "ng_add: axes C(4) and C(3) share a name but not a length");
}

static void binary_refuses_mixed_dtypes_without_promotion(void **state) {
    fixture_t *f = *state;
    ng_op_t *x32 = P(f, f->C), *x64 = PT(f, NG_FLOAT64, f->C), *i32 = PT(f, NG_INT32, f->C);
    for (size_t i = 0; i < NUM_BINARIES; ++i) {
        EXPECT_BUILD_FAILS(binaries[i].fn(f->g, x32, x64), NG_ERR_DTYPE, binaries[i].name,
                           "float32");
        check_failure(NG_ERR_DTYPE, binaries[i].name, "float64", "ng_cast");
        EXPECT_BUILD_FAILS(binaries[i].fn(f->g, i32, x32), NG_ERR_DTYPE, binaries[i].name, "int32");
    }
    /* ng_scalar is float32: adding it to float64 needs ng_scalar_of. */
    EXPECT_BUILD_FAILS(ng_add(f->g, x64, ng_scalar(f->g, 1.0)), NG_ERR_DTYPE, "ng_add", "float64");
    EXPECT_OP(ng_add(f->g, x64, ng_scalar_of(f->g, NG_FLOAT64, 1.0)), "Add", NG_FLOAT64, "(C(4))");
}

static void integer_and_bool_operands(void **state) {
    fixture_t *f = *state;
    ng_op_t *i64 = PT(f, NG_INT64, f->C, f->N), *b = PT(f, NG_BOOL, f->N);
    for (size_t i = 0; i < NUM_BINARIES; ++i)
        EXPECT_OP(binaries[i].fn(f->g, i64, i64), binaries[i].type,
                  binaries[i].comparison ? NG_BOOL : NG_INT64, "(C(4), N(5))");
    /* bool: comparisons and max/min (or/and) yes, arithmetic no. */
    EXPECT_OP(ng_equal(f->g, b, b), "Equal", NG_BOOL, "(N(5))");
    EXPECT_OP(ng_maximum(f->g, b, b), "Maximum", NG_BOOL, "(N(5))");
    EXPECT_BUILD_FAILS(ng_add(f->g, b, b), NG_ERR_DTYPE, "ng_add", "bool");
    EXPECT_BUILD_FAILS(ng_power(f->g, b, b), NG_ERR_DTYPE, "ng_power", "bool");
}

static void unary_keeps_axes_and_dtype(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->N, f->C);
    ng_op_t *x64 = PT(f, NG_FLOAT64, f->C);
    ng_op_t *i32 = PT(f, NG_INT32, f->C), *b = PT(f, NG_BOOL, f->C);
    for (size_t i = 0; i < NUM_UNARIES; ++i) {
        ng_op_t *y = unaries[i].fn(f->g, x);
        EXPECT_OP(y, unaries[i].type, NG_FLOAT32, "(N(5), C(4))");
        assert_int_equal(ng_op_num_args(y), 1);
        assert_ptr_equal(ng_op_arg(y, 0), x);
        EXPECT_OP(unaries[i].fn(f->g, x64), unaries[i].type, NG_FLOAT64, "(C(4))");
        if (unaries[i].float_only) {
            EXPECT_BUILD_FAILS(unaries[i].fn(f->g, i32), NG_ERR_DTYPE, unaries[i].name, "int32");
            check_failure(NG_ERR_DTYPE, unaries[i].name, "ng_cast", NULL);
        } else {
            EXPECT_OP(unaries[i].fn(f->g, i32), unaries[i].type, NG_INT32, "(C(4))");
        }
        EXPECT_BUILD_FAILS(unaries[i].fn(f->g, b), NG_ERR_DTYPE, unaries[i].name, "bool");
    }
    EXPECT_OP(ng_stop_gradient(f->g, b), "StopGradient", NG_BOOL, "(C(4))");
}

static void cast_is_the_explicit_conversion(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C, f->N);
    ng_op_t *i = ng_cast(f->g, x, NG_INT64);
    EXPECT_OP(i, "Cast", NG_INT64, "(C(4), N(5))");
    assert_ptr_equal(ng_op_arg(i, 0), x);
    EXPECT_OP(ng_cast(f->g, i, NG_BOOL), "Cast", NG_BOOL, "(C(4), N(5))");
    EXPECT_BUILD_FAILS(ng_cast(f->g, x, 99), NG_ERR_DTYPE, "ng_cast", "99");
}

static void select_aligns_value_axes_first(void **state) {
    fixture_t *f = *state;
    ng_op_t *cond = PT(f, NG_BOOL, f->N, f->W);
    ng_op_t *a = P(f, f->C), *b = P(f, f->N);
    ng_op_t *s = ng_select(f->g, cond, a, b);
    EXPECT_OP(s, "Select", NG_FLOAT32, "(C(4), N(5), W(3))");
    assert_ptr_equal(ng_op_arg(s, 0), cond);
    assert_ptr_equal(ng_op_arg(s, 1), a);
    assert_ptr_equal(ng_op_arg(s, 2), b);
    EXPECT_OP(ng_select(f->g, cond, b, a), "Select", NG_FLOAT32, "(N(5), C(4), W(3))");
    EXPECT_BUILD_FAILS(ng_select(f->g, a, a, b), NG_ERR_DTYPE, "ng_select", "condition");
    EXPECT_BUILD_FAILS(ng_select(f->g, cond, a, PT(f, NG_INT32, f->N)), NG_ERR_DTYPE, "ng_select",
                       "int32");
    EXPECT_BUILD_FAILS(ng_select(f->g, PT(f, NG_BOOL, f->C3), a, b), NG_ERR_AXES, "ng_select",
                       "C(4) and C(3)");
}

static void null_and_foreign_arguments_fail_cleanly(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C);
    EXPECT_BUILD_FAILS(ng_add(f->g, x, NULL), NG_ERR_INVALID_ARGUMENT, "ng_add", "b is NULL");
    EXPECT_BUILD_FAILS(ng_add(f->g, NULL, x), NG_ERR_INVALID_ARGUMENT, "ng_add", "a is NULL");
    EXPECT_BUILD_FAILS(ng_tanh(f->g, NULL), NG_ERR_INVALID_ARGUMENT, "ng_tanh", "x is NULL");
    EXPECT_BUILD_FAILS(ng_cast(f->g, NULL, NG_FLOAT32), NG_ERR_INVALID_ARGUMENT, "ng_cast",
                       "x is NULL");
    EXPECT_BUILD_FAILS(ng_select(f->g, NULL, x, x), NG_ERR_INVALID_ARGUMENT, "ng_select",
                       "condition is NULL");
    assert_int_equal(ng_graph_status(f->g), NG_ERR_INVALID_ARGUMENT);
    assert_string_equal(ng_graph_error(f->g), "ng_add: b is NULL");

    /* No graph: the error goes to the operand's graph. */
    ng_graph_t *other = ng_graph_create();
    ng_op_t *y = ng_scalar(other, 1.0);
    EXPECT_BUILD_FAILS(ng_negative(NULL, y), NG_ERR_INVALID_ARGUMENT, "ng_negative", "g is NULL");
    assert_int_equal(ng_graph_status(other), NG_ERR_INVALID_ARGUMENT);
    assert_string_equal(ng_graph_error(other), "ng_negative: g is NULL");

    /* Ops of two graphs are refused. */
    EXPECT_BUILD_FAILS(ng_add(f->g, x, y), NG_ERR_INVALID_ARGUMENT, "ng_add", "another graph");
    EXPECT_BUILD_FAILS(ng_add(other, x, y), NG_ERR_INVALID_ARGUMENT, "ng_add", "another graph");
    /* A handle of the wrong type: an axis passed as an op. */
    EXPECT_BUILD_FAILS(ng_exp(f->g, (ng_op_t *)(void *)f->C), NG_ERR_INVALID_ARGUMENT, "ng_exp",
                       "x is not a live op handle (it is a live axis handle)");
    EXPECT_BUILD_FAILS(ng_exp((ng_graph_t *)(void *)x, x), NG_ERR_INVALID_ARGUMENT, "ng_exp",
                       "g is not a live graph handle (it is a live op handle)");
    ng_graph_destroy(other);
}

#define T(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(binary_aligns_by_name_in_both_orders),
        T(binary_of_disjoint_axes_is_an_outer_combination),
        T(binary_refuses_equal_names_of_unequal_lengths),
        T(binary_refuses_mixed_dtypes_without_promotion),
        T(integer_and_bool_operands),
        T(unary_keeps_axes_and_dtype),
        T(cast_is_the_explicit_conversion),
        T(select_aligns_value_axes_first),
        T(null_and_foreign_arguments_fail_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
