/* Gradient checking through the public C API, shared by the tests/test_gradcheck_*.c programs.
 *
 * A check builds y from float64 placeholder inputs, reduces it to the scalar cost
 * sum(y * W) with a fixed random W of y's axes (so every element of y matters, each with its own
 * weight), and compares ng_deriv(cost, input) with central finite differences
 * (cost(x + h e_i) - cost(x - h e_i)) / 2h, h = 1e-6 * max(1, |x_i|), for every element of
 * every input. The score of an element is |a - n| / max(1, |a|, |n|): relative for large
 * derivatives and absolute near zero, where a relative error means nothing. */
#ifndef NG_TEST_GRADCHECK_HARNESS_H
#define NG_TEST_GRADCHECK_HARNESS_H

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nanograph/nanograph.h"

#define GC_MAX_INPUTS 4
#define GC_MAX_RANK 6
/* Central differences in float64 with h = 1e-6 are accurate to about 1e-9 here; 1e-6 leaves
 * room for the rounding of longer chains (docs/autodiff.md). */
#define GC_TOLERANCE 1e-6

typedef struct gradcheck {
    ng_graph_t *g;
    ng_op_t *inputs[GC_MAX_INPUTS];
    ng_tensor_t *values[GC_MAX_INPUTS];
    int n_inputs;
    uint64_t rng;
} gradcheck_t;

static inline double gc_uniform(gradcheck_t *c, double low, double high) {
    uint64_t z = (c->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return low + (high - low) * (double)(z >> 11) * 0x1.0p-53;
}

static inline void gc_begin(gradcheck_t *c, uint64_t seed) {
    memset(c, 0, sizeof *c);
    c->g = ng_graph_create();
    c->rng = seed;
    assert_non_null(c->g);
}

static inline void gc_end(gradcheck_t *c) {
    for (int i = 0; i < c->n_inputs; ++i) ng_tensor_release(c->values[i]);
    ng_graph_destroy(c->g);
}

/* A float64 input of the given axes holding uniform values in [low, high]. */
static inline ng_op_t *gc_input(gradcheck_t *c, const ng_axis_t *const *axes, int32_t rank,
                                double low, double high) {
    assert_true(c->n_inputs < GC_MAX_INPUTS);
    int64_t shape[GC_MAX_RANK];
    for (int32_t i = 0; i < rank; ++i) shape[i] = ng_axis_length(axes[i]);
    ng_tensor_t *t = ng_tensor_create(NG_FLOAT64, shape, rank);
    assert_non_null(t);
    double *data = ng_tensor_data(t);
    for (int64_t i = 0; i < ng_tensor_numel(t); ++i) data[i] = gc_uniform(c, low, high);
    ng_op_t *x = ng_placeholder(c->g, NG_FLOAT64, axes, rank, NULL);
    assert_non_null(x);
    c->inputs[c->n_inputs] = x;
    c->values[c->n_inputs++] = t;
    return x;
}

/* Overwrites element i of input k (for inputs that need exact values, such as ties). */
static inline void gc_set(gradcheck_t *c, int k, int64_t i, double value) {
    ((double *)ng_tensor_data(c->values[k]))[i] = value;
}

/* sum(y * W) with W uniform in [0.5, 1.5] over y's axes. */
static inline ng_op_t *gc_cost(gradcheck_t *c, ng_op_t *y) {
    int32_t rank = ng_op_rank(y);
    const ng_axis_t *axes[GC_MAX_RANK];
    int64_t n = 1;
    for (int32_t i = 0; i < rank; ++i) {
        axes[i] = ng_op_axis(y, i);
        n *= ng_axis_length(axes[i]);
    }
    double *w = malloc((size_t)n * sizeof *w);
    assert_non_null(w);
    for (int64_t i = 0; i < n; ++i) w[i] = gc_uniform(c, 0.5, 1.5);
    ng_op_t *weights = ng_constant(c->g, NG_FLOAT64, axes, rank, w);
    free(w);
    return ng_sum(c->g, ng_multiply(c->g, y, weights), NULL, 0);
}

static inline double gc_run_scalar(ng_computation_t *comp, ng_tensor_t *const *inputs, int32_t n) {
    ng_tensor_t *out = NULL;
    assert_int_equal(ng_computation_run(comp, inputs, n, &out, 1), NG_OK);
    double v = *(const double *)ng_tensor_data(out);
    ng_tensor_release(out);
    return v;
}

/* Checks d(sum(y * W))/d(input) for every input against central differences; returns the worst
 * score (also asserted to be at most `tolerance`). */
static inline double gc_check_tol(gradcheck_t *c, ng_op_t *y, double tolerance) {
    if (ng_graph_status(c->g) != NG_OK)
        fail_msg("building the graph failed: %s", ng_graph_error(c->g));
    assert_int_equal(ng_op_dtype(y), NG_FLOAT64);
    ng_op_t *cost = gc_cost(c, y);
    ng_op_t *grads[GC_MAX_INPUTS];
    for (int k = 0; k < c->n_inputs; ++k) {
        grads[k] = ng_deriv(c->g, cost, c->inputs[k]);
        if (!grads[k]) fail_msg("ng_deriv failed: %s", ng_last_error());
        assert_int_equal(ng_op_rank(grads[k]), ng_op_rank(c->inputs[k]));
        for (int32_t i = 0; i < ng_op_rank(grads[k]); ++i)
            assert_ptr_equal(ng_op_axis(grads[k], i), ng_op_axis(c->inputs[k], i));
    }
    ng_transformer_t *t = ng_transformer_create(NULL);
    assert_non_null(t);
    ng_computation_t *cost_comp = ng_computation_create(t, &cost, 1, c->inputs, c->n_inputs);
    ng_computation_t *grad_comp =
        ng_computation_create(t, grads, c->n_inputs, c->inputs, c->n_inputs);
    if (!cost_comp || !grad_comp) fail_msg("compiling failed: %s", ng_last_error());
    ng_tensor_t *analytic[GC_MAX_INPUTS] = {0};
    assert_int_equal(ng_computation_run(grad_comp, c->values, c->n_inputs, analytic, c->n_inputs),
                     NG_OK);

    double worst = 0;
    for (int k = 0; k < c->n_inputs; ++k) {
        double *x = ng_tensor_data(c->values[k]);
        const double *a = ng_tensor_data(analytic[k]);
        for (int64_t i = 0; i < ng_tensor_numel(c->values[k]); ++i) {
            const double saved = x[i], h = 1e-6 * fmax(1.0, fabs(saved));
            x[i] = saved + h;
            const double up = gc_run_scalar(cost_comp, c->values, c->n_inputs);
            x[i] = saved - h;
            const double down = gc_run_scalar(cost_comp, c->values, c->n_inputs);
            x[i] = saved;
            const double numeric = (up - down) / (2 * h);
            const double score = fabs(a[i] - numeric) / fmax(1.0, fmax(fabs(a[i]), fabs(numeric)));
            if (!(score <= tolerance))
                fail_msg("input %d element %lld: analytic %.12g, numeric %.12g (score %.3g > %.3g)",
                         k, (long long)i, a[i], numeric, score, tolerance);
            if (score > worst) worst = score;
        }
        ng_tensor_release(analytic[k]);
    }
    ng_computation_destroy(cost_comp);
    ng_computation_destroy(grad_comp);
    ng_transformer_destroy(t);
    return worst;
}

static inline double gc_check(gradcheck_t *c, ng_op_t *y) {
    return gc_check_tol(c, y, GC_TOLERANCE);
}

#endif
