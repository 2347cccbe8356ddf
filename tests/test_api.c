/* The function table (ng_get_api), the size rule of growing structs (struct_size) and what a
 * computation says about its parameters and results after its graph is gone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "expect_error.h"
#include "nanograph/nanograph.h"

typedef void (*any_function)(void);

/* Every entry of the table is set: the table is read as the array of pointers it is laid out as. */
static void test_table_is_complete(void **state) {
    (void)state;
    const ng_api_t *api = ng_get_api(NG_API_VERSION);
    assert_non_null(api);
    expect_no_error();
    enum { n = sizeof(ng_api_t) / sizeof(any_function) };
    assert_int_equal(sizeof(ng_api_t) % sizeof(any_function), 0);
    any_function entries[n];
    memcpy(entries, api, sizeof entries);
    for (size_t i = 0; i < n; ++i)
        if (entries[i] == NULL) fail_msg("entry %zu of ng_api_t is NULL", i);
    /* Every version up to the header's is the same table. */
    for (uint32_t v = 1; v <= NG_API_VERSION; ++v) assert_ptr_equal(ng_get_api(v), api);
}

/* Entries are the exported functions themselves, by name. */
static void test_entries_are_the_functions(void **state) {
    (void)state;
    const ng_api_t *api = ng_get_api(NG_API_VERSION);
    assert_non_null(api);
    assert_true(api->version_number == ng_version_number);
    assert_true(api->graph_create == ng_graph_create);
    assert_true(api->tensor_wrap == ng_tensor_wrap);
    assert_true(api->computation_run == ng_computation_run);
    assert_true(api->computation_result_axis_length == ng_computation_result_axis_length);
    assert_true(api->adam == ng_adam);
    assert_true(api->gather == ng_gather); /* the last entry, of version 3 */
    assert_int_equal(api->version_number(), ng_version_number());
}

static void test_unknown_versions(void **state) {
    (void)state;
    assert_null(ng_get_api(NG_API_VERSION + 1));
    expect_error(NG_ERR_UNSUPPORTED, "ng_get_api", "version 4 is newer than this library's (3)");
    assert_null(ng_get_api(UINT32_MAX));
    expect_error(NG_ERR_UNSUPPORTED, "ng_get_api", "4294967295");
    assert_null(ng_get_api(0));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_get_api", "version is 0");
}

/* x: float32 (N=2, C=3), k: int64 scalar; results r = sum(x, C) (N=2) and the scalar k + 1. */
typedef struct {
    ng_transformer_t *t;
    ng_computation_t *c;
} compiled_t;

static compiled_t compile_and_drop_graph(void) {
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *axes[2] = {ng_axis(g, "N", 2), ng_axis(g, "C", 3)};
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, axes, 2, NULL);
    ng_op_t *k = ng_placeholder(g, NG_INT64, NULL, 0, NULL);
    ng_op_set_name(x, "x");
    ng_op_set_name(k, "k");
    ng_op_t *r = ng_sum(g, x, &axes[1], 1);
    ng_op_set_name(r, "row_sums");
    ng_op_t *k1 = ng_add(g, k, ng_scalar_of(g, NG_INT64, 1));
    ng_op_set_name(k1, "k_plus_1");
    assert_int_equal(ng_graph_status(g), NG_OK);
    compiled_t out;
    out.t = ng_transformer_create(NULL);
    ng_op_t *results[2] = {r, k1}, *params[2] = {k, x};
    out.c = ng_computation_create(out.t, results, 2, params, 2);
    assert_non_null(out.c);
    ng_graph_destroy(g);
    ng_transformer_destroy(out.t);
    out.t = NULL;
    return out;
}

static void test_introspection_after_the_graph_is_gone(void **state) {
    (void)state;
    compiled_t x = compile_and_drop_graph();
    ng_computation_t *c = x.c;
    assert_int_equal(ng_computation_num_params(c), 2);
    assert_int_equal(ng_computation_num_results(c), 2);

    assert_string_equal(ng_computation_param_name(c, 0), "k");
    assert_int_equal(ng_computation_param_dtype(c, 0), NG_INT64);
    assert_int_equal(ng_computation_param_rank(c, 0), 0);
    assert_string_equal(ng_computation_param_name(c, 1), "x");
    assert_int_equal(ng_computation_param_dtype(c, 1), NG_FLOAT32);
    assert_int_equal(ng_computation_param_rank(c, 1), 2);
    assert_string_equal(ng_computation_param_axis_name(c, 1, 0), "N");
    assert_int_equal(ng_computation_param_axis_length(c, 1, 0), 2);
    assert_string_equal(ng_computation_param_axis_name(c, 1, 1), "C");
    assert_int_equal(ng_computation_param_axis_length(c, 1, 1), 3);

    assert_string_equal(ng_computation_result_name(c, 0), "row_sums");
    assert_int_equal(ng_computation_result_dtype(c, 0), NG_FLOAT32);
    assert_int_equal(ng_computation_result_rank(c, 0), 1);
    assert_string_equal(ng_computation_result_axis_name(c, 0, 0), "N");
    assert_int_equal(ng_computation_result_axis_length(c, 0, 0), 2);
    assert_string_equal(ng_computation_result_name(c, 1), "k_plus_1");
    assert_int_equal(ng_computation_result_dtype(c, 1), NG_INT64);
    assert_int_equal(ng_computation_result_rank(c, 1), 0);
    expect_no_error();
    ng_computation_destroy(c);
}

