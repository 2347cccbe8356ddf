/* Optimizers and initializers: steps against plain C loops of the same update rules, the
 * learning rate changed between runs without recompiling, reproducible seeded initial values
 * with the right spread, and bad arguments. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "expect_error.h"
#include "nanograph/nanograph.h"

#define N_W 3
static const double W0[N_W] = {1.0, -2.0, 0.5};
static const double TARGET[N_W] = {0.25, 1.0, -1.0};
static const double SCALE[N_W] = {1.0, 3.0, 0.5};

/* cost = sum(SCALE * (w - TARGET)^2) over a float64 variable w initialised to W0. */
typedef struct problem {
    ng_graph_t *g;
    ng_op_t *w, *cost, *lr;
} problem_t;

static void problem_make(problem_t *p, double learning_rate) {
    p->g = ng_graph_create();
    const ng_axis_t *n = ng_axis(p->g, "N", N_W);
    p->w = ng_variable(p->g, NG_FLOAT64, &n, 1, ng_constant(p->g, NG_FLOAT64, &n, 1, W0));
    ng_op_t *diff = ng_subtract(p->g, p->w, ng_constant(p->g, NG_FLOAT64, &n, 1, TARGET));
    ng_op_t *weighted =
        ng_multiply(p->g, ng_square(p->g, diff), ng_constant(p->g, NG_FLOAT64, &n, 1, SCALE));
    p->cost = ng_sum(p->g, weighted, NULL, 0);
    p->lr = ng_persistent_tensor(p->g, NG_FLOAT64, NULL, 0,
                                 ng_scalar_of(p->g, NG_FLOAT64, learning_rate));
}

static double reference_cost(const double *w) {
    double c = 0;
    for (int i = 0; i < N_W; ++i) c += SCALE[i] * (w[i] - TARGET[i]) * (w[i] - TARGET[i]);
    return c;
}

static double reference_gradient(const double *w, int i) {
    return 2 * SCALE[i] * (w[i] - TARGET[i]);
}

/* Runs `steps` steps of `update`, checking each step's value (the cost before the step) and the
 * final weights against `expected` (computed by the caller's reference loop). */
static void run_steps(problem_t *p, ng_op_t *update, int steps, const double *expected_costs,
                      const double *expected_w) {
    assert_non_null(update);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &update, 1, NULL, 0);
    if (!c) fail_msg("compiling the step failed: %s", ng_last_error());
    for (int s = 0; s < steps; ++s) {
        ng_tensor_t *value = NULL;
        assert_int_equal(ng_computation_run(c, NULL, 0, &value, 1), NG_OK);
        double cost = *(const double *)ng_tensor_data(value);
        if (fabs(cost - expected_costs[s]) > 1e-12 * fmax(1, fabs(expected_costs[s])))
            fail_msg("step %d: cost %.17g, expected %.17g", s, cost, expected_costs[s]);
        ng_tensor_release(value);
    }
    ng_tensor_t *w = NULL;
    assert_int_equal(ng_transformer_get_value(t, p->w, &w), NG_OK);
    const double *got = ng_tensor_data(w);
    for (int i = 0; i < N_W; ++i)
        if (fabs(got[i] - expected_w[i]) > 1e-12 * fmax(1, fabs(expected_w[i])))
            fail_msg("w[%d] = %.17g, expected %.17g", i, got[i], expected_w[i]);
    ng_tensor_release(w);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
}

/* The reference SGD: velocity v, Nesterov and weight decay as documented in train.h. */
static void reference_sgd(double lr, const ng_sgd_options_t *o, int steps, double *costs,
                          double *w) {
    double v[N_W] = {0};
    memcpy(w, W0, sizeof W0);
    for (int s = 0; s < steps; ++s) {
        costs[s] = reference_cost(w);
        double next[N_W];
        for (int i = 0; i < N_W; ++i) {
            double g = reference_gradient(w, i) + o->weight_decay * w[i];
            double direction = g;
            if (o->momentum != 0) {
                v[i] = o->momentum * v[i] + g;
                direction = o->nesterov ? g + o->momentum * v[i] : v[i];
            }
            next[i] = w[i] - lr * direction;
        }
        memcpy(w, next, sizeof next);
    }
}

