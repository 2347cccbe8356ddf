/* The transformer's contract: an assign runs only where a computation reaches it (sequential runs
 * its parts in order), persistence across runs and computations, inputs of any strides, output
 * slots, plan figures (CSE, fusion, arena bounds) and every error path of compile and run. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "nanograph/nanograph.h"

static float read_scalar_f32(ng_tensor_t *t) {
    float v = NAN;
    assert_int_equal(ng_tensor_read(t, &v, sizeof v), NG_OK);
    return v;
}

static float run_scalar(ng_computation_t *c) {
    ng_tensor_t *out[1] = {NULL};
    assert_int_equal(ng_computation_run(c, NULL, 0, out, 1), NG_OK);
    float v = read_scalar_f32(out[0]);
    ng_tensor_release(out[0]);
    return v;
}

static void assert_error_names(ng_status_t got, ng_status_t want, const char *function) {
    assert_int_equal(got, want);
    assert_int_equal(ng_last_status(), want);
    assert_non_null(strstr(ng_last_error(), function));
}

/* x + 1 does not run an assign that only exists elsewhere in the graph;
 * sequential([assign(x, 5), x + 1]) does, and the value persists. */
static void test_assign_and_sequential_semantics(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, NULL, 0, ng_scalar(g, 0));
    ng_op_t *one = ng_scalar(g, 1);
    ng_op_t *five = ng_scalar(g, 5);
    ng_op_t *set5 = ng_assign(g, x, five);
    ng_op_t *x_plus_1 = ng_add(g, x, one);
    ng_op_t *seq_parts[2] = {set5, ng_add(g, x, one)};
    ng_op_t *seq = ng_sequential(g, seq_parts, 2);
    assert_int_equal(ng_graph_status(g), NG_OK);

    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *plain = ng_computation_create(t, &x_plus_1, 1, NULL, 0);
    ng_computation_t *sequenced = ng_computation_create(t, &seq, 1, NULL, 0);
    assert_non_null(plain);
    assert_non_null(sequenced);

    assert_true(run_scalar(plain) == 1.0f);
    assert_true(run_scalar(sequenced) == 6.0f);
    /* x is now 5 in the transformer, for every computation. */
    assert_true(run_scalar(plain) == 6.0f);

    ng_tensor_t *value = NULL;
    assert_int_equal(ng_transformer_get_value(t, x, &value), NG_OK);
    assert_true(read_scalar_f32(value) == 5.0f);
    ng_tensor_release(value);

    /* set_value changes what the next run sees, without recompiling. */
    float seven = 7;
    ng_tensor_t *v7 = ng_tensor_from_data(NG_FLOAT32, NULL, 0, &seven);
    assert_int_equal(ng_transformer_set_value(t, x, v7), NG_OK);
    ng_tensor_release(v7);
    assert_true(run_scalar(plain) == 8.0f);

    ng_computation_destroy(plain);
    ng_computation_destroy(sequenced);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

/* An accumulator updated by every run: persistent tensor += input. */
static void test_persistent_accumulates_across_runs(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 3);
    ng_op_t *acc = ng_persistent_tensor(g, NG_FLOAT64, &n, 1, NULL);
    ng_op_t *in = ng_placeholder(g, NG_FLOAT64, &n, 1, NULL);
    ng_op_t *update = ng_assign(g, acc, ng_add(g, acc, in));
    ng_transformer_t *t = ng_transformer_create("cpu");
    ng_computation_t *c = ng_computation_create(t, &update, 1, &in, 1);
    assert_non_null(c);
    double data[3] = {1, 2, 3}, expect[3] = {0, 0, 0};
    ng_tensor_t *x = ng_tensor_from_data(NG_FLOAT64, (int64_t[]){3}, 1, data);
    for (int run = 0; run < 4; ++run) {
        ng_tensor_t *out[1] = {NULL};
        assert_int_equal(ng_computation_run(c, &x, 1, out, 1), NG_OK);
        double got[3];
        assert_int_equal(ng_tensor_read(out[0], got, sizeof got), NG_OK);
        for (int i = 0; i < 3; ++i) {
            expect[i] += data[i];
            assert_true(got[i] == expect[i]);
        }
        ng_tensor_release(out[0]);
    }
    ng_tensor_release(x);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

