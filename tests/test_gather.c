/* Gather: rows picked along an axis by integer indices (params' axes with that axis replaced by
 * the indices' axes) against scalar loops, for each index dtype, the axis first, inside and last,
 * repeated indices and a transposed params; an index out of range fails the run naming it; the
 * derivative with respect to params against central differences; bad input at the builder. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "exec_test_util.h"
#include "expect_error.h"
#include "test_gradcheck_harness.h"

enum { A = 2, V = 5, B = 3, I = 4 };

static double param_value(int64_t a, int64_t v, int64_t b) {
    return (double)(100 * a + 10 * v + b) + 0.25;
}

/* params (A, V, B) float64; indices (I) of dtype dt holding {3, 0, 3, 4}; result (A, I, B). */
static void picks_rows_for_each_index_dtype(void **state) {
    (void)state;
    const int64_t picks[I] = {3, 0, 3, 4};
    const ng_dtype_t dtypes[] = {NG_INT32, NG_INT64, NG_UINT8};
    for (size_t t = 0; t < sizeof dtypes / sizeof dtypes[0]; ++t) {
        ng_graph_t *g = ng_graph_create();
        const ng_axis_t *a = ng_axis(g, "A", A), *v = ng_axis(g, "V", V), *b = ng_axis(g, "B", B);
        const ng_axis_t *i = ng_axis(g, "I", I);
        double pv[A * V * B];
        for (int x = 0; x < A; ++x)
            for (int y = 0; y < V; ++y)
                for (int z = 0; z < B; ++z) pv[(x * V + y) * B + z] = param_value(x, y, z);
        const ng_axis_t *avb[] = {a, v, b};
        ng_op_t *params = ng_constant(g, NG_FLOAT64, avb, 3, pv);
        int64_t i64[I];
        int32_t i32[I];
        uint8_t u8[I];
        for (int k = 0; k < I; ++k)
            i64[k] = picks[k], i32[k] = (int32_t)picks[k], u8[k] = (uint8_t)picks[k];
        const void *data = dtypes[t] == NG_INT64   ? (const void *)i64
                           : dtypes[t] == NG_INT32 ? (const void *)i32
                                                   : (const void *)u8;
        ng_op_t *indices = ng_constant(g, dtypes[t], &i, 1, data);
        ng_op_t *y = ng_gather(g, params, indices, v);
        assert_non_null(y);
        assert_string_equal(ng_op_type(y), "Gather");
        assert_int_equal(ng_op_rank(y), 3);
        assert_ptr_equal(ng_op_axis(y, 0), a);
        assert_ptr_equal(ng_op_axis(y, 1), i);
        assert_ptr_equal(ng_op_axis(y, 2), b);
        double got[A * I * B], want[A * I * B];
        for (int x = 0; x < A; ++x)
            for (int k = 0; k < I; ++k)
                for (int z = 0; z < B; ++z) want[(x * I + k) * B + z] = param_value(x, picks[k], z);
        ex_run_read(g, y, NULL, NULL, 0, NG_FLOAT64, got, A * I * B);
        ex_assert_close(got, want, A * I * B, 0, "gather");
        ng_graph_destroy(g);
    }
}

/* Indices of rank 2 replace the first axis of a transposed (packed) params; int32 values. */
static void index_axes_take_the_axis_place_and_params_may_be_a_view(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *v = ng_axis(g, "V", V), *b = ng_axis(g, "B", B);
    const ng_axis_t *p = ng_axis(g, "P", 2), *q = ng_axis(g, "Q", 3);
    int32_t bv[B * V];
    for (int z = 0; z < B; ++z)
        for (int y = 0; y < V; ++y) bv[z * V + y] = 7 * y - z;
    const ng_axis_t *bv_axes[] = {b, v}, *vb_axes[] = {v, b};
    ng_op_t *stored = ng_constant(g, NG_INT32, bv_axes, 2, bv);
    ng_op_t *params = ng_axes_with_order(g, stored, vb_axes, 2); /* (V, B), strided */
    const int64_t picks[2 * 3] = {4, 1, 1, 0, 2, 4};
    const ng_axis_t *pq[] = {p, q};
    ng_op_t *y = ng_gather(g, params, ng_constant(g, NG_INT64, pq, 2, picks), v);
    assert_non_null(y);
    assert_ptr_equal(ng_op_axis(y, 0), p);
    assert_ptr_equal(ng_op_axis(y, 1), q);
    assert_ptr_equal(ng_op_axis(y, 2), b);
    double got[2 * 3 * B], want[2 * 3 * B];
    for (int k = 0; k < 6; ++k)
        for (int z = 0; z < B; ++z) want[k * B + z] = 7.0 * (double)picks[k] - z;
    ex_run_read(g, y, NULL, NULL, 0, NG_INT32, got, 2 * 3 * B);
    ex_assert_close(got, want, 2 * 3 * B, 0, "gather");
    ng_graph_destroy(g);
}

