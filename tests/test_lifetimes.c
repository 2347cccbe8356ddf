/* Lifetimes and identity of what a program creates: graphs, transformers, computations and
 * tensors may be destroyed in any order (as garbage-collected languages do), a computation keeps
 * working after its graph is gone (including the first run, which initialises variables), and a
 * persistent tensor's value belongs to that tensor alone, never to a later op that happens to
 * get the same address. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "nanograph/nanograph.h"

enum { kN = 3, kObjects = 4 };
enum { kGraph, kTransformer, kComputation, kTensors };

/* One program: x a placeholder over N, v a variable initialised from a constant, w a variable
 * initialised from v * 2 (an initializer that reads another tensor's initial value), and the
 * results y = x * v, z = x + w and s = sum(y). */
typedef struct {
    ng_graph_t *g;
    ng_transformer_t *t;
    ng_computation_t *c;
    ng_tensor_t *input, *outputs[3];
} program;

static const float kX[kN] = {1, 2, 3}, kV[kN] = {10, 20, 30};

static void build(program *p) {
    memset(p, 0, sizeof *p);
    p->g = ng_graph_create();
    const ng_axis_t *n = ng_axis(p->g, "N", kN);
    ng_op_t *x = ng_placeholder(p->g, NG_FLOAT32, &n, 1, NULL);
    ng_op_t *v0 = ng_constant(p->g, NG_FLOAT32, &n, 1, kV);
    ng_op_t *v = ng_variable(p->g, NG_FLOAT32, &n, 1, v0);
    ng_op_t *w = ng_variable(p->g, NG_FLOAT32, &n, 1, ng_multiply(p->g, v, ng_scalar(p->g, 2)));
    ng_op_t *y = ng_multiply(p->g, x, v);
    ng_op_t *results[3] = {y, ng_add(p->g, x, w), ng_sum(p->g, y, &n, 1)};
    assert_int_equal(ng_graph_status(p->g), NG_OK);
    p->t = ng_transformer_create(NULL);
    assert_non_null(p->t);
    p->c = ng_computation_create(p->t, results, 3, &x, 1);
    assert_non_null(p->c);
    int64_t shape = kN;
    p->input = ng_tensor_from_data(NG_FLOAT32, &shape, 1, kX);
    assert_non_null(p->input);
}

static void release_tensors(program *p) {
    ng_tensor_release(p->input);
    for (int i = 0; i < 3; ++i) ng_tensor_release(p->outputs[i]);
    p->input = NULL;
    memset(p->outputs, 0, sizeof p->outputs);
}

/* Runs the computation (new input and outputs when the old ones were released) and checks the
 * values against the hand-computed y = x * v, z = x + 2 v, s = sum(y). */
static void run_and_check(program *p) {
    if (!p->input) {
        int64_t shape = kN;
        p->input = ng_tensor_from_data(NG_FLOAT32, &shape, 1, kX);
        assert_non_null(p->input);
    }
    for (int i = 0; i < 3; ++i) ng_tensor_release(p->outputs[i]);
    memset(p->outputs, 0, sizeof p->outputs);
    assert_int_equal(ng_computation_run(p->c, &p->input, 1, p->outputs, 3), NG_OK);
    float y[kN], z[kN], s = 0;
    assert_int_equal(ng_tensor_read(p->outputs[0], y, sizeof y), NG_OK);
    assert_int_equal(ng_tensor_read(p->outputs[1], z, sizeof z), NG_OK);
    assert_int_equal(ng_tensor_read(p->outputs[2], &s, sizeof s), NG_OK);
    for (int i = 0; i < kN; ++i) {
        assert_float_equal(y[i], kX[i] * kV[i], 0);
        assert_float_equal(z[i], kX[i] + 2 * kV[i], 0);
    }
    assert_float_equal(s, 1 * 10 + 2 * 20 + 3 * 30, 0);
}

static void destroy(program *p, int object) {
    switch (object) {
    case kGraph: ng_graph_destroy(p->g), p->g = NULL; break;
    case kTransformer: ng_transformer_destroy(p->t), p->t = NULL; break;
    case kComputation: ng_computation_destroy(p->c), p->c = NULL; break;
    default: release_tensors(p); break;
    }
}

/* Every one of the 24 orders of destroying graph, transformer, computation and tensors; after
 * each step the computation (while it lives) runs and gives the right values. Nothing runs
 * before the first destruction, so in the orders that start with the graph the first run, which
 * initialises v and w, happens after the graph is gone. */
static void test_destroy_in_every_order(void **state) {
    (void)state;
    int order[kObjects] = {0, 1, 2, 3}, orders = 0;
    for (;;) {
        program p;
        build(&p);
        for (int k = 0; k < kObjects; ++k) {
            destroy(&p, order[k]);
            if (p.c) {
                run_and_check(&p);
                run_and_check(&p);
            }
        }
        release_tensors(&p); /* the runs after their release made new ones */
        ++orders;
        /* The next permutation in lexicographic order. */
        int i = kObjects - 2;
        while (i >= 0 && order[i] > order[i + 1]) --i;
        if (i < 0) break;
        int j = kObjects - 1;
        while (order[j] < order[i]) --j;
        int swap = order[i];
        order[i] = order[j], order[j] = swap;
        for (int a = i + 1, b = kObjects - 1; a < b; ++a, --b)
            swap = order[a], order[a] = order[b], order[b] = swap;
    }
    assert_int_equal(orders, 24);
}

