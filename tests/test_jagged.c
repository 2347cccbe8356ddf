/* Jagged host tensors: made from values, wrapped without a copy (deleter once, never on a
 * failure), read and written, converted to and from padded tensors with a mask, sliced as views,
 * and crossing DLPack as values plus row splits; bad input at every entry point. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <dlpack/dlpack.h>

#include "expect_error.h"
#include "nanograph/nanograph.h"

/* Rows 2 0 3 holding 1 .. 5. */
static ng_shape_t *rows_shape(void) {
    const int64_t splits[] = {0, 2, 2, 5};
    const int64_t *const all[] = {splits};
    const int64_t counts[] = {4};
    return ng_shape_jagged(3, 2, all, counts, NULL);
}

static const float kValues[5] = {1, 2, 3, 4, 5};

static void values_positions_and_splits(void **state) {
    (void)state;
    ng_shape_t *s = rows_shape();
    ng_jagged_t *j = ng_jagged_from_data(NG_FLOAT32, s, kValues);
    assert_non_null(j);
    expect_no_error();
    assert_int_equal(ng_jagged_dtype(j), NG_FLOAT32);
    float out[5];
    assert_int_equal(ng_jagged_read(j, out, sizeof out), NG_OK);
    assert_memory_equal(out, kValues, sizeof out);
    const int64_t at21[] = {2, 1};
    assert_int_equal(ng_jagged_position(j, at21, 2), 3);
    ng_shape_t *shape = ng_jagged_shape(j);
    assert_int_equal(ng_shape_equal(shape, s), 1);
    ng_tensor_t *splits = ng_jagged_row_splits(j, 1);
    assert_int_equal(ng_tensor_dtype(splits), NG_INT64);
    int64_t sp[4];
    assert_int_equal(ng_tensor_read(splits, sp, sizeof sp), NG_OK);
    const int64_t expected[] = {0, 2, 2, 5};
    assert_memory_equal(sp, expected, sizeof sp);
    ng_tensor_t *values = ng_jagged_values(j);
    assert_int_equal(ng_tensor_rank(values), 1);
    assert_int_equal(ng_tensor_numel(values), 5);
    /* The values view shares memory: a write through it is read back through the jagged. */
    ((float *)ng_tensor_data(values))[3] = 40;
    assert_int_equal(ng_jagged_read(j, out, sizeof out), NG_OK);
    assert_true(out[3] == 40.0f);
    const float doubled[5] = {2, 4, 6, 8, 10};
    assert_int_equal(ng_jagged_write(j, doubled, sizeof doubled), NG_OK);
    assert_true(((float *)ng_tensor_data(values))[4] == 10.0f);
    ng_tensor_release(values);
    ng_tensor_release(splits);
    ng_shape_release(shape);

    ng_jagged_t *zeros = ng_jagged_create(NG_INT32, s);
    int32_t z[5] = {9, 9, 9, 9, 9};
    assert_int_equal(ng_jagged_read(zeros, z, sizeof z), NG_OK);
    for (int i = 0; i < 5; ++i) assert_int_equal(z[i], 0);
    ng_jagged_release(zeros);
    ng_jagged_release(j);
    ng_shape_release(s);
}

