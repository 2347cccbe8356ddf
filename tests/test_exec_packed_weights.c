/* Products whose right-hand matrix is a variable or a constant that the computation does not write
 * (a layer's weights at inference) keep that matrix packed from run to run. These tests change the
 * weights between runs in every way a program can - ng_transformer_set_value(), a run of another
 * computation assigning them, ng_transformer_load(), the computation's own assignment after the
 * product (a training step, whose product goes to OpenBLAS today; the check holds whichever kernel
 * takes it) - and check that each run computes with the current weights, against a double loop:
 * with every transpose of either operand, on one thread and on two (a product large enough to
 * split over them). Batch-1 layers, which run as matrix-vector products split over the threads
 * instead, are checked the same way. Small integer values keep every float32 sum exact, so results
 * are compared exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>

#include "exec_test_util.h"

typedef struct {
    int64_t n, k, m;  /* x: n x k, w: k x m, x.w: n x m */
    int x_transposed; /* x stored with axes (K, N) */
    int w_transposed; /* w stored with axes (M, K) */
    int32_t threads;
} Layer;

typedef struct {
    ng_graph_t *g;
    ng_op_t *x, *w, *product, *step;
    ng_transformer_t *t;
    ng_computation_t *infer, *update;
    ng_computation_t *train; /* results: the product, then the weights' assignment after it */
} Net;

/* The element (i, j) of a matrix of `cols` columns stored transposed or not. */
static double at(const double *v, int64_t rows, int64_t cols, int transposed, int64_t i,
                 int64_t j) {
    return transposed ? v[j * rows + i] : v[i * cols + j];
}

static void build(Net *net, const Layer *l, const double *w0) {
    net->g = ng_graph_create();
    const ng_axis_t *n = ng_axis(net->g, "N", l->n), *k = ng_axis(net->g, "K", l->k),
                    *m = ng_axis(net->g, "M", l->m);
    const ng_axis_t *x_axes[2] = {l->x_transposed ? k : n, l->x_transposed ? n : k};
    const ng_axis_t *w_axes[2] = {l->w_transposed ? m : k, l->w_transposed ? k : m};
    float *w_data = malloc(sizeof(float) * (size_t)(l->k * l->m));
    for (int64_t i = 0; i < l->k * l->m; ++i) w_data[i] = (float)w0[i];
    net->x = ng_placeholder(net->g, NG_FLOAT32, x_axes, 2, NULL);
    net->w = ng_variable(net->g, NG_FLOAT32, w_axes, 2,
                         ng_constant(net->g, NG_FLOAT32, w_axes, 2, w_data));
    free(w_data);
    net->product = ng_dot(net->g, net->x, net->w);
    net->step = ng_assign(net->g, net->w, ng_add(net->g, net->w, ng_scalar(net->g, 1)));
    assert_int_equal(ng_graph_status(net->g), NG_OK);
    net->t = ng_transformer_create(NULL);
    assert_int_equal(ng_transformer_set_num_threads(net->t, l->threads), NG_OK);
    ng_op_t *in_order[2] = {net->product, net->step};
    ng_op_t *train_results[2] = {net->product, ng_sequential(net->g, in_order, 2)};
    net->infer = ng_computation_create(net->t, &net->product, 1, &net->x, 1);
    net->update = ng_computation_create(net->t, &net->step, 1, NULL, 0);
    net->train = ng_computation_create(net->t, train_results, 2, &net->x, 1);
    assert_non_null(net->infer);
    assert_non_null(net->update);
    assert_non_null(net->train);
}

static void destroy(Net *net) {
    ng_computation_destroy(net->infer);
    ng_computation_destroy(net->update);
    ng_computation_destroy(net->train);
    ng_transformer_destroy(net->t);
    ng_graph_destroy(net->g);
}

/* Runs c (the inference, or the training step) on x and compares its first result with x.w
 * computed in double. */
