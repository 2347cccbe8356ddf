/* DLPack export and import: fields, zero copy, lifetimes (deleters exactly once), refusals. */
#include <dlpack/dlpack.h>

#include "test_tensor_util.h"

static ng_tensor_t *ramp_2x3(void) {
    const int64_t shape[] = {2, 3};
    const float values[] = {0, 1, 2, 3, 4, 5};
    ng_tensor_t *t = ng_tensor_from_data(NG_FLOAT32, shape, 2, values);
    assert_non_null(t);
    return t;
}

static void export_describes_the_tensor(void **state) {
    (void)state;
    ng_tensor_t *t = ramp_2x3();
    DLManagedTensor *m = NULL;
    assert_int_equal(ng_tensor_to_dlpack(t, &m), NG_OK);
    assert_non_null(m);
    const DLTensor *dl = &m->dl_tensor;
    assert_int_equal(dl->device.device_type, kDLCPU);
    assert_int_equal(dl->device.device_id, 0);
    assert_int_equal(dl->ndim, 2);
    assert_int_equal(dl->dtype.code, kDLFloat);
    assert_int_equal(dl->dtype.bits, 32);
    assert_int_equal(dl->dtype.lanes, 1);
    assert_int_equal(dl->shape[0], 2);
    assert_int_equal(dl->shape[1], 3);
    assert_int_equal(dl->strides[0], 3);
    assert_int_equal(dl->strides[1], 1);
    assert_int_equal(dl->byte_offset, 0);
    assert_ptr_equal(dl->data, ng_tensor_data(t));
    /* The export keeps the memory alive after the tensor is released. */
    ng_tensor_release(t);
    const float *values = (const float *)dl->data;
    for (int i = 0; i < 6; ++i) assert_true(values[i] == (float)i);
    m->deleter(m);
}

static void export_of_views_points_at_their_first_element(void **state) {
    (void)state;
    ng_tensor_t *t = ramp_2x3();
    ng_tensor_t *tail = ng_tensor_slice(t, 1, 2, 0, -1); /* columns 2, 1 */
    ng_tensor_t *view = ng_tensor_transpose(tail);       /* (2 cols, 2 rows) */
    DLManagedTensor *m = NULL;
    assert_int_equal(ng_tensor_to_dlpack(view, &m), NG_OK);
    const DLTensor *dl = &m->dl_tensor;
    assert_int_equal(dl->shape[0], 2);
    assert_int_equal(dl->shape[1], 2);
    assert_int_equal(dl->strides[0], -1);
    assert_int_equal(dl->strides[1], 3);
    /* data is element (0, 0) itself (PyTorch 1.13 ignores byte_offset). */
    assert_int_equal(dl->byte_offset, 0);
    assert_ptr_equal(dl->data, ng_tensor_data(view));
    assert_ptr_equal(dl->data, (float *)ng_tensor_data(t) + 2);
    /* Element (i, j) through the DLPack description is column 2-i of row j of the base. */
    const float *first = (const float *)((const char *)dl->data + dl->byte_offset);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            assert_true(first[i * dl->strides[0] + j * dl->strides[1]] == (float)(j * 3 + 2 - i));
    ng_tensor_release(view);
    ng_tensor_release(tail);
    ng_tensor_release(t);
    m->deleter(m);
}

static void export_maps_every_dtype_but_bool(void **state) {
    (void)state;
    const struct {
        ng_dtype_t dt;
        uint8_t code, bits;
    } cases[] = {{NG_INT32, kDLInt, 32},
                 {NG_INT64, kDLInt, 64},
                 {NG_UINT8, kDLUInt, 8},
                 {NG_FLOAT32, kDLFloat, 32},
                 {NG_FLOAT64, kDLFloat, 64}};
    const int64_t shape[] = {3};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        ng_tensor_t *t = ng_tensor_create(cases[c].dt, shape, 1);
        DLManagedTensor *m = NULL;
        assert_int_equal(ng_tensor_to_dlpack(t, &m), NG_OK);
        assert_int_equal(m->dl_tensor.dtype.code, cases[c].code);
        assert_int_equal(m->dl_tensor.dtype.bits, cases[c].bits);
        m->deleter(m);
        ng_tensor_release(t);
    }
    ng_tensor_t *b = ng_tensor_create(NG_BOOL, shape, 1);
    DLManagedTensor *m = (DLManagedTensor *)&m; /* must be reset to NULL */
    assert_int_equal(ng_tensor_to_dlpack(b, &m), NG_ERR_DTYPE);
    assert_null(m);
    expect_failure(NG_ERR_DTYPE, "ng_tensor_to_dlpack");
    assert_non_null(strstr(ng_last_error(), "bool"));
    ng_tensor_release(b);
}

