/* What the compiler fuses into a matrix product's GEMM, against plain C loops:
 * - weight updates w <- w - s * dot(a, b) (plain SGD's form), one GEMM accumulating into w: both
 *   dtypes, w stored in the product's orientation or transposed, the scale on either side, an
 *   operand read through BLAS's transpose flag, one-row and one-column products, an empty
 *   contraction, a scale changed between runs; not fused when the product or the new value is
 *   also a result, the product is read twice or the product reads w itself;
 * - layer outputs dot(x, w) + b and relu(dot(x, w) + b), one GEMM over the bias with the ReLU
 *   after it: both dtypes, the bias on either side, a bias matrix, x transposed or a strided view,
 *   one-row and one-column products, an empty contraction, NaN; not fused when the product is
 *   also a result or read by another op.
 * The plan's kernel count tells whether the fusion happened. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "exec_test_util.h"

enum { MAX_ELEMENTS = 256 };

typedef enum extra {
    EXTRA_NONE,
    EXTRA_PRODUCT,   /* the product is also a result */
    EXTRA_NEW_VALUE, /* w's new value is also a result */
    EXTRA_SUM,       /* another consumer reads the product (its sum is a result) */
} extra_t;

typedef struct update_case {
    ng_dtype_t dt;
    int64_t i, j, k;  /* w and the product are i x j, a is i x k, b is k x j */
    int w_transposed; /* w's axes are (J, I) */
    int a_transposed; /* a's axes are (K, I) */
    int scale_first;  /* s * dot(a, b) rather than dot(a, b) * s */
    extra_t extra;
    int32_t want_kernels; /* 0: do not check */
} update_case_t;

/* A constant of dtype dt (float32 or float64) holding the n values v. */
static ng_op_t *constant_of(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                            const double *v, int64_t n) {
    float f[MAX_ELEMENTS];
    assert_true(n <= MAX_ELEMENTS);
    for (int64_t i = 0; i < n; ++i) f[i] = (float)v[i];
    return ng_constant(g, dt, axes, 2, dt == NG_FLOAT32 ? (const void *)f : (const void *)v);
}

/* Element (r, c) of a matrix with `cols` columns, stored transposed or not. */
static double at(const double *m, int64_t rows, int64_t cols, int transposed, int64_t r,
                 int64_t c) {
    return transposed ? m[c * rows + r] : m[r * cols + c];
}

/* w -= s * a b over the (i, j) elements, w stored as the case says. */
static void reference_update(const update_case_t *u, const double *a, const double *b, double s,
                             double *w) {
    for (int64_t r = 0; r < u->i; ++r)
        for (int64_t c = 0; c < u->j; ++c) {
            double p = 0;
            for (int64_t q = 0; q < u->k; ++q)
                p += at(a, u->i, u->k, u->a_transposed, r, q) * b[q * u->j + c];
            double *x = u->w_transposed ? &w[c * u->i + r] : &w[r * u->j + c];
            *x -= s * p;
        }
}

