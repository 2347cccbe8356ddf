/* What shape is valid, decided once: every dimension >= 0 and the product of the dimensions,
 * counting 0 as 1, within int64. Create, wrap, broadcast and DLPack import all apply it, so a
 * tensor any of them returns has a well-defined element count, copy and read, and views of it
 * (slices with any step, including INT64_MIN) are computed without overflow. */
#include <dlpack/dlpack.h>

#include "test_tensor_util.h"

static const int64_t kHuge[] = {0, 4, INT64_MAX};      /* empty, but 4 * INT64_MAX overflows */
static const int64_t kHugeFirst[] = {4, INT64_MAX, 0}; /* the same, the 0 last */
static const int64_t kEmpty[] = {0, 4, 5};

static void huge_empty_shapes_are_refused_everywhere(void **state) {
    (void)state;
    const int64_t *shapes[] = {kHuge, kHugeFirst};
    for (int s = 0; s < 2; ++s) {
        const int64_t *shape = shapes[s];
        assert_null(ng_tensor_create(NG_FLOAT32, shape, 3));
        expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_create");
        assert_null(ng_tensor_wrap(NG_FLOAT32, shape, NULL, 3, NULL, NULL, NULL));
        expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_wrap");
        const int64_t strides[] = {1, 1, 1};
        assert_null(ng_tensor_wrap(NG_FLOAT32, shape, strides, 3, NULL, NULL, NULL));
        expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_wrap");

        const int64_t one = 1;
        ng_tensor_t *scalar = ng_tensor_create(NG_FLOAT32, &one, 1);
        assert_null(ng_tensor_broadcast(scalar, shape, 3));
        expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_broadcast");
        ng_tensor_release(scalar);

        float data[1];
        DLManagedTensor m;
        memset(&m, 0, sizeof m);
        m.dl_tensor.data = data;
        m.dl_tensor.device.device_type = kDLCPU;
        m.dl_tensor.ndim = 3;
        m.dl_tensor.dtype.code = kDLFloat;
        m.dl_tensor.dtype.bits = 32;
        m.dl_tensor.dtype.lanes = 1;
        m.dl_tensor.shape = (int64_t *)shape;
        assert_null(ng_tensor_from_dlpack(&m));
        expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_from_dlpack");
    }
}

/* An empty tensor within the rule works everywhere: no elements, copies, reads of 0 bytes. */
static void empty_tensors_work_everywhere(void **state) {
    (void)state;
    ng_tensor_t *made[4];
    made[0] = ng_tensor_create(NG_FLOAT32, kEmpty, 3);
    made[1] = ng_tensor_wrap(NG_FLOAT32, kEmpty, NULL, 3, NULL, NULL, NULL);
    const int64_t one = 1;
    ng_tensor_t *scalar = ng_tensor_create(NG_FLOAT32, &one, 1);
    made[2] = ng_tensor_broadcast(scalar, kEmpty, 3);
    ng_tensor_release(scalar);
    DLManagedTensor m;
    memset(&m, 0, sizeof m);
    float data[1];
    m.dl_tensor.data = data;
    m.dl_tensor.device.device_type = kDLCPU;
    m.dl_tensor.ndim = 3;
    m.dl_tensor.dtype.code = kDLFloat;
    m.dl_tensor.dtype.bits = 32;
    m.dl_tensor.dtype.lanes = 1;
    m.dl_tensor.shape = (int64_t *)kEmpty;
    made[3] = ng_tensor_from_dlpack(&m);
    for (int i = 0; i < 4; ++i) {
        assert_non_null(made[i]);
        assert_int_equal(ng_tensor_numel(made[i]), 0);
        expect_ok();
        ng_tensor_t *copy = ng_tensor_copy(made[i]);
        assert_non_null(copy);
        assert_int_equal(ng_tensor_numel(copy), 0);
        assert_int_equal(ng_tensor_read(made[i], NULL, 0), NG_OK);
        ng_tensor_release(copy);
        ng_tensor_release(made[i]);
    }
}

/* A step of INT64_MIN takes the first index walked (its magnitude exceeds any length). */
static void slice_step_int64_min(void **state) {
    (void)state;
    const int64_t n = 5;
    const float data[5] = {0, 1, 2, 3, 4};
    ng_tensor_t *t = ng_tensor_from_data(NG_FLOAT32, &n, 1, data);
    ng_tensor_t *s = ng_tensor_slice(t, 0, INT64_MAX, INT64_MIN, INT64_MIN);
    assert_non_null(s);
    assert_int_equal(ng_tensor_dim(s, 0), 1);
    float got = -1;
    assert_int_equal(ng_tensor_read(s, &got, sizeof got), NG_OK);
    assert_float_equal(got, 4, 0);
    ng_tensor_release(s);
    s = ng_tensor_slice(t, 0, 2, 0, INT64_MIN);
    assert_non_null(s);
    assert_int_equal(ng_tensor_dim(s, 0), 1);
    assert_int_equal(ng_tensor_read(s, &got, sizeof got), NG_OK);
    assert_float_equal(got, 2, 0);
    ng_tensor_release(s);
    s = ng_tensor_slice(t, 0, 0, 5, INT64_MAX);
    assert_non_null(s);
    assert_int_equal(ng_tensor_dim(s, 0), 1);
    assert_int_equal(ng_tensor_read(s, &got, sizeof got), NG_OK);
    assert_float_equal(got, 0, 0);
    ng_tensor_release(s);
    ng_tensor_release(t);
}

/* A wrapped empty tensor may have any strides: slicing it does not compute an offset from them. */
static void slice_of_empty_tensor_with_huge_strides(void **state) {
    (void)state;
    const int64_t shape[] = {0, 3}, strides[] = {1, INT64_MAX};
    ng_tensor_t *t = ng_tensor_wrap(NG_FLOAT64, shape, strides, 2, NULL, NULL, NULL);
    assert_non_null(t);
    ng_tensor_t *s = ng_tensor_slice(t, 1, 2, 3, 1);
    assert_non_null(s);
    assert_int_equal(ng_tensor_numel(s), 0);
    ng_tensor_t *copy = ng_tensor_copy(s);
    assert_non_null(copy);
    ng_tensor_release(copy);
    ng_tensor_release(s);
    ng_tensor_release(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(huge_empty_shapes_are_refused_everywhere),
        cmocka_unit_test(empty_tensors_work_everywhere),
        cmocka_unit_test(slice_step_int64_min),
        cmocka_unit_test(slice_of_empty_tensor_with_huge_strides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