static void padded_and_back(void **state) {
    (void)state;
    ng_shape_t *s = rows_shape();
    ng_jagged_t *j = ng_jagged_from_data(NG_FLOAT32, s, kValues);
    ng_tensor_t *padded = NULL, *mask = NULL;
    assert_int_equal(ng_jagged_to_padded(j, &padded, &mask), NG_OK);
    assert_int_equal(ng_tensor_dim(padded, 0), 3);
    assert_int_equal(ng_tensor_dim(padded, 1), 3);
    float p[9];
    uint8_t m[9];
    assert_int_equal(ng_tensor_read(padded, p, sizeof p), NG_OK);
    assert_int_equal(ng_tensor_read(mask, m, sizeof m), NG_OK);
    const float want_p[9] = {1, 2, 0, 0, 0, 0, 3, 4, 5};
    const uint8_t want_m[9] = {1, 1, 0, 0, 0, 0, 1, 1, 1};
    assert_memory_equal(p, want_p, sizeof p);
    assert_memory_equal(m, want_m, sizeof m);

    ng_jagged_t *back = ng_jagged_from_padded(padded, mask);
    assert_non_null(back);
    ng_shape_t *back_shape = ng_jagged_shape(back);
    assert_int_equal(ng_shape_equal(back_shape, s), 1);
    float v[5];
    assert_int_equal(ng_jagged_read(back, v, sizeof v), NG_OK);
    assert_memory_equal(v, kValues, sizeof v);
    ng_shape_release(back_shape);
    ng_jagged_release(back);

    /* A hole inside a row is not a jagged mask. */
    uint8_t holed[9] = {1, 0, 1, 0, 0, 0, 1, 1, 1};
    const int64_t dims[] = {3, 3};
    ng_tensor_t *bad = ng_tensor_from_data(NG_BOOL, dims, 2, holed);
    assert_null(ng_jagged_from_padded(padded, bad));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_from_padded", "padded element 1");
    ng_tensor_release(bad);
    ng_tensor_release(padded);
    ng_tensor_release(mask);
    ng_jagged_release(j);
    ng_shape_release(s);
}

/* (2, [2 1], [1 3 2]) by hand: padded (2, 2, 3). */
static void rank_3_padded_round_trip(void **state) {
    (void)state;
    const int64_t m1[] = {0, 2, 3}, m2[] = {0, 1, 4, 6};
    const int64_t *const all[] = {m1, m2};
    const int64_t counts[] = {3, 4};
    ng_shape_t *s = ng_shape_jagged(2, 3, all, counts, NULL);
    const double values[6] = {1, 2, 3, 4, 5, 6};
    ng_jagged_t *j = ng_jagged_from_data(NG_FLOAT64, s, values);
    ng_tensor_t *padded, *mask;
    assert_int_equal(ng_jagged_to_padded(j, &padded, &mask), NG_OK);
    assert_int_equal(ng_tensor_dim(padded, 2), 3);
    double p[12];
    assert_int_equal(ng_tensor_read(padded, p, sizeof p), NG_OK);
    const double want[12] = {1, 0, 0, 2, 3, 4, 5, 6, 0, 0, 0, 0};
    assert_memory_equal(p, want, sizeof p);
    ng_jagged_t *back = ng_jagged_from_padded(padded, mask);
    ng_shape_t *bs = ng_jagged_shape(back);
    assert_int_equal(ng_shape_equal(bs, s), 1);
    double v[6];
    assert_int_equal(ng_jagged_read(back, v, sizeof v), NG_OK);
    assert_memory_equal(v, values, sizeof v);
    ng_shape_release(bs);
    ng_jagged_release(back);
    ng_tensor_release(padded);
    ng_tensor_release(mask);
    ng_jagged_release(j);
    ng_shape_release(s);
}

static void slices_are_views(void **state) {
    (void)state;
    ng_shape_t *s = rows_shape();
    ng_jagged_t *j = ng_jagged_from_data(NG_FLOAT32, s, kValues);
    ng_jagged_t *tail = ng_jagged_slice(j, 1, 3);
    float v[3];
    assert_int_equal(ng_jagged_read(tail, v, sizeof v), NG_OK);
    assert_true(v[0] == 3 && v[1] == 4 && v[2] == 5);
    const int64_t one[] = {1};
    ng_jagged_t *row = ng_jagged_at(tail, one, 1); /* the root's row 2 */
    ng_shape_t *rs = ng_jagged_shape(row);
    int64_t origin[2];
    assert_int_equal(ng_shape_origin(rs, origin, 2), 2);
    assert_int_equal(origin[0], 2);
    assert_int_equal(origin[1], 0);
    const float row_values[3] = {30, 40, 50};
    assert_int_equal(ng_jagged_write(row, row_values, sizeof row_values), NG_OK);
    float all[5];
    assert_int_equal(ng_jagged_read(j, all, sizeof all), NG_OK);
    const float want[5] = {1, 2, 30, 40, 50};
    assert_memory_equal(all, want, sizeof all);
    const int64_t point[] = {0};
    ng_jagged_t *single = ng_jagged_at(row, point, 1);
    float x;
    assert_int_equal(ng_jagged_read(single, &x, sizeof x), NG_OK);
    assert_true(x == 30);
    ng_jagged_release(single);
    ng_shape_release(rs);
    ng_jagged_release(row);
    ng_jagged_release(tail);
    ng_jagged_release(j);
    ng_shape_release(s);
}

