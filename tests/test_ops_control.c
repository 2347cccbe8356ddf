/* State and control: assign to l-tensors with broadcasting, sequential keeps its
 * list and takes the value of the last, stop_gradient. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "test_graph_util.h"

/* x = placeholder((), initial_value=0); z = sequential([assign(x, 5), x + 1]) keeps both parts,
 * in order, as its arguments. */
static void sequential_keeps_an_assignment_and_its_reader(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = ng_placeholder(f->g, NG_FLOAT32, NULL, 0, ng_scalar(f->g, 0));
    ng_op_t *a = ng_assign(f->g, x, ng_scalar(f->g, 5));
    EXPECT_OP(a, "Assign", NG_FLOAT32, "()");
    assert_int_equal(ng_op_num_args(a), 2);
    assert_ptr_equal(ng_op_arg(a, 0), x);
    EXPECT_OP(ng_op_arg(a, 1), "Constant", NG_FLOAT32, "()");
    ng_op_t *x_plus_1 = ng_add(f->g, x, ng_scalar(f->g, 1));
    ng_op_t *z = ng_sequential(f->g, (ng_op_t *[]){a, x_plus_1}, 2);
    EXPECT_OP(z, "Sequential", NG_FLOAT32, "()");
    assert_int_equal(ng_op_num_args(z), 2);
    assert_ptr_equal(ng_op_arg(z, 0), a);
    assert_ptr_equal(ng_op_arg(z, 1), x_plus_1);
    /* Building an assignment changes nothing in x's own structure. */
    assert_int_equal(ng_op_num_args(x), 0);
    assert_int_equal(ng_op_num_args(x_plus_1), 2);
}

static void sequential_takes_axes_and_dtype_of_the_last(void **state) {
    fixture_t *f = *state;
    ng_op_t *i = PT(f, NG_INT32, f->C), *x = P(f, f->N, f->H);
    EXPECT_OP(ng_sequential(f->g, (ng_op_t *[]){i, x}, 2), "Sequential", NG_FLOAT32,
              "(N(5), H(2))");
    EXPECT_OP(ng_sequential(f->g, (ng_op_t *[]){x, i}, 2), "Sequential", NG_INT32, "(C(4))");
    EXPECT_OP(ng_sequential(f->g, (ng_op_t *[]){x}, 1), "Sequential", NG_FLOAT32, "(N(5), H(2))");
    EXPECT_BUILD_FAILS(ng_sequential(f->g, NULL, 0), NG_ERR_INVALID_ARGUMENT, "ng_sequential",
                       "at least one");
    EXPECT_BUILD_FAILS(ng_sequential(f->g, (ng_op_t *[]){x, NULL}, 2), NG_ERR_INVALID_ARGUMENT,
                       "ng_sequential", "ops[1] is NULL");
    EXPECT_BUILD_FAILS(ng_sequential(f->g, NULL, 2), NG_ERR_INVALID_ARGUMENT, "ng_sequential",
                       "ops is NULL");
    EXPECT_BUILD_FAILS(ng_sequential(f->g, (ng_op_t *[]){x}, -1), NG_ERR_INVALID_ARGUMENT,
                       "ng_sequential", "negative");
    ng_graph_t *other = ng_graph_create();
    ng_op_t *y = ng_scalar(other, 1);
    EXPECT_BUILD_FAILS(ng_sequential(f->g, (ng_op_t *[]){x, y}, 2), NG_ERR_INVALID_ARGUMENT,
                       "ng_sequential", "another graph");
    /* No graph: the error goes to the first op's graph. */
    EXPECT_BUILD_FAILS(ng_sequential(NULL, (ng_op_t *[]){y}, 1), NG_ERR_INVALID_ARGUMENT,
                       "ng_sequential", "g is NULL");
    assert_string_equal(ng_graph_error(other), "ng_sequential: g is NULL");
    ng_graph_destroy(other);
}

