/* Gradient checks of elementwise ops (tests/test_gradcheck_harness.h has the method): every
 * unary op, every binary op with operands aligned by name (so one operand is broadcast over
 * axes it lacks), select, and compositions. */
#include "test_gradcheck_harness.h"

typedef ng_op_t *(*unary_fn)(ng_graph_t *, ng_op_t *);
typedef ng_op_t *(*binary_fn)(ng_graph_t *, ng_op_t *, ng_op_t *);

/* Checks f over a (C, N) input with values in [low, high]. */
static void check_unary(unary_fn f, double low, double high, uint64_t seed) {
    gradcheck_t c;
    gc_begin(&c, seed);
    const ng_axis_t *axes[2] = {ng_axis(c.g, "C", 3), ng_axis(c.g, "N", 4)};
    ng_op_t *x = gc_input(&c, axes, 2, low, high);
    gc_check(&c, f(c.g, x));
    gc_end(&c);
}

static void test_negative(void **state) {
    (void)state;
    check_unary(ng_negative, -2, 2, 1);
}
/* Kinks (|x| at 0, relu at 0) are kept away from, where the derivative does not exist. */
static void test_absolute(void **state) {
    (void)state;
    check_unary(ng_absolute, 0.1, 2, 2);
    check_unary(ng_absolute, -2, -0.1, 3);
}
static void test_exp(void **state) {
    (void)state;
    check_unary(ng_exp, -2, 2, 4);
}
static void test_log(void **state) {
    (void)state;
    check_unary(ng_log, 0.2, 3, 5);
}
static void test_sqrt(void **state) {
    (void)state;
    check_unary(ng_sqrt, 0.2, 3, 6);
}
static void test_square(void **state) {
    (void)state;
    check_unary(ng_square, -2, 2, 7);
}
static void test_reciprocal(void **state) {
    (void)state;
    check_unary(ng_reciprocal, 0.3, 2, 8);
    check_unary(ng_reciprocal, -2, -0.3, 9);
}
static void test_sigmoid(void **state) {
    (void)state;
    check_unary(ng_sigmoid, -4, 4, 10);
}
static void test_relu(void **state) {
    (void)state;
    check_unary(ng_relu, 0.1, 2, 11);
    check_unary(ng_relu, -2, -0.1, 12);
}
static void test_sin(void **state) {
    (void)state;
    check_unary(ng_sin, -3, 3, 13);
}
static void test_cos(void **state) {
    (void)state;
    check_unary(ng_cos, -3, 3, 14);
}
static void test_tanh(void **state) {
    (void)state;
    check_unary(ng_tanh, -2, 2, 15);
}

/* relu over inputs on both sides of 0 (none within 0.05 of it). */
static void test_relu_mixed_signs(void **state) {
    (void)state;
    gradcheck_t c;
    gc_begin(&c, 16);
    const ng_axis_t *n = ng_axis(c.g, "N", 8);
    ng_op_t *x = gc_input(&c, &n, 1, -1, 1);
    for (int64_t i = 0; i < 8; ++i) gc_set(&c, 0, i, (i % 2 ? 1 : -1) * (0.05 + 0.1 * (double)i));
    gc_check(&c, ng_relu(c.g, x));
    gc_end(&c);
}

/* f(a, b) with a over (C, N) and b over (N, H): aligned by name, the result is (C, N, H), so
 * each operand's gradient sums over the axis it was broadcast along. */
static void check_binary(binary_fn f, double low, double high, uint64_t seed) {
    gradcheck_t c;
    gc_begin(&c, seed);
    const ng_axis_t *C = ng_axis(c.g, "C", 2), *N = ng_axis(c.g, "N", 3), *H = ng_axis(c.g, "H", 2);
    const ng_axis_t *a_axes[2] = {C, N}, *b_axes[2] = {N, H};
    ng_op_t *a = gc_input(&c, a_axes, 2, low, high);
    ng_op_t *b = gc_input(&c, b_axes, 2, low, high);
    ng_op_t *y = f(c.g, a, b);
    assert_int_equal(ng_op_rank(y), 3);
    gc_check(&c, y);
    gc_end(&c);
}

