/* Graphs, axes, the four tensor kinds, op attributes, unique names, metadata, control
 * dependencies, queries and the first-error record, through the C API. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "test_graph_util.h"

static void axes_are_interned_by_name_and_length(void **state) {
    fixture_t *f = *state;
    assert_ptr_equal(ng_axis(f->g, "C", 4), f->C);
    assert_ptr_not_equal(f->C, f->C3);
    assert_string_equal(ng_axis_name(f->C), "C");
    assert_int_equal(ng_axis_length(f->C3), 3);
    assert_non_null(ng_axis(f->g, "Empty", 0));

    assert_null(ng_axis(f->g, "", 3));
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_axis", "empty", NULL);
    assert_null(ng_axis(f->g, "X", -2));
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_axis", "negative length (-2)", NULL);
    assert_null(ng_axis(f->g, NULL, 3));
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_axis", "name is NULL", NULL);
    assert_null(ng_axis(NULL, "X", 3));
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_axis", "g is NULL", NULL);
    assert_int_equal(ng_axis_length(NULL), -1);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_axis_length", "a is NULL", NULL);
    assert_null(ng_axis_name((const ng_axis_t *)(const void *)f->g));
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_axis_name",
                  "a is not a live axis handle (it is a live graph handle)", NULL);
    assert_int_equal(ng_axis_num_components(NULL), -1);
    /* The first error stays the graph's. */
    assert_string_equal(ng_graph_error(f->g), "ng_axis: an axis name may not be empty");
}

/* Every assignable tensor is persistent; a constant is also constant, a placeholder an input, a
 * variable trainable; a computed op has no flag. */
static void each_tensor_kind_has_its_flags(void **state) {
    fixture_t *f = *state;
    const float data[4] = {1, 2, 3, 4};
    ng_op_t *c = ng_constant(f->g, NG_FLOAT32, AXES(f->C), 1, data);
    ng_op_t *p = ng_placeholder(f->g, NG_FLOAT32, AXES(f->C, f->N), 2, NULL);
    ng_op_t *t = ng_persistent_tensor(f->g, NG_FLOAT64, AXES(f->N), 1, NULL);
    ng_op_t *v = ng_variable(f->g, NG_FLOAT32, AXES(f->C), 1, NULL);
    EXPECT_OP(c, "Constant", NG_FLOAT32, "(C(4))");
    EXPECT_OP(p, "Placeholder", NG_FLOAT32, "(C(4), N(5))");
    EXPECT_OP(t, "PersistentTensor", NG_FLOAT64, "(N(5))");
    EXPECT_OP(v, "Variable", NG_FLOAT32, "(C(4))");
    assert_int_equal(ng_op_flags(c), NG_FLAG_CONSTANT | NG_FLAG_PERSISTENT);
    assert_int_equal(ng_op_flags(p), NG_FLAG_PERSISTENT | NG_FLAG_INPUT);
    assert_int_equal(ng_op_flags(t), NG_FLAG_PERSISTENT);
    assert_int_equal(ng_op_flags(v), NG_FLAG_PERSISTENT | NG_FLAG_TRAINABLE);
    assert_int_equal(ng_op_flags(ng_add(f->g, c, v)), 0);
    assert_int_equal(ng_op_num_args(c), 0);

    ng_op_t *s = ng_scalar(f->g, 2.5);
    EXPECT_OP(s, "Constant", NG_FLOAT32, "()");
    EXPECT_OP(ng_scalar_of(f->g, NG_INT64, -7), "Constant", NG_INT64, "()");
    EXPECT_OP(ng_scalar_of(f->g, NG_BOOL, 3), "Constant", NG_BOOL, "()");
    EXPECT_OP(ng_scalar_of(f->g, NG_UINT8, 255), "Constant", NG_UINT8, "()");
    EXPECT_BUILD_FAILS(ng_scalar_of(f->g, NG_UINT8, 256), NG_ERR_INVALID_ARGUMENT, "ng_scalar_of",
                       "256");
    EXPECT_BUILD_FAILS(ng_scalar_of(f->g, NG_INT32, 1.5), NG_ERR_INVALID_ARGUMENT, "ng_scalar_of",
                       "int32");
    EXPECT_BUILD_FAILS(ng_scalar_of(f->g, NG_INT64, 9223372036854775808.0), NG_ERR_INVALID_ARGUMENT,
                       "ng_scalar_of", "int64");
    EXPECT_BUILD_FAILS(ng_scalar_of(f->g, 42, 1), NG_ERR_DTYPE, "ng_scalar_of", "42");
    EXPECT_BUILD_FAILS(ng_scalar(f->g, 1e300), NG_ERR_INVALID_ARGUMENT, "ng_scalar", "float32");
}