/* a(C, N) - b(N, C) aligned by name, with b given as a transposed (strided) view, written into
 * a caller's output tensor. */
static void test_alignment_strided_input_and_given_output(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *C = ng_axis(g, "C", 2), *N = ng_axis(g, "N", 3);
    const ng_axis_t *cn[2] = {C, N}, *nc[2] = {N, C};
    ng_op_t *a = ng_placeholder(g, NG_FLOAT32, cn, 2, NULL);
    ng_op_t *b = ng_placeholder(g, NG_FLOAT32, nc, 2, NULL);
    ng_op_t *d = ng_subtract(g, a, b);
    assert_int_equal(ng_op_rank(d), 2);
    assert_ptr_equal(ng_op_axis(d, 0), C);
    ng_op_t *params[2] = {a, b};
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &d, 1, params, 2);
    assert_non_null(c);

    float av[6] = {1, 2, 3, 4, 5, 6};
    float bt[6] = {10, 20, 30, 40, 50, 60}; /* stored as (C, N); b is its transpose (N, C) */
    ng_tensor_t *ta = ng_tensor_from_data(NG_FLOAT32, (int64_t[]){2, 3}, 2, av);
    ng_tensor_t *tbt = ng_tensor_from_data(NG_FLOAT32, (int64_t[]){2, 3}, 2, bt);
    ng_tensor_t *tb = ng_tensor_transpose(tbt);
    assert_non_null(tb);
    ng_tensor_t *out = ng_tensor_create(NG_FLOAT32, (int64_t[]){2, 3}, 2);
    ng_tensor_t *inputs[2] = {ta, tb};
    ng_tensor_t *outputs[1] = {out};
    assert_int_equal(ng_computation_run(c, inputs, 2, outputs, 1), NG_OK);
    assert_ptr_equal(outputs[0], out);
    float got[6];
    assert_int_equal(ng_tensor_read(out, got, sizeof got), NG_OK);
    for (int i = 0; i < 6; ++i) assert_true(got[i] == av[i] - bt[i]);

    ng_tensor_release(ta);
    ng_tensor_release(tb);
    ng_tensor_release(tbt);
    ng_tensor_release(out);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

/* The same op on the same args is computed once; a chain of elementwise ops and the sum they
 * feed is one kernel (fusion), so the arena holds no intermediate of the chain's size. */
static void test_cse_and_fusion_in_plan_figures(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 1000);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, &n, 1, NULL);
    ng_op_t *y = ng_placeholder(g, NG_FLOAT32, &n, 1, NULL);
    /* (x - y) built twice: CSE makes it one value. */
    ng_op_t *d1 = ng_subtract(g, x, y), *d2 = ng_subtract(g, x, y);
    ng_op_t *sq = ng_multiply(g, d1, d2);
    ng_op_t *s = ng_sum(g, sq, NULL, 0);
    ng_op_t *params[2] = {x, y};
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &s, 1, params, 2);
    assert_non_null(c);
    ng_computation_stats_t st = {.struct_size = sizeof st};
    assert_int_equal(ng_computation_stats(c, &st), NG_OK);
    assert_int_equal(st.num_source_ops, 6);
    assert_int_equal(st.num_kernels, 1); /* sum((x-y)*(x-y)) in one pass */
    assert_true(st.arena_bytes <= 64);   /* only the scalar result */

    float xv[1000], yv[1000];
    double expect = 0;
    for (int i = 0; i < 1000; ++i) {
        xv[i] = (float)(i % 17) * 0.25f;
        yv[i] = (float)(i % 5) - 1.0f;
        expect += ((double)xv[i] - yv[i]) * ((double)xv[i] - yv[i]);
    }
    ng_tensor_t *in[2] = {ng_tensor_from_data(NG_FLOAT32, (int64_t[]){1000}, 1, xv),
                          ng_tensor_from_data(NG_FLOAT32, (int64_t[]){1000}, 1, yv)};
    ng_tensor_t *out[1] = {NULL};
    assert_int_equal(ng_computation_run(c, in, 2, out, 1), NG_OK);
    assert_true(fabs(read_scalar_f32(out[0]) - expect) <= 1e-5 * expect);
    ng_tensor_release(out[0]);
    ng_tensor_release(in[0]);
    ng_tensor_release(in[1]);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