static void check_update(const update_case_t *u) {
    const double scales[2] = {0.5, -0.25}; /* the scale of the first and of the second run */
    double w0[MAX_ELEMENTS], a[MAX_ELEMENTS], b[MAX_ELEMENTS];
    assert_true(u->i * u->j <= MAX_ELEMENTS && u->i * u->k <= MAX_ELEMENTS &&
                u->k * u->j <= MAX_ELEMENTS);
    for (int64_t x = 0; x < u->i * u->j; ++x) w0[x] = ex_value(x, 1) / 4;
    for (int64_t x = 0; x < u->i * u->k; ++x) a[x] = ex_value(x, 2);
    for (int64_t x = 0; x < u->k * u->j; ++x) b[x] = ex_value(x, 3) / 2;

    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *I = ng_axis(g, "I", u->i), *J = ng_axis(g, "J", u->j),
                    *K = ng_axis(g, "K", u->k);
    const ng_axis_t *w_axes[2] = {u->w_transposed ? J : I, u->w_transposed ? I : J};
    const ng_axis_t *a_axes[2] = {u->a_transposed ? K : I, u->a_transposed ? I : K};
    const ng_axis_t *b_axes[2] = {K, J};
    ng_op_t *w = ng_variable(g, u->dt, w_axes, 2, constant_of(g, u->dt, w_axes, w0, u->i * u->j));
    ng_op_t *s = ng_persistent_tensor(g, u->dt, NULL, 0, ng_scalar_of(g, u->dt, scales[0]));
    ng_op_t *params[2] = {ng_placeholder(g, u->dt, a_axes, 2, NULL),
                          ng_placeholder(g, u->dt, b_axes, 2, NULL)};
    ng_op_t *product = ng_dot(g, params[0], params[1]);
    ng_op_t *scaled = u->scale_first ? ng_multiply(g, s, product) : ng_multiply(g, product, s);
    ng_op_t *new_value = ng_subtract(g, w, scaled);
    ng_op_t *results[2] = {ng_assign(g, w, new_value), NULL};
    int32_t num_results = 1;
    if (u->extra == EXTRA_PRODUCT) results[num_results++] = product;
    if (u->extra == EXTRA_NEW_VALUE) results[num_results++] = new_value;
    if (u->extra == EXTRA_SUM) results[num_results++] = ng_sum(g, product, NULL, 0);
    assert_int_equal(ng_graph_status(g), NG_OK);

    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, results, num_results, params, 2);
    if (!c) fail_msg("compiling failed: %s", ng_last_error());
    ng_computation_stats_t st = {.struct_size = sizeof st};
    assert_int_equal(ng_computation_stats(c, &st), NG_OK);
    if (u->want_kernels) assert_int_equal(st.num_kernels, u->want_kernels);
    if (u->extra != EXTRA_NONE) /* the product is stored, then the update reads it */
        assert_true(st.num_kernels >= 2);

    int64_t a_shape[2] = {u->a_transposed ? u->k : u->i, u->a_transposed ? u->i : u->k};
    int64_t b_shape[2] = {u->k, u->j};
    double a_stored[MAX_ELEMENTS];
    for (int64_t r = 0; r < u->i; ++r) /* a as its placeholder's axes order it */
        for (int64_t q = 0; q < u->k; ++q)
            a_stored[u->a_transposed ? q * u->i + r : r * u->k + q] = a[r * u->k + q];
    ng_tensor_t *inputs[2] = {ex_tensor(u->dt, a_shape, 2, a_stored),
                              ex_tensor(u->dt, b_shape, 2, b)};
    double want[MAX_ELEMENTS], got[MAX_ELEMENTS];
    memcpy(want, w0, sizeof(double) * (size_t)(u->i * u->j));
    update_case_t reference = *u;
    reference.a_transposed = 0; /* a is kept row-major (I, K) above */
    for (int run = 0; run < 2; ++run) {
        if (run == 1) { /* a new scale, read by the compiled step without recompiling */
            ng_tensor_t *v = ex_tensor(u->dt, NULL, 0, &scales[1]);
            assert_int_equal(ng_transformer_set_value(t, s, v), NG_OK);
            ng_tensor_release(v);
        }
        ng_tensor_t *outputs[2] = {NULL, NULL};
        if (ng_computation_run(c, inputs, 2, outputs, num_results) != NG_OK)
            fail_msg("run failed: %s", ng_last_error());
        reference_update(&reference, a, b, scales[run], want);
        if (u->extra == EXTRA_PRODUCT || u->extra == EXTRA_SUM) {
            double product_want[MAX_ELEMENTS], zero[MAX_ELEMENTS] = {0};
            memcpy(product_want, zero, sizeof(double) * (size_t)(u->i * u->j));
            update_case_t plain = reference;
            plain.w_transposed = 0;
            reference_update(&plain, a, b, -1.0, product_want); /* 0 + a b */
            if (u->extra == EXTRA_SUM) {
                double total = 0;
                for (int64_t x = 0; x < u->i * u->j; ++x) total += product_want[x];
                product_want[0] = total;
            }
            int64_t n = u->extra == EXTRA_SUM ? 1 : u->i * u->j;
            assert_int_equal(ng_tensor_numel(outputs[1]), n);
            ex_read(outputs[1], got);
            ex_assert_close(got, product_want, n, ex_tol(u->dt), "product");
        }
        if (u->extra == EXTRA_NEW_VALUE) {
            ex_read(outputs[1], got);
            ex_assert_close(got, want, u->i * u->j, ex_tol(u->dt), "new value");
        }
        for (int32_t r = 0; r < num_results; ++r) ng_tensor_release(outputs[r]);
        ng_tensor_t *value = NULL;
        assert_int_equal(ng_transformer_get_value(t, w, &value), NG_OK);
        ex_read(value, got);
        ng_tensor_release(value);
        ex_assert_close(got, want, u->i * u->j, ex_tol(u->dt), "w");
    }
    ng_tensor_release(inputs[0]);
    ng_tensor_release(inputs[1]);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

