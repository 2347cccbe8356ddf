/* End-to-end training: logistic regression matching a plain C reference step by step, and an
 * MLP on the digits data (examples/data/digits.csv.gz) reaching 0.9 test accuracy. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <cmocka.h>

#include "nanograph/nanograph.h"

#define CHECK_OP(op)                                                \
    do {                                                            \
        if (!(op)) fail_msg("%s failed: %s", #op, ng_last_error()); \
    } while (0)

/* ---- logistic regression ------------------------------------------------------------------ */

enum { LR_N = 8, LR_F = 3, LR_STEPS = 25 };
static const double LR_X[LR_N][LR_F] = {
    {0.5, 1.0, -0.3}, {1.5, -0.2, 0.8},  {-1.0, 0.4, 0.1}, {0.3, -1.2, 0.9},
    {2.0, 0.5, -0.7}, {-0.6, -0.8, 0.2}, {0.9, 1.4, -1.1}, {-1.7, 0.3, 0.6},
};
static const double LR_T[LR_N] = {1, 1, 0, 0, 1, 0, 1, 0};
static const double LR_W0[LR_F] = {0.1, -0.2, 0.05};
static const double LR_RATE = 0.5;

/* The same model in plain C: p = sigmoid(x.w + b), loss = mean binary cross entropy, SGD. */
static void reference_logistic(double *losses, double *w, double *b) {
    memcpy(w, LR_W0, sizeof LR_W0);
    *b = 0;
    for (int s = 0; s < LR_STEPS; ++s) {
        double gw[LR_F] = {0}, gb = 0, loss = 0;
        for (int n = 0; n < LR_N; ++n) {
            double z = *b;
            for (int f = 0; f < LR_F; ++f) z += LR_X[n][f] * w[f];
            double p = 1 / (1 + exp(-z));
            loss += -(LR_T[n] * log(p) + (1 - LR_T[n]) * log(1 - p)) / LR_N;
            for (int f = 0; f < LR_F; ++f) gw[f] += (p - LR_T[n]) * LR_X[n][f] / LR_N;
            gb += (p - LR_T[n]) / LR_N;
        }
        losses[s] = loss;
        for (int f = 0; f < LR_F; ++f) w[f] -= LR_RATE * gw[f];
        *b -= LR_RATE * gb;
    }
}

static void test_logistic_regression_matches_reference(void **state) {
    (void)state;
    double ref_losses[LR_STEPS], ref_w[LR_F], ref_b;
    reference_logistic(ref_losses, ref_w, &ref_b);

    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *N = ng_axis(g, "N", LR_N), *F = ng_axis(g, "F", LR_F);
    const ng_axis_t *x_axes[2] = {N, F};
    ng_op_t *x = ng_constant(g, NG_FLOAT64, x_axes, 2, LR_X);
    ng_op_t *t = ng_constant(g, NG_FLOAT64, &N, 1, LR_T);
    ng_op_t *w = ng_variable(g, NG_FLOAT64, &F, 1, ng_constant(g, NG_FLOAT64, &F, 1, LR_W0));
    ng_op_t *b = ng_variable(g, NG_FLOAT64, NULL, 0, NULL);
    ng_op_t *p = ng_sigmoid(g, ng_add(g, ng_dot(g, x, w), b));
    ng_op_t *loss = ng_mean(g, ng_cross_entropy_binary(g, p, t, NULL, 0), NULL, 0);
    ng_op_t *lr =
        ng_persistent_tensor(g, NG_FLOAT64, NULL, 0, ng_scalar_of(g, NG_FLOAT64, LR_RATE));
    ng_op_t *step = ng_sgd(g, loss, lr, NULL);
    CHECK_OP(step);

    ng_transformer_t *tr = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(tr, &step, 1, NULL, 0);
    CHECK_OP(c);
    ng_tensor_t *value = ng_tensor_create(NG_FLOAT64, NULL, 0);
    for (int s = 0; s < LR_STEPS; ++s) {
        assert_int_equal(ng_computation_run(c, NULL, 0, &value, 1), NG_OK);
        double got = *(const double *)ng_tensor_data(value);
        if (fabs(got - ref_losses[s]) > 1e-12)
            fail_msg("step %d: loss %.17g, reference %.17g", s, got, ref_losses[s]);
    }
    assert_true(ref_losses[LR_STEPS - 1] < 0.5 * ref_losses[0]); /* it does learn */
    ng_tensor_t *w_value = NULL, *b_value = NULL;
    assert_int_equal(ng_transformer_get_value(tr, w, &w_value), NG_OK);
    assert_int_equal(ng_transformer_get_value(tr, b, &b_value), NG_OK);
    const double *got_w = ng_tensor_data(w_value);
    for (int f = 0; f < LR_F; ++f) assert_true(fabs(got_w[f] - ref_w[f]) < 1e-12);
    assert_true(fabs(*(const double *)ng_tensor_data(b_value) - ref_b) < 1e-12);
    ng_tensor_release(value);
    ng_tensor_release(w_value);
    ng_tensor_release(b_value);
    ng_computation_destroy(c);
    ng_transformer_destroy(tr);
    ng_graph_destroy(g);
}