/* Ten chained values over N elements, each read by two ops (so it must be stored: fusion
 * would recompute it): the planner reuses memory, so the arena stays far below ten buffers. */
static void test_arena_reuses_dead_buffers(void **state) {
    (void)state;
    enum { N = 4096 };
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", N);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, &n, 1, NULL);
    ng_op_t *v = x;
    for (int i = 0; i < 10; ++i) {
        ng_op_t *e = ng_tanh(g, v); /* read by the add and the multiply: stored */
        v = ng_add(g, e, ng_multiply(g, e, e));
    }
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &v, 1, &x, 1);
    assert_non_null(c);
    ng_computation_stats_t st = {.struct_size = sizeof st};
    assert_int_equal(ng_computation_stats(c, &st), NG_OK);
    assert_true(st.num_buffers >= 10);
    assert_true(st.buffer_bytes >= (size_t)10 * N * 4);
    assert_true(st.arena_bytes <= (size_t)2 * N * 4);

    float xv[N];
    for (int i = 0; i < N; ++i) xv[i] = (float)(i % 13) / 13.0f - 0.5f;
    ng_tensor_t *in = ng_tensor_from_data(NG_FLOAT32, (int64_t[]){N}, 1, xv);
    ng_tensor_t *out[1] = {NULL};
    assert_int_equal(ng_computation_run(c, &in, 1, out, 1), NG_OK);
    float got[N];
    assert_int_equal(ng_tensor_read(out[0], got, sizeof got), NG_OK);
    for (int i = 0; i < N; ++i) {
        double r = xv[i];
        for (int k = 0; k < 10; ++k) {
            double e = tanh(r);
            r = e + e * e;
        }
        assert_true(fabs(got[i] - r) <= 1e-5);
    }
    ng_tensor_release(out[0]);
    ng_tensor_release(in);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

static long resident_kib(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (!f) return -1;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
    fclose(f);
    return resident * 4;
}

/* Many runs do not grow memory: a run allocates nothing but the NULL-slot outputs it returns. */
static void test_memory_does_not_grow_over_runs(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 256);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, &n, 1, NULL);
    ng_op_t *r = ng_sum(g, ng_exp(g, ng_add(g, x, x)), NULL, 0);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &r, 1, &x, 1);
    ng_tensor_t *in = ng_tensor_create(NG_FLOAT32, (int64_t[]){256}, 1);
    ng_tensor_t *out = ng_tensor_create(NG_FLOAT32, NULL, 0);
    ng_tensor_t *outputs[1] = {out};
    for (int i = 0; i < 1000; ++i)
        assert_int_equal(ng_computation_run(c, &in, 1, outputs, 1), NG_OK);
    long before = resident_kib();
    for (int i = 0; i < 20000; ++i)
        assert_int_equal(ng_computation_run(c, &in, 1, outputs, 1), NG_OK);
    long after = resident_kib();
    assert_true(before > 0);
    assert_true(after - before < 256); /* KiB */
    assert_true(read_scalar_f32(out) == 256.0f);
    ng_tensor_release(in);
    ng_tensor_release(out);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

