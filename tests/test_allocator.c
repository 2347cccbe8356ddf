/* ng_set_allocator and ng_transformer_set_allocator: tensors, arenas, outputs and persistent
 * values take their memory from the host's functions, aligned as asked; every block goes back to
 * the allocator that made it, even after another allocator is installed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "counting_allocator.h"
#include "expect_error.h"
#include "nanograph/nanograph.h"

static void test_tensors_and_runs_use_the_allocator(void **state) {
    (void)state;
    counts_t c = {0};
    ng_allocator_t a = counting(&c);
    assert_int_equal(ng_set_allocator(&a), NG_OK);

    const int64_t shape[1] = {1000};
    ng_tensor_t *t = ng_tensor_create(NG_FLOAT64, shape, 1);
    assert_non_null(t);
    assert_int_equal(c.allocations, 1);
    assert_int_equal((uintptr_t)ng_tensor_data(t) % 64, 0);

    /* y = sum(v * x) with a variable v: its value, the arena and the new output. */
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 1000);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT64, &n, 1, NULL);
    ng_op_t *v = ng_variable(g, NG_FLOAT64, &n, 1, ng_scalar_of(g, NG_FLOAT64, 2.0));
    ng_op_t *y = ng_sum(g, ng_multiply(g, v, ng_exp(g, x)), NULL, 0);
    ng_transformer_t *tr = ng_transformer_create(NULL);
    ng_computation_t *comp = ng_computation_create(tr, &y, 1, &x, 1);
    assert_non_null(comp);
    ng_tensor_t *out = NULL;
    assert_int_equal(ng_computation_run(comp, &t, 1, &out, 1), NG_OK);
    double value = 0;
    assert_int_equal(ng_tensor_read(out, &value, sizeof value), NG_OK);
    assert_true(value == 2000.0); /* sum of 2 * exp(0) over 1000 elements */
    const int64_t after_run = c.allocations;
    assert_true(after_run >= 3);

    /* Back to the default: blocks made before still go back to the counting allocator. */
    assert_int_equal(ng_set_allocator(NULL), NG_OK);
    ng_tensor_t *later = ng_tensor_create(NG_FLOAT64, shape, 1);
    assert_int_equal(c.allocations, after_run);
    ng_tensor_release(later);
    ng_tensor_release(out);
    ng_tensor_release(t);
    ng_computation_destroy(comp);
    ng_transformer_destroy(tr);
    ng_graph_destroy(g);
    assert_int_equal(c.frees, c.allocations);
    assert_int_equal(c.live_bytes, 0);
    assert_int_equal(c.misaligned, 0);
}

static void test_allocation_failure_is_reported(void **state) {
    (void)state;
    counts_t c = {0};
    c.fail = 1;
    ng_allocator_t a = counting(&c);
    assert_int_equal(ng_set_allocator(&a), NG_OK);
    const int64_t shape[1] = {16};
    assert_null(ng_tensor_create(NG_FLOAT32, shape, 1));
    expect_error(NG_ERR_OUT_OF_MEMORY, "ng_tensor_create", "");
    assert_int_equal(ng_set_allocator(NULL), NG_OK);
    ng_tensor_t *t = ng_tensor_create(NG_FLOAT32, shape, 1);
    assert_non_null(t);
    ng_tensor_release(t);
    assert_int_equal(c.allocations + c.frees, 0);
}