static void assignable_tensor_flag_rules(void **state) {
    fixture_t *f = *state;
    ng_op_t *t = ng_assignable_tensor(f->g, NG_FLOAT32, AXES(f->C), 1,
                                      NG_FLAG_PERSISTENT | NG_FLAG_TRAINABLE | NG_FLAG_INPUT, NULL);
    assert_non_null(t);
    assert_int_equal(ng_op_flags(t), NG_FLAG_PERSISTENT | NG_FLAG_TRAINABLE | NG_FLAG_INPUT);
    assert_string_equal(ng_op_type(t), "Placeholder");
    assert_string_equal(ng_op_type(ng_assignable_tensor(
                            f->g, NG_INT32, NULL, 0, NG_FLAG_PERSISTENT | NG_FLAG_CONSTANT, NULL)),
                        "Constant");
    EXPECT_BUILD_FAILS(
        ng_assignable_tensor(f->g, NG_FLOAT32, NULL, 0, 16 | NG_FLAG_PERSISTENT, NULL),
        NG_ERR_INVALID_ARGUMENT, "ng_assignable_tensor", "unknown bits");
    EXPECT_BUILD_FAILS(ng_assignable_tensor(f->g, NG_FLOAT32, NULL, 0, NG_FLAG_TRAINABLE, NULL),
                       NG_ERR_INVALID_ARGUMENT, "ng_assignable_tensor", "NG_FLAG_PERSISTENT");
    EXPECT_BUILD_FAILS(
        ng_assignable_tensor(f->g, NG_FLOAT32, NULL, 0,
                             NG_FLAG_PERSISTENT | NG_FLAG_CONSTANT | NG_FLAG_INPUT, NULL),
        NG_ERR_INVALID_ARGUMENT, "ng_assignable_tensor", "constant");
    EXPECT_BUILD_FAILS(
        ng_assignable_tensor(f->g, NG_FLOAT32, NULL, 0, NG_FLAG_PERSISTENT | NG_FLAG_CONSTANT,
                             ng_scalar(f->g, 1)),
        NG_ERR_INVALID_ARGUMENT, "ng_assignable_tensor", "initial_value");
}

static void tensor_argument_errors(void **state) {
    fixture_t *f = *state;
    EXPECT_BUILD_FAILS(ng_placeholder(f->g, NG_FLOAT32, AXES(f->C, f->C3), 2, NULL), NG_ERR_AXES,
                       "ng_placeholder", "twice");
    EXPECT_BUILD_FAILS(ng_variable(f->g, NG_FLOAT32, NULL, 1, NULL), NG_ERR_INVALID_ARGUMENT,
                       "ng_variable", "axes is NULL");
    EXPECT_BUILD_FAILS(ng_variable(f->g, NG_FLOAT32, AXES(f->C), -1, NULL), NG_ERR_INVALID_ARGUMENT,
                       "ng_variable", "negative");
    EXPECT_BUILD_FAILS(ng_persistent_tensor(f->g, 0, AXES(f->C), 1, NULL), NG_ERR_DTYPE,
                       "ng_persistent_tensor", "dtype");
    EXPECT_BUILD_FAILS(ng_constant(NULL, NG_FLOAT32, NULL, 0, NULL), NG_ERR_INVALID_ARGUMENT,
                       "ng_constant", "g is NULL");
    EXPECT_BUILD_FAILS(ng_placeholder(f->g, NG_FLOAT32, AXES(f->C, NULL), 2, NULL),
                       NG_ERR_INVALID_ARGUMENT, "ng_placeholder", "axes[1] is NULL");
    /* An overflowing element count. */
    const ng_axis_t *huge = ng_axis(f->g, "Huge", INT64_MAX / 2);
    EXPECT_BUILD_FAILS(ng_constant(f->g, NG_FLOAT64, AXES(huge, f->C), 2, NULL),
                       NG_ERR_INVALID_ARGUMENT, "ng_constant", "overflows");
    /* Axes of another graph. */
    ng_graph_t *other = ng_graph_create();
    const ng_axis_t *foreign = ng_axis(other, "C", 4);
    EXPECT_BUILD_FAILS(ng_variable(f->g, NG_FLOAT32, &foreign, 1, NULL), NG_ERR_INVALID_ARGUMENT,
                       "ng_variable", "another graph");
    ng_graph_destroy(other);
}