/* A computation that has run, with the transformer handle and graph gone, still sees the values
 * its assigns leave: v += 1 at every run. */
static void test_assign_after_graph_and_transformer_are_gone(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 2);
    ng_op_t *v = ng_variable(g, NG_FLOAT64, &n, 1, ng_scalar_of(g, NG_FLOAT64, 5));
    ng_op_t *step = ng_assign(g, v, ng_add(g, v, ng_scalar_of(g, NG_FLOAT64, 1)));
    ng_op_t *items[2] = {step, ng_sum(g, v, &n, 1)};
    ng_op_t *total = ng_sequential(g, items, 2);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &total, 1, NULL, 0);
    assert_non_null(c);
    ng_graph_destroy(g);
    ng_transformer_destroy(t);
    for (int run = 1; run <= 3; ++run) {
        ng_tensor_t *out = NULL;
        assert_int_equal(ng_computation_run(c, NULL, 0, &out, 1), NG_OK);
        double got = 0;
        assert_int_equal(ng_tensor_read(out, &got, sizeof got), NG_OK);
        assert_float_equal(got, 2 * (5.0 + run), 0); /* both elements are 5 + run */
        ng_tensor_release(out);
    }
    ng_computation_destroy(c);
}

/* Graphs made and destroyed one after the other on one transformer: the allocator hands the new
 * ops the old ones' addresses, and each new variable must still start from its own initial value
 * with its own shape (an old value of another shape would be overrun). */
static void test_new_op_at_a_reused_address_has_its_own_value(void **state) {
    (void)state;
    ng_transformer_t *t = ng_transformer_create(NULL);
    for (int round = 0; round < 40; ++round) {
        const int64_t length = 1 + (round * 7) % 9;
        const double start = round;
        ng_graph_t *g = ng_graph_create();
        const ng_axis_t *n = ng_axis(g, "N", length);
        ng_op_t *v = ng_variable(g, NG_FLOAT64, &n, 1, ng_scalar_of(g, NG_FLOAT64, start));
        /* Before any run the transformer has no value for this tensor. */
        ng_tensor_t *none = (ng_tensor_t *)1;
        assert_int_equal(ng_transformer_get_value(t, v, &none), NG_ERR_NOT_FOUND);
        assert_null(none);
        ng_op_t *items[2] = {ng_assign(g, v, ng_add(g, v, ng_scalar_of(g, NG_FLOAT64, 1))), v};
        ng_op_t *seq = ng_sequential(g, items, 2);
        ng_computation_t *c = ng_computation_create(t, &seq, 1, NULL, 0);
        assert_non_null(c);
        ng_tensor_t *out = NULL;
        assert_int_equal(ng_computation_run(c, NULL, 0, &out, 1), NG_OK);
        assert_int_equal(ng_tensor_numel(out), length);
        double got[9];
        assert_int_equal(ng_tensor_read(out, got, (size_t)length * sizeof(double)), NG_OK);
        for (int64_t i = 0; i < length; ++i) assert_float_equal(got[i], start + 1, 0);
        ng_tensor_release(out);
        ng_tensor_t *value = NULL;
        assert_int_equal(ng_transformer_get_value(t, v, &value), NG_OK);
        assert_int_equal(ng_tensor_numel(value), length);
        ng_tensor_release(value);
        ng_computation_destroy(c);
        ng_graph_destroy(g);
    }
    ng_transformer_destroy(t);
}

/* Values set through the C API key the same identity as the computations': set, run, get. */
static void test_set_and_get_value_by_op(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 2);
    ng_op_t *v = ng_variable(g, NG_FLOAT32, &n, 1, NULL);
    ng_op_t *twice = ng_multiply(g, v, ng_scalar(g, 2));
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &twice, 1, NULL, 0);
    int64_t shape = 2;
    const float set[2] = {1.5f, -4};
    ng_tensor_t *value = ng_tensor_from_data(NG_FLOAT32, &shape, 1, set);
    assert_int_equal(ng_transformer_set_value(t, v, value), NG_OK);
    ng_tensor_release(value);
    ng_graph_destroy(g);
    ng_tensor_t *out = NULL;
    assert_int_equal(ng_computation_run(c, NULL, 0, &out, 1), NG_OK);
    float got[2];
    assert_int_equal(ng_tensor_read(out, got, sizeof got), NG_OK);
    assert_float_equal(got[0], 3, 0);
    assert_float_equal(got[1], -8, 0);
    ng_tensor_release(out);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_destroy_in_every_order),
        cmocka_unit_test(test_assign_after_graph_and_transformer_are_gone),
        cmocka_unit_test(test_new_op_at_a_reused_address_has_its_own_value),
        cmocka_unit_test(test_set_and_get_value_by_op),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
