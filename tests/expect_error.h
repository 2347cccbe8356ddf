/* Assertions on the calling thread's nanograph error, for CMocka tests of the C API. Include
 * after <cmocka.h>. */
#ifndef NG_TESTS_EXPECT_ERROR_H
#define NG_TESTS_EXPECT_ERROR_H

#include <stdio.h>
#include <string.h>

#include "nanograph/base.h"

/* The last call failed with `status`, and its message starts with "<function>: " and contains
 * `detail` (pass "" to skip that part). */
static inline void expect_error(ng_status_t status, const char *function, const char *detail) {
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s: ", function);
    const char *message = ng_last_error();
    assert_non_null(message);
    if (ng_last_status() != status)
        fail_msg("status %s, expected %s (message \"%s\")", ng_status_string(ng_last_status()),
                 ng_status_string(status), message);
    if (strncmp(message, prefix, strlen(prefix)) != 0)
        fail_msg("message \"%s\" does not start with \"%s\"", message, prefix);
    if (strstr(message, detail) == NULL)
        fail_msg("message \"%s\" does not mention \"%s\"", message, detail);
}

/* The last fallible call succeeded. */
static inline void expect_no_error(void) {
    assert_int_equal(ng_last_status(), NG_OK);
    assert_string_equal(ng_last_error(), "");
}

#endif
