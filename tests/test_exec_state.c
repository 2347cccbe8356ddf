/* The state ops: ng_value_of, ng_fill and ng_assign_slice (also into a parameter, which writes
 * the caller's input tensor), and the cross-entropy builders' axes rules. Expected values are
 * worked out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "nanograph/nanograph.h"

static void expect_error(const void *result, ng_status_t want, const char *function) {
    assert_null(result);
    assert_int_equal(ng_last_status(), want);
    assert_non_null(strstr(ng_last_error(), function));
}

/* Runs c (no inputs unless given) and reads n float32 results of at most 8 elements each. */
static void run(ng_computation_t *c, ng_tensor_t *const *inputs, int32_t num_inputs, int32_t n,
                float out[][8]) {
    ng_tensor_t *outputs[8] = {NULL};
    if (ng_computation_run(c, inputs, num_inputs, outputs, n) != NG_OK)
        fail_msg("run: %s", ng_last_error());
    for (int32_t i = 0; i < n; ++i) {
        size_t bytes = sizeof(float) * (size_t)ng_tensor_numel(outputs[i]);
        assert_true(bytes <= sizeof out[i]);
        assert_int_equal(ng_tensor_read(outputs[i], out[i], bytes), NG_OK);
        ng_tensor_release(outputs[i]);
    }
}

/* ngraph-python's test_sequential_side: x = [1, 2, 3], x1 = 2, x2 = 3, b = 1,
 * y = sequential([value_of(x1), value_of(x2), assign(x1, sum(x) + x1 b + (1 - b)),
 *                 assign(x2, mean(x) + x2 b + (1 - b)), x * 2]),
 * results (y, value_of(x1), value_of(x2), x1, x2). Run 1: y = [2, 4, 6], the values before the
 * assignments 2 and 3, after them x1 = 6 + 2 = 8 and x2 = 2 + 3 = 5. Run 2: 8 and 5 before,
 * 14 and 7 after; another computation on the transformer then reads 14 and 7. */
static void test_value_of_in_sequential(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *m = ng_axis(g, "M", 3);
    const float xv[3] = {1, 2, 3};
    ng_op_t *x = ng_variable(g, NG_FLOAT32, &m, 1, ng_constant(g, NG_FLOAT32, &m, 1, xv));
    ng_op_t *x1 = ng_persistent_tensor(g, NG_FLOAT32, NULL, 0, ng_scalar(g, 2));
    ng_op_t *x2 = ng_persistent_tensor(g, NG_FLOAT32, NULL, 0, ng_scalar(g, 3));
    ng_op_t *x1_vo = ng_value_of(g, x1);
    ng_op_t *x2_vo = ng_value_of(g, x2);
    ng_op_t *b = ng_persistent_tensor(g, NG_FLOAT32, NULL, 0, ng_scalar(g, 1));
    ng_op_t *one_minus_b = ng_subtract(g, ng_scalar(g, 1), b);
    ng_op_t *new_x1 =
        ng_add(g, ng_add(g, ng_sum(g, x, NULL, 0), ng_multiply(g, x1, b)), one_minus_b);
    ng_op_t *new_x2 =
        ng_add(g, ng_add(g, ng_mean(g, x, NULL, 0), ng_multiply(g, x2, b)), one_minus_b);
    ng_op_t *elements[5] = {x1_vo, x2_vo, ng_assign(g, x1, new_x1), ng_assign(g, x2, new_x2),
                            ng_multiply(g, x, ng_scalar(g, 2))};
    ng_op_t *y = ng_sequential(g, elements, 5);
    assert_int_equal(ng_graph_status(g), NG_OK);

    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_op_t *results[5] = {y, x1_vo, x2_vo, x1, x2};
    ng_computation_t *main_effect = ng_computation_create(t, results, 5, NULL, 0);
    ng_op_t *current[2] = {x1, x2};
    ng_computation_t *current_values = ng_computation_create(t, current, 2, NULL, 0);
    assert_non_null(main_effect);
    assert_non_null(current_values);
    float out[5][8];
    const float before[2][2] = {{2, 3}, {8, 5}}, after[2][2] = {{8, 5}, {14, 7}};
    for (int r = 0; r < 2; ++r) {
        run(main_effect, NULL, 0, 5, out);
        for (int i = 0; i < 3; ++i) assert_true(out[0][i] == 2 * xv[i]);
        assert_true(out[1][0] == before[r][0]);
        assert_true(out[2][0] == before[r][1]);
        assert_true(out[3][0] == after[r][0]);
        assert_true(out[4][0] == after[r][1]);
    }
    run(current_values, NULL, 0, 2, out);
    assert_true(out[0][0] == 14 && out[1][0] == 7);
    ng_computation_destroy(main_effect);
    ng_computation_destroy(current_values);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

/* fill(v, 7) then v + 1 = [8, 8, 8]; v stays 7 for another computation. Integer tensors take
 * integer values. */
static void test_fill(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 3);
    ng_op_t *v = ng_variable(g, NG_FLOAT32, &n, 1, ng_scalar(g, 1));
    ng_op_t *elements[2] = {ng_fill(g, v, 7), ng_add(g, v, ng_scalar(g, 1))};
    ng_op_t *seq = ng_sequential(g, elements, 2);
    ng_op_t *counter = ng_persistent_tensor(g, NG_INT32, NULL, 0, NULL);
    ng_op_t *fill_int = ng_fill(g, counter, -4);
    assert_int_equal(ng_graph_status(g), NG_OK);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &seq, 1, NULL, 0);
    ng_computation_t *read = ng_computation_create(t, &v, 1, NULL, 0);
    ng_computation_t *ci = ng_computation_create(t, &fill_int, 1, NULL, 0);
    float out[1][8];
    run(c, NULL, 0, 1, out);
    for (int i = 0; i < 3; ++i) assert_true(out[0][i] == 8);
    run(read, NULL, 0, 1, out);
    for (int i = 0; i < 3; ++i) assert_true(out[0][i] == 7);
    ng_tensor_t *o = NULL;
    assert_int_equal(ng_computation_run(ci, NULL, 0, &o, 1), NG_OK);
    int32_t iv = 0;
    assert_int_equal(ng_tensor_read(o, &iv, sizeof iv), NG_OK);
    assert_int_equal(iv, -4);
    ng_tensor_release(o);
    ng_computation_destroy(c);
    ng_computation_destroy(read);
    ng_computation_destroy(ci);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