static void test_add(void **state) {
    (void)state;
    check_binary(ng_add, -2, 2, 20);
}
static void test_subtract(void **state) {
    (void)state;
    check_binary(ng_subtract, -2, 2, 21);
}
static void test_multiply(void **state) {
    (void)state;
    check_binary(ng_multiply, -2, 2, 22);
}
static void test_divide(void **state) {
    (void)state;
    check_binary(ng_divide, 0.5, 2, 23);
}
static void test_power(void **state) {
    (void)state;
    check_binary(ng_power, 0.5, 2, 24);
}
static void test_maximum(void **state) {
    (void)state;
    check_binary(ng_maximum, -2, 2, 25);
}
static void test_minimum(void **state) {
    (void)state;
    check_binary(ng_minimum, -2, 2, 26);
}

/* The same op on both sides: x * x must give 2x (contributions accumulate). */
static void test_shared_operand(void **state) {
    (void)state;
    gradcheck_t c;
    gc_begin(&c, 27);
    const ng_axis_t *n = ng_axis(c.g, "N", 5);
    ng_op_t *x = gc_input(&c, &n, 1, -2, 2);
    gc_check(&c, ng_multiply(c.g, x, ng_add(c.g, x, ng_sin(c.g, x))));
    gc_end(&c);
}

/* A constant exponent: x^3 (and the exponent's own gradient is not asked for). */
static void test_power_constant_exponent(void **state) {
    (void)state;
    gradcheck_t c;
    gc_begin(&c, 28);
    const ng_axis_t *n = ng_axis(c.g, "N", 5);
    ng_op_t *x = gc_input(&c, &n, 1, -2, 2);
    gc_check(&c, ng_power(c.g, x, ng_scalar_of(c.g, NG_FLOAT64, 3.0)));
    gc_end(&c);
}

static void test_select(void **state) {
    (void)state;
    gradcheck_t c;
    gc_begin(&c, 29);
    const ng_axis_t *C = ng_axis(c.g, "C", 3), *N = ng_axis(c.g, "N", 4);
    const ng_axis_t *ca[2] = {C, N};
    ng_op_t *a = gc_input(&c, ca, 2, -2, 2);
    ng_op_t *b = gc_input(&c, &N, 1, -2, 2);
    ng_op_t *condition = ng_greater(c.g, a, ng_scalar_of(c.g, NG_FLOAT64, 0.0));
    gc_check(&c, ng_select(c.g, condition, ng_square(c.g, a), ng_exp(c.g, b)));
    gc_end(&c);
}

/* A small network-like composition: tanh(x * w + b) with broadcasting, then sigmoid. */
static void test_composition(void **state) {
    (void)state;
    gradcheck_t c;
    gc_begin(&c, 31);
    const ng_axis_t *C = ng_axis(c.g, "C", 3), *N = ng_axis(c.g, "N", 2);
    const ng_axis_t *xa[2] = {N, C};
    ng_op_t *x = gc_input(&c, xa, 2, -1, 1);
    ng_op_t *w = gc_input(&c, &C, 1, -1, 1);
    ng_op_t *b = gc_input(&c, &N, 1, -1, 1);
    ng_op_t *y = ng_sigmoid(c.g, ng_tanh(c.g, ng_add(c.g, ng_multiply(c.g, x, w), b)));
    gc_check(&c,
             ng_divide(c.g, y, ng_add(c.g, ng_exp(c.g, w), ng_scalar_of(c.g, NG_FLOAT64, 1.0))));
    gc_end(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_negative),
        cmocka_unit_test(test_absolute),
        cmocka_unit_test(test_exp),
        cmocka_unit_test(test_log),
        cmocka_unit_test(test_sqrt),
        cmocka_unit_test(test_square),
        cmocka_unit_test(test_reciprocal),
        cmocka_unit_test(test_sigmoid),
        cmocka_unit_test(test_relu),
        cmocka_unit_test(test_sin),
        cmocka_unit_test(test_cos),
        cmocka_unit_test(test_tanh),
        cmocka_unit_test(test_relu_mixed_signs),
        cmocka_unit_test(test_add),
        cmocka_unit_test(test_subtract),
        cmocka_unit_test(test_multiply),
        cmocka_unit_test(test_divide),
        cmocka_unit_test(test_power),
        cmocka_unit_test(test_maximum),
        cmocka_unit_test(test_minimum),
        cmocka_unit_test(test_shared_operand),
        cmocka_unit_test(test_power_constant_exponent),
        cmocka_unit_test(test_select),
        cmocka_unit_test(test_composition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