static void test_bad_allocators(void **state) {
    (void)state;
    counts_t c = {0};
    ng_allocator_t a = counting(&c);
    a.deallocate = NULL;
    assert_int_equal(ng_set_allocator(&a), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_set_allocator", "allocator->deallocate is NULL");
    a = counting(&c);
    a.allocate = NULL;
    assert_int_equal(ng_set_allocator(&a), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_set_allocator", "allocator->allocate is NULL");
    a = counting(&c);
    a.struct_size = 8;
    assert_int_equal(ng_set_allocator(&a), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_set_allocator", "struct_size is 8");
    /* A failed call leaves the default in place. */
    const int64_t shape[1] = {4};
    ng_tensor_t *t = ng_tensor_create(NG_INT32, shape, 1);
    assert_non_null(t);
    ng_tensor_release(t);
    assert_int_equal(c.allocations, 0);
}

/* y = sum(v * exp(x)) over N = 1000 doubles, v a variable of 2s: the computation has an arena,
 * v a value of 8000 bytes, and each run a new 8-byte output. */
typedef struct {
    ng_graph_t *g;
    ng_op_t *x, *y;
} model_t;

static model_t make_model(void) {
    model_t m;
    m.g = ng_graph_create();
    const ng_axis_t *n = ng_axis(m.g, "N", 1000);
    m.x = ng_placeholder(m.g, NG_FLOAT64, &n, 1, NULL);
    ng_op_t *v = ng_variable(m.g, NG_FLOAT64, &n, 1, ng_scalar_of(m.g, NG_FLOAT64, 2.0));
    m.y = ng_sum(m.g, ng_multiply(m.g, v, ng_exp(m.g, m.x)), NULL, 0);
    assert_int_equal(ng_graph_status(m.g), NG_OK);
    return m;
}

/* Runs c on zeros (made by the caller, so by the process-wide allocator) and checks the result. */
static ng_tensor_t *run_model(ng_computation_t *c) {
    const int64_t shape[1] = {1000};
    ng_tensor_t *in = ng_tensor_create(NG_FLOAT64, shape, 1);
    ng_tensor_t *out = NULL;
    assert_int_equal(ng_computation_run(c, &in, 1, &out, 1), NG_OK);
    double value = 0;
    assert_int_equal(ng_tensor_read(out, &value, sizeof value), NG_OK);
    assert_true(value == 2000.0); /* sum of 2 * exp(0) over 1000 elements */
    ng_tensor_release(in);
    return out;
}

static void test_a_transformer_allocator_serves_that_transformer_only(void **state) {
    (void)state;
    counts_t c = {0};
    ng_allocator_t a = counting(&c);
    model_t m = make_model();
    ng_transformer_t *mine = ng_transformer_create(NULL);
    ng_transformer_t *other = ng_transformer_create(NULL);
    assert_int_equal(ng_transformer_set_allocator(mine, &a), NG_OK);
    expect_no_error();

    /* The arena of a computation compiled after the call. */
    ng_computation_t *comp = ng_computation_create(mine, &m.y, 1, &m.x, 1);
    assert_non_null(comp);
    const int64_t compiled = c.allocations;
    assert_true(compiled >= 1);

    /* The first run makes v's value (8000 bytes) and the output (8 bytes). */
    ng_tensor_t *out = run_model(comp);
    assert_true(c.allocations >= compiled + 2);
    assert_true(c.live_bytes >= 8000 + 8);
    const int64_t after_run = c.allocations, frees = c.frees;
    /* Released, the output stays with the computation for its next run (which reuses it), and
     * goes back to the transformer's allocator with the computation (checked at the end). */
    ng_tensor_release(out);
    assert_int_equal(c.frees, frees);
    ng_tensor_release(run_model(comp));
    assert_int_equal(c.allocations, after_run);

    /* Another transformer, its computation and its runs do not touch it. */
    ng_computation_t *elsewhere = ng_computation_create(other, &m.y, 1, &m.x, 1);
    assert_non_null(elsewhere);
    ng_tensor_release(run_model(elsewhere));
    ng_computation_destroy(elsewhere);
    ng_transformer_destroy(other);
    assert_int_equal(c.allocations, after_run);

    /* Tensors the caller makes do not either. */
    const int64_t shape[1] = {4};
    ng_tensor_t *t = ng_tensor_create(NG_FLOAT64, shape, 1);
    ng_tensor_release(t);
    assert_int_equal(c.allocations, after_run);

    /* Values made by ng_transformer_set_value do. */
    const ng_axis_t *k = ng_axis(m.g, "K", 16);
    ng_op_t *w = ng_variable(m.g, NG_FLOAT64, &k, 1, NULL);
    const int64_t wshape[1] = {16};
    ng_tensor_t *wvalue = ng_tensor_create(NG_FLOAT64, wshape, 1);
    assert_int_equal(ng_transformer_set_value(mine, w, wvalue), NG_OK);
    assert_int_equal(c.allocations, after_run + 1);
    ng_tensor_release(wvalue);

    ng_computation_destroy(comp);
    ng_transformer_destroy(mine);
    ng_graph_destroy(m.g);
    assert_int_equal(c.frees, c.allocations);
    assert_int_equal(c.live_bytes, 0);
    assert_int_equal(c.misaligned, 0);
}

/* Blocks made before a change stay with the allocator that made them; NULL goes back to the
 * process-wide allocator. */
static void test_changing_a_transformer_allocator(void **state) {
    (void)state;
    counts_t first = {0}, second = {0}, global = {0};
    ng_allocator_t a = counting(&first), b = counting(&second), process = counting(&global);
    model_t m = make_model();
    ng_transformer_t *tr = ng_transformer_create(NULL);
    assert_int_equal(ng_transformer_set_allocator(tr, &a), NG_OK);
    ng_computation_t *comp = ng_computation_create(tr, &m.y, 1, &m.x, 1);
    ng_tensor_t *out_a = run_model(comp); /* v's value and this output: first */
    const int64_t made_by_a = first.allocations;

    assert_int_equal(ng_transformer_set_allocator(tr, &b), NG_OK);
    ng_tensor_t *out_b = run_model(comp); /* only the new output: second */
    assert_int_equal(first.allocations, made_by_a);
    assert_int_equal(second.allocations, 1);

    /* NULL: the process-wide allocator, whichever is installed when memory is made. */
    assert_int_equal(ng_transformer_set_allocator(tr, NULL), NG_OK);
    assert_int_equal(ng_set_allocator(&process), NG_OK);
    ng_tensor_t *out_global = run_model(comp);
    assert_int_equal(ng_set_allocator(NULL), NG_OK);
    assert_int_equal(second.allocations, 1);
    assert_true(global.allocations >= 2); /* the run's input and its output */

    ng_tensor_release(out_b);
    assert_int_equal(second.frees, 1);
    ng_transformer_destroy(tr);
    ng_tensor_release(out_global);
    ng_computation_destroy(comp);
    ng_tensor_release(out_a);
    ng_graph_destroy(m.g);
    assert_int_equal(first.frees, first.allocations);
    assert_int_equal(first.live_bytes, 0);
    assert_int_equal(second.live_bytes, 0);
    assert_int_equal(global.frees, global.allocations);
}

/* Everything goes back whatever order the graph, the transformer, the computation and an output
 * are destroyed in (all 24 orders). */
static void test_everything_returns_in_any_destroy_order(void **state) {
    (void)state;
    for (int order = 0; order < 24; ++order) {
        counts_t c = {0};
        ng_allocator_t a = counting(&c);
        model_t m = make_model();
        ng_transformer_t *tr = ng_transformer_create(NULL);
        assert_int_equal(ng_transformer_set_allocator(tr, &a), NG_OK);
        ng_computation_t *comp = ng_computation_create(tr, &m.y, 1, &m.x, 1);
        ng_tensor_t *out = run_model(comp);
        assert_true(c.allocations >= 3);

        /* The order-th permutation of {graph, transformer, computation, output}. */
        int left[4] = {0, 1, 2, 3}, n = 4, rest = order;
        for (int step = 0; step < 4; ++step) {
            int factorial = 1;
            for (int i = 2; i < n; ++i) factorial *= i;
            int pick = rest / factorial;
            rest %= factorial;
            int which = left[pick];
            for (int i = pick; i + 1 < n; ++i) left[i] = left[i + 1];
            --n;
            switch (which) {
            case 0: ng_graph_destroy(m.g); break;
            case 1: ng_transformer_destroy(tr); break;
            case 2: ng_computation_destroy(comp); break;
            default: ng_tensor_release(out); break;
            }
        }
        assert_int_equal(c.frees, c.allocations);
        assert_int_equal(c.live_bytes, 0);
    }
}

static void test_transformer_allocator_bad_input(void **state) {
    (void)state;
    counts_t c = {0};
    ng_allocator_t a = counting(&c);
    assert_int_equal(ng_transformer_set_allocator(NULL, &a), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_transformer_set_allocator", "t is NULL");
    ng_graph_t *g = ng_graph_create();
    assert_int_equal(ng_transformer_set_allocator((ng_transformer_t *)(void *)g, &a),
                     NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_transformer_set_allocator",
                 "t is not a live transformer handle (it is a live graph handle)");
    ng_graph_destroy(g);

    ng_transformer_t *tr = ng_transformer_create(NULL);
    assert_int_equal(ng_transformer_set_allocator(tr, &a), NG_OK);
    ng_allocator_t bad = a;
    bad.struct_size = 8;
    assert_int_equal(ng_transformer_set_allocator(tr, &bad), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_transformer_set_allocator", "struct_size is 8");
    bad = a;
    bad.allocate = NULL;
    assert_int_equal(ng_transformer_set_allocator(tr, &bad), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_transformer_set_allocator",
                 "allocator->allocate is NULL");
    bad = a;
    bad.deallocate = NULL;
    assert_int_equal(ng_transformer_set_allocator(tr, &bad), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_transformer_set_allocator",
                 "allocator->deallocate is NULL");

    /* The failed calls left the counting allocator in place. */
    model_t m = make_model();
    ng_computation_t *comp = ng_computation_create(tr, &m.y, 1, &m.x, 1);
    assert_non_null(comp);
    assert_true(c.allocations >= 1);

    /* An allocator that fails: compiling reports it, and nothing is left behind. */
    c.fail = 1;
    assert_null(ng_computation_create(tr, &m.y, 1, &m.x, 1));
    expect_error(NG_ERR_OUT_OF_MEMORY, "ng_computation_create", "out of memory");
    c.fail = 0;
    ng_computation_destroy(comp);
    ng_transformer_destroy(tr);
    ng_graph_destroy(m.g);
    assert_int_equal(c.frees, c.allocations);
    assert_int_equal(c.live_bytes, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tensors_and_runs_use_the_allocator),
        cmocka_unit_test(test_allocation_failure_is_reported),
        cmocka_unit_test(test_bad_allocators),
        cmocka_unit_test(test_a_transformer_allocator_serves_that_transformer_only),
        cmocka_unit_test(test_changing_a_transformer_allocator),
        cmocka_unit_test(test_everything_returns_in_any_destroy_order),
        cmocka_unit_test(test_transformer_allocator_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
