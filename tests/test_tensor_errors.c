/* Bad input at every tensor entry point: the failure value, the status, a message naming the
 * function, and no deleter run on a failed wrap. */
#include "test_tensor_util.h"

static ng_tensor_t *small_tensor(void) {
    const int64_t shape[] = {2, 3};
    ng_tensor_t *t = ng_tensor_create(NG_FLOAT32, shape, 2);
    assert_non_null(t);
    return t;
}

static void create_rejects_bad_shapes_and_dtypes(void **state) {
    (void)state;
    const int64_t shape[] = {2, 3};
    assert_null(ng_tensor_create(0, shape, 2));
    expect_failure(NG_ERR_DTYPE, "ng_tensor_create");
    assert_null(ng_tensor_create(99, shape, 2));
    expect_failure(NG_ERR_DTYPE, "ng_tensor_create");
    assert_null(ng_tensor_create(NG_FLOAT32, shape, -1));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_create");
    assert_non_null(strstr(ng_last_error(), "rank"));
    assert_null(ng_tensor_create(NG_FLOAT32, NULL, 2));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_create");
    assert_non_null(strstr(ng_last_error(), "shape is NULL"));
    const int64_t negative[] = {2, -3};
    assert_null(ng_tensor_create(NG_FLOAT32, negative, 2));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_create");
    assert_non_null(strstr(ng_last_error(), "-3"));
    const int64_t overflow[] = {INT64_MAX, 2};
    assert_null(ng_tensor_create(NG_FLOAT32, overflow, 2));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_create");
    assert_non_null(strstr(ng_last_error(), "overflows"));
    /* The element count fits, the byte count does not. */
    const int64_t too_many_bytes[] = {INT64_MAX / 4, 2};
    assert_null(ng_tensor_create(NG_FLOAT64, too_many_bytes, 2));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_create");
    /* A success clears the error. */
    ng_tensor_t *t = ng_tensor_create(NG_FLOAT32, shape, 2);
    assert_non_null(t);
    expect_ok();
    ng_tensor_release(t);
}

static void from_data_rejects_missing_data(void **state) {
    (void)state;
    const int64_t shape[] = {2, 3};
    assert_null(ng_tensor_from_data(NG_INT32, shape, 2, NULL));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_from_data");
    assert_non_null(strstr(ng_last_error(), "data is NULL"));
    const int64_t overflow[] = {INT64_MAX, INT64_MAX};
    const int32_t one = 1;
    assert_null(ng_tensor_from_data(NG_INT32, overflow, 2, &one));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_from_data");
    assert_null(ng_tensor_from_data(-4, shape, 2, &one));
    expect_failure(NG_ERR_DTYPE, "ng_tensor_from_data");
}

static void failed_wraps_never_run_the_deleter(void **state) {
    (void)state;
    deleter_record record = {0};
    float buffer[8] = {0};
    const int64_t shape[] = {2, 3};
    assert_null(ng_tensor_wrap(42, shape, NULL, 2, buffer, counting_deleter, &record));
    expect_failure(NG_ERR_DTYPE, "ng_tensor_wrap");
    assert_null(ng_tensor_wrap(NG_FLOAT32, shape, NULL, 2, NULL, counting_deleter, &record));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_wrap");
    assert_non_null(strstr(ng_last_error(), "data is NULL"));
    assert_null(ng_tensor_wrap(NG_FLOAT32, NULL, NULL, 2, buffer, counting_deleter, &record));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_wrap");
    assert_null(ng_tensor_wrap(NG_FLOAT32, shape, NULL, -2, buffer, counting_deleter, &record));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_wrap");
    const int64_t negative[] = {-1, 3};
    assert_null(ng_tensor_wrap(NG_FLOAT32, negative, NULL, 2, buffer, counting_deleter, &record));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_wrap");
    /* Misaligned float32 data. */
    assert_null(
        ng_tensor_wrap(NG_FLOAT32, shape, NULL, 2, (char *)buffer + 1, counting_deleter, &record));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_wrap");
    assert_non_null(strstr(ng_last_error(), "aligned"));
    /* Strides that cannot be represented. */
    const int64_t huge_strides[] = {INT64_MAX, 1};
    assert_null(
        ng_tensor_wrap(NG_FLOAT32, shape, huge_strides, 2, buffer, counting_deleter, &record));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_wrap");
    const int64_t min_stride[] = {INT64_MIN, 1};
    const int64_t one_row[] = {1, 3};
    assert_null(
        ng_tensor_wrap(NG_FLOAT32, one_row, min_stride, 2, buffer, counting_deleter, &record));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_wrap");
    /* Negative strides that would reach below address 0. */
    const int64_t backwards[] = {-1};
    const int64_t four[] = {4};
    assert_null(ng_tensor_wrap(NG_FLOAT32, four, backwards, 1, (void *)(uintptr_t)4,
                               counting_deleter, &record));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_wrap");
    /* Reaching exactly INT64_MIN elements below data: the negation must not overflow. */
    const int64_t three[] = {3}, half_min[] = {INT64_MIN / 2};
    assert_null(ng_tensor_wrap(NG_FLOAT32, three, half_min, 1, buffer, counting_deleter, &record));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_wrap");
    const int64_t overflow[] = {INT64_MAX, 2};
    assert_null(ng_tensor_wrap(NG_FLOAT32, overflow, NULL, 2, buffer, counting_deleter, &record));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_wrap");
    assert_int_equal(record.calls, 0);
}

