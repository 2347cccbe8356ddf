/* Version, status codes, dtypes and the thread-local error state (base.h). Expected values are
 * written out by hand from API.md, not taken from the library. */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "expect_error.h"
#include "nanograph/nanograph.h"

static void test_version_functions_match_macros(void **state) {
    (void)state;
    assert_int_equal(ng_version_number(),
                     NG_VERSION_MAJOR * 10000 + NG_VERSION_MINOR * 100 + NG_VERSION_PATCH);
    assert_string_equal(ng_version_string(), NG_VERSION_STRING);
    char from_macros[32];
    snprintf(from_macros, sizeof from_macros, "%d.%d.%d", NG_VERSION_MAJOR, NG_VERSION_MINOR,
             NG_VERSION_PATCH);
    assert_string_equal(NG_VERSION_STRING, from_macros);
    assert_int_equal(NG_VERSION_MAJOR, 0); /* the soname libnanograph.so.0 says so */
}

static void test_status_string_names_every_code(void **state) {
    (void)state;
    static const struct {
        ng_status_t code;
        int value;
        const char *name;
    } codes[] = {
        {NG_OK, 0, "NG_OK"},
        {NG_ERR_INVALID_ARGUMENT, 1, "NG_ERR_INVALID_ARGUMENT"},
        {NG_ERR_AXES, 2, "NG_ERR_AXES"},
        {NG_ERR_DTYPE, 3, "NG_ERR_DTYPE"},
        {NG_ERR_OUT_OF_MEMORY, 4, "NG_ERR_OUT_OF_MEMORY"},
        {NG_ERR_NOT_FOUND, 5, "NG_ERR_NOT_FOUND"},
        {NG_ERR_UNSUPPORTED, 6, "NG_ERR_UNSUPPORTED"},
        {NG_ERR_STATE, 7, "NG_ERR_STATE"},
        {NG_ERR_IO, 8, "NG_ERR_IO"},
        {NG_ERR_FORMAT, 9, "NG_ERR_FORMAT"},
        {NG_ERR_INTERNAL, 10, "NG_ERR_INTERNAL"},
    };
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; ++i) {
        /* Values are part of the ABI: they may only ever be appended. */
        assert_int_equal(codes[i].code, codes[i].value);
        assert_string_equal(ng_status_string(codes[i].code), codes[i].name);
    }
}

static void test_status_string_of_unknown_code(void **state) {
    (void)state;
    const ng_status_t unknown[] = {-1, 11, 99, INT32_MIN, INT32_MAX};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; ++i)
        assert_string_equal(ng_status_string(unknown[i]), "NG_ERR_UNKNOWN");
}

static const struct {
    ng_dtype_t dtype;
    int value;
    size_t size;
    const char *name;
} dtypes[] = {
    {NG_BOOL, 1, 1, "bool"},   {NG_INT32, 2, 4, "int32"},     {NG_INT64, 3, 8, "int64"},
    {NG_UINT8, 4, 1, "uint8"}, {NG_FLOAT32, 5, 4, "float32"}, {NG_FLOAT64, 6, 8, "float64"},
};
static const ng_dtype_t bad_dtypes[] = {0, 7, 99, -1, INT32_MIN, INT32_MAX};
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static void test_dtype_size_and_name_of_every_dtype(void **state) {
    (void)state;
    for (size_t i = 0; i < COUNT(dtypes); ++i) {
        assert_int_equal(dtypes[i].dtype, dtypes[i].value);
        assert_int_equal(ng_dtype_size(dtypes[i].dtype), dtypes[i].size);
        expect_no_error();
        assert_string_equal(ng_dtype_name(dtypes[i].dtype), dtypes[i].name);
    }
}

static void test_dtype_size_of_bad_dtype_fails_naming_it(void **state) {
    (void)state;
    for (size_t i = 0; i < COUNT(bad_dtypes); ++i) {
        char value[16];
        snprintf(value, sizeof value, "%d", (int)bad_dtypes[i]);
        assert_int_equal(ng_dtype_size(bad_dtypes[i]), 0);
        expect_error(NG_ERR_DTYPE, "ng_dtype_size", value);
    }
}

static void test_dtype_name_of_bad_dtype(void **state) {
    (void)state;
    for (size_t i = 0; i < COUNT(bad_dtypes); ++i)
        assert_string_equal(ng_dtype_name(bad_dtypes[i]), "invalid");
}

static void test_success_clears_the_previous_error(void **state) {
    (void)state;
    assert_int_equal(ng_dtype_size(99), 0);
    expect_error(NG_ERR_DTYPE, "ng_dtype_size", "99");
    assert_int_equal(ng_dtype_size(NG_INT32), 4);
    expect_no_error();
}