static void test_fused_float32(void **state) {
    (void)state;
    check_update(&(update_case_t){NG_FLOAT32, 5, 7, 4, 0, 0, 1, EXTRA_NONE, 1});
    check_update(&(update_case_t){NG_FLOAT32, 5, 7, 4, 0, 0, 0, EXTRA_NONE, 1});
}

static void test_fused_float64(void **state) {
    (void)state;
    check_update(&(update_case_t){NG_FLOAT64, 6, 3, 9, 0, 0, 1, EXTRA_NONE, 1});
    check_update(&(update_case_t){NG_FLOAT64, 6, 3, 9, 0, 0, 0, EXTRA_NONE, 1});
}

/* w stored (J, I): the product is computed transposed, straight into w. */
static void test_fused_into_transposed_weights(void **state) {
    (void)state;
    check_update(&(update_case_t){NG_FLOAT32, 5, 7, 4, 1, 0, 1, EXTRA_NONE, 1});
    check_update(&(update_case_t){NG_FLOAT64, 8, 3, 5, 1, 1, 0, EXTRA_NONE, 1});
}

/* a read through BLAS's transpose flag (its placeholder is (K, I)), as a weight gradient's
 * activations are. */
static void test_fused_with_transposed_operand(void **state) {
    (void)state;
    check_update(&(update_case_t){NG_FLOAT32, 5, 7, 4, 0, 1, 1, EXTRA_NONE, 1});
    check_update(&(update_case_t){NG_FLOAT64, 5, 7, 4, 0, 1, 1, EXTRA_NONE, 1});
}

/* One-row and one-column products go to gemv, which must accumulate too. */
static void test_fused_vector_shapes(void **state) {
    (void)state;
    check_update(&(update_case_t){NG_FLOAT32, 1, 7, 4, 0, 0, 1, EXTRA_NONE, 1});
    check_update(&(update_case_t){NG_FLOAT32, 6, 1, 4, 0, 1, 1, EXTRA_NONE, 1});
    check_update(&(update_case_t){NG_FLOAT64, 1, 7, 4, 1, 0, 0, EXTRA_NONE, 1});
    check_update(&(update_case_t){NG_FLOAT64, 6, 1, 4, 1, 1, 0, EXTRA_NONE, 1});
    check_update(&(update_case_t){NG_FLOAT64, 1, 1, 9, 0, 0, 1, EXTRA_NONE, 0});
}

/* An empty contraction: the product is zero, w keeps its value. */
static void test_fused_empty_contraction(void **state) {
    (void)state;
    check_update(&(update_case_t){NG_FLOAT32, 4, 3, 0, 0, 0, 1, EXTRA_NONE, 0});
    check_update(&(update_case_t){NG_FLOAT64, 4, 3, 0, 1, 0, 0, EXTRA_NONE, 0});
}

/* Whoever else reads the product or the new value needs it stored: the GEMM writes it and a
 * second kernel updates w. */
static void test_not_fused_when_needed_elsewhere(void **state) {
    (void)state;
    check_update(&(update_case_t){NG_FLOAT32, 5, 7, 4, 0, 0, 1, EXTRA_PRODUCT, 0});
    check_update(&(update_case_t){NG_FLOAT64, 5, 7, 4, 1, 0, 0, EXTRA_PRODUCT, 0});
    check_update(&(update_case_t){NG_FLOAT32, 5, 7, 4, 0, 0, 1, EXTRA_NEW_VALUE, 0});
    check_update(&(update_case_t){NG_FLOAT64, 5, 7, 4, 0, 1, 0, EXTRA_SUM, 0});
}

