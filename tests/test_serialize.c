/* Tensors as TensorFlow's TensorProto: golden bytes written by hand from the protobuf wire format
 * (a tag is a varint of field_number << 3 | wire_type; wire type 0 is a varint, 2 a length and
 * that many bytes, 5 four bytes), round trips of every dtype, rank 0, empty tensors and views,
 * the typed *_val fields with TensorFlow's completion by the last value, and damaged messages. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "test_tensor_util.h"

#include "expect_error.h"

/* TensorProto: dtype = 1 (0x08), tensor_shape = 2 (0x12), tensor_content = 4 (0x22),
 * float_val = 5 (0x2a packed, 0x2d unpacked), double_val = 6 (0x32), int_val = 7 (0x3a),
 * string_val = 8 (0x42), int64_val = 10 (0x52), bool_val = 11 (0x5a).
 * TensorShapeProto: dim = 2 (0x12), unknown_rank = 3 (0x18); Dim: size = 1 (0x08).
 * DataType: DT_FLOAT 1, DT_DOUBLE 2, DT_INT32 3, DT_UINT8 4, DT_STRING 7, DT_INT64 9,
 * DT_BOOL 10, DT_FLOAT_REF 101. */

static void expect_bytes(ng_tensor_t *t, const uint8_t *golden, size_t golden_size) {
    void *bytes = NULL;
    size_t size = 0;
    assert_int_equal(ng_tensor_serialize(t, &bytes, &size), NG_OK);
    expect_no_error();
    assert_non_null(bytes);
    if (size != golden_size) fail_msg("serialized %zu bytes, expected %zu", size, golden_size);
    assert_memory_equal(bytes, golden, golden_size);
    ng_free(bytes);
}

static ng_tensor_t *parse(const uint8_t *bytes, size_t size) {
    ng_tensor_t *t = ng_tensor_deserialize(bytes, size);
    if (!t) fail_msg("ng_tensor_deserialize failed: %s", ng_last_error());
    expect_no_error();
    return t;
}

static void expect_shape(const ng_tensor_t *t, ng_dtype_t dt, int32_t rank, const int64_t *dims) {
    assert_int_equal(ng_tensor_dtype(t), dt);
    assert_int_equal(ng_tensor_rank(t), rank);
    for (int32_t i = 0; i < rank; ++i) assert_int_equal(ng_tensor_dim(t, i), dims[i]);
}

static void refused(const uint8_t *bytes, size_t size, ng_status_t status, const char *detail) {
    ng_tensor_t *t = ng_tensor_deserialize(bytes, size);
    if (t) {
        ng_tensor_release(t);
        fail_msg("a damaged message was accepted (expected %s)", ng_status_string(status));
    }
    expect_error(status, "ng_tensor_deserialize", detail);
}

/* ---- golden bytes of ng_tensor_serialize --------------------------------------------------- */

static void float_scalar_golden(void **state) {
    (void)state;
    const float v = 1.5f; /* 0x3fc00000 */
    ng_tensor_t *t = ng_tensor_from_data(NG_FLOAT32, NULL, 0, &v);
    /* dtype DT_FLOAT; an empty shape (present, no dims); 4 bytes of content */
    const uint8_t golden[] = {0x08, 0x01, 0x12, 0x00, 0x22, 0x04, 0x00, 0x00, 0xc0, 0x3f};
    expect_bytes(t, golden, sizeof golden);
    ng_tensor_release(t);
}

static const uint8_t int32_2x3_golden[] = {
    0x08, 0x03,                                           /* dtype DT_INT32 */
    0x12, 0x08, 0x12, 0x02, 0x08, 0x02,                   /* shape { dim { size 2 } */
    0x12, 0x02, 0x08, 0x03,                               /*         dim { size 3 } } */
    0x22, 0x18,                                           /* 24 bytes of content */
    1,    0,    0,    0,    2,    0,    0, 0, 3, 0, 0, 0, /* row 0 */
    4,    0,    0,    0,    5,    0,    0, 0, 6, 0, 0, 0, /* row 1 */
};