static void initial_values_are_recorded_and_checked(void **state) {
    fixture_t *f = *state;
    /* A scalar placeholder whose initial value is the constant 0. */
    ng_op_t *zero = ng_scalar(f->g, 0);
    ng_op_t *x = ng_placeholder(f->g, NG_FLOAT32, NULL, 0, zero);
    assert_ptr_equal(ng_op_initial_value(x), zero);
    assert_int_equal(ng_op_num_args(x), 0);
    /* A constant has no initial value op: its data is its value. */
    assert_null(ng_op_initial_value(zero));
    assert_int_equal(ng_last_status(), NG_OK);
    /* Broadcast: an initial value with fewer axes. */
    ng_op_t *row = ng_variable(f->g, NG_FLOAT32, AXES(f->N), 1, NULL);
    ng_op_t *w = ng_variable(f->g, NG_FLOAT32, AXES(f->C, f->N), 2, row);
    assert_ptr_equal(ng_op_initial_value(w), row);

    EXPECT_BUILD_FAILS(ng_variable(f->g, NG_FLOAT64, NULL, 0, zero), NG_ERR_DTYPE, "ng_variable",
                       "float32");
    EXPECT_BUILD_FAILS(ng_variable(f->g, NG_FLOAT32, AXES(f->C), 1, row), NG_ERR_AXES,
                       "ng_variable", "N(5)");
    EXPECT_BUILD_FAILS(ng_variable(f->g, NG_FLOAT32, AXES(f->C3, f->N), 2, w), NG_ERR_AXES,
                       "ng_variable", "C(3) and C(4)");
    assert_null(ng_op_initial_value(NULL));
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_op_initial_value", "op is NULL", NULL);
}

static void names_are_unique_and_settable(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C);
    ng_op_t *a0 = ng_add(f->g, x, x), *a1 = ng_add(f->g, x, x), *a2 = ng_add(f->g, x, x);
    assert_string_equal(ng_op_name(x), "Placeholder");
    assert_string_equal(ng_op_name(a0), "Add");
    assert_string_equal(ng_op_name(a1), "Add_1");
    assert_string_equal(ng_op_name(a2), "Add_2");
    assert_ptr_equal(ng_graph_find(f->g, "Add_1"), a1);

    assert_int_equal(ng_op_set_name(a0, "sum"), NG_OK);
    assert_string_equal(ng_op_name(a0), "sum");
    assert_ptr_equal(ng_graph_find(f->g, "sum"), a0);
    assert_null(ng_graph_find(f->g, "Add"));
    check_failure(NG_ERR_NOT_FOUND, "ng_graph_find", "Add", NULL);
    /* A freed name may be reused; a taken one is refused and the op keeps its name. */
    assert_int_equal(ng_op_set_name(a2, "Add"), NG_OK);
    assert_int_equal(ng_op_set_name(a1, "sum"), NG_ERR_INVALID_ARGUMENT);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_op_set_name", "\"sum\" is already used", NULL);
    assert_string_equal(ng_op_name(a1), "Add_1");
    assert_int_equal(ng_op_set_name(a1, "Add_1"), NG_OK); /* its own name */
    assert_int_equal(ng_op_set_name(a1, ""), NG_ERR_INVALID_ARGUMENT);
    assert_int_equal(ng_op_set_name(a1, NULL), NG_ERR_INVALID_ARGUMENT);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_op_set_name", "name is NULL", NULL);
    assert_int_equal(ng_op_set_name(NULL, "z"), NG_ERR_INVALID_ARGUMENT);
    /* New ops skip names taken by renaming. */
    assert_int_equal(ng_op_set_name(x, "Add_3"), NG_OK);
    assert_string_equal(ng_op_name(ng_add(f->g, a0, a0)), "Add_4");
    assert_null(ng_graph_find(f->g, NULL));
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_graph_find", "name is NULL", NULL);
}