/* w <- w - s * (w c): the product reads w, so it cannot accumulate into w. */
static void test_not_fused_when_product_reads_w(void **state) {
    (void)state;
    for (int d = 0; d < 2; ++d) {
        ng_dtype_t dt = d ? NG_FLOAT64 : NG_FLOAT32;
        enum { R = 3, C = 4 };
        double w0[R * C], cm[C * C], want[R * C];
        for (int x = 0; x < R * C; ++x) w0[x] = ex_value(x, 4) / 4;
        for (int x = 0; x < C * C; ++x) cm[x] = ex_value(x, 5);
        ng_graph_t *g = ng_graph_create();
        const ng_axis_t *I = ng_axis(g, "I", R), *J = ng_axis(g, "J", C), *J2 = ng_axis(g, "J2", C);
        const ng_axis_t *w_axes[2] = {I, J}, *c_axes[2] = {J, J2};
        ng_op_t *w = ng_variable(g, dt, w_axes, 2, constant_of(g, dt, w_axes, w0, R * C));
        ng_op_t *cop = constant_of(g, dt, c_axes, cm, C * C);
        ng_op_t *product = ng_cast_axes(g, ng_dot(g, w, cop), w_axes, 2);
        ng_op_t *update =
            ng_assign(g, w, ng_subtract(g, w, ng_multiply(g, ng_scalar_of(g, dt, 0.5), product)));
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c) {
                double p = 0;
                for (int q = 0; q < C; ++q) p += w0[r * C + q] * cm[q * C + c];
                want[r * C + c] = w0[r * C + c] - 0.5 * p;
            }
        ng_transformer_t *t = ng_transformer_create(NULL);
        ng_computation_t *comp = ng_computation_create(t, &update, 1, NULL, 0);
        if (!comp) fail_msg("compiling failed: %s", ng_last_error());
        ng_tensor_t *out = NULL;
        assert_int_equal(ng_computation_run(comp, NULL, 0, &out, 1), NG_OK);
        ng_tensor_release(out);
        ng_tensor_t *value = NULL;
        assert_int_equal(ng_transformer_get_value(t, w, &value), NG_OK);
        double got[R * C];
        ex_read(value, got);
        ng_tensor_release(value);
        ex_assert_close(got, want, R * C, ex_tol(dt), "w");
        ng_computation_destroy(comp);
        ng_transformer_destroy(t);
        ng_graph_destroy(g);
    }
}

/* ---- layer outputs ---------------------------------------------------------------------- */

typedef struct layer_case {
    ng_dtype_t dt;
    int64_t n, f, h;      /* x is n x f, w is f x h, the output n x h */
    int x_layout;         /* 0: x is (N, F); 1: (F, N); 2: (N, F) viewed in a wider tensor */
    int relu;             /* relu(dot + b) rather than dot + b */
    int bias_first;       /* b + dot(x, w): a vector bias puts H first in the output */
    int full_bias;        /* the bias is an (N, H) matrix rather than an H vector */
    int64_t nan_at;       /* -1, or the element of x (row-major (N, F)) that is NaN */
    extra_t extra;        /* EXTRA_PRODUCT or EXTRA_SUM: the product is read elsewhere */
    int32_t want_kernels; /* 0: do not check */
} layer_case_t;

/* |got - want| within the dtype's tolerance, NaN where want is NaN. */
static void assert_close_nan(const double *got, const double *want, int64_t n, double tol,
                             const char *what) {
    for (int64_t i = 0; i < n; ++i) {
        if (isnan(want[i]) ? isnan(got[i]) : fabs(got[i] - want[i]) <= tol * fmax(1, fabs(want[i])))
            continue;
        fail_msg("%s[%lld]: got %.17g, want %.17g", what, (long long)i, got[i], want[i]);
    }
}

