/* ng_uniform and ng_normal: new values at every run from the transformer's seeded generator,
 * exactly reproducible from the seed whatever the thread count, with moments within bounds
 * derived from the sample size. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nanograph/nanograph.h"

enum { N = 100000 };

typedef struct {
    ng_graph_t *g;
    ng_op_t *op;
} program_t;

static program_t uniform_program(ng_dtype_t dt, double low, double high) {
    program_t p = {ng_graph_create(), NULL};
    const ng_axis_t *n = ng_axis(p.g, "N", N);
    p.op = ng_uniform(p.g, dt, &n, 1, low, high);
    assert_non_null(p.op);
    return p;
}

/* Runs c once and reads its float64 (converted if float32) output into out. */
static void run_into(ng_computation_t *c, double *out) {
    ng_tensor_t *o = NULL;
    if (ng_computation_run(c, NULL, 0, &o, 1) != NG_OK) fail_msg("run: %s", ng_last_error());
    int64_t n = ng_tensor_numel(o);
    if (ng_tensor_dtype(o) == NG_FLOAT64) {
        assert_int_equal(ng_tensor_read(o, out, sizeof(double) * (size_t)n), NG_OK);
    } else {
        float *f = malloc(sizeof(float) * (size_t)n);
        assert_int_equal(ng_tensor_read(o, f, sizeof(float) * (size_t)n), NG_OK);
        for (int64_t i = 0; i < n; ++i) out[i] = f[i];
        free(f);
    }
    ng_tensor_release(o);
}

static ng_computation_t *compile_on(ng_transformer_t *t, ng_op_t *op) {
    ng_computation_t *c = ng_computation_create(t, &op, 1, NULL, 0);
    if (!c) fail_msg("compile: %s", ng_last_error());
    return c;
}

/* Same seed: the same values run for run, on 1 thread and on 3; the next run draws anew;
 * ng_transformer_set_seed restarts the sequence; another seed gives other values. */
static void test_reproducible_from_seed(void **state) {
    (void)state;
    program_t p = uniform_program(NG_FLOAT32, 0, 1);
    double *a1 = malloc(sizeof(double) * N), *a2 = malloc(sizeof(double) * N);
    double *b1 = malloc(sizeof(double) * N), *b2 = malloc(sizeof(double) * N);
    ng_transformer_t *ta = ng_transformer_create(NULL), *tb = ng_transformer_create(NULL);
    assert_int_equal(ng_transformer_set_num_threads(ta, 1), NG_OK);
    assert_int_equal(ng_transformer_set_num_threads(tb, 3), NG_OK);
    assert_int_equal(ng_transformer_set_seed(ta, 42), NG_OK);
    assert_int_equal(ng_transformer_set_seed(tb, 42), NG_OK);
    ng_computation_t *ca = compile_on(ta, p.op), *cb = compile_on(tb, p.op);
    run_into(ca, a1);
    run_into(ca, a2);
    run_into(cb, b1);
    run_into(cb, b2);
    assert_memory_equal(a1, b1, sizeof(double) * N);
    assert_memory_equal(a2, b2, sizeof(double) * N);
    int64_t same = 0;
    for (int64_t i = 0; i < N; ++i) same += a1[i] == a2[i];
    assert_true(same < N / 100); /* float32 values repeat by chance about N * N / 2^24 times */

    assert_int_equal(ng_transformer_set_seed(tb, 42), NG_OK);
    run_into(cb, b2);
    assert_memory_equal(a1, b2, sizeof(double) * N);
    assert_int_equal(ng_transformer_set_seed(tb, 43), NG_OK);
    run_into(cb, b2);
    same = 0;
    for (int64_t i = 0; i < N; ++i) same += a1[i] == b2[i];
    assert_true(same < N / 100);

    ng_computation_destroy(ca);
    ng_computation_destroy(cb);
    ng_transformer_destroy(ta);
    ng_transformer_destroy(tb);
    ng_graph_destroy(p.g);
    free(a1), free(a2), free(b1), free(b2);
}

/* Sample mean and variance of n draws; for an i.i.d. sample the standard error of the mean is
 * sqrt(var / n) and that of the variance about sqrt((mu4 - var^2) / n). Bounds are 6 standard
 * errors: a correct generator fails them with probability below 1e-8. */
static void moments(const double *x, int64_t n, double *mean, double *var) {
    double s = 0, ss = 0;
    for (int64_t i = 0; i < n; ++i) s += x[i];
    *mean = s / (double)n;
    for (int64_t i = 0; i < n; ++i) ss += (x[i] - *mean) * (x[i] - *mean);
    *var = ss / (double)(n - 1);
}

static void test_uniform_moments(void **state) {
    (void)state;
    const double low = -1, high = 3;
    program_t p = uniform_program(NG_FLOAT64, low, high);
    double *x = malloc(sizeof(double) * N);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = compile_on(t, p.op);
    run_into(c, x);
    for (int64_t i = 0; i < N; ++i) assert_true(x[i] >= low && x[i] < high);
    double mean, var;
    moments(x, N, &mean, &var);
    const double w = high - low, true_var = w * w / 12, mu4 = w * w * w * w / 80;
    assert_true(fabs(mean - (low + high) / 2) < 6 * sqrt(true_var / N));
    assert_true(fabs(var - true_var) < 6 * sqrt((mu4 - true_var * true_var) / N));
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(p.g);
    free(x);
}

