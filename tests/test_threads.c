/* What exec.h and base.h promise about threads, exercised from several threads at once (run
 * under ThreadSanitizer by the tsan preset):
 * - a computation that writes a variable and one that reads it, on one transformer, never
 *   overlap: every read sees a whole number of writes;
 * - one computation run from two threads takes turns;
 * - ng_transformer_set_num_threads() while another thread runs.
 * (test_errors covers the per-thread error state, test_tensor references from many threads.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanograph/nanograph.h"

enum { LENGTH = 4096, RUNS = 200 };

/* Worker threads count failures instead of asserting (CMocka's assertions belong to the test's
 * own thread). */
static ng_tensor_t *run1(ng_computation_t *c, ng_tensor_t *input) {
    ng_tensor_t *out = NULL;
    if (ng_computation_run(c, input ? &input : NULL, input ? 1 : 0, &out, 1) != NG_OK) return NULL;
    return out;
}

/* The first element of a float64 tensor (NaN when t is NULL); releases t. */
static double first_of(ng_tensor_t *t) {
    double v = NAN;
    if (t) {
        const size_t n = (size_t)ng_tensor_numel(t);
        double *all = malloc(sizeof(double) * n);
        if (all && n > 0 && ng_tensor_read(t, all, sizeof(double) * n) == NG_OK) v = all[0];
        free(all);
    }
    ng_tensor_release(t);
    return v;
}

typedef struct {
    ng_computation_t *c;
    ng_tensor_t *input;
    int bad; /* failed runs, or reads that saw part of a write */
} worker_t;

static void *write_runs(void *arg) {
    worker_t *w = arg;
    for (int i = 0; i < RUNS; ++i) {
        ng_tensor_t *out = run1(w->c, NULL);
        w->bad += out == NULL;
        ng_tensor_release(out);
    }
    return NULL;
}

static void *read_runs(void *arg) {
    worker_t *w = arg;
    for (int i = 0; i < RUNS; ++i) {
        const double sum = first_of(run1(w->c, NULL));
        /* x holds k in every element after k writes: the sum is a multiple of LENGTH. */
        if (!(sum == LENGTH * (double)(int64_t)(sum / LENGTH))) ++w->bad;
    }
    return NULL;
}

/* x <- x + 1 on one thread, sum(x) on another, one transformer with two kernel threads. */
static void test_writer_and_reader_take_turns(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", LENGTH);
    ng_op_t *x = ng_persistent_tensor(g, NG_FLOAT64, &n, 1, NULL);
    ng_op_t *step = ng_assign(g, x, ng_add(g, x, ng_scalar_of(g, NG_FLOAT64, 1.0)));
    ng_op_t *sum = ng_sum(g, x, NULL, 0);
    assert_int_equal(ng_graph_status(g), NG_OK);
    ng_transformer_t *t = ng_transformer_create(NULL);
    assert_int_equal(ng_transformer_set_num_threads(t, 2), NG_OK);
    worker_t writer = {ng_computation_create(t, &step, 1, NULL, 0), NULL, 0};
    worker_t reader = {ng_computation_create(t, &sum, 1, NULL, 0), NULL, 0};
    assert_non_null(writer.c);
    assert_non_null(reader.c);

    pthread_t a, b;
    assert_int_equal(pthread_create(&a, NULL, write_runs, &writer), 0);
    assert_int_equal(pthread_create(&b, NULL, read_runs, &reader), 0);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert_int_equal(writer.bad + reader.bad, 0);
    assert_true(first_of(run1(reader.c, NULL)) == (double)LENGTH * RUNS);

    ng_computation_destroy(writer.c);
    ng_computation_destroy(reader.c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

static void *run_plus_one(void *arg) {
    worker_t *w = arg;
    const double want = *(const double *)ng_tensor_data(w->input) + 1;
    for (int i = 0; i < RUNS; ++i)
        if (!(first_of(run1(w->c, w->input)) == want)) ++w->bad;
    return NULL;
}

typedef struct {
    ng_transformer_t *t;
    int bad;
} resizer_t;

static void *resize_pool(void *arg) {
    resizer_t *r = arg;
    for (int i = 0; i < 20; ++i) r->bad += ng_transformer_set_num_threads(r->t, 1 + i % 3) != NG_OK;
    return NULL;
}

/* One computation of x + 1 run from two threads with different inputs, while a third thread
 * changes the transformer's thread count. */
static void test_one_computation_from_two_threads(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", LENGTH);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT64, &n, 1, NULL);
    ng_op_t *y = ng_add(g, x, ng_scalar_of(g, NG_FLOAT64, 1.0));
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &y, 1, &x, 1);
    assert_non_null(c);
    static double a_data[LENGTH], b_data[LENGTH];
    for (int i = 0; i < LENGTH; ++i) {
        a_data[i] = 10;
        b_data[i] = 20;
    }
    const int64_t shape[1] = {LENGTH};
    worker_t wa = {c, ng_tensor_from_data(NG_FLOAT64, shape, 1, a_data), 0};
    worker_t wb = {c, ng_tensor_from_data(NG_FLOAT64, shape, 1, b_data), 0};
    resizer_t resizer = {t, 0};
    pthread_t ta, tb, tc;
    assert_int_equal(pthread_create(&ta, NULL, run_plus_one, &wa), 0);
    assert_int_equal(pthread_create(&tb, NULL, run_plus_one, &wb), 0);
    assert_int_equal(pthread_create(&tc, NULL, resize_pool, &resizer), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    pthread_join(tc, NULL);
    assert_int_equal(wa.bad + wb.bad + resizer.bad, 0);
    ng_tensor_release(wa.input);
    ng_tensor_release(wb.input);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writer_and_reader_take_turns),
        cmocka_unit_test(test_one_computation_from_two_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
