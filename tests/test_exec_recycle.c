/* New outputs are recycled: a run whose output slot is NULL reuses the memory of the tensor the
 * previous run handed out for that result once the caller has released it (and every view of
 * it), and allocates otherwise. A tensor the caller still holds is never written again; memory
 * stays with the allocator that made it. Values are checked against plain loops after every
 * run, so a reuse that handed one block to two live tensors would show as changed values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "exec_test_util.h"

enum { N = 1000 };

/* Results of x (float64, R = 10 by K = 100, N values): 2x (elementwise), sum(x) (a scalar) and x
 * cast to float32 with its axes in the order (K, R): a transposed view of values computed in x's
 * order, copied into the output. `nresults` of them are compiled, in that order. */
typedef struct {
    ng_graph_t *g;
    ng_transformer_t *t;
    ng_computation_t *c;
    int32_t nresults;
} model_t;

static model_t make_model(int32_t nresults, const ng_allocator_t *allocator) {
    model_t m;
    m.g = ng_graph_create();
    const ng_axis_t *r = ng_axis(m.g, "R", 10), *k = ng_axis(m.g, "K", 100);
    ng_op_t *x = ng_placeholder(m.g, NG_FLOAT64, (const ng_axis_t *[]){r, k}, 2, NULL);
    ng_op_t *results[3] = {
        ng_multiply(m.g, x, ng_scalar_of(m.g, NG_FLOAT64, 2.0)),
        ng_sum(m.g, x, NULL, 0),
        ng_axes_with_order(m.g, ng_cast(m.g, x, NG_FLOAT32), (const ng_axis_t *[]){k, r}, 2),
    };
    assert_int_equal(ng_graph_status(m.g), NG_OK);
    m.t = ng_transformer_create(NULL);
    assert_non_null(m.t);
    if (allocator) assert_int_equal(ng_transformer_set_allocator(m.t, allocator), NG_OK);
    m.nresults = nresults;
    m.c = ng_computation_create(m.t, results, nresults, &x, 1);
    if (!m.c) fail_msg("compile failed: %s", ng_last_error());
    return m;
}

static void free_model(model_t *m) {
    ng_computation_destroy(m->c);
    ng_transformer_destroy(m->t);
    ng_graph_destroy(m->g);
}

static double input_value(int64_t i, int salt) {
    return ex_value(i, salt);
}

/* Checks out[0..nresults) against plain loops over the input of `salt`. */
static void check_outputs(ng_tensor_t *const *out, int32_t nresults, int salt) {
    static double got[N];
    double total = 0;
    for (int64_t i = 0; i < N; ++i) total += input_value(i, salt);
    ex_read(out[0], got);
    for (int64_t i = 0; i < N; ++i) assert_true(got[i] == 2 * input_value(i, salt));
    if (nresults < 2) return;
    ex_read(out[1], got);
    assert_true(fabs(got[0] - total) <= 1e-12 * N);
    if (nresults < 3) return;
    ex_read(out[2], got);
    for (int64_t kk = 0; kk < 100; ++kk)
        for (int64_t rr = 0; rr < 10; ++rr)
            assert_true(got[kk * 10 + rr] == (double)(float)input_value(rr * 100 + kk, salt));
}

/* Runs m on the input of `salt` with the given slots (NULL: a new tensor) and checks every
 * output. */
static void run_into(model_t *m, int salt, ng_tensor_t **out) {
    double x[N];
    for (int64_t i = 0; i < N; ++i) x[i] = input_value(i, salt);
    ng_tensor_t *in = ex_tensor(NG_FLOAT64, (int64_t[]){10, 100}, 2, x);
    assert_int_equal(ng_computation_run(m->c, &in, 1, out, m->nresults), NG_OK);
    ng_tensor_release(in);
    check_outputs(out, m->nresults, salt);
}

static void test_a_released_output_is_reused(void **state) {
    (void)state;
    model_t m = make_model(1, NULL);
    ng_tensor_t *out = NULL;
    run_into(&m, 1, &out);
    void *first = ng_tensor_data(out);
    ng_tensor_release(out);
    /* A tensor of the same size made meanwhile would get a block freed by the release. */
    ng_tensor_t *other = ng_tensor_create(NG_FLOAT64, (int64_t[]){10, 100}, 2);
    assert_non_null(other);
    for (int salt = 2; salt < 5; ++salt) {
        out = NULL;
        run_into(&m, salt, &out); /* the new values, in the same memory */
        assert_ptr_equal(ng_tensor_data(out), first);
        assert_ptr_not_equal(ng_tensor_data(other), first);
        ng_tensor_release(out);
    }
    ng_tensor_release(other);
    free_model(&m);
}

