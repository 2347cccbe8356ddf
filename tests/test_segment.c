/* Jagged values in graphs: segment sum, mean, max, min, softmax, log-softmax and gather over a
 * flat axis with row splits (constant or fed at run time), against scalar loops over the
 * segments; elementwise ops with dense values and dot of every element with a matrix; bad splits
 * at run time; bad input at every builder. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "exec_test_util.h"
#include "expect_error.h"

/* Segments of lengths 2, 0, 3, 1 over J(6); H(3) an inner axis. */
static const int64_t kSplits[5] = {0, 2, 2, 5, 6};
enum { J = 6, S = 4, H = 3 };

typedef struct {
    ng_graph_t *g;
    const ng_axis_t *j, *s, *h, *r;
    ng_op_t *splits;
} fixture_t;

static void setup(fixture_t *f, int constant_splits) {
    f->g = ng_graph_create();
    f->j = ng_axis(f->g, "J", J);
    f->s = ng_axis(f->g, "S", S);
    f->h = ng_axis(f->g, "H", H);
    f->r = ng_axis(f->g, "R", S + 1);
    f->splits = constant_splits ? ng_constant(f->g, NG_INT64, &f->r, 1, kSplits)
                                : ng_placeholder(f->g, NG_INT64, &f->r, 1, NULL);
}

static double value(int64_t j, int64_t h) {
    return sin(0.7 * (double)(j * H + h)) * 3 + (double)h;
}

static void sums_means_maxes_and_mins(void **state) {
    (void)state;
    fixture_t f;
    setup(&f, 1);
    /* x over (H, J): the flat axis is not first, so the compiler packs it. */
    double xv[H * J];
    for (int h = 0; h < H; ++h)
        for (int j = 0; j < J; ++j) xv[h * J + j] = value(j, h);
    const ng_axis_t *hj[] = {f.h, f.j};
    ng_op_t *x = ng_constant(f.g, NG_FLOAT64, hj, 2, xv);
    ng_op_t *sum = ng_segment_sum(f.g, x, f.j, f.splits, f.s);
    ng_op_t *mean = ng_segment_mean(f.g, x, f.j, f.splits, f.s);
    ng_op_t *max = ng_segment_max(f.g, x, f.j, f.splits, f.s);
    ng_op_t *min = ng_segment_min(f.g, x, f.j, f.splits, f.s);
    assert_int_equal(ng_op_rank(sum), 2);
    assert_ptr_equal(ng_op_axis(sum, 0), f.s);
    assert_ptr_equal(ng_op_axis(sum, 1), f.h);
    assert_string_equal(ng_op_type(sum), "SegmentSum");

    double want_sum[S * H], want_mean[S * H], want_max[S * H], want_min[S * H];
    for (int s = 0; s < S; ++s)
        for (int h = 0; h < H; ++h) {
            double total = 0, hi = -INFINITY, lo = INFINITY;
            for (int64_t j = kSplits[s]; j < kSplits[s + 1]; ++j) {
                total += value(j, h);
                hi = fmax(hi, value(j, h));
                lo = fmin(lo, value(j, h));
            }
            int64_t n = kSplits[s + 1] - kSplits[s];
            want_sum[s * H + h] = total;
            want_mean[s * H + h] = n ? total / (double)n : 0; /* empty: 0 */
            want_max[s * H + h] = hi;
            want_min[s * H + h] = lo;
        }
    double got[S * H];
    ex_run_read(f.g, sum, NULL, NULL, 0, NG_FLOAT64, got, S * H);
    ex_assert_close(got, want_sum, S * H, 1e-12, "segment_sum");
    ex_run_read(f.g, mean, NULL, NULL, 0, NG_FLOAT64, got, S * H);
    ex_assert_close(got, want_mean, S * H, 1e-12, "segment_mean");
    ex_run_read(f.g, max, NULL, NULL, 0, NG_FLOAT64, got, S * H);
    for (int i = 0; i < S * H; ++i) assert_true(got[i] == want_max[i]); /* -inf when empty */
    ex_run_read(f.g, min, NULL, NULL, 0, NG_FLOAT64, got, S * H);
    for (int i = 0; i < S * H; ++i) assert_true(got[i] == want_min[i]);
    ng_graph_destroy(f.g);
}

/* Integer sums are exact; a flat axis alone (no inner axis). */
static void integer_sum_over_a_flat_axis(void **state) {
    (void)state;
    fixture_t f;
    setup(&f, 1);
    const int32_t xv[J] = {1, 2, 3, 4, 5, 6};
    ng_op_t *x = ng_constant(f.g, NG_INT32, &f.j, 1, xv);
    double got[S];
    ex_run_read(f.g, ng_segment_sum(f.g, x, f.j, f.splits, f.s), NULL, NULL, 0, NG_INT32, got, S);
    const double want[S] = {1 + 2, 0, 3 + 4 + 5, 6};
    ex_assert_close(got, want, S, 0, "int32 segment_sum");
    ng_graph_destroy(f.g);
}