static void retain_and_release_ignore_bad_handles(void **state) {
    (void)state;
    ng_tensor_t *t = small_tensor(); /* sets the error to NG_OK */
    assert_null(ng_tensor_create(0, NULL, 0));
    ng_tensor_retain(NULL);
    ng_tensor_release(NULL);
    ng_tensor_retain(fake_tensor_handle());
    ng_tensor_release(fake_tensor_handle());
    /* The error of the last fallible call is left alone. */
    expect_failure(NG_ERR_DTYPE, "ng_tensor_create");
    ng_tensor_release(t);
}

static void accessors_report_bad_handles_and_indices(void **state) {
    (void)state;
    ng_tensor_t *handles[] = {NULL, fake_tensor_handle()};
    for (int h = 0; h < 2; ++h) {
        ng_tensor_t *bad = handles[h];
        assert_int_equal(ng_tensor_dtype(bad), 0);
        expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_dtype");
        assert_int_equal(ng_tensor_rank(bad), -1);
        expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_rank");
        assert_int_equal(ng_tensor_dim(bad, 0), -1);
        expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_dim");
        assert_true(ng_tensor_stride(bad, 0) == INT64_MIN);
        expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_stride");
        assert_int_equal(ng_tensor_numel(bad), -1);
        expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_numel");
        assert_null(ng_tensor_data(bad));
        expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_data");
        assert_int_equal(ng_tensor_is_contiguous(bad), -1);
        expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_is_contiguous");
        assert_null(ng_tensor_copy(bad));
        expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_copy");
    }
    assert_non_null(strstr(ng_last_error(), "not a live tensor handle"));
    ng_tensor_t *t = small_tensor();
    assert_int_equal(ng_tensor_dim(t, 2), -1);
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_dim");
    assert_int_equal(ng_tensor_dim(t, -1), -1);
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_dim");
    assert_true(ng_tensor_stride(t, 2) == INT64_MIN);
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_stride");
    ng_tensor_release(t);
}

static void read_and_write_check_buffers(void **state) {
    (void)state;
    ng_tensor_t *t = small_tensor();
    float buffer[6] = {0};
    assert_int_equal(ng_tensor_read(NULL, buffer, sizeof buffer), NG_ERR_INVALID_ARGUMENT);
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_read");
    assert_int_equal(ng_tensor_read(fake_tensor_handle(), buffer, sizeof buffer),
                     NG_ERR_INVALID_ARGUMENT);
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_read");
    assert_int_equal(ng_tensor_read(t, NULL, sizeof buffer), NG_ERR_INVALID_ARGUMENT);
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_read");
    assert_int_equal(ng_tensor_read(t, buffer, sizeof buffer - 1), NG_ERR_INVALID_ARGUMENT);
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_read");
    assert_non_null(strstr(ng_last_error(), "dst_bytes is 23"));
    assert_int_equal(ng_tensor_read(t, buffer, sizeof buffer + 4), NG_ERR_INVALID_ARGUMENT);
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_read");

    assert_int_equal(ng_tensor_write(NULL, buffer, sizeof buffer), NG_ERR_INVALID_ARGUMENT);
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_write");
    assert_int_equal(ng_tensor_write(fake_tensor_handle(), buffer, sizeof buffer),
                     NG_ERR_INVALID_ARGUMENT);
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_write");
    assert_int_equal(ng_tensor_write(t, NULL, sizeof buffer), NG_ERR_INVALID_ARGUMENT);
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_write");
    assert_int_equal(ng_tensor_write(t, buffer, 0), NG_ERR_INVALID_ARGUMENT);
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_write");
    assert_non_null(strstr(ng_last_error(), "src_bytes is 0"));
    ng_tensor_release(t);
}