static int deleter_calls;
static void count_deleter(void *data, void *ctx) {
    (void)data;
    ++*(int *)ctx;
}

static void wrapping_caller_memory(void **state) {
    (void)state;
    ng_shape_t *s = rows_shape();
    float memory[5] = {1, 2, 3, 4, 5};
    deleter_calls = 0;
    ng_jagged_t *j = ng_jagged_wrap(NG_FLOAT32, s, memory, count_deleter, &deleter_calls);
    assert_non_null(j);
    ng_jagged_t *view = ng_jagged_slice(j, 2, 3);
    memory[2] = 33; /* no copy: the caller's memory is the values */
    float v[3];
    assert_int_equal(ng_jagged_read(view, v, sizeof v), NG_OK);
    assert_true(v[0] == 33);
    ng_jagged_release(j);
    assert_int_equal(deleter_calls, 0); /* the view still uses the memory */
    ng_jagged_release(view);
    assert_int_equal(deleter_calls, 1);

    /* Failures never run the deleter. */
    assert_null(ng_jagged_wrap(NG_FLOAT32, s, NULL, count_deleter, &deleter_calls));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_wrap", "NULL");
    assert_null(ng_jagged_wrap(NG_FLOAT32, s, (char *)memory + 1, count_deleter, &deleter_calls));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_wrap", "aligned");
    assert_null(ng_jagged_wrap(77, s, memory, count_deleter, &deleter_calls));
    expect_error(NG_ERR_DTYPE, "ng_jagged_wrap", "");
    assert_null(ng_jagged_wrap(NG_FLOAT32, NULL, memory, count_deleter, &deleter_calls));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_wrap", "shape is NULL");
    assert_int_equal(deleter_calls, 1);
    ng_shape_release(s);
}

/* Values and splits leave as two DLPack tensors and come back as a jagged tensor. */
static void crossing_dlpack_as_two_tensors(void **state) {
    (void)state;
    ng_shape_t *s = rows_shape();
    ng_jagged_t *j = ng_jagged_from_data(NG_FLOAT32, s, kValues);
    ng_tensor_t *values = ng_jagged_values(j), *splits = ng_jagged_row_splits(j, 1);
    DLManagedTensor *dv = NULL, *ds = NULL;
    assert_int_equal(ng_tensor_to_dlpack(values, &dv), NG_OK);
    assert_int_equal(ng_tensor_to_dlpack(splits, &ds), NG_OK);
    ng_tensor_release(values);
    ng_tensor_release(splits);
    ng_jagged_release(j);

    ng_tensor_t *in_values = ng_tensor_from_dlpack(dv);
    ng_tensor_t *in_splits = ng_tensor_from_dlpack(ds);
    const int64_t *sp = ng_tensor_data(in_splits);
    const int64_t *const all[] = {sp};
    const int64_t counts[] = {ng_tensor_numel(in_splits)};
    ng_shape_t *shape = ng_shape_jagged(counts[0] - 1, 2, all, counts, NULL);
    ng_jagged_t *back = ng_jagged_from_values(shape, in_values);
    assert_non_null(back);
    float v[5];
    assert_int_equal(ng_jagged_read(back, v, sizeof v), NG_OK);
    assert_memory_equal(v, kValues, sizeof v);
    ng_shape_t *bs = ng_jagged_shape(back);
    assert_int_equal(ng_shape_equal(bs, s), 1);
    ng_shape_release(bs);
    ng_jagged_release(back);
    ng_shape_release(shape);
    ng_tensor_release(in_values);
    ng_tensor_release(in_splits);
    ng_shape_release(s);
}