static void check_layer(const layer_case_t *u) {
    enum { WIDEN = 3 }; /* extra columns of the tensor x is a view of (x_layout 2) */
    double x[MAX_ELEMENTS], w[MAX_ELEMENTS], b[MAX_ELEMENTS], want[MAX_ELEMENTS];
    double got[MAX_ELEMENTS];
    const int64_t n = u->n, f = u->f, h = u->h;
    assert_true(n * (f + WIDEN) <= MAX_ELEMENTS && f * h <= MAX_ELEMENTS && n * h <= MAX_ELEMENTS);
    for (int64_t i = 0; i < n * f; ++i) x[i] = ex_value(i, 6);
    if (u->nan_at >= 0) x[u->nan_at] = NAN;
    for (int64_t i = 0; i < f * h; ++i) w[i] = ex_value(i, 7) / 2;
    for (int64_t i = 0; i < (u->full_bias ? n * h : h); ++i) b[i] = ex_value(i, 8) / 4;
    const int h_first = u->bias_first && !u->full_bias; /* the output's axes are (H, N) */
    for (int64_t r = 0; r < n; ++r)
        for (int64_t c = 0; c < h; ++c) {
            double v = u->full_bias ? b[r * h + c] : b[c];
            for (int64_t q = 0; q < f; ++q) v += x[r * f + q] * w[q * h + c];
            if (u->relu && v < 0) v = 0; /* NaN stays NaN */
            want[h_first ? c * n + r : r * h + c] = v;
        }

    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *N = ng_axis(g, "N", n), *F = ng_axis(g, "F", f), *H = ng_axis(g, "H", h);
    const ng_axis_t *x_axes[2] = {u->x_layout == 1 ? F : N, u->x_layout == 1 ? N : F};
    const ng_axis_t *w_axes[2] = {F, H}, *b_axes[2] = {N, H};
    ng_op_t *param = ng_placeholder(g, u->dt, x_axes, 2, NULL);
    ng_op_t *wop = ng_variable(g, u->dt, w_axes, 2, constant_of(g, u->dt, w_axes, w, f * h));
    ng_op_t *bop =
        u->full_bias ? constant_of(g, u->dt, b_axes, b, n * h) : ng_variable(g, u->dt, &H, 1, NULL);
    ng_op_t *product = ng_dot(g, param, wop);
    ng_op_t *z = u->bias_first ? ng_add(g, bop, product) : ng_add(g, product, bop);
    ng_op_t *results[2] = {u->relu ? ng_relu(g, z) : z, NULL};
    int32_t num_results = 1;
    if (u->extra == EXTRA_PRODUCT) results[num_results++] = product;
    if (u->extra == EXTRA_SUM) results[num_results++] = ng_sum(g, product, NULL, 0);
    assert_int_equal(ng_graph_status(g), NG_OK);

    /* x as its placeholder orders it, possibly as a view of a wider tensor */
    double stored[MAX_ELEMENTS];
    const int64_t cols = u->x_layout == 2 ? f + WIDEN : f;
    for (int64_t r = 0; r < n; ++r)
        for (int64_t q = 0; q < cols; ++q) {
            double v = q < f ? x[r * f + q] : 1e30; /* never read */
            if (u->x_layout == 1)
                stored[q * n + r] = v;
            else
                stored[r * cols + q] = v;
        }
    int64_t shape[2] = {u->x_layout == 1 ? f : n, u->x_layout == 1 ? n : cols};
    ng_tensor_t *whole = ex_tensor(u->dt, shape, 2, stored);
    ng_tensor_t *input = u->x_layout == 2 ? ng_tensor_slice(whole, 1, 0, f, 1) : whole;
    assert_non_null(input);

    ng_transformer_t *t = ng_transformer_create(NULL);
    if (!u->full_bias) { /* the bias variable's value */
        ng_tensor_t *bv = ex_tensor(u->dt, &h, 1, b);
        assert_int_equal(ng_transformer_set_value(t, bop, bv), NG_OK);
        ng_tensor_release(bv);
    }
    ng_computation_t *c = ng_computation_create(t, results, num_results, &param, 1);
    if (!c) fail_msg("compiling failed: %s", ng_last_error());
    ng_tensor_t *outputs[2] = {NULL, NULL};
    for (int run = 0; run < 2; ++run) { /* the second run reuses the compiled plan */
        for (int32_t r = 0; r < num_results; ++r) {
            ng_tensor_release(outputs[r]);
            outputs[r] = NULL;
        }
        if (ng_computation_run(c, &input, 1, outputs, num_results) != NG_OK)
            fail_msg("run failed: %s", ng_last_error());
        assert_int_equal(ng_tensor_numel(outputs[0]), n * h);
        if (n != h && n * h > 0) assert_int_equal(ng_tensor_dim(outputs[0], 0), h_first ? h : n);
        ex_read(outputs[0], got);
        assert_close_nan(got, want, n * h, ex_tol(u->dt), "layer");
    }
    ng_computation_stats_t st = {.struct_size = sizeof st};
    assert_int_equal(ng_computation_stats(c, &st), NG_OK);
    if (u->want_kernels) assert_int_equal(st.num_kernels, u->want_kernels);
    if (u->extra != EXTRA_NONE) assert_true(st.num_kernels >= 2); /* the product is stored */
    if (u->extra == EXTRA_PRODUCT) {                              /* the product itself */
        for (int64_t r = 0; r < n; ++r)
            for (int64_t col = 0; col < h; ++col) {
                double v = 0;
                for (int64_t q = 0; q < f; ++q) v += x[r * f + q] * w[q * h + col];
                want[r * h + col] = v;
            }
        ex_read(outputs[1], got);
        assert_close_nan(got, want, n * h, ex_tol(u->dt), "product");
    }
    for (int32_t r = 0; r < num_results; ++r) ng_tensor_release(outputs[r]);
    if (input != whole) ng_tensor_release(input);
    ng_tensor_release(whole);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

static void test_layer_fused(void **state) {
    (void)state;
    for (int d = 0; d < 2; ++d) {
        ng_dtype_t dt = d ? NG_FLOAT64 : NG_FLOAT32;
        check_layer(&(layer_case_t){dt, 6, 5, 7, 0, 1, 0, 0, -1, EXTRA_NONE, 1});
        check_layer(&(layer_case_t){dt, 6, 5, 7, 0, 0, 0, 0, -1, EXTRA_NONE, 1});
        check_layer(&(layer_case_t){dt, 6, 5, 7, 0, 1, 1, 0, -1, EXTRA_NONE, 1});
        check_layer(&(layer_case_t){dt, 6, 5, 7, 0, 1, 0, 1, -1, EXTRA_NONE, 1});
    }
}

/* x read through BLAS's transpose flag, and x a view with rows longer than its length. */
static void test_layer_strided_operands(void **state) {
    (void)state;
    check_layer(&(layer_case_t){NG_FLOAT32, 6, 5, 7, 1, 1, 0, 0, -1, EXTRA_NONE, 1});
    check_layer(&(layer_case_t){NG_FLOAT64, 6, 5, 7, 1, 0, 1, 0, -1, EXTRA_NONE, 1});
    check_layer(&(layer_case_t){NG_FLOAT32, 6, 5, 7, 2, 1, 0, 0, -1, EXTRA_NONE, 1});
    check_layer(&(layer_case_t){NG_FLOAT64, 6, 5, 7, 2, 0, 1, 1, -1, EXTRA_NONE, 1});
}

/* One row (gemv accumulating over the bias), one column, a single value, nothing to sum. */
static void test_layer_edge_shapes(void **state) {
    (void)state;
    for (int d = 0; d < 2; ++d) {
        ng_dtype_t dt = d ? NG_FLOAT64 : NG_FLOAT32;
        check_layer(&(layer_case_t){dt, 1, 9, 7, 0, 1, 0, 0, -1, EXTRA_NONE, 1});
        check_layer(&(layer_case_t){dt, 1, 9, 7, 1, 0, 1, 0, -1, EXTRA_NONE, 1});
        check_layer(&(layer_case_t){dt, 8, 9, 1, 0, 1, 0, 0, -1, EXTRA_NONE, 1});
        check_layer(&(layer_case_t){dt, 8, 9, 1, 1, 1, 1, 1, -1, EXTRA_NONE, 1});
        check_layer(&(layer_case_t){dt, 1, 3, 1, 0, 1, 0, 0, -1, EXTRA_NONE, 0});
        check_layer(&(layer_case_t){dt, 4, 0, 5, 0, 1, 0, 0, -1, EXTRA_NONE, 0});
        check_layer(&(layer_case_t){dt, 4, 0, 5, 0, 0, 1, 1, -1, EXTRA_NONE, 0});
    }
}

/* NaN in x reaches its whole row of the output, through the ReLU too. */
static void test_layer_nan(void **state) {
    (void)state;
    check_layer(&(layer_case_t){NG_FLOAT32, 6, 5, 7, 0, 1, 0, 0, 7, EXTRA_NONE, 1});
    check_layer(&(layer_case_t){NG_FLOAT64, 6, 5, 7, 1, 1, 1, 0, 12, EXTRA_NONE, 1});
}

static void test_layer_not_fused_when_product_needed(void **state) {
    (void)state;
    check_layer(&(layer_case_t){NG_FLOAT32, 6, 5, 7, 0, 1, 0, 0, -1, EXTRA_PRODUCT, 0});
    check_layer(&(layer_case_t){NG_FLOAT64, 6, 5, 7, 1, 0, 1, 0, -1, EXTRA_PRODUCT, 0});
    check_layer(&(layer_case_t){NG_FLOAT32, 6, 5, 7, 0, 1, 0, 1, -1, EXTRA_SUM, 0});
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fused_float32),
        cmocka_unit_test(test_fused_float64),
        cmocka_unit_test(test_fused_into_transposed_weights),
        cmocka_unit_test(test_fused_with_transposed_operand),
        cmocka_unit_test(test_fused_vector_shapes),
        cmocka_unit_test(test_fused_empty_contraction),
        cmocka_unit_test(test_not_fused_when_needed_elsewhere),
        cmocka_unit_test(test_not_fused_when_product_reads_w),
        cmocka_unit_test(test_layer_fused),
        cmocka_unit_test(test_layer_strided_operands),
        cmocka_unit_test(test_layer_edge_shapes),
        cmocka_unit_test(test_layer_nan),
        cmocka_unit_test(test_layer_not_fused_when_product_needed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