static void test_a_kept_output_is_never_written_again(void **state) {
    (void)state;
    model_t m = make_model(1, NULL);
    ng_tensor_t *kept = NULL, *second = NULL, *third = NULL;
    run_into(&m, 1, &kept);
    run_into(&m, 2, &second);
    assert_ptr_not_equal(ng_tensor_data(second), ng_tensor_data(kept));
    check_outputs(&kept, 1, 1); /* the first run's values, untouched */
    /* second is kept too now; releasing the first lets nothing reuse it but the allocator. */
    ng_tensor_release(kept);
    run_into(&m, 3, &third);
    assert_ptr_not_equal(ng_tensor_data(third), ng_tensor_data(second));
    check_outputs(&second, 1, 2);
    /* After both are released, the memory of the last one handed out serves the next run. */
    void *last = ng_tensor_data(third);
    ng_tensor_release(second);
    ng_tensor_release(third);
    ng_tensor_t *fourth = NULL;
    run_into(&m, 4, &fourth);
    assert_ptr_equal(ng_tensor_data(fourth), last);
    ng_tensor_release(fourth);
    free_model(&m);
}

/* A view shares the output's memory: while it lives, the memory is not reused. */
static void test_a_view_keeps_an_output_from_reuse(void **state) {
    (void)state;
    model_t m = make_model(1, NULL);
    ng_tensor_t *out = NULL;
    run_into(&m, 1, &out);
    ng_tensor_t *view = ng_tensor_slice(out, 1, 0, 100, 1);
    assert_non_null(view);
    ng_tensor_release(out);
    ng_tensor_t *next = NULL;
    run_into(&m, 2, &next);
    assert_ptr_not_equal(ng_tensor_data(next), ng_tensor_data(view));
    check_outputs(&view, 1, 1);
    ng_tensor_release(view);
    ng_tensor_release(next);
    free_model(&m);
}

/* Each result recycles its own memory; a result the caller keeps gets new memory, the others
 * reuse theirs (the transposed one through the copy into its output). */
static void test_several_results_recycle_separately(void **state) {
    (void)state;
    model_t m = make_model(3, NULL);
    ng_tensor_t *out[3] = {NULL, NULL, NULL};
    run_into(&m, 1, out);
    void *before[3];
    for (int i = 0; i < 3; ++i) before[i] = ng_tensor_data(out[i]);
    ng_tensor_t *kept = out[1];
    ng_tensor_release(out[0]);
    ng_tensor_release(out[2]);
    ng_tensor_t *next[3] = {NULL, NULL, NULL};
    run_into(&m, 2, next);
    assert_ptr_equal(ng_tensor_data(next[0]), before[0]);
    assert_ptr_not_equal(ng_tensor_data(next[1]), before[1]);
    assert_ptr_equal(ng_tensor_data(next[2]), before[2]);
    assert_ptr_not_equal(ng_tensor_data(next[0]), ng_tensor_data(next[2]));
    double total = 0, got = 0;
    for (int64_t i = 0; i < N; ++i) total += input_value(i, 1);
    ex_read(kept, &got);
    assert_true(fabs(got - total) <= 1e-12 * N); /* the first run's sum, untouched */
    ng_tensor_release(kept);
    for (int i = 0; i < 3; ++i) ng_tensor_release(next[i]);
    free_model(&m);
}

/* A run into a given tensor leaves the kept memory alone: the next run with a NULL slot uses it. */
static void test_a_given_output_does_not_disturb_recycling(void **state) {
    (void)state;
    model_t m = make_model(1, NULL);
    ng_tensor_t *out = NULL;
    run_into(&m, 1, &out);
    void *first = ng_tensor_data(out);
    ng_tensor_release(out);
    ng_tensor_t *given = ng_tensor_create(NG_FLOAT64, (int64_t[]){10, 100}, 2);
    assert_non_null(given);
    ng_tensor_t *slot = given;
    run_into(&m, 2, &slot);
    assert_ptr_equal(slot, given);
    out = NULL;
    run_into(&m, 3, &out);
    assert_ptr_equal(ng_tensor_data(out), first);
    check_outputs(&given, 1, 2);
    ng_tensor_release(given);
    ng_tensor_release(out);
    free_model(&m);
}

/* With the caller releasing each output before the next run, the steady state allocates
 * nothing: the transformer's counting allocator sees no block after the first run. Memory is
 * returned when the computation goes. */