/* Softmax per segment at large logits, against a float64 loop; log-softmax likewise. */
static void softmax_per_segment(void **state) {
    (void)state;
    fixture_t f;
    setup(&f, 0);
    const ng_axis_t *jh[] = {f.j, f.h};
    ng_op_t *x = ng_placeholder(f.g, NG_FLOAT32, jh, 2, NULL);
    ng_op_t *y = ng_segment_softmax(f.g, x, f.j, f.splits, f.s);
    ng_op_t *ly = ng_segment_log_softmax(f.g, x, f.j, f.splits, f.s);
    assert_ptr_equal(ng_op_axis(y, 0), f.j);
    double xv[J * H];
    for (int j = 0; j < J; ++j)
        for (int h = 0; h < H; ++h)
            xv[j * H + h] = 1000 * value(j, h); /* exp overflows unshifted */
    const int64_t shape[] = {J, H}, sshape[] = {S + 1};
    const double sv[] = {0, 2, 2, 5, 6};
    ng_tensor_t *inputs[] = {ex_tensor(NG_FLOAT32, shape, 2, xv),
                             ex_tensor(NG_INT64, sshape, 1, sv)};
    ng_op_t *params[] = {x, f.splits};
    double want[J * H], want_log[J * H];
    for (int s = 0; s < S; ++s)
        for (int h = 0; h < H; ++h) {
            double m = -INFINITY, total = 0;
            for (int64_t j = kSplits[s]; j < kSplits[s + 1]; ++j) m = fmax(m, (float)xv[j * H + h]);
            for (int64_t j = kSplits[s]; j < kSplits[s + 1]; ++j)
                total += exp((float)xv[j * H + h] - m);
            for (int64_t j = kSplits[s]; j < kSplits[s + 1]; ++j) {
                want[j * H + h] = exp((float)xv[j * H + h] - m) / total;
                want_log[j * H + h] = (float)xv[j * H + h] - m - log(total);
            }
        }
    double got[J * H];
    ex_run_read(f.g, y, params, inputs, 2, NG_FLOAT32, got, J * H);
    ex_assert_close(got, want, J * H, 1e-5, "segment_softmax");
    ex_run_read(f.g, ly, params, inputs, 2, NG_FLOAT32, got, J * H);
    ex_assert_close(got, want_log, J * H, 1e-5, "segment_log_softmax");
    ng_tensor_release(inputs[0]);
    ng_tensor_release(inputs[1]);
    ng_graph_destroy(f.g);
}

/* gather(segment values) + x: every element sees its segment's value; a dense bias over H
 * broadcasts by name; dot of every element with a matrix W(H, K) then a segment sum. */
static void gather_broadcast_and_dot(void **state) {
    (void)state;
    fixture_t f;
    setup(&f, 1);
    const ng_axis_t *k = ng_axis(f.g, "K", 2);
    double xv[J * H], yv[S * H], bv[H], wv[H * 2];
    for (int i = 0; i < J * H; ++i) xv[i] = value(i / H, i % H);
    for (int i = 0; i < S * H; ++i) yv[i] = 10.0 * i;
    for (int i = 0; i < H; ++i) bv[i] = 0.5 * i;
    for (int i = 0; i < H * 2; ++i) wv[i] = 1.0 + i;
    const ng_axis_t *jh[] = {f.j, f.h}, *sh[] = {f.s, f.h}, *hk[] = {f.h, k};
    ng_op_t *x = ng_constant(f.g, NG_FLOAT64, jh, 2, xv);
    ng_op_t *y = ng_constant(f.g, NG_FLOAT64, sh, 2, yv);
    ng_op_t *b = ng_constant(f.g, NG_FLOAT64, &f.h, 1, bv);
    ng_op_t *w = ng_constant(f.g, NG_FLOAT64, hk, 2, wv);
    ng_op_t *gathered = ng_segment_gather(f.g, y, f.s, f.splits, f.j);
    assert_ptr_equal(ng_op_axis(gathered, 0), f.j);
    ng_op_t *z = ng_add(f.g, ng_add(f.g, x, gathered), b);
    ng_op_t *pooled = ng_segment_sum(f.g, ng_dot(f.g, z, w), f.j, f.splits, f.s);
    double want_z[J * H], want_pooled[S * 2] = {0};
    for (int s = 0; s < S; ++s)
        for (int64_t j = kSplits[s]; j < kSplits[s + 1]; ++j)
            for (int h = 0; h < H; ++h) {
                want_z[j * H + h] = xv[j * H + h] + yv[s * H + h] + bv[h];
                for (int c = 0; c < 2; ++c)
                    want_pooled[s * 2 + c] += want_z[j * H + h] * wv[h * 2 + c];
            }
    double got[J * H];
    ex_run_read(f.g, z, NULL, NULL, 0, NG_FLOAT64, got, J * H);
    ex_assert_close(got, want_z, J * H, 1e-12, "gather + x + b");
    ex_run_read(f.g, pooled, NULL, NULL, 0, NG_FLOAT64, got, S * 2);
    ex_assert_close(got, want_pooled, S * 2, 1e-12, "segment_sum(dot)");
    ng_graph_destroy(f.g);
}