static void test_non_fallible_calls_keep_the_error(void **state) {
    (void)state;
    assert_int_equal(ng_dtype_size(7), 0);
    /* Queries that cannot fail must not hide the error a program is about to read. */
    assert_string_equal(ng_status_string(ng_last_status()), "NG_ERR_DTYPE");
    assert_string_equal(ng_dtype_name(42), "invalid");
    (void)ng_version_number();
    (void)ng_version_string();
    expect_error(NG_ERR_DTYPE, "ng_dtype_size", "7");
}

/* ---- thread-local errors ---------------------------------------------------------------------
 * Each worker fails with its own bad dtype while the others have failed with theirs (a barrier
 * makes every failure happen before any thread reads its error), then records what it sees. The
 * main thread asserts afterwards: CMocka's assertions may only run on the test's own thread. */
enum { WORKERS = 4 };

struct worker {
    pthread_barrier_t *barrier;
    ng_dtype_t bad_dtype;
    ng_status_t status_before;
    char error_before[256];
    size_t size;
    ng_status_t status_after;
    char error_after[256];
    int kept_own_error; /* after the main thread failed too */
};

static void *fail_on_own_thread(void *arg) {
    struct worker *w = arg;
    w->status_before = ng_last_status();
    snprintf(w->error_before, sizeof w->error_before, "%s", ng_last_error());
    w->size = ng_dtype_size(w->bad_dtype);
    pthread_barrier_wait(w->barrier); /* every worker has failed */
    w->status_after = ng_last_status();
    snprintf(w->error_after, sizeof w->error_after, "%s", ng_last_error());
    pthread_barrier_wait(w->barrier); /* every worker has read; main thread now fails too */
    pthread_barrier_wait(w->barrier); /* main thread has failed */
    w->kept_own_error =
        ng_last_status() == w->status_after && strcmp(ng_last_error(), w->error_after) == 0;
    return NULL;
}

static void test_errors_are_thread_local(void **state) {
    (void)state;
    assert_int_equal(ng_dtype_size(NG_FLOAT32), 4); /* the main thread starts clean */
    expect_no_error();

    pthread_barrier_t barrier;
    assert_int_equal(pthread_barrier_init(&barrier, NULL, WORKERS + 1), 0);
    struct worker workers[WORKERS];
    pthread_t threads[WORKERS];
    for (int i = 0; i < WORKERS; ++i) {
        memset(&workers[i], 0, sizeof workers[i]);
        workers[i].barrier = &barrier;
        workers[i].bad_dtype = 100 + i;
        assert_int_equal(pthread_create(&threads[i], NULL, fail_on_own_thread, &workers[i]), 0);
    }
    pthread_barrier_wait(&barrier);
    /* Every worker has failed; the main thread's last call succeeded. */
    expect_no_error();
    pthread_barrier_wait(&barrier);
    assert_int_equal(ng_dtype_size(-5), 0);
    pthread_barrier_wait(&barrier);
    for (int i = 0; i < WORKERS; ++i) assert_int_equal(pthread_join(threads[i], NULL), 0);
    pthread_barrier_destroy(&barrier);
    expect_error(NG_ERR_DTYPE, "ng_dtype_size", "-5");

    for (int i = 0; i < WORKERS; ++i) {
        char expected_value[16];
        snprintf(expected_value, sizeof expected_value, "%d", 100 + i);
        /* A new thread starts without an error. */
        assert_int_equal(workers[i].status_before, NG_OK);
        assert_string_equal(workers[i].error_before, "");
        assert_int_equal(workers[i].size, 0);
        /* It sees its own failure and nobody else's. */
        assert_int_equal(workers[i].status_after, NG_ERR_DTYPE);
        assert_true(strncmp(workers[i].error_after, "ng_dtype_size: ", 15) == 0);
        assert_non_null(strstr(workers[i].error_after, expected_value));
        assert_true(workers[i].kept_own_error);
        for (int j = 0; j < WORKERS; ++j) {
            char other_value[16];
            snprintf(other_value, sizeof other_value, "%d", 100 + j);
            if (j != i) assert_null(strstr(workers[i].error_after, other_value));
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_functions_match_macros),
        cmocka_unit_test(test_status_string_names_every_code),
        cmocka_unit_test(test_status_string_of_unknown_code),
        cmocka_unit_test(test_dtype_size_and_name_of_every_dtype),
        cmocka_unit_test(test_dtype_size_of_bad_dtype_fails_naming_it),
        cmocka_unit_test(test_dtype_name_of_bad_dtype),
        cmocka_unit_test(test_success_clears_the_previous_error),
        cmocka_unit_test(test_non_fallible_calls_keep_the_error),
        cmocka_unit_test(test_errors_are_thread_local),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