/* x = [1, 2, 3, 4]; x[3:0:-2] = [10, 20] writes x[3] = 10 and x[1] = 20: [1, 20, 3, 10].
 * Then x[0:2] = x[2:4] (a slice of itself, read before the write): [3, 10, 3, 10]. A scalar
 * broadcasts over the slice: x[1] = 0 (index only) gives [3, 0, 3, 10]. */
static void test_assign_slice_values(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 4);
    const float init[4] = {1, 2, 3, 4};
    ng_op_t *x = ng_variable(g, NG_FLOAT32, &n, 1, ng_constant(g, NG_FLOAT32, &n, 1, init));
    const ng_axis_t *n2 = ng_axis(g, "N", 2);
    const float pair[2] = {10, 20};
    const ng_slice_t backwards = {3, 0, -2, 0}, head = {0, 2, 1, 0}, tail = {2, 4, 1, 0},
                     one = {1, 0, 1, 1};
    ng_op_t *elements[4] = {
        ng_assign_slice(g, x, &backwards, 1, ng_constant(g, NG_FLOAT32, &n2, 1, pair)),
        ng_assign_slice(g, x, &head, 1, ng_slice(g, x, &tail, 1)), NULL, NULL};
    ng_op_t *first = ng_sequential(g, elements, 1);
    ng_op_t *both[2] = {first, elements[1]};
    ng_op_t *second = ng_sequential(g, both, 2);
    ng_op_t *last[2] = {second, ng_assign_slice(g, x, &one, 1, ng_scalar(g, 0))};
    ng_op_t *third = ng_sequential(g, last, 2);
    ng_op_t *results[3] = {first, second, third};
    assert_int_equal(ng_graph_status(g), NG_OK);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, results, 3, NULL, 0);
    if (!c) fail_msg("%s", ng_last_error());
    float out[3][8];
    run(c, NULL, 0, 3, out);
    const float want[3][4] = {{1, 20, 3, 10}, {3, 10, 3, 10}, {3, 0, 3, 10}};
    for (int r = 0; r < 3; ++r)
        for (int i = 0; i < 4; ++i)
            if (out[r][i] != want[r][i])
                fail_msg("result %d[%d] = %g, want %g", r, i, out[r][i], want[r][i]);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