static void test_compile_errors(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 4);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, &n, 1, NULL);
    ng_op_t *v = ng_variable(g, NG_FLOAT32, &n, 1, NULL);
    ng_op_t *y = ng_add(g, x, v);
    ng_transformer_t *t = ng_transformer_create(NULL);

    assert_null(ng_transformer_create("gpu"));
    assert_error_names(ng_last_status(), NG_ERR_UNSUPPORTED, "ng_transformer_create");

    assert_null(ng_computation_create(NULL, &y, 1, &x, 1));
    assert_error_names(ng_last_status(), NG_ERR_INVALID_ARGUMENT, "ng_computation_create");
    assert_null(ng_computation_create(t, NULL, 1, &x, 1));
    assert_error_names(ng_last_status(), NG_ERR_INVALID_ARGUMENT, "ng_computation_create");
    assert_null(ng_computation_create(t, &y, -1, &x, 1));
    assert_error_names(ng_last_status(), NG_ERR_INVALID_ARGUMENT, "ng_computation_create");
    ng_op_t *null_result = NULL;
    assert_null(ng_computation_create(t, &null_result, 1, NULL, 0));
    assert_error_names(ng_last_status(), NG_ERR_INVALID_ARGUMENT, "ng_computation_create");
    /* A parameter must be a placeholder, listed once. */
    assert_null(ng_computation_create(t, &y, 1, &v, 1));
    assert_error_names(ng_last_status(), NG_ERR_INVALID_ARGUMENT, "ng_computation_create");
    ng_op_t *twice[2] = {x, x};
    assert_null(ng_computation_create(t, &y, 1, twice, 2));
    assert_error_names(ng_last_status(), NG_ERR_INVALID_ARGUMENT, "ng_computation_create");
    /* x is needed, is not a parameter, and has neither a value nor an initial value. */
    assert_null(ng_computation_create(t, &y, 1, NULL, 0));
    char message[256];
    snprintf(message, sizeof message, "%s", ng_last_error());
    assert_error_names(ng_last_status(), NG_ERR_STATE, "ng_computation_create");
    assert_non_null(strstr(message, ng_op_name(x)));
    /* A wrong handle type is refused, not dereferenced as an op. */
    assert_null(ng_computation_create(t, (ng_op_t *const *)&g, 1, NULL, 0));
    assert_error_names(ng_last_status(), NG_ERR_INVALID_ARGUMENT, "ng_computation_create");

    assert_int_equal(ng_transformer_num_threads(NULL), -1);
    assert_error_names(ng_last_status(), NG_ERR_INVALID_ARGUMENT, "ng_transformer_num_threads");
    assert_int_equal(ng_transformer_set_num_threads(t, -2), NG_ERR_INVALID_ARGUMENT);
    assert_int_equal(ng_transformer_set_num_threads(t, 1), NG_OK);
    assert_int_equal(ng_transformer_num_threads(t), 1);

    ng_computation_destroy(NULL);
    ng_transformer_destroy(t);
    ng_transformer_destroy(NULL);
    ng_graph_destroy(g);
}