static void assign_broadcasts_rhs_to_the_target(void **state) {
    fixture_t *f = *state;
    ng_op_t *v = ng_variable(f->g, NG_FLOAT32, AXES(f->C, f->N), 2, NULL);
    ng_op_t *row = P(f, f->N);
    ng_op_t *a = ng_assign(f->g, v, row);
    EXPECT_OP(a, "Assign", NG_FLOAT32, "(C(4), N(5))");
    ng_op_t *rhs = ng_op_arg(a, 1);
    EXPECT_OP(rhs, "Broadcast", NG_FLOAT32, "(C(4), N(5))");
    assert_ptr_equal(ng_op_arg(rhs, 0), row);
    /* Same axes in another order: broadcast (a transpose) to the target's order. */
    ng_op_t *t = P(f, f->N, f->C);
    EXPECT_OP(ng_op_arg(ng_assign(f->g, v, t), 1), "Broadcast", NG_FLOAT32, "(C(4), N(5))");
    /* Same axes, same order: the rhs itself. */
    ng_op_t *same = P(f, f->C, f->N);
    assert_ptr_equal(ng_op_arg(ng_assign(f->g, v, same), 1), same);
    /* Persistent tensors and placeholders are assignable too. */
    ng_op_t *p = ng_persistent_tensor(f->g, NG_FLOAT32, AXES(f->N), 1, NULL);
    EXPECT_OP(ng_assign(f->g, p, row), "Assign", NG_FLOAT32, "(N(5))");
    EXPECT_OP(ng_assign(f->g, row, p), "Assign", NG_FLOAT32, "(N(5))");
}

static void assign_errors(void **state) {
    fixture_t *f = *state;
    ng_op_t *v = ng_variable(f->g, NG_FLOAT32, AXES(f->C), 1, NULL);
    ng_op_t *c = ng_constant(f->g, NG_FLOAT32, AXES(f->C), 1, NULL);
    EXPECT_BUILD_FAILS(ng_assign(f->g, c, v), NG_ERR_INVALID_ARGUMENT, "ng_assign",
                       "is a constant");
    EXPECT_BUILD_FAILS(ng_assign(f->g, ng_exp(f->g, v), v), NG_ERR_INVALID_ARGUMENT, "ng_assign",
                       "not an assignable tensor");
    EXPECT_BUILD_FAILS(ng_assign(f->g, v, P(f, f->C, f->N)), NG_ERR_AXES, "ng_assign", "N(5)");
    EXPECT_BUILD_FAILS(ng_assign(f->g, v, P(f, f->C3)), NG_ERR_AXES, "ng_assign",
                       "share a name but not a length");
    EXPECT_BUILD_FAILS(ng_assign(f->g, v, PT(f, NG_FLOAT64, f->C)), NG_ERR_DTYPE, "ng_assign",
                       "float64");
    EXPECT_BUILD_FAILS(ng_assign(f->g, NULL, v), NG_ERR_INVALID_ARGUMENT, "ng_assign",
                       "lhs is NULL");
    EXPECT_BUILD_FAILS(ng_assign(f->g, v, NULL), NG_ERR_INVALID_ARGUMENT, "ng_assign",
                       "rhs is NULL");
    assert_string_equal(ng_graph_error(f->g), "ng_assign: the target Constant is a constant");
}

static void stop_gradient_is_an_identity_op(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C, f->N);
    ng_op_t *s = ng_stop_gradient(f->g, x);
    EXPECT_OP(s, "StopGradient", NG_FLOAT32, "(C(4), N(5))");
    assert_ptr_equal(ng_op_arg(s, 0), x);
    EXPECT_BUILD_FAILS(ng_stop_gradient(f->g, NULL), NG_ERR_INVALID_ARGUMENT, "ng_stop_gradient",
                       "x is NULL");
}

#define T(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(sequential_keeps_an_assignment_and_its_reader),
        T(sequential_takes_axes_and_dtype_of_the_last),
        T(assign_broadcasts_rhs_to_the_target),
        T(assign_errors),
        T(stop_gradient_is_an_identity_op),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
