/* Axes and views: broadcast, axes_with_order, cast_axes, expand_dims, slicing (negative steps,
 * indices), padding, flatten/unflatten, concat, stack and one-hot, with their error paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "test_graph_util.h"

static void broadcast_reaches_the_given_axes_in_their_order(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C, f->N);
    ng_op_t *b = ng_broadcast(f->g, x, AXES(f->N, f->H, f->C), 3);
    EXPECT_OP(b, "Broadcast", NG_FLOAT32, "(N(5), H(2), C(4))");
    assert_ptr_equal(ng_op_arg(b, 0), x);
    EXPECT_BUILD_FAILS(ng_broadcast(f->g, x, AXES(f->N, f->H), 2), NG_ERR_AXES, "ng_broadcast",
                       "C(4)");
    EXPECT_BUILD_FAILS(ng_broadcast(f->g, x, AXES(f->N, f->C3), 2), NG_ERR_AXES, "ng_broadcast",
                       "C(4) and C(3)");
    EXPECT_BUILD_FAILS(ng_broadcast(f->g, x, AXES(f->N, f->C, f->N), 3), NG_ERR_AXES,
                       "ng_broadcast", "twice");
    EXPECT_BUILD_FAILS(ng_broadcast(f->g, x, NULL, 2), NG_ERR_INVALID_ARGUMENT, "ng_broadcast",
                       "axes is NULL");
}

static void axes_with_order_permutes(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C, f->H, f->N);
    EXPECT_OP(ng_axes_with_order(f->g, x, AXES(f->N, f->C, f->H), 3), "AxesWithOrder", NG_FLOAT32,
              "(N(5), C(4), H(2))");
    EXPECT_BUILD_FAILS(ng_axes_with_order(f->g, x, AXES(f->N, f->C), 2), NG_ERR_AXES,
                       "ng_axes_with_order", "permutation");
    EXPECT_BUILD_FAILS(ng_axes_with_order(f->g, x, AXES(f->N, f->C, f->W), 3), NG_ERR_AXES,
                       "ng_axes_with_order", "W(3)");
    EXPECT_BUILD_FAILS(ng_axes_with_order(f->g, x, AXES(f->N, f->C, f->C), 3), NG_ERR_AXES,
                       "ng_axes_with_order", "twice");
}

static void cast_axes_renames_equal_lengths(void **state) {
    fixture_t *f = *state;
    const ng_axis_t *K = ng_axis(f->g, "K", 4), *M = ng_axis(f->g, "M", 5);
    ng_op_t *x = P(f, f->C, f->N);
    EXPECT_OP(ng_cast_axes(f->g, x, AXES(K, M), 2), "CastAxes", NG_FLOAT32, "(K(4), M(5))");
    EXPECT_BUILD_FAILS(ng_cast_axes(f->g, x, AXES(M, K), 2), NG_ERR_AXES, "ng_cast_axes",
                       "C(4) cannot become M(5)");
    EXPECT_BUILD_FAILS(ng_cast_axes(f->g, x, AXES(K), 1), NG_ERR_AXES, "ng_cast_axes",
                       "not as many");
    EXPECT_BUILD_FAILS(ng_cast_axes(f->g, x, AXES(K, K), 2), NG_ERR_AXES, "ng_cast_axes", "twice");
}

static void expand_dims_inserts_an_axis(void **state) {
    fixture_t *f = *state;
    const ng_axis_t *one = ng_axis(f->g, "One", 1);
    ng_op_t *x = P(f, f->C, f->N);
    EXPECT_OP(ng_expand_dims(f->g, x, one, 0), "Broadcast", NG_FLOAT32, "(One(1), C(4), N(5))");
    EXPECT_OP(ng_expand_dims(f->g, x, f->H, 1), "Broadcast", NG_FLOAT32, "(C(4), H(2), N(5))");
    EXPECT_OP(ng_expand_dims(f->g, x, f->H, 2), "Broadcast", NG_FLOAT32, "(C(4), N(5), H(2))");
    EXPECT_BUILD_FAILS(ng_expand_dims(f->g, x, f->H, 3), NG_ERR_INVALID_ARGUMENT, "ng_expand_dims",
                       "position 3");
    EXPECT_BUILD_FAILS(ng_expand_dims(f->g, x, f->H, -1), NG_ERR_INVALID_ARGUMENT, "ng_expand_dims",
                       "position -1");
    EXPECT_BUILD_FAILS(ng_expand_dims(f->g, x, f->C3, 0), NG_ERR_AXES, "ng_expand_dims",
                       "already an axis");
    EXPECT_BUILD_FAILS(ng_expand_dims(f->g, x, NULL, 0), NG_ERR_INVALID_ARGUMENT, "ng_expand_dims",
                       "axis is NULL");
}

static void slicing_keeps_names_with_new_lengths(void **state) {
    fixture_t *f = *state;
    const ng_axis_t *T10 = ng_axis(f->g, "T", 10);
    ng_op_t *x = P(f, T10, f->C, f->N);
    /* T[1:8:3] -> 1, 4, 7 (3); C[3:-1:-1] -> 3, 2, 1, 0 (4); N index 2 dropped. */
    ng_slice_t specs[] = {{1, 8, 3, 0}, {3, -1, -1, 0}, {2, 0, 0, 1}};
    ng_op_t *s = ng_slice(f->g, x, specs, 3);
    EXPECT_OP(s, "Slice", NG_FLOAT32, "(T(3), C(4))");
    assert_ptr_equal(ng_op_arg(s, 0), x);
    /* Same name, same length: the very same axis (reversed or not). */
    assert_ptr_equal(ng_op_axis(s, 1), f->C);

    ng_slice_t more[] = {{9, 0, -4, 0}, {0, 4, 2, 0}, {0, 0, 1, 0}}; /* 9, 5, 1 | 0, 2 | empty */
    EXPECT_OP(ng_slice(f->g, x, more, 3), "Slice", NG_FLOAT32, "(T(3), C(2), N(0))");
    ng_slice_t ten[] = {{0, 10, 1, 0}, {0, 4, 5, 0}, {4, 4, 1, 1}}; /* all | 0 | index 4 */
    EXPECT_OP(ng_slice(f->g, x, ten, 3), "Slice", NG_FLOAT32, "(T(10), C(1))");
}

