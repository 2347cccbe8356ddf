/* Elementwise ops through the transformer against a scalar loop in the test: every binary op and
 * comparison with operands aligned by axis name in both orders (a(C,N) op b(N), b(N) op a(C,N),
 * a(C,N) op b(N,C)), float32/float64/int32/int64, bool results; inputs that are views (transposed,
 * reversed by a negative-step slice, broadcast); unary ops, select and cast.
 * Tolerance: results of one rounded operation on exact small inputs: 1e-6 relative in float32
 * (a few ulp for pow/exp/log/tanh), 1e-12 in float64, exact for integers and bools. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "exec_test_util.h"

static int64_t len_of(char c) {
    return c == 'C' ? 3 : 4; /* 'N' */
}

static int64_t numel_of(const char *axes) {
    int64_t n = 1;
    for (; *axes; ++axes) n *= len_of(*axes);
    return n;
}

static double op_tol(ng_dtype_t dt) {
    return dt == NG_FLOAT32 ? 1e-6 : ex_tol(dt);
}

typedef ng_op_t *(*binary_builder_t)(ng_graph_t *, ng_op_t *, ng_op_t *);
typedef struct {
    const char *name;
    binary_builder_t build;
    double (*ref)(double, double);
    int float_only;
    int is_comparison;
} binary_case_t;

static double r_add(double a, double b) {
    return a + b;
}
static double r_sub(double a, double b) {
    return a - b;
}
static double r_mul(double a, double b) {
    return a * b;
}
static double r_div(double a, double b) {
    return a / b;
}
static double r_pow(double a, double b) {
    return pow(a, b);
}
static double r_max(double a, double b) {
    return a > b ? a : b;
}
static double r_min(double a, double b) {
    return a < b ? a : b;
}
static double r_eq(double a, double b) {
    return a == b;
}
static double r_ne(double a, double b) {
    return a != b;
}
static double r_lt(double a, double b) {
    return a < b;
}
static double r_le(double a, double b) {
    return a <= b;
}
static double r_gt(double a, double b) {
    return a > b;
}
static double r_ge(double a, double b) {
    return a >= b;
}

static const binary_case_t binaries[] = {
    {"add", ng_add, r_add, 0, 0},
    {"subtract", ng_subtract, r_sub, 0, 0},
    {"multiply", ng_multiply, r_mul, 0, 0},
    {"divide", ng_divide, r_div, 1, 0},
    {"power", ng_power, r_pow, 1, 0},
    {"maximum", ng_maximum, r_max, 0, 0},
    {"minimum", ng_minimum, r_min, 0, 0},
    {"equal", ng_equal, r_eq, 0, 1},
    {"not_equal", ng_not_equal, r_ne, 0, 1},
    {"less", ng_less, r_lt, 0, 1},
    {"less_equal", ng_less_equal, r_le, 0, 1},
    {"greater", ng_greater, r_gt, 0, 1},
    {"greater_equal", ng_greater_equal, r_ge, 0, 1},
};

/* Operand values: positive for divide and power (a in 1..4, b in 0.5..3.5), small signed
 * integers with repeats otherwise (so comparisons see equal pairs). */
static double operand_value(const binary_case_t *op, int64_t i, int salt) {
    if (op->float_only) return (double)((i * 5 + salt) % 4) + (salt == 2 ? 0.5 : 1);
    return (double)((i * 5 + salt * 3) % 7) - 3;
}

/* Index of a letter within a tensor's row-major layout, given per-letter indices. */
static int64_t offset_of(const char *axes, const int64_t *idx) {
    int64_t off = 0;
    for (; *axes; ++axes) off = off * len_of(*axes) + idx[(unsigned char)*axes];
    return off;
}

/* Result axes: a's in order, then b's others. */
static void result_axes(const char *a, const char *b, char *out) {
    size_t n = strlen(a);
    memcpy(out, a, n);
    for (; *b; ++b)
        if (!strchr(a, *b)) out[n++] = *b;
    out[n] = '\0';
}

static void make_axes(ng_graph_t *g, const char *letters, const ng_axis_t **axes) {
    for (int i = 0; letters[i]; ++i)
        axes[i] = ng_axis(g, letters[i] == 'C' ? "C" : "N", len_of(letters[i]));
}

/* How an operand is passed in: dense, or as a view with the same logical values. */
typedef enum { DENSE, TRANSPOSED, REVERSED, BROADCAST } layout_t;

/* A tensor with axes `axes` (rank <= 2) holding v, laid out as `layout`. *base receives a
 * tensor to release after the view (or NULL). */
