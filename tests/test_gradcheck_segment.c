/* Derivatives of the segment ops (sum, mean, max with and without ties, min, softmax,
 * log-softmax, gather) and of a per-element layer pooled by segments, against central
 * differences (test_gradcheck_harness.h). Segments of lengths 2, 0, 3, 1, 1. */
#include "test_gradcheck_harness.h"

static const int64_t kSplits[6] = {0, 2, 2, 5, 6, 7};

typedef struct {
    const ng_axis_t *j, *s, *h, *r;
    ng_op_t *splits;
} segs_t;

static segs_t segments(gradcheck_t *c) {
    segs_t t;
    t.j = ng_axis(c->g, "J", 7);
    t.s = ng_axis(c->g, "S", 5);
    t.h = ng_axis(c->g, "H", 2);
    t.r = ng_axis(c->g, "R", 6);
    t.splits = ng_constant(c->g, NG_INT64, &t.r, 1, kSplits);
    return t;
}

typedef ng_op_t *(*segment_fn)(ng_graph_t *, ng_op_t *, const ng_axis_t *, ng_op_t *,
                               const ng_axis_t *);

static void check_one(segment_fn fn, uint64_t seed) {
    gradcheck_t c;
    gc_begin(&c, seed);
    segs_t t = segments(&c);
    const ng_axis_t *hj[] = {t.h, t.j};
    ng_op_t *x = gc_input(&c, hj, 2, -2, 2);
    gc_check(&c, fn(c.g, x, t.j, t.splits, t.s));
    gc_end(&c);
}

/* Max and min give -inf / +inf for the empty segment: it is replaced by 0 before the cost. */
static ng_op_t *without_empty(gradcheck_t *c, ng_op_t *y) {
    ng_op_t *finite = ng_less(c->g, ng_absolute(c->g, y), ng_scalar_of(c->g, NG_FLOAT64, 1e300));
    return ng_select(c->g, finite, y, ng_scalar_of(c->g, NG_FLOAT64, 0.0));
}

static void sum_mean_softmax_log_softmax(void **state) {
    (void)state;
    check_one(ng_segment_sum, 1);
    check_one(ng_segment_mean, 2);
    check_one(ng_segment_softmax, 3);
    check_one(ng_segment_log_softmax, 4);
}

static void max_and_min(void **state) {
    (void)state;
    segment_fn fns[] = {ng_segment_max, ng_segment_min};
    for (int i = 0; i < 2; ++i) {
        gradcheck_t c;
        gc_begin(&c, 10 + (uint64_t)i);
        segs_t t = segments(&c);
        const ng_axis_t *jh[] = {t.j, t.h};
        ng_op_t *x = gc_input(&c, jh, 2, -2, 2);
        gc_check(&c, without_empty(&c, fns[i](c.g, x, t.j, t.splits, t.s)));
        gc_end(&c);
    }
}

/* Two equal maxima in segment 2 (rows 2 and 4 at H = 0) share the adjoint equally, 1/2 each (a
 * subgradient: the max is not differentiable there, so no finite difference applies). */
static void tied_maxima_share_the_adjoint(void **state) {
    (void)state;
    gradcheck_t c;
    gc_begin(&c, 20);
    segs_t t = segments(&c);
    const ng_axis_t *jh[] = {t.j, t.h};
    ng_op_t *x = gc_input(&c, jh, 2, -2, 2);
    gc_set(&c, 0, 2 * 2 + 0, 5.0);
    gc_set(&c, 0, 4 * 2 + 0, 5.0);
    ng_op_t *m = without_empty(&c, ng_segment_max(c.g, x, t.j, t.splits, t.s));
    ng_op_t *cost = ng_sum(c.g, m, NULL, 0);
    ng_op_t *grad = ng_deriv(c.g, cost, x);
    ng_transformer_t *tr = ng_transformer_create(NULL);
    ng_computation_t *comp = ng_computation_create(tr, &grad, 1, c.inputs, 1);
    ng_tensor_t *out = NULL;
    assert_int_equal(ng_computation_run(comp, c.values, 1, &out, 1), NG_OK);
    const double *d = ng_tensor_data(out);
    assert_true(fabs(d[2 * 2] - 0.5) < 1e-15);
    assert_true(fabs(d[4 * 2] - 0.5) < 1e-15);
    assert_true(d[3 * 2] == 0.0);
    ng_tensor_release(out);
    ng_computation_destroy(comp);
    ng_transformer_destroy(tr);
    gc_end(&c);
}

static void gather(void **state) {
    (void)state;
    gradcheck_t c;
    gc_begin(&c, 30);
    segs_t t = segments(&c);
    const ng_axis_t *hs[] = {t.h, t.s};
    ng_op_t *y = gc_input(&c, hs, 2, -1, 1);
    gc_check(&c, ng_segment_gather(c.g, y, t.s, t.splits, t.j));
    gc_end(&c);
}

/* A per-element layer, pooled: mean over segments of tanh(x . W), then a log-softmax over the
 * segments of gather(pooled) * x; gradients for x and W. */
static void layer_pooled_by_segments(void **state) {
    (void)state;
    gradcheck_t c;
    gc_begin(&c, 40);
    segs_t t = segments(&c);
    const ng_axis_t *k = ng_axis(c.g, "K", 3);
    const ng_axis_t *jh[] = {t.j, t.h}, *hk[] = {t.h, k};
    ng_op_t *x = gc_input(&c, jh, 2, -1, 1);
    ng_op_t *w = gc_input(&c, hk, 2, -1, 1);
    ng_op_t *hidden = ng_tanh(c.g, ng_dot(c.g, x, w));
    ng_op_t *pooled = ng_segment_mean(c.g, hidden, t.j, t.splits, t.s);
    ng_op_t *back = ng_segment_gather(c.g, pooled, t.s, t.splits, t.j);
    ng_op_t *scores = ng_sum(c.g, ng_multiply(c.g, back, hidden), &k, 1);
    gc_check(&c, ng_segment_log_softmax(c.g, scores, t.j, t.splits, t.s));
    gc_end(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sum_mean_softmax_log_softmax),  cmocka_unit_test(max_and_min),
        cmocka_unit_test(tied_maxima_share_the_adjoint), cmocka_unit_test(gather),
        cmocka_unit_test(layer_pooled_by_segments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