static void slicing_errors_name_the_axis(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C, f->N);
    ng_slice_t zero_step[] = {{0, 4, 0, 0}, {0, 5, 1, 0}};
    EXPECT_BUILD_FAILS(ng_slice(f->g, x, zero_step, 2), NG_ERR_INVALID_ARGUMENT, "ng_slice",
                       "C(4) has step 0");
    ng_slice_t past_end[] = {{0, 4, 1, 0}, {0, 6, 1, 0}};
    EXPECT_BUILD_FAILS(ng_slice(f->g, x, past_end, 2), NG_ERR_INVALID_ARGUMENT, "ng_slice", "N(5)");
    ng_slice_t backwards_from_length[] = {{4, -1, -1, 0}, {0, 5, 1, 0}};
    EXPECT_BUILD_FAILS(ng_slice(f->g, x, backwards_from_length, 2), NG_ERR_INVALID_ARGUMENT,
                       "ng_slice", "C(4)");
    ng_slice_t reversed_range[] = {{3, 1, 1, 0}, {0, 5, 1, 0}};
    EXPECT_BUILD_FAILS(ng_slice(f->g, x, reversed_range, 2), NG_ERR_INVALID_ARGUMENT, "ng_slice",
                       "[3:1:1]");
    ng_slice_t bad_index[] = {{0, 4, 1, 0}, {5, 0, 0, 1}};
    EXPECT_BUILD_FAILS(ng_slice(f->g, x, bad_index, 2), NG_ERR_INVALID_ARGUMENT, "ng_slice",
                       "index 5 is outside axis N(5)");
    ng_slice_t negative_index[] = {{-1, 0, 0, 1}, {0, 5, 1, 0}};
    EXPECT_BUILD_FAILS(ng_slice(f->g, x, negative_index, 2), NG_ERR_INVALID_ARGUMENT, "ng_slice",
                       "index -1");
    EXPECT_BUILD_FAILS(ng_slice(f->g, x, zero_step, 1), NG_ERR_INVALID_ARGUMENT, "ng_slice",
                       "rank 2");
    EXPECT_BUILD_FAILS(ng_slice(f->g, x, NULL, 2), NG_ERR_INVALID_ARGUMENT, "ng_slice",
                       "specs is NULL");
    EXPECT_BUILD_FAILS(ng_slice(f->g, x, zero_step, -2), NG_ERR_INVALID_ARGUMENT, "ng_slice",
                       "negative");
}