static ng_tensor_t *make_input(ng_dtype_t dt, const char *axes, const double *v, layout_t layout,
                               ng_tensor_t **base) {
    int32_t rank = (int32_t)strlen(axes);
    int64_t shape[2] = {rank > 0 ? len_of(axes[0]) : 1, rank > 1 ? len_of(axes[1]) : 1};
    int64_t n = numel_of(axes);
    double store[16];
    *base = NULL;
    if (layout == TRANSPOSED && rank == 2) {
        for (int64_t i = 0; i < shape[0]; ++i)
            for (int64_t j = 0; j < shape[1]; ++j) store[j * shape[0] + i] = v[i * shape[1] + j];
        *base = ex_tensor(dt, (int64_t[]){shape[1], shape[0]}, 2, store);
        return ng_tensor_transpose(*base);
    }
    if (layout == REVERSED) { /* the last axis stored backwards, read with step -1 */
        int64_t inner = shape[rank - 1];
        for (int64_t i = 0; i < n; ++i) store[(i / inner) * inner + (inner - 1 - i % inner)] = v[i];
        *base = ex_tensor(dt, shape, rank, store);
        return ng_tensor_slice(*base, rank - 1, INT64_MAX, INT64_MIN, -1);
    }
    if (layout == BROADCAST && rank == 2) { /* only valid when v repeats along axis 0 */
        *base = ex_tensor(dt, &shape[1], 1, v);
        return ng_tensor_broadcast(*base, shape, 2);
    }
    return ex_tensor(dt, shape, rank, v);
}

static void check_binary(const binary_case_t *op, ng_dtype_t dt, const char *a_axes,
                         const char *b_axes, layout_t a_layout, layout_t b_layout) {
    char out_axes[8];
    result_axes(a_axes, b_axes, out_axes);
    int64_t na = numel_of(a_axes), nb = numel_of(b_axes), nout = numel_of(out_axes);
    double a[16], b[16], want[16], got[16];
    for (int64_t i = 0; i < na; ++i)
        a[i] = operand_value(op, a_layout == BROADCAST ? i % len_of(a_axes[1]) : i, 1);
    for (int64_t i = 0; i < nb; ++i)
        b[i] = operand_value(op, b_layout == BROADCAST ? i % len_of(b_axes[1]) : i, 2);
    for (int64_t o = 0; o < nout; ++o) {
        int64_t idx[128] = {0}, rest = o;
        for (int k = (int)strlen(out_axes) - 1; k >= 0; --k) {
            idx[(unsigned char)out_axes[k]] = rest % len_of(out_axes[k]);
            rest /= len_of(out_axes[k]);
        }
        double r = op->ref(a[offset_of(a_axes, idx)], b[offset_of(b_axes, idx)]);
        want[o] = dt == NG_FLOAT32 && !op->is_comparison ? (double)(float)r : r;
    }
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *aa[2], *ba[2];
    make_axes(g, a_axes, aa);
    make_axes(g, b_axes, ba);
    ng_op_t *pa = ng_placeholder(g, dt, aa, (int32_t)strlen(a_axes), NULL);
    ng_op_t *pb = ng_placeholder(g, dt, ba, (int32_t)strlen(b_axes), NULL);
    ng_op_t *r = op->build(g, pa, pb);
    assert_non_null(r);
    assert_int_equal(ng_op_rank(r), (int)strlen(out_axes));
    for (int k = 0; out_axes[k]; ++k) assert_true(ng_axis_name(ng_op_axis(r, k))[0] == out_axes[k]);
    ng_tensor_t *abase, *bbase;
    ng_tensor_t *ta = make_input(dt, a_axes, a, a_layout, &abase);
    ng_tensor_t *tb = make_input(dt, b_axes, b, b_layout, &bbase);
    assert_non_null(ta);
    assert_non_null(tb);
    ng_op_t *params[2] = {pa, pb};
    ng_tensor_t *inputs[2] = {ta, tb};
    ex_run_read(g, r, params, inputs, 2, op->is_comparison ? NG_BOOL : dt, got, nout);
    char what[96];
    snprintf(what, sizeof what, "%s %s a(%s)/%d b(%s)/%d", op->name, ng_dtype_name(dt), a_axes,
             (int)a_layout, b_axes, (int)b_layout);
    ex_assert_close(got, want, nout, op->is_comparison ? 0 : op_tol(dt), what);
    ng_tensor_release(ta);
    ng_tensor_release(tb);
    if (abase) ng_tensor_release(abase);
    if (bbase) ng_tensor_release(bbase);
    ng_graph_destroy(g);
}