static void int32_matrix_golden(void **state) {
    (void)state;
    const int64_t shape[] = {2, 3};
    const int32_t values[] = {1, 2, 3, 4, 5, 6};
    ng_tensor_t *t = ng_tensor_from_data(NG_INT32, shape, 2, values);
    expect_bytes(t, int32_2x3_golden, sizeof int32_2x3_golden);
    ng_tensor_release(t);
}

static void uint8_long_vector_golden(void **state) {
    (void)state;
    /* 300 elements: the dim and the content length are two-byte varints (300 = 0xac 0x02). */
    const int64_t shape[] = {300};
    uint8_t values[300];
    for (int i = 0; i < 300; ++i) values[i] = (uint8_t)(i * 7);
    ng_tensor_t *t = ng_tensor_from_data(NG_UINT8, shape, 1, values);
    uint8_t golden[3 + 2 + 5 + 3 + 300] = {0x08, 0x04,                               /* DT_UINT8 */
                                           0x12, 0x05, 0x12, 0x03, 0x08, 0xac, 0x02, /* (300) */
                                           0x22, 0xac, 0x02};
    const size_t header = 12;
    memcpy(golden + header, values, 300);
    expect_bytes(t, golden, header + 300);
    ng_tensor_release(t);
}

static void bool_int64_float64_golden(void **state) {
    (void)state;
    const int64_t two[] = {2};
    const uint8_t flags[] = {1, 0};
    ng_tensor_t *b = ng_tensor_from_data(NG_BOOL, two, 1, flags);
    const uint8_t bool_golden[] = {0x08, 0x0a, 0x12, 0x04, 0x12, 0x02,
                                   0x08, 0x02, 0x22, 0x02, 0x01, 0x00};
    expect_bytes(b, bool_golden, sizeof bool_golden);
    ng_tensor_release(b);

    const int64_t minus_one = -1;
    ng_tensor_t *i = ng_tensor_from_data(NG_INT64, NULL, 0, &minus_one);
    const uint8_t int64_golden[] = {0x08, 0x09, 0x12, 0x00, 0x22, 0x08, 0xff,
                                    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    expect_bytes(i, int64_golden, sizeof int64_golden);
    ng_tensor_release(i);

    /* float64 of shape (0, 3): a dim of size 0 is an empty Dim message (proto3 omits zeros);
     * no elements, so no content field at all. */
    const int64_t empty[] = {0, 3};
    ng_tensor_t *d = ng_tensor_create(NG_FLOAT64, empty, 2);
    const uint8_t empty_golden[] = {0x08, 0x02, 0x12, 0x06, 0x12, 0x00, 0x12, 0x02, 0x08, 0x03};
    expect_bytes(d, empty_golden, sizeof empty_golden);
    ng_tensor_release(d);
}

static void view_serializes_its_logical_content(void **state) {
    (void)state;
    /* The transpose of (3, 2) [[1, 4], [2, 5], [3, 6]] is the (2, 3) tensor of the golden. */
    const int64_t shape[] = {3, 2};
    const int32_t values[] = {1, 4, 2, 5, 3, 6};
    ng_tensor_t *t = ng_tensor_from_data(NG_INT32, shape, 2, values);
    ng_tensor_t *view = ng_tensor_transpose(t);
    assert_int_equal(ng_tensor_is_contiguous(view), 0);
    expect_bytes(view, int32_2x3_golden, sizeof int32_2x3_golden);
    ng_tensor_release(view);

    /* A reversed slice with a step: (6) [0..5] -> elements 5, 3, 1 */
    const int64_t six[] = {6};
    const float ramp[] = {0, 1, 2, 3, 4, 5};
    ng_tensor_t *r = ng_tensor_from_data(NG_FLOAT32, six, 1, ramp);
    ng_tensor_t *s = ng_tensor_slice(r, 0, 5, INT64_MIN, -2);
    assert_non_null(s);
    const uint8_t slice_golden[] = {0x08, 0x01, 0x12, 0x04, 0x12, 0x02, 0x08,
                                    0x03, 0x22, 0x0c, 0x00, 0x00, 0xa0, 0x40, /* 5.0f */
                                    0x00, 0x00, 0x40, 0x40,                   /* 3.0f */
                                    0x00, 0x00, 0x80, 0x3f /* 1.0f */};
    expect_bytes(s, slice_golden, sizeof slice_golden);
    ng_tensor_release(s);

    /* A broadcast view (stride 0) writes every element it shows. */
    const int64_t wide[] = {2, 6};
    ng_tensor_t *bc = ng_tensor_broadcast(r, wide, 2);
    assert_non_null(bc);
    void *bytes = NULL;
    size_t size = 0;
    assert_int_equal(ng_tensor_serialize(bc, &bytes, &size), NG_OK);
    ng_tensor_t *back = parse(bytes, size);
    ng_free(bytes);
    expect_shape(back, NG_FLOAT32, 2, wide);
    const float *got = ng_tensor_data(back);
    for (int i = 0; i < 12; ++i) assert_true(got[i] == ramp[i % 6]);
    ng_tensor_release(back);
    ng_tensor_release(bc);
    ng_tensor_release(r);
    ng_tensor_release(t);
}

/* ---- ng_tensor_deserialize of hand-written messages ---------------------------------------- */

static void golden_bytes_parse(void **state) {
    (void)state;
    ng_tensor_t *t = parse(int32_2x3_golden, sizeof int32_2x3_golden);
    const int64_t dims[] = {2, 3};
    expect_shape(t, NG_INT32, 2, dims);
    const int32_t *v = ng_tensor_data(t);
    for (int i = 0; i < 6; ++i) assert_int_equal(v[i], i + 1);
    ng_tensor_release(t);

    /* A scalar without any tensor_shape field, as TensorFlow may write it. */
    const uint8_t no_shape[] = {0x08, 0x01, 0x22, 0x04, 0x00, 0x00, 0xc0, 0x3f};
    t = parse(no_shape, sizeof no_shape);
    expect_shape(t, NG_FLOAT32, 0, NULL);
    assert_true(*(const float *)ng_tensor_data(t) == 1.5f);
    ng_tensor_release(t);

    /* Fields in another order than the writer's are the same message. */
    const uint8_t reordered[] = {0x22, 0x02, 0x00, 0x07, 0x12, 0x04,
                                 0x12, 0x02, 0x08, 0x02, 0x08, 0x0a};
    t = parse(reordered, sizeof reordered);
    const int64_t two[] = {2};
    expect_shape(t, NG_BOOL, 1, two);
    const uint8_t *b = ng_tensor_data(t);
    assert_int_equal(b[0], 0);
    assert_int_equal(b[1], 1); /* any non-zero byte is true, stored as 1 */
    ng_tensor_release(t);
}

static void typed_values_and_single_value_broadcast(void **state) {
    (void)state;
    /* float (2, 2) with float_val [2.5]: one value fills the shape. */
    const uint8_t splat[] = {0x08, 0x01, 0x12, 0x08, 0x12, 0x02, 0x08, 0x02, 0x12,
                             0x02, 0x08, 0x02, 0x2a, 0x04, 0x00, 0x00, 0x20, 0x40};
    ng_tensor_t *t = parse(splat, sizeof splat);
    const int64_t d22[] = {2, 2};
    expect_shape(t, NG_FLOAT32, 2, d22);
    for (int i = 0; i < 4; ++i) assert_true(((const float *)ng_tensor_data(t))[i] == 2.5f);
    ng_tensor_release(t);

    /* float (3) with float_val [1, 2] unpacked (two 0x2d fields): the last value repeats. */
    const uint8_t partial[] = {0x08, 0x01, 0x12, 0x04, 0x12, 0x02, 0x08, 0x03, 0x2d,
                               0x00, 0x00, 0x80, 0x3f, 0x2d, 0x00, 0x00, 0x00, 0x40};
    t = parse(partial, sizeof partial);
    const float *f = ng_tensor_data(t);
    assert_true(f[0] == 1.0f && f[1] == 2.0f && f[2] == 2.0f);
    ng_tensor_release(t);

    /* double (2) with double_val [-0.5] */
    const uint8_t dbl[] = {0x08, 0x02, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02, 0x32,
                           0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xe0, 0xbf};
    t = parse(dbl, sizeof dbl);
    const double *d = ng_tensor_data(t);
    assert_true(d[0] == -0.5 && d[1] == -0.5);
    ng_tensor_release(t);

    /* int32 (3) with int_val [-1, 300]: -1 is a ten-byte varint. */
    const uint8_t ints[] = {0x08, 0x03, 0x12, 0x04, 0x12, 0x02, 0x08, 0x03, 0x3a, 0x0c, 0xff,
                            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0xac, 0x02};
    t = parse(ints, sizeof ints);
    const int32_t *i32 = ng_tensor_data(t);
    assert_int_equal(i32[0], -1);
    assert_int_equal(i32[1], 300);
    assert_int_equal(i32[2], 300);
    ng_tensor_release(t);

    /* uint8 (3) with int_val [7, 8, 255] */
    const uint8_t bytes[] = {0x08, 0x04, 0x12, 0x04, 0x12, 0x02, 0x08,
                             0x03, 0x3a, 0x04, 0x07, 0x08, 0xff, 0x01};
    t = parse(bytes, sizeof bytes);
    const uint8_t *u8 = ng_tensor_data(t);
    assert_int_equal(u8[0], 7);
    assert_int_equal(u8[1], 8);
    assert_int_equal(u8[2], 255);
    ng_tensor_release(t);

    /* int64 scalar with int64_val [2^40] = 0x80 0x80 0x80 0x80 0x80 0x20 */
    const uint8_t big[] = {0x08, 0x09, 0x12, 0x00, 0x52, 0x06, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20};
    t = parse(big, sizeof big);
    assert_true(*(const int64_t *)ng_tensor_data(t) == ((int64_t)1 << 40));
    ng_tensor_release(t);

    /* bool (3) with bool_val [true, false]: the last (false) repeats. */
    const uint8_t bools[] = {0x08, 0x0a, 0x12, 0x04, 0x12, 0x02,
                             0x08, 0x03, 0x5a, 0x02, 0x01, 0x00};
    t = parse(bools, sizeof bools);
    const uint8_t *bv = ng_tensor_data(t);
    assert_int_equal(bv[0], 1);
    assert_int_equal(bv[1], 0);
    assert_int_equal(bv[2], 0);
    ng_tensor_release(t);

    /* float (2) with no values at all: zeros, as in TensorFlow. */
    const uint8_t none[] = {0x08, 0x01, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02};
    t = parse(none, sizeof none);
    assert_true(((const float *)ng_tensor_data(t))[0] == 0.0f);
    assert_true(((const float *)ng_tensor_data(t))[1] == 0.0f);
    ng_tensor_release(t);

    /* tensor_content wins over a typed field. */
    const uint8_t both[] = {0x08, 0x01, 0x22, 0x04, 0x00, 0x00, 0x80,
                            0x3f, 0x2a, 0x04, 0x00, 0x00, 0x00, 0x40};
    t = parse(both, sizeof both);
    assert_true(*(const float *)ng_tensor_data(t) == 1.0f);
    ng_tensor_release(t);
}

/* ---- round trips ---------------------------------------------------------------------------- */

static void round_trip(ng_tensor_t *t) {
    void *bytes = NULL;
    size_t size = 0;
    assert_int_equal(ng_tensor_serialize(t, &bytes, &size), NG_OK);
    ng_tensor_t *back = parse(bytes, size);
    ng_free(bytes);
    assert_int_equal(ng_tensor_dtype(back), ng_tensor_dtype(t));
    assert_int_equal(ng_tensor_rank(back), ng_tensor_rank(t));
    for (int32_t i = 0; i < ng_tensor_rank(t); ++i)
        assert_int_equal(ng_tensor_dim(back, i), ng_tensor_dim(t, i));
    size_t n = (size_t)ng_tensor_numel(t) * ng_dtype_size(ng_tensor_dtype(t));
    uint8_t *want = malloc(n + 1), *got = malloc(n + 1);
    assert_int_equal(ng_tensor_read(t, want, n), NG_OK);
    assert_int_equal(ng_tensor_read(back, got, n), NG_OK);
    assert_memory_equal(want, got, n);
    free(want);
    free(got);
    ng_tensor_release(back);
}

static void round_trips_every_dtype_and_rank(void **state) {
    (void)state;
    const ng_dtype_t dtypes[] = {NG_BOOL, NG_INT32, NG_INT64, NG_UINT8, NG_FLOAT32, NG_FLOAT64};
    const int64_t shapes[][3] = {{1, 1, 1}, {5, 1, 1}, {2, 3, 1}, {2, 3, 4}, {0, 1, 1}, {3, 0, 2}};
    const int32_t ranks[] = {0, 1, 2, 3, 1, 3};
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d) {
        for (size_t s = 0; s < sizeof ranks / sizeof ranks[0]; ++s) {
            ng_tensor_t *t = ng_tensor_create(dtypes[d], shapes[s], ranks[s]);
            assert_non_null(t);
            uint8_t *p = ng_tensor_data(t);
            size_t n = (size_t)ng_tensor_numel(t) * ng_dtype_size(dtypes[d]);
            for (size_t i = 0; i < n; ++i) p[i] = (uint8_t)(i * 37 + 11);
            if (dtypes[d] == NG_BOOL)
                for (size_t i = 0; i < n; ++i) p[i] &= 1;
            if (dtypes[d] == NG_FLOAT32 || dtypes[d] == NG_FLOAT64) /* values, incl. NaN bits */
                for (size_t i = 0; i < n; ++i) p[i] = (uint8_t)(i * 13 + 1);
            round_trip(t);
            if (ranks[s] >= 2) { /* and a transposed view of it */
                ng_tensor_t *v = ng_tensor_transpose(t);
                round_trip(v);
                ng_tensor_release(v);
            }
            ng_tensor_release(t);
        }
    }
}

