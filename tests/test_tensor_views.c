/* Tensor views: reshape, permute, transpose, slice, broadcast. Each view shares storage with its
 * base; expected values come from index arithmetic on the base's row-major data. */
#include "test_tensor_util.h"

/* A float32 tensor of `shape` holding 0, 1, 2, ... in row-major order. */
static ng_tensor_t *ramp(const int64_t *shape, int32_t rank) {
    int64_t n = 1;
    for (int32_t k = 0; k < rank; ++k) n *= shape[k];
    float values[256];
    assert_true(n <= 256);
    for (int64_t i = 0; i < n; ++i) values[i] = (float)i;
    ng_tensor_t *t = ng_tensor_from_data(NG_FLOAT32, shape, rank, values);
    assert_non_null(t);
    return t;
}

static void expect_strides(const ng_tensor_t *t, const int64_t *shape, const int64_t *strides,
                           int32_t rank) {
    assert_int_equal(ng_tensor_rank(t), rank);
    for (int32_t k = 0; k < rank; ++k) {
        assert_int_equal(ng_tensor_dim(t, k), shape[k]);
        assert_int_equal(ng_tensor_stride(t, k), strides[k]);
    }
}

static void reshape_contiguous_shares_storage(void **state) {
    (void)state;
    const int64_t shape[] = {2, 3, 4}, to[] = {6, 4}, to_strides[] = {4, 1};
    ng_tensor_t *t = ramp(shape, 3);
    ng_tensor_t *r = ng_tensor_reshape(t, to, 2);
    assert_non_null(r);
    expect_strides(r, to, to_strides, 2);
    assert_ptr_equal(ng_tensor_data(r), ng_tensor_data(t));
    float out[24];
    read_floats(r, out, 24);
    for (int i = 0; i < 24; ++i) assert_true(out[i] == (float)i);
    /* Writes through the view land in the base. */
    const float ones[24] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    assert_int_equal(ng_tensor_write(r, ones, sizeof ones), NG_OK);
    read_floats(t, out, 24);
    assert_memory_equal(out, ones, sizeof ones);
    ng_tensor_release(r);
    ng_tensor_release(t);
}

static void reshape_of_strided_views(void **state) {
    (void)state;
    const int64_t shape[] = {4, 6};
    ng_tensor_t *t = ramp(shape, 2);
    /* Every other column: shape (4, 3), strides (6, 2), which is one stride-2 run of 12. */
    ng_tensor_t *every_other = ng_tensor_slice(t, 1, 0, 6, 2);
    const int64_t twelve[] = {12}, stride_two[] = {2};
    ng_tensor_t *run = ng_tensor_reshape(every_other, twelve, 1);
    assert_non_null(run);
    expect_strides(run, twelve, stride_two, 1);
    float out[16];
    read_floats(run, out, 12);
    for (int i = 0; i < 12; ++i) assert_true(out[i] == (float)(2 * i));
    ng_tensor_release(run);
    ng_tensor_release(every_other);

    /* The first four columns: shape (4, 4), strides (6, 1). Splitting the rows keeps strides. */
    ng_tensor_t *s = ng_tensor_slice(t, 1, 0, 4, 1);
    const int64_t to[] = {2, 2, 4}, to_strides[] = {12, 6, 1};
    ng_tensor_t *r = ng_tensor_reshape(s, to, 3);
    assert_non_null(r);
    expect_strides(r, to, to_strides, 3);
    read_floats(r, out, 16);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) assert_true(out[i * 4 + j] == (float)(i * 6 + j));
    /* Flattening it would need a copy. */
    const int64_t flat[] = {16};
    assert_null(ng_tensor_reshape(s, flat, 1));
    expect_failure(NG_ERR_UNSUPPORTED, "ng_tensor_reshape");
    assert_non_null(strstr(ng_last_error(), "copy"));
    ng_tensor_release(r);
    ng_tensor_release(s);

    /* A transpose can gain unit dimensions (whose strides never matter) but not be flattened. */
    ng_tensor_t *tt = ng_tensor_transpose(t);
    const int64_t with_ones[] = {6, 1, 4, 1};
    ng_tensor_t *u = ng_tensor_reshape(tt, with_ones, 4);
    assert_non_null(u);
    assert_int_equal(ng_tensor_rank(u), 4);
    for (int k = 0; k < 4; ++k) assert_int_equal(ng_tensor_dim(u, k), with_ones[k]);
    assert_int_equal(ng_tensor_stride(u, 0), 1);
    assert_int_equal(ng_tensor_stride(u, 2), 6);
    float ut[24];
    read_floats(u, ut, 24);
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 4; ++j) assert_true(ut[i * 4 + j] == (float)(j * 6 + i));
    const int64_t all[] = {24};
    assert_null(ng_tensor_reshape(tt, all, 1));
    expect_failure(NG_ERR_UNSUPPORTED, "ng_tensor_reshape");
    /* A different element count is an axes error. */
    const int64_t wrong[] = {5, 5};
    assert_null(ng_tensor_reshape(t, wrong, 2));
    expect_failure(NG_ERR_AXES, "ng_tensor_reshape");
    ng_tensor_release(u);
    ng_tensor_release(tt);
    ng_tensor_release(t);
}

