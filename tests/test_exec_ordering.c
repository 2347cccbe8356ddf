/* Side effects happen in the order the graph states, whatever the order of the result list:
 * element k of a sequential sees the assignments of elements 0..k-1, an op is computed once at
 * its first position, reads no sequential orders see the start of the run, and a persistent
 * tensor listed as a result is its content after the run. Expected values are worked out by
 * hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "nanograph/nanograph.h"

enum { MAX_RESULTS = 6, MAX_ELEMS = 8 };

/* Compiles results on a new transformer, runs `runs` times and keeps the last run's outputs as
 * doubles (each result has at most MAX_ELEMS float32 elements). */
typedef struct {
    ng_transformer_t *t;
    ng_computation_t *c;
    int32_t n;
} computation_t;

static computation_t compile(ng_graph_t *g, ng_op_t *const *results, int32_t n) {
    assert_int_equal(ng_graph_status(g), NG_OK);
    computation_t k = {ng_transformer_create(NULL), NULL, n};
    assert_non_null(k.t);
    k.c = ng_computation_create(k.t, results, n, NULL, 0);
    if (k.c == NULL) fail_msg("compile: %s", ng_last_error());
    return k;
}

static void run(const computation_t *k, double out[][MAX_ELEMS]) {
    ng_tensor_t *outputs[MAX_RESULTS] = {NULL};
    if (ng_computation_run(k->c, NULL, 0, outputs, k->n) != NG_OK)
        fail_msg("run: %s", ng_last_error());
    for (int32_t i = 0; i < k->n; ++i) {
        float v[MAX_ELEMS];
        int64_t numel = ng_tensor_numel(outputs[i]);
        assert_true(numel <= MAX_ELEMS);
        assert_int_equal(ng_tensor_read(outputs[i], v, sizeof(float) * (size_t)numel), NG_OK);
        for (int64_t j = 0; j < numel; ++j) out[i][j] = v[j];
        ng_tensor_release(outputs[i]);
    }
}

static void destroy(computation_t *k) {
    ng_computation_destroy(k->c);
    ng_transformer_destroy(k->t);
}

/* x0 = x + x; x1 = x + x; p = sequential([x0, assign(x, 2), x1, x0]) with x = 0 at first:
 * x0 is computed at its first position (before the assignment): 0; x1 after it: 4; p is x0's
 * value: 0. On the second run x starts at 2: x0 = 4, x1 = 4, p = 4. Every order of the result
 * list gives these values. */
static void test_sequential_every_result_order(void **state) {
    (void)state;
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                    {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    const double first[3] = {0, 4, 0}, second[3] = {4, 4, 4};
    for (int p = 0; p < 6; ++p) {
        ng_graph_t *g = ng_graph_create();
        const ng_axis_t *n = ng_axis(g, "N", 2);
        ng_op_t *x = ng_variable(g, NG_FLOAT32, &n, 1, ng_scalar(g, 0));
        ng_op_t *x0 = ng_add(g, x, x);
        ng_op_t *x1 = ng_add(g, x, x);
        ng_op_t *elements[4] = {x0, ng_assign(g, x, ng_scalar(g, 2)), x1, x0};
        ng_op_t *seq = ng_sequential(g, elements, 4);
        ng_op_t *ops[3] = {x0, x1, seq};
        ng_op_t *results[3];
        for (int i = 0; i < 3; ++i) results[i] = ops[perms[p][i]];
        computation_t k = compile(g, results, 3);
        double out[MAX_RESULTS][MAX_ELEMS];
        for (int r = 0; r < 2; ++r) {
            run(&k, out);
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 2; ++j) {
                    double want = (r == 0 ? first : second)[perms[p][i]];
                    if (out[i][j] != want)
                        fail_msg("order %d%d%d run %d: result %d[%d] = %g, want %g", perms[p][0],
                                 perms[p][1], perms[p][2], r, i, j, out[i][j], want);
                }
        }
        destroy(&k);
        ng_graph_destroy(g);
    }
}

