/* Rules of the C boundary that hold for every area of the API (base.h): destroy and release
 * accept NULL and leave the error alone, a handle of the wrong type is refused (the type tag
 * every handle starts with, capi/handles.hpp) rather than misread, with a message naming the
 * type passed, out-parameters are NULL on failure, every failure names its
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

/* One live object of every handle type, for passing each where another is expected. */
enum {
    KIND_GRAPH,
    KIND_OP,
    KIND_AXIS,
    KIND_TENSOR,
    KIND_TRANSFORMER,
    KIND_COMPUTATION,
    KIND_SHAPE,
    KIND_SHAPE_ITER,
    KIND_JAGGED,
    NUM_KINDS
};

static const char *const kind_names[NUM_KINDS] = {
    "graph",       "op",    "axis",           "tensor",       "transformer",
    "computation", "shape", "shape iterator", "jagged tensor"};

struct every_kind {
    void *object[NUM_KINDS];
};

static int make_every_kind(void **state) {
    static struct every_kind k;
    memset(&k, 0, sizeof k);
    const int64_t extents[1] = {3};
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *C = g ? ng_axis(g, "C", 3) : NULL;
    ng_op_t *x = C ? ng_placeholder(g, NG_FLOAT32, &C, 1, NULL) : NULL;
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_shape_t *s = ng_shape_smooth(extents, 1);
    k.object[KIND_GRAPH] = g;
    k.object[KIND_OP] = x;
    k.object[KIND_AXIS] = (void *)C;
    k.object[KIND_TENSOR] = ng_tensor_create(NG_FLOAT32, extents, 1);
    k.object[KIND_TRANSFORMER] = t;
    k.object[KIND_COMPUTATION] = x && t ? ng_computation_create(t, &x, 1, &x, 1) : NULL;
    k.object[KIND_SHAPE] = s;
    k.object[KIND_SHAPE_ITER] = s ? ng_shape_iter_create(s, NG_INDEX_RELATIVE) : NULL;
    k.object[KIND_JAGGED] = s ? ng_jagged_create(NG_FLOAT32, s) : NULL;
    *state = &k;
    for (int i = 0; i < NUM_KINDS; ++i)
        if (k.object[i] == NULL) {
            print_error("could not make a %s: %s\n", kind_names[i], ng_last_error());
            return -1;
        }
    return 0;
}

static int free_every_kind(void **state) {
    struct every_kind *k = *state;
    ng_jagged_release(k->object[KIND_JAGGED]);
    ng_shape_iter_destroy(k->object[KIND_SHAPE_ITER]);
    ng_shape_release(k->object[KIND_SHAPE]);
    ng_computation_destroy(k->object[KIND_COMPUTATION]);
    ng_transformer_destroy(k->object[KIND_TRANSFORMER]);
    ng_tensor_release(k->object[KIND_TENSOR]);
    ng_graph_destroy(k->object[KIND_GRAPH]);
    return 0;
}

/* A function of each kind that takes one handle of that kind and fails on anything else: its
 * name, its parameter's name, and whether a call with `h` failed as documented. */
static int graph_refused(void *h) {
    return ng_graph_status(h) == NG_ERR_INVALID_ARGUMENT;
}
static int op_refused(void *h) {
    return ng_op_name(h) == NULL;
}
static int axis_refused(void *h) {
    return ng_axis_length(h) == -1;
}
static int tensor_refused(void *h) {
    return ng_tensor_rank(h) == -1;
}
static int transformer_refused(void *h) {
    return ng_transformer_num_threads(h) == -1;
}
static int computation_refused(void *h) {
    return ng_computation_num_params(h) == -1;
}
static int shape_refused(void *h) {
    return ng_shape_rank(h) == -1;
}
static int shape_iter_refused(void *h) {
    return ng_shape_iter_index_length(h) == -1;
}
static int jagged_refused(void *h) {
    return ng_jagged_dtype(h) == 0;
}