/* ngraph-python's test_fill_slice: assigning into a slice of a placeholder that is a parameter
 * writes into the caller's input tensor. a = [[1, 2, 3], [4, 5, 6]]; a[:, 1] = 0; the result
 * value_of(a) after it and the input tensor are both [[1, 0, 3], [4, 0, 6]]. */
static void test_assign_slice_into_parameter(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *axes[2] = {ng_axis(g, "A", 2), ng_axis(g, "B", 3)};
    ng_op_t *a = ng_placeholder(g, NG_FLOAT32, axes, 2, NULL);
    const ng_slice_t column[2] = {{0, 2, 1, 0}, {1, 0, 1, 1}};
    ng_op_t *elements[2] = {ng_assign_slice(g, a, column, 2, ng_scalar(g, 0)), ng_value_of(g, a)};
    ng_op_t *seq = ng_sequential(g, elements, 2);
    assert_int_equal(ng_graph_status(g), NG_OK);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &seq, 1, &a, 1);
    if (!c) fail_msg("%s", ng_last_error());
    const float values[6] = {1, 2, 3, 4, 5, 6}, want[6] = {1, 0, 3, 4, 0, 6};
    ng_tensor_t *input = ng_tensor_from_data(NG_FLOAT32, (const int64_t[]){2, 3}, 2, values);
    float out[1][8], written[6];
    run(c, &input, 1, 1, out);
    assert_int_equal(ng_tensor_read(input, written, sizeof written), NG_OK);
    for (int i = 0; i < 6; ++i) {
        assert_true(out[0][i] == want[i]);
        assert_true(written[i] == want[i]);
    }
    ng_tensor_release(input);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

static void test_state_ops_bad_input(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    ng_graph_t *other = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 4);
    const ng_axis_t *c = ng_axis(g, "C", 2);
    ng_op_t *x = ng_variable(g, NG_FLOAT32, &n, 1, NULL);
    ng_op_t *k = ng_constant(g, NG_FLOAT32, &n, 1, (const float[]){0, 0, 0, 0});
    ng_op_t *sum = ng_add(g, x, x);
    ng_op_t *foreign = ng_variable(other, NG_FLOAT32, NULL, 0, NULL);
    ng_op_t *zero = ng_scalar(g, 0);
    const ng_slice_t s = {0, 2, 1, 0}, out_of_range = {0, 9, 1, 0};
    const ng_slice_t two[2] = {{0, 2, 1, 0}, {0, 1, 1, 0}}; /* one spec too many for x */

    expect_error(ng_value_of(NULL, x), NG_ERR_INVALID_ARGUMENT, "ng_value_of");
    expect_error(ng_value_of(g, NULL), NG_ERR_INVALID_ARGUMENT, "ng_value_of");
    expect_error(ng_value_of(g, sum), NG_ERR_INVALID_ARGUMENT, "ng_value_of");
    expect_error(ng_value_of(g, foreign), NG_ERR_INVALID_ARGUMENT, "ng_value_of");

    expect_error(ng_fill(g, NULL, 1), NG_ERR_INVALID_ARGUMENT, "ng_fill");
    expect_error(ng_fill(g, k, 1), NG_ERR_INVALID_ARGUMENT, "ng_fill");
    expect_error(ng_fill(g, sum, 1), NG_ERR_INVALID_ARGUMENT, "ng_fill");
    ng_op_t *ints = ng_persistent_tensor(g, NG_INT32, NULL, 0, NULL);
    expect_error(ng_fill(g, ints, 2.5), NG_ERR_INVALID_ARGUMENT, "ng_fill");

    expect_error(ng_assign_slice(NULL, x, &s, 1, zero), NG_ERR_INVALID_ARGUMENT, "ng_assign_slice");
    expect_error(ng_assign_slice(g, x, NULL, 1, zero), NG_ERR_INVALID_ARGUMENT, "ng_assign_slice");
    expect_error(ng_assign_slice(g, x, two, 2, zero), NG_ERR_INVALID_ARGUMENT, "ng_assign_slice");
    expect_error(ng_assign_slice(g, x, &out_of_range, 1, zero), NG_ERR_INVALID_ARGUMENT,
                 "ng_assign_slice");
    expect_error(ng_assign_slice(g, k, &s, 1, zero), NG_ERR_INVALID_ARGUMENT, "ng_assign_slice");
    expect_error(ng_assign_slice(g, sum, &s, 1, zero), NG_ERR_INVALID_ARGUMENT, "ng_assign_slice");
    ng_op_t *wide = ng_variable(g, NG_FLOAT32, &c, 1, NULL);
    expect_error(ng_assign_slice(g, x, &s, 1, wide), NG_ERR_AXES, "ng_assign_slice");
    /* The slice has axis N of length 2: a value over N(4) does not fit it. */
    expect_error(ng_assign_slice(g, x, &s, 1, x), NG_ERR_AXES, "ng_assign_slice");
    expect_error(ng_assign_slice(g, x, &s, 1, ng_scalar_of(g, NG_FLOAT64, 0)), NG_ERR_DTYPE,
                 "ng_assign_slice");
    expect_error(ng_assign_slice(g, x, &s, 1, foreign), NG_ERR_INVALID_ARGUMENT, "ng_assign_slice");
    ng_graph_destroy(other);
    ng_graph_destroy(g);
}