static void padding_grows_axes(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C, f->N);
    ng_op_t *p = ng_pad(f->g, x, (const int64_t[]){1, 0}, (const int64_t[]){2, 0}, 2);
    EXPECT_OP(p, "Pad", NG_FLOAT32, "(C(7), N(5))");
    assert_ptr_equal(ng_op_axis(p, 1), f->N);
    EXPECT_BUILD_FAILS(ng_pad(f->g, x, (const int64_t[]){-1, 0}, (const int64_t[]){0, 0}, 2),
                       NG_ERR_INVALID_ARGUMENT, "ng_pad", "C(4) is negative");
    EXPECT_BUILD_FAILS(ng_pad(f->g, x, (const int64_t[]){0, INT64_MAX}, (const int64_t[]){0, 1}, 2),
                       NG_ERR_INVALID_ARGUMENT, "ng_pad", "overflows");
    EXPECT_BUILD_FAILS(ng_pad(f->g, x, (const int64_t[]){0}, (const int64_t[]){0}, 1),
                       NG_ERR_INVALID_ARGUMENT, "ng_pad", "rank 2");
    EXPECT_BUILD_FAILS(ng_pad(f->g, x, NULL, (const int64_t[]){0, 0}, 2), NG_ERR_INVALID_ARGUMENT,
                       "ng_pad", "before is NULL");
}

static void flatten_remembers_components_and_unflatten_restores_them(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C, f->H, f->W, f->N);
    ng_op_t *flat = ng_flatten(f->g, x, AXES(f->H, f->W), 2, NULL);
    EXPECT_OP(flat, "Flatten", NG_FLOAT32, "(C(4), H_W(6), N(5))");
    const ng_axis_t *hw = ng_op_axis(flat, 1);
    assert_int_equal(ng_axis_num_components(hw), 2);
    assert_ptr_equal(ng_axis_component(hw, 0), f->H);
    assert_ptr_equal(ng_axis_component(hw, 1), f->W);
    assert_int_equal(ng_axis_num_components(f->H), 0);
    assert_null(ng_axis_component(hw, 2));
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_axis_component", "index 2", NULL);
    /* A flattened axis is not the plain axis of the same name and length. */
    assert_ptr_not_equal(hw, ng_axis(f->g, "H_W", 6));

    ng_op_t *back = ng_unflatten(f->g, flat);
    EXPECT_OP(back, "Unflatten", NG_FLOAT32, "(C(4), H(2), W(3), N(5))");
    assert_ptr_equal(ng_op_axis(back, 1), f->H);

    ng_op_t *all = ng_flatten(f->g, x, AXES(f->C, f->H, f->W, f->N), 4, "Everything");
    EXPECT_OP(all, "Flatten", NG_FLOAT32, "(Everything(120))");
    /* Flattening twice, then unflattening restores every level at once. */
    ng_op_t *twice = ng_flatten(f->g, flat, AXES(f->C, hw), 2, "CHW");
    EXPECT_OP(twice, "Flatten", NG_FLOAT32, "(CHW(24), N(5))");
    EXPECT_OP(ng_unflatten(f->g, twice), "Unflatten", NG_FLOAT32, "(C(4), H_W(6), N(5))");

    EXPECT_BUILD_FAILS(ng_flatten(f->g, x, AXES(f->W, f->H), 2, NULL), NG_ERR_AXES, "ng_flatten",
                       "consecutive");
    EXPECT_BUILD_FAILS(ng_flatten(f->g, x, AXES(f->C, f->W), 2, NULL), NG_ERR_AXES, "ng_flatten",
                       "consecutive");
    EXPECT_BUILD_FAILS(ng_flatten(f->g, x, AXES(f->H, f->W), 2, "N"), NG_ERR_AXES, "ng_flatten",
                       "name N");
    EXPECT_BUILD_FAILS(ng_flatten(f->g, x, NULL, 0, NULL), NG_ERR_INVALID_ARGUMENT, "ng_flatten",
                       "no axes");
    EXPECT_BUILD_FAILS(ng_flatten(f->g, x, AXES(f->C3), 1, NULL), NG_ERR_AXES, "ng_flatten",
                       "C(4) and C(3)");
    EXPECT_BUILD_FAILS(ng_unflatten(f->g, x), NG_ERR_AXES, "ng_unflatten", "no flattened axis");
    EXPECT_BUILD_FAILS(ng_unflatten(f->g, NULL), NG_ERR_INVALID_ARGUMENT, "ng_unflatten",
                       "x is NULL");
}