static void bad_input(void **state) {
    (void)state;
    ng_shape_t *s = rows_shape();
    assert_null(ng_jagged_create(NG_FLOAT32, NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_create", "shape is NULL");
    assert_null(ng_jagged_create(0, s));
    expect_error(NG_ERR_DTYPE, "ng_jagged_create", "");
    assert_null(ng_jagged_from_data(NG_FLOAT32, s, NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_from_data", "values is NULL");
    const int64_t one[] = {1};
    ng_shape_t *outer = ng_shape_smooth(one, 1);
    const ng_shape_t *const elements[] = {s};
    ng_shape_t *nested = ng_shape_nested(outer, elements, 1);
    assert_null(ng_jagged_create(NG_FLOAT32, nested));
    expect_error(NG_ERR_UNSUPPORTED, "ng_jagged_create", "nested");
    const int64_t four[] = {4};
    ng_tensor_t *wrong = ng_tensor_create(NG_FLOAT32, four, 1);
    assert_null(ng_jagged_from_values(s, wrong));
    expect_error(NG_ERR_AXES, "ng_jagged_from_values", "5 elements");
    assert_null(ng_jagged_from_values(s, NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_from_values", "values is NULL");

    ng_jagged_t *j = ng_jagged_from_data(NG_FLOAT32, s, kValues);
    assert_int_equal(ng_jagged_dtype(NULL), 0);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_dtype", "j is NULL");
    static uint64_t not_jagged[8] = {0x4e474752u};
    assert_null(ng_jagged_shape((ng_jagged_t *)not_jagged));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_shape", "not a live jagged tensor");
    assert_null(ng_jagged_values(NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_values", "j is NULL");
    assert_null(ng_jagged_row_splits(j, 2));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_row_splits", "mode is 2");
    const int64_t idx[] = {1, 0};
    assert_int_equal(ng_jagged_position(j, idx, 2), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_position", "extent 0");
    assert_int_equal(ng_jagged_position(j, idx, 1), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_position", "n is 1");
    assert_int_equal(ng_jagged_position(j, NULL, 2), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_position", "index is NULL");
    float small[4];
    assert_int_equal(ng_jagged_read(j, small, sizeof small), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_read", "");
    assert_int_equal(ng_jagged_write(j, NULL, 20), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_write", "");
    ng_tensor_t *padded = (ng_tensor_t *)1, *mask = (ng_tensor_t *)1;
    assert_int_equal(ng_jagged_to_padded(NULL, &padded, &mask), NG_ERR_INVALID_ARGUMENT);
    assert_null(padded);
    assert_null(mask);
    assert_int_equal(ng_jagged_to_padded(j, NULL, &mask), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_to_padded", "padded is NULL");
    const int64_t dims[] = {3, 3};
    ng_tensor_t *values = ng_tensor_create(NG_FLOAT32, dims, 2);
    ng_tensor_t *float_mask = ng_tensor_create(NG_FLOAT32, dims, 2);
    assert_null(ng_jagged_from_padded(values, float_mask));
    expect_error(NG_ERR_DTYPE, "ng_jagged_from_padded", "float32");
    const int64_t other[] = {3, 2};
    ng_tensor_t *small_mask = ng_tensor_create(NG_BOOL, other, 2);
    assert_null(ng_jagged_from_padded(values, small_mask));
    expect_error(NG_ERR_AXES, "ng_jagged_from_padded", "(3, 2)");
    assert_null(ng_jagged_from_padded(NULL, small_mask));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_from_padded", "padded is NULL");
    assert_null(ng_jagged_slice(j, 0, 4));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_slice", "[0, 4)");
    assert_null(ng_jagged_at(j, NULL, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_at", "prefix is NULL");
    assert_null(ng_jagged_at(j, idx, 2));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_jagged_at", "extent 0");
    ng_jagged_retain(NULL);
    ng_jagged_release(NULL);
    ng_jagged_release((ng_jagged_t *)not_jagged);
    ng_tensor_release(small_mask);
    ng_tensor_release(float_mask);
    ng_tensor_release(values);
    ng_tensor_release(wrong);
    ng_jagged_release(j);
    ng_shape_release(nested);
    ng_shape_release(outer);
    ng_shape_release(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_positions_and_splits),
        cmocka_unit_test(padded_and_back),
        cmocka_unit_test(rank_3_padded_round_trip),
        cmocka_unit_test(slices_are_views),
        cmocka_unit_test(wrapping_caller_memory),
        cmocka_unit_test(crossing_dlpack_as_two_tensors),
        cmocka_unit_test(bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
