/* ng_set_allocator: tensors, arenas, outputs and persistent values take their memory from the
 * host's functions, aligned as asked; every block goes back to the allocator that made it, even
 * after another allocator is installed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "expect_error.h"
#include "nanograph/nanograph.h"

typedef struct {
    int64_t allocations, frees, live_bytes, misaligned;
    int fail; /* nonzero: allocate returns NULL */
} counts_t;

static void *counting_allocate(size_t bytes, size_t alignment, void *ctx) {
    counts_t *c = ctx;
    if (c->fail) return NULL;
    void *p = NULL;
    if (posix_memalign(&p, alignment, bytes) != 0) return NULL;
    c->allocations++;
    c->live_bytes += (int64_t)bytes;
    if (alignment < 64 || (alignment & (alignment - 1)) != 0) c->misaligned++;
    return p;
}

static void counting_deallocate(void *p, size_t bytes, size_t alignment, void *ctx) {
    counts_t *c = ctx;
    if ((uintptr_t)p % alignment != 0) c->misaligned++;
    c->frees++;
    c->live_bytes -= (int64_t)bytes;
    free(p);
}

static ng_allocator_t counting(counts_t *c) {
    ng_allocator_t a = {sizeof a, counting_allocate, counting_deallocate, c};
    return a;
}

static void test_tensors_and_runs_use_the_allocator(void **state) {
    (void)state;
    counts_t c = {0, 0, 0, 0, 0};
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
    counts_t c = {0, 0, 0, 0, 1};
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
    counts_t c = {0, 0, 0, 0, 0};
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tensors_and_runs_use_the_allocator),
        cmocka_unit_test(test_allocation_failure_is_reported),
        cmocka_unit_test(test_bad_allocators),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
