/* ng_reshape: values against row-major index arithmetic (plain, transposed and sliced operands,
 * rank 0 on either side), gradients by central differences, and bad inputs. */
#include "test_gradcheck_harness.h"

#include "exec_test_util.h"
#include "expect_error.h"

/* x(A 2, B 6) holds 10a + b; reshaped to (P 3, Q 4) element k of the row-major order is x's
 * element k, i.e. x[k / 6][k % 6]. */
static void test_reshape_values(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *ab[2] = {ng_axis(g, "A", 2), ng_axis(g, "B", 6)};
    const ng_axis_t *pq[2] = {ng_axis(g, "P", 3), ng_axis(g, "Q", 4)};
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, ab, 2, NULL);
    ng_op_t *y = ng_reshape(g, x, pq, 2);
    assert_non_null(y);
    assert_string_equal(ng_axis_name(ng_op_axis(y, 0)), "P");
    assert_int_equal(ng_axis_length(ng_op_axis(y, 1)), 4);
    double xv[12], want[12], got[12];
    for (int k = 0; k < 12; ++k) xv[k] = 10 * (k / 6) + k % 6, want[k] = xv[k];
    ng_tensor_t *tx = ex_tensor(NG_FLOAT32, (int64_t[]){2, 6}, 2, xv);
    ex_run_read(g, y, &x, &tx, 1, NG_FLOAT32, got, 12);
    ex_assert_close(got, want, 12, 0, "reshape (A,B)->(P,Q)");

    /* Of a transpose (B, A): row-major order of the transpose is x[k % 2][k / 2]. */
    const ng_axis_t *ba[2] = {ab[1], ab[0]};
    ng_op_t *yt = ng_reshape(g, ng_axes_with_order(g, x, ba, 2), pq, 2);
    for (int k = 0; k < 12; ++k) want[k] = 10 * (k % 2) + k / 2;
    ex_run_read(g, yt, &x, &tx, 1, NG_FLOAT32, got, 12);
    ex_assert_close(got, want, 12, 0, "reshape of a transpose");

    /* Of a strided slice: B elements 0, 2, 4 -> (S 6). */
    ng_slice_t specs[2] = {{0, 2, 1, 0}, {0, 6, 2, 0}};
    const ng_axis_t *s6 = ng_axis(g, "S", 6);
    ng_op_t *ys = ng_reshape(g, ng_slice(g, x, specs, 2), &s6, 1);
    for (int k = 0; k < 6; ++k) want[k] = 10 * (k / 3) + 2 * (k % 3);
    ex_run_read(g, ys, &x, &tx, 1, NG_FLOAT32, got, 6);
    ex_assert_close(got, want, 6, 0, "reshape of a strided slice");

    /* Axes of the operand's names in another grouping: (B 3, A 4) from (A 2, B 6). */
    const ng_axis_t *regroup[2] = {ng_axis(g, "B", 3), ng_axis(g, "A", 4)};
    ng_op_t *yr = ng_reshape(g, x, regroup, 2);
    for (int k = 0; k < 12; ++k) want[k] = xv[k];
    ex_run_read(g, yr, &x, &tx, 1, NG_FLOAT32, got, 12);
    ex_assert_close(got, want, 12, 0, "reshape reusing names");
    ng_tensor_release(tx);
    ng_graph_destroy(g);
}

/* One element: rank 0 to (U 1, V 1) and back to rank 0. */
static void test_reshape_rank0(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    ng_op_t *x = ng_placeholder(g, NG_FLOAT64, NULL, 0, NULL);
    const ng_axis_t *uv[2] = {ng_axis(g, "U", 1), ng_axis(g, "V", 1)};
    ng_op_t *up = ng_reshape(g, x, uv, 2);
    assert_non_null(up);
    assert_int_equal(ng_op_rank(up), 2);
    ng_op_t *down = ng_reshape(g, up, NULL, 0);
    assert_non_null(down);
    assert_int_equal(ng_op_rank(down), 0);
    double v = 7.5, got = 0;
    ng_tensor_t *tx = ex_tensor(NG_FLOAT64, NULL, 0, &v);
    ex_run_read(g, ng_add(g, down, up), &x, &tx, 1, NG_FLOAT64, &got, 1);
    assert_true(got == 15.0);
    ng_tensor_release(tx);
    ng_graph_destroy(g);
}

static void test_reshape_gradient(void **state) {
    (void)state;
    gradcheck_t c;
    gc_begin(&c, 700);
    const ng_axis_t *abc[3] = {ng_axis(c.g, "A", 4), ng_axis(c.g, "B", 3), ng_axis(c.g, "C", 5)};
    ng_op_t *x = gc_input(&c, abc, 3, -1, 1);
    const ng_axis_t *pq[2] = {ng_axis(c.g, "P", 6), ng_axis(c.g, "Q", 10)};
    gc_check(&c, ng_sin(c.g, ng_reshape(c.g, ng_sin(c.g, x), pq, 2)));
    /* Through a transpose, which forces a copy. */
    const ng_axis_t *cab[3] = {abc[2], abc[0], abc[1]};
    const ng_axis_t *r[3] = {ng_axis(c.g, "R", 2), ng_axis(c.g, "S", 15), ng_axis(c.g, "T", 2)};
    gc_check(&c, ng_sin(c.g, ng_reshape(c.g, ng_axes_with_order(c.g, x, cab, 3), r, 3)));
    gc_end(&c);
}

static void test_reshape_errors(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *ab[2] = {ng_axis(g, "A", 2), ng_axis(g, "B", 6)};
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, ab, 2, NULL);
    const ng_axis_t *wrong[2] = {ng_axis(g, "P", 5), ng_axis(g, "Q", 2)};
    assert_null(ng_reshape(g, x, wrong, 2));
    expect_error(NG_ERR_AXES, "ng_reshape", "hold 10 elements");
    const ng_axis_t *twice[2] = {ng_axis(g, "P", 3), ng_axis(g, "P", 4)};
    assert_null(ng_reshape(g, x, twice, 2));
    expect_error(NG_ERR_AXES, "ng_reshape", "P");
    assert_null(ng_reshape(g, x, NULL, 0));
    expect_error(NG_ERR_AXES, "ng_reshape", "12");
    assert_null(ng_reshape(g, NULL, ab, 2));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_reshape", "x");
    assert_null(ng_reshape(g, x, ab, -1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_reshape", "");
    assert_null(ng_reshape(NULL, x, ab, 2));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_reshape", "g");
    ng_graph_t *other = ng_graph_create();
    const ng_axis_t *foreign = ng_axis(other, "F", 12);
    assert_null(ng_reshape(g, x, &foreign, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_reshape", "");
    ng_graph_destroy(other);
    ng_graph_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reshape_values),
        cmocka_unit_test(test_reshape_rank0),
        cmocka_unit_test(test_reshape_gradient),
        cmocka_unit_test(test_reshape_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