static void views_reject_bad_arguments(void **state) {
    (void)state;
    ng_tensor_t *t = small_tensor();
    const int64_t six[] = {6};
    const int32_t order[] = {1, 0};

    assert_null(ng_tensor_reshape(NULL, six, 1));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_reshape");
    assert_null(ng_tensor_reshape(fake_tensor_handle(), six, 1));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_reshape");
    assert_null(ng_tensor_reshape(t, NULL, 1));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_reshape");
    assert_null(ng_tensor_reshape(t, six, -1));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_reshape");
    const int64_t negative[] = {-2, -3};
    assert_null(ng_tensor_reshape(t, negative, 2));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_reshape");
    const int64_t overflow[] = {INT64_MAX, 2};
    assert_null(ng_tensor_reshape(t, overflow, 2));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_reshape");

    assert_null(ng_tensor_permute(NULL, order, 2));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_permute");
    assert_null(ng_tensor_permute(t, NULL, 2));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_permute");
    assert_null(ng_tensor_permute(t, order, 1));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_permute");
    assert_null(ng_tensor_permute(t, order, -1));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_permute");
    const int32_t repeated[] = {1, 1}, out_of_range[] = {0, 2};
    assert_null(ng_tensor_permute(t, repeated, 2));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_permute");
    assert_non_null(strstr(ng_last_error(), "repeats"));
    assert_null(ng_tensor_permute(t, out_of_range, 2));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_permute");

    assert_null(ng_tensor_transpose(NULL));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_transpose");
    assert_null(ng_tensor_transpose(fake_tensor_handle()));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_transpose");

    assert_null(ng_tensor_slice(NULL, 0, 0, 1, 1));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_slice");
    assert_null(ng_tensor_slice(t, 2, 0, 1, 1));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_slice");
    assert_null(ng_tensor_slice(t, -1, 0, 1, 1));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_slice");
    assert_null(ng_tensor_slice(t, 0, 0, 1, 0));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_slice");
    assert_non_null(strstr(ng_last_error(), "step is 0"));

    const int64_t wide[] = {4, 2, 3};
    assert_null(ng_tensor_broadcast(NULL, wide, 3));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_broadcast");
    assert_null(ng_tensor_broadcast(t, NULL, 3));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_broadcast");
    assert_null(ng_tensor_broadcast(t, wide, -3));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_broadcast");
    const int64_t negative_wide[] = {-4, 2, 3};
    assert_null(ng_tensor_broadcast(t, negative_wide, 3));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_broadcast");
    const int64_t overflow_wide[] = {INT64_MAX, 2, 3};
    assert_null(ng_tensor_broadcast(t, overflow_wide, 3));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_broadcast");
    const int64_t mismatched[] = {4, 3, 3};
    assert_null(ng_tensor_broadcast(t, mismatched, 3));
    expect_failure(NG_ERR_AXES, "ng_tensor_broadcast");
    ng_tensor_release(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_rejects_bad_shapes_and_dtypes),
        cmocka_unit_test(from_data_rejects_missing_data),
        cmocka_unit_test(failed_wraps_never_run_the_deleter),
        cmocka_unit_test(retain_and_release_ignore_bad_handles),
        cmocka_unit_test(accessors_report_bad_handles_and_indices),
        cmocka_unit_test(read_and_write_check_buffers),
        cmocka_unit_test(views_reject_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