static void expect_product_of(ng_computation_t *c, int32_t num_outputs, const Layer *l,
                              ng_tensor_t *x_in, const double *x, const double *w,
                              const char *when) {
    ng_tensor_t *out[2] = {NULL, NULL};
    if (ng_computation_run(c, &x_in, 1, out, num_outputs) != NG_OK)
        fail_msg("%s: run failed: %s", when, ng_last_error());
    ng_tensor_release(out[1]);
    double *got = malloc(sizeof(double) * (size_t)(l->n * l->m));
    assert_int_equal(ng_tensor_numel(out[0]), l->n * l->m);
    ex_read(out[0], got);
    for (int64_t i = 0; i < l->n; ++i)
        for (int64_t j = 0; j < l->m; ++j) {
            double want = 0;
            for (int64_t p = 0; p < l->k; ++p)
                want += at(x, l->n, l->k, l->x_transposed, i, p) *
                        at(w, l->k, l->m, l->w_transposed, p, j);
            if (got[i * l->m + j] != want)
                fail_msg("%s (n=%lld k=%lld m=%lld%s%s, %d threads): [%lld, %lld] = %g, want %g",
                         when, (long long)l->n, (long long)l->k, (long long)l->m,
                         l->x_transposed ? " x^T" : "", l->w_transposed ? " w^T" : "",
                         (int)l->threads, (long long)i, (long long)j, got[i * l->m + j], want);
        }
    free(got);
    ng_tensor_release(out[0]);
}

static void expect_product(Net *net, const Layer *l, ng_tensor_t *x_in, const double *x,
                           const double *w, const char *when) {
    expect_product_of(net->infer, 1, l, x_in, x, w, when);
}

static void set_weights(Net *net, const Layer *l, const double *w) {
    int64_t shape[2] = {l->w_transposed ? l->m : l->k, l->w_transposed ? l->k : l->m};
    ng_tensor_t *v = ex_tensor(NG_FLOAT32, shape, 2, w);
    assert_int_equal(ng_transformer_set_value(net->t, net->w, v), NG_OK);
    ng_tensor_release(v);
}

static void check_layer(const Layer *l) {
    const int64_t nx = l->n * l->k, nw = l->k * l->m;
    double *x = malloc(sizeof(double) * (size_t)nx), *w0 = malloc(sizeof(double) * (size_t)nw),
           *w1 = malloc(sizeof(double) * (size_t)nw), *w2 = malloc(sizeof(double) * (size_t)nw);
    for (int64_t i = 0; i < nx; ++i) x[i] = ex_value(i, 1);
    for (int64_t i = 0; i < nw; ++i) w0[i] = ex_value(i, 2), w1[i] = ex_value(i, 3);
    for (int64_t i = 0; i < nw; ++i) w2[i] = w1[i] + 1;
    Net net;
    build(&net, l, w0);
    int64_t x_shape[2] = {l->x_transposed ? l->k : l->n, l->x_transposed ? l->n : l->k};
    ng_tensor_t *x_in = ex_tensor(NG_FLOAT32, x_shape, 2, x);

    expect_product(&net, l, x_in, x, w0, "first run");
    expect_product(&net, l, x_in, x, w0, "second run");
    set_weights(&net, l, w1);
    expect_product(&net, l, x_in, x, w1, "after set_value");
    ng_tensor_t *none[1] = {NULL};
    assert_int_equal(ng_computation_run(net.update, NULL, 0, none, 1), NG_OK);
    ng_tensor_release(none[0]);
    expect_product(&net, l, x_in, x, w2, "after a run of an assignment");

    char path[] = "/tmp/ng_test_packed_weights_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(ng_transformer_save(net.t, path), NG_OK);
    set_weights(&net, l, w0);
    expect_product(&net, l, x_in, x, w0, "after set_value back");
    assert_int_equal(ng_transformer_load(net.t, path), NG_OK);
    remove(path);
    expect_product(&net, l, x_in, x, w2, "after load");
    /* A training step: each run's product with the weights its run before left, then w += 1. */
    double *w_now = w2;
    char when[64];
    for (int run = 0; run < 3; ++run) {
        snprintf(when, sizeof when, "training step %d", run);
        expect_product_of(net.train, 2, l, x_in, x, w_now, when);
        for (int64_t i = 0; i < nw; ++i) w_now[i] += 1;
    }
    expect_product(&net, l, x_in, x, w_now, "after the training steps");

    ng_tensor_release(x_in);
    destroy(&net);
    free(x), free(w0), free(w1), free(w2);
}

