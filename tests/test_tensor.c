/* Host tensors: creation, accessors, dense copies in and out, wrapping caller memory, reference
 * counting and the deleter. */
#include "test_tensor_util.h"

static void create_is_zeroed_row_major_and_aligned(void **state) {
    (void)state;
    const int64_t shape[] = {2, 3, 4};
    ng_tensor_t *t = ng_tensor_create(NG_FLOAT64, shape, 3);
    assert_non_null(t);
    expect_ok();
    assert_int_equal(ng_tensor_dtype(t), NG_FLOAT64);
    assert_int_equal(ng_tensor_rank(t), 3);
    assert_int_equal(ng_tensor_dim(t, 0), 2);
    assert_int_equal(ng_tensor_dim(t, 1), 3);
    assert_int_equal(ng_tensor_dim(t, 2), 4);
    assert_int_equal(ng_tensor_stride(t, 0), 12);
    assert_int_equal(ng_tensor_stride(t, 1), 4);
    assert_int_equal(ng_tensor_stride(t, 2), 1);
    assert_int_equal(ng_tensor_numel(t), 24);
    assert_int_equal(ng_tensor_is_contiguous(t), 1);
    double *data = ng_tensor_data(t);
    assert_non_null(data);
    assert_int_equal((uintptr_t)data % 64, 0);
    for (int i = 0; i < 24; ++i) assert_true(data[i] == 0.0);
    ng_tensor_release(t);
}

static void large_blocks_are_huge_page_aligned_and_zeroed(void **state) {
    (void)state;
    const int64_t shape[] = {1024, 1024}; /* 4 MiB of float32 */
    ng_tensor_t *t = ng_tensor_create(NG_FLOAT32, shape, 2);
    assert_non_null(t);
    const float *data = ng_tensor_data(t);
    assert_int_equal((uintptr_t)data % (2u << 20), 0);
    for (int64_t i = 0; i < 1024 * 1024; i += 4093) assert_true(data[i] == 0.0f);
    assert_true(data[1024 * 1024 - 1] == 0.0f);
    ng_tensor_release(t);
}

static void from_data_round_trips_every_dtype(void **state) {
    (void)state;
    const int64_t shape[] = {2, 2};
    const uint8_t bools[] = {1, 0, 0, 1};
    const int32_t i32[] = {-1, 2, INT32_MAX, INT32_MIN};
    const int64_t i64[] = {INT64_MIN, -5, 7, INT64_MAX};
    const uint8_t u8[] = {0, 1, 128, 255};
    const float f32[] = {-0.5f, 1.25f, 3e38f, -1e-30f};
    const double f64[] = {-0.5, 1e300, 2.5, -1e-300};
    const struct {
        ng_dtype_t dt;
        const void *data;
        size_t bytes;
    } cases[] = {{NG_BOOL, bools, sizeof bools}, {NG_INT32, i32, sizeof i32},
                 {NG_INT64, i64, sizeof i64},    {NG_UINT8, u8, sizeof u8},
                 {NG_FLOAT32, f32, sizeof f32},  {NG_FLOAT64, f64, sizeof f64}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        ng_tensor_t *t = ng_tensor_from_data(cases[c].dt, shape, 2, cases[c].data);
        assert_non_null(t);
        assert_int_equal(ng_tensor_dtype(t), cases[c].dt);
        unsigned char out[32];
        memset(out, 0xab, sizeof out);
        assert_int_equal(ng_tensor_read(t, out, cases[c].bytes), NG_OK);
        assert_memory_equal(out, cases[c].data, cases[c].bytes);
        assert_memory_equal(ng_tensor_data(t), cases[c].data, cases[c].bytes);
        ng_tensor_release(t);
    }
}

static void write_then_read_and_data_agree(void **state) {
    (void)state;
    const int64_t shape[] = {3, 2};
    ng_tensor_t *t = ng_tensor_create(NG_INT32, shape, 2);
    const int32_t values[] = {10, 11, 12, 13, 14, 15};
    assert_int_equal(ng_tensor_write(t, values, sizeof values), NG_OK);
    expect_ok();
    const int32_t *data = ng_tensor_data(t);
    for (int i = 0; i < 6; ++i) assert_int_equal(data[i], 10 + i);
    int32_t out[6] = {0};
    assert_int_equal(ng_tensor_read(t, out, sizeof out), NG_OK);
    assert_memory_equal(out, values, sizeof values);
    ng_tensor_release(t);
}