static void export_rejects_bad_arguments(void **state) {
    (void)state;
    DLManagedTensor *m = (DLManagedTensor *)&m;
    assert_int_equal(ng_tensor_to_dlpack(NULL, &m), NG_ERR_INVALID_ARGUMENT);
    assert_null(m);
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_to_dlpack");
    assert_int_equal(ng_tensor_to_dlpack(fake_tensor_handle(), &m), NG_ERR_INVALID_ARGUMENT);
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_to_dlpack");
    ng_tensor_t *t = ramp_2x3();
    assert_int_equal(ng_tensor_to_dlpack(t, NULL), NG_ERR_INVALID_ARGUMENT);
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_to_dlpack");
    ng_tensor_release(t);
}

/* A producer's DLManagedTensor over a static buffer, counting its deleter calls. */
typedef struct {
    DLManagedTensor managed;
    int64_t shape[2];
    int64_t strides[2];
    int deleted;
    pthread_t thread;
} producer;

static void producer_deleter(DLManagedTensor *self) {
    producer *p = (producer *)self->manager_ctx;
    __atomic_add_fetch(&p->deleted, 1, __ATOMIC_SEQ_CST);
    p->thread = pthread_self();
}

static void make_producer(producer *p, void *data, DLDataType type, int64_t rows, int64_t cols) {
    memset(p, 0, sizeof *p);
    p->shape[0] = rows;
    p->shape[1] = cols;
    p->managed.dl_tensor.data = data;
    p->managed.dl_tensor.device.device_type = kDLCPU;
    p->managed.dl_tensor.ndim = 2;
    p->managed.dl_tensor.dtype = type;
    p->managed.dl_tensor.shape = p->shape;
    p->managed.dl_tensor.strides = NULL;
    p->managed.manager_ctx = p;
    p->managed.deleter = producer_deleter;
}

static const DLDataType kFloat64 = {kDLFloat, 64, 1};

static void import_is_zero_copy_and_owns_until_the_last_view(void **state) {
    (void)state;
    double buffer[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    producer p;
    make_producer(&p, buffer, kFloat64, 2, 3);
    p.managed.dl_tensor.byte_offset = 2 * sizeof(double); /* starts at buffer[2] */
    ng_tensor_t *t = ng_tensor_from_dlpack(&p.managed);
    assert_non_null(t);
    expect_ok();
    assert_int_equal(ng_tensor_dtype(t), NG_FLOAT64);
    assert_ptr_equal(ng_tensor_data(t), buffer + 2);
    assert_int_equal(ng_tensor_stride(t, 0), 3); /* NULL strides: row-major */
    assert_int_equal(ng_tensor_stride(t, 1), 1);
    double out[6];
    assert_int_equal(ng_tensor_read(t, out, sizeof out), NG_OK);
    for (int i = 0; i < 6; ++i) assert_true(out[i] == (double)(i + 2));
    /* Shared memory: a write through nanograph is in the producer's buffer. */
    ((double *)ng_tensor_data(t))[0] = -1;
    assert_true(buffer[2] == -1);

    ng_tensor_t *view = ng_tensor_transpose(t);
    ng_tensor_release(t);
    assert_int_equal(p.deleted, 0);
    /* The last reference goes on another thread: the deleter runs there, once. */
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, release_on_thread, view), 0);
    pthread_join(thread, NULL);
    assert_int_equal(p.deleted, 1);
    assert_true(pthread_equal(p.thread, thread));
}

static void import_honours_negative_strides(void **state) {
    (void)state;
    double buffer[6] = {0, 1, 2, 3, 4, 5};
    producer p;
    make_producer(&p, buffer, kFloat64, 2, 3);
    /* Rows reversed: element (0, 0) is buffer[3]. */
    p.strides[0] = -3;
    p.strides[1] = 1;
    p.managed.dl_tensor.strides = p.strides;
    p.managed.dl_tensor.byte_offset = 3 * sizeof(double);
    ng_tensor_t *t = ng_tensor_from_dlpack(&p.managed);
    assert_non_null(t);
    double out[6];
    assert_int_equal(ng_tensor_read(t, out, sizeof out), NG_OK);
    const double expected[] = {3, 4, 5, 0, 1, 2};
    assert_memory_equal(out, expected, sizeof out);
    ng_tensor_release(t);
    assert_int_equal(p.deleted, 1);
}

static void import_accepts_the_later_bool_code(void **state) {
    (void)state;
    uint8_t buffer[4] = {1, 0, 0, 1};
    producer p;
    const DLDataType boolean = {6, 8, 1}; /* kDLBool in DLPack >= 0.8 */
    make_producer(&p, buffer, boolean, 2, 2);
    ng_tensor_t *t = ng_tensor_from_dlpack(&p.managed);
    assert_non_null(t);
    assert_int_equal(ng_tensor_dtype(t), NG_BOOL);
    ng_tensor_release(t);
    assert_int_equal(p.deleted, 1);
}

