/* softmax, log_softmax and cross_entropy_multi through the transformer, over one and two axes of
 * x(A, B, C), on logits up to +-5000, against a float64 reference that subtracts the group max.
 * Tolerances: probabilities to 1e-5 absolute in float32 (1e-12 in float64); log-probabilities and
 * cross entropies (up to ~1e4 in size) to 1e-5 relative in float32, 1e-12 in float64: the only
 * rounding is in x - max and a log of a sum of at most 60 terms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "exec_test_util.h"

enum { RANK = 3, NUMEL = 3 * 4 * 5 };
static const int64_t shape[RANK] = {3, 4, 5};
static const char *const names[RANK] = {"A", "B", "C"};

/* Logits that reach +-5000: alternate signs give spreads of 10000 in a group, the small added
 * term gives groups whose probabilities are not all 0 or 1. */
static double logit(int64_t i) {
    return (i % 2 ? 5000.0 : -5000.0) + (double)((i * 7) % 5) -
           (i % 11 == 0 ? 10000.0 * (i % 2) : 0);
}

/* Index of element i's group (its indices along the axes not in mask) and the group count. */
static int64_t group_of(int64_t i, unsigned mask) {
    int64_t idx[RANK], g = 0;
    for (int d = RANK - 1; d >= 0; --d) {
        idx[d] = i % shape[d];
        i /= shape[d];
    }
    for (int d = 0; d < RANK; ++d)
        if (!(mask & (1u << d))) g = g * shape[d] + idx[d];
    return g;
}

/* log_softmax of x over the axes of mask, in float64 with the max subtracted. */
static void reference_log_softmax(const double *x, unsigned mask, double *out) {
    double mx[NUMEL], sum[NUMEL];
    for (int64_t g = 0; g < NUMEL; ++g) {
        mx[g] = -INFINITY;
        sum[g] = 0;
    }
    for (int64_t i = 0; i < NUMEL; ++i) {
        int64_t g = group_of(i, mask);
        if (x[i] > mx[g]) mx[g] = x[i];
    }
    for (int64_t i = 0; i < NUMEL; ++i) sum[group_of(i, mask)] += exp(x[i] - mx[group_of(i, mask)]);
    for (int64_t i = 0; i < NUMEL; ++i)
        out[i] = x[i] - mx[group_of(i, mask)] - log(sum[group_of(i, mask)]);
}

static int32_t listed_axes(const ng_axis_t *const *axes, unsigned mask, const ng_axis_t **listed) {
    int32_t n = 0;
    for (int d = RANK - 1; d >= 0; --d) /* listed in reverse order: order must not matter */
        if (mask & (1u << d)) listed[n++] = axes[d];
    return n;
}

static const unsigned masks[] = {1u << 2, 1u << 0, (1u << 0) | (1u << 2), (1u << 1) | (1u << 2),
                                 7u};

static void check_softmax(ng_dtype_t dt, unsigned mask, int log_form) {
    double x[NUMEL], want[NUMEL], got[NUMEL];
    for (int64_t i = 0; i < NUMEL; ++i) x[i] = logit(i);
    reference_log_softmax(x, mask, want);
    if (!log_form)
        for (int64_t i = 0; i < NUMEL; ++i) want[i] = exp(want[i]);
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *axes[RANK], *listed[RANK];
    for (int d = 0; d < RANK; ++d) axes[d] = ng_axis(g, names[d], shape[d]);
    int32_t n = listed_axes(axes, mask, listed);
    ng_op_t *px = ng_placeholder(g, dt, axes, RANK, NULL);
    ng_op_t *s = log_form ? ng_log_softmax(g, px, listed, n) : ng_softmax(g, px, listed, n);
    ng_tensor_t *tx = ex_tensor(dt, shape, RANK, x);
    ex_run_read(g, s, &px, &tx, 1, dt, got, NUMEL);
    char what[64];
    snprintf(what, sizeof what, "%s %s mask %u", log_form ? "log_softmax" : "softmax",
             ng_dtype_name(dt), mask);
    for (int64_t i = 0; i < NUMEL; ++i)
        if (!isfinite(got[i])) fail_msg("%s[%lld] is not finite: %g", what, (long long)i, got[i]);
    ex_assert_close(got, want, NUMEL, ex_tol(dt), what);
    if (!log_form) {
        /* Every group sums to 1. */
        double sums[NUMEL] = {0};
        for (int64_t i = 0; i < NUMEL; ++i) sums[group_of(i, mask)] += got[i];
        int64_t groups = 1;
        for (int d = 0; d < RANK; ++d)
            if (!(mask & (1u << d))) groups *= shape[d];
        for (int64_t k = 0; k < groups; ++k)
            if (fabs(sums[k] - 1) > 10 * ex_tol(dt))
                fail_msg("%s: group %lld sums to %.17g", what, (long long)k, sums[k]);
    }
    ng_tensor_release(tx);
    ng_graph_destroy(g);
}