static void concat_adds_lengths(void **state) {
    fixture_t *f = *state;
    const ng_axis_t *T2 = ng_axis(f->g, "T", 2), *T3 = ng_axis(f->g, "T", 3);
    ng_op_t *a = P(f, f->C, T2), *b = P(f, f->C, T3);
    ng_op_t *c = ng_concat(f->g, (ng_op_t *[]){a, b, a}, 3, "T");
    EXPECT_OP(c, "Concat", NG_FLOAT32, "(C(4), T(7))");
    assert_int_equal(ng_op_num_args(c), 3);
    assert_ptr_equal(ng_op_arg(c, 0), a);
    assert_ptr_equal(ng_op_arg(c, 1), b);
    /* An operand in another axis order is transposed to the first's order. */
    ng_op_t *swapped = P(f, T3, f->C);
    ng_op_t *c2 = ng_concat(f->g, (ng_op_t *[]){a, swapped}, 2, "T");
    EXPECT_OP(c2, "Concat", NG_FLOAT32, "(C(4), T(5))");
    EXPECT_OP(ng_op_arg(c2, 1), "AxesWithOrder", NG_FLOAT32, "(C(4), T(3))");
    EXPECT_OP(ng_concat(f->g, (ng_op_t *[]){swapped, a}, 2, "T"), "Concat", NG_FLOAT32,
              "(T(5), C(4))");

    EXPECT_BUILD_FAILS(ng_concat(f->g, (ng_op_t *[]){a, b}, 2, "X"), NG_ERR_AXES, "ng_concat",
                       "no axis named X");
    EXPECT_BUILD_FAILS(ng_concat(f->g, (ng_op_t *[]){a, P(f, f->C3, T2)}, 2, "T"), NG_ERR_AXES,
                       "ng_concat", "C(4) and C(3)");
    EXPECT_BUILD_FAILS(ng_concat(f->g, (ng_op_t *[]){a, P(f, f->N, T2)}, 2, "T"), NG_ERR_AXES,
                       "ng_concat", "lacks axis C(4)");
    EXPECT_BUILD_FAILS(ng_concat(f->g, (ng_op_t *[]){a, PT(f, NG_INT32, f->C, T2)}, 2, "T"),
                       NG_ERR_DTYPE, "ng_concat", "int32");
    EXPECT_BUILD_FAILS(ng_concat(f->g, (ng_op_t *[]){a, NULL}, 2, "T"), NG_ERR_INVALID_ARGUMENT,
                       "ng_concat", "ops[1] is NULL");
    EXPECT_BUILD_FAILS(ng_concat(f->g, NULL, 0, "T"), NG_ERR_INVALID_ARGUMENT, "ng_concat",
                       "nothing");
    EXPECT_BUILD_FAILS(ng_concat(f->g, (ng_op_t *[]){a}, 1, NULL), NG_ERR_INVALID_ARGUMENT,
                       "ng_concat", "axis_name is NULL");
}