static void attribute_getters_check_their_arguments(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C, f->N);
    assert_int_equal(ng_op_rank(x), 2);
    assert_ptr_equal(ng_op_axis(x, 1), f->N);
    assert_null(ng_op_axis(x, 2));
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_op_axis", "index 2", NULL);
    assert_null(ng_op_axis(x, -1));
    assert_null(ng_op_arg(x, 0));
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_op_arg", "index 0", NULL);
    assert_ptr_equal(ng_op_graph(x), f->g);

    assert_int_equal(ng_op_rank(NULL), -1);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_op_rank", "op is NULL", NULL);
    assert_int_equal(ng_op_dtype(NULL), 0);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_op_dtype", "op is NULL", NULL);
    assert_int_equal(ng_op_flags(NULL), 0);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_op_flags", "op is NULL", NULL);
    assert_null(ng_op_name(NULL));
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_op_name", "op is NULL", NULL);
    assert_null(ng_op_type((const ng_op_t *)(const void *)f->C));
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_op_type",
                  "op is not a live op handle (it is a live axis handle)", NULL);
    assert_int_equal(ng_op_num_args(NULL), -1);
    assert_int_equal(ng_op_num_control_deps(NULL), -1);
    assert_null(ng_op_graph(NULL));
    assert_int_equal(ng_graph_num_ops(NULL), -1);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_graph_num_ops", "g is NULL", NULL);
    assert_int_equal(ng_graph_status(NULL), NG_ERR_INVALID_ARGUMENT);
    assert_null(ng_graph_error(NULL));
    ng_graph_destroy(NULL);
}

static void graph_lists_its_ops_in_creation_order(void **state) {
    fixture_t *f = *state;
    assert_int_equal(ng_graph_num_ops(f->g), 0);
    ng_op_t *x = P(f, f->C), *y = ng_exp(f->g, x);
    assert_int_equal(ng_graph_num_ops(f->g), 2);
    assert_ptr_equal(ng_graph_op(f->g, 0), x);
    assert_ptr_equal(ng_graph_op(f->g, 1), y);
    assert_null(ng_graph_op(f->g, 2));
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_graph_op", "index 2", NULL);
    /* A failed builder adds nothing. */
    assert_null(ng_add(f->g, x, P(f, f->C3)));
    assert_int_equal(ng_graph_num_ops(f->g), 3);
    assert_int_equal(ng_graph_status(f->g), NG_ERR_AXES);
    assert_string_equal(ng_graph_error(f->g),
                        "ng_add: axes C(4) and C(3) share a name but not a length");
    /* Later successes keep the first error. */
    assert_non_null(ng_exp(f->g, x));
    assert_int_equal(ng_last_status(), NG_OK);
    assert_int_equal(ng_graph_status(f->g), NG_ERR_AXES);
}