/* Every transpose of x and w, on a layer of a few rows (one block and a remainder) and columns
 * (more than one packed panel). */
static void test_weights_change_between_runs(void **state) {
    (void)state;
    for (int xt = 0; xt < 2; ++xt)
        for (int wt = 0; wt < 2; ++wt) {
            Layer l = {19, 7, 37, xt, wt, 1};
            check_layer(&l);
        }
}

/* A product large enough to split its panels over two threads. */
static void test_weights_change_between_runs_two_threads(void **state) {
    (void)state;
    for (int wt = 0; wt < 2; ++wt) {
        Layer l = {64, 256, 160, 0, wt, 2};
        check_layer(&l);
    }
}

/* Products with one row (a batch-1 layer: 1 x 784 by 784 x 512) or one column (600 x 200 by
 * 200 x 1), large enough to split over two threads, with every transpose. */
static void test_batch_one_layers_two_threads(void **state) {
    (void)state;
    for (int xt = 0; xt < 2; ++xt)
        for (int wt = 0; wt < 2; ++wt) {
            Layer row = {1, 784, 512, xt, wt, 2}, column = {600, 200, 1, xt, wt, 2};
            check_layer(&row);
            check_layer(&column);
        }
}

/* A constant right-hand matrix (never written) and a bias and ReLU after the product: a bias per
 * column (added as the product is stored) and a bias per row (copied over the product first). */
static void check_bias_and_relu(int bias_per_row) {
    const int64_t n = 6, k = 5, m = 21;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *an = ng_axis(g, "N", n), *ak = ng_axis(g, "K", k), *am = ng_axis(g, "M", m);
    const ng_axis_t *x_axes[2] = {an, ak}, *w_axes[2] = {ak, am};
    const ng_axis_t *b_axes[1] = {bias_per_row ? an : am};
    float w[5 * 21], b[21];
    double xv[6 * 5];
    for (int64_t i = 0; i < k * m; ++i) w[i] = (float)ex_value(i, 4);
    for (int64_t j = 0; j < m; ++j) b[j] = (float)ex_value(j, 5);
    for (int64_t i = 0; i < n * k; ++i) xv[i] = ex_value(i, 6);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, x_axes, 2, NULL);
    ng_op_t *y = ng_relu(g, ng_add(g, ng_dot(g, x, ng_constant(g, NG_FLOAT32, w_axes, 2, w)),
                                   ng_constant(g, NG_FLOAT32, b_axes, 1, b)));
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &y, 1, &x, 1);
    assert_non_null(c);
    int64_t x_shape[2] = {n, k};
    ng_tensor_t *x_in = ex_tensor(NG_FLOAT32, x_shape, 2, xv);
    for (int run = 0; run < 2; ++run) {
        ng_tensor_t *out[1] = {NULL};
        assert_int_equal(ng_computation_run(c, &x_in, 1, out, 1), NG_OK);
        double got[6 * 21];
        ex_read(out[0], got);
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < m; ++j) {
                double want = b[bias_per_row ? i : j];
                for (int64_t p = 0; p < k; ++p) want += xv[i * k + p] * w[p * m + j];
                want = want < 0 ? 0 : want;
                if (got[i * m + j] != want)
                    fail_msg("bias per %s, run %d: [%lld, %lld] = %g, want %g",
                             bias_per_row ? "row" : "column", run, (long long)i, (long long)j,
                             got[i * m + j], want);
            }
        ng_tensor_release(out[0]);
    }
    ng_tensor_release(x_in);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

static void test_constant_weights_with_bias_and_relu(void **state) {
    (void)state;
    check_bias_and_relu(0);
    check_bias_and_relu(1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_weights_change_between_runs),
        cmocka_unit_test(test_weights_change_between_runs_two_threads),
        cmocka_unit_test(test_batch_one_layers_two_threads),
        cmocka_unit_test(test_constant_weights_with_bias_and_relu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