/* ---- damaged and refused messages ----------------------------------------------------------- */

/* Appends v as a varint; returns the new length. */
static size_t put_varint(uint8_t *out, size_t at, uint64_t v) {
    while (v >= 0x80) {
        out[at++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    out[at++] = (uint8_t)v;
    return at;
}

/* A float message with the given dims and `values` float_val values of 1.0 (0 = none). */
static size_t message_with_dims(uint8_t *out, const uint64_t *dims, int rank, int values) {
    uint8_t shape[128];
    size_t s = 0;
    for (int i = 0; i < rank; ++i) {
        uint8_t dim[16];
        size_t d = put_varint(dim, 0, 0x08);
        d = put_varint(dim, d, dims[i]);
        shape[s++] = 0x12;
        s = put_varint(shape, s, d);
        memcpy(shape + s, dim, d);
        s += d;
    }
    size_t n = 0;
    out[n++] = 0x08;
    out[n++] = 0x01;
    out[n++] = 0x12;
    n = put_varint(out, n, s);
    memcpy(out + n, shape, s);
    n += s;
    if (values > 0) {
        out[n++] = 0x2a;
        n = put_varint(out, n, (uint64_t)values * 4);
        for (int i = 0; i < values; ++i) {
            const uint8_t one[] = {0x00, 0x00, 0x80, 0x3f};
            memcpy(out + n, one, 4);
            n += 4;
        }
    }
    return n;
}

static void damaged_messages_are_format_errors(void **state) {
    (void)state;
    /* Every prefix of a valid message: a format error or (cut between fields) a valid tensor,
     * never a crash. Cut inside the content, it must be refused. */
    for (size_t n = 0; n < sizeof int32_2x3_golden; ++n) {
        ng_tensor_t *t = ng_tensor_deserialize(int32_2x3_golden, n);
        if (t)
            ng_tensor_release(t);
        else
            assert_int_equal(ng_last_status(), NG_ERR_FORMAT);
    }
    refused(int32_2x3_golden, sizeof int32_2x3_golden - 1, NG_ERR_FORMAT, "");

    /* content of 20 bytes for 6 int32 elements: a size mismatch */
    uint8_t short_content[sizeof int32_2x3_golden];
    memcpy(short_content, int32_2x3_golden, sizeof short_content);
    short_content[13] = 20;
    refused(short_content, sizeof short_content - 4, NG_ERR_FORMAT, "tensor_content");

    uint8_t m[512];
    uint64_t negative[] = {(uint64_t)-1};
    refused(m, message_with_dims(m, negative, 1, 0), NG_ERR_FORMAT, "dimension 0");
    uint64_t overflow[] = {(uint64_t)1 << 32, (uint64_t)1 << 32};
    refused(m, message_with_dims(m, overflow, 2, 1), NG_ERR_FORMAT, "overflow");
    /* the same product with a dim of 0 first: still refused (strides would overflow) */
    uint64_t empty_overflow[] = {0, (uint64_t)1 << 62, 4};
    refused(m, message_with_dims(m, empty_overflow, 3, 0), NG_ERR_FORMAT, "overflow");
    /* huge but representable: one value may not expand to 4 TiB */
    uint64_t huge[] = {(uint64_t)1 << 40};
    refused(m, message_with_dims(m, huge, 1, 1), NG_ERR_FORMAT, "MiB");
    refused(m, message_with_dims(m, huge, 1, 0), NG_ERR_FORMAT, "MiB");
    /* huge dims with content: the sizes disagree */
    size_t n = message_with_dims(m, huge, 1, 0);
    m[n++] = 0x22;
    m[n++] = 0x04;
    memset(m + n, 0, 4);
    refused(m, n + 4, NG_ERR_FORMAT, "tensor_content");
    /* more values than elements */
    uint64_t two[] = {2};
    refused(m, message_with_dims(m, two, 1, 3), NG_ERR_FORMAT, "3 values in float_val");

    const uint8_t unknown_rank[] = {0x08, 0x01, 0x12, 0x02, 0x18, 0x01};
    refused(unknown_rank, sizeof unknown_rank, NG_ERR_FORMAT, "unknown rank");
    const uint8_t other_field[] = {0x08, 0x01, 0x3a, 0x01, 0x05}; /* float with int_val */
    refused(other_field, sizeof other_field, NG_ERR_FORMAT, "other dtypes");
    const uint8_t uint8_range[] = {0x08, 0x04, 0x3a, 0x02, 0x80, 0x02}; /* uint8 = 256 */
    refused(uint8_range, sizeof uint8_range, NG_ERR_FORMAT, "256");
    const uint8_t garbage[] = {0xff, 0xff, 0xff, 0xff};
    refused(garbage, sizeof garbage, NG_ERR_FORMAT, "not a TensorProto");
    const uint8_t overlong[] = {0x22, 0x7f, 0x00}; /* a length past the end */
    refused(overlong, sizeof overlong, NG_ERR_FORMAT, "not a TensorProto");
    refused(NULL, 0, NG_ERR_FORMAT, "DT_INVALID"); /* the empty message: dtype 0 */
    const uint8_t no_type[] = {0x08, 0x4d};        /* 77: no DataType */
    refused(no_type, sizeof no_type, NG_ERR_FORMAT, "77");
}

/* A dimension's name (TensorFlow's Dim.name) is ignored, whatever its bytes: one that is not UTF-8
 * neither fails the parse nor makes protobuf print on the host's stderr (found by fuzzing). */
static void dimension_names_are_ignored_silently(void **state) {
    (void)state;
    /* DT_FLOAT, shape { dim { size 2, name "\xff\xfe" } }, 8 bytes of content */
    const uint8_t message[] = {0x08, 0x01, 0x12, 0x08, 0x12, 0x06, 0x08, 0x02, 0x12, 0x02, 0xff,
                               0xfe, 0x22, 0x08, 0,    0,    0x80, 0x3f, 0,    0,    0,    0x40};
    fflush(stderr);
    FILE *capture = tmpfile();
    assert_non_null(capture);
    const int saved = dup(STDERR_FILENO);
    assert_true(saved >= 0);
    assert_true(dup2(fileno(capture), STDERR_FILENO) >= 0);
    ng_tensor_t *t = ng_tensor_deserialize(message, sizeof message);
    fflush(stderr);
    assert_true(dup2(saved, STDERR_FILENO) >= 0);
    close(saved);
    const long printed = ftell(capture) >= 0 ? (fseek(capture, 0, SEEK_END), ftell(capture)) : -1;
    fclose(capture);
    if (!t) fail_msg("ng_tensor_deserialize failed: %s", ng_last_error());
    assert_int_equal(printed, 0);
    const int64_t two = 2;
    expect_shape(t, NG_FLOAT32, 1, &two);
    assert_true(((const float *)ng_tensor_data(t))[0] == 1.0f);
    assert_true(((const float *)ng_tensor_data(t))[1] == 2.0f);
    ng_tensor_release(t);
}

static void unsupported_types_and_bad_arguments(void **state) {
    (void)state;
    const uint8_t string[] = {0x08, 0x07, 0x12, 0x00, 0x42, 0x01, 0x61}; /* DT_STRING "a" */
    refused(string, sizeof string, NG_ERR_UNSUPPORTED, "DT_STRING");
    const uint8_t ref[] = {0x08, 0x65, 0x12, 0x00}; /* DT_FLOAT_REF */
    refused(ref, sizeof ref, NG_ERR_UNSUPPORTED, "DT_FLOAT_REF");

    const uint8_t one = 1;
    refused(NULL, 3, NG_ERR_INVALID_ARGUMENT, "bytes is NULL");
    (void)one;

    void *bytes = (void *)&one;
    size_t size = 7;
    assert_int_equal(ng_tensor_serialize(NULL, &bytes, &size), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_tensor_serialize", "t");
    assert_null(bytes);
    assert_int_equal(size, 0);
    ng_tensor_t *t = ng_tensor_create(NG_FLOAT32, NULL, 0);
    assert_int_equal(ng_tensor_serialize(t, NULL, &size), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_tensor_serialize", "bytes");
    assert_int_equal(ng_tensor_serialize(t, &bytes, NULL), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_tensor_serialize", "size");
    assert_null(bytes);
    ng_tensor_release(t);
    ng_free(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(float_scalar_golden),
        cmocka_unit_test(int32_matrix_golden),
        cmocka_unit_test(uint8_long_vector_golden),
        cmocka_unit_test(bool_int64_float64_golden),
        cmocka_unit_test(view_serializes_its_logical_content),
        cmocka_unit_test(golden_bytes_parse),
        cmocka_unit_test(typed_values_and_single_value_broadcast),
        cmocka_unit_test(round_trips_every_dtype_and_rank),
        cmocka_unit_test(damaged_messages_are_format_errors),
        cmocka_unit_test(dimension_names_are_ignored_silently),
        cmocka_unit_test(unsupported_types_and_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