static void a_fresh_graph_has_no_error(void **state) {
    fixture_t *f = *state;
    assert_int_equal(ng_graph_status(f->g), NG_OK);
    assert_string_equal(ng_graph_error(f->g), "");
    /* Propagation: a NULL from a failed builder fails the next one cleanly, the first error stays.
     */
    ng_op_t *bad = ng_tanh(f->g, ng_add(f->g, P(f, f->C), P(f, f->C3)));
    assert_null(bad);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_tanh", "x is NULL", NULL);
    assert_string_equal(ng_graph_error(f->g),
                        "ng_add: axes C(4) and C(3) share a name but not a length");
}

static void metadata_and_selection(void **state) {
    fixture_t *f = *state;
    ng_op_t *w = ng_variable(f->g, NG_FLOAT32, AXES(f->C), 1, NULL);
    ng_op_t *v = ng_variable(f->g, NG_FLOAT32, AXES(f->N), 1, NULL);
    ng_op_t *u = ng_variable(f->g, NG_FLOAT32, AXES(f->H), 1, NULL);
    assert_null(ng_op_metadata(w, "stochastic"));
    assert_int_equal(ng_last_status(), NG_OK);
    assert_int_equal(ng_op_set_metadata(w, "stochastic", "dropout"), NG_OK);
    assert_int_equal(ng_op_set_metadata(u, "stochastic", "dropout"), NG_OK);
    assert_int_equal(ng_op_set_metadata(v, "stochastic", "none"), NG_OK);
    assert_string_equal(ng_op_metadata(w, "stochastic"), "dropout");
    assert_int_equal(ng_op_set_metadata(v, "stochastic", "dropout2"), NG_OK);
    assert_string_equal(ng_op_metadata(v, "stochastic"), "dropout2");

    ng_op_t *out[4] = {NULL, NULL, NULL, NULL};
    assert_int_equal(ng_graph_select(f->g, "stochastic", "dropout", out, 4), 2);
    assert_ptr_equal(out[0], w);
    assert_ptr_equal(out[1], u);
    assert_int_equal(ng_graph_select(f->g, "stochastic", NULL, out, 1), 3); /* count beyond cap */
    assert_ptr_equal(out[0], w);
    assert_ptr_equal(out[1], u); /* untouched past cap */
    assert_int_equal(ng_graph_select(f->g, "missing", NULL, NULL, 0), 0);

    assert_int_equal(ng_graph_select(f->g, NULL, NULL, NULL, 0), -1);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_graph_select", "key is NULL", NULL);
    assert_int_equal(ng_graph_select(f->g, "stochastic", NULL, NULL, 2), -1);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_graph_select", "out is NULL", NULL);
    assert_int_equal(ng_graph_select(f->g, "stochastic", NULL, out, -1), -1);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_graph_select", "cap is negative", NULL);
    assert_int_equal(ng_op_set_metadata(w, "", "x"), NG_ERR_INVALID_ARGUMENT);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_op_set_metadata", "key is empty", NULL);
    assert_int_equal(ng_op_set_metadata(w, "k", NULL), NG_ERR_INVALID_ARGUMENT);
    assert_null(ng_op_metadata(w, NULL));
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_op_metadata", "key is NULL", NULL);
}

static void control_dependencies(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C);
    ng_op_t *a = ng_exp(f->g, x), *b = ng_log(f->g, a), *c = ng_sin(f->g, x);
    assert_int_equal(ng_op_num_control_deps(b), 0);
    assert_int_equal(ng_op_add_control_dep(b, c), NG_OK);
    assert_int_equal(ng_op_add_control_dep(b, c), NG_OK); /* no duplicate */
    assert_int_equal(ng_op_num_control_deps(b), 1);
    assert_ptr_equal(ng_op_control_dep(b, 0), c);
    assert_null(ng_op_control_dep(b, 1));
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_op_control_dep", "index 1", NULL);
    /* Cycles: through args, through control deps, and to itself. */
    assert_int_equal(ng_op_add_control_dep(a, b), NG_ERR_INVALID_ARGUMENT);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_op_add_control_dep", "cycle", NULL);
    assert_int_equal(ng_op_add_control_dep(c, b), NG_ERR_INVALID_ARGUMENT);
    assert_int_equal(ng_op_add_control_dep(c, c), NG_ERR_INVALID_ARGUMENT);
    assert_int_equal(ng_op_num_control_deps(c), 0);
    assert_int_equal(ng_op_add_control_dep(b, NULL), NG_ERR_INVALID_ARGUMENT);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_op_add_control_dep", "dep is NULL", NULL);
    ng_graph_t *other = ng_graph_create();
    assert_int_equal(ng_op_add_control_dep(b, ng_scalar(other, 1)), NG_ERR_INVALID_ARGUMENT);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_op_add_control_dep", "another graph", NULL);
    ng_graph_destroy(other);
}