/* sequential([d = x * 2, assign(x, 5), d + 1]) with x = 3: d is 6, computed before the
 * assignment, so the value is 7 (even though d is fused into d + 1 when nothing else reads it);
 * x is then 5, and the next run gives 11. */
static void test_value_before_assignment_is_kept(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    ng_op_t *x = ng_variable(g, NG_FLOAT32, NULL, 0, ng_scalar(g, 3));
    ng_op_t *d = ng_multiply(g, x, ng_scalar(g, 2));
    ng_op_t *elements[3] = {d, ng_assign(g, x, ng_scalar(g, 5)), ng_add(g, d, ng_scalar(g, 1))};
    ng_op_t *seq = ng_sequential(g, elements, 3);
    computation_t k = compile(g, &seq, 1);
    double out[MAX_RESULTS][MAX_ELEMS];
    run(&k, out);
    assert_true(out[0][0] == 7);
    run(&k, out);
    assert_true(out[0][0] == 11);
    destroy(&k);
    ng_graph_destroy(g);
}

/* A view of x taken before x is overwritten keeps the old elements: x = [1, 2, 3],
 * d = x reversed, sequential([d, assign(x, x * 10), d + x]) = [3, 2, 1] + [10, 20, 30]. */
static void test_view_before_assignment_is_kept(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 3);
    const float init[3] = {1, 2, 3};
    ng_op_t *x = ng_variable(g, NG_FLOAT32, &n, 1, ng_constant(g, NG_FLOAT32, &n, 1, init));
    const ng_slice_t reverse = {2, -1, -1, 0};
    ng_op_t *d = ng_slice(g, x, &reverse, 1);
    ng_op_t *elements[3] = {d, ng_assign(g, x, ng_multiply(g, x, ng_scalar(g, 10))),
                            ng_add(g, d, x)};
    ng_op_t *seq = ng_sequential(g, elements, 3);
    ng_op_t *results[2] = {seq, d};
    computation_t k = compile(g, results, 2);
    double out[MAX_RESULTS][MAX_ELEMS];
    run(&k, out);
    const double want[3] = {13, 22, 31}, old[3] = {3, 2, 1};
    for (int i = 0; i < 3; ++i) {
        assert_true(out[0][i] == want[i]);
        assert_true(out[1][i] == old[i]); /* d as a result: its value at its position */
    }
    destroy(&k);
    ng_graph_destroy(g);
}

/* Reads no sequential orders relative to an assignment see the start of the run, in either
 * order of the results: with x = 1, results {x + 10, sequential([assign(x, 5), x + 1])} are
 * 11 and 6; the persistent tensor x itself as a result is its content after the run, 5. */
static void test_unordered_read_sees_start_of_run(void **state) {
    (void)state;
    for (int order = 0; order < 2; ++order) {
        ng_graph_t *g = ng_graph_create();
        ng_op_t *x = ng_variable(g, NG_FLOAT32, NULL, 0, ng_scalar(g, 1));
        ng_op_t *read = ng_add(g, x, ng_scalar(g, 10));
        ng_op_t *elements[2] = {ng_assign(g, x, ng_scalar(g, 5)), ng_add(g, x, ng_scalar(g, 1))};
        ng_op_t *seq = ng_sequential(g, elements, 2);
        ng_op_t *results[3] = {order ? seq : read, order ? read : seq, x};
        computation_t k = compile(g, results, 3);
        double out[MAX_RESULTS][MAX_ELEMS];
        run(&k, out);
        assert_true(out[order ? 1 : 0][0] == 11);
        assert_true(out[order ? 0 : 1][0] == 6);
        assert_true(out[2][0] == 5);
        destroy(&k);
        ng_graph_destroy(g);
    }
}

/* Two sequentials that nothing orders against each other: the reads of one do not see the
 * other's assignment. x = 1; s1 = sequential([assign(x, 5), x]); s2 = sequential([x * 3]):
 * s1 = 5 and s2 = 3 in either order. */