static const struct {
    const char *function;
    const char *param;
    int (*refused)(void *h);
} takers[NUM_KINDS] = {
    {"ng_graph_status", "g", graph_refused},
    {"ng_op_name", "op", op_refused},
    {"ng_axis_length", "a", axis_refused},
    {"ng_tensor_rank", "t", tensor_refused},
    {"ng_transformer_num_threads", "t", transformer_refused},
    {"ng_computation_num_params", "c", computation_refused},
    {"ng_shape_rank", "s", shape_refused},
    {"ng_shape_iter_index_length", "it", shape_iter_refused},
    {"ng_jagged_dtype", "j", jagged_refused},
};

/* The exact message: the function, the parameter, the type wanted and the type passed. */
static void expect_refused(int wanted, const char *passed) {
    char message[256];
    snprintf(message, sizeof message, "%s: %s is not a live %s handle (%s)",
             takers[wanted].function, takers[wanted].param, kind_names[wanted], passed);
    assert_int_equal(ng_last_status(), NG_ERR_INVALID_ARGUMENT);
    assert_string_equal(ng_last_error(), message);
}

static void test_every_handle_type_refuses_every_other(void **state) {
    struct every_kind *k = *state;
    char passed[64];
    for (int wanted = 0; wanted < NUM_KINDS; ++wanted) {
        for (int given = 0; given < NUM_KINDS; ++given) {
            if (given == wanted) continue;
            assert_true(takers[wanted].refused(k->object[given]));
            snprintf(passed, sizeof passed, "it is a live %s handle", kind_names[given]);
            expect_refused(wanted, passed);
        }
        /* Memory that is no handle at all. */
        uint64_t zeros[16] = {0};
        assert_true(takers[wanted].refused(zeros));
        expect_refused(wanted, "it was destroyed, or it is not a nanograph handle");
        /* The right type still works, and clears the error. */
        assert_false(takers[wanted].refused(k->object[wanted]));
        expect_no_error();
    }
}

/* Elements of handle arrays are checked the same way, and named with their index. */
static void test_array_elements_are_named_by_index(void **state) {
    struct every_kind *k = *state;
    ng_graph_t *g = k->object[KIND_GRAPH];
    ng_op_t *x = k->object[KIND_OP];

    ng_op_t *results[2] = {x, k->object[KIND_AXIS]};
    assert_null(ng_computation_create(k->object[KIND_TRANSFORMER], results, 2, NULL, 0));
    assert_int_equal(ng_last_status(), NG_ERR_INVALID_ARGUMENT);
    assert_string_equal(ng_last_error(),
                        "ng_computation_create: results[1] is not a live op "
                        "handle (it is a live axis handle)");

    ng_op_t *ops[3] = {x, x, k->object[KIND_TENSOR]};
    assert_null(ng_sequential(g, ops, 3));
    assert_string_equal(ng_last_error(),
                        "ng_sequential: ops[2] is not a live op handle (it is "
                        "a live tensor handle)");

    const ng_axis_t *axes[2] = {k->object[KIND_AXIS], k->object[KIND_SHAPE]};
    assert_null(ng_sum(g, x, axes, 2));
    assert_string_equal(ng_last_error(),
                        "ng_sum: axes[1] is not a live axis handle (it is a "
                        "live shape handle)");

    ng_tensor_t *inputs[1] = {k->object[KIND_JAGGED]};
    ng_tensor_t *outputs[1] = {NULL};
    assert_int_equal(ng_computation_run(k->object[KIND_COMPUTATION], inputs, 1, outputs, 1),
                     NG_ERR_INVALID_ARGUMENT);
    assert_string_equal(ng_last_error(),
                        "ng_computation_run: inputs[0] is not a live tensor "
                        "handle (it is a live jagged tensor handle)");
    assert_null(outputs[0]);

    const ng_shape_t *elements[2] = {k->object[KIND_SHAPE], k->object[KIND_SHAPE_ITER]};
    assert_null(ng_shape_nested(k->object[KIND_SHAPE], elements, 2));
    assert_string_equal(ng_last_error(),
                        "ng_shape_nested: elements[1] is not a live shape "
                        "handle (it is a live shape iterator handle)");
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
        cmocka_unit_test_setup_teardown(test_every_handle_type_refuses_every_other, make_every_kind,
                                        free_every_kind),
        cmocka_unit_test_setup_teardown(test_array_elements_are_named_by_index, make_every_kind,
                                        free_every_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