static void permute_and_transpose_reorder_dims(void **state) {
    (void)state;
    const int64_t shape[] = {2, 3, 4};
    ng_tensor_t *t = ramp(shape, 3);
    const int32_t order[] = {2, 0, 1};
    ng_tensor_t *p = ng_tensor_permute(t, order, 3);
    const int64_t p_shape[] = {4, 2, 3}, p_strides[] = {1, 12, 4};
    expect_strides(p, p_shape, p_strides, 3);
    assert_int_equal(ng_tensor_is_contiguous(p), 0);
    float out[24];
    read_floats(p, out, 24);
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 2; ++b)
            for (int c = 0; c < 3; ++c)
                assert_true(out[(a * 2 + b) * 3 + c] == (float)(b * 12 + c * 4 + a));

    ng_tensor_t *tr = ng_tensor_transpose(t);
    const int64_t tr_shape[] = {4, 3, 2}, tr_strides[] = {1, 4, 12};
    expect_strides(tr, tr_shape, tr_strides, 3);
    /* A view of a view: transposing back gives the original layout. */
    ng_tensor_t *back = ng_tensor_transpose(tr);
    const int64_t strides[] = {12, 4, 1};
    expect_strides(back, shape, strides, 3);
    assert_int_equal(ng_tensor_is_contiguous(back), 1);
    ng_tensor_release(back);
    ng_tensor_release(tr);
    ng_tensor_release(p);
    ng_tensor_release(t);
}

/* Slices a 1-d ramp of 10 and compares with the expected indices. */
static void expect_slice(int64_t start, int64_t stop, int64_t step, const float *expected,
                         int64_t count) {
    const int64_t shape[] = {10};
    ng_tensor_t *t = ramp(shape, 1);
    ng_tensor_t *s = ng_tensor_slice(t, 0, start, stop, step);
    assert_non_null(s);
    assert_int_equal(ng_tensor_dim(s, 0), count);
    float out[10];
    read_floats(s, out, (size_t)count);
    assert_memory_equal(out, expected, (size_t)count * sizeof(float));
    ng_tensor_release(s);
    ng_tensor_release(t);
}