static void test_softmax_one_and_two_axes_at_5000(void **state) {
    (void)state;
    const ng_dtype_t dtypes[] = {NG_FLOAT32, NG_FLOAT64};
    for (size_t d = 0; d < 2; ++d)
        for (size_t m = 0; m < sizeof masks / sizeof masks[0]; ++m) {
            check_softmax(dtypes[d], masks[m], 0);
            check_softmax(dtypes[d], masks[m], 1);
        }
}

/* cross_entropy_multi(softmax(x), t) over the normalised axes, with soft targets: finite and
 * equal to -sum(t * log_softmax(x)) even where softmax underflows to 0. */
static void check_cross_entropy(ng_dtype_t dt, unsigned mask) {
    double x[NUMEL], t[NUMEL], logp[NUMEL], want[NUMEL] = {0}, got[NUMEL];
    for (int64_t i = 0; i < NUMEL; ++i) x[i] = logit(i);
    for (int64_t i = 0; i < NUMEL; ++i) t[i] = (double)((i * 3) % 4) / 4; /* exact in float32 */
    reference_log_softmax(x, mask, logp);
    int64_t groups = 1;
    for (int d = 0; d < RANK; ++d)
        if (!(mask & (1u << d))) groups *= shape[d];
    for (int64_t i = 0; i < NUMEL; ++i) want[group_of(i, mask)] -= t[i] * logp[i];
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *axes[RANK], *listed[RANK];
    for (int d = 0; d < RANK; ++d) axes[d] = ng_axis(g, names[d], shape[d]);
    int32_t n = listed_axes(axes, mask, listed);
    ng_op_t *px = ng_placeholder(g, dt, axes, RANK, NULL);
    ng_op_t *pt = ng_placeholder(g, dt, axes, RANK, NULL);
    ng_op_t *ce = ng_cross_entropy_multi(g, ng_softmax(g, px, listed, n), pt, listed, n);
    assert_non_null(ce);
    assert_int_equal(ng_op_rank(ce), RANK - n);
    ng_op_t *params[2] = {px, pt};
    ng_tensor_t *tx = ex_tensor(dt, shape, RANK, x), *tt = ex_tensor(dt, shape, RANK, t);
    ng_tensor_t *inputs[2] = {tx, tt};
    ex_run_read(g, ce, params, inputs, 2, dt, got, groups);
    char what[64];
    snprintf(what, sizeof what, "cross_entropy_multi %s mask %u", ng_dtype_name(dt), mask);
    for (int64_t k = 0; k < groups; ++k)
        if (!isfinite(got[k])) fail_msg("%s[%lld] is not finite: %g", what, (long long)k, got[k]);
    ex_assert_close(got, want, groups, ex_tol(dt), what);
    ng_tensor_release(tx);
    ng_tensor_release(tt);
    ng_graph_destroy(g);
}

static void test_cross_entropy_multi_at_5000(void **state) {
    (void)state;
    const ng_dtype_t dtypes[] = {NG_FLOAT32, NG_FLOAT64};
    for (size_t d = 0; d < 2; ++d)
        for (size_t m = 0; m < sizeof masks / sizeof masks[0]; ++m)
            check_cross_entropy(dtypes[d], masks[m]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_softmax_one_and_two_axes_at_5000),
        cmocka_unit_test(test_cross_entropy_multi_at_5000),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
