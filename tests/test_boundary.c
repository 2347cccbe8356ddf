/* Rules of the C boundary that hold for every area of the API (base.h): destroy and release
 * accept NULL and leave the error alone, a handle of the wrong type is refused (the `magic`
 * check) rather than misread, out-parameters are NULL on failure, every failure names its
 * function, and a success clears the previous error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "expect_error.h"
#include "nanograph/nanograph.h"

/* Leaves a known error on the thread: ng_dtype_size(99) fails with NG_ERR_DTYPE. */
static void fail_on_purpose(void) {
    assert_int_equal(ng_dtype_size(99), 0);
    expect_error(NG_ERR_DTYPE, "ng_dtype_size", "99");
}

static void test_destroy_and_release_accept_null_and_keep_the_error(void **state) {
    (void)state;
    fail_on_purpose();
    ng_tensor_retain(NULL);
    ng_tensor_release(NULL);
    ng_graph_destroy(NULL);
    ng_computation_destroy(NULL);
    ng_transformer_destroy(NULL);
    expect_error(NG_ERR_DTYPE, "ng_dtype_size", "99");
}

/* One object of each handle type, and a block of zeros that is no handle at all. */
struct handles {
    ng_tensor_t *tensor;
    ng_graph_t *graph;
    ng_transformer_t *transformer;
    uint64_t zeros[32];
};

static int make_handles(void **state) {
    static struct handles h;
    memset(&h, 0, sizeof h);
    const int64_t shape[1] = {3};
    h.tensor = ng_tensor_create(NG_FLOAT32, shape, 1);
    h.graph = ng_graph_create();
    h.transformer = ng_transformer_create(NULL);
    *state = &h;
    if (h.tensor && h.graph && h.transformer) return 0;
    print_error("could not make the handles: %s\n", ng_last_error());
    ng_tensor_release(h.tensor);
    ng_graph_destroy(h.graph);
    ng_transformer_destroy(h.transformer);
    return -1;
}

static int free_handles(void **state) {
    struct handles *h = *state;
    ng_tensor_release(h->tensor);
    ng_graph_destroy(h->graph);
    ng_transformer_destroy(h->transformer);
    return 0;
}

static void test_tensor_functions_refuse_other_handles(void **state) {
    struct handles *h = *state;
    assert_int_equal(ng_tensor_rank((const ng_tensor_t *)(void *)h->graph), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_tensor_rank", "");
    assert_int_equal(ng_tensor_numel((const ng_tensor_t *)(void *)h->transformer), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_tensor_numel", "");
    assert_null(ng_tensor_transpose((ng_tensor_t *)(void *)h->zeros));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_tensor_transpose", "");
    /* The real tensor still works, and the success clears the error. */
    assert_int_equal(ng_tensor_rank(h->tensor), 1);
    expect_no_error();
}

static void test_graph_functions_refuse_other_handles(void **state) {
    struct handles *h = *state;
    assert_int_equal(ng_graph_status((const ng_graph_t *)(void *)h->tensor),
                     NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_graph_status", "");
    assert_null(ng_axis((ng_graph_t *)(void *)h->transformer, "C", 4));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_axis", "");
    assert_null(ng_axis((ng_graph_t *)(void *)h->zeros, "C", 4));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_axis", "");
    assert_non_null(ng_axis(h->graph, "C", 4));
    expect_no_error();
    assert_int_equal(ng_graph_status(h->graph), NG_OK);
}

static void test_transformer_functions_refuse_other_handles(void **state) {
    struct handles *h = *state;
    assert_int_equal(ng_transformer_num_threads((const ng_transformer_t *)(void *)h->graph), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_transformer_num_threads", "");
    assert_int_equal(ng_transformer_set_num_threads((ng_transformer_t *)(void *)h->tensor, 1),
                     NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_transformer_set_num_threads", "");
    assert_true(ng_transformer_num_threads(h->transformer) >= 1);
    expect_no_error();
}

static void test_out_parameters_are_null_on_failure(void **state) {
    struct handles *h = *state;
    int sentinel;

    struct DLManagedTensor *exported = (struct DLManagedTensor *)(void *)&sentinel;
    assert_int_equal(ng_tensor_to_dlpack(NULL, &exported), NG_ERR_INVALID_ARGUMENT);
    assert_null(exported);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_tensor_to_dlpack", "");

    ng_tensor_t *value = (ng_tensor_t *)(void *)&sentinel;
    assert_int_not_equal(ng_transformer_get_value(h->transformer, NULL, &value), NG_OK);
    assert_null(value);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_transformer_get_value", "");
}

static void test_creators_return_null_and_name_themselves(void **state) {
    (void)state;
    const int64_t negative[1] = {-2};
    assert_null(ng_tensor_create(NG_FLOAT32, negative, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_tensor_create", "-2");
    assert_null(ng_tensor_create(99, NULL, 0));
    expect_error(NG_ERR_DTYPE, "ng_tensor_create", "99");
    assert_null(ng_transformer_create("gpu"));
    expect_error(NG_ERR_UNSUPPORTED, "ng_transformer_create", "gpu");
    assert_null(ng_computation_create(NULL, NULL, 0, NULL, 0));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_computation_create", "");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_destroy_and_release_accept_null_and_keep_the_error),
        cmocka_unit_test_setup_teardown(test_tensor_functions_refuse_other_handles, make_handles,
                                        free_handles),
        cmocka_unit_test_setup_teardown(test_graph_functions_refuse_other_handles, make_handles,
                                        free_handles),
        cmocka_unit_test_setup_teardown(test_transformer_functions_refuse_other_handles,
                                        make_handles, free_handles),
        cmocka_unit_test_setup_teardown(test_out_parameters_are_null_on_failure, make_handles,
                                        free_handles),
        cmocka_unit_test(test_creators_return_null_and_name_themselves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