static void stack_adds_a_new_axis(void **state) {
    fixture_t *f = *state;
    const ng_axis_t *S = ng_axis(f->g, "S", 3);
    ng_op_t *a = P(f, f->C, f->N), *b = P(f, f->N, f->C);
    ng_op_t *s = ng_stack(f->g, (ng_op_t *[]){a, b, a}, 3, S, 1);
    EXPECT_OP(s, "Concat", NG_FLOAT32, "(C(4), S(3), N(5))");
    assert_ptr_equal(ng_op_axis(s, 1), S);
    assert_int_equal(ng_op_num_args(s), 3);
    EXPECT_OP(ng_op_arg(s, 0), "Broadcast", NG_FLOAT32, "(C(4), S(1), N(5))");
    EXPECT_OP(ng_stack(f->g, (ng_op_t *[]){a, b, a}, 3, S, 0), "Concat", NG_FLOAT32,
              "(S(3), C(4), N(5))");
    EXPECT_OP(ng_stack(f->g, (ng_op_t *[]){a, b, a}, 3, S, 2), "Concat", NG_FLOAT32,
              "(C(4), N(5), S(3))");

    EXPECT_BUILD_FAILS(ng_stack(f->g, (ng_op_t *[]){a, b}, 2, S, 0), NG_ERR_AXES, "ng_stack",
                       "S(3)");
    EXPECT_BUILD_FAILS(ng_stack(f->g, (ng_op_t *[]){a, b, a}, 3, S, 3), NG_ERR_INVALID_ARGUMENT,
                       "ng_stack", "position 3");
    EXPECT_BUILD_FAILS(ng_stack(f->g, (ng_op_t *[]){a, P(f, f->C), a}, 3, S, 0), NG_ERR_AXES,
                       "ng_stack", "has not the axes");
    EXPECT_BUILD_FAILS(ng_stack(f->g, (ng_op_t *[]){a, b, P(f, f->C, S)}, 3, S, 0), NG_ERR_AXES,
                       "ng_stack", "lacks axis N(5)");
    EXPECT_BUILD_FAILS(ng_stack(f->g, (ng_op_t *[]){a, b, a}, 3, ng_axis(f->g, "C", 3), 0),
                       NG_ERR_AXES, "ng_stack", "already");
    EXPECT_BUILD_FAILS(ng_stack(f->g, (ng_op_t *[]){a, b, a}, 3, NULL, 0), NG_ERR_INVALID_ARGUMENT,
                       "ng_stack", "axis is NULL");
}

static void one_hot_puts_the_classes_first(void **state) {
    fixture_t *f = *state;
    const ng_axis_t *K = ng_axis(f->g, "K", 10);
    ng_op_t *labels = PT(f, NG_INT32, f->N);
    ng_op_t *o = ng_one_hot(f->g, labels, K, NG_FLOAT32);
    EXPECT_OP(o, "OneHot", NG_FLOAT32, "(K(10), N(5))");
    assert_ptr_equal(ng_op_arg(o, 0), labels);
    EXPECT_OP(ng_one_hot(f->g, PT(f, NG_UINT8, f->C, f->N), K, NG_BOOL), "OneHot", NG_BOOL,
              "(K(10), C(4), N(5))");
    EXPECT_BUILD_FAILS(ng_one_hot(f->g, P(f, f->N), K, NG_FLOAT32), NG_ERR_DTYPE, "ng_one_hot",
                       "float32");
    EXPECT_BUILD_FAILS(ng_one_hot(f->g, labels, f->N, NG_FLOAT32), NG_ERR_AXES, "ng_one_hot",
                       "already");
    EXPECT_BUILD_FAILS(ng_one_hot(f->g, labels, K, 0), NG_ERR_DTYPE, "ng_one_hot", "dtype");
}

#define T(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(broadcast_reaches_the_given_axes_in_their_order),
        T(axes_with_order_permutes),
        T(cast_axes_renames_equal_lengths),
        T(expand_dims_inserts_an_axis),
        T(slicing_keeps_names_with_new_lengths),
        T(slicing_errors_name_the_axis),
        T(padding_grows_axes),
        T(flatten_remembers_components_and_unflatten_restores_them),
        T(concat_adds_lengths),
        T(stack_adds_a_new_axis),
        T(one_hot_puts_the_classes_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
