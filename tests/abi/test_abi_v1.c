/* A host built against version 1 of the function table (tests/abi/ng_api_v1.h, a frozen copy)
 * loads today's library with dlopen and uses it through ng_get_api(1) alone: the table it gets
 * must still start with version 1's entries, with their signatures, however many entries later
 * versions appended.
 *
 * usage: test_abi_v1 PATH_TO_LIBNANOGRAPH */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ng_api_v1.h"

static const char *g_library_path;
static void *g_library;
static const ng_api_t *api;

static int load(void **state) {
    (void)state;
    g_library = dlopen(g_library_path, RTLD_NOW | RTLD_LOCAL);
    if (!g_library) return -1;
    ng_get_api_fn get_api = NULL;
    *(void **)&get_api = dlsym(g_library, "ng_get_api");
    api = get_api ? get_api(1) : NULL;
    return api ? 0 : -1;
}

static int unload(void **state) {
    (void)state;
    return dlclose(g_library);
}

/* Version 1's entries are all there. */
static void test_entries(void **state) {
    (void)state;
    typedef void (*any_function)(void);
    enum { n = sizeof(ng_api_t) / sizeof(any_function) };
    any_function entries[n];
    memcpy(entries, api, sizeof entries);
    for (size_t i = 0; i < n; ++i)
        if (entries[i] == NULL) fail_msg("entry %zu of version 1's table is NULL", i);
    assert_int_equal(api->version_number() / 10000, NG_VERSION_MAJOR);
    assert_int_equal(api->dtype_size(NG_FLOAT64), 8);
    assert_string_equal(api->status_string(NG_ERR_AXES), "NG_ERR_AXES");
}

/* One SGD step on cost = sum((w - t)^2) with w = (1, 2), t = (0, 4), lr 0.25:
 * gradient 2 (w - t) = (2, -4), so w becomes (0.5, 3) and the step returns the cost 1 + 4 = 5. */
static void test_training_step(void **state) {
    (void)state;
    ng_graph_t *g = api->graph_create();
    const ng_axis_t *n = api->axis(g, "N", 2);
    const double w0[2] = {1, 2}, target[2] = {0, 4};
    const int64_t shape[1] = {2};
    ng_op_t *w = api->variable(g, NG_FLOAT64, &n, 1, api->constant(g, NG_FLOAT64, &n, 1, w0));
    ng_op_t *t = api->placeholder(g, NG_FLOAT64, &n, 1, NULL);
    ng_op_t *cost = api->sum(g, api->square(g, api->subtract(g, w, t)), NULL, 0);
    ng_sgd_options_t options;
    assert_int_equal(api->sgd_options_init(&options, sizeof options), NG_OK);
    ng_op_t *step = api->sgd(g, cost, api->scalar_of(g, NG_FLOAT64, 0.25), &options);
    assert_int_equal(api->graph_status(g), NG_OK);

    ng_transformer_t *tr = api->transformer_create(NULL);
    ng_computation_t *c = api->computation_create(tr, &step, 1, &t, 1);
    assert_non_null(c);
    assert_int_equal(api->computation_num_params(c), 1);
    assert_int_equal(api->computation_param_axis_length(c, 0, 0), 2);
    ng_tensor_t *input = api->tensor_from_data(NG_FLOAT64, shape, 1, target);
    ng_tensor_t *out = NULL;
    assert_int_equal(api->computation_run(c, &input, 1, &out, 1), NG_OK);
    double value = 0, weights[2] = {0, 0};
    assert_int_equal(api->tensor_read(out, &value, sizeof value), NG_OK);
    assert_true(fabs(value - 5.0) < 1e-12);
    ng_tensor_t *w_value = NULL;
    assert_int_equal(api->transformer_get_value(tr, w, &w_value), NG_OK);
    assert_int_equal(api->tensor_read(w_value, weights, sizeof weights), NG_OK);
    assert_true(fabs(weights[0] - 0.5) < 1e-12 && fabs(weights[1] - 3.0) < 1e-12);

    ng_computation_stats_t stats = {.struct_size = sizeof stats};
    assert_int_equal(api->computation_stats(c, &stats), NG_OK);
    assert_true(stats.num_kernels > 0);

    /* Errors reach a table-only host too. */
    assert_int_equal(api->computation_run(c, &input, 2, &out, 1), NG_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(api->last_error(), "num_inputs"));

    api->tensor_release(w_value);
    api->tensor_release(out);
    api->tensor_release(input);
    api->computation_destroy(c);
    api->transformer_destroy(tr);
    api->graph_destroy(g);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH_TO_LIBNANOGRAPH\n", argv[0]);
        return 2;
    }
    g_library_path = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entries),
        cmocka_unit_test(test_training_step),
    };
    return cmocka_run_group_tests(tests, load, unload);
}