static void scalars_and_empty_tensors(void **state) {
    (void)state;
    const float seven = 7.0f;
    ng_tensor_t *s = ng_tensor_from_data(NG_FLOAT32, NULL, 0, &seven);
    assert_non_null(s);
    assert_int_equal(ng_tensor_rank(s), 0);
    assert_int_equal(ng_tensor_numel(s), 1);
    assert_int_equal(ng_tensor_is_contiguous(s), 1);
    float out = 0;
    assert_int_equal(ng_tensor_read(s, &out, sizeof out), NG_OK);
    assert_true(out == 7.0f);
    ng_tensor_release(s);

    const int64_t shape[] = {0, 3};
    ng_tensor_t *e = ng_tensor_from_data(NG_FLOAT32, shape, 2, NULL);
    assert_non_null(e);
    assert_int_equal(ng_tensor_numel(e), 0);
    assert_int_equal(ng_tensor_dim(e, 0), 0);
    assert_int_equal(ng_tensor_read(e, NULL, 0), NG_OK);
    assert_int_equal(ng_tensor_write(e, NULL, 0), NG_OK);
    ng_tensor_release(e);
}

static void wrap_borrows_row_major_memory(void **state) {
    (void)state;
    float buffer[6] = {0, 1, 2, 3, 4, 5};
    const int64_t shape[] = {2, 3};
    ng_tensor_t *t = ng_tensor_wrap(NG_FLOAT32, shape, NULL, 2, buffer, NULL, NULL);
    assert_non_null(t);
    assert_ptr_equal(ng_tensor_data(t), buffer);
    assert_int_equal(ng_tensor_stride(t, 0), 3);
    assert_int_equal(ng_tensor_stride(t, 1), 1);
    const float values[] = {9, 8, 7, 6, 5, 4};
    assert_int_equal(ng_tensor_write(t, values, sizeof values), NG_OK);
    assert_memory_equal(buffer, values, sizeof values); /* zero copy: the caller sees it */
    ng_tensor_release(t);
    assert_true(buffer[0] == 9.0f); /* borrowed: nothing freed */
}

static void wrap_with_column_major_and_negative_strides(void **state) {
    (void)state;
    /* Column-major 2x3: element (i, j) lives at buffer[i + 2 j]. */
    double buffer[6] = {0, 1, 2, 3, 4, 5};
    const int64_t shape[] = {2, 3}, column_major[] = {1, 2};
    ng_tensor_t *t = ng_tensor_wrap(NG_FLOAT64, shape, column_major, 2, buffer, NULL, NULL);
    assert_non_null(t);
    assert_int_equal(ng_tensor_is_contiguous(t), 0);
    double out[6];
    assert_int_equal(ng_tensor_read(t, out, sizeof out), NG_OK);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) assert_true(out[i * 3 + j] == buffer[i + 2 * j]);
    ng_tensor_release(t);

    /* Element (0) is the last of the buffer and the stride walks backwards. */
    const int64_t length[] = {6}, backwards[] = {-1};
    ng_tensor_t *r = ng_tensor_wrap(NG_FLOAT64, length, backwards, 1, buffer + 5, NULL, NULL);
    assert_non_null(r);
    assert_ptr_equal(ng_tensor_data(r), buffer + 5);
    assert_int_equal(ng_tensor_stride(r, 0), -1);
    assert_int_equal(ng_tensor_read(r, out, sizeof out), NG_OK);
    for (int i = 0; i < 6; ++i) assert_true(out[i] == buffer[5 - i]);
    const double ramp[] = {10, 11, 12, 13, 14, 15};
    assert_int_equal(ng_tensor_write(r, ramp, sizeof ramp), NG_OK);
    for (int i = 0; i < 6; ++i) assert_true(buffer[i] == 15 - i);
    ng_tensor_release(r);
}