static void test_run_errors_change_nothing(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 2);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, &n, 1, NULL);
    ng_op_t *acc = ng_variable(g, NG_FLOAT32, &n, 1, NULL);
    ng_op_t *update = ng_assign(g, acc, ng_add(g, acc, x));
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &update, 1, &x, 1);
    assert_non_null(c);

    ng_tensor_t *good = ng_tensor_from_data(NG_FLOAT32, (int64_t[]){2}, 1, (float[]){1, 2});
    ng_tensor_t *wrong_dtype = ng_tensor_create(NG_FLOAT64, (int64_t[]){2}, 1);
    ng_tensor_t *wrong_shape = ng_tensor_create(NG_FLOAT32, (int64_t[]){3}, 1);
    ng_tensor_t *out[1] = {NULL};

    assert_error_names(ng_computation_run(NULL, &good, 1, out, 1), NG_ERR_INVALID_ARGUMENT,
                       "ng_computation_run");
    assert_error_names(ng_computation_run(c, NULL, 1, out, 1), NG_ERR_INVALID_ARGUMENT,
                       "ng_computation_run");
    ng_tensor_t *null_input = NULL;
    assert_error_names(ng_computation_run(c, &null_input, 1, out, 1), NG_ERR_INVALID_ARGUMENT,
                       "ng_computation_run");
    assert_error_names(ng_computation_run(c, &wrong_dtype, 1, out, 1), NG_ERR_DTYPE,
                       "ng_computation_run");
    assert_error_names(ng_computation_run(c, &wrong_shape, 1, out, 1), NG_ERR_AXES,
                       "ng_computation_run");
    /* Counts that are not the computation's: never read past the caller's arrays. */
    assert_error_names(ng_computation_run(c, &good, 2, out, 1), NG_ERR_INVALID_ARGUMENT,
                       "ng_computation_run");
    assert_error_names(ng_computation_run(c, &good, 0, out, 1), NG_ERR_INVALID_ARGUMENT,
                       "ng_computation_run");
    assert_error_names(ng_computation_run(c, &good, 1, out, 2), NG_ERR_INVALID_ARGUMENT,
                       "ng_computation_run");
    assert_error_names(ng_computation_run(c, &good, 1, out, -1), NG_ERR_INVALID_ARGUMENT,
                       "ng_computation_run");
    assert_int_equal(ng_computation_num_params(c), 1);
    assert_int_equal(ng_computation_num_results(c), 1);
    assert_int_equal(ng_computation_num_params(NULL), -1);
    assert_int_equal(ng_last_status(), NG_ERR_INVALID_ARGUMENT);
    assert_int_equal(ng_computation_num_results(NULL), -1);
    assert_int_equal(ng_last_status(), NG_ERR_INVALID_ARGUMENT);
    ng_tensor_t *bad_out[1] = {wrong_shape};
    assert_error_names(ng_computation_run(c, &good, 1, bad_out, 1), NG_ERR_AXES,
                       "ng_computation_run");
    assert_null(out[0]);

    /* None of the failed runs touched the variable. */
    ng_tensor_t *value = NULL;
    assert_int_equal(ng_transformer_get_value(t, acc, &value), NG_ERR_NOT_FOUND);
    assert_null(value);
    assert_int_equal(ng_computation_run(c, &good, 1, out, 1), NG_OK);
    assert_int_equal(ng_transformer_get_value(t, acc, &value), NG_OK);
    float got[2];
    assert_int_equal(ng_tensor_read(value, got, sizeof got), NG_OK);
    assert_true(got[0] == 1.0f && got[1] == 2.0f);

    /* get/set_value errors. */
    assert_error_names(ng_transformer_get_value(t, x, NULL), NG_ERR_INVALID_ARGUMENT,
                       "ng_transformer_get_value");
    ng_tensor_t *not_filled = value;
    assert_error_names(ng_transformer_get_value(t, update, &not_filled), NG_ERR_INVALID_ARGUMENT,
                       "ng_transformer_get_value");
    assert_null(not_filled); /* out-parameters are NULL on failure */
    assert_error_names(ng_transformer_set_value(t, acc, wrong_dtype), NG_ERR_DTYPE,
                       "ng_transformer_set_value");
    assert_error_names(ng_transformer_set_value(t, acc, wrong_shape), NG_ERR_AXES,
                       "ng_transformer_set_value");
    assert_error_names(ng_transformer_set_value(t, acc, NULL), NG_ERR_INVALID_ARGUMENT,
                       "ng_transformer_set_value");
    assert_error_names(ng_computation_stats(c, NULL), NG_ERR_INVALID_ARGUMENT,
                       "ng_computation_stats");

    ng_tensor_release(value);
    ng_tensor_release(out[0]);
    ng_tensor_release(good);
    ng_tensor_release(wrong_dtype);
    ng_tensor_release(wrong_shape);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

/* A variable's initial value is any op, evaluated once and broadcast to its axes; a
 * computation outliving its transformer handle keeps working. */