static void test_normal_moments(void **state) {
    (void)state;
    const double mu = 2, sigma = 0.5;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", N);
    ng_op_t *op = ng_normal(g, NG_FLOAT32, &n, 1, mu, sigma);
    double *x = malloc(sizeof(double) * N);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = compile_on(t, op);
    run_into(c, x);
    double mean, var;
    moments(x, N, &mean, &var);
    const double v = sigma * sigma;
    assert_true(fabs(mean - mu) < 6 * sqrt(v / N));
    assert_true(fabs(var - v) < 6 * sqrt(2 * v * v / N)); /* mu4 = 3 sigma^4 */
    /* The tails are there: about 0.27% of the draws lie beyond 3 sigma. */
    int64_t beyond = 0;
    for (int64_t i = 0; i < N; ++i) beyond += fabs(x[i] - mu) > 3 * sigma;
    assert_true(beyond > 150 && beyond < 400);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
    free(x);
}

/* One op has one value per run wherever it is used (u - u = 0); two ops with the same
 * parameters are different draws (the compiler does not merge them). */
static void test_one_value_per_op_and_run(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 64);
    ng_op_t *u = ng_uniform(g, NG_FLOAT32, &n, 1, 0, 1);
    ng_op_t *v = ng_uniform(g, NG_FLOAT32, &n, 1, 0, 1);
    ng_op_t *results[2] = {ng_subtract(g, u, u), ng_subtract(g, u, v)};
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, results, 2, NULL, 0);
    assert_non_null(c);
    ng_tensor_t *out[2] = {NULL, NULL};
    assert_int_equal(ng_computation_run(c, NULL, 0, out, 2), NG_OK);
    float zero[64], diff[64];
    assert_int_equal(ng_tensor_read(out[0], zero, sizeof zero), NG_OK);
    assert_int_equal(ng_tensor_read(out[1], diff, sizeof diff), NG_OK);
    int nonzero = 0;
    for (int i = 0; i < 64; ++i) {
        assert_true(zero[i] == 0);
        nonzero += diff[i] != 0;
    }
    assert_true(nonzero > 60);
    ng_tensor_release(out[0]);
    ng_tensor_release(out[1]);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

static void expect_error(const void *result, ng_status_t want, const char *function) {
    assert_null(result);
    assert_int_equal(ng_last_status(), want);
    assert_non_null(strstr(ng_last_error(), function));
}

static void test_random_bad_input(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create(), *other = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 4);
    const ng_axis_t *twice[2] = {n, n};
    const ng_axis_t *foreign = ng_axis(other, "M", 2);
    expect_error(ng_uniform(NULL, NG_FLOAT32, &n, 1, 0, 1), NG_ERR_INVALID_ARGUMENT, "ng_uniform");
    expect_error(ng_uniform(g, NG_INT32, &n, 1, 0, 1), NG_ERR_DTYPE, "ng_uniform");
    expect_error(ng_uniform(g, NG_FLOAT32, &n, 1, 1, 1), NG_ERR_INVALID_ARGUMENT, "ng_uniform");
    expect_error(ng_uniform(g, NG_FLOAT32, &n, 1, 2, 1), NG_ERR_INVALID_ARGUMENT, "ng_uniform");
    expect_error(ng_uniform(g, NG_FLOAT32, &n, 1, 0, INFINITY), NG_ERR_INVALID_ARGUMENT,
                 "ng_uniform");
    expect_error(ng_uniform(g, NG_FLOAT32, NULL, 1, 0, 1), NG_ERR_INVALID_ARGUMENT, "ng_uniform");
    expect_error(ng_uniform(g, NG_FLOAT32, twice, 2, 0, 1), NG_ERR_AXES, "ng_uniform");
    expect_error(ng_uniform(g, NG_FLOAT32, &foreign, 1, 0, 1), NG_ERR_INVALID_ARGUMENT,
                 "ng_uniform");
    expect_error(ng_normal(g, NG_BOOL, &n, 1, 0, 1), NG_ERR_DTYPE, "ng_normal");
    expect_error(ng_normal(g, NG_FLOAT64, &n, 1, 0, -1), NG_ERR_INVALID_ARGUMENT, "ng_normal");
    expect_error(ng_normal(g, NG_FLOAT64, &n, 1, NAN, 1), NG_ERR_INVALID_ARGUMENT, "ng_normal");
    assert_int_equal(ng_transformer_set_seed(NULL, 1), NG_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ng_last_error(), "ng_transformer_set_seed"));
    ng_graph_destroy(other);
    ng_graph_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reproducible_from_seed),
        cmocka_unit_test(test_uniform_moments),
        cmocka_unit_test(test_normal_moments),
        cmocka_unit_test(test_one_value_per_op_and_run),
        cmocka_unit_test(test_random_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