static void round_trip_through_dlpack_shares_memory(void **state) {
    (void)state;
    deleter_record record = {0};
    int64_t buffer[6] = {10, 20, 30, 40, 50, 60};
    const int64_t shape[] = {3, 2};
    ng_tensor_t *t = ng_tensor_wrap(NG_INT64, shape, NULL, 2, buffer, counting_deleter, &record);
    ng_tensor_t *cols = ng_tensor_slice(t, 1, 1, 2, 1); /* the second column */
    DLManagedTensor *m = NULL;
    assert_int_equal(ng_tensor_to_dlpack(cols, &m), NG_OK);
    ng_tensor_release(cols);
    ng_tensor_t *back = ng_tensor_from_dlpack(m);
    assert_non_null(back);
    assert_ptr_equal(ng_tensor_data(back), buffer + 1);
    assert_int_equal(ng_tensor_dim(back, 0), 3);
    assert_int_equal(ng_tensor_stride(back, 0), 2);
    int64_t out[3];
    assert_int_equal(ng_tensor_read(back, out, sizeof out), NG_OK);
    assert_true(out[0] == 20 && out[1] == 40 && out[2] == 60);
    ng_tensor_release(t);
    assert_int_equal(record.calls, 0); /* the import holds the export, which holds the storage */
    ng_tensor_release(back);
    assert_int_equal(record.calls, 1);
    assert_ptr_equal(record.data, buffer);
}

/* The import fails with `status`, names the function, and leaves m with its producer. */
static void expect_refused(producer *p, ng_status_t status, const char *mentions) {
    assert_null(ng_tensor_from_dlpack(&p->managed));
    expect_failure(status, "ng_tensor_from_dlpack");
    if (mentions != NULL) assert_non_null(strstr(ng_last_error(), mentions));
    assert_int_equal(p->deleted, 0);
}

static void failed_imports_take_nothing(void **state) {
    (void)state;
    float buffer[6] = {0};
    producer p;
    const DLDataType f32 = {kDLFloat, 32, 1};

    assert_null(ng_tensor_from_dlpack(NULL));
    expect_failure(NG_ERR_INVALID_ARGUMENT, "ng_tensor_from_dlpack");

    make_producer(&p, buffer, f32, 2, 3);
    p.managed.dl_tensor.device.device_type = kDLCUDA;
    expect_refused(&p, NG_ERR_UNSUPPORTED, "CPU");

    make_producer(&p, buffer, f32, 2, 3);
    p.managed.dl_tensor.dtype.lanes = 4;
    expect_refused(&p, NG_ERR_UNSUPPORTED, "lanes");

    const DLDataType half = {kDLFloat, 16, 1}, complex64 = {kDLComplex, 64, 1};
    make_producer(&p, buffer, half, 2, 3);
    expect_refused(&p, NG_ERR_DTYPE, "16 bits");
    make_producer(&p, buffer, complex64, 2, 3);
    expect_refused(&p, NG_ERR_DTYPE, NULL);

    make_producer(&p, buffer, f32, 2, 3);
    p.managed.dl_tensor.ndim = -1;
    expect_refused(&p, NG_ERR_INVALID_ARGUMENT, "ndim");

    make_producer(&p, buffer, f32, 2, 3);
    p.managed.dl_tensor.shape = NULL;
    expect_refused(&p, NG_ERR_INVALID_ARGUMENT, "shape is NULL");

    make_producer(&p, NULL, f32, 2, 3);
    expect_refused(&p, NG_ERR_INVALID_ARGUMENT, "data is NULL");

    make_producer(&p, buffer, f32, -2, 3);
    expect_refused(&p, NG_ERR_INVALID_ARGUMENT, "-2");

    make_producer(&p, buffer, f32, INT64_MAX, 3);
    expect_refused(&p, NG_ERR_INVALID_ARGUMENT, "overflows");

    make_producer(&p, buffer, f32, 2, 3);
    p.managed.dl_tensor.byte_offset = 2; /* element (0, 0) not aligned to 4 bytes */
    expect_refused(&p, NG_ERR_INVALID_ARGUMENT, "aligned");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(export_describes_the_tensor),
        cmocka_unit_test(export_of_views_points_at_their_first_element),
        cmocka_unit_test(export_maps_every_dtype_but_bool),
        cmocka_unit_test(export_rejects_bad_arguments),
        cmocka_unit_test(import_is_zero_copy_and_owns_until_the_last_view),
        cmocka_unit_test(import_honours_negative_strides),
        cmocka_unit_test(import_accepts_the_later_bool_code),
        cmocka_unit_test(round_trip_through_dlpack_shares_memory),
        cmocka_unit_test(failed_imports_take_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