/* Options filled by the library's *_options_init with this program's struct size. */
static ng_sgd_options_t sgd_defaults(void) {
    ng_sgd_options_t o;
    assert_int_equal(ng_sgd_options_init(&o, sizeof o), NG_OK);
    assert_int_equal(o.struct_size, sizeof o);
    return o;
}

static ng_adam_options_t adam_defaults(void) {
    ng_adam_options_t o;
    assert_int_equal(ng_adam_options_init(&o, sizeof o), NG_OK);
    assert_int_equal(o.struct_size, sizeof o);
    return o;
}

static void check_sgd(const ng_sgd_options_t *options, int steps) {
    problem_t p;
    problem_make(&p, 0.05);
    double costs[8], w[N_W];
    ng_sgd_options_t defaults = sgd_defaults();
    reference_sgd(0.05, options ? options : &defaults, steps, costs, w);
    run_steps(&p, ng_sgd(p.g, p.cost, p.lr, options), steps, costs, w);
    ng_graph_destroy(p.g);
}

static void test_sgd_plain(void **state) {
    (void)state;
    check_sgd(NULL, 4);
    /* One step by hand: w - 0.05 * 2 * SCALE * (w - TARGET) */
    double costs[1], w[N_W];
    ng_sgd_options_t o = sgd_defaults();
    reference_sgd(0.05, &o, 1, costs, w);
    assert_true(fabs(w[0] - (1.0 - 0.05 * 2 * 1.0 * 0.75)) < 1e-15);
    assert_true(fabs(w[1] - (-2.0 - 0.05 * 2 * 3.0 * -3.0)) < 1e-15);
}

static void test_sgd_momentum(void **state) {
    (void)state;
    ng_sgd_options_t o = sgd_defaults();
    o.momentum = 0.9;
    check_sgd(&o, 5);
    o.nesterov = 1;
    check_sgd(&o, 5);
    o.weight_decay = 0.1;
    check_sgd(&o, 5);
}

static void test_adam(void **state) {
    (void)state;
    ng_adam_options_t o = adam_defaults();
    o.weight_decay = 0.01;
    const double lr = 0.1;
    enum { STEPS = 5 };
    double m[N_W] = {0}, v[N_W] = {0}, w[N_W], costs[STEPS];
    memcpy(w, W0, sizeof W0);
    for (int s = 1; s <= STEPS; ++s) {
        costs[s - 1] = reference_cost(w);
        double next[N_W];
        for (int i = 0; i < N_W; ++i) {
            double g = reference_gradient(w, i) + o.weight_decay * w[i];
            m[i] = o.beta1 * m[i] + (1 - o.beta1) * g;
            v[i] = o.beta2 * v[i] + (1 - o.beta2) * g * g;
            double m_hat = m[i] / (1 - pow(o.beta1, s)), v_hat = v[i] / (1 - pow(o.beta2, s));
            next[i] = w[i] - lr * m_hat / (sqrt(v_hat) + o.epsilon);
        }
        memcpy(w, next, sizeof next);
    }
    problem_t p;
    problem_make(&p, lr);
    run_steps(&p, ng_adam(p.g, p.cost, p.lr, &o), STEPS, costs, w);
    ng_graph_destroy(p.g);
}

/* The learning rate is a persistent tensor: set to 0 between runs, the next step changes nothing.
 */