/* Splits fed at run time are checked there. */
static void bad_splits_fail_the_run(void **state) {
    (void)state;
    fixture_t f;
    setup(&f, 0);
    ng_op_t *x = ng_placeholder(f.g, NG_FLOAT32, &f.j, 1, NULL);
    ng_op_t *sum = ng_segment_sum(f.g, x, f.j, f.splits, f.s);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_op_t *params[] = {x, f.splits};
    ng_computation_t *c = ng_computation_create(t, &sum, 1, params, 2);
    assert_non_null(c);
    const double xv[J] = {1, 1, 1, 1, 1, 1};
    const int64_t xs[] = {J}, ss[] = {S + 1};
    const double bad[][S + 1] = {{1, 2, 2, 5, 6}, {0, 3, 2, 5, 6}, {0, 2, 2, 5, 7}};
    const char *why[] = {"start at 1", "decrease at entry 2", "end at 7"};
    for (int i = 0; i < 3; ++i) {
        ng_tensor_t *in[] = {ex_tensor(NG_FLOAT32, xs, 1, xv), ex_tensor(NG_INT64, ss, 1, bad[i])};
        ng_tensor_t *out[1] = {NULL};
        assert_int_equal(ng_computation_run(c, in, 2, out, 1), NG_ERR_INVALID_ARGUMENT);
        expect_error(NG_ERR_INVALID_ARGUMENT, "ng_computation_run", why[i]);
        assert_null(out[0]);
        ng_tensor_release(in[0]);
        ng_tensor_release(in[1]);
    }
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(f.g);
}

static void bad_builder_input(void **state) {
    (void)state;
    fixture_t f;
    setup(&f, 1);
    const ng_axis_t *jh[] = {f.j, f.h};
    ng_op_t *x = ng_placeholder(f.g, NG_FLOAT32, jh, 2, NULL);
    ng_op_t *int_splits = ng_placeholder(f.g, NG_INT32, &f.r, 1, NULL);
    assert_null(ng_segment_sum(f.g, x, f.j, int_splits, f.s));
    expect_error(NG_ERR_DTYPE, "ng_segment_sum", "not int64");
    const ng_axis_t *r6 = ng_axis(f.g, "R6", 6);
    ng_op_t *long_splits = ng_placeholder(f.g, NG_INT64, &r6, 1, NULL);
    assert_null(ng_segment_max(f.g, x, f.j, long_splits, f.s));
    expect_error(NG_ERR_AXES, "ng_segment_max", "length 5");
    const ng_axis_t *other = ng_axis(f.g, "W", 6);
    assert_null(ng_segment_mean(f.g, x, other, f.splits, f.s));
    expect_error(NG_ERR_AXES, "ng_segment_mean", "W(6) is not an axis");
    assert_null(ng_segment_sum(f.g, x, f.j, f.splits, f.h));
    expect_error(NG_ERR_AXES, "ng_segment_sum", "length 4");
    const ng_axis_t *h4 = ng_axis(f.g, "H", 4);
    const ng_axis_t *r5 = ng_axis(f.g, "R", 5);
    (void)r5;
    assert_null(ng_segment_sum(f.g, x, f.j, f.splits, h4));
    expect_error(NG_ERR_AXES, "ng_segment_sum", "already has an axis named H");
    ng_op_t *ints = ng_placeholder(f.g, NG_INT32, jh, 2, NULL);
    assert_null(ng_segment_softmax(f.g, ints, f.j, f.splits, f.s));
    expect_error(NG_ERR_DTYPE, "ng_segment_softmax", "");
    ng_op_t *flags = ng_placeholder(f.g, NG_BOOL, jh, 2, NULL);
    assert_null(ng_segment_min(f.g, flags, f.j, f.splits, f.s));
    expect_error(NG_ERR_DTYPE, "ng_segment_min", "");
    assert_null(ng_segment_log_softmax(f.g, NULL, f.j, f.splits, f.s));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_segment_log_softmax", "x is NULL");
    assert_null(ng_segment_gather(f.g, x, f.s, f.splits, f.j));
    expect_error(NG_ERR_AXES, "ng_segment_gather", "S(4) is not an axis");
    assert_null(ng_segment_gather(f.g, x, f.s, NULL, f.j));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_segment_gather", "splits is NULL");
    assert_null(ng_segment_sum(f.g, x, NULL, f.splits, f.s));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_segment_sum", "along is NULL");
    ng_graph_t *g2 = ng_graph_create();
    const ng_axis_t *foreign = ng_axis(g2, "S", 4);
    assert_null(ng_segment_sum(f.g, x, f.j, f.splits, foreign));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_segment_sum", "segments");
    /* The graph keeps the first error. */
    assert_int_equal(ng_graph_status(f.g), NG_ERR_DTYPE);
    ng_graph_destroy(g2);
    ng_graph_destroy(f.g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sums_means_maxes_and_mins), cmocka_unit_test(integer_sum_over_a_flat_axis),
        cmocka_unit_test(softmax_per_segment),       cmocka_unit_test(gather_broadcast_and_dot),
        cmocka_unit_test(bad_splits_fail_the_run),   cmocka_unit_test(bad_builder_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