static void test_initializers_and_lifetimes(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *A = ng_axis(g, "A", 2), *B = ng_axis(g, "B", 3);
    const ng_axis_t *ab[2] = {A, B};
    ng_op_t *init = ng_constant(g, NG_FLOAT32, &B, 1, (float[]){1, 2, 3});
    ng_op_t *w = ng_variable(g, NG_FLOAT32, ab, 2, ng_multiply(g, init, ng_scalar(g, 2)));
    ng_op_t *s = ng_sum(g, w, NULL, 0);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &s, 1, NULL, 0);
    assert_non_null(c);
    ng_transformer_destroy(t); /* the computation keeps the transformer's state alive */
    assert_true(run_scalar(c) == 24.0f);
    assert_true(run_scalar(c) == 24.0f);
    ng_computation_destroy(c);
    ng_graph_destroy(g);
}

/* A strided input is read in place: the computation is planned again for the input's strides,
 * so a transposed matrix reaches BLAS as a transpose flag (one kernel, nothing packed). */
static void test_strided_input_is_read_in_place(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *M = ng_axis(g, "M", 3), *K = ng_axis(g, "K", 4), *N = ng_axis(g, "N", 2);
    const ng_axis_t *mk[2] = {M, K}, *kn[2] = {K, N};
    ng_op_t *a = ng_placeholder(g, NG_FLOAT64, mk, 2, NULL);
    ng_op_t *b = ng_placeholder(g, NG_FLOAT64, kn, 2, NULL);
    ng_op_t *d = ng_dot(g, a, b);
    ng_op_t *params[2] = {a, b};
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &d, 1, params, 2);
    assert_non_null(c);

    double av[12], bnk[8]; /* b stored as (N, K); its transpose view is (K, N) */
    for (int i = 0; i < 12; ++i) av[i] = i - 5.5;
    for (int i = 0; i < 8; ++i) bnk[i] = 0.25 * i + 1;
    ng_tensor_t *ta = ng_tensor_from_data(NG_FLOAT64, (int64_t[]){3, 4}, 2, av);
    ng_tensor_t *stored = ng_tensor_from_data(NG_FLOAT64, (int64_t[]){2, 4}, 2, bnk);
    ng_tensor_t *tb = ng_tensor_transpose(stored);
    ng_tensor_t *in[2] = {ta, tb}, *out[1] = {NULL};
    assert_int_equal(ng_computation_run(c, in, 2, out, 1), NG_OK);
    ng_computation_stats_t st = {.struct_size = sizeof st};
    assert_int_equal(ng_computation_stats(c, &st), NG_OK);
    assert_int_equal(st.num_kernels, 1);
    assert_int_equal(st.arena_bytes, 64); /* the 3x2 result only */
    double got[6];
    assert_int_equal(ng_tensor_read(out[0], got, sizeof got), NG_OK);
    for (int m = 0; m < 3; ++m)
        for (int n = 0; n < 2; ++n) {
            double r = 0;
            for (int k = 0; k < 4; ++k) r += av[m * 4 + k] * bnk[n * 4 + k];
            assert_true(got[m * 2 + n] == r);
        }
    ng_tensor_release(out[0]);
    ng_tensor_release(ta);
    ng_tensor_release(tb);
    ng_tensor_release(stored);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_assign_and_sequential_semantics),
        cmocka_unit_test(test_persistent_accumulates_across_runs),
        cmocka_unit_test(test_alignment_strided_input_and_given_output),
        cmocka_unit_test(test_strided_input_is_read_in_place),
        cmocka_unit_test(test_cse_and_fusion_in_plan_figures),
        cmocka_unit_test(test_arena_reuses_dead_buffers),
        cmocka_unit_test(test_memory_does_not_grow_over_runs),
        cmocka_unit_test(test_compile_errors),
        cmocka_unit_test(test_run_errors_change_nothing),
        cmocka_unit_test(test_initializers_and_lifetimes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