/* A prediction over (F, N) and a target over (G, N) are not the same values: NG_ERR_AXES, not
 * a broadcast. The same axes in another order are fine. */
static void test_cross_entropy_axes_must_match(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *fn[2] = {ng_axis(g, "F", 3), ng_axis(g, "N", 2)};
    const ng_axis_t *gn[2] = {ng_axis(g, "G", 3), ng_axis(g, "N", 2)};
    const ng_axis_t *nf[2] = {fn[1], fn[0]};
    ng_op_t *y = ng_placeholder(g, NG_FLOAT32, fn, 2, NULL);
    ng_op_t *t = ng_placeholder(g, NG_FLOAT32, gn, 2, NULL);
    ng_op_t *t_n = ng_placeholder(g, NG_FLOAT32, &fn[1], 1, NULL);
    ng_op_t *t_nf = ng_placeholder(g, NG_FLOAT32, nf, 2, NULL);
    expect_error(ng_cross_entropy_multi(g, y, t, fn, 1), NG_ERR_AXES, "ng_cross_entropy_multi");
    expect_error(ng_cross_entropy_binary(g, y, t, NULL, 0), NG_ERR_AXES, "ng_cross_entropy_binary");
    expect_error(ng_cross_entropy_multi(g, y, t_n, fn, 1), NG_ERR_AXES, "ng_cross_entropy_multi");
    expect_error(ng_cross_entropy_binary(g, ng_sigmoid(g, y), t_n, NULL, 0), NG_ERR_AXES,
                 "ng_cross_entropy_binary");
    assert_non_null(ng_cross_entropy_multi(g, y, t_nf, fn, 1));
    ng_graph_destroy(g);
}

/* ng_cross_entropy_binary keeps y's axes in y's order, whether or not y is a sigmoid. */
static void test_cross_entropy_binary_axes(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *fn[2] = {ng_axis(g, "F", 3), ng_axis(g, "N", 2)};
    const ng_axis_t *nf[2] = {fn[1], fn[0]};
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, fn, 2, NULL);
    ng_op_t *t = ng_placeholder(g, NG_FLOAT32, nf, 2, NULL);
    ng_op_t *with_sigmoid = ng_cross_entropy_binary(g, ng_sigmoid(g, x), t, NULL, 0);
    ng_op_t *plain = ng_cross_entropy_binary(g, ng_exp(g, x), t, NULL, 0);
    assert_non_null(with_sigmoid);
    assert_non_null(plain);
    assert_int_equal(ng_op_rank(with_sigmoid), 2);
    assert_int_equal(ng_op_rank(plain), 2);
    for (int i = 0; i < 2; ++i) {
        assert_ptr_equal(ng_op_axis(with_sigmoid, i), fn[i]);
        assert_ptr_equal(ng_op_axis(plain, i), fn[i]);
    }
    ng_graph_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_value_of_in_sequential),
        cmocka_unit_test(test_fill),
        cmocka_unit_test(test_assign_slice_values),
        cmocka_unit_test(test_assign_slice_into_parameter),
        cmocka_unit_test(test_state_ops_bad_input),
        cmocka_unit_test(test_cross_entropy_axes_must_match),
        cmocka_unit_test(test_cross_entropy_binary_axes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