static void test_binary_alignment_both_orders(void **state) {
    (void)state;
    const ng_dtype_t dtypes[] = {NG_FLOAT32, NG_FLOAT64, NG_INT32, NG_INT64};
    static const char *const pairs[][2] = {{"CN", "N"}, {"N", "CN"}, {"CN", "NC"}, {"NC", "CN"},
                                           {"C", "N"},  {"", "CN"},  {"CN", ""}};
    for (size_t o = 0; o < sizeof binaries / sizeof binaries[0]; ++o)
        for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d) {
            if (binaries[o].float_only && (dtypes[d] == NG_INT32 || dtypes[d] == NG_INT64))
                continue;
            for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; ++p)
                check_binary(&binaries[o], dtypes[d], pairs[p][0], pairs[p][1], DENSE, DENSE);
        }
}

/* Views as inputs: a transposed, reversed along N, or broadcast along C; b likewise. */
static void test_binary_view_inputs(void **state) {
    (void)state;
    const ng_dtype_t dtypes[] = {NG_FLOAT32, NG_FLOAT64, NG_INT32};
    const layout_t layouts[] = {TRANSPOSED, REVERSED, BROADCAST};
    for (size_t o = 0; o < sizeof binaries / sizeof binaries[0]; ++o)
        for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d) {
            if (binaries[o].float_only && dtypes[d] == NG_INT32) continue;
            for (size_t l = 0; l < 3; ++l) {
                check_binary(&binaries[o], dtypes[d], "CN", "N", layouts[l], DENSE);
                check_binary(&binaries[o], dtypes[d], "N", "CN", REVERSED, layouts[l]);
                check_binary(&binaries[o], dtypes[d], "CN", "NC", layouts[l], layouts[l]);
            }
        }
}

typedef struct {
    const char *name;
    ng_op_t *(*build)(ng_graph_t *, ng_op_t *);
    double (*ref)(double);
    int float_only;
    double lo, hi; /* the domain sampled */
} unary_case_t;

static double u_neg(double x) {
    return -x;
}
static double u_abs(double x) {
    return fabs(x);
}
static double u_sign(double x) {
    return (x > 0) - (x < 0);
}
static double u_square(double x) {
    return x * x;
}
static double u_recip(double x) {
    return 1 / x;
}
static double u_sigmoid(double x) {
    return 1 / (1 + exp(-x));
}
static double u_relu(double x) {
    return x > 0 ? x : 0;
}
static double u_identity(double x) {
    return x;
}

static const unary_case_t unaries[] = {
    {"negative", ng_negative, u_neg, 0, -6, 6},
    {"absolute", ng_absolute, u_abs, 0, -6, 6},
    {"sign", ng_sign, u_sign, 0, -6, 6},
    {"square", ng_square, u_square, 0, -6, 6},
    {"relu", ng_relu, u_relu, 0, -6, 6},
    {"exp", ng_exp, exp, 1, -8, 8},
    {"log", ng_log, log, 1, 0.25, 40},
    {"sqrt", ng_sqrt, sqrt, 1, 0, 40},
    {"reciprocal", ng_reciprocal, u_recip, 1, 0.5, 9},
    {"sigmoid", ng_sigmoid, u_sigmoid, 1, -20, 20},
    {"sin", ng_sin, sin, 1, -6, 6},
    {"cos", ng_cos, cos, 1, -6, 6},
    {"tanh", ng_tanh, tanh, 1, -6, 6},
    {"stop_gradient", ng_stop_gradient, u_identity, 0, -6, 6},
};

static void test_unary_ops(void **state) {
    (void)state;
    const ng_dtype_t dtypes[] = {NG_FLOAT32, NG_FLOAT64, NG_INT32, NG_INT64};
    enum { N = 12 };
    for (size_t u = 0; u < sizeof unaries / sizeof unaries[0]; ++u)
        for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d) {
            ng_dtype_t dt = dtypes[d];
            int is_int = dt == NG_INT32 || dt == NG_INT64;
            if (unaries[u].float_only && is_int) continue;
            double x[N], want[N], got[N];
            for (int i = 0; i < N; ++i) {
                double v = unaries[u].lo + (unaries[u].hi - unaries[u].lo) * i / (N - 1);
                x[i] = is_int ? round(v) : dt == NG_FLOAT32 ? (double)(float)v : v;
                want[i] = unaries[u].ref(x[i]);
            }
            ng_graph_t *g = ng_graph_create();
            const ng_axis_t *ax = ng_axis(g, "N", N);
            ng_op_t *px = ng_placeholder(g, dt, &ax, 1, NULL);
            ng_op_t *r = unaries[u].build(g, px);
            ng_tensor_t *tx = ex_tensor(dt, (int64_t[]){N}, 1, x);
            ex_run_read(g, r, &px, &tx, 1, dt, got, N);
            char what[64];
            snprintf(what, sizeof what, "%s %s", unaries[u].name, ng_dtype_name(dt));
            ex_assert_close(got, want, N, op_tol(dt), what);
            ng_tensor_release(tx);
            ng_graph_destroy(g);
        }
}