static void test_learning_rate_changes_without_recompiling(void **state) {
    (void)state;
    problem_t p;
    problem_make(&p, 0.05);
    ng_op_t *update = ng_sgd(p.g, p.cost, p.lr, NULL);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &update, 1, NULL, 0);
    assert_non_null(c);
    ng_tensor_t *out = NULL;
    assert_int_equal(ng_computation_run(c, NULL, 0, &out, 1), NG_OK);
    ng_tensor_release(out);
    ng_tensor_t *before = NULL, *after = NULL, *zero = ng_tensor_create(NG_FLOAT64, NULL, 0);
    assert_int_equal(ng_transformer_get_value(t, p.w, &before), NG_OK);
    assert_int_equal(ng_transformer_set_value(t, p.lr, zero), NG_OK);
    out = NULL;
    assert_int_equal(ng_computation_run(c, NULL, 0, &out, 1), NG_OK);
    ng_tensor_release(out);
    assert_int_equal(ng_transformer_get_value(t, p.w, &after), NG_OK);
    assert_memory_equal(ng_tensor_data(before), ng_tensor_data(after), N_W * sizeof(double));
    const double *w = ng_tensor_data(before);
    assert_true(fabs(w[0] - (1.0 - 0.05 * 2 * 0.75)) < 1e-15); /* the first step did move */
    ng_tensor_release(before);
    ng_tensor_release(after);
    ng_tensor_release(zero);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(p.g);
}

static void test_optimizer_state_is_named(void **state) {
    (void)state;
    problem_t p;
    problem_make(&p, 0.05);
    assert_int_equal(ng_op_set_name(p.w, "weights"), NG_OK);
    ng_sgd_options_t o = sgd_defaults();
    o.momentum = 0.5;
    assert_non_null(ng_sgd(p.g, p.cost, p.lr, &o));
    ng_op_t *velocity = ng_graph_find(p.g, "weights/velocity");
    assert_non_null(velocity);
    assert_int_equal(ng_op_rank(velocity), 1);
    assert_non_null(ng_adam(p.g, p.cost, p.lr, NULL));
    assert_non_null(ng_graph_find(p.g, "weights/adam_m"));
    assert_non_null(ng_graph_find(p.g, "weights/adam_v"));
    ng_graph_destroy(p.g);
}

static void test_options_defaults(void **state) {
    (void)state;
    ng_sgd_options_t s = sgd_defaults();
    assert_true(s.momentum == 0 && s.nesterov == 0 && s.weight_decay == 0);
    ng_adam_options_t a = adam_defaults();
    assert_true(a.beta1 == 0.9 && a.beta2 == 0.999 && a.epsilon == 1e-8 && a.weight_decay == 0);
}