static void deleter_runs_once_after_the_last_view(void **state) {
    (void)state;
    deleter_record record = {0};
    float buffer[4] = {1, 2, 3, 4};
    const int64_t shape[] = {4};
    ng_tensor_t *t = ng_tensor_wrap(NG_FLOAT32, shape, NULL, 1, buffer, counting_deleter, &record);
    assert_non_null(t);
    ng_tensor_retain(t);
    ng_tensor_t *view = ng_tensor_slice(t, 0, 1, 3, 1);
    assert_non_null(view);
    ng_tensor_release(t);
    ng_tensor_release(t);
    assert_int_equal(record.calls, 0); /* the view still holds the storage */
    float out[2];
    read_floats(view, out, 2);
    assert_true(out[0] == 2.0f && out[1] == 3.0f);
    ng_tensor_release(view);
    assert_int_equal(record.calls, 1);
    assert_ptr_equal(record.data, buffer);
}

static void deleter_runs_on_the_releasing_thread(void **state) {
    (void)state;
    deleter_record record = {0};
    int32_t buffer[3] = {1, 2, 3};
    const int64_t shape[] = {3};
    ng_tensor_t *t = ng_tensor_wrap(NG_INT32, shape, NULL, 1, buffer, counting_deleter, &record);
    assert_non_null(t);
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, release_on_thread, t), 0);
    assert_int_equal(pthread_join(thread, NULL), 0);
    assert_int_equal(record.calls, 1);
    assert_true(pthread_equal(record.thread, thread));
}

typedef struct {
    ng_tensor_t *t;
    int releases;
} release_job;

static void *release_many(void *arg) {
    release_job *job = (release_job *)arg;
    for (int i = 0; i < job->releases; ++i) ng_tensor_release(job->t);
    return NULL;
}

static void references_are_counted_atomically(void **state) {
    (void)state;
    deleter_record record = {0};
    uint8_t buffer[1] = {0};
    const int64_t shape[] = {1};
    ng_tensor_t *t = ng_tensor_wrap(NG_UINT8, shape, NULL, 1, buffer, counting_deleter, &record);
    enum { kPerThread = 20000 };
    for (int i = 0; i < 2 * kPerThread; ++i) ng_tensor_retain(t);
    release_job job = {t, kPerThread};
    pthread_t a, b;
    assert_int_equal(pthread_create(&a, NULL, release_many, &job), 0);
    assert_int_equal(pthread_create(&b, NULL, release_many, &job), 0);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert_int_equal(record.calls, 0);
    assert_int_equal(ng_tensor_numel(t), 1); /* still alive */
    ng_tensor_release(t);
    assert_int_equal(record.calls, 1);
}

static void copy_is_deep_and_dense(void **state) {
    (void)state;
    const int64_t shape[] = {2, 3};
    const float values[] = {1, 2, 3, 4, 5, 6};
    ng_tensor_t *t = ng_tensor_from_data(NG_FLOAT32, shape, 2, values);
    ng_tensor_t *tt = ng_tensor_transpose(t);
    ng_tensor_t *c = ng_tensor_copy(tt);
    assert_non_null(c);
    assert_int_equal(ng_tensor_is_contiguous(c), 1);
    assert_int_equal(ng_tensor_dim(c, 0), 3);
    assert_int_equal(ng_tensor_stride(c, 0), 2);
    float out[6];
    read_floats(c, out, 6);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 2; ++j) assert_true(out[i * 2 + j] == values[j * 3 + i]);
    float *copy_data = ng_tensor_data(c);
    copy_data[0] = 100.0f;
    read_floats(t, out, 6);
    assert_true(out[0] == 1.0f); /* the original is untouched */
    ng_tensor_release(c);
    ng_tensor_release(tt);
    ng_tensor_release(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_is_zeroed_row_major_and_aligned),
        cmocka_unit_test(large_blocks_are_huge_page_aligned_and_zeroed),
        cmocka_unit_test(from_data_round_trips_every_dtype),
        cmocka_unit_test(write_then_read_and_data_agree),
        cmocka_unit_test(scalars_and_empty_tensors),
        cmocka_unit_test(wrap_borrows_row_major_memory),
        cmocka_unit_test(wrap_with_column_major_and_negative_strides),
        cmocka_unit_test(deleter_runs_once_after_the_last_view),
        cmocka_unit_test(deleter_runs_on_the_releasing_thread),
        cmocka_unit_test(references_are_counted_atomically),
        cmocka_unit_test(copy_is_deep_and_dense),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