/* select(cond(N), a(C, N), b(N)) and cast between every pair of numeric dtypes. */
static void test_select_and_cast(void **state) {
    (void)state;
    double cond[4] = {1, 0, 0, 1}, a[12], b[4] = {-1, -2, -3, -4}, want[12], got[12];
    for (int i = 0; i < 12; ++i) a[i] = i + 0.5;
    for (int c = 0; c < 3; ++c)
        for (int n = 0; n < 4; ++n) want[c * 4 + n] = cond[n] ? a[c * 4 + n] : b[n];
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *C = ng_axis(g, "C", 3), *N = ng_axis(g, "N", 4);
    const ng_axis_t *cn[2] = {C, N};
    ng_op_t *pc = ng_placeholder(g, NG_BOOL, &N, 1, NULL);
    ng_op_t *pa = ng_placeholder(g, NG_FLOAT64, cn, 2, NULL);
    ng_op_t *pb = ng_placeholder(g, NG_FLOAT64, &N, 1, NULL);
    ng_op_t *s = ng_select(g, pc, pa, pb);
    ng_tensor_t *inputs[3] = {ex_tensor(NG_BOOL, (int64_t[]){4}, 1, cond),
                              ex_tensor(NG_FLOAT64, (int64_t[]){3, 4}, 2, a),
                              ex_tensor(NG_FLOAT64, (int64_t[]){4}, 1, b)};
    ex_run_read(g, s, (ng_op_t *[]){pc, pa, pb}, inputs, 3, NG_FLOAT64, got, 12);
    ex_assert_close(got, want, 12, 0, "select");
    for (int i = 0; i < 3; ++i) ng_tensor_release(inputs[i]);
    ng_graph_destroy(g);

    /* cast: floats truncate toward zero, nonzero to bool is 1. */
    const ng_dtype_t dtypes[] = {NG_FLOAT32, NG_FLOAT64, NG_INT32, NG_INT64, NG_UINT8, NG_BOOL};
    double x[6] = {-2.75, -1, 0, 0.5, 3.25, 100};
    for (size_t from = 0; from < 6; ++from)
        for (size_t to = 0; to < 6; ++to) {
            /* Negative values do not fit uint8 or bool sources, nor a uint8 result. */
            if (dtypes[from] == NG_UINT8 || dtypes[from] == NG_BOOL || dtypes[to] == NG_UINT8)
                continue;
            double in[6], expect[6], out[6];
            for (int i = 0; i < 6; ++i) {
                in[i] = dtypes[from] == NG_INT32 || dtypes[from] == NG_INT64 ? trunc(x[i]) : x[i];
                expect[i] = dtypes[to] == NG_BOOL                                    ? in[i] != 0
                            : (dtypes[to] == NG_FLOAT32 || dtypes[to] == NG_FLOAT64) ? in[i]
                                                                                     : trunc(in[i]);
            }
            ng_graph_t *gc = ng_graph_create();
            const ng_axis_t *ax = ng_axis(gc, "N", 6);
            ng_op_t *px = ng_placeholder(gc, dtypes[from], &ax, 1, NULL);
            ng_op_t *r = ng_cast(gc, px, dtypes[to]);
            ng_tensor_t *tx = ex_tensor(dtypes[from], (int64_t[]){6}, 1, in);
            ex_run_read(gc, r, &px, &tx, 1, dtypes[to], out, 6);
            char what[64];
            snprintf(what, sizeof what, "cast %s to %s", ng_dtype_name(dtypes[from]),
                     ng_dtype_name(dtypes[to]));
            ex_assert_close(out, expect, 6, 0, what);
            ng_tensor_release(tx);
            ng_graph_destroy(gc);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binary_alignment_both_orders),
        cmocka_unit_test(test_binary_view_inputs),
        cmocka_unit_test(test_unary_ops),
        cmocka_unit_test(test_select_and_cast),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