/* ---- an MLP on the digits ----------------------------------------------------------------- */

enum { DIGITS = 1797, PIXELS = 64, CLASSES = 10, HIDDEN = 48, BATCH = 32, EPOCHS = 12 };

typedef struct digits {
    float pixels[DIGITS][PIXELS];
    int label[DIGITS];
} digits_t;

/* Reads the CSV: 64 values 0..16 then the label, one example a line. */
static void load_digits(digits_t *d) {
    gzFile f = gzopen(NG_DIGITS_CSV, "rb");
    if (!f) fail_msg("cannot open %s", NG_DIGITS_CSV);
    char line[1024];
    for (int i = 0; i < DIGITS; ++i) {
        assert_non_null(gzgets(f, line, sizeof line));
        char *p = line;
        for (int k = 0; k <= PIXELS; ++k) {
            long v = strtol(p, &p, 10);
            if (k < PIXELS)
                d->pixels[i][k] = (float)v / 16.0f;
            else
                d->label[i] = (int)v;
            if (*p == ',') ++p;
        }
        assert_true(d->label[i] >= 0 && d->label[i] < CLASSES);
    }
    gzclose(f);
}

/* Every 5th example is held out. */
static int is_test(int i) {
    return i % 5 == 0;
}

static void test_mlp_learns_digits(void **state) {
    (void)state;
    digits_t *d = malloc(sizeof *d);
    assert_non_null(d);
    load_digits(d);
    int train_idx[DIGITS], test_idx[DIGITS], n_train = 0, n_test = 0;
    for (int i = 0; i < DIGITS; ++i) {
        if (is_test(i))
            test_idx[n_test++] = i;
        else
            train_idx[n_train++] = i;
    }

    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *P = ng_axis(g, "P", PIXELS), *H = ng_axis(g, "H", HIDDEN),
                    *C = ng_axis(g, "C", CLASSES);
    const ng_axis_t *N = ng_axis(g, "N", BATCH), *T = ng_axis(g, "T", n_test);
    const ng_axis_t *w1_axes[2] = {P, H}, *w2_axes[2] = {H, C};
    ng_op_t *w1 = ng_variable(g, NG_FLOAT32, w1_axes, 2,
                              ng_initializer_he_normal(g, NG_FLOAT32, w1_axes, 2, &P, 1, 3));
    ng_op_t *b1 = ng_variable(g, NG_FLOAT32, &H, 1, NULL);
    ng_op_t *w2 = ng_variable(g, NG_FLOAT32, w2_axes, 2,
                              ng_initializer_glorot_uniform(g, NG_FLOAT32, w2_axes, 2, &H, 1, 4));
    ng_op_t *b2 = ng_variable(g, NG_FLOAT32, &C, 1, NULL);
    const ng_axis_t *x_axes[2] = {N, P}, *y_axes[2] = {N, C}, *test_axes[2] = {T, P};
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, x_axes, 2, NULL);
    ng_op_t *y = ng_placeholder(g, NG_FLOAT32, y_axes, 2, NULL);
    ng_op_t *x_test = ng_placeholder(g, NG_FLOAT32, test_axes, 2, NULL);
    ng_op_t *logits = ng_add(g, ng_dot(g, ng_relu(g, ng_add(g, ng_dot(g, x, w1), b1)), w2), b2);
    ng_op_t *test_logits =
        ng_add(g, ng_dot(g, ng_relu(g, ng_add(g, ng_dot(g, x_test, w1), b1)), w2), b2);
    ng_op_t *loss =
        ng_mean(g, ng_cross_entropy_multi(g, ng_softmax(g, logits, &C, 1), y, &C, 1), NULL, 0);
    ng_op_t *lr = ng_persistent_tensor(g, NG_FLOAT32, NULL, 0, ng_scalar(g, 0.01));
    ng_op_t *step = ng_adam(g, loss, lr, NULL);
    if (ng_graph_status(g) != NG_OK) fail_msg("building failed: %s", ng_graph_error(g));

    ng_transformer_t *tr = ng_transformer_create(NULL);
    ng_op_t *params[2] = {x, y};
    ng_computation_t *train = ng_computation_create(tr, &step, 1, params, 2);
    ng_computation_t *eval = ng_computation_create(tr, &test_logits, 1, &x_test, 1);
    CHECK_OP(train);
    CHECK_OP(eval);
    int64_t x_shape[2] = {BATCH, PIXELS}, y_shape[2] = {BATCH, CLASSES},
            t_shape[2] = {n_test, PIXELS};
    ng_tensor_t *xb = ng_tensor_create(NG_FLOAT32, x_shape, 2),
                *yb = ng_tensor_create(NG_FLOAT32, y_shape, 2);
    ng_tensor_t *xt = ng_tensor_create(NG_FLOAT32, t_shape, 2);
    for (int i = 0; i < n_test; ++i)
        memcpy((float *)ng_tensor_data(xt) + i * PIXELS, d->pixels[test_idx[i]],
               sizeof d->pixels[0]);

    uint32_t rng = 12345;
    double first_loss = 0, last_loss = 0;
    for (int epoch = 0; epoch < EPOCHS; ++epoch) {
        for (int i = n_train - 1; i > 0; --i) { /* Fisher-Yates with a fixed LCG */
            rng = rng * 1664525u + 1013904223u;
            int j = (int)(rng % (uint32_t)(i + 1)), tmp = train_idx[i];
            train_idx[i] = train_idx[j];
            train_idx[j] = tmp;
        }
        for (int start = 0; start + BATCH <= n_train; start += BATCH) {
            float *xs = ng_tensor_data(xb), *ys = ng_tensor_data(yb);
            memset(ys, 0, BATCH * CLASSES * sizeof *ys);
            for (int k = 0; k < BATCH; ++k) {
                int e = train_idx[start + k];
                memcpy(xs + k * PIXELS, d->pixels[e], sizeof d->pixels[0]);
                ys[k * CLASSES + d->label[e]] = 1;
            }
            ng_tensor_t *inputs[2] = {xb, yb}, *out = NULL;
            assert_int_equal(ng_computation_run(train, inputs, 2, &out, 1), NG_OK);
            last_loss = *(const float *)ng_tensor_data(out);
            if (epoch == 0 && start == 0) first_loss = last_loss;
            ng_tensor_release(out);
        }
    }
    ng_tensor_t *out = NULL;
    assert_int_equal(ng_computation_run(eval, &xt, 1, &out, 1), NG_OK);
    const float *scores = ng_tensor_data(out);
    int correct = 0;
    for (int i = 0; i < n_test; ++i) {
        int best = 0;
        for (int c = 1; c < CLASSES; ++c)
            if (scores[i * CLASSES + c] > scores[i * CLASSES + best]) best = c;
        correct += best == d->label[test_idx[i]];
    }
    double accuracy = (double)correct / n_test;
    printf("digits MLP: loss %.3f -> %.3f, test accuracy %.4f (%d of %d)\n", first_loss, last_loss,
           accuracy, correct, n_test);
    assert_true(accuracy >= 0.9);
    assert_true(last_loss < first_loss);

    ng_tensor_release(out);
    ng_tensor_release(xb);
    ng_tensor_release(yb);
    ng_tensor_release(xt);
    ng_computation_destroy(train);
    ng_computation_destroy(eval);
    ng_transformer_destroy(tr);
    ng_graph_destroy(g);
    free(d);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_logistic_regression_matches_reference),
        cmocka_unit_test(test_mlp_learns_digits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