static void test_unrelated_sequentials_do_not_see_each_other(void **state) {
    (void)state;
    for (int order = 0; order < 2; ++order) {
        ng_graph_t *g = ng_graph_create();
        ng_op_t *x = ng_variable(g, NG_FLOAT32, NULL, 0, ng_scalar(g, 1));
        ng_op_t *e1[2] = {ng_assign(g, x, ng_scalar(g, 5)), x};
        ng_op_t *s1 = ng_sequential(g, e1, 2);
        ng_op_t *e2[1] = {ng_multiply(g, x, ng_scalar(g, 3))};
        ng_op_t *s2 = ng_sequential(g, e2, 1);
        ng_op_t *results[2] = {order ? s2 : s1, order ? s1 : s2};
        computation_t k = compile(g, results, 2);
        double out[MAX_RESULTS][MAX_ELEMS];
        run(&k, out);
        assert_true(out[order ? 1 : 0][0] == 5);
        assert_true(out[order ? 0 : 1][0] == 3);
        destroy(&k);
        ng_graph_destroy(g);
    }
}

/* A sequential nested in an element orders its effects before the next element of the outer
 * one: x = 1, outer = sequential([sequential([assign(x, x + 1), x]) * 10, assign(x, x * 3), x])
 * gives 6, the inner element is 20, and x is 6 after the run. */
static void test_nested_sequential(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    ng_op_t *x = ng_variable(g, NG_FLOAT32, NULL, 0, ng_scalar(g, 1));
    ng_op_t *inner_e[2] = {ng_assign(g, x, ng_add(g, x, ng_scalar(g, 1))), x};
    ng_op_t *inner = ng_multiply(g, ng_sequential(g, inner_e, 2), ng_scalar(g, 10));
    ng_op_t *outer_e[3] = {inner, ng_assign(g, x, ng_multiply(g, x, ng_scalar(g, 3))), x};
    ng_op_t *outer = ng_sequential(g, outer_e, 3);
    ng_op_t *results[3] = {x, inner, outer};
    computation_t k = compile(g, results, 3);
    double out[MAX_RESULTS][MAX_ELEMS];
    run(&k, out);
    assert_true(out[0][0] == 6);
    assert_true(out[1][0] == 20);
    assert_true(out[2][0] == 6);
    destroy(&k);
    ng_graph_destroy(g);
}

/* Two assignments to one tensor that no sequential orders are refused: the final value would
 * depend on the schedule. */
static void test_unordered_assignments_are_refused(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    ng_op_t *x = ng_variable(g, NG_FLOAT32, NULL, 0, ng_scalar(g, 1));
    ng_op_t *results[2] = {ng_assign(g, x, ng_scalar(g, 2)), ng_assign(g, x, ng_scalar(g, 3))};
    ng_transformer_t *t = ng_transformer_create(NULL);
    assert_null(ng_computation_create(t, results, 2, NULL, 0));
    assert_int_equal(ng_last_status(), NG_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ng_last_error(), "not ordered by a sequential"));
    /* Ordered, they are fine: the last one wins. */
    ng_op_t *seq = ng_sequential(g, results, 2);
    ng_computation_t *c = ng_computation_create(t, &seq, 1, NULL, 0);
    assert_non_null(c);
    ng_tensor_t *out = NULL;
    assert_int_equal(ng_computation_run(c, NULL, 0, &out, 1), NG_OK);
    float v = 0;
    assert_int_equal(ng_tensor_read(out, &v, sizeof v), NG_OK);
    assert_true(v == 3);
    ng_tensor_release(out);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sequential_every_result_order),
        cmocka_unit_test(test_value_before_assignment_is_kept),
        cmocka_unit_test(test_view_before_assignment_is_kept),
        cmocka_unit_test(test_unordered_read_sees_start_of_run),
        cmocka_unit_test(test_unrelated_sequentials_do_not_see_each_other),
        cmocka_unit_test(test_nested_sequential),
        cmocka_unit_test(test_unordered_assignments_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