static void test_optimizer_bad_arguments(void **state) {
    (void)state;
    problem_t p;
    problem_make(&p, 0.05);
    const ng_axis_t *n = ng_op_axis(p.w, 0);
    assert_null(ng_sgd(NULL, p.cost, p.lr, NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_sgd", "g");
    assert_null(ng_sgd(p.g, NULL, p.lr, NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_sgd", "cost");
    assert_null(ng_adam(p.g, p.cost, NULL, NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_adam", "learning_rate");
    assert_null(ng_sgd(p.g, p.w, p.lr, NULL));
    expect_error(NG_ERR_AXES, "ng_sgd", "cost");
    assert_null(ng_sgd(p.g, p.cost, ng_persistent_tensor(p.g, NG_FLOAT64, &n, 1, NULL), NULL));
    expect_error(NG_ERR_AXES, "ng_sgd", "learning_rate");
    assert_null(ng_adam(p.g, p.cost, ng_persistent_tensor(p.g, NG_INT32, NULL, 0, NULL), NULL));
    expect_error(NG_ERR_DTYPE, "ng_adam", "learning_rate");
    ng_op_t *no_variables = ng_sum(p.g, ng_placeholder(p.g, NG_FLOAT64, &n, 1, NULL), NULL, 0);
    assert_null(ng_sgd(p.g, no_variables, p.lr, NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_sgd", "trainable");

    ng_sgd_options_t s = sgd_defaults();
    s.momentum = -0.5;
    assert_null(ng_sgd(p.g, p.cost, p.lr, &s));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_sgd", "momentum");
    s.momentum = 0;
    s.nesterov = 1;
    assert_null(ng_sgd(p.g, p.cost, p.lr, &s));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_sgd", "nesterov");
    s = sgd_defaults();
    s.weight_decay = NAN;
    assert_null(ng_sgd(p.g, p.cost, p.lr, &s));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_sgd", "weight_decay");
    ng_adam_options_t a = adam_defaults();
    a.beta1 = 1.0;
    assert_null(ng_adam(p.g, p.cost, p.lr, &a));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_adam", "beta1");
    a = adam_defaults();
    a.beta2 = -0.1;
    assert_null(ng_adam(p.g, p.cost, p.lr, &a));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_adam", "beta2");
    a = adam_defaults();
    a.epsilon = 0;
    assert_null(ng_adam(p.g, p.cost, p.lr, &a));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_adam", "epsilon");
    assert_int_not_equal(ng_graph_status(p.g), NG_OK);
    ng_graph_destroy(p.g);
}

/* ---- initializers ------------------------------------------------------------------------- */

#define INIT_ROWS 100
#define INIT_COLS 200

/* The values of a constant op (float64), in a malloc'd array. */
static double *values_of(ng_op_t *op, int64_t n) {
    assert_non_null(op);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &op, 1, NULL, 0);
    assert_non_null(c);
    ng_tensor_t *out = NULL;
    assert_int_equal(ng_computation_run(c, NULL, 0, &out, 1), NG_OK);
    assert_int_equal(ng_tensor_numel(out), n);
    double *values = malloc((size_t)n * sizeof *values);
    assert_int_equal(ng_tensor_read(out, values, (size_t)n * sizeof *values), NG_OK);
    ng_tensor_release(out);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    return values;
}

static void moments(const double *v, int64_t n, double *mean, double *stddev, double *lowest,
                    double *highest) {
    double s = 0, s2 = 0;
    *lowest = INFINITY;
    *highest = -INFINITY;
    for (int64_t i = 0; i < n; ++i) {
        s += v[i];
        *lowest = fmin(*lowest, v[i]);
        *highest = fmax(*highest, v[i]);
    }
    *mean = s / (double)n;
    for (int64_t i = 0; i < n; ++i) s2 += (v[i] - *mean) * (v[i] - *mean);
    *stddev = sqrt(s2 / (double)n);
}

/* 20000 draws: the sample mean and deviation are within a few percent of the distribution's
 * (the seed is fixed, so this is deterministic, not a flaky statistical test). */
static void test_initializer_distributions(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *in = ng_axis(g, "IN", INIT_ROWS), *out = ng_axis(g, "OUT", INIT_COLS);
    const ng_axis_t *axes[2] = {in, out};
    const int64_t n = INIT_ROWS * INIT_COLS;
    double mean, sd, lo, hi;

    double *u = values_of(ng_initializer_uniform(g, NG_FLOAT64, axes, 2, -1, 3, 7), n);
    moments(u, n, &mean, &sd, &lo, &hi);
    assert_true(lo >= -1 && hi < 3);
    assert_true(fabs(mean - 1) < 0.03 && fabs(sd - 4 / sqrt(12)) < 0.03);

    double *z = values_of(ng_initializer_normal(g, NG_FLOAT64, axes, 2, 2, 0.5, 7), n);
    moments(z, n, &mean, &sd, &lo, &hi);
    assert_true(fabs(mean - 2) < 0.02 && fabs(sd - 0.5) < 0.02);

    double limit = sqrt(6.0 / (INIT_ROWS + INIT_COLS));
    double *glorot = values_of(ng_initializer_glorot_uniform(g, NG_FLOAT64, axes, 2, &in, 1, 7), n);
    moments(glorot, n, &mean, &sd, &lo, &hi);
    assert_true(lo >= -limit && hi < limit && hi > 0.99 * limit && lo < -0.99 * limit);

    double *he = values_of(ng_initializer_he_normal(g, NG_FLOAT64, axes, 2, &out, 1, 7), n);
    moments(he, n, &mean, &sd, &lo, &hi);
    assert_true(fabs(mean) < 0.01 && fabs(sd / sqrt(2.0 / INIT_COLS) - 1) < 0.03);

    free(u);
    free(z);
    free(glorot);
    free(he);
    ng_graph_destroy(g);
}

static void test_initializer_reproducible(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 50);
    double *a = values_of(ng_initializer_normal(g, NG_FLOAT64, &n, 1, 0, 1, 42), 50);
    double *b = values_of(ng_initializer_normal(g, NG_FLOAT64, &n, 1, 0, 1, 42), 50);
    double *c = values_of(ng_initializer_normal(g, NG_FLOAT64, &n, 1, 0, 1, 43), 50);
    assert_memory_equal(a, b, 50 * sizeof *a);
    assert_memory_not_equal(a, c, 50 * sizeof *a);
    /* float32 values are the float64 draws, rounded. */
    ng_op_t *f = ng_initializer_normal(g, NG_FLOAT32, &n, 1, 0, 1, 42);
    assert_int_equal(ng_op_dtype(f), NG_FLOAT32);
    double *fd = values_of(ng_cast(g, f, NG_FLOAT64), 50);
    for (int i = 0; i < 50; ++i) assert_true(fd[i] == (double)(float)a[i]);
    /* usable as a variable's initial value */
    assert_non_null(ng_variable(g, NG_FLOAT32, &n, 1, f));
    free(a);
    free(b);
    free(c);
    free(fd);
    ng_graph_destroy(g);
}

static void test_initializer_bad_arguments(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *a = ng_axis(g, "A", 3), *b = ng_axis(g, "B", 2), *z = ng_axis(g, "Z", 0);
    const ng_axis_t *ab[2] = {a, b}, *aa[2] = {a, a};
    assert_null(ng_initializer_uniform(NULL, NG_FLOAT32, ab, 2, 0, 1, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_initializer_uniform", "g");
    assert_null(ng_initializer_uniform(g, NG_INT32, ab, 2, 0, 1, 1));
    expect_error(NG_ERR_DTYPE, "ng_initializer_uniform", "int32");
    assert_null(ng_initializer_uniform(g, NG_FLOAT32, ab, 2, 1, 1, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_initializer_uniform", "low");
    assert_null(ng_initializer_uniform(g, NG_FLOAT32, ab, -1, 0, 1, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_initializer_uniform", "rank");
    assert_null(ng_initializer_uniform(g, NG_FLOAT32, NULL, 2, 0, 1, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_initializer_uniform", "axes");
    assert_null(ng_initializer_normal(g, NG_FLOAT64, ab, 2, 0, -1, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_initializer_normal", "stddev");
    assert_null(ng_initializer_normal(g, NG_FLOAT64, ab, 2, INFINITY, 1, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_initializer_normal", "mean");
    assert_null(ng_initializer_glorot_uniform(g, NG_FLOAT32, &a, 1, &b, 1, 1));
    expect_error(NG_ERR_AXES, "ng_initializer_glorot_uniform", "B(2)");
    assert_null(ng_initializer_glorot_uniform(g, NG_FLOAT32, ab, 2, aa, 2, 1));
    expect_error(NG_ERR_AXES, "ng_initializer_glorot_uniform", "twice");
    assert_null(ng_initializer_he_normal(g, NG_FLOAT32, ab, 2, NULL, 0, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_initializer_he_normal", "fan-in");
    const ng_axis_t *az[2] = {a, z};
    assert_null(ng_initializer_he_normal(g, NG_FLOAT32, az, 2, &z, 1, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_initializer_he_normal", "fan-in is 0");
    ng_graph_t *other = ng_graph_create();
    assert_null(ng_initializer_he_normal(other, NG_FLOAT32, ab, 2, &a, 1, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_initializer_he_normal", "axes");
    ng_graph_destroy(other);
    const ng_axis_t *huge = ng_axis(g, "H", INT64_C(1) << 40);
    const ng_axis_t *hk[2] = {huge, ng_axis(g, "K", INT64_C(1) << 40)};
    assert_null(ng_initializer_uniform(g, NG_FLOAT32, hk, 2, 0, 1, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_initializer_uniform", "overflow");
    ng_graph_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sgd_plain),
        cmocka_unit_test(test_sgd_momentum),
        cmocka_unit_test(test_adam),
        cmocka_unit_test(test_learning_rate_changes_without_recompiling),
        cmocka_unit_test(test_optimizer_state_is_named),
        cmocka_unit_test(test_options_defaults),
        cmocka_unit_test(test_optimizer_bad_arguments),
        cmocka_unit_test(test_initializer_distributions),
        cmocka_unit_test(test_initializer_reproducible),
        cmocka_unit_test(test_initializer_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
