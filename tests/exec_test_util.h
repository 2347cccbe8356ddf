/* Helpers shared by the tests/test_exec_*.c programs: tensors from doubles in any dtype, one-shot
 * compile-and-run of a graph, results read back as doubles, and error assertions.
 * Header-only, every function static. Include after <cmocka.h>. */
#ifndef NG_TESTS_EXEC_TEST_UTIL_H
#define NG_TESTS_EXEC_TEST_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nanograph/nanograph.h"

/* Dense row-major tensor of dtype dt holding the values v (converted like a C cast). */
static inline ng_tensor_t *ex_tensor(ng_dtype_t dt, const int64_t *shape, int32_t rank,
                                     const double *v) {
    int64_t n = 1;
    for (int32_t i = 0; i < rank; ++i) n *= shape[i];
    void *buf = malloc((size_t)(n > 0 ? n : 1) * ng_dtype_size(dt));
    assert_non_null(buf);
    for (int64_t i = 0; i < n; ++i) {
        switch (dt) {
        case NG_FLOAT32: ((float *)buf)[i] = (float)v[i]; break;
        case NG_FLOAT64: ((double *)buf)[i] = v[i]; break;
        case NG_INT32: ((int32_t *)buf)[i] = (int32_t)v[i]; break;
        case NG_INT64: ((int64_t *)buf)[i] = (int64_t)v[i]; break;
        case NG_UINT8: ((uint8_t *)buf)[i] = (uint8_t)v[i]; break;
        case NG_BOOL: ((uint8_t *)buf)[i] = v[i] != 0; break;
        default: fail_msg("ex_tensor: dtype %d", (int)dt);
        }
    }
    ng_tensor_t *t = ng_tensor_from_data(dt, shape, rank, buf);
    free(buf);
    assert_non_null(t);
    return t;
}

/* Reads every element of t (any strides, any dtype) into out, which holds numel doubles. */
static inline void ex_read(const ng_tensor_t *t, double *out) {
    int64_t n = ng_tensor_numel(t);
    ng_dtype_t dt = ng_tensor_dtype(t);
    size_t bytes = (size_t)n * ng_dtype_size(dt);
    void *buf = malloc(bytes ? bytes : 1);
    assert_non_null(buf);
    assert_int_equal(ng_tensor_read(t, buf, bytes), NG_OK);
    for (int64_t i = 0; i < n; ++i) {
        switch (dt) {
        case NG_FLOAT32: out[i] = ((const float *)buf)[i]; break;
        case NG_FLOAT64: out[i] = ((const double *)buf)[i]; break;
        case NG_INT32: out[i] = ((const int32_t *)buf)[i]; break;
        case NG_INT64: out[i] = (double)((const int64_t *)buf)[i]; break;
        case NG_UINT8:
        case NG_BOOL: out[i] = ((const uint8_t *)buf)[i]; break;
        default: fail_msg("ex_read: dtype %d", (int)dt);
        }
    }
    free(buf);
}

/* Compiles result over params, runs it once on inputs and returns the output tensor (owned by
 * the caller). The transformer is destroyed before returning: results outlive it. */
static inline ng_tensor_t *ex_run(ng_graph_t *g, ng_op_t *result, ng_op_t *const *params,
                                  ng_tensor_t *const *inputs, int32_t n) {
    assert_int_equal(ng_graph_status(g), NG_OK);
    assert_non_null(result);
    ng_transformer_t *t = ng_transformer_create(NULL);
    assert_non_null(t);
    ng_computation_t *c = ng_computation_create(t, &result, 1, params, n);
    if (c == NULL) fail_msg("compile failed: %s", ng_last_error());
    ng_tensor_t *out[1] = {NULL};
    ng_status_t s = ng_computation_run(c, inputs, n, out, 1);
    if (s != NG_OK) fail_msg("run failed: %s", ng_last_error());
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    return out[0];
}

/* ex_run, then the output's elements as doubles in out (capacity cap) and its dtype checked. */
static inline void ex_run_read(ng_graph_t *g, ng_op_t *result, ng_op_t *const *params,
                               ng_tensor_t *const *inputs, int32_t n, ng_dtype_t want_dtype,
                               double *out, int64_t want_numel) {
    ng_tensor_t *r = ex_run(g, result, params, inputs, n);
    assert_int_equal(ng_tensor_dtype(r), want_dtype);
    assert_int_equal(ng_tensor_numel(r), want_numel);
    ex_read(r, out);
    ng_tensor_release(r);
}

/* |got - want| <= tol * max(1, |want|), reporting the index on failure. */
static inline void ex_assert_close(const double *got, const double *want, int64_t n, double tol,
                                   const char *what) {
    for (int64_t i = 0; i < n; ++i) {
        double scale = fabs(want[i]) > 1 ? fabs(want[i]) : 1;
        if (!(fabs(got[i] - want[i]) <= tol * scale))
            fail_msg("%s[%lld]: got %.17g, want %.17g (tol %g)", what, (long long)i, got[i],
                     want[i], tol);
    }
}

/* Relative tolerance of a dtype for results of a few thousand terms: exact for integers. */
static inline double ex_tol(ng_dtype_t dt) {
    return dt == NG_FLOAT32 ? 1e-5 : dt == NG_FLOAT64 ? 1e-12 : 0;
}

static inline void ex_assert_error(ng_status_t got, ng_status_t want, const char *function) {
    assert_int_equal(got, want);
    assert_int_equal(ng_last_status(), want);
    if (strstr(ng_last_error(), function) == NULL)
        fail_msg("'%s' does not name %s", ng_last_error(), function);
}

/* Small signed integers (exact in every dtype and in float32 sums of thousands of terms). */
static inline double ex_value(int64_t i, int salt) {
    return (double)((i * 7 + salt * 13 + 3) % 11) - 5;
}

#endif