/* Indices fed at run time: one out of range (or negative) fails the run, naming it; a good
 * run afterwards still works. */
static void an_index_out_of_range_fails_the_run(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *v = ng_axis(g, "V", V), *i = ng_axis(g, "I", 2);
    double pv[V] = {1, 2, 3, 4, 5};
    ng_op_t *params = ng_constant(g, NG_FLOAT64, &v, 1, pv);
    ng_op_t *indices = ng_placeholder(g, NG_INT64, &i, 1, NULL);
    ng_op_t *y = ng_gather(g, params, indices, v);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &y, 1, &indices, 1);
    assert_non_null(c);
    const int64_t shape[1] = {2};
    const int64_t bad[3][2] = {{0, 5}, {-1, 2}, {INT64_MAX, 0}};
    const char *named[3] = {"index 5 at position 1", "index -1 at position 0", "at position 0"};
    for (int k = 0; k < 3; ++k) {
        ng_tensor_t *in = ng_tensor_from_data(NG_INT64, shape, 1, bad[k]);
        ng_tensor_t *out = NULL;
        assert_int_equal(ng_computation_run(c, &in, 1, &out, 1), NG_ERR_INVALID_ARGUMENT);
        if (!strstr(ng_last_error(), named[k]))
            fail_msg("'%s' lacks '%s'", ng_last_error(), named[k]);
        assert_null(out);
        ng_tensor_release(in);
    }
    const int64_t good[2] = {4, 0};
    ng_tensor_t *in = ng_tensor_from_data(NG_INT64, shape, 1, good);
    ng_tensor_t *out = NULL;
    assert_int_equal(ng_computation_run(c, &in, 1, &out, 1), NG_OK);
    const double *o = ng_tensor_data(out);
    assert_true(o[0] == 5 && o[1] == 1);
    ng_tensor_release(out);
    ng_tensor_release(in);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

/* d/d params with repeated indices (their adjoints add up) and an axis inside params. */
static void derivative_with_respect_to_params(void **state) {
    (void)state;
    gradcheck_t c;
    gc_begin(&c, 7);
    const ng_axis_t *a = ng_axis(c.g, "A", 2), *v = ng_axis(c.g, "V", 4), *b = ng_axis(c.g, "B", 3);
    const ng_axis_t *i = ng_axis(c.g, "I", 5);
    const ng_axis_t *avb[] = {a, v, b};
    ng_op_t *params = gc_input(&c, avb, 3, -1, 1);
    const int32_t picks[5] = {2, 0, 2, 3, 2};
    ng_op_t *indices = ng_constant(c.g, NG_INT32, &i, 1, picks);
    gc_check(&c, ng_gather(c.g, params, indices, v));
    gc_end(&c);
}

static void bad_builder_input(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create(), *other = ng_graph_create();
    const ng_axis_t *v = ng_axis(g, "V", 3), *i = ng_axis(g, "I", 2), *w = ng_axis(g, "W", 3);
    const ng_axis_t *v_other = ng_axis(other, "V", 3);
    ng_op_t *params = ng_placeholder(g, NG_FLOAT32, &v, 1, NULL);
    ng_op_t *indices = ng_placeholder(g, NG_INT64, &i, 1, NULL);
    ng_op_t *float_indices = ng_placeholder(g, NG_FLOAT32, &i, 1, NULL);
    ng_op_t *clashing = ng_placeholder(g, NG_INT64, &v, 1, NULL);
    ng_op_t *foreign = ng_placeholder(other, NG_INT64, &v_other, 1, NULL);

    assert_null(ng_gather(NULL, params, indices, v));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_gather", "g");
    assert_null(ng_gather(g, NULL, indices, v));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_gather", "params");
    assert_null(ng_gather(g, params, NULL, v));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_gather", "indices");
    assert_null(ng_gather(g, params, indices, NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_gather", "axis");
    assert_null(ng_gather(g, params, float_indices, v));
    expect_error(NG_ERR_DTYPE, "ng_gather", "float32");
    assert_null(ng_gather(g, params, indices, w));
    expect_error(NG_ERR_AXES, "ng_gather", "W(3)");
    assert_null(ng_gather(g, params, clashing, v));
    expect_error(NG_ERR_AXES, "ng_gather", "both have an axis named V");
    assert_null(ng_gather(g, params, foreign, v));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_gather", "");
    assert_null(ng_gather(g, params, indices, v_other));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_gather", "axis");
    ng_graph_destroy(other);
    ng_graph_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(picks_rows_for_each_index_dtype),
        cmocka_unit_test(index_axes_take_the_axis_place_and_params_may_be_a_view),
        cmocka_unit_test(an_index_out_of_range_fails_the_run),
        cmocka_unit_test(derivative_with_respect_to_params),
        cmocka_unit_test(bad_builder_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