static void test_the_steady_state_allocates_nothing(void **state) {
    (void)state;
    counts_t c = {0};
    ng_allocator_t a = counting(&c);
    model_t m = make_model(3, &a);
    ng_tensor_t *out[3] = {NULL, NULL, NULL};
    run_into(&m, 1, out);
    const int64_t after_first = c.allocations;
    assert_true(after_first >= 4); /* the arena and three outputs */
    for (int salt = 2; salt < 7; ++salt) {
        for (int i = 0; i < 3; ++i) {
            ng_tensor_release(out[i]);
            out[i] = NULL;
        }
        run_into(&m, salt, out);
        assert_int_equal(c.allocations, after_first);
        assert_int_equal(c.frees, 0);
    }
    for (int i = 0; i < 3; ++i) ng_tensor_release(out[i]);
    assert_int_equal(c.frees, 0); /* the computation keeps them for its next run */
    free_model(&m);
    assert_int_equal(c.frees, c.allocations);
    assert_int_equal(c.live_bytes, 0);
}

/* After the transformer's allocator changes, a released output of the old one goes back to it
 * and the run takes new memory from the new one. */
static void test_a_new_transformer_allocator_is_not_handed_old_memory(void **state) {
    (void)state;
    counts_t first = {0}, second = {0};
    ng_allocator_t a = counting(&first), b = counting(&second);
    model_t m = make_model(1, &a);
    ng_tensor_t *out = NULL;
    run_into(&m, 1, &out);
    const int64_t made_by_a = first.allocations, freed_by_a = first.frees;
    ng_tensor_release(out);
    assert_int_equal(first.frees, freed_by_a);

    assert_int_equal(ng_transformer_set_allocator(m.t, &b), NG_OK);
    out = NULL;
    run_into(&m, 2, &out);
    assert_int_equal(first.allocations, made_by_a);
    assert_int_equal(first.frees, freed_by_a + 1); /* the output a made, back to a */
    assert_int_equal(second.allocations, 1);       /* the new output */
    ng_tensor_release(out);
    out = NULL;
    run_into(&m, 3, &out); /* b's output, reused */
    assert_int_equal(second.allocations, 1);
    assert_int_equal(second.frees, 0);

    /* Back to a: b's output, once released, goes back to b. */
    assert_int_equal(ng_transformer_set_allocator(m.t, &a), NG_OK);
    ng_tensor_release(out);
    out = NULL;
    run_into(&m, 4, &out);
    assert_int_equal(second.frees, 1);
    assert_int_equal(first.allocations, made_by_a + 1);
    ng_tensor_release(out);
    free_model(&m);
    assert_int_equal(first.frees, first.allocations);
    assert_int_equal(first.live_bytes, 0);
    assert_int_equal(second.live_bytes, 0);
}

/* The same with the process-wide allocator, for a transformer without one of its own. */
static void test_a_new_process_allocator_is_not_handed_old_memory(void **state) {
    (void)state;
    counts_t process = {0};
    ng_allocator_t a = counting(&process);
    model_t m = make_model(1, NULL);
    ng_tensor_t *out = NULL;
    run_into(&m, 1, &out);
    ng_tensor_release(out);
    assert_int_equal(ng_set_allocator(&a), NG_OK);
    out = NULL;
    run_into(&m, 2, &out); /* makes its input with the counting allocator too */
    const int64_t made = process.allocations;
    assert_true(made >= 2); /* the input and the output */
    ng_tensor_release(out);
    out = NULL;
    run_into(&m, 3, &out);
    assert_int_equal(process.allocations, made + 1); /* the input only: the output is reused */
    assert_int_equal(ng_set_allocator(NULL), NG_OK);
    ng_tensor_release(out);
    out = NULL;
    run_into(&m, 4, &out); /* back to the default: the counting allocator's output goes back */
    assert_int_equal(process.allocations, made + 1);
    assert_int_equal(process.frees, process.allocations);
    assert_int_equal(process.live_bytes, 0);
    ng_tensor_release(out);
    free_model(&m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_released_output_is_reused),
        cmocka_unit_test(test_a_kept_output_is_never_written_again),
        cmocka_unit_test(test_a_view_keeps_an_output_from_reuse),
        cmocka_unit_test(test_several_results_recycle_separately),
        cmocka_unit_test(test_a_given_output_does_not_disturb_recycling),
        cmocka_unit_test(test_the_steady_state_allocates_nothing),
        cmocka_unit_test(test_a_new_transformer_allocator_is_not_handed_old_memory),
        cmocka_unit_test(test_a_new_process_allocator_is_not_handed_old_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
