/* Helpers shared by the graph and op builder tests (include after <cmocka.h>). */
#ifndef NG_TEST_GRAPH_UTIL_H
#define NG_TEST_GRAPH_UTIL_H

#include <stdio.h>
#include <string.h>

#include "nanograph/nanograph.h"

/* The last call failed with `status`; its message starts with "<function>: " and contains every
 * one of up to two details (NULL to skip). */
static inline void check_failure(ng_status_t status, const char *function, const char *detail,
                                 const char *detail2) {
    char prefix[128];
    const char *message = ng_last_error();
    snprintf(prefix, sizeof prefix, "%s: ", function);
    if (ng_last_status() != status)
        fail_msg("status %s, expected %s (message \"%s\")", ng_status_string(ng_last_status()),
                 ng_status_string(status), message);
    if (strncmp(message, prefix, strlen(prefix)) != 0)
        fail_msg("message \"%s\" does not start with \"%s\"", message, prefix);
    if (detail && !strstr(message, detail))
        fail_msg("message \"%s\" does not mention \"%s\"", message, detail);
    if (detail2 && !strstr(message, detail2))
        fail_msg("message \"%s\" does not mention \"%s\"", message, detail2);
}

/* A builder returned NULL with `status`, naming `function` and `detail`; the graph keeps its
 * first error. */
#define EXPECT_BUILD_FAILS(call, status, function, detail)   \
    do {                                                     \
        ng_op_t *failed_op_ = (call);                        \
        assert_null(failed_op_);                             \
        check_failure((status), (function), (detail), NULL); \
    } while (0)

/* The op's axes spelled like the library's messages: "(C(4), N(2))". */
static inline const char *axes_text(const ng_op_t *op) {
    static char text[512];
    size_t used = 0;
    text[used++] = '(';
    for (int32_t i = 0; i < ng_op_rank(op); ++i) {
        const ng_axis_t *a = ng_op_axis(op, i);
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%s(%lld)", i ? ", " : "",
                                 ng_axis_name(a), (long long)ng_axis_length(a));
    }
    snprintf(text + used, sizeof text - used, ")");
    return text;
}

/* The op has this type, dtype and axes. */
#define EXPECT_OP(op, type, dtype, axes)                      \
    do {                                                      \
        const ng_op_t *checked_op_ = (op);                    \
        assert_non_null(checked_op_);                         \
        assert_string_equal(ng_op_type(checked_op_), (type)); \
        assert_int_equal(ng_op_dtype(checked_op_), (dtype));  \
        assert_string_equal(axes_text(checked_op_), (axes));  \
    } while (0)

/* A fresh graph with axes C(4), H(2), W(3), N(5) and C3 = C(3) (the mismatching length). */
typedef struct fixture {
    ng_graph_t *g;
    const ng_axis_t *C, *H, *W, *N, *C3;
} fixture_t;

static inline int fixture_setup(void **state) {
    static fixture_t f;
    f.g = ng_graph_create();
    f.C = ng_axis(f.g, "C", 4);
    f.H = ng_axis(f.g, "H", 2);
    f.W = ng_axis(f.g, "W", 3);
    f.N = ng_axis(f.g, "N", 5);
    f.C3 = ng_axis(f.g, "C", 3);
    *state = &f;
    return f.g && f.C && f.H && f.W && f.N && f.C3 ? 0 : -1;
}

static inline int fixture_teardown(void **state) {
    fixture_t *f = (fixture_t *)*state;
    ng_graph_destroy(f->g);
    return 0;
}

/* A float32 placeholder of the fixture's graph with the given axes. */
static inline ng_op_t *ph(const fixture_t *f, int32_t rank, const ng_axis_t *const *axes) {
    return ng_placeholder(f->g, NG_FLOAT32, axes, rank, NULL);
}
static inline ng_op_t *ph_typed(const fixture_t *f, ng_dtype_t dt, int32_t rank,
                                const ng_axis_t *const *axes) {
    return ng_placeholder(f->g, dt, axes, rank, NULL);
}

#define AXES(...) ((const ng_axis_t *const[]){__VA_ARGS__})
#define COUNT_OF(...) \
    ((int32_t)(sizeof((const ng_axis_t *const[]){__VA_ARGS__}) / sizeof(const ng_axis_t *)))
/* A float32 placeholder with the listed axes: P(f, f->C, f->N). */
#define P(f, ...) ph((f), COUNT_OF(__VA_ARGS__), AXES(__VA_ARGS__))
#define PT(f, dt, ...) ph_typed((f), (dt), COUNT_OF(__VA_ARGS__), AXES(__VA_ARGS__))

#endif