static void test_introspection_bad_arguments(void **state) {
    (void)state;
    compiled_t x = compile_and_drop_graph();
    ng_computation_t *c = x.c;
    assert_null(ng_computation_param_name(NULL, 0));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_computation_param_name", "c is NULL");
    assert_null(ng_computation_param_name(c, 2));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_computation_param_name", "index 2");
    assert_int_equal(ng_computation_param_dtype(c, -1), 0);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_computation_param_dtype", "index -1");
    assert_int_equal(ng_computation_param_rank(c, 5), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_computation_param_rank", "parameters");
    assert_null(ng_computation_param_axis_name(c, 1, 2));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_computation_param_axis_name", "index 2");
    assert_int_equal(ng_computation_param_axis_length(c, 0, 0), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_computation_param_axis_length", "axes");
    assert_null(ng_computation_result_name(c, 2));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_computation_result_name", "results");
    assert_int_equal(ng_computation_result_dtype(NULL, 0), 0);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_computation_result_dtype", "c is NULL");
    assert_int_equal(ng_computation_result_rank(c, -3), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_computation_result_rank", "index -3");
    assert_null(ng_computation_result_axis_name(c, 1, 0));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_computation_result_axis_name", "axes");
    assert_int_equal(ng_computation_result_axis_length(c, 0, -1), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_computation_result_axis_length", "index -1");
    /* A handle of another type. */
    ng_graph_t *g = ng_graph_create();
    assert_null(ng_computation_result_name((const ng_computation_t *)g, 0));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_computation_result_name",
                 "c is not a live computation handle (it is a live graph handle)");
    ng_graph_destroy(g);
    ng_computation_destroy(c);
}

/* An older program's smaller stats struct gets the fields it knows; a newer program's larger one
 * gets zeros beyond what this library knows; struct_size unset is refused. */
static void test_stats_struct_size(void **state) {
    (void)state;
    compiled_t x = compile_and_drop_graph();
    ng_computation_stats_t full = {.struct_size = sizeof full};
    assert_int_equal(ng_computation_stats(x.c, &full), NG_OK);
    assert_int_equal(full.struct_size, sizeof full);
    assert_true(full.num_kernels > 0);

    struct {
        ng_computation_stats_t known;
        uint64_t later_fields[3];
    } larger;
    memset(&larger, 0xab, sizeof larger);
    larger.known.struct_size = sizeof larger;
    assert_int_equal(ng_computation_stats(x.c, &larger.known), NG_OK);
    assert_int_equal(larger.known.struct_size, sizeof larger);
    assert_int_equal(larger.known.num_kernels, full.num_kernels);
    assert_int_equal(larger.known.arena_bytes, full.arena_bytes);
    for (int i = 0; i < 3; ++i) assert_int_equal(larger.later_fields[i], 0);

    ng_computation_stats_t unset;
    memset(&unset, 0, sizeof unset);
    assert_int_equal(ng_computation_stats(x.c, &unset), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_computation_stats", "out->struct_size is 0");
    ng_computation_destroy(x.c);
}

static void test_options_struct_size(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 2);
    ng_op_t *w = ng_variable(g, NG_FLOAT64, &n, 1, ng_scalar_of(g, NG_FLOAT64, 1.0));
    ng_op_t *cost = ng_sum(g, ng_square(g, w), NULL, 0);
    ng_op_t *lr = ng_scalar_of(g, NG_FLOAT64, 0.1);

    ng_sgd_options_t sgd;
    assert_int_equal(ng_sgd_options_init(&sgd, 3), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_sgd_options_init", "struct_size is 3");
    assert_int_equal(ng_sgd_options_init(NULL, sizeof sgd), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_sgd_options_init", "options is NULL");

    /* A newer program's struct: the unknown tail is zeroed by init and accepted while zero. */
    struct {
        ng_adam_options_t known;
        double later_field;
    } newer;
    newer.later_field = 42;
    assert_int_equal(ng_adam_options_init(&newer.known, sizeof newer), NG_OK);
    assert_int_equal(newer.known.struct_size, sizeof newer);
    assert_true(newer.known.beta1 == 0.9 && newer.known.beta2 == 0.999);
    assert_true(newer.later_field == 0);
    assert_non_null(ng_adam(g, cost, lr, &newer.known));
    newer.later_field = 1;
    assert_null(ng_adam(g, cost, lr, &newer.known));
    expect_error(NG_ERR_UNSUPPORTED, "ng_adam", "fields beyond");

    /* Unset struct_size. */
    memset(&sgd, 0, sizeof sgd);
    assert_null(ng_sgd(g, cost, lr, &sgd));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_sgd", "options->struct_size is 0");
    ng_graph_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_is_complete),
        cmocka_unit_test(test_entries_are_the_functions),
        cmocka_unit_test(test_unknown_versions),
        cmocka_unit_test(test_introspection_after_the_graph_is_gone),
        cmocka_unit_test(test_introspection_bad_arguments),
        cmocka_unit_test(test_stats_struct_size),
        cmocka_unit_test(test_options_struct_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