/* The placeholders a cost depends on, in the order they are first reached: for
 * c = squared_L2(tanh(dot(w, x) + b) - y0), [x, y0]. */
static void placeholders_upstream_in_first_visit_order(void **state) {
    fixture_t *f = *state;
    const ng_axis_t *Y = ng_axis(f->g, "Y", 4);
    ng_op_t *x = P(f, f->C, f->W, f->H, f->N);
    ng_op_t *y0 = P(f, Y, f->N);
    ng_op_t *w = ng_variable(f->g, NG_FLOAT32, AXES(f->C, f->W, f->H, Y), 4, NULL);
    ng_op_t *b = ng_variable(f->g, NG_FLOAT32, AXES(Y), 1, NULL);
    ng_op_t *y = ng_tanh(f->g, ng_add(f->g, ng_dot(f->g, w, x), b));
    ng_op_t *c = ng_squared_l2(f->g, ng_subtract(f->g, y, y0), NULL, 0);
    EXPECT_OP(c, "Sum", NG_FLOAT32, "()");
    ng_op_t *out[3] = {NULL, NULL, NULL};
    assert_int_equal(ng_placeholders(c, out, 3), 2);
    assert_ptr_equal(out[0], x);
    assert_ptr_equal(out[1], y0);
    assert_int_equal(ng_placeholders(y, NULL, 0), 1);
    assert_int_equal(ng_placeholders(w, out, 3), 0);
    /* Reached through a control dependency too. */
    ng_op_t *z = P(f, f->N);
    assert_int_equal(ng_op_add_control_dep(y, z), NG_OK);
    assert_int_equal(ng_placeholders(y, out, 3), 2);
    assert_ptr_equal(out[1], z);
    assert_int_equal(ng_placeholders(NULL, out, 3), -1);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_placeholders", "op is NULL", NULL);
    assert_int_equal(ng_placeholders(c, NULL, 1), -1);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_placeholders", "out is NULL", NULL);
}

/* x1 = x + x; y = x1 * x1 - x uses the one op x1 twice instead of building it twice. */
static void shared_subexpressions_are_one_op(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C, f->W, f->H, f->N);
    ng_op_t *x1 = ng_add(f->g, x, x);
    ng_op_t *y = ng_subtract(f->g, ng_multiply(f->g, x1, x1), x);
    ng_op_t *m = ng_op_arg(y, 0);
    assert_ptr_equal(ng_op_arg(m, 0), x1);
    assert_ptr_equal(ng_op_arg(m, 1), x1);
    assert_ptr_equal(ng_op_arg(y, 1), x);
    assert_ptr_equal(ng_op_arg(x1, 0), x);
    assert_ptr_equal(ng_op_arg(x1, 1), x);
    assert_int_equal(ng_graph_num_ops(f->g), 4);
}

#define T(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(axes_are_interned_by_name_and_length),
        T(each_tensor_kind_has_its_flags),
        T(assignable_tensor_flag_rules),
        T(tensor_argument_errors),
        T(initial_values_are_recorded_and_checked),
        T(names_are_unique_and_settable),
        T(attribute_getters_check_their_arguments),
        T(graph_lists_its_ops_in_creation_order),
        T(a_fresh_graph_has_no_error),
        T(metadata_and_selection),
        T(control_dependencies),
        T(placeholders_upstream_in_first_visit_order),
        T(shared_subexpressions_are_one_op),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
