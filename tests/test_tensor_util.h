/* Helpers shared by the tensor and DLPack tests. */
#ifndef NG_TEST_TENSOR_UTIL_H
#define NG_TEST_TENSOR_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>

#include "nanograph/nanograph.h"

/* The last call failed with `status` and its message starts with "function: ". */
static inline void expect_failure(ng_status_t status, const char *function) {
    assert_int_equal(ng_last_status(), status);
    const char *message = ng_last_error();
    size_t n = strlen(function);
    if (strncmp(message, function, n) != 0 || strncmp(message + n, ": ", 2) != 0)
        fail_msg("error \"%s\" does not start with \"%s: \"", message, function);
}

static inline void expect_ok(void) {
    assert_int_equal(ng_last_status(), NG_OK);
    assert_string_equal(ng_last_error(), "");
}

/* An object of another kind: its first word is not the tensor tag ("NGGR", a graph's). */
static inline ng_tensor_t *fake_tensor_handle(void) {
    static uint64_t not_a_tensor[16] = {0x4e474752u};
    return (ng_tensor_t *)not_a_tensor;
}

/* Counts deleter calls and remembers the thread of the last one. */
typedef struct {
    int calls;
    void *data;
    pthread_t thread;
} deleter_record;

static inline void counting_deleter(void *data, void *ctx) {
    deleter_record *r = (deleter_record *)ctx;
    __atomic_add_fetch(&r->calls, 1, __ATOMIC_SEQ_CST);
    r->data = data;
    r->thread = pthread_self();
}

static inline void *release_on_thread(void *tensor) {
    ng_tensor_release((ng_tensor_t *)tensor);
    return NULL;
}

/* The dense row-major float contents of a float32 tensor, read through the C API. */
static inline void read_floats(const ng_tensor_t *t, float *out, size_t count) {
    assert_int_equal(ng_tensor_numel(t), (int64_t)count);
    assert_int_equal(ng_tensor_read(t, out, count * sizeof(float)), NG_OK);
}

#endif