static void slices_follow_python_semantics(void **state) {
    (void)state;
    const float a[] = {2, 5};
    expect_slice(2, 8, 3, a, 2);
    const float reversed[] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
    expect_slice(INT64_MAX, INT64_MIN, -1, reversed, 10);
    expect_slice(-1, -11, -1, reversed, 10);
    const float b[] = {8, 6, 4};
    expect_slice(8, 2, -2, b, 3);
    const float tail[] = {7, 8, 9};
    expect_slice(-3, INT64_MAX, 1, tail, 3);
    const float all[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    expect_slice(-100, 100, 1, all, 10);
    expect_slice(5, 2, 1, NULL, 0);
    expect_slice(2, 5, -1, NULL, 0);
    const float last[] = {9};
    expect_slice(9, 100, 5, last, 1);
}

static void slices_of_slices_and_matrices(void **state) {
    (void)state;
    const int64_t shape[] = {3, 4};
    ng_tensor_t *t = ramp(shape, 2);
    /* Columns 3, 2, 1 of rows 2, 0. */
    ng_tensor_t *cols = ng_tensor_slice(t, 1, 3, 0, -1);
    ng_tensor_t *rows = ng_tensor_slice(cols, 0, INT64_MAX, INT64_MIN, -2);
    assert_non_null(rows);
    const int64_t v_shape[] = {2, 3}, v_strides[] = {-8, -1};
    expect_strides(rows, v_shape, v_strides, 2);
    assert_ptr_equal(ng_tensor_data(rows), (float *)ng_tensor_data(t) + 2 * 4 + 3);
    float out[6];
    read_floats(rows, out, 6);
    const int row_of[] = {2, 0}, col_of[] = {3, 2, 1};
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            assert_true(out[i * 3 + j] == (float)(row_of[i] * 4 + col_of[j]));
    /* Writing through the reversed view lands at the mirrored places of the base. */
    const float marks[] = {-1, -2, -3, -4, -5, -6};
    assert_int_equal(ng_tensor_write(rows, marks, sizeof marks), NG_OK);
    float base[12];
    read_floats(t, base, 12);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            assert_true(base[row_of[i] * 4 + col_of[j]] == marks[i * 3 + j]);
    assert_true(base[0] == 0.0f && base[4] == 4.0f && base[7] == 7.0f); /* untouched */
    /* The views keep the storage alive after the base is gone. */
    ng_tensor_release(t);
    ng_tensor_release(cols);
    read_floats(rows, out, 6);
    assert_memory_equal(out, marks, sizeof marks);
    ng_tensor_release(rows);
}

static void broadcast_repeats_with_zero_strides(void **state) {
    (void)state;
    const int64_t shape[] = {3, 1};
    ng_tensor_t *t = ramp(shape, 2);
    const int64_t to[] = {2, 3, 4}, to_strides[] = {0, 1, 0};
    ng_tensor_t *b = ng_tensor_broadcast(t, to, 3);
    assert_non_null(b);
    expect_strides(b, to, to_strides, 3);
    assert_int_equal(ng_tensor_is_contiguous(b), 0);
    float out[24];
    read_floats(b, out, 24);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 4; ++k) assert_true(out[(i * 3 + j) * 4 + k] == (float)j);
    /* Several indices share an element: writing is refused. */
    assert_int_equal(ng_tensor_write(b, out, sizeof out), NG_ERR_UNSUPPORTED);
    expect_failure(NG_ERR_UNSUPPORTED, "ng_tensor_write");
    /* A copy of a broadcast is a dense tensor with the repeated values. */
    ng_tensor_t *c = ng_tensor_copy(b);
    float dense[24];
    read_floats(c, dense, 24);
    assert_memory_equal(dense, out, sizeof out);
    ng_tensor_release(c);

    const int64_t bad[] = {3, 2, 5};
    assert_null(ng_tensor_broadcast(b, bad, 3));
    expect_failure(NG_ERR_AXES, "ng_tensor_broadcast");
    const int64_t lower[] = {4};
    assert_null(ng_tensor_broadcast(b, lower, 1));
    expect_failure(NG_ERR_AXES, "ng_tensor_broadcast");
    ng_tensor_release(b);
    ng_tensor_release(t);
}

static void contiguity_of_views(void **state) {
    (void)state;
    const int64_t shape[] = {4, 5};
    ng_tensor_t *t = ramp(shape, 2);
    ng_tensor_t *rows = ng_tensor_slice(t, 0, 1, 3, 1); /* a block of whole rows */
    ng_tensor_t *cols = ng_tensor_slice(t, 1, 1, 3, 1); /* a block of partial rows */
    ng_tensor_t *one_col = ng_tensor_slice(t, 1, 2, 3, 1);
    ng_tensor_t *one_col_t = ng_tensor_transpose(one_col);   /* (1, 4) with stride 5: not dense */
    ng_tensor_t *single = ng_tensor_slice(rows, 0, 0, 1, 1); /* (1, 5): dense */
    assert_int_equal(ng_tensor_is_contiguous(rows), 1);
    assert_int_equal(ng_tensor_is_contiguous(cols), 0);
    assert_int_equal(ng_tensor_is_contiguous(one_col_t), 0);
    assert_int_equal(ng_tensor_is_contiguous(single), 1);
    float out[5];
    read_floats(single, out, 5);
    for (int j = 0; j < 5; ++j) assert_true(out[j] == (float)(5 + j));
    ng_tensor_release(single);
    ng_tensor_release(one_col_t);
    ng_tensor_release(one_col);
    ng_tensor_release(cols);
    ng_tensor_release(rows);
    ng_tensor_release(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reshape_contiguous_shares_storage),
        cmocka_unit_test(reshape_of_strided_views),
        cmocka_unit_test(permute_and_transpose_reorder_dims),
        cmocka_unit_test(slices_follow_python_semantics),
        cmocka_unit_test(slices_of_slices_and_matrices),
        cmocka_unit_test(broadcast_repeats_with_zero_strides),
        cmocka_unit_test(contiguity_of_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
